import Common
import Foundation

/// One flight of a fleet's simulated day: its schedule, what happened, and when it was announced.
/// Times are UTC minutes since 1970.
struct SimFlight: Sendable {
  var pattern: Int32
  var kind: AircraftCatalog.Kind
  var scheduledOut: Int32 = 0
  var scheduledOff: Int32 = 0
  var scheduledOn: Int32 = 0
  var scheduledIn: Int32 = 0
  var actualOut: Int32 = 0
  var actualOff: Int32 = 0
  var actualOn: Int32 = 0
  var actualIn: Int32 = 0
  /// Gate departure delay, minutes (negative: early).
  var departureDelay: Int32 = 0
  /// Delay causes (IATA code, minutes), largest first; empty below 5 minutes.
  var delays: [(code: UInt8, minutes: Int16)] = []
  var cancelled = false
  var cancelAt: Int32 = 0
  /// Network airport index, or -1.
  var divertedTo: Int32 = -1
  var divertAt: Int32 = 0
  /// Positions in the fleet's day of the aircraft's previous and next flights, or -1.
  var inbound: Int32 = -1
  var next: Int32 = -1
  var firstEstimate: Int32 = Int32.min
  var firstEstimateAt: Int32 = Int32.min
  var finalEstimateAt: Int32 = Int32.min
  var boardingAt: Int32 = 0
  var gateClosedAt: Int32 = 0

  init(pattern: Int32, kind: AircraftCatalog.Kind) {
    self.pattern = pattern
    self.kind = kind
  }
}

/// A fleet's simulated operating date: its flights by scheduled departure. Immutable.
final class FleetDay: Sendable {
  let day: Int32
  let flights: [SimFlight]
  private let positions: [Int32: Int32]

  init(day: Int32, flights: [SimFlight]) {
    self.day = day
    self.flights = flights
    var positions: [Int32: Int32] = [:]
    positions.reserveCapacity(flights.count)
    for (position, flight) in flights.enumerated() { positions[flight.pattern] = Int32(position) }
    self.positions = positions
  }

  /// The position of `pattern`'s flight (which must fly that day).
  func position(of pattern: Int32) -> Int { Int(positions[pattern]!) }
}

/// A departure's gate as planned on the timetable, and what the day may change.
struct PlannedGate: Sendable {
  /// Gate index in the origin's layout.
  var gate: Int16
  /// The pattern planned at the same gate just before, or -1.
  var previous: Int32
  /// A gate of the terminal the plan leaves free then, or -1.
  var alternate: Int16
  /// When the gate is published (UTC minute).
  var assignedAt: Int32
  /// Whether the gate changes anyway (4 %).
  var randomChange: Bool
  /// How long before boarding a change is announced, minutes.
  var changeLead: Int32
}

/// An airport's gate plan for one local date, from the timetable alone.
struct GatePlan: Sendable {
  /// The departures, by scheduled departure (patterns).
  var order: [Int32]
  var entries: [Int32: PlannedGate]
}

/// What a change of a simulated flight is (its value, when it has one, in ``SimEvent/value``).
enum SimEventKind: UInt8, Sendable {
  /// Departure gate published (value: gate index at the origin).
  case gateAssigned = 1
  /// New estimated gate departure (value: UTC minute).
  case estimate
  /// Departure gate changed (value: gate index).
  case gateChanged
  case boarding
  case gateClosed
  case out
  case off
  /// Value: the alternate airport (network index).
  case diverted
  case on
  case gateIn
  case cancelled
}

/// One change of one flight, at a UTC minute.
struct SimEvent: Sendable {
  var minute: Int32
  var kind: SimEventKind
  var value: Int32
}

/// One flight of a simulated day with everything a status needs: its fleet's simulation, its
/// gates and belt, and its changes in time order. Immutable.
final class SimulatedFlight: Sendable {
  /// The operating date (days since 1970, local at the origin).
  let day: Int32
  let pattern: Int32
  let fleetDay: FleetDay
  let position: Int
  let plannedGate: Int16
  /// The gate it leaves from (another than planned after a change).
  let gate: Int16
  let gateAssignedAt: Int32
  /// When the gate changed, or `Int32.min`.
  let gateChangedAt: Int32
  /// Gate and belt indices at the destination, or -1 (cancelled, diverted).
  let arrivalGate: Int16
  let belt: Int16
  /// The changes, in time order: change `n` (from 1) makes sequence `n + 1`.
  let events: [SimEvent]

  var flight: SimFlight { fleetDay.flights[position] }

  init(
    day: Int32, pattern: Int32, fleetDay: FleetDay, position: Int, plannedGate: Int16, gate: Int16,
    gateAssignedAt: Int32, gateChangedAt: Int32, arrivalGate: Int16, belt: Int16
  ) {
    self.day = day
    self.pattern = pattern
    self.fleetDay = fleetDay
    self.position = position
    self.plannedGate = plannedGate
    self.gate = gate
    self.gateAssignedAt = gateAssignedAt
    self.gateChangedAt = gateChangedAt
    self.arrivalGate = arrivalGate
    self.belt = belt
    let flight = fleetDay.flights[position]
    var list: [SimEvent] = []
    list.reserveCapacity(12)
    if flight.cancelled {
      if gateAssignedAt < flight.cancelAt {
        list.append(SimEvent(minute: gateAssignedAt, kind: .gateAssigned, value: Int32(plannedGate)))
      }
      list.append(SimEvent(minute: flight.cancelAt, kind: .cancelled, value: 0))
    } else {
      list.append(SimEvent(minute: gateAssignedAt, kind: .gateAssigned, value: Int32(plannedGate)))
      if flight.firstEstimateAt != Int32.min {
        list.append(SimEvent(minute: flight.firstEstimateAt, kind: .estimate, value: flight.firstEstimate))
      }
      if flight.finalEstimateAt != Int32.min {
        list.append(SimEvent(minute: flight.finalEstimateAt, kind: .estimate, value: flight.actualOut))
      }
      if gateChangedAt != Int32.min {
        list.append(SimEvent(minute: gateChangedAt, kind: .gateChanged, value: Int32(gate)))
      }
      list.append(SimEvent(minute: flight.boardingAt, kind: .boarding, value: 0))
      list.append(SimEvent(minute: flight.gateClosedAt, kind: .gateClosed, value: 0))
      list.append(SimEvent(minute: flight.actualOut, kind: .out, value: 0))
      list.append(SimEvent(minute: flight.actualOff, kind: .off, value: 0))
      if flight.divertedTo >= 0 {
        list.append(SimEvent(minute: flight.divertAt, kind: .diverted, value: flight.divertedTo))
      }
      list.append(SimEvent(minute: flight.actualOn, kind: .on, value: 0))
      list.append(SimEvent(minute: flight.actualIn, kind: .gateIn, value: 0))
    }
    // In time order, stably: a delay announced before the gate is published comes first.
    for index in 1..<max(1, list.count) {
      var position = index
      while position > 0, list[position - 1].minute > list[position].minute {
        list.swapAt(position - 1, position)
        position -= 1
      }
    }
    events = list
  }

  /// How many changes happened by UTC minute `minute` (inclusive).
  func applied(by minute: Int32) -> Int {
    var count = 0
    for event in events where event.minute <= minute { count += 1 }
    return count
  }
}

/// The flights of one operating date that took off, by takeoff, for radar queries.
struct AirborneIndex: Sendable {
  let day: Int32
  let flights: [(off: Int32, on: Int32, pattern: Int32, divertedTo: Int32)]
  /// The longest time in the air, minutes (a query scans back this far).
  let longest: Int32
}
