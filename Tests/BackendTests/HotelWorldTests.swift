import Common
import Foundation
import Testing

@testable import Backend

@Suite struct HotelWorldTests {
  @Test func generation_isDeterministic_andIndependentOfOtherCities() throws {
    let a = HotelWorld(cities: HotelFixtures.cities)
    let b = HotelWorld(cities: HotelFixtures.cities.reversed())
    #expect(a.count == b.count)
    for i in stride(from: 0, to: a.count, by: 7) {
      let id = a.hotelId(at: i)
      let j = try #require(b.position(of: id))
      #expect(a.latitudes[i] == b.latitudes[j])
      #expect(a.longitudes[i] == b.longitudes[j])
      #expect(a.stars[i] == b.stars[j])
      #expect(a.amenityMasks[i] == b.amenityMasks[j])
    }
  }

  @Test func everyHotel_isNearItsCity_withValidAttributes() {
    let world = HotelWorld(cities: HotelFixtures.cities)
    #expect(world.count == HotelFixtures.cities.reduce(0) { $0 + $1.hotelCount })
    for i in 0..<world.count {
      let city = world.city(at: i)
      let km = GreatCircle.kilometres(city.latitude, city.longitude, world.latitudes[i], world.longitudes[i])
      #expect(km <= city.radiusKm + 0.01)
      #expect((1...5).contains(world.stars[i]))
      #expect((10...100).contains(world.ratings[i]))
      #expect(world.position(of: world.hotelId(at: i)) == i)
    }
    #expect(world.position(of: "h2988507-999999") == nil)
    #expect(world.position(of: "nonsense") == nil)
  }

  @Test func realCities_giveAtLeast100000Hotels_moreInBiggerCities() throws {
    let cities = HotelBackend.cities(of: try ReferenceData.shared())
    let world = HotelWorld(cities: cities)
    #expect(world.count >= 100_000)
    #expect(cities.allSatisfy { $0.population >= 100_000 })
    let shanghai = try #require(cities.first { $0.name == "Shanghai" })
    let small = try #require(cities.last)
    #expect(shanghai.hotelCount > 50 * small.hotelCount)
  }

  @Test func radiusQuery_matchesABruteForceScan() {
    let world = HotelWorld(cities: HotelFixtures.cities)
    let probes: [(Double, Double, Double)] = [
      (48.8566, 2.3522, 3), (48.8566, 2.3522, 25), (-33.87, 151.2, 10), (-18.14, 178.44, 400),
      (-18.14, -179.9, 300), (35.69, 139.69, 0.5),
    ]
    for (lat, lon, radius) in probes {
      let fast = Set(world.hotels(nearLatitude: lat, longitude: lon, radiusKm: radius).map(\.index))
      let slow = Set(
        (0..<world.count).filter {
          GreatCircle.kilometres(lat, lon, world.latitudes[$0], world.longitudes[$0]) <= radius
        })
      #expect(fast == slow, "probe \(lat),\(lon) r=\(radius)")
    }
  }

  @Test func mapMarkers_coverEveryHotelOnce_andClusterWhenDense() {
    let world = HotelWorld(cities: HotelFixtures.cities)
    let whole = world.markers(in: GeoRect(south: -90, west: -180, north: 90, east: 180), maxMarkers: 64)
    #expect(whole.reduce(0) { $0 + $1.count } == world.count)
    #expect(whole.count <= 64 * 2)
    #expect(whole.contains { $0.count > 1 })
    let street = world.markers(in: GeoRect(south: 48.85, west: 2.34, north: 48.86, east: 2.36), maxMarkers: 500)
    #expect(!street.isEmpty)
    #expect(street.allSatisfy { $0.count == 1 && $0.hotelId != nil })
  }
}
