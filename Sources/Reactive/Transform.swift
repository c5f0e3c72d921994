/// A namespace for types that serve as publishers, as Combine's `Publishers`.
///
/// Every operator is a small value type holding its `upstream` and parameters (public, as in
/// Combine); subscribing to it subscribes to the upstream through an internal subscriber.
public enum Publishers {}

// MARK: - Pass-through subscribers

/// The subscriber behind the operators that Combine implements without a subscription of their
/// own (`map`, `filter`, `compactMap`, `mapError`, `setFailureType`, `map` with key paths): it
/// hands the upstream subscription straight to the downstream (so demand and cancellation go
/// upstream untouched, and the downstream sees the upstream's subscription), transforms each
/// value with `step`, and forwards the completion. The demand the downstream returns from
/// `receive(_:)` goes back upstream as is; a value `step` drops returns `.max(1)`, so upstream
/// replaces it. Like Combine's, it keeps forwarding whatever upstream sends, also after a
/// completion (a misbehaving upstream is not policed).
@usableFromInline
struct PassThroughSubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let combineIdentifier = CombineIdentifier()
  @usableFromInline let description: String
  @usableFromInline let downstream: Downstream
  @usableFromInline let step: (Input) -> Downstream.Input?
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure

  @inlinable
  init(
    _ name: String, downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    step: @escaping (Input) -> Downstream.Input?
  ) {
    description = name
    self.downstream = downstream
    self.mapFailure = mapFailure
    self.step = step
  }

  @inlinable
  var playgroundDescription: Any { description }
  @inlinable
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @inlinable
  func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    guard let output = step(input) else { return .max(1) }
    return downstream.receive(output)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    switch completion {
    case .finished: downstream.receive(completion: .finished)
    case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
    }
  }
}

/// `map`'s subscriber: ``PassThroughSubscriber`` without the optional, for the fastest path.
@usableFromInline
struct MapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let combineIdentifier = CombineIdentifier()
  @usableFromInline let downstream: Downstream
  @usableFromInline let transform: (Input) -> Downstream.Input

  @inlinable
  init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  var description: String { "Map" }
  @inlinable
  var playgroundDescription: Any { description }
  @inlinable
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @inlinable
  func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(transform(input)) }
  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

// MARK: - Subscribers with a subscription of their own

/// What a filtering operator does with one upstream value.
@usableFromInline
enum FilterStep<Output, Failure: Error> {
  /// Send this value downstream; the downstream's returned demand goes upstream.
  case send(Output)
  /// Drop the value; upstream is asked for one more (`.max(1)` returned).
  case drop
  /// Cancel upstream and finish.
  case finish
  /// Cancel upstream and fail.
  case fail(Failure)
}

/// The rule of a filtering operator, kept by ``FilterSubscription`` until it terminates (then
/// released with whatever its closures capture).
@usableFromInline
protocol FilterRule {
  associatedtype Input
  associatedtype Output
  associatedtype Failure: Error
  /// Applies the rule to one upstream value (called without any lock held, one value at a time).
  mutating func apply(_ input: Input) -> FilterStep<Output, Failure>
  /// Extra mirror children after "downstream".
  var mirrorChildren: [Mirror.Child] { get }
}

extension FilterRule {
  @inlinable
  var mirrorChildren: [Mirror.Child] { [] }
}

/// The subscription of the throwing or stateful filters (`tryFilter`, `tryCompactMap`,
/// `removeDuplicates`, `tryRemoveDuplicates`), as Combine builds them: it stands between the
/// upstream subscription and the downstream; a dropped value returns `.max(1)`, a sent one the
/// downstream's demand; a thrown error cancels upstream and fails downstream. After termination
/// (completion, failure or cancel) it ignores upstream and releases the rule.
/// A value, completion or request before the upstream subscription arrived is a violation of the
/// protocol and traps, as in Combine.
///
/// `@unchecked Sendable`: the state is guarded by a lock; the rule runs without it, once at a time
/// as upstream delivers serially.
@usableFromInline
final class FilterSubscription<Rule: FilterRule, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Rule.Output == Downstream.Input, Rule.Failure == Downstream.Failure {
  @usableFromInline typealias Input = Rule.Input
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let description: String
  @usableFromInline let lock = Lock()
  @usableFromInline @exclusivity(unchecked) var status = UpstreamState.awaiting
  @usableFromInline let downstream: Downstream
  @usableFromInline @exclusivity(unchecked) var rule: Rule?
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure

  @inlinable
  init(
    _ name: String, rule: Rule, downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
  ) {
    description = name
    self.rule = rule
    self.downstream = downstream
    self.mapFailure = mapFailure
  }

  @inlinable
  var playgroundDescription: Any { description }
  @inlinable
  var customMirror: Mirror {
    lock.lock()
    let children: [Mirror.Child] = [(label: "downstream", value: downstream as Any)] + (rule?.mirrorChildren ?? [])
    lock.unlock()
    return Mirror(self, children: children)
  }

  @inlinable
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

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed(let subscription) = status, var rule else {
      let awaiting = status.isAwaiting
      lock.unlock()
      precondition(!awaiting, "received a value before the subscription")
      return .none
    }
    lock.unlock()
    let step = rule.apply(input)
    lock.lock()
    if status.isSubscribed { self.rule = rule }
    lock.unlock()
    switch step {
    case .send(let output):
      return downstream.receive(output)
    case .drop:
      return .max(1)
    case .finish:
      guard terminate() else { return .none }
      subscription.cancel()
      downstream.receive(completion: .finished)
    case .fail(let error):
      guard terminate() else { return .none }
      subscription.cancel()
      downstream.receive(completion: .failure(error))
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else {
      let awaiting = status.isAwaiting
      lock.unlock()
      precondition(!awaiting, "received a completion before the subscription")
      return
    }
    lock.unlock()
    guard terminate() else { return }
    downstream.receive(completion: completion.mapError(mapFailure))
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let awaiting = status.isAwaiting
    let subscription = status.subscription
    lock.unlock()
    precondition(!awaiting, "requested values before the subscription")
    subscription?.request(demand)
  }

  @inlinable
  func cancel() {
    lock.lock()
    let subscription = status.subscription
    lock.unlock()
    guard terminate() else { return }
    subscription?.cancel()
  }

  /// Marks the subscription terminated and releases the rule and the upstream subscription
  /// (outside the lock); false if it already was. The downstream stays referenced until this
  /// subscription is released, as in Combine.
  @inlinable
  func terminate() -> Bool {
    lock.lock()
    if case .terminal = status {
      lock.unlock()
      return false
    }
    let previous = status
    status = .terminal
    let released = rule.take()
    lock.unlock()
    withExtendedLifetime((previous, released)) {}
    return true
  }
}

/// The subscription of the throwing transforms that Combine builds without state (`tryMap`,
/// `tryScan`): a thrown error cancels upstream and fails downstream. As in Combine, it goes on
/// transforming and forwarding what a misbehaving upstream sends after that (another thrown error
/// is another failure); a completion is forwarded only while subscribed; requests and
/// cancellation go upstream while subscribed.
///
/// `@unchecked Sendable`: the state is guarded by a lock; the closure runs without it.
final class TryTransformSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == Error {
  typealias Failure = UpstreamFailure

  let description: String
  private let lock = Lock()
  private var status = UpstreamState.awaiting
  private let downstream: Downstream
  private let transform: (Input) throws -> Downstream.Input
  private let mirror: () -> [Mirror.Child]

  init(
    _ name: String, downstream: Downstream, mirror: @escaping () -> [Mirror.Child] = { [] },
    transform: @escaping (Input) throws -> Downstream.Input
  ) {
    description = name
    self.downstream = downstream
    self.transform = transform
    self.mirror = mirror
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: mirror()) }

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
    do {
      return downstream.receive(try transform(input))
    } catch {
      lock.lock()
      let previous = status
      status = .terminal
      lock.unlock()
      previous.subscription?.cancel()
      downstream.receive(completion: .failure(error))
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    let previous = status
    status = .terminal
    lock.unlock()
    withExtendedLifetime(previous) {}
    downstream.receive(completion: completion.erased)
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

// MARK: - map, tryMap

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a closure. Its
  /// subscriber passes the upstream subscription through, and the downstream's demand back.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(MapSubscriber(downstream: subscriber, transform: transform))
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
      upstream.subscribe(
        TryTransformSubscription<Upstream.Output, Upstream.Failure, S>(
          "TryMap", downstream: subscriber, transform: transform))
    }
  }
}

extension Publishers.Map {
  /// `map` on a `map`: one `Map` applying both closures (Combine's specialisation).
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map(upstream: upstream) { transform(first($0)) }
  }

  /// `tryMap` on a `map`: one `TryMap` applying both closures.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }
}

extension Publishers.TryMap {
  /// `map` on a `tryMap`: one `TryMap` applying both closures.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// `tryMap` on a `tryMap`: one `TryMap` applying both closures.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
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

  /// Replaces `nil` elements with `output`.
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    Publishers.Map(upstream: self) { $0 ?? output }
  }
}

// MARK: - map with key paths

extension Publishers {
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
      upstream.subscribe(
        PassThroughSubscriber<Upstream.Output, Failure, S>("ValueForKey", downstream: subscriber, mapFailure: { $0 }) {
          $0[keyPath: keyPath]
        })
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
      upstream.subscribe(
        PassThroughSubscriber<Upstream.Output, Failure, S>("ValueForKeys", downstream: subscriber, mapFailure: { $0 }) {
          ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
        })
    }
  }

  /// A publisher that publishes the values of three key paths of each element, as a tuple.
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    public typealias Output = (Output0, Output1, Output2)
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    public let keyPath1: KeyPath<Upstream.Output, Output1>
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>,
      keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (keyPath0, keyPath1, keyPath2) = (keyPath0, keyPath1, keyPath2)
      upstream.subscribe(
        PassThroughSubscriber<Upstream.Output, Failure, S>("ValueForKeys", downstream: subscriber, mapFailure: { $0 }) {
          ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
        })
    }
  }
}

extension Publisher {
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

  /// Publishes the values of three key paths of each element, as a tuple.
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

// MARK: - compactMap, tryCompactMap

/// `tryCompactMap`'s rule.
struct TryCompactMapRule<Input, Output>: FilterRule {
  let transform: (Input) throws -> Output?

  func apply(_ input: Input) -> FilterStep<Output, Error> {
    do {
      return try transform(input).map { .send($0) } ?? .drop
    } catch {
      return .fail(error)
    }
  }
}

extension Publishers {
  /// A publisher that republishes the non-`nil` results of calling a closure with each element;
  /// a `nil` result asks upstream for one more value (`.max(1)`).
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let transform: (Upstream.Output) -> Output?

    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        PassThroughSubscriber<Upstream.Output, Failure, S>(
          "CompactMap", downstream: subscriber, mapFailure: { $0 }, step: transform))
    }
  }

  /// A publisher that republishes the non-`nil` results of a throwing closure; a thrown error
  /// cancels upstream and fails downstream.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Error
    public let upstream: Upstream
    public let transform: (Upstream.Output) throws -> Output?

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      upstream.subscribe(
        FilterSubscription<TryCompactMapRule<Upstream.Output, Output>, Upstream.Failure, S>(
          "TryCompactMap", rule: TryCompactMapRule(transform: transform), downstream: subscriber, mapFailure: { $0 }))
    }
  }
}

extension Publishers.CompactMap {
  /// `compactMap` on a `compactMap`: one `CompactMap` (Combine's specialisation).
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
  }

  /// `map` on a `compactMap`: one `CompactMap`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
  }
}

extension Publishers.TryCompactMap {
  /// `compactMap` (with a throwing closure) on a `tryCompactMap`: one `TryCompactMap`.
  public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
  }
}

extension Publisher {
  /// Publishes the non-`nil` results of calling `transform` with each element.
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
    Publishers.CompactMap(upstream: self, transform: transform)
  }

  /// Publishes the non-`nil` results of a throwing closure; a thrown error fails the publisher.
  public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

// MARK: - filter, tryFilter

/// `tryFilter`'s rule.
struct TryFilterRule<Input>: FilterRule {
  let isIncluded: (Input) throws -> Bool

  func apply(_ input: Input) -> FilterStep<Input, Error> {
    do {
      return try isIncluded(input) ? .send(input) : .drop
    } catch {
      return .fail(error)
    }
  }
}

extension Publishers {
  /// A publisher that republishes only the elements that satisfy `isIncluded`; a dropped
  /// element asks upstream for one more (`.max(1)`).
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let isIncluded: (Upstream.Output) -> Bool

    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let isIncluded = isIncluded
      upstream.subscribe(
        PassThroughSubscriber<Output, Failure, S>("Filter", downstream: subscriber, mapFailure: { $0 }) {
          isIncluded($0) ? $0 : nil
        })
    }
  }

  /// A publisher that republishes the elements that satisfy a throwing predicate; a thrown error
  /// cancels upstream and fails downstream.
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
      upstream.subscribe(
        FilterSubscription<TryFilterRule<Output>, Upstream.Failure, S>(
          "TryFilter", rule: TryFilterRule(isIncluded: isIncluded), downstream: subscriber, mapFailure: { $0 }))
    }
  }
}

extension Publishers.Filter {
  /// `filter` on a `filter`: one `Filter` requiring both predicates (Combine's specialisation).
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = self.isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
  }

  /// `tryFilter` on a `filter`: one `TryFilter` requiring both predicates.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

extension Publishers.TryFilter {
  /// `filter` on a `tryFilter`: one `TryFilter` requiring both predicates.
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  /// `tryFilter` on a `tryFilter`: one `TryFilter` requiring both predicates.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
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
}

// MARK: - removeDuplicates, tryRemoveDuplicates

/// `removeDuplicates`' rule: drops an element the predicate calls a duplicate of the previous one.
@usableFromInline
struct RemoveDuplicatesRule<Input, Failure: Error>: FilterRule {
  @usableFromInline let predicate: (Input, Input) -> Bool
  @usableFromInline var last: Input?

  @inlinable
  init(predicate: @escaping (Input, Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  mutating func apply(_ input: Input) -> FilterStep<Input, Failure> {
    defer { last = input }
    guard let last else { return .send(input) }
    return predicate(last, input) ? .drop : .send(input)
  }

  @inlinable
  var mirrorChildren: [Mirror.Child] { [("last", last as Any)] }
}

/// `tryRemoveDuplicates`' rule.
struct TryRemoveDuplicatesRule<Input>: FilterRule {
  let predicate: (Input, Input) throws -> Bool
  var last: Input?

  mutating func apply(_ input: Input) -> FilterStep<Input, Error> {
    defer { last = input }
    guard let last else { return .send(input) }
    do {
      return try predicate(last, input) ? .drop : .send(input)
    } catch {
      return .fail(error)
    }
  }

  var mirrorChildren: [Mirror.Child] { [("last", last as Any)] }
}

extension Publishers {
  /// A publisher that publishes only elements that don't match the previous element; a dropped
  /// element asks upstream for one more (`.max(1)`).
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// Returns `true` when the second element is a duplicate of the first.
    public let predicate: (Output, Output) -> Bool

    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        FilterSubscription<RemoveDuplicatesRule<Output, Failure>, Failure, S>(
          "RemoveDuplicates", rule: RemoveDuplicatesRule(predicate: predicate), downstream: subscriber,
          mapFailure: { $0 }))
    }
  }

  /// A publisher that publishes only elements that don't match the previous element, with a
  /// throwing predicate; a thrown error cancels upstream and fails downstream.
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
      upstream.subscribe(
        FilterSubscription<TryRemoveDuplicatesRule<Output>, Upstream.Failure, S>(
          "TryRemoveDuplicates", rule: TryRemoveDuplicatesRule(predicate: predicate), downstream: subscriber,
          mapFailure: { $0 }))
    }
  }
}

extension Publisher {
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

    /// Creates the publisher, with the new failure type spelled out.
    public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
      self.init(upstream: upstream, transform: map)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        PassThroughSubscriber<Output, Upstream.Failure, S>(
          "MapError", downstream: subscriber, mapFailure: transform, step: { $0 }))
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
        PassThroughSubscriber<Output, Never, S>(
          "SetFailureType", downstream: subscriber, mapFailure: absurd, step: { $0 }))
    }

    /// Another failure type for the same upstream (Combine's specialisation).
    public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
      Publishers.SetFailureType<Upstream, E>(upstream: upstream)
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

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

/// `scan`'s subscriber: passes the upstream subscription through and sends each accumulated
/// result (a class: it keeps the accumulator).
@usableFromInline
final class ScanSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline typealias Failure = Downstream.Failure
  @usableFromInline let downstream: Downstream
  @usableFromInline let nextPartialResult: (Downstream.Input, Input) -> Downstream.Input
  @usableFromInline @exclusivity(unchecked) var result: Downstream.Input

  @inlinable
  init(
    downstream: Downstream, initialResult: Downstream.Input,
    nextPartialResult: @escaping (Downstream.Input, Input) -> Downstream.Input
  ) {
    self.downstream = downstream
    result = initialResult
    self.nextPartialResult = nextPartialResult
  }

  @inlinable
  var description: String { "Scan" }
  @inlinable
  var playgroundDescription: Any { description }
  @inlinable
  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream, "result": result]) }

  @inlinable
  func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    result = nextPartialResult(result, input)
    return downstream.receive(result)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// The accumulator of `tryScan` (read by the mirror).
private final class Accumulator<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

extension Publishers {
  /// A publisher that publishes each intermediate result of accumulating the elements.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let initialResult: Output
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    @inlinable
    public init(
      upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ScanSubscriber(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
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
      let accumulator = Accumulator(initialResult)
      upstream.subscribe(
        TryTransformSubscription<Upstream.Output, Upstream.Failure, S>(
          "TryScan", downstream: subscriber,
          mirror: { [("downstream", subscriber), ("result", accumulator.value)] },
          transform: { value in
            accumulator.value = try next(accumulator.value, value)
            return accumulator.value
          }))
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
