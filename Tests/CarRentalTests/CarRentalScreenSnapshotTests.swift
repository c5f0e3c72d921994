import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import CarRental

/// The car screens, driven by keys through the shell and the test backend (80 × 24), over the
/// scripted service with `DispatchQueue.test` for both queues.
@MainActor
@Suite struct CarRentalScreenSnapshotTests {
  let scheduler = DispatchQueue.test
  let service = ScriptedCarService()
  let backend = TestBackend(width: 80, height: 24)

  let account = MemoryBookingAccount(signedIn: true)
  let session: AccountSession

  init() {
    session = AccountSession(
      account: account.account, mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler())
  }

  var environment: CarRentalViewEnvironment {
    CarRentalViewEnvironment(
      service: service, session: session, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler(), today: TravelToday(Self.today))
  }

  /// The traveller's date in these tests: the calendar starts here, and a pick-up before it is refused.
  static let today = LocalDate(year: 2026, month: 11, day: 30)!

  /// A booking screen for `offerID` over `account`, its checkout read.
  func bookingScreen(_ offerID: String, account: MemoryBookingAccount) -> CarBookingScreen {
    let offer = ScriptedCarService.offers(promo: nil)[0]
    let model = CarBookingViewModel(offerID: offerID, environment: environment, idempotencyKey: "k")
    let checkout = CheckoutSection(
      account: account.account, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
    scheduler.run()
    return CarBookingScreen(offer: offer, total: "150.00 USD", model: model, checkout: checkout)
  }

  func app(_ root: any Screen) -> InteractiveApp {
    InteractiveApp(name: "car-rental", tabs: [AppTab("Cars", root: root)], backend: backend, schedule: { $0() })
  }

  func press(_ app: InteractiveApp, _ keys: [Key]) {
    for key in keys { app.handle(key) }
    scheduler.advance()
  }

  func type(_ app: InteractiveApp, _ text: String) { press(app, text.map { Key.character($0) }) }

  /// The frame as text, the spinner's turning dots replaced by its first picture.
  func frame(_ app: InteractiveApp) -> String {
    app.displayNow()
    return String(backend.text.map { Spinner.frames.contains($0) ? Spinner.frames[0] : $0 })
  }

  /// The form filled in: LAX from the suggestions, 20–27 December at 10:00.
  func filledForm(_ environment: CarRentalViewEnvironment? = nil) -> (InteractiveApp, CarSearchScreen) {
    let screen = CarSearchScreen(environment: environment ?? self.environment)
    let app = app(screen)
    type(app, "la")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    press(app, [.enter])  // LAX, highlighted first; focus moves to pick-up
    type(app, "2026-12-20T10:00")
    press(app, [.tab])  // Enter would open the calendar
    type(app, "2026-12-27T10:00")
    return (app, screen)
  }

  @Test func searchForm_empty() throws {
    let app = app(CarSearchScreen(environment: environment))
    try assertSnapshot(frame(app), named: "search-empty")
  }

  @Test func searchForm_suggestions() throws {
    let app = app(CarSearchScreen(environment: environment))
    type(app, "la")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    try assertSnapshot(frame(app), named: "search-suggestions")  // LAX highlighted: what Enter takes
  }

  @Test func place_tabTakesTheHighlightedSuggestion() {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "la")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    press(app, [.tab])
    #expect(screen.place.text == "LAX")
    #expect(screen.focus == .pickup)
  }

  @Test func place_staleListIsNotTaken_escClosesThenLeavesTheField() {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "la")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    type(app, "s vegas")  // the list still answers "la"
    #expect(!frame(app).contains("▸"))
    press(app, [.escape])
    #expect(screen.isEditingText)
    #expect(!frame(app).contains("LAX — "))
    press(app, [.escape])
    #expect(!screen.isEditingText)
    press(app, [.enter, .enter])  // back into the field; Enter keeps the typed text
    #expect(screen.place.text == "las vegas")
    #expect(screen.focus == .pickup)
  }

  /// "la" and Enter at once, before the suggestions: the focus moves on, LAX is taken when they arrive.
  @Test func place_enterBeforeTheSuggestions_takesTheFirstWhenTheyArrive() {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "la")
    press(app, [.enter])  // the focus moves on at once
    #expect(screen.place.isAwaitingAnswer)
    #expect(screen.focus == .pickup)
    press(app, [.backTab])
    #expect(frame(app).contains("Looking up places…"))
    press(app, [.tab])
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    #expect(screen.place.text == "LAX")
    #expect(screen.focus == .pickup)
    #expect(!screen.place.isAwaitingAnswer)
  }

  @Test func place_tabBeforeTheSuggestions_searchWaitsForThem() {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "la")
    press(app, [.tab])  // waits, the focus moves on
    type(app, "2026-12-20T10:00")
    press(app, [.tab])  // Enter would open the calendar
    type(app, "2026-12-27T10:00")
    press(app, [.tab, .tab, .tab, .tab, .tab, .enter])  // Search, while the place still waits
    #expect(screen.focus == .search)
    #expect(screen.searchRequested)
    #expect(service.lastQuery.value == nil)
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    scheduler.run()
    #expect(screen.place.text == "LAX")
    #expect(service.lastQuery.value?.pickupPlace == "LAX")  // never "la"
    #expect(app.currentScreen is CarResultsScreen)
  }

  @Test func searchForm_filled() throws {
    let (app, screen) = filledForm()
    #expect(screen.place.text == "LAX")
    #expect(screen.model.isSearchEnabled)
    try assertSnapshot(frame(app), named: "search-filled")
  }

  /// #14: the Cars tab wanted typed `YYYY-MM-DDTHH:MM` times where Flights and Hotels offer the
  /// calendar: Enter on Pick-up or Drop-off opens it, then the time picker.
  @Test func pickupAndDropoff_calendarThenTimePicker() throws {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "la")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    press(app, [.enter])  // LAX; focus on Pick-up
    press(app, [.enter])  // the calendar, at today
    #expect(screen.calendar?.cursor == Self.today)
    #expect(!screen.isEditingText)  // `q` and digits are the calendar's, not the field's
    press(app, [.left])  // not before today
    #expect(screen.calendar?.cursor == Self.today)
    press(app, [.right, .right])
    try assertSnapshot(frame(app), named: "search-pickup-calendar")
    press(app, [.enter])  // 2 December: the time picker, at 10:00
    #expect(screen.timePicker?.text == "10:00")
    type(app, "930")
    try assertSnapshot(frame(app), named: "search-pickup-time")
    press(app, [.enter])
    #expect(screen.pickup.text == "2026-12-02 09:30")
    #expect(screen.focus == .dropoff)
    press(app, [.enter])  // the drop-off's calendar: three days after the pick-up, not before it
    #expect(screen.calendar?.cursor == LocalDate(year: 2026, month: 12, day: 5))
    #expect(screen.calendar?.earliest == LocalDate(year: 2026, month: 12, day: 2))
    press(app, [.enter, .enter])  // the day, then the pick-up's time
    #expect(screen.dropoff.text == "2026-12-05 09:30")
    #expect(screen.focus == .returnPlace)
    #expect(screen.model.isSearchEnabled)
    // Esc closes a picker without a change.
    press(app, [.backTab, .enter, .right, .escape])
    #expect(screen.calendar == nil)
    #expect(screen.dropoff.text == "2026-12-05 09:30")
  }

  /// #14: the line under the form follows the focus, and a past pick-up is refused as it is typed,
  /// in the form's words.
  @Test func hintLine_followsTheFocus_pastPickupRefusedAsTyped() throws {
    let screen = CarSearchScreen(environment: environment)
    let app = app(screen)
    #expect(screen.hintLine.0.hasPrefix("An airport code or a city"))
    press(app, [.tab])
    #expect(screen.hintLine.0.hasPrefix("YYYY-MM-DD HH:MM, local time at the desk"))
    type(app, "2026-11-29 10:00")
    #expect(
      screen.hintLine == ("The pick-up 2026-11-29 10:00 is in the past: choose today (2026-11-30) or later.", true))
    try assertSnapshot(frame(app), named: "search-pickup-past")
    press(app, [.tab, .tab, .tab])  // Class
    #expect(screen.hintLine.0.hasPrefix("An ACRISS pattern"))
    type(app, "C**")
    #expect(screen.hintLine.1)
    #expect(screen.hintLine.0.hasPrefix("Invalid class \"C**\""))
    #expect(!frame(app).contains("--"))
  }

  @Test func returnAt_makesTheSearchOneWay() throws {
    let (app, screen) = filledForm()
    press(app, [.tab])  // Return at
    #expect(screen.focus == .returnPlace)
    type(app, "SFO")
    press(app, Array(repeating: .tab, count: 4) + [.enter])  // to Search
    scheduler.run()
    #expect(service.lastQuery.value?.dropoffPlace == "SFO")
    #expect(service.lastQuery.value?.pickupPlace == "LAX")
  }

  @Test func companySelector_limitsTheSearch() throws {
    let (app, screen) = filledForm()
    press(app, [.tab, .tab, .tab, .tab, .enter])  // return place, pattern, promo, company → the selector
    #expect(app.currentStack.count == 2)
    try assertSnapshot(frame(app), named: "companies")
    press(app, [.down, .down, .enter])  // Orbit
    #expect(app.currentStack.count == 1)
    #expect(screen.model.companySelector.selectedCompanyID == "orbit")
    try assertSnapshot(frame(app), named: "search-company-orbit")
  }

  @Test func results_byCategory_ratesWithPromo_booking() throws {
    let (app, _) = filledForm()
    press(app, Array(repeating: .tab, count: 5) + [.enter])  // to Search
    #expect(app.currentStack.count == 2)
    try assertSnapshot(frame(app), named: "results")
    press(app, [.down, .enter])  // Zephyr CDAR
    try assertSnapshot(frame(app), named: "rates")
    type(app, "winter10")
    press(app, [.enter])
    #expect(service.lastQuery.value?.promoCode == "winter10")
    try assertSnapshot(frame(app), named: "rates-promo-applied")
    press(app, [.tab, .enter])
    #expect(app.currentStack.count == 4)
    type(app, "Grace Hopper")
    try assertSnapshot(frame(app), named: "booking")
    press(app, [.enter])
    #expect(service.bookings.value.map(\.driverName) == ["Grace Hopper"])
    #expect(service.bookings.value.map(\.cardID) == ["card_visa"])
    try assertSnapshot(frame(app), named: "booking-confirmed")
  }

  /// QA at 120×40: `Budget Wh…`, `12 availab…` and CHF totals were cut; the car's description
  /// gives way instead (here at 80×24, where it is tightest).
  @Test func results_longCompanyAvailabilityAndPrice_areNeverCut() throws {
    var wide = service
    wide.wide = true
    let (app, _) = filledForm(
      CarRentalViewEnvironment(
        service: wide, session: session, mainQueue: scheduler.eraseToAnyScheduler(),
        backgroundQueue: scheduler.eraseToAnyScheduler()))
    press(app, Array(repeating: .tab, count: 5) + [.enter])  // to Search
    let results = frame(app)
    try assertSnapshot(results, named: "results-chf")
    for text in ["Budget White Glove", "12 available", "12,345.60", "9,876.50"] {
      #expect(results.contains(text), "\(text) cut")
    }
  }

  /// The confirmation's summary (places and times) wraps onto a second row instead of being cut.
  @Test func booking_longConfirmation_wraps() throws {
    let screen = bookingScreen("car_long", account: account)
    let app = app(screen)
    type(app, "Grace Hopper")
    press(app, [.enter])
    scheduler.run()
    #expect(screen.model.reservation != nil)
    let text = frame(app)
    try assertSnapshot(text, named: "booking-confirmed-long")
    #expect(text.contains("2027-01-06T10:00"))
    #expect(text.contains("Confirmation res_1"))
  }

  @Test func booking_priceChanged_acceptThenBook() throws {
    let screen = bookingScreen("car_risen", account: account)
    let app = app(screen)
    type(app, "Grace Hopper")
    press(app, [.enter])
    try assertSnapshot(frame(app), named: "booking-price-changed")
    press(app, [.enter])
    #expect(screen.model.offerID == "car_new")
  }

  /// QA: Driver `Ada`, Tab Tab Enter did nothing; now the name rule's message shows, nothing is
  /// booked, and it goes once the name is valid.
  @Test func booking_invalidDriver_saysWhy() throws {
    let screen = bookingScreen("car_orbit_x", account: account)
    let app = app(screen)
    type(app, "Ada 2")
    press(app, [.tab, .tab, .enter])
    try assertSnapshot(frame(app), named: "booking-invalid-driver")
    #expect(frame(app).contains("The driver's name \"Ada 2\" contains \"2\""))
    #expect(screen.focus == .driver)
    #expect(service.bookings.value.isEmpty)
    press(app, [.backspace, .backspace])
    type(app, " Lovelace")
    #expect(screen.model.validationMessage == nil)
    #expect(!frame(app).contains("The driver's name"))
  }

  @Test func booking_insufficientFunds_inTheAppsWords() throws {
    let screen = bookingScreen("car_declined", account: account)
    let app = app(screen)
    type(app, "Grace Hopper")
    press(app, [.enter])
    scheduler.run()
    #expect(screen.model.failure?.code == "insufficient_funds")
    #expect(screen.model.reservation == nil)
    try assertSnapshot(frame(app), named: "booking-insufficient-funds")
    #expect(!frame(app).contains("--card"))
    press(app, [.down, .right])  // another card: the failure of the first is gone
    #expect(screen.checkout.selectedCardId == "card_mc")
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("insufficient funds"))
  }

  /// A session that ended elsewhere: Book fails, the sign-in sheet signs in again, and the failure
  /// line goes with it (before the next Book).
  @Test func booking_sessionEnded_signInClearsTheFailure() throws {
    let screen = bookingScreen("car_session", account: account)
    let app = app(screen)
    type(app, "Grace Hopper")
    account.endSession()
    press(app, [.enter])
    scheduler.run()
    #expect(screen.failureText != nil)
    press(app, [.down, .enter])  // Pay with: Enter opens the sign-in sheet
    scheduler.run()
    #expect(app.currentScreen is SignInSheetScreen)
    type(app, "ada@example.com")
    press(app, [.enter])
    type(app, "correct horse")
    press(app, [.enter])
    scheduler.run()
    #expect(app.currentScreen === screen)
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("session"))
  }

  /// Not signed in: Book opens the sign-in sheet; a wrong password says so; after signing in the
  /// booking shows the default card; ← chooses the Mastercard, which is the card booked.
  @Test func booking_signedOut_signInSheet_thenTheChosenCardIsBooked() throws {
    let screen = bookingScreen("car_orbit_x", account: MemoryBookingAccount(signedIn: false))
    let app = app(screen)
    type(app, "Grace Hopper")
    try assertSnapshot(frame(app), named: "booking-signed-out")
    press(app, [.enter])
    #expect(app.currentScreen is SignInSheetScreen)
    type(app, "ada@example.com")
    press(app, [.enter])
    type(app, "nope")
    press(app, [.enter])
    scheduler.run()
    #expect(app.currentScreen is SignInSheetScreen)
    #expect(frame(app).contains("Email or password is wrong"))
    // Failed again from the button: the cursor is back in the cleared password, so the digits and
    // the `q` of a password are typed there (QA: "3" switched tabs, "q" would quit).
    press(app, [.tab, .enter])
    scheduler.run()
    type(app, "3q")
    #expect(app.currentScreen is SignInSheetScreen)
    #expect(app.exitStatus == nil)
    press(app, Array(repeating: .backspace, count: 2))
    type(app, "correct horse")
    press(app, [.enter])
    scheduler.run()
    #expect(app.currentScreen === screen)
    press(app, [.down, .left])
    try assertSnapshot(frame(app), named: "booking-card-chosen")
    press(app, [.enter])
    scheduler.run()
    #expect(service.bookings.value.map(\.cardID) == ["card_mc"])
    try assertSnapshot(frame(app), named: "booking-confirmed-card")
  }

  @Test func factory_mountsTheSearchForm() {
    let root = CarRentalScreens.root(environment: environment)
    #expect(root is CarSearchScreen)
    #expect(root.title == "Cars")
  }
}
