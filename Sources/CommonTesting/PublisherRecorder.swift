import Foundation
import Reactive

/// Records every event of a publisher, in order, for assertions in tests.
///
/// ```swift
/// let results = viewModel.$results.record()
/// viewModel.searchTextChanged("LHR")
/// scheduler.advance(by: .milliseconds(300))
/// #expect(results.values == [[], ["London Heathrow"]])
/// ```
///
/// The recorder subscribes at once and, by default, requests `.unlimited`; pass `demand:` to
/// start with a bounded demand and call ``request(_:)`` for more (to test back-pressure). Events
/// may arrive on any thread; reading is thread-safe. The recorder keeps its subscription (and so
/// the publisher) alive until it completes or ``cancel()`` is called.
///
/// `@unchecked Sendable`: every field is guarded by an `NSCondition`.
public final class PublisherRecorder<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
  @unchecked Sendable
{
  /// One recorded event.
  public enum Event {
    /// A value, as received.
    case value(Input)
    /// The completion, as received.
    case completion(Subscribers.Completion<Failure>)
  }

  private let condition = NSCondition()
  private let initialDemand: Subscribers.Demand
  private var subscription: Subscription?
  private var recorded: [Event] = []
  private var subscriptionCount = 0

  /// Creates a recorder that requests `demand` when it is subscribed (`.none`: request nothing).
  public init(demand: Subscribers.Demand = .unlimited) {
    initialDemand = demand
  }

  public var description: String { "PublisherRecorder(\(events.count) events)" }

  // MARK: Reading

  /// Every event so far, in order.
  public var events: [Event] { locked { recorded } }

  /// The values received so far, in order.
  public var values: [Input] {
    events.compactMap {
      if case .value(let value) = $0 { value } else { nil }
    }
  }

  /// The completion, if the publisher has completed.
  public var completion: Subscribers.Completion<Failure>? {
    for case .completion(let completion) in events { return completion }
    return nil
  }

  /// Whether the publisher finished normally.
  public var isFinished: Bool {
    if case .finished = completion { true } else { false }
  }

  /// The failure, if the publisher failed.
  public var failure: Failure? {
    if case .failure(let error) = completion { error } else { nil }
  }

  /// How many times the recorder was handed a subscription (should be 1).
  public var subscriptionsReceived: Int { locked { subscriptionCount } }

  // MARK: Controlling

  /// Requests `demand` more values from the publisher.
  public func request(_ demand: Subscribers.Demand) {
    locked { subscription }?.request(demand)
  }

  /// Cancels the subscription; nothing more is recorded.
  public func cancel() {
    let subscription = locked { () -> Subscription? in
      let subscription = self.subscription
      self.subscription = nil
      return subscription
    }
    subscription?.cancel()
  }

  /// Blocks the calling thread until `count` values have been recorded, the publisher completes,
  /// or `timeout` seconds pass. Returns whether `count` values were recorded. Only needed for
  /// publishers that deliver on other threads; with a `TestScheduler` everything is synchronous.
  @discardableResult
  public func waitForValues(count: Int, timeout: TimeInterval = 5) -> Bool {
    waitUntil(timeout: timeout) { events in
      events.count(where: { if case .value = $0 { true } else { false } }) >= count
    }
  }

  /// Blocks until the publisher completes or `timeout` seconds pass; returns whether it completed.
  @discardableResult
  public func waitForCompletion(timeout: TimeInterval = 5) -> Bool {
    waitUntil(timeout: timeout) { events in
      events.contains { if case .completion = $0 { true } else { false } }
    }
  }

  private func waitUntil(timeout: TimeInterval, _ isDone: ([Event]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !isDone(recorded) {
      if recorded.contains(where: { if case .completion = $0 { true } else { false } }) { return false }
      if !condition.wait(until: deadline) { return isDone(recorded) }
    }
    return true
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  private func record(_ event: Event) {
    condition.lock()
    recorded.append(event)
    condition.broadcast()
    condition.unlock()
  }

  // MARK: Subscriber

  public func receive(subscription: Subscription) {
    let accepted = locked { () -> Bool in
      subscriptionCount += 1
      guard self.subscription == nil else { return false }
      self.subscription = subscription
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    if initialDemand > .none { subscription.request(initialDemand) }
  }

  public func receive(_ input: Input) -> Subscribers.Demand {
    record(.value(input))
    return .none
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    record(.completion(completion))
    locked { subscription = nil }
  }
}

extension PublisherRecorder.Event: Equatable where Input: Equatable, Failure: Equatable {}
extension PublisherRecorder.Event: Sendable where Input: Sendable, Failure: Sendable {}

extension Publisher {
  /// Subscribes a ``PublisherRecorder`` that requests `demand` (default `.unlimited`) and returns it.
  public func record(demand: Subscribers.Demand = .unlimited) -> PublisherRecorder<Output, Failure> {
    let recorder = PublisherRecorder<Output, Failure>(demand: demand)
    subscribe(recorder)
    return recorder
  }
}
