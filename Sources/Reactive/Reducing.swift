/// What an accumulating operator does with an upstream value.
enum ReduceStep<Failure: Error> {
  /// Keep going.
  case `continue`
  /// Stop now: cancel upstream and publish the result.
  case finish
  /// Stop with an error: cancel upstream and fail.
  case fail(Failure)
}

/// The subscription behind the operators that publish one result at the end (`reduce`,
/// `collect()`, `count`, `first`, `last`, `contains`, `allSatisfy`, `min`, `max`, `ignoreOutput`,
/// `replaceEmpty`): requests `.unlimited` upstream, then publishes the result (if any) once the
/// subscriber has demand, followed by `.finished`.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class ReduceSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = UpstreamFailure

  private let lock = Lock()
  private let name: String
  private let accumulate: (Input) -> ReduceStep<Downstream.Failure>
  private let result: () -> Downstream.Input?
  private let mapFailure: (UpstreamFailure) -> Downstream.Failure
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var upstreamDone = false
  private var hasDemand = false
  private var outcome: (value: Downstream.Input?, completion: Subscribers.Completion<Downstream.Failure>)?

  init(
    _ name: String, downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    accumulate: @escaping (Input) -> ReduceStep<Downstream.Failure>, result: @escaping () -> Downstream.Input?
  ) {
    self.name = name
    self.downstream = downstream
    self.mapFailure = mapFailure
    self.accumulate = accumulate
    self.result = result
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard upstream == nil, !upstreamDone, let downstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    lock.unlock()
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ !upstreamDone && downstream != nil }) else { return .none }
    switch accumulate(input) {
    case .continue:
      return .none
    case .finish:
      endUpstream()?.cancel()
      settle(value: result(), completion: .finished)
    case .fail(let error):
      endUpstream()?.cancel()
      settle(value: nil, completion: .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard lock.withLock({ !upstreamDone }) else { return }
    _ = endUpstream()
    switch completion {
    case .finished: settle(value: result(), completion: .finished)
    case .failure(let error): settle(value: nil, completion: .failure(mapFailure(error)))
    }
  }

  /// Marks the upstream done; returns its subscription (the first time).
  private func endUpstream() -> Subscription? {
    lock.withLock {
      upstreamDone = true
      let upstream = self.upstream
      self.upstream = nil
      return upstream
    }
  }

  private func settle(value: Downstream.Input?, completion: Subscribers.Completion<Downstream.Failure>) {
    lock.withLock {
      if outcome == nil { outcome = (value, completion) }
    }
    deliverIfPossible()
  }

  private func deliverIfPossible() {
    lock.lock()
    guard let downstream, let outcome, outcome.value == nil || hasDemand else {
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    if let value = outcome.value { _ = downstream.receive(value) }
    downstream.receive(completion: outcome.completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { hasDemand = true }
    deliverIfPossible()
  }

  func cancel() {
    lock.lock()
    let upstream = self.upstream
    self.upstream = nil
    upstreamDone = true
    downstream = nil
    lock.unlock()
    upstream?.cancel()
  }
}

extension Publisher {
  func subscribeReducing<S: Subscriber>(
    _ name: String, _ subscriber: S, accumulate: @escaping (Output) -> ReduceStep<S.Failure>,
    result: @escaping () -> S.Input?
  ) where S.Failure == Failure {
    subscribe(
      ReduceSubscription<Output, Failure, S>(
        name, downstream: subscriber, mapFailure: { $0 }, accumulate: accumulate, result: result))
  }

  func subscribeTryReducing<S: Subscriber>(
    _ name: String, _ subscriber: S, accumulate: @escaping (Output) -> ReduceStep<Error>,
    result: @escaping () -> S.Input?
  ) where S.Failure == Error {
    subscribe(
      ReduceSubscription<Output, Failure, S>(
        name, downstream: subscriber, mapFailure: { $0 }, accumulate: accumulate, result: result))
  }
}

/// Runs a throwing accumulation step, turning a thrown error into `.fail`.
func attemptStep(_ body: () throws -> ReduceStep<Error>) -> ReduceStep<Error> {
  do { return try body() } catch { return .fail(error) }
}

extension Publishers {
  /// A publisher that applies a closure to all received elements and produces an accumulated value
  /// when the upstream publisher finishes.
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let initial: Output
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let next = nextPartialResult
      var accumulator = initial
      upstream.subscribeReducing(
        "Reduce", subscriber,
        accumulate: {
          accumulator = next(accumulator, $0)
          return .continue
        }, result: { accumulator })
    }
  }

  /// A publisher that applies a throwing closure to all received elements and produces an
  /// accumulated value when the upstream publisher finishes.
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Error
    public let upstream: Upstream
    public let initial: Output
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    public init(
      upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let next = nextPartialResult
      var accumulator = initial
      upstream.subscribeTryReducing(
        "TryReduce", subscriber,
        accumulate: { value in
          attemptStep {
            accumulator = try next(accumulator, value)
            return .continue
          }
        }, result: { accumulator })
    }
  }

  /// A publisher that buffers all elements and publishes them as one array when upstream finishes.
  public struct Collect<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      var elements: [Upstream.Output] = []
      upstream.subscribeReducing(
        "Collect", subscriber,
        accumulate: {
          elements.append($0)
          return .continue
        }, result: { elements })
    }
  }

  /// A publisher that publishes the number of elements received when upstream finishes.
  public struct Count<Upstream: Publisher>: Publisher {
    public typealias Output = Int
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
      var count = 0
      upstream.subscribeReducing(
        "Count", subscriber,
        accumulate: { _ in
          count += 1
          return .continue
        }, result: { count })
    }
  }

  /// A publisher that ignores all upstream elements, but passes along the completion.
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    public typealias Output = Never
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
      upstream.subscribeReducing("IgnoreOutput", subscriber, accumulate: { _ in .continue }, result: { nil })
    }
  }

  /// A publisher that publishes the first element matching a predicate (cancelling upstream), or
  /// nothing if upstream finishes first. `first()` uses a predicate that accepts everything.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let predicate = predicate
      var found: Output?
      upstream.subscribeReducing(
        "First", subscriber,
        accumulate: { value in
          guard predicate(value) else { return .continue }
          found = value
          return .finish
        }, result: { found })
    }
  }

  /// A publisher that publishes the first element matching a throwing predicate.
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let predicate = predicate
      var found: Output?
      upstream.subscribeTryReducing(
        "TryFirstWhere", subscriber,
        accumulate: { value in
          attemptStep {
            guard try predicate(value) else { return .continue }
            found = value
            return .finish
          }
        }, result: { found })
    }
  }

  /// A publisher that publishes the last element matching a predicate, when upstream finishes.
  public struct LastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let predicate = predicate
      var found: Output?
      upstream.subscribeReducing(
        "LastWhere", subscriber,
        accumulate: { value in
          if predicate(value) { found = value }
          return .continue
        }, result: { found })
    }
  }

  /// A publisher that publishes the last element matching a throwing predicate.
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let predicate = predicate
      var found: Output?
      upstream.subscribeTryReducing(
        "TryLastWhere", subscriber,
        accumulate: { value in
          attemptStep {
            if try predicate(value) { found = value }
            return .continue
          }
        }, result: { found })
    }
  }

  /// A publisher that emits `true` (and cancels upstream) as soon as an element matches the
  /// predicate, or `false` when upstream finishes without a match.
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
      let predicate = predicate
      var found = false
      upstream.subscribeReducing(
        "ContainsWhere", subscriber,
        accumulate: { value in
          guard predicate(value) else { return .continue }
          found = true
          return .finish
        }, result: { found })
    }
  }

  /// `contains(where:)` with a throwing predicate.
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Error {
      let predicate = predicate
      var found = false
      upstream.subscribeTryReducing(
        "TryContainsWhere", subscriber,
        accumulate: { value in
          attemptStep {
            guard try predicate(value) else { return .continue }
            found = true
            return .finish
          }
        }, result: { found })
    }
  }

  /// A publisher that emits `false` (and cancels upstream) as soon as an element fails the
  /// predicate, or `true` when upstream finishes.
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
      let predicate = predicate
      var satisfied = true
      upstream.subscribeReducing(
        "AllSatisfy", subscriber,
        accumulate: { value in
          guard !predicate(value) else { return .continue }
          satisfied = false
          return .finish
        }, result: { satisfied })
    }
  }

  /// `allSatisfy` with a throwing predicate.
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Error {
      let predicate = predicate
      var satisfied = true
      upstream.subscribeTryReducing(
        "TryAllSatisfy", subscriber,
        accumulate: { value in
          attemptStep {
            guard try !predicate(value) else { return .continue }
            satisfied = false
            return .finish
          }
        }, result: { satisfied })
    }
  }

  /// A publisher that publishes the minimum or maximum element when upstream finishes (the
  /// element `e` for which `areInIncreasingOrder(e, other)` is false for the kept one).
  public struct Comparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// Returns `true` when the second argument should replace the kept element.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let replaces = areInIncreasingOrder
      var kept: Output?
      upstream.subscribeReducing(
        "Comparison", subscriber,
        accumulate: { value in
          if let current = kept {
            if replaces(current, value) { kept = value }
          } else {
            kept = value
          }
          return .continue
        }, result: { kept })
    }
  }

  /// A publisher that replaces an empty stream with the provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let output: Upstream.Output

    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let output = output
      let isEmpty = ReplaceEmptyState()
      upstream.subscribe(
        TransformSubscription<Output, Failure, ReplaceEmptyDownstream<S>>(
          "ReplaceEmpty", downstream: ReplaceEmptyDownstream(downstream: subscriber, output: output, state: isEmpty),
          mapFailure: { $0 },
          transform: {
            isEmpty.sawValue = true
            return .send($0)
          }))
    }
  }
}

/// Whether `replaceEmpty` saw a value. `@unchecked Sendable`: written by the serial upstream only.
private final class ReplaceEmptyState: @unchecked Sendable {
  var sawValue = false
}

/// Sends the replacement value before `.finished` when the stream was empty (honouring demand).
private final class ReplaceEmptyDownstream<Downstream: Subscriber>: Subscriber, @unchecked Sendable {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  let downstream: Downstream
  let output: Input
  let state: ReplaceEmptyState
  private let lock = Lock()
  private var demand = Subscribers.Demand.none
  private var pendingFinish = false
  private var subscription: Subscription?

  init(downstream: Downstream, output: Input, state: ReplaceEmptyState) {
    self.downstream = downstream
    self.output = output
    self.state = state
  }

  func receive(subscription: Subscription) {
    lock.withLock { self.subscription = subscription }
    downstream.receive(
      subscription: DemandTracker(upstream: subscription, onRequest: { [weak self] in self?.requested($0) }))
  }

  private func requested(_ demand: Subscribers.Demand) {
    lock.lock()
    self.demand += demand
    let flush = pendingFinish
    pendingFinish = false
    lock.unlock()
    if flush {
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { demand -= 1 }
    let more = downstream.receive(input)
    lock.withLock { demand += more }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .finished = completion, !state.sawValue else {
      downstream.receive(completion: completion)
      return
    }
    let hasDemand = lock.withLock { () -> Bool in
      if demand == .none { pendingFinish = true }
      return demand > .none
    }
    guard hasDemand else { return }
    _ = downstream.receive(output)
    downstream.receive(completion: .finished)
  }
}

/// A subscription that reports each request before forwarding it.
private final class DemandTracker: Subscription, DescribedSubscription, @unchecked Sendable {
  let upstream: Subscription
  let onRequest: (Subscribers.Demand) -> Void

  init(upstream: Subscription, onRequest: @escaping (Subscribers.Demand) -> Void) {
    self.upstream = upstream
    self.onRequest = onRequest
  }

  var description: String { "ReplaceEmpty" }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    onRequest(demand)
    upstream.request(demand)
  }

  func cancel() { upstream.cancel() }
}

extension Publisher {
  /// Applies `nextPartialResult` to all elements and publishes the result when upstream finishes.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Reduce<Self, T>
  {
    Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// `reduce` with a throwing closure; a thrown error fails the publisher.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Collects all received elements, and emits a single array of the collection when upstream finishes.
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }

  /// Publishes the number of elements received from upstream, when it finishes.
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }

  /// Ignores all upstream elements, but passes along the completion.
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }

  /// Publishes the first element, then finishes (cancelling upstream).
  public func first() -> Publishers.FirstWhere<Self> {
    first { _ in true }
  }

  /// Publishes the first element that satisfies `predicate`, then finishes.
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the first element that satisfies a throwing predicate.
  public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last element, when upstream finishes.
  public func last() -> Publishers.LastWhere<Self> {
    last { _ in true }
  }

  /// Publishes the last element that satisfies `predicate`, when upstream finishes.
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last element that satisfies a throwing predicate.
  public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes whether any element satisfies `predicate`.
  public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }

  /// Publishes whether any element satisfies a throwing predicate.
  public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }

  /// Publishes whether every element satisfies `predicate`.
  public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }

  /// Publishes whether every element satisfies a throwing predicate.
  public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }

  /// Publishes the minimum element by `areInIncreasingOrder`, when upstream finishes.
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self) { kept, new in areInIncreasingOrder(new, kept) }
  }

  /// Publishes the maximum element by `areInIncreasingOrder`, when upstream finishes.
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self) { kept, new in areInIncreasingOrder(kept, new) }
  }

  /// Replaces an empty stream with `output` (sent before `.finished`).
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publisher where Output: Equatable {
  /// Publishes whether upstream emits `output`.
  public func contains(_ output: Output) -> Publishers.ContainsWhere<Self> {
    contains { $0 == output }
  }
}

extension Publisher where Output: Comparable {
  /// Publishes the minimum element, when upstream finishes.
  public func min() -> Publishers.Comparison<Self> { min(by: <) }

  /// Publishes the maximum element, when upstream finishes.
  public func max() -> Publishers.Comparison<Self> { max(by: <) }
}
