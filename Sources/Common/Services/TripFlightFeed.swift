import Common
import Foundation
import Reactive

/// The traveller's booked flights as one feed: the flights of their confirmed flight reservations
/// (read again every `interval` of scheduler time, so a booking or a cancellation made meanwhile,
/// from this app or another process on the same store, joins or leaves the feed), each a
/// ``FlightStatusFeed/statusEvents(_:after:)`` feed: a snapshot when it joins, then its changes.
///
/// Flights more than a day in the past are left out. Fails with the reservations' error when the
/// first read fails (`not_signed_in`, `session_expired`), and later when the session ends.
struct TripFeed: Publisher {
  typealias Output = TripFlightEvent
  typealias Failure = ServiceError

  let feed: FlightStatusFeed
  let token: String
  let reservations: @Sendable (String) throws -> [Reservation]
  let interval: DispatchQueue.SchedulerTimeType.Stride

  func receive<S: Subscriber>(subscriber: S) where S.Input == TripFlightEvent, S.Failure == ServiceError {
    let relay = Relay<TripFlightEvent>()
    let state = TripFeedState(feed: feed, token: token, reservations: reservations, relay: relay)
    relay.onFirstRequest = { [interval] in state.start(interval: interval) }
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
final class Relay<Output>: Publisher, Subscription, @unchecked Sendable {
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
  private let feed: FlightStatusFeed
  private let token: String
  private let reservations: @Sendable (String) throws -> [Reservation]
  private let relay: Relay<TripFlightEvent>
  private var started = false
  private var stopped = false
  private var poller: Cancellable?
  private var flights: [String: AnyCancellable] = [:]

  init(
    feed: FlightStatusFeed, token: String, reservations: @escaping @Sendable (String) throws -> [Reservation],
    relay: Relay<TripFlightEvent>
  ) {
    self.feed = feed
    self.token = token
    self.reservations = reservations
    self.relay = relay
  }

  func start(interval: DispatchQueue.SchedulerTimeType.Stride) {
    let first = lock.withLock { () -> Bool in
      if started { return false }
      started = true
      return true
    }
    guard first else { return }
    poll()
    let scheduler = feed.clock.scheduler
    let timer = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) { [weak self] in
      self?.poll()
    }
    let keep = lock.withLock { () -> Bool in
      if stopped { return false }
      poller = timer
      return true
    }
    if !keep { timer.cancel() }
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
    if lock.withLock({ stopped }) { return }
    let list: [Reservation]
    do {
      list = try reservations(token)
    } catch let error as ServiceError {
      if error.kind == .unauthenticated || lock.withLock({ flights.isEmpty && !stopped }) {
        relay.send(completion: .failure(error))
        stop()
      }
      return
    } catch {
      relay.send(completion: .failure(ServiceError.wrapping(error)))
      stop()
      return
    }
    let earliest = LocalDate(daysSinceEpoch: Int(FlightOperations.minute(feed.clock.now()) / 1440) - 1)
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
      let subscription = feed.statusEvents(flight.key, after: nil).sink(
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
