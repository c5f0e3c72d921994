import Backend
import Common
import Foundation

extension BenchmarkSuite {
  /// Hotels: building the world, a search among all hotels near 200 random cities (radius 10 km,
  /// 3 nights, 2 guests, availability from a real store) without and with filters (price cap,
  /// stars, amenities, sort), and map viewports. Target for the searches: p95 ≤ 5 ms.
  func hotels() -> [Figure] {
    guard let reference = try? ReferenceData.shared() else {
      return [Figure.failed("hotels.search", target: 5, "reference data unavailable")]
    }
    let cities = HotelBackend.cities(of: reference)
    // The land the hotels stand on, as a process meets it the first time: the finest basemap
    // level read from the file's bytes and decoded, then its land index built (each sample a
    // fresh basemap; the file itself read once, outside the figure).
    let compiled = (try? SharedResources.url(BasemapCompiler.compiledPath)).flatMap { try? Data(contentsOf: $0) }
    var landFigures: [Figure] = []
    if let compiled {
      let decodes = sample(count: count(20), warmup: 1) { _ in _ = try? Basemap(compiled: compiled).finest() }
      let firstUses = sample(count: count(20), warmup: 1) { _ in _ = try? Basemap(compiled: compiled).finest().land() }
      landFigures = [
        Figure(
          name: "hotels.land.decode", unit: "ms", target: nil, values: decodes,
          note: "the finest basemap level (GSHHG intermediate) decoded from basemap.bin's bytes"),
        Figure(
          name: "hotels.land.first-use", unit: "ms", target: 50, values: firstUses,
          note: "decode + the land index (what the first hotel search of a process waits for)"),
      ]
    }
    var world: HotelWorld?
    let builds = sample(count: count(20), warmup: 1) { _ in world = try? HotelWorld(cities: cities) }
    guard let world else { return [] }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-hotels-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A store file, read as a user's would be (not the in-memory schema of a store never written).
    guard (try? Store.open(dataDirectory: directory, migrations: BackendServices.migrations)) != nil,
      let services = try? BackendServices(dataDirectory: directory),
      let engine = try? HotelBackend.service(services: services)
    else { return [Figure.failed("hotels.search", target: 5, "cannot open a store in \(directory.path)")] }
    // 200 distinct random cities (seeded), each searched once per pass.
    var random = SeededGenerator(seed: 6)
    let picks = Array(reference.cities.shuffled(using: &random).prefix(count(200)))
    let checkIn = LocalDate(Date(), in: .gmt).adding(days: 30)
    let passes = quick ? 1 : 3
    var offers = 0
    let searches = sample(count: picks.count * passes) { index in
      let city = picks[index % picks.count]
      let request = HotelSearchRequest(
        place: "\(city.latitude),\(city.longitude)", checkIn: checkIn, checkOut: checkIn.adding(days: 3), guests: 2)
      offers += (try? engine.search(request).offers.count) ?? 0
    }
    // The same cities with filters, drawn per search: a price cap in EUR or USD, a minimum of
    // stars, one or two amenities, a sort order.
    let amenities: [[Amenity]] = [[.wifi], [.breakfast], [.pool], [.parking, .wifi], [.gym], [.restaurant, .bar], []]
    let filtered = (0..<picks.count * passes).map { index -> HotelSearchRequest in
      let city = picks[index % picks.count]
      return HotelSearchRequest(
        place: "\(city.latitude),\(city.longitude)", checkIn: checkIn.adding(days: index % 60),
        checkOut: checkIn.adding(days: index % 60 + 1 + Int(random.next() % 5)), guests: 1 + Int(random.next() % 3),
        minStars: [nil, 2, 3, 4][Int(random.next() % 4)],
        maxPrice: Decimal([80, 120, 200, 400][Int(random.next() % 4)]),
        currency: random.next() % 2 == 0 ? "EUR" : "USD", amenities: amenities[Int(random.next() % 7)],
        sort: HotelSortOrder.allCases[Int(random.next() % UInt64(HotelSortOrder.allCases.count))])
    }
    var filteredOffers = 0
    var filteredEmpty = 0
    var failures: [String] = []
    let filteredSearches = sample(count: filtered.count) { index in
      do {
        let found = try engine.search(filtered[index]).offers.count
        filteredOffers += found
        if found == 0 { filteredEmpty += 1 }
      } catch {
        failures.append("\(error)")
      }
    }
    let viewports = sample(count: count(200)) { index in
      let city = picks[index % picks.count]
      let span = [0.05, 0.5, 5, 60][index % 4]
      let viewport = GeoRect(
        south: max(-90, city.latitude - span), west: max(-180, city.longitude - span * 1.5),
        north: min(90, city.latitude + span), east: min(180, city.longitude + span * 1.5))
      _ = try? engine.mapMarkers(in: viewport, maxMarkers: 200)
    }
    return landFigures + [
      Figure(
        name: "hotels.world-build", unit: "ms", target: 50, values: builds,
        note: "\(world.count) hotels around \(cities.count) cities, in memory"),
      Figure(
        name: "hotels.search", unit: "ms", target: 5, values: searches,
        note: "\(picks.count) random cities × \(passes), 10 km, 3 nights, 2 guests, no filters; "
          + "\(offers / max(1, searches.count)) offers per search on average"),
      Figure(
        name: "hotels.search.filtered", unit: "ms", target: 5, values: filteredSearches,
        note: "same cities, 1–5 nights, 1–3 guests, max price 80–400 EUR/USD, min stars, amenities, each sort; "
          + "\(filteredOffers / max(1, filteredSearches.count)) offers per search, \(filteredEmpty) with none",
        violation: failures.isEmpty ? nil : "\(failures.count) filtered search(es) failed: \(failures[0])"),
      Figure(
        name: "hotels.map-viewport", unit: "ms", target: 5, values: viewports, note: "≤ 200 markers; 0.1° to 120° tall"),
    ]
  }
}
