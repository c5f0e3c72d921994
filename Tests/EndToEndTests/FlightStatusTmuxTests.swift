import CommonTesting
import Foundation
import Testing

/// Live flight status in the interactive app, in tmux: a booked flight's gate change shows in the
/// header by itself (no key pressed), and the Board of its airport updates live.
@Suite(.serialized) struct FlightStatusTmuxTests {
  /// A gate change at Frankfurt on `date`, found by following the day's board at full speed:
  /// (flight like `LH456`, destination, new gate, when the change happens as ISO 8601 UTC).
  static func gateChange(on date: String, runner: ProductRunner, environment: [String: String]) throws -> (
    flight: String, destination: String, gate: String, at: String
  ) {
    let follow = try runner.run(
      "booking",
      [
        "board", "FRA", "--date", date, "--follow", "--json", "--clock-start", "\(date)T00:00Z", "--clock-speed",
        "100000",
      ],
      environment: environment)
    #expect(follow.status == 0, "\(follow.stderr)")
    for line in follow.stdout.split(separator: "\n") {
      guard let document = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let board = document["boardUpdate"] as? [String: Any], let update = board["update"] as? [String: Any],
        let changes = update["changes"] as? [[String: Any]], let status = update["flightStatus"] as? [String: Any],
        let change = changes.first(where: { $0["field"] as? String == "departureGate" && $0["old"] != nil }),
        let flight = status["flight"] as? String, let at = status["updatedAt"] as? String,
        // A flight of the morning, bookable with a nonstop search.
        (status["status"] as? String) != "cancelled"
      else { continue }
      return (flight, status["destination"] as? String ?? "", change["new"] as? String ?? "", at)
    }
    throw TmuxSession.Timeout(description: "no gate change at FRA on \(date)")
  }

  @Test(
    .enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"),
    .timeLimit(.minutes(3)))
  func bookedFlightsGateChange_appearsInTheHeader_withoutAKeyPress() throws {
    let data = TemporaryDirectory(prefix: "status-tmux-e2e")
    let runner = ProductRunner()
    let environment = ["TRAVEL_DATA_DIR": data.path]
    let date = InteractiveTmuxTests.date(daysFromToday: 10)
    let change = try Self.gateChange(on: date, runner: runner, environment: environment)

    // Ada books that flight.
    let password = InteractiveTmuxTests.password
    for (arguments, stdin) in [
      (
        ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
        password + "\n" + password + "\n"
      ),
      (["account", "login", "--email", "ada@example.com"], password),
      (["account", "cards", "add"], "4242 4242 4242 4242\n12/30\n123"),
    ] {
      let result = try runner.run("travel", arguments, stdin: stdin + "\n", environment: environment)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    let search = try runner.run(
      "booking", ["search", "--from", "FRA", "--to", change.destination, "--date", date, "--max-stops", "0", "--json"],
      environment: environment)
    let offers = try #require(
      (try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])?["offers"]
        as? [[String: Any]])
    let offer = try #require(
      offers.first { (($0["segments"] as? [[String: Any]])?.first?["flightNumber"] as? String) == change.flight })
    let booked = try runner.run(
      "booking", ["book", try #require(offer["id"] as? String), "--passenger", "Ada Lovelace"],
      environment: environment)
    #expect(booked.status == 0, "\(booked.stderr)")

    // The app, its clock three minutes before the change, 20 times faster: nothing is pressed.
    let start = ISO8601DateFormatter().date(from: change.at)!.addingTimeInterval(-180)
    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let travel = try runner.executable("travel").path
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type(
      "TRAVEL_DATA_DIR='\(data.path)' '\(travel)' --clock-start \(ISO8601DateFormatter().string(from: start)) "
        + "--clock-speed 20")
    try tmux.press("Enter")
    try tmux.waitFor("Find a flight")
    let carrier = change.flight.prefix(2)
    let number = change.flight.dropFirst(2)
    let notice = "\(carrier) \(number) to \(change.destination): gate changed to \(change.gate)"
    let screen = try tmux.waitFor("the notice in the header", seconds: 60) {
      $0.split(separator: "\n").first?.contains(notice) == true
    }
    #expect(screen.contains("Find a flight"), "the screen stayed where it was")
    try tmux.press("C-c")
  }
}
