import Backend
import Common
import Foundation

/// Flights: generating the world's schedule from the reference data, and searches over it (one
/// core, one thread, economy, one adult, limit 50, seeded so every run asks the same questions):
/// - `flights.search.random-1stop`: 200 random origin/destination pairs among the 300 busiest
///   airports, a date 1–300 days ahead, one stop allowed;
/// - `flights.search.hard-2stop`: the hard pairs of ``HardPairSelector`` (15 regional and 15 busy
///   pairs of airports on different continents that need two stops), two stops allowed, on each
///   date of a week that has a two-stop itinerary. Each measured search must find offers with two stops and none
///   with one; otherwise the run fails (the pairs are no longer hard, or no longer connected).
///
/// Target for both: p95 ≤ 20 ms.
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
      return [
        Figure(name: "flights.schedule-build", unit: "ms", target: nil, values: build),
        randomFlightSearches(engine, data: data),
        hardFlightSearches(engine, data: data, input: input),
      ]
    } catch {
      return [Figure.failed("flights.search.random-1stop", target: 20, "failed: \(error)")]
    }
  }

  private func randomFlightSearches(_ engine: FlightEngine, data: ReferenceData) -> Figure {
    let name = "flights.search.random-1stop"
    let airports = data.busiestAirports(limit: 300).map(\.iata)
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let today = LocalDate(Date(), in: TimeZone(identifier: "UTC")!)
    var requests: [FlightSearchRequest] = []
    while requests.count < count(200) {
      let from = airports[next(airports.count)]
      let to = airports[next(airports.count)]
      guard from != to else { continue }
      requests.append(
        FlightSearchRequest(
          origin: from, destination: to, departureDate: today.adding(days: 1 + next(300)), maxStops: 1))
    }
    var found = 0
    var empty = 0
    do {
      let searches = try sample(count: requests.count, warmup: 5) { index in
        let offers = try engine.search(requests[index]).count
        found += offers
        if offers == 0 { empty += 1 }
      }
      return Figure(
        name: name, unit: "ms", target: 20, values: searches,
        note: "\(requests.count) random pairs among the 300 busiest airports, one stop allowed; "
          + "\(found / max(1, requests.count)) offers per search, \(empty) with none")
    } catch {
      return Figure.failed(name, target: 20, "failed: \(error)")
    }
  }

  /// One chosen hard pair and the dates of the week on which a two-stop itinerary exists.
  private struct HardChoice {
    var pair: HardPairSelector.Pair
    var dates: [LocalDate]
    var busy: Bool
  }

  /// The hard pairs, checked with the engine on the dates searched: none may have an offer with
  /// at most one stop, each searched date must have a two-stop offer.
  private func hardFlightSearches(_ engine: FlightEngine, data: ReferenceData, input: FlightNetworkInput) -> Figure {
    let name = "flights.search.hard-2stop"
    var continents: [String: String] = [:]
    for country in data.countries { continents[country.iso2] = country.continent }
    let selector = HardPairSelector(
      airports: input.airports.map {
        HardPairSelector.Airport(
          iata: $0.iata, latitude: $0.latitude, longitude: $0.longitude, continent: continents[$0.country] ?? "")
      },
      routes: input.routes.map { ($0.origin, $0.destination) })
    let wanted = quick ? 2 : 15
    let today = LocalDate(Date(), in: TimeZone(identifier: "UTC")!)
    let week = (0..<7).map { today.adding(days: 30 + $0) }
    var chosen: [HardChoice] = []
    var rejected = 0
    var problems: [String] = []
    for (tier, busy) in [(HardPairSelector.regional, false), (HardPairSelector.busy, true)] {
      var found = 0
      for pair in selector.candidates(neighbours: tier) {
        guard found < wanted else { break }
        var dates: [LocalDate] = []
        for date in week {
          let oneStop = try? engine.search(
            FlightSearchRequest(origin: pair.origin, destination: pair.destination, departureDate: date, maxStops: 1))
          guard let oneStop else { break }  // an airport the engine does not know: not a usable pair
          if !oneStop.isEmpty {
            problems.append(
              "\(pair) has \(oneStop.count) offer(s) with ≤ 1 stop on \(date) though no such route path exists")
            break
          }
          let twoStops =
            (try? engine.search(
              FlightSearchRequest(origin: pair.origin, destination: pair.destination, departureDate: date, maxStops: 2)))
            ?? []
          if !twoStops.isEmpty { dates.append(date) }
          if quick && dates.count == 2 { break }
        }
        if dates.isEmpty {
          rejected += 1
        } else {
          chosen.append(HardChoice(pair: pair, dates: dates, busy: busy))
          found += 1
        }
      }
      if found < wanted {
        problems.append(
          "only \(found) \(busy ? "busy" : "regional") hard pair(s) of \(wanted) found "
            + "(no ≤ 1-stop route path, a 2-stop itinerary within a week)")
      }
    }
    guard problems.isEmpty else { return Figure.failed(name, target: 20, problems.joined(separator: "; ")) }
    let requests = chosen.flatMap { choice in
      choice.dates.map {
        (
          request: FlightSearchRequest(
            origin: choice.pair.origin, destination: choice.pair.destination, departureDate: $0, maxStops: 2),
          busy: choice.busy
        )
      }
    }
    let passes = quick ? 1 : 3
    var offers = 0
    do {
      let times = try sample(count: requests.count * passes, warmup: 3) { index in
        let request = requests[index % requests.count].request
        let found = try engine.search(request)
        offers += found.count
        if found.isEmpty || found.contains(where: { $0.outbound.stops < 2 }) {
          problems.append("\(request.origin)→\(request.destination) \(request.departureDate): \(found.count) offers")
        }
      }
      func tier(_ busy: Bool) -> String {
        let values = times.indices.filter { requests[$0 % requests.count].busy == busy }.map { times[$0] }.sorted()
        let examples = chosen.filter { $0.busy == busy }.prefix(4).map(\.pair.description).joined(separator: ", ")
        return "\(busy ? "busy" : "regional") \(chosen.filter { $0.busy == busy }.count) pairs, median "
          + "\(format(Figure.percentile(values, 0.5))) ms, p95 \(format(Figure.percentile(values, 0.95))) ms (\(examples), …)"
      }
      return Figure(
        name: name, unit: "ms", target: 20, values: times,
        note: "\(requests.count) (pair, date) searches × \(passes), two stops needed, "
          + "\(offers / max(1, times.count)) offers per search; " + tier(false) + "; " + tier(true)
          + "; \(rejected) candidate(s) without a 2-stop itinerary that week skipped",
        violation: problems.isEmpty ? nil : "not hard any more: " + problems.prefix(5).joined(separator: "; "))
    } catch {
      return Figure.failed(name, target: 20, "failed: \(error)")
    }
  }
}
