import Common
import Foundation
import Reactive

/// The chat with the agency kept in memory, for tests of the chat sheet and the agents' console:
/// one traveller (token ``MemoryBookingAccount/token``, Ada Lovelace), agents by token
/// (``agentToken`` is Grace Hopper, ``otherAgentToken`` Alan Turing), one open conversation at a
/// time per traveller, the rules of ``ChatRules``, and a ``changes(token:)`` subject that fires on
/// every change (``changes`` counts are synchronous: tests drive time themselves).
///
/// ``isReachable`` = false makes every call fail with `server_unreachable` (`.unavailable`), as a
/// travel-server that is down would; ``sent`` lists the client ids stored, in order.
public final class MemoryChat: ChatService, @unchecked Sendable {
  public static let agentToken = "agent-grace"
  public static let otherAgentToken = "agent-alan"
  private static let agents = [agentToken: "Grace Hopper", otherAgentToken: "Alan Turing"]

  private let lock = NSLock()
  private var conversations: [Conversation] = []
  private var messages: [Int64: [ChatMessage]] = [:]
  private var holders: [Int64: String] = [:]
  private var nextID: Int64 = 1
  private var clientIDs: [String] = []
  private let subject = PassthroughSubject<ChatChange, Never>()
  private var reachable = true
  /// The instant every message is stamped with.
  public var now: Date
  /// The traveller's trips (for ``AgentConsoleService/trips(conversationID:token:)``).
  public var trips: [Reservation] = []

  public init(now: Date = Date(timeIntervalSince1970: 1_790_000_000)) { self.now = now }

  /// Whether calls succeed (false: `server_unreachable`).
  public var isReachable: Bool {
    get { lock.withLock { reachable } }
    set { lock.withLock { reachable = newValue } }
  }
  /// The client ids stored, in the order stored.
  public var sent: [String] { lock.withLock { clientIDs } }

  /// The agents' side of this chat.
  public var console: any AgentConsoleService { MemoryAgentConsole(chat: self) }

  private func check() throws {
    guard reachable else {
      throw ServiceError(
        .unavailable, code: "server_unreachable", message: "the server http://127.0.0.1:1 cannot be reached")
    }
  }

  private func traveller(_ token: String) throws {
    guard token == MemoryBookingAccount.token else { throw ServiceError.notSignedIn }
  }

  private func agent(_ token: String) throws -> String {
    guard let name = Self.agents[token] else { throw ServiceError.notSignedIn }
    return name
  }

  private func publish(_ id: Int64, _ kind: String) { subject.send(ChatChange(conversationID: id, kind: kind)) }

  private func refreshed(_ conversation: Conversation, unreadOf sender: ChatSender, viewer: String?) -> Conversation {
    var c = conversation
    let list = messages[c.id] ?? []
    c.unread = list.filter { $0.sender == sender && $0.readAt == nil }.count
    c.messageCount = list.count
    c.lastMessageAt = list.last?.sentAt ?? c.createdAt
    let lastAgent = list.last { $0.sender == .agent }?.sequence ?? 0
    c.waitingSince = list.first { $0.sender == .traveller && $0.sequence > lastAgent }?.sentAt
    c.agentName = holders[c.id].flatMap { Self.agents[$0] }
    c.heldByMe = viewer != nil && holders[c.id] == viewer
    return c
  }

  // MARK: ChatService

  public func currentThread(token: String) throws -> ChatThread? {
    try lock.withLock {
      try check()
      try traveller(token)
      guard let c = conversations.last(where: { $0.status == .open }) ?? conversations.last else { return nil }
      return ChatThread(conversation: refreshed(c, unreadOf: .agent, viewer: nil), messages: messages[c.id] ?? [])
    }
  }

  public func send(_ text: String, trip: String?, clientID: String?, token: String) throws -> ChatMessage {
    let (message, started) = try lock.withLock { () throws -> (ChatMessage, Bool) in
      try check()
      try traveller(token)
      let text = try ChatRules.checkedText(text)
      if let clientID, let earlier = messages.values.joined().first(where: { $0.clientID == clientID }) {
        return (earlier, false)
      }
      var started = false
      if !conversations.contains(where: { $0.status == .open }) {
        conversations.append(
          Conversation(
            id: nextID, status: .open, travellerName: "Ada Lovelace", travellerEmail: MemoryBookingAccount.email,
            createdAt: now, lastMessageAt: now))
        nextID += 1
        started = true
      }
      let id = conversations.last { $0.status == .open }!.id
      let message = ChatMessage(
        id: Int64(messages.values.joined().count + 1), conversationID: id,
        sequence: Int64((messages[id]?.count ?? 0) + 1), sender: .traveller, senderName: "Ada Lovelace", text: text,
        sentAt: now, clientID: clientID)
      messages[id, default: []].append(message)
      if let clientID { clientIDs.append(clientID) }
      return (message, started)
    }
    if started { publish(message.conversationID, "started") }
    publish(message.conversationID, "message")
    return message
  }

  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    try lock.withLock {
      try check()
      try traveller(token)
    }
    mark(conversationID, sender: .agent, through: sequence, read: read)
  }

  func mark(_ id: Int64, sender: ChatSender, through sequence: Int64, read: Bool) {
    let changed = lock.withLock { () -> Bool in
      var changed = false
      for index in (messages[id] ?? []).indices {
        var m = messages[id]![index]
        guard m.sender == sender, m.sequence <= sequence else { continue }
        if m.deliveredAt == nil {
          m.deliveredAt = now
          changed = true
        }
        if read, m.readAt == nil {
          m.readAt = now
          changed = true
        }
        messages[id]![index] = m
      }
      return changed
    }
    if changed { publish(id, "receipt") }
  }

  public func unreadCount(token: String) throws -> Int {
    try lock.withLock {
      try check()
      try traveller(token)
      return messages.values.joined().filter { $0.sender == .agent && $0.readAt == nil }.count
    }
  }

  public func changes(token: String) -> AnyPublisher<ChatChange, Never> { subject.eraseToAnyPublisher() }

  // MARK: The agents' side

  func queue(token: String) throws -> [Conversation] {
    try lock.withLock {
      let me = token
      _ = try agent(token)
      return conversations.filter { $0.status == .open }.map { refreshed($0, unreadOf: .traveller, viewer: me) }
        .sorted { ($0.waitingSince ?? .distantFuture, $0.id) < ($1.waitingSince ?? .distantFuture, $1.id) }
    }
  }

  func thread(_ id: Int64, token: String) throws -> ChatThread {
    try lock.withLock {
      _ = try agent(token)
      guard let c = conversations.first(where: { $0.id == id }) else { throw ChatRules.notFound(id) }
      return ChatThread(conversation: refreshed(c, unreadOf: .traveller, viewer: token), messages: messages[id] ?? [])
    }
  }

  func held(_ id: Int64, token: String, allowClosed: Bool = false) throws -> Int {
    _ = try agent(token)
    guard let index = conversations.firstIndex(where: { $0.id == id }) else { throw ChatRules.notFound(id) }
    if holders[id] == token, allowClosed || conversations[index].status == .open { return index }
    if conversations[index].status == .closed {
      throw ServiceError.refused("conversation_closed", "conversation #\(id) is closed")
    }
    if let other = holders[id] {
      throw ServiceError.refused("conversation_taken", "conversation #\(id) is held by \(Self.agents[other] ?? other)")
    }
    throw ServiceError.refused("not_your_conversation", "conversation #\(id) waits in the queue: take it first")
  }

  func checkHeld(_ id: Int64, token: String) throws {
    try lock.withLock { _ = try held(id, token: token, allowClosed: true) }
  }

  func take(_ id: Int64, token: String) throws -> Conversation {
    let conversation = try lock.withLock { () throws -> Conversation in
      _ = try agent(token)
      guard let c = conversations.first(where: { $0.id == id }) else { throw ChatRules.notFound(id) }
      if holders[id] == nil && c.status == .open { holders[id] = token }
      _ = try held(id, token: token)
      return refreshed(c, unreadOf: .traveller, viewer: token)
    }
    publish(id, "taken")
    return conversation
  }

  func reply(_ id: Int64, text: String, token: String) throws -> ChatMessage {
    let message = try lock.withLock { () throws -> ChatMessage in
      let name = try agent(token)
      let text = try ChatRules.checkedText(text)
      _ = try held(id, token: token)
      let message = ChatMessage(
        id: Int64(messages.values.joined().count + 1), conversationID: id,
        sequence: Int64((messages[id]?.count ?? 0) + 1),
        sender: .agent, senderName: name, text: text, sentAt: now)
      messages[id, default: []].append(message)
      return message
    }
    publish(id, "message")
    return message
  }

  func close(_ id: Int64, token: String) throws -> Conversation {
    let conversation = try lock.withLock { () throws -> Conversation in
      let index = try held(id, token: token)
      conversations[index].status = .closed
      conversations[index].closedAt = now
      return refreshed(conversations[index], unreadOf: .traveller, viewer: token)
    }
    publish(id, "closed")
    return conversation
  }

  func trips(_ id: Int64, token: String) throws -> [Reservation] {
    try lock.withLock {
      _ = try held(id, token: token, allowClosed: true)
      return trips
    }
  }
}

/// The agents' side of a ``MemoryChat``.
public struct MemoryAgentConsole: AgentConsoleService {
  let chat: MemoryChat

  public func signIn(email: String, password: String) throws -> Session {
    guard email == "grace@agency.example", password == "agent password 1" else {
      throw ServiceError(.unauthenticated, code: "invalid_credentials", message: "email or password is wrong")
    }
    return Session(token: MemoryChat.agentToken, expiresAt: chat.now.addingTimeInterval(3600))
  }
  public func signOut(token: String) throws {}
  public func agent(token: String) throws -> AgentProfile {
    switch token {
    case MemoryChat.agentToken: AgentProfile(email: "grace@agency.example", name: "Grace Hopper")
    case MemoryChat.otherAgentToken: AgentProfile(email: "alan@agency.example", name: "Alan Turing")
    default: throw ServiceError.notSignedIn
    }
  }
  public func queue(token: String) throws -> [Conversation] { try chat.queue(token: token) }
  public func thread(conversationID: Int64, token: String) throws -> ChatThread {
    try chat.thread(conversationID, token: token)
  }
  public func take(conversationID: Int64, token: String) throws -> Conversation {
    try chat.take(conversationID, token: token)
  }
  public func reply(conversationID: Int64, text: String, clientID: String?, token: String) throws -> ChatMessage {
    try chat.reply(conversationID, text: text, token: token)
  }
  public func close(conversationID: Int64, token: String) throws -> Conversation {
    try chat.close(conversationID, token: token)
  }
  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    try chat.checkHeld(conversationID, token: token)
    chat.mark(conversationID, sender: .traveller, through: sequence, read: read)
  }
  public func trips(conversationID: Int64, token: String) throws -> [Reservation] {
    try chat.trips(conversationID, token: token)
  }
  public func changes(token: String) -> AnyPublisher<ChatChange, Never> { chat.changes(token: token) }
}
