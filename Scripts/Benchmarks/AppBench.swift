import Backend
import Common
import Foundation

/// Figures of the app as a whole: reference data, autocomplete, cold starts of a search
/// process, and the peak memory of a search session.
extension BenchmarkSuite {
  /// The bench binary itself, started again in a child mode (see ``runChildMode(_:)``).
  var benchBinary: String { binDirectory.appendingPathComponent("TravelBenchmarks").path }

  /// Loading the reference data (airports, airlines, routes, cities): each sample is a fresh
  /// process timing `ReferenceData.shared()` from its first call.
  func referenceDataLoad() -> [Figure] {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-load-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    var times: [Double] = []
    for _ in 0..<count(40) {
      let run = spawn(benchBinary, ["--child", "load-reference-data", output.path], environment: environment())
      guard run.status == 0, let text = try? String(contentsOf: output, encoding: .utf8), let value = Double(text)
      else { continue }
      times.append(value)
    }
    return [
      Figure(
        name: "referencedata.load", unit: "ms", target: 50, values: times,
        note: "first ReferenceData.shared() in a fresh process (compiled Shared/compiled/reference-data.bin)")
    ]
  }

  /// Autocomplete of airports and cities for 1 to 4 typed characters.
  func autocomplete() -> [Figure] {
    guard let data = try? ReferenceData.shared() else { return [] }
    var generator = SeededGenerator(seed: 11)
    let words = data.airports.map(\.iata) + data.cities.map(\.name) + data.airports.map(\.city)
    let queries = (0..<count(2000)).map { index -> String in
      let word = words[Int(generator.next() % UInt64(words.count))]
      return String(word.prefix(1 + index % 4))
    }
    var found = 0
    let times = sample(count: queries.count, warmup: 20) { index in
      found += data.suggestions(for: queries[index], limit: 10).count
    }
    return [
      Figure(
        name: "autocomplete", unit: "ms", target: 1, values: times,
        note: "airports and cities, 1–4 characters, 10 suggestions; \(found / max(1, times.count)) found on average")
    ]
  }

  /// Cold start of a whole `booking search …` process (fresh data directory each time).
  func coldStartSearch() -> [Figure] {
    let booking = binDirectory.appendingPathComponent("booking").path
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cold-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let date = LocalDate(Date(), in: .gmt).adding(days: 30).description
    let pairs = [("SFO", "JFK"), ("FRA", "SYD"), ("LHR", "CDG"), ("NRT", "SIN"), ("ORD", "MIA")]
    var failures = 0
    let runs = (0..<count(40)).map { index -> ChildRun in
      let (from, to) = pairs[index % pairs.count]
      let run = spawn(
        booking, ["search", "--from", from, "--to", to, "--date", date, "--json", "--limit", "20"],
        environment: environment(dataDirectory: directory.path))
      if run.status != 0 { failures += 1 }
      return run
    }
    return [
      Figure(
        name: "coldstart.booking-search", unit: "ms", target: 150, values: runs.map(\.milliseconds),
        note: "whole process: start, load data, open store, search one-stop, print JSON"
          + (failures > 0 ? "; \(failures) run(s) failed" : "")),
      Figure(
        name: "memory.booking-search-process", unit: "MB", target: 150, values: runs.map(\.maxResidentMB),
        note: "peak resident set of one `booking search` process"),
    ]
  }

  /// Peak resident memory of a process running a search session over every feature: all
  /// reference data, the flight network, the hotel world and the car inventory loaded.
  func memorySession() -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-session-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let runs = (0..<(quick ? 1 : 5)).map { _ in
      spawn(benchBinary, ["--child", "session", directory.path], environment: environment())
    }
    let ok = runs.filter { $0.status == 0 }
    return [
      Figure(
        name: "memory.search-session", unit: "MB", target: 150, values: ok.map(\.maxResidentMB),
        note: "flights, hotels and cars searched in one process (peak RSS)"
          + (ok.count < runs.count ? "; \(runs.count - ok.count) run(s) failed" : ""))
    ]
  }
}

/// The child modes of the bench binary: `--child load-reference-data FILE` writes the load
/// time in milliseconds to FILE; `--child session DIR` runs a search session on DIR;
/// `--child book-worker PLAN INDEX` is one process of the contention benchmark.
func runChildMode(_ arguments: [String]) -> Int32 {
  switch arguments.first {
  case "load-reference-data":
    guard arguments.count == 2 else { return 2 }
    var loaded = false
    let time = milliseconds { loaded = (try? ReferenceData.shared()) != nil }
    guard loaded else { return 1 }
    return (try? String(time).write(toFile: arguments[1], atomically: true, encoding: .utf8)) == nil ? 1 : 0
  case "session":
    guard arguments.count == 2 else { return 2 }
    return searchSession(dataDirectory: URL(fileURLWithPath: arguments[1])) ? 0 : 1
  case "book-worker":
    return runBookingWorker(Array(arguments.dropFirst()))
  case "fanout-server":
    return runFanoutServer(Array(arguments.dropFirst()))
  default:
    return 2
  }
}

private func searchSession(dataDirectory: URL) -> Bool {
  do {
    let services = try BackendServices(dataDirectory: dataDirectory)
    let flights = try FlightsWiring.engine(seats: SQLiteFlightSeats(database: services.database))
    let hotels = try HotelBackend.service(services: services)
    let (inventory, data) = try CarRentalWiring.inventory()
    let cars = CarRentalEngine(
      inventory: inventory, promotions: try CarPromotions(), rentals: SQLiteCarRentals(database: services.database),
      resolvePlace: CarRentalWiring.resolver(data))
    let today = LocalDate(Date(), in: .gmt)
    let busiest = data.busiestAirports(limit: 40).map(\.iata)
    for index in 0..<20 {
      let from = busiest[index % busiest.count]
      let to = busiest[(index * 7 + 3) % busiest.count]
      if from != to {
        _ = try? flights.search(
          FlightSearchRequest(origin: from, destination: to, departureDate: today.adding(days: 20 + index)))
      }
      let city = data.cities[(index * 37) % data.cities.count]
      let checkIn = today.adding(days: 30 + index)
      _ = try? hotels.search(
        HotelSearchRequest(
          place: "\(city.latitude),\(city.longitude)", checkIn: checkIn, checkOut: checkIn.adding(days: 3), guests: 2))
      let pickup = LocalDateTime(Date(), in: .gmt).adding(minutes: 1440 * (10 + index))
      _ = try? cars.search(
        CarSearchQuery(pickupPlace: from, pickup: pickup, dropoff: pickup.adding(minutes: 1440 * 7)))
    }
    return true
  } catch {
    return false
  }
}
