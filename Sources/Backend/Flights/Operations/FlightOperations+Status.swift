import Common
import Foundation

/// A flight in the air at some instant, for a live map: where it took off and where it is bound,
/// and when it took off and will land (UTC instants; the landing is the actual one the simulation
/// knows, so a position can be interpolated along the great circle).
public struct AirborneFlight: Hashable, Sendable {
  public var key: FlightStatusKey
  /// IATA codes; `destination` is the alternate for a flight that diverted.
  public var origin: String
  public var destination: String
  public var originLatitude: Double
  public var originLongitude: Double
  public var destinationLatitude: Double
  public var destinationLongitude: Double
  public var takeoff: Date
  public var landing: Date
}

extension FlightOperations {
  // MARK: Flights

  /// The simulated flight of `key`, or nil when no such flight flies (unknown designator, another
  /// origin, or not on that date).
  func flight(_ key: FlightStatusKey) -> SimulatedFlight? {
    guard let pattern = network.pattern(of: key.flight),
      network.airports[Int(network.patterns[Int(pattern)].origin)].iata == key.origin
    else { return nil }
    return simulated(pattern: pattern, day: Int32(key.date.daysSinceEpoch))
  }

  /// The key of `pattern`'s flight on operating date `day`.
  func key(pattern: Int32, day: Int32) -> FlightStatusKey {
    FlightStatusKey(
      flight: network.flight(of: pattern), date: LocalDate(daysSinceEpoch: Int(day)),
      origin: network.airports[Int(network.patterns[Int(pattern)].origin)].iata)
  }

  /// The status of `key` at `instant`, or nil when no such flight flies.
  public func status(_ key: FlightStatusKey, at instant: Date) -> FlightStatus? {
    guard let flight = flight(key) else { return nil }
    return status(flight, applied: flight.applied(by: Self.minute(instant)))
  }

  /// Every state of `key`'s flight, from the timetable (sequence 1) to its last change, with the
  /// instant of each change (nil for the timetable); nil when no such flight flies.
  public func timeline(_ key: FlightStatusKey) -> [FlightStatus]? {
    guard let flight = flight(key) else { return nil }
    return (0...flight.events.count).map { status(flight, applied: $0) }
  }

  /// The UTC minute of `instant` (rounded down).
  static func minute(_ instant: Date) -> Int32 {
    Int32(clamping: Int((instant.timeIntervalSince1970 / 60).rounded(.down)))
  }

  /// The instant of UTC minute `minute`.
  static func instant(_ minute: Int32) -> Date { Date(timeIntervalSince1970: TimeInterval(minute) * 60) }

  /// The time of UTC minute `minute` at network airport `airport`.
  func airportTime(_ minute: Int32, at airport: Int32) -> AirportTime {
    let zone = network.zones[Int(network.airports[Int(airport)].zone)]
    return AirportTime(
      instant: Self.instant(minute), timeZone: zone.identifier, utcOffsetMinutes: Int(zone.offset(atUTC: minute)))
  }

  /// The status of `flight` after its first `applied` changes (sequence `applied + 1`).
  func status(_ simulated: SimulatedFlight, applied: Int) -> FlightStatus {
    let flight = simulated.flight
    let pattern = network.patterns[Int(simulated.pattern)]
    let origin = pattern.origin
    let destination = pattern.destination
    let originLayout = layouts[Int(origin)]
    let destinationLayout = layouts[Int(destination)]
    let model = network.aircraft[Int(pattern.aircraft)]
    func time(_ minute: Int32, _ airport: Int32) -> AirportTime { airportTime(minute, at: airport) }
    let key = key(pattern: simulated.pattern, day: simulated.day)
    let inbound =
      flight.inbound >= 0
      ? self.key(pattern: simulated.fleetDay.flights[Int(flight.inbound)].pattern, day: simulated.day) : nil
    var status = FlightStatus(
      key: key, destination: network.airports[Int(destination)].iata,
      codeshares: [],
      status: .scheduled,
      departure: FlightStatusEnd(airport: key.origin, timeZone: time(flight.scheduledOut, origin).timeZone),
      arrival: FlightStatusEnd(
        airport: network.airports[Int(destination)].iata, timeZone: time(flight.scheduledIn, destination).timeZone),
      gateDeparture: FlightEventTimes(scheduled: time(flight.scheduledOut, origin)),
      runwayDeparture: FlightEventTimes(scheduled: time(flight.scheduledOff, origin)),
      runwayArrival: FlightEventTimes(scheduled: time(flight.scheduledOn, destination)),
      gateArrival: FlightEventTimes(scheduled: time(flight.scheduledIn, destination)),
      aircraft: model.code, aircraftName: model.name, inbound: inbound)
    let delays = flight.delays.map { FlightDelay(code: DelayCode(Int($0.code)), minutes: Int($0.minutes)) }
    /// The delays of an estimate `minutes` late: the final causes, scaled.
    func scaled(_ minutes: Int32) -> [FlightDelay] {
      guard minutes >= 5, flight.departureDelay > 0 else { return [] }
      if minutes >= flight.departureDelay { return delays }
      var result = delays.map {
        FlightDelay(code: $0.code, minutes: Int(Int32($0.minutes) * minutes / flight.departureDelay))
      }
      result[0].minutes += Int(minutes) - result.reduce(0) { $0 + $1.minutes }
      return result.filter { $0.minutes > 0 }
    }
    let landingAirport = flight.divertedTo >= 0 ? flight.divertedTo : destination
    for event in simulated.events.prefix(applied) {
      switch event.kind {
      case .gateAssigned, .gateChanged:
        status.departure.gate = originLayout.gateNames[Int(event.value)]
        status.departure.terminal = originLayout.terminal(ofGate: Int(event.value))
      case .estimate:
        let late = event.value - flight.scheduledOut
        status.gateDeparture.estimated = time(event.value, origin)
        status.runwayDeparture.estimated = time(flight.scheduledOff + late, origin)
        status.runwayArrival.estimated = time(flight.scheduledOn + late, destination)
        status.gateArrival.estimated = time(flight.scheduledIn + late, destination)
        status.delays = scaled(late)
        if status.status == .scheduled || status.status == .delayed {
          status.status = late >= 15 ? .delayed : .scheduled
        }
      case .boarding:
        status.status = .boarding
      case .gateClosed:
        status.status = .gateClosed
      case .out:
        let late = flight.actualOut - flight.scheduledOut
        status.status = .departed
        status.gateDeparture.actual = time(flight.actualOut, origin)
        status.gateDeparture.estimated = nil
        status.runwayDeparture.estimated = time(flight.actualOut + (flight.scheduledOff - flight.scheduledOut), origin)
        status.runwayArrival.estimated = time(flight.scheduledOn + late, destination)
        status.gateArrival.estimated = time(flight.scheduledIn + late, destination)
        status.delays = delays
      case .off:
        status.status = .enRoute
        status.runwayDeparture.actual = time(flight.actualOff, origin)
        status.runwayDeparture.estimated = nil
        if flight.divertedTo >= 0 {
          let late = flight.actualOff - flight.scheduledOff
          status.runwayArrival.estimated = time(flight.scheduledOn + late, destination)
          status.gateArrival.estimated = time(flight.scheduledIn + late, destination)
        } else {
          status.runwayArrival.estimated = time(flight.actualOn, destination)
          status.gateArrival.estimated = time(flight.actualIn, destination)
          if simulated.arrivalGate >= 0 {
            status.arrival.gate = destinationLayout.gateNames[Int(simulated.arrivalGate)]
            status.arrival.terminal = destinationLayout.terminal(ofGate: Int(simulated.arrivalGate))
          }
        }
      case .diverted:
        status.status = .diverted
        status.divertedTo = network.airports[Int(event.value)].iata
        status.arrival.gate = nil
        status.arrival.terminal = nil
        status.runwayArrival.estimated = time(flight.actualOn, landingAirport)
        status.gateArrival.estimated = time(flight.actualIn, landingAirport)
      case .on:
        status.runwayArrival.actual = time(flight.actualOn, landingAirport)
        status.runwayArrival.estimated = nil
        status.gateArrival.estimated = time(flight.actualIn, landingAirport)
        if status.status != .diverted {
          status.status = .landed
          if simulated.belt >= 0 { status.arrival.baggageBelt = destinationLayout.beltNames[Int(simulated.belt)] }
        }
      case .gateIn:
        status.gateArrival.actual = time(flight.actualIn, landingAirport)
        status.gateArrival.estimated = nil
        if status.status != .diverted { status.status = .arrived }
      case .cancelled:
        status.status = .cancelled
        status.gateDeparture.estimated = nil
        status.runwayDeparture.estimated = nil
        status.runwayArrival.estimated = nil
        status.gateArrival.estimated = nil
        status.delays = []
      }
      status.updatedAt = Self.instant(event.minute)
    }
    status.sequence = applied + 1
    if status.status == .cancelled {
      status.departureDelayMinutes = nil
      status.arrivalDelayMinutes = nil
    } else {
      status.departureDelayMinutes = status.gateDeparture.deviationMinutes
      status.arrivalDelayMinutes = status.gateArrival.deviationMinutes
    }
    return status
  }

  // MARK: Boards

  /// The flights of `airport`'s board for its local date `date`: departures leaving on that date,
  /// or arrivals due at the gate on it, by scheduled time there, then carrier and number.
  func board(airport: Int32, date: LocalDate, direction: BoardDirection) -> [SimulatedFlight] {
    let target = Int32(date.daysSinceEpoch)
    var found: [(minute: Int32, pattern: Int32, day: Int32)] = []
    switch direction {
    case .departures:
      for pattern in gatePlan(airport, day: target).order {
        found.append((network.departureUTC(network.patterns[Int(pattern)], day: target), pattern, target))
      }
    case .arrivals:
      // Due on `date`: left on it or up to two days before (long flights, eastward across the
      // dateline), or, westward across the dateline, the day after.
      let list = network.arrivalList[
        Int(network.arrivalStart[Int(airport)])..<Int(network.arrivalStart[Int(airport) + 1])]
      for pattern in list {
        let info = network.patterns[Int(pattern)]
        for day in (target - 2)...(target + 1) where network.flies(info, on: day) {
          let arrival = network.departureUTC(info, day: day) + info.blockMinutes
          if localDay(airport, arrival) == target { found.append((arrival, pattern, day)) }
        }
      }
    }
    found.sort {
      let a = network.patterns[Int($0.pattern)]
      let b = network.patterns[Int($1.pattern)]
      return ($0.minute, network.carriers[Int(a.carrier)], a.number) < (
        $1.minute, network.carriers[Int(b.carrier)], b.number
      )
    }
    return found.compactMap { simulated(pattern: $0.pattern, day: $0.day) }
  }

  // MARK: Radar

  /// Every flight in the air at `instant` (took off at or before it, lands after it), by takeoff:
  /// for a live map. Reads the simulated days that can have a flight in the air then (three or
  /// four), each with a binary search over takeoff times.
  public func airborne(at instant: Date) -> [AirborneFlight] {
    let minute = Self.minute(instant)
    let utcDay = ItinerarySearch.floorDiv(minute, 1440)
    var result: [AirborneFlight] = []
    for date in (utcDay - 2)...(utcDay + 1) {
      let index = airborneIndex(day: date)
      let flights = index.flights
      // The first flight that took off after `minute - longest`: earlier ones have landed.
      var low = 0
      var high = flights.count
      let earliest = minute - index.longest
      while low < high {
        let middle = (low + high) / 2
        if flights[middle].off < earliest { low = middle + 1 } else { high = middle }
      }
      for flight in flights[low...] {
        if flight.off > minute { break }
        guard flight.on > minute else { continue }
        let pattern = network.patterns[Int(flight.pattern)]
        let from = network.airports[Int(pattern.origin)]
        let to = network.airports[Int(flight.divertedTo >= 0 ? flight.divertedTo : pattern.destination)]
        result.append(
          AirborneFlight(
            key: key(pattern: flight.pattern, day: date), origin: from.iata, destination: to.iata,
            originLatitude: from.latitude, originLongitude: from.longitude, destinationLatitude: to.latitude,
            destinationLongitude: to.longitude, takeoff: Self.instant(flight.off), landing: Self.instant(flight.on)))
      }
    }
    return result
  }
}

// MARK: - Figures (benchmarks, README)

extension FlightOperations {
  /// Counts over one operating date of the world.
  public struct DayFigures: Sendable {
    public var flights = 0
    /// At the gate less than 15 minutes after schedule (not cancelled, not diverted).
    public var onTime = 0
    public var cancelled = 0
    public var diverted = 0
    /// Departure delay minutes of flights 5 minutes late or more, and those coded 93.
    public var delayMinutes = 0
    public var reactionaryMinutes = 0
  }

  /// Simulates every flight of `date` (each fleet, each gate plan, each flight's changes) and
  /// counts what happened.
  public func figures(of date: LocalDate) -> DayFigures {
    var figures = DayFigures()
    for simulated in allFlights(day: Int32(date.daysSinceEpoch)) {
      let flight = simulated.flight
      figures.flights += 1
      if flight.cancelled {
        figures.cancelled += 1
        continue
      }
      if flight.divertedTo >= 0 {
        figures.diverted += 1
      } else if flight.actualIn - flight.scheduledIn < 15 {
        figures.onTime += 1
      }
      if flight.departureDelay >= 5 {
        figures.delayMinutes += Int(flight.departureDelay)
        figures.reactionaryMinutes += flight.delays.filter { $0.code == 93 }.reduce(0) { $0 + Int($1.minutes) }
      }
    }
    return figures
  }

  /// The IATA code of the airport with the most departures on an average day.
  public var busiestAirport: String {
    network.airports[dailyDepartures.indices.max { dailyDepartures[$0] < dailyDepartures[$1] } ?? 0].iata
  }

  /// The IANA time zone of `airport` (an IATA code of the network), else `UTC`.
  public func timeZone(of airport: String) -> String {
    guard let index = network.airportIndex[airport] else { return "UTC" }
    return network.zones[Int(network.airports[Int(index)].zone)].identifier
  }

  /// How many changes the departures board of `airport` for `date` has from `start` to `end`.
  public func boardChanges(airport: String, date: LocalDate, from start: Date, to end: Date) -> Int {
    guard let index = network.airportIndex[airport] else { return 0 }
    let (first, last) = (Self.minute(start), Self.minute(end))
    return board(airport: index, date: date, direction: .departures).reduce(0) { count, flight in
      count + flight.events.filter { $0.minute >= first && $0.minute < last }.count
    }
  }
}
