import CommonTesting
import Foundation
import Testing

/// The shared checkout end to end in tmux: the standalone `hotel` and `car-rental` apps at 120×40
/// on a data directory where an account and two cards were made through the command line (then
/// signed out). Booking signed out opens the sign-in sheet; signed in there, the booking shows the
/// cards; the second one is chosen and charged.
///
/// The default card is the gateway's always-declined test card (`4000 0000 0000 0002`), so the
/// booking going through shows that the chosen card, `4242 4242 4242 4242`, was the one charged.
@Suite(.serialized) struct CheckoutTmuxTests {
  static let password = "correct horse battery"

  /// Runs `account` on `data`; expects exit 0.
  @discardableResult
  static func account(_ arguments: [String], stdin: String = "", data: TemporaryDirectory) throws
    -> ProductRunner.Result
  {
    let result = try ProductRunner().run(
      "account", arguments, stdin: stdin, environment: ["TRAVEL_DATA_DIR": data.path])
    #expect(result.status == 0, "account \(arguments): \(result.stderr)")
    return result
  }

  /// A data directory with Ada's account and two cards (the declined one the default), signed out.
  static func signedOutAccountWithTwoCards(_ prefix: String) throws -> TemporaryDirectory {
    let data = TemporaryDirectory(prefix: prefix)
    try account(
      ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: password + "\n" + password + "\n", data: data)
    try account(["login", "--email", "ada@example.com"], stdin: password + "\n", data: data)
    try account(["cards", "add"], stdin: "4000 0000 0000 0002\n12/30\n123\n", data: data)  // default, declined
    try account(["cards", "add"], stdin: "4242 4242 4242 4242\n12/30\n123\n", data: data)
    try account(["logout"], data: data)
    return data
  }

  /// Signs in through the sheet the booking opened; waits for the booking with the default card.
  static func signInFromTheSheet(_ tmux: TmuxSession) throws -> String {
    try tmux.waitFor("Sign in to book")
    try tmux.type("ada@example.com")
    try tmux.press("Enter")
    try tmux.type(password)
    try tmux.press("Enter")
    return try tmux.waitFor("the booking with the cards", seconds: 30) {
      $0.contains("Signed in as Ada Lovelace") && $0.contains("Visa •••• 0002  12/30 (default)  ◂ ▸")
        && !$0.contains("Sign in to book")
    }
  }

  /// `YYYY-MM-DD`, `days` after today (UTC).
  static func date(daysFromToday days: Int) -> String {
    let day = Date().addingTimeInterval(Double(days) * 86_400)
    return day.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
  }

  /// Quits with q and checks the exit status.
  static func quit(_ tmux: TmuxSession) throws {
    try tmux.type("q")
    try tmux.waitFor("the alternate screen to close", seconds: 30) { _ in try tmux.display("#{alternate_on}") == "0" }
    try tmux.type("echo status=$?")
    try tmux.press("Enter")
    try tmux.waitFor("status=0")
  }

  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func hotel_bookSignedOut_signInSheet_chooseTheSecondCard_booked() throws {
    let data = try Self.signedOutAccountWithTwoCards("checkout-hotel-e2e")
    let runner = ProductRunner()
    func account(_ arguments: [String]) throws -> ProductRunner.Result { try Self.account(arguments, data: data) }

    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let hotel = try runner.executable("hotel").path
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type("TRAVEL_DATA_DIR='\(data.path)' '\(hotel)'")
    try tmux.press("Enter")
    try tmux.waitFor("Find a hotel")

    // Paris from the suggestions (highlighted first: Tab takes it, as Enter would), a stay two
    // weeks ahead (calendar: two weeks down, Enter, three days right, Enter), then Tab to Search
    // (guests, rooms, Search).
    try tmux.type("Paris")
    try tmux.waitFor("the first suggestion highlighted") { $0.contains("Paris, FR") && $0.contains("▸ ") }
    try tmux.press("Tab")
    try tmux.waitFor("the suggestions to close") { !$0.contains("Paris, FR") }
    try tmux.press("Down", "Down", "Enter", "Right", "Right", "Right", "Enter")
    try tmux.waitFor("(3 nights)")
    try tmux.press("Tab", "Tab", "Tab")
    try tmux.waitFor("Enter search")
    try tmux.press("Enter")
    try tmux.waitFor("the results", seconds: 45) { $0.contains("offers · sorted by price") && $0.contains("Total") }

    // The first hotel, its first room, the booking: nobody is signed in yet.
    try tmux.press("Enter")
    try tmux.waitFor("the rooms") { $0.contains("Rooms") && $0.contains("Left") }
    try tmux.press("Enter")
    try tmux.waitFor("Not signed in")
    try tmux.type("Ada Lovelace")
    try tmux.press("Enter")

    // Book → the sign-in sheet; signed in, back on the booking with the default card.
    let back = try Self.signInFromTheSheet(tmux)
    #expect(back.contains("Guest name  Ada Lovelace"))
    #expect(back.contains("Pay with    Visa •••• 0002"))

    // Tab to the card, → the second card, Enter books with it.
    try tmux.press("Tab", "Right")
    try tmux.waitFor("Pay with    Visa •••• 4242  12/30  ◂ ▸")
    try tmux.press("Enter")
    let booked = try tmux.waitFor("the confirmation", seconds: 30) { $0.contains("Booked: ") }
    #expect(booked.contains("Charged to Visa •••• 4242  12/30"))
    #expect(!booked.contains("declined"))
    try Self.quit(tmux)

    // The command line sees the same session and the hotel reservation.
    let whoami = try account(["whoami"])
    #expect(whoami.stdout.contains("ada@example.com"))
    let trips = try account(["trips", "list", "--json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(trips.stdout.utf8)) as? [String: Any])
    let reservations = try #require(document["reservations"] as? [[String: Any]])
    #expect(reservations.count == 1)
    let reservation = try #require(reservations.first)
    #expect(reservation["kind"] as? String == "hotel")
    #expect(reservation["status"] as? String == "confirmed")
    let details = try #require(reservation["details"] as? [String: Any])
    #expect(details["guestName"] as? String == "Ada Lovelace")
    #expect(booked.contains("Confirmation \(reservation["locator"] as? String ?? "?")"))
  }

  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func carRental_bookSignedOut_signInSheet_chooseTheSecondCard_booked() throws {
    let data = try Self.signedOutAccountWithTwoCards("checkout-cars-e2e")
    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let carRental = try ProductRunner().executable("car-rental").path
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type("TRAVEL_DATA_DIR='\(data.path)' '\(carRental)'")
    try tmux.press("Enter")
    try tmux.waitFor("Rent a car")

    // LAX from the suggestions (highlighted first: Enter takes it), three days from three weeks
    // ahead at 10:00 typed into the fields, Tab to Search.
    try tmux.type("LAX")
    try tmux.waitFor("▸ LAX — Los Angeles")
    try tmux.press("Enter")
    let pickup = Self.date(daysFromToday: 21)
    let dropoff = Self.date(daysFromToday: 24)
    // Typed, then Tab to the next field (Enter on a date field opens its calendar).
    try tmux.type("\(pickup)T10:00")
    try tmux.press("Tab")
    try tmux.type("\(dropoff)T10:00")
    try tmux.waitFor("both times") { $0.contains("\(dropoff)T10:00") && !$0.contains("invalid") }
    try tmux.press("Tab", "Tab", "Tab", "Tab", "Tab")
    try tmux.waitFor("Enter search")
    try tmux.press("Enter")
    try tmux.waitFor("the results", seconds: 45) { $0.contains("offers in") && $0.contains("available") }

    // The cheapest car's rates, Book this car, the driver; Book signed out → the sheet.
    try tmux.press("Enter")
    try tmux.waitFor("Book this car")
    try tmux.press("Tab", "Enter")
    try tmux.waitFor("Not signed in")
    try tmux.type("Grace Hopper")
    try tmux.press("Enter")
    let back = try Self.signInFromTheSheet(tmux)
    #expect(back.contains("Driver    Grace Hopper"))

    // The car was quoted signed out: Book re-prices it for the member (discount), shown to accept
    // first (QA: the signed-out price was charged).
    try tmux.press("Enter")
    try tmux.waitFor("the member's price to accept", seconds: 30) { $0.contains("Accept ") }
    try tmux.press("Enter")
    try tmux.waitFor("Book again") { !$0.contains("Accept ") && $0.contains("[ Book ]") }

    // Enter books with the default card, the always-declined one: the app's words, not the
    // command line's ("use another card with --card ID").
    try tmux.press("Enter")
    let declined = try tmux.waitFor("the card declined", seconds: 30) {
      $0.contains("The card Visa •••• 0002 was declined: nothing was booked.")
    }
    #expect(declined.contains("another card (← →) and book again."))
    #expect(!declined.contains("--card"))

    // ↓ to the card, → the second one, Enter books it.
    try tmux.press("Down", "Right")
    try tmux.waitFor("Pay with  Visa •••• 4242  12/30  ◂ ▸")
    try tmux.press("Enter")
    let booked = try tmux.waitFor("the confirmation", seconds: 30) { $0.contains("Booked: ") }
    #expect(booked.contains("Charged to Visa •••• 4242  12/30"))
    try Self.quit(tmux)

    let trips = try Self.account(["trips", "list", "--json"], data: data)
    #expect(trips.stdout.contains("\"kind\" : \"car\""))
    #expect(trips.stdout.contains("\"driver\" : \"Grace Hopper\""))
  }
}
