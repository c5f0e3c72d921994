/// The subscription behind `flatMap`, `switchToLatest` and `merge`: it subscribes to inner
/// publishers, asks each for one value at a time, and delivers them downstream as demand allows.
///
/// Delivery is serialised by a drain loop (whichever thread finds work delivers it, others only
/// queue); no lock is held while calling out, so re-entrant calls never deadlock. At most one
/// value per inner publisher is buffered.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class MergeEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let name: String
  private let switchesToLatest: Bool
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  private var outer: Subscription?
  /// Asks the outer publisher for one more inner publisher (flatMap with a bounded maximum).
  private var requestAnotherInner: ((Subscription) -> Void)?
  private var inners: [Int: Subscription] = [:]
  private var active: Set<Int> = []
  private var nextIndex = 0
  private var buffer: [(index: Int, value: Output)] = []
  private var outerFinished = false
  private var pendingFailure: Failure?
  private var isDraining = false
  private var isTerminated = false

  init(_ name: String, downstream: Downstream, switchesToLatest: Bool = false) {
    self.name = name
    self.downstream = downstream
    self.switchesToLatest = switchesToLatest
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror {
    lock.lock()
    let children: KeyValuePairs<String, Any> = ["demand": demand, "activeInners": active.count]
    lock.unlock()
    return Mirror(self, children: children, displayStyle: .class)
  }

  // MARK: Outer side

  /// Records the outer subscription; returns false (and cancels it) when already terminated.
  func setOuter(_ subscription: Subscription, requestAnotherInner: ((Subscription) -> Void)?) -> Bool {
    lock.lock()
    guard !isTerminated, outer == nil else {
      lock.unlock()
      subscription.cancel()
      return false
    }
    outer = subscription
    self.requestAnotherInner = requestAnotherInner
    lock.unlock()
    return true
  }

  /// Hands this subscription to the downstream subscriber.
  func start() {
    guard let downstream = lock.withLock({ self.downstream }) else { return }
    downstream.receive(subscription: self)
  }

  /// Subscribes to a new inner publisher (cancelling the previous ones for `switchToLatest`).
  func add<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    lock.lock()
    guard !isTerminated else {
      lock.unlock()
      return
    }
    let index = nextIndex
    nextIndex += 1
    var replaced: [Subscription] = []
    if switchesToLatest {
      replaced = Array(inners.values)
      inners = [:]
      active = []
      buffer = []
    }
    active.insert(index)
    lock.unlock()
    for subscription in replaced { subscription.cancel() }
    publisher.subscribe(
      AnySubscriber<Output, Failure>(
        receiveSubscription: { [self] in innerSubscribed(index, $0) },
        receiveValue: { [self] in innerReceived(index, $0) },
        receiveCompletion: { [self] in innerCompleted(index, $0) }))
  }

  /// The outer publisher finished: complete once every inner has finished.
  func finishOuter() {
    lock.withLock {
      outerFinished = true
      outer = nil
    }
    drain()
  }

  /// The outer publisher (or an inner) failed: cancel everything and fail downstream.
  func fail(_ error: Failure) {
    lock.lock()
    guard !isTerminated, pendingFailure == nil else {
      lock.unlock()
      return
    }
    pendingFailure = error
    let subscriptions = Array(inners.values) + (outer.map { [$0] } ?? [])
    inners = [:]
    active = []
    buffer = []
    outer = nil
    lock.unlock()
    for subscription in subscriptions { subscription.cancel() }
    drain()
  }

  // MARK: Inner side

  private func innerSubscribed(_ index: Int, _ subscription: Subscription) {
    lock.lock()
    guard !isTerminated, pendingFailure == nil, active.contains(index) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    inners[index] = subscription
    lock.unlock()
    subscription.request(.max(1))
  }

  private func innerReceived(_ index: Int, _ value: Output) -> Subscribers.Demand {
    lock.lock()
    guard !isTerminated, active.contains(index) else {
      lock.unlock()
      return .none
    }
    buffer.append((index, value))
    lock.unlock()
    drain()
    return .none
  }

  private func innerCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .failure(let error):
      guard lock.withLock({ active.contains(index) }) else { return }
      fail(error)
    case .finished:
      lock.lock()
      guard active.remove(index) != nil else {
        lock.unlock()
        return
      }
      inners[index] = nil
      let more = outerFinished ? nil : outer.flatMap { outer in requestAnotherInner.map { ($0, outer) } }
      lock.unlock()
      if let (request, outer) = more { request(outer) }
      drain()
    }
  }

  // MARK: Downstream side

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { self.demand += demand }
    drain()
  }

  func cancel() {
    lock.lock()
    isTerminated = true
    downstream = nil
    let subscriptions = Array(inners.values) + (outer.map { [$0] } ?? [])
    inners = [:]
    active = []
    buffer = []
    outer = nil
    lock.unlock()
    for subscription in subscriptions { subscription.cancel() }
  }

  private func drain() {
    lock.lock()
    guard !isDraining else {
      lock.unlock()
      return
    }
    isDraining = true
    while let downstream, !isTerminated {
      if let failure = pendingFailure {
        terminate()
        lock.unlock()
        downstream.receive(completion: .failure(failure))
        return
      }
      if demand > .none, !buffer.isEmpty {
        let (index, value) = buffer.removeFirst()
        demand -= 1
        let inner = inners[index]
        lock.unlock()
        let more = downstream.receive(value)
        inner?.request(.max(1))
        lock.lock()
        demand += more
        continue
      }
      if outerFinished, active.isEmpty, buffer.isEmpty {
        terminate()
        lock.unlock()
        downstream.receive(completion: .finished)
        return
      }
      break
    }
    isDraining = false
    lock.unlock()
  }

  /// Called with the lock held.
  private func terminate() {
    isTerminated = true
    isDraining = false
    downstream = nil
    requestAnotherInner = nil
  }
}

// MARK: - flatMap

extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into new publishers and
  /// republishes their elements, with at most `maxPublishers` inner publishers at once.
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    public typealias Output = NewPublisher.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The maximum number of concurrent inner publishers.
    public let maxPublishers: Subscribers.Demand
    public let transform: (Upstream.Output) -> NewPublisher

    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = MergeEngine("FlatMap", downstream: subscriber)
      let (transform, maxPublishers) = (transform, maxPublishers)
      upstream.subscribe(
        AnySubscriber<Upstream.Output, Failure>(
          receiveSubscription: { subscription in
            let requestMore: ((Subscription) -> Void)? =
              maxPublishers == .unlimited ? nil : { $0.request(.max(1)) }
            guard engine.setOuter(subscription, requestAnotherInner: requestMore) else { return }
            engine.start()
            subscription.request(maxPublishers)
          },
          receiveValue: { value in
            engine.add(transform(value))
            return .none
          },
          receiveCompletion: { completion in
            switch completion {
            case .finished: engine.finishOuter()
            case .failure(let error): engine.fail(error)
            }
          }))
    }
  }
}

extension Publisher {
  /// Transforms each element into a new publisher and republishes the elements of all of them,
  /// subscribed to at most `maxPublishers` at a time.
  public func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }

  /// `flatMap` where the inner publishers cannot fail.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
  }
}

extension Publisher where Failure == Never {
  /// `flatMap` from a publisher that cannot fail into publishers that can.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
  }

  /// `flatMap` where neither side can fail.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

// MARK: - switchToLatest

extension Publishers {
  /// A publisher that flattens nested publishers, republishing only the most recent one's
  /// elements: a new inner publisher cancels the previous one.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where Upstream.Output == P, P.Failure == Upstream.Failure {
    public typealias Output = P.Output
    public typealias Failure = P.Failure
    public let upstream: Upstream

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = MergeEngine("SwitchToLatest", downstream: subscriber, switchesToLatest: true)
      upstream.subscribe(
        AnySubscriber<P, Failure>(
          receiveSubscription: { subscription in
            guard engine.setOuter(subscription, requestAnotherInner: nil) else { return }
            engine.start()
            subscription.request(.unlimited)
          },
          receiveValue: { publisher in
            engine.add(publisher)
            return .none
          },
          receiveCompletion: { completion in
            switch completion {
            case .finished: engine.finishOuter()
            case .failure(let error): engine.fail(error)
            }
          }))
    }
  }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes elements sent by the most recently received publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// `switchToLatest` for a never-failing outer publisher of failing publishers.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
    setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// `switchToLatest` for a failing outer publisher of never-failing publishers.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    map { $0.setFailureType(to: Failure.self) }.switchToLatest()
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// `switchToLatest` where nothing can fail.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}
