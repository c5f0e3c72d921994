import Common
import Foundation
import Testing

@testable import Backend

@Suite struct FlightsSearchTests {
  let engine = FlightsFixtures.engine()
  let date = FlightsFixtures.date(30)

  func routes(of carrier: String) -> Set<String> {
    Set(FlightsFixtures.worldInput.routes.filter { $0.airline == carrier }.map { "\($0.origin)-\($0.destination)" })
  }

  func isRealRoute(_ segment: FlightSegment) -> Bool {
    FlightsFixtures.worldInput.routes.contains {
      $0.airline == segment.flight.carrier && $0.origin == segment.from && $0.destination == segment.to
    }
  }

  @Test func sfoToJFK_listsNonstopsOnCarriersThatFlyTheRoute() throws {
    let offers = try engine.search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, maxStops: 0))
    #expect(offers.count >= 5)
    // The carriers flying it today: US Airways and Virgin America are American and Alaska.
    let real: Set<String> = ["AA", "AS", "B6", "DL", "UA"]
    for offer in offers {
      #expect(offer.stops == 0)
      #expect(real.contains(offer.segments[0].flight.carrier))
      #expect(offer.segments[0].departure.timeZone == "America/Los_Angeles")
      #expect(offer.segments[0].arrival.timeZone == "America/New_York")
      #expect(offer.segments[0].departure.localDate == date)
    }
    #expect(offers.map(\.price.amount) == offers.map(\.price.amount).sorted())
  }

  @Test func fraToSYD_listsOneStopItinerariesThroughRealHubsWithLegalConnections() throws {
    let offers = try engine.search(FlightSearchRequest(origin: "FRA", destination: "SYD", departureDate: date))
    #expect(offers.count >= 3)
    let hubs = Set(offers.flatMap(\.outbound.connectionAirports))
    #expect(!hubs.isDisjoint(with: ["DXB", "SIN", "BKK", "HKG", "KUL", "AUH", "DOH", "ICN", "NRT", "PEK", "PVG"]))
    for offer in offers {
      #expect(offer.stops == 1)
      let itinerary = offer.outbound
      #expect(itinerary.origin == "FRA" && itinerary.destination == "SYD")
      #expect(itinerary.segments[0].to == itinerary.segments[1].from)
      for layover in itinerary.layoverMinutes {
        #expect(layover >= 60 && layover <= 600)
      }
      for segment in itinerary.segments { #expect(isRealRoute(segment)) }
      #expect(itinerary.departure.utcOffsetMinutes == 60)
      #expect(itinerary.arrival.utcOffsetMinutes == 660)
      let flying: Int = itinerary.segments.map(\.durationMinutes).reduce(0, +)
      let waiting: Int = itinerary.layoverMinutes.reduce(0, +)
      #expect(itinerary.durationMinutes == flying + waiting)
    }
  }

  /// #14: the carrier filter applies before the limit, so a filtered search finds that airline's
  /// best offers even where none of them is among the best overall.
  @Test func carrierFilter_appliesBeforeTheLimit_roundTripsIncluded() throws {
    let back = FlightsFixtures.date(37)
    let all = try engine.search(
      FlightSearchRequest(
        origin: "LON", destination: "NYC", departureDate: date, returnDate: back, maxStops: 1, limit: 5))
    let carriers = Set(all.flatMap(\.carriers))
    let everyone = try engine.search(
      FlightSearchRequest(
        origin: "LON", destination: "NYC", departureDate: date, returnDate: back, maxStops: 1, limit: 1000))
    let other = try #require(
      Set(everyone.flatMap(\.carriers)).subtracting(carriers).sorted().first, "an airline outside the best five")
    let filtered = try engine.search(
      FlightSearchRequest(
        origin: "LON", destination: "NYC", departureDate: date, returnDate: back, maxStops: 1, carrier: other, limit: 5)
    )
    #expect(!filtered.isEmpty)
    #expect(filtered.allSatisfy { $0.carriers.contains(other) })
    #expect(filtered.map(\.price.amount) == filtered.map(\.price.amount).sorted())
    #expect(throws: ServiceError.self) {
      try engine.search(
        FlightSearchRequest(origin: "LON", destination: "NYC", departureDate: date, carrier: "lufthansa"))
    }
  }

  @Test func resultSet_keepsEveryNonstopAndDropsDominatedConnections() throws {
    let offers = try engine.search(
      FlightSearchRequest(origin: "LHR", destination: "JFK", departureDate: date, maxStops: 2, limit: 1000))
    let nonstops = try engine.search(
      FlightSearchRequest(origin: "LHR", destination: "JFK", departureDate: date, maxStops: 0, limit: 1000))
    #expect(offers.filter { $0.stops == 0 }.count == nonstops.count)
    for offer in offers where offer.stops > 0 {
      let beaten = offers.contains { other in
        let sameHour = abs(other.outbound.departure.instant.timeIntervalSince(offer.outbound.departure.instant)) < 3600
        let price = other.price.amount <= offer.price.amount
        let duration = other.durationMinutes <= offer.durationMinutes
        let stops = other.stops <= offer.stops
        let strictly: Bool =
          other.price.amount < offer.price.amount || other.durationMinutes < offer.durationMinutes
          || other.stops < offer.stops
        return other.id != offer.id && sameHour && price && duration && stops && strictly
      }
      #expect(!beaten, "\(offer.id) is dominated")
    }
  }

  @Test func sortAndLimit() throws {
    for sort in FlightSortOrder.allCases {
      let offers = try engine.search(
        FlightSearchRequest(origin: "JFK", destination: "LAX", departureDate: date, sort: sort, limit: 7))
      #expect(offers.count == 7)
      switch sort {
      case .price: #expect(offers.map(\.price.amount) == offers.map(\.price.amount).sorted())
      case .duration: #expect(offers.map(\.durationMinutes) == offers.map(\.durationMinutes).sorted())
      case .departure:
        let times = offers.map(\.outbound.departure.instant)
        #expect(times == times.sorted())
      }
    }
  }

  @Test func adults_multiplyThePerPassengerPrice() throws {
    let one = try engine.search(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 3))
    let three = try engine.search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, adults: 3, limit: 3))
    #expect(one.map(\.perPassenger) == three.map(\.perPassenger))
    for offer in three {
      #expect(offer.price == offer.perPassenger.total * 3)
      #expect(offer.id.adults == 3)
    }
  }

  @Test func roundTrip_pairsOutboundAndReturn() throws {
    let back = FlightsFixtures.date(37)
    let offers = try engine.search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, returnDate: back, limit: 10))
    #expect(offers.count == 10)
    for offer in offers {
      #expect(offer.itineraries.count == 2)
      #expect(offer.outbound.origin == "SFO" && offer.inbound?.destination == "SFO")
      #expect(offer.inbound?.departure.localDate == back)
      #expect(offer.id.directions.count == 2)
    }
    #expect(offers.map(\.price.amount) == offers.map(\.price.amount).sorted())
  }

  @Test func premiumCabin_onlyOnAircraftThatHaveIt() throws {
    let offers = try engine.search(
      FlightSearchRequest(origin: "LHR", destination: "JFK", departureDate: date, cabin: .first, maxStops: 0))
    #expect(!offers.isEmpty)
    let world = FlightsFixtures.world
    for segment in offers.flatMap(\.segments) { #expect(world.seats(of: segment.flight)![.first]! > 0) }
  }

  // MARK: Offers

  @Test func offerID_roundTripsAndRepricesToTheSamePrice() throws {
    let offers = try engine.search(
      FlightSearchRequest(origin: "FRA", destination: "SYD", departureDate: date, adults: 2, cabin: .business))
    let offer = try #require(offers.first)
    let parsed = try FlightOfferID(parsing: offer.id.description)
    #expect(parsed == offer.id)
    let again = try engine.offer(parsed)
    #expect(again.price == offer.price)
    #expect(again.segments == offer.segments)
  }

  @Test func bookedSeats_raiseThePriceAndCanSellOut() throws {
    let seats = InMemoryFlightSeats()
    let engine = FlightsFixtures.engine(seats: seats)
    let offer = try #require(
      try engine.search(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, maxStops: 0)).first)
    let segment = offer.segments[0]
    let capacity = FlightsFixtures.world.seats(of: segment.flight)![.economy]!
    seats.add(capacity / 2, on: segment.flight, date: segment.departure.localDate, cabin: .economy)
    let fuller = try engine.offer(offer.id)
    #expect(fuller.price.amount > offer.price.amount)
    #expect(fuller.seatsAvailable == capacity - capacity / 2)
    seats.add(capacity - capacity / 2, on: segment.flight, date: segment.departure.localDate, cabin: .economy)
    #expect(throws: ServiceError.self) { try engine.offer(offer.id) }
    do {
      _ = try engine.offer(offer.id)
    } catch let error as ServiceError {
      #expect(error.code == "sold_out")
      #expect(error.kind == .refused)
    }
  }

  @Test func expiredOffers_areInvalidInput() throws {
    let old = try signedFlightOffer("FL1.Y.1.20200101UA1478.USD35162")
    #expect(throws: ServiceError.invalid("offer_expired", "")) {
      do { _ = try engine.offer(old) } catch let error as ServiceError {
        throw ServiceError.invalid(error.code, "")
      }
    }
    let unknown = try signedFlightOffer(
      "FL1.Y.1.\(String(format: "%04d%02d%02d", date.year, date.month, date.day))ZZ9999.USD100")
    #expect(throws: ServiceError.self) { try engine.offer(unknown) }
  }

  @Test func badRequests_failWithInvalidInputCodes() {
    func code(_ request: FlightSearchRequest) -> String? {
      do {
        _ = try engine.search(request)
        return nil
      } catch let error as ServiceError {
        #expect(error.kind == .invalidInput)
        return error.code
      } catch { return "other" }
    }
    let today = FlightsFixtures.date(0)
    #expect(code(FlightSearchRequest(origin: "XXQ", destination: "JFK", departureDate: date)) == "unknown_place")
    #expect(code(FlightSearchRequest(origin: "sfo", destination: "SFO", departureDate: date)) == "same_place")
    #expect(
      code(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: today.adding(days: -2)))
        == "date_in_past")
    #expect(
      code(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: today.adding(days: 332)))
        == "date_too_far")
    #expect(
      code(
        FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, returnDate: date.adding(days: -1)))
        == "return_before_departure")
    #expect(
      code(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, adults: 10)) == "invalid_adults")
  }
}
