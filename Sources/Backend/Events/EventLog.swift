import Common
import Foundation

/// One change a client can follow: what happened (`type`), on which topic, in which place of
/// that topic's order, with its data.
public struct StoredEvent: Hashable, Sendable {
  /// The log's global order (every topic), strictly increasing: a follower's cursor.
  public var cursor: Int64
  /// The internal topic, `<kind>:<owner>` (`trips:42` is user 42's reservations).
  public var topic: String
  /// The place in `topic`'s own order: 1, 2, 3, … without gaps, what a client resumes from.
  public var sequence: Int64
  /// `reservation.booked`, `reservation.cancelled`, …
  public var type: String
  /// The event's document (for reservations: `{"reservation": …}`).
  public var data: JSONValue
  /// When it was written (UTC).
  public var createdAt: Date

  public init(cursor: Int64, topic: String, sequence: Int64, type: String, data: JSONValue, createdAt: Date) {
    self.cursor = cursor
    self.topic = topic
    self.sequence = sequence
    self.type = type
    self.data = data
    self.createdAt = createdAt
  }
}

/// Where followers read the changes the store committed, in commit order: the change feed.
///
/// Writers append in the same transaction as the change itself (``EventLog/append(topic:type:data:in:)``),
/// so an event exists exactly when its change does, whichever process or server instance made it.
/// Readers poll by cursor. The SQLite store implements it (``EventLog``); a PostgreSQL outbox
/// table with the same columns can implement it for several server instances.
public protocol EventFeed: Sendable {
  /// Events with a cursor above `cursor`, oldest first, at most `limit`.
  func events(after cursor: Int64, limit: Int) throws -> [StoredEvent]
  /// Events of `topic` with a sequence above `sequence`, oldest first, at most `limit` (resuming).
  func events(topic: String, after sequence: Int64, limit: Int) throws -> [StoredEvent]
  /// The highest cursor written so far (0 when none): where a new follower starts.
  func latestCursor() throws -> Int64
  /// The highest sequence of `topic` (0 when it has none).
  func latestSequence(topic: String) throws -> Int64
}

/// The change feed in the SQLite store: the `events` table (global cursor = its row id; per-topic
/// sequence assigned in the writing transaction, unique per topic).
public final class EventLog: EventFeed, @unchecked Sendable {
  /// The `events` table.
  public static let migrations: [Migration] = [
    Migration(
      id: "events.001",
      sql: """
        CREATE TABLE events (
          cursor INTEGER PRIMARY KEY AUTOINCREMENT,
          topic TEXT NOT NULL,
          sequence INTEGER NOT NULL,
          type TEXT NOT NULL,
          data TEXT NOT NULL,
          created_at REAL NOT NULL,
          UNIQUE (topic, sequence)
        );
        """)
  ]

  /// The topic of user `userID`'s reservations.
  public static func tripsTopic(userID: Int64) -> String { "trips:\(userID)" }

  private let db: Database

  public init(database: Database) { db = database }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()

  /// Appends an event to `topic` inside the open write transaction `db` (call it from the
  /// transaction that makes the change); returns its sequence.
  @discardableResult
  public static func append(topic: String, type: String, data: JSONValue, in db: Database, now: Date) throws
    -> Int64
  {
    let last: Int64 =
      try db.queryOne("SELECT MAX(sequence) AS last FROM events WHERE topic = ?", topic)?.get("last", as: Int64?.self)
      ?? 0
    let sequence = last + 1
    let text = String(decoding: try encoder.encode(data), as: UTF8.self)
    try db.run(
      "INSERT INTO events (topic, sequence, type, data, created_at) VALUES (?, ?, ?, ?, ?)", topic, sequence, type,
      text, now)
    return sequence
  }

  /// The reservation as an event's data: `{"reservation": …}` (the model's JSON).
  public static func reservationData(_ reservation: Reservation) throws -> JSONValue {
    let data = try encoder.encode(["reservation": reservation])
    return try JSONDecoder().decode(JSONValue.self, from: data)
  }

  public func events(after cursor: Int64, limit: Int) throws -> [StoredEvent] {
    try db.query("SELECT * FROM events WHERE cursor > ? ORDER BY cursor LIMIT ?", cursor, Int64(limit)).map(
      Self.event)
  }

  public func events(topic: String, after sequence: Int64, limit: Int) throws -> [StoredEvent] {
    try db.query(
      "SELECT * FROM events WHERE topic = ? AND sequence > ? ORDER BY sequence LIMIT ?", topic, sequence,
      Int64(limit)
    ).map(Self.event)
  }

  public func latestCursor() throws -> Int64 {
    try db.queryOne("SELECT MAX(cursor) AS last FROM events")?.get("last", as: Int64?.self) ?? 0
  }

  public func latestSequence(topic: String) throws -> Int64 {
    try db.queryOne("SELECT MAX(sequence) AS last FROM events WHERE topic = ?", topic)?.get("last", as: Int64?.self)
      ?? 0
  }

  private static func event(_ row: Row) throws -> StoredEvent {
    let text: String = try row.get("data")
    return StoredEvent(
      cursor: try row.get("cursor"), topic: try row.get("topic"), sequence: try row.get("sequence"),
      type: try row.get("type"), data: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
      createdAt: try row.get("created_at"))
  }
}
