import Backend
import Common
import Foundation

/// Car search: 100 searches (a full run; 5 in quick mode) with random inputs over the shipped
/// inventory — a pick-up place among the desks (airport code or city), a pick-up 1–300 days ahead
/// at a random local hour, 1–21 days, sometimes a class pattern, a company or a promo code — on an
/// empty rentals store (availability still queried from SQLite). Seeded, so every run asks the
/// same questions. Target: p95 ≤ 5 ms.
extension BenchmarkSuite {
  func carFigures() -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travel-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let (inventory, data) = try CarRentalWiring.inventory()
      let services = try BackendServices(dataDirectory: directory)
      let engine = CarRentalEngine(
        inventory: inventory, promotions: try CarPromotions(), rentals: SQLiteCarRentals(database: services.database),
        resolvePlace: CarRentalWiring.resolver(data))
      var generator = SeededGenerator(seed: 7)
      let places = inventory.locations.map { $0.kind == .airport ? $0.iata : $0.city }
      let patterns = [nil, nil, "C***", "*DAR", "E***", "**A*"]
      let companies = [nil, nil, nil] + inventory.companies.map(\.id)
      let promos = [nil, nil, "WINTER10", "WEEKLONG", "ZEPHYR15"]
      let now = LocalDateTime(Date(), in: TimeZone(identifier: "UTC")!)
      let queries = (0..<count(100)).map { _ -> CarSearchQuery in
        let pickup = now.adding(minutes: 1440 * Int.random(in: 2...300, using: &generator)).adding(
          minutes: -now.minuteOfDay + 60 * Int.random(in: 8...18, using: &generator))
        let dropoff = pickup.adding(minutes: 1440 * Int.random(in: 1...21, using: &generator))
        return CarSearchQuery(
          pickupPlace: places.randomElement(using: &generator)!, pickup: pickup, dropoff: dropoff,
          classPattern: patterns.randomElement(using: &generator)!.flatMap { try? ACRISSPattern($0) },
          company: companies.randomElement(using: &generator)!, promoCode: promos.randomElement(using: &generator)!)
      }
      var failures = 0
      let times = sample(count: queries.count, warmup: 5) { index in
        do { _ = try engine.search(queries[index]) } catch { failures += 1 }
      }
      return [
        Figure(
          name: "cars.search", unit: "ms", target: 5, values: times,
          note: "random place/period/class/company/promo, empty store"
            + (failures > 0 ? "; \(failures) refused (desk closed, promo expired)" : ""))
      ]
    } catch {
      return [Figure(name: "cars.search", unit: "ms", target: 5, values: [], note: "failed: \(error)")]
    }
  }
}
