import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Booking

/// The flight screens, driven by keys through the shell and the test backend (80 × 24), over
/// deterministic services (``ScreenFlights``, ``ScriptedBooking``) with `DispatchQueue.test` for
/// both queues.
@MainActor
@Suite struct FlightScreenSnapshotTests {
  let scheduler = DispatchQueue.test
  let flights = ScreenFlights()
  let booking = ScriptedBooking()
  let backend = TestBackend(width: 80, height: 24)
  static let today = TravelToday(LocalDate("2026-12-01")!)
  /// The accounts behind ``environment(signedIn:)`` (one test's, so a test can sign out meanwhile).
  let signedInAccount = MemoryBookingAccount(signedIn: true)
  let signedOutAccount = MemoryBookingAccount(signedIn: false)
  /// The sessions of those accounts (one app's session each).
  let signedInSession: AccountSession
  let signedOutSession: AccountSession

  init() {
    signedInSession = AccountSession(
      account: signedInAccount.account, mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
    signedOutSession = AccountSession(
      account: signedOutAccount.account, mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
  }

  func environment(signedIn: Bool = true) -> FlightScreenEnvironment {
    let session = signedIn ? signedInSession : signedOutSession
    let account = session.account
    return FlightScreenEnvironment(
      views: FlightsViewEnvironment(
        flights: flights, booking: booking, token: { (try? account.token()) ?? nil },
        mainQueue: scheduler.eraseToAnyScheduler(), backgroundQueue: scheduler.eraseToAnyScheduler()),
      session: session, today: Self.today)
  }

  func app(_ root: any Screen) -> InteractiveApp {
    InteractiveApp(name: "booking", tabs: [AppTab("Flights", root: root)], backend: backend, schedule: { $0() })
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

  /// Types `text` in the focused airport field, waits out the autocomplete's pause, picks the
  /// suggestion `index` (0: the first, highlighted already: Enter alone takes it).
  func pickAirport(_ app: InteractiveApp, _ text: String, index: Int = 0) {
    type(app, text)
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    press(app, Array(repeating: .down, count: index) + [.enter])
  }

  /// The form filled in: SFO and JFK from the suggestions, 20 December from the calendar,
  /// one-way, 1 adult, economy, at most 1 stop; focus on Return.
  func filledForm(signedIn: Bool = true) -> (InteractiveApp, FlightSearchScreen) {
    let screen = FlightSearchScreen(environment: environment(signedIn: signedIn))
    let app = app(screen)
    pickAirport(app, "san")
    pickAirport(app, "new")
    press(app, [.enter, .down, .down] + Array(repeating: .right, count: 5) + [.enter])  // 2026-12-20
    return (app, screen)
  }

  /// The results of the filled form, loaded.
  func results(signedIn: Bool = true) -> InteractiveApp {
    let (app, _) = filledForm(signedIn: signedIn)
    press(app, [.tab, .tab, .tab, .tab, .enter])
    return app
  }

  // MARK: Search form

  @Test func searchForm_empty_cursorInFrom() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    #expect(screen.focus == .from)
    #expect(screen.isEditingText)
    try assertSnapshot(frame(app), named: "search-empty")
  }

  @Test func searchForm_suggestionsAsYouType_enterPicksTheCode() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san")
    #expect(flights.queries.isEmpty)  // waits for typing to pause
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(flights.queries == ["san"])
    try assertSnapshot(frame(app), named: "search-suggestions-first")  // the first is highlighted
    #expect(app.footerHints.contains(KeyHint("Enter Tab", "take airport")))
    press(app, [.down])
    try assertSnapshot(frame(app), named: "search-suggestions")
    press(app, [.enter])
    #expect(screen.from.text == "SAN")
    #expect(screen.model.origin.selection?.iata == "SAN")
    #expect(screen.focus == .to)
    #expect(!frame(app).contains("Mineta"))  // the list is gone
  }

  /// The lead's bug: "san fra" showed "▸ SFO …" but Enter kept "san fra".
  @Test func searchForm_enterTakesTheHighlightedFirstSuggestion() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san fra")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(frame(app).contains("▸ SFO  San Francisco International Airport"))
    press(app, [.enter])
    #expect(screen.from.text == "SFO")
    #expect(screen.model.origin.selection?.iata == "SFO")
    #expect(screen.focus == .to)
  }

  @Test func searchForm_tabTakesTheHighlightedSuggestion_shiftTabKeepsTheText() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    press(app, [.down, .down, .up, .tab])
    #expect(screen.from.text == "SAN")
    #expect(screen.focus == .to)
    type(app, "new")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    press(app, [.backTab])
    #expect(screen.to.text == "new")
    #expect(screen.focus == .from)
  }

  @Test func searchForm_escClosesTheList_thenEnterKeepsTheText_secondEscLeavesTheField() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    press(app, [.escape])
    #expect(screen.isEditingText)
    #expect(!frame(app).contains("San Diego"))
    press(app, [.escape])
    #expect(!screen.isEditingText)
    #expect(screen.from.text == "san")
    press(app, [.enter, .enter])  // back into the field; no list: Enter keeps the text and moves on
    #expect(screen.from.text == "san")
    #expect(screen.model.origin.selection == nil)
    #expect(screen.focus == .to)
  }

  @Test func searchForm_whileLoading_enterNeverTakesAListForAnOlderText_butWaitsForTheNewOne() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    type(app, " fra")  // the list still answers "san"
    try assertSnapshot(frame(app), named: "search-suggestions-stale")
    #expect(!frame(app).contains("▸ S"))
    press(app, [.enter])  // moves on; From waits for the answer to "san fra" (a spinner after it)
    #expect(screen.from.text == "san fra")
    #expect(screen.from.isAwaitingAnswer)
    #expect(screen.model.origin.selection == nil)
    #expect(screen.focus == .to)
    #expect(!frame(app).contains("San Diego"))
    press(app, [.backTab])
    #expect(app.footerHints.contains(KeyHint("Esc", "keep text")))
    press(app, [.tab])
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "SFO")
    #expect(screen.focus == .to)
  }

  // MARK: Enter before the suggestions (pending accept)

  /// "san fra" and Enter at once: the focus moves on now; the first suggestion of the answer is
  /// taken when it comes.
  @Test func pending_enterBeforeTheSuggestions_takesTheFirstWhenTheyArrive() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san fra")
    press(app, [.enter])
    #expect(flights.queries.isEmpty)
    #expect(screen.focus == .to)
    #expect(screen.isAnimating)
    try assertSnapshot(frame(app), named: "search-pending")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "SFO")
    #expect(screen.model.origin.selection?.iata == "SFO")
    #expect(screen.focus == .to)
    #expect(!screen.isAnimating)
  }

  /// Typing ahead: "SFO" Enter "JFK" Enter all before any answer; each field gets its own text.
  @Test func pending_typeAhead_landsInTheNextField() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "SFO")
    press(app, [.enter])
    type(app, "JFK")
    press(app, [.enter])
    #expect(screen.from.text == "SFO")
    #expect(screen.to.text == "JFK")
    #expect(screen.focus == .depart)
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "SFO")
    #expect(screen.model.origin.selection?.iata == "SFO")
    #expect(screen.to.text == "JFK")
    #expect(screen.model.destination.selection?.iata == "JFK")
    #expect(screen.focus == .depart)
  }

  @Test func pending_tabMovesOn_theFieldItLeftIsFilled_typingCancels() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "san fra")
    press(app, [.tab])
    #expect(screen.focus == .to)
    type(app, "new")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "SFO")  // filled behind the focus
    #expect(screen.focus == .to)  // and the focus stays where Tab put it
    press(app, [.backTab])  // back in From; a new pending accept by Tab …
    type(app, "x")
    press(app, [.backspace, .backspace, .backspace, .backspace])
    type(app, "new")
    press(app, [.tab, .backTab])  // … and back in the field before the answer
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "JFK")
    #expect(screen.focus == .from)  // the answer to a Tab does not move the focus
    press(app, [.tab])
    #expect(screen.to.text == "new")  // To was not taken: no Enter there
    type(app, "ark")  // "newark"
    press(app, [.enter])
    #expect(screen.to.isAwaitingAnswer)
    #expect(screen.focus == .depart)
    press(app, [.backTab, .backspace])  // back in To: typing again cancels
    #expect(!screen.to.isAwaitingAnswer)
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.to.text == "newar")
    #expect(screen.focus == .to)
  }

  @Test func pending_emptyAnswer_keepsTheTypedText() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "37.62,-122.38")
    press(app, [.enter])
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.from.text == "37.62,-122.38")
    #expect(screen.model.origin.selection == nil)
    #expect(screen.focus == .to)
  }

  /// Search pressed while To still waits: the search waits for the airport, never going out with
  /// "new" as typed.
  @Test func pending_searchWaitsForTheAnswer() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    pickAirport(app, "san")
    type(app, "new")
    press(app, [.tab])  // To waits for "new"
    type(app, "2026-12-20")
    press(app, [.tab, .tab, .tab, .tab, .tab, .enter])  // Search
    #expect(screen.searchRequested)
    #expect(flights.searches.isEmpty)
    #expect(frame(app).contains("Searching as soon as the airport suggestions arrive…"))
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.to.text == "JFK")
    #expect(flights.searches.map(\.destination) == ["JFK"])
    #expect(app.currentScreen is FlightResultsScreen)
  }

  @Test func searchForm_noSuggestions_enterKeepsTheTypedText() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "37.62,-122.38")
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    #expect(screen.model.origin.suggestions.isEmpty)
    press(app, [.enter])
    #expect(screen.from.text == "37.62,-122.38")
    #expect(screen.focus == .to)
  }

  @Test func keys_qInAFieldIsText_escLeavesTheField_thenQQuits() {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    type(app, "q?1")
    #expect(screen.from.text == "q?1")
    #expect(app.exitStatus == nil)
    #expect(!app.isShowingHelp)
    press(app, [.escape])
    #expect(!screen.isEditingText)
    #expect(app.footerHints.contains(KeyHint("q", "quit")))
    press(app, [.escape, .escape])  // on the tab's first screen Esc never quits
    #expect(app.exitStatus == nil)
    press(app, [.enter])  // back into the field
    #expect(screen.isEditingText)
    press(app, [.escape])
    type(app, "q")
    #expect(app.exitStatus == 0)
    #expect(screen.from.text == "q?1")
  }

  @Test func searchForm_calendarForTheDeparture() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    pickAirport(app, "san")
    pickAirport(app, "new")
    press(app, [.enter, .down, .down, .right])
    try assertSnapshot(frame(app), named: "search-calendar")
    press(app, [.escape])  // closes the calendar, keeps the field
    #expect(screen.calendar == nil)
    #expect(screen.focus == .depart)
    #expect(app.exitStatus == nil)
  }

  @Test func searchForm_returnFromTheCalendar_deleteMakesItOneWay() throws {
    let (app, screen) = filledForm()
    press(app, [.enter, .right, .right, .enter])  // the calendar opens at the departure: 22 December
    #expect(screen.back.text == "2026-12-22")
    #expect(screen.focus == .adults)
    press(app, [.backTab, .enter])
    #expect(screen.calendar?.earliest == LocalDate("2026-12-20"))
    press(app, [.delete])
    #expect(screen.back.text.isEmpty)
    #expect(screen.calendar == nil)
    #expect(screen.model.isSearchEnabled)
  }

  @Test func searchForm_narrowTerminal_calendarOverTheForm() throws {
    let narrow = TestBackend(width: 60, height: 20)
    let screen = FlightSearchScreen(environment: environment())
    let app = InteractiveApp(
      name: "booking", tabs: [AppTab("Flights", root: screen)], backend: narrow, schedule: { $0() })
    press(app, [.tab, .tab, .enter])
    app.displayNow()
    try assertSnapshot(narrow.text, named: "search-calendar-60x20")
  }

  @Test func searchForm_filled_searchEnabled() throws {
    let (app, screen) = filledForm()
    #expect(screen.depart.text == "2026-12-20")
    #expect(screen.focus == .back)
    #expect(screen.model.isSearchEnabled)
    press(app, [.tab, .right, .tab, .right, .right])  // 2 adults, business
    try assertSnapshot(frame(app), named: "search-filled")
  }

  @Test func searchForm_typedDates_returnBeforeDeparture_isExplained() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    pickAirport(app, "san")
    pickAirport(app, "new")
    type(app, "2026-12-20")
    press(app, [.tab])
    type(app, "2026-12-18")
    #expect(screen.model.validationMessage?.contains("before the departure") == true)
    #expect(!screen.model.isSearchEnabled)
    press(app, [.tab, .tab, .tab, .tab, .enter])  // Search is disabled: nothing happens
    #expect(app.currentStack.count == 1)
    try assertSnapshot(frame(app), named: "search-invalid")
  }

  // MARK: Results

  @Test func search_spinnerThenResults_sortAndFilters() throws {
    let (app, _) = filledForm()
    for key in [Key.tab, .tab, .tab, .tab, .enter] { app.handle(key) }
    #expect(app.currentStack.count == 2)
    #expect(app.currentScreen.isAnimating)
    try assertSnapshot(frame(app), named: "results-loading")
    scheduler.advance()
    #expect(flights.searches.last?.departureDate == LocalDate("2026-12-20"))
    #expect(flights.searches.last?.maxStops == 1)
    try assertSnapshot(frame(app), named: "results")
    press(app, [.character("s"), .character("f")])  // by duration, nonstop only
    try assertSnapshot(frame(app), named: "results-duration-nonstop")
    press(app, [.character("f"), .character("c"), .character("c")])  // at most 1 stop, carrier AA then B6
    let screen = try #require(app.currentScreen as? FlightResultsScreen)
    #expect(screen.model.carrierFilter == "B6")
    #expect(screen.model.rows.map(\.carriers) == ["B6"])
  }

  @Test func roundTrip_resultsAndDetailsShowBothDirections() throws {
    let (app, _) = filledForm()
    type(app, "2026-12-27")
    press(app, [.tab, .tab, .tab, .tab, .enter])
    #expect(flights.searches.last?.returnDate == LocalDate("2026-12-27"))
    try assertSnapshot(frame(app), named: "results-round-trip")
    press(app, [.enter])
    try assertSnapshot(frame(app), named: "details-round-trip")
  }

  @Test func results_helpListsTheKeys() throws {
    let app = results()
    press(app, [.character("?")])
    #expect(app.isShowingHelp)
    try assertSnapshot(frame(app), named: "results-help")
    press(app, [.character("x")])  // any key closes it
    #expect(!app.isShowingHelp)
    #expect(app.exitStatus == nil)
  }

  @Test func results_noFlights_saysSo() throws {
    let screen = FlightSearchScreen(environment: environment())
    let app = app(screen)
    pickAirport(app, "san")
    type(app, "LHR")
    press(app, [.tab])  // To waits for the answer to "LHR"; Search waits for To
    type(app, "2026-12-20")
    press(app, [.tab, .tab, .tab, .tab, .tab, .enter])
    scheduler.advance(by: AirportAutocompleteViewModel.delay)
    try assertSnapshot(frame(app), named: "results-none")
  }

  @Test func results_moveAndOpenDetails_escBack() throws {
    let app = results()
    press(app, [.down, .down, .pageDown, .pageUp, .down])
    let results = try #require(app.currentScreen as? FlightResultsScreen)
    #expect(results.selection.selected == 1)
    press(app, [.enter])
    let details = try #require(app.currentScreen as? FlightBookingScreen)
    #expect(details.model.offer.outbound.segments.map(\.flight.code) == ["B6916"])
    #expect(details.isEditingText)
    press(app, [.escape])  // leaves the name field
    #expect(app.currentStack.count == 3)
    press(app, [.escape])  // back to the results
    #expect(app.currentScreen === results)
  }

  // MARK: Details and booking

  /// The details of the connecting DL offer (the cheapest), for `adults`.
  func details(signedIn: Bool = true) throws -> (InteractiveApp, FlightBookingScreen) {
    let app = results(signedIn: signedIn)
    press(app, [.enter])
    return (app, try #require(app.currentScreen as? FlightBookingScreen))
  }

  @Test func details_segmentsBreakdownPassengers() throws {
    let (app, screen) = try details()
    #expect(!screen.model.isBookEnabled)
    try assertSnapshot(frame(app), named: "details")
    type(app, "Ada Lovelace")
    #expect(screen.model.isBookEnabled)
    try assertSnapshot(frame(app), named: "details-filled")
  }

  @Test func book_confirmationReplacesTheForm_escGoesToTheResults() throws {
    let (app, _) = try details()
    type(app, "Ada Lovelace")
    for key in [Key.enter] { app.handle(key) }
    try assertSnapshot(frame(app), named: "booking-in-progress")
    scheduler.advance()
    #expect(booking.requests.map { $0.passengers.map(\.description) } == [["Ada Lovelace"]])
    #expect(booking.requests.first?.cardID == "card_visa")  // the default card
    #expect(app.currentScreen is FlightConfirmationScreen)
    #expect(app.currentStack.count == 3)
    try assertSnapshot(frame(app), named: "confirmation")
    press(app, [.escape])
    #expect(app.currentScreen is FlightResultsScreen)
  }

  @Test func book_priceChanged_showsTheNewPrice_enterAccepts_thenBooks() throws {
    let (app, screen) = try details()
    var raised = screen.model.offer.id
    raised.quotedTotal = Money(amount: 329, currency: "USD")
    booking.failure = ServiceError.refused(
      "price_changed", "the price changed from $289.00 to $329.00", details: ["offerId": "\(raised)"])
    type(app, "Ada Lovelace")
    press(app, [.enter])
    #expect(screen.model.priceChange != nil)
    try assertSnapshot(frame(app), named: "booking-price-changed")
    booking.failure = nil
    press(app, [.enter])  // accepts
    #expect(screen.model.breakdown.last?.amount == "$329.00")
    press(app, [.enter])  // books
    #expect(booking.requests.last?.offerID.quotedTotal == Money(amount: 329, currency: "USD"))
    #expect(app.currentScreen is FlightConfirmationScreen)
  }

  @Test func book_soldOut_showsTheServicesMessage() throws {
    let (app, _) = try details()
    booking.failure = ServiceError.refused("sold_out", "sold out: no seats left on DL 1200")
    type(app, "Ada Lovelace")
    press(app, [.enter])
    #expect(frame(app).contains("Sold out: no seats left on DL 1200"))
    #expect(app.currentScreen is FlightBookingScreen)
  }

  /// The service's message is for the command line ("use another card with --card ID"); the
  /// screen says it with its own keys, naming the card that was declined.
  @Test func book_cardDeclined_inTheAppsWords() throws {
    let (app, screen) = try details()
    booking.failure = ServiceError.refused(
      "card_declined", "the card Visa •••• 4242 was declined: nothing was booked; use another card with --card ID")
    type(app, "Ada Lovelace")
    press(app, [.enter])
    #expect(screen.model.failure?.code == "card_declined")
    let text = "The card Visa •••• 4242 was declined: nothing was booked. Choose another card (← →) and book again."
    #expect(screen.failureText == text)
    try assertSnapshot(frame(app), named: "booking-card-declined")
    #expect(!frame(app).contains("--card"))
    press(app, [.tab, .right])  // another card: the declined one's message has done its job
    #expect(screen.checkout.selectedCardId == "card_mc")
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("declined"))
    booking.failure = nil
    press(app, [.enter])
    #expect(booking.requests.map(\.cardID) == ["card_visa", "card_mc"])
  }

  @Test func book_signedOut_signInSheetFirst_thenBooksWithTheDefaultCard() throws {
    let (app, screen) = try details(signedIn: false)
    type(app, "Ada Lovelace")
    try assertSnapshot(frame(app), named: "booking-signed-out")
    press(app, [.enter])  // Book: sign in first
    #expect(booking.requests.isEmpty)
    #expect(app.currentScreen is SignInSheetScreen)
    try assertSnapshot(frame(app), named: "booking-sign-in-sheet")
    type(app, MemoryBookingAccount.email)
    press(app, [.tab])
    type(app, MemoryBookingAccount.password)
    press(app, [.enter])
    #expect(app.currentScreen === screen)  // the sheet closed after signing in
    #expect(screen.checkout.selectedCardId == "card_visa")
    press(app, [.enter])
    #expect(booking.requests.map(\.cardID) == ["card_visa"])
    #expect(app.currentScreen is FlightConfirmationScreen)
  }

  @Test func book_anotherCard_chosenOnPayWith() throws {
    let (app, screen) = try details()
    type(app, "Ada Lovelace")
    press(app, [.tab, .right])
    #expect(screen.focus == .payment)
    #expect(screen.checkout.selectedCardId == "card_mc")
    try assertSnapshot(frame(app), named: "booking-second-card")
    press(app, [.enter])
    #expect(booking.requests.map(\.cardID) == ["card_mc"])
  }

  @Test func book_sessionEnded_isShown_andTheCheckoutReadsItAgain() throws {
    let (app, screen) = try details()
    booking.failure = .notSignedIn
    type(app, "Ada Lovelace")
    press(app, [.enter])
    #expect(screen.model.errorMessage == ScreenText.message(for: .notSignedIn))
    #expect(screen.failureText == "You are signed out: nothing was booked. Press Enter to sign in, then book again.")
    #expect(frame(app).contains("You are signed out: nothing was booked."))
    #expect(!frame(app).contains("account login"))
  }

  /// Signed out at Book (the session was ended elsewhere), then signed in from the sheet: the
  /// failure line goes with its cause, before the next Book.
  @Test func book_sessionEnded_signInFromTheSheet_clearsTheFailure() throws {
    let (app, screen) = try details()
    booking.failure = .notSignedIn
    type(app, "Ada Lovelace")
    signedInAccount.signOut()  // as `account logout` in another shell
    press(app, [.enter])
    #expect(screen.failureText != nil)
    #expect(screen.checkout.model.payer == .signedOut)
    press(app, [.tab, .enter])  // Pay with: Enter opens the sign-in sheet
    #expect(app.currentScreen is SignInSheetScreen)
    type(app, MemoryBookingAccount.email)
    press(app, [.tab])
    type(app, MemoryBookingAccount.password)
    press(app, [.enter])
    #expect(app.currentScreen === screen)
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("signed out"))
    #expect(booking.requests.isEmpty)  // nothing is booked on its own: Book again when ready
  }

  @Test func details_twoAdults_oneNameEach() throws {
    let (app, _) = filledForm()
    press(app, [.tab, .right, .tab, .tab, .tab, .enter])
    press(app, [.enter])
    let details = try #require(app.currentScreen as? FlightBookingScreen)
    #expect(details.names.count == 2)
    type(app, "Ada Lovelace")
    press(app, [.enter])  // not every name yet: next field
    #expect(details.focus == .passenger(1))
    type(app, "Charles Babbage")
    press(app, [.enter])
    #expect(booking.requests.first?.passengers.map(\.family) == ["Lovelace", "Babbage"])
  }

  @Test func factory_rootIsTheSearchForm() {
    let root = BookingScreens.root(
      environment: environment().views, session: environment().session, today: Self.today)
    #expect(root is FlightSearchScreen)
    #expect(root.title == "Flights")
  }
}

/// Flights for the screens: airports by query, four SFO → JFK offers on the date asked (a
/// connection through ORD the cheapest), none to LHR; all times fixed, so frames never change.
final class ScreenFlights: FlightSearching, @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [String] = []
  private var requests: [FlightSearchRequest] = []
  var queries: [String] { lock.withLock { asked } }
  var searches: [FlightSearchRequest] { lock.withLock { requests } }

  static let airports = [
    AirportSummary(
      iata: "SFO", name: "San Francisco International Airport", city: "San Francisco", country: "US",
      timeZone: "America/Los_Angeles"),
    AirportSummary(
      iata: "SAN", name: "San Diego International Airport", city: "San Diego", country: "US",
      timeZone: "America/Los_Angeles"),
    AirportSummary(
      iata: "SJC", name: "Norman Y. Mineta San Jose International Airport", city: "San Jose", country: "US",
      timeZone: "America/Los_Angeles"),
    AirportSummary(
      iata: "JFK", name: "John F Kennedy International Airport", city: "New York", country: "US",
      timeZone: "America/New_York"),
    AirportSummary(
      iata: "EWR", name: "Newark Liberty International Airport", city: "Newark", country: "US",
      timeZone: "America/New_York"),
  ]

  func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    lock.withLock { asked.append(query) }
    switch query.lowercased() {
    case "san": return Array(Self.airports[0..<3])
    case "san fra": return [Self.airports[0]]
    case "new": return Array(Self.airports[3..<5])
    default: return Self.airports.filter { $0.iata.lowercased() == query.lowercased() }
    }
  }

  func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
    lock.withLock { requests.append(request) }
    guard request.destination == "JFK" else { return [] }
    let offers = Self.offers(on: request.departureDate, adults: request.adults, cabin: request.cabin)
      .filter { $0.maxStopsPerDirection <= request.maxStops }
    guard let back = request.returnDate else { return offers.served(for: request) }
    // Round trips: each outbound with the evening UA flight home.
    let home = Self.offer(
      back, [("UA", 1479, "JFK", "SFO", 18, 0, 390, "757")], fare: 0, adults: request.adults, cabin: request.cabin)
    return offers.map { offer in
      var trip = offer
      trip.itineraries.append(home.outbound)
      trip.perPassenger.fare = trip.perPassenger.fare + Money(amount: 200, currency: "USD")
      trip.id.directions.append(home.id.directions[0])
      trip.id.quotedTotal = trip.fare.total
      return trip
    }.served(for: request)
  }

  func offer(_ id: FlightOfferID) throws -> FlightOffer {
    let base = Self.offers(on: id.flights[0].date, adults: id.adults, cabin: id.cabin)
    guard var offer = base.first(where: { $0.id.flights == id.flights }) else {
      throw ServiceError.invalid("offer_expired", "the offer has expired: search again")
    }
    let taxes = offer.perPassenger.taxesAndFees
    offer.perPassenger = FareBreakdown(
      fare: Money(amount: id.quotedTotal.amount / Decimal(id.adults), currency: "USD") - taxes, taxesAndFees: taxes)
    offer.id = id
    return offer
  }

  static let zones = [
    "SFO": TimeZone(identifier: "America/Los_Angeles")!, "ORD": TimeZone(identifier: "America/Chicago")!,
    "JFK": TimeZone(identifier: "America/New_York")!,
  ]

  /// Legs: carrier, number, from, to, departure hour and minute (local), minutes in the air,
  /// aircraft; each leg after the first leaves `layover` minutes after the previous arrives.
  static func offer(
    _ day: LocalDate, _ legs: [(String, Int, String, String, Int, Int, Int, String)], layover: Int = 0,
    fare: Decimal, adults: Int, cabin: Cabin
  ) -> FlightOffer {
    var segments: [FlightSegment] = []
    var next: Date?
    for (carrier, number, from, to, hour, minute, minutes, aircraft) in legs {
      let departure = next ?? day.instant(hour: hour, minute: minute, in: zones[from]!)
      let arrival = departure.addingTimeInterval(Double(minutes) * 60)
      segments.append(
        FlightSegment(
          flight: Flight(carrier: carrier, number: number), from: from, to: to,
          departure: AirportTime(instant: departure, timeZone: zones[from]!),
          arrival: AirportTime(instant: arrival, timeZone: zones[to]!), aircraft: aircraft,
          aircraftName: aircraft == "738" ? "Boeing 737-800" : nil))
      next = arrival.addingTimeInterval(Double(layover) * 60)
    }
    let perPassenger = FareBreakdown(
      fare: Money(amount: fare, currency: "USD"), taxesAndFees: Money(amount: 31, currency: "USD"))
    let id = FlightOfferID(
      cabin: cabin, adults: adults, directions: [segments.map { DatedFlight(flight: $0.flight, date: day) }],
      quotedTotal: perPassenger.times(adults).total, signature: OfferSignature.example)
    return FlightOffer(
      id: id, cabin: cabin, adults: adults, itineraries: [Itinerary(segments: segments)], perPassenger: perPassenger,
      seatsAvailable: 9)
  }

  static func offers(on day: LocalDate, adults: Int, cabin: Cabin) -> [FlightOffer] {
    [
      offer(day, [("UA", 1478, "SFO", "JFK", 8, 5, 335, "757")], fare: 320, adults: adults, cabin: cabin),
      offer(day, [("AA", 20, "SFO", "JFK", 11, 0, 330, "321")], fare: 358, adults: adults, cabin: cabin),
      offer(
        day, [("DL", 1200, "SFO", "ORD", 7, 0, 250, "738"), ("DL", 881, "ORD", "JFK", 0, 0, 135, "738")],
        layover: 80, fare: 258, adults: adults, cabin: cabin),
      offer(day, [("B6", 916, "SFO", "JFK", 22, 30, 325, "320")], fare: 268, adults: adults, cabin: cabin),
    ]
  }
}
