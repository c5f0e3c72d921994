import Common
import Foundation
import Reactive

/// The embedded live flight status: ``FlightOperations`` (the simulated days) read on a
/// ``TravelClock``. Snapshots are the simulation's state at the clock's now; feeds publish each
/// simulated change when the clock reaches it (``ClockFeed``), so with `--clock-speed 600` a
/// flight's whole day passes in a few minutes, and with a `TestScheduler` in an instant.
///
/// A flight's sequence is the number of its changes so far plus one (the timetable is 1); a
/// board's is the number of changes of its flights so far, counted in time order (ties by the
/// board's order, then the flight's). Both are pure functions of the simulation and the instant,
/// so a feed resumed after sequence `n` (in this process or another) continues exactly with
/// `n + 1`.
public final class FlightStatusFeed: FlightStatusService {
  public let clock: TravelClock
  public let operations: FlightOperations
  private let isKnownAirport: @Sendable (String) -> Bool
  let reservations: (@Sendable (String) throws -> [Reservation])?
  private let tripPollInterval: DispatchQueue.SchedulerTimeType.Stride

  /// - Parameters:
  ///   - operations: the simulation.
  ///   - clock: now, and the pace of the feeds.
  ///   - isKnownAirport: whether an IATA code names an airport at all (to tell `unknown_airport`
  ///     from an airport without flights); default: only the network's airports.
  ///   - reservations: the signed-in traveller's reservations by session token (the ledger), for
  ///     ``tripEvents(token:)``; nil: trips fail with `trips_unavailable`.
  ///   - tripPollInterval: how often (scheduler time) the trips feed reads the reservations again
  ///     to follow bookings and cancellations.
  public init(
    operations: FlightOperations, clock: TravelClock,
    isKnownAirport: (@Sendable (String) -> Bool)? = nil,
    reservations: (@Sendable (String) throws -> [Reservation])? = nil,
    tripPollInterval: DispatchQueue.SchedulerTimeType.Stride = .seconds(2)
  ) {
    self.operations = operations
    self.clock = clock
    let network = operations.network
    self.isKnownAirport = isKnownAirport ?? { network.airportIndex[$0] != nil }
    self.reservations = reservations
    self.tripPollInterval = tripPollInterval
  }

  private var network: FlightNetwork { operations.network }

  /// The dates a status or board may ask for, around `today`: the last week and 330 days ahead.
  static let pastDays = 7
  static let futureDays = 330

  // MARK: Snapshots

  public func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    guard let index = network.pattern(of: flight) else {
      throw ServiceError(
        .notFound, code: "flight_not_found",
        message: "no flight \(flight) in the schedule: check the airline code and number (like LH400)")
    }
    let pattern = network.patterns[Int(index)]
    let origin = network.airports[Int(pattern.origin)]
    let today = localToday(at: pattern.origin)
    if let date {
      try checkRange(date, today: today, at: origin.iata)
      guard network.flies(pattern, on: Int32(date.daysSinceEpoch)) else {
        throw ServiceError(
          .notFound, code: "flight_not_operating",
          message: "\(flight) does not fly on \(date) (\(Self.weekdayName(date.isoWeekday))); it flies "
            + "\(Self.weekdays(pattern.days)) from \(origin.iata)")
      }
      return FlightStatusKey(flight: flight, date: date, origin: origin.iata)
    }
    for offset in 0..<7 {
      let day = today.adding(days: offset)
      if network.flies(pattern, on: Int32(day.daysSinceEpoch)) {
        return FlightStatusKey(flight: flight, date: day, origin: origin.iata)
      }
    }
    throw ServiceError(.notFound, code: "flight_not_operating", message: "\(flight) does not fly in the next week")
  }

  public func status(_ key: FlightStatusKey) throws -> FlightStatus {
    let flight = try simulated(key)
    return operations.status(flight, applied: flight.applied(by: nowMinute()))
  }

  public func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    let (index, day) = try boardDay(airport: airport, date: date)
    // The day simulated first, then the clock read (a fast clock starts when the board is ready).
    let timeline = boardTimeline(airport: index, date: day, direction: direction)
    return timeline.snapshot(at: nowMinute())
  }

  // MARK: Feeds

  public func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<
    FlightStatusEvent, ServiceError
  > {
    let clock = clock
    let operations = operations
    return Deferred { [self] () -> AnyPublisher<FlightStatusEvent, ServiceError> in
      let flight: SimulatedFlight
      do { flight = try simulated(key) } catch let error as ServiceError {
        return Fail(error: error).eraseToAnyPublisher()
      } catch {
        return Fail(error: ServiceError.wrapping(error)).eraseToAnyPublisher()
      }
      let events = flight.events
      let now = nowMinute()
      let applied = flight.applied(by: now)
      // Changes numbered after `sequence` (resume), or after the snapshot.
      let first = sequence.map { max(0, min(events.count, $0 - 1)) } ?? applied
      let snapshot: [FlightStatusEvent] =
        sequence == nil ? [.snapshot(operations.status(flight, applied: applied))] : []
      let instants = events.dropFirst(first).map { FlightOperations.instant($0.minute) }
      return ClockFeed(clock: clock, immediate: snapshot, instants: instants) { index in
        let applied = first + index + 1
        return .update(
          FlightStatusUpdate(
            from: operations.status(flight, applied: applied - 1), to: operations.status(flight, applied: applied)))
      }.eraseToAnyPublisher()
    }.eraseToAnyPublisher()
  }

  public func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    let clock = clock
    return Deferred { [self] () -> AnyPublisher<FlightBoardEvent, ServiceError> in
      let timeline: BoardTimeline
      do {
        let (index, day) = try boardDay(airport: airport, date: date)
        timeline = boardTimeline(airport: index, date: day, direction: direction)
      } catch let error as ServiceError {
        return Fail(error: error).eraseToAnyPublisher()
      } catch {
        return Fail(error: ServiceError.wrapping(error)).eraseToAnyPublisher()
      }
      let now = nowMinute()
      let snapshot = sequence == nil ? timeline.snapshot(at: now) : nil
      let first = sequence.map { max(0, min(timeline.entries.count, $0)) } ?? snapshot!.sequence
      let instants = timeline.entries.dropFirst(first).map { FlightOperations.instant($0.minute) }
      return ClockFeed(
        clock: clock, immediate: snapshot.map { [FlightBoardEvent.snapshot($0)] } ?? [], instants: instants
      ) { index in
        .update(timeline.update(first + index))
      }.eraseToAnyPublisher()
    }.eraseToAnyPublisher()
  }

  public func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    guard let reservations else {
      return Fail(
        error: ServiceError(.unavailable, code: "trips_unavailable", message: "trips are not available in this app")
      ).eraseToAnyPublisher()
    }
    return TripFlightFeed(service: self, token: token, refresh: .every(tripPollInterval), reservations: reservations)
      .eraseToAnyPublisher()
  }

  // MARK: Helpers

  func nowMinute() -> Int32 { FlightOperations.minute(clock.now()) }

  private func simulated(_ key: FlightStatusKey) throws -> SimulatedFlight {
    if let index = network.airportIndex[key.origin] {
      try checkRange(key.date, today: localToday(at: index), at: key.origin)
    }
    guard let flight = operations.flight(key) else {
      throw ServiceError(
        .notFound, code: "flight_not_found", message: "no flight \(key.flight) from \(key.origin) on \(key.date)")
    }
    return flight
  }

  /// Today at `airport` by the clock, without starting it (``TravelClock/peek()``).
  private func localToday(at airport: Int32) -> LocalDate {
    LocalDate(daysSinceEpoch: Int(operations.localDay(airport, FlightOperations.minute(clock.peek()))))
  }

  private func checkRange(_ date: LocalDate, today: LocalDate, at airport: String) throws {
    guard date >= today.adding(days: -Self.pastDays), date <= today.adding(days: Self.futureDays) else {
      throw ServiceError.invalid(
        "date_out_of_range",
        "no status for \(date): expected a date from \(today.adding(days: -Self.pastDays)) to "
          + "\(today.adding(days: Self.futureDays)) (today at \(airport) is \(today))")
    }
  }

  private func boardDay(airport: String, date: LocalDate?) throws -> (Int32, LocalDate) {
    let code = airport.trimmingCharacters(in: .whitespaces).uppercased()
    guard let index = network.airportIndex[code] else {
      if code.count == 3, isKnownAirport(code) {
        throw ServiceError.invalid(
          "no_flights_at_place", "no scheduled flights at \(code): expected an airport served by airlines, like FRA")
      }
      throw ServiceError.invalid(
        "unknown_airport",
        "unknown airport \(EchoedInput.quoted(airport)): expected an IATA airport code like FRA (try 'airports \(airport)')"
      )
    }
    let today = localToday(at: index)
    let day = date ?? today
    try checkRange(day, today: today, at: code)
    return (index, day)
  }

  private func boardTimeline(airport: Int32, date: LocalDate, direction: BoardDirection) -> BoardTimeline {
    let flights = operations.board(airport: airport, date: date, direction: direction)
    let place = network.airports[Int(airport)]
    let zone = network.zones[Int(place.zone)]
    return BoardTimeline(
      operations: operations, flights: flights,
      header: FlightBoard(
        airport: place.iata, airportName: place.name, city: place.city, timeZone: zone.identifier, date: date,
        direction: direction, flights: [], sequence: 0, asOf: Date(timeIntervalSince1970: 0)))
  }

  private static func weekdayName(_ weekday: Int) -> String {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][(weekday + 6) % 7]
  }

  /// `daily`, or the weekdays of a mask (`Mon, Wed, Fri`).
  static func weekdays(_ mask: UInt8) -> String {
    if mask == 0x7F { return "daily" }
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    return (0..<7).filter { mask & (1 << $0) != 0 }.map { names[$0] }.joined(separator: ", ")
  }
}

/// Every change of a board's flights over their days, in the board's order, for snapshots and
/// feeds: entry `n` (0-based) is the board's change number `n + 1`.
///
/// `@unchecked Sendable`: immutable once made; the days it reads are immutable.
final class BoardTimeline: @unchecked Sendable {
  let operations: FlightOperations
  let flights: [SimulatedFlight]
  let header: FlightBoard
  /// (UTC minute, flight on the board, the flight's change number from 1).
  let entries: [(minute: Int32, flight: Int32, change: Int16)]

  init(operations: FlightOperations, flights: [SimulatedFlight], header: FlightBoard) {
    self.operations = operations
    self.flights = flights
    self.header = header
    var entries: [(minute: Int32, flight: Int32, change: Int16)] = []
    entries.reserveCapacity(flights.count * 10)
    for (index, flight) in flights.enumerated() {
      for (offset, event) in flight.events.enumerated() {
        entries.append((event.minute, Int32(index), Int16(offset + 1)))
      }
    }
    entries.sort { ($0.minute, $0.flight, $0.change) < ($1.minute, $1.flight, $1.change) }
    self.entries = entries
  }

  /// The board at UTC minute `minute` (its changes by then included).
  func snapshot(at minute: Int32) -> FlightBoard {
    var board = header
    board.flights = flights.map { operations.status($0, applied: $0.applied(by: minute)) }
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].minute <= minute { low = middle + 1 } else { high = middle }
    }
    board.sequence = low
    board.asOf = FlightOperations.instant(minute)
    return board
  }

  /// The board's change at index `index` (sequence `index + 1`).
  func update(_ index: Int) -> FlightBoardUpdate {
    let entry = entries[index]
    let flight = flights[Int(entry.flight)]
    let applied = Int(entry.change)
    return FlightBoardUpdate(
      sequence: index + 1,
      update: FlightStatusUpdate(
        from: operations.status(flight, applied: applied - 1), to: operations.status(flight, applied: applied)))
  }
}
