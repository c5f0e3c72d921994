import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

/// Real processes racing through the ledger on one store file. The parent spawns this test
/// runner again, once per buyer, running only ``helper_bookOnce()`` with the buyer's data in the
/// environment; without that environment the helper does nothing.
@Suite struct MultiProcessTests {
  static let helperVariable = "BACKEND_TEST_HELPER_DIR"

  /// The child's side: book one toy unit and write the outcome code to `outcome-<index>`.
  @Test func helper_bookOnce() throws {
    let environment = ProcessInfo.processInfo.environment
    guard let dir = environment[Self.helperVariable], let token = environment["BACKEND_TEST_HELPER_TOKEN"],
      let index = environment["BACKEND_TEST_HELPER_INDEX"]
    else { return }
    let outcome: String
    do {
      let services = try BackendServices(
        dataDirectory: URL(fileURLWithPath: dir), environment: BackendEnvironment(passwordParameters: .fastForTests))
      let request = BookingRequest(
        token: token, kind: .car, total: Money(amount: 42, currency: "USD"), summary: "Toy car")
      outcome = errorCode { _ = try services.ledger.book(request, take: ToyInventory.take()) } ?? "ok"
    } catch {
      outcome = "open failed: \(error)"
    }
    try Data(outcome.utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent("outcome-\(index)"))
    // Crash mode: die at once, without closing the database or running any cleanup.
    if environment["BACKEND_TEST_HELPER_CRASH"] == "1" { kill(getpid(), SIGKILL) }
  }

  @Test func aProcessKilledRightAfterBooking_losesNothing() throws {
    let backend = try TestBackend(now: Date())
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 1)
    let process = try Self.spawnHelper(backend, token: token, index: 0, crash: true)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    let outcome = try Data(contentsOf: backend.directory.url.appendingPathComponent("outcome-0"))
    #expect(String(decoding: outcome, as: UTF8.self) == "ok")
    #expect(try backend.services.ledger.reservations(token: token).count == 1)
    #expect(try ToyInventory.remaining(backend.services) == 0)
  }

  static func spawnHelper(_ backend: TestBackend, token: String, index: Int, crash: Bool = false) throws -> Process {
    let runner = ProductRunner().binDirectory.appendingPathComponent("TravelPackageTests.xctest")
    let process = Process()
    process.executableURL = runner
    process.arguments = ["--testing-library", "swift-testing", "--filter", "MultiProcessTests/helper_bookOnce"]
    var environment = ProcessInfo.processInfo.environment
    environment[Self.helperVariable] = backend.directory.path
    environment["BACKEND_TEST_HELPER_TOKEN"] = token
    environment["BACKEND_TEST_HELPER_INDEX"] = String(index)
    environment["BACKEND_TEST_HELPER_CRASH"] = crash ? "1" : "0"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  @Test func processesRacingForTheLastUnits_neverOversell() throws {
    let backend = try TestBackend(now: Date())
    let buyers = 10
    let units = 3
    let tokens = try (0..<buyers).map { index in
      let token = try backend.signedIn("buyer\(index)@example.com")
      try backend.addCard(token: token)
      return token
    }
    try ToyInventory.install(backend.services, units: units)
    let runner = ProductRunner().binDirectory.appendingPathComponent("TravelPackageTests.xctest")
    try #require(FileManager.default.isExecutableFile(atPath: runner.path), "test runner not found at \(runner.path)")
    let processes = try tokens.enumerated().map { index, token in
      try Self.spawnHelper(backend, token: token, index: index)
    }
    for process in processes { process.waitUntilExit() }
    let outcomes = try (0..<buyers).map { index in
      String(
        decoding: try Data(contentsOf: backend.directory.url.appendingPathComponent("outcome-\(index)")), as: UTF8.self)
    }
    #expect(outcomes.filter { $0 == "ok" }.count == units, "\(outcomes)")
    #expect(outcomes.filter { $0 == "sold_out" }.count == buyers - units, "\(outcomes)")
    #expect(try ToyInventory.remaining(backend.services) == 0)
    let reservations: Int64 =
      try backend.services.database.queryOne("SELECT count(*) FROM reservations")?.get(at: 0) ?? -1
    let payments: Int64 = try backend.services.database.queryOne("SELECT count(*) FROM payments")?.get(at: 0) ?? -1
    #expect(reservations == Int64(units) && payments == Int64(units))
  }
}
