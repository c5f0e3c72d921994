import Foundation

/// The tables of ``ReferenceData`` before indexing: what the compiler writes and the loader reads.
struct ReferenceTables: Sendable {
  var airports: [Airport] = []
  var airlines: [Airline] = []
  var aircraftTypes: [AircraftType] = []
  var countries: [Country] = []
  var cities: [City] = []
  var metroAreas: [MetroArea] = []
  var routes: [Route] = []
  /// By code; see ``Carrier``.
  var carriers: [Carrier] = []
}

/// Turns the reference CSVs of `Shared/` into the compact file `Shared/compiled/reference-data.bin`
/// that ``ReferenceData`` loads at run time (a few milliseconds, instead of parsing 5 MB of CSV).
///
/// The file is committed. `CompiledReferenceDataTests` recompiles it from the CSVs and fails when
/// the committed copy differs (stale data or a changed compiler); `Scripts/compile-data`
/// re-records it (that test with `RECORD_DATA=1`). Compiling is deterministic: same CSVs, same bytes.
///
/// Format (little-endian): the magic `TRAVELRD`, the format version (UInt32, ``formatVersion``),
/// the FNV-1a 64-bit checksum of the source CSVs (``sourceChecksum(sharedDirectory:)``), then a
/// string table and the tables (airports, airlines, aircraft types, countries, cities, metro areas,
/// routes, carriers) whose strings are indices into it, then the prefix search index of names and
/// codes.
public enum ReferenceDataCompiler {
  /// The version of the file format; bump it whenever the layout changes.
  public static let formatVersion: UInt32 = 2
  /// The compiled file, relative to `Shared/`.
  public static let compiledPath = "compiled/reference-data.bin"
  /// The source CSVs, relative to `Shared/`, in checksum order.
  public static let sourcePaths = [
    "airports/airports.csv", "airports/iata_metro_areas.csv", "airports/iata_metro_areas_additions.csv",
    "openflights/airlines.csv", "openflights/routes.csv",
    "openflights/aircraft_types.csv", "geonames/cities.csv", "geonames/countries.csv",
    "openflights/carrier_changes.csv", "openflights/alliances.csv",
  ]
  static let magic = Array("TRAVELRD".utf8)

  /// Compiles the CSVs of `sharedDirectory` (a `Shared/` directory) into the compiled file's bytes.
  /// - Throws: ``SharedResources/Failure`` when a CSV is missing or malformed.
  public static func compile(sharedDirectory: URL) throws -> Data {
    let sources = try readSources(sharedDirectory)
    let tables = try tables(from: sources)
    return Data(encode(tables, checksum: checksum(sources)))
  }

  /// The FNV-1a 64-bit checksum of the source CSVs (each path, then its bytes, in
  /// ``sourcePaths`` order).
  public static func sourceChecksum(sharedDirectory: URL) throws -> UInt64 {
    checksum(try readSources(sharedDirectory))
  }

  /// The format version and source checksum written in a compiled file's header.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` when it is not a compiled file.
  public static func header(of data: Data) throws -> (formatVersion: UInt32, sourceChecksum: UInt64) {
    var reader = BinaryReader(Array(data.prefix(20)))
    guard (try? reader.raw(magic.count)) == magic, let version = try? reader.u32(), let sum = try? reader.u64() else {
      throw SharedResources.Failure.malformed(path: compiledPath, reason: "not a compiled reference data file")
    }
    return (version, sum)
  }

  // MARK: Reading the CSVs

  private static func readSources(_ directory: URL) throws -> [(path: String, data: Data)] {
    try sourcePaths.map { path in
      let url = directory.appendingPathComponent(path)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw SharedResources.Failure.unreadable(path: url.path)
      }
      return (path, data)
    }
  }

  private static func checksum(_ sources: [(path: String, data: Data)]) -> UInt64 {
    var hash = FNV1a64()
    for source in sources {
      hash.combine(Array(source.path.utf8) + [0])
      hash.combine(source.data)
    }
    return hash.value
  }

  /// A CSV with named columns; `\N` (OpenFlights' null) reads as "".
  private struct Table {
    let path: String
    let csv: CSVTable
    let columns: [String: Int]

    init(_ path: String, _ sources: [(path: String, data: Data)]) {
      self.path = path
      let data = sources.first { $0.path == path }?.data ?? Data()
      csv = CSVTable(text: String(decoding: data, as: UTF8.self))
      columns = Dictionary(csv.header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func column(_ name: String) throws -> Int {
      guard let index = columns[name] else {
        throw SharedResources.Failure.malformed(path: path, reason: "no column \"\(name)\"")
      }
      return index
    }

    /// Calls `body` with a field reader for each row.
    func forEachRow(_ body: (_ field: (String) throws -> String, _ number: Int) throws -> Void) throws {
      for (index, row) in csv.rows.enumerated() {
        try body(
          { name in
            let value = row[try column(name)]
            return value == "\\N" ? "" : value
          }, index + 2)
      }
    }

    func double(_ text: String, _ column: String, row: Int) throws -> Double {
      guard let value = Double(text), value.isFinite else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \(row): \(column) \"\(text)\" is not a number")
      }
      return value
    }

    func integer(_ text: String, _ column: String, row: Int) throws -> Int {
      guard let value = Int(text) else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "row \(row): \(column) \"\(text)\" is not an integer")
      }
      return value
    }
  }

  static func tables(from sources: [(path: String, data: Data)]) throws -> ReferenceTables {
    var tables = ReferenceTables()

    let airports = Table("airports/airports.csv", sources)
    try airports.forEachRow { field, row in
      let iata = try field("iata")
      guard !iata.isEmpty else { return }
      tables.airports.append(
        Airport(
          iata: iata, icao: try field("icao"), name: try field("name"), city: try field("city"),
          subdivision: try field("subd"), countryCode: try field("country"),
          latitude: try airports.double(try field("lat"), "lat", row: row),
          longitude: try airports.double(try field("lon"), "lon", row: row), timeZoneIdentifier: try field("tz")))
    }
    tables.airports.sort { $0.iata < $1.iata }
    let airportIndex = Dictionary(
      tables.airports.enumerated().map { ($1.iata, $0) }, uniquingKeysWith: { first, _ in first })

    let airlines = Table("openflights/airlines.csv", sources)
    var airlineNames: [String: String] = [:]  // OpenFlights airline id → name
    try airlines.forEachRow { field, _ in
      airlineNames[try field("airline_id")] = try field("name")
      let iata = try field("iata")
      let icao = try field("icao")
      let validIATA =
        iata.utf8.count == 2
        && iata.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
      let validICAO = icao.utf8.count == 3 && icao.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
      guard validIATA || validICAO else { return }
      tables.airlines.append(
        Airline(
          iata: validIATA ? iata : "", icao: validICAO ? icao : "", name: try field("name"),
          country: try field("country"), active: try field("active") == "Y"))
    }

    let aircraft = Table("openflights/aircraft_types.csv", sources)
    try aircraft.forEachRow { field, _ in
      tables.aircraftTypes.append(
        AircraftType(name: try field("name"), iata: try field("iata"), icao: try field("icao")))
    }

    let countries = Table("geonames/countries.csv", sources)
    try countries.forEachRow { field, _ in
      tables.countries.append(
        Country(
          iso2: try field("iso2"), iso3: try field("iso3"), name: try field("name"), continent: try field("continent"),
          currencyCode: try field("currency_code"),
          languages: try field("languages").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }))
    }
    tables.countries.sort { $0.iso2 < $1.iso2 }

    let cities = Table("geonames/cities.csv", sources)
    try cities.forEachRow { field, row in
      tables.cities.append(
        City(
          geonameID: try cities.integer(try field("geonameid"), "geonameid", row: row), name: try field("name"),
          countryCode: try field("country_code"), admin1: try field("admin1_code"),
          latitude: try cities.double(try field("latitude"), "latitude", row: row),
          longitude: try cities.double(try field("longitude"), "longitude", row: row),
          population: try cities.integer(try field("population"), "population", row: row),
          timeZoneIdentifier: try field("timezone")))
    }
    tables.cities.sort { ($0.population, $1.geonameID) > ($1.population, $0.geonameID) }

    let routes = Table("openflights/routes.csv", sources)
    var routeCounts = [Int](repeating: 0, count: tables.airports.count)
    var keyed: [(origin: Int, destination: Int, row: Int, route: Route)] = []
    // Per two-character code, how many routes name each OpenFlights airline id.
    var idsOfCode: [String: [String: Int]] = [:]
    try routes.forEachRow { field, row in
      let code = try field("airline")
      if Self.isIATACode(code) { idsOfCode[code, default: [:]][try field("airline_id"), default: 0] += 1 }
      guard let origin = airportIndex[try field("source_airport")],
        let destination = airportIndex[try field("dest_airport")], origin != destination
      else { return }
      let stops = Int(try field("stops")) ?? 0
      let route = Route(
        airline: try field("airline"), origin: tables.airports[origin].iata,
        destination: tables.airports[destination].iata, codeshare: try field("codeshare") == "Y", stops: stops,
        equipment: try field("equipment").split(separator: " ").map(String.init))
      keyed.append((origin, destination, row, route))
      routeCounts[origin] += 1
      routeCounts[destination] += 1
    }
    keyed.sort { ($0.origin, $0.destination, $0.row) < ($1.origin, $1.destination, $1.row) }
    tables.routes = keyed.map(\.route)
    tables.carriers = try carriers(idsOfCode: idsOfCode, airlineNames: airlineNames, sources: sources)

    var metroOrder: [String] = []
    var metroRows: [String: (name: String, country: String, airports: [Int])] = [:]
    for path in ["airports/iata_metro_areas.csv", "airports/iata_metro_areas_additions.csv"] {
      try Table(path, sources).forEachRow { field, _ in
        let code = try field("city_code")
        if metroRows[code] == nil {
          metroOrder.append(code)
          metroRows[code] = (try field("city_name"), try field("country"), [])
        }
        if let airport = airportIndex[try field("airport_code")], metroRows[code]?.airports.contains(airport) == false {
          metroRows[code]?.airports.append(airport)
        }
      }
    }
    var citiesByName: [String: [City]] = [:]
    for city in tables.cities { citiesByName[TextFolding.fold(city.name), default: []].append(city) }
    for code in metroOrder.sorted() {
      guard let row = metroRows[code], !row.airports.isEmpty else { continue }
      let members = row.airports.sorted()
      let busiest = members.max { (routeCounts[$0], $1) < (routeCounts[$1], $0) }!
      let mean = Coordinate(
        uncheckedLatitude: members.map { tables.airports[$0].latitude }.reduce(0, +) / Double(members.count),
        longitude: members.map { tables.airports[$0].longitude }.reduce(0, +) / Double(members.count))
      let city = citiesByName[TextFolding.fold(row.name)]?.first {
        $0.countryCode == row.country && $0.coordinate.distanceKm(to: mean) < 100
      }
      tables.metroAreas.append(
        MetroArea(
          code: code, name: row.name, countryCode: row.country, airportCodes: members.map { tables.airports[$0].iata },
          latitude: city?.latitude ?? mean.latitude, longitude: city?.longitude ?? mean.longitude,
          timeZoneIdentifier: tables.airports[busiest].timeZoneIdentifier))
    }
    return tables
  }

  /// The search entries of `tables`: airport codes, names and cities; city names; metro codes and names.
  static func searchItems(_ tables: ReferenceTables) -> [(ref: PlaceRef, folded: String, isCode: Bool)] {
    var items: [(ref: PlaceRef, folded: String, isCode: Bool)] = []
    for (index, airport) in tables.airports.enumerated() {
      let ref = PlaceRef(.airport, index)
      items.append((ref, airport.iata.lowercased(), true))
      items.append((ref, TextFolding.fold(airport.name), false))
      items.append((ref, TextFolding.fold(airport.city), false))
    }
    for (index, city) in tables.cities.enumerated() {
      items.append((PlaceRef(.city, index), TextFolding.fold(city.name), false))
    }
    for (index, area) in tables.metroAreas.enumerated() {
      items.append((PlaceRef(.metroArea, index), area.code.lowercased(), true))
      items.append((PlaceRef(.metroArea, index), TextFolding.fold(area.name), false))
    }
    return items
  }

  /// A two-character IATA airline code (letters and digits).
  static func isIATACode(_ code: String) -> Bool {
    code.utf8.count == 2
      && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
  }

  /// The carriers (``Carrier``): every code of the routes, named after the airline its routes point
  /// to (the most frequent `airline_id`, the first by id of equals), then `carrier_changes.csv`.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` for an unknown change, a
  ///   successor that is not an operating carrier, or a code listed twice.
  static func carriers(
    idsOfCode: [String: [String: Int]], airlineNames: [String: String], sources: [(path: String, data: Data)]
  ) throws -> [Carrier] {
    var carriers: [String: Carrier] = [:]
    for (code, ids) in idsOfCode {
      let named = ids.filter { airlineNames[$0.key] != nil }
      let best = named.max { ($0.value, $1.key) < ($1.value, $0.key) }
      carriers[code] = Carrier(code: code, name: best.flatMap { airlineNames[$0.key] } ?? code)
    }
    let path = "openflights/carrier_changes.csv"
    let changes = Table(path, sources)
    var seen = Set<String>()
    var successors: [(code: String, successor: String, row: Int)] = []
    try changes.forEachRow { field, row in
      let code = try field("iata")
      guard isIATACode(code), seen.insert(code).inserted else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "row \(row): code \"\(code)\" is invalid or listed twice")
      }
      let since = try field("date")
      let source = try field("source")
      let listedName = try field("name_in_openflights")
      let oldName = carriers[code]?.name ?? listedName
      let successor = try field("successor_iata")
      let current = try field("current_name")
      switch try field("change") {
      case "merged":
        guard isIATACode(successor), successor != code, !current.isEmpty else {
          throw SharedResources.Failure.malformed(
            path: path, reason: "row \(row): a merge needs a successor and its name")
        }
        carriers[code] = Carrier(
          code: code, name: oldName, status: .merged, successor: successor, since: since, source: source)
        successors.append((successor, current, row))
      case "ceased":
        carriers[code] = Carrier(code: code, name: oldName, status: .ceased, since: since, source: source)
      case "renamed", "corrected":
        guard successor == code, !current.isEmpty else {
          throw SharedResources.Failure.malformed(
            path: path, reason: "row \(row): a rename keeps the code and gives a name")
        }
        carriers[code] = Carrier(
          code: code, name: current, status: .operating, since: since.isEmpty ? nil : since, source: source)
      case let other:
        throw SharedResources.Failure.malformed(path: path, reason: "row \(row): unknown change \"\(other)\"")
      }
    }
    for (code, name, row) in successors {
      if let existing = carriers[code] {
        guard existing.status == .operating else {
          throw SharedResources.Failure.malformed(path: path, reason: "row \(row): successor \(code) does not operate")
        }
      } else {
        carriers[code] = Carrier(code: code, name: name)
      }
    }
    let alliancesPath = "openflights/alliances.csv"
    try Table(alliancesPath, sources).forEachRow { field, row in
      let code = try field("iata")
      guard carriers[code]?.status == .operating, carriers[code]?.alliance == nil else {
        throw SharedResources.Failure.malformed(
          path: alliancesPath, reason: "row \(row): \(code) is not an operating carrier of the routes, or listed twice")
      }
      carriers[code]?.alliance = try field("alliance")
    }
    return carriers.values.sorted { $0.code < $1.code }
  }

  // MARK: The binary form

  static func encode(_ tables: ReferenceTables, checksum: UInt64) -> [UInt8] {
    var strings: [String] = []
    var ids: [String: UInt32] = [:]
    func id(_ value: String) -> UInt32 {
      if let known = ids[value] { return known }
      let new = UInt32(strings.count)
      strings.append(value)
      ids[value] = new
      return new
    }
    var body = BinaryWriter()
    body.count(tables.airports.count)
    for airport in tables.airports {
      for text in [
        airport.iata, airport.icao, airport.name, airport.city, airport.subdivision, airport.countryCode,
        airport.timeZoneIdentifier,
      ] { body.u32(id(text)) }
      body.f64(airport.latitude)
      body.f64(airport.longitude)
    }
    body.count(tables.airlines.count)
    for airline in tables.airlines {
      for text in [airline.iata, airline.icao, airline.name, airline.country] { body.u32(id(text)) }
      body.u8(airline.active ? 1 : 0)
    }
    body.count(tables.aircraftTypes.count)
    for type in tables.aircraftTypes {
      for text in [type.name, type.iata, type.icao] { body.u32(id(text)) }
    }
    body.count(tables.countries.count)
    for country in tables.countries {
      for text in [country.iso2, country.iso3, country.name, country.continent, country.currencyCode] {
        body.u32(id(text))
      }
      body.count(country.languages.count)
      for language in country.languages { body.u32(id(language)) }
    }
    body.count(tables.cities.count)
    for city in tables.cities {
      body.u64(UInt64(city.geonameID))
      for text in [city.name, city.countryCode, city.admin1, city.timeZoneIdentifier] { body.u32(id(text)) }
      body.f64(city.latitude)
      body.f64(city.longitude)
      body.u64(UInt64(city.population))
    }
    body.count(tables.metroAreas.count)
    for area in tables.metroAreas {
      for text in [area.code, area.name, area.countryCode, area.timeZoneIdentifier] { body.u32(id(text)) }
      body.count(area.airportCodes.count)
      for code in area.airportCodes { body.u32(id(code)) }
      body.f64(area.latitude)
      body.f64(area.longitude)
    }
    let airportIndex = Dictionary(
      tables.airports.enumerated().map { ($1.iata, $0) }, uniquingKeysWith: { first, _ in first })
    var equipmentLists: [[String]] = []
    var equipmentIDs: [[String]: UInt32] = [:]
    body.count(tables.routes.count)
    for route in tables.routes {
      body.u32(id(route.airline))
      body.u16(UInt16(airportIndex[route.origin] ?? 0))
      body.u16(UInt16(airportIndex[route.destination] ?? 0))
      body.u8(route.codeshare ? 1 : 0)
      body.u8(UInt8(clamping: route.stops))
      if let known = equipmentIDs[route.equipment] {
        body.u32(known)
      } else {
        equipmentIDs[route.equipment] = UInt32(equipmentLists.count)
        body.u32(UInt32(equipmentLists.count))
        equipmentLists.append(route.equipment)
      }
    }
    body.count(equipmentLists.count)
    for list in equipmentLists {
      body.count(list.count)
      for code in list { body.u32(id(code)) }
    }
    body.count(tables.carriers.count)
    for carrier in tables.carriers {
      for text in [
        carrier.code, carrier.name, carrier.successor ?? "", carrier.since ?? "", carrier.source ?? "",
        carrier.alliance ?? "",
      ] {
        body.u32(id(text))
      }
      body.u8(carrier.status == .operating ? 0 : carrier.status == .merged ? 1 : 2)
    }
    SearchIndex.write(items: searchItems(tables), to: &body)

    var file = BinaryWriter()
    file.raw(magic)
    file.u32(formatVersion)
    file.u64(checksum)
    file.count(strings.count)
    for string in strings {
      file.u16(UInt16(string.utf8.count))
      file.raw(Array(string.utf8))
    }
    file.raw(body.bytes)
    return file.bytes
  }
}
