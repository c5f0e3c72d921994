import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Hotel

/// The hotel screens, driven by keys through the shell and the test backend (80 × 24), with
/// answers sent by hand (``ControlledHotelClient``) and time moved by `DispatchQueue.test`.
@MainActor
@Suite struct HotelScreenSnapshotTests {
  let scheduler = DispatchQueue.test
  let remote = ControlledHotelClient()
  let account = MemoryBookingAccount(signedIn: false)
  let backend = TestBackend(width: 80, height: 24)
  static let today = TravelToday(LocalDate("2026-12-01")!)
  let session: AccountSession

  init() {
    session = AccountSession(
      account: account.account, mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler())
  }

  var environment: HotelScreenEnvironment {
    HotelScreenEnvironment(
      client: remote.client, session: session, scheduler: scheduler.eraseToAnyScheduler(),
      backgroundScheduler: scheduler.eraseToAnyScheduler(), today: Self.today)
  }

  func app(_ root: any Screen) -> InteractiveApp {
    InteractiveApp(name: "hotel", tabs: [AppTab("Hotels", root: root)], backend: backend, schedule: { $0() })
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

  /// The search form filled in: Paris picked from the suggestions, 20–23 December, 3 guests.
  func filledForm() -> (InteractiveApp, HotelSearchScreen) {
    let screen = HotelSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "Par")
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    remote.answer("suggest Par", [HotelTestData.city("Paris"), HotelTestData.city("Parma", population: 200_000)])
    scheduler.advance()
    press(app, [.enter])  // Paris, highlighted first; focus moves to the calendar
    press(app, [.down, .down] + Array(repeating: .right, count: 5) + [.enter])  // 20 December
    press(app, [.right, .right, .right, .enter])  // 23 December
    press(app, [.tab, .character("+")])
    return (app, screen)
  }

  @Test func searchForm_empty() throws {
    let app = app(HotelSearchScreen(environment: environment))
    try assertSnapshot(frame(app), named: "search-empty")
  }

  @Test func searchForm_suggestionsAsYouType() throws {
    let app = app(HotelSearchScreen(environment: environment))
    type(app, "Par")
    #expect(remote.calls.isEmpty)  // debounced
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    #expect(remote.calls == ["suggest Par"])
    remote.answer("suggest Par", [HotelTestData.city("Paris"), HotelTestData.city("Parma", population: 200_000)])
    scheduler.advance()
    try assertSnapshot(frame(app), named: "search-suggestions")  // Paris highlighted: what Enter takes
    #expect(app.footerHints.contains(KeyHint("Enter Tab", "take place")))
  }

  /// Types "Par" and answers with Paris and Parma.
  func suggested() -> (InteractiveApp, HotelSearchScreen) {
    let screen = HotelSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "Par")
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    remote.answer("suggest Par", [HotelTestData.city("Paris"), HotelTestData.city("Parma", population: 200_000)])
    scheduler.advance()
    return (app, screen)
  }

  @Test func place_downThenTab_takesTheSecondSuggestion() {
    let (app, screen) = suggested()
    press(app, [.down, .tab])
    #expect(screen.place.text == "Parma")
    #expect(screen.focus == .dates)
  }

  @Test func place_escClosesTheList_enterKeepsTheText_secondEscLeavesTheField() {
    let (app, screen) = suggested()
    press(app, [.escape])
    #expect(screen.isEditingText)
    #expect(!frame(app).contains("Parma"))
    press(app, [.escape])
    #expect(!screen.isEditingText)  // q quits, digits switch tabs
    press(app, [.enter])  // back into the field
    #expect(screen.isEditingText)
    press(app, [.enter])  // the list closed: the typed text stays
    #expect(screen.place.text == "Par")
    #expect(screen.focus == .dates)
  }

  @Test func place_whileLoading_enterNeverTakesAListForAnOlderText_butWaitsForTheNewOne() throws {
    let (app, screen) = suggested()
    type(app, "is")  // "Paris": the list still answers "Par"
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    try assertSnapshot(frame(app), named: "search-suggestions-stale")
    press(app, [.enter])  // moves on; the place waits for the answer to "Paris"
    #expect(screen.place.isAwaitingAnswer)
    #expect(screen.focus == .dates)
    remote.answer("suggest Paris", [HotelTestData.city("Paris")])
    scheduler.advance()
    #expect(screen.place.text == "Paris")
    #expect(screen.autocomplete.selectedQuery == "Paris")
    #expect(screen.focus == .dates)
  }

  // MARK: Enter before the suggestions (pending accept)

  /// "Par" and Enter at once: the focus moves on, the field waits (a spinner), then takes Paris when it
  /// arrives.
  @Test func place_enterBeforeTheSuggestions_takesTheFirstWhenTheyArrive() throws {
    let screen = HotelSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "Par")
    press(app, [.enter])
    #expect(screen.place.isAwaitingAnswer)
    #expect(screen.isAnimating)
    try assertSnapshot(frame(app), named: "search-pending")
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    remote.answer("suggest Par", [HotelTestData.city("Paris"), HotelTestData.city("Parma", population: 200_000)])
    scheduler.advance()
    #expect(screen.place.text == "Paris")
    #expect(screen.focus == .dates)
  }

  @Test func place_pending_typingCancels_emptyAnswerKeepsTheText() {
    let screen = HotelSearchScreen(environment: environment)
    let app = app(screen)
    type(app, "Par")
    press(app, [.enter])
    #expect(screen.focus == .dates)
    press(app, [.backTab])
    type(app, "x")  // back in the place, typing again: no longer waiting
    #expect(!screen.place.isAwaitingAnswer)
    press(app, [.enter])  // waits for "Parx"
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    remote.answer("suggest Parx", [PlaceSuggestion]())
    scheduler.advance()
    #expect(screen.place.text == "Parx")
    #expect(screen.focus == .dates)
  }

  @Test func searchForm_filled() throws {
    let (app, screen) = filledForm()
    #expect(screen.place.text == "Paris")
    #expect(screen.calendar.range.map { "\($0.start)…\($0.end)" } == "2026-12-20…2026-12-23")
    #expect(screen.form.isSearchEnabled)
    try assertSnapshot(frame(app), named: "search-filled")
  }

  @Test func search_opensResults_loadingThenLoaded_sortAndFilter() throws {
    let (app, _) = filledForm()
    press(app, [.tab, .tab, .enter])
    #expect(remote.calls.last == "search Paris")
    #expect(app.currentStack.count == 2)
    try assertSnapshot(frame(app), named: "results-loading")
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    try assertSnapshot(frame(app), named: "results")
    press(app, [.character("s"), .character("f")])  // by distance, 3 stars and up
    try assertSnapshot(frame(app), named: "results-distance-3stars")
  }

  func resultsScreen() -> (InteractiveApp, HotelResultsScreen) {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(HotelTestData.request)
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    let screen = HotelResultsScreen(model: model, request: HotelTestData.request, environment: environment)
    return (app(screen), screen)
  }

  @Test func details_spinnerUntilLoaded_thenRooms() throws {
    let (app, _) = resultsScreen()
    press(app, [.enter])  // B, the cheapest
    #expect(remote.calls.suffix(2) == ["details h1-2", "rooms h1-2"])
    #expect(app.currentScreen.isAnimating)
    try assertSnapshot(frame(app), named: "details-loading")
    remote.answer(
      "details h1-2",
      HotelDetails(
        hotelId: "h1-2", description: "Near the river, five minutes from the Louvre.",
        reviews: [HotelReview(author: "Ada", score: 9, text: "Quiet and clean.", date: LocalDate("2026-10-01")!)]))
    remote.answer(
      "rooms h1-2",
      [
        FakeHotelService.offer(hotelId: "h1-2", name: "B", nightly: 80),
        FakeHotelService.offer(hotelId: "h1-2", name: "B", roomType: .suite, nightly: 220),
      ])
    scheduler.advance()
    #expect(!app.currentScreen.isAnimating)
    try assertSnapshot(frame(app), named: "details")
  }

  /// QA at 120×40 (Oslo): a long currency's prices (`NOK 40,738.50`) are never cut in the results
  /// and the rooms, the name column gives way; here at 80×24, where they are tightest.
  @Test func longCurrencyPrices_areNeverCut_inResultsAndRooms() throws {
    let request = HotelSearchRequest(
      place: "Oslo", checkIn: LocalDate("2026-12-20")!, checkOut: LocalDate("2026-12-23")!, guests: 2)
    let offers = [
      FakeHotelService.offer(
        hotelId: "h1-1", name: "Grand Hotel Continental Oslo Sentrum og Aker Brygge", nightly: 3_779, currency: "NOK"),
      FakeHotelService.offer(hotelId: "h1-2", name: "Fjord", roomType: .suite, nightly: 12_345, currency: "NOK"),
    ]
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(request)
    remote.answer(
      "search Oslo", HotelSearchResult(center: FakeHotelService.center, radiusKm: 10, offers: offers, matched: 2))
    scheduler.advance()
    let app = app(HotelResultsScreen(model: model, request: request, environment: environment))
    let results = frame(app)
    try assertSnapshot(results, named: "results-nok")
    #expect(results.contains("12,345.00") && results.contains("40,738.50"))
    press(app, [.enter])
    remote.answer("details h1-1", HotelTestData.details)
    remote.answer(
      "rooms h1-1",
      offers.map {
        FakeHotelService.offer(hotelId: "h1-1", roomType: $0.roomType, nightly: $0.nightlyRate.amount, currency: "NOK")
      })
    scheduler.advance()
    let rooms = frame(app)
    try assertSnapshot(rooms, named: "details-nok")
    #expect(rooms.contains("12,345.00") && rooms.contains("40,738.50"))
  }

  /// The cancellation policy wraps onto a second row rather than losing its end (the first-night
  /// charge).
  @Test func booking_longCancellationPolicy_wraps() throws {
    let offer = FakeHotelService.offer(name: "Fjord", nightly: 12_345, currency: "NOK")
    let screen = bookingScreen(offer, account: MemoryBookingAccount(signedIn: true))
    let app = app(screen)
    let text = frame(app)
    try assertSnapshot(text, named: "booking-nok")
    let policy = screen.model.cancellationPolicy
    #expect(DisplayWidth.of(policy) > 80)
    #expect(policy.hasSuffix("charged."))
    #expect(text.contains("charged."))  // its end is on screen
  }

  /// A booking screen over `account`, its checkout read.
  func bookingScreen(_ offer: HotelOffer, account: MemoryBookingAccount, key: String = "k1") -> HotelBookingScreen {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: key)
    let checkout = CheckoutSection(
      account: account.account, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
    scheduler.run()
    return HotelBookingScreen(offer: offer, model: model, checkout: checkout)
  }

  @Test func booking_priceBreakdown_thenConfirmation() throws {
    let offer = FakeHotelService.offer()
    let screen = bookingScreen(offer, account: MemoryBookingAccount(signedIn: true))
    let app = app(screen)
    type(app, "Ada Lovelace")
    #expect(screen.model.isBookEnabled)
    try assertSnapshot(frame(app), named: "booking")
    press(app, [.enter])
    let call = "book \(offer.id) Ada Lovelace k1 card card_visa"
    #expect(remote.calls == [call])
    remote.answer(
      call,
      Reservation(
        id: "res_1", kind: .hotel, status: .confirmed, total: offer.total, createdAt: Date(timeIntervalSince1970: 0),
        summary: "Quiet Harbour Hotel, 2026-12-20 → 2026-12-23", locator: "ABC123"))
    scheduler.advance()
    try assertSnapshot(frame(app), named: "booking-confirmed")
  }

  /// #14: an empty guest name got no message at all: Enter (Book) now says what is missing, and
  /// the message follows the typing.
  @Test func booking_emptyGuestName_saysSo() throws {
    let offer = FakeHotelService.offer()
    let screen = bookingScreen(offer, account: MemoryBookingAccount(signedIn: true))
    let app = app(screen)
    press(app, [.enter])
    var text = frame(app)
    #expect(text.contains("The guest's name is missing"))
    try assertSnapshot(text, named: "booking-empty-name")
    type(app, "2")  // the message follows the typing
    #expect(frame(app).contains("The guest's name \"2\" contains \"2\", which is not a letter"))
    press(app, [.backspace])
    type(app, "Ada Lovelace")
    text = frame(app)
    #expect(!text.contains("The guest's name"))
    #expect(remote.calls.isEmpty)
  }

  /// #14: the line under the search form follows the focus: how to fill the focused part in, or
  /// what is wrong with it.
  @Test func searchForm_hintLineFollowsTheFocus() throws {
    let (app, screen) = filledForm()  // focus on Guests
    #expect(screen.hintLine.0.hasPrefix("← → or - + change it"))
    press(app, [.backTab])  // the calendar
    #expect(screen.hintLine.0.hasPrefix("In the calendar: Enter on the check-in day"))
    press(app, [.enter] + Array(repeating: .pageDown, count: 2) + [.enter])  // a stay of two months
    #expect(screen.hintLine == ("A stay is at most 30 nights.", true))
    press(app, [.tab, .tab, .tab])  // Search
    #expect(screen.hintLine == ("A stay is at most 30 nights.", true))
    press(app, [.backTab, .backTab, .backTab, .backTab])  // the place
    #expect(screen.hintLine.0.hasPrefix("A city or an airport"))
  }

  /// Not signed in: Book opens the sign-in sheet; after signing in the booking shows the default
  /// card; → chooses the Mastercard, which is the card booked.
  @Test func booking_signedOut_signInSheet_thenTheChosenCardIsBooked() throws {
    let offer = FakeHotelService.offer()
    let screen = bookingScreen(offer, account: account)
    let app = app(screen)
    type(app, "Ada Lovelace")
    try assertSnapshot(frame(app), named: "booking-signed-out")
    press(app, [.enter])
    #expect(app.currentScreen is SignInSheetScreen)
    #expect(remote.calls.isEmpty)
    type(app, "ada@example.com")
    press(app, [.enter])
    type(app, "correct horse")
    press(app, [.enter])
    scheduler.run()
    #expect(app.currentScreen === screen)
    #expect(screen.checkout.selectedCardId == "card_visa")
    press(app, [.tab, .right])
    try assertSnapshot(frame(app), named: "booking-card-chosen")
    press(app, [.enter])
    #expect(remote.calls == ["book \(offer.id) Ada Lovelace k1 card card_mc"])
  }

  /// A declined card: the app's words (← → another card), naming the card; not the command line's.
  @Test func booking_cardDeclined_inTheAppsWords() throws {
    let offer = FakeHotelService.offer()
    let screen = bookingScreen(offer, account: MemoryBookingAccount(signedIn: true))
    let app = app(screen)
    type(app, "Ada Lovelace")
    press(app, [.enter])
    remote.fail(
      "book \(offer.id) Ada Lovelace k1 card card_visa",
      .refused(
        "card_declined", "the card Visa •••• 4242 was declined: nothing was booked; use another card with --card ID"),
      as: Reservation.self)
    scheduler.run()
    #expect(screen.model.failure?.code == "card_declined")
    try assertSnapshot(frame(app), named: "booking-card-declined")
    #expect(
      screen.failureText
        == "The card Visa •••• 4242 was declined: nothing was booked. Choose another card (← →) and book again.")
    #expect(!frame(app).contains("--card"))
    press(app, [.tab, .right])  // another card: the declined one's message is gone
    #expect(screen.checkout.selectedCardId == "card_mc")
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("declined"))
  }

  /// The session ended before Book: the booking fails, the checkout reads the account again and
  /// is signed out, so the next Enter opens the sign-in sheet.
  @Test func booking_sessionEnded_nextBookOpensTheSignInSheet() throws {
    let offer = FakeHotelService.offer()
    let account = MemoryBookingAccount(signedIn: true)
    let screen = bookingScreen(offer, account: account)
    let app = app(screen)
    type(app, "Ada Lovelace")
    account.signOut()
    press(app, [.enter])
    remote.fail("book \(offer.id) Ada Lovelace k1 card card_visa", .notSignedIn, as: Reservation.self)
    scheduler.run()
    #expect(screen.checkout.model.payer == .signedOut)
    #expect(screen.failureText == "You are signed out: nothing was booked. Press Enter to sign in, then book again.")
    #expect(frame(app).contains("You are signed out: nothing was booked."))
    #expect(!frame(app).contains("account login"))
    press(app, [.enter])
    #expect(app.currentScreen is SignInSheetScreen)
    try assertSnapshot(frame(app), named: "booking-sign-in-sheet")
    // Signed in from the sheet: back on the booking, and the failure line went with its cause.
    type(app, MemoryBookingAccount.email)
    press(app, [.tab])
    type(app, MemoryBookingAccount.password)
    press(app, [.enter])
    scheduler.run()
    #expect(app.currentScreen === screen)
    #expect(screen.failureText == nil)
    #expect(!frame(app).contains("signed out"))
  }

  /// Issue #21: `m` draws the search's results over the world (land, shores, place names),
  /// fitted to them; `0` shows the world, where the results are one cluster at Paris. Nothing is
  /// asked of the service: the map draws the results the list has.
  @Test func map_showsTheResults_overTheWorld() throws {
    let (app, _) = resultsScreen()
    press(app, [.character("m")])
    try assertSnapshot(frame(app), named: "map")
    #expect(frame(app).contains("Paris"))
    press(app, [.character("-"), .character("-")])
    try assertSnapshot(frame(app), named: "map-zoomed-out")
    press(app, [.character("0")])
    try assertSnapshot(frame(app), named: "map-world")
    #expect(frame(app).contains("3 shown"))
    #expect(!remote.calls.contains { $0.hasPrefix("map ") })
  }

  @Test func factory_mountsTheSearchForm() {
    let root = HotelScreens.root(
      client: remote.client, session: session, scheduler: scheduler.eraseToAnyScheduler(),
      backgroundScheduler: scheduler.eraseToAnyScheduler(), today: Self.today)
    #expect(root is HotelSearchScreen)
    #expect(root.title == "Hotels")
  }
}
