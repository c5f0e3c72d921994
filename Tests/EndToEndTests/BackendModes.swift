import CommonTesting
import Foundation
import Testing

/// Where the executables of an end-to-end test keep their backend: the same test code runs once
/// in each mode (`@Test(arguments: BackendMode.allCases)`).
enum BackendMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// The default: every process opens the store in its data directory.
  case embedded
  /// A `travel-server` on a free loopback port with its own data directory (one per suite, see
  /// ``SharedServer``); the processes get `TRAVEL_SERVER` and keep only their session in their
  /// data directory.
  case server

  var testDescription: String { rawValue }
}

/// One `travel-server` for all the server-mode tests of a suite marked `.sharedServer`: started
/// when the first of them asks for it (a run filtered to embedded tests starts none), stopped
/// (SIGTERM) when the suite ends. Starting a server loads the world's data: one per test made
/// the suites far slower than their embedded runs under load.
///
/// The tests sharing it keep apart by data, not by server: each signs up its own users
/// (``TestBackend/email(_:)``); a suite whose tests count free units of the same inventory is
/// `.serialized` as well.
///
/// These suites have no `.timeLimit`: every step is a process with deadlines of its own (the
/// server's start, the clients' request timeouts), while a test's time limit also counts the time
/// it waits for one of the runner's threads, which other suites' blocking tests hold for minutes
/// on a loaded two-core machine (the limits failed tests that had not yet run a step).
final class SharedServer: @unchecked Sendable {
  /// The server of the suite being run (nil outside a `.sharedServer` suite).
  @TaskLocal static var current: SharedServer?

  private let lock = NSLock()
  private var server: ServerProcess?
  private var failure: (any Error)?

  /// The suite's server, started on first use. A server that failed to start is not tried again:
  /// every later test gets the same error at once.
  func process() throws -> ServerProcess {
    try lock.withLock {
      if let server { return server }
      if let failure { throw failure }
      do {
        let started = try ServerProcess()
        server = started
        return started
      } catch {
        failure = error
        throw error
      }
    }
  }

  /// Stops the server if it was started.
  func stop() {
    lock.withLock { _ = server?.stop() }
  }
}

/// The trait that gives a suite its ``SharedServer`` (see `.sharedServer`).
struct SharedServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let shared = SharedServer()
    defer { shared.stop() }
    try await SharedServer.$current.withValue(shared) { try await function() }
  }
}

extension Trait where Self == SharedServerTrait {
  /// The suite's server-mode tests share one `travel-server` (``SharedServer``).
  static var sharedServer: Self { SharedServerTrait() }
}

/// The backend of one test: in ``BackendMode/server`` mode the suite's shared `travel-server`
/// (or, outside a `.sharedServer` suite, one of its own, stopped when the test releases it), and
/// the environment that points the executables at it.
final class TestBackend: Sendable {
  let mode: BackendMode
  /// The travel-server of a server-mode test.
  let server: ServerProcess?
  /// Whether ``server`` is this test's own (stopped on release) rather than the suite's.
  private let ownsServer: Bool
  /// How much of the server's log was written before this test: its own lines come after.
  private let logStart: Int
  /// Makes the test's email addresses unique on a shared server.
  private let tag: String

  init(_ mode: BackendMode) throws {
    self.mode = mode
    if mode == .server, let shared = SharedServer.current {
      server = try shared.process()
      ownsServer = false
    } else {
      server = mode == .server ? try ServerProcess() : nil
      ownsServer = true
    }
    logStart = server?.output.utf8.count ?? 0
    tag = String(UUID().uuidString.prefix(8)).lowercased()
  }

  /// The embedded backend (nothing to start).
  init() {
    mode = .embedded
    server = nil
    ownsServer = true
    logStart = 0
    tag = ""
  }

  deinit { if ownsServer { server?.stop() } }

  /// `TRAVEL_SERVER` in server mode, nothing in embedded mode.
  var environment: [String: String] {
    server.map { ["TRAVEL_SERVER": $0.url.absoluteString] } ?? [:]
  }

  /// The email address of the test's user `name`: `name@example.com` embedded (each test has its
  /// own store); on a server shared by the suite's tests, one no other test uses
  /// (`name.1a2b3c4d@example.com`).
  func email(_ name: String) -> String {
    server == nil || ownsServer ? "\(name)@example.com" : "\(name).\(tag)@example.com"
  }

  /// Runs `product` with `arguments` in this mode (the caller gives `--data-dir` or
  /// `TRAVEL_DATA_DIR` for the client's data directory).
  func run(
    _ product: String, _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]
  ) throws -> ProductRunner.Result {
    try ProductRunner().run(
      product, arguments, stdin: stdin, environment: environment.merging(extra) { _, given in given })
  }

  /// The directory holding the store: the server's in server mode, else `client`.
  func storeDirectory(client: TemporaryDirectory) -> URL {
    server?.directory.url ?? client.url
  }

  /// The access-log lines (server mode) written since this test began whose status is 5xx. On a
  /// shared server they may come from another test of the suite running at the same time: every
  /// test expects none, so any is a failure either way.
  var serverErrors: [String] {
    guard let server else { return [] }
    let log = Array(server.output.utf8)
    let own = String(decoding: log[min(logStart, log.count)...], as: UTF8.self)
    return own.split(separator: "\n").map(String.init).filter {
      $0.range(of: #""status":5[0-9][0-9]"#, options: .regularExpression) != nil
    }
  }

  /// Expects no 5xx in the server's access log and the server still running (nothing in
  /// embedded mode).
  func expectNoServerErrors(sourceLocation: SourceLocation = #_sourceLocation) {
    guard let server else { return }
    let errors = serverErrors
    #expect(errors.isEmpty, "5xx answers: \(errors.prefix(5))", sourceLocation: sourceLocation)
    if !server.process.isRunning {
      Issue.record(
        "travel-server exited (status \(server.process.terminationStatus)): \(server.output.suffix(2000))",
        sourceLocation: sourceLocation)
    }
  }
}
