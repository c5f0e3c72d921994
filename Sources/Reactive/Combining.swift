/// The subscription behind `combineLatest` and `zip`: subscribes to every upstream, and passes
/// each request of the subscriber on to every upstream (an upstream that subscribes later is
/// asked for the demand requested so far), so it never asks for more than the subscriber wants.
///
/// `combineLatest` keeps the latest value of each upstream; once every upstream has sent a
/// value, each new value sends the latest combination if the subscriber has demand, and is only
/// recorded (the combination dropped) if it has none, as Combine does. It finishes when every
/// upstream has finished. `zip` queues the values of each upstream and sends the n-th values
/// together; the demand the subscriber returns for a combination is requested from the other
/// upstreams and returned to the one that completed it. It finishes when an upstream has
/// finished and no further combination can be made. Any failure cancels the other upstreams and
/// fails downstream. Calls into the subscriber are serialised by a recursive lock; no other lock
/// is held while calling out.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class CombineEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let name: String
  private let isZip: Bool
  private let combine: ([Any]) -> Downstream.Input
  private var downstream: Downstream?
  private var subscriptions: [Subscription?]
  private var latest: [Any?]
  private var queues: [[Any]]
  /// The index of the oldest value still queued in each of `queues` (popped values stay until
  /// compacted, so popping is O(1)).
  private var heads: [Int]
  private var finished: [Bool]
  private var demand = Subscribers.Demand.none
  private var isTerminated = false

  init(_ name: String, count: Int, isZip: Bool, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input)
  {
    self.name = name
    self.isZip = isZip
    self.combine = combine
    self.downstream = downstream
    subscriptions = Array(repeating: nil, count: count)
    latest = Array(repeating: nil, count: count)
    queues = Array(repeating: [], count: count)
    heads = Array(repeating: 0, count: count)
    finished = Array(repeating: false, count: count)
  }

  /// Lock held. Whether upstream `index` has a queued value.
  private func hasQueued(_ index: Int) -> Bool { heads[index] < queues[index].count }

  /// Lock held. Removes the oldest queued value of upstream `index`.
  private func popQueued(_ index: Int) -> Any {
    let value = queues[index][heads[index]]
    heads[index] += 1
    if heads[index] == queues[index].count {
      queues[index].removeAll(keepingCapacity: true)
      heads[index] = 0
    } else if heads[index] > 64, heads[index] * 2 > queues[index].count {
      queues[index].removeFirst(heads[index])
      heads[index] = 0
    }
    return value
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
  }

  /// Hands this subscription downstream, then subscribes to each upstream (via `attach`).
  func start() {
    lock.lock()
    let downstream = self.downstream
    lock.unlock()
    downstreamLock.lock()
    downstream?.receive(subscription: self)
    downstreamLock.unlock()
  }

  func attach<P: Publisher>(_ publisher: P, at index: Int) where P.Failure == Failure {
    publisher.subscribe(
      AnySubscriber<P.Output, Failure>(
        receiveSubscription: { [self] subscription in received(subscription, at: index) },
        receiveValue: { [self] value in received(value, at: index) },
        receiveCompletion: { [self] completion in received(completion, at: index) }))
  }

  private func received(_ subscription: Subscription, at index: Int) {
    lock.lock()
    guard !isTerminated, subscriptions[index] == nil, !finished[index] else {
      lock.unlock()
      subscription.cancel()
      return
    }
    subscriptions[index] = subscription
    let demand = self.demand
    lock.unlock()
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  private func received(_ value: Any, at index: Int) -> Subscribers.Demand {
    lock.lock()
    guard !isTerminated, let downstream else {
      lock.unlock()
      return .none
    }
    let combination: [Any]
    if isZip {
      queues[index].append(value)
      guard queues.indices.allSatisfy(hasQueued) else {
        lock.unlock()
        return .none
      }
      combination = queues.indices.map(popQueued)
    } else {
      latest[index] = value
      guard demand.rawValue > 0, latest.allSatisfy({ $0 != nil }) else {
        lock.unlock()
        return .none
      }
      combination = latest.map { $0! }
    }
    demand = demand.decremented
    lock.unlock()
    downstreamLock.lock()
    let more = downstream.receive(combine(combination))
    downstreamLock.unlock()
    lock.lock()
    if more.rawValue > 0 { demand += more }
    let others =
      isZip && more.rawValue > 0 ? subscriptions.indices.filter { $0 != index }.compactMap { subscriptions[$0] } : []
    lock.unlock()
    for other in others { other.request(more) }
    if isZip { finishIfExhausted() }
    return isZip ? more : .none
  }

  private func received(_ completion: Subscribers.Completion<Failure>, at index: Int) {
    switch completion {
    case .failure(let error):
      lock.lock()
      guard !isTerminated, let downstream else {
        lock.unlock()
        return
      }
      let others = subscriptions.indices.filter { $0 != index }.compactMap { subscriptions[$0] }
      terminate()
      lock.unlock()
      for other in others { other.cancel() }
      downstreamLock.lock()
      downstream.receive(completion: .failure(error))
      downstreamLock.unlock()
    case .finished:
      lock.lock()
      guard !isTerminated else {
        lock.unlock()
        return
      }
      finished[index] = true
      subscriptions[index] = nil
      lock.unlock()
      finishIfExhausted()
    }
  }

  /// Finishes (cancelling the rest) when no further combination can be made.
  private func finishIfExhausted() {
    lock.lock()
    let exhausted =
      isZip
      ? queues.indices.contains { finished[$0] && !hasQueued($0) } : finished.allSatisfy { $0 }
    guard !isTerminated, exhausted, let downstream else {
      lock.unlock()
      return
    }
    let others = subscriptions.compactMap { $0 }
    terminate()
    lock.unlock()
    for other in others { other.cancel() }
    downstreamLock.lock()
    downstream.receive(completion: .finished)
    downstreamLock.unlock()
  }

  /// Lock held.
  private func terminate() {
    isTerminated = true
    downstream = nil
    subscriptions = subscriptions.map { _ in nil }
    queues = queues.map { _ in [] }
    heads = heads.map { _ in 0 }
    latest = latest.map { _ in nil }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard !isTerminated else {
      lock.unlock()
      return
    }
    self.demand += demand
    let subscriptions = self.subscriptions.compactMap { $0 }
    lock.unlock()
    for subscription in subscriptions { subscription.request(demand) }
  }

  func cancel() {
    lock.lock()
    let all = subscriptions.compactMap { $0 }
    let downstream = self.downstream
    terminate()
    lock.unlock()
    withExtendedLifetime(downstream) {}
    for subscription in all { subscription.cancel() }
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from 2 publishers.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    public typealias Output = (A.Output, B.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B

    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("CombineLatest", count: 2, isZip: false, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
    }
  }

  /// A publisher that receives and combines the latest elements from 3 publishers.
  public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure {
    public typealias Output = (A.Output, B.Output, C.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C

    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("CombineLatest3", count: 3, isZip: false, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
      engine.attach(c, at: 2)
    }
  }

  /// A publisher that receives and combines the latest elements from 4 publishers.
  public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D

    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("CombineLatest4", count: 4, isZip: false, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
      engine.attach(c, at: 2)
      engine.attach(d, at: 3)
    }
  }

  /// A publisher created by applying the zip function to 2 publishers.
  public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    public typealias Output = (A.Output, B.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B

    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("Zip", count: 2, isZip: true, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
    }
  }

  /// A publisher created by applying the zip function to 3 publishers.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure {
    public typealias Output = (A.Output, B.Output, C.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C

    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("Zip3", count: 3, isZip: true, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
      engine.attach(c, at: 2)
    }
  }

  /// A publisher created by applying the zip function to 4 publishers.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D

    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = CombineEngine("Zip4", count: 4, isZip: true, downstream: subscriber) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      engine.start()
      engine.attach(a, at: 0)
      engine.attach(b, at: 1)
      engine.attach(c, at: 2)
      engine.attach(d, at: 3)
    }
  }
}

extension Publisher {
  /// Publishes a tuple of the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher>(_ b: B) -> Publishers.CombineLatest<Self, B>
  where Failure == B.Failure {
    Publishers.CombineLatest(self, b)
  }

  /// Publishes `transform` applied to the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher, T>(
    _ b: B, _ transform: @escaping (Output, B.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, B>, T> where Failure == B.Failure {
    Publishers.CombineLatest(self, b).map(transform)
  }

  /// Publishes a tuple of the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> Publishers.CombineLatest3<Self, B, C>
  where Failure == B.Failure, Failure == C.Failure {
    Publishers.CombineLatest3(self, b, c)
  }

  /// Publishes `transform` applied to the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher, C: Publisher, T>(
    _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest3<Self, B, C>, T> where Failure == B.Failure, Failure == C.Failure {
    Publishers.CombineLatest3(self, b, c).map(transform)
  }

  /// Publishes a tuple of the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher, C: Publisher, D: Publisher>(_ b: B, _ c: C, _ d: D)
    -> Publishers.CombineLatest4<Self, B, C, D>
  where Failure == B.Failure, Failure == C.Failure, Failure == D.Failure {
    Publishers.CombineLatest4(self, b, c, d)
  }

  /// Publishes `transform` applied to the latest elements of this publisher and the given ones.
  public func combineLatest<B: Publisher, C: Publisher, D: Publisher, T>(
    _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest4<Self, B, C, D>, T>
  where Failure == B.Failure, Failure == C.Failure, Failure == D.Failure {
    Publishers.CombineLatest4(self, b, c, d).map(transform)
  }
}

extension Publisher {
  /// Publishes a tuple of the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher>(_ b: B) -> Publishers.Zip<Self, B>
  where Failure == B.Failure {
    Publishers.Zip(self, b)
  }

  /// Publishes `transform` applied to the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher, T>(
    _ b: B, _ transform: @escaping (Output, B.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, B>, T> where Failure == B.Failure {
    Publishers.Zip(self, b).map(transform)
  }

  /// Publishes a tuple of the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> Publishers.Zip3<Self, B, C>
  where Failure == B.Failure, Failure == C.Failure {
    Publishers.Zip3(self, b, c)
  }

  /// Publishes `transform` applied to the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher, C: Publisher, T>(
    _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, B, C>, T> where Failure == B.Failure, Failure == C.Failure {
    Publishers.Zip3(self, b, c).map(transform)
  }

  /// Publishes a tuple of the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher, C: Publisher, D: Publisher>(_ b: B, _ c: C, _ d: D) -> Publishers.Zip4<Self, B, C, D>
  where Failure == B.Failure, Failure == C.Failure, Failure == D.Failure {
    Publishers.Zip4(self, b, c, d)
  }

  /// Publishes `transform` applied to the n-th elements of this publisher and the given ones.
  public func zip<B: Publisher, C: Publisher, D: Publisher, T>(
    _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, B, C, D>, T>
  where Failure == B.Failure, Failure == C.Failure, Failure == D.Failure {
    Publishers.Zip4(self, b, c, d).map(transform)
  }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
