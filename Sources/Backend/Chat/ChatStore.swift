import Common
import Foundation
import Reactive

/// The chat with the agency in the SQLite store: the traveller's side (``ChatService``) and the
/// agents' (``AgentConsoleService``, through ``StoreAgentConsole``) over the same tables (``ChatSchema``).
///
/// Every change runs in one write transaction (`BEGIN IMMEDIATE`, so writers queue instead of
/// deadlocking) and appends its events to the change feed (``EventLog``) in that transaction, on
/// three topics: the conversation's (`chat:<id>`), the traveller's (`chat-user:<user>`) and the
/// agents' queue (`chat-queue`). Other processes on the data directory, and a travel-server's
/// stream, follow those topics; ``changes(token:)`` polls them every `pollInterval`.
public final class ChatStore: ChatService, @unchecked Sendable {
  let db: Database
  let accounts: Accounts
  let agents: AgentAccounts
  let events: EventLog
  let environment: BackendEnvironment
  let pollInterval: TimeInterval

  public init(
    database: Database, accounts: Accounts, agents: AgentAccounts, events: EventLog,
    environment: BackendEnvironment = .live, pollInterval: TimeInterval = 0.25
  ) {
    db = database
    self.accounts = accounts
    self.agents = agents
    self.events = events
    self.environment = environment
    self.pollInterval = pollInterval
  }

  // MARK: ChatService (the traveller)

  public func currentThread(token: String) throws -> ChatThread? {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.read { db -> ChatThread? in
        guard
          let row = try db.queryOne(
            "SELECT id FROM conversations WHERE user_id = ? ORDER BY (status = 'open') DESC, id DESC LIMIT 1", userID)
        else { return nil }
        return try Self.thread(try row.get("id"), viewer: .traveller, agentID: nil, db)
      }
    }
  }

  public func send(_ text: String, trip: String?, clientID: String?, token: String) throws -> ChatMessage {
    try serviceCall {
      let text = try ChatRules.checkedText(text)
      let clientID = try ChatRules.checkedClientID(clientID)
      let userID = try accounts.userID(token: token)
      let now = environment.now()
      return try db.write { db -> ChatMessage in
        let senderKey = "u\(userID)"
        if let clientID, let earlier = try Self.message(senderKey: senderKey, clientID: clientID, db) {
          return earlier
        }
        if let trip { _ = try ReservationLedger.owned(trip, userID: userID, db) }
        let conversationID: Int64
        var started = false
        if let open = try db.queryOne(
          "SELECT id FROM conversations WHERE user_id = ? AND status = 'open'", userID)
        {
          conversationID = try open.get("id")
        } else {
          conversationID =
            try db.query(
              "INSERT INTO conversations (user_id, status, created_at, updated_at) VALUES (?, 'open', ?, ?) RETURNING id",
              userID, now, now
            ).first?.get("id") ?? 0
          started = true
        }
        if let trip {
          try db.run("UPDATE conversations SET reservation_id = ? WHERE id = ?", trip, conversationID)
        }
        let message = try Self.insert(
          conversationID: conversationID, sender: .traveller, agentID: nil, senderKey: senderKey, text: text,
          trip: trip, clientID: clientID, now: now, db)
        if started { try Self.publish(conversationID, userID: userID, kind: "started", now: now, db) }
        try Self.publish(conversationID, userID: userID, kind: "message", message: message, now: now, db)
        return message
      }
    }
  }

  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      try db.write { db in
        guard
          try db.queryOne("SELECT 1 FROM conversations WHERE id = ? AND user_id = ?", conversationID, userID) != nil
        else { throw ChatRules.notFound(conversationID) }
        try Self.mark(conversationID, userID: userID, sender: .agent, through: sequence, read: read, db, environment)
      }
    }
  }

  public func unreadCount(token: String) throws -> Int {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.queryOne(
        """
        SELECT COUNT(*) AS unread FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.user_id = ? AND m.sender = 'agent' AND m.read_at IS NULL
        """, userID)?.get("unread") ?? 0
    }
  }

  public func changes(token: String) -> AnyPublisher<ChatChange, Never> {
    let accounts = accounts
    let agents = agents
    let events = events
    let interval = pollInterval
    return Deferred { () -> AnyPublisher<ChatChange, Never> in
      let topic: String
      if let userID = try? accounts.userID(token: token) {
        topic = ChatSchema.travellerTopic(userID: userID)
      } else if (try? agents.agentID(token: token)) != nil {
        topic = ChatSchema.queueTopic
      } else {
        return Empty(completeImmediately: false).eraseToAnyPublisher()
      }
      return FeedFollower.publisher(feed: events, topic: topic, interval: interval)
        .map { event in
          ChatChange(
            conversationID: event.data["conversationId"]?.integerValue ?? 0,
            kind: event.data["kind"]?.stringValue ?? event.type)
        }
        .eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
  }

  /// The traveller (user id) of conversation `id`, nil when there is none (for the stream's
  /// topic checks).
  public func owner(of id: Int64) throws -> Int64? {
    try serviceCall {
      try db.queryOne("SELECT user_id FROM conversations WHERE id = ?", id)?.get("user_id", as: Int64.self)
    }
  }

  // MARK: AgentConsoleService

  public func signIn(email: String, password: String) throws -> Session {
    try agents.signIn(email: email, password: password)
  }

  public func signOut(token: String) throws { try agents.signOut(token: token) }

  public func agent(token: String) throws -> AgentProfile { try agents.profile(token: token) }

  public func queue(token: String) throws -> [Conversation] {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      return try db.read { db in
        try db.query(Self.conversationSQL(where: "c.status = 'open'"), ChatSender.traveller.rawValue).map {
          try Self.conversation($0, agentID: agentID)
        }
        .sorted(by: Self.queueOrder)
      }
    }
  }

  public func thread(conversationID: Int64, token: String) throws -> ChatThread {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      return try db.read { db in try Self.thread(conversationID, viewer: .agent, agentID: agentID, db) }
    }
  }

  public func take(conversationID: Int64, token: String) throws -> Conversation {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      let now = environment.now()
      return try db.write { db -> Conversation in
        let taken = try db.run(
          "UPDATE conversations SET agent_id = ?, taken_at = ?, updated_at = ? "
            + "WHERE id = ? AND status = 'open' AND agent_id IS NULL", agentID, now, now, conversationID)
        let row = try Self.conversationRow(conversationID, db)
        if taken == 1 {
          try Self.publish(conversationID, userID: try row.get("user_id"), kind: "taken", now: now, db)
        } else {
          try Self.checkHeld(row, by: agentID, db)
        }
        return try Self.conversation(row, agentID: agentID)
      }
    }
  }

  public func reply(conversationID: Int64, text: String, clientID: String?, token: String) throws -> ChatMessage {
    try serviceCall {
      let text = try ChatRules.checkedText(text)
      let clientID = try ChatRules.checkedClientID(clientID)
      let agentID = try agents.agentID(token: token)
      let now = environment.now()
      return try db.write { db -> ChatMessage in
        let senderKey = "a\(agentID)"
        if let clientID, let earlier = try Self.message(senderKey: senderKey, clientID: clientID, db) {
          return earlier
        }
        let row = try Self.conversationRow(conversationID, db)
        try Self.checkHeld(row, by: agentID, db)
        let message = try Self.insert(
          conversationID: conversationID, sender: .agent, agentID: agentID, senderKey: senderKey, text: text, trip: nil,
          clientID: clientID, now: now, db)
        try Self.publish(
          conversationID, userID: try row.get("user_id"), kind: "message", message: message, now: now, db)
        return message
      }
    }
  }

  public func close(conversationID: Int64, token: String) throws -> Conversation {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      let now = environment.now()
      return try db.write { db -> Conversation in
        try Self.checkHeld(try Self.conversationRow(conversationID, db), by: agentID, db)
        try db.run(
          "UPDATE conversations SET status = 'closed', closed_at = ?, updated_at = ? WHERE id = ?", now, now,
          conversationID)
        let row = try Self.conversationRow(conversationID, db)
        try Self.publish(conversationID, userID: try row.get("user_id"), kind: "closed", now: now, db)
        return try Self.conversation(row, agentID: agentID)
      }
    }
  }

  public func acknowledge(agentToken token: String, conversationID: Int64, through sequence: Int64, read: Bool) throws {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      try db.write { db in
        let row = try Self.conversationRow(conversationID, db)
        try Self.checkHeld(row, by: agentID, db, allowClosed: true)
        try Self.mark(
          conversationID, userID: try row.get("user_id"), sender: .traveller, through: sequence, read: read, db,
          environment)
      }
    }
  }

  public func trips(conversationID: Int64, token: String) throws -> [Reservation] {
    try serviceCall {
      let agentID = try agents.agentID(token: token)
      return try db.read { db in
        let row = try Self.conversationRow(conversationID, db)
        try Self.checkHeld(row, by: agentID, db, allowClosed: true)
        return try db.query(
          "SELECT * FROM reservations WHERE user_id = ? ORDER BY created_at DESC, rowid DESC",
          try row.get("user_id", as: Int64.self)
        ).map(ReservationLedger.reservation)
      }
    }
  }
}

// MARK: - The agents' protocol's acknowledge (named apart from the traveller's)

/// The agent console over the store: ``ChatStore`` answering ``AgentConsoleService`` where its
/// traveller-side method of the same name would otherwise answer.
public struct StoreAgentConsole: AgentConsoleService {
  public let store: ChatStore
  public init(store: ChatStore) { self.store = store }

  public func signIn(email: String, password: String) throws -> Session {
    try store.signIn(email: email, password: password)
  }
  public func signOut(token: String) throws { try store.signOut(token: token) }
  public func agent(token: String) throws -> AgentProfile { try store.agent(token: token) }
  public func queue(token: String) throws -> [Conversation] { try store.queue(token: token) }
  public func thread(conversationID: Int64, token: String) throws -> ChatThread {
    try store.thread(conversationID: conversationID, token: token)
  }
  public func take(conversationID: Int64, token: String) throws -> Conversation {
    try store.take(conversationID: conversationID, token: token)
  }
  public func reply(conversationID: Int64, text: String, clientID: String?, token: String) throws -> ChatMessage {
    try store.reply(conversationID: conversationID, text: text, clientID: clientID, token: token)
  }
  public func close(conversationID: Int64, token: String) throws -> Conversation {
    try store.close(conversationID: conversationID, token: token)
  }
  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    try store.acknowledge(agentToken: token, conversationID: conversationID, through: sequence, read: read)
  }
  public func trips(conversationID: Int64, token: String) throws -> [Reservation] {
    try store.trips(conversationID: conversationID, token: token)
  }
  public func changes(token: String) -> AnyPublisher<ChatChange, Never> { store.changes(token: token) }
}
