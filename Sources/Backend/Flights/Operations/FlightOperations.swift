import Common
import Foundation

/// The day's flight operations, simulated deterministically over the generated schedule
/// (``FlightNetwork``): for each flight flown on a date, its aircraft rotation, gate, delay and
/// causes, cancellation or diversion, runway and gate times, arrival gate and baggage belt, and the
/// timeline of changes a flight-status feed publishes as the clock passes them. Same network, seed
/// and date → the same day, event for event, in any process, whatever was asked before.
///
/// ## Units of work
/// A day is an **operating date**: the flights whose scheduled departure is on that local date at
/// their origin (``FlightStatusKey/date``). Aircraft only rotate within their carrier's fleet of
/// one type, so the simulation is done lazily per **fleet and date** (``FleetDay``), and gates per
/// **airport and date** (``GatePlan``, from the timetable alone): one flight's status simulates its
/// fleet's day, a board the fleets that serve the airport, the statistics every fleet. Results are
/// kept (up to about a week of the world's flights per process).
///
/// ## The model, and the figures the tests check over a simulated week of the whole world
/// - **Aircraft rotations (tails).** A fleet's flights are taken in order of scheduled departure;
///   each takes, among the fleet's aircraft on the ground at the origin and ready by then
///   (scheduled arrival + minimum turn: turboprop 25 min, regional 30, narrow-body 40, wide-body
///   70), the one that became ready last (airlines plan tight turns), else a fresh aircraft that
///   starts its day there. So an aircraft flies a chain of flights within one operating date; the
///   first flight of each chain carries no delay from the day before. A cancelled or diverted
///   flight's aircraft does not reach its destination: the next flight there takes another aircraft.
/// - **Delays.** A flight's departure delay is the larger of its primary and reactionary delays.
///   *Reactionary* (IATA code 93): the inbound aircraft's actual gate arrival + the minimum turn −
///   the scheduled departure, when positive; so a delay travels along the aircraft's chain.
///   *Primary*: with probability 22 % × the carrier's factor (0.75–1.25, from a hash of its code)
///   × the origin's congestion (1 + 0.25 × min(1, daily departures ÷ 600)), 5 + an exponential of
///   mean 28 minutes (at most 6 hours), its cause drawn from a table of AHM 730 codes
///   (``primaryCauses``; a quarter of them split with a second cause); otherwise −4…+4 minutes
///   (no code).
/// - **Hub weather.** On each day, each hub (an airport of 200 or more daily departures) has a 5 %
///   chance of bad weather: a window of 2–5 hours starting between 06:00 and 18:45 local, of
///   severity s in 0.4–1. Departures in the window: 85 % get s × (15 + exponential mean 35) more
///   minutes (code 71, or 75 de-icing in the local winter above 40° of latitude); s × 10 % are
///   cancelled. Arrivals scheduled into the window: 70 % are held at their origin s × (10 +
///   exponential mean 30) minutes (code 84, ATFM due to weather at destination), s × 5 % are
///   cancelled, s × 3 % divert, and the others hold s × 5–25 minutes before landing.
/// - **Cancellations**: 1 % × the carrier's factor, plus the weather's. Announced 1–12 hours
///   before departure (weather: 30 minutes to 3 hours).
/// - **Diversions**: 0.06 %, plus the weather's; the flight lands at the nearest airport within
///   30–400 km of its destination with at least five daily departures (else back at its origin),
///   70–95 % of the way through its flight.
/// - **Times.** Scheduled taxi-out 8 + min(14, daily departures ÷ 50) minutes, taxi-in 4 + min(8,
///   daily arrivals ÷ 100) (at most a quarter and a sixth of the block); the scheduled block comes
///   from the timetable. Actual taxi-out varies by −3…+7 minutes, airborne time by 92–103 % (wind;
///   schedules are padded), taxi-in by −2…+4. So out < off < on < in always, and no flight arrives
///   before it departs.
/// - **Gates.** Each airport's terminals and gates come from its traffic (``AirportLayout``); a
///   carrier uses one terminal (the airport's busiest carrier terminal 1, others by a hash). Gates
///   are planned on the timetable (occupied from 20 minutes before boarding to 10 minutes after
///   departure) and published 100–140 minutes before departure. On the day, when the flight
///   planned before at the same gate leaves so late that it still holds the gate 20 minutes before
///   boarding, the gate changes to one the plan leaves free (10–40 minutes before boarding); 4 %
///   of the other flights change gate too. The arrival gate is the planned gate of the aircraft's
///   next departure from there, else one of the carrier's terminal; a baggage belt of that
///   terminal is given at landing.
/// - **Boarding** starts 30–50 minutes before departure by aircraft size (turboprop 30, regional
///   35, narrow-body 40, wide-body 50), never before the aircraft is at the gate; the gate closes
///   10–20 minutes before (10, 10, 15, 20).
/// - **Announcements.** A delay of 5 minutes or more is announced 20–150 minutes before the
///   scheduled departure (a reactionary one when the inbound aircraft takes off); one of 45 minutes
///   or more first as 60 % of itself, then in full. The status reads `delayed` while the estimate
///   is 15 minutes or more past the schedule.
///
/// Results of the model over a simulated week of the whole world are in the README ("Live flight
/// status") and checked by `FlightOperationsStatisticsTests`: about 75–80 % of flights at the gate
/// within 15 minutes of schedule (cancelled and diverted flights count as not on time), 1–2 %
/// cancelled, diversions rare, code 93 in a large share of delay minutes.
public final class FlightOperations: @unchecked Sendable {
  /// The seed of the app's simulation.
  public static let defaultSeed: UInt64 = 0x7452_4156_454C

  public let network: FlightNetwork
  public let seed: UInt64
  /// Average daily departures and arrivals per airport (network airport index).
  let dailyDepartures: [Double]
  let dailyArrivals: [Double]
  /// Scheduled taxi times per airport, minutes.
  let taxiOut: [Int32]
  let taxiIn: [Int32]
  let isHub: [Bool]
  /// The carrier with the most departures at each airport (terminal 1).
  let homeCarrier: [Int32]
  /// Per carrier: the delay and cancellation factor, 0.75–1.25.
  let carrierFactor: [Double]
  let layouts: [AirportLayout]
  /// Fleets (a carrier's aircraft of one type): fleet of each pattern, and the patterns of fleet
  /// `f` in `fleetList[fleetStart[f]..<fleetStart[f + 1]]`.
  let fleetOfPattern: [Int32]
  let fleetStart: [Int32]
  let fleetList: [Int32]

  /// `@unchecked Sendable`: the caches below are guarded by `lock` (recursive: resolving a flight
  /// reads other fleets and plans); everything else is immutable.
  private let lock = NSRecursiveLock()
  private var fleetDays: [Int64: FleetDay] = [:]
  private var gatePlans: [Int64: GatePlan] = [:]
  private var resolved: [Int64: SimulatedFlight] = [:]
  private var weathers: [Int64: Weather?] = [:]
  private var airborneIndexes: [Int32: AirborneIndex] = [:]
  private var alternates: [Int32: Int32] = [:]
  /// Flights held by the caches; past ``cacheLimit`` they are emptied (and refilled on demand).
  private var cachedFlights = 0
  static let cacheLimit = 1_200_000

  /// The simulation of `network` with `seed`.
  public init(network: FlightNetwork, seed: UInt64 = FlightOperations.defaultSeed) {
    self.network = network
    self.seed = seed
    let count = network.airports.count
    var departures = [Double](repeating: 0, count: count)
    var arrivals = [Double](repeating: 0, count: count)
    var carrierDepartures: [Int64: Double] = [:]
    var fleetIndex: [Int64: Int32] = [:]
    var fleetOfPattern = [Int32](repeating: 0, count: network.patterns.count)
    for (index, pattern) in network.patterns.enumerated() {
      let perDay = Double(pattern.days.nonzeroBitCount) / 7
      departures[Int(pattern.origin)] += perDay
      arrivals[Int(pattern.destination)] += perDay
      carrierDepartures[Int64(pattern.origin) << 32 | Int64(pattern.carrier), default: 0] += perDay
      let fleetKey = Int64(pattern.carrier) << 32 | Int64(pattern.aircraft)
      if let fleet = fleetIndex[fleetKey] {
        fleetOfPattern[index] = fleet
      } else {
        let fleet = Int32(fleetIndex.count)
        fleetIndex[fleetKey] = fleet
        fleetOfPattern[index] = fleet
      }
    }
    var fleetStart = [Int32](repeating: 0, count: fleetIndex.count + 1)
    for fleet in fleetOfPattern { fleetStart[Int(fleet) + 1] += 1 }
    for fleet in 1..<fleetStart.count { fleetStart[fleet] += fleetStart[fleet - 1] }
    var fill = fleetStart
    var fleetList = [Int32](repeating: 0, count: network.patterns.count)
    for (index, fleet) in fleetOfPattern.enumerated() {
      fleetList[Int(fill[Int(fleet)])] = Int32(index)
      fill[Int(fleet)] += 1
    }
    var home = [Int32](repeating: -1, count: count)
    var best = [Double](repeating: 0, count: count)
    for (key, value) in carrierDepartures.sorted(by: { $0.key < $1.key }) {
      let airport = Int(key >> 32)
      if value > best[airport] {
        best[airport] = value
        home[airport] = Int32(key & 0xFFFF_FFFF)
      }
    }
    dailyDepartures = departures
    dailyArrivals = arrivals
    homeCarrier = home
    taxiOut = departures.map { 8 + Int32(min(14, $0 / 50)) }
    taxiIn = arrivals.map { 4 + Int32(min(8, $0 / 100)) }
    isHub = departures.map { $0 >= 200 }
    carrierFactor = network.carriers.map { 0.75 + Double(fnv1a("delay|" + $0) % 501) / 1000 }
    layouts = departures.map { AirportLayout(dailyDepartures: $0) }
    self.fleetOfPattern = fleetOfPattern
    self.fleetStart = fleetStart
    self.fleetList = fleetList
  }

  /// Number of fleets (a carrier's aircraft of one type).
  var fleetCount: Int { fleetStart.count - 1 }

  // MARK: Model parameters

  /// Primary delay causes (IATA AHM 730 code) and their weights, from the shares of delay causes
  /// airlines report (passenger and baggage, ramp handling, technical, crew, air traffic flow
  /// management, airport).
  static let primaryCauses: [(code: UInt8, weight: Int)] = [
    (11, 3), (15, 6), (18, 4), (31, 2), (32, 6), (33, 2), (36, 3), (37, 3), (41, 10), (46, 2), (62, 3), (63, 5),
    (64, 2), (67, 2), (71, 3), (72, 3), (81, 14), (83, 6), (85, 3), (87, 4), (89, 4), (99, 3),
  ]
  private static let causeTotal = primaryCauses.reduce(0) { $0 + $1.weight }

  static func cause(_ random: inout OperationsRandom) -> UInt8 {
    var pick = random.int(0...(causeTotal - 1))
    for cause in primaryCauses {
      if pick < cause.weight { return cause.code }
      pick -= cause.weight
    }
    return 99
  }

  static func minimumTurn(_ kind: AircraftCatalog.Kind) -> Int32 {
    switch kind {
    case .turboprop: 25
    case .regional: 30
    case .narrowBody: 40
    case .wideBody: 70
    }
  }

  static func boardingLead(_ kind: AircraftCatalog.Kind) -> Int32 {
    switch kind {
    case .turboprop: 30
    case .regional: 35
    case .narrowBody: 40
    case .wideBody: 50
    }
  }

  static func gateCloseLead(_ kind: AircraftCatalog.Kind) -> Int32 {
    switch kind {
    case .turboprop, .regional: 10
    case .narrowBody: 15
    case .wideBody: 20
    }
  }

  /// The aircraft class of `pattern`.
  func kind(_ pattern: Int32) -> AircraftCatalog.Kind {
    network.aircraft[Int(network.patterns[Int(pattern)].aircraft)].kind
  }

  /// Bad weather at hub `airport` on its local date `day`, if any (see the type's documentation).
  func weather(airport: Int32, day: Int32) -> Weather? {
    guard isHub[Int(airport)] else { return nil }
    let key = Int64(day) << 32 | Int64(airport)
    if let known = lock.withLock({ weathers[key] }) { return known }
    var random = OperationsRandom(seed, 0x5745_4154, UInt64(bitPattern: Int64(day)), UInt64(airport))
    var result: Weather?
    if random.chance(0.05) {
      let startLocal = day * 1440 + Int32(random.int(6...18)) * 60 + Int32(random.int(0...3)) * 15
      let duration = Int32(random.int(8...20)) * 15
      let severity = 0.4 + 0.6 * random.unit()
      let place = network.airports[Int(airport)]
      let month = LocalDate(daysSinceEpoch: Int(day)).month
      let winter =
        (place.latitude > 40 && (month == 12 || month <= 2)) || (place.latitude < -40 && (6...8).contains(month))
      let start = network.zones[Int(place.zone)].utc(fromLocal: startLocal)
      result = Weather(start: start, end: start + duration, severity: severity, code: winter ? 75 : 71)
    }
    lock.withLock { weathers[key] = .some(result) }
    return result
  }

  /// The local date (days since 1970) at `airport` of UTC minute `minute`.
  func localDay(_ airport: Int32, _ minute: Int32) -> Int32 {
    let zone = network.zones[Int(network.airports[Int(airport)].zone)]
    return ItinerarySearch.floorDiv(zone.local(fromUTC: minute), 1440)
  }

  /// The airport a flight bound for `destination` from `origin` diverts to (see the type's
  /// documentation).
  private func alternate(for destination: Int32, origin: Int32) -> Int32 {
    if let known = lock.withLock({ alternates[destination] }) { return known >= 0 ? known : origin }
    let target = network.airports[Int(destination)]
    var best: Int32 = -1
    var bestDistance = Double.infinity
    for (index, airport) in network.airports.enumerated() where Int32(index) != destination {
      guard dailyDepartures[index] >= 5 else { continue }
      let distance = greatCircleKm(target.latitude, target.longitude, airport.latitude, airport.longitude)
      if distance >= 30, distance <= 400, distance < bestDistance {
        best = Int32(index)
        bestDistance = distance
      }
    }
    lock.withLock { alternates[destination] = best }
    return best >= 0 ? best : origin
  }

  /// The terminal (index) carrier `carrier` uses at `airport`.
  func terminal(carrier: Int32, airport: Int32) -> Int {
    let count = layouts[Int(airport)].terminals.count
    if count == 1 || homeCarrier[Int(airport)] == carrier { return 0 }
    return Int(OperationsRandom.mix(UInt64(carrier) << 32 | UInt64(airport) ^ seed) % UInt64(count))
  }

  // MARK: Caches

  /// Empties the caches when they hold too many flights (called under `lock`).
  private func admit(_ flights: Int) {
    cachedFlights += flights
    guard cachedFlights > Self.cacheLimit else { return }
    fleetDays = [:]
    gatePlans = [:]
    resolved = [:]
    airborneIndexes = [:]
    cachedFlights = flights
  }

  /// Fleet `fleet`'s simulated operating date `day`.
  func fleetDay(_ fleet: Int32, day: Int32) -> FleetDay {
    lock.withLock {
      let key = Int64(day) << 32 | Int64(fleet)
      if let known = fleetDays[key] { return known }
      let made = simulateFleet(fleet, day: day)
      admit(made.flights.count)
      fleetDays[key] = made
      return made
    }
  }

  /// The gate plan of `airport`'s departures on its local date `day`.
  func gatePlan(_ airport: Int32, day: Int32) -> GatePlan {
    lock.withLock {
      let key = Int64(day) << 32 | Int64(airport)
      if let known = gatePlans[key] { return known }
      let made = planGates(airport, day: day)
      gatePlans[key] = made
      return made
    }
  }

  /// The simulated flight of `pattern` on operating date `day`, or nil when it does not fly then.
  func simulated(pattern: Int32, day: Int32) -> SimulatedFlight? {
    lock.withLock {
      let key = Int64(day) << 32 | Int64(pattern)
      if let known = resolved[key] { return known }
      guard network.flies(network.patterns[Int(pattern)], on: day) else { return nil }
      let made = resolve(pattern: pattern, day: day)
      resolved[key] = made
      return made
    }
  }

  /// The fleet simulation of `pattern` on `day` (no gates), or nil when it does not fly then.
  func scheduledFlight(pattern: Int32, day: Int32) -> SimFlight? {
    guard network.flies(network.patterns[Int(pattern)], on: day) else { return nil }
    let fleetDay = fleetDay(fleetOfPattern[Int(pattern)], day: day)
    return fleetDay.flights[fleetDay.position(of: pattern)]
  }

  /// Every flight of operating date `day`, by fleet (for statistics and benchmarks).
  func allFlights(day: Int32) -> [SimulatedFlight] {
    var result: [SimulatedFlight] = []
    for fleet in 0..<Int32(fleetCount) {
      for flight in fleetDay(fleet, day: day).flights {
        if let made = simulated(pattern: flight.pattern, day: day) { result.append(made) }
      }
    }
    return result
  }

  // MARK: Fleets

  private func simulateFleet(_ fleet: Int32, day: Int32) -> FleetDay {
    let patterns = network.patterns
    var flights: [SimFlight] = []
    for index in fleetList[Int(fleetStart[Int(fleet)])..<Int(fleetStart[Int(fleet) + 1])] {
      let pattern = patterns[Int(index)]
      guard network.flies(pattern, on: day) else { continue }
      let out = network.departureUTC(pattern, day: day)
      let block = pattern.blockMinutes
      let taxiOut = min(self.taxiOut[Int(pattern.origin)], block / 4)
      let taxiIn = min(self.taxiIn[Int(pattern.destination)], block / 6)
      var flight = SimFlight(pattern: index, kind: network.aircraft[Int(pattern.aircraft)].kind)
      flight.scheduledOut = out
      flight.scheduledOff = out + taxiOut
      flight.scheduledOn = out + block - taxiIn
      flight.scheduledIn = out + block
      flights.append(flight)
    }
    flights.sort { ($0.scheduledOut, $0.pattern) < ($1.scheduledOut, $1.pattern) }

    // Aircraft on the ground per airport: (scheduled ready, position of the flight that brought it).
    var ground: [Int32: [(ready: Int32, flight: Int32)]] = [:]
    for position in flights.indices {
      let pattern = patterns[Int(flights[position].pattern)]
      var flight = flights[position]
      var random = OperationsRandom(seed, UInt64(bitPattern: Int64(day)), UInt64(flight.pattern))
      let turn = Self.minimumTurn(flight.kind)
      if let slot = ground.index(forKey: pattern.origin) {
        var chosen = -1
        for (index, aircraft) in ground.values[slot].enumerated() where aircraft.ready <= flight.scheduledOut {
          if chosen < 0 || aircraft.ready > ground.values[slot][chosen].ready { chosen = index }
        }
        if chosen >= 0 {
          let inbound = ground.values[slot][chosen].flight
          ground.values[slot].swapAt(chosen, ground.values[slot].count - 1)
          ground.values[slot].removeLast()
          flight.inbound = inbound
          flights[Int(inbound)].next = Int32(position)
        }
      }

      // Primary delay.
      let factor = carrierFactor[Int(pattern.carrier)]
      let congestion = 1 + 0.25 * min(1, dailyDepartures[Int(pattern.origin)] / 600)
      var primary: Int32
      var primaryCode: UInt8 = 0
      var secondCode: UInt8 = 0
      var secondShare = 0.0
      if random.chance(0.22 * factor * congestion) {
        primary = 5 + Int32(min(355, random.exponential(mean: 28)))
        primaryCode = Self.cause(&random)
        if random.chance(0.25) {
          secondCode = Self.cause(&random)
          if secondCode == primaryCode { secondCode = 0 } else { secondShare = 0.2 + 0.2 * random.unit() }
        }
      } else {
        primary = Int32(random.int(0...4) - random.int(0...4))
      }
      var cancelChance = 0.01 * factor
      var weatherCancel = false
      var divertChance = 0.0006
      var holding: Int32 = 0
      if let storm = weather(airport: pattern.origin, day: day),
        flight.scheduledOut >= storm.start, flight.scheduledOut < storm.end
      {
        if random.chance(0.85) {
          let extra = Int32(storm.severity * (15 + random.exponential(mean: 35)))
          if primary > 4, primaryCode != 0 {
            secondCode = primaryCode
            secondShare = Double(primary) / Double(extra + primary)
            primary += extra
          } else {
            primary = extra
          }
          primaryCode = storm.code
        }
        cancelChance += storm.severity * 0.10
        weatherCancel = true
      }
      let arrivalDay = localDay(pattern.destination, flight.scheduledIn)
      if let storm = weather(airport: pattern.destination, day: arrivalDay),
        flight.scheduledIn >= storm.start, flight.scheduledIn < storm.end
      {
        if random.chance(0.7) {
          let held = Int32(storm.severity * (10 + random.exponential(mean: 30)))
          if held > primary {
            primary = held
            primaryCode = 84
            secondCode = 0
          }
        } else {
          divertChance += storm.severity * 0.03
          holding = Int32(storm.severity * Double(random.int(5...25)))
        }
        cancelChance += storm.severity * 0.05
        weatherCancel = true
      }

      if random.chance(cancelChance) {
        flight.cancelled = true
        let lead = weatherCancel ? random.int(30...180) : random.int(60...720)
        flight.cancelAt = flight.scheduledOut - Int32(lead)
        flights[position] = flight
        continue
      }

      // Reactionary delay.
      var reactionary: Int32 = 0
      if flight.inbound >= 0 {
        reactionary = max(0, flights[Int(flight.inbound)].actualIn + turn - flight.scheduledOut)
      }
      let delay = max(primary, reactionary)
      flight.departureDelay = delay
      if delay >= 5 {
        var delays: [(code: UInt8, minutes: Int16)]
        if reactionary >= primary {
          delays = [(93, Int16(clamping: delay))]
        } else if reactionary > 0 {
          delays = [(primaryCode, Int16(clamping: delay - reactionary)), (93, Int16(clamping: reactionary))]
        } else if secondCode != 0 {
          let second = Int32((Double(delay) * secondShare).rounded())
          delays = [(primaryCode, Int16(clamping: delay - second)), (secondCode, Int16(clamping: second))]
        } else {
          delays = [(primaryCode == 0 ? 99 : primaryCode, Int16(clamping: delay))]
        }
        flight.delays = delays.filter { $0.minutes > 0 }.sorted { $0.minutes > $1.minutes }
      }

      // Times.
      let scheduledTaxiOut = flight.scheduledOff - flight.scheduledOut
      let scheduledAirborne = flight.scheduledOn - flight.scheduledOff
      let scheduledTaxiIn = flight.scheduledIn - flight.scheduledOn
      flight.actualOut = flight.scheduledOut + delay
      flight.actualOff = flight.actualOut + max(3, scheduledTaxiOut + Int32(random.int(-3...7)))
      let airborne = max(10, Int32((Double(scheduledAirborne) * (0.92 + 0.11 * random.unit())).rounded()) + holding)
      if random.chance(divertChance) {
        let to = alternate(for: pattern.destination, origin: pattern.origin)
        flight.divertedTo = to
        let fraction = 0.70 + 0.25 * random.unit()
        flight.divertAt = flight.actualOff + max(1, Int32(Double(airborne) * fraction))
        let place = network.airports[Int(to)]
        let target = network.airports[Int(pattern.destination)]
        // From where it turns: the distance to the alternate at about 720 km/h, or back home.
        let left =
          to == pattern.origin
          ? Double(airborne) * fraction
          : greatCircleKm(target.latitude, target.longitude, place.latitude, place.longitude) / 12
        flight.actualOn = flight.divertAt + max(15, Int32(left) + Int32(random.int(10...25)))
        flight.actualIn = flight.actualOn + Int32(random.int(5...12))
      } else {
        flight.actualOn = flight.actualOff + airborne
        flight.actualIn = flight.actualOn + max(2, scheduledTaxiIn + Int32(random.int(-2...4)))
        ground[pattern.destination, default: []].append((flight.scheduledIn + turn, Int32(position)))
      }

      // Announcements and boarding.
      let lead = Self.boardingLead(flight.kind)
      if delay >= 5 {
        var finalAt: Int32
        if reactionary >= primary, flight.inbound >= 0 {
          finalAt = min(flight.actualOut - 15, max(flight.scheduledOut - 300, flights[Int(flight.inbound)].actualOff))
        } else {
          finalAt = min(flight.actualOut - lead - 5, flight.scheduledOut - Int32(random.int(20...150)))
        }
        if delay >= 45 {
          flight.firstEstimate = flight.scheduledOut + ((delay * 3 / 5 + 2) / 5) * 5
          flight.firstEstimateAt = finalAt - Int32(random.int(30...90))
        }
        flight.finalEstimateAt = finalAt
      }
      var boardingAt = flight.actualOut - lead
      if flight.finalEstimateAt != Int32.min { boardingAt = max(boardingAt, flight.finalEstimateAt + 1) }
      if flight.inbound >= 0 { boardingAt = max(boardingAt, flights[Int(flight.inbound)].actualIn + 10) }
      boardingAt = min(boardingAt, flight.actualOut - 4)
      flight.boardingAt = boardingAt
      flight.gateClosedAt = min(
        flight.actualOut - 1, max(flight.actualOut - Self.gateCloseLead(flight.kind), boardingAt + 1))
      flights[position] = flight
    }
    return FleetDay(day: day, flights: flights)
  }

  // MARK: Gates

  private func planGates(_ airport: Int32, day: Int32) -> GatePlan {
    let layout = layouts[Int(airport)]
    let list = network.departureList[
      Int(network.departureStart[Int(airport)])..<Int(network.departureStart[Int(airport) + 1])]
    var departures: [(out: Int32, pattern: Int32)] = []
    for index in list where network.flies(network.patterns[Int(index)], on: day) {
      departures.append((network.departureUTC(network.patterns[Int(index)], day: day), index))
    }
    departures.sort { $0 < $1 }
    var planned = [Int32](repeating: Int32.min, count: layout.gateNames.count)
    var lastFlight = [Int32](repeating: -1, count: layout.gateNames.count)
    var entries: [Int32: PlannedGate] = [:]
    entries.reserveCapacity(departures.count)
    for (out, index) in departures {
      let pattern = network.patterns[Int(index)]
      var random = OperationsRandom(seed, 0x4741_5445, UInt64(bitPattern: Int64(day)), UInt64(index))
      let gates = layout.terminalGates[terminal(carrier: pattern.carrier, airport: airport)]
      let from = out - Self.boardingLead(kind(index)) - 20
      func free(from start: Int, excluding: Int) -> Int? {
        for step in 0..<gates.count {
          let candidate = gates.lowerBound + (start + step) % gates.count
          if candidate != excluding, planned[candidate] <= from { return candidate }
        }
        return nil
      }
      let offset = Int(OperationsRandom.mix(UInt64(index) ^ seed) % UInt64(gates.count))
      let gate = free(from: offset, excluding: -1) ?? gates.min { planned[$0] < planned[$1] }!
      let alternate = free(from: random.int(0...(gates.count - 1)), excluding: gate) ?? -1
      entries[index] = PlannedGate(
        gate: Int16(gate), previous: lastFlight[gate], alternate: Int16(alternate),
        assignedAt: out - Int32(random.int(100...140)), randomChange: random.chance(0.04),
        changeLead: Int32(random.int(10...40)))
      planned[gate] = out + 10
      lastFlight[gate] = index
    }
    return GatePlan(order: departures.map(\.pattern), entries: entries)
  }

  // MARK: Flights

  /// The whole simulated flight: its fleet's simulation, its gates, and its changes in time order.
  private func resolve(pattern: Int32, day: Int32) -> SimulatedFlight {
    let fleetDay = fleetDay(fleetOfPattern[Int(pattern)], day: day)
    let position = fleetDay.position(of: pattern)
    let flight = fleetDay.flights[position]
    let info = network.patterns[Int(pattern)]
    let plan = gatePlan(info.origin, day: day).entries[pattern]!
    var gate = plan.gate
    var gateChangedAt = Int32.min
    if !flight.cancelled, plan.alternate >= 0 {
      var change = plan.randomChange
      if plan.previous >= 0, let previous = scheduledFlight(pattern: plan.previous, day: day), !previous.cancelled {
        change = change || previous.actualOut + 5 > flight.boardingAt - 20
      }
      let at = max(plan.assignedAt + 1, flight.boardingAt - plan.changeLead)
      if change, at < flight.boardingAt {
        gate = plan.alternate
        gateChangedAt = at
      }
    }
    var arrivalGate: Int16 = -1
    var belt: Int16 = -1
    if !flight.cancelled, flight.divertedTo < 0 {
      let destination = info.destination
      let layout = layouts[Int(destination)]
      var planned: Int16 = -1
      if flight.next >= 0 {
        let next = fleetDay.flights[Int(flight.next)]
        planned = gatePlan(destination, day: day).entries[next.pattern]?.gate ?? -1
      }
      if planned < 0 {
        let gates = layout.terminalGates[terminal(carrier: info.carrier, airport: destination)]
        planned = Int16(
          gates.lowerBound + Int(OperationsRandom.mix(UInt64(pattern) &* 31 ^ seed) % UInt64(gates.count)))
      }
      arrivalGate = planned
      let belts = layout.terminalBelts[Int(layout.gateTerminal[Int(planned)])]
      belt = Int16(belts.lowerBound + Int(OperationsRandom.mix(UInt64(pattern) &* 17 ^ seed) % UInt64(belts.count)))
    }
    return SimulatedFlight(
      day: day, pattern: pattern, fleetDay: fleetDay, position: position, plannedGate: plan.gate, gate: gate,
      gateAssignedAt: plan.assignedAt, gateChangedAt: gateChangedAt, arrivalGate: arrivalGate, belt: belt)
  }

  // MARK: Radar

  /// Every flight flown on operating date `day` that took off, by takeoff (for ``airborne(at:)``).
  func airborneIndex(day: Int32) -> AirborneIndex {
    if let known = lock.withLock({ airborneIndexes[day] }) { return known }
    var flights: [(off: Int32, on: Int32, pattern: Int32, divertedTo: Int32)] = []
    for fleet in 0..<Int32(fleetCount) {
      for flight in fleetDay(fleet, day: day).flights where !flight.cancelled {
        flights.append((flight.actualOff, flight.actualOn, flight.pattern, flight.divertedTo))
      }
    }
    flights.sort { ($0.off, $0.pattern) < ($1.off, $1.pattern) }
    let index = AirborneIndex(day: day, flights: flights, longest: flights.reduce(0) { max($0, $1.on - $1.off) })
    lock.withLock { airborneIndexes[day] = index }
    return index
  }
}

/// A hub's bad weather on one day.
struct Weather {
  /// UTC minutes.
  var start: Int32
  var end: Int32
  /// 0.4–1.
  var severity: Double
  /// 71 (weather at departure) or 75 (de-icing).
  var code: UInt8
}
