import Common
import Foundation
import Reactive

/// A publisher of a known timeline on a ``TravelClock``: first the values of `immediate` (a
/// snapshot), then, in order, each entry of `entries` once the clock reaches its instant (at once
/// for entries already due). It never completes on its own; it honours demand (values wait until
/// requested) and stops at cancellation.
///
/// The entries are made lazily by `make` (index → value), so a board's thousands of future
/// changes cost nothing until they happen. One timer at a time is scheduled on the clock's
/// scheduler, for the next entry due.
struct ClockFeed<Output>: Publisher {
  typealias Failure = ServiceError

  let clock: TravelClock
  let immediate: [Output]
  /// When each entry happens, ascending.
  let instants: [Date]
  let make: @Sendable (Int) -> Output

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == ServiceError {
    let subscription = ClockFeedSubscription(feed: self, subscriber: subscriber)
    subscriber.receive(subscription: subscription)
  }
}

/// `@unchecked Sendable`: all mutable state is guarded by `lock`; the subscriber is called by one
/// thread at a time (the `draining` flag), never under the lock.
private final class ClockFeedSubscription<Output, S: Subscriber>: Subscription, @unchecked Sendable
where S.Input == Output, S.Failure == ServiceError {
  private let lock = NSLock()
  private let feed: ClockFeed<Output>
  private var subscriber: S?
  private var demand = Subscribers.Demand.none
  private var immediateIndex = 0
  private var nextEntry = 0
  private var draining = false
  private var timerArmedFor: Int?

  init(feed: ClockFeed<Output>, subscriber: S) {
    self.feed = feed
    self.subscriber = subscriber
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { self.demand += demand }
    drain()
  }

  func cancel() {
    lock.withLock { subscriber = nil }
  }

  /// Delivers what is due and wanted, then arms the timer for the next entry.
  private func drain() {
    lock.lock()
    if draining {
      lock.unlock()
      return
    }
    draining = true
    while let subscriber, demand > 0 {
      let value: Output
      if immediateIndex < feed.immediate.count {
        value = feed.immediate[immediateIndex]
        immediateIndex += 1
      } else if nextEntry < feed.instants.count,
        feed.instants[nextEntry].timeIntervalSince(feed.clock.now()) <= 0.000_5
      {
        let index = nextEntry
        nextEntry += 1
        lock.unlock()
        value = feed.make(index)
        lock.lock()
      } else {
        break
      }
      demand -= 1
      lock.unlock()
      let more = subscriber.receive(value)
      lock.lock()
      demand += more
    }
    draining = false
    let arm =
      subscriber != nil && demand > 0 && nextEntry < feed.instants.count && timerArmedFor != nextEntry
      && immediateIndex >= feed.immediate.count
    if arm { timerArmedFor = nextEntry }
    let instant = arm ? feed.instants[nextEntry] : nil
    lock.unlock()
    if let instant {
      feed.clock.schedule(at: instant) { [weak self] in self?.timerFired() }
    }
  }

  private func timerFired() {
    lock.withLock { timerArmedFor = nil }
    drain()
  }
}
