import Common
import Foundation

/// The reference data a flight network is generated from: airports, airlines, routes, aircraft
/// type names. Plain values, so that tests can build small networks and the app can feed it the
/// real data of `Shared/` (OpenFlights routes and airlines, airportsdata airports).
public struct FlightNetworkInput: Sendable {
  public struct Airport: Sendable, Hashable {
    public var iata: String
    public var name: String
    public var city: String
    /// ISO 3166-1 alpha-2.
    public var country: String
    public var latitude: Double
    public var longitude: Double
    /// IANA time zone.
    public var timeZone: String

    public init(
      iata: String, name: String, city: String, country: String, latitude: Double, longitude: Double,
      timeZone: String
    ) {
      self.iata = iata
      self.name = name
      self.city = city
      self.country = country
      self.latitude = latitude
      self.longitude = longitude
      self.timeZone = timeZone
    }
  }

  public struct Route: Sendable, Hashable {
    /// The operating airline's IATA code.
    public var airline: String
    public var origin: String
    public var destination: String
    /// IATA aircraft type codes flown on the route (OpenFlights `equipment`), in order.
    public var equipment: [String]

    public init(airline: String, origin: String, destination: String, equipment: [String]) {
      self.airline = airline
      self.origin = origin
      self.destination = destination
      self.equipment = equipment
    }
  }

  /// A codeshare: `marketing` sells seats, under its own flight numbers, on the flights that
  /// `operating` flies from `origin` to `destination`.
  public struct Codeshare: Sendable, Hashable {
    /// The marketing airline's IATA code.
    public var marketing: String
    /// The operating airline's IATA code.
    public var operating: String
    public var origin: String
    public var destination: String

    public init(marketing: String, operating: String, origin: String, destination: String) {
      self.marketing = marketing
      self.operating = operating
      self.origin = origin
      self.destination = destination
    }
  }

  public var airports: [Airport]
  /// Airline names by IATA code.
  public var airlines: [String: String]
  /// Non-stop routes operated (not codeshares).
  public var routes: [Route]
  /// Non-stop codeshare routes: not flights of their own, but marketing carriers of an operated one.
  public var codeshares: [Codeshare]
  /// Aircraft type names by IATA type code.
  public var aircraftNames: [String: String]

  public init(
    airports: [Airport], airlines: [String: String], routes: [Route], codeshares: [Codeshare] = [],
    aircraftNames: [String: String] = [:]
  ) {
    self.airports = airports
    self.airlines = airlines
    self.routes = routes
    self.codeshares = codeshares
    self.aircraftNames = aircraftNames
  }
}

/// The world's scheduled flights, generated deterministically from routes, and indexed for
/// search. Immutable once built; safe to share between threads.
///
/// ## The schedule model (same inputs → same schedule)
///
/// Every route `(airline, origin, destination)` becomes one to four daily *flight patterns*
/// (a flight number flown at one local time on some weekdays):
/// - **Importance** of a route: the smaller of the two airports' route counts (routes of every
///   airline touching it). Frequency per day: 4 from 400, 3 from 150, 2 from 50, else 1; one less
///   (at least 1) when four or more airlines fly the airport pair; at most 2 beyond 3,500 km and
///   1 beyond 7,000 km. Routes of importance under 20 fly 4 days a week, under 50 with one daily
///   frequency 6 days a week, the rest daily; which weekdays comes from a hash of the route.
/// - **Departure banks**, in the origin's local time: 06:15, 07:40, 09:10, 11:00, 13:05, 15:20,
///   17:10, 18:45, 20:30 up to 3,500 km; 08:30, 11:45, 14:20, 17:55, 21:40, 23:15 beyond. A route's
///   frequencies are spread over the banks from a hashed first bank, plus 0–25 minutes (hash).
/// - **Aircraft**: the route's equipment codes in turn (the first for one frequency), else an
///   A320 (a 330 beyond 5,000 km). Seats and cabins from ``AircraftCatalog``.
/// - **Block time** = 35 minutes (taxi, climb, descent) + great-circle distance × 1.05 / cruise
///   speed of the aircraft class, rounded to 5 minutes; at least 40 minutes.
/// - **Flight numbers**: a carrier's patterns sorted by origin, destination and departure time,
///   numbered from 100 up; when a carrier would pass 9999, its frequencies are capped at 2, then 1.
/// - **Price level**: each airline's fares on a route are 88–112% of the model fare (hash).
///
/// - **Codeshares** (``FlightNetworkInput/codeshares``, each naming its operator; the app's come
///   from ``FlightNetworkInput/init(referenceData:)``) are not flights of their own: the marketing
///   carrier `X` is added to every flight of the operator on that airport pair, unless `X` flies the
///   pair itself or the operator does not. Each marketing carrier numbers its codeshare flights
///   after its own operated ones, in (origin, destination, local departure, operating carrier)
///   order, up to 9999; a marketing number names the operated flight (``operatingFlight(of:)``) but
///   is never booked itself.
///
/// Hashes are FNV-1a over the route's codes (never Swift's seeded `Hasher`). Local times become
/// instants through ``ZoneClock``, built from Foundation's time zone rules, so departures keep
/// their local time across DST changes and arrivals can fall on the next (or previous) local date.
public final class FlightNetwork: Sendable {
  struct Airport: Sendable {
    var iata: String
    var name: String
    var city: String
    var country: String
    var latitude: Double
    var longitude: Double
    var zone: Int32
  }

  /// One flight number flown at one local time on some weekdays.
  struct Pattern: Sendable {
    var origin: Int32
    var destination: Int32
    var carrier: Int32
    var number: Int32
    /// Local departure time at the origin, minutes after midnight.
    var departureMinute: Int32
    var blockMinutes: Int32
    var distanceKm: Int32
    var aircraft: Int32
    /// Bit `n` set: flies on ISO weekday `n + 1` (Monday = bit 0).
    var days: UInt8
    var isDomestic: Bool
    /// The carrier's price level on the route, per mille of the model fare (880–1120).
    var fareLevel: Int32
  }

  let airports: [Airport]
  let zones: [ZoneClock]
  let airportIndex: [String: Int32]
  let carriers: [String]
  let carrierNames: [String]
  let aircraft: [AircraftCatalog.Model]
  let patterns: [Pattern]
  /// Departures of airport `a`: `departureList[departureStart[a]..<departureStart[a + 1]]`,
  /// pattern indices sorted by local departure minute.
  let departureStart: [Int32]
  let departureList: [Int32]
  /// Arrivals into airport `a` (pattern indices), same layout.
  let arrivalStart: [Int32]
  let arrivalList: [Int32]
  /// `patterns[departureList[i]]` and `patterns[arrivalList[i]]`: the searches read an airport's
  /// departures and arrivals in a row instead of one pattern per cache miss.
  let departurePatterns: [Pattern]
  let arrivalPatterns: [Pattern]
  /// Pattern of flight number `n` of carrier `c`: `patternByNumber[flightStart[c] + n - 100]`, for
  /// `n - 100 < flightStart[c + 1] - flightStart[c]` (a carrier's numbers run from 100 without gaps).
  let flightStart: [Int32]
  let patternByNumber: [Int32]
  let carrierIndex: [String: Int32]
  /// The codeshare designators of pattern `p`: `patternCodeshares[codeshareStart[p]..<codeshareStart[p + 1]]`,
  /// in marketing-carrier code order.
  let codeshareStart: [Int32]
  let patternCodeshares: [Flight]
  /// The designators of each marketing carrier: numbers `firstNumber ..< firstNumber + count`, whose
  /// operated patterns are `marketedList[start ..< start + count]` in number order.
  struct MarketedRange: Sendable {
    var firstNumber: Int32
    var start: Int32
    var count: Int32
  }
  let marketedRanges: [String: MarketedRange]
  let marketedList: [Int32]
  /// Names of the carriers that only market flights here (operating carriers are in ``carrierNames``).
  let marketingOnlyNames: [String: String]

  /// Generates the schedule of `input` (see the type's documentation for the model).
  ///
  /// Works on integer indices throughout (airports in IATA order, carriers in code order), so
  /// the world's 67,000 routes take a few milliseconds; the result is the same as comparing and
  /// hashing the codes themselves.
  public init(_ input: FlightNetworkInput) {
    // Each route's airports as indices into `input.airports` (first of its code), once.
    var inputAirportIndex = CodeTable()
    for (index, airport) in input.airports.enumerated() where inputAirportIndex[airport.iata] == nil {
      inputAirportIndex[airport.iata] = Int32(index)
    }
    var used = [Bool](repeating: false, count: input.airports.count)
    var routeEnds = [(origin: Int32, destination: Int32)](repeating: (-1, -1), count: input.routes.count)
    // Each route's non-empty equipment codes, as ids of `equipmentCodes`, in one flat list read in
    // input order here (the pattern loop below visits the routes in key order, and reading each
    // route's equipment array there was a cache miss per route).
    var equipmentIDs = CodeTable()
    var equipmentCodes: [String] = []
    func equipmentID(_ code: String) -> Int32 {
      if let known = equipmentIDs[code] { return known }
      let id = Int32(equipmentCodes.count)
      equipmentCodes.append(code)
      equipmentIDs[code] = id
      return id
    }
    var routeEquipmentStart = [Int32](repeating: 0, count: input.routes.count + 1)
    var routeEquipment: [Int32] = []
    routeEquipment.reserveCapacity(input.routes.count * 2)
    for (index, route) in input.routes.enumerated() {
      let origin = inputAirportIndex[route.origin] ?? -1
      let destination = inputAirportIndex[route.destination] ?? -1
      if origin >= 0 { used[Int(origin)] = true }
      if destination >= 0 { used[Int(destination)] = true }
      routeEnds[index] = (origin, destination)
      for code in route.equipment where !code.isEmpty { routeEquipment.append(equipmentID(code)) }
      routeEquipmentStart[index + 1] = Int32(routeEquipment.count)
    }

    // Airports with a known time zone, in IATA order.
    var zoneIndex: [String: Int32] = [:]
    let eagerYears = ZoneClock.defaultEagerYears()
    var unknownZones: Set<String> = []
    var zones: [ZoneClock] = []
    var airports: [Airport] = []
    var airportIndex: [String: Int32] = [:]
    // The network index of each code's first input airport (-1: not in the network).
    var networkIndexOfInput = [Int32](repeating: -1, count: input.airports.count)
    let candidates = input.airports.indices.filter { index in
      used[Int(inputAirportIndex[input.airports[index].iata]!)]
    }
    for inputIndex in Self.sortedByCode(candidates, code: { input.airports[$0].iata }) {
      let airport = input.airports[inputIndex]
      guard airportIndex[airport.iata] == nil, !unknownZones.contains(airport.timeZone) else { continue }
      let zone: Int32
      if let known = zoneIndex[airport.timeZone] {
        zone = known
      } else if let timeZone = TimeZone(identifier: airport.timeZone) {
        zone = Int32(zones.count)
        zones.append(ZoneClock(timeZone: timeZone, eagerYears: eagerYears))
        zoneIndex[airport.timeZone] = zone
      } else {
        unknownZones.insert(airport.timeZone)
        continue
      }
      networkIndexOfInput[Int(inputAirportIndex[airport.iata]!)] = Int32(airports.count)
      airportIndex[airport.iata] = Int32(airports.count)
      airports.append(
        Airport(
          iata: airport.iata, name: airport.name, city: airport.city, country: airport.country,
          latitude: airport.latitude, longitude: airport.longitude, zone: zone))
    }

    // Routes: known airline and airports. Airlines get provisional ids, then ranks in code order.
    var provisionalAirline = CodeTable()
    var airlineCodes: [String] = []
    var valid: [(airline: Int32, origin: Int32, destination: Int32, route: Int32)] = []
    valid.reserveCapacity(input.routes.count)
    for (index, route) in input.routes.enumerated() {
      let ends = routeEnds[index]
      guard ends.origin >= 0, ends.destination >= 0 else { continue }
      let origin = networkIndexOfInput[Int(ends.origin)]
      let destination = networkIndexOfInput[Int(ends.destination)]
      guard origin >= 0, destination >= 0, origin != destination else { continue }
      let airline: Int32
      if let known = provisionalAirline[route.airline] {
        airline = known
      } else {
        guard input.airlines[route.airline] != nil else {
          provisionalAirline[route.airline] = -1
          continue
        }
        airline = Int32(airlineCodes.count)
        airlineCodes.append(route.airline)
        provisionalAirline[route.airline] = airline
      }
      guard airline >= 0 else { continue }
      valid.append((airline, origin, destination, Int32(index)))
    }
    let carrierOrder = airlineCodes.indices.sorted { airlineCodes[$0] < airlineCodes[$1] }
    let carriers = carrierOrder.map { airlineCodes[$0] }
    var rankOfProvisional = [Int32](repeating: 0, count: airlineCodes.count)
    for (rank, provisional) in carrierOrder.enumerated() { rankOfProvisional[provisional] = Int32(rank) }
    var carrierIndex: [String: Int32] = [:]
    for (index, code) in carriers.enumerated() { carrierIndex[code] = Int32(index) }

    // Sorted by (carrier, origin, destination) (code order, as airports are in IATA order); the
    // first route of a key in the input gives the equipment (of several, the smallest list).
    struct RouteKey {
      var carrier: Int32
      var origin: Int32
      var destination: Int32
      var route: Int32
      var sortKey: UInt64 { UInt64(carrier) << 42 | UInt64(origin) << 21 | UInt64(destination) }
    }
    func routeKey(_ route: (airline: Int32, origin: Int32, destination: Int32, route: Int32)) -> RouteKey {
      RouteKey(
        carrier: rankOfProvisional[Int(route.airline)], origin: route.origin, destination: route.destination,
        route: route.route)
    }
    var keyed: [RouteKey]
    // One integer per route (key, then position in `valid`, which is input order) where the
    // indices fit in 64 bits: always for the world's data.
    let airportBits = Self.bitWidth(airports.count)
    let carrierBits = Self.bitWidth(carriers.count)
    let positionBits = Self.bitWidth(valid.count)
    if 2 * airportBits + carrierBits + positionBits <= 64 {
      var packed = valid.indices.map { position in
        let key = routeKey(valid[position])
        let route =
          UInt64(key.carrier) << (2 * airportBits) | UInt64(key.origin) << airportBits | UInt64(key.destination)
        return route << positionBits | UInt64(position)
      }
      packed.sort()
      let positionMask = UInt64(1) << positionBits - 1
      keyed = packed.map { routeKey(valid[Int($0 & positionMask)]) }
    } else {
      keyed = valid.map(routeKey)
      keyed.sort { ($0.sortKey, $0.route) < ($1.sortKey, $1.route) }
    }
    var routeKeys: [RouteKey] = []
    routeKeys.reserveCapacity(keyed.count)
    for key in keyed {
      guard let last = routeKeys.last, last.sortKey == key.sortKey else {
        routeKeys.append(key)
        continue
      }
      // Several routes of one key (an airline and the one it absorbed on the same pair): the
      // equipment list that sorts first, so the input's order does not matter.
      let equipment = input.routes[Int(key.route)].equipment
      let kept = input.routes[Int(last.route)].equipment
      if equipment.lexicographicallyPrecedes(kept) { routeKeys[routeKeys.count - 1] = key }
    }

    // Each airport's route count, and per route key the route keys of its unordered airport pair
    // (both directions, every carrier): the keys grouped by their lower airport (a counting
    // sort), then counted by the higher one in a scratch array by airport. Sequential passes
    // instead of a hash table of pairs probed three times per route (a cache miss each).
    var degree = [Int](repeating: 0, count: airports.count)
    var lowStart = [Int32](repeating: 0, count: airports.count + 1)
    for key in routeKeys {
      degree[Int(key.origin)] += 1
      degree[Int(key.destination)] += 1
      lowStart[Int(min(key.origin, key.destination)) + 1] += 1
    }
    for airport in 0..<airports.count { lowStart[airport + 1] += lowStart[airport] }
    var byLow = [UInt64](repeating: 0, count: routeKeys.count)  // higher airport << 32 | route key index
    var lowFill = lowStart
    for (index, key) in routeKeys.enumerated() {
      let low = Int(min(key.origin, key.destination))
      byLow[Int(lowFill[low])] = UInt64(max(key.origin, key.destination)) << 32 | UInt64(index)
      lowFill[low] += 1
    }
    var pairRoutes = [Int32](repeating: 0, count: routeKeys.count)
    var pairCounter = [Int32](repeating: 0, count: airports.count)
    for low in 0..<airports.count {
      let group = byLow[Int(lowStart[low])..<Int(lowStart[low + 1])]
      for entry in group { pairCounter[Int(entry >> 32)] += 1 }
      for entry in group { pairRoutes[Int(entry & 0xFFFF_FFFF)] = pairCounter[Int(entry >> 32)] }
      for entry in group { pairCounter[Int(entry >> 32)] = 0 }
    }

    // Aircraft, numbered in order of first use, by equipment id.
    let defaultLongHaul = equipmentID("333")
    let defaultShortHaul = equipmentID("320")
    var aircraftOfEquipment = [Int32](repeating: -1, count: equipmentCodes.count)
    var aircraft: [AircraftCatalog.Model] = []
    func aircraftID(_ equipment: Int32) -> Int32 {
      let known = aircraftOfEquipment[Int(equipment)]
      if known >= 0 { return known }
      let id = Int32(aircraft.count)
      aircraft.append(AircraftCatalog.model(code: equipmentCodes[Int(equipment)], names: input.aircraftNames))
      aircraftOfEquipment[Int(equipment)] = id
      return id
    }

    // Hash prefixes: FNV-1a of "airline|" per carrier, and each airport's code bytes.
    let carrierHashPrefix = carriers.map { fnv1a($0 + "|") }
    let airportCodes = airports.map { Array($0.iata.utf8) }

    // Frequencies.
    struct Planned {
      var frequency: Int
      var days: UInt8
      var distance: Double
      var hash: UInt64
    }
    var planned: [Planned] = []
    planned.reserveCapacity(routeKeys.count)
    var perCarrier = [Int](repeating: 0, count: carriers.count)
    for (routeIndex, key) in routeKeys.enumerated() {
      let a = airports[Int(key.origin)]
      let b = airports[Int(key.destination)]
      let distance = greatCircleKm(a.latitude, a.longitude, b.latitude, b.longitude)
      let importance = min(degree[Int(key.origin)], degree[Int(key.destination)])
      var frequency = importance >= 400 ? 4 : importance >= 150 ? 3 : importance >= 50 ? 2 : 1
      if pairRoutes[routeIndex] >= 4 { frequency = max(1, frequency - 1) }
      if distance > 7000 { frequency = 1 } else if distance > 3500 { frequency = min(frequency, 2) }
      // fnv1a("\(airline)|\(origin)|\(destination)"), continued from the carrier's prefix.
      var hash = carrierHashPrefix[Int(key.carrier)]
      for byte in airportCodes[Int(key.origin)] { hash = fnv1aStep(hash, byte) }
      hash = fnv1aStep(hash, UInt8(ascii: "|"))
      for byte in airportCodes[Int(key.destination)] { hash = fnv1aStep(hash, byte) }
      var days: UInt8 = 0x7F
      if importance < 20 {
        days = Self.weekdays(count: 4, hash: hash)
      } else if importance < 50 && frequency == 1 {
        days = Self.weekdays(count: 6, hash: hash)
      }
      planned.append(Planned(frequency: frequency, days: days, distance: distance, hash: hash))
      perCarrier[Int(key.carrier)] += frequency
    }
    for index in planned.indices {
      let total = perCarrier[Int(routeKeys[index].carrier)]
      if total > 9_800 { planned[index].frequency = min(planned[index].frequency, total > 19_000 ? 1 : 2) }
    }

    // Patterns, numbered per carrier in (origin, destination, departure) order: the routes are in
    // that order already, so only a route's own frequencies need ordering by departure. Numbers
    // past 9999 are dropped.
    let shortBanks: [Int32] = [375, 460, 550, 660, 785, 920, 1030, 1125, 1230]
    let longBanks: [Int32] = [510, 705, 860, 1075, 1300, 1395]
    var patterns: [Pattern] = []
    patterns.reserveCapacity(planned.count * 2)
    var nextNumber = [Int32](repeating: 100, count: carriers.count)
    var routePatterns: [Pattern] = []
    routePatterns.reserveCapacity(4)
    // The patterns of route key `r` are `patterns[routeEnd[r - 1]..<routeEnd[r]]` (routeEnd[-1] = 0).
    var routeEnd = [Int32](repeating: 0, count: routeKeys.count)
    for (routeIndex, (plan, key)) in zip(planned, routeKeys).enumerated() {
      defer { routeEnd[routeIndex] = Int32(patterns.count) }
      let banks = plan.distance > 3500 ? longBanks : shortBanks
      let firstBank = Int(plan.hash % UInt64(banks.count))
      let jitter = Int32((plan.hash >> 16) % 6) * 5
      let equipmentStart = Int(routeEquipmentStart[Int(key.route)])
      let equipmentCount = Int(routeEquipmentStart[Int(key.route) + 1]) - equipmentStart
      let defaultEquipment = plan.distance > 5000 ? defaultLongHaul : defaultShortHaul
      let isDomestic = airports[Int(key.origin)].country == airports[Int(key.destination)].country
      let distanceKm = Int32(plan.distance.rounded())
      let fareLevel = 880 + Int32((plan.hash >> 24) % 241)
      routePatterns.removeAll(keepingCapacity: true)
      for frequency in 0..<plan.frequency {
        let bank = banks[(firstBank + frequency * banks.count / plan.frequency) % banks.count]
        let model = aircraftID(
          equipmentCount == 0 ? defaultEquipment : routeEquipment[equipmentStart + frequency % equipmentCount])
        let speed = aircraft[Int(model)].kind.cruiseKmh
        let flying = plan.distance * 1.05 / speed * 60
        let block = max(40, Int32(((35 + flying) / 5).rounded()) * 5)
        routePatterns.append(
          Pattern(
            origin: key.origin, destination: key.destination, carrier: key.carrier, number: 0,
            departureMinute: min(1439, bank + jitter), blockMinutes: block, distanceKm: distanceKm,
            aircraft: model, days: plan.days, isDomestic: isDomestic, fareLevel: fareLevel))
      }
      let base = nextNumber[Int(key.carrier)]
      nextNumber[Int(key.carrier)] = base + Int32(routePatterns.count)
      for var pattern in routePatterns {
        // Departures within a route are distinct (distinct banks, same jitter).
        let earlier = routePatterns.reduce(Int32(0)) { $0 + ($1.departureMinute < pattern.departureMinute ? 1 : 0) }
        pattern.number = base + earlier
        if pattern.number <= 9999 { patterns.append(pattern) }
      }
    }

    // A carrier's patterns are adjacent, numbered from 100 without gaps.
    var flightStart = [Int32](repeating: 0, count: carriers.count + 1)
    for pattern in patterns { flightStart[Int(pattern.carrier) + 1] += 1 }
    for carrier in 1..<flightStart.count { flightStart[carrier] += flightStart[carrier - 1] }
    var patternByNumber = [Int32](repeating: 0, count: patterns.count)
    for (index, pattern) in patterns.enumerated() {
      patternByNumber[Int(flightStart[Int(pattern.carrier)] + pattern.number - 100)] = Int32(index)
    }

    // Pattern indices by (local departure minute, index): a counting sort, so that filling each
    // airport's slice in this order leaves it sorted.
    var minuteStart = [Int32](repeating: 0, count: 1441)
    for pattern in patterns { minuteStart[Int(pattern.departureMinute) + 1] += 1 }
    for minute in 1..<minuteStart.count { minuteStart[minute] += minuteStart[minute - 1] }
    var byDeparture = [Int32](repeating: 0, count: patterns.count)
    for (index, pattern) in patterns.enumerated() {
      let minute = Int(pattern.departureMinute)
      byDeparture[Int(minuteStart[minute])] = Int32(index)
      minuteStart[minute] += 1
    }
    // The patterns themselves in that order, gathered once: the airport lists below are filled
    // from a sequential read of it, with their copies of the patterns at the same time (each
    // further gather of `patterns` by index was a cache miss per pattern).
    let patternsByDeparture = byDeparture.map { patterns[Int($0)] }

    /// Per airport `key(pattern)`: the start of its slice, the pattern indices in departure order,
    /// and those patterns.
    func csr(_ key: (Pattern) -> Int32) -> ([Int32], [Int32], [Pattern]) {
      var counts = [Int32](repeating: 0, count: airports.count + 1)
      for pattern in patterns { counts[Int(key(pattern)) + 1] += 1 }
      for index in 1..<counts.count { counts[index] += counts[index - 1] }
      var fill = counts
      var list = [Int32](repeating: 0, count: patterns.count)
      // A permutation (counting sort): every element is initialised exactly once.
      let copies = [Pattern](unsafeUninitializedCapacity: patterns.count) { buffer, initialized in
        for (position, pattern) in patternsByDeparture.enumerated() {
          let slot = Int(key(pattern))
          let target = Int(fill[slot])
          list[target] = byDeparture[position]
          (buffer.baseAddress! + target).initialize(to: pattern)
          fill[slot] += 1
        }
        initialized = patternsByDeparture.count
      }
      return (counts, list, copies)
    }
    let (departureStart, departureList, departurePatterns) = csr(\.origin)
    let (arrivalStart, arrivalList, arrivalPatterns) = csr(\.destination)

    // Codeshares: marketing carriers of operated flights (see the type's documentation).
    // Route keys by (carrier, origin, destination): which carriers fly a pair, and their patterns.
    func routeKey(_ carrier: Int32, _ origin: Int32, _ destination: Int32) -> Int64 {
      Int64(carrier) << 42 | Int64(origin) << 21 | Int64(destination)
    }
    var routeOfKey = IndexTable(capacity: routeKeys.count)
    for (index, key) in routeKeys.enumerated() {
      routeOfKey[routeKey(key.carrier, key.origin, key.destination)] = Int32(index)
    }
    // Codes looked up in flat tables, not hashed: the operating carriers, and the marketing
    // carriers numbered as first seen (with whether the input names them as airlines, and their
    // operating index or -1).
    var carrierTable = CodeTable()
    for (index, code) in carriers.enumerated() { carrierTable[code] = Int32(index) }
    var marketingIDs = CodeTable()
    var marketingCodes: [String] = []
    var marketingIsAirline: [Bool] = []
    var marketingCarrier: [Int32] = []
    // The operated patterns each marketing carrier sells (nil: no codeshare of it was kept).
    var byMarketing: [[Int32]?] = []
    // Codeshares already kept, by (marketing, operating, origin, destination): one integer key in
    // an IndexTable when the four indices fit in 63 bits (always for the world's data), else a Set.
    let marketingBits = Self.bitWidth(input.codeshares.count)
    let packCodeshares = marketingBits + carrierBits + 2 * airportBits <= 63
    var seenPacked = IndexTable(capacity: packCodeshares ? input.codeshares.count : 0)
    var seenCodeshares = Set<SIMD4<Int32>>()
    func firstTime(_ marketing: Int32, _ operating: Int32, _ origin: Int32, _ destination: Int32) -> Bool {
      guard packCodeshares else {
        return seenCodeshares.insert(SIMD4(marketing, operating, origin, destination)).inserted
      }
      var key = Int64(marketing) << carrierBits | Int64(operating)
      key = (key << airportBits | Int64(origin)) << airportBits | Int64(destination)
      if seenPacked[key] != nil { return false }
      seenPacked[key] = 1
      return true
    }
    for codeshare in input.codeshares {
      guard let originInput = inputAirportIndex[codeshare.origin],
        let destinationInput = inputAirportIndex[codeshare.destination]
      else { continue }
      let marketing: Int32
      if let known = marketingIDs[codeshare.marketing] {
        marketing = known
      } else {
        marketing = Int32(marketingCodes.count)
        marketingIDs[codeshare.marketing] = marketing
        marketingCodes.append(codeshare.marketing)
        marketingIsAirline.append(input.airlines[codeshare.marketing] != nil)
        marketingCarrier.append(carrierTable[codeshare.marketing] ?? -1)
        byMarketing.append(nil)
      }
      guard marketingIsAirline[Int(marketing)], let operating = carrierTable[codeshare.operating] else { continue }
      let origin = networkIndexOfInput[Int(originInput)]
      let destination = networkIndexOfInput[Int(destinationInput)]
      guard origin >= 0, destination >= 0 else { continue }
      // A carrier that flies the pair itself sells its own flights there.
      let ownCarrier = marketingCarrier[Int(marketing)]
      guard let route = routeOfKey[routeKey(operating, origin, destination)],
        ownCarrier < 0 || routeOfKey[routeKey(ownCarrier, origin, destination)] == nil,
        // The same codeshare twice counts once (codes and indices correspond one to one).
        firstTime(marketing, operating, origin, destination)
      else { continue }
      let start = route == 0 ? 0 : routeEnd[Int(route) - 1]
      if byMarketing[Int(marketing)] == nil { byMarketing[Int(marketing)] = [] }
      byMarketing[Int(marketing)]!.append(contentsOf: start..<routeEnd[Int(route)])
    }
    // (pattern, designator) in marketing-carrier code order, then grouped by pattern (a stable
    // counting sort keeps that order within each pattern).
    let marketers = byMarketing.indices.filter { byMarketing[$0] != nil }.sorted {
      marketingCodes[$0] < marketingCodes[$1]
    }
    var designators: [(pattern: Int32, flight: Flight)] = []
    var marketedRanges: [String: MarketedRange] = [:]
    var marketedList: [Int32] = []
    for marketing in marketers {
      let flights = byMarketing[marketing]!.sorted {
        let a = patterns[Int($0)]
        let b = patterns[Int($1)]
        return (a.origin, a.destination, a.departureMinute, a.carrier, a.number)
          < (b.origin, b.destination, b.departureMinute, b.carrier, b.number)
      }
      let code = marketingCodes[marketing]
      let carrier = marketingCarrier[marketing]
      let first = carrier >= 0 ? nextNumber[Int(carrier)] : 100
      let start = Int32(marketedList.count)
      var number = first
      for index in flights where number <= 9999 {
        designators.append((index, Flight(carrier: code, number: Int(number))))
        marketedList.append(index)
        number += 1
      }
      marketedRanges[code] = MarketedRange(firstNumber: first, start: start, count: number - first)
    }
    var codeshareStart = [Int32](repeating: 0, count: patterns.count + 1)
    for designator in designators { codeshareStart[Int(designator.pattern) + 1] += 1 }
    for index in patterns.indices { codeshareStart[index + 1] += codeshareStart[index] }
    var fill = codeshareStart
    var slots = [Flight?](repeating: nil, count: designators.count)
    for designator in designators {
      slots[Int(fill[Int(designator.pattern)])] = designator.flight
      fill[Int(designator.pattern)] += 1
    }
    let patternCodeshares = slots.compactMap { $0 }
    self.codeshareStart = codeshareStart
    self.patternCodeshares = patternCodeshares
    self.marketedRanges = marketedRanges
    self.marketedList = marketedList
    var marketingOnlyNames: [String: String] = [:]
    for marketing in marketers where marketingCarrier[marketing] < 0 {
      marketingOnlyNames[marketingCodes[marketing]] = input.airlines[marketingCodes[marketing]]
    }
    self.marketingOnlyNames = marketingOnlyNames

    self.airports = airports
    self.zones = zones
    self.airportIndex = airportIndex
    self.carriers = carriers
    self.carrierNames = carriers.map { input.airlines[$0] ?? $0 }
    self.carrierIndex = carrierIndex
    self.aircraft = aircraft
    self.patterns = patterns
    self.departureStart = departureStart
    self.departureList = departureList
    self.arrivalStart = arrivalStart
    self.arrivalList = arrivalList
    self.departurePatterns = departurePatterns
    self.arrivalPatterns = arrivalPatterns
    self.flightStart = flightStart
    self.patternByNumber = patternByNumber
  }

  /// The number of bits that hold `0..<count`.
  private static func bitWidth(_ count: Int) -> Int {
    Int.bitWidth - max(0, count - 1).leadingZeroBitCount
  }

  /// `indices` ordered by `code(index)` (string order), equal codes by index: with integer keys
  /// when every code is three characters `A`–`Z`, `0`–`9` (a ``CodeTable`` slot then orders as the
  /// code does), else by comparing the strings.
  static func sortedByCode(_ indices: [Int], code: (Int) -> String) -> [Int] {
    var keyed: [UInt64] = []
    keyed.reserveCapacity(indices.count)
    for index in indices {
      let text = code(index)
      guard text.utf8.count == 3, let slot = CodeTable.slot(text), index >= 0, index < 1 << 40 else {
        return indices.sorted { (code($0), $0) < (code($1), $1) }
      }
      keyed.append(UInt64(slot) << 40 | UInt64(index))
    }
    keyed.sort()
    return keyed.map { Int($0 & (1 << 40 - 1)) }
  }

  /// `count` distinct weekdays chosen by `hash`, as a bit mask (Monday = bit 0).
  private static func weekdays(count: Int, hash: UInt64) -> UInt8 {
    var mask: UInt8 = 0x7F
    var state = hash
    var removed = 0
    while removed < 7 - count {
      let day = Int(state % 7)
      state = state / 7 &+ 0x9E37_79B9
      if mask & (1 << day) != 0 {
        mask &= ~(1 << day)
        removed += 1
      }
    }
    return mask
  }

  // MARK: Queries

  /// Number of generated flight patterns (daily or on some weekdays).
  public var patternCount: Int { patterns.count }
  /// Number of airports with at least one route.
  public var airportCount: Int { airports.count }
  /// IATA codes of the airports with at least one route.
  public var airportCodes: [String] { airports.map(\.iata) }

  /// Positions of airport `airport`'s departures in ``departureList`` and ``departurePatterns``.
  @inline(__always)
  func departureRange(of airport: Int32) -> Range<Int> {
    Int(departureStart[Int(airport)])..<Int(departureStart[Int(airport) + 1])
  }

  /// Positions of airport `airport`'s arrivals in ``arrivalList`` and ``arrivalPatterns``.
  @inline(__always)
  func arrivalRange(of airport: Int32) -> Range<Int> {
    Int(arrivalStart[Int(airport)])..<Int(arrivalStart[Int(airport) + 1])
  }

  /// Whether `pattern` flies on the local date `day` (days since 1970-01-01) at its origin.
  @inline(__always)
  func flies(_ pattern: Pattern, on day: Int32) -> Bool {
    let weekday = Int((day + 3) % 7)  // 1970-01-01 was a Thursday: ISO weekday 4 → bit 3.
    return pattern.days & (1 << UInt8((weekday + 7) % 7)) != 0
  }

  /// UTC minute of `pattern`'s departure on local date `day`.
  @inline(__always)
  func departureUTC(_ pattern: Pattern, day: Int32) -> Int32 {
    zones[Int(airports[Int(pattern.origin)].zone)].utc(fromLocal: day * 1440 + pattern.departureMinute)
  }

  /// The pattern of `flight`, if the network has it.
  func pattern(of flight: Flight) -> Int32? {
    guard let carrier = carrierIndex[flight.carrier] else { return nil }
    let start = Int(flightStart[Int(carrier)])
    let count = Int(flightStart[Int(carrier) + 1]) - start
    guard flight.number >= 100, flight.number - 100 < count else { return nil }
    return patternByNumber[start + flight.number - 100]
  }

  /// The designator of pattern `index`.
  func flight(of index: Int32) -> Flight {
    let pattern = patterns[Int(index)]
    return Flight(carrier: carriers[Int(pattern.carrier)], number: Int(pattern.number))
  }

  /// Seats fitted in `cabin` on pattern `index`.
  func capacity(of index: Int32, cabin: Cabin) -> Int32 {
    aircraft[Int(patterns[Int(index)].aircraft)].seats[cabin.index]
  }

  /// The segment of pattern `index` departing on local date `day` (`flight`: its designator,
  /// when the caller has it already).
  func segment(_ index: Int32, day: Int32, flight: Flight? = nil) -> FlightSegment {
    let pattern = patterns[Int(index)]
    let origin = airports[Int(pattern.origin)]
    let destination = airports[Int(pattern.destination)]
    let departure = departureUTC(pattern, day: day)
    let arrival = departure + pattern.blockMinutes
    let originZone = zones[Int(origin.zone)]
    let destinationZone = zones[Int(destination.zone)]
    let model = aircraft[Int(pattern.aircraft)]
    return FlightSegment(
      flight: flight ?? self.flight(of: index), from: origin.iata, to: destination.iata,
      departure: AirportTime(
        instant: Date(timeIntervalSince1970: TimeInterval(departure) * 60), timeZone: originZone.identifier,
        utcOffsetMinutes: Int(originZone.offset(atUTC: departure))),
      arrival: AirportTime(
        instant: Date(timeIntervalSince1970: TimeInterval(arrival) * 60), timeZone: destinationZone.identifier,
        utcOffsetMinutes: Int(destinationZone.offset(atUTC: arrival))),
      aircraft: model.code, aircraftName: model.name,
      codeshares: Array(patternCodeshares[Int(codeshareStart[Int(index)])..<Int(codeshareStart[Int(index) + 1])]))
  }

  /// The scheduled flights from `origin` to `destination` (IATA codes) on local date `date`,
  /// by departure time: for inspection and tests.
  public func flights(from origin: String, to destination: String, on date: LocalDate) -> [FlightSegment] {
    guard let from = airportIndex[origin], let to = airportIndex[destination] else { return [] }
    let day = Int32(date.daysSinceEpoch)
    return departureList[Int(departureStart[Int(from)])..<Int(departureStart[Int(from) + 1])]
      .filter { patterns[Int($0)].destination == to && flies(patterns[Int($0)], on: day) }
      .map { segment($0, day: day) }
  }

  /// Every flight departing `origin` on local date `date`, by departure time.
  public func departures(from origin: String, on date: LocalDate) -> [FlightSegment] {
    guard let from = airportIndex[origin] else { return [] }
    let day = Int32(date.daysSinceEpoch)
    return departureList[Int(departureStart[Int(from)])..<Int(departureStart[Int(from) + 1])]
      .filter { flies(patterns[Int($0)], on: day) }
      .map { segment($0, day: day) }
  }

  /// Seats fitted per cabin on `flight` (indexed by `Cabin.index`), or nil for an unknown flight.
  public func seats(of flight: Flight) -> [Cabin: Int]? {
    guard let index = pattern(of: flight) else { return nil }
    var result: [Cabin: Int] = [:]
    for cabin in Cabin.allCases { result[cabin] = Int(capacity(of: index, cabin: cabin)) }
    return result
  }

  /// The operated flight a marketing designator stands for (`LH 7601` → `UA 123`); the flight
  /// itself when it is an operated one; nil when the network has neither.
  public func operatingFlight(of flight: Flight) -> Flight? {
    if pattern(of: flight) != nil { return flight }
    guard let range = marketedRanges[flight.carrier] else { return nil }
    let offset = flight.number - Int(range.firstNumber)
    guard offset >= 0, offset < Int(range.count) else { return nil }
    return self.flight(of: marketedList[Int(range.start) + offset])
  }

  /// The carrier's name, else its code.
  public func carrierName(_ code: String) -> String {
    carrierIndex[code].map { carrierNames[Int($0)] } ?? marketingOnlyNames[code] ?? code
  }
}

/// Great-circle distance in km between two points given in degrees (haversine, R = 6371 km).
func greatCircleKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
  let radians = Double.pi / 180
  let dLat = (lat2 - lat1) * radians
  let dLon = (lon2 - lon1) * radians
  let a =
    sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
  return 6371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
}

/// FNV-1a, 64 bits: a hash that is the same in every process (unlike `Hasher`).
func fnv1a(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 { hash = fnv1aStep(hash, byte) }
  return hash
}

/// One FNV-1a step: `hash` continued over `byte`.
@inline(__always)
func fnv1aStep(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
  (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
}

/// Indices of codes (airport and airline codes): those of one to three characters `A`–`Z`, `0`–`9`
/// in a flat table (no hashing), any other in a dictionary.
struct CodeTable {
  private static let empty = Int32.min
  private var table = [Int32](repeating: empty, count: 37 * 37 * 37)
  private var others: [String: Int32] = [:]

  /// The slot of `code` in the table: its characters as base-37 digits from 1, else nil.
  static func slot(_ code: String) -> Int? {
    // A native string's bytes in place (a small one's copied to the stack), not byte by byte
    // through the UTF-8 view's indices.
    if let slot = code.utf8.withContiguousStorageIfAvailable({ Self.slot(of: $0) }) { return slot }
    return slot(of: code.utf8)
  }

  /// The slot of the code whose UTF-8 bytes are `bytes`, else nil.
  @inline(__always)
  private static func slot<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Int? {
    var slot = 0
    var count = 0
    for byte in bytes {
      count += 1
      guard count <= 3 else { return nil }
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): slot = slot * 37 + Int(byte - UInt8(ascii: "0")) + 1
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): slot = slot * 37 + Int(byte - UInt8(ascii: "A")) + 11
      default: return nil
      }
    }
    return count == 0 ? nil : slot
  }

  subscript(code: String) -> Int32? {
    get {
      guard let slot = Self.slot(code) else { return others[code] }
      let value = table[slot]
      return value == Self.empty ? nil : value
    }
    set {
      guard let slot = Self.slot(code) else {
        others[code] = newValue
        return
      }
      table[slot] = newValue ?? Self.empty
    }
  }
}

/// Int32 values by non-negative `Int64` keys (route and airport-pair keys): open addressing with
/// linear probing and a multiplicative hash, sized once for `capacity` keys (it grows if given
/// more). What `[Int64: Int32]` answers, without `Hasher`'s per-key cost.
struct IndexTable {
  private static let empty: Int64 = -1
  private var keys: [Int64]
  private var values: [Int32]
  private var mask: Int
  private var shift: UInt64
  private(set) var count = 0

  init(capacity: Int) {
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    keys = [Int64](repeating: Self.empty, count: size)
    values = [Int32](repeating: 0, count: size)
    mask = size - 1
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  @inline(__always)
  private func home(_ key: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The slot holding `key`, or the empty slot where it would go.
  @inline(__always)
  private func slot(_ key: Int64) -> Int {
    var slot = home(key)
    while true {
      let found = keys[slot]
      if found == key || found == Self.empty { return slot }
      slot = (slot + 1) & mask
    }
  }

  subscript(key: Int64) -> Int32? {
    get {
      let slot = slot(key)
      return keys[slot] == Self.empty ? nil : values[slot]
    }
    set {
      precondition(key >= 0, "IndexTable keys are non-negative")
      guard let newValue else {
        preconditionFailure("IndexTable does not remove keys")
      }
      var slot = slot(key)
      if keys[slot] == Self.empty {
        if 2 * (count + 1) > keys.count {
          grow()
          slot = self.slot(key)
        }
        keys[slot] = key
        count += 1
      }
      values[slot] = newValue
    }
  }

  /// Adds `amount` to the value of `key` (0 when absent).
  mutating func add(_ amount: Int32, to key: Int64) {
    self[key] = (self[key] ?? 0) + amount
  }

  private mutating func grow() {
    let old = zip(keys, values).filter { $0.0 != Self.empty }
    self = IndexTable(capacity: keys.count)
    for (key, value) in old { self[key] = value }
  }
}
