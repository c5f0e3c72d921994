/// A namespace for types that serve as publishers, as Combine's `Publishers`.
///
/// Every operator is a small value type holding its `upstream` and parameters (public, as in
/// Combine); subscribing to it subscribes to the upstream through an internal subscription.
public enum Publishers {}

/// What a one-value-at-a-time operator does with an upstream value.
enum TransformStep<Output, Failure: Error> {
  /// Send this value downstream; the downstream's returned demand goes upstream.
  case send(Output)
  /// Drop the value and ask upstream for one more.
  case skip
  /// Send this value, then finish and cancel upstream.
  case sendAndFinish(Output)
  /// Finish and cancel upstream.
  case finish
  /// Fail and cancel upstream.
  case fail(Failure)
}

/// The subscription behind the element-wise operators (`map`, `filter`, `prefix`, …): demand
/// passes straight through to upstream, each upstream value is transformed by a closure (called
/// without any lock held, once at a time as upstream delivers serially).
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class TransformSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = UpstreamFailure
  typealias Step = TransformStep<Downstream.Input, Downstream.Failure>

  private let lock = Lock()
  private let name: String
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var isTerminated = false
  private let transform: (Input) -> Step
  private let mapFailure: (UpstreamFailure) -> Downstream.Failure

  init(
    _ name: String, downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    transform: @escaping (Input) -> Step
  ) {
    self.name = name
    self.downstream = downstream
    self.mapFailure = mapFailure
    self.transform = transform
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror {
    Mirror(self, children: ["downstream": lock.withLock { downstream } as Any], displayStyle: .class)
  }

  func receive(subscription: Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard upstream == nil, !isTerminated else { return nil }
      upstream = subscription
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ isTerminated ? nil : self.downstream }) else { return .none }
    switch transform(input) {
    case .send(let value):
      return downstream.receive(value)
    case .skip:
      return .max(1)
    case .sendAndFinish(let value):
      guard let (downstream, upstream) = terminate() else { return .none }
      upstream?.cancel()
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .finish:
      guard let (downstream, upstream) = terminate() else { return .none }
      upstream?.cancel()
      downstream.receive(completion: .finished)
    case .fail(let error):
      guard let (downstream, upstream) = terminate() else { return .none }
      upstream?.cancel()
      downstream.receive(completion: .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard let (downstream, _) = terminate() else { return }
    downstream.receive(completion: completion.mapError(mapFailure))
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    terminate()?.1?.cancel()
  }

  /// Marks the subscription finished; returns the downstream and upstream the first time only.
  private func terminate() -> (Downstream, Subscription?)? {
    lock.withLock {
      guard !isTerminated, let downstream else { return nil }
      isTerminated = true
      let upstream = self.upstream
      self.downstream = nil
      self.upstream = nil
      return (downstream, upstream)
    }
  }
}

extension Publisher {
  /// Subscribes `subscriber` through a `TransformSubscription` that keeps the failure type.
  func subscribeTransforming<S: Subscriber>(
    _ name: String, _ subscriber: S, transform: @escaping (Output) -> TransformStep<S.Input, S.Failure>
  ) where S.Failure == Failure {
    subscribe(
      TransformSubscription<Output, Failure, S>(name, downstream: subscriber, mapFailure: { $0 }, transform: transform))
  }

  /// Subscribes `subscriber` through a `TransformSubscription` whose failure is `any Error`.
  func subscribeTryTransforming<S: Subscriber>(
    _ name: String, _ subscriber: S, transform: @escaping (Output) -> TransformStep<S.Input, Error>
  ) where S.Failure == Error {
    subscribe(
      TransformSubscription<Output, Failure, S>(name, downstream: subscriber, mapFailure: { $0 }, transform: transform))
  }
}

/// Runs a throwing closure, turning a thrown error into `.fail`.
func attempt<Output>(_ body: () throws -> TransformStep<Output, Error>) -> TransformStep<Output, Error> {
  do { return try body() } catch { return .fail(error) }
}

// MARK: - map, tryMap, compactMap, tryCompactMap

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a closure.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let transform = transform
      upstream.subscribeTransforming("Map", subscriber) { .send(transform($0)) }
    }
  }

  /// A publisher that transforms all elements from the upstream publisher with a throwing closure;
  /// a thrown error cancels upstream and fails downstream.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Error
    public let upstream: Upstream
    public let transform: (Upstream.Output) throws -> Output

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let transform = transform
      upstream.subscribeTryTransforming("TryMap", subscriber) { value in attempt { .send(try transform(value)) } }
    }
  }

  /// A publisher that republishes the non-`nil` results of calling a closure with each element.
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let transform: (Upstream.Output) -> Output?

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let transform = transform
      upstream.subscribeTransforming("CompactMap", subscriber) { value in
        transform(value).map { .send($0) } ?? .skip
      }
    }
  }

  /// A publisher that republishes the non-`nil` results of a throwing closure.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Error
    public let upstream: Upstream
    public let transform: (Upstream.Output) throws -> Output?

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let transform = transform
      upstream.subscribeTryTransforming("TryCompactMap", subscriber) { value in
        attempt { try transform(value).map { .send($0) } ?? .skip }
      }
    }
  }

  /// A publisher that publishes the values of a key path of each element.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let keyPath: KeyPath<Upstream.Output, Output>

    public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let keyPath = keyPath
      upstream.subscribeTransforming("ValueForKey", subscriber) { .send($0[keyPath: keyPath]) }
    }
  }

  /// A publisher that publishes the values of two key paths of each element, as a tuple.
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    public typealias Output = (Output0, Output1)
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (keyPath0, keyPath1) = (keyPath0, keyPath1)
      upstream.subscribeTransforming("ValueForKeys", subscriber) {
        .send(($0[keyPath: keyPath0], $0[keyPath: keyPath1]))
      }
    }
  }
}

extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided closure.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }

  /// Transforms all elements with a throwing closure; a thrown error fails the publisher.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }

  /// Publishes the non-`nil` results of calling `transform` with each element.
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
    Publishers.CompactMap(upstream: self, transform: transform)
  }

  /// Publishes the non-`nil` results of a throwing closure; a thrown error fails the publisher.
  public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }

  /// Publishes the value of a key path of each element.
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// Publishes the values of two key paths of each element, as a tuple.
  public func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> Publishers.MapKeyPath2<Self, T0, T1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// Replaces `nil` elements with `output`.
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    map { $0 ?? output }
  }
}

// MARK: - filter, tryFilter, removeDuplicates, tryRemoveDuplicates

extension Publishers {
  /// A publisher that republishes only the elements that satisfy `isIncluded`.
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let isIncluded: (Upstream.Output) -> Bool

    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let isIncluded = isIncluded
      upstream.subscribeTransforming("Filter", subscriber) { isIncluded($0) ? .send($0) : .skip }
    }
  }

  /// A publisher that republishes the elements that satisfy a throwing predicate.
  public struct TryFilter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let isIncluded: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let isIncluded = isIncluded
      upstream.subscribeTryTransforming("TryFilter", subscriber) { value in
        attempt { try isIncluded(value) ? .send(value) : .skip }
      }
    }
  }

  /// A publisher that publishes only elements that don't match the previous element.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// Returns `true` when the second element is a duplicate of the first.
    public let predicate: (Output, Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let predicate = predicate
      var previous: Output?
      upstream.subscribeTransforming("RemoveDuplicates", subscriber) { value in
        defer { previous = value }
        if let previous, predicate(previous, value) { return .skip }
        return .send(value)
      }
    }
  }

  /// A publisher that publishes only elements that don't match the previous element, with a
  /// throwing predicate.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Output, Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let predicate = predicate
      var previous: Output?
      upstream.subscribeTryTransforming("TryRemoveDuplicates", subscriber) { value in
        defer { previous = value }
        return attempt {
          if let previous, try predicate(previous, value) { return .skip }
          return .send(value)
        }
      }
    }
  }
}

extension Publisher {
  /// Republishes only the elements that match `isIncluded`.
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }

  /// Republishes the elements that match a throwing predicate; a thrown error fails the publisher.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }

  /// Publishes only elements that don't match the previous element, per `predicate`.
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }

  /// Publishes only elements that don't match the previous element, per a throwing predicate.
  public func tryRemoveDuplicates(
    by predicate: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryRemoveDuplicates<Self> {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publisher where Output: Equatable {
  /// Publishes only elements that differ from the previous element.
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    removeDuplicates(by: ==)
  }
}

// MARK: - mapError, setFailureType

extension Publishers {
  /// A publisher that converts any failure from the upstream publisher into a new error.
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    public typealias Output = Upstream.Output
    public let upstream: Upstream
    public let transform: (Upstream.Failure) -> Failure

    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TransformSubscription<Output, Upstream.Failure, S>(
          "MapError", downstream: subscriber, mapFailure: transform, transform: { .send($0) }))
    }
  }

  /// A publisher that appears to send a specified failure type (its upstream cannot fail).
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
    public typealias Output = Upstream.Output
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TransformSubscription<Output, Never, S>(
          "SetFailureType", downstream: subscriber, mapFailure: absurd, transform: { .send($0) }))
    }
  }
}

extension Publisher {
  /// Converts any failure from the upstream publisher into a new error.
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
    Publishers.MapError(upstream: self, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// Changes the failure type declared by the upstream publisher (it still never fails).
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
    Publishers.SetFailureType(upstream: self)
  }
}

// MARK: - scan, tryScan

extension Publishers {
  /// A publisher that publishes each intermediate result of accumulating the elements.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let initialResult: Output
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    public init(
      upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let next = nextPartialResult
      var accumulator = initialResult
      upstream.subscribeTransforming("Scan", subscriber) { value in
        accumulator = next(accumulator, value)
        return .send(accumulator)
      }
    }
  }

  /// A publisher that publishes each intermediate result of a throwing accumulation.
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Error
    public let upstream: Upstream
    public let initialResult: Output
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    public init(
      upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let next = nextPartialResult
      var accumulator = initialResult
      upstream.subscribeTryTransforming("TryScan", subscriber) { value in
        attempt {
          accumulator = try next(accumulator, value)
          return .send(accumulator)
        }
      }
    }
  }
}

extension Publisher {
  /// Publishes each accumulated result (`initialResult` combined with every element so far).
  public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T> {
    Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Publishes each result of a throwing accumulation; a thrown error fails the publisher.
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

/// Converts an impossible failure to any type.
func absurd<T>(_ never: Never) -> T {}
