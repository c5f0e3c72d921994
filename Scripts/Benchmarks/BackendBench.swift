import Backend
import Common
import Foundation

/// The store and ledger: password hashing cost and bookings per second through
/// ``ReservationLedger/book(_:take:)`` (check a one-row inventory, take a unit, authorise and
/// capture on the test card, record the reservation: one `BEGIN IMMEDIATE` transaction each).
extension BenchmarkSuite {
  func backendFigures() -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travel-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let hasher = PasswordHasher()
      let scrypt = try sample(count: count(20), warmup: 1) { _ in _ = try hasher.hash("benchmark password") }
      // CPU time of one hash (this thread), which a loaded machine inflates less than wall time.
      let scryptCPU = try (0..<count(20)).map { _ in
        let start = Self.threadCPUMilliseconds()
        _ = try hasher.hash("benchmark password")
        return Self.threadCPUMilliseconds() - start
      }

      let services = try BackendServices(dataDirectory: directory)
      try Store.migrate(
        services.database,
        [
          Migration(
            id: "bench.001", sql: "CREATE TABLE bench_units (id INTEGER PRIMARY KEY, remaining INTEGER NOT NULL)")
        ])
      try services.database.run("INSERT INTO bench_units (id, remaining) VALUES (1, 1000000000)")
      _ = try services.accounts.signUp(
        email: "bench@example.com", password: "benchmark password", firstName: "Bench", lastName: "Mark")
      let token = try services.accounts.signIn(email: "bench@example.com", password: "benchmark password").token
      _ = try services.cards.addCard(
        NewPaymentCard(
          number: "4242424242424242", expiryMonth: 12,
          expiryYear: Calendar(identifier: .gregorian).component(.year, from: Date()) + 3, cvc: "123"), token: token)
      let request = BookingRequest(
        token: token, kind: .hotel, total: Money(amount: 123.45, currency: "EUR"), summary: "Benchmark stay",
        details: ["room": .string("double")])
      let take: (BookingContext) throws -> Void = { context in
        let remaining: Int64 =
          try context.db.queryOne("SELECT remaining FROM bench_units WHERE id = 1")?.get("remaining") ?? 0
        guard remaining > 0 else { throw ServiceError.refused("sold_out", "sold out") }
        try context.db.run("UPDATE bench_units SET remaining = remaining - 1 WHERE id = 1")
      }
      let book = try sample(count: count(1000), warmup: 10) { _ in _ = try services.ledger.book(request, take: take) }
      let perSecond = book.map { 1000 / $0 }
      return [
        Figure(
          name: "backend.scrypt-hash", unit: "ms", target: nil, values: scrypt, note: "scrypt N=2^15 r=8 p=1, wall"),
        Figure(
          name: "backend.scrypt-hash-cpu", unit: "ms", target: 250, values: scryptCPU,
          note: "thread CPU time: the sign-in cost on an idle core"),
        Figure(name: "backend.book", unit: "ms", target: 20, values: book),
        Figure(
          name: "backend.bookings-per-second", unit: "1/s", goal: .atLeast, target: 500, values: perSecond,
          note: "one process, one connection, WAL, synchronous=NORMAL"),
      ]
    } catch {
      return [Figure.failed("backend.book", target: 20, "failed: \(error)")]
    }
  }

  static func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
  }
}
