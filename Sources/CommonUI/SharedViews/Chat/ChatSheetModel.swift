import Common
import Foundation
import Reactive

/// The view model of the shared chat sheet: the signed-in traveller's conversation with the
/// agency, live, with the offline queue and the unread count for the header.
///
/// It follows the app's one ``AccountSession``: signed in, it reads the current conversation
/// (``ChatService/currentThread(token:)``) and the unread count, and reads them again on each
/// ``ChatService/changes(token:)`` (another process, an agent's reply, a read mark) — nothing is
/// re-read by hand. Reading marks the agents' messages delivered; while the sheet is open
/// (``opened()``), read.
///
/// Sending goes through the ``ChatOutbox``: the message is queued, then the queue is flushed in
/// order; when the agency's system cannot be reached the messages stay queued (``pending``) and
/// the flush is retried every `retryInterval` until they are all stored, each once.
///
/// Outputs (main queue): ``thread``, ``pending``, ``unread``, ``isSignedIn``, ``problem``,
/// ``badge``. Inputs: ``opened()``, ``closed()``, ``send(_:trip:)``.
public final class ChatSheetModel {
  /// The current conversation (nil: none yet, or signed out).
  @Published public private(set) var thread: ChatThread?
  /// Messages written but not stored yet (the offline queue), oldest first.
  @Published public private(set) var pending: [PendingChatMessage] = []
  /// Agents' messages not read yet.
  @Published public private(set) var unread = 0
  @Published public private(set) var isSignedIn = false
  /// What went wrong last (a refused message, the server unreachable), nil when all is well.
  @Published public private(set) var problem: String?
  @Published public private(set) var isOpen = false

  public let chat: any ChatService
  public let outbox: ChatOutbox
  private let session: AccountSession
  private let mainQueue: AnySchedulerOf<DispatchQueue>
  private let workQueue: AnySchedulerOf<DispatchQueue>
  private let retryInterval: DispatchQueue.SchedulerTimeType.Stride
  private var token: String?
  private var sessionSubscription: AnyCancellable?
  private var changesSubscription: AnyCancellable?
  private let openFlag = LockedFlag()
  private var retryScheduled = false

  /// - Parameters:
  ///   - workQueue: serial; where the service is called.
  ///   - retryInterval: how often a queue that could not be sent is tried again.
  public init(
    chat: any ChatService, outbox: ChatOutbox, session: AccountSession,
    mainQueue: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler(),
    workQueue: AnySchedulerOf<DispatchQueue> = DispatchQueue(label: "chat").eraseToAnyScheduler(),
    retryInterval: DispatchQueue.SchedulerTimeType.Stride = .seconds(2)
  ) {
    self.chat = chat
    self.outbox = outbox
    self.session = session
    self.mainQueue = mainQueue
    self.workQueue = workQueue
    self.retryInterval = retryInterval
    pending = outbox.pending()
    sessionSubscription = session.state.sink { [weak self] state in self?.follow(state.token) }
  }

  /// The header's badge on every tab: `Chat: 2 unread` while the agents' messages wait, nil otherwise.
  public var badge: AnyPublisher<String?, Never> {
    $unread.map { $0 > 0 ? L("Chat: \($0) unread") : nil }.removeDuplicates().eraseToAnyPublisher()
  }

  /// Whether anything shown changed (for the shell to redraw).
  public var changes: AnyPublisher<Void, Never> {
    Publishers.Merge4(
      $thread.map { _ in () }, $pending.map { _ in () }, $unread.map { _ in () }, $problem.map { _ in () }
    )
    .eraseToAnyPublisher()
  }

  /// The sheet is on screen: the agents' messages are read from now on.
  public func opened() {
    isOpen = true
    openFlag.set(true)
    reload()
  }

  public func closed() {
    isOpen = false
    openFlag.set(false)
  }

  /// Queues `text` (about the reservation `trip`, if any) and sends the queue.
  public func send(_ text: String, trip: String? = nil) {
    guard isSignedIn else {
      problem = L("Sign in first (Account tab, or 'account login' in a shell) to chat with a travel agent.")
      return
    }
    do {
      try outbox.append(text, trip: trip)
      problem = nil
    } catch {
      problem = ServiceError(wrapping: error).message
      return
    }
    pending = outbox.pending()
    flush()
  }

  // MARK: Work

  private func follow(_ newToken: String?) {
    guard newToken != token || changesSubscription == nil else { return }
    token = newToken
    isSignedIn = newToken != nil
    changesSubscription = nil
    guard let newToken else {
      thread = nil
      unread = 0
      return
    }
    changesSubscription = chat.changes(token: newToken).sink { [weak self] _ in self?.reload() }
    reload()
    flush()
  }

  private func reload() {
    guard let token else { return }
    let chat = chat
    let open = openFlag
    workQueue.schedule { [weak self] in
      let result = Result { () throws -> (ChatThread?, Int) in
        var thread = try chat.currentThread(token: token)
        if let current = thread, let last = current.messages.last(where: { $0.sender == .agent }) {
          let agents = current.messages.filter { $0.sender == .agent }
          let read = open.value && agents.contains { $0.readAt == nil }
          if read || agents.contains(where: { $0.deliveredAt == nil }) {
            try chat.acknowledge(
              conversationID: current.conversation.id, through: last.sequence, read: read, token: token)
            thread = try chat.currentThread(token: token)
          }
        }
        return (thread, try chat.unreadCount(token: token))
      }
      self?.mainQueue.schedule { [weak self] in
        guard let self, self.token == token else { return }
        switch result {
        case .success(let (thread, unread)):
          self.thread = thread
          self.unread = unread
        case .failure(let error):
          self.problem = ServiceError(wrapping: error).message
        }
      }
    }
  }

  private func flush() {
    guard let token, !outbox.pending().isEmpty else { return }
    let chat = chat
    let outbox = outbox
    workQueue.schedule { [weak self] in
      let (sent, failure) = outbox.flush(chat: chat, token: token)
      let remaining = outbox.pending()
      self?.mainQueue.schedule { [weak self] in
        guard let self else { return }
        self.pending = remaining
        if let failure {
          self.problem =
            failure.kind == .unavailable
            ? L("Not sent yet: \(failure.message). Queued messages are sent, in order, when it can be reached.")
            : failure.message
        } else if !sent.isEmpty {
          self.problem = nil
        }
        if !sent.isEmpty { self.reload() }
        if !remaining.isEmpty, failure?.kind == .unavailable { self.scheduleRetry() }
      }
    }
  }

  private func scheduleRetry() {
    guard !retryScheduled else { return }
    retryScheduled = true
    mainQueue.schedule(after: mainQueue.now.advanced(by: retryInterval)) { [weak self] in
      self?.retryScheduled = false
      self?.flush()
    }
  }
}

/// A flag read off the main queue.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  var value: Bool { lock.withLock { flag } }
  func set(_ value: Bool) { lock.withLock { flag = value } }
}
