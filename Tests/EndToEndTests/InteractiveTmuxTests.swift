import CommonTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A tmux server of its own (socket in a temporary directory) with one window running `sh`, for
/// driving the interactive app like a person at a terminal.
final class TmuxSession: @unchecked Sendable {
  /// tmux on the PATH (Scripts/bootstrap installs it), or nil.
  static let executable: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let url = URL(fileURLWithPath: String(directory)).appendingPathComponent("tmux")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }()

  static var isInstalled: Bool { executable != nil }

  let directory = TemporaryDirectory(prefix: "tmux-e2e")
  private var socket: String { directory.url.appendingPathComponent("tmux.sock").path }

  init(width: Int, height: Int) throws {
    let shell = "env -i PATH=/usr/bin:/bin HOME=\(directory.path) LANG=C.UTF-8 TERM=screen PS1='$ ' sh"
    _ = try tmux(["-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "\(width)", "-y", "\(height)", shell])
    serverID = pid_t(try display("#{pid}"))
  }

  /// The server's process id, to stop it even when the socket is gone.
  private var serverID: pid_t?

  /// Stops the server (called by the test's `defer`, and again on deinit).
  func close() {
    _ = try? tmux(["kill-server"])
    if let serverID {
      kill(serverID, SIGKILL)
      self.serverID = nil
    }
  }

  deinit { close() }

  /// Runs tmux on this session's server; returns its stdout. Spawned with `posix_spawn` and
  /// awaited with `waitpid`, output through a file: the server that `new-session` forks keeps
  /// every descriptor it inherits, which would keep a pipe (or Foundation's `Process`) waiting.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let outputPath = directory.url.appendingPathComponent("tmux-output-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([Self.executable!.path, "-u", "-S", socket] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, Self.executable!.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw Timeout(description: "cannot run tmux: error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  /// Types `text` literally.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", "e2e", "-l", text]) }
  /// Sends keys by tmux name (`Enter`, `C-u`, `C-c`, `Escape`).
  func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "e2e"] + keys) }
  /// The visible pane as text.
  func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "e2e"]) }
  /// A pane format variable (`#{alternate_on}`, `#{pane_width}`).
  func display(_ format: String) throws -> String {
    try tmux(["display-message", "-p", "-t", "e2e", format]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Polls until `condition` holds for the pane's text (no fixed sleeps: slow machines just take
  /// longer), or throws ``Timeout`` with the last screen after `seconds`.
  @discardableResult
  func waitFor(
    _ what: String, seconds: Double = 30,
    _ condition: (String) throws -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var text = ""
    while Date() < deadline {
      text = try screen()
      if try condition(text) { return text }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw Timeout(description: "timed out after \(seconds) s waiting for \(what); the screen was:\n\(text)")
  }

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  /// Waits until the pane's text contains `needle`.
  @discardableResult
  func waitFor(_ needle: String, seconds: Double = 30) throws
    -> String
  {
    try waitFor("\"\(needle)\"", seconds: seconds) { $0.contains(needle) }
  }
}

/// The interactive app end to end in tmux: `travel` at 120×40 on a data directory where a user
/// signed up and in through the command line.
@Suite(.serialized) struct InteractiveTmuxTests {
  static let password = "correct horse battery"

  /// `YYYY-MM-DD`, `days` after today (UTC, as the app in tmux sees it: no TZ).
  static func date(daysFromToday days: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let day = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }

  /// The line of the pane that starts with `prefix` (after spaces), or nil.
  static func line(startingWith prefix: String, in screen: String) -> String? {
    screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(prefix) }
  }

  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func travel_flights_autocomplete_search_results_details_escBack_book() throws {
    let data = TemporaryDirectory(prefix: "interactive-flights-e2e")
    let runner = ProductRunner()
    let environment = ["TRAVEL_DATA_DIR": data.path]
    for (arguments, stdin) in [
      (
        ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
        Self.password + "\n" + Self.password + "\n"
      ),
      (["account", "login", "--email", "ada@example.com"], Self.password),
      (["account", "cards", "add"], "4242 4242 4242 4242\n12/30\n123"),
      // Ada prefers euros: the Flights screens search, show and charge in EUR.
      (["account", "preferences", "--currency", "EUR"], ""),
    ] {
      let result = try runner.run("travel", arguments, stdin: stdin + "\n", environment: environment)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let travel = try runner.executable("travel").path
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type("TRAVEL_DATA_DIR='\(data.path)' '\(travel)'")
    try tmux.press("Enter")
    try tmux.waitFor("Find a flight")

    // The cursor is in From: typing a city suggests airports (300 ms after the last key). Enter
    // pressed at once, before the list arrives, moves on to To, and From takes the first suggestion
    // when it arrives: its code fills the field (the lead's bug: Enter kept "san fra", and the
    // search then failed).
    try tmux.type("san fra")
    try tmux.press("Enter")
    try tmux.waitFor("the list to close") {
      !$0.contains("San Francisco") && Self.line(startingWith: "From", in: $0)?.hasSuffix("SFO") == true
    }
    // In To, ↓ moves the highlight and ↑ back to the first; Tab takes it too.
    try tmux.type("JFK")
    try tmux.waitFor("▸ JFK  John F")
    try tmux.press("Down", "Up", "Tab")
    try tmux.waitFor("Depart focused") { !$0.contains("John F") && $0.contains("Enter calendar") }
    try tmux.waitFor("From and To filled") {
      !$0.contains("John F") && Self.line(startingWith: "From", in: $0)?.hasSuffix("SFO") == true
        && Self.line(startingWith: "To ", in: $0)?.hasSuffix("JFK") == true
    }

    // Depart, three weeks ahead, typed; Tab to Search (Return, Adults, Cabin, Max stops, Search).
    let departure = Self.date(daysFromToday: 21)
    try tmux.type(departure)
    try tmux.waitFor("the departure date") { !$0.contains("invalid departure date") && $0.contains(departure) }
    try tmux.press("Tab", "Tab", "Tab", "Tab", "Tab")
    try tmux.waitFor("Enter search")
    try tmux.press("Enter")
    let results = try tmux.waitFor("the results", seconds: 45) {
      $0.contains("offers · by price") && $0.contains("Duration") && $0.contains("Out   \(departure)")
    }
    #expect(results.contains("SFO → JFK · \(departure) · one-way · 1 adult · Economy"))
    #expect(results.contains("€"), "\(results)")

    // ↓ selects the next offer: the line of the selected offer changes.
    let first = try #require(Self.line(startingWith: "Out ", in: results))
    try tmux.press("Down")
    try tmux.waitFor("the next offer") { Self.line(startingWith: "Out ", in: $0).map { $0 != first } ?? false }

    // Enter opens the details: segments, the price breakdown, the passenger's name.
    try tmux.press("Enter")
    let details = try tmux.waitFor("the details") { $0.contains("Fare (1 adult, economy)") && $0.contains("Total") }
    #expect(details.contains("Names as on the passport"))
    #expect(details.contains("Results › SFO → JFK"))

    // Esc leaves the name field, Esc again goes back to the results.
    try tmux.press("Escape")
    try tmux.waitFor("the field left") { $0.contains("Enter edit") && $0.contains("q quit") }
    try tmux.press("Escape")
    try tmux.waitFor("the results again") { $0.contains("offers · by price") && !$0.contains("Fare (") }

    // Book it with the card on file: the confirmation with the record locator replaces the form,
    // so Esc goes back to the results, and again to the search form.
    try tmux.press("Enter")
    try tmux.waitFor("the card on file") { $0.contains("Visa •••• 4242") && $0.contains("Signed in as Ada Lovelace") }
    try tmux.type("Ada Lovelace")
    try tmux.press("Enter")
    let booked = try tmux.waitFor("the confirmation", seconds: 30) { $0.contains("Record locator (PNR)") }
    #expect(booked.contains("Total charged") && booked.contains("€"), "\(booked)")
    try tmux.press("Escape")
    try tmux.waitFor("the results after booking") { $0.contains("offers · by price") && !$0.contains("Record locator") }
    try tmux.press("Escape")
    try tmux.waitFor("the form again") { $0.contains("Find a flight") && $0.contains("q quit") }
    try tmux.type("q")
    try tmux.waitFor("the alternate screen to close", seconds: 30) { _ in try tmux.display("#{alternate_on}") == "0" }
    try tmux.type("echo status=$?")
    try tmux.press("Enter")
    try tmux.waitFor("status=0")
    let trips = try runner.run("travel", ["trips", "list", "--json"], environment: environment)
    #expect(trips.stdout.contains("\"currency\" : \"EUR\""), "\(trips.stdout)")
  }

  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func travel_profileSheetFirstNameMissing_resize_quit_restoresTheTerminal() throws {
    let data = TemporaryDirectory(prefix: "interactive-e2e")
    let runner = ProductRunner()
    let signup = try runner.run(
      "travel",
      ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: Self.password + "\n" + Self.password + "\n", environment: ["TRAVEL_DATA_DIR": data.path])
    #expect(signup.status == 0, "\(signup.stderr)")
    let login = try runner.run(
      "travel", ["account", "login", "--email", "ada@example.com"], stdin: Self.password + "\n",
      environment: ["TRAVEL_DATA_DIR": data.path])
    #expect(login.status == 0, "\(login.stderr)")

    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let travel = try runner.executable("travel").path
    let command = "TRAVEL_DATA_DIR='\(data.path)' '\(travel)'"
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type(command)
    try tmux.press("Enter")

    // Opens on Flights, with the four tabs, typing in the From field.
    try tmux.waitFor("tabs and the Flights screen") {
      $0.contains("Flights │ Hotels │ Cars │ Account") && $0.contains("Find a flight") && $0.contains("Ctrl-C quit")
    }
    #expect(try tmux.display("#{alternate_on}") == "1")

    // The Account tab (after Esc leaves the From field, digits switch tabs): the greeting in the
    // header, then the profile sheet.
    try tmux.press("Escape")
    try tmux.waitFor("1-4 tabs")
    try tmux.type("4")
    try tmux.waitFor("Welcome, Ada Lovelace")
    try tmux.waitFor("Edit profile")
    try tmux.type("e")
    try tmux.waitFor("First name")
    try tmux.press("C-u")
    try tmux.press("Enter")
    try tmux.press("Enter")
    let alert = try tmux.waitFor("First Name is missing")
    #expect(alert.contains("Missing Data"))

    // Resize: too small says so; back to a usable size redraws the alert.
    try tmux.tmux(["resize-window", "-t", "e2e", "-x", "50", "-y", "15"])
    try tmux.waitFor("Make the window larger")
    try tmux.tmux(["resize-window", "-t", "e2e", "-x", "100", "-y", "30"])
    let resized = try tmux.waitFor("the alert at 100×30") {
      $0.contains("First Name is missing") && !$0.contains("larger")
    }
    #expect(resized.split(separator: "\n").allSatisfy { $0.count <= 100 })

    // Dismiss, quit with q: the shell is back in normal mode, exit status 0.
    try tmux.press("Enter")
    try tmux.waitFor("the alert to close") { !$0.contains("First Name is missing") }
    try tmux.type("q")
    try tmux.waitFor("the alternate screen to close", seconds: 30) { _ in try tmux.display("#{alternate_on}") == "0" }
    try tmux.type("echo status=$?")
    try tmux.press("Enter")
    try tmux.waitFor("status=0")

    // Again, and Ctrl-C: exit status 130, terminal restored.
    try tmux.type(command)
    try tmux.press("Enter")
    try tmux.waitFor("Flights │ Hotels")
    try tmux.press("C-c")
    try tmux.waitFor("the alternate screen to close", seconds: 30) { _ in try tmux.display("#{alternate_on}") == "0" }
    try tmux.type("echo status=$?")
    try tmux.press("Enter")
    try tmux.waitFor("status=130")

    // `stty -a` in the pane: echo and canonical mode are on again, the cursor is shown.
    let settings = tmux.directory.url.appendingPathComponent("stty.txt")
    try tmux.type("stty -a > '\(settings.path)'; echo stty-$((40 + 2))")
    try tmux.press("Enter")
    try tmux.waitFor("stty-42")
    let words = try String(contentsOf: settings, encoding: .utf8).split(whereSeparator: { $0.isWhitespace || $0 == ";" }
    )
    #expect(words.contains("echo") && !words.contains("-echo"))
    #expect(words.contains("icanon") && !words.contains("-icanon"))
    #expect(try tmux.display("#{cursor_flag}") == "1")
  }
}
