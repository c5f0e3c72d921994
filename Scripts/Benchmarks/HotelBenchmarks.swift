import Backend
import Common
import Foundation

extension BenchmarkSuite {
  /// Hotels: building the world, a search among all hotels near 100 random cities (radius 10 km,
  /// 3 nights, 2 guests, availability from a real store), and map viewports.
  func hotels() -> [Figure] {
    guard let reference = try? ReferenceData.shared() else { return [] }
    let cities = HotelBackend.cities(of: reference)
    var world: HotelWorld?
    let builds = sample(count: count(20), warmup: 1) { _ in world = HotelWorld(cities: cities) }
    guard let world else { return [] }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-hotels-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    guard let services = try? BackendServices(dataDirectory: directory),
      let engine = try? HotelBackend.service(services: services)
    else { return [] }
    var random = SeededGenerator(seed: 6)
    let picks = (0..<100).map { _ in reference.cities[Int(random.next() % UInt64(reference.cities.count))] }
    let checkIn = LocalDate(Date(), in: .gmt).adding(days: 30)
    var offers = 0
    let searches = sample(count: count(100) * (quick ? 1 : 3)) { index in
      let city = picks[index % picks.count]
      let request = HotelSearchRequest(
        place: "\(city.latitude),\(city.longitude)", checkIn: checkIn, checkOut: checkIn.adding(days: 3), guests: 2)
      offers += (try? engine.search(request).offers.count) ?? 0
    }
    let viewports = sample(count: count(200)) { index in
      let city = picks[index % picks.count]
      let span = [0.05, 0.5, 5, 60][index % 4]
      let viewport = GeoRect(
        south: max(-90, city.latitude - span), west: max(-180, city.longitude - span * 1.5),
        north: min(90, city.latitude + span), east: min(180, city.longitude + span * 1.5))
      _ = try? engine.mapMarkers(in: viewport, maxMarkers: 200)
    }
    return [
      Figure(
        name: "hotels.world-build", unit: "ms", target: 50, values: builds,
        note: "\(world.count) hotels around \(cities.count) cities, in memory"),
      Figure(
        name: "hotels.search", unit: "ms", target: 5, values: searches,
        note:
          "100 random cities, 10 km, 3 nights, 2 guests; \(offers / max(1, searches.count)) offers per search on average"
      ),
      Figure(
        name: "hotels.map-viewport", unit: "ms", target: 5, values: viewports, note: "≤ 200 markers; 0.1° to 120° tall"),
    ]
  }
}
