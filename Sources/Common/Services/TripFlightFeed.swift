import Foundation
import Reactive

/// The traveller's booked flights as one feed, for every ``FlightStatusService``: the flights of
/// their confirmed flight reservations, each followed with the service's
/// ``FlightStatusService/statusEvents(_:after:)`` (a snapshot when it joins, then its changes).
///
/// The reservations are read when the subscriber first asks, then again at each ``Refresh``: every
/// `interval` of the service clock's scheduler (the embedded backend: a booking or a cancellation
/// made meanwhile, by this app or another process on the same store, joins or leaves the feed),
/// or at each value of a publisher (a server's client: each event of the stream's `trips` topic,
/// `reservation.booked` / `reservation.cancelled`). So the embedded backend and a `travel-server`
/// client behave the same: a flight booked after the feed started joins it, and a cancelled
/// one stops.
///
/// Flights more than a day in the past (UTC day of the service's clock) are left out. Fails with
/// the reservations' error when the first read fails (`not_signed_in`, `session_expired`), and
/// later when the session ends (an `unauthenticated` error); other later read errors (a server
/// briefly unreachable) keep the flights followed so far until the next refresh.
public struct TripFlightFeed: Publisher {
  public typealias Output = TripFlightEvent
  public typealias Failure = ServiceError

  /// When the reservations are read again after the first reading.
  public enum Refresh {
    /// Every interval of the service clock's scheduler time (polling a store).
    case every(DispatchQueue.SchedulerTimeType.Stride)
    /// At each value (a change notification, such as the `trips` topic's events).
    case on(AnyPublisher<Void, Never>)
  }

  let service: any FlightStatusService
  let token: String
  let reservations: @Sendable (String) throws -> [Reservation]
  let refresh: Refresh

  /// - Parameters:
  ///   - service: follows each booked flight (and gives the clock: "today", the scheduler).
  ///   - token: the traveller's session token, passed to `reservations`.
  ///   - refresh: when to read the reservations again.
  ///   - reservations: the traveller's reservations (the ledger, or `GET /v1/trips`); throws a
  ///     ``ServiceError``.
  public init(
    service: any FlightStatusService, token: String, refresh: Refresh,
    reservations: @escaping @Sendable (String) throws -> [Reservation]
  ) {
    self.service = service
    self.token = token
    self.reservations = reservations
    self.refresh = refresh
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == TripFlightEvent, S.Failure == ServiceError {
    let relay = Relay<TripFlightEvent>()
    let state = TripFeedState(
      service: service, token: token, reservations: reservations, refresh: refresh, relay: relay)
    relay.onFirstRequest = { state.start() }
    relay.onCancel = { state.stop() }
    relay.receive(subscriber: subscriber)
  }
}

/// A one-subscriber publisher that keeps what is sent until the subscriber asks for it (so values
/// sent before the first request, such as the snapshots of the first reading, are never lost),
/// and runs hooks at the first request and at cancellation.
///
/// `@unchecked Sendable`: all state is guarded by `lock`; the subscriber is called by one thread
/// at a time (`draining`), never under the lock.
private final class Relay<Output>: Publisher, Subscription, @unchecked Sendable {
  typealias Failure = ServiceError

  private let lock = NSLock()
  private var downstream: AnySubscriber<Output, ServiceError>?
  private var queue: [Output] = []
  private var completion: Subscribers.Completion<ServiceError>?
  private var demand = Subscribers.Demand.none
  private var draining = false
  private var requested = false
  var onFirstRequest: (@Sendable () -> Void)?
  var onCancel: (@Sendable () -> Void)?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == ServiceError {
    lock.withLock { downstream = AnySubscriber(subscriber) }
    subscriber.receive(subscription: self)
  }

  func send(_ value: Output) {
    lock.withLock {
      guard completion == nil else { return }
      queue.append(value)
    }
    drain()
  }

  func send(completion: Subscribers.Completion<ServiceError>) {
    lock.withLock {
      if self.completion == nil { self.completion = completion }
    }
    drain()
  }

  func request(_ demand: Subscribers.Demand) {
    let first = lock.withLock { () -> Bool in
      self.demand += demand
      defer { requested = true }
      return !requested
    }
    if first { onFirstRequest?() }
    drain()
  }

  func cancel() {
    let hook = lock.withLock { () -> (@Sendable () -> Void)? in
      guard downstream != nil else { return nil }
      downstream = nil
      queue = []
      return onCancel
    }
    hook?()
  }

  private func drain() {
    lock.lock()
    guard !draining else {
      lock.unlock()
      return
    }
    draining = true
    while let subscriber = downstream {
      if demand > 0, !queue.isEmpty {
        let value = queue.removeFirst()
        demand -= 1
        lock.unlock()
        let more = subscriber.receive(value)
        lock.lock()
        demand += more
      } else if queue.isEmpty, let completion {
        downstream = nil
        lock.unlock()
        subscriber.receive(completion: completion)
        lock.lock()
      } else {
        break
      }
    }
    draining = false
    lock.unlock()
  }
}

/// `@unchecked Sendable`: mutable state guarded by `lock`; the relay is thread-safe.
private final class TripFeedState: @unchecked Sendable {
  private let lock = NSLock()
  /// Held for a whole reading, so two refreshes (a timer and a change) never interleave.
  private let pollLock = NSLock()
  private let service: any FlightStatusService
  private let token: String
  private let reservations: @Sendable (String) throws -> [Reservation]
  private let relay: Relay<TripFlightEvent>
  /// When to read again; its publisher is subscribed once, at the start.
  private let refresh: TripFlightFeed.Refresh
  private var started = false
  private var stopped = false
  /// Whether the reservations were read once: a later failure (other than a session's end)
  /// keeps the flights followed until the next refresh.
  private var hasRead = false
  private var poller: Cancellable?
  private var flights: [String: AnyCancellable] = [:]

  init(
    service: any FlightStatusService, token: String,
    reservations: @escaping @Sendable (String) throws -> [Reservation], refresh: TripFlightFeed.Refresh,
    relay: Relay<TripFlightEvent>
  ) {
    self.refresh = refresh
    self.service = service
    self.token = token
    self.reservations = reservations
    self.relay = relay
  }

  func start() {
    let first = lock.withLock { () -> Bool in
      if started { return false }
      started = true
      return true
    }
    guard first else { return }
    // The trigger first, then the first reading: a change between the two is read again, never missed.
    let trigger: Cancellable
    switch refresh {
    case .every(let interval):
      let scheduler = service.clock.scheduler
      trigger = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) { [weak self] in
        self?.poll()
      }
    case .on(let changes):
      trigger = changes.sink { [weak self] _ in self?.poll() }
    }
    let keep = lock.withLock { () -> Bool in
      if stopped { return false }
      poller = trigger
      return true
    }
    if !keep {
      trigger.cancel()
      return
    }
    poll()
  }

  func stop() {
    let (timer, subscriptions) = lock.withLock { () -> (Cancellable?, [AnyCancellable]) in
      stopped = true
      defer {
        poller = nil
        flights = [:]
      }
      return (poller, Array(flights.values))
    }
    timer?.cancel()
    for subscription in subscriptions { subscription.cancel() }
  }

  /// Reads the reservations and follows the flights that joined, drops those that left.
  private func poll() {
    pollLock.lock()
    defer { pollLock.unlock() }
    if lock.withLock({ stopped }) { return }
    let list: [Reservation]
    do {
      list = try reservations(token)
    } catch let error as ServiceError {
      if error.kind == .unauthenticated || !lock.withLock({ hasRead }) {
        relay.send(completion: .failure(error))
        stop()
      }
      return
    } catch {
      relay.send(completion: .failure(ServiceError(wrapping: error)))
      stop()
      return
    }
    lock.withLock { hasRead = true }
    let earliest = LocalDate(
      daysSinceEpoch: Int((service.clock.now().timeIntervalSince1970 / 86_400).rounded(.down)) - 1)
    var wanted: [String: (reservation: String, booked: Flight, key: FlightStatusKey)] = [:]
    for reservation in list where reservation.status == .confirmed {
      for (booked, key) in reservation.bookedFlights where key.date >= earliest {
        wanted["\(reservation.id)|\(key.id)"] = (reservation.id, booked, key)
      }
    }
    let added = lock.withLock { () -> [(String, (reservation: String, booked: Flight, key: FlightStatusKey))] in
      for id in flights.keys where wanted[id] == nil { flights[id] = nil }
      return wanted.filter { flights[$0.key] == nil }.sorted { $0.value.key < $1.value.key }.map { ($0.key, $0.value) }
    }
    for (id, flight) in added {
      let relay = relay
      let subscription = service.statusEvents(flight.key, after: nil).sink(
        receiveCompletion: { _ in },
        receiveValue: { event in
          relay.send(TripFlightEvent(reservationID: flight.reservation, booked: flight.booked, event: event))
        })
      let keep = lock.withLock { () -> Bool in
        if stopped || flights[id] != nil { return false }
        flights[id] = subscription
        return true
      }
      if !keep { subscription.cancel() }
    }
  }
}
