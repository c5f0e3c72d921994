import Foundation

/// Flight status for people: the command line, the Status and Board screens, Trips and the
/// header's notices. Every time is local to its airport; a time on another local date than the
/// reference one carries that date.
public enum FlightStatusText {
  /// `UTC+01:00`, `UTC−05:30`, `UTC` for an offset in minutes.
  public static func offset(_ minutes: Int) -> String {
    if minutes == 0 { return "UTC" }
    let sign = minutes < 0 ? "−" : "+"
    let value = abs(minutes)
    return "UTC\(sign)\(pad(value / 60)):\(pad(value % 60))"
  }

  /// `Europe/Berlin, UTC+01:00`: where a time is local to.
  public static func zone(_ time: AirportTime) -> String { "\(time.timeZone), \(offset(time.utcOffsetMinutes))" }

  /// `10:55`, or `2026-12-21 01:10` when its local date is not `date`.
  public static func time(_ time: AirportTime, on date: LocalDate) -> String {
    time.localDate == date ? time.localTimeText : "\(time.localDate) \(time.localTimeText)"
  }

  /// `+25 min`, `−3 min`, `on time`.
  public static func deviation(_ minutes: Int) -> String {
    minutes == 0 ? "on time" : minutes > 0 ? "+\(minutes) min" : "−\(-minutes) min"
  }

  /// The state with its delay: `Delayed 25 min`, `Arrived 7 min early`, `Diverted to EWR`.
  public static func state(_ status: FlightStatus) -> String {
    switch status.status {
    case .cancelled: return "Cancelled"
    case .diverted: return "Diverted to \(status.divertedTo ?? "?")"
    case .arrived, .landed:
      let late = status.arrivalDelayMinutes ?? 0
      let how = late >= 15 ? " \(late) min late" : late <= -5 ? " \(-late) min early" : ""
      return status.status.displayName + how
    case .delayed:
      return "Delayed \(status.departureDelayMinutes ?? 0) min"
    default:
      let late = status.departureDelayMinutes ?? 0
      return status.status.displayName + (late >= 15 ? ", \(late) min late" : "")
    }
  }

  /// The state as an airport's board shows it: on a departures board a flight that left is
  /// `Departed 07:21`; on an arrivals board a flight not yet airborne is `Expected 14:35` (or
  /// `Delayed, expected 14:55` from 15 minutes late), then `En route`, `Landed 14:31`, `Arrived 14:38`.
  public static func boardState(_ status: FlightStatus, direction: BoardDirection) -> String {
    switch status.status {
    case .cancelled, .diverted: return state(status)
    default: break
    }
    switch direction {
    case .departures:
      if let out = status.gateDeparture.actual { return "Departed \(out.localTimeText)" }
      return state(status)
    case .arrivals:
      let expected = status.gateArrival.best.localTimeText
      switch status.status {
      case .scheduled, .delayed, .boarding, .gateClosed:
        return (status.arrivalDelayMinutes ?? 0) >= 15 ? "Delayed, expected \(expected)" : "Expected \(expected)"
      case .departed, .enRoute:
        return "En route"
      case .landed:
        return "Landed \(status.runwayArrival.best.localTimeText)"
      case .arrived:
        return "Arrived \(status.gateArrival.best.localTimeText)"
      case .cancelled, .diverted:
        return state(status)
      }
    }
  }

  /// The delay's causes: `25 min: 93 aircraft rotation: …; 41 aircraft defects (10 min)`, or nil.
  public static func delayReason(_ status: FlightStatus) -> String? {
    guard !status.delays.isEmpty else { return nil }
    return status.delays.map { "\($0.code.description) (\($0.minutes) min)" }.joined(separator: "; ")
  }

  /// `terminal 1 · gate B44 · belt 3`, or `gate not yet assigned`.
  public static func resources(_ end: FlightStatusEnd) -> String {
    var parts: [String] = []
    if let terminal = end.terminal { parts.append("terminal \(terminal)") }
    parts.append(end.gate.map { "gate \($0)" } ?? "gate not yet assigned")
    if let belt = end.baggageBelt { parts.append("baggage belt \(belt)") }
    return parts.joined(separator: " · ")
  }

  /// One line for a booked flight: `LH 400 FRA→JFK 2026-12-20 08:30  Delayed 25 min · gate B44 ·
  /// departs 08:55`; `booked` is the designator the traveller booked (a codeshare), by default the
  /// operating flight. Times are local to the departure airport.
  public static func summary(_ status: FlightStatus, booked: Flight? = nil) -> String {
    var parts = [boardState(status, direction: .departures)]
    switch status.status {
    case .cancelled, .diverted, .arrived:
      break
    case .landed, .enRoute, .departed:
      if let gate = status.arrival.gate { parts.append("arrival gate \(gate)") }
      parts.append("at the gate \(status.gateArrival.best.localTimeText) \(status.destination) time")
      if let belt = status.arrival.baggageBelt { parts.append("belt \(belt)") }
    default:
      if let gate = status.departure.gate {
        parts.append(status.departure.terminal.map { "terminal \($0) gate \(gate)" } ?? "gate \(gate)")
      }
      if status.gateDeparture.estimated != nil { parts.append("departs \(status.gateDeparture.best.localTimeText)") }
    }
    let name = booked ?? status.flight
    let via = booked != nil && booked != status.flight ? " (\(status.flight))" : ""
    return "\(name)\(via) \(status.key.origin)→\(status.destination) \(status.key.date) "
      + "\(status.gateDeparture.scheduled.localTimeText)  " + parts.joined(separator: " · ")
  }

  /// The whole status, as `booking status` prints it.
  public static func status(_ status: FlightStatus) -> String {
    let date = status.key.date
    var lines: [String] = []
    let aircraft = status.aircraftName.map { "\($0) (\(status.aircraft))" } ?? status.aircraft
    lines.append("\(status.flight)  \(status.key.origin) → \(status.destination)  \(date)  \(aircraft)")
    lines.append("Status      \(state(status))")
    if !status.codeshares.isEmpty {
      lines.append("Codeshares  \(status.codeshares.map(\.description).joined(separator: ", "))")
    }
    func row(_ label: String, _ times: FlightEventTimes) -> String {
      var text =
        "  \(label.padding(toLength: 10, withPad: " ", startingAt: 0))scheduled \(time(times.scheduled, on: date))"
      if let estimated = times.estimated { text += "   estimated \(time(estimated, on: date))" }
      if let actual = times.actual {
        text += "   actual \(time(actual, on: date))"
        if actual.timeZone != times.scheduled.timeZone { text += " (\(zone(actual)))" }
      }
      return text
    }
    lines.append(
      "Departure   \(status.key.origin) · \(resources(status.departure)) · times \(zone(status.gateDeparture.scheduled))"
    )
    lines.append(row("gate out", status.gateDeparture))
    lines.append(row("takeoff", status.runwayDeparture))
    lines.append(
      "Arrival     \(status.destination) · \(resources(status.arrival)) · times \(zone(status.gateArrival.scheduled))")
    if let diverted = status.divertedTo { lines.append("Diverted    to \(diverted)") }
    lines.append(row("landing", status.runwayArrival))
    lines.append(row("gate in", status.gateArrival))
    if status.status == .cancelled {
      lines.append("Delay       none: the flight is cancelled")
    } else if let reason = delayReason(status) {
      var text = "Delay       \(deviation(status.departureDelayMinutes ?? 0)) at the gate: \(reason)"
      if status.delays.contains(where: { $0.code == .aircraftRotation }), let inbound = status.inbound {
        text += "; the aircraft comes from \(inbound.flight) (\(inbound.origin))"
      }
      lines.append(text)
    } else {
      lines.append("Delay       \(deviation(status.departureDelayMinutes ?? 0))")
    }
    if let updated = status.updatedAt {
      let local = AirportTime(
        instant: updated, timeZone: status.gateDeparture.scheduled.timeZone,
        utcOffsetMinutes: status.gateDeparture.scheduled.utcOffsetMinutes)
      lines.append("Updated     \(time(local, on: date)) \(status.key.origin) time (change \(status.sequence))")
    } else {
      lines.append("Updated     timetable (change 1)")
    }
    return lines.joined(separator: "\n")
  }

  /// One line of a followed flight's change: when (local to where it happened: the arrival airport
  /// for a landing or gate arrival, else the departure airport), the flight, and what changed, in
  /// words: `22:33 UTC+01:00  LH 400 FRA→JFK  En route; took off 22:33; arrival gate 7`.
  public static func change(_ update: FlightStatusUpdate) -> String {
    let status = update.flightStatus
    let arrivalSide: Set<FlightStatusChange.Field> = [
      .actualRunwayArrival, .actualGateArrival, .arrivalGate, .arrivalTerminal, .baggageBelt,
    ]
    let atArrival = !update.changes.isEmpty && update.changes.allSatisfy { arrivalSide.contains($0.field) }
    let reference =
      atArrival ? (status.gateArrival.actual ?? status.gateArrival.scheduled) : status.gateDeparture.scheduled
    let when = status.updatedAt.map {
      AirportTime(instant: $0, timeZone: reference.timeZone, utcOffsetMinutes: reference.utcOffsetMinutes)
    }
    let stamp = when.map { "\($0.localTimeText) \(offset($0.utcOffsetMinutes))" } ?? "timetable"
    return "\(stamp)  \(status.flight) \(status.key.origin)→\(status.destination)  \(describe(update))"
  }

  /// What changed, in words, separated by `; `.
  public static func describe(_ update: FlightStatusUpdate) -> String {
    let status = update.flightStatus
    let date = status.key.date
    var parts: [String] = []
    for change in update.changes {
      switch change.field {
      case .status:
        parts.append(state(status))
      case .departureGate:
        parts.append(
          change.old == nil
            ? "gate \(status.departure.gate ?? "?")" : "gate changed to \(change.new ?? "?") (was \(change.old!))")
      case .estimatedGateDeparture:
        if let estimated = status.gateDeparture.estimated {
          parts.append(
            "expected to leave the gate \(time(estimated, on: date)) (\(deviation(status.gateDeparture.deviationMinutes)))"
          )
        }
      case .actualGateDeparture:
        if let actual = status.gateDeparture.actual { parts.append("left the gate \(time(actual, on: date))") }
      case .actualRunwayDeparture:
        if let actual = status.runwayDeparture.actual { parts.append("took off \(time(actual, on: date))") }
      case .estimatedGateArrival:
        if let estimated = status.gateArrival.estimated, status.runwayDeparture.actual != nil {
          parts.append("expected at the gate \(time(estimated, on: date))")
        }
      case .actualRunwayArrival:
        if let actual = status.runwayArrival.actual { parts.append("landed \(time(actual, on: date))") }
      case .actualGateArrival:
        if let actual = status.gateArrival.actual { parts.append("at the gate \(time(actual, on: date))") }
      case .arrivalGate:
        if let gate = change.new { parts.append("arrival gate \(gate)") }
      case .baggageBelt:
        if let belt = change.new { parts.append("baggage belt \(belt)") }
      case .divertedTo:
        if let airport = change.new { parts.append("diverting to \(airport)") }
      case .delays:
        if let reason = delayReason(status) { parts.append("delay: \(reason)") }
      case .departureTerminal, .arrivalTerminal, .estimatedRunwayDeparture, .estimatedRunwayArrival:
        break
      }
    }
    return parts.isEmpty ? "updated" : parts.joined(separator: "; ")
  }

  /// The board as `booking board` prints it: a header, then one line per flight.
  public static func board(_ board: FlightBoard) -> String {
    let departures = board.direction == .departures
    let reference = board.flights.first.map { departures ? $0.gateDeparture.scheduled : $0.gateArrival.scheduled }
    let zoneText = reference.map(zone) ?? board.timeZone
    let asOf = reference.map {
      AirportTime(instant: board.asOf, timeZone: $0.timeZone, utcOffsetMinutes: $0.utcOffsetMinutes).localTimeText
    }
    var lines = [
      "\(board.airport) \(board.airportName) · \(board.direction.rawValue) · \(board.date) · times \(zoneText)"
        + (asOf.map { " · as of \($0)" } ?? "")
    ]
    guard !board.flights.isEmpty else {
      lines.append("No \(board.direction.rawValue) on \(board.date).")
      return lines.joined(separator: "\n")
    }
    lines.append(
      "Time   Expected  Flight    \(departures ? "To " : "From")  Term  Gate  Status")
    for status in board.flights { lines.append(boardRow(status, direction: board.direction, date: board.date)) }
    lines.append("\(board.flights.count) flights")
    return lines.joined(separator: "\n")
  }

  /// One board line: scheduled time, expected (or actual) time, flight, the other airport,
  /// terminal, gate, state.
  public static func boardRow(_ status: FlightStatus, direction: BoardDirection, date: LocalDate) -> String {
    let departures = direction == .departures
    let times = departures ? status.gateDeparture : status.gateArrival
    let end = departures ? status.departure : status.arrival
    let other = departures ? status.destination : status.key.origin
    let expected = status.status == .cancelled ? "–" : times.best.localTimeText
    func column(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    return column(times.scheduled.localTimeText, 7) + column(expected, 10) + column(status.flight.description, 10)
      + column(other, 6) + column(end.terminal ?? "", 6) + column(end.gate ?? "", 6)
      + boardState(status, direction: direction)
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
