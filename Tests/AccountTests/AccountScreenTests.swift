import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Account

/// The Account tab's screens, driven by keys through the app shell and drawn by the test backend
/// at 80×24 (snapshots in `__Snapshots__/AccountScreenTests`; re-record with `RECORD_SNAPSHOTS=1`).
@MainActor
@Suite struct AccountScreenTests {
  let services = InMemoryServices()
  let scheduler = DispatchQueue.test
  let backend = TestBackend(width: 80, height: 24)

  /// Work the shell hands to the main queue (frames, intents), run by ``settle()``.
  final class ManualQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var work: [@Sendable () -> Void] = []
    func add(_ item: @escaping @Sendable () -> Void) { lock.withLock { work.append(item) } }
    func take() -> [@Sendable () -> Void] {
      lock.withLock {
        defer { work.removeAll() }
        return work
      }
    }
  }

  let queue = ManualQueue()

  func makeApp(token: String? = nil) -> (InteractiveApp, AccountScreen, TokenBox) {
    let box = TokenBox()
    box.token = token
    let session = AccountSession(
      account: services.bookingAccount(box), mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
    let (app, screen) = makeApp(session: session)
    return (app, screen, box)
  }

  /// The Account tab over `session` (shared with other screens of the same app).
  func makeApp(session: AccountSession) -> (InteractiveApp, AccountScreen) {
    let screen = AccountScreen(
      client: services.client(scheduler), session: session,
      exportDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"))
    let app = InteractiveApp(
      name: "account", tabs: [AppTab("Account", root: screen)], backend: backend, schedule: { [queue] in queue.add($0) }
    )
    app.follow(status: screen.status)
    settle()
    return (app, screen)
  }

  /// Delivers the services' answers and the shell's queued work until nothing is left.
  func settle() {
    for _ in 0..<10 {
      scheduler.advance()
      let work = queue.take()
      if work.isEmpty { return }
      for item in work { item() }
    }
  }

  func type(_ text: String, into app: InteractiveApp) {
    for character in text { app.handle(.character(character)) }
  }

  func frame(_ app: InteractiveApp) -> String {
    settle()
    app.displayNow()
    return backend.text
  }

  @Test func signedOut_signInWithKeys_showsTheHomeWithTheGreeting() throws {
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    let (app, screen, box) = makeApp()
    try assertSnapshot(frame(app), named: "sign-in")
    type("ada@example.com", into: app)
    app.handle(.tab)
    type("correct horse", into: app)
    #expect(screen.isEditingText)
    app.handle(.enter)
    settle()
    let home = frame(app)
    #expect(box.token != nil)
    #expect(app.status == "Welcome, Ada Lovelace")
    try assertSnapshot(home, named: "home")
  }

  @Test func signIn_wrongPassword_saysSo() throws {
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    let (app, screen, _) = makeApp()
    type("ada@example.com", into: app)
    app.handle(.enter)
    settle()
    type("wrong password", into: app)
    app.handle(.enter)
    settle()
    #expect(frame(app).contains("Email or password is wrong: check both and try again."))
    #expect(screen.token == nil)
  }

  /// QA: a sign-in that failed from the button puts the cursor back in the (cleared) password, so
  /// retyping it is typed there: `q` does not quit, a digit does not switch tabs, and the password
  /// typed again signs in.
  @Test func signIn_failedFromTheButton_retypingGoesIntoThePassword() throws {
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    let (app, screen, _) = makeApp()
    type("ada@example.com", into: app)
    app.handle(.enter)
    type("wrong", into: app)
    app.handle(.tab)  // to the button
    app.handle(.enter)
    settle()
    #expect(frame(app).contains("Email or password is wrong"))
    #expect(screen.isEditingText)
    type("q3", into: app)
    #expect(app.exitStatus == nil)
    for _ in 0..<2 { app.handle(.backspace) }
    type("correct horse", into: app)
    app.handle(.enter)
    settle()
    #expect(screen.token != nil)
  }

  /// Ctrl-N, then the five fields; Enter on the last one (or on the button) submits.
  func signUp(
    _ app: InteractiveApp, email: String, first: String, last: String, password: String, withButton: Bool = false
  ) {
    app.handle(.control("n"))
    settle()
    #expect(app.currentScreen.title == "Sign up")
    for (index, text) in [email, first, last, password, password].enumerated() {
      if index > 0 { app.handle(.tab) }
      type(text, into: app)
    }
    if withButton { app.handle(.tab) }  // from the last field to the button
    app.handle(.enter)
    settle()
  }

  @Test func signUp_withKeys_signsInAndShowsTheHomeWithTheGreeting() throws {
    let (app, screen, box) = makeApp()
    signUp(app, email: "grace@example.com", first: "Grace", last: "Hopper", password: "correct horse")
    let home = frame(app)
    #expect((try? services.signIn(email: "grace@example.com", password: "correct horse")) != nil)
    #expect(box.token != nil)
    #expect(screen.token == box.token)
    #expect(app.currentScreen.title == "Account")
    #expect(app.status == "Welcome, Grace Hopper")
    #expect(home.contains("Welcome, Grace Hopper"))
    #expect(home.contains("Sign out"))
  }

  @Test func signUp_takenEmail_showsTheMessageWithFocusOnTheForm() throws {
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    let (app, screen, box) = makeApp()
    signUp(
      app, email: "ada@example.com", first: "Ada", last: "Lovelace", password: "another horse", withButton: true)
    let text = frame(app)
    #expect(app.currentScreen.title == "Sign up")
    #expect(text.contains("An account with this email already exists: sign in with it instead."))
    #expect(app.currentScreen.isEditingText)
    #expect(box.token == nil)
    #expect(screen.token == nil)
  }

  @Test func profileSheet_blankFirstName_closesAndAlertsMissingData() throws {
    let (app, screen, _) = makeApp(token: try services.signedInAda())
    app.handle(.character("e"))
    try assertSnapshot(frame(app), named: "profile-sheet")
    #expect(screen.isEditingText)
    app.handle(.control("u"))
    app.handle(.enter)
    settle()
    app.handle(.enter)
    settle()
    let text = frame(app)
    #expect(app.alert == AlertContent(title: "Missing Data", message: "First Name is missing"))
    #expect(!text.contains("Edit profile ─"))
    try assertSnapshot(text, named: "profile-first-name-missing")
    app.handle(.enter)
    settle()
    #expect(app.alert == nil)
    #expect(app.status == "Welcome, Ada Lovelace")
    #expect(services.profileUpdates.isEmpty)
  }

  @Test func profileSheet_blankLastName_alertsLastNameMissing() throws {
    let (app, _, _) = makeApp(token: try services.signedInAda())
    app.handle(.character("e"))
    app.handle(.tab)
    app.handle(.control("u"))
    app.handle(.tab)
    app.handle(.enter)
    settle()
    _ = frame(app)
    #expect(app.alert == AlertContent(title: "Missing Data", message: "Last Name is missing"))
  }

  @Test func profileSheet_validSave_closesAndGreetsTheNewName() throws {
    let (app, screen, _) = makeApp(token: try services.signedInAda())
    app.handle(.character("e"))
    app.handle(.control("u"))
    type("Augusta Ada", into: app)
    app.handle(.tab)
    app.handle(.tab)
    app.handle(.enter)
    settle()
    let text = frame(app)
    #expect(app.alert == nil)
    #expect(app.status == "Welcome, Augusta Ada Lovelace")
    #expect(screen.account?.editor == nil)
    #expect(services.profileUpdates.map(\.firstName) == ["Augusta Ada"])
    #expect(text.contains("Welcome, Augusta Ada Lovelace"))
  }

  @Test func profileSheet_escapeCancelsWithoutLeaving() throws {
    let (app, screen, _) = makeApp(token: try services.signedInAda())
    app.handle(.character("e"))
    app.handle(.escape)
    #expect(screen.account?.editor == nil)
    #expect(app.exitStatus == nil)
    #expect(!frame(app).contains("Edit profile ─"))
  }

  @Test func preferences_appearanceAppliesAtOnce() throws {
    let (app, screen, _) = makeApp(token: try services.signedInAda())
    let appearances = screen.appearance.record()
    app.handle(.down)
    app.handle(.enter)
    settle()
    #expect(app.currentScreen.title == "Preferences")
    try assertSnapshot(frame(app), named: "preferences")
    app.handle(.tab)
    app.handle(.tab)  // the appearance row
    app.handle(.right)
    settle()
    #expect(appearances.values.last == .light)
    #expect(screen.preferences?.preferences?.appearance == .light)
  }

  @Test func cards_addThenList() throws {
    let (app, _, _) = makeApp(token: try services.signedInAda())
    app.handle(.down)
    app.handle(.down)
    app.handle(.enter)
    settle()
    #expect(app.currentScreen.title == "Payment cards")
    app.handle(.character("a"))
    type("4242424242424242", into: app)
    app.handle(.tab)
    type("12/30", into: app)
    app.handle(.tab)
    type("123", into: app)
    app.handle(.enter)
    settle()
    try assertSnapshot(frame(app), named: "cards")
  }

  /// #14 Forms: the card number was fully masked while typed, so a typo could not be seen; each
  /// field is judged as typed and the line under the form follows the focus.
  @Test func cards_numberGroupedWhileTyped_maskedAfter_problemsAsTyped() throws {
    let (app, _, _) = makeApp(token: try services.signedInAda())
    app.handle(.down)
    app.handle(.down)
    app.handle(.enter)
    settle()
    app.handle(.character("a"))
    type("4242-4242 4242424", into: app)  // dashes and spaces are the display's
    var text = frame(app)
    #expect(text.contains("4242 4242 4242 4"))
    #expect(text.contains("The 12 to 19 digits on the card"))
    type("1", into: app)  // 16 digits that fail the Luhn check
    text = frame(app)
    #expect(text.contains("Card number is not valid"))
    try assertSnapshot(text, named: "cards-add-typing")
    app.handle(.backspace)
    type("2", into: app)
    app.handle(.tab)
    text = frame(app)
    #expect(text.contains("•••• •••• •••• 4242"))
    #expect(!text.contains("4242 4242"))
    #expect(text.contains("The month and year on the card"))
    type("09/24", into: app)
    text = frame(app)
    #expect(text.contains("Card expired 09/24"))
    try assertSnapshot(text, named: "cards-add-expired")
  }

  @Test func trips_emptyList() throws {
    let (app, _, _) = makeApp(token: try services.signedInAda())
    for _ in 0..<3 { app.handle(.down) }
    app.handle(.enter)
    settle()
    #expect(app.currentScreen.title == "Trips")
    #expect(frame(app).contains("No trips yet."))
  }

  @Test func signOut_returnsToTheSignInForm() throws {
    let (app, screen, box) = makeApp(token: try services.signedInAda())
    app.handle(.end)
    app.handle(.enter)
    settle()
    _ = frame(app)
    #expect(screen.token == nil)
    #expect(box.token == nil)
    #expect(app.status == nil)
  }

  /// One session for the Account tab and a booking's checkout (#14): signing in from the
  /// booking's sign-in sheet shows the home and the greeting here; signing out here signs the
  /// booking out, and its checkout says so.
  @Test func signInFromABookingSheet_showsHere_andSignOutHereSignsTheBookingOut() throws {
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    let box = TokenBox()
    let session = AccountSession(
      account: services.bookingAccount(box), mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
    let (app, screen) = makeApp(session: session)
    let checkout = CheckoutModel(session: session)
    #expect(frame(app).contains("Sign in"))
    checkout.signIn(email: "ada@example.com", password: "correct horse")
    let home = frame(app)
    #expect(screen.token != nil)
    #expect(app.status == "Welcome, Ada Lovelace")
    #expect(home.contains("Welcome, Ada Lovelace") && home.contains("Sign out"))

    app.handle(.end)
    app.handle(.enter)  // Sign out
    let form = frame(app)
    #expect(box.token == nil)
    #expect(app.status == nil)
    #expect(form.contains("Signed out."))
    #expect(checkout.payer == .signedOut)
  }

  /// `account` alone (#14): Esc in the sign-in form leaves the field, so `q` quits; Enter comes back.
  @Test func signInForm_escLeavesTheField_thenQQuits() throws {
    let (app, screen, _) = makeApp()
    type("ada@example.com", into: app)
    #expect(screen.isEditingText)
    app.handle(.escape)
    #expect(!screen.isEditingText)
    #expect(app.footerHints.contains(KeyHint("q", "quit")))
    app.handle(.enter)  // back into the field
    #expect(screen.isEditingText)
    app.handle(.escape)
    app.handle(.character("q"))
    #expect(app.exitStatus == 0)
  }
}
