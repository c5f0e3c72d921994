import Common
import CommonTesting
import Foundation
import Reactive
import Synchronization
import Testing

@testable import Backend

/// The live feeds on virtual time: a `TestScheduler` drives the ``TravelClock``, so a flight's day
/// passes in an instant and every change arrives at its simulated instant.
@Suite struct FlightStatusFeedTests {
  /// The statistics' operations: the days they simulate serve these tests too.
  static var operations: FlightOperations { FlightOperationsStatisticsTests.operations }
  static let date = LocalDate("2027-03-10")!

  /// A feed whose clock starts at `start` (UTC) and runs `speed` times faster than the test scheduler.
  static func feed(
    start: String, speed: Double = 60, reservations: (@Sendable (String) throws -> [Reservation])? = nil
  ) -> (FlightStatusFeed, TestSchedulerOf<DispatchQueue>) {
    let scheduler = DispatchQueue.test
    let clock = TravelClock(
      start: ISO8601DateFormatter().date(from: start)!, speed: speed, scheduler: scheduler.eraseToAnyScheduler())
    return (
      FlightStatusFeed(operations: operations, clock: clock, reservations: reservations, tripPollInterval: .seconds(2)),
      scheduler
    )
  }

  /// A Frankfurt departure of the test date with a delay announced and a gate change, if any, else
  /// the first departure: a flight whose day has many changes.
  static let busyFlight: FlightStatusKey = {
    let flights = operations.board(
      airport: FlightsFixtures.world.airportIndex["FRA"]!, date: date, direction: .departures)
    let chosen =
      flights.first { $0.gateChangedAt != Int32.min && $0.flight.departureDelay >= 45 }
      ?? flights.first { $0.gateChangedAt != Int32.min } ?? flights[0]
    return operations.key(pattern: chosen.pattern, day: chosen.day)
  }()

  @Test func travelClock_runsAtItsSpeedFromItsStart_onTheTestScheduler() {
    let scheduler = DispatchQueue.test
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = TravelClock(start: start, speed: 600, scheduler: scheduler.eraseToAnyScheduler())
    #expect(clock.now() == start)
    scheduler.advance(by: .seconds(1))
    #expect(clock.now() == start.addingTimeInterval(600))
    var fired: Date?
    clock.schedule(at: start.addingTimeInterval(3600)) { fired = clock.now() }
    scheduler.advance(by: .seconds(4))
    #expect(fired == nil)
    scheduler.advance(by: .seconds(2))
    #expect(fired.map { $0 >= start.addingTimeInterval(3600) } == true)
  }

  @Test func travelClock_peek_readsTheStartWithoutStartingTheClock() {
    let scheduler = DispatchQueue.test
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = TravelClock(start: start, speed: 600, scheduler: scheduler.eraseToAnyScheduler())
    // Work done before the first read (simulating a day) does not eat the fast clock's time.
    scheduler.advance(by: .seconds(10))
    #expect(clock.peek() == start)
    #expect(clock.now() == start)
    scheduler.advance(by: .seconds(1))
    #expect(clock.peek() == start.addingTimeInterval(600))
  }

  @Test func travelClock_parsesTheOptions_andRefusesNonsense() throws {
    let utc = TimeZone(identifier: "UTC")!
    #expect(try TravelClock.parse(speed: "600", start: nil, timeZone: utc).speed == 600)
    let offset = try TravelClock.parse(speed: nil, start: "2026-12-20T06:00+01:00", timeZone: utc).start
    #expect(offset == ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z"))
    let local = try TravelClock.parse(
      speed: nil, start: "2026-12-20T06:00", timeZone: TimeZone(identifier: "America/New_York")!
    ).start
    #expect(local == ISO8601DateFormatter().date(from: "2026-12-20T11:00:00Z"))
    #expect(
      try TravelClock.parse(speed: nil, start: "2026-12-20", timeZone: utc).start
        == Date(timeIntervalSince1970: 1_797_724_800))
    for bad in ["0", "-5", "fast", "100001", "1e3", "nan"] {
      #expect(throws: ServiceError.self) { try TravelClock.parse(speed: bad, start: nil) }
    }
    for bad in ["tomorrow", "2026-13-01", "2026-12-20T25:00", "2026-12-20T06:00+15:00", "2026-12-20 06:00"] {
      let error = #expect(throws: ServiceError.self) { try TravelClock.parse(speed: nil, start: bad) }
      #expect(error?.code == "invalid_clock_start")
    }
    let environment = ["TRAVEL_CLOCK_SPEED": "120", "TRAVEL_CLOCK_START": "2026-12-20T05:00Z"]
    let clock = try TravelClock.configured(speedOption: "300", startOption: nil, environment: environment)
    #expect(clock.speed == 300)
    #expect(clock.start == ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z"))
  }

  @Test(.timeLimit(.minutes(1))) func statusEvents_snapshotThenEachChangeAtItsInstant_untilAtTheGate() throws {
    let key = Self.busyFlight
    let timeline = try #require(Self.operations.timeline(key))
    let (feed, scheduler) = Self.feed(start: "\(key.date)T00:00:00Z", speed: 600)
    let recorder = feed.statusEvents(key, after: nil).record()
    scheduler.advance()
    guard case .snapshot(let first)? = recorder.values.first else {
      Issue.record("no snapshot first: \(recorder.values)")
      return
    }
    #expect(first.sequence <= 2)
    // Two simulated days at 600×: 288 seconds of virtual time.
    for _ in 0..<288 { scheduler.advance(by: .seconds(1)) }
    let updates = recorder.values.dropFirst().compactMap { event -> FlightStatusUpdate? in
      if case .update(let update) = event { update } else { nil }
    }
    #expect(updates.map(\.sequence) == Array((first.sequence + 1)...timeline.count))
    #expect(updates.last?.flightStatus == timeline.last)
    #expect(updates.last?.flightStatus.isFinal == true)
    #expect(updates.allSatisfy { !$0.changes.isEmpty })
    #expect(
      updates.contains { $0.changed(.departureGate) && $0.changes.first { $0.field == .departureGate }?.old != nil })
    // Each change arrived once its instant had come, not before.
    for update in updates { #expect(update.flightStatus.updatedAt != nil) }
    recorder.cancel()
  }

  @Test(.timeLimit(.minutes(1))) func statusEvents_resumingAfterASequence_continuesWithTheNext_noSnapshotNoRepeat()
    throws
  {
    let key = Self.busyFlight
    let timeline = try #require(Self.operations.timeline(key))
    let (feed, scheduler) = Self.feed(start: "\(key.date)T00:00:00Z", speed: 6000)
    let first = feed.statusEvents(key, after: nil).record()
    scheduler.advance(by: .seconds(3))
    let seen = first.values.map(\.flightStatus.sequence)
    first.cancel()
    let last = try #require(seen.last)
    let resumed = feed.statusEvents(key, after: last).record()
    for _ in 0..<40 { scheduler.advance(by: .seconds(1)) }
    let next = resumed.values.map(\.flightStatus.sequence)
    #expect(resumed.values.allSatisfy { if case .update = $0 { true } else { false } })
    #expect(next == Array((last + 1)...timeline.count))
    resumed.cancel()
  }

  @Test(.timeLimit(.minutes(1))) func boardEvents_snapshotPlusUpdates_equalsTheLaterBoard() throws {
    let (feed, scheduler) = Self.feed(start: "\(Self.date)T08:00:00Z", speed: 600)
    let recorder = feed.boardEvents(airport: "FRA", date: Self.date, direction: .departures, after: nil).record()
    scheduler.advance()
    guard case .snapshot(var board)? = recorder.values.first else {
      Issue.record("no snapshot first")
      return
    }
    #expect(board.flights.count > 400)
    // One simulated hour.
    scheduler.advance(by: .seconds(6))
    var expected = board.sequence + 1
    for case .update(let update) in recorder.values.dropFirst() {
      #expect(update.sequence == expected)
      expected += 1
      let index = try #require(board.flights.firstIndex { $0.key == update.update.flightStatus.key })
      #expect(update.update.flightStatus.sequence == board.flights[index].sequence + 1)
      board.flights[index] = update.update.flightStatus
      board.sequence = update.sequence
    }
    #expect(recorder.values.count > 20, "changes of the board in an hour: \(recorder.values.count - 1)")
    let later = try feed.board(airport: "FRA", date: Self.date, direction: .departures)
    #expect(board.flights == later.flights)
    #expect(board.sequence == later.sequence)
    // Resumed after the board's last sequence: the next changes, none again.
    recorder.cancel()
    let resumed = feed.boardEvents(airport: "FRA", date: Self.date, direction: .departures, after: board.sequence)
      .record()
    scheduler.advance(by: .seconds(1))
    let sequences = resumed.values.compactMap { event -> Int? in
      if case .update(let update) = event { update.sequence } else { nil }
    }
    #expect(sequences.first == board.sequence + 1)
    #expect(sequences == Array(sequences.indices.map { board.sequence + 1 + $0 }))
    resumed.cancel()
  }

  @Test(.timeLimit(.minutes(1))) func tripEvents_followTheBookedFlights_joinAndLeaveWithBookings() throws {
    let key = Self.busyFlight
    let reservations = Mutex<[Reservation]>([])
    func reservation(_ id: String, _ key: FlightStatusKey, status: ReservationStatus = .confirmed) -> Reservation {
      Reservation(
        id: id, kind: .flight, status: status, total: Money(amount: 100, currency: "USD"), createdAt: Date(),
        summary: "test",
        details: [
          "segments": .array([
            .object([
              "flight": .string(key.flight.code), "from": .string(key.origin),
              "departure": .string("\(key.date)T10:00:00+01:00"),
            ])
          ])
        ])
    }
    let (feed, scheduler) = Self.feed(start: "\(key.date)T00:00:00Z", speed: 60) { token in
      guard token == "good" else { throw ServiceError.notSignedIn }
      return reservations.withLock { $0 }
    }
    let refused = feed.tripEvents(token: "bad").record()
    scheduler.advance()
    #expect(refused.completion.map { if case .failure(let error) = $0 { error.code } else { "" } } == "not_signed_in")

    let recorder = feed.tripEvents(token: "good").record()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    reservations.withLock { $0 = [reservation("res_1", key)] }
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values.count == 1)
    #expect(recorder.values.first.map { if case .snapshot = $0.event { true } else { false } } == true)
    #expect(recorder.values.first?.reservationID == "res_1")
    // A day at 60× is 1,440 seconds; the flight's changes arrive on the way.
    for _ in 0..<720 { scheduler.advance(by: .seconds(2)) }
    let updates = recorder.values.filter { if case .update = $0.event { true } else { false } }
    #expect(updates.count >= 5)
    // Cancelled: the flight leaves the feed.
    reservations.withLock { $0 = [reservation("res_1", key, status: .cancelled)] }
    scheduler.advance(by: .seconds(2))
    let count = recorder.values.count
    for _ in 0..<720 { scheduler.advance(by: .seconds(2)) }
    #expect(recorder.values.count == count)
    recorder.cancel()
  }

  @Test func operation_defaultsToTodayAtTheOrigin_andNamesTheDaysItFlies() throws {
    let key = Self.busyFlight
    let (feed, _) = Self.feed(start: "\(key.date)T12:00:00Z")
    #expect(try feed.operation(of: key.flight, date: nil) == key)
    #expect(try feed.operation(of: key.flight, date: key.date) == key)
    let far = #expect(throws: ServiceError.self) {
      try feed.operation(of: key.flight, date: key.date.adding(days: 400))
    }
    #expect(far?.code == "date_out_of_range")
    let unknown = #expect(throws: ServiceError.self) {
      try feed.operation(of: Flight(carrier: "LH", number: 9999), date: nil)
    }
    #expect(unknown?.code == "flight_not_found")
    #expect(unknown?.kind == .notFound)
    let board = #expect(throws: ServiceError.self) { try feed.board(airport: "QQQ", date: nil, direction: .departures) }
    #expect(board?.code == "unknown_airport")
  }

  @Test func airborne_listsTheFlightsInTheAirAtAnInstant() throws {
    let key = Self.busyFlight
    let flight = try #require(Self.operations.flight(key)).flight
    let middle = FlightOperations.instant((flight.actualOff + flight.actualOn) / 2)
    let airborne = Self.operations.airborne(at: middle)
    #expect(airborne.count > 2_000)
    let mine = try #require(airborne.first { $0.key == key })
    #expect(mine.takeoff <= middle && middle < mine.landing)
    #expect(airborne.allSatisfy { $0.takeoff <= middle && middle < $0.landing })
  }
}
