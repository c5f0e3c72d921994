import Foundation

extension ReferenceData {
  /// How many times more prominent than the runner-up a match must be for a name to resolve to
  /// it without asking (CLI.md, "Places"): 10.
  public static let dominanceRatio = 10

  /// Resolves what a user typed for a place (CLI.md, "Places"):
  /// - `lat,lon` in decimal degrees (`48.85,2.35`) → ``Place/coordinate(_:timeZoneIdentifier:)``
  ///   with the time zone of the nearest airport;
  /// - an IATA airport code, any case (`sfo`) → ``Place/airport(_:)``; else an IATA metropolitan
  ///   code (`NYC`, `LON`, `PAR`, `TYO`, `CHI`, `WAS`) → ``Place/metroArea(_:airports:)``. Where a
  ///   metro code is also an airport's code (`IST`, `DXB`), the airport wins; the city name gives
  ///   all the airports;
  /// - a name, diacritic- and case-insensitive (`Zurich`, `sao paulo`), optionally qualified
  ///   after a comma by a country or region code or country name (`Springfield, US-MO`,
  ///   `London, CA`): first cities of that name (prominence: population), else metropolitan
  ///   areas (routes of their airports), else airports whose name or served city it is (their
  ///   routes). The most prominent wins when it has at least ``dominanceRatio`` times the
  ///   runner-up's prominence; otherwise it is ambiguous.
  ///
  /// A city comes with the airports that serve it (``airports(serving:)``).
  /// - Throws: ``ServiceError`` of kind `.invalidInput` (exit 2): `invalid_coordinate` for a
  ///   malformed or out-of-range `lat,lon`; `unknown_place` when nothing matches;
  ///   `ambiguous_place` listing the candidates (also in `details["candidates"]`, `; `-separated)
  ///   and, for each, a text that resolves to it (`Springfield, MO`; `details["suggestions"]`).
  public func resolvePlace(_ text: String) throws(ServiceError) -> Place {
    try resolvePlace(text, suggesting: true)
  }

  /// ``resolvePlace(_:)``; `suggesting` false leaves the suggestions out of an `ambiguous_place`
  /// (they are found by resolving texts, which must not look for suggestions in turn).
  private func resolvePlace(_ text: String, suggesting: Bool) throws(ServiceError) -> Place {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw .invalid(
        "unknown_place",
        "no place given: expected an IATA code like SFO, a city name like Paris, or lat,lon like 48.85,2.35")
    }
    if let coordinate = try Coordinate.parse(trimmed) {
      return .coordinate(coordinate, timeZoneIdentifier: nearestAirport(to: coordinate)?.timeZoneIdentifier ?? "UTC")
    }
    let looksLikeCode =
      trimmed.utf8.count == 3 && trimmed.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
    if looksLikeCode {
      if let airport = airport(iata: trimmed) { return .airport(airport) }
      if let area = metroArea(code: trimmed) { return .metroArea(area, airports: airports(of: area)) }
    }
    if let place = try resolveName(TextFolding.fold(trimmed), qualifier: nil, text: trimmed, suggesting: suggesting) {
      return place
    }
    if let comma = trimmed.lastIndex(of: ",") {
      let name = TextFolding.fold(String(trimmed[..<comma]))
      let qualifier = TextFolding.fold(String(trimmed[trimmed.index(after: comma)...]))
      if !name.isEmpty, !qualifier.isEmpty,
        let place = try resolveName(name, qualifier: qualifier, text: trimmed, suggesting: suggesting)
      {
        return place
      }
    }
    if looksLikeCode {
      throw .invalid(
        "unknown_place",
        "unknown airport \"\(trimmed)\": expected an IATA code like SFO or a city name")
    }
    throw .invalid(
      "unknown_place",
      "unknown place \"\(trimmed)\": expected an IATA airport or city code like SFO or NYC, a city name like Paris, "
        + "or lat,lon like 48.85,2.35")
  }

  private struct Candidate {
    var place: () -> Place
    var prominence: Int
    var label: String
    /// What to type to get exactly this place, tried in order: the first that resolves to it is
    /// suggested (`Birmingham, GB`; else `Springfield, MO`, `Springfield, US-MO`; else an IATA code).
    var queries: [String]
  }

  private func resolveName(
    _ folded: String, qualifier: String?, text: String, suggesting: Bool
  ) throws(ServiceError) -> Place? {
    let matches = search.exactMatches(folded, limits: searchLimits).filter { !$0.isCode }
    func refs(_ kind: PlaceRef.Kind) -> [Int] {
      var seen = Set<Int>()
      return matches.filter { $0.ref.kind == kind }.map(\.ref.index).filter { seen.insert($0).inserted }
    }
    func matchesCountry(_ iso2: String, region: String? = nil) -> Bool {
      guard let qualifier else { return true }
      var accepted = [TextFolding.fold(iso2)]
      if let name = country(iso2: iso2)?.name { accepted.append(TextFolding.fold(name)) }
      if let region, !region.isEmpty {
        accepted.append(TextFolding.fold(region))
        accepted.append(TextFolding.fold("\(iso2)-\(region)"))
      }
      return accepted.contains(qualifier)
    }
    let cityCandidates = refs(.city).map { cities[$0] }.filter { matchesCountry($0.countryCode, region: $0.admin1) }
      .map { city in
        Candidate(
          place: { .city(city, airports: self.airports(serving: city)) }, prominence: city.population,
          label: "\(city.name), \(city.countryCode)\(city.admin1.isEmpty ? "" : "-\(city.admin1)")"
            + " (population \(Self.grouped(city.population)))",
          queries: ["\(city.name), \(city.countryCode)"]
            + (city.admin1.isEmpty || Int(city.admin1) != nil
              ? [] : ["\(city.name), \(city.admin1)", "\(city.name), \(city.countryCode)-\(city.admin1)"])
            + self.airports(serving: city).prefix(1).map(\.iata))
      }
    if let place = try pick(cityCandidates, text: text, suggesting: suggesting) { return place }
    let areaCandidates = refs(.metroArea).filter { matchesCountry(metroAreas[$0].countryCode) }.map { index in
      let area = metroAreas[index]
      return Candidate(
        place: { .metroArea(area, airports: self.airports(of: area)) }, prominence: metroRouteCounts[index] + 1,
        label: "\(area.name) (\(area.code)), \(area.countryCode)", queries: [area.code])
    }
    if let place = try pick(areaCandidates, text: text, suggesting: suggesting) { return place }
    let airportCandidates = refs(.airport).filter {
      matchesCountry(airports[$0].countryCode, region: airports[$0].subdivision)
    }
    .map { index in
      let airport = airports[index]
      return Candidate(
        place: { .airport(airport) }, prominence: routeCounts[index] + 1,
        label: "\(airport.name) (\(airport.iata)), \(airport.city), \(airport.countryCode)", queries: [airport.iata])
    }
    return try pick(airportCandidates, text: text, suggesting: suggesting)
  }

  private func pick(_ candidates: [Candidate], text: String, suggesting: Bool) throws(ServiceError) -> Place? {
    let sorted = candidates.sorted { $0.prominence > $1.prominence }
    guard let top = sorted.first else { return nil }
    guard sorted.count > 1, sorted[1].prominence * Self.dominanceRatio > top.prominence else { return top.place() }
    let close = sorted.prefix { $0.prominence * Self.dominanceRatio > top.prominence }.prefix(8)
    // Only suggestions that resolve, each to its own candidate: never "Springfield, US" again.
    let suggestions =
      suggesting
      ? close.compactMap { candidate in
        candidate.queries.first { query in
          query.caseInsensitiveCompare(text) != .orderedSame
            && (try? resolvePlace(query, suggesting: false)).map { Self.samePlace($0, candidate.place()) } == true
        }
      } : []
    let labels = close.map(\.label)
    let quoted = suggestions.map { "\"\($0)\"" }
    let advice =
      quoted.isEmpty
      ? "use an IATA code"
      : "type one of \(quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1] : quoted[0])"
        + (suggestions.count < labels.count ? ", or an IATA code" : "")
    throw ServiceError(
      .invalidInput, code: "ambiguous_place",
      message: "ambiguous place \"\(text)\": it could be \(labels.joined(separator: "; ")); \(advice)",
      details: ["candidates": labels.joined(separator: "; "), "suggestions": suggestions.joined(separator: "; ")])
  }

  /// Whether two resolved places are the same city, area, airport or point.
  private static func samePlace(_ a: Place, _ b: Place) -> Bool {
    switch (a, b) {
    case (.city(let x, _), .city(let y, _)): x == y
    case (.metroArea(let x, _), .metroArea(let y, _)): x.code == y.code
    case (.airport(let x), .airport(let y)): x.iata == y.iata
    default: false
    }
  }

  /// `1234567` → `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }
}
