import BackendTesting
import Common
import Foundation
import Testing

@testable import Backend

/// The events outbox (#19): read in commit order by position, never skipping an event that
/// commits late, and the wake-up between processes (`LISTEN`/`NOTIFY` on PostgreSQL).
@Suite(.timeLimit(.minutes(1)))
struct EventOutboxTests {
  static func append(_ topic: String, _ type: String, in db: Database) throws {
    try EventLog.append(topic: topic, type: type, data: .object([:]), in: db, now: Date())
  }

  @Test(arguments: StoreDriver.allCases) func followersReadEachEventOnce_inOrder_fromTheirPosition(
    _ driver: StoreDriver
  ) throws {
    let (db, holder) = try openStore(driver, migrations: EventLog.migrations)
    defer { withExtendedLifetime(holder) {} }
    let log = EventLog(database: db)
    try db.write { db in try Self.append("trips:1", "old", in: db) }
    let start = try log.latestPosition()
    for index in 1...3 { try db.write { db in try Self.append("trips:\(index)", "new", in: db) } }
    var seen: [StoredEvent] = []
    var position = start
    // On PostgreSQL a read waits for older transactions (other tests') to end: read until all came.
    let deadline = Date().addingTimeInterval(10)
    while seen.filter({ $0.type == "new" }).count < 3 && Date() < deadline {
      let batch = try log.events(after: position, limit: 2)
      guard let last = batch.last else {
        Thread.sleep(forTimeInterval: 0.01)
        continue
      }
      seen += batch
      position = last.position
    }
    // A new follower may see the last events before it started again (it drops them by sequence),
    // never miss one after it.
    #expect(seen.filter { $0.type == "new" }.map(\.topic) == ["trips:1", "trips:2", "trips:3"])
    #expect(Set(seen.map(\.position)).count == seen.count)
    #expect(seen.map(\.position) == seen.map(\.position).sorted())
  }

  /// Two transactions append: the first to number its row commits last. A follower reading in
  /// between must not move past the first one's row: it gets both, once each.
  @Test func anEventThatCommitsLate_isNotSkipped_onPostgres() throws {
    let (db, holder) = try openStore(.postgres, migrations: EventLog.migrations)
    defer { withExtendedLifetime(holder) {} }
    let log = EventLog(database: db)
    var position = try log.latestPosition()
    let appended = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      try? db.write(isolation: .readCommitted) { db in
        try Self.append("trips:1", "first", in: db)
        appended.signal()
        _ = release.wait(timeout: .now() + 20)
      }
      finished.signal()
    }.start()
    #expect(appended.wait(timeout: .now() + 10) == .success)
    try db.write(isolation: .readCommitted) { db in try Self.append("trips:2", "second", in: db) }

    var seen: [String] = []
    func read() throws {
      for event in try log.events(after: position, limit: 100) {
        seen.append(event.type)
        position = event.position
      }
    }
    try read()  // "second" is committed, "first" (numbered before it) is not yet
    #expect(!seen.contains("second"), "read past a transaction still running: \(seen)")
    release.signal()
    #expect(finished.wait(timeout: .now() + 10) == .success)
    let deadline = Date().addingTimeInterval(10)
    while seen.count < 2 && Date() < deadline {
      try read()
      Thread.sleep(forTimeInterval: 0.01)
    }
    try read()
    #expect(seen == ["first", "second"])
  }

  @Test func announceWakesTheListenersOfOtherConnections_onPostgres_andNothingListensOnSQLite() throws {
    let (db, holder) = try openStore(.postgres, migrations: EventLog.migrations)
    defer { withExtendedLifetime(holder) {} }
    let woken = DispatchSemaphore(value: 0)
    let listener = try #require(EventLog(database: db).listen { woken.signal() })
    defer { listener.stop() }
    // LISTEN is sent by the listener's thread: announce until it hears one.
    var heard = false
    for _ in 0..<50 where !heard {
      try EventLog(database: db).announce()
      heard = woken.wait(timeout: .now() + 0.2) == .success
    }
    #expect(heard)
    // Never inside a transaction (a NOTIFY there would serialise every commit behind its lock).
    let inside = errorCode { try db.write { _ in try EventLog(database: db).announce() } }
    #expect(inside == "store_failed")

    let (sqlite, sqliteHolder) = try openStore(.sqlite, migrations: EventLog.migrations)
    defer { withExtendedLifetime(sqliteHolder) {} }
    #expect(EventLog(database: sqlite).listen {} == nil)
    try EventLog(database: sqlite).announce()
  }

  /// A reservation's event is written from the reservation in one encoding (no round trip
  /// through ``JSONValue``): the same stored text as the generic path, read back as the same data.
  @Test func aReservationEvent_storesTheSameTextAsTheGenericPath() throws {
    let (db, holder) = try openStore(.sqlite, migrations: EventLog.migrations)
    defer { withExtendedLifetime(holder) {} }
    let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    let reservation = Reservation(
      id: "res_1", kind: .hotel, status: .confirmed, total: try Money(minorUnits: 123_450, currency: "EUR"),
      createdAt: now, summary: "Hôtel \"Le Port\" / 3 nights", locator: "ABC123", startsAt: now,
      endsAt: now.addingTimeInterval(3 * 86_400),
      details: [
        "rooms": .integer(2), "rate": .number(0.1), "url": .string("a/b"), "none": .null, "ok": .bool(true),
        "list": .array([.string("x"), .integer(-1)]), "payment": .object(["card": .string("Visa •••• 4242")]),
      ])
    try db.write { db in
      try EventLog.appendReservation(reservation, topic: "trips:1", type: "reservation.booked", in: db, now: now)
      try EventLog.append(
        topic: "trips:2", type: "reservation.booked", data: EventLog.reservationData(reservation), in: db, now: now)
    }
    let texts = try db.query("SELECT topic, data FROM events ORDER BY topic").map {
      try $0.get("data", as: String.self)
    }
    #expect(texts.count == 2)
    #expect(texts.first == texts.last)
    let events = try EventLog(database: db).events(topic: "trips:1", after: 0, limit: 5)
    #expect(events.map(\.data) == [try EventLog.reservationData(reservation)])
  }
}
