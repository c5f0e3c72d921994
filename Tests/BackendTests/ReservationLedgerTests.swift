import CommonTesting
import Foundation
import Synchronization
import Testing

@testable import Backend
@testable import Common

/// A toy inventory plugged into the ledger the way flights/hotels/cars do.
enum ToyInventory {
  static let migrations = [
    Migration(
      id: "toy.001",
      sql: """
        CREATE TABLE toy_units (id TEXT PRIMARY KEY, remaining INTEGER NOT NULL CHECK (remaining >= 0)) STRICT;
        CREATE TABLE toy_holds (reservation_id TEXT PRIMARY KEY, unit_id TEXT NOT NULL) STRICT;
        """)
  ]

  static func install(_ services: BackendServices, units: Int, id: String = "u1") throws {
    try Store.migrate(services.database, migrations)
    try services.database.run("INSERT OR REPLACE INTO toy_units (id, remaining) VALUES (?, ?)", id, units)
  }

  /// Takes one unit or throws `sold_out`.
  static func take(_ id: String = "u1") -> (BookingContext) throws -> Void {
    { context in
      let remaining: Int =
        try context.db.queryOne("SELECT remaining FROM toy_units WHERE id = ?", id)?.get("remaining") ?? 0
      guard remaining > 0 else { throw ServiceError.refused("sold_out", "unit \(id) is sold out") }
      try context.db.run("UPDATE toy_units SET remaining = remaining - 1 WHERE id = ?", id)
      try context.db.run("INSERT INTO toy_holds (reservation_id, unit_id) VALUES (?, ?)", context.reservationID, id)
    }
  }

  static let release: @Sendable (CancellationContext) throws -> Void = { context in
    try context.db.run(
      "UPDATE toy_units SET remaining = remaining + 1 WHERE id = (SELECT unit_id FROM toy_holds WHERE reservation_id = ?)",
      context.reservation.id)
    try context.db.run("DELETE FROM toy_holds WHERE reservation_id = ?", context.reservation.id)
  }

  static func remaining(_ services: BackendServices, _ id: String = "u1") throws -> Int {
    try services.database.queryOne("SELECT remaining FROM toy_units WHERE id = ?", id)?.get("remaining") ?? -1
  }
}

@Suite struct ReservationLedgerTests {
  func request(_ token: String, key: String? = nil, card: String? = nil, amount: Decimal = 120.5) -> BookingRequest {
    BookingRequest(
      token: token, kind: .hotel, cardID: card, idempotencyKey: key, total: Money(amount: amount, currency: "EUR"),
      summary: "Hotel Test, Paris", startsAt: Date(timeIntervalSince1970: 1_800_000_000),
      details: ["room": .string("double"), "nights": .integer(2)])
  }

  func count(_ backend: TestBackend, _ table: String) throws -> Int64 {
    try backend.services.database.queryOne("SELECT count(*) FROM \(table)")?.get(at: 0) ?? -1
  }

  @Test func book_takesChargesAndRecords_inOneGo() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 2)
    let reservation = try backend.services.ledger.book(request(token), take: ToyInventory.take())
    #expect(reservation.status == .confirmed && reservation.kind == .hotel)
    #expect(reservation.total == Money(amount: 120.5, currency: "EUR"))
    #expect(reservation.locator?.count == 6)
    #expect(Set(reservation.locator ?? "").isSubset(of: Set(Identifiers.locatorAlphabet)))
    #expect(try ToyInventory.remaining(backend.services) == 1)
    let payment = try #require(try backend.services.database.queryOne("SELECT * FROM payments"))
    #expect(try payment.get("status") == "captured")
    #expect(try payment.get("captured_minor") == Int64(12050))
    #expect(try payment.get("reservation_id") == reservation.id)
    #expect(try backend.services.ledger.reservation(id: reservation.id, token: token) == reservation)
    #expect(try backend.services.ledger.reservations(token: token) == [reservation])
  }

  @Test(arguments: [("4000000000000002", "card_declined"), ("4000000000009995", "insufficient_funds")])
  func decline_leavesNothingBooked(card: String, code: String) throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(card, token: token)
    try ToyInventory.install(backend.services, units: 1)
    #expect(errorCode { _ = try backend.services.ledger.book(request(token), take: ToyInventory.take()) } == code)
    #expect(try ToyInventory.remaining(backend.services) == 1)
    #expect(try count(backend, "reservations") == 0)
    #expect(try count(backend, "payments") == 0)
    #expect(try count(backend, "toy_holds") == 0)
  }

  @Test func soldOut_chargesNothing_andNoCardIsRefused() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try ToyInventory.install(backend.services, units: 1)
    #expect(
      errorCode { _ = try backend.services.ledger.book(request(token), take: ToyInventory.take()) } == "no_payment_card"
    )
    #expect(try ToyInventory.remaining(backend.services) == 1)
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 0)
    #expect(errorCode { _ = try backend.services.ledger.book(request(token), take: ToyInventory.take()) } == "sold_out")
    #expect(try count(backend, "payments") == 0)
  }

  @Test func explicitCard_isCharged_andAnotherUsersCardIsNotFound() throws {
    let backend = try TestBackend()
    let ada = try backend.signedIn()
    let bob = try backend.signedIn("bob@example.com")
    try backend.addCard(token: ada)
    let second = try backend.addCard("5555555555554444", token: ada)
    let bobs = try backend.addCard(token: bob)
    try ToyInventory.install(backend.services, units: 5)
    let booked = try backend.services.ledger.book(request(ada, card: second.id), take: ToyInventory.take())
    #expect(try backend.services.database.queryOne("SELECT card_id FROM payments")?.get("card_id") == second.id)
    // The reservation says which card paid, as it comes back and as it is read again later.
    let payment: JSONValue = .object(["cardId": .string(second.id), "card": .string("Mastercard •••• 4444")])
    #expect(booked.details["payment"] == payment)
    #expect(try backend.services.ledger.reservation(id: booked.id, token: ada).details["payment"] == payment)
    #expect(
      errorCode { _ = try backend.services.ledger.book(request(ada, card: bobs.id), take: ToyInventory.take()) }
        == "card_not_found")
  }

  @Test func idempotencyKey_returnsFirstReservation_chargedOnce() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 5)
    let first = try backend.services.ledger.book(request(token, key: "k-1"), take: ToyInventory.take())
    let again = try backend.services.ledger.book(request(token, key: "k-1"), take: ToyInventory.take())
    #expect(first == again)
    #expect(try ToyInventory.remaining(backend.services) == 4)
    #expect(try count(backend, "payments") == 1)
    let other = try backend.services.ledger.book(request(token, key: "k-2"), take: ToyInventory.take())
    #expect(other.id != first.id)
  }

  @Test func idempotencyKey_underConcurrentRetries_chargesOnce() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 50)
    let ids = Locked<[String]>([])
    let failures = LockedCounter()
    let connections = try (0..<6).map { _ in try backend.secondConnection() }
    DispatchQueue.concurrentPerform(iterations: connections.count) { index in
      do {
        let reservation = try connections[index].ledger.book(request(token, key: "same"), take: ToyInventory.take())
        ids.withLock { $0.append(reservation.id) }
      } catch {
        failures.add("\(error)")
      }
    }
    #expect(failures.values.isEmpty)
    #expect(Set(ids.withLock { $0 }).count == 1)
    #expect(try count(backend, "payments") == 1)
    #expect(try ToyInventory.remaining(backend.services) == 49)
  }

  @Test func racingConnections_neverOversell_andLosersGetSoldOut() throws {
    let backend = try TestBackend()
    let buyers = 8
    let tokens = try (0..<buyers).map { index in
      let token = try backend.signedIn("buyer\(index)@example.com")
      try backend.addCard(token: token)
      return token
    }
    try ToyInventory.install(backend.services, units: 3)
    let connections = try (0..<buyers).map { _ in try backend.secondConnection() }
    let outcomes = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: buyers) { index in
      let code = errorCode { _ = try connections[index].ledger.book(request(tokens[index]), take: ToyInventory.take()) }
      outcomes.withLock { $0.append(code ?? "ok") }
    }
    let results = outcomes.withLock { $0 }
    #expect(results.filter { $0 == "ok" }.count == 3)
    #expect(results.filter { $0 == "sold_out" }.count == buyers - 3)
    #expect(try ToyInventory.remaining(backend.services) == 0)
    #expect(try count(backend, "reservations") == 3)
    #expect(try count(backend, "payments") == 3)
  }

  @Test func cancel_refundsByPolicy_releases_andOnlyForTheOwner() throws {
    let backend = try TestBackend()
    let ada = try backend.signedIn()
    let bob = try backend.signedIn("bob@example.com")
    try backend.addCard(token: ada)
    try ToyInventory.install(backend.services, units: 1)
    let ledger = backend.services.ledger
    let booked = try ledger.book(request(ada), take: ToyInventory.take())
    #expect(errorCode { _ = try ledger.cancelReservation(id: booked.id, token: bob) } == "reservation_not_found")
    #expect(errorCode { _ = try ledger.reservation(id: booked.id, token: bob) } == "reservation_not_found")
    #expect(try ledger.reservations(token: bob).isEmpty)
    ledger.register(
      .hotel,
      cancellation: CancellationPolicy(
        refund: { reservation, _ in reservation.total * 0.5 }, release: ToyInventory.release))
    let cancelled = try ledger.cancelReservation(id: booked.id, token: ada)
    #expect(cancelled.status == .cancelled)
    #expect(cancelled.refunded == Money(amount: 60.25, currency: "EUR"))
    #expect(try ToyInventory.remaining(backend.services) == 1)
    let payment = try #require(try backend.services.database.queryOne("SELECT * FROM payments"))
    #expect(try payment.get("status") == "partially_refunded")
    #expect(try payment.get("refunded_minor") == Int64(6025))
    #expect(try ledger.reservation(id: booked.id, token: ada) == cancelled)
    #expect(errorCode { _ = try ledger.cancelReservation(id: booked.id, token: ada) } == "already_cancelled")
  }

  @Test func cancel_thatThrows_changesNothing() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 1)
    let ledger = backend.services.ledger
    let booked = try ledger.book(request(token), take: ToyInventory.take())
    let code = errorCode {
      _ = try ledger.cancel(
        id: booked.id, token: token,
        refund: { _, _ in throw ServiceError.refused("not_cancellable", "too late") }, release: ToyInventory.release)
    }
    #expect(code == "not_cancellable")
    #expect(try ToyInventory.remaining(backend.services) == 0)
    #expect(try ledger.reservation(id: booked.id, token: token).status == .confirmed)
    #expect(
      errorCode {
        _ = try ledger.cancel(
          id: booked.id, token: token, refund: { r, _ in r.total * 2 }, release: ToyInventory.release)
      } == "invalid_refund")
    #expect(try ToyInventory.remaining(backend.services) == 0)
  }

  @Test func list_isNewestFirst() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 3)
    let first = try backend.services.ledger.book(request(token), take: ToyInventory.take())
    backend.advance(60)
    let second = try backend.services.ledger.book(request(token, amount: 10), take: ToyInventory.take())
    #expect(try backend.services.ledger.reservations(token: token).map(\.id) == [second.id, first.id])
  }
}
