import Backend
import Common
import Foundation

/// Car search: 200 random locations, each searched once per pass (3 passes in a full run, one in
/// quick mode with 10 locations) with a random pick-up 2–300 days ahead at 08:00–18:00, 1–21 days,
/// sometimes a class pattern, a company or a promo code, on an empty rentals store (a store file,
/// availability still queried from SQLite). Desks are at every airport with at least 40 routes
/// and in every city of 500,000 people (Shared/cars/README.md), so a location is a random point
/// (`lat,lon`) within 30 km of a desk airport (the desks within 50 km answer), and one in three is a
/// desk place named by airport code or city. Seeded. Target: p95 ≤ 5 ms.
extension BenchmarkSuite {
  func carFigures() -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travel-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let (inventory, data) = try CarRentalWiring.inventory()
      // The store file exists (as for a user who has signed up): searches read it, not the
      // empty in-memory schema a deferred store reads before its first write.
      _ = try Store.open(dataDirectory: directory, migrations: BackendServices.migrations)
      let services = try BackendServices(dataDirectory: directory)
      let engine = CarRentalEngine(
        inventory: inventory, promotions: try CarPromotions(), rentals: SQLiteCarRentals(database: services.database),
        resolvePlace: CarRentalWiring.resolver(data))
      var generator = SeededGenerator(seed: 7)
      var seen = Set<String>()
      let allPlaces = inventory.locations.map { $0.kind == .airport ? $0.iata : $0.city }.filter {
        seen.insert($0).inserted
      }
      let deskAirports = Array(Set(inventory.locations.map(\.iata))).sorted().compactMap { data.airport(iata: $0) }
      let places = (0..<count(200)).map { index -> String in
        if index % 3 == 0 { return allPlaces.randomElement(using: &generator)! }
        let airport = deskAirports.randomElement(using: &generator)!
        let km = Double.random(in: 0...30, using: &generator)
        let bearing = Double.random(in: 0..<(2 * Double.pi), using: &generator)
        let latitude = airport.latitude + km / 111.2 * cos(bearing)
        let longitude =
          airport.longitude + km / (111.2 * max(0.1, cos(airport.latitude * Double.pi / 180))) * sin(bearing)
        return String(format: "%.4f,%.4f", latitude, longitude)
      }
      let patterns = [nil, nil, "C***", "*DAR", "E***", "**A*"]
      let companies = [nil, nil, nil] + inventory.companies.map(\.id)
      let promos = [nil, nil, "WINTER10", "WEEKLONG", "ZEPHYR15"]
      let now = LocalDateTime(Date(), in: TimeZone(identifier: "UTC")!)
      let passes = quick ? 1 : 3
      let queries = (0..<places.count * passes).map { index -> CarSearchQuery in
        let pickup = now.adding(minutes: 1440 * Int.random(in: 2...300, using: &generator)).adding(
          minutes: -now.minuteOfDay + 60 * Int.random(in: 8...18, using: &generator))
        let dropoff = pickup.adding(minutes: 1440 * Int.random(in: 1...21, using: &generator))
        return CarSearchQuery(
          pickupPlace: places[index % places.count], pickup: pickup, dropoff: dropoff,
          classPattern: patterns.randomElement(using: &generator)!.flatMap { try? ACRISSPattern($0) },
          company: companies.randomElement(using: &generator)!, promoCode: promos.randomElement(using: &generator)!)
      }
      var failures = 0
      var offers = 0
      let times = sample(count: queries.count, warmup: 5) { index in
        do { offers += try engine.search(queries[index]).offers.count } catch { failures += 1 }
      }
      func kind(_ named: Bool) -> String {
        let values = times.indices.filter { ($0 % places.count % 3 == 0) == named }.map { times[$0] }.sorted()
        return "\(named ? "desk places" : "points") median \(format(Figure.percentile(values, 0.5))) ms, "
          + "p95 \(format(Figure.percentile(values, 0.95))) ms"
      }
      return [
        Figure(
          name: "cars.search", unit: "ms", target: 5, values: times,
          note:
            "\(places.count) random locations (points ≤ 30 km from a desk airport; 1 in 3 a desk place) × \(passes), "
            + "random period/class/company/promo, "
            + "empty store; \(offers / max(1, times.count)) results per search; \(kind(true)), \(kind(false))"
            + (failures > 0 ? "; \(failures) refused (desk closed, promo expired)" : ""))
      ]
    } catch {
      return [Figure.failed("cars.search", target: 5, "failed: \(error)")]
    }
  }
}
