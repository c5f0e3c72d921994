import Common
import CommonTesting
import Foundation
import Testing

/// A flight status through its JSON (what `travel-server` sends): every time keeps its airport's
/// zone name, not only its offset (the wire carries ISO 8601 with the offset; the zone names
/// come back from the ends and, once diverted, `divertedToTimeZone`).
struct FlightStatusJSONTests {
  static let date = LocalDate("2026-12-20")!

  func roundTrip(_ status: FlightStatus) throws -> FlightStatus {
    try API.makeDecoder().decode(FlightStatus.self, from: try API.makeEncoder().encode(status))
  }

  @Test func everyStateOfADay_decodesEqual_withItsZoneNames() throws {
    let flight = FlightStatus.fixture(
      "LH400", from: "FRA", to: "JFK", date: Self.date, departure: "08:30", blockMinutes: 530,
      fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
    for state in flight.day(gate: "B40", changedGate: "B44", delay: 25) {
      let decoded = try roundTrip(state)
      #expect(decoded == state, "sequence \(state.sequence)")
      #expect(decoded.gateDeparture.scheduled.timeZone == "Europe/Berlin")
      #expect(decoded.gateArrival.best.timeZone == "America/New_York")
      #expect(FlightStatusText.status(decoded) == FlightStatusText.status(state))
    }
    #expect(FlightStatusText.status(try roundTrip(flight)).contains("times Europe/Berlin, UTC+01:00"))
  }

  /// Diverted from JFK to BOS (same offset) and to YYZ: the landing and gate arrival are local to
  /// the diversion airport, named as such after the trip through JSON.
  @Test func aDivertedFlight_keepsTheDiversionAirportsZone() throws {
    for (airport, zone) in [("BOS", "America/New_York"), ("ORD", "America/Chicago")] {
      var status = FlightStatus.fixture(
        "LH400", from: "FRA", to: "JFK", date: Self.date, departure: "08:30", blockMinutes: 530,
        fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
      status.status = .diverted
      status.divertedTo = airport
      let landing = status.runwayArrival.scheduled.instant.addingTimeInterval(3600)
      status.runwayArrival.actual = AirportTime(instant: landing, timeZone: TimeZone(identifier: zone)!)
      status.gateArrival.estimated = AirportTime(
        instant: landing.addingTimeInterval(600), timeZone: TimeZone(identifier: zone)!)
      let data = try API.makeEncoder().encode(status)
      #expect(String(decoding: data, as: UTF8.self).contains("\"divertedToTimeZone\":\"\(zone)\""))
      let decoded = try roundTrip(status)
      #expect(decoded == status, "\(airport)")
      #expect(decoded.runwayArrival.actual?.timeZone == zone)
      #expect(decoded.gateArrival.scheduled.timeZone == "America/New_York")
    }
  }
}
