import Common
import CommonTesting
import Foundation
import Testing

@testable import Account

@Suite struct AccountCommandsTests {
  @Test func help_listsEveryCommandWithoutOpeningTheServices() {
    let console = Console.capturing()
    let root = AccountCommands.root(environment: { _ in
      Issue.record("--help must not build the services")
      throw ServiceError.notSignedIn
    })
    let status = CommandLineTool(root: root).run(arguments: ["--help"], environment: [:], console: console)
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: account"))
    for name in ["signup", "login", "logout", "whoami", "profile", "preferences", "cards", "trips"] {
      #expect(console.output.contains("  \(name)"), "help lacks \(name)")
    }
    let cards = Console.capturing()
    #expect(
      CommandLineTool(root: root).run(arguments: ["cards", "add", "--help"], environment: [:], console: cards) == 0)
    #expect(cards.output.contains("USAGE: account cards add"))
  }

  @Test func unknownCommand_exitsTwo() {
    let harness = Harness()
    let outcome = harness.run(["nonsense"])
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains("nonsense"))
  }

  // MARK: signup

  @Test func signup_createsTheAccountWithAPasswordFromStdin() {
    let harness = Harness()
    let outcome = harness.run(
      ["signup", "--email", " Ada@Example.com ", "--first-name", " Ada ", "--last-name", "Lovelace"],
      input: ["correct horse", "correct horse"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("Account created for ada@example.com"))
    #expect(outcome.stdout.contains("account login --email ada@example.com"))
    #expect(!outcome.stdout.contains("correct horse"))
    #expect(harness.run(["login", "--email", "ada@example.com"], input: ["correct horse"]).status == 0)
  }

  @Test func signup_json() throws {
    let harness = Harness()
    let outcome = harness.run(
      ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace", "--json"],
      input: ["correct horse", "correct horse"])
    #expect(outcome.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: [String: String]]
    #expect(document?["profile"]?["email"] == "ada@example.com")
    #expect(document?["profile"]?["firstName"] == "Ada")
  }

  @Test(arguments: [
    (
      ["--email", "not-an-email", "--first-name", "Ada", "--last-name", "L"], ["correct horse", "correct horse"],
      "invalid email"
    ),
    (
      ["--email", "ada@example.com", "--first-name", " ", "--last-name", "L"], ["correct horse", "correct horse"],
      "First Name is missing"
    ),
    (
      ["--email", "ada@example.com", "--first-name", "Ada", "--last-name", ""], ["correct horse", "correct horse"],
      "Last Name is missing"
    ),
    (["--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L"], ["short"], "password is too short"),
    (["--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L"], [], "password is missing"),
    (
      ["--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L"], ["          "],
      "password is only whitespace"
    ),
    (
      ["--email", "ada@example.com", "--first-name", "\u{1B}[31mRED\u{1B}[0m", "--last-name", "L"],
      ["correct horse", "correct horse"],
      "First Name contains a control character"
    ),
    (
      ["--email", "ada@example.com", "--first-name", "Ada", "--last-name", String(repeating: "x", count: 300)],
      ["correct horse", "correct horse"], "Last Name is 300 characters long"
    ),
  ])
  func signup_badInput_exitsTwoAndCreatesNothing(arguments: [String], input: [String], message: String) {
    let harness = Harness()
    let outcome = harness.run(["signup"] + arguments, input: input)
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(harness.run(["login", "--email", "ada@example.com"], input: ["correct horse"]).status == 1)
  }

  @Test func signup_takenEmail_exitsOne() {
    let harness = Harness()
    harness.signedInAda()
    let outcome = harness.run(
      ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L"],
      input: ["other password", "other password"])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("already"))
  }

  // MARK: login, whoami, logout

  @Test func login_keepsTheTokenOwnerOnly_whoamiShowsTheUser_logoutForgetsIt() throws {
    let harness = Harness()
    let login = harness.signedInAda()
    #expect(login.status == 0)
    #expect(login.stdout.contains("Signed in as ada@example.com"))
    #expect(login.stdout.contains("Welcome, Ada Lovelace"))
    let token = try #require(try harness.sessionFile.read())
    #expect(!login.stdout.contains(token))
    let attributes = try FileManager.default.attributesOfItem(atPath: harness.sessionFile.url.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

    let whoami = harness.run(["whoami"])
    #expect(whoami.status == 0)
    #expect(whoami.stdout.contains("Ada Lovelace <ada@example.com>, signed in until"))

    let logout = harness.run(["logout"])
    #expect(logout.status == 0)
    #expect(logout.stdout.contains("Signed out"))
    #expect(try harness.sessionFile.read() == nil)
    #expect(harness.run(["profile"], input: []).status == 1)
  }

  @Test func login_wrongPassword_exitsOneWithTheSameMessageAsAnUnknownEmail() throws {
    let harness = Harness()
    harness.signedInAda()
    _ = harness.run(["logout"])
    let wrong = harness.run(["login", "--email", "ada@example.com"], input: ["wrong password"])
    let unknown = harness.run(["login", "--email", "bob@example.com"], input: ["wrong password"])
    #expect(wrong.status == 1)
    #expect(unknown.status == 1)
    #expect(wrong.stderr == unknown.stderr)
    #expect(wrong.stderr.contains("email or password is wrong"))
    #expect(try harness.sessionFile.read() == nil)
  }

  @Test(arguments: [
    ["whoami"], ["profile"], ["preferences"], ["cards", "list"], ["cards", "add"], ["trips", "list"],
  ])
  func notSignedIn_exitsOneWithTheContractMessage(arguments: [String]) {
    let harness = Harness()
    let outcome = harness.run(arguments)
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "error: sign in first: account login --email …\n")
  }

  @Test func unknownSession_exitsOne() throws {
    let harness = Harness()
    try harness.sessionFile.write("made-up-token")
    let outcome = harness.run(["whoami", "--json"])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("sign in first"))
    #expect(outcome.stdout.contains("\"code\" : \"not_signed_in\""))
  }

  @Test func expiredSession_exitsOne() throws {
    let harness = Harness()
    harness.signedInAda()
    harness.services.expire(token: try #require(try harness.sessionFile.read()))
    let outcome = harness.run(["whoami"])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("session expired"))
  }

  // MARK: profile

  @Test func profile_showsAndUpdatesTrimmedNames() {
    let harness = Harness()
    harness.signedInAda()
    let shown = harness.run(["profile"])
    #expect(shown.stdout.hasPrefix("Welcome, Ada Lovelace\n"))
    let changed = harness.run(["profile", "--first-name", "  Augusta Ada ", "--last-name", "King\n"])
    #expect(changed.status == 0)
    #expect(changed.stdout.hasPrefix("Welcome, Augusta Ada King\n"))
    #expect(harness.services.profileUpdates.last?.firstName == "Augusta Ada")
  }

  @Test func profile_blankFirstName_isMissingDataAndChangesNothing() {
    let harness = Harness()
    harness.signedInAda()
    let outcome = harness.run(["profile", "--first-name", "   ", "--json"])
    #expect(outcome.status == 2)
    #expect(outcome.stderr == "error: First Name is missing\n")
    #expect(outcome.stdout.contains("\"code\" : \"first_name_missing\""))
    #expect(harness.services.profileUpdates.isEmpty)
    let last = harness.run(["profile", "--last-name", ""])
    #expect(last.status == 2)
    #expect(last.stderr == "error: Last Name is missing\n")
  }

  @Test func profile_controlCharactersOrLongNames_exitTwoAndChangeNothing() {
    let harness = Harness()
    harness.signedInAda()
    for name in ["\u{1B}[31mRED\u{1B}[0m", "Ada\tB", String(repeating: "a", count: 101)] {
      let outcome = harness.run(["profile", "--first-name", name])
      #expect(outcome.status == 2)
      #expect(outcome.stderr.hasPrefix("error: First Name "), "\(outcome.stderr)")
      #expect(!outcome.stderr.contains("\u{1B}"))
    }
    #expect(harness.services.profileUpdates.isEmpty)
  }

  // MARK: preferences

  @Test func preferences_setAndShown() throws {
    let harness = Harness()
    harness.signedInAda()
    let outcome = harness.run([
      "preferences", "--currency", "eur", "--language", "de", "--appearance", "dark", "--home-airport", "fra", "--json",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: [String: String]]
    #expect(
      document?["preferences"] == ["currency": "EUR", "language": "de", "appearance": "dark", "homeAirport": "FRA"])
    // Human output now in German.
    let shown = harness.run(["preferences"])
    #expect(shown.stdout.contains("Währung: EUR"))
    #expect(shown.stdout.contains("Sprache: Deutsch"))
    #expect(shown.stdout.contains("Heimatflughafen: FRA"))
    let cleared = harness.run(["preferences", "--home-airport", "none", "--json"])
    #expect(cleared.stdout.contains("\"homeAirport\" : null"))
  }

  @Test(arguments: [
    (["--currency", "XYZ"], "unknown currency \"XYZ\""),
    (["--language", "fr"], "unknown language \"fr\""),
    (["--appearance", "neon"], "invalid appearance \"neon\""),
    (["--home-airport", "12"], "invalid home airport \"12\""),
  ])
  func preferences_badValue_exitsTwoAndChangesNothing(arguments: [String], message: String) throws {
    let harness = Harness()
    harness.signedInAda()
    // A valid value beside the bad one is not saved either.
    let valid = arguments[0] == "--language" ? ["--currency", "EUR"] : ["--language", "de"]
    let outcome = harness.run(["preferences"] + valid + arguments)
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    let token = try #require(try harness.sessionFile.read())
    #expect(try harness.services.preferences(token: token) == .standard)
  }

  // MARK: cards

  @Test func cards_addListDefaultRemove() throws {
    let harness = Harness()
    harness.signedInAda()
    #expect(harness.run(["cards", "list"]).stdout.contains("No payment cards yet: add one with 'account cards add'"))
    let first = harness.run(["cards", "add"], input: ["4242 4242 4242 4242", "12/30", "123"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Visa •••• 4242"))
    #expect(first.stdout.contains("default"))
    #expect(!first.stdout.contains("4242424242424242"))
    #expect(harness.services.receivedNumbers == ["4242424242424242"])
    let second = harness.run(["cards", "add", "--json"], input: ["5555555555554444", "01/2031", "321"])
    let card = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: [String: Any]]
    let secondID = try #require(card?["card"]?["id"] as? String)
    #expect(card?["card"]?["isDefault"] as? Bool == false)
    #expect(card?["card"]?["expiry"] as? String == "01/31")
    #expect(
      harness.run(["cards", "default", secondID]).stdout.contains("Mastercard •••• 4444 is now the default card"))
    let list = harness.run(["cards"])
    #expect(list.stdout.split(separator: "\n").first?.contains("Mastercard •••• 4444") == true)
    #expect(harness.run(["cards", "remove", secondID]).status == 0)
    #expect(harness.run(["cards", "list"]).stdout.contains("Visa •••• 4242  expires 12/30  default"))
  }

  @Test(arguments: [
    (["4242424242424241", "12/30", "123"], "card number is not valid (its last digit does not match the others)"),
    (["4242424242424242", "09/24", "123"], "card expired 09/24"),
    (["4242424242424242", "13/30", "123"], "invalid expiry \"13/30\""),
    (["4242424242424242", "12/30", "12"], "CVC must be 3 digits for Visa"),
    (["378282246310005", "12/30", "123"], "CVC must be 4 digits for American Express"),
    (["4242424242424242", "12/30"], "card CVC is missing"),
  ])
  func cards_badInput_exitsTwoAndAddsNothing(input: [String], message: String) throws {
    let harness = Harness()
    harness.signedInAda()
    let outcome = harness.run(["cards", "add"], input: input)
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains(input[0]) || input[0].count < 12)
    #expect(harness.services.receivedNumbers.isEmpty)
  }

  @Test func cards_unknownID_exitsOne() {
    let harness = Harness()
    harness.signedInAda()
    #expect(harness.run(["cards", "remove", "card_999"]).status == 1)
    #expect(harness.run(["cards", "default", "card_999"]).status == 1)
    #expect(harness.run(["cards", "remove"]).status == 2)
  }

  // MARK: trips

  @Test func trips_emptyListNewestFirstShowCancelExport() throws {
    let harness = Harness()
    harness.signedInAda()
    #expect(harness.run(["trips", "list"]).stdout == "No trips yet\n")
    #expect(harness.run(["trips", "list", "--json"]).stdout.contains("\"reservations\" : [\n\n  ]"))
    let older = harness.services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
      startsAt: Date(timeIntervalSince1970: 1_797_000_000), endsAt: Date(timeIntervalSince1970: 1_797_020_000))
    let newer = harness.services.addReservation(
      email: "ada@example.com", kind: .hotel, summary: "Hotel Adlon",
      createdAt: Date(timeIntervalSince1970: 1_795_000_000))
    let list = harness.run(["trips"]).stdout.split(separator: "\n")
    #expect(list.count == 2)
    #expect(list[0].hasPrefix(newer.id))
    #expect(list[1].hasPrefix(older.id))

    let show = harness.run(["trips", "show", older.id, "--json"])
    #expect(show.stdout.contains("\"kind\" : \"flight\""))
    #expect(show.stdout.contains("\"amount\" : \"100.00\""))

    let file = harness.directory.url.appendingPathComponent("trip.ics")
    let export = harness.run(["trips", "export", older.id, "--ics", file.path])
    #expect(export.status == 0, "\(export.stderr)")
    let ics = try String(contentsOf: file, encoding: .utf8)
    #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\n"))
    #expect(ics.contains("UID:\(older.id)@travel.app\r\n"))
    #expect(harness.run(["trips", "export", newer.id, "--ics", file.path]).status == 1)  // no dates

    // A directory (existing, or any path ending in /) gets DIR/<reservation>.ics; a missing
    // directory is named; no Foundation error text reaches the user.
    let calendars = harness.directory.url.appendingPathComponent("Calendars")
    try FileManager.default.createDirectory(at: calendars, withIntermediateDirectories: false)
    for target in [calendars.path, calendars.path + "/"] {
      let intoDirectory = harness.run(["trips", "export", older.id, "--ics", target, "--json"])
      #expect(intoDirectory.status == 0, "\(intoDirectory.stderr)")
      #expect(intoDirectory.stdout.contains("\(older.id).ics"))
      #expect(FileManager.default.fileExists(atPath: calendars.appendingPathComponent("\(older.id).ics").path))
    }
    let missing = harness.directory.url.appendingPathComponent("Nowhere")
    let refused = harness.run(["trips", "export", older.id, "--ics", missing.path + "/", "--json"])
    #expect(refused.status == 2)
    #expect(refused.stdout.contains("\"code\" : \"no_such_directory\""))
    #expect(refused.stderr.contains("the directory \(missing.path) does not exist"))
    #expect(!refused.stderr.contains("NSCocoaErrorDomain"))
    let deeper = harness.run(["trips", "export", older.id, "--ics", missing.path + "/a/trip.ics"])
    #expect(deeper.stderr.contains("the directory \(missing.path) does not exist"))
    #expect(!FileManager.default.fileExists(atPath: missing.path))

    let cancel = harness.run(["trips", "cancel", older.id, "--yes"])
    #expect(cancel.status == 0)
    #expect(cancel.stdout.contains("Cancelled \(older.id); refunded $100.00"))
    #expect(harness.run(["trips", "cancel", older.id, "--yes"]).status == 1)
    #expect(harness.run(["trips", "show", "res_999"]).status == 1)
  }

  /// Issue #13: one money rule — the amount in the currency charged, written as the traveller's
  /// language writes it (no second, converted amount).
  @Test func trips_totals_areWrittenAsChargedInTheTravellersLanguage() {
    let harness = Harness()
    harness.signedInAda()
    harness.services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
      total: Money(amount: Decimal(string: "1234.5")!, currency: "USD"))
    #expect(harness.run(["trips", "list"]).stdout.hasSuffix("  $1,234.50\n"))
    #expect(harness.run(["preferences", "--currency", "EUR", "--language", "de"]).status == 0)
    let list = harness.run(["trips", "list"]).stdout
    #expect(list.hasSuffix("  1.234,50\u{A0}$\n"), "\(list)")
    #expect(!list.contains("≈"))
    let json = harness.run(["trips", "list", "--json"]).stdout
    #expect(json.contains("\"amount\" : \"1234.50\""))
  }

  /// Issue #13: `trips cancel` shows the fee, the refund and the deadline in local time before it
  /// acts; on a terminal it asks; without one it needs --yes (exit 2, the terms in the error).
  @Test func trips_cancel_showsTheTermsFirst_asks_andNeedsYesWithoutATerminal() throws {
    let harness = Harness()
    harness.signedInAda()
    let start = Date(timeIntervalSince1970: 1_797_688_800)  // 2026-12-19 14:00 UTC, 15:00 in Paris
    var hotel = harness.services.addReservation(
      email: "ada@example.com", kind: .hotel, summary: "Hotel Test, Paris",
      createdAt: Date(timeIntervalSince1970: 1_790_000_000), startsAt: start,
      endsAt: start.addingTimeInterval(3 * 86_400), total: Money(amount: 300, currency: "EUR"))
    hotel = harness.services.setDetails(
      hotel.id, ["timeZone": .string("Europe/Paris"), "testFee": .string("112.20")])

    // Piped, without --yes: nothing is cancelled; the terms are in the error.
    let piped = harness.run(["trips", "cancel", hotel.id, "--json"])
    #expect(piped.status == 2)
    #expect(piped.stdout.contains("\"code\" : \"confirmation_required\""))
    #expect(piped.stdout.contains("\"fee\" : \"112.20\"") && piped.stdout.contains("\"refund\" : \"187.80\""))
    #expect(piped.stdout.contains("\"deadline\" : \"2026-12-19T15:00:00+01:00\""))
    #expect(piped.stderr.contains("--yes"))
    // At a terminal: the terms, then the question; "n" keeps the reservation.
    let declined = harness.run(["trips", "cancel", hotel.id], input: ["n"], interactive: true)
    #expect(declined.status == 1)
    #expect(declined.stdout.contains("Cancellation fee €112.20"))
    #expect(declined.stdout.contains("Refund €187.80"))
    #expect(declined.stdout.contains("Free cancellation ended 2026-12-19 15:00 (Europe/Paris)"))
    #expect(declined.stderr.contains("Cancel \(hotel.id)? [y/N]"))
    #expect(try harness.services.reservation(id: hotel.id, token: harness.token()).status == .confirmed)
    // "y" cancels at those terms; the trip then shows the fee and the refund.
    let accepted = harness.run(["trips", "cancel", hotel.id], input: ["y"], interactive: true)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stdout.contains("refunded €187.80"))
    #expect(accepted.stdout.contains("Cancellation fee €112.20"))
    let shown = harness.run(["trips", "show", hotel.id])
    #expect(shown.stdout.contains("Cancellation fee €112.20") && shown.stdout.contains("Refunded €187.80"))
    let json = harness.run(["trips", "show", hotel.id, "--json"]).stdout
    #expect(json.contains("\"cancellationFee\" : {") && json.contains("\"amount\" : \"112.20\""))
  }

  @Test func trips_cancel_yesJSON_givesTheTermsApplied() throws {
    let harness = Harness()
    harness.signedInAda()
    let trip = harness.services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    let done = harness.run(["trips", "cancel", trip.id, "--yes", "--json"])
    #expect(done.status == 0, "\(done.stderr)")
    #expect(done.stdout.contains("\"cancellation\" : {") && done.stdout.contains("\"status\" : \"cancelled\""))
    #expect(done.stdout.contains("\"refund\" : {"))
  }

  @Test func trips_mountedAsTravelTrips_namesTheAssembledCommand() {
    let harness = Harness()
    let outcome = harness.run(["cards", "list"], root: "travel")
    #expect(outcome.status == 1)
    let console = Console.capturing()
    let status = CommandLineTool(root: AccountCommands.trips(environment: harness.services.environment())).run(
      arguments: ["--help"], environment: [:], console: console)
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: trips"))
  }
}
