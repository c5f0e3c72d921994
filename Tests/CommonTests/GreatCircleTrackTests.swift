import Foundation
import Testing

@testable import Common

/// Issue #21: an aircraft's position along its great circle and its course, against the worked
/// examples of Ed Williams' Aviation Formulary (LAX 33°57′N 118°24′W → JFK 40°38′N 73°47′W) and
/// against geometry whose answer is known exactly.
@Suite struct GreatCircleTrackTests {
  static let lax = (latitude: 33.0 + 57.0 / 60, longitude: -(118.0 + 24.0 / 60))
  static let jfk = (latitude: 40.0 + 38.0 / 60, longitude: -(73.0 + 47.0 / 60))
  static let laxToJFK = GreatCircleTrack(
    fromLatitude: lax.latitude, fromLongitude: lax.longitude, toLatitude: jfk.latitude, toLongitude: jfk.longitude)

  @Test func laxToJFK_distanceAndInitialCourse_matchTheFormulary() {
    // d = 0.623585 rad (2144 nm), true course 1.150035 rad = 65.89°.
    #expect(abs(Self.laxToJFK.angle - 0.623_585) < 2e-6)
    #expect(abs(Self.laxToJFK.angle * 180 * 60 / .pi - 2144) < 1)
    #expect(abs(Self.laxToJFK.point(at: 0).heading - 65.892) < 0.01)
    let start = Self.laxToJFK.point(at: 0)
    #expect(abs(start.latitude - Self.lax.latitude) < 1e-9 && abs(start.longitude - Self.lax.longitude) < 1e-9)
    let end = Self.laxToJFK.point(at: 1)
    #expect(abs(end.latitude - Self.jfk.latitude) < 1e-9 && abs(end.longitude - Self.jfk.longitude) < 1e-9)
  }

  @Test func laxToJFK_intermediatePoints_matchTheFormulary() throws {
    // 100 nm from LAX towards JFK: 34°37′N 116°33′W (lat 0.604180 rad, lon 2.034206 rad W).
    let hundred = Self.laxToJFK.point(at: 100.0 / (Self.laxToJFK.angle * 180 * 60 / .pi))
    #expect(abs(hundred.latitude - 0.604_180 * 180 / .pi) < 0.001)
    #expect(abs(hundred.longitude + 2.034_206 * 180 / .pi) < 0.001)
    // The route crosses 111° W at 36°23.7′N: the Formulary's "latitude of point on GC" formula,
    // lat = atan((sin lat1 cos lat2 sin(lon − lon2) − sin lat2 cos lat1 sin(lon − lon1))
    //            / (cos lat1 cos lat2 sin(lon1 − lon2))), west longitudes positive, gives 0.635201 rad.
    let (lat1, lon1) = (Self.lax.latitude * .pi / 180, -Self.lax.longitude * .pi / 180)
    let (lat2, lon2) = (Self.jfk.latitude * .pi / 180, -Self.jfk.longitude * .pi / 180)
    let lon = 111 * Double.pi / 180
    let crossing = atan(
      (sin(lat1) * cos(lat2) * sin(lon - lon2) - sin(lat2) * cos(lat1) * sin(lon - lon1))
        / (cos(lat1) * cos(lat2) * sin(lon1 - lon2)))
    #expect(abs(crossing - 0.635_201) < 1e-6)
    var low = 0.0
    var high = 1.0
    for _ in 0..<60 {
      let middle = (low + high) / 2
      if Self.laxToJFK.point(at: middle).longitude < -111 { low = middle } else { high = middle }
    }
    #expect(abs(Self.laxToJFK.point(at: low).latitude - crossing * 180 / .pi) < 0.001)
  }

  @Test func theCourseTurns_andEachPointIsItsShareOfTheDistance() throws {
    var previous = -1.0
    for step in 0...10 {
      let fraction = Double(step) / 10
      let point = Self.laxToJFK.point(at: fraction)
      // Flown so far: the share of the distance (great-circle distance from LAX).
      let flown = Geography.distanceKm(
        try Coordinate(latitude: Self.lax.latitude, longitude: Self.lax.longitude),
        try Coordinate(latitude: point.latitude, longitude: point.longitude))
      #expect(abs(flown - fraction * Self.laxToJFK.distanceKm) < 0.01)
      // Eastbound in the northern hemisphere, the course swings south all the way (65.9° → 97°).
      #expect(point.heading > previous)
      previous = point.heading
    }
    // At JFK the course is the reverse of the initial course from JFK to LAX.
    let back = GreatCircleTrack(
      fromLatitude: Self.jfk.latitude, fromLongitude: Self.jfk.longitude, toLatitude: Self.lax.latitude,
      toLongitude: Self.lax.longitude)
    #expect(
      abs(Self.laxToJFK.point(at: 1).heading - (back.point(at: 0).heading + 180).truncatingRemainder(dividingBy: 360))
        < 1e-6)
  }

  @Test func exactCases_equator_meridian_antimeridian_pole() {
    let equator = GreatCircleTrack(fromLatitude: 0, fromLongitude: 0, toLatitude: 0, toLongitude: 90)
    let middle = equator.point(at: 0.5)
    #expect(abs(middle.latitude) < 1e-9 && abs(middle.longitude - 45) < 1e-9 && abs(middle.heading - 90) < 1e-9)
    #expect(abs(equator.distanceKm - Geography.earthRadiusKm * .pi / 2) < 1e-6)

    let north = GreatCircleTrack(fromLatitude: 0, fromLongitude: 10, toLatitude: 60, toLongitude: 10).point(at: 0.5)
    #expect(abs(north.latitude - 30) < 1e-9 && abs(north.longitude - 10) < 1e-9 && north.heading < 1e-9)
    let south = GreatCircleTrack(fromLatitude: 60, fromLongitude: 10, toLatitude: 0, toLongitude: 10).point(at: 0.25)
    #expect(abs(south.latitude - 45) < 1e-9 && abs(south.heading - 180) < 1e-9)

    // Across the antimeridian eastwards: 170° E → 170° W passes 180°, heading east.
    let pacific = GreatCircleTrack(fromLatitude: 0, fromLongitude: 170, toLatitude: 0, toLongitude: -170)
    #expect(abs(abs(pacific.point(at: 0.5).longitude) - 180) < 1e-9)
    #expect(abs(pacific.point(at: 0.25).longitude - 175) < 1e-9)
    #expect(abs(pacific.point(at: 0.75).longitude + 175) < 1e-9)
    #expect(abs(pacific.point(at: 0.5).heading - 90) < 1e-9)
    #expect(abs(pacific.distanceKm - Geography.earthRadiusKm * 20 * .pi / 180) < 1e-6)

    // Over the North Pole: 80° N 0° → 80° N 180° goes due north, through the pole, then due south.
    let polar = GreatCircleTrack(fromLatitude: 80, fromLongitude: 0, toLatitude: 80, toLongitude: 180)
    #expect(polar.point(at: 0).heading < 1e-9)
    #expect(abs(polar.point(at: 0.5).latitude - 90) < 1e-9)
    #expect(abs(polar.point(at: 0.75).latitude - 85) < 1e-9 && abs(abs(polar.point(at: 0.75).longitude) - 180) < 1e-9)
    #expect(abs(polar.point(at: 1).heading - 180) < 1e-9)
  }

  @Test func outOfRangeFractions_clamp_andTheSamePoint_staysPut() {
    #expect(Self.laxToJFK.point(at: -1) == Self.laxToJFK.point(at: 0))
    #expect(Self.laxToJFK.point(at: 2) == Self.laxToJFK.point(at: 1))
    #expect(Self.laxToJFK.point(at: .nan) == Self.laxToJFK.point(at: 0))
    let still = GreatCircleTrack(fromLatitude: 47.46, fromLongitude: 8.55, toLatitude: 47.46, toLongitude: 8.55)
    #expect(still.distanceKm == 0)
    #expect(abs(still.point(at: 0.5).latitude - 47.46) < 1e-9)
    let antipodes = GreatCircleTrack(fromLatitude: 0, fromLongitude: 0, toLatitude: 0, toLongitude: 180)
    #expect(abs(antipodes.distanceKm - Geography.earthRadiusKm * .pi) < 0.01)
    #expect(antipodes.point(at: 0.5).latitude.isFinite)
  }

  @Test func radarFlight_positionFollowsTheClock_andTheJSONShape() throws {
    let takeoff = Date(timeIntervalSince1970: 1_797_000_000)
    let flight = RadarFlight(
      key: FlightStatusKey(flight: try #require(Flight(code: "AA1")), date: LocalDate("2026-12-20")!, origin: "LAX"),
      origin: "LAX", destination: "JFK", originLatitude: Self.lax.latitude, originLongitude: Self.lax.longitude,
      destinationLatitude: Self.jfk.latitude, destinationLongitude: Self.jfk.longitude, takeoff: takeoff,
      landing: takeoff.addingTimeInterval(5 * 3600))
    #expect(flight.progress(at: takeoff.addingTimeInterval(-60)) == 0)
    #expect(flight.progress(at: takeoff.addingTimeInterval(2.5 * 3600)) == 0.5)
    #expect(flight.position(at: takeoff.addingTimeInterval(2.5 * 3600)) == Self.laxToJFK.point(at: 0.5))
    let position = FlightPosition(flight, at: takeoff.addingTimeInterval(3600), booked: true)
    #expect(position.flight == "AA 1" && position.operation == "AA1-2026-12-20-LAX")
    #expect(position.progress == 0.2 && position.booked)
    #expect(abs(position.flownKm + position.remainingKm - Self.laxToJFK.distanceKm) <= 1)
  }
}
