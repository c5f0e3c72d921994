/// The subscription of a publisher of (at most) one prepared value, as Combine's `Just`,
/// `Optional.Publisher` and `Result.Publisher` hand out: the first request delivers the value,
/// then `.finished`; a cancel before that releases the subscriber.
///
/// `@unchecked Sendable`: the subscriber is taken under a lock (Combine uses none here; the lock
/// only makes a request racing a cancel safe).
final class OneValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  private let lock = Lock()
  private let name: String
  private let value: Downstream.Input
  private var downstream: Downstream?

  init(_ name: String, value: Downstream.Input, downstream: Downstream) {
    self.name = name
    self.value = value
    self.downstream = downstream
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(value)) }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let downstream = self.downstream.take()
    lock.unlock()
    guard let downstream else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  func cancel() {
    lock.lock()
    let downstream = self.downstream.take()
    lock.unlock()
    withExtendedLifetime(downstream) {}
  }
}

// MARK: - Just

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
    subscriber.receive(subscription: OneValueSubscription("Just", value: output, downstream: subscriber))
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

// Combine's specialisations: operators on `Just` that compute their result at once and return a
// simpler publisher of it (same values, no subscription machinery).
extension Just where Output: Comparable {
  public func min() -> Just<Output> { self }
  public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
  public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }
  public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(Result { try predicate(output) })
  }

  public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

  public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
    Publishers.Sequence(sequence: elements + [output])
  }

  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

  public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
    Publishers.Sequence(sequence: [output] + elements)
  }

  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(Result { try predicate(output) })
  }

  public func count() -> Just<Int> { Just<Int>(1) }

  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    precondition(count >= 0, "count must not be negative")
    return Optional<Output>.Publisher(count > 0 ? nil : output)
  }

  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  public func first() -> Just<Output> { self }

  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  public func last() -> Just<Output> { self }

  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(isIncluded(output) ? output : nil)
  }

  public func ignoreOutput() -> Empty<Output, Never> { Empty() }

  public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(Result { try transform(output) })
  }

  public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  public func output(at index: Int) -> Optional<Output>.Publisher {
    precondition(index >= 0, "index must not be negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
    let range = range.relative(to: 0..<Int.max)
    precondition(range.lowerBound >= 0, "lowerBound must not be negative")
    return Optional<Output>.Publisher(range.lowerBound == 0 && !range.isEmpty ? output : nil)
  }

  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    precondition(maxLength >= 0, "maxLength must not be negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
    Result<Output, Error>.Publisher(
      Result {
        _ = try predicate(output, output)
        return output
      })
  }

  public func replaceError(with output: Output) -> Just<Output> { self }
  public func replaceEmpty(with output: Output) -> Just<Output> { self }
  public func retry(_ times: Int) -> Just<Output> { self }

  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }
}

// MARK: - Fail, Empty

/// A publisher that immediately terminates with the specified error, as Combine's `Fail`
/// (with ``Subscriptions/empty``).
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

extension Fail: Equatable where Failure: Equatable {
  public static func == (lhs: Fail, rhs: Fail) -> Bool { lhs.error == rhs.error }
}
extension Fail: Sendable where Failure: Sendable {}

/// A publisher that never publishes any values, and optionally finishes immediately, as
/// Combine's `Empty` (with ``Subscriptions/empty``).
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

// MARK: - Future

/// A publisher that eventually produces a single value and then finishes or fails, as
/// Combine's `Future`.
///
/// The closure runs once, immediately, in `init` (on the calling thread); it receives a promise to
/// call (from any thread) with the result; only the first call counts. Every subscriber, also a
/// late one, receives that result: a value once it has demand, followed by `.finished`; or the
/// failure, whatever its demand. A subscription is dropped by the future when it is cancelled or
/// served, so nothing of a subscriber is kept after that.
///
/// Differences from Combine: `Promise` is `@Sendable`, so it can be called from a `Task` or
/// another queue under Swift 6 strict concurrency.
///
/// `@unchecked Sendable`: the result and subscriber list are guarded by a lock.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  /// The closure type that completes the future (only the first call counts).
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  fileprivate let lock = Lock()
  fileprivate var result: Result<Output, Failure>?
  private var conduits: [FutureConduitBase<Output, Failure>] = []

  /// Creates a publisher and runs `attemptToFulfill` with its promise.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    lock.lock()
    guard self.result == nil else {
      lock.unlock()
      return
    }
    self.result = result
    let conduits = self.conduits
    self.conduits = []
    lock.unlock()
    for conduit in conduits { conduit.fulfill(result) }
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = FutureConduit(parent: self, downstream: subscriber)
    lock.lock()
    let result = self.result
    conduits.append(conduit)
    lock.unlock()
    subscriber.receive(subscription: conduit)
    if let result { conduit.fulfill(result) }
  }

  fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
    lock.lock()
    let index = conduits.firstIndex { $0 === conduit }
    let removed = index.map { conduits.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }
}

/// What a `Future` keeps of one subscriber.
private class FutureConduitBase<Output, Failure: Error>: Subscription, @unchecked Sendable {
  func fulfill(_ result: Result<Output, Failure>) {}
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
}

/// The subscription a `Future` hands to each subscriber. `@unchecked Sendable`: its state is
/// guarded by a lock; calls into the subscriber are serialised by a recursive lock.
private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Parent = Future<Downstream.Input, Downstream.Failure>
  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private var parent: Parent?
  private var downstream: Downstream?
  private var hasAnyDemand = false

  init(parent: Parent, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  var description: String { "Future" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("parent", parent as Any), ("downstream", downstream as Any), ("hasAnyDemand", hasAnyDemand),
      ("subject", parent as Any),
    ]
    return Mirror(self, children: children)
  }

  private func deliver(_ result: Result<Downstream.Input, Downstream.Failure>, to downstream: Downstream) {
    downstreamLock.lock()
    switch result {
    case .success(let output):
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
    downstreamLock.unlock()
  }

  override func fulfill(_ result: Result<Downstream.Input, Downstream.Failure>) {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    if case .success = result, !hasAnyDemand {
      lock.unlock()
      return
    }
    self.downstream = nil
    hasAnyDemand = false
    lock.unlock()
    deliver(result, to: downstream)
    lock.lock()
    let parent = self.parent.take()
    lock.unlock()
    parent?.remove(self)
  }

  override func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    hasAnyDemand = true
    guard let parent, let result = parent.lock.withLock({ parent.result }) else {
      lock.unlock()
      return
    }
    self.downstream = nil
    hasAnyDemand = false
    lock.unlock()
    deliver(result, to: downstream)
    parent.remove(self)
  }

  override func cancel() {
    lock.lock()
    guard let downstream = self.downstream.take() else {
      lock.unlock()
      return
    }
    hasAnyDemand = false
    let parent = self.parent.take()
    lock.unlock()
    parent?.remove(self)
    withExtendedLifetime(downstream) {}
  }
}

// MARK: - Deferred

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
    createPublisher().subscribe(subscriber)
  }
}

// MARK: - Optional.Publisher

extension Optional {
  /// A publisher of this optional: its value, if any, then `.finished`.
  public var publisher: Publisher { Publisher(self) }

  /// A publisher that publishes an optional value to each subscriber exactly once (if it is not
  /// `nil`), then finishes, as Combine's `Optional.Publisher`. `nil` finishes at once, with
  /// ``Subscriptions/empty``.
  public struct Publisher: Reactive.Publisher {
    public typealias Output = Wrapped
    public typealias Failure = Never

    /// The value to deliver to each subscriber (`nil`: none).
    public let output: Wrapped?

    /// Creates a publisher of `output` (none for `nil`).
    public init(_ output: Wrapped?) {
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
      if let output {
        subscriber.receive(subscription: OneValueSubscription("Optional", value: output, downstream: subscriber))
      } else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
      }
    }
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}

extension Optional.Publisher where Wrapped: Equatable {
  public func contains(_ output: Wrapped) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output.map { $0 == output })
  }

  public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
  public func min() -> Optional<Wrapped>.Publisher { self }
  public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
  public func allSatisfy(_ predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  public func collect() -> Optional<[Wrapped]>.Publisher {
    Optional<[Wrapped]>.Publisher(output.map { [$0] } ?? [])
  }

  public func compactMap<T>(_ transform: (Wrapped) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  public func min(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }
  public func max(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }

  public func contains(where predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output.map { _ in 1 })
  }

  public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
    precondition(count >= 0, "count must not be negative")
    return Optional<Wrapped>.Publisher(count == 0 ? output : nil)
  }

  public func drop(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
    Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  public func first() -> Optional<Wrapped>.Publisher { self }

  public func first(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
    Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  public func last() -> Optional<Wrapped>.Publisher { self }

  public func last(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
    Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  public func filter(_ isIncluded: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
    Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  public func ignoreOutput() -> Empty<Wrapped, Never> { Empty() }

  public func map<T>(_ transform: (Wrapped) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  public func output(at index: Int) -> Optional<Wrapped>.Publisher {
    precondition(index >= 0, "index must not be negative")
    return Optional<Wrapped>.Publisher(output.flatMap { index == 0 ? $0 : nil })
  }

  public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
    let range = range.relative(to: 0..<Int.max)
    precondition(range.lowerBound >= 0, "lowerBound must not be negative")
    return Optional<Wrapped>.Publisher(output.flatMap { range.lowerBound == 0 && !range.isEmpty ? $0 : nil })
  }

  public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
    precondition(maxLength >= 0, "maxLength must not be negative")
    return Optional<Wrapped>.Publisher(output.flatMap { maxLength > 0 ? $0 : nil })
  }

  public func prefix(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
    Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  public func removeDuplicates(by predicate: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher { self }

  public func replaceError(with output: Wrapped) -> Optional<Wrapped>.Publisher { self }

  public func replaceEmpty(with output: Wrapped) -> Just<Wrapped> { Just(self.output ?? output) }

  public func retry(_ times: Int) -> Optional<Wrapped>.Publisher { self }

  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }
}

// MARK: - Result.Publisher

extension Result {
  /// A publisher of this result.
  public var publisher: Publisher { Publisher(self) }

  /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails
  /// immediately without producing any elements, as Combine's `Result.Publisher`.
  public struct Publisher: Reactive.Publisher {
    public typealias Output = Success

    /// The result to deliver to each subscriber.
    public let result: Result<Success, Failure>

    /// Creates a publisher of `result`.
    public init(_ result: Result<Success, Failure>) {
      self.result = result
    }

    /// Creates a publisher that sends `output` once, then finishes.
    public init(_ output: Output) {
      self.init(.success(output))
    }

    /// Creates a publisher that immediately fails with `failure`.
    public init(_ failure: Failure) {
      self.init(.failure(failure))
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
      switch result {
      case .success(let value):
        subscriber.receive(subscription: OneValueSubscription("Once", value: value, downstream: subscriber))
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}

extension Result.Publisher where Success: Equatable {
  public func contains(_ output: Success) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map { $0 == output })
  }

  public func removeDuplicates() -> Result<Success, Failure>.Publisher { self }
}

extension Result.Publisher where Success: Comparable {
  public func min() -> Result<Success, Failure>.Publisher { self }
  public func max() -> Result<Success, Failure>.Publisher { self }
}

extension Result.Publisher {
  /// `result` with a throwing transform of its success: a thrown error becomes the failure.
  private func tryMapResult<T>(_ transform: (Success) throws -> T) -> Result<T, Error> {
    switch result {
    case .success(let value): Result<T, Error> { try transform(value) }
    case .failure(let error): .failure(error)
    }
  }

  public func allSatisfy(_ predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  public func tryAllSatisfy(_ predicate: (Success) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(tryMapResult(predicate))
  }

  public func collect() -> Result<[Success], Failure>.Publisher {
    Result<[Success], Failure>.Publisher(result.map { [$0] })
  }

  public func min(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher { self }

  public func tryMin(by areInIncreasingOrder: (Success, Success) throws -> Bool) -> Result<Success, Error>.Publisher {
    Result<Success, Error>.Publisher(
      tryMapResult {
        _ = try areInIncreasingOrder($0, $0)
        return $0
      })
  }

  public func max(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher { self }

  public func tryMax(by areInIncreasingOrder: (Success, Success) throws -> Bool) -> Result<Success, Error>.Publisher {
    Result<Success, Error>.Publisher(
      tryMapResult {
        _ = try areInIncreasingOrder($0, $0)
        return $0
      })
  }

  public func contains(where predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  public func tryContains(where predicate: (Success) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(tryMapResult(predicate))
  }

  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(result.map { _ in 1 })
  }

  public func first() -> Result<Success, Failure>.Publisher { self }
  public func last() -> Result<Success, Failure>.Publisher { self }

  public func ignoreOutput() -> Empty<Success, Failure> { Empty() }

  public func map<T>(_ transform: (Success) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map(transform))
  }

  public func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(tryMapResult(transform))
  }

  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Success, E>.Publisher {
    Result<Success, E>.Publisher(result.mapError(transform))
  }

  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Success) throws -> T
  ) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }

  public func removeDuplicates(by predicate: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher {
    self
  }

  public func tryRemoveDuplicates(by predicate: (Success, Success) throws -> Bool) -> Result<Success, Error>.Publisher {
    Result<Success, Error>.Publisher(
      tryMapResult {
        _ = try predicate($0, $0)
        return $0
      })
  }

  public func replaceError(with output: Success) -> Result<Success, Never>.Publisher {
    Result<Success, Never>.Publisher(.success(result.value(or: output)))
  }

  public func replaceEmpty(with output: Success) -> Result<Success, Failure>.Publisher { self }
  public func retry(_ times: Int) -> Result<Success, Failure>.Publisher { self }

  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Success) throws -> T
  ) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }
}

extension Result.Publisher where Failure == Never {
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Success, E>.Publisher {
    switch result {
    case .success(let value): Result<Success, E>.Publisher(value)
    }
  }
}

extension Result {
  /// The success value, or `fallback` for a failure.
  fileprivate func value(or fallback: @autoclosure () -> Success) -> Success {
    switch self {
    case .success(let value): value
    case .failure: fallback()
    }
  }
}
