import Foundation
import Testing

@testable import Common

@Suite struct GeographyTests {
  @Test func greatCircleDistances() throws {
    let sfo = try Coordinate(latitude: 37.618972, longitude: -122.374889)
    let jfk = try Coordinate(latitude: 40.639751, longitude: -73.778925)
    #expect(abs(sfo.distanceKm(to: jfk) - 4152) < 5)
    #expect(sfo.distanceKm(to: sfo) == 0)
    let north = try Coordinate(latitude: 90, longitude: 0)
    let south = try Coordinate(latitude: -90, longitude: 0)
    #expect(abs(Geography.distanceKm(north, south) - .pi * Geography.earthRadiusKm) < 1e-6)
  }

  @Test func boundingBoxContainsTheCircle() throws {
    let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
    let box = BoundingBox(center: paris, radiusKm: 10)
    #expect(box.contains(paris))
    #expect(!box.crossesAntimeridian)
    #expect(abs((box.maxLatitude - box.minLatitude) * 111.2 - 20) < 0.5)
    #expect(!box.contains(try Coordinate(latitude: 49.0, longitude: 2.35)))
    let fiji = BoundingBox(center: try Coordinate(latitude: -17.7, longitude: 179.9), radiusKm: 50)
    #expect(fiji.crossesAntimeridian)
    #expect(fiji.contains(try Coordinate(latitude: -17.7, longitude: -179.9)))
    let pole = BoundingBox(center: try Coordinate(latitude: 89.9, longitude: 0), radiusKm: 50)
    #expect(pole.contains(try Coordinate(latitude: 89.95, longitude: 180)))
  }

  @Test func coordinateParsing() throws {
    #expect(try Coordinate.parse("Paris") == nil)
    #expect(try Coordinate.parse("Springfield, US") == nil)
    #expect(try Coordinate.parse("1,2") == (try Coordinate(latitude: 1, longitude: 2)))
    #expect(throws: ServiceError.self) { try Coordinate.parse("1,2,3") }
    #expect(throws: ServiceError.self) { try Coordinate(latitude: .nan, longitude: 0) }
  }

  @Test func folding() {
    #expect(TextFolding.fold("Zürich") == "zurich")
    #expect(TextFolding.fold("  São   Paulo ") == "sao paulo")
    #expect(TextFolding.fold("Xi'an") == "xian")
    #expect(TextFolding.fold("St. Louis") == "st louis")
    #expect(TextFolding.fold("Łódź") == "lodz")
    #expect(TextFolding.fold("Straße") == "strasse")
  }
}
