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
/// `collect()`, `count`, `first`, `last`, `contains`, `allSatisfy`, `min`, `max`), as Combine
/// builds them: it requests `.unlimited` upstream once the subscriber has the subscription,
/// accumulates (the closure runs without any lock, once at a time), and publishes the result (if
/// any) followed by `.finished` once upstream is done *and* the subscriber has requested
/// something; a failure goes downstream at once. The accumulating closure is released when the
/// subscription terminates.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class ReduceSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = UpstreamFailure
  typealias Output = Downstream.Input

  let description: String
  private let lock = Lock()
  private let downstream: Downstream
  private let initial: Output?
  private var result: Output?
  private var accumulate: ((inout Output?, Input) -> ReduceStep<Downstream.Failure>)?
  private let mapFailure: (UpstreamFailure) -> Downstream.Failure
  private let mirror: ((Output?) -> [Mirror.Child])?
  private var status = UpstreamState.awaiting
  private var downstreamRequested = false
  private var cancelled = false
  private var completed = false
  private var upstreamCompleted = false

  init(
    _ name: String, downstream: Downstream, initial: Output?,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    mirror: ((Output?) -> [Mirror.Child])? = nil,
    accumulate: @escaping (inout Output?, Input) -> ReduceStep<Downstream.Failure>
  ) {
    description = name
    self.downstream = downstream
    self.initial = initial
    result = initial
    self.mapFailure = mapFailure
    self.mirror = mirror
    self.accumulate = accumulate
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    if let mirror { return Mirror(self, children: mirror(result)) }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("result", result as Any), ("initial", initial as Any), ("status", status),
    ]
    return Mirror(self, children: children)
  }

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
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed(let subscription) = status, let accumulate else {
      lock.unlock()
      return .none
    }
    // Moved out while accumulating, so a collection accumulator is not copied on each value.
    var result = self.result.take()
    lock.unlock()
    let step = accumulate(&result, input)
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    self.result = result
    switch step {
    case .continue:
      lock.unlock()
    case .finish:
      upstreamCompleted = true
      let send = downstreamRequested
      if send { completed = true }
      status = .terminal
      let released = self.accumulate.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      subscription.cancel()
      if send { sendResult(result) }
    case .fail(let error):
      upstreamCompleted = true
      completed = true
      status = .terminal
      let released = self.accumulate.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      subscription.cancel()
      downstream.receive(completion: .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    status = .terminal
    upstreamCompleted = true
    let released = accumulate.take()
    switch completion {
    case .finished:
      let send = downstreamRequested
      if send { completed = true }
      let result = self.result
      lock.unlock()
      withExtendedLifetime(released) {}
      if send { sendResult(result) }
    case .failure(let error):
      completed = true
      lock.unlock()
      withExtendedLifetime(released) {}
      downstream.receive(completion: .failure(mapFailure(error)))
    }
  }

  private func sendResult(_ result: Output?) {
    if let result { _ = downstream.receive(result) }
    downstream.receive(completion: .finished)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard !downstreamRequested, !cancelled, !completed else {
      lock.unlock()
      return
    }
    downstreamRequested = true
    guard upstreamCompleted else {
      lock.unlock()
      return
    }
    completed = true
    let result = self.result
    lock.unlock()
    sendResult(result)
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    cancelled = true
    status = .terminal
    let released = accumulate.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription.cancel()
  }
}

extension Publisher {
  /// Subscribes `subscriber` through a ``ReduceSubscription`` (same failure type).
  func subscribeReducing<S: Subscriber>(
    _ name: String, _ subscriber: S, initial: S.Input?, mirror: ((S.Input?) -> [Mirror.Child])? = nil,
    accumulate: @escaping (inout S.Input?, Output) -> ReduceStep<S.Failure>
  ) where S.Failure == Failure {
    subscribe(
      ReduceSubscription<Output, Failure, S>(
        name, downstream: subscriber, initial: initial, mapFailure: { $0 }, mirror: mirror, accumulate: accumulate))
  }

  /// Subscribes `subscriber` through a ``ReduceSubscription`` whose failure is `any Error`.
  func subscribeTryReducing<S: Subscriber>(
    _ name: String, _ subscriber: S, initial: S.Input?,
    accumulate: @escaping (inout S.Input?, Output) -> ReduceStep<Error>
  ) where S.Failure == Error {
    subscribe(
      ReduceSubscription<Output, Failure, S>(
        name, downstream: subscriber, initial: initial, mapFailure: { $0 }, accumulate: accumulate))
  }
}

/// Runs a throwing accumulation step, turning a thrown error into `.fail`.
@inline(__always)
func attemptStep(_ body: () throws -> ReduceStep<Error>) -> ReduceStep<Error> {
  do { return try body() } catch { return .fail(error) }
}

// MARK: - reduce, tryReduce

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
      upstream.subscribeReducing("Reduce", subscriber, initial: initial) { result, value in
        result = next(result!, value)
        return .continue
      }
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
      upstream.subscribeTryReducing("TryReduce", subscriber, initial: initial) { result, value in
        attemptStep {
          result = try next(result!, value)
          return .continue
        }
      }
    }
  }
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
}

// MARK: - collect(), count(), ignoreOutput()

/// `ignoreOutput`'s subscriber: passes the upstream subscription through, requests `.unlimited`
/// from it, drops every value and forwards the completion.
private struct IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Never {
  typealias Failure = Downstream.Failure
  let combineIdentifier = CombineIdentifier()
  let downstream: Downstream

  var description: String { "IgnoreOutput" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

extension Publishers {
  /// A publisher that buffers all elements and publishes them as one array when upstream finishes.
  public struct Collect<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribeReducing(
        "Collect", subscriber, initial: [], mirror: { [("count", $0?.count ?? 0)] },
        accumulate: { result, value in
          result!.append(value)
          return .continue
        })
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
      upstream.subscribeReducing("Count", subscriber, initial: 0) { result, _ in
        result! += 1
        return .continue
      }
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
      upstream.subscribe(IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
    }
  }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}
extension Publishers.Count: Equatable where Upstream: Equatable {}
extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
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
}

// MARK: - first, last

extension Publishers {
  /// A publisher that publishes the first element of a stream, then finishes (cancelling
  /// upstream); nothing if upstream finishes first.
  public struct First<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribeReducing("First", subscriber, initial: nil) { result, value in
        result = value
        return .finish
      }
    }
  }

  /// A publisher that publishes the first element matching a predicate (cancelling upstream), or
  /// nothing if upstream finishes first.
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
      // "TryFirst" is the description Combine gives this subscription.
      upstream.subscribeReducing("TryFirst", subscriber, initial: nil) { result, value in
        guard predicate(value) else { return .continue }
        result = value
        return .finish
      }
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
      upstream.subscribeTryReducing("TryFirstWhere", subscriber, initial: nil) { result, value in
        attemptStep {
          guard try predicate(value) else { return .continue }
          result = value
          return .finish
        }
      }
    }
  }

  /// A publisher that publishes the last element of a stream, when upstream finishes.
  public struct Last<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribeReducing("Last", subscriber, initial: nil) { result, value in
        result = value
        return .continue
      }
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
      upstream.subscribeReducing("LastWhere", subscriber, initial: nil) { result, value in
        if predicate(value) { result = value }
        return .continue
      }
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
      upstream.subscribeTryReducing("TryLastWhere", subscriber, initial: nil) { result, value in
        attemptStep {
          if try predicate(value) { result = value }
          return .continue
        }
      }
    }
  }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Publishes the first element, then finishes (cancelling upstream).
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
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
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }

  /// Publishes the last element that satisfies `predicate`, when upstream finishes.
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last element that satisfies a throwing predicate.
  public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

// MARK: - contains, allSatisfy

extension Publishers {
  /// A publisher that emits `true` (and cancels upstream) as soon as upstream emits `output`, or
  /// `false` when upstream finishes without it.
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The element to scan for in the upstream publisher.
    public let output: Upstream.Output

    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
      let output = output
      upstream.subscribeReducing("Contains", subscriber, initial: false) { result, value in
        guard value == output else { return .continue }
        result = true
        return .finish
      }
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
      upstream.subscribeReducing("ContainsWhere", subscriber, initial: false) { result, value in
        guard predicate(value) else { return .continue }
        result = true
        return .finish
      }
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
      upstream.subscribeTryReducing("TryContainsWhere", subscriber, initial: false) { result, value in
        attemptStep {
          guard try predicate(value) else { return .continue }
          result = true
          return .finish
        }
      }
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
      upstream.subscribeReducing("AllSatisfy", subscriber, initial: true) { result, value in
        guard !predicate(value) else { return .continue }
        result = false
        return .finish
      }
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
      upstream.subscribeTryReducing("TryAllSatisfy", subscriber, initial: true) { result, value in
        attemptStep {
          guard try !predicate(value) else { return .continue }
          result = false
          return .finish
        }
      }
    }
  }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
  /// Publishes whether upstream emits `output`.
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publisher {
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
}

// MARK: - min, max

extension Publishers {
  /// A publisher that publishes the element kept by a comparison when upstream finishes: an
  /// element replaces the kept one when `areInIncreasingOrder(kept, element)` is true (`max`;
  /// `min` passes the arguments swapped).
  public struct Comparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let replaces = areInIncreasingOrder
      upstream.subscribeReducing("Comparison", subscriber, initial: nil) { result, value in
        if let kept = result {
          if replaces(kept, value) { result = value }
        } else {
          result = value
        }
        return .continue
      }
    }
  }

  /// `Comparison` with a throwing closure (`tryMin(by:)`, `tryMax(by:)`).
  public struct TryComparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let replaces = areInIncreasingOrder
      upstream.subscribeTryReducing("TryComparison", subscriber, initial: nil) { result, value in
        attemptStep {
          if let kept = result {
            if try replaces(kept, value) { result = value }
          } else {
            result = value
          }
          return .continue
        }
      }
    }
  }
}

extension Publisher {
  /// Publishes the minimum element by `areInIncreasingOrder`, when upstream finishes.
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    max { areInIncreasingOrder($1, $0) }
  }

  /// Publishes the minimum element by a throwing `areInIncreasingOrder`.
  public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    tryMax { try areInIncreasingOrder($1, $0) }
  }

  /// Publishes the maximum element by `areInIncreasingOrder`, when upstream finishes.
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// Publishes the maximum element by a throwing `areInIncreasingOrder`.
  public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publisher where Output: Comparable {
  /// Publishes the minimum element, when upstream finishes.
  public func min() -> Publishers.Comparison<Self> { max(by: >) }

  /// Publishes the maximum element, when upstream finishes.
  public func max() -> Publishers.Comparison<Self> { max(by: <) }
}

// MARK: - replaceEmpty

/// The subscription of `replaceEmpty(with:)`: requests `.unlimited` upstream (and passes the
/// subscriber's requests on too, as Combine does); if upstream finishes without a value, sends
/// the replacement (once the subscriber has requested something) before `.finished`.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let output: Input
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var receivedUpstream = false
  private var downstreamRequested = false
  private var finishedWithoutUpstream = false

  init(downstream: Downstream, output: Input) {
    self.downstream = downstream
    self.output = output
  }

  var description: String { "ReplaceEmpty" }
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
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    receivedUpstream = true
    lock.unlock()
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    status = .terminal
    guard !receivedUpstream, case .finished = completion else {
      lock.unlock()
      downstream.receive(completion: completion)
      return
    }
    guard downstreamRequested else {
      finishedWithoutUpstream = true
      lock.unlock()
      return
    }
    lock.unlock()
    _ = downstream.receive(output)
    downstream.receive(completion: .finished)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    downstreamRequested = true
    if finishedWithoutUpstream {
      finishedWithoutUpstream = false
      lock.unlock()
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
      return
    }
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
  /// A publisher that replaces an empty stream with the provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    /// The element to deliver when the upstream publisher finishes without delivering any elements.
    public let output: Upstream.Output
    public let upstream: Upstream

    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReplaceEmptySubscription(downstream: subscriber, output: output))
    }
  }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
  /// Replaces an empty stream with `output` (sent before `.finished`).
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}
