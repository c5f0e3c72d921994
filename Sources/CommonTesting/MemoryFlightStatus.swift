import Common
import Foundation
import Reactive

/// A ``FlightStatusService`` kept in memory for tests of the status screens, Trips and notices:
/// hand-made flight timelines (``FlightStatus/fixture(_:from:to:date:departure:blockMinutes:fromZone:toZone:aircraft:)``
/// and ``FlightStatus/day(gate:terminal:changedGate:delay:arrivalGate:arrivalTerminal:belt:)``)
/// played on a ``TravelClock`` driven by a `TestScheduler` (``scheduler``): advancing it moves the
/// simulated clock ``TravelClock/speed`` times as far, and each change is published at its
/// ``FlightStatus/updatedAt``.
///
/// Boards list the flights leaving (arriving at) an airport on a local date, by scheduled time;
/// a board's sequence counts its flights' changes in time order, as the real feed does.
public final class MemoryFlightStatus: FlightStatusService, @unchecked Sendable {
  public let clock: TravelClock
  public let scheduler: TestSchedulerOf<DispatchQueue>
  private let lock = NSLock()
  private var timelines: [FlightStatusKey: [FlightStatus]] = [:]
  private var order: [FlightStatusKey] = []
  private var airports: [String: (name: String, city: String, timeZone: String)] = [:]
  private var trips: [String: [(reservation: String, booked: Flight, key: FlightStatusKey)]] = [:]

  /// A service whose clock reads `start` now and runs `speed` times faster than ``scheduler``.
  public init(start: Date, speed: Double = 60) {
    scheduler = DispatchQueue.test
    clock = TravelClock(start: start, speed: speed, scheduler: scheduler.eraseToAnyScheduler())
  }

  /// Adds a flight's timeline: its states in order, sequence 1 (the timetable) first.
  public func add(_ timeline: [FlightStatus]) {
    lock.withLock {
      guard let key = timeline.first?.key else { return }
      if timelines[key] == nil { order.append(key) }
      timelines[key] = timeline
    }
  }

  /// Names an airport for its boards.
  public func nameAirport(_ code: String, name: String, city: String, timeZone: String) {
    lock.withLock { airports[code] = (name, city, timeZone) }
  }

  /// Books `key` (as `booked`) for the traveller of `token`, in reservation `reservation`.
  public func book(_ key: FlightStatusKey, as booked: Flight? = nil, reservation: String, token: String) {
    lock.withLock { trips[token, default: []].append((reservation, booked ?? key.flight, key)) }
  }

  private func timeline(_ key: FlightStatusKey) throws -> [FlightStatus] {
    guard let timeline = lock.withLock({ timelines[key] }) else {
      throw ServiceError(.notFound, code: "flight_not_found", message: "no flight \(key)")
    }
    return timeline
  }

  /// How many states of `timeline` are in effect at `instant` (at least the timetable).
  private static func applied(_ timeline: [FlightStatus], at instant: Date) -> Int {
    max(1, timeline.firstIndex { ($0.updatedAt ?? .distantPast) > instant } ?? timeline.count)
  }

  // MARK: FlightStatusService

  public func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    let keys = lock.withLock { order.filter { key in timelines[key]![0].isCarried(by: flight) } }
    guard !keys.isEmpty else {
      throw ServiceError(.notFound, code: "flight_not_found", message: "no flight \(flight) in the schedule")
    }
    if let date {
      guard let key = keys.first(where: { $0.date == date }) else {
        throw ServiceError(.notFound, code: "flight_not_operating", message: "\(flight) does not fly on \(date)")
      }
      return key
    }
    return keys[0]
  }

  public func status(_ key: FlightStatusKey) throws -> FlightStatus {
    let timeline = try timeline(key)
    return timeline[Self.applied(timeline, at: clock.now()) - 1]
  }

  public func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    try boardTimeline(airport: airport, date: date, direction: direction).snapshot(at: clock.now())
  }

  public func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<
    FlightStatusEvent, ServiceError
  > {
    let clock = clock
    return Deferred { [self] () -> AnyPublisher<FlightStatusEvent, ServiceError> in
      let timeline: [FlightStatus]
      do { timeline = try self.timeline(key) } catch {
        return Fail(error: error as? ServiceError ?? ServiceError(.unavailable, code: "failed", message: "\(error)"))
          .eraseToAnyPublisher()
      }
      let applied = Self.applied(timeline, at: clock.now())
      let first = sequence ?? applied
      let snapshot: [FlightStatusEvent] = sequence == nil ? [.snapshot(timeline[applied - 1])] : []
      let updates = (first..<timeline.count).map { index in
        (
          timeline[index].updatedAt ?? .distantPast,
          FlightStatusEvent.update(FlightStatusUpdate(from: timeline[index - 1], to: timeline[index]))
        )
      }
      return Self.play(snapshot, updates, on: clock)
    }.eraseToAnyPublisher()
  }

  public func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    let clock = clock
    return Deferred { [self] () -> AnyPublisher<FlightBoardEvent, ServiceError> in
      let board: BoardPlay
      do { board = try boardTimeline(airport: airport, date: date, direction: direction) } catch {
        return Fail(error: error as? ServiceError ?? ServiceError(.unavailable, code: "failed", message: "\(error)"))
          .eraseToAnyPublisher()
      }
      let snapshot = sequence == nil ? board.snapshot(at: clock.now()) : nil
      let first = sequence ?? snapshot!.sequence
      let updates = board.entries.enumerated().dropFirst(first).map { index, entry in
        let timeline = board.timelines[entry.flight]
        return (
          timeline[entry.state].updatedAt ?? .distantPast,
          FlightBoardEvent.update(
            FlightBoardUpdate(
              sequence: index + 1,
              update: FlightStatusUpdate(from: timeline[entry.state - 1], to: timeline[entry.state])))
        )
      }
      return Self.play(snapshot.map { [FlightBoardEvent.snapshot($0)] } ?? [], updates, on: clock)
    }.eraseToAnyPublisher()
  }

  public func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    guard let booked = lock.withLock({ trips[token] }) else {
      return Fail(error: ServiceError.notSignedIn).eraseToAnyPublisher()
    }
    let feeds = booked.map { trip in
      statusEvents(trip.key, after: nil).map {
        TripFlightEvent(reservationID: trip.reservation, booked: trip.booked, event: $0)
      }.eraseToAnyPublisher()
    }
    return Publishers.MergeMany(feeds).eraseToAnyPublisher()
  }

  // MARK: Playing

  /// `immediate` at once, then each update when the clock reaches its instant; values wait for
  /// demand (none is dropped, however the subscriber requests).
  private static func play<Output>(_ immediate: [Output], _ updates: [(Date, Output)], on clock: TravelClock)
    -> AnyPublisher<Output, ServiceError>
  {
    let relay = BufferedRelay<Output>()
    for value in immediate { relay.send(value) }
    for (instant, value) in updates {
      let box = Box(value)
      clock.schedule(at: instant) { relay.send(box.value) }
    }
    return relay.eraseToAnyPublisher()
  }

  private func boardTimeline(airport: String, date: LocalDate?, direction: BoardDirection) throws -> BoardPlay {
    let code = airport.uppercased()
    let (known, all) = lock.withLock { (airports[code], order.map { timelines[$0]! }) }
    guard let known else {
      throw ServiceError.invalid(
        "unknown_airport", "unknown airport \"\(airport)\": expected an IATA airport code like FRA")
    }
    let day = date ?? LocalDate(clock.now(), in: TimeZone(identifier: known.timeZone) ?? .gmt)
    let chosen = all.filter { timeline in
      let first = timeline[0]
      switch direction {
      case .departures: return first.key.origin == code && first.key.date == day
      case .arrivals: return first.destination == code && first.gateArrival.scheduled.localDate == day
      }
    }.sorted { a, b in
      let x = direction == .departures ? a[0].gateDeparture.scheduled : a[0].gateArrival.scheduled
      let y = direction == .departures ? b[0].gateDeparture.scheduled : b[0].gateArrival.scheduled
      return (x.instant, a[0].flight) < (y.instant, b[0].flight)
    }
    return BoardPlay(
      header: FlightBoard(
        airport: code, airportName: known.name, city: known.city, timeZone: known.timeZone, date: day,
        direction: direction, flights: [], sequence: 0, asOf: .distantPast),
      timelines: chosen)
  }
}

/// A board's flights and its changes in the board's order.
private struct BoardPlay {
  let header: FlightBoard
  let timelines: [[FlightStatus]]
  /// (flight on the board, index of its state) in time order, then board order.
  let entries: [(flight: Int, state: Int)]

  init(header: FlightBoard, timelines: [[FlightStatus]]) {
    self.header = header
    self.timelines = timelines
    var entries: [(flight: Int, state: Int, at: Date)] = []
    for (flight, timeline) in timelines.enumerated() {
      for state in timeline.indices.dropFirst() {
        entries.append((flight, state, timeline[state].updatedAt ?? .distantPast))
      }
    }
    entries.sort { ($0.at, $0.flight, $0.state) < ($1.at, $1.flight, $1.state) }
    self.entries = entries.map { ($0.flight, $0.state) }
  }

  func snapshot(at instant: Date) -> FlightBoard {
    var board = header
    board.flights = timelines.map { timeline in
      timeline[max(1, timeline.firstIndex { ($0.updatedAt ?? .distantPast) > instant } ?? timeline.count) - 1]
    }
    board.sequence = entries.filter { (timelines[$0.flight][$0.state].updatedAt ?? .distantPast) <= instant }.count
    board.asOf = instant
    return board
  }
}

/// A one-subscriber publisher that keeps what is sent until it is requested; after
/// cancellation it drops everything. `@unchecked Sendable`: guarded by `lock`; the subscriber is
/// called by one thread at a time, never under the lock.
private final class BufferedRelay<Output>: Publisher, Subscription, @unchecked Sendable {
  typealias Failure = ServiceError

  private let lock = NSLock()
  private var downstream: AnySubscriber<Output, ServiceError>?
  private var queue: [Output] = []
  private var demand = Subscribers.Demand.none
  private var draining = false
  private var cancelled = false

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == ServiceError {
    lock.withLock { downstream = AnySubscriber(subscriber) }
    subscriber.receive(subscription: self)
  }

  func send(_ value: Output) {
    lock.withLock {
      if !cancelled { queue.append(value) }
    }
    drain()
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { self.demand += demand }
    drain()
  }

  func cancel() {
    lock.withLock {
      cancelled = true
      downstream = nil
      queue = []
    }
  }

  private func drain() {
    lock.lock()
    guard !draining else {
      lock.unlock()
      return
    }
    draining = true
    while let subscriber = downstream, demand > 0, !queue.isEmpty {
      let value = queue.removeFirst()
      demand -= 1
      lock.unlock()
      let more = subscriber.receive(value)
      lock.lock()
      demand += more
    }
    draining = false
    lock.unlock()
  }
}

/// A value carried into a scheduled action (used on the scheduler's thread only).
private struct Box<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension FlightStatus {
  /// A scheduled flight for tests: `code` (`LH400`) from `from` to `to` on local date `date`,
  /// leaving its gate at `departure` (`"10:30"`, local to `fromZone`) and at the arrival gate
  /// `blockMinutes` later; taxi 15 minutes out and 10 in.
  public static func fixture(
    _ code: String, from: String, to: String, date: LocalDate, departure: String, blockMinutes: Int,
    fromZone: String, toZone: String, aircraft: String = "320"
  ) -> FlightStatus {
    let origin = TimeZone(identifier: fromZone)!
    let destination = TimeZone(identifier: toZone)!
    let parts = departure.split(separator: ":").compactMap { Int($0) }
    let out = date.instant(hour: parts[0], minute: parts[1], in: origin)
    func at(_ minutes: Int, _ zone: TimeZone) -> AirportTime {
      AirportTime(instant: out.addingTimeInterval(TimeInterval(minutes * 60)), timeZone: zone)
    }
    return FlightStatus(
      key: FlightStatusKey(flight: Flight(code: code)!, date: date, origin: from), destination: to,
      status: .scheduled,
      departure: FlightStatusEnd(airport: from, timeZone: fromZone),
      arrival: FlightStatusEnd(airport: to, timeZone: toZone),
      gateDeparture: FlightEventTimes(scheduled: at(0, origin)),
      runwayDeparture: FlightEventTimes(scheduled: at(15, origin)),
      runwayArrival: FlightEventTimes(scheduled: at(blockMinutes - 10, destination)),
      gateArrival: FlightEventTimes(scheduled: at(blockMinutes, destination)), aircraft: aircraft)
  }

  /// The day of this scheduled flight, one state per change (sequence 2, 3, …): the gate published
  /// two hours before; a delay announced 90 minutes before (code `delayCode`); a gate change 50
  /// minutes before; boarding 40 minutes before departure, gate closed 15 before; pushback, takeoff
  /// with the arrival gate, landing with the belt, at the gate.
  public func day(
    gate: String, terminal: String = "1", changedGate: String? = nil, delay: Int = 0, delayCode: Int = 93,
    arrivalGate: String = "7", arrivalTerminal: String = "1", belt: String = "3"
  ) -> [FlightStatus] {
    var states = [self]
    var status = self
    let out = gateDeparture.scheduled
    func time(_ base: AirportTime, _ minutes: Int) -> AirportTime {
      var moved = base
      moved.instant = base.instant.addingTimeInterval(TimeInterval(minutes * 60))
      return moved
    }
    func next(at minutes: Int, relativeTo base: AirportTime? = nil, _ change: (inout FlightStatus) -> Void) {
      change(&status)
      status.sequence += 1
      status.updatedAt = time(base ?? out, minutes).instant
      status.departureDelayMinutes = status.gateDeparture.deviationMinutes
      status.arrivalDelayMinutes = status.gateArrival.deviationMinutes
      states.append(status)
    }
    next(at: -120) {
      $0.departure.gate = gate
      $0.departure.terminal = terminal
    }
    if delay > 0 {
      next(at: -90) {
        $0.gateDeparture.estimated = time(out, delay)
        $0.runwayDeparture.estimated = time($0.runwayDeparture.scheduled, delay)
        $0.runwayArrival.estimated = time($0.runwayArrival.scheduled, delay)
        $0.gateArrival.estimated = time($0.gateArrival.scheduled, delay)
        $0.delays = [FlightDelay(code: DelayCode(delayCode), minutes: delay)]
        if delay >= 15 { $0.status = .delayed }
      }
    }
    if let changedGate {
      next(at: delay - 50) { $0.departure.gate = changedGate }
    }
    next(at: delay - 40) { $0.status = .boarding }
    next(at: delay - 15) { $0.status = .gateClosed }
    next(at: delay) {
      $0.status = .departed
      $0.gateDeparture.actual = time(out, delay)
      $0.gateDeparture.estimated = nil
    }
    next(at: delay + 15) {
      $0.status = .enRoute
      $0.runwayDeparture.actual = time($0.runwayDeparture.scheduled, delay)
      $0.runwayDeparture.estimated = nil
      $0.arrival.gate = arrivalGate
      $0.arrival.terminal = arrivalTerminal
      $0.runwayArrival.estimated = time($0.runwayArrival.scheduled, delay)
      $0.gateArrival.estimated = time($0.gateArrival.scheduled, delay)
    }
    let landing = time(runwayArrival.scheduled, delay)
    next(at: 0, relativeTo: landing) {
      $0.status = .landed
      $0.runwayArrival.actual = landing
      $0.runwayArrival.estimated = nil
      $0.arrival.baggageBelt = belt
    }
    next(at: 10, relativeTo: landing) {
      $0.status = .arrived
      $0.gateArrival.actual = time($0.gateArrival.scheduled, delay)
      $0.gateArrival.estimated = nil
    }
    return states
  }
}
