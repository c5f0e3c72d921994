import CommonTesting
import Foundation
import Testing

/// The chat with a travel agent in two terminals: a traveller in `travel` (one tmux server) and an
/// agent in `travel-agent` (another), embedded on one data directory and through a `travel-server`.
/// The traveller writes about a booked trip; the agent's queue, the read marks and the traveller's
/// unread count change on the other screen without a key press there.
@Suite(.serialized) struct ChatTmuxTests {
  static let password = InteractiveTmuxTests.password
  static let agentPassword = "agent password 1"
  let runner = ProductRunner()

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// Ada signs up, adds a card and books a nonstop flight FRA → JFK ten days ahead; Grace is an
  /// agent (added on `agentsDirectory`, the store) and signed in. Returns the reservation's id and
  /// record locator.
  func prepare(traveller: [String: String], agent: [String: String], agentsDirectory: String) throws -> (
    id: String, locator: String
  ) {
    for (arguments, stdin) in [
      (
        ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
        Self.password + "\n" + Self.password + "\n"
      ),
      (["account", "login", "--email", "ada@example.com"], Self.password),
      (["account", "cards", "add"], "4242 4242 4242 4242\n12/30\n123"),
    ] {
      let result = try runner.run("travel", arguments, stdin: stdin + "\n", environment: traveller)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    let date = InteractiveTmuxTests.date(daysFromToday: 10)
    let search = try runner.run(
      "booking", ["search", "--from", "FRA", "--to", "JFK", "--date", date, "--max-stops", "0", "--json"],
      environment: traveller)
    #expect(search.status == 0, "\(search.stderr)")
    let offers = try #require(try json(search.stdout)["offers"] as? [[String: Any]])
    let offer = try #require(offers.first?["id"] as? String)
    let booked = try runner.run(
      "booking", ["book", offer, "--passenger", "Ada Lovelace", "--json"], environment: traveller)
    #expect(booked.status == 0, "\(booked.stderr)")
    let reservation = try #require(try json(booked.stdout)["reservation"] as? [String: Any])

    let added = try runner.run(
      "travel-server",
      ["--data-dir", agentsDirectory, "agents", "add", "--email", "grace@agency.example", "--name", "Grace Hopper"],
      stdin: Self.agentPassword + "\n")
    #expect(added.status == 0, "\(added.stderr)")
    let login = try runner.run(
      "travel-agent", ["login", "--email", "grace@agency.example"], stdin: Self.agentPassword + "\n",
      environment: agent)
    #expect(login.status == 0, "\(login.stderr)")
    return (try #require(reservation["id"] as? String), try #require(reservation["locator"] as? String))
  }

  /// The conversation itself, each side in its own tmux server; `traveller` and `agent` are the
  /// environments the two shells run their commands with.
  func converse(traveller: [String: String], agent: [String: String], trip: (id: String, locator: String)) throws {
    func prefix(_ environment: [String: String]) -> String {
      environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    }
    let agentScreen = try TmuxSession(width: 120, height: 40)
    defer { agentScreen.close() }
    let travellerScreen = try TmuxSession(width: 120, height: 40)
    defer { travellerScreen.close() }

    // The agent's console is open on an empty queue.
    try agentScreen.waitFor("the agent's prompt") { $0.hasPrefix("$") }
    try agentScreen.type("\(prefix(agent)) '\(try runner.executable("travel-agent").path)'")
    try agentScreen.press("Enter")
    try agentScreen.waitFor("No open conversation")

    // The traveller writes about the booked trip from the shell, then opens the app.
    try travellerScreen.waitFor("the traveller's prompt") { $0.hasPrefix("$") }
    let travel = try runner.executable("travel").path
    try travellerScreen.type(
      "\(prefix(traveller)) '\(travel)' chat send 'Can I add a checked bag to this flight?' --trip \(trip.id)")
    try travellerScreen.press("Enter")
    try travellerScreen.waitFor("the message sent", seconds: 30) { $0.contains("$ ") && $0.contains("Sent") }

    // The queue shows it — its unread count and the trip — with no key pressed on the agent's side.
    let queue = try agentScreen.waitFor("the conversation in the queue", seconds: 15) {
      $0.contains("Ada Lovelace") && $0.contains("1 open, 1 waiting for an agent")
    }
    let row = try #require(queue.split(separator: "\n").first { $0.contains("Ada Lovelace") })
    #expect(row.contains(" 1 ") && row.contains("FRA"), "unread count 1 and the trip in \(row)")

    try travellerScreen.type("\(prefix(traveller)) '\(travel)'")
    try travellerScreen.press("Enter")
    try travellerScreen.waitFor("Find a flight")
    try travellerScreen.press("C-t")
    try travellerScreen.waitFor("the chat sheet") {
      $0.contains("Chat with a travel agent") && $0.contains("Can I add a checked bag") && $0.contains(trip.locator)
    }

    // The agent opens and takes the conversation: the traveller's sheet says who is there and
    // marks the message read, by itself.
    try agentScreen.press("Enter")
    try agentScreen.waitFor("the conversation") { $0.contains("Can I add a checked bag") && $0.contains(trip.locator) }
    try agentScreen.type("t")
    try agentScreen.waitFor("held by you")
    try travellerScreen.waitFor("the agent and the read mark", seconds: 15) {
      $0.contains("Grace Hopper is with you") && $0.contains("✓✓ read")
    }

    // The traveller closes the sheet; the agent replies: the header counts it, no key pressed.
    try travellerScreen.press("Escape")
    try travellerScreen.waitFor("the sheet closed") { !$0.contains("Chat with a travel agent") }
    try agentScreen.type("Yes: 23 kg for 60 EUR. Shall I add it?")
    try agentScreen.press("Enter")
    try travellerScreen.waitFor("the unread count in the header", seconds: 15) {
      $0.split(separator: "\n").first?.contains("Chat: 1 unread") == true
    }
    // The agent's reply is delivered (the traveller's app has it), not yet read.
    try agentScreen.waitFor("the reply delivered", seconds: 15) {
      InteractiveTmuxTests.line(startingWith: "You ·", in: $0)?.hasSuffix("✓✓") == true
    }

    // The traveller opens the sheet: the count goes, and the agent's screen marks the reply read.
    try travellerScreen.press("C-t")
    try travellerScreen.waitFor("the reply in the sheet") {
      $0.contains("Yes: 23 kg for 60 EUR") && $0.split(separator: "\n").first?.contains("unread") == false
    }
    try agentScreen.waitFor("the reply read", seconds: 15) {
      InteractiveTmuxTests.line(startingWith: "You ·", in: $0)?.hasSuffix("✓✓ read") == true
    }

    // The traveller answers in the sheet: it shows on the agent's screen, read at once there.
    try travellerScreen.type("Yes please, thank you!")
    try travellerScreen.press("Enter")
    try agentScreen.waitFor("the traveller's answer", seconds: 15) { $0.contains("Yes please, thank you!") }
    try travellerScreen.waitFor("the answer read", seconds: 15) {
      $0.split(separator: "\n").filter { $0.contains("You ·") }.last?.contains("✓✓ read") == true
    }

    try travellerScreen.press("Escape")
    try travellerScreen.press("C-c")
    try agentScreen.press("C-c")
  }

  @Test(
    .enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"),
    .timeLimit(.minutes(3)))
  func travellerAndAgent_converseLive_embedded() throws {
    let data = TemporaryDirectory(prefix: "chat-tmux-e2e")
    let environment = ["TRAVEL_DATA_DIR": data.path]
    let trip = try prepare(traveller: environment, agent: environment, agentsDirectory: data.path)
    try converse(traveller: environment, agent: environment, trip: trip)
  }

  @Test(
    .enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"),
    .timeLimit(.minutes(3)))
  func travellerAndAgent_converseLive_throughTravelServer() throws {
    let store = TemporaryDirectory(prefix: "chat-tmux-server")
    let server = try ServerProcess(directory: store)
    defer { server.stop() }
    let travellerData = TemporaryDirectory(prefix: "chat-tmux-traveller")
    let agentData = TemporaryDirectory(prefix: "chat-tmux-agent")
    let traveller = ["TRAVEL_DATA_DIR": travellerData.path, "TRAVEL_SERVER": server.url.absoluteString]
    let agent = ["TRAVEL_DATA_DIR": agentData.path, "TRAVEL_SERVER": server.url.absoluteString]
    let trip = try prepare(traveller: traveller, agent: agent, agentsDirectory: store.path)
    try converse(traveller: traveller, agent: agent, trip: trip)
  }
}
