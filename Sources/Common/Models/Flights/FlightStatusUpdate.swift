import Foundation

/// One field of a flight's status that changed, with its old and new values as text.
///
/// Values: codes and names as in ``FlightStatus`` (`"gateClosed"`, `"B44"`, `"EWR"`); times as
/// ISO 8601 with the airport's UTC offset; delays as `"93:25"` (code and minutes, largest first,
/// comma-separated). A value that was or became unknown is nil (absent in JSON).
///
/// JSON: `{"field": "departureGate", "old": "B40", "new": "B44"}`.
public struct FlightStatusChange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The fields a change can name.
  public enum Field: String, Hashable, Sendable, Codable, CaseIterable {
    case status
    case departureTerminal, departureGate
    case arrivalTerminal, arrivalGate, baggageBelt
    case estimatedGateDeparture, actualGateDeparture
    case estimatedRunwayDeparture, actualRunwayDeparture
    case estimatedRunwayArrival, actualRunwayArrival
    case estimatedGateArrival, actualGateArrival
    case divertedTo
    case delays
  }

  public var field: Field
  public var old: String?
  public var new: String?

  public init(field: Field, old: String?, new: String?) {
    self.field = field
    self.old = old
    self.new = new
  }

  /// `departureGate B40 → B44`.
  public var description: String { "\(field.rawValue) \(old ?? "–") → \(new ?? "–")" }

  /// The fields that differ from `old` to `new`, in ``Field`` order (nothing for the same status;
  /// the sequence number and the update instant are not fields).
  public static func between(_ old: FlightStatus, _ new: FlightStatus) -> [FlightStatusChange] {
    var changes: [FlightStatusChange] = []
    func compare(_ field: Field, _ a: String?, _ b: String?) {
      if a != b { changes.append(FlightStatusChange(field: field, old: a, new: b)) }
    }
    compare(.status, old.status.rawValue, new.status.rawValue)
    compare(.departureTerminal, old.departure.terminal, new.departure.terminal)
    compare(.departureGate, old.departure.gate, new.departure.gate)
    compare(.arrivalTerminal, old.arrival.terminal, new.arrival.terminal)
    compare(.arrivalGate, old.arrival.gate, new.arrival.gate)
    compare(.baggageBelt, old.arrival.baggageBelt, new.arrival.baggageBelt)
    compare(.estimatedGateDeparture, old.gateDeparture.estimated?.iso8601, new.gateDeparture.estimated?.iso8601)
    compare(.actualGateDeparture, old.gateDeparture.actual?.iso8601, new.gateDeparture.actual?.iso8601)
    compare(.estimatedRunwayDeparture, old.runwayDeparture.estimated?.iso8601, new.runwayDeparture.estimated?.iso8601)
    compare(.actualRunwayDeparture, old.runwayDeparture.actual?.iso8601, new.runwayDeparture.actual?.iso8601)
    compare(.estimatedRunwayArrival, old.runwayArrival.estimated?.iso8601, new.runwayArrival.estimated?.iso8601)
    compare(.actualRunwayArrival, old.runwayArrival.actual?.iso8601, new.runwayArrival.actual?.iso8601)
    compare(.estimatedGateArrival, old.gateArrival.estimated?.iso8601, new.gateArrival.estimated?.iso8601)
    compare(.actualGateArrival, old.gateArrival.actual?.iso8601, new.gateArrival.actual?.iso8601)
    compare(.divertedTo, old.divertedTo, new.divertedTo)
    compare(.delays, delayText(old.delays), delayText(new.delays))
    return changes
  }

  /// `93:25,41:5`, or nil for no delay.
  static func delayText(_ delays: [FlightDelay]) -> String? {
    delays.isEmpty ? nil : delays.map { "\($0.code.number):\($0.minutes)" }.joined(separator: ",")
  }
}

/// A change of one flight: its status after the change (whose ``FlightStatus/sequence`` is the
/// change's number) and the fields that changed.
///
/// JSON: `{"flightStatus": FlightStatus, "changes": [FlightStatusChange]}`.
public struct FlightStatusUpdate: Hashable, Sendable, Codable {
  public var flightStatus: FlightStatus
  public var changes: [FlightStatusChange]

  public init(flightStatus: FlightStatus, changes: [FlightStatusChange]) {
    self.flightStatus = flightStatus
    self.changes = changes
  }

  /// The update from `old` to `new` (the changes computed by ``FlightStatusChange/between(_:_:)``).
  public init(from old: FlightStatus, to new: FlightStatus) {
    self.init(flightStatus: new, changes: FlightStatusChange.between(old, new))
  }

  /// The flight's sequence number after this change.
  public var sequence: Int { flightStatus.sequence }

  /// Whether `field` changed.
  public func changed(_ field: FlightStatusChange.Field) -> Bool { changes.contains { $0.field == field } }

  /// One line for a traveller, or nil when nothing a traveller acts on changed (only a runway
  /// time, say): the gate, the departure time, the state (boarding, departed, landed, arrived,
  /// cancelled, diverted) or the baggage belt.
  ///
  /// `LH 400 to JFK: gate changed to B44` · `LH 400 to JFK: now departs 14:35 (25 min late)` ·
  /// `LH 400 to JFK: boarding at gate B44` · `LH 400 to JFK: cancelled`. `designator` is the
  /// flight as the traveller booked it (a codeshare), by default the operating flight; times are
  /// local to the departure airport.
  public func notice(for designator: Flight? = nil) -> String? {
    let status = flightStatus
    let name = "\(designator ?? status.flight) to \(status.destination)"
    let gate = status.departure.gate.map { " at gate \($0)" } ?? ""
    if changed(.status) {
      switch status.status {
      case .cancelled: return "\(name): cancelled"
      case .diverted: return "\(name): diverted to \(status.divertedTo ?? "another airport")"
      case .boarding: return "\(name): boarding\(gate)"
      case .gateClosed: return "\(name): gate closed"
      case .departed: return "\(name): departed\(status.gateDeparture.actual.map { " at \($0.localTimeText)" } ?? "")"
      case .landed: return "\(name): landed"
      case .arrived:
        let belt = status.arrival.baggageBelt.map { ", baggage belt \($0)" } ?? ""
        return "\(name): arrived\(belt)"
      case .delayed, .scheduled, .enRoute: break
      }
    }
    if changed(.departureGate), let new = status.departure.gate {
      let old = changes.first { $0.field == .departureGate }?.old
      return old == nil ? "\(name): departs from gate \(new)" : "\(name): gate changed to \(new)"
    }
    if changed(.estimatedGateDeparture), status.gateDeparture.actual == nil, status.status != .cancelled {
      let best = status.gateDeparture.best
      let late = status.departureDelayMinutes ?? 0
      let how = late > 0 ? " (\(late) min late)" : late < 0 ? " (\(-late) min early)" : " (on time)"
      return "\(name): now departs \(best.localTimeText)\(how)"
    }
    if changed(.status), status.status == .delayed {
      return "\(name): delayed, departs \(status.gateDeparture.best.localTimeText)"
    }
    if changed(.baggageBelt), let belt = status.arrival.baggageBelt {
      return "\(name): baggage on belt \(belt)"
    }
    return nil
  }
}

/// Which movements a board lists.
public enum BoardDirection: String, Hashable, Sendable, Codable, CaseIterable {
  case departures
  case arrivals
}

/// An airport's departures or arrivals board for one local date: every flight leaving (or due to
/// arrive, by its scheduled gate arrival) on that date, by scheduled time, each with its live
/// status; as FlightAware AeroAPI's `/airports/{id}/flights/departures|arrivals` and Cirium
/// FlightStats' `airports/{code}/dep|arr` list them.
///
/// JSON: `{"airport", "airportName", "city", "timeZone", "date", "direction", "flights":
/// [FlightStatus], "sequence", "asOf"}`.
public struct FlightBoard: Hashable, Sendable, Codable {
  /// IATA code.
  public var airport: String
  public var airportName: String
  public var city: String
  /// The airport's IANA time zone: the board's date and times are local to it.
  public var timeZone: String
  public var date: LocalDate
  public var direction: BoardDirection
  /// By scheduled time at this airport (gate departure for departures, gate arrival for
  /// arrivals), then flight.
  public var flights: [FlightStatus]
  /// How many changes of the board's flights this snapshot includes: the board's own sequence
  /// (each ``FlightBoardUpdate`` after it has the next number).
  public var sequence: Int
  /// The instant of the snapshot (UTC).
  public var asOf: Date

  public init(
    airport: String, airportName: String, city: String, timeZone: String, date: LocalDate, direction: BoardDirection,
    flights: [FlightStatus], sequence: Int, asOf: Date
  ) {
    self.airport = airport
    self.airportName = airportName
    self.city = city
    self.timeZone = timeZone
    self.date = date
    self.direction = direction
    self.flights = flights
    self.sequence = sequence
    self.asOf = asOf
  }
}

/// A change of one flight on a board, numbered in the board's own sequence (one more than the
/// previous update of that board; the snapshot's ``FlightBoard/sequence`` before the first).
///
/// JSON: `{"sequence", "update": FlightStatusUpdate}`.
public struct FlightBoardUpdate: Hashable, Sendable, Codable {
  public var sequence: Int
  public var update: FlightStatusUpdate

  public init(sequence: Int, update: FlightStatusUpdate) {
    self.sequence = sequence
    self.update = update
  }
}

/// What a flight's status feed publishes: a snapshot, then each change.
public enum FlightStatusEvent: Hashable, Sendable {
  /// The flight's status now (first; again for a flight that joins a traveller's trips).
  case snapshot(FlightStatus)
  case update(FlightStatusUpdate)

  /// The status after the event.
  public var flightStatus: FlightStatus {
    switch self {
    case .snapshot(let status): status
    case .update(let update): update.flightStatus
    }
  }
}

/// What a board's feed publishes: the board now, then each change of one of its flights.
public enum FlightBoardEvent: Hashable, Sendable {
  case snapshot(FlightBoard)
  case update(FlightBoardUpdate)
}

extension Reservation {
  /// The flights of a flight reservation as booked (designator, and the operation's key: the
  /// local departure date and origin of each segment), in order; empty for other kinds.
  public var bookedFlights: [(booked: Flight, key: FlightStatusKey)] {
    guard kind == .flight, case .array(let segments)? = details["segments"] else { return [] }
    return segments.compactMap { segment in
      guard case .object(let fields) = segment, let code = fields["flight"]?.stringValue,
        let flight = Flight(code: code), let origin = fields["from"]?.stringValue,
        let departure = fields["departure"]?.stringValue, let date = LocalDate(String(departure.prefix(10)))
      else { return nil }
      return (flight, FlightStatusKey(flight: flight, date: date, origin: origin))
    }
  }
}
