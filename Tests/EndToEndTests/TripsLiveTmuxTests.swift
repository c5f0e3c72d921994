import CommonTesting
import Foundation
import Testing

/// Issue #16's live Trips over a server, in two terminals: one traveller signed in on two client
/// data directories against one `travel-server` (a free port, its own store). The first terminal
/// has `travel` open on Account → Trips; the second books a flight, then cancels it, from its
/// shell. Each change shows on the first terminal's Trips screen with no key pressed there (the
/// stream's `trips` topic).
@Suite(.serialized) struct TripsLiveTmuxTests {
  static let password = InteractiveTmuxTests.password

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  /// Every wait has its own deadline (no `.timeLimit`: it would also count the time the test
  /// waits for a thread of the runner while other suites' blocking tests hold them).
  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func aBookingAndACancellationFromAnotherTerminal_showInTheOpenTrips_withoutAKeyPress() throws {
    let server = try ServerProcess()
    defer { server.stop() }
    let first = TemporaryDirectory(prefix: "trips-live-first")
    let second = TemporaryDirectory(prefix: "trips-live-second")
    func environment(_ data: TemporaryDirectory) -> [String: String] {
      ["TRAVEL_DATA_DIR": data.path, "TRAVEL_SERVER": server.url.absoluteString]
    }
    let runner = ProductRunner()
    // Ada signs up once and signs in on both: two sessions of one account.
    let signup = try runner.run(
      "travel", ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: Self.password + "\n" + Self.password + "\n", environment: environment(first))
    #expect(signup.status == 0, "\(signup.stderr)")
    for data in [first, second] {
      let login = try runner.run(
        "travel", ["account", "login", "--email", "ada@example.com"], stdin: Self.password + "\n",
        environment: environment(data))
      #expect(login.status == 0, "\(login.stderr)")
    }
    let card = try runner.run(
      "travel", ["account", "cards", "add"], stdin: "4242 4242 4242 4242\n12/30\n123\n",
      environment: environment(second))
    #expect(card.status == 0, "\(card.stderr)")
    let search = try runner.run(
      "booking",
      [
        "search", "--from", "FRA", "--to", "JFK", "--date", InteractiveTmuxTests.date(daysFromToday: 12),
        "--max-stops", "0", "--json",
      ],
      environment: environment(second))
    #expect(search.status == 0, "\(search.stderr)")
    let offer = try #require((try json(search.stdout)["offers"] as? [[String: Any]])?.first?["id"] as? String)

    func prefix(_ data: TemporaryDirectory) -> String {
      environment(data).sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    }
    let app = try TmuxSession(width: 120, height: 40)
    defer { app.close() }
    let shell = try TmuxSession(width: 120, height: 40)
    defer { shell.close() }

    // The first terminal: travel, Account (4), Trips (the fourth item of the home), empty.
    try app.waitFor("the first prompt") { $0.hasPrefix("$") }
    try app.type("\(prefix(first)) '\(try runner.executable("travel").path)'")
    try app.press("Enter")
    try app.waitFor("Find a flight")
    try app.press("Escape")
    try app.type("4")
    try app.waitFor("the account's home") { $0.contains("Payment cards") && $0.contains("Sign out") }
    try app.press("Down", "Down", "Down", "Enter")
    try app.waitFor("the empty trips", seconds: 20) { $0.contains("No trips yet") }

    // The second terminal books from its shell.
    try shell.waitFor("the second prompt") { $0.hasPrefix("$") }
    let booking = try runner.executable("booking").path
    try shell.type(
      "\(prefix(second)) '\(booking)' book '\(offer)' --passenger 'Ada Lovelace' --idempotency-key live-1 --json")
    try shell.press("Enter")
    let booked = try shell.waitFor("the booking", seconds: 30) { $0.contains("\"id\" : \"res_") }
    let id = try #require(
      booked.split(separator: "\n").first { $0.contains("\"id\" : \"res_") }?.split(separator: "\"").dropLast().last
        .map(String.init))

    // The first terminal shows it, no key pressed there.
    func tripRow(_ screen: String) -> String? {
      screen.split(separator: "\n").map(String.init).first { $0.contains("flight") && $0.contains("FRA → JFK") }
    }
    try app.waitFor("the booking in the open Trips", seconds: 15) {
      tripRow($0)?.contains("confirmed") == true && !$0.contains("No trips yet")
    }

    // The second cancels it from its shell: the first shows the trip cancelled, no key pressed.
    try shell.type("\(prefix(second)) '\(try runner.executable("travel").path)' trips cancel \(id) --yes")
    try shell.press("Enter")
    try shell.waitFor("the cancellation", seconds: 30) { $0.contains("Cancelled \(id)") }
    try app.waitFor("the cancellation in the open Trips", seconds: 15) { tripRow($0)?.contains("cancelled") == true }
    try app.press("C-c")
  }
}
