import Foundation

/// One operation of a flight: the operating carrier's designator, the local departure date at the
/// origin, and the origin (a flight number may fly several legs a day, and the same number flies
/// every day). This is what the public flight-status APIs key a flight instance by: Cirium
/// FlightStats' `carrier/flight/departing/year/month/day` with `airport`, OAG's `CarrierCode`,
/// `FlightNumber`, `DepartureDateTime` (local) and `DepartureAirport`; FlightAware AeroAPI's
/// `fa_flight_id` names the same instance with an opaque id.
///
/// Text form (``id``, also a WebSocket topic's tail): `LH400-2026-12-20-FRA`.
/// JSON: `{"flight": "LH400", "date": "2026-12-20", "origin": "FRA"}`.
public struct FlightStatusKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The operating flight (`LH 400`).
  public var flight: Flight
  /// The scheduled departure date, local to ``origin``.
  public var date: LocalDate
  /// IATA code of the departure airport.
  public var origin: String

  public init(flight: Flight, date: LocalDate, origin: String) {
    self.flight = flight
    self.date = date
    self.origin = origin
  }

  /// `LH400-2026-12-20-FRA`.
  public var id: String { "\(flight.code)-\(date)-\(origin)" }

  /// `LH 400 of 2026-12-20 from FRA`.
  public var description: String { "\(flight) of \(date) from \(origin)" }

  /// Parses ``id`` (`LH400-2026-12-20-FRA`), or nil.
  public init?(id: String) {
    let parts = id.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 5, let flight = Flight(code: parts[0]),
      let date = LocalDate("\(parts[1])-\(parts[2])-\(parts[3])"),
      parts[4].count == 3, parts[4].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
    else { return nil }
    self.init(flight: flight, date: date, origin: parts[4])
  }

  public static func < (lhs: FlightStatusKey, rhs: FlightStatusKey) -> Bool {
    (lhs.date, lhs.flight, lhs.origin) < (rhs.date, rhs.flight, rhs.origin)
  }

  private enum CodingKeys: String, CodingKey { case flight, date, origin }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let code = try container.decode(String.self, forKey: .flight)
    guard let flight = Flight(code: code) else {
      throw DecodingError.dataCorruptedError(
        forKey: .flight, in: container, debugDescription: "invalid flight \"\(code)\": expected like LH400")
    }
    self.init(
      flight: flight, date: try container.decode(LocalDate.self, forKey: .date),
      origin: try container.decode(String.self, forKey: .origin))
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(flight.code, forKey: .flight)
    try container.encode(date, forKey: .date)
    try container.encode(origin, forKey: .origin)
  }
}

/// Where a flight is in its day, as departure boards and flight-status services show it.
///
/// JSON: the raw value (`"gateClosed"`). How the public APIs name the same states:
///
/// | here | FlightAware AeroAPI `status` | Cirium FlightStats `status` | OAG `FlightStatus` |
/// | --- | --- | --- | --- |
/// | `scheduled` | "Scheduled" (`actual_out` null) | `S` | Scheduled |
/// | `delayed` | "Scheduled / Delayed" (`departure_delay` ≥ 15 min) | `S` with `delays.departureGateDelayMinutes` | Scheduled (delayed) |
/// | `boarding` | — (airport FIDS) | — (airport FIDS) | — |
/// | `gateClosed` | — (airport FIDS) | — (airport FIDS) | — |
/// | `departed` | "Taxiing / Left Gate" (`actual_out` set, `actual_off` null) | `A` | OutGate |
/// | `enRoute` | "En Route" (`actual_off` set) | `A` | InAir |
/// | `landed` | "Landed / Taxiing" (`actual_on` set, `actual_in` null) | `L` | Landed |
/// | `arrived` | "Arrived / Gate Arrival" (`actual_in` set) | `L` (with `actualGateArrival`) | InGate |
/// | `cancelled` | "Cancelled" (`cancelled` true) | `C` | Cancelled |
/// | `diverted` | "Diverted" (`diverted` true) | `D` | Diverted |
///
/// Boarding and gate closed come from airports' flight information displays, which the APIs
/// above do not carry; a board shows them, as airports do.
public enum FlightStatusCode: String, Hashable, Sendable, Codable, CaseIterable {
  case scheduled
  /// Not yet boarding, and expected to leave the gate 15 minutes or more after schedule.
  case delayed
  case boarding
  case gateClosed
  /// Left the gate (pushback), not yet airborne.
  case departed
  /// Airborne.
  case enRoute
  /// On the runway at the destination, not yet at the gate.
  case landed
  /// At the destination gate: the flight's last state when it went to plan.
  case arrived
  case cancelled
  /// Landing somewhere else than planned: see ``FlightStatus/divertedTo``.
  case diverted

  /// The state as a board shows it: `Gate closed`, `En route`.
  public var displayName: String {
    switch self {
    case .scheduled: "Scheduled"
    case .delayed: "Delayed"
    case .boarding: "Boarding"
    case .gateClosed: "Gate closed"
    case .departed: "Departed"
    case .enRoute: "En route"
    case .landed: "Landed"
    case .arrived: "Arrived"
    case .cancelled: "Cancelled"
    case .diverted: "Diverted"
    }
  }

  /// Parses a raw value or a display name, any case, blanks and `-`/`_` ignored (`gate-closed`,
  /// `En route`), or nil.
  public init?(parsing text: String) {
    let folded = text.lowercased().filter { $0.isLetter }
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
    self = match
  }
}

/// The scheduled, estimated and actual instants of one of a flight's four OOOI events (out of
/// the gate, off the runway, on the runway, in at the gate), each local to the airport where it
/// happens (a diverted flight lands on another airport's clock).
///
/// The names follow FlightAware AeroAPI (`scheduled_out`, `estimated_out`, `actual_out`, …);
/// Cirium FlightStats calls the same values `scheduledGateDeparture`, `estimatedGateDeparture`,
/// `actualGateDeparture` (`…RunwayDeparture`, `…RunwayArrival`, `…GateArrival` for the others).
/// JSON: `{"scheduled", "estimated", "actual"}`, ISO 8601 with the airport's UTC offset, the last
/// two absent until known.
public struct FlightEventTimes: Hashable, Sendable, Codable {
  /// From the timetable.
  public var scheduled: AirportTime
  /// The current forecast; nil while the airline expects the schedule, or once ``actual`` is known.
  public var estimated: AirportTime?
  /// When it happened.
  public var actual: AirportTime?

  public init(scheduled: AirportTime, estimated: AirportTime? = nil, actual: AirportTime? = nil) {
    self.scheduled = scheduled
    self.estimated = estimated
    self.actual = actual
  }

  /// The best knowledge: actual, else estimated, else scheduled.
  public var best: AirportTime { actual ?? estimated ?? scheduled }

  /// Best minus scheduled, in whole minutes (negative when early).
  public var deviationMinutes: Int {
    Int((best.instant.timeIntervalSince(scheduled.instant) / 60).rounded())
  }

  /// Names the zone of times decoded from JSON (which carries only their offsets): `zone` for the
  /// scheduled time, `landing` (default `zone`) for the estimated and actual ones.
  mutating func name(_ zone: String, landing: String? = nil) {
    scheduled.timeZone = zone
    estimated?.timeZone = landing ?? zone
    actual?.timeZone = landing ?? zone
  }
}

/// One end of a flight as its status gives it: the airport, the terminal and gate, and (at the
/// arrival end) the baggage belt. Names as in FlightAware AeroAPI (`terminal_origin`,
/// `gate_origin`, `terminal_destination`, `gate_destination`, `baggage_claim`) and Cirium
/// FlightStats (`airportResources.departureTerminal`, `departureGate`, `arrivalTerminal`,
/// `arrivalGate`, `baggage`).
///
/// Every terminal and gate named exists at the airport (the backend's airport layouts).
public struct FlightStatusEnd: Hashable, Sendable, Codable {
  /// IATA code.
  public var airport: String
  /// The airport's IANA time zone; every time of this end is local to it.
  public var timeZone: String
  /// Terminal (`1`, `2`); nil until assigned.
  public var terminal: String?
  /// Gate (`B44`, `7`); nil until assigned.
  public var gate: String?
  /// Baggage reclaim belt, at the arrival end once the flight has landed.
  public var baggageBelt: String?

  public init(
    airport: String, timeZone: String, terminal: String? = nil, gate: String? = nil, baggageBelt: String? = nil
  ) {
    self.airport = airport
    self.timeZone = timeZone
    self.terminal = terminal
    self.gate = gate
    self.baggageBelt = baggageBelt
  }
}

/// An IATA delay code (AHM 730, "Codes to report aircraft delays"; AHM 731, sub-codes): the
/// two-digit number airlines report a departure delay's cause with, and its meaning.
///
/// The codes the simulation reports (``known``), by AHM 730 group:
/// - 11–19 passenger and baggage: 11 late check-in, 15 boarding (discrepancies, paging), 18 baggage processing;
/// - 31–39 aircraft and ramp handling: 31 aircraft documentation, 32 loading/unloading, 33 loading
///   equipment, 36 fuelling, 37 catering;
/// - 41–48 technical and aircraft equipment: 41 aircraft defects, 46 aircraft change for technical reasons;
/// - 61–69 flight operations and crewing: 62 operational requirements (fuel, load alteration),
///   63 late crew boarding or departure procedures, 64 flight deck crew shortage, 67 cabin crew shortage;
/// - 71–77 weather: 71 departure station, 72 destination station, 75 de-icing of aircraft;
/// - 81–89 air traffic flow management and airport/authorities: 81 ATFM due to ATC en-route
///   demand/capacity, 83 ATFM due to restriction at destination airport, 84 ATFM due to weather at
///   destination, 85 mandatory security, 87 airport facilities, 89 restrictions at airport of departure;
/// - 91–96 reactionary: 93 aircraft rotation (late arrival of the aircraft from another flight or
///   previous sector);
/// - 97–99 miscellaneous: 99 other reason.
///
/// JSON: the number (`93`).
public struct DelayCode: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The two-digit code, 0–99.
  public var number: Int

  public init(_ number: Int) { self.number = number }

  /// The codes the simulation reports, with their AHM 730 meanings.
  public static let known: [Int: String] = [
    11: "late check-in",
    15: "boarding: discrepancies and paging",
    18: "baggage processing",
    31: "aircraft documentation late",
    32: "loading and unloading",
    33: "loading equipment",
    36: "fuelling",
    37: "catering",
    41: "aircraft defects",
    46: "aircraft change for technical reasons",
    62: "operational requirements: fuel, load alteration",
    63: "late crew boarding or departure procedures",
    64: "flight deck crew shortage",
    67: "cabin crew shortage",
    71: "weather at the departure airport",
    72: "weather at the destination",
    75: "de-icing of the aircraft",
    81: "air traffic flow management: en-route demand and capacity",
    83: "air traffic flow management: restriction at the destination airport",
    84: "air traffic flow management: weather at the destination",
    85: "mandatory security",
    87: "airport facilities",
    89: "restrictions at the departure airport",
    93: "aircraft rotation: late arrival of the aircraft from its previous flight",
    99: "other reason",
  ]

  /// Reactionary: caused by an earlier flight's delay (code 93).
  public static let aircraftRotation = DelayCode(93)

  /// The AHM 730 group of the code.
  public var group: String {
    switch number {
    case 0...9: "airline internal"
    case 11...19: "passenger and baggage"
    case 21...29: "cargo and mail"
    case 31...39: "aircraft and ramp handling"
    case 41...48: "technical and aircraft equipment"
    case 51...58: "damage to aircraft and automated equipment failure"
    case 61...69: "flight operations and crewing"
    case 71...79: "weather"
    case 81...89: "air traffic flow management, airport and governmental authorities"
    case 91...96: "reactionary"
    default: "miscellaneous"
    }
  }

  /// What the code means (``known``), else its AHM 730 group.
  public var reason: String { Self.known[number] ?? group }

  /// `93 aircraft rotation: …`.
  public var description: String { "\(number < 10 ? "0" : "")\(number) \(reason)" }

  public static func < (lhs: DelayCode, rhs: DelayCode) -> Bool { lhs.number < rhs.number }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let number = try container.decode(Int.self)
    guard (0...99).contains(number) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "invalid delay code \(number): expected 0–99 (IATA AHM 730)")
    }
    self.number = number
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(number)
  }
}

/// Minutes of a departure delay attributed to one cause (AHM 732 lets an airline report up to two
/// causes whose minutes add up to the delay; so does this model).
///
/// JSON: `{"code": 93, "minutes": 25, "reason": "aircraft rotation: …"}`.
public struct FlightDelay: Hashable, Sendable, Codable {
  public var code: DelayCode
  public var minutes: Int

  public init(code: DelayCode, minutes: Int) {
    self.code = code
    self.minutes = minutes
  }

  private enum CodingKeys: String, CodingKey { case code, minutes, reason }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    code = try container.decode(DelayCode.self, forKey: .code)
    minutes = try container.decode(Int.self, forKey: .minutes)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(code, forKey: .code)
    try container.encode(minutes, forKey: .minutes)
    try container.encode(code.reason, forKey: .reason)
  }
}

/// The live status of one flight operation: where it is in its day, its four OOOI times
/// (scheduled, estimated, actual), terminals and gates, baggage belt, delay and its causes,
/// diversion, the codeshare flights that carry the same status, and the sequence number of the
/// last change.
///
/// Field names and meanings follow the public flight-status APIs:
///
/// | here | FlightAware AeroAPI | Cirium FlightStats | OAG |
/// | --- | --- | --- | --- |
/// | `key.flight` | `ident_iata` (operator's) | `carrierFsCode` + `flightNumber` | `CarrierCode` + `FlightNumber` |
/// | `key.date` | date of `scheduled_out` at origin | `departureDate.dateLocal` | `DepartureDate` (local) |
/// | `codeshares` | `codeshares_iata` | `codeshares[]` (`relationship` "L") | `CodeshareInfo` |
/// | `status` | `status`, `cancelled`, `diverted` | `status` | `FlightStatus` / `StatusDetails.State` |
/// | `gateDeparture` | `scheduled_out` / `estimated_out` / `actual_out` | `…GateDeparture` | `OutGate` times |
/// | `runwayDeparture` | `…_off` | `…RunwayDeparture` | `OffGround` times |
/// | `runwayArrival` | `…_on` | `…RunwayArrival` | `OnGround` times |
/// | `gateArrival` | `…_in` | `…GateArrival` | `InGate` times |
/// | `departure.terminal/gate` | `terminal_origin`, `gate_origin` | `departureTerminal`, `departureGate` | `DepartureTerminal`, `DepartureGate` |
/// | `arrival.terminal/gate` | `terminal_destination`, `gate_destination` | `arrivalTerminal`, `arrivalGate` | `ArrivalTerminal`, `ArrivalGate` |
/// | `arrival.baggageBelt` | `baggage_claim` | `baggage` | `BaggageClaim` |
/// | `departureDelayMinutes` | `departure_delay` (seconds there) | `departureGateDelayMinutes` | `OutGateVariation` |
/// | `arrivalDelayMinutes` | `arrival_delay` (seconds there) | `arrivalGateDelayMinutes` | `InGateVariation` |
/// | `delays` | — | — (IATA AHM 730 codes, as airlines exchange in MVT messages) | — |
/// | `divertedTo` | `diverted` + the new `destination` | `divertedAirportFsCode` | `DivertedAirport` |
/// | `inbound` | `inbound_fa_flight_id` | — | — |
/// | `sequence` | — | — (each `flightStatusUpdates` entry) | — |
///
/// Every time is local to the airport where it happens, with its UTC offset (CLI.md "Values").
/// A diverted flight keeps its scheduled ``arrival`` airport; its actual landing and gate
/// arrival are at ``divertedTo``, in that airport's time zone.
///
/// JSON: the fields above by name, the key's as `flight`, `date`, `origin`; times as ISO 8601 with
/// their offset, their zone names in `departure.timeZone`, `arrival.timeZone` and (diverted)
/// `divertedToTimeZone`, which decoding gives back to each time.
///
/// Invariants (the backend's tests check them): the actual times, when present, are in the order
/// out < off < on < in; ``sequence`` grows by one with each change of the flight.
public struct FlightStatus: Hashable, Sendable, Codable {
  public var key: FlightStatusKey
  /// IATA code of the scheduled destination.
  public var destination: String
  /// The marketing flights of other carriers on this operation; they carry this status.
  public var codeshares: [Flight]
  public var status: FlightStatusCode
  public var departure: FlightStatusEnd
  public var arrival: FlightStatusEnd
  /// Out: the aircraft leaves the gate (pushback).
  public var gateDeparture: FlightEventTimes
  /// Off: takeoff.
  public var runwayDeparture: FlightEventTimes
  /// On: landing.
  public var runwayArrival: FlightEventTimes
  /// In: at the arrival gate (on block).
  public var gateArrival: FlightEventTimes
  /// Best gate departure minus scheduled, in minutes (negative: early); nil when cancelled.
  public var departureDelayMinutes: Int?
  /// Best gate arrival minus scheduled, in minutes; nil when cancelled.
  public var arrivalDelayMinutes: Int?
  /// The causes of the departure delay, largest first (empty when on time or not yet known).
  public var delays: [FlightDelay]
  /// IATA code of the airport the flight diverted to.
  public var divertedTo: String?
  /// IATA aircraft type code (`744`).
  public var aircraft: String
  /// The aircraft type's name when known.
  public var aircraftName: String?
  /// The aircraft's previous flight (the one whose late arrival causes a code 93 delay).
  public var inbound: FlightStatusKey?
  /// Number of changes so far, from 1 (the timetable); grows by one with each change.
  public var sequence: Int
  /// When the last change happened (nil for the timetable record).
  public var updatedAt: Date?

  public init(
    key: FlightStatusKey, destination: String, codeshares: [Flight] = [], status: FlightStatusCode,
    departure: FlightStatusEnd, arrival: FlightStatusEnd, gateDeparture: FlightEventTimes,
    runwayDeparture: FlightEventTimes, runwayArrival: FlightEventTimes, gateArrival: FlightEventTimes,
    departureDelayMinutes: Int? = 0, arrivalDelayMinutes: Int? = 0, delays: [FlightDelay] = [],
    divertedTo: String? = nil, aircraft: String, aircraftName: String? = nil, inbound: FlightStatusKey? = nil,
    sequence: Int = 1, updatedAt: Date? = nil
  ) {
    self.key = key
    self.destination = destination
    self.codeshares = codeshares
    self.status = status
    self.departure = departure
    self.arrival = arrival
    self.gateDeparture = gateDeparture
    self.runwayDeparture = runwayDeparture
    self.runwayArrival = runwayArrival
    self.gateArrival = gateArrival
    self.departureDelayMinutes = departureDelayMinutes
    self.arrivalDelayMinutes = arrivalDelayMinutes
    self.delays = delays
    self.divertedTo = divertedTo
    self.aircraft = aircraft
    self.aircraftName = aircraftName
    self.inbound = inbound
    self.sequence = sequence
    self.updatedAt = updatedAt
  }

  /// The operating flight.
  public var flight: Flight { key.flight }

  /// Whether nothing more will change: arrived, cancelled, or diverted and at the gate there.
  public var isFinal: Bool {
    switch status {
    case .arrived, .cancelled: true
    case .diverted: gateArrival.actual != nil
    default: false
    }
  }

  /// Whether `designator` names this operation: the operating flight or one of its codeshares.
  public func isCarried(by designator: Flight) -> Bool {
    key.flight == designator || codeshares.contains(designator)
  }

  private enum CodingKeys: String, CodingKey {
    case flight, date, origin, destination, codeshares, status, departure, arrival, gateDeparture, runwayDeparture
    case runwayArrival, gateArrival, departureDelayMinutes, arrivalDelayMinutes, delays, divertedTo
    case divertedToTimeZone, aircraft, aircraftName, inbound, sequence, updatedAt
  }

  /// The IANA time zone of ``divertedTo``: the zone of the estimated and actual landing and gate
  /// arrival once the flight is diverted (nil when it is not).
  public var divertedToTimeZone: String? {
    guard divertedTo != nil else { return nil }
    let times = [gateArrival.actual, gateArrival.estimated, runwayArrival.actual, runwayArrival.estimated]
    return times.lazy.compactMap { $0?.timeZone }.first
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let code = try container.decode(String.self, forKey: .flight)
    guard let flight = Flight(code: code) else {
      throw DecodingError.dataCorruptedError(
        forKey: .flight, in: container, debugDescription: "invalid flight \"\(code)\": expected like LH400")
    }
    key = FlightStatusKey(
      flight: flight, date: try container.decode(LocalDate.self, forKey: .date),
      origin: try container.decode(String.self, forKey: .origin))
    destination = try container.decode(String.self, forKey: .destination)
    codeshares = try container.decode([String].self, forKey: .codeshares).map { text in
      guard let flight = Flight(code: text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .codeshares, in: container, debugDescription: "invalid codeshare \"\(text)\": expected like UA9070")
      }
      return flight
    }
    status = try container.decode(FlightStatusCode.self, forKey: .status)
    departure = try container.decode(FlightStatusEnd.self, forKey: .departure)
    arrival = try container.decode(FlightStatusEnd.self, forKey: .arrival)
    gateDeparture = try container.decode(FlightEventTimes.self, forKey: .gateDeparture)
    runwayDeparture = try container.decode(FlightEventTimes.self, forKey: .runwayDeparture)
    runwayArrival = try container.decode(FlightEventTimes.self, forKey: .runwayArrival)
    gateArrival = try container.decode(FlightEventTimes.self, forKey: .gateArrival)
    departureDelayMinutes = try container.decodeIfPresent(Int.self, forKey: .departureDelayMinutes)
    arrivalDelayMinutes = try container.decodeIfPresent(Int.self, forKey: .arrivalDelayMinutes)
    delays = try container.decode([FlightDelay].self, forKey: .delays)
    divertedTo = try container.decodeIfPresent(String.self, forKey: .divertedTo)
    aircraft = try container.decode(String.self, forKey: .aircraft)
    aircraftName = try container.decodeIfPresent(String.self, forKey: .aircraftName)
    inbound = try container.decodeIfPresent(FlightStatusKey.self, forKey: .inbound)
    sequence = try container.decode(Int.self, forKey: .sequence)
    updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
    // The wire gives each time as ISO 8601 with its offset only: give the times their airports'
    // zone names back (departure, arrival, or the diversion airport's for a diverted flight's
    // estimated and actual landing and gate arrival), keeping the offsets as sent.
    let landingZone = try container.decodeIfPresent(String.self, forKey: .divertedToTimeZone) ?? arrival.timeZone
    gateDeparture.name(departure.timeZone)
    runwayDeparture.name(departure.timeZone)
    runwayArrival.name(arrival.timeZone, landing: divertedTo == nil ? arrival.timeZone : landingZone)
    gateArrival.name(arrival.timeZone, landing: divertedTo == nil ? arrival.timeZone : landingZone)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(key.flight.code, forKey: .flight)
    try container.encode(key.date, forKey: .date)
    try container.encode(key.origin, forKey: .origin)
    try container.encode(destination, forKey: .destination)
    try container.encode(codeshares.map(\.code), forKey: .codeshares)
    try container.encode(status, forKey: .status)
    try container.encode(departure, forKey: .departure)
    try container.encode(arrival, forKey: .arrival)
    try container.encode(gateDeparture, forKey: .gateDeparture)
    try container.encode(runwayDeparture, forKey: .runwayDeparture)
    try container.encode(runwayArrival, forKey: .runwayArrival)
    try container.encode(gateArrival, forKey: .gateArrival)
    try container.encodeIfPresent(departureDelayMinutes, forKey: .departureDelayMinutes)
    try container.encodeIfPresent(arrivalDelayMinutes, forKey: .arrivalDelayMinutes)
    try container.encode(delays, forKey: .delays)
    try container.encodeIfPresent(divertedTo, forKey: .divertedTo)
    try container.encodeIfPresent(divertedToTimeZone, forKey: .divertedToTimeZone)
    try container.encode(aircraft, forKey: .aircraft)
    try container.encodeIfPresent(aircraftName, forKey: .aircraftName)
    try container.encodeIfPresent(inbound, forKey: .inbound)
    try container.encode(sequence, forKey: .sequence)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}
