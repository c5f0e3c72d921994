import Foundation

/// The world the app is set in: airports, airlines, routes, aircraft types, cities, countries and
/// IATA metropolitan areas, with lookups, place resolution (``resolvePlace(_:)``) and
/// autocomplete (``suggestions(for:limit:kinds:)``).
///
/// Sources and licences: `Shared/DATA-SOURCES.md` (see ``attribution``). The app loads the
/// compiled form `Shared/compiled/reference-data.bin` (see ``ReferenceDataCompiler``) once per
/// process, lazily, on the first call of ``shared()``; a command that never asks for it (such as
/// `--help`) never reads it. Immutable after loading, so safe to share between threads.
/// Features take a `ReferenceData` in their initialisers so tests can inject a small one built
/// with ``init(airports:airlines:routes:aircraftTypes:cities:countries:metroAreas:)``.
public final class ReferenceData: Sendable {
  /// The text for an About screen: the data sources and their licences, one per line.
  public static let attribution = """
    Airport data: airportsdata (MIT), after mwgg/Airports.
    Airline and route data: OpenFlights.org (ODbL).
    City data: GeoNames (CC BY 4.0).
    """

  /// Airports with an IATA code, sorted by code.
  public let airports: [Airport]
  /// Airlines with a valid IATA or ICAO code, in OpenFlights order.
  public let airlines: [Airline]
  /// Aircraft types.
  public let aircraftTypes: [AircraftType]
  /// Cities of at least 100,000 inhabitants, most populous first.
  public let cities: [City]
  /// Countries and territories, sorted by ISO alpha-2 code.
  public let countries: [Country]
  /// IATA metropolitan areas, sorted by code.
  public let metroAreas: [MetroArea]
  /// The carriers of the routes today, sorted by code (``Carrier``: merged and ceased airlines of
  /// the 2014 routes, corrected names; `Shared/openflights/carrier_changes.csv`).
  public let carriers: [Carrier]
  let carrierIndex: [String: Int]

  let airportIndex: [String: Int]
  /// The routes, packed (see ``RouteTable``).
  let routeTable: RouteTable
  /// For each airport (same index), its outgoing routes: a range of `routeTable.routes`.
  let routeRanges: [Range<Int>]
  /// For each airport (same index), routes departing plus routes arriving.
  let routeCounts: [Int]
  /// Airport indices, most routes first (ties by code).
  let airportsByRoutes: [Int]
  /// For each metro area (same index), the route counts of its airports summed.
  let metroRouteCounts: [Int]
  let airlineIndex: [String: Int]
  let aircraftIndex: [String: Int]
  let countryIndex: [String: Int]
  let metroIndex: [String: Int]
  let cityIndex: [Int: Int]
  let search: SearchIndex
  /// The table sizes, indexed by ``PlaceRef/Kind`` raw value, that search entries are checked against.
  let searchLimits: [Int]
  /// The airport grid of ``nearestAirport(to:)``, built on first use.
  let airportGrid = LazyAirportGrid()

  // MARK: Loading

  private static let loaded: Result<ReferenceData, ServiceError> = {
    do {
      let url = try SharedResources.url(ReferenceDataCompiler.compiledPath)
      guard let bytes = readFile(url.path) else { throw SharedResources.Failure.unreadable(path: url.path) }
      let (tables, routes, search) = try decode(bytes)
      return .success(ReferenceData(tables: tables, routes: routes, search: search))
    } catch {
      return .failure(
        ServiceError(
          .unavailable, code: "reference_data_unavailable",
          message: "cannot load the airport and city data: \(ErrorText.reason(of: error))"))
    }
  }()

  /// The reference data of `Shared/compiled/reference-data.bin`, loaded on first use (a few
  /// milliseconds) and kept for the life of the process.
  /// - Throws: ``ServiceError`` `reference_data_unavailable` (kind `.unavailable`, exit 1) when the
  ///   file is missing, corrupt or of another format version (re-run `Scripts/compile-data`).
  public static func shared() throws(ServiceError) -> ReferenceData {
    try loaded.get()
  }

  /// Decodes a compiled file (the bytes of `Shared/compiled/reference-data.bin`).
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` when the bytes are not a
  ///   compiled file of the current ``ReferenceDataCompiler/formatVersion`` or are truncated.
  public convenience init(compiled data: Data) throws {
    let (tables, routes, search) = try Self.decode(Array(data))
    self.init(tables: tables, routes: routes, search: search)
  }

  /// Reference data from the CSVs of a `Shared/` directory, compiled in memory (slow: for tests
  /// and the compiler; the app loads the compiled file).
  public convenience init(compilingCSVsIn sharedDirectory: URL) throws {
    try self.init(compiled: try ReferenceDataCompiler.compile(sharedDirectory: sharedDirectory))
  }

  /// Reference data from explicit tables, for tests and previews (builds the search index, so
  /// keep it small). Routes whose airports are missing are dropped.
  public convenience init(
    airports: [Airport], airlines: [Airline] = [], routes: [Route] = [], aircraftTypes: [AircraftType] = [],
    cities: [City] = [], countries: [Country] = [], metroAreas: [MetroArea] = [], carriers: [Carrier] = []
  ) {
    var tables = ReferenceTables()
    tables.carriers = carriers.sorted { $0.code < $1.code }
    tables.airports = airports.sorted { $0.iata < $1.iata }
    tables.routes = routes
    tables.airlines = airlines
    tables.aircraftTypes = aircraftTypes
    tables.cities = cities.sorted { ($0.population, $1.geonameID) > ($1.population, $0.geonameID) }
    tables.countries = countries.sorted { $0.iso2 < $1.iso2 }
    tables.metroAreas = metroAreas.sorted { $0.code < $1.code }
    self.init(
      tables: tables, routes: RouteTable(routes: routes, airports: tables.airports),
      search: SearchIndex(items: ReferenceDataCompiler.searchItems(tables)))
  }

  init(tables: ReferenceTables, routes: RouteTable, search: SearchIndex) {
    airports = tables.airports
    airlines = tables.airlines
    routeTable = routes
    aircraftTypes = tables.aircraftTypes
    cities = tables.cities
    countries = tables.countries
    metroAreas = tables.metroAreas
    carriers = tables.carriers
    carrierIndex = Dictionary(
      tables.carriers.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { first, _ in first })
    self.search = search
    searchLimits = [tables.airports.count, tables.cities.count, tables.metroAreas.count]

    var airportIndex: [String: Int] = [:]
    airportIndex.reserveCapacity(airports.count)
    for (index, airport) in airports.enumerated() { airportIndex[airport.iata] = index }
    self.airportIndex = airportIndex

    var ranges = [Range<Int>](repeating: 0..<0, count: airports.count)
    var counts = [Int](repeating: 0, count: airports.count)
    let packed = routes.routes
    var start = 0
    while start < packed.count {
      let origin = Int(packed[start].origin)
      var end = start + 1
      while end < packed.count && Int(packed[end].origin) == origin { end += 1 }
      ranges[origin] = start..<end
      counts[origin] += end - start
      start = end
    }
    for route in packed { counts[Int(route.destination)] += 1 }
    routeRanges = ranges
    routeCounts = counts
    airportsByRoutes = airports.indices.sorted { (counts[$1], $0) < (counts[$0], $1) }

    var airlineIndex: [String: Int] = [:]
    airlineIndex.reserveCapacity(airlines.count * 2)
    let allAirlines = tables.airlines
    func register(_ code: String, _ index: Int) {
      guard !code.isEmpty else { return }
      if let existing = airlineIndex[code], allAirlines[existing].active || !allAirlines[index].active { return }
      airlineIndex[code] = index
    }
    for (index, airline) in allAirlines.enumerated() {
      register(airline.iata, index)
      register(airline.icao, index)
    }
    self.airlineIndex = airlineIndex
    var aircraftIndex: [String: Int] = [:]
    for (index, type) in aircraftTypes.enumerated() {
      for code in [type.iata, type.icao] where !code.isEmpty && aircraftIndex[code] == nil {
        aircraftIndex[code] = index
      }
    }
    self.aircraftIndex = aircraftIndex
    countryIndex = Dictionary(countries.enumerated().map { ($1.iso2, $0) }, uniquingKeysWith: { first, _ in first })
    metroRouteCounts = metroAreas.map { area in
      area.airportCodes.reduce(0) { $0 + (airportIndex[$1].map { counts[$0] } ?? 0) }
    }
    metroIndex = Dictionary(metroAreas.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { first, _ in first })
    var cityIndex: [Int: Int] = [:]
    cityIndex.reserveCapacity(cities.count)
    for (index, city) in cities.enumerated() where cityIndex[city.geonameID] == nil {
      cityIndex[city.geonameID] = index
    }
    self.cityIndex = cityIndex
  }

  // MARK: Lookups

  /// The airport with IATA code `iata` (any case), or nil.
  public func airport(iata: String) -> Airport? {
    airportIndex[iata.uppercased()].map { airports[$0] }
  }

  /// The airline with IATA 2-character or ICAO 3-letter code `code` (any case); where several
  /// airlines share a code, the active one. Nil when unknown.
  public func airline(code: String) -> Airline? {
    airlineIndex[code.uppercased()].map { airlines[$0] }
  }

  /// The carrier with IATA code `code` (any case), or nil when no route uses it.
  public func carrier(code: String) -> Carrier? {
    carrierIndex[code.uppercased()].map { carriers[$0] }
  }

  /// The aircraft type with IATA (`738`) or ICAO (`B738`) code `code`, or nil.
  public func aircraftType(code: String) -> AircraftType? {
    aircraftIndex[code.uppercased()].map { aircraftTypes[$0] }
  }

  /// The country with ISO 3166-1 alpha-2 code `iso2` (any case), or nil.
  public func country(iso2: String) -> Country? {
    countryIndex[iso2.uppercased()].map { countries[$0] }
  }

  /// The main ISO 4217 currency of the country with alpha-2 code `iso2` (`"JP"` → `"JPY"`), for
  /// pricing in the local currency; a currency since replaced is given as its successor
  /// (``Currency/current(_:)``: `"BG"` → `"EUR"`); nil for an unknown country or one without a currency.
  public func currencyCode(forCountry iso2: String) -> String? {
    guard let code = country(iso2: iso2)?.currencyCode, !code.isEmpty else { return nil }
    return Currency.current(code)
  }

  /// The IATA metropolitan area with code `code` (`NYC`, any case), or nil.
  public func metroArea(code: String) -> MetroArea? {
    metroIndex[code.uppercased()].map { metroAreas[$0] }
  }

  /// The airports of metropolitan area `area`, busiest first.
  public func airports(of area: MetroArea) -> [Airport] {
    area.airportCodes.compactMap { airportIndex[$0] }.sorted { (routeCounts[$1], $0) < (routeCounts[$0], $1) }
      .map { airports[$0] }
  }

  /// The city with GeoNames id `geonameID`, or nil.
  public func city(geonameID: Int) -> City? {
    cityIndex[geonameID].map { cities[$0] }
  }

  /// The cities named `name` (diacritic- and case-insensitive: "zurich" finds Zürich), most
  /// populous first.
  public func cities(named name: String) -> [City] {
    search.exactMatches(TextFolding.fold(name), limits: searchLimits).filter { $0.ref.kind == .city }.map {
      cities[$0.ref.index]
    }
  }

  // MARK: Routes

  /// The number of routes.
  public var numberOfRoutes: Int { routeTable.routes.count }

  /// Every route, sorted by origin, then destination. Builds 66,000 values: call it once (to
  /// build a graph, say), not per lookup; ``routes(from:)`` is the per-airport view.
  public func allRoutes() -> [Route] {
    routeTable.routes.map { routeTable.route($0, airports: airports) }
  }

  /// The routes departing from airport `origin` (IATA, any case), sorted by destination; empty
  /// for an unknown airport.
  public func routes(from origin: String) -> [Route] {
    guard let index = airportIndex[origin.uppercased()] else { return [] }
    return routeTable.routes[routeRanges[index]].map { routeTable.route($0, airports: airports) }
  }

  /// The airports with a route from `origin` (IATA codes, sorted, without repeats).
  public func destinations(from origin: String) -> [String] {
    guard let index = airportIndex[origin.uppercased()] else { return [] }
    var result: [String] = []
    for route in routeTable.routes[routeRanges[index]] {
      let code = airports[Int(route.destination)].iata
      if result.last != code { result.append(code) }
    }
    return result
  }

  /// The number of routes departing from or arriving at airport `iata`: the measure of how busy
  /// an airport is. 0 for an unknown airport.
  public func routeCount(at iata: String) -> Int {
    airportIndex[iata.uppercased()].map { routeCounts[$0] } ?? 0
  }

  /// The `limit` airports with the most routes (departures plus arrivals), busiest first (ATL, …).
  public func busiestAirports(limit: Int) -> [Airport] {
    airportsByRoutes.prefix(max(0, limit)).map { airports[$0] }
  }

  // MARK: Geography

  /// The airports within `radiusKm` kilometres of `center` (great-circle), nearest first, with
  /// their distance in kilometres. `servedOnly` keeps only airports with at least one route.
  public func airports(near center: Coordinate, radiusKm: Double, servedOnly: Bool = false) -> [(
    airport: Airport, distanceKm: Double
  )] {
    let box = BoundingBox(center: center, radiusKm: radiusKm)
    var result: [(airport: Airport, distanceKm: Double)] = []
    for (index, airport) in airports.enumerated() {
      if servedOnly && routeCounts[index] == 0 { continue }
      let point = airport.coordinate
      guard box.contains(point) else { continue }
      let distance = Geography.distanceKm(center, point)
      if distance <= radiusKm { result.append((airport, distance)) }
    }
    return result.sorted { ($0.distanceKm, $0.airport.iata) < ($1.distanceKm, $1.airport.iata) }
  }

  /// The nearest airport to `point` (great-circle, ``Geography/distanceKm(_:_:)``; of equally near
  /// ones the first by code), or nil when there are no airports.
  ///
  /// Searches a grid of the airports (``AirportGrid``, built on the first call, about a
  /// millisecond) rather than every airport: the same answer as ``nearestAirportByScan(to:)``.
  public func nearestAirport(to point: Coordinate) -> Airport? {
    airportGrid.grid(airports).nearest(to: point).map { airports[$0] }
  }

  /// The nearest airport to `point` by measuring the distance to every airport: the reference
  /// ``nearestAirport(to:)`` is tested against.
  func nearestAirportByScan(to point: Coordinate) -> Airport? {
    var best: (airport: Airport, distance: Double)?
    for airport in airports {
      let distance = Geography.distanceKm(point, airport.coordinate)
      if best == nil || distance < best!.distance { best = (airport, distance) }
    }
    return best?.airport
  }

  /// The radius around a city centre within which an airport with routes serves the city: 50 km.
  public static let cityAirportRadiusKm = 50.0
  /// The farther radius searched when no served airport lies within ``cityAirportRadiusKm``: 120 km.
  public static let cityAirportFallbackRadiusKm = 120.0

  /// The airports that serve `city`, busiest first: those with at least one route within
  /// ``cityAirportRadiusKm`` of its centre, plus the airports of the same-named metropolitan area
  /// of its country (London → LHR, LGW, STN, LTN, LCY, SEN); when there is none, the nearest
  /// served airport within ``cityAirportFallbackRadiusKm``; else none.
  public func airports(serving city: City) -> [Airport] {
    var codes = Set(
      airports(near: city.coordinate, radiusKm: Self.cityAirportRadiusKm, servedOnly: true).map(\.airport.iata))
    let name = TextFolding.fold(city.name)
    for area in metroAreas where area.countryCode == city.countryCode && TextFolding.fold(area.name) == name {
      codes.formUnion(area.airportCodes)
    }
    if codes.isEmpty,
      let nearest = airports(near: city.coordinate, radiusKm: Self.cityAirportFallbackRadiusKm, servedOnly: true).first
    {
      codes.insert(nearest.airport.iata)
    }
    return codes.compactMap { airportIndex[$0] }.sorted { (routeCounts[$1], $0) < (routeCounts[$0], $1) }
      .map { airports[$0] }
  }

  // MARK: Decoding

  /// The bytes of the file at `path`, read in one go; nil when it cannot be read.
  private static func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_size >= 0 else { return nil }
    let size = Int(status.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
      var done = 0
      while done < size {
        let got = read(descriptor, buffer.baseAddress! + done, size - done)
        if got <= 0 {
          failed = got < 0 || done < size
          break
        }
        done += got
      }
      initialized = done
    }
    return failed ? nil : bytes
  }

  private static func decode(_ bytes: [UInt8]) throws -> (ReferenceTables, RouteTable, SearchIndex) {
    let path = ReferenceDataCompiler.compiledPath
    func malformed(_ reason: String) -> SharedResources.Failure { .malformed(path: path, reason: reason) }
    var reader = BinaryReader(bytes)
    do {
      guard try reader.raw(ReferenceDataCompiler.magic.count) == ReferenceDataCompiler.magic else {
        throw malformed("not a compiled reference data file")
      }
      let version = try reader.u32()
      guard version == ReferenceDataCompiler.formatVersion else {
        throw malformed(
          "format version \(version), expected \(ReferenceDataCompiler.formatVersion): run Scripts/compile-data")
      }
      _ = try reader.u64()  // source checksum: checked by the tests, not at run time
      let stringCount = try reader.count()
      guard stringCount <= bytes.count else { throw BinaryReader.Truncated() }
      var strings: [String] = []
      strings.reserveCapacity(stringCount)
      for _ in 0..<stringCount {
        strings.append(try reader.string(length: Int(try reader.u16())))
      }
      func string() throws -> String {
        let id = Int(try reader.u32())
        guard id < strings.count else { throw malformed("string \(id) out of range") }
        return strings[id]
      }
      func count() throws -> Int {
        let value = try reader.count()
        guard value <= bytes.count else { throw malformed("count \(value) out of range") }
        return value
      }

      var tables = ReferenceTables()
      let airportCount = try count()
      tables.airports.reserveCapacity(airportCount)
      for _ in 0..<airportCount {
        tables.airports.append(
          Airport(
            iata: try string(), icao: try string(), name: try string(), city: try string(), subdivision: try string(),
            countryCode: try string(), latitude: 0, longitude: 0, timeZoneIdentifier: try string()))
        tables.airports[tables.airports.count - 1].latitude = try reader.f64()
        tables.airports[tables.airports.count - 1].longitude = try reader.f64()
      }
      for _ in 0..<(try count()) {
        tables.airlines.append(
          Airline(
            iata: try string(), icao: try string(), name: try string(), country: try string(),
            active: try reader.u8() == 1))
      }
      for _ in 0..<(try count()) {
        tables.aircraftTypes.append(AircraftType(name: try string(), iata: try string(), icao: try string()))
      }
      for _ in 0..<(try count()) {
        let iso2 = try string()
        let iso3 = try string()
        let name = try string()
        let continent = try string()
        let currency = try string()
        var languages: [String] = []
        for _ in 0..<(try count()) { languages.append(try string()) }
        tables.countries.append(
          Country(
            iso2: iso2, iso3: iso3, name: name, continent: continent, currencyCode: currency, languages: languages))
      }
      let cityCount = try count()
      tables.cities.reserveCapacity(cityCount)
      for _ in 0..<cityCount {
        let id = Int(truncatingIfNeeded: try reader.u64())
        let name = try string()
        let country = try string()
        let admin1 = try string()
        let zone = try string()
        tables.cities.append(
          City(
            geonameID: id, name: name, countryCode: country, admin1: admin1, latitude: try reader.f64(),
            longitude: try reader.f64(), population: Int(truncatingIfNeeded: try reader.u64()),
            timeZoneIdentifier: zone))
      }
      for _ in 0..<(try count()) {
        let code = try string()
        let name = try string()
        let country = try string()
        let zone = try string()
        var members: [String] = []
        for _ in 0..<(try count()) { members.append(try string()) }
        tables.metroAreas.append(
          MetroArea(
            code: code, name: name, countryCode: country, airportCodes: members, latitude: try reader.f64(),
            longitude: try reader.f64(), timeZoneIdentifier: zone))
      }
      let routeCount = try count()
      var packed: [PackedRoute] = []
      packed.reserveCapacity(routeCount)
      for _ in 0..<routeCount {
        let route = PackedRoute(
          airline: try reader.u32(), origin: try reader.u16(), destination: try reader.u16(),
          codeshare: try reader.u8() == 1, stops: try reader.u8(), equipment: try reader.u32())
        guard Int(route.airline) < strings.count, Int(route.origin) < airportCount,
          Int(route.destination) < airportCount
        else { throw malformed("route out of range") }
        packed.append(route)
      }
      var equipment: [[String]] = []
      for _ in 0..<(try count()) {
        var list: [String] = []
        for _ in 0..<(try count()) { list.append(try string()) }
        equipment.append(list)
      }
      guard packed.allSatisfy({ Int($0.equipment) < equipment.count }) else { throw malformed("route out of range") }
      for _ in 0..<(try count()) {
        let code = try string()
        let name = try string()
        let successor = try string()
        let since = try string()
        let source = try string()
        let alliance = try string()
        let status: Carrier.Status
        switch try reader.u8() {
        case 0: status = .operating
        case 1: status = .merged
        case 2: status = .ceased
        default: throw malformed("unknown carrier status")
        }
        tables.carriers.append(
          Carrier(
            code: code, name: name, status: status, successor: successor.isEmpty ? nil : successor,
            since: since.isEmpty ? nil : since, source: source.isEmpty ? nil : source,
            alliance: alliance.isEmpty ? nil : alliance))
      }
      let search = try SearchIndex(reading: &reader)
      guard reader.isAtEnd else { throw malformed("unexpected bytes after the search index") }
      return (tables, RouteTable(strings: strings, equipment: equipment, routes: packed), search)
    } catch is BinaryReader.Truncated {
      throw malformed("the file is truncated")
    }
  }
}
