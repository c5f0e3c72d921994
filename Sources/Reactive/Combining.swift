/// The subscription behind `combineLatest` and `zip`: subscribes to every upstream (requesting
/// `.unlimited`), keeps the latest value of each (`combineLatest`) or a queue per upstream
/// (`zip`), and delivers combinations as the subscriber's demand allows, serialised by a drain
/// loop that holds no lock while calling out.
///
/// `combineLatest` sends once every upstream has sent a value, then on each new value (with no
/// demand, the latest combination waits for demand); it finishes when all upstreams have
/// finished. `zip` pairs the n-th values; it finishes when an upstream has finished and its queue
/// is empty. Any failure cancels the others and fails downstream.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class CombineEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let name: String
  private let isZip: Bool
  private let combine: ([Any]) -> Downstream.Input
  private var downstream: Downstream?
  private var subscriptions: [Subscription?]
  private var latest: [Any?]
  private var queues: [[Any]]
  private var finished: [Bool]
  private var hasNewCombination = false
  private var demand = Subscribers.Demand.none
  private var pendingFailure: Failure?
  private var isDraining = false
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
    finished = Array(repeating: false, count: count)
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }], displayStyle: .class) }

  /// Hands this subscription downstream, then subscribes to each upstream (via `attach`).
  func start() {
    guard let downstream = lock.withLock({ self.downstream }) else { return }
    downstream.receive(subscription: self)
  }

  func attach<P: Publisher>(_ publisher: P, at index: Int) where P.Failure == Failure {
    publisher.subscribe(
      AnySubscriber<P.Output, Failure>(
        receiveSubscription: { [self] subscription in
          lock.lock()
          guard !isTerminated, pendingFailure == nil else {
            lock.unlock()
            subscription.cancel()
            return
          }
          subscriptions[index] = subscription
          lock.unlock()
          subscription.request(.unlimited)
        },
        receiveValue: { [self] value in
          lock.lock()
          guard !isTerminated, pendingFailure == nil else {
            lock.unlock()
            return .none
          }
          if isZip {
            queues[index].append(value)
          } else {
            latest[index] = value
            hasNewCombination = true
          }
          lock.unlock()
          drain()
          return .none
        },
        receiveCompletion: { [self] completion in
          switch completion {
          case .finished:
            lock.withLock {
              finished[index] = true
              subscriptions[index] = nil
            }
            drain()
          case .failure(let error):
            fail(error)
          }
        }))
  }

  private func fail(_ error: Failure) {
    lock.lock()
    guard !isTerminated, pendingFailure == nil else {
      lock.unlock()
      return
    }
    pendingFailure = error
    let others = subscriptions.compactMap { $0 }
    subscriptions = subscriptions.map { _ in nil }
    lock.unlock()
    for subscription in others { subscription.cancel() }
    drain()
  }

  /// The next combination to send, if one is ready (lock held).
  private func nextCombination() -> [Any]? {
    if isZip {
      guard queues.allSatisfy({ !$0.isEmpty }) else { return nil }
      return queues.indices.map { queues[$0].removeFirst() }
    }
    guard hasNewCombination, latest.allSatisfy({ $0 != nil }) else { return nil }
    hasNewCombination = false
    return latest.map { $0! }
  }

  /// Whether no further combination can be produced (lock held).
  private var isComplete: Bool {
    if isZip {
      return queues.indices.contains { finished[$0] && queues[$0].isEmpty }
    }
    return finished.allSatisfy { $0 }
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
      if demand > .none, let values = nextCombination() {
        demand -= 1
        lock.unlock()
        let more = downstream.receive(combine(values))
        lock.lock()
        demand += more
        continue
      }
      if isComplete {
        let others = subscriptions.compactMap { $0 }
        terminate()
        lock.unlock()
        for subscription in others { subscription.cancel() }
        downstream.receive(completion: .finished)
        return
      }
      break
    }
    isDraining = false
    lock.unlock()
  }

  /// Lock held.
  private func terminate() {
    isTerminated = true
    isDraining = false
    downstream = nil
    subscriptions = subscriptions.map { _ in nil }
    queues = queues.map { _ in [] }
    latest = latest.map { _ in nil }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { self.demand += demand }
    drain()
  }

  func cancel() {
    lock.lock()
    let all = subscriptions.compactMap { $0 }
    terminate()
    lock.unlock()
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

extension Publishers {
  /// A publisher created by applying the merge function to 2 upstream publishers: their
  /// elements interleaved as they arrive; finishes when all finish, fails when one fails.
  public struct Merge<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure, A.Output == B.Output {
    public typealias Output = A.Output
    public typealias Failure = A.Failure
    public let a: A
    public let b: B

    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = MergeEngine("Merge", downstream: subscriber)
      engine.start()
      engine.add(a)
      engine.add(b)
      engine.finishOuter()
    }
  }

  /// A publisher created by applying the merge function to 3 upstream publishers: their
  /// elements interleaved as they arrive; finishes when all finish, fails when one fails.
  public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output {
    public typealias Output = A.Output
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
      let engine = MergeEngine("Merge3", downstream: subscriber)
      engine.start()
      engine.add(a)
      engine.add(b)
      engine.add(c)
      engine.finishOuter()
    }
  }

  /// A publisher created by applying the merge function to 4 upstream publishers: their
  /// elements interleaved as they arrive; finishes when all finish, fails when one fails.
  public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure,
    A.Output == D.Output
  {
    public typealias Output = A.Output
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
      let engine = MergeEngine("Merge4", downstream: subscriber)
      engine.start()
      engine.add(a)
      engine.add(b)
      engine.add(c)
      engine.add(d)
      engine.finishOuter()
    }
  }

  /// A publisher created by applying the merge function to an arbitrary number of upstream
  /// publishers of the same type.
  public struct MergeMany<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let publishers: [Upstream]

    public init(_ upstream: Upstream...) {
      publishers = upstream
    }

    public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
      publishers = Array(upstream)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = MergeEngine("MergeMany", downstream: subscriber)
      engine.start()
      for publisher in publishers { engine.add(publisher) }
      engine.finishOuter()
    }

    /// This merge with one more publisher.
    public func merge(with other: Upstream) -> MergeMany<Upstream> {
      MergeMany(publishers + [other])
    }
  }
}

extension Publisher {
  /// Combines elements from this publisher with those from another publisher of the same types.
  public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
  where P.Failure == Failure, P.Output == Output {
    Publishers.Merge(self, other)
  }

  /// Combines elements from this publisher with those from two others.
  public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
  where B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output {
    Publishers.Merge3(self, b, c)
  }

  /// Combines elements from this publisher with those from three others.
  public func merge<B: Publisher, C: Publisher, D: Publisher>(
    with b: B, _ c: C, _ d: D
  ) -> Publishers.Merge4<Self, B, C, D>
  where
    B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output, D.Failure == Failure,
    D.Output == Output
  {
    Publishers.Merge4(self, b, c, d)
  }

  /// Combines elements from this publisher with those from other publishers of the same type.
  public func merge(with other: Self...) -> Publishers.MergeMany<Self> {
    Publishers.MergeMany([self] + other)
  }
}
