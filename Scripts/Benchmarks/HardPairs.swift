import Foundation

/// Chooses the "hard" flight pairs of the benchmark from the route data itself, never by hand:
/// two airports on different continents, at least ``minimumKm`` apart, whose shortest path in the
/// route graph is exactly three flights. No itinerary with at most one stop can exist between
/// them (no route path of one or two flights exists at all); whether a two-stop itinerary exists
/// on a given date is left to the flight engine, which the benchmark asks (and fails loudly when
/// it disagrees). Two kinds, by how many airports each end serves (both directions counted):
/// ``regional`` (1–3, small airports: the user's typical "needs two stops" trip) and ``busy``
/// (40 or more: large airports of carriers that do not meet, whose searches expand the most
/// connections).
///
/// Deterministic: origins are taken in the order of a stable hash of their code (spread over the
/// world, not alphabetical), each origin's destination is the candidate with the smallest stable
/// hash of the pair, and no airport is used twice.
struct HardPairSelector {
  struct Airport {
    var iata: String
    var latitude: Double
    var longitude: Double
    /// `AF`, `AN`, `AS`, `EU`, `NA`, `OC` or `SA`.
    var continent: String
  }

  struct Pair: Hashable, CustomStringConvertible {
    var origin: String
    var destination: String
    var distanceKm: Int
    var description: String { "\(origin)→\(destination) (\(distanceKm) km)" }
  }

  static let regional = 1...3
  static let busy = 40...Int.max
  static let minimumKm = 5000.0

  let airports: [Airport]
  /// Out-neighbours of airport `i` (indices into `airports`), without repeats.
  let next: [[Int]]
  /// Airports served from or to airport `i`, both directions together.
  let neighbourCount: [Int]

  /// The graph of `routes` (origin, destination IATA codes) over `airports`; routes naming an
  /// unknown airport are ignored.
  init(airports: [Airport], routes: [(origin: String, destination: String)]) {
    self.airports = airports
    var index: [String: Int] = [:]
    for (i, airport) in airports.enumerated() { index[airport.iata] = i }
    var out = [Set<Int>](repeating: [], count: airports.count)
    var both = [Set<Int>](repeating: [], count: airports.count)
    for route in routes {
      guard let from = index[route.origin], let to = index[route.destination], from != to else { continue }
      out[from].insert(to)
      both[from].insert(to)
      both[to].insert(from)
    }
    next = out.map { $0.sorted() }
    neighbourCount = both.map(\.count)
  }

  /// The fewest flights from airport `origin` to each airport, up to `depth` (unreached: absent).
  func flights(from origin: Int, depth: Int) -> [Int: Int] {
    var distance: [Int: Int] = [origin: 0]
    var frontier = [origin]
    for level in 1...depth {
      var following: [Int] = []
      for airport in frontier {
        for neighbour in next[airport] where distance[neighbour] == nil {
          distance[neighbour] = level
          following.append(neighbour)
        }
      }
      frontier = following
    }
    return distance
  }

  /// Candidate pairs whose two airports each serve `neighbours` airports, in the deterministic
  /// order, as many as there are (callers take a prefix and check each with the engine).
  func candidates(neighbours: ClosedRange<Int>) -> some Sequence<Pair> {
    let eligible = airports.indices.filter { neighbours.contains(neighbourCount[$0]) && !next[$0].isEmpty }
    let origins = eligible.sorted { stableHash(airports[$0].iata) < stableHash(airports[$1].iata) }
    var used = Set<Int>()
    var position = 0
    return AnyIterator<Pair> {
      while position < origins.count {
        let origin = origins[position]
        position += 1
        guard !used.contains(origin) else { continue }
        let a = airports[origin]
        var best: (hash: UInt64, index: Int, km: Double)?
        for (destination, count) in flights(from: origin, depth: 3) where count == 3 && !used.contains(destination) {
          let b = airports[destination]
          guard neighbours.contains(neighbourCount[destination]), b.continent != a.continent,
            !a.continent.isEmpty, !b.continent.isEmpty
          else { continue }
          let km = Self.greatCircleKm(a.latitude, a.longitude, b.latitude, b.longitude)
          guard km >= Self.minimumKm else { continue }
          let hash = stableHash("\(a.iata)-\(b.iata)")
          if best == nil || hash < best!.hash { best = (hash, destination, km) }
        }
        guard let best else { continue }
        used.insert(origin)
        used.insert(best.index)
        return Pair(origin: a.iata, destination: airports[best.index].iata, distanceKm: Int(best.km.rounded()))
      }
      return nil
    }
  }

  /// Great-circle distance in km (haversine, R = 6371 km).
  static func greatCircleKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    let dLat = (lat2 - lat1) * radians
    let dLon = (lon2 - lon1) * radians
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
    return 6371 * 2 * atan2(h.squareRoot(), (1 - h).squareRoot())
  }
}
