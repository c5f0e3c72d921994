import Foundation

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

  /// Where a flight can go from or to, for autocomplete: airports and metropolitan areas (an "all
  /// airports" choice, `LON`, `NYC`, `TYO`) whose code, name or city has a word starting with
  /// `query`, at most `limit` (1…1000), ranked as ``suggestions(for:limit:kinds:)`` ranks them,
  /// except that a metropolitan area the text names — its code (`lon`) or its whole name
  /// (`Tokyo`, `new york`) — comes first, followed at once by its airports (busiest first), when it
  /// has at least two airports. An area whose code is also an airport's (`IST`, `DXB`) is never
  /// suggested, as its code gives the airport.
  /// Every suggestion's code is accepted as a place by ``resolvePlace(_:)``.
  public func flightPlaceSuggestions(for query: String, limit: Int = 10) -> [PlaceSuggestion] {
    let limit = min(max(limit, 0), 1000)
    // An area whose code is also an airport's (IST, DXB) is left out: its code gives the airport.
    let found = suggestions(for: query, limit: min(1000, limit + 16), kinds: [.airports, .metroAreas]).filter {
      if case .metroArea(let area) = $0 { airport(iata: area.code) == nil } else { true }
    }
    .prefix(limit).map { $0 }
    let folded = TextFolding.fold(query.trimmingCharacters(in: .whitespacesAndNewlines))
    guard !folded.isEmpty, limit > 0 else { return found }
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
    let byCode = trimmed.utf8.count == 3 && airport(iata: trimmed) == nil ? metroArea(code: trimmed) : nil
    let byName = metroAreas.first { TextFolding.fold($0.name) == folded && airport(iata: $0.code) == nil }
    guard let area = byCode ?? byName else { return found }
    let members = airports(of: area)
    guard members.count >= 2 else { return found }
    var leading: [PlaceSuggestion] = [.metroArea(area)] + members.map { .airport($0) }
    leading += found.filter { !leading.contains($0) }
    return Array(leading.prefix(limit))
  }

  /// Airports whose code, name or city has a word starting with `query`, most routes first (an
  /// exact code first); see ``suggestions(for:limit:kinds:)``.
  public func airportSuggestions(for query: String, limit: Int = 10) -> [Airport] {
    suggestions(for: query, limit: limit, kinds: .airports).compactMap {
      if case .airport(let airport) = $0 { airport } else { nil }
    }
  }
}
