import Common
import Foundation
import Reactive

extension ChatStore {
  /// Who reads: decides whose unread messages count (the other side's).
  enum Viewer {
    case traveller
    case agent
  }

  /// A conversation row with everything ``conversation(_:agentID:)`` needs; the one binding is
  /// the sender whose unread messages count.
  static func conversationSQL(where condition: String) -> String {
    """
    SELECT c.id, c.user_id, c.status, c.agent_id, c.created_at, c.updated_at, c.closed_at, c.reservation_id,
      u.first_name, u.last_name, u.email, a.name AS agent_name,
      r.kind AS trip_kind, r.summary AS trip_summary, r.locator AS trip_locator,
      (SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = c.id) AS message_count,
      (SELECT MAX(sent_at) FROM chat_messages m WHERE m.conversation_id = c.id) AS last_at,
      (SELECT MIN(sent_at) FROM chat_messages m WHERE m.conversation_id = c.id AND m.sender = 'traveller'
        AND m.sequence > COALESCE((SELECT MAX(x.sequence) FROM chat_messages x
          WHERE x.conversation_id = c.id AND x.sender = 'agent'), 0)) AS waiting_since,
      (SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = c.id AND m.sender = ?
        AND m.read_at IS NULL) AS unread
    FROM conversations c JOIN users u ON u.id = c.user_id LEFT JOIN agents a ON a.id = c.agent_id
      LEFT JOIN reservations r ON r.id = c.reservation_id
    WHERE \(condition)
    """
  }

  static func conversation(_ row: Row, agentID: Int64?) throws -> Conversation {
    let created: Date = try row.get("created_at")
    let holder: Int64? = try row.get("agent_id")
    return Conversation(
      id: try row.get("id"), status: ConversationStatus(rawValue: try row.get("status")) ?? .open,
      travellerName: "\(try row.get("first_name", as: String.self)) \(try row.get("last_name", as: String.self))",
      travellerEmail: try row.get("email"), agentName: try row.get("agent_name"),
      heldByMe: agentID != nil && holder == agentID, trip: try trip(row, prefix: "trip_", id: "reservation_id"),
      createdAt: created, lastMessageAt: try row.get("last_at", as: Date?.self) ?? created,
      waitingSince: try row.get("waiting_since"), unread: try row.get("unread"),
      messageCount: try row.get("message_count"), closedAt: try row.get("closed_at"))
  }

  private static func trip(_ row: Row, prefix: String, id: String) throws -> AttachedTrip? {
    guard let reservationID: String = try row.get(id), let kind: String = try row.get("\(prefix)kind") else {
      return nil
    }
    return AttachedTrip(
      reservationID: reservationID, kind: ReservationKind(rawValue: kind) ?? .flight,
      summary: try row.get("\(prefix)summary"), locator: try row.get("\(prefix)locator"))
  }

  /// The longest waiting first; then the conversations answered, the least recently active first.
  static func queueOrder(_ a: Conversation, _ b: Conversation) -> Bool {
    switch (a.waitingSince, b.waitingSince) {
    case (let x?, let y?): return x != y ? x < y : a.id < b.id
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil): return a.lastMessageAt != b.lastMessageAt ? a.lastMessageAt < b.lastMessageAt : a.id < b.id
    }
  }

  static func conversationRow(_ id: Int64, _ db: Database, unreadOf sender: ChatSender = .traveller) throws -> Row {
    guard let row = try db.queryOne(conversationSQL(where: "c.id = ?"), sender.rawValue, id) else {
      throw ChatRules.notFound(id)
    }
    return row
  }

  /// - Throws: unless the agent `agentID` holds the conversation of `row` (and it is open, unless
  ///   `allowClosed`): `conversation_closed`, `conversation_taken` (another holds it), `not_your_conversation`.
  static func checkHeld(_ row: Row, by agentID: Int64, _ db: Database, allowClosed: Bool = false) throws {
    let id: Int64 = try row.get("id")
    let holder: Int64? = try row.get("agent_id")
    let status: String = try row.get("status")
    if holder == agentID, allowClosed || status == "open" { return }
    if status == "closed" {
      throw ServiceError.refused("conversation_closed", "conversation #\(id) is closed")
    }
    if holder != nil {
      let name: String = try row.get("agent_name", as: String?.self) ?? "another agent"
      throw ServiceError.refused(
        "conversation_taken", "conversation #\(id) is held by \(name)", details: ["agent": name])
    }
    throw ServiceError.refused(
      "not_your_conversation", "conversation #\(id) waits in the queue: take it first (travel-agent take \(id))")
  }

  static func thread(_ id: Int64, viewer: Viewer, agentID: Int64?, _ db: Database) throws -> ChatThread {
    let row = try conversationRow(id, db, unreadOf: viewer == .traveller ? .agent : .traveller)
    let messages = try db.query(
      """
      SELECT m.*, u.first_name, u.last_name, a.name AS agent_name,
        r.kind AS trip_kind, r.summary AS trip_summary, r.locator AS trip_locator
      FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id JOIN users u ON u.id = c.user_id
        LEFT JOIN agents a ON a.id = m.agent_id LEFT JOIN reservations r ON r.id = m.reservation_id
      WHERE m.conversation_id = ? ORDER BY m.sequence
      """, id
    ).map(message)
    return ChatThread(conversation: try conversation(row, agentID: agentID), messages: messages)
  }

  static func message(_ row: Row) throws -> ChatMessage {
    let sender = ChatSender(rawValue: try row.get("sender")) ?? .traveller
    let name: String
    if sender == .agent {
      name = try row.get("agent_name", as: String?.self) ?? "Travel agent"
    } else {
      name = "\(try row.get("first_name", as: String.self)) \(try row.get("last_name", as: String.self))"
    }
    return ChatMessage(
      id: try row.get("id"), conversationID: try row.get("conversation_id"), sequence: try row.get("sequence"),
      sender: sender, senderName: name, text: try row.get("body"),
      trip: try trip(row, prefix: "trip_", id: "reservation_id"), sentAt: try row.get("sent_at"),
      deliveredAt: try row.get("delivered_at"), readAt: try row.get("read_at"), clientID: try row.get("client_id"))
  }

  /// The message a writer already stored under `clientID`, if any.
  static func message(senderKey: String, clientID: String, _ db: Database) throws -> ChatMessage? {
    guard
      let row = try db.queryOne(
        "SELECT id FROM chat_messages WHERE sender_key = ? AND client_id = ?", senderKey, clientID)
    else { return nil }
    return try storedMessage(try row.get("id"), db)
  }

  static func storedMessage(_ id: Int64, _ db: Database) throws -> ChatMessage {
    guard
      let row = try db.queryOne(
        """
        SELECT m.*, u.first_name, u.last_name, a.name AS agent_name,
          r.kind AS trip_kind, r.summary AS trip_summary, r.locator AS trip_locator
        FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id JOIN users u ON u.id = c.user_id
          LEFT JOIN agents a ON a.id = m.agent_id LEFT JOIN reservations r ON r.id = m.reservation_id
        WHERE m.id = ?
        """, id)
    else { throw ServiceError(.unavailable, code: "message_missing", message: "message \(id) is missing") }
    return try message(row)
  }

  /// Appends a message at the conversation's next sequence (inside the open write transaction).
  static func insert(
    conversationID: Int64, sender: ChatSender, agentID: Int64?, senderKey: String, text: String, trip: String?,
    clientID: String?, now: Date, _ db: Database
  ) throws -> ChatMessage {
    let last: Int64 =
      try db.queryOne("SELECT MAX(sequence) AS last FROM chat_messages WHERE conversation_id = ?", conversationID)?
      .get("last", as: Int64?.self) ?? 0
    let id: Int64 =
      try db.query(
        """
        INSERT INTO chat_messages (conversation_id, sequence, sender, agent_id, sender_key, body, reservation_id,
          client_id, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
        """, conversationID, last + 1, sender.rawValue, agentID, senderKey, text, trip, clientID, now
      ).first?.get("id") ?? 0
    try db.run("UPDATE conversations SET updated_at = ? WHERE id = ?", now, conversationID)
    return try storedMessage(id, db)
  }

  /// Marks `sender`'s messages through `sequence` delivered (and read); publishes a receipt when
  /// any mark moved.
  static func mark(
    _ conversationID: Int64, userID: Int64, sender: ChatSender, through sequence: Int64, read: Bool,
    _ db: Database, _ environment: BackendEnvironment
  ) throws {
    let now = environment.now()
    var changed = try db.run(
      "UPDATE chat_messages SET delivered_at = ? WHERE conversation_id = ? AND sender = ? AND sequence <= ? "
        + "AND delivered_at IS NULL", now, conversationID, sender.rawValue, sequence)
    if read {
      changed += try db.run(
        "UPDATE chat_messages SET read_at = ? WHERE conversation_id = ? AND sender = ? AND sequence <= ? "
          + "AND read_at IS NULL", now, conversationID, sender.rawValue, sequence)
    }
    if changed > 0 { try publish(conversationID, userID: userID, kind: "receipt", now: now, db) }
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()

  /// Appends one event to the conversation's, the traveller's and the queue's topics:
  /// type `chat.<kind>`, data `{"conversationId", "kind", "message"?}`.
  static func publish(
    _ conversationID: Int64, userID: Int64, kind: String, message: ChatMessage? = nil, now: Date, _ db: Database
  ) throws {
    var data: [String: JSONValue] = ["conversationId": .integer(conversationID), "kind": .string(kind)]
    if let message {
      data["message"] = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(message))
    }
    for topic in [
      ChatSchema.conversationTopic(conversationID), ChatSchema.travellerTopic(userID: userID), ChatSchema.queueTopic,
    ] {
      try EventLog.append(topic: topic, type: "chat.\(kind)", data: .object(data), in: db, now: now)
    }
  }
}

/// Follows one topic of the change feed by polling it (an indexed read; cheap when idle), for the
/// embedded backend's live publishers: each event after the newest at subscription, once, in order.
enum FeedFollower {
  static func publisher(feed: any EventFeed, topic: String, interval: TimeInterval) -> AnyPublisher<StoredEvent, Never>
  {
    Deferred { () -> AnyPublisher<StoredEvent, Never> in
      let subject = PassthroughSubject<StoredEvent, Never>()
      let follower = Follower(feed: feed, topic: topic, subject: subject, interval: interval)
      follower.start()
      return subject.handleEvents(receiveCancel: { follower.stop() }).eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
  }

  private final class Follower: @unchecked Sendable {
    let feed: any EventFeed
    let topic: String
    let subject: PassthroughSubject<StoredEvent, Never>
    let timer: any DispatchSourceTimer
    private let lock = NSLock()
    private var last: Int64

    init(feed: any EventFeed, topic: String, subject: PassthroughSubject<StoredEvent, Never>, interval: TimeInterval) {
      self.feed = feed
      self.topic = topic
      self.subject = subject
      last = (try? feed.latestSequence(topic: topic)) ?? 0
      timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
      timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    }

    func start() {
      timer.setEventHandler { [self] in poll() }
      timer.resume()
    }

    func stop() { timer.cancel() }

    private func poll() {
      lock.withLock {
        guard let events = try? feed.events(topic: topic, after: last, limit: 500) else { return }
        for event in events where event.sequence > last {
          last = event.sequence
          subject.send(event)
        }
      }
    }
  }
}
