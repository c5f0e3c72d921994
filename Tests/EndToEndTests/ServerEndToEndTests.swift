import CommonTesting
import Foundation
import Testing

/// The apps as clients of a `travel-server` started by the suite (one server for the suite, a
/// free port, its own data directory): `TRAVEL_SERVER=… travel …` and `--server URL`.
@Suite(.serialized, .timeLimit(.minutes(3)))
final class ServerEndToEndTests {
  let server: ServerProcess

  init() throws { server = try ServerProcess() }

  deinit { server.stop() }

  /// Runs `travel` with `TRAVEL_SERVER` on a client data directory of its own.
  func travel(_ arguments: [String], stdin: String = "", client: TemporaryDirectory) throws -> ProductRunner.Result {
    try ProductRunner().run(
      "travel", arguments + ["--data-dir", client.path], stdin: stdin,
      environment: ["TRAVEL_SERVER": server.url.absoluteString])
  }

  @Test func travelCommandsWorkAgainstTheServerAndNothingIsStoredOnTheClient() throws {
    let client = TemporaryDirectory(prefix: "server-client")
    let password = "correct horse battery\n"
    let signup = try travel(
      ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: password + password, client: client)
    #expect(signup.status == 0, "\(signup.stderr)")
    let login = try travel(["account", "login", "--email", "ada@example.com"], stdin: password, client: client)
    #expect(login.status == 0, "\(login.stderr)")
    let card = try travel(["account", "cards", "add"], stdin: "4242424242424242\n12/39\n123\n", client: client)
    #expect(card.status == 0, "\(card.stderr)")

    let date = ISO8601DateFormatter.string(
      from: Date().addingTimeInterval(45 * 86400), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: [.withFullDate])
    let search = try travel(
      ["flights", "search", "--from", "SFO", "--to", "JFK", "--date", date, "--limit", "3", "--json"], client: client)
    #expect(search.status == 0, "\(search.stderr)")
    let offers = try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any]
    let offerID = try #require(((offers?["offers"] as? [[String: Any]])?.first?["id"]) as? String)
    let book = try travel(
      ["flights", "book", offerID, "--passenger", "Ada Lovelace", "--idempotency-key", "e2e-1", "--json"],
      client: client)
    #expect(book.status == 0, "\(book.stderr)")
    #expect(book.stdout.contains("\"kind\" : \"flight\""))

    let trips = try travel(["trips", "list", "--json"], client: client)
    #expect(trips.status == 0, "\(trips.stderr)")
    #expect(trips.stdout.contains("\"status\" : \"confirmed\""))
    // The client kept only its session (and the remembered server): the store is the server's.
    #expect(!FileManager.default.fileExists(atPath: client.url.appendingPathComponent("travel.sqlite3").path))
    #expect(FileManager.default.fileExists(atPath: server.directory.url.appendingPathComponent("travel.sqlite3").path))
    // The server logged the calls, never the password or the card number.
    #expect(server.output.contains("\"path\":\"/v1/flights/bookings\""))
    #expect(!server.output.contains("correct horse battery"))
    #expect(!server.output.contains("4242424242424242"))

    // Remembered with the session: no TRAVEL_SERVER needed for the next command.
    let remembered = try ProductRunner().run("travel", ["trips", "list", "--json", "--data-dir", client.path])
    #expect(remembered.status == 0, "\(remembered.stderr)")
    #expect(remembered.stdout == trips.stdout)
  }

  @Test func unreachableServerExitsOneNamingTheURL() throws {
    let client = TemporaryDirectory(prefix: "server-client")
    let result = try ProductRunner().run(
      "travel", ["flights", "airports", "SFO", "--json", "--data-dir", client.path],
      environment: ["TRAVEL_SERVER": "http://127.0.0.1:9"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("\"code\" : \"server_unreachable\""))
    #expect(result.stderr.contains("http://127.0.0.1:9"))
    let search = try ProductRunner().run(
      "booking", ["airports", "SFO", "--server", "http://127.0.0.1:9", "--data-dir", client.path])
    #expect(search.status == 1)
    #expect(search.stderr == "error: cannot reach the server at http://127.0.0.1:9: connection refused\n")
  }

  @Test func invalidServerURLIsUsageError() throws {
    let client = TemporaryDirectory(prefix: "server-client")
    let result = try ProductRunner().run("travel", ["trips", "list", "--server", "ftp://x", "--data-dir", client.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("invalid --server \"ftp://x\": expected a server URL like http://127.0.0.1:8080"))
  }

  @Test func sigtermStopsTheServerWithExitZero() throws {
    let own = try ServerProcess()
    let started = Date()
    #expect(own.stop() == 0)
    #expect(Date().timeIntervalSince(started) < 10)
  }

  /// A SIGTERM that comes while the server is still starting (loading its data, before it
  /// listens) is held, not lost: it finishes starting, then stops with exit 0. (It used to be
  /// ignored from `signal(SIGTERM, SIG_IGN)` until the signal source was armed: the server ran
  /// on until SIGKILL.) The signal is sent once the process holds or ignores SIGTERM
  /// (`/proc/PID/status`), i.e. once its own code runs.
  @Test func sigtermWhileStartingIsHeldAndStopsTheServerWithExitZero() throws {
    let directory = TemporaryDirectory(prefix: "server-sigterm")
    let process = Process()
    process.executableURL = try ProductRunner().executable("travel-server")
    process.arguments = ["--listen", "127.0.0.1:0", "--data-dir", directory.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    func handlesSIGTERM() -> Bool {
      guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
      else { return false }
      return status.split(separator: "\n").contains { line in
        guard line.hasPrefix("SigBlk:") || line.hasPrefix("SigIgn:"),
          let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16)
        else { return false }
        return mask & (1 << (UInt64(SIGTERM) - 1)) != 0
      }
    }
    let armed = Date().addingTimeInterval(30)
    while process.isRunning && !handlesSIGTERM() && Date() < armed { Thread.sleep(forTimeInterval: 0.001) }
    process.terminate()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    #expect(!process.isRunning, "travel-server still runs 60 s after a SIGTERM sent while it started")
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
  }
}
