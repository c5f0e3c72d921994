import Common
import Foundation

/// One change a client can follow: what happened (`type`), on which topic, in which place of
/// that topic's order, with its data.
public struct StoredEvent: Hashable, Sendable {
  /// The row's number in the log (every topic), given when it was written. On SQLite, whose one
  /// writer commits in the order rows are numbered, it is the commit order; on PostgreSQL a
  /// transaction that numbered its row first can commit last, so followers go by ``position``.
  public var cursor: Int64
  /// The writing transaction's id on PostgreSQL (`pg_current_xact_id()`), 0 on SQLite.
  public var transaction: Int64
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

  public init(
    cursor: Int64, transaction: Int64 = 0, topic: String, sequence: Int64, type: String, data: JSONValue,
    createdAt: Date
  ) {
    self.cursor = cursor
    self.transaction = transaction
    self.topic = topic
    self.sequence = sequence
    self.type = type
    self.data = data
    self.createdAt = createdAt
  }
}

/// A follower's place in the whole change feed: after every event at or before it (ordered by
/// ``transaction``, then ``cursor``), before every event after it.
public struct FeedPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The writing transaction's id (PostgreSQL; 0 on SQLite).
  public var transaction: Int64
  /// The row's number within it.
  public var cursor: Int64

  public init(transaction: Int64, cursor: Int64) {
    self.transaction = transaction
    self.cursor = cursor
  }

  /// Before every event.
  public static let start = FeedPosition(transaction: 0, cursor: 0)

  public static func < (a: FeedPosition, b: FeedPosition) -> Bool {
    (a.transaction, a.cursor) < (b.transaction, b.cursor)
  }

  public var description: String { "\(transaction).\(cursor)" }
}

extension StoredEvent {
  /// The event's place in the feed (``FeedPosition``).
  public var position: FeedPosition { FeedPosition(transaction: transaction, cursor: cursor) }
}

/// Where followers read the changes the store committed: the change feed, an outbox.
///
/// Writers append in the same transaction as the change itself (``EventLog/append(topic:type:data:in:now:)``),
/// so an event exists exactly when its change does, whichever process or server instance made it.
/// Followers read the events after their ``FeedPosition``, each once: an event that commits late
/// is never skipped (see ``EventLog``). ``announce()`` after a batch of commits wakes the followers
/// of every process at once; polling stays the fallback, so a lost wake-up loses nothing.
public protocol EventFeed: Sendable {
  /// Events after `position`, in feed order (``FeedPosition``), at most `limit`. An event is
  /// returned only once no event before it can still commit, so a follower that moves its
  /// position to the last event returned never skips one.
  func events(after position: FeedPosition, limit: Int) throws -> [StoredEvent]
  /// Events of `topic` with a sequence above `sequence`, oldest first, at most `limit` (resuming).
  func events(topic: String, after sequence: Int64, limit: Int) throws -> [StoredEvent]
  /// Where a new follower starts: after every event committed so far (it may see a few of the
  /// latest again; followers drop what they sent by each topic's sequence).
  func latestPosition() throws -> FeedPosition
  /// The highest sequence of `topic` (0 when it has none).
  func latestSequence(topic: String) throws -> Int64
  /// Wakes the followers of every process on the store: call it outside any transaction, once
  /// for a batch of commits (nothing where followers only poll).
  func announce() throws
  /// Calls `wake` whenever another process announces (``announce()``); nil where there is no
  /// such signal (followers poll).
  func listen(_ wake: @escaping @Sendable () -> Void) -> StoreListener?
}

extension EventFeed {
  public func announce() throws {}
  public func listen(_ wake: @escaping @Sendable () -> Void) -> StoreListener? { nil }
}

/// The change feed in the store: the `events` table, an outbox written in the same transaction as
/// each change (per-topic sequence assigned in the writing transaction, unique per topic).
///
/// Reading it in commit order:
/// - On SQLite one writer at a time numbers the rows (`cursor`) and commits in that order: a
///   follower reads the rows after the last cursor it saw.
/// - On PostgreSQL the row number comes from an identity taken when the row is inserted, and the
///   transactions that took 10 and 11 can commit 11 first: a follower that moved past 11 would
///   never see 10. So each row also records its transaction's id (`tx_id`, migration
///   `events.002`), and a follower reads only rows of transactions older than the oldest one
///   still running (`pg_snapshot_xmin(pg_current_snapshot())`, in the same statement): those are
///   all committed or rolled back, so nothing can appear before them any more. It goes by
///   ``FeedPosition`` (`tx_id`, then `cursor`). The price: an event waits for every transaction
///   that began writing before it to end (milliseconds; at most the statement timeout).
/// - ``announce()`` is `NOTIFY travel_events` (``notifyChannel``), sent after a batch of commits,
///   never inside a booking transaction; ``listen(_:)`` is a `LISTEN` connection of its own.
public final class EventLog: EventFeed, @unchecked Sendable {
  /// The channel of ``announce()`` and ``listen(_:)``.
  public static let notifyChannel = "travel_events"

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
        """),
    // Reading in commit order on PostgreSQL (see the type's documentation): the writing
    // transaction's id, and the index followers read by. 0 on SQLite (and for older rows).
    Migration(
      id: "events.002",
      sql: """
        ALTER TABLE events ADD COLUMN tx_id INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX events_by_position ON events(tx_id, cursor);
        """,
      postgres: "ALTER TABLE events ALTER COLUMN tx_id SET DEFAULT (pg_current_xact_id()::text::bigint)"),
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
    try append(
      topic: topic, type: type, text: String(decoding: try encoder.encode(data), as: UTF8.self), in: db, now: now)
  }

  /// Appends the event `{"reservation": …}` (the model's JSON, ``reservationData(_:)``) to `topic`
  /// inside the open write transaction `db`; returns its sequence. Encodes the reservation once:
  /// the same text as `append(topic:type:data: reservationData(reservation), …)`, without going
  /// through a ``JSONValue`` (decoding one tries each JSON type in turn, a thrown error per miss).
  @discardableResult
  public static func appendReservation(
    _ reservation: Reservation, topic: String, type: String, in db: Database, now: Date
  ) throws -> Int64 {
    let text = String(decoding: try encoder.encode(["reservation": reservation]), as: UTF8.self)
    return try append(topic: topic, type: type, text: text, in: db, now: now)
  }

  /// Appends an event whose data is the JSON `text` (written by ``encoder``).
  private static func append(topic: String, type: String, text: String, in db: Database, now: Date) throws -> Int64 {
    let last: Int64 =
      try db.queryOne("SELECT MAX(sequence) AS last FROM events WHERE topic = ?", topic)?.get("last", as: Int64?.self)
      ?? 0
    let sequence = last + 1
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

  public func events(after position: FeedPosition, limit: Int) throws -> [StoredEvent] {
    let settled = db.driver == .postgres ? " AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint" : ""
    return try db.query(
      "SELECT * FROM events WHERE (tx_id, cursor) > (?, ?)\(settled) ORDER BY tx_id, cursor LIMIT ?",
      position.transaction, position.cursor, Int64(limit)
    ).map(Self.event)
  }

  public func events(topic: String, after sequence: Int64, limit: Int) throws -> [StoredEvent] {
    try db.query(
      "SELECT * FROM events WHERE topic = ? AND sequence > ? ORDER BY sequence LIMIT ?", topic, sequence,
      Int64(limit)
    ).map(Self.event)
  }

  public func latestPosition() throws -> FeedPosition {
    if db.driver == .postgres {
      // Every transaction older than the oldest running one has ended; those after it are read.
      let oldest: Int64 =
        try db.queryOne("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS oldest")?.get("oldest") ?? 0
      return FeedPosition(transaction: oldest, cursor: 0)
    }
    let last = try db.queryOne("SELECT MAX(cursor) AS last FROM events")?.get("last", as: Int64?.self) ?? 0
    return FeedPosition(transaction: 0, cursor: last)
  }

  /// `NOTIFY travel_events` on PostgreSQL (outside any transaction: ``Database/notify(channel:)``).
  public func announce() throws { try db.notify(channel: Self.notifyChannel) }

  /// A `LISTEN travel_events` connection on PostgreSQL; nil on SQLite.
  public func listen(_ wake: @escaping @Sendable () -> Void) -> StoreListener? {
    db.listen(channel: Self.notifyChannel, wake: wake)
  }

  public func latestSequence(topic: String) throws -> Int64 {
    try db.queryOne("SELECT MAX(sequence) AS last FROM events WHERE topic = ?", topic)?.get("last", as: Int64?.self)
      ?? 0
  }

  private static func event(_ row: Row) throws -> StoredEvent {
    let text: String = try row.get("data")
    return StoredEvent(
      cursor: try row.get("cursor"), transaction: try row.get("tx_id"), topic: try row.get("topic"),
      sequence: try row.get("sequence"),
      type: try row.get("type"), data: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
      createdAt: try row.get("created_at"))
  }
}
