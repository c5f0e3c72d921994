import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Hotel

@Suite struct PlaceAutocompleteViewModelTests {
  @Test func suggestions_areDebounced_andStaleAnswersDropped() {
    let scheduler = DispatchQueue.test
    let remote = ControlledHotelClient()
    let model = PlaceAutocompleteViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    let suggestions = model.$suggestions.record()

    model.queryChanged("Pa")
    model.queryChanged("Par")
    scheduler.advance(by: .milliseconds(100))
    model.queryChanged("Pari")
    scheduler.advance(by: .milliseconds(250))
    #expect(remote.calls == ["suggest Pari"])

    model.queryChanged("Lon")
    scheduler.advance(by: .milliseconds(250))
    model.queryChanged("Lond")
    scheduler.advance(by: .milliseconds(250))
    #expect(remote.calls == ["suggest Pari", "suggest Lon", "suggest Lond"])
    // "Pari" and "Lon" were superseded: their requests are cancelled, their answers dropped.
    #expect(remote.cancellations == ["cancel suggest Pari", "cancel suggest Lon"])
    remote.answer("suggest Lon", [HotelTestData.city("Lons-le-Saunier")])
    remote.answer("suggest Lond", [HotelTestData.city("London")])
    scheduler.advance()
    #expect(suggestions.values.map { $0.map(\.query) } == [[], ["London"]])

    model.suggestionSelected(at: 0)
    #expect(model.selectedQuery == "London")
    #expect(model.suggestions.isEmpty)

    // Erased and typed again faster than the pause: the list was cleared, so it asks anew.
    model.queryChanged("")
    model.queryChanged("Lond")
    scheduler.advance(by: .milliseconds(250))
    #expect(remote.calls.last == "suggest Lond" && remote.calls.count == 4)
  }

  @Test func suggestionsQuery_namesTheTextTheListAnswers_citiesFirst() {
    let scheduler = DispatchQueue.test
    let remote = ControlledHotelClient()
    let model = PlaceAutocompleteViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    #expect(model.suggestionsQuery == nil)
    model.queryChanged(" Paris ")
    scheduler.advance(by: PlaceAutocompleteViewModel.debounce)
    let cdg = Airport(
      iata: "CDG", icao: "LFPG", name: "Charles de Gaulle International Airport", city: "Paris", subdivision: "",
      countryCode: "FR", latitude: 49.01, longitude: 2.55, timeZoneIdentifier: "Europe/Paris")
    remote.answer("suggest Paris", [PlaceSuggestion.airport(cdg), HotelTestData.city("Paris")])
    scheduler.advance()
    #expect(model.suggestionsQuery == "Paris")  // trimmed, as asked
    #expect(model.suggestions.map(\.query) == ["Paris", "CDG"])  // a stay is near a city: Enter takes Paris
  }

  @Test func shortText_clearsWithoutAsking() {
    let scheduler = DispatchQueue.test
    let remote = ControlledHotelClient()
    let model = PlaceAutocompleteViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.queryChanged("P")
    scheduler.advance(by: .seconds(1))
    #expect(remote.calls.isEmpty)
    #expect(model.suggestions.isEmpty)
  }
}

@Suite struct HotelSearchFormViewModelTests {
  let today = TravelToday(LocalDate("2026-11-30")!)

  @Test func nightsAndValidation_followTheForm() {
    let model = HotelSearchFormViewModel(today: today)
    let nights = model.$nights.record()
    let messages = model.$validationMessage.record()
    let enabled = model.$isSearchEnabled.record()
    let searches = model.searches.record()

    model.checkInChanged(LocalDate("2026-12-20")!)
    model.checkOutChanged(LocalDate("2026-12-20")!)
    model.checkOutChanged(LocalDate("2027-01-25")!)
    model.checkOutChanged(LocalDate("2026-12-23")!)
    model.searchTapped()  // no place yet
    model.placeChanged("Paris")
    model.guestsChanged(9)
    model.guestsChanged(3)
    model.searchTapped()

    #expect(nights.values == [nil, 3])
    #expect(
      messages.values == [
        "Choose check-in and check-out in the calendar (Enter on each day).",
        "Choose check-out in the calendar (Enter on a day after check-in).", "Check-out must be after check-in.",
        "A stay is at most 30 nights.",
        "Choose a place.", nil, "9 guests need at least 3 rooms.", nil,
      ])
    #expect(enabled.values == [false, true, false, true])
    #expect(searches.values.map(\.guests) == [3])
    #expect(searches.values.first?.checkOut == LocalDate("2026-12-23"))
  }

  @Test func checkInInThePast_isRefused() {
    let model = HotelSearchFormViewModel(today: today)
    model.placeChanged("Paris")
    model.checkInChanged(LocalDate("2026-11-29")!)
    model.checkOutChanged(LocalDate("2026-12-01")!)
    #expect(model.validationMessage == "Check-in 2026-11-29 is in the past: choose today (2026-11-30) or later.")
    #expect(model.problems == [.dates: "Check-in 2026-11-29 is in the past: choose today (2026-11-30) or later."])
    #expect(!model.isSearchEnabled)
  }

  /// #14 (QA 1): at 18:30 on 1 December in Los Angeles (02:30 UTC on the 2nd) tonight's check-in
  /// is taken by the form even on a machine whose zone is UTC (the service judges it at the hotel).
  @Test func checkInTonight_westOfTheTravellersZone_isNotRefusedByTheForm() throws {
    let instant = try #require(ISO8601DateFormatter().date(from: "2026-12-02T02:30:00Z"))
    let model = HotelSearchFormViewModel(today: TravelToday(at: instant, zone: .gmt))
    model.placeChanged("Los Angeles")
    model.checkInChanged(LocalDate("2026-12-01")!)
    model.checkOutChanged(LocalDate("2026-12-03")!)
    #expect(model.problems.isEmpty)
    #expect(model.isSearchEnabled)
    model.checkInChanged(LocalDate("2026-11-30")!)
    #expect(model.validationMessage == "Check-in 2026-11-30 is in the past: choose today (2026-12-02) or later.")
  }
}

@Suite struct HotelResultsViewModelTests {
  let scheduler = DispatchQueue.test
  let remote = ControlledHotelClient()

  func searched() -> HotelResultsViewModel {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(HotelTestData.request)
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    return model
  }

  @Test func offers_areSortedAndFiltered() {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    let loading = model.$isLoading.record()
    let offers = model.$offers.record()
    model.search(HotelTestData.request)
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    model.sortChanged(.distance)
    model.sortChanged(.rating)
    model.filterChanged(HotelResultFilter(minStars: 3))
    model.filterChanged(HotelResultFilter(maxNightlyRate: 100))
    #expect(loading.values == [false, true, false])
    #expect(
      offers.values.map { $0.map(\.name) } == [
        [], ["B", "A", "C"], ["C", "A", "B"], ["B", "C", "A"], ["C", "A"], ["B", "A"],
      ])
  }

  /// #14: the filters only saw the first offers of a search. A search asks for the most the service
  /// gives; when the place has more, a sort or filter asks the service again, and a new search
  /// starts without the last one's filters.
  @Test func filtersAndSort_workOnEveryOffer_aNewSearchResetsThem() {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(HotelTestData.request)
    #expect(remote.searchRequests.last?.limit == HotelResultsViewModel.maximumLimit)
    var cut = HotelTestData.result
    cut.matched = 1500  // more than one answer holds
    remote.answer("search Paris", cut)
    scheduler.advance()
    #expect(model.matched == 1500)
    model.filterChanged(HotelResultFilter(minStars: 3))
    #expect(model.offers.map(\.name) == ["A", "C"])  // at once, from what is here
    #expect(model.isLoading)
    let asked = remote.searchRequests.last
    #expect(asked?.minStars == 3)
    #expect(remote.searchRequests.count == 2)
    var filtered = HotelTestData.result
    filtered.offers = [FakeHotelService.offer(hotelId: "h9", name: "D", nightly: 90, km: 2, stars: 4, rating: 9)]
    filtered.offers += HotelTestData.result.offers.filter { $0.stars >= 3 }
    filtered.matched = 3
    remote.answer("search Paris", filtered)
    scheduler.advance()
    #expect(model.offers.map(\.name) == ["D", "A", "C"])  // the best of all that match
    model.filterChanged(HotelResultFilter())  // loosened: asked again, not a part of a part
    #expect(remote.searchRequests.count == 3)
    #expect(remote.searchRequests.last?.minStars == nil)
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    // A new search: every offer, no filter carried over.
    model.filterChanged(HotelResultFilter(minStars: 5))
    model.search(HotelTestData.request)
    #expect(model.filter == HotelResultFilter())
    remote.answer("search Paris", HotelTestData.result)
    scheduler.advance()
    #expect(model.offers.count == 3)
  }

  /// #14: an empty list says which condition emptied it: the filter (and how many offers it
  /// hides), or the search itself (place, radius, stay, guests, rooms) — never the stars filter
  /// when there is none.
  @Test func emptyResults_sayWhichConditionEmptiedThem() {
    let model = searched()
    #expect(model.emptyMessage == nil)
    model.filterChanged(HotelResultFilter(minStars: 4, maxNightlyRate: 200))
    #expect(model.offers.isEmpty)
    #expect(
      model.emptyMessage
        == "None of the 3 offers of this search has 4★ or more and costs at most 200 a night: press f to change the "
        + "filter.")
    model.search(HotelTestData.request)
    var none = HotelTestData.result
    none.offers = []
    none.matched = 0
    remote.answer("search Paris", none)
    scheduler.advance()
    let radius = Int(HotelTestData.request.radiusKm)
    #expect(
      model.emptyMessage
        == "No hotel within \(radius) km of Paris has a room for 2 guests free on every night from 2026-12-20 to "
        + "2026-12-23: try other dates or another place.")
  }

  /// QA: an empty search is explained by asking the service: with 1 guest in 1 room, and the
  /// hotels on the map within the radius — the open sea has no hotel (not "no room free"), hotels
  /// that are full say so, and a party too large for any hotel is named.
  @Test func emptySearch_namesNoHotel_fullHotels_orTheParty() {
    let map = "map \(EmptyHotelSearch.area(around: FakeHotelService.center, radiusKm: 10).south)"
    var none = HotelTestData.result
    none.offers = []
    none.matched = 0
    let marker = HotelMapMarker(latitude: 48.86, longitude: 2.34, count: 12, hotelId: nil, stars: nil)
    let cases: [(relaxed: HotelSearchResult, markers: [HotelMapMarker], message: String)] = [
      (none, [], "There is no hotel within 10 km of Paris: try another place or a larger radius."),
      (
        none, [marker],
        "The hotels within 10 km of Paris are full on at least one night from 2026-12-20 to 2026-12-23: try other "
          + "dates or another place."
      ),
      (
        HotelTestData.result, [],
        "No hotel within 10 km of Paris has a room for 2 guests free on every night from 2026-12-20 to 2026-12-23 "
          + "as asked: none has a room for 2 guests free together (fewer guests or rooms)."
      ),
    ]
    for (relaxed, markers, message) in cases {
      let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
      model.search(HotelTestData.request)
      remote.answer("search Paris", none)
      scheduler.advance()
      #expect(remote.searchRequests.last.map { ($0.guests, $0.rooms, $0.limit) } ?? (0, 0, 0) == (1, 1, 1))
      remote.answer("search Paris", relaxed)
      remote.answer(map, markers)
      scheduler.advance()
      #expect(model.emptyMessage == message)
    }
  }

  @Test func failedSearch_showsTheMessage() {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(HotelTestData.request)
    remote.fail("search Paris", .invalid("unknown_place", "unknown place \"Paris\""), as: HotelSearchResult.self)
    scheduler.advance()
    #expect(model.errorMessage == "Unknown place \"Paris\"")
    #expect(model.offers.isEmpty)
  }

  @Test func rowDetails_loadOnlyWhenShown_areCached_andCancelledWhenHidden() {
    let model = searched()
    let rows = model.$rows.record()
    #expect(remote.calls == ["search Paris"])

    model.rowShown("h1-1")
    #expect(remote.calls == ["search Paris", "details h1-1", "rooms h1-1"])
    model.rowHidden("h1-1")  // scrolled away before the answer
    #expect(Set(remote.cancellations) == ["cancel details h1-1", "cancel rooms h1-1"])

    model.rowShown("h1-1")
    remote.answer("details h1-1", HotelTestData.details)
    remote.answer("rooms h1-1", [FakeHotelService.offer(hotelId: "h1-1")])
    scheduler.advance()
    model.rowHidden("h1-1")
    model.rowShown("h1-1")  // from the cache: no new call
    #expect(remote.calls.filter { $0.hasPrefix("details") }.count == 2)

    let loaded = HotelRowState.loaded(
      HotelRowDetails(details: HotelTestData.details, rooms: [FakeHotelService.offer(hotelId: "h1-1")]))
    #expect(
      rows.values == [
        [:], ["h1-1": .loading], [:], ["h1-1": .loading], ["h1-1": .loaded(loaded.details!)],
        ["h1-1": .loaded(loaded.details!)],
      ])
  }

  @Test func newSearch_cancelsRowLoads_andStaleSearchIsDropped() {
    let model = searched()
    model.rowShown("h1-2")
    model.search(HotelTestData.request)
    #expect(remote.cancellations.contains("cancel details h1-2"))
    model.search(HotelTestData.request)
    remote.answer("search Paris", HotelTestData.result, index: 1)  // the superseded one
    scheduler.advance()
    #expect(model.isLoading)
    #expect(model.rows.isEmpty)
  }
}

extension HotelRowState {
  var details: HotelRowDetails? {
    if case .loaded(let value) = self { return value }
    return nil
  }
}

@Suite struct HotelBookingViewModelTests {
  let scheduler = DispatchQueue.test
  let remote = ControlledHotelClient()
  let offer = FakeHotelService.offer()

  @Test func breakdown_addsUpToTheTotal() {
    let model = HotelBookingViewModel(offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    #expect(
      model.breakdown.nights.map(\.label) == ["Night of 2026-12-20", "Night of 2026-12-21", "Night of 2026-12-22"])
    #expect(model.breakdown.nights.map(\.amount).sum(in: "EUR") == model.breakdown.subtotal)
    #expect(model.breakdown.subtotal + model.breakdown.taxes == model.breakdown.total)
    #expect(model.breakdown.total.amountString == "330.00")
    #expect(model.cancellationPolicy.contains("until 2026-12-19 15:00 hotel time (Europe/Paris"))
  }

  @Test func booking_needsAName_booksOnce_andShowsTheReservation() {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: "k1")
    let enabled = model.$isBookEnabled.record()
    let booking = model.$isBooking.record()
    model.bookTapped()
    model.guestNameChanged("Ada 2")
    model.guestNameChanged("Ada  Lovelace")
    model.bookTapped()
    model.bookTapped()  // a second tap while booking does nothing
    let reservation = Reservation(
      id: "res_1", kind: .hotel, status: .confirmed, total: offer.total, createdAt: Date(timeIntervalSince1970: 0),
      summary: "A")
    remote.answer("book \(offer.id) Ada Lovelace k1", reservation)
    scheduler.advance()
    #expect(remote.calls == ["book \(offer.id) Ada Lovelace k1"])
    #expect(model.reservation?.id == "res_1")
    #expect(enabled.values == [false, true, false])
    #expect(booking.values == [false, true, false])
  }

  /// #14: an empty hotel guest name got no message at all.
  @Test func emptyOrInvalidGuestName_saysWhatIsWrong_andNothingIsSent() {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: "k6")
    model.bookTapped()
    #expect(
      model.validationMessage
        == "The guest's name is missing: enter it as \"Given Family\" (or a single name).")
    model.guestNameChanged("Ada 2")  // updated as it is typed
    #expect(
      model.validationMessage
        == "The guest's name \"Ada 2\" contains \"2\", which is not a letter: use letters, spaces, hyphens, apostrophes and full stops."
    )
    model.guestNameChanged("Ada Lovelace")
    #expect(model.validationMessage == nil)
    #expect(model.isBookEnabled)
    #expect(remote.calls.isEmpty)
  }

  @Test func booking_chargesTheChosenCard() {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: "k3")
    model.guestNameChanged("Ada Lovelace")
    model.cardSelected("card_mc")
    model.bookTapped()
    #expect(remote.calls == ["book \(offer.id) Ada Lovelace k3 card card_mc"])
  }

  @Test func liveClient_passesTheCardToTheService() throws {
    let service = FakeHotelService()
    let client = HotelClient.live(service: service, suggest: { _ in [] }, token: { "token-ada" })
    let booked = client.book("hof_1", "Ada Lovelace", "card_mc", "k4").record()
    #expect(booked.waitForCompletion())
    #expect(service.recordedCalls == ["book hof_1 Ada Lovelace token-ada card card_mc"])
  }

  @Test func priceChange_offersTheNewOffer() {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: "k2")
    model.guestNameChanged("Ada Lovelace")
    model.bookTapped()
    remote.fail(
      "book \(offer.id) Ada Lovelace k2",
      .refused("price_changed", "the price changed", details: ["offerId": "hof_new"]), as: Reservation.self)
    scheduler.advance()
    #expect(model.errorMessage == "The price changed")
    #expect(model.newOfferId == "hof_new")
    #expect(!model.isBookEnabled)
  }

  @Test func booking_failure_keepsTheErrorForTheScreensWords() {
    let model = HotelBookingViewModel(
      offer: offer, client: remote.client, scheduler: scheduler.eraseToAnyScheduler(), idempotencyKey: "k5")
    let failures = model.$failure.record()
    model.guestNameChanged("Ada Lovelace")
    model.bookTapped()
    remote.fail("book \(offer.id) Ada Lovelace k5", .notSignedIn, as: Reservation.self)
    scheduler.advance()
    #expect(failures.values == [nil, nil, .notSignedIn])
    #expect(model.errorMessage == ScreenText.message(for: .notSignedIn))
    #expect(model.errorMessage?.contains("account login") == false)
  }
}

@Suite struct HotelMapViewModelTests {
  static func offer(_ id: String, _ latitude: Double, _ longitude: Double, room: RoomType = .double) -> HotelOffer {
    var offer = FakeHotelService.offer(hotelId: id, roomType: room)
    offer.latitude = latitude
    offer.longitude = longitude
    return offer
  }

  /// Issue #21: the map shows the search's results (not every hotel of the world), one point per
  /// hotel, and at the world zoom one cluster where the results are.
  @Test func markers_areTheResultsHotels_clusteredByTheZoom() {
    let offers = CurrentValueSubject<[HotelOffer], Never>([
      Self.offer("h1-1", 48.860, 2.350), Self.offer("h1-1", 48.860, 2.350, room: .suite),
      Self.offer("h1-2", 48.840, 2.300), Self.offer("h1-3", 48.880, 2.400),
    ])
    let model = HotelMapViewModel(offers: offers.eraseToAnyPublisher())
    let markers = model.$markers.record()
    // A city view (0.3° across 60 columns: cells of 0.015°): each hotel alone, the one with two
    // rooms once.
    model.viewportChanged(GeoRect(south: 48.75, west: 2.2, north: 48.95, east: 2.5), columns: 60, rows: 20)
    #expect(model.hotelCount == 3)
    #expect(model.markers.map(\.count) == [1, 1, 1])
    #expect(Set(model.markers.compactMap(\.hotelId)) == ["h1-1", "h1-2", "h1-3"])
    // The world view: one cluster of the three at their centroid.
    model.viewportChanged(GeoRect(south: -85, west: -180, north: 85, east: 180), columns: 60, rows: 20)
    #expect(model.markers.map(\.count) == [3])
    #expect(abs(model.markers[0].latitude - 48.86) < 0.01 && abs(model.markers[0].longitude - 2.35) < 0.01)
    #expect(model.message == nil)
    // The list's filter narrows the results: the map follows.
    offers.send([Self.offer("h1-2", 48.840, 2.300)])
    #expect(model.markers.map(\.hotelId) == ["h1-2"])
    // Nothing found: no marker, and the map says why.
    offers.send([])
    #expect(model.markers.isEmpty)
    #expect(model.message?.contains("found none") == true)
    #expect(markers.values.first == [])
  }

  /// Panning does not regroup: the grid is anchored to the world, not to the view.
  @Test func panning_keepsTheSameClusters() {
    let offers = Just(
      (0..<40).map { Self.offer("h2-\($0)", 35.6 + Double($0 % 8) * 0.01, 139.7 + Double($0 / 8) * 0.01) })
    let model = HotelMapViewModel(offers: offers.eraseToAnyPublisher())
    model.viewportChanged(GeoRect(south: 34, west: 138, north: 37, east: 142), columns: 80, rows: 24)
    let before = model.markers
    model.viewportChanged(GeoRect(south: 34.5, west: 139, north: 37.5, east: 143), columns: 80, rows: 24)
    #expect(model.markers == before)
    #expect(model.markers.reduce(0) { $0 + $1.count } == 40)
  }

  @Test func viewport_fitsEveryResult() {
    let offers = [Self.offer("h1-1", 48.80, 2.25), Self.offer("h1-2", 48.92, 2.45)]
    let fit = HotelMapViewModel.viewport(fitting: offers, columns: 78, rows: 18)
    #expect(abs(fit.latitude - 48.86) < 1e-9 && abs(fit.longitude - 2.35) < 1e-9)
    // 0.12° of latitude × 1.2 must fit in 72 dot rows: at 48.86° a zoom-z map is 360 / 2^z ×
    // cos(48.86°) × 72 / 156 degrees tall, 0.222° at zoom 9 and 0.111° at zoom 10.
    #expect(fit.zoom == 9)
    #expect(HotelMapViewModel.viewport(fitting: [], columns: 78, rows: 18).zoom == 0)
    #expect(HotelMapViewModel.viewport(fitting: [Self.offer("h1-1", 48.8, 2.3)], columns: 78, rows: 18).zoom == 14)
  }
}
