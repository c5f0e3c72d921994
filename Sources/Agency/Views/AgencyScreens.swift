import Common
import CommonUI
import Foundation
import Reactive

/// The agents' console in the interactive app: one tab, "Console".
public enum AgencyScreens {
  /// The console over `environment`'s service, with the agent session of the context's data directory.
  @MainActor
  public static func feature(environment: AgencyEnvironment, context: CLIContext) throws -> InteractiveFeature {
    let model = AgentConsoleModel(
      console: try environment.console(context),
      session: SessionFile(dataDirectory: context.dataDirectory, fileName: SessionFile.agentFileName),
      mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
      workQueue: DispatchQueue(label: "travel-agent.console", qos: .userInitiated).eraseToAnyScheduler())
    model.start()
    return InteractiveFeature(tab: AppTab(L("Console"), root: AgentQueueScreen(model: model)))
  }
}

/// The queue of open conversations (the longest waiting first), or the sign-in form when no
/// agent is signed in. Enter opens a conversation, `t` takes it, `o` signs out.
@MainActor
public final class AgentQueueScreen: Screen {
  public let title = L("Queue")
  let model: AgentConsoleModel
  var form = SignInFormState()
  var selection = SelectionState()
  private let intents = PassthroughSubject<Navigation, Never>()
  /// The instant "waiting 12 min" counts from (the clock in the app; fixed in snapshots).
  var now: () -> Date = { Date() }

  public init(model: AgentConsoleModel) { self.model = model }

  public var changes: AnyPublisher<Void, Never> { model.didChange }
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  public var isEditingText: Bool {
    if case .signedIn = model.state { return false }
    return form.isEditingText
  }
  public var keyHints: [KeyHint] {
    guard case .signedIn = model.state else { return [KeyHint("Enter", "sign in")] }
    return [KeyHint("↑↓", "select"), KeyHint("Enter", "open"), KeyHint("t", "take"), KeyHint("o", "sign out")]
  }

  public func handle(_ key: Key) -> KeyResult {
    guard case .signedIn = model.state else {
      switch form.handle(key) {
      case .submit(let email, let password)?:
        form.isSubmitting = true
        model.signIn(email: email, password: password)
        return .handled
      case .edited?: return .handled
      case nil: return .ignored
      }
    }
    let queue = model.queue
    selection.count = queue.count
    if selection.handle(key, visibleRows: 20) { return .handled }
    let selected = selection.selected.flatMap { queue.indices.contains($0) ? queue[$0] : nil }
    switch key {
    case .enter:
      guard let selected else { return .handled }
      model.open(selected.id)
      intents.send(.push(AgentConversationScreen(model: model, id: selected.id)))
      return .handled
    case .character("t"):
      if let selected { model.take(selected.id) }
      return .handled
    case .character("o"):
      model.signOut()
      form = SignInFormState()
      return .handled
    default:
      return .ignored
    }
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    switch model.state {
    case .checking:
      Label(L("Reading the agent session…"), style: buffer.theme.muted).render(in: area.row(1), into: &buffer)
    case .signedOut(let message):
      var state = form
      if form.isSubmitting {
        state.signInFailed(message)  // the cursor back in the password: typed keys stay in the form
        form = state
      } else if message != nil, state.message != message {
        state.message = message
        form = state
      }
      Label(L("Agents sign in here (travel-server agents add creates them)."), style: buffer.theme.muted)
        .render(in: area.row(0), into: &buffer)
      SignInForm(state: state, title: L("Sign in as a travel agent")).render(
        in: Rect(x: area.x, y: area.y + 2, width: min(area.width, 60), height: 7), into: &buffer)
    case .signedIn(let agent):
      let queue = model.queue
      let waiting = queue.filter { $0.agentName == nil }.count
      Label(L("\(agent.name) · \(queue.count) open, \(waiting) waiting for an agent"), style: buffer.theme.accent)
        .render(in: area.row(0), into: &buffer)
      if let problem = model.problem {
        Label(problem, style: buffer.theme.error).render(in: area.row(1), into: &buffer)
      }
      guard !queue.isEmpty else {
        Label(
          L("No open conversation: travellers write with Ctrl-T in the apps or travel chat send."),
          style: buffer.theme.muted
        )
        .render(in: area.row(3), into: &buffer)
        return
      }
      let now = now()
      let rows = queue.map { conversation in
        [
          "#\(conversation.id)", AgencyText.waiting(conversation, now: now),
          conversation.unread > 0 ? "\(conversation.unread)" : "", AgencyText.holder(conversation),
          conversation.travellerName, conversation.trip?.summary ?? "",
        ]
      }
      Table(
        columns: [
          .init("#", .length(6)), .init("Waiting", .length(18)), .init("Unread", .length(7), alignment: .trailing),
          .init(L("Held by"), .length(14)), .init(L("Traveller"), .length(18)), .init(L("Trip")),
        ], rows: rows, state: selection
      ).render(in: Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2), into: &buffer)
    }
  }
}

/// One conversation: the messages, who holds it, the trip it is about, and the reply field.
/// `t` takes it; holding it, type and Enter replies; Esc leaves the field, then `c` closes it and
/// `p` shows the traveller's trips (read only).
@MainActor
public final class AgentConversationScreen: Screen {
  let model: AgentConsoleModel
  let id: Int64
  var field = TextFieldState(maxLength: ChatRules.maximumMessageLength)
  var hasLeftField = false
  var timeZone = TimeZone.current
  private let intents = PassthroughSubject<Navigation, Never>()

  public init(model: AgentConsoleModel, id: Int64) {
    self.model = model
    self.id = id
  }

  public var title: String { "#\(id)" }
  public var changes: AnyPublisher<Void, Never> { model.didChange }
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var conversation: Conversation? { model.thread?.conversation }
  var canReply: Bool { conversation?.heldByMe == true && conversation?.status == .open }
  public var isEditingText: Bool { canReply && !hasLeftField }
  public var keyHints: [KeyHint] {
    if isEditingText { return [KeyHint("Enter", "reply")] }
    if canReply { return [KeyHint("Enter", "type"), KeyHint("c", "close"), KeyHint("p", "trips")] }
    if conversation?.heldByMe == true { return [KeyHint("p", "trips")] }
    return conversation?.status == .open && conversation?.agentName == nil ? [KeyHint("t", "take")] : []
  }

  public func handle(_ key: Key) -> KeyResult {
    if isEditingText {
      switch key {
      case .enter:
        guard !field.text.trimmingCharacters(in: .whitespaces).isEmpty else { return .handled }
        model.reply(field.text)
        field = TextFieldState(maxLength: field.maxLength)
        return .handled
      case .escape:
        hasLeftField = true
        return .handled
      default:
        return field.handle(key) ? .handled : .ignored
      }
    }
    switch key {
    case .enter where canReply:
      hasLeftField = false
      return .handled
    case .character("t"):
      model.take(id)
      hasLeftField = false
      return .handled
    case .character("c") where canReply:
      model.closeConversation()
      return .handled
    case .character("p") where conversation?.heldByMe == true:
      model.loadTrips()
      intents.send(.push(AgentTripsScreen(model: model)))
      return .handled
    case .escape:
      model.closeView()
      return .ignored
    default:
      return .ignored
    }
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    guard let thread = model.thread else {
      Label(L("Reading conversation #\(id)…"), style: theme.muted).render(in: area.row(0), into: &buffer)
      return
    }
    let c = thread.conversation
    let holder =
      c.status == .closed
      ? "closed" : c.heldByMe ? L("held by you") : c.agentName.map { L("held by \($0)") } ?? L("waiting in the queue")
    Label("\(c.travellerName) <\(c.travellerEmail)> · \(holder)", style: theme.accent).render(
      in: area.row(0), into: &buffer)
    var top = area.y + 1
    if let trip = c.trip {
      Label(L("About: ") + ChatTranscript.describe(trip), style: theme.muted).render(in: area.row(1), into: &buffer)
      top += 1
    }
    var bottom = area.bottom - 1
    if let problem = model.problem {
      Label(problem, style: theme.error).render(
        in: Rect(x: area.x, y: bottom - 1, width: area.width, height: 1), into: &buffer)
      bottom -= 1
    }
    ChatTranscript(messages: thread.messages, viewer: .agent, timeZone: timeZone)
      .render(in: Rect(x: area.x, y: top + 1, width: area.width, height: max(0, bottom - top - 2)), into: &buffer)
    let input = Rect(x: area.x, y: area.bottom - 1, width: area.width, height: 1)
    if canReply {
      TextField(L("Reply"), state: field).placeholder(L("type, then Enter")).focused(isEditingText).render(
        in: input, into: &buffer)
    } else if c.status == .open && c.agentName == nil {
      Label(L("t takes this conversation; then you can reply."), style: theme.muted).render(in: input, into: &buffer)
    }
  }
}

/// The traveller's trips, read only.
@MainActor
public final class AgentTripsScreen: Screen {
  public let title = L("Trips")
  let model: AgentConsoleModel
  var selection = SelectionState()

  public init(model: AgentConsoleModel) { self.model = model }

  public var changes: AnyPublisher<Void, Never> { model.didChange }
  public var keyHints: [KeyHint] { [KeyHint("↑↓", "select")] }

  public func handle(_ key: Key) -> KeyResult {
    selection.count = model.trips?.count ?? 0
    return selection.handle(key, visibleRows: 20) ? .handled : .ignored
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let name = model.thread?.conversation.travellerName ?? L("The traveller")
    Label(L("\(name)'s trips (read only)"), style: buffer.theme.accent).render(in: area.row(0), into: &buffer)
    guard let trips = model.trips else {
      Label(model.problem ?? L("Reading…"), style: buffer.theme.muted).render(in: area.row(2), into: &buffer)
      return
    }
    guard !trips.isEmpty else {
      Label(L("No trips."), style: buffer.theme.muted).render(in: area.row(2), into: &buffer)
      return
    }
    Table(
      columns: [
        .init(L("Kind"), .length(7)), .init(L("Status"), .length(10)), .init(L("Locator"), .length(8)),
        .init(L("Trip")),
        .init(L("Total"), .length(14), alignment: .trailing),
      ],
      rows: trips.map { [$0.kind.rawValue, $0.status.rawValue, $0.locator ?? "", $0.summary, $0.total.formatted()] },
      state: selection
    ).render(in: Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2), into: &buffer)
  }
}
