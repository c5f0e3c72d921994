import Backend
import Common
import Foundation

/// Flights: generating the world's schedule from the reference data, and 100 random searches
/// over it (one core, one thread): origin and destination drawn from the 300 busiest airports,
/// a date 1–300 days ahead, `--max-stops` 0, 1 or 2 in turn, economy, one adult, limit 50
/// (seeded, so every run asks the same questions).
extension BenchmarkSuite {
  func flightFigures() -> [Figure] {
    do {
      let data = try ReferenceData.shared()
      let input = FlightNetworkInput(referenceData: data)
      var network: FlightNetwork?
      let build = sample(count: count(5), warmup: 0) { _ in network = FlightNetwork(input) }
      let engine = FlightEngine(
        network: network!, seats: InMemoryFlightSeats(), resolvePlace: FlightsWiring.resolver(data),
        suggestAirports: FlightsWiring.suggester(data))
      let airports = data.busiestAirports(limit: 300).map(\.iata)
      var state: UInt64 = 0x5EED
      func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
      }
      let today = LocalDate(Date(), in: TimeZone(identifier: "UTC")!)
      var requests: [FlightSearchRequest] = []
      while requests.count < 100 {
        let from = airports[next(airports.count)]
        let to = airports[next(airports.count)]
        guard from != to else { continue }
        requests.append(
          FlightSearchRequest(
            origin: from, destination: to, departureDate: today.adding(days: 1 + next(300)),
            maxStops: requests.count % 3))
      }
      var found = 0
      let searches = try sample(count: requests.count, warmup: 5) { index in
        found += try engine.search(requests[index % requests.count]).count
      }
      return [
        Figure(name: "flights.schedule-build", unit: "ms", target: nil, values: build),
        Figure(
          name: "flights.search.random", unit: "ms", target: 20, values: searches,
          note: "100 random searches among the 300 busiest airports, max-stops 0/1/2; \(found) offers in all"),
      ]
    } catch {
      return [Figure(name: "flights.search.random", unit: "ms", target: 20, values: [], note: "failed: \(error)")]
    }
  }
}
