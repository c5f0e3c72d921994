import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Backend

/// Issue #21: the radar over the live status simulation: every airborne flight, on its great
/// circle between takeoff and landing, the traveller's booked operations, the dates it covers.
@Suite struct FlightPositionsTests {
  static var operations: FlightOperations { FlightOperationsStatisticsTests.operations }

  @Test func everyAirborneFlight_isOnItsGreatCircle_atItsShareOfTheFlightTime() throws {
    let key = FlightStatusFeedTests.busyFlight
    let flight = try #require(Self.operations.flight(key)).flight
    let middle = FlightOperations.instant((flight.actualOff + flight.actualOn) / 2)
    let (feed, _) = FlightStatusFeedTests.feed(start: ISO8601DateFormatter().string(from: middle))
    let radar: any FlightRadarService = feed
    let airborne = try radar.airborne(at: middle)
    #expect(airborne.count > 2_000)
    #expect(airborne.count == Self.operations.airborne(at: middle).count)
    #expect(airborne.allSatisfy { $0.takeoff <= middle && middle < $0.landing })
    let mine = try #require(airborne.first { $0.key == key })
    let network = Self.operations.network
    let origin = network.airports[Int(try #require(network.airportIndex[mine.origin]))]
    let destination = network.airports[Int(try #require(network.airportIndex[mine.destination]))]
    // Halfway through the flight time (to the minute): the great circle's midpoint, within the
    // distance flown in a minute.
    let progress = mine.progress(at: middle)
    #expect(abs(progress - 0.5) < 0.02)
    let point = mine.position(at: middle)
    let track = GreatCircleTrack(
      fromLatitude: origin.latitude, fromLongitude: origin.longitude, toLatitude: destination.latitude,
      toLongitude: destination.longitude)
    let expected = track.point(at: progress)
    #expect(abs(point.latitude - expected.latitude) < 1e-9 && abs(point.longitude - expected.longitude) < 1e-9)
    let fromOrigin = Geography.distanceKm(
      try Coordinate(latitude: origin.latitude, longitude: origin.longitude),
      try Coordinate(latitude: point.latitude, longitude: point.longitude))
    #expect(abs(fromOrigin - progress * track.distanceKm) < 0.5)
    #expect((0..<360).contains(point.heading))
  }

  @Test func instantsOutsideTheSimulatedDays_areRefused() throws {
    let (feed, _) = FlightStatusFeedTests.feed(start: "2027-03-10T12:00:00Z")
    let start = ISO8601DateFormatter().date(from: "2027-03-10T12:00:00Z")!
    let error = #expect(throws: ServiceError.self) { try feed.airborne(at: start.addingTimeInterval(-8 * 86_400)) }
    #expect(error?.code == "date_out_of_range")
    #expect(error?.kind == .invalidInput)
  }

  @Test func bookedOperations_areTheOperatingFlightsOfConfirmedReservations() throws {
    let key = FlightStatusFeedTests.busyFlight
    @Sendable func reservation(_ id: String, status: ReservationStatus) -> Reservation {
      Reservation(
        id: id, kind: .flight, status: status, total: Money(amount: 100, currency: "USD"), createdAt: Date(),
        summary: "test",
        details: [
          "segments": .array([
            .object([
              "flight": .string(key.flight.code), "from": .string(key.origin),
              "departure": .string("\(key.date)T10:00:00+01:00"),
            ])
          ])
        ])
    }
    let (feed, _) = FlightStatusFeedTests.feed(start: "\(key.date)T00:00:00Z") { token in
      guard token == "good" else { throw ServiceError.notSignedIn }
      return [reservation("res_1", status: .confirmed), reservation("res_2", status: .cancelled)]
    }
    #expect(try feed.bookedOperations(token: "good") == [key])
    #expect(throws: ServiceError.self) { try feed.bookedOperations(token: "bad") }
    let (bare, _) = FlightStatusFeedTests.feed(start: "\(key.date)T00:00:00Z")
    let unavailable = #expect(throws: ServiceError.self) { try bare.bookedOperations(token: "good") }
    #expect(unavailable?.code == "trips_unavailable")
  }
}
