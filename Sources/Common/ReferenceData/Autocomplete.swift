/// One autocomplete answer: an airport, a city or a metropolitan area.
public enum PlaceSuggestion: Hashable, Sendable, Codable {
  case airport(Airport)
  case city(City)
  case metroArea(MetroArea)

  /// What to type to choose it: the IATA code of an airport or area, the name of a city.
  public var query: String {
    switch self {
    case .airport(let airport): airport.iata
    case .city(let city): city.name
    case .metroArea(let area): area.code
    }
  }

  /// A line for a list: `SFO  San Francisco International Airport, San Francisco, US`,
  /// `Zürich, CH`, `NYC  New York (all airports), US`.
  public var label: String {
    switch self {
    case .airport(let airport): "\(airport.iata)  \(airport.name), \(airport.city), \(airport.countryCode)"
    case .city(let city): "\(city.name), \(city.countryCode)"
    case .metroArea(let area): "\(area.code)  \(area.name) (all airports), \(area.countryCode)"
    }
  }
}

/// Which kinds of place ``ReferenceData/suggestions(for:limit:kinds:)`` returns.
public struct PlaceKinds: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  public static let airports = PlaceKinds(rawValue: 1)
  public static let cities = PlaceKinds(rawValue: 2)
  public static let metroAreas = PlaceKinds(rawValue: 4)
  public static let all: PlaceKinds = [.airports, .cities, .metroAreas]
}

extension ReferenceData {
  /// Places whose code, name or served city has a word starting with `query` (diacritic- and
  /// case-insensitive: "zur" finds Zürich and ZRH; "heath" finds London Heathrow), at most `limit`
  /// (1…1000), most prominent first.
  ///
  /// Ranking: an exact IATA code first (`"lax"` → LAX), then names equal to the query, then by
  /// prominence, where a city weighs its population and an airport or area 10,000 per route
  /// (departures plus arrivals). Uses the prefix index built by the compiler: two binary searches
  /// and one pass over the matching keys, no scan of the tables. An empty query gives nothing.
  public func suggestions(for query: String, limit: Int = 10, kinds: PlaceKinds = .all) -> [PlaceSuggestion] {
    let folded = Array(TextFolding.fold(query).utf8)
    let limit = min(max(limit, 0), 1000)
    guard !folded.isEmpty, limit > 0 else { return [] }
    var top: [(score: Double, ref: PlaceRef)] = []
    for position in search.range(prefix: folded) {
      let key = search.key(at: position)
      guard let entry = search.entry(ofKey: key, limits: searchLimits) else { continue }
      let ref = entry.ref
      let prominence: Double
      switch ref.kind {
      case .airport:
        guard kinds.contains(.airports) else { continue }
        prominence = Double(routeCounts[ref.index]) * 10_000
      case .city:
        guard kinds.contains(.cities) else { continue }
        prominence = Double(cities[ref.index].population)
      case .metroArea:
        guard kinds.contains(.metroAreas) else { continue }
        prominence = Double(metroRouteCounts[ref.index]) * 10_000
      }
      let whole = search.offset(ofKey: key) == 0 && entry.length == folded.count
      let score = prominence + (whole ? (entry.isCode ? 2e15 : 1e15) : 0)
      if top.count == limit, score <= top[top.count - 1].score { continue }
      if let existing = top.firstIndex(where: { $0.ref == ref }) {
        guard score > top[existing].score else { continue }
        top.remove(at: existing)
      }
      let insertion = top.firstIndex { $0.score < score || ($0.score == score && $0.ref.raw > ref.raw) } ?? top.count
      top.insert((score, ref), at: insertion)
      if top.count > limit { top.removeLast() }
    }
    return top.map { item in
      switch item.ref.kind {
      case .airport: .airport(airports[item.ref.index])
      case .city: .city(cities[item.ref.index])
      case .metroArea: .metroArea(metroAreas[item.ref.index])
      }
    }
  }

  /// Airports whose code, name or city has a word starting with `query`, most routes first (an
  /// exact code first); see ``suggestions(for:limit:kinds:)``.
  public func airportSuggestions(for query: String, limit: Int = 10) -> [Airport] {
    suggestions(for: query, limit: limit, kinds: .airports).compactMap {
      if case .airport(let airport) = $0 { airport } else { nil }
    }
  }
}
