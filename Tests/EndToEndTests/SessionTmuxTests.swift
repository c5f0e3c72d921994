import CommonTesting
import Foundation
import Testing

/// #14 "State that must be one truth", end to end in tmux: `travel` at 120×40, and the command
/// line in other processes on the same data directory. The session is one publisher that every
/// tab and the header follow; cards are observed, never re-read by hand.
@Suite(.serialized) struct SessionTmuxTests {
  @Test(.enabled(if: TmuxSession.isInstalled, "tmux is not installed (Scripts/bootstrap installs it): skipped"))
  func travel_signInFromABookingSheet_showsEverywhere_cardsAndSignOutFromAShellToo() throws {
    let data = TemporaryDirectory(prefix: "one-truth-e2e")
    func account(_ arguments: [String], stdin: String = "") throws {
      try CheckoutTmuxTests.account(arguments, stdin: stdin, data: data)
    }
    let password = CheckoutTmuxTests.password
    try account(
      ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: password + "\n" + password + "\n")
    try account(["logout"])

    let tmux = try TmuxSession(width: 120, height: 40)
    defer { tmux.close() }
    let travel = try ProductRunner().executable("travel").path
    try tmux.waitFor("the shell's prompt") { $0.hasPrefix("$") }
    try tmux.type("TRAVEL_DATA_DIR='\(data.path)' '\(travel)'")
    try tmux.press("Enter")
    try tmux.waitFor("Find a flight")

    // Hotels (Esc leaves From, 2 switches): Paris, three nights two weeks ahead, the first room.
    try tmux.press("Escape")
    try tmux.type("2")
    try tmux.waitFor("Find a hotel")
    try tmux.type("Paris")
    try tmux.waitFor("the first suggestion highlighted") { $0.contains("Paris, FR") && $0.contains("▸ ") }
    try tmux.press("Tab")
    try tmux.waitFor("the suggestions to close") { !$0.contains("Paris, FR") }
    try tmux.press("Down", "Down", "Enter", "Right", "Right", "Right", "Enter")
    try tmux.waitFor("(3 nights)")
    try tmux.press("Tab", "Tab", "Tab", "Enter")
    try tmux.waitFor("the results", seconds: 45) { $0.contains("sorted by price") && $0.contains("Total") }
    try tmux.press("Enter")
    try tmux.waitFor("the rooms") { $0.contains("Rooms") && $0.contains("Left") }
    try tmux.press("Enter")
    try tmux.waitFor("Not signed in")
    try tmux.type("Ada Lovelace")
    try tmux.press("Enter")

    // Signed in from the booking's sheet: the booking, the header and the Account tab all show it
    // (the lead's bug: no greeting, the Account tab said "Signed out.").
    try tmux.waitFor("Sign in to book")
    try tmux.type("ada@example.com")
    try tmux.press("Enter")
    try tmux.type(password)
    try tmux.press("Enter")
    let booking = try tmux.waitFor("the booking, signed in", seconds: 30) {
      $0.contains("Signed in as Ada Lovelace") || $0.contains("No payment card yet")
    }
    #expect(booking.split(separator: "\n").first?.contains("Welcome, Ada Lovelace") == true, "\(booking)")
    #expect(booking.contains("No payment card yet"))
    #expect(!booking.contains("press r"))

    // A card added in a shell is offered by the open booking at once: no key pressed.
    try account(["cards", "add"], stdin: "4242 4242 4242 4242\n12/30\n123\n")
    try tmux.waitFor("the new card in the booking", seconds: 5) {
      $0.contains("Visa •••• 4242  12/30 (default)") && !$0.contains("No payment card yet")
    }

    // The Account tab shows the same session (Esc leaves the guest field, 4 switches).
    try tmux.press("Escape")
    try tmux.type("4")
    let home = try tmux.waitFor("the Account home", seconds: 10) { $0.contains("Sign out") }
    #expect(home.contains("ada@example.com"))

    // Signed out in a shell: within a second or two the header and the Account tab follow.
    try account(["logout"])
    let signedOut = try tmux.waitFor("signed out everywhere", seconds: 5) {
      $0.contains("Signed out.") && !$0.contains("Welcome, Ada Lovelace")
    }
    #expect(signedOut.contains("Password"))
    try tmux.press("Escape")  // the sign-in form has the keys: Esc leaves its field
    try tmux.type("2")
    try tmux.waitFor("the booking signed out", seconds: 5) { $0.contains("Not signed in") }

    // Signed in again in a shell: the greeting is back.
    try account(["login", "--email", "ada@example.com"], stdin: password + "\n")
    try tmux.waitFor("the greeting again", seconds: 5) {
      $0.contains("Welcome, Ada Lovelace") && $0.contains("Visa •••• 4242")
    }
    try tmux.press("C-c")
    try tmux.waitFor("the alternate screen to close", seconds: 30) { _ in try tmux.display("#{alternate_on}") == "0" }
  }
}
