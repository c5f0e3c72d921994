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
  let today = LocalDate("2026-11-30")!

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
    #expect(model.validationMessage == "Check-in 2026-11-29 is in the past.")
    #expect(!model.isSearchEnabled)
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

  @Test func failedSearch_showsTheMessage() {
    let model = HotelResultsViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    model.search(HotelTestData.request)
    remote.fail("search Paris", .invalid("unknown_place", "unknown place \"Paris\""), as: HotelSearchResult.self)
    scheduler.advance()
    #expect(model.errorMessage == "unknown place \"Paris\"")
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
    model.guestNameChanged("Ada")
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
    #expect(model.errorMessage == "the price changed")
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
    #expect(model.errorMessage == ServiceError.notSignedIn.message)
  }
}

@Suite struct HotelMapViewModelTests {
  @Test func viewportChanges_areDebounced_andStaleMarkersDropped() {
    let scheduler = DispatchQueue.test
    let remote = ControlledHotelClient()
    let model = HotelMapViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    let markers = model.$markers.record()
    for south in [10.0, 11, 12] { model.viewportChanged(GeoRect(south: south, west: 0, north: 20, east: 10)) }
    scheduler.advance(by: .milliseconds(100))
    model.viewportChanged(GeoRect(south: 13, west: 0, north: 20, east: 10))
    scheduler.advance(by: .milliseconds(100))
    #expect(remote.calls == ["map 12.0", "map 13.0"])
    remote.answer("map 12.0", [HotelMapMarker(latitude: 1, longitude: 1, count: 9)])
    remote.answer("map 13.0", [HotelMapMarker(latitude: 2, longitude: 2, count: 1, hotelId: "h1-1")])
    scheduler.advance()
    #expect(markers.values.map { $0.map(\.count) } == [[], [1]])
  }

  @Test func worldViewPastTheAntimeridian_showsMarkers_andAFailureShowsTheServicesMessage() {
    let scheduler = DispatchQueue.test
    let remote = ControlledHotelClient()
    let model = HotelMapViewModel(client: remote.client, scheduler: scheduler.eraseToAnyScheduler())
    let messages = model.$errorMessage.record()
    // Zoom 0 panned west: the viewport runs past −180°; it is asked as is (the service wraps it).
    model.viewportChanged(GeoRect(south: -95, west: -270, north: 95, east: 90))
    scheduler.advance(by: HotelMapViewModel.debounce)
    #expect(remote.calls == ["map -95.0"])
    remote.answer("map -95.0", [HotelMapMarker(latitude: 35, longitude: 139, count: 72_979)])
    scheduler.advance()
    #expect(model.markers.map(\.count) == [72_979])
    // A failure is shown, not swallowed into an empty map.
    model.viewportChanged(GeoRect(south: 10, west: 0, north: 20, east: 10))
    scheduler.advance(by: HotelMapViewModel.debounce)
    let failure = ServiceError.invalid("invalid_coordinate", "south edge nan is not a number: expected degrees")
    remote.fail("map 10.0", failure, as: [HotelMapMarker].self)
    scheduler.advance()
    #expect(model.markers.isEmpty)
    #expect(model.errorMessage == failure.message)
    // The next answer clears it.
    model.viewportChanged(GeoRect(south: 11, west: 0, north: 20, east: 10))
    scheduler.advance(by: HotelMapViewModel.debounce)
    remote.answer("map 11.0", [HotelMapMarker(latitude: 15, longitude: 5, count: 3)])
    scheduler.advance()
    #expect(model.markers.map(\.count) == [3])
    #expect(messages.values == [nil, nil, failure.message, nil])
  }
}
