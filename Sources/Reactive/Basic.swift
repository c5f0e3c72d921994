/// A subscription that delivers one prepared outcome: an optional value, then a completion.
/// The value waits for demand; a completion without a value is sent at once.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class OneShotSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  private let lock = Lock()
  private let name: String
  private var downstream: AnySubscriber<Output, Failure>?
  private var hasDemand = false
  private var outcome: (value: Output?, completion: Subscribers.Completion<Failure>)?

  init(name: String, downstream: AnySubscriber<Output, Failure>) {
    self.name = name
    self.downstream = downstream
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror { Mirror(self, children: ["outcome": lock.withLock { outcome } as Any]) }

  /// Sets the outcome (once) and delivers it if possible.
  func resolve(value: Output?, completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      if outcome == nil { outcome = (value, completion) }
    }
    deliverIfPossible()
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { hasDemand = true }
    deliverIfPossible()
  }

  func cancel() {
    lock.withLock { downstream = nil }
  }

  private func deliverIfPossible() {
    let ready = lock.withLock { () -> (AnySubscriber<Output, Failure>, Output?, Subscribers.Completion<Failure>)? in
      guard let downstream, let outcome else { return nil }
      if outcome.value != nil, !hasDemand { return nil }
      self.downstream = nil
      return (downstream, outcome.value, outcome.completion)
    }
    guard let (downstream, value, completion) = ready else { return }
    if let value { _ = downstream.receive(value) }
    downstream.receive(completion: completion)
  }
}

/// A publisher that emits an output to each subscriber just once, and then finishes, as
/// Combine's `Just`. The value is sent when the subscriber first requests demand, on that thread.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The one element that the publisher emits.
  public let output: Output

  /// Creates a publisher that emits `output` once and finishes.
  public init(_ output: Output) {
    self.output = output
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    let subscription = OneShotSubscription<Output, Never>(name: "Just", downstream: AnySubscriber(subscriber))
    subscriber.receive(subscription: subscription)
    subscription.resolve(value: output, completion: .finished)
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// A publisher that immediately terminates with the specified error, as Combine's `Fail`.
public struct Fail<Output, Failure: Error>: Publisher {
  /// The failure to send when terminating the publisher.
  public let error: Failure

  /// Creates a publisher that immediately terminates with `error`.
  public init(error: Failure) {
    self.error = error
  }

  /// Creates a publisher of the given output type that immediately terminates with `failure`.
  public init(outputType: Output.Type, failure: Failure) {
    self.error = failure
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(error))
  }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}

/// A publisher that never publishes any values, and optionally finishes immediately, as
/// Combine's `Empty`.
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
  /// Whether the publisher immediately sends a `.finished` completion.
  public let completeImmediately: Bool

  /// Creates an empty publisher (`completeImmediately: false` gives one that never completes).
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// Creates an empty publisher with the given types.
  public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
    self.completeImmediately = completeImmediately
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately { subscriber.receive(completion: .finished) }
  }
}

/// A publisher that eventually produces a single value and then finishes or fails, as
/// Combine's `Future`.
///
/// The closure runs once, immediately, in `init` (on the calling thread); it receives a promise to
/// call (from any thread) with the result. Every subscriber, also a late one, receives that
/// result: a value once it has demand, followed by `.finished`; or the failure.
///
/// Differences from Combine: `Promise` is `@Sendable`, so it can be called from a `Task` or
/// another queue under Swift 6 strict concurrency.
///
/// `@unchecked Sendable`: the result and subscriber list are guarded by a lock.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  /// The closure type that completes the future (only the first call counts).
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  private let lock = Lock()
  private var result: Result<Output, Failure>?
  private var waiting: [OneShotSubscription<Output, Failure>] = []

  /// Creates a publisher and runs `attemptToFulfill` with its promise.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    lock.lock()
    let waiting = self.result == nil ? self.waiting : []
    if self.result == nil {
      self.result = result
      self.waiting = []
    }
    lock.unlock()
    for subscription in waiting { Self.resolve(subscription, with: result) }
  }

  private static func resolve(
    _ subscription: OneShotSubscription<Output, Failure>, with result: Result<Output, Failure>
  ) {
    switch result {
    case .success(let value): subscription.resolve(value: value, completion: .finished)
    case .failure(let error): subscription.resolve(value: nil, completion: .failure(error))
    }
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = OneShotSubscription<Output, Failure>(name: "Future", downstream: AnySubscriber(subscriber))
    subscriber.receive(subscription: subscription)
    lock.lock()
    let result = self.result
    if result == nil { waiting.append(subscription) }
    lock.unlock()
    if let result { Self.resolve(subscription, with: result) }
  }
}

/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber, as Combine's `Deferred`.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  public typealias Output = DeferredPublisher.Output
  public typealias Failure = DeferredPublisher.Failure

  /// The closure to execute when this publisher receives a subscription (once per subscriber).
  public let createPublisher: () -> DeferredPublisher

  /// Creates a deferred publisher.
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    createPublisher().receive(subscriber: subscriber)
  }
}
