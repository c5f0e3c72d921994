import Backend
import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Remote
@testable import Server

/// ``RemoteFlightStatus`` against a real in-process `travel-server` whose status service is a
/// ``MemoryFlightStatus`` the test moves: snapshots over HTTP, a flight's and a board's changes
/// over `/v1/stream` (in sequence, one topic shared by its subscribers, resumed after a
/// sequence), the service's errors as they are, and the traveller's booked flights, which follow
/// bookings and cancellations made after the feed started.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteFlightStatusTests {
  static let date = LocalDate("2026-12-20")!
  static let key = FlightStatusKey(flight: Flight(carrier: "LH", number: 400), date: date, origin: "FRA")

  /// LH 400 and LH 402 FRA → JFK on 2026-12-20 (gate B40 changed to B44 for LH 400), on a clock at
  /// 05:00 UTC running 60× the test scheduler.
  static func service() -> MemoryFlightStatus {
    let status = MemoryFlightStatus(start: ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z")!, speed: 60)
    for (code, departure, gate) in [("LH400", "08:30", "B40"), ("LH402", "10:00", "A12")] {
      let flight = FlightStatus.fixture(
        code, from: "FRA", to: "JFK", date: date, departure: departure, blockMinutes: 530,
        fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
      status.add(flight.day(gate: gate, changedGate: code == "LH400" ? "B44" : nil, delay: code == "LH400" ? 25 : 0))
    }
    status.nameAirport("FRA", name: "Frankfurt", city: "Frankfurt", timeZone: "Europe/Berlin")
    status.nameAirport("JFK", name: "John F Kennedy", city: "New York", timeZone: "America/New_York")
    return status
  }

  /// Moves the service's clock by `minutes` simulated minutes (one second of scheduler time each).
  static func advance(_ service: MemoryFlightStatus, minutes: Int) {
    for _ in 0..<minutes { service.scheduler.advance(by: .seconds(1)) }
  }

  static func server(_ service: MemoryFlightStatus, directory: TemporaryDirectory) throws -> TravelServer {
    try TravelServer(
      configuration: TravelServer.Configuration(
        port: 0, dataDirectory: directory.url,
        backendEnvironment: BackendEnvironment(passwordParameters: .fastForTests), accessLog: { _ in },
        flightStatus: service))
  }

  static func waitUntil(_ timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
  }

  @Test func snapshotsAndErrors_overHTTP() throws {
    let service = Self.service()
    let directory = TemporaryDirectory(prefix: "remote-status")
    let server = try Self.server(service, directory: directory)
    defer { server.shutdown(timeout: 3) }
    let remote = RemoteFlightStatus(api: APIClient(server: server.baseURL, timeout: 10), clock: service.clock)

    #expect(try remote.operation(of: Self.key.flight, date: Self.date) == Self.key)
    let status = try remote.status(Self.key)
    let local = try service.status(Self.key)
    #expect(status.key == Self.key)
    #expect(status.sequence == local.sequence && status.status == local.status)
    #expect(status.gateDeparture.scheduled.localTimeText == "08:30")
    // The zones come through by name, not as bare offsets: the text is the embedded one.
    #expect(status == local)
    #expect(FlightStatusText.status(status).contains("times Europe/Berlin, UTC+01:00"))
    #expect(FlightStatusText.status(status) == FlightStatusText.status(local))
    let board = try remote.board(airport: "fra", date: Self.date, direction: .departures)
    #expect(board.flights.map(\.gateArrival.scheduled.timeZone) == ["America/New_York", "America/New_York"])
    #expect(board.flights.map(\.flight.code) == ["LH400", "LH402"])
    #expect(board.airportName == "Frankfurt")

    let unknown = #expect(throws: ServiceError.self) {
      try remote.status(FlightStatusKey(flight: Flight(carrier: "LH", number: 9), date: Self.date, origin: "FRA"))
    }
    #expect(unknown?.code == "flight_not_found")
    #expect(unknown?.kind == .notFound)
    let badAirport = #expect(throws: ServiceError.self) {
      try remote.board(airport: "FRANKFURT", date: nil, direction: .arrivals)
    }
    #expect(badAirport?.code == "invalid_airport")
  }

  @Test func feeds_snapshotThenChangesInSequence_sharedAndResumed() throws {
    let service = Self.service()
    let directory = TemporaryDirectory(prefix: "remote-status")
    let server = try Self.server(service, directory: directory)
    defer { server.shutdown(timeout: 3) }
    let remote = RemoteFlightStatus(api: APIClient(server: server.baseURL, timeout: 10), clock: service.clock)

    let flight = Box<[FlightStatusEvent]>([])
    let board = Box<[FlightBoardEvent]>([])
    let a = remote.statusEvents(Self.key, after: nil).sink(
      receiveCompletion: { _ in }, receiveValue: { event in flight.withLock { $0.append(event) } })
    let b = remote.boardEvents(airport: "FRA", date: Self.date, direction: .departures, after: nil).sink(
      receiveCompletion: { _ in }, receiveValue: { event in board.withLock { $0.append(event) } })
    defer { b.cancel() }
    #expect(Self.waitUntil { flight.withLock { $0.count } == 1 && board.withLock { $0.count } == 1 })
    guard case .snapshot(let first)? = flight.withLock({ $0.first }) else {
      Issue.record("the flight's feed starts with a snapshot: \(flight.withLock { $0 })")
      return
    }
    #expect(first.status == .scheduled)
    // Through the day: each change once, in sequence, until the flight is at its gate.
    for _ in 0..<12 {
      Self.advance(service, minutes: 60)
      _ = Self.waitUntil(2) { flight.withLock { $0.last.map(Self.isFinal) ?? false } }
    }
    #expect(Self.waitUntil { flight.withLock { $0.last.map(Self.isFinal) ?? false } })
    let sequences = flight.withLock { $0 }.compactMap { event -> Int? in
      if case .update(let update) = event { update.sequence } else { nil }
    }
    #expect(sequences.count >= 5)
    #expect(sequences == Array((first.sequence + 1)..<(first.sequence + 1 + sequences.count)))
    let boardSequences = board.withLock { $0 }.compactMap { event -> Int? in
      if case .update(let update) = event { update.sequence } else { nil }
    }
    #expect(boardSequences.count > sequences.count, "the board has LH 402's changes too")

    // A second subscriber of the same topic: a snapshot of now. One resuming after a sequence
    // gets exactly the changes after it.
    let second = Box<[FlightStatusEvent]>([])
    let c = remote.statusEvents(Self.key, after: nil).sink(
      receiveCompletion: { _ in }, receiveValue: { event in second.withLock { $0.append(event) } })
    #expect(Self.waitUntil { second.withLock { $0.count } == 1 })
    if case .snapshot(let now)? = second.withLock({ $0.first }) {
      #expect(now.sequence == sequences.last)
    } else {
      Issue.record("a second subscriber gets a snapshot")
    }
    let resumed = Box<[FlightStatusEvent]>([])
    let d = remote.statusEvents(Self.key, after: sequences[2]).sink(
      receiveCompletion: { _ in }, receiveValue: { event in resumed.withLock { $0.append(event) } })
    #expect(Self.waitUntil { resumed.withLock { $0.count } == sequences.count - 3 })
    let replayed = resumed.withLock { $0 }.compactMap { event -> Int? in
      if case .update(let update) = event { update.sequence } else { nil }
    }
    #expect(replayed == Array(sequences.dropFirst(3)))
    a.cancel()
    c.cancel()
    d.cancel()
  }

  static func isFinal(_ event: FlightStatusEvent) -> Bool {
    switch event {
    case .snapshot(let status): status.isFinal
    case .update(let update): update.flightStatus.isFinal
    }
  }

  /// The traveller's booked flights over the server: a flight booked after the feed started joins
  /// it (a snapshot, then its changes), and leaves it when the trip is cancelled.
  @Test func tripEvents_followBookingsAndCancellationsMadeAfterTheFeedStarted() throws {
    // The status service's clock starts at the beginning of the travel day (UTC), 40 days ahead.
    let day = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "Europe/Berlin")!)
    let service = MemoryFlightStatus(
      start: ISO8601DateFormatter().date(from: "\(day)T00:00:00Z")!.addingTimeInterval(-3600), speed: 60)
    let fixture = try RemoteFixture(flightStatus: service)
    let token = try fixture.traveller("ada@example.com")
    let flights = RemoteFlights(api: fixture.api(token: token))
    let offer = try #require(
      try flights.search(
        FlightSearchRequest(origin: "FRA", destination: "JFK", departureDate: day, maxStops: 0, limit: 1)
      )
      .first)
    let segment = offer.outbound.segments[0]
    let key = FlightStatusKey(flight: segment.flight, date: segment.departure.localDate, origin: segment.from)
    // The status service knows the offer's flight: its gate changes on the way.
    service.add(
      FlightStatus.fixture(
        segment.flight.code, from: segment.from, to: segment.to, date: key.date,
        departure: segment.departure.localTimeText, blockMinutes: segment.durationMinutes,
        fromZone: segment.departure.timeZone, toZone: segment.arrival.timeZone
      ).day(gate: "B20", changedGate: "B26"))

    let remote = RemoteFlightStatus(api: fixture.api(), clock: service.clock)
    let events = Box<[TripFlightEvent]>([])
    let failed = Box<ServiceError?>(nil)
    let subscription = remote.tripEvents(token: token).sink(
      receiveCompletion: { completion in
        if case .failure(let error) = completion { failed.withLock { $0 = error } }
      },
      receiveValue: { event in events.withLock { $0.append(event) } })
    defer { subscription.cancel() }
    Thread.sleep(forTimeInterval: 0.5)
    #expect(events.withLock { $0.isEmpty }, "no trips yet")

    // Booked now, after the feed started: the flight joins with a snapshot.
    let reservation = try flights.book(
      FlightBookingRequest(offerID: offer.id, passengers: [try PassengerName(parsing: "Ada Lovelace")]), token: token)
    #expect(Self.waitUntil { events.withLock { $0.count } >= 1 }, "the booked flight joined the feed")
    let joined = try #require(events.withLock { $0.first })
    #expect(joined.reservationID == reservation.id)
    #expect(joined.booked == segment.flight)
    if case .snapshot(let status) = joined.event {
      #expect(status.key == key)
    } else {
      Issue.record("a snapshot first")
    }

    // Its changes follow.
    let minutes = Int(segment.departure.instant.timeIntervalSince(service.clock.now()) / 60)
    Self.advance(service, minutes: max(0, minutes))
    #expect(Self.waitUntil { events.withLock { $0.count } >= 2 }, "a change of the booked flight arrived")

    // Cancelled: it leaves the feed; later changes of the flight do not arrive.
    let accounts = RemoteAccounts(api: fixture.api())
    let quote = try accounts.cancellationQuote(id: reservation.id, token: token)
    _ = try accounts.cancelReservation(id: reservation.id, token: token, accepting: quote)
    Thread.sleep(forTimeInterval: 1)
    let count = events.withLock { $0.count }
    Self.advance(service, minutes: 600)
    Thread.sleep(forTimeInterval: 1)
    #expect(events.withLock { $0.count } == count, "nothing after the cancellation")
    #expect(failed.withLock { $0 } == nil)
  }
}
