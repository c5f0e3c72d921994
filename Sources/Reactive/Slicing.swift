// MARK: - output(at:), output(in:), prefix(_:)

/// The subscription of `Publishers.Output`: values before the range ask upstream for one more
/// (`.max(1)`); values in the range go downstream with its demand; once the last one has gone
/// down (or on the first value, for an empty range) it cancels upstream and finishes. Requests
/// go straight upstream. Values a misbehaving upstream sends after a completion are still
/// counted and forwarded while in range, as in Combine.
///
/// `@unchecked Sendable`: the status is guarded by a lock; the counters are touched only by the
/// serial upstream.
private final class OutputSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var remainingUntilStart: Int
  private var remainingCount: Int

  init(downstream: Downstream, range: CountableRange<Int>) {
    self.downstream = downstream
    remainingUntilStart = range.lowerBound
    remainingCount = range.count
  }

  var description: String { "Output" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard status.isAwaiting else {
      lock.unlock()
      subscription.cancel()
      return
    }
    status = .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    if remainingUntilStart > 0 {
      remainingUntilStart -= 1
      return .max(1)
    }
    if remainingCount > 0 {
      remainingCount -= 1
      let more = downstream.receive(input)
      if remainingCount == 0 { finish() }
      return more
    }
    finish()
    return .none
  }

  /// The range is over: cancels upstream and finishes (once, while subscribed).
  private func finish() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    lock.unlock()
    subscription.cancel()
    downstream.receive(completion: .finished)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    status = .terminal
    lock.unlock()
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let subscription = status.isSubscribed ? status.subscription : nil
    lock.unlock()
    subscription?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    lock.unlock()
    subscription.cancel()
  }
}

extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of published
  /// elements (`prefix(_:)`, `output(at:)`, `output(in:)`), then finishes.
  public struct Output<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The range of elements to publish.
    public let range: CountableRange<Int>

    /// - Precondition: the range's bounds are not negative.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      precondition(range.lowerBound >= 0, "lowerBound must not be negative")
      precondition(range.upperBound >= 0, "upperBound must not be negative")
      self.upstream = upstream
      self.range = range
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(OutputSubscription(downstream: subscriber, range: range))
    }
  }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Republishes elements up to `maxLength`, then finishes.
  ///
  /// - Precondition: `maxLength >= 0`.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    precondition(maxLength >= 0, "maxLength must not be negative")
    return output(in: 0..<maxLength)
  }

  /// Publishes only the element at `index`, then finishes.
  ///
  /// - Precondition: `0 <= index < Int.max`.
  public func output(at index: Int) -> Publishers.Output<Self> {
    precondition(index >= 0, "index must not be negative")
    precondition(index < Int.max, "index must be less than Int.max")
    return output(in: index..<(index + 1))
  }

  /// Publishes the elements in `range`, then finishes.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }
}

// MARK: - prefix(while:), tryPrefix(while:)

/// `prefix(while:)`'s rule.
struct PrefixWhileRule<Input, Failure: Error>: FilterRule {
  let predicate: (Input) -> Bool
  func apply(_ input: Input) -> FilterStep<Input, Failure> { predicate(input) ? .send(input) : .finish }
}

/// `tryPrefix(while:)`'s rule.
struct TryPrefixWhileRule<Input>: FilterRule {
  let predicate: (Input) throws -> Bool

  func apply(_ input: Input) -> FilterStep<Input, Error> {
    do {
      return try predicate(input) ? .send(input) : .finish
    } catch {
      return .fail(error)
    }
  }
}

extension Publishers {
  /// A publisher that republishes elements while a predicate is true, then cancels upstream and
  /// finishes.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        FilterSubscription<PrefixWhileRule<Output, Failure>, Failure, S>(
          "PrefixWhile", rule: PrefixWhileRule(predicate: predicate), downstream: subscriber, mapFailure: { $0 }))
    }
  }

  /// `prefix(while:)` with a throwing predicate.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      upstream.subscribe(
        FilterSubscription<TryPrefixWhileRule<Output>, Upstream.Failure, S>(
          "TryPrefixWhile", rule: TryPrefixWhileRule(predicate: predicate), downstream: subscriber,
          mapFailure: { $0 }))
    }
  }
}

extension Publisher {
  /// Republishes elements while `predicate` is true, then finishes.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes elements while a throwing predicate is true, then finishes.
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

// MARK: - dropFirst

/// The subscription of `Publishers.Drop`: on subscription it asks upstream for the elements to
/// drop plus whatever the subscriber requested before; dropped elements return `.none` (they were
/// requested for that purpose).
///
/// `@unchecked Sendable`: the state is guarded by a lock; `count` is touched only by the serial
/// upstream.
private final class DropSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private var upstream: Subscription?
  private var pendingDemand = Subscribers.Demand.none
  private var count: Int

  init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    self.count = count
  }

  var description: String { "Drop" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  /// Hands this subscription downstream before the upstream subscribes (as Combine does).
  func start() {
    downstream.receive(subscription: self)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    guard upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    let demand = pendingDemand + count
    lock.unlock()
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    if count > 0 {
      count -= 1
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let upstream = self.upstream.take()
    lock.unlock()
    withExtendedLifetime(upstream) {}
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard let upstream else {
      pendingDemand += demand
      lock.unlock()
      return
    }
    lock.unlock()
    upstream.request(demand)
  }

  func cancel() {
    lock.lock()
    let upstream = self.upstream.take()
    lock.unlock()
    upstream?.cancel()
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing the rest.
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The number of elements to drop.
    public let count: Int

    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      precondition(count >= 0, "count must not be negative")
      let subscription = DropSubscription(downstream: subscriber, count: count)
      subscription.start()
      upstream.subscribe(subscription)
    }
  }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Omits the first `count` elements.
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

// MARK: - drop(while:), tryDrop(while:)

/// The subscription of `drop(while:)` and `tryDrop(while:)`: while dropping, a value the
/// predicate accepts returns `.max(1)`; the first one it rejects goes downstream and ends
/// dropping. A thrown error cancels upstream and fails downstream. The predicate is released on
/// termination.
///
/// `@unchecked Sendable`: the state is guarded by a lock; the predicate runs without it.
private final class DropWhileSubscription<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = UpstreamFailure

  let description: String
  private let lock = Lock()
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var predicate: ((Input) throws -> Bool)?
  private var dropping = true
  private var finished = false
  private let mapFailure: (UpstreamFailure) -> Downstream.Failure
  private let mapError: (Error) -> Downstream.Failure

  init(
    _ name: String, downstream: Downstream, predicate: @escaping (Input) throws -> Bool,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure, mapError: @escaping (Error) -> Downstream.Failure
  ) {
    description = name
    self.downstream = downstream
    self.predicate = predicate
    self.mapFailure = mapFailure
    self.mapError = mapError
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard status.isAwaiting else {
      lock.unlock()
      subscription.cancel()
      return
    }
    status = .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed(let subscription) = status, let predicate else {
      lock.unlock()
      return .none
    }
    let dropping = self.dropping
    lock.unlock()
    if dropping {
      do {
        if try predicate(input) { return .max(1) }
        lock.lock()
        self.dropping = false
        lock.unlock()
      } catch {
        lock.lock()
        status = .terminal
        let released = self.predicate.take()
        finished = true
        lock.unlock()
        withExtendedLifetime(released) {}
        subscription.cancel()
        downstream.receive(completion: .failure(mapError(error)))
        return .none
      }
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    status = .terminal
    let released = predicate.take()
    let wasFinished = finished
    finished = true
    lock.unlock()
    withExtendedLifetime(released) {}
    if !wasFinished { downstream.receive(completion: completion.mapError(mapFailure)) }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let subscription = status.isSubscribed ? status.subscription : nil
    lock.unlock()
    subscription?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    let released = predicate.take()
    finished = true
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription.cancel()
  }
}

extension Publishers {
  /// A publisher that omits elements while a predicate is true, then republishes the rest.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        DropWhileSubscription<S, Failure>(
          "DropWhile", downstream: subscriber, predicate: predicate, mapFailure: { $0 },
          mapError: { _ in preconditionFailure("drop(while:) cannot throw") }))
    }
  }

  /// `drop(while:)` with a throwing predicate.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      upstream.subscribe(
        DropWhileSubscription<S, Upstream.Failure>(
          "TryDropWhile", downstream: subscriber, predicate: predicate, mapFailure: { $0 }, mapError: { $0 }))
    }
  }
}

extension Publisher {
  /// Omits elements while `predicate` is true.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements while a throwing predicate is true.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

// MARK: - collect(_:)

/// The subscription of `collect(_:)`: asks upstream for `count` values per requested array,
/// returns the downstream's demand times `count` when an array is full, and sends the partial
/// last array (whatever the demand) before `.finished`; a failure drops it.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class CollectByCountSubscription<Input, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Input] {
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private let count: Int
  private var buffer: [Input] = []
  private var upstream: Subscription?
  private var finished = false

  init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    self.count = count
  }

  var description: String { "CollectByCount" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("upstreamSubscription", upstream as Any), ("buffer", buffer), ("count", count),
    ]
    return Mirror(self, children: children)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    guard !finished, upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard upstream != nil else {
      lock.unlock()
      return .none
    }
    buffer.append(input)
    guard buffer.count == count else {
      lock.unlock()
      return .none
    }
    let output = buffer
    buffer = []
    lock.unlock()
    return downstream.receive(output) * count
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let upstream = self.upstream.take()
    finished = true
    let remainder = buffer
    buffer = []
    lock.unlock()
    withExtendedLifetime(upstream) {}
    if case .finished = completion, !remainder.isEmpty { _ = downstream.receive(remainder) }
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(demand * count)
  }

  func cancel() {
    lock.lock()
    guard let upstream = self.upstream.take() else {
      lock.unlock()
      return
    }
    buffer = []
    finished = true
    lock.unlock()
    upstream.cancel()
  }
}

extension Publishers {
  /// A publisher that buffers a maximum number of items and publishes them as arrays; the
  /// remainder is published when upstream finishes (Combine's `collect(_:)`).
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(CollectByCountSubscription(downstream: subscriber, count: count))
    }
  }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Collects up to `count` elements and publishes them as arrays (the last may be shorter).
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}
