import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import CarRental

/// The view models, headless: a stub service, `DispatchQueue.test` for both queues, a recorder per output.
@Suite struct CarRentalViewModelTests {
  let scheduler = DispatchQueue.test

  func environment(_ service: CarRentalService = ScriptedCarService()) -> CarRentalViewEnvironment {
    CarRentalViewEnvironment(
      service: service, mainQueue: scheduler.eraseToAnyScheduler(), backgroundQueue: scheduler.eraseToAnyScheduler())
  }

  @Test func placeSuggestions_waitForTypingToPause() {
    let model = CarSearchViewModel(environment: environment())
    let suggestions = model.$placeSuggestions.record()
    model.pickupTextChanged("L")
    scheduler.advance(by: .milliseconds(100))
    model.pickupTextChanged("LA")
    scheduler.advance(by: .milliseconds(299))
    #expect(suggestions.values.map { $0.map(\.code) } == [[]])
    scheduler.advance(by: .milliseconds(1))
    scheduler.run()
    #expect(suggestions.values.map { $0.map(\.code) } == [[], ["LAX"]])
  }

  @Test func placeSuggestionsQuery_namesTheTextTheListAnswers() {
    let model = CarSearchViewModel(environment: environment())
    let queries = model.$placeSuggestionsQuery.record()
    model.pickupTextChanged(" la ")
    scheduler.advance(by: CarSearchViewModel.autocompleteDelay)
    scheduler.run()
    #expect(queries.values == [nil, "la"])  // trimmed, as asked
    #expect(model.placeSuggestions.map(\.code) == ["LAX"])
  }

  @Test func searchEnabled_onlyForAValidForm_withAClearMessage() {
    let model = CarSearchViewModel(environment: environment())
    let enabled = model.$isSearchEnabled.record()
    let message = model.$validationMessage.record()
    model.pickupTextChanged("LAX")
    model.pickupDateTimeChanged("2026-12-20T10:00")
    model.dropoffDateTimeChanged("2026-12-20T09:00")
    #expect(message.values.last??.contains("after the pick-up") == true)
    model.dropoffDateTimeChanged("2026-12-27T10:00")
    model.classPatternChanged("C**")
    #expect(
      message.values.last
        == "Invalid class \"C**\": expected four characters, each an ACRISS letter for its position or * (e.g. C***, *DAR, ECMR)"
    )
    model.classPatternChanged("C***")
    #expect(enabled.values.last == true)
    #expect(message.values.last == .some(nil))
  }

  @Test func validationMessage_emptyTimesAskForThem_typedOnesSayWhatIsAccepted() {
    let model = CarSearchViewModel(environment: environment())
    let message = model.$validationMessage.record()
    model.pickupTextChanged("LAX")
    model.pickupDateTimeChanged("2026-12-20")
    model.pickupDateTimeChanged("2026-12-20T10:00")
    model.dropoffDateTimeChanged(" ")
    model.dropoffDateTimeChanged("2026-12-27T10:00")
    // In the form's words: the calendar, never an option name or the command line's `T`.
    #expect(
      message.values == [
        "Enter a pick-up airport or city (LAX, Paris).",
        "Choose the pick-up date and time: Enter opens the calendar (local time at the desk).",
        "The pick-up \"2026-12-20\" is not a date and time: type YYYY-MM-DD HH:MM, or press Enter for the calendar.",
        "Choose the drop-off date and time: Enter opens the calendar (local time at the desk).",
        "Choose the drop-off date and time: Enter opens the calendar (local time at the desk).",
        nil,
      ])
  }

  /// #14 (QA 1): at 18:30 on 1 December at LAX (02:30 UTC on the 2nd) tonight's pick-up is taken
  /// by the form even on a machine whose zone is UTC (the service judges it at the desk); "today"
  /// is the app clock's (`--clock-start`), not the machine's.
  @Test func pickupTonight_westOfTheTravellersZone_followsTheAppClock() throws {
    let start = try #require(ISO8601DateFormatter().date(from: "2026-12-02T02:30:00Z"))
    let today = TravelToday(clock: TravelClock(start: start), zone: .gmt)
    let model = CarSearchViewModel(environment: environment(), today: today)
    model.pickupTextChanged("LAX")
    model.pickupDateTimeChanged("2026-12-01 20:00")
    model.dropoffDateTimeChanged("2026-12-03 20:00")
    #expect(model.problems.isEmpty)
    #expect(model.isSearchEnabled)
    model.pickupDateTimeChanged("2026-11-30 20:00")
    #expect(
      model.problems[.pickup] == "The pick-up 2026-11-30 20:00 is in the past: choose today (2026-12-02) or later.")
  }

  /// #14: "No cars are free for that period." named no condition; the message names what was
  /// searched (place, times, class, company) and what to change.
  @Test func noCars_saysWhatWasSearched_andWhatToChange() throws {
    let pickup = LocalDateTime(year: 2026, month: 12, day: 20, hour: 10, minute: 0)
    let dropoff = LocalDateTime(year: 2026, month: 12, day: 23, hour: 10, minute: 0)
    #expect(
      CarSearchViewModel.noCarsMessage(CarSearchQuery(pickupPlace: "LAX", pickup: pickup, dropoff: dropoff))
        == "No car is free at LAX from 2026-12-20 10:00 to 2026-12-23 10:00: try other times or another place.")
    let narrow = CarSearchQuery(
      pickupPlace: "LAX", pickup: pickup, dropoff: dropoff, classPattern: try ACRISSPattern("C***"), company: "hertz")
    #expect(
      CarSearchViewModel.noCarsMessage(narrow)
        == "No car is free at LAX from 2026-12-20 10:00 to 2026-12-23 10:00 in class C*** with hertz: try other "
        + "times, another class or another company.")
  }

  /// #14: a past pick-up was accepted by the form and refused by the service with an option name.
  @Test func pastPickup_isRefusedAsTyped_eachPartSaysItsOwnProblem() {
    let model = CarSearchViewModel(
      environment: environment(), today: TravelToday(LocalDate(year: 2026, month: 11, day: 30)!))
    model.pickupTextChanged("LAX")
    model.pickupDateTimeChanged("2026-11-29 10:00")
    model.dropoffDateTimeChanged("2026-11-28 10:00")
    #expect(
      model.problems[.pickup] == "The pick-up 2026-11-29 10:00 is in the past: choose today (2026-11-30) or later.")
    #expect(model.problems[.dropoff]?.hasPrefix("The drop-off 2026-11-28 10:00 is in the past") == true)
    #expect(model.problems[.place] == nil)
    #expect(!model.isSearchEnabled)
    #expect(model.validationMessage == model.problems[.pickup])
    model.pickupDateTimeChanged("2026-11-30 10:00")  // today is fine
    model.dropoffDateTimeChanged("2026-11-30 09:30")
    #expect(model.problems[.pickup] == nil)
    #expect(model.problems[.dropoff] == "The drop-off (2026-11-30 09:30) must be after the pick-up (2026-11-30 10:00).")
    model.dropoffDateTimeChanged("2026-12-02 09:30")
    #expect(model.problems.isEmpty)
    #expect(model.isSearchEnabled)
    for problem in [model.problems[.pickup], model.validationMessage].compactMap({ $0 }) {
      #expect(!problem.contains("--"))
    }
  }

  @Test func results_groupedByCategory_withTheCodeInWords() {
    let model = CarSearchViewModel(environment: environment())
    let groups = model.$groups.record()
    let searching = model.$isSearching.record()
    model.pickupTextChanged("LAX")
    model.pickupDateTimeChanged("2026-12-20T10:00")
    model.dropoffDateTimeChanged("2026-12-27T10:00")
    model.searchTapped()
    scheduler.run()
    #expect(searching.values == [false, true, false])
    let last = groups.values.last ?? []
    #expect(last.map(\.category) == ["Economy", "Compact"])
    #expect(last[1].rows.first?.description == "Compact, 4-5 door, automatic, air conditioning")
    #expect(last[1].rows.count == 2)
  }

  @Test func search_serviceError_isShown() {
    let model = CarSearchViewModel(environment: environment())
    let error = model.$errorMessage.record()
    model.pickupTextChanged("XXQ")
    model.pickupDateTimeChanged("2026-12-20T10:00")
    model.dropoffDateTimeChanged("2026-12-27T10:00")
    model.searchTapped()
    scheduler.run()
    #expect(error.values.last == "Unknown place \"XXQ\"")
  }

  @Test func companySelector_listsCompaniesOfThePlace_andLimitsTheSearch() {
    let service = ScriptedCarService()
    let model = CarSearchViewModel(environment: environment(service))
    let companies = model.companySelector.$companies.record()
    model.suggestionSelected(CarPlaceSuggestion(code: "LAX", label: "LAX"))
    scheduler.run()
    #expect(companies.values.last?.map(\.id) == ["zephyr", "orbit"])
    model.companySelector.companyTapped("orbit")
    model.pickupDateTimeChanged("2026-12-20T10:00")
    model.dropoffDateTimeChanged("2026-12-27T10:00")
    model.searchTapped()
    scheduler.run()
    #expect(service.lastQuery.value?.company == "orbit")
    #expect(model.groups.flatMap(\.rows).allSatisfy { $0.company == "Orbit" })
  }

  @Test func rates_promoApplied_lowersTheTotal() throws {
    let service = ScriptedCarService()
    let offer = ScriptedCarService.offers(promo: nil)[2]
    let model = CarRatesViewModel(offer: offer, query: ScriptedCarService.query, environment: environment(service))
    let total = model.$total.record()
    let message = model.$promoMessage.record()
    #expect(model.lines.map(\.name) == ["7 days", "Tax"])
    model.promoCodeChanged("winter10")
    model.applyPromoTapped()
    scheduler.run()
    #expect(total.values == ["$200.00", "$180.00"])
    #expect(message.values.last == "WINTER10 applied: -$20.00")
    #expect(model.lines.contains { $0.isDiscount })
  }

  @Test func rates_promoNotApplying_saysWhy_andKeepsThePrice() {
    let service = ScriptedCarService()
    let offer = ScriptedCarService.offers(promo: nil)[2]
    let model = CarRatesViewModel(offer: offer, query: ScriptedCarService.query, environment: environment(service))
    model.promoCodeChanged("ZEPHYR15")
    model.applyPromoTapped()
    scheduler.run()
    #expect(model.promoMessage == "ZEPHYR15 does not apply: ZEPHYR15 is not valid with Orbit")
    #expect(model.total == "$200.00")
    model.promoCodeChanged("OLD")
    model.applyPromoTapped()
    scheduler.run()
    #expect(model.promoMessage == "Promo code OLD expired on 2026-05-31")
  }

  @Test func booking_booksOnce_withOneIdempotencyKey() {
    let service = ScriptedCarService()
    let model = CarBookingViewModel(offerID: "car_orbit_x", environment: environment(service), idempotencyKey: "k1")
    let enabled = model.$isBookEnabled.record()
    let reservation = model.$reservation.record()
    model.driverNameChanged("Ada 2")
    model.driverNameChanged("Ada Lovelace")
    model.bookTapped()
    model.bookTapped()
    scheduler.run()
    #expect(enabled.values == [false, false, true, false, false])
    #expect(reservation.values.last??.kind == .car)
    #expect(service.bookings.value.map(\.idempotencyKey) == ["k1"])
  }

  @Test func booking_chargesTheChosenCard() {
    let service = ScriptedCarService()
    let model = CarBookingViewModel(offerID: "car_orbit_x", environment: environment(service), idempotencyKey: "k3")
    model.driverNameChanged("Ada Lovelace")
    model.cardSelected("card_mc")
    model.bookTapped()
    scheduler.run()
    #expect(service.bookings.value.map(\.cardID) == ["card_mc"])
    #expect(model.reservation != nil)
  }

  @Test func booking_failure_keepsTheErrorForTheScreensWords() {
    let model = CarBookingViewModel(
      offerID: "car_declined", environment: environment(ScriptedCarService()), idempotencyKey: "k4")
    let failures = model.$failure.record()
    model.driverNameChanged("Ada Lovelace")
    model.bookTapped()
    scheduler.run()
    #expect(failures.values.map { $0?.code } == [nil, nil, "insufficient_funds"])
    #expect(model.reservation == nil)
  }

  @Test(arguments: ["Ada 2", "1 2", "Ada \u{1B}[2JLovelace", "Ada \u{202E}ecalevoL"])
  func booking_invalidDriver_saysWhyAndBooksNothing(_ name: String) {
    let service = ScriptedCarService()
    let model = CarBookingViewModel(offerID: "car_orbit_x", environment: environment(service), idempotencyKey: "k5")
    let messages = model.$validationMessage.record()
    model.driverNameChanged(name)
    #expect(!model.isBookEnabled)
    model.bookTapped()
    scheduler.run()
    #expect(service.bookings.value.isEmpty)
    let message = messages.values.last.flatMap { $0 }
    #expect(message?.hasPrefix("The driver's name \"") == true && message?.contains("--") == false)
    #expect(message?.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } == false)
    model.driverNameChanged("Ada Lovelace")
    #expect(model.validationMessage == nil)
    model.bookTapped()
    scheduler.run()
    #expect(service.bookings.value.map(\.driverName) == ["Ada Lovelace"])
  }

  /// Signed in on the booking sheet after the quote: the service re-prices for the member (in
  /// their currency) and answers `price_changed`; the new price is shown, and only once accepted
  /// is the new offer booked.
  @Test func booking_signedInAfterTheQuote_showsTheMemberPriceBeforeCharging() {
    let service = ScriptedCarService()
    let model = CarBookingViewModel(
      offerID: "car_signed_out", environment: environment(service), idempotencyKey: "k6")
    model.driverNameChanged("Ada Lovelace")
    model.bookTapped()
    scheduler.run()
    #expect(model.reservation == nil)
    #expect(model.newPrice == Money(amount: Decimal(string: "133.62")!, currency: "EUR"))
    model.acceptNewPriceTapped()
    #expect(model.acceptedPrice == Money(amount: Decimal(string: "133.62")!, currency: "EUR"))
    model.bookTapped()
    scheduler.run()
    #expect(service.bookings.value.map(\.offerID) == ["car_signed_out", "car_member_eur"])
    #expect(model.reservation != nil)
  }

  @Test func booking_priceChanged_offersTheNewPrice() {
    let service = ScriptedCarService()
    let model = CarBookingViewModel(offerID: "car_risen", environment: environment(service), idempotencyKey: "k2")
    let price = model.$newPrice.record()
    model.driverNameChanged("Ada Lovelace")
    model.bookTapped()
    scheduler.run()
    #expect(price.values.last == .some(Money(amount: 250, currency: "USD")))
    #expect(model.errorMessage?.contains("now 250.00 USD") == true)
    model.acceptNewPriceTapped()
    #expect(model.offerID == "car_new")
    model.bookTapped()
    scheduler.run()
    #expect(model.reservation != nil)
  }
}

/// A thread-safe box for what the stub saw.
final class Box<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value { lock.withLock { stored } }
  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// A scripted service: LAX has an Economy and two Compact offers; promos WINTER10 (10 %), ZEPHYR15
/// (Zephyr only), OLD (expired); offer `car_risen` has a new price, `car_long` books with a long
/// summary. `wide`: the search answers long names, many cars and CHF prices (``wideOffers()``).
struct ScriptedCarService: CarRentalService {
  let lastQuery = Box<CarSearchQuery?>(nil)
  let bookings = Box<[CarBookingRequest]>([])
  var wide = false

  static let query = CarSearchQuery(
    pickupPlace: "LAX", pickup: LocalDateTime(year: 2026, month: 12, day: 20, hour: 10, minute: 0),
    dropoff: LocalDateTime(year: 2026, month: 12, day: 27, hour: 10, minute: 0))

  static func company(_ id: String, _ name: String) -> RentalCompany {
    RentalCompany(id: id, name: name, oneWay: OneWayPolicy(allowed: true, sameCountryOnly: true, fee: .zero("USD")))
  }

  static let location = RentalLocation(
    id: "LAX", kind: .airport, name: "Los Angeles International Airport", iata: "LAX", city: "Los Angeles",
    countryCode: "US", timeZoneIdentifier: "America/Los_Angeles")

  static func offers(promo: String?) -> [CarOffer] {
    func offer(_ company: RentalCompany, _ code: String, _ rental: Decimal) -> CarOffer {
      var lines = [
        PriceLine(kind: .rental, name: "7 days", amount: Money(amount: rental, currency: "USD")),
        PriceLine(kind: .tax, name: "Tax", amount: .zero("USD")),
      ]
      var note: String?
      if promo == "WINTER10" {
        lines.insert(
          PriceLine(kind: .promo, name: "Promo WINTER10", amount: Money(amount: -rental / 10, currency: "USD")), at: 1)
      } else if promo == "ZEPHYR15" {
        if company.id == "zephyr" {
          lines.insert(
            PriceLine(kind: .promo, name: "Promo ZEPHYR15", amount: Money(amount: -rental * 15 / 100, currency: "USD")),
            at: 1)
        } else {
          note = "ZEPHYR15 is not valid with \(company.name)"
        }
      }
      let total = lines.map(\.amount).sum(in: "USD").rounded()
      return CarOffer(
        id: "car_\(company.id)_\(code)", company: company, pickupLocation: location, dropoffLocation: location,
        pickup: query.pickup, dropoff: query.dropoff, acriss: try! ACRISSCode(code), days: 7, carsAvailable: 2,
        lines: lines, total: total, promoNote: note)
    }
    let zephyr = company("zephyr", "Zephyr")
    let orbit = company("orbit", "Orbit")
    return [offer(zephyr, "ECMR", 150), offer(zephyr, "CDAR", 180), offer(orbit, "CDAR", 200)]
  }

  /// Two offers of a company with a long name, 12 cars each, priced in CHF (`CHF 12,345.60`).
  static func wideOffers() -> [CarOffer] {
    let budget = company("budget", "Budget White Glove")
    return [("ECMR", Decimal(string: "9876.50")!), ("CDAR", Decimal(string: "12345.60")!)].map { code, rental in
      let lines = [PriceLine(kind: .rental, name: "7 days", amount: Money(amount: rental, currency: "CHF"))]
      return CarOffer(
        id: "car_budget_\(code)", company: budget, pickupLocation: location, dropoffLocation: location,
        pickup: query.pickup, dropoff: query.dropoff, acriss: try! ACRISSCode(code), days: 7, carsAvailable: 12,
        lines: lines, total: Money(amount: rental, currency: "CHF"), promoNote: nil)
    }
  }

  func search(_ query: CarSearchQuery) throws -> CarSearchResult {
    lastQuery.update { $0 = query }
    if wide, query.pickupPlace == "LAX" {
      return CarSearchResult(offers: Self.wideOffers(), notices: [], currency: "CHF")
    }
    guard query.pickupPlace == "LAX" else { throw ServiceError.invalid("unknown_place", "unknown place \"XXQ\"") }
    if let promo = query.promoCode?.uppercased(), promo == "OLD" {
      throw ServiceError.invalid("expired_promo", "promo code OLD expired on 2026-05-31")
    }
    let offers = Self.offers(promo: query.promoCode?.uppercased()).filter { offer in
      (query.company.map { $0 == offer.company.id } ?? true)
        && (query.classPattern.map { $0.matches(offer.acriss) } ?? true)
    }
    return CarSearchResult(offers: offers, notices: [], currency: "USD")
  }

  func promoCodes() throws -> [PromoCode] {
    [
      PromoCode(
        code: "WINTER10", discount: .percent(10), validFrom: "2026-11-01", validUntil: "2027-02-28", minimumDays: 3,
        companies: []),
      PromoCode(
        code: "ZEPHYR25", discount: .fixed(Money(amount: 25, currency: "USD")), validFrom: "2026-01-01",
        validUntil: "2027-12-31", minimumDays: 1, companies: ["zephyr"]),
    ]
  }

  func companies(at place: String) throws -> [CompanyAtPlace] {
    [Self.company("zephyr", "Zephyr"), Self.company("orbit", "Orbit")].map {
      CompanyAtPlace(company: $0, desks: [CompanyAtPlace.Desk(location: Self.location, hours: .allDay, fleet: [:])])
    }
  }

  func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion] {
    "LAX".hasPrefix(prefix.uppercased()) ? [CarPlaceSuggestion(code: "LAX", label: "LAX — Los Angeles")] : []
  }

  func book(_ request: CarBookingRequest) throws -> Reservation {
    bookings.update { $0.append(request) }
    if request.offerID == "car_declined" {
      throw ServiceError.refused(
        "insufficient_funds",
        "the card Visa •••• 4242 has insufficient funds: nothing was booked; use another card with --card ID")
    }
    if request.offerID == "car_session" {
      throw ServiceError(.unauthenticated, code: "session_expired", message: "your session has expired")
    }
    if request.offerID == "car_signed_out" {
      throw ServiceError.refused(
        "price_changed", "the price of this car is now €133.62 (offer car_member_eur)",
        details: ["offerId": "car_member_eur", "price": "133.62", "currency": "EUR"])
    }
    if request.offerID == "car_risen" {
      throw ServiceError.refused(
        "price_changed", "the price of this car is now 250.00 USD (offer car_new)",
        details: ["offerId": "car_new", "price": "250.00", "currency": "USD"])
    }
    let summary =
      request.offerID == "car_long"
      ? "Budget White Glove CDAR (Compact), LAX 2026-12-30T10:00 → LAX 2027-01-06T10:00" : request.offerID
    return Reservation(
      id: "res_\(bookings.value.count)", kind: .car, status: .confirmed, total: Money(amount: 200, currency: "USD"),
      createdAt: Date(timeIntervalSince1970: 0), summary: summary)
  }
}
