import Common
import Foundation
import Reactive

/// Who is at the console.
public enum AgentConsoleState: Hashable, Sendable {
  case checking
  /// No agent signed in; `message` says why when it is news (a wrong password).
  case signedOut(message: String?)
  case signedIn(AgentProfile)
}

/// The view model of the agents' console (`travel-agent` with no command): sign-in, the queue
/// (the longest waiting first, with unread counts), one open conversation with its messages,
/// taking it, replying, closing it, and the traveller's trips (read only).
///
/// It follows ``AgentConsoleService/changes(token:)``: a traveller's message, another agent
/// taking a conversation or a read mark shows without a key press. While a conversation this
/// agent holds is open on screen, the traveller's messages are marked read.
///
/// Inputs: ``start()``, ``signIn(email:password:)``, ``signOut()``, ``open(_:)``, ``closeView()``,
/// ``take(_:)``, ``reply(_:)``, ``closeConversation()``, ``loadTrips()``.
/// Outputs (main queue): ``state``, ``queue``, ``thread``, ``trips``, ``problem``, ``isBusy``.
public final class AgentConsoleModel {
  @Published public private(set) var state = AgentConsoleState.checking
  @Published public private(set) var queue: [Conversation] = []
  /// The conversation open on screen.
  @Published public private(set) var thread: ChatThread?
  /// The open conversation's traveller's trips, once asked for (``loadTrips()``).
  @Published public private(set) var trips: [Reservation]?
  /// The last refusal or failure, in words ("conversation #4 is held by Alan"); nil when all is well.
  @Published public private(set) var problem: String?

  public let console: any AgentConsoleService
  private let session: SessionFile
  private let mainQueue: AnySchedulerOf<DispatchQueue>
  private let workQueue: AnySchedulerOf<DispatchQueue>
  private var token: String?
  private var openID: Int64?
  private var changes: AnyCancellable?

  public init(
    console: any AgentConsoleService, session: SessionFile, mainQueue: AnySchedulerOf<DispatchQueue>,
    workQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.console = console
    self.session = session
    self.mainQueue = mainQueue
    self.workQueue = workQueue
  }

  /// Everything shown changed (for the screens' redraws).
  public var didChange: AnyPublisher<Void, Never> {
    Publishers.Merge4(
      $state.map { _ in () }, $queue.map { _ in () }, $thread.map { _ in () },
      $problem.map { _ in () }.merge(with: $trips.map { _ in () })
    ).eraseToAnyPublisher()
  }

  /// Reads the saved agent session and, signed in, the queue.
  public func start() {
    run(
      { [session, console] () -> (String, AgentProfile)? in
        guard let token = try session.read() else { return nil }
        return (token, try console.agent(token: token))
      },
      then: { [weak self] result in
        switch result {
        case .success(let signed?): self?.signedIn(token: signed.0, agent: signed.1)
        case .success(nil): self?.state = .signedOut(message: nil)
        case .failure(let error):
          self?.state = .signedOut(message: error.kind == .unauthenticated ? nil : error.message)
        }
      })
  }

  public func signIn(email: String, password: String) {
    run(
      { [session, console] () -> (String, AgentProfile) in
        let token = try console.signIn(email: email, password: password).token
        try session.write(token)
        return (token, try console.agent(token: token))
      },
      then: { [weak self] result in
        switch result {
        case .success(let signed): self?.signedIn(token: signed.0, agent: signed.1)
        case .failure(let error): self?.state = .signedOut(message: error.message)
        }
      })
  }

  public func signOut() {
    let token = token
    self.token = nil
    changes = nil
    queue = []
    thread = nil
    state = .signedOut(message: nil)
    run(
      { [session, console] in
        if let token { try? console.signOut(token: token) }
        try session.delete()
      }, then: { _ in })
  }

  /// Shows conversation `id` (and marks the traveller's messages read when this agent holds it).
  public func open(_ id: Int64) {
    openID = id
    thread = queue.first { $0.id == id }.map { ChatThread(conversation: $0, messages: []) }
    trips = nil
    problem = nil
    reloadThread()
  }

  public func closeView() {
    openID = nil
    thread = nil
    trips = nil
  }

  public func take(_ id: Int64) {
    act({ console, token in _ = try console.take(conversationID: id, token: token) })
  }

  public func reply(_ text: String) {
    guard let id = openID else { return }
    act({ console, token in _ = try console.reply(conversationID: id, text: text, clientID: nil, token: token) })
  }

  public func closeConversation() {
    guard let id = openID else { return }
    act({ console, token in _ = try console.close(conversationID: id, token: token) })
  }

  public func loadTrips() {
    guard let id = openID, let token else { return }
    run(
      { [console] in try console.trips(conversationID: id, token: token) },
      then: { [weak self] result in
        switch result {
        case .success(let trips): self?.trips = trips
        case .failure(let error): self?.problem = error.message
        }
      })
  }

  // MARK: Work

  private func signedIn(token: String, agent: AgentProfile) {
    self.token = token
    state = .signedIn(agent)
    changes = console.changes(token: token).sink { [weak self] _ in
      self?.mainQueue.schedule { self?.reload() }
    }
    reload()
  }

  private func reload() {
    reloadQueue()
    reloadThread()
  }

  private func reloadQueue() {
    guard let token else { return }
    run(
      { [console] in try console.queue(token: token) },
      then: { [weak self] result in
        switch result {
        case .success(let queue): self?.queue = queue
        case .failure(let error): self?.problem = error.message
        }
      })
  }

  private func reloadThread() {
    guard let token, let id = openID else { return }
    run(
      { [console] () -> ChatThread in
        var thread = try console.thread(conversationID: id, token: token)
        if thread.conversation.heldByMe, let last = thread.messages.last(where: { $0.sender == .traveller }),
          thread.messages.contains(where: { $0.sender == .traveller && $0.readAt == nil })
        {
          try console.acknowledge(conversationID: id, through: last.sequence, read: true, token: token)
          thread = try console.thread(conversationID: id, token: token)
        }
        return thread
      },
      then: { [weak self] result in
        guard let self, self.openID == id else { return }
        switch result {
        case .success(let thread): self.thread = thread
        case .failure(let error): self.problem = error.message
        }
      })
  }

  /// Runs an action with the token, then reads everything again (or shows the refusal).
  private func act(_ body: @escaping @Sendable (any AgentConsoleService, String) throws -> Void) {
    guard let token else { return }
    problem = nil
    run(
      { [console] in try body(console, token) },
      then: { [weak self] result in
        if case .failure(let error) = result { self?.problem = error.message }
        self?.reload()
      })
  }

  private func run<T>(
    _ body: @escaping @Sendable () throws -> T, then: @escaping (Result<T, ServiceError>) -> Void
  ) {
    let box = UncheckedSendable(then)
    workQueue.schedule { [mainQueue] in
      let result: Result<T, ServiceError>
      do {
        result = .success(try body())
      } catch {
        result = .failure(ServiceError(wrapping: error))
      }
      let sendable = UncheckedSendable(result)
      mainQueue.schedule { box.value(sendable.value) }
    }
  }
}

/// Carries a value to the main queue, where it is used alone.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
