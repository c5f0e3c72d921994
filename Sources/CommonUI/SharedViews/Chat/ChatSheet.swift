import Common
import Foundation
import Reactive

/// The shared chat sheet: the traveller's conversation with a travel agent, over any tab of any
/// app (`travel`, `booking`, `hotel`, `car-rental`, `account`), opened by Ctrl-T — the key shown
/// in every footer — with the unread count in every header. A thin view over ``ChatSheetModel``.
///
/// Shows who holds the conversation ("Grace Hopper is with you", "Waiting for an agent"), the trip
/// it is about, the transcript (``ChatTranscript``: own messages marked sent ✓, delivered ✓✓,
/// read), queued messages, any problem, and the message field. Enter sends; Esc or Ctrl-T closes.
@MainActor
public final class ChatSheet: AppOverlay {
  public let model: ChatSheetModel
  public let key = Key.control("t")
  public let hint = KeyHint("Ctrl-T", "chat")
  public var timeZone: TimeZone
  private var field = TextFieldState(maxLength: ChatRules.maximumMessageLength)

  public init(model: ChatSheetModel, timeZone: TimeZone = .current) {
    self.model = model
    self.timeZone = timeZone
  }

  public var badge: AnyPublisher<String?, Never> { model.badge }
  public var changes: AnyPublisher<Void, Never> { model.changes }
  public var keyHints: [KeyHint] { [KeyHint("Enter", "send")] }

  public func setOpen(_ isOpen: Bool) {
    if isOpen { model.opened() } else { model.closed() }
  }

  public func handle(_ key: Key) -> KeyResult {
    switch key {
    case .enter:
      let text = field.text
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .handled }
      model.send(text)
      if model.problem == nil || !model.pending.isEmpty { field = TextFieldState(maxLength: field.maxLength) }
      return .handled
    case .escape:
      return .ignored
    default:
      return field.handle(key) ? .handled : .ignored
    }
  }

  /// The line under the title: who holds the conversation.
  var headline: String {
    guard model.isSignedIn else { return L("Sign in to chat with a travel agent.") }
    guard let conversation = model.thread?.conversation else {
      return L("Write to a travel agent: your first message starts a conversation.")
    }
    if conversation.status == .closed { return "This conversation is closed: a new message starts another." }
    if let agent = conversation.agentName { return L("\(agent) is with you.") }
    return L("Waiting for an agent: you are in the queue.")
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let width = min(area.width - 2, 76)
    let height = min(area.height, max(12, area.height - 2))
    let sheet = Sheet(title: L("Chat with a travel agent"), width: width, height: height)
    sheet.render(in: area, into: &buffer)
    let inner = sheet.contentArea(in: area)
    guard inner.height >= 5 else { return }
    let theme = buffer.theme
    var y = inner.y
    buffer.write(headline, x: inner.x, y: y, maxWidth: inner.width, style: theme.accent)
    y += 1
    if let trip = model.thread?.conversation.trip, model.thread?.conversation.status == .open {
      buffer.write(
        L("About: ") + ChatTranscript.describe(trip), x: inner.x, y: y, maxWidth: inner.width, style: theme.muted)
      y += 1
    }
    let problemRows = model.problem.map { Paragraph.wrap($0, width: inner.width).count } ?? 0
    let bottom = inner.bottom - 2 - problemRows
    let transcriptArea = Rect(x: inner.x, y: y + 1, width: inner.width, height: max(0, bottom - y - 1))
    let messages = model.thread?.conversation.status == .open ? model.thread?.messages ?? [] : []
    if messages.isEmpty && model.pending.isEmpty {
      buffer.write(L("No messages yet."), x: inner.x, y: transcriptArea.y, maxWidth: inner.width, style: theme.muted)
    } else {
      ChatTranscript(messages: messages, pending: model.pending, viewer: .traveller, timeZone: timeZone)
        .render(in: transcriptArea, into: &buffer)
    }
    if let problem = model.problem {
      Paragraph(problem, style: theme.warning).render(
        in: Rect(x: inner.x, y: bottom, width: inner.width, height: problemRows), into: &buffer)
    }
    TextField(L("Message"), state: field).placeholder(L("type, then Enter")).focused(true)
      .render(in: Rect(x: inner.x, y: inner.bottom - 1, width: inner.width, height: 1), into: &buffer)
  }
}

extension Array where Element == InteractiveFeature {
  /// These features with the chat sheet over every tab (Ctrl-T), for the apps' `main.swift`:
  /// `[…features…].withChat(chat, outbox: ChatOutbox(dataDirectory: dir), session: session)`.
  @MainActor public func withChat(_ chat: any ChatService, dataDirectory: URL, session: AccountSession)
    -> [InteractiveFeature]
  {
    guard var first = self.first else { return self }
    first.overlays.append(
      ChatSheet(model: ChatSheetModel(chat: chat, outbox: ChatOutbox(dataDirectory: dataDirectory), session: session)))
    return [first] + dropFirst()
  }
}
