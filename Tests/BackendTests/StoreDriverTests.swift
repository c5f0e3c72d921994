import BackendTesting
import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

/// The store's API on both drivers: the same statements (SQLite's dialect, `?` parameters) give
/// the same answers on SQLite and on PostgreSQL (``PostgresDialect``).
@Suite(.timeLimit(.minutes(1))) struct StoreDriverTests {
  let migrations = [
    Migration(
      id: "test.001",
      sql: """
        CREATE TABLE items (
          id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, price REAL, data BLOB,
          flag INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE TABLE tags (item TEXT NOT NULL, tag TEXT NOT NULL, details TEXT NOT NULL DEFAULT '{}');
        CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL CHECK (value >= 0)) WITHOUT ROWID;
        """),
    Migration(id: "test.002", sql: "ALTER TABLE items ADD COLUMN note TEXT;"),
  ]

  @Test(arguments: StoreDriver.allCases) func bindings_roundTripEveryType(_ driver: StoreDriver) throws {
    let (db, holder) = try openStore(driver, migrations: migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    let id: Int64 =
      try db.query(
        "INSERT INTO items (name, price, data, flag, note) VALUES (?, ?, ?, ?, ?) RETURNING id", "Zürich", 12.5,
        Data([0, 1, 2, 255]), true, SQLValue.null
      ).first?.get("id") ?? 0
    #expect(id == 1)
    try db.run("INSERT INTO items (name, price, data) VALUES (?, ?, ?)", "empty", 1e300, Data())
    let row = try #require(try db.queryOne("SELECT * FROM items WHERE id = ?", id))
    #expect(try row.get("name") == "Zürich")
    #expect(try row.get("price") == 12.5)
    #expect(try row.get("data") == Data([0, 1, 2, 255]))
    #expect(try row.get("flag") == true)
    #expect(try row.get("note", as: String?.self) == nil)
    let other = try #require(try db.queryOne("SELECT price, data FROM items WHERE name = ?", "empty"))
    #expect(try other.get("price") == 1e300)
    #expect(try other.get("data") == Data())
    let instant = Date(timeIntervalSince1970: 1_790_000_000.123456)
    try db.run("UPDATE items SET price = ? WHERE id = ?", instant, id)
    #expect(try db.queryOne("SELECT price FROM items WHERE id = ?", id)?.get("price", as: Date.self) == instant)
    #expect(try db.queryOne("SELECT count(*) AS n, SUM(flag) AS total FROM items")?.get("total", as: Int64.self) == 1)
  }

  @Test(arguments: StoreDriver.allCases) func migrations_applyOnce_andRecordTheirIDs(_ driver: StoreDriver) throws {
    let (db, holder) = try openStore(driver, migrations: migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    let more = migrations + [Migration(id: "test.003", sql: "CREATE TABLE extra (a TEXT);")]
    switch driver {
    case .sqlite: try Store.migrate(db, more)
    case .postgres: try Store.migratePostgres(db, more)
    }
    #expect(try Store.appliedIDs(db) == ["test.001", "test.002", "test.003"])
    try db.run("INSERT INTO extra (a) VALUES (?)", "x")
    // A failing migration applies nothing of its run.
    let bad =
      more + [
        Migration(id: "test.004", sql: "CREATE TABLE fine (a TEXT);"), Migration(id: "test.005", sql: "CREATE TABLE ("),
      ]
    #expect(throws: (any Error).self) {
      switch driver {
      case .sqlite: try Store.migrate(db, bad)
      case .postgres: try Store.migratePostgres(db, bad)
      }
    }
    #expect(try Store.appliedIDs(db) == ["test.001", "test.002", "test.003"])
    #expect(throws: (any Error).self) { try db.query("SELECT * FROM fine") }
  }

  @Test(arguments: StoreDriver.allCases) func dialect_sameAnswersOnBoth(_ driver: StoreDriver) throws {
    let (db, holder) = try openStore(driver, migrations: migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    // Upsert with a condition, RETURNING: the counter never goes past 3.
    var results: [Int64?] = []
    for _ in 0..<4 {
      results.append(
        try db.query(
          """
          INSERT INTO counters (key, value) VALUES (?, ?)
          ON CONFLICT (key) DO UPDATE SET value = counters.value + excluded.value WHERE counters.value + excluded.value <= ?
          RETURNING value
          """, "k", 1, 3
        ).first?.get("value"))
    }
    #expect(results == [1, 2, 3, nil])
    // INSERT OR IGNORE, max(0, …), insertion order by rowid, json_extract, blob literal, FOR UPDATE.
    try db.run("INSERT OR IGNORE INTO items (name) VALUES (?)", "a")
    try db.run("INSERT OR IGNORE INTO items (name) VALUES (?)", "a")
    #expect(try db.query("SELECT id FROM items WHERE name = ?", "a").count == 1)
    try db.run("UPDATE counters SET value = max(0, value - ?) WHERE key = ?", 10, "k")
    #expect(try db.queryOne("SELECT value FROM counters WHERE key = ?", "k")?.get("value") == Int64(0))
    for (item, tag) in [("b", "x"), ("a", "y"), ("c", "z")] {
      try db.run("INSERT INTO tags (item, tag, details) VALUES (?, ?, ?)", item, tag, #"{"hotelId":"h\#(tag)"}"#)
    }
    #expect(
      try db.query("SELECT item FROM tags ORDER BY rowid DESC").map { try $0.get("item", as: String.self) } == [
        "c", "a", "b",
      ])
    #expect(
      try db.queryOne("SELECT item FROM tags WHERE json_extract(details, '$.hotelId') = ?", "hy")?.get("item")
        == "a")
    try db.run("UPDATE items SET data = X'' WHERE name = ?", "a")
    #expect(try db.queryOne("SELECT data FROM items WHERE name = 'a'")?.get("data") == Data())
    let locked = try db.write(isolation: .readCommitted) { db in
      try db.queryOne("SELECT name FROM items WHERE name = ? FOR UPDATE", "a")?.get("name", as: String.self)
    }
    #expect(locked == "a")
    // A literal with a question mark is not a parameter.
    #expect(try db.queryOne("SELECT 'why?' AS text FROM counters WHERE key = ?", "k")?.get("text") == "why?")
  }

  @Test(arguments: StoreDriver.allCases) func transactions_commitRollBackAndNest(_ driver: StoreDriver) throws {
    let (db, holder) = try openStore(driver, migrations: migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try db.write { db in
        try db.run("INSERT INTO items (name) VALUES (?)", "gone")
        throw Stop()
      }
    }
    #expect(try db.query("SELECT * FROM items").isEmpty)
    try db.write { db in
      try db.run("INSERT INTO items (name) VALUES (?)", "kept")
      #expect(db.isInTransaction)
      #expect(throws: Stop.self) {
        try db.write { db in
          try db.run("INSERT INTO items (name) VALUES (?)", "inner")
          throw Stop()
        }
      }
      try db.write { db in try db.run("INSERT INTO items (name) VALUES (?)", "inner kept") }
    }
    #expect(!db.isInTransaction)
    #expect(
      try db.query("SELECT name FROM items ORDER BY id").map { try $0.get("name", as: String.self) } == [
        "kept", "inner kept",
      ])
    #expect(try db.read { db in try db.query("SELECT * FROM items").count } == 2)
  }

  @Test(arguments: StoreDriver.allCases) func uniqueViolation_isAStoreFailure_nothingWritten(_ driver: StoreDriver)
    throws
  {
    let (db, holder) = try openStore(driver, migrations: migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    try db.run("INSERT INTO items (name) VALUES (?)", "one")
    do {
      try db.write { db in
        try db.run("INSERT INTO items (name) VALUES (?)", "two")
        try db.run("INSERT INTO items (name) VALUES (?)", "one")
      }
      Issue.record("no error")
    } catch let error as SQLiteError {
      #expect(driver == .sqlite && error.isUniqueViolation)
      #expect(ServiceError.wrapping(error).code == "store_failed")
    } catch let error as PostgresError {
      #expect(driver == .postgres && error.isUniqueViolation)
      #expect(ServiceError.wrapping(error).code == "store_failed")
    }
    #expect(try db.query("SELECT name FROM items").count == 1)
  }

  /// The conditional take of seats (``SQLiteFlightSeats/take``), run by many threads at once on
  /// the last 5 seats, each in its own `READ COMMITTED` transaction: exactly 5 are sold.
  @Test(arguments: StoreDriver.allCases) func lastFiveSeats_racedByManyThreads_exactlyFiveSold(_ driver: StoreDriver)
    throws
  {
    let (db, holder) = try openStore(driver, migrations: FlightSchema.migrations)
    defer { withExtendedLifetime(holder) { db.close() } }
    let flight = try #require(Flight(code: "LH400"))
    let date = try #require(LocalDate("2026-12-20"))
    let dated = DatedFlight(flight: flight, date: date)
    try db.run("INSERT INTO flight_seats (flight, date, cabin, booked) VALUES ('LH400', '2026-12-20', 'economy', 95)")
    let outcomes = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 24) { index in
      let outcome: String
      do {
        try db.write(isolation: .readCommitted) { db in
          try SQLiteFlightSeats.take(
            db, reservationID: "res_\(index)", flights: [dated], cabin: .economy, seats: 1, capacity: { _ in 100 })
        }
        outcome = "sold"
      } catch let error as ServiceError {
        outcome = error.code
      } catch {
        outcome = "\(error)"
      }
      outcomes.withLock { $0.append(outcome) }
    }
    let all = outcomes.withLock { $0 }
    #expect(all.filter { $0 == "sold" }.count == 5, "\(all)")
    #expect(all.filter { $0 == "sold_out" }.count == 19, "\(all)")
    #expect(try db.queryOne("SELECT booked FROM flight_seats")?.get("booked") == Int64(100))
    #expect(try db.query("SELECT * FROM flight_bookings").count == 5)
  }

  /// The whole booking (ledger: idempotency, take, authorise, capture, record, event) by 12
  /// travellers at once for the last 5 rooms of a hotel: 5 reservations, 7 `sold_out`, 5 payments.
  @Test(arguments: StoreDriver.allCases) func lastFiveRooms_bookedByTwelveTravellers_fiveReservations(
    _ driver: StoreDriver
  ) throws {
    let backend = try TestBackend(driver: driver)
    let travellers = try (0..<12).map { index in
      let token = try backend.signedIn("t\(index)@example.com")
      try backend.addCard(token: token)
      return token
    }
    let first = try #require(LocalDate("2026-12-20"))
    let last = try #require(LocalDate("2026-12-22"))
    let stay = try #require(DateRange(start: first, end: last))
    let outcomes = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: travellers.count) { index in
      let request = BookingRequest(
        token: travellers[index], kind: .hotel, idempotencyKey: "key-\(index)",
        total: Money(amount: 200, currency: "EUR"), summary: "Hotel Test, 2 nights")
      let outcome: String
      do {
        _ = try backend.services.ledger.book(request) { context in
          try HotelStore.take(
            1, of: .double, at: "h1-1", capacity: 5, stay: stay, reservationId: context.reservationID, in: context.db)
        }
        outcome = "booked"
      } catch let error as ServiceError {
        outcome = error.code
      } catch {
        outcome = "\(error)"
      }
      outcomes.withLock { $0.append(outcome) }
    }
    let all = outcomes.withLock { $0 }
    #expect(all.filter { $0 == "booked" }.count == 5, "\(all)")
    #expect(all.filter { $0 == "sold_out" }.count == 7, "\(all)")
    let db = backend.services.database
    #expect(
      try db.query("SELECT booked FROM hotel_room_nights").map { try $0.get("booked", as: Int64.self) } == [5, 5])
    #expect(try db.query("SELECT * FROM reservations").count == 5)
    #expect(try db.query("SELECT * FROM payments WHERE status = 'captured'").count == 5)
    #expect(try db.query("SELECT * FROM events").count == 5)
  }
}
