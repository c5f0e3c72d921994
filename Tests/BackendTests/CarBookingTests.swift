import Common
import Foundation
import Testing

@testable import Backend

/// Booking cars through the reservations ledger, on a real SQLite store (TestBackend).
@Suite struct CarBookingTests {
  static let sites = [
    CarSite(
      iata: "LAX", airportName: "Los Angeles International Airport", city: "Los Angeles", countryCode: "US",
      timeZoneIdentifier: "America/Los_Angeles")
  ]
  static let abroad =
    sites + [
      CarSite(
        iata: "SFO", airportName: "San Francisco International Airport", city: "San Francisco", countryCode: "US",
        timeZoneIdentifier: "America/Los_Angeles"),
      CarSite(
        iata: "LHR", airportName: "London Heathrow Airport", city: "London", countryCode: "GB",
        timeZoneIdentifier: "Europe/London"),
    ]

  let backend: TestBackend
  let token: String

  init() throws {
    backend = try TestBackend()
    token = try backend.signedIn()
    try backend.addCard(token: token)
  }

  func engine(token: String? = nil, services: BackendServices? = nil, sites: [CarSite] = Self.sites) throws
    -> CarRentalEngine
  {
    let services = services ?? backend.services
    let clock = backend.clock
    let session = token ?? self.token
    return CarRentalEngine(
      inventory: try CarInventory(sites: sites), promotions: try CarPromotions(),
      rentals: SQLiteCarRentals(database: services.database), now: { clock.withLock { $0 } }, isMember: { true },
      ledger: services.ledger, token: { session })
  }

  // Pick-up 2026-10-05 10:00 at LAX (a Monday), a week.
  func offer(
    _ code: String = "WDAR", company: String = "luxelane", from: String = "2026-10-05T10:00",
    to: String = "2026-10-12T10:00"
  ) throws -> CarOffer? {
    try engine().search(
      CarSearchQuery(
        pickupPlace: "LAX", pickup: try LocalDateTime(parsing: from), dropoff: try LocalDateTime(parsing: to),
        classPattern: try ACRISSPattern(code), company: company, limit: 10)
    ).offers.first
  }

  func book(_ id: String, key: String? = nil, allowDuplicate: Bool = false) throws -> Reservation {
    try engine().book(
      CarBookingRequest(offerID: id, driverName: "Ada Lovelace", idempotencyKey: key, allowDuplicate: allowDuplicate))
  }

  /// `payload` (an id's text without its signature) signed as this process's engines sign.
  func signed(_ payload: String) throws -> String {
    payload + "_" + (try OfferSigner.processLocal.signature(of: payload))
  }

  @Test func book_takesTheCar_untilCancelled_andMemberPriceIsCharged() throws {
    let first = try #require(try offer())
    #expect(first.lines.contains { $0.kind == .member })
    let count = first.carsAvailable
    let reservation = try book(first.id)
    #expect(reservation.kind == .car)
    #expect(reservation.total == first.total)
    #expect(try offer()?.carsAvailable == (count == 1 ? nil : count - 1))
    let listed = try backend.services.ledger.reservations(token: token)
    #expect(listed.map(\.id) == [reservation.id])
    let cancelled = try backend.services.ledger.cancelReservation(id: reservation.id, token: token)
    #expect(cancelled.status == .cancelled)
    #expect(cancelled.refunded == first.total)
    #expect(try offer()?.carsAvailable == count)
  }

  @Test func soldOut_whenEveryCarIsTakenForPartOfThePeriod() throws {
    let first = try #require(try offer())
    // One driver booking every car of the class (a group's cars under one name).
    for _ in 0..<first.carsAvailable { _ = try book(first.id, allowDuplicate: true) }
    #expect(try offer() == nil)
    #expect(errorCode { _ = try book(first.id, allowDuplicate: true) } == "sold_out")
    // A rental that ends when another begins does not overlap: the next week is free.
    #expect(try offer(from: "2026-10-12T10:00", to: "2026-10-19T10:00")?.carsAvailable == first.carsAvailable)
    // One overlapping by an hour is not.
    #expect(try offer(from: "2026-10-12T09:00", to: "2026-10-19T10:00") == nil)
  }

  @Test func idempotencyKey_booksOnce() throws {
    let first = try #require(try offer())
    let a = try book(first.id, key: "retry-1")
    let b = try book(first.id, key: "retry-1")
    #expect(a.id == b.id)
    #expect(try backend.services.ledger.reservations(token: token).count == 1)
  }

  @Test func priceMovedEitherWay_isRefusedWithTheNewOffer() throws {
    let first = try #require(try offer())
    let id = try CarOfferID(parsing: first.id)
    // Quotes made at another price (validly signed): lower (the price rose) and higher (it fell).
    for (change, word) in [(Int64(-100), "rose"), (Int64(100), "fell")] {
      var quoted = id
      quoted.quotedMinorUnits += change
      quoted.signature = try OfferSigner.processLocal.signature(of: quoted.payload)
      do {
        _ = try book(quoted.description)
        Issue.record("expected price_changed")
      } catch let error as ServiceError {
        #expect(error.code == "price_changed")
        #expect(error.message.contains(word), "\(error.message)")
        #expect(error.details["offerId"] == first.id)
      }
    }
    #expect(try backend.services.ledger.reservations(token: token).isEmpty)
  }

  @Test func cancel_freeUntilPickup_thenRefused() throws {
    let first = try #require(try offer())
    let reservation = try book(first.id)
    backend.advance(15 * 86_400)  // 2026-10-06, after the pick-up
    #expect(
      errorCode { _ = try backend.services.ledger.cancelReservation(id: reservation.id, token: token) }
        == "not_cancellable")
  }

  @Test func badOfferIDs_areInvalid_andSignedOutIsRefused() throws {
    #expect(
      errorCode { _ = try book(try signed("car_nobody_LAX_LAX_CDAR_202610051000_202610121000_-_100USD")) }
        == "invalid_offer_id")
    #expect(errorCode { _ = try book("nonsense") } == "invalid_offer_id")
    let first = try #require(try offer())
    #expect(
      errorCode {
        _ = try engine().book(CarBookingRequest(offerID: first.id, driverName: "Ada 2"))
      } == "invalid_driver")
    #expect(
      errorCode {
        _ = try engine(token: "0000").book(CarBookingRequest(offerID: first.id, driverName: "Ada Lovelace"))
      } == "not_signed_in")
  }

  /// A hand-made id goes through the same rules as search: one-way policy, opening hours, horizon.
  @Test func handMadeOfferIDs_areCheckedLikeSearch() throws {
    let engine = try engine(sites: Self.abroad)
    func code(_ id: String) -> String? {
      errorCode { _ = try engine.book(CarBookingRequest(offerID: try signed(id), driverName: "Ada Lovelace")) }
    }
    // Budget Wheels rents no one-way; Zephyr one-way only within the US.
    #expect(code("car_budgetwheels_LAX_SFO_MBMN_202612201000_202612271000_-_9999999USD") == "one_way_not_allowed")
    #expect(code("car_zephyr_LAX_LHR_CDAR_202612201000_202612271000_-_9999999USD") == "one_way_not_allowed")
    // Budget Wheels at LAX opens 05:30–23:30 (pick-up and drop-off).
    #expect(code("car_budgetwheels_LAX_LAX_MBMN_202612200300_202612271000_-_9999999USD") == "outside_opening_hours")
    #expect(code("car_budgetwheels_LAX_LAX_MBMN_202612201000_202612270300_-_9999999USD") == "outside_opening_hours")
    // More than 330 days ahead (the clock is 2026-09-21).
    #expect(code("car_zephyr_LAX_LAX_CDAR_209912201000_209912271000_-_9999999USD") == "pickup_too_far")
    #expect(code("car_zephyr_LAX_LAX_CDAR_202708201000_202708271000_-_9999999USD") == "pickup_too_far")
    // A code the fleet lacks.
    #expect(code("car_zephyr_LAX_LAX_MBMN_202612201000_202612271000_-_9999999USD") == "invalid_offer_id")
    // Within the rules, a one-way id books at the price search gives (with its fee).
    let query = CarSearchQuery(
      pickupPlace: "LAX", dropoffPlace: "SFO", pickup: try LocalDateTime(parsing: "2026-12-20T10:00"),
      dropoff: try LocalDateTime(parsing: "2026-12-27T10:00"), classPattern: try ACRISSPattern("CDAR"),
      company: "zephyr", limit: 1)
    let offer = try #require(try engine.search(query).offers.first)
    #expect(offer.lines.contains { $0.kind == .oneWayFee })
    #expect(try engine.book(CarBookingRequest(offerID: offer.id, driverName: "Ada Lovelace")).total == offer.total)
    #expect(try backend.services.ledger.reservations(token: token).count == 1)
  }

  @Test func twoConnections_racingForTheLastCar_oneWins() throws {
    let first = try #require(try offer())
    for _ in 0..<(first.carsAvailable - 1) { _ = try book(first.id) }
    let engines = try (0..<4).map { _ in try engine(services: try backend.secondConnection()) }
    let outcomes = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      let code = errorCode {
        _ = try engines[index % 4].book(
          CarBookingRequest(offerID: first.id, driverName: "Ada Lovelace", allowDuplicate: true))
      }
      outcomes.withLock { $0.append(code ?? "ok") }
    }
    let results = outcomes.withLock { $0 }
    #expect(results.filter { $0 == "ok" }.count == 1)
    #expect(results.filter { $0 == "sold_out" }.count == 7)
  }
}
