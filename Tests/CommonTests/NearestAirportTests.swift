import Foundation
import Testing

@testable import Common

/// ``ReferenceData/nearestAirport(to:)`` (the airport grid) against the scan of every airport.
@Suite struct NearestAirportTests {
  let data: ReferenceData

  init() throws {
    data = try ReferenceData.shared()
  }

  /// A fixed-seed generator (SplitMix64), so a failure names a reproducible point.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  func expectSameAsScan(_ points: [(Double, Double)]) throws {
    var mismatches: [String] = []
    for (latitude, longitude) in points {
      let point = try Coordinate(latitude: latitude, longitude: longitude)
      let grid = data.nearestAirport(to: point)?.iata
      let scan = data.nearestAirportByScan(to: point)?.iata
      if grid != scan { mismatches.append("\(latitude),\(longitude): grid \(grid ?? "nil"), scan \(scan ?? "nil")") }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
  }

  @Test func uniformPointsOnTheSphere() throws {
    var generator = Generator(state: 1)
    let points = (0..<1500).map { _ in
      // Uniform on the sphere: latitude from the arcsine of a uniform sine.
      (asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi, Double.random(in: -180...180, using: &generator))
    }
    try expectSameAsScan(points)
  }

  @Test func pointsNearThePolesAndTheAntimeridian() throws {
    var generator = Generator(state: 2)
    var points: [(Double, Double)] = []
    for _ in 0..<250 {
      points.append((Double.random(in: 80...90, using: &generator), Double.random(in: -180...180, using: &generator)))
      points.append(
        (Double.random(in: -90 ... -80, using: &generator), Double.random(in: -180...180, using: &generator)))
      points.append((Double.random(in: -70...70, using: &generator), Double.random(in: 178...180, using: &generator)))
      points.append(
        (Double.random(in: -70...70, using: &generator), Double.random(in: -180 ... -178, using: &generator)))
    }
    points += [(90, 0), (-90, 0), (90, 180), (-90, -180), (0, 180), (0, -180), (52, 180), (-17, -180), (65.5, -179.99)]
    try expectSameAsScan(points)
  }

  @Test func pointsNearAirportsAndOnCellEdges() throws {
    var generator = Generator(state: 3)
    var points: [(Double, Double)] = []
    for _ in 0..<600 {
      let airport = data.airports.randomElement(using: &generator)!
      let latitude = min(90, max(-90, airport.latitude + Double.random(in: -0.3...0.3, using: &generator)))
      let longitude = min(180, max(-180, airport.longitude + Double.random(in: -0.3...0.3, using: &generator)))
      points.append((latitude, longitude))
      // The same point moved onto the nearest whole degrees: cell corners and edges.
      points.append((latitude.rounded(), longitude))
      points.append((latitude, longitude.rounded()))
    }
    try expectSameAsScan(points)
  }

  @Test func knownNearestAirports() throws {
    #expect(data.nearestAirport(to: try Coordinate(latitude: 51.47, longitude: -0.45))?.iata == "LHR")
    #expect(data.nearestAirport(to: try Coordinate(latitude: 35.55, longitude: 139.78))?.iata == "HND")
    let empty = ReferenceData(airports: [])
    #expect(empty.nearestAirport(to: try Coordinate(latitude: 0, longitude: 0)) == nil)
  }
}
