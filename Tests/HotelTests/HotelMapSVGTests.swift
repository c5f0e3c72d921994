import Common
import Foundation
import Testing

@testable import Hotel

/// Issue #21: the SVG map draws the world under the hotels — water, land with its lakes, shores,
/// borders, place names — clipped to the picture, with the data's credit.
@Suite struct HotelMapSVGTests {
  static let tokyo = HotelSearchCenter(name: "Tokyo, JP", latitude: 35.6895, longitude: 139.69171)

  static func svg(center: HotelSearchCenter = tokyo, radiusKm: Double = 25) throws -> String {
    HotelMapSVG(
      title: "Hotels near Tokyo", center: center, radiusKm: radiusKm,
      dots: [HotelMapSVG.Dot(latitude: 35.68, longitude: 139.76, price: nil, name: "A")],
      ground: try Basemap.sharedFinest(), places: try MapPlaces.shared()
    ).render()
  }

  @Test func ground_waterLandShoresAndNames_clippedToThePicture() throws {
    let svg = try Self.svg()
    #expect(svg.contains("fill=\"\(HotelMapSVG.waterColor)\""))
    let land = try #require(
      svg.split(separator: "\n").first { $0.contains("fill=\"\(HotelMapSVG.landColor)\" fill-rule=\"evenodd\"") })
    #expect(svg.contains("stroke=\"\(HotelMapSVG.coastColor)\""))
    #expect(svg.contains("Yokohama") || svg.contains("Kawasaki"))
    #expect(svg.contains("HND"))  // an airport in view
    #expect(svg.contains("GSHHG 2.3.6"))
    // Every point of the land path lies in the map's frame (0…800 × 40…720).
    let path = land.split(separator: "\"")[1]
    let numbers = path.split(whereSeparator: { "MLZ ".contains($0) }).compactMap { Double($0) }
    #expect(numbers.count > 100)
    for (index, value) in numbers.enumerated() {
      if index % 2 == 0 {
        #expect(value >= -0.01 && value <= 800.01)
      } else {
        #expect(value >= 39.99 && value <= 720.01)
      }
    }
    // The whole Eurasia ring is not in the file: only what the picture shows.
    #expect(svg.utf8.count < 400_000)
  }

  /// Suva sits next to the antimeridian: the shores of both halves of Fiji's cut rings are drawn
  /// on the same side.
  @Test func ground_acrossTheAntimeridian() throws {
    let suva = HotelSearchCenter(name: "Suva", latitude: -18.14, longitude: 178.44)
    let svg = try Self.svg(center: suva, radiusKm: 200)
    let land = try #require(svg.split(separator: "\n").first { $0.contains("fill-rule=\"evenodd\"") })
    #expect(land.count > 1_000)
  }

  @Test func clipping_keepsWhatIsInsideTheFrame() {
    let frame = SVGFrame(minX: 0, minY: 0, maxX: 10, maxY: 10)
    let square = HotelMapSVG.clip([(-5, -5), (5, -5), (5, 5), (-5, 5)], to: frame)
    #expect(!square.isEmpty)
    #expect(square.allSatisfy { $0.0 >= 0 && $0.0 <= 5 && $0.1 >= 0 && $0.1 <= 5 })
    #expect(HotelMapSVG.clip([(20, 20), (30, 20), (30, 30)], to: frame).isEmpty)
    let segment = HotelMapSVG.clipSegment((-10, 5), (20, 5), to: frame)
    #expect(segment.map { [$0.0.0, $0.0.1, $0.1.0, $0.1.1] } == [0, 5, 10, 5])
    #expect(HotelMapSVG.clipSegment((-10, -5), (20, -5), to: frame) == nil)
  }
}
