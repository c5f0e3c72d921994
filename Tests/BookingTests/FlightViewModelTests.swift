import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Booking

/// The flight view models, headless: stub services, test schedulers, one recorder per output.
@Suite struct FlightViewModelTests {
  let main = DispatchQueue.test
  let background = DispatchQueue.test
  let flights = ScriptedFlights()

  func environment(
    booking: (any FlightBooking)? = nil, currency: @escaping @Sendable () -> String? = { nil }
  ) -> FlightsViewEnvironment {
    FlightsViewEnvironment(
      flights: flights, booking: booking, token: { "token" }, currency: currency,
      mainQueue: main.eraseToAnyScheduler(), backgroundQueue: background.eraseToAnyScheduler())
  }

  func settle() {
    for _ in 0..<3 {
      background.run()
      main.run()
    }
  }

  // MARK: Rows

  /// A round trip's row gives each direction its own stops and duration, outbound first; the two
  /// directions' connections are never listed together ("2 stops via BOS, BOS") nor their
  /// durations added into one.
  @Test func roundTripRow_showsStopsAndDurationPerDirection() {
    let day = StubFlights.day(30)
    let outbound = ScriptedFlights.offer(
      day, [("LH", 778, "FRA", "SIN", 600), ("LH", 1, "SIN", "SYD", 450)], layover: 120, price: 1000)
    let back = ScriptedFlights.offer(day.adding(days: 7), [("QF", 5, "SYD", "FRA", 1000)], layover: 0, price: 1000)
    var roundTrip = outbound
    roundTrip.itineraries.append(back.outbound)
    let row = FlightOfferRow(roundTrip, environment: environment())
    #expect(row.stops == ["1 stop via SIN", "nonstop"])
    #expect(row.duration == ["19h 30m", "16h 40m"])
    let oneWay = FlightOfferRow(outbound, environment: environment())
    #expect(oneWay.stops == ["1 stop via SIN"])
    #expect(oneWay.duration == ["19h 30m"])
  }

  // MARK: Autocomplete

  @Test func suggestions_waitForTypingToPause_andAskOncePerText() {
    let model = AirportAutocompleteViewModel(environment: environment())
    let suggestions = model.$suggestions.record()
    model.textChanged("z")
    main.advance(by: .milliseconds(100))
    model.textChanged("zu")
    main.advance(by: .milliseconds(299))
    #expect(suggestions.values.map { $0.map(\.iata) } == [[]])
    main.advance(by: .milliseconds(1))
    settle()
    #expect(suggestions.values.map { $0.map(\.iata) } == [[], ["ZUH"]])
    // The same text again (typed and erased) asks nothing new.
    model.textChanged("zur")
    model.textChanged("zu")
    main.advance(by: .milliseconds(300))
    settle()
    #expect(flights.queries == ["zu"])
  }

  @Test func suggestions_afterAPick_theSameTextAsksAgain() throws {
    let model = AirportAutocompleteViewModel(environment: environment())
    model.textChanged("zu")
    main.advance(by: .milliseconds(300))
    settle()
    model.suggestionSelected(try #require(model.suggestions.first))
    #expect(model.text == "ZUH" && model.suggestions.isEmpty)
    // Erased and typed again faster than the pause: the same text, but the list was cleared.
    model.textChanged("")
    model.textChanged("zu")
    main.advance(by: .milliseconds(300))
    settle()
    #expect(flights.queries == ["zu", "zu"])
    #expect(model.suggestions.map(\.iata) == ["ZUH"] && model.suggestionsQuery == "zu")
  }

  @Test func suggestions_staleAnswerIsDropped() {
    let model = AirportAutocompleteViewModel(environment: environment())
    let suggestions = model.$suggestions.record()
    model.textChanged("zu")
    main.advance(by: .milliseconds(300))  // asks for "zu"; the answer is still on the background queue
    model.textChanged("zur")
    main.advance(by: .milliseconds(300))  // asks for "zur"
    settle()
    #expect(suggestions.values.map { $0.map(\.iata) } == [[], ["ZRH"]])
  }

  @Test func suggestionsQuery_namesTheTextTheListAnswers() {
    let model = AirportAutocompleteViewModel(environment: environment())
    let queries = model.$suggestionsQuery.record()
    model.textChanged("zu")
    main.advance(by: .milliseconds(300))
    model.textChanged("zur ")  // asked as "zur"; the answer for "zu" is dropped
    main.advance(by: .milliseconds(300))
    settle()
    #expect(queries.values == [nil, "zur"])
    #expect(model.suggestions.map(\.iata) == ["ZRH"])
  }

  @Test func suggestions_errorsAreShown() {
    let model = AirportAutocompleteViewModel(environment: environment())
    let errors = model.$errorMessage.record()
    model.textChanged("broken")
    main.advance(by: .milliseconds(300))
    settle()
    #expect(errors.values.last == "The airport index is unavailable")
    model.textChanged("zur")
    main.advance(by: .milliseconds(300))
    settle()
    #expect(errors.values.last == .some(nil))
    #expect(model.suggestions.map(\.iata) == ["ZRH"])
  }

  // MARK: Search form and results

  @Test func searchEnabled_onlyForAValidForm() {
    let model = FlightSearchViewModel(environment: environment())
    let enabled = model.$isSearchEnabled.record()
    let message = model.$validationMessage.record()
    model.origin.textChanged("SFO")
    model.destination.textChanged("sfo")
    #expect(message.values.last??.contains("same place") == true)
    model.destination.textChanged("JFK")
    model.departureDateChanged("2026-02-30")
    #expect(message.values.last??.contains("2026-02-30") == true)
    model.departureDateChanged(StubFlights.day(30).description)
    model.returnDateChanged(StubFlights.day(20).description)
    #expect(message.values.last??.contains("before the departure") == true)
    model.returnDateChanged("")
    #expect(enabled.values.last == true)
    #expect(message.values.last == .some(nil))
  }

  @Test func validationMessage_emptyDepartureAsksForIt_typedOneSaysWhatIsAccepted() {
    let model = FlightSearchViewModel(environment: environment())
    model.origin.textChanged("SFO")
    model.destination.textChanged("JFK")
    #expect(model.validationMessage == "Enter a departure date (YYYY-MM-DD, or Enter for the calendar).")
    model.departureDateChanged("2026-12")
    #expect(
      model.validationMessage
        == "The departure date \"2026-12\" is not a date: type YYYY-MM-DD, like 2026-12-20, or press Enter for the "
        + "calendar.")
    #expect(model.problems[.depart] == model.validationMessage)
    model.departureDateChanged(" ")
    #expect(model.validationMessage == "Enter a departure date (YYYY-MM-DD, or Enter for the calendar).")
    #expect(!model.isSearchEnabled)
  }

  /// #14: a past departure is refused as it is typed, in the form's words — never later, on the
  /// results, with the command line's `--date`.
  @Test func pastOrFarDates_areRefusedAsTyped_inTheFormsWords() {
    let today = TravelToday(LocalDate("2026-12-01")!)
    let model = FlightSearchViewModel(environment: environment(), today: today)
    model.origin.textChanged("SFO")
    model.destination.textChanged("JFK")
    model.departureDateChanged("2026-11-30")
    #expect(
      model.problems[.depart] == "The departure date 2026-11-30 is in the past: choose today (2026-12-01) or later.")
    #expect(!model.isSearchEnabled)
    model.searchTapped()
    #expect(flights.searches.isEmpty)  // nothing asked
    model.departureDateChanged("2027-12-01")
    #expect(model.problems[.depart]?.contains("more than 330 days ahead: choose a date up to 2027-10-27") == true)
    model.departureDateChanged("2026-12-20")
    model.returnDateChanged("2026-11-20")
    #expect(model.problems[.back] == "The return date 2026-11-20 is in the past: choose today (2026-12-01) or later.")
    model.returnDateChanged("")
    #expect(model.problems.isEmpty && model.isSearchEnabled)
    for message in [model.problems[.depart], model.validationMessage].compactMap({ $0 }) {
      #expect(!message.contains("--"))
    }
  }

  /// #14 (QA 1): at 18:30 on 1 December in San Francisco (02:30 UTC on the 2nd) the form takes
  /// tonight's departure, even on a machine whose zone is UTC: the service judges the date at the
  /// origin; the form refuses only a date past at every place, naming the traveller's today.
  @Test func departureToday_westOfTheTravellersZone_isNotRefusedByTheForm() throws {
    let instant = try #require(ISO8601DateFormatter().date(from: "2026-12-02T02:30:00Z"))
    let today = TravelToday(at: instant, zone: .gmt)
    let model = FlightSearchViewModel(environment: environment(), today: today)
    model.origin.textChanged("SFO")
    model.destination.textChanged("JFK")
    model.departureDateChanged("2026-12-01")
    #expect(model.problems[.depart] == nil)
    #expect(model.isSearchEnabled)
    model.departureDateChanged("2026-11-30")
    #expect(
      model.problems[.depart] == "The departure date 2026-11-30 is in the past: choose today (2026-12-02) or later.")
  }

  /// #14: a service error reaches the screen in its words (no `--date`, no `--from`).
  @Test func serviceErrors_areWordedForTheScreen() {
    let message = ScreenText.message(
      for: .invalid("date_in_past", "--date 2026-11-30 is in the past: expected today (2026-12-01) or later"),
      fields: FlightSearchViewModel.fieldNames)
    #expect(message == "The departure date 2026-11-30 is in the past: expected today (2026-12-01) or later")
    let same = ScreenText.message(
      for: .invalid("same_place", "--from \"LON\" and --to \"LHR\" are the same place: expected two different places"),
      fields: FlightSearchViewModel.fieldNames)
    #expect(same == "From \"LON\" and To \"LHR\" are the same place: expected two different places")
  }

  @Test func results_sortAndFilterByStopsAndCarrier() {
    let model = FlightSearchViewModel(environment: environment())
    let rows = model.$rows.record()
    let searching = model.$isSearching.record()
    model.origin.textChanged("FRA")
    model.destination.textChanged("SYD")
    model.departureDateChanged(StubFlights.day(30).description)
    model.searchTapped()
    settle()
    #expect(searching.values == [false, true, false])
    #expect(rows.values.last?.map(\.offer.outbound.segments[0].flight.code) == ["LH778", "QF6", "EK46"])
    #expect(model.carriers == ["EK", "LH", "QF"])
    model.sortChanged(.duration)
    settle()
    #expect(model.rows.map(\.offer.outbound.segments[0].flight.code) == ["QF6", "LH778", "EK46"])
    model.stopsFilterChanged(0)
    settle()
    #expect(model.rows.map(\.stops) == [["nonstop"]])
    model.stopsFilterChanged(nil)
    model.carrierFilterChanged("EK")
    settle()
    #expect(model.rows.map(\.stops) == [["1 stop via DXB"]])
    #expect(model.rows.first?.price == "$1,500.00")
    #expect(model.carriers == ["EK", "LH", "QF"])  // the search's carriers, not the filtered rows'
  }

  /// #14: an empty result says why: the search names its route, date and stops; filters that hide
  /// every offer say how many they hide, and which.
  @Test func emptyResults_sayWhichConditionEmptiedThem() {
    let model = FlightSearchViewModel(environment: environment())
    model.origin.textChanged("FRA")
    model.destination.textChanged("SYD")
    model.departureDateChanged(StubFlights.day(30).description)
    model.searchTapped()
    settle()
    #expect(model.rows.count == 3 && model.emptyMessage == nil)
    model.stopsFilterChanged(0)
    model.carrierFilterChanged("EK")
    settle()
    #expect(model.rows.isEmpty)
    #expect(model.errorMessage == nil)
    #expect(
      model.emptyMessage
        == "None of the 3 offers of this search is nonstop and flown by EK: press f or c to change the filters.")
    model.carrierFilterChanged(nil)
    settle()
    #expect(model.emptyMessage == nil)
    #expect(
      FlightSearchViewModel.noFlightsMessage(
        FlightSearchRequest(origin: "SFO", destination: "LHR", departureDate: LocalDate("2026-12-20")!, maxStops: 0))
        == "No flights from SFO to LHR on 2026-12-20 nonstop: try more stops or another date.")
  }

  /// QA: an empty search names the condition that emptied it, found by asking the service (here:
  /// the cabin, as other classes are sold), in the screen's words.
  @Test func emptySearch_namesTheCabinWhenOtherClassesAreSold() {
    let model = FlightSearchViewModel(environment: environment())
    model.origin.textChanged("FRA")
    model.destination.textChanged("SYD")
    model.departureDateChanged(StubFlights.day(30).description)
    model.cabinChanged(.first)
    model.searchTapped()
    settle()
    #expect(model.rows.isEmpty)
    #expect(
      model.errorMessage
        == "No flights from FRA to SYD on \(StubFlights.day(30)) in First with at most 1 stop: First is not sold on "
        + "this route that day; Economy, Premium economy and Business are (choose another class).")
  }

  /// #14: sorting and filtering ask the service with the sort and filters in the request (so they
  /// see every offer of the search, not the first part of it), and a new search starts without them.
  @Test func filtersAskForEveryOffer_andANewSearchResetsThem() {
    let model = FlightSearchViewModel(environment: environment())
    model.origin.textChanged("FRA")
    model.destination.textChanged("SYD")
    model.departureDateChanged(StubFlights.day(30).description)
    model.maxStopsChanged(2)
    model.searchTapped()
    settle()
    #expect(flights.searches.last?.limit == FlightSearchRequest.maximumLimit)
    model.stopsFilterChanged(0)
    model.carrierFilterChanged("QF")
    model.sortChanged(.duration)
    settle()
    let filtered = flights.searches.last
    #expect(filtered?.maxStops == 0 && filtered?.carrier == "QF" && filtered?.sort == .duration)
    #expect(filtered?.limit == FlightSearchRequest.maximumLimit)
    #expect(model.rows.map(\.carriers) == ["QF"])

    model.searchTapped()  // a new search: no filters, by price
    settle()
    let fresh = flights.searches.last
    #expect(fresh?.maxStops == 2 && fresh?.carrier == nil && fresh?.sort == .price)
    #expect(model.stopsFilter == nil && model.carrierFilter == nil && model.sort == .price)
    #expect(model.rows.count == 3)
  }

  @Test func results_pricedInTheTravellersCurrency_readAtEachSearch() {
    // Nobody signed in at first; then Ada signs in (preferred currency EUR) mid-session.
    let memory = MemoryBookingAccount(currency: "EUR")
    let account = memory.account
    let model = FlightSearchViewModel(environment: environment(currency: { account.preferredCurrency() }))
    model.origin.textChanged("FRA")
    model.destination.textChanged("SYD")
    model.departureDateChanged(StubFlights.day(30).description)
    model.searchTapped()
    settle()
    #expect(flights.searches.last?.currency == nil)
    #expect(model.rows.map(\.price) == ["$1,000.00", "$1,200.00", "$1,500.00"])
    memory.signInElsewhere()
    model.searchTapped()
    settle()
    #expect(flights.searches.last?.currency == "EUR")
    // Shown as the service priced them (no conversion for display): what booking charges.
    #expect(model.rows.map(\.price) == ["€1,000.00", "€1,200.00", "€1,500.00"])
    #expect(model.rows.map(\.offer.id.quotedTotal.currencyCode) == ["EUR", "EUR", "EUR"])
  }

  @Test func results_serviceErrorsAreShown() {
    let model = FlightSearchViewModel(environment: environment())
    model.origin.textChanged("XXQ")
    model.destination.textChanged("JFK")
    model.departureDateChanged(StubFlights.day(30).description)
    model.searchTapped()
    settle()
    #expect(model.errorMessage?.contains("Unknown airport \"XXQ\"") == true)
    #expect(model.rows.isEmpty)
  }

  // MARK: Booking

  @Test func breakdown_inTheOffersCurrency_addsUp() throws {
    let offer = try StubFlights.offer(on: StubFlights.day(30), adults: 2).priced(
      fare: Money(amount: 286.43, currency: "EUR"), taxes: Money(amount: 27.75, currency: "EUR"))
    let model = FlightBookingViewModel(offer: offer, environment: environment(currency: { "JPY" }))
    #expect(model.breakdown.map(\.label) == ["Fare (2 adults, economy)", "Taxes and fees", "Total"])
    #expect(model.breakdown.map(\.amount) == ["€572.86", "€55.50", "€628.36"])
    // The calculator's amounts are the offer's own: what booking charges, nothing converted.
    #expect(model.breakdown.map(\.money) == [offer.fare.fare, offer.fare.taxesAndFees, offer.price])
    #expect(model.breakdown[0].money + model.breakdown[1].money == model.breakdown[2].money)
    #expect(model.segmentLines.first?.contains("08:05 SFO → 16:40 JFK") == true)
    let yen = try StubFlights.offer(on: StubFlights.day(30)).priced(
      fare: Money(amount: 45121, currency: "JPY"), taxes: Money(amount: 4721, currency: "JPY"))
    let inYen = FlightBookingViewModel(offer: yen, environment: environment())
    #expect(inYen.breakdown.map(\.amount) == ["¥45,121", "¥4,721", "¥49,842"])
  }

  @Test func book_needsOneValidNamePerAdult_thenBooksOnce() {
    let booking = ScriptedBooking()
    let offer = StubFlights.offer(on: StubFlights.day(30), adults: 2)
    let model = FlightBookingViewModel(offer: offer, environment: environment(booking: booking))
    let enabled = model.$isBookEnabled.record()
    model.passengerNameChanged("Ada Lovelace", at: 0)
    #expect(enabled.values.last == false)
    model.passengerNameChanged("Charles Babbage", at: 1)
    #expect(enabled.values.last == true)
    model.bookTapped()
    model.bookTapped()
    settle()
    #expect(model.reservation?.locator == "ABC123")
    #expect(booking.requests.count == 1)
    #expect(booking.requests.first?.passengers.map(\.family) == ["Lovelace", "Babbage"])
    #expect(model.isBookEnabled == false)
  }

  /// #14 Forms: Book with a missing or invalid name says which passenger and why, in the form's
  /// words, and the message follows the typing until every name is valid.
  @Test func book_withAnInvalidName_saysWhichPassengerAndWhy() {
    let booking = ScriptedBooking()
    let offer = StubFlights.offer(on: StubFlights.day(30), adults: 2)
    let model = FlightBookingViewModel(offer: offer, environment: environment(booking: booking))
    model.passengerNameChanged("Ada Lovelace", at: 0)
    model.bookTapped()
    #expect(
      model.validationMessage
        == "Passenger 2's name is missing: enter it as \"Given Family\" (or a single name), as on the passport."
    )
    #expect(model.firstInvalidPassenger == 1)
    model.passengerNameChanged("Charles 2", at: 1)
    #expect(model.validationMessage?.hasPrefix("Passenger 2's name \"Charles 2\" contains \"2\"") == true)
    #expect(model.validationMessage?.contains("--") == false)
    model.passengerNameChanged("Charles Babbage", at: 1)
    #expect(model.validationMessage == nil)
    settle()
    #expect(booking.requests.isEmpty)
  }

  @Test func book_priceChanged_showsTheNewPriceToAccept() {
    let booking = ScriptedBooking()
    booking.failure = ServiceError.refused(
      "price_changed", "the price rose",
      details: ["offerId": "FL1.Y.1.\(StubFlights.stamp(30))UA1478.USD40000.\(OfferSignature.example)"])
    let model = FlightBookingViewModel(
      offer: StubFlights.offer(on: StubFlights.day(30)), environment: environment(booking: booking))
    model.passengerNameChanged("Ada Lovelace", at: 0)
    model.bookTapped()
    settle()
    #expect(model.errorMessage == "The price rose")
    #expect(model.priceChange?.id.quotedTotal == Money(amount: 400, currency: "USD"))
    #expect(model.isBookEnabled == false)
    booking.failure = nil
    model.acceptNewPriceTapped()
    #expect(model.breakdown.last?.amount == "$400.00")
    model.bookTapped()
    settle()
    #expect(model.reservation != nil)
    #expect(booking.requests.last?.offerID.quotedTotal == Money(amount: 400, currency: "USD"))
    #expect(booking.requests.first?.idempotencyKey != booking.requests.last?.idempotencyKey)
  }

  @Test func book_chargesTheCardSelected_orTheDefaultForNil() {
    let booking = ScriptedBooking()
    let model = FlightBookingViewModel(
      offer: StubFlights.offer(on: StubFlights.day(30)), environment: environment(booking: booking))
    model.passengerNameChanged("Ada Lovelace", at: 0)
    model.cardSelected("card_2")
    model.bookTapped()
    settle()
    #expect(booking.requests.map(\.cardID) == ["card_2"])
    let other = FlightBookingViewModel(
      offer: StubFlights.offer(on: StubFlights.day(30)), environment: environment(booking: booking))
    other.passengerNameChanged("Ada Lovelace", at: 0)
    other.cardSelected("card_2")
    other.cardSelected(nil)
    other.bookTapped()
    settle()
    #expect(booking.requests.map(\.cardID) == ["card_2", nil])
  }

  @Test func book_soldOutIsShown() {
    let booking = ScriptedBooking()
    booking.failure = ServiceError.refused("sold_out", "sold out: no seats left on UA 1478")
    let model = FlightBookingViewModel(
      offer: StubFlights.offer(on: StubFlights.day(30)), environment: environment(booking: booking))
    model.passengerNameChanged("Ada Lovelace", at: 0)
    model.bookTapped()
    settle()
    #expect(model.errorMessage == "Sold out: no seats left on UA 1478")
    #expect(model.reservation == nil)
  }

  @Test func book_failure_keepsTheErrorForTheScreensWords_untilTheNextTry() {
    let booking = ScriptedBooking()
    let declined = ServiceError.refused("card_declined", "the card Visa •••• 0002 was declined: nothing was booked")
    booking.failure = declined
    let model = FlightBookingViewModel(
      offer: StubFlights.offer(on: StubFlights.day(30)), environment: environment(booking: booking))
    let failures = model.$failure.record()
    model.passengerNameChanged("Ada Lovelace", at: 0)
    model.bookTapped()
    settle()
    booking.failure = nil
    model.bookTapped()
    settle()
    #expect(failures.values == [nil, nil, declined, nil])
    #expect(model.reservation != nil)
  }
}

/// Flights for the view models: airports by query, three FRA→SYD offers, the stub's validation.
final class ScriptedFlights: FlightSearching, @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [String] = []
  private var requests: [FlightSearchRequest] = []
  var queries: [String] { lock.withLock { asked } }
  /// The searches asked, in order.
  var searches: [FlightSearchRequest] { lock.withLock { requests } }

  func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    lock.withLock { asked.append(query) }
    switch query {
    case "broken": throw ServiceError(.unavailable, code: "failed", message: "the airport index is unavailable")
    case "zu":
      return [AirportSummary(iata: "ZUH", name: "Zhuhai", city: "Zhuhai", country: "CN", timeZone: "Asia/Shanghai")]
    default:
      return [AirportSummary(iata: "ZRH", name: "Zurich", city: "Zurich", country: "CH", timeZone: "Europe/Zurich")]
    }
  }

  /// Three FRA → SYD offers, priced in the request's currency (same figures; USD when nil).
  func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
    lock.withLock { requests.append(request) }
    if request.origin == "XXQ" {
      throw ServiceError.invalid("unknown_place", "unknown airport \"XXQ\": expected an IATA code like SFO")
    }
    if request.cabin == .first { return [] }  // no First on these routes
    let day = request.departureDate
    let offers = [
      Self.offer(day, [("LH", 778, "FRA", "SIN", 600), ("LH", 1, "SIN", "SYD", 450)], layover: 120, price: 1000),
      Self.offer(day, [("QF", 6, "FRA", "SYD", 1000)], layover: 0, price: 1200),
      Self.offer(day, [("EK", 46, "FRA", "DXB", 360), ("EK", 412, "DXB", "SYD", 840)], layover: 300, price: 1500),
    ]
    guard let currency = request.currency else { return offers.served(for: request) }
    return try offers.map {
      try $0.priced(
        fare: Money(amount: $0.perPassenger.fare.amount, currency: currency),
        taxes: Money(amount: $0.perPassenger.taxesAndFees.amount, currency: currency))
    }.served(for: request)
  }

  func offer(_ id: FlightOfferID) throws -> FlightOffer {
    var offer = StubFlights.offer(on: id.flights[0].date, adults: id.adults)
    let total = id.quotedTotal.amount / Decimal(id.adults)
    offer.perPassenger = FareBreakdown(
      fare: Money(amount: total - 40, currency: "USD"), taxesAndFees: Money(amount: 40, currency: "USD"))
    offer.id = id
    return offer
  }

  static func offer(
    _ day: LocalDate, _ legs: [(String, Int, String, String, Int)], layover: Int, price: Decimal
  ) -> FlightOffer {
    let zone = TimeZone(identifier: "UTC")!
    var time = day.instant(hour: 9, in: zone)
    var segments: [FlightSegment] = []
    for (carrier, number, from, to, minutes) in legs {
      let arrival = time.addingTimeInterval(Double(minutes) * 60)
      segments.append(
        FlightSegment(
          flight: Flight(carrier: carrier, number: number), from: from, to: to,
          departure: AirportTime(instant: time, timeZone: zone), arrival: AirportTime(instant: arrival, timeZone: zone),
          aircraft: "388"))
      time = arrival.addingTimeInterval(Double(layover) * 60)
    }
    let fare = FareBreakdown(
      fare: Money(amount: price - 100, currency: "USD"), taxesAndFees: Money(amount: 100, currency: "USD"))
    let id = FlightOfferID(
      cabin: .economy, adults: 1, directions: [segments.map { DatedFlight(flight: $0.flight, date: day) }],
      quotedTotal: fare.total, signature: OfferSignature.example)
    return FlightOffer(
      id: id, cabin: .economy, adults: 1, itineraries: [Itinerary(segments: segments)], perPassenger: fare,
      seatsAvailable: 9)
  }
}

/// Booking double: records requests, fails with `failure` when set.
final class ScriptedBooking: FlightBooking, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [FlightBookingRequest] = []
  private var scriptedFailure: ServiceError?
  var requests: [FlightBookingRequest] { lock.withLock { recorded } }
  var failure: ServiceError? {
    get { lock.withLock { scriptedFailure } }
    set { lock.withLock { scriptedFailure = newValue } }
  }

  func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    lock.withLock { recorded.append(request) }
    if let failure { throw failure }
    return Reservation(
      id: "res_1", kind: .flight, status: .confirmed, total: request.offerID.quotedTotal, createdAt: Date(),
      summary: "SFO → JFK", locator: "ABC123")
  }
}

extension StubFlights {
  /// `YYYYMMDD` of ``day(_:)``.
  static func stamp(_ offset: Int) -> String {
    let date = day(offset)
    return String(format: "%04d%02d%02d", date.year, date.month, date.day)
  }
}

extension FlightOffer {
  /// The same flights at `fare` and `taxes` per passenger (one currency), the id quoting the total.
  func priced(fare: Money, taxes: Money) throws -> FlightOffer {
    var offer = self
    offer.perPassenger = FareBreakdown(fare: fare, taxesAndFees: taxes)
    offer.id = try FlightOfferID(
      parsing: FlightOfferID(
        cabin: cabin, adults: adults, directions: id.directions, quotedTotal: offer.perPassenger.times(adults).total,
        signature: OfferSignature.example
      ).description)
    return offer
  }
}
