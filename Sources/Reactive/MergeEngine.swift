/// The subscription behind `flatMap`, `merge` and `MergeMany`, with Combine's back-pressure:
///
/// - Each child (inner) publisher is asked for `.unlimited` while the subscriber's demand is
///   unlimited, otherwise for `.max(1)`; a request for `.unlimited` later asks every child for
///   `.unlimited` ("switches when demand changes").
/// - A child value arriving while the subscriber has demand goes straight down and returns
///   `.max(1)` (one more from that child), or `.none` when the demand is unlimited; without
///   demand it is buffered (one per child at most, since each child was asked for one) and the
///   child is asked for its next value only once the buffered one has been delivered.
/// - The outer publisher is asked for `maxPublishers` children at first and for one more each
///   time a child finishes (unless `maxPublishers` is unlimited).
/// - It finishes once the outer publisher and every child have finished and the buffer is empty;
///   a failure (outer or child) cancels the children and fails downstream at once.
///
/// Delivery is serialised: one thread at a time calls the subscriber, others buffer; a request
/// or value arriving re-entrantly from inside the subscriber's `receive` is queued and served by
/// the loop already running, so nothing deadlocks and nothing is delivered twice. No lock is held
/// while calling out.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class FlatMapEngine<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  let description: String
  private let lock = Lock()
  private let downstream: Downstream
  private let maxPublishers: Subscribers.Demand
  private var outer: Subscription?
  private var outerFinished = false
  private var children: [Int: Subscription] = [:]
  private var pendingChildren = 0
  private var nextIndex = 0
  private var buffer: [(index: Int, value: Output)] = []
  private var bufferHead = 0
  private var demand = Subscribers.Demand.none
  private var isDelivering = false
  private var terminated = false
  /// A completion decided while another call was delivering: sent by the deliverer when done.
  private var pendingCompletion: Subscribers.Completion<Failure>?

  init(_ name: String, downstream: Downstream, maxPublishers: Subscribers.Demand) {
    description = name
    self.downstream = downstream
    self.maxPublishers = maxPublishers
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  private var bufferIsEmpty: Bool { bufferHead == buffer.count }

  /// Lock held. Removes the oldest buffered value.
  private func popBuffer() -> (index: Int, value: Output) {
    let first = buffer[bufferHead]
    bufferHead += 1
    if bufferHead == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      bufferHead = 0
    } else if bufferHead > 64, bufferHead * 2 > buffer.count {
      buffer.removeFirst(bufferHead)
      bufferHead = 0
    }
    return first
  }

  // MARK: Outer side

  /// Hands this subscription to the subscriber (before the upstream subscribes, as Combine does).
  func start() {
    downstream.receive(subscription: self)
  }

  /// The outer subscription arrived: ask it for `maxPublishers` children.
  func outerSubscribed(_ subscription: Subscription) {
    lock.lock()
    guard outer == nil, !terminated, !outerFinished else {
      lock.unlock()
      subscription.cancel()
      return
    }
    outer = subscription
    lock.unlock()
    subscription.request(maxPublishers)
  }

  /// Whether a new child may still be added.
  var isActive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !terminated
  }

  /// Subscribes to a child publisher.
  func add<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    lock.lock()
    guard !terminated else {
      lock.unlock()
      return
    }
    let index = nextIndex
    nextIndex += 1
    pendingChildren += 1
    lock.unlock()
    publisher.subscribe(
      PhaseSubscriber<Output, Failure>(
        combineIdentifier: CombineIdentifier(), description: description, mirror: { [self] in customMirror },
        receiveSubscription: { [self] in childSubscribed($0, index) },
        receiveValue: { [self] in childReceived($0, index) },
        receiveCompletion: { [self] in childCompleted($0, index) }))
  }

  /// The outer publisher completed.
  func outerCompleted(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    outer = nil
    outerFinished = true
    switch completion {
    case .finished:
      finishIfDone()
    case .failure(let error):
      guard !terminated else {
        lock.unlock()
        return
      }
      terminated = true
      let children = Array(self.children.values)
      self.children = [:]
      clearBuffer()
      lock.unlock()
      for child in children { child.cancel() }
      lock.lock()
      send(.failure(error))
    }
  }

  // MARK: Child side

  private func childSubscribed(_ subscription: Subscription, _ index: Int) {
    lock.lock()
    pendingChildren -= 1
    guard !terminated else {
      lock.unlock()
      subscription.cancel()
      return
    }
    children[index] = subscription
    let request: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
    lock.unlock()
    subscription.request(request)
  }

  private func childReceived(_ value: Output, _ index: Int) -> Subscribers.Demand {
    lock.lock()
    guard !terminated else {
      lock.unlock()
      return .none
    }
    guard !isDelivering, bufferIsEmpty, demand.rawValue > 0 else {
      buffer.append((index, value))
      lock.unlock()
      return .none
    }
    let unlimited = demand == .unlimited
    demand = demand.decremented
    isDelivering = true
    lock.unlock()
    let more = downstream.receive(value)
    lock.lock()
    if more.rawValue > 0 { demand += more }
    deliverBuffered()
    return unlimited ? .none : .max(1)
  }

  private func childCompleted(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    lock.lock()
    switch completion {
    case .finished:
      children[index] = nil
      guard !terminated else {
        lock.unlock()
        return
      }
      let outer = maxPublishers == .unlimited || outerFinished ? nil : self.outer
      finishIfDone()
      outer?.request(.max(1))
    case .failure(let error):
      guard !terminated else {
        lock.unlock()
        return
      }
      terminated = true
      let others = children.filter { $0.key != index }.map(\.value)
      children = [:]
      clearBuffer()
      lock.unlock()
      for other in others { other.cancel() }
      lock.lock()
      send(.failure(error))
    }
  }

  // MARK: Downstream side

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard !terminated else {
      lock.unlock()
      return
    }
    let becameUnlimited = demand == .unlimited && self.demand != .unlimited
    self.demand += demand
    if becameUnlimited {
      let children = Array(self.children.values)
      lock.unlock()
      for child in children { child.request(.unlimited) }
      lock.lock()
    }
    guard !isDelivering else {
      lock.unlock()
      return
    }
    isDelivering = true
    deliverBuffered()
  }

  func cancel() {
    lock.lock()
    guard !terminated else {
      lock.unlock()
      return
    }
    terminated = true
    let children = Array(self.children.values)
    self.children = [:]
    let outer = self.outer.take()
    clearBuffer()
    lock.unlock()
    for child in children { child.cancel() }
    outer?.cancel()
  }

  // MARK: Delivery (lock held on entry, released on exit)

  /// With `isDelivering` set by the caller: delivers buffered values while there is demand, asks
  /// each value's child for one more, then sends a pending completion or finishes if done.
  private func deliverBuffered() {
    while !terminated, !bufferIsEmpty, demand.rawValue > 0 {
      let (index, value) = popBuffer()
      let unlimited = demand == .unlimited
      demand = demand.decremented
      let child = children[index]
      lock.unlock()
      let more = downstream.receive(value)
      if !unlimited { child?.request(.max(1)) }
      lock.lock()
      if more.rawValue > 0 { demand += more }
    }
    isDelivering = false
    if let completion = pendingCompletion.take() {
      lock.unlock()
      downstream.receive(completion: completion)
      return
    }
    finishIfDone()
  }

  /// Lock held on entry, released on exit: finishes if the outer and every child have finished
  /// and nothing is buffered.
  private func finishIfDone() {
    guard !terminated, outerFinished, children.isEmpty, pendingChildren == 0, bufferIsEmpty else {
      lock.unlock()
      return
    }
    terminated = true
    send(.finished)
  }

  /// Lock held on entry, released on exit: sends `completion` now, or leaves it to the call that
  /// is delivering.
  private func send(_ completion: Subscribers.Completion<Failure>) {
    guard !isDelivering else {
      pendingCompletion = completion
      lock.unlock()
      return
    }
    lock.unlock()
    downstream.receive(completion: completion)
  }

  /// Lock held.
  private func clearBuffer() {
    buffer.removeAll()
    bufferHead = 0
  }
}

/// The subscriber `flatMap` attaches to its upstream: each value becomes a child publisher.
private struct FlatMapOuterSubscriber<Input, Child: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
  typealias Failure = Child.Failure
  let engine: FlatMapEngine<Downstream>
  let transform: (Input) -> Child

  var combineIdentifier: CombineIdentifier { CombineIdentifier(engine) }
  var description: String { engine.description }
  var customMirror: Mirror { engine.customMirror }
  var playgroundDescription: Any { description }

  func receive(subscription: Subscription) { engine.outerSubscribed(subscription) }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard engine.isActive else { return .none }
    engine.add(transform(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) { engine.outerCompleted(completion) }
}

// MARK: - flatMap

extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into new publishers and
  /// republishes their elements, with at most `maxPublishers` inner publishers at once (see
  /// ``FlatMapEngine`` for the demand each one is asked for).
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
      let engine = FlatMapEngine("FlatMap", downstream: subscriber, maxPublishers: maxPublishers)
      engine.start()
      upstream.subscribe(FlatMapOuterSubscriber(engine: engine, transform: transform))
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

// MARK: - merge

/// Subscribes `subscriber` to the merge of `publishers` (each added as a child of a
/// ``FlatMapEngine`` whose outer side has already finished).
private func subscribeMerged<S: Subscriber>(
  _ name: String, _ subscriber: S, _ adders: [(FlatMapEngine<S>) -> Void]
) {
  let engine = FlatMapEngine(name, downstream: subscriber, maxPublishers: .unlimited)
  engine.start()
  for add in adders { add(engine) }
  engine.outerCompleted(.finished)
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
      let (a, b) = (a, b)
      subscribeMerged("Merge", subscriber, [{ $0.add(a) }, { $0.add(b) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge3(a, b, other)
    }

    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge4<A, B, Z, Y>
    where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
      Publishers.Merge4(a, b, z, y)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
      -> Publishers.Merge5<A, B, Z, Y, X>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge5(a, b, z, y, x)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
      -> Publishers.Merge6<A, B, Z, Y, X, W>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output
    {
      Publishers.Merge6(a, b, z, y, x, w)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output, V.Failure == Failure, V.Output == Output
    {
      Publishers.Merge7(a, b, z, y, x, w, v)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output, V.Failure == Failure, V.Output == Output,
      U.Failure == Failure, U.Output == Output
    {
      Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
  }

  /// A publisher created by applying the merge function to 3 upstream publishers.
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
      let (a, b, c) = (a, b, c)
      subscribeMerged("Merge3", subscriber, [{ $0.add(a) }, { $0.add(b) }, { $0.add(c) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge4(a, b, c, other)
    }

    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge5<A, B, C, Z, Y>
    where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
      Publishers.Merge5(a, b, c, z, y)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
      -> Publishers.Merge6<A, B, C, Z, Y, X>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge6(a, b, c, z, y, x)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
      -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output
    {
      Publishers.Merge7(a, b, c, z, y, x, w)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output, V.Failure == Failure, V.Output == Output
    {
      Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
  }

  /// A publisher created by applying the merge function to 4 upstream publishers.
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
      let (a, b, c, d) = (a, b, c, d)
      subscribeMerged("Merge4", subscriber, [{ $0.add(a) }, { $0.add(b) }, { $0.add(c) }, { $0.add(d) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge5(a, b, c, d, other)
    }

    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
      Publishers.Merge6(a, b, c, d, z, y)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
      -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge7(a, b, c, d, z, y, x)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
      -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output, W.Failure == Failure, W.Output == Output
    {
      Publishers.Merge8(a, b, c, d, z, y, x, w)
    }
  }

  /// A publisher created by applying the merge function to 5 upstream publishers.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure,
    A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output
  {
    public typealias Output = A.Output
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D
    public let e: E

    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (a, b, c, d, e) = (a, b, c, d, e)
      subscribeMerged(
        "Merge5", subscriber, [{ $0.add(a) }, { $0.add(b) }, { $0.add(c) }, { $0.add(d) }, { $0.add(e) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge6(a, b, c, d, e, other)
    }

    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
      Publishers.Merge7(a, b, c, d, e, z, y)
    }

    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
      -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where
      Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output, X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
  }

  /// A publisher created by applying the merge function to 6 upstream publishers.
  public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure,
    A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output
  {
    public typealias Output = A.Output
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D
    public let e: E
    public let f: F

    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (a, b, c, d, e, f) = (a, b, c, d, e, f)
      subscribeMerged(
        "Merge6", subscriber,
        [{ $0.add(a) }, { $0.add(b) }, { $0.add(c) }, { $0.add(d) }, { $0.add(e) }, { $0.add(f) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge7(a, b, c, d, e, f, other)
    }

    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
      Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
  }

  /// A publisher created by applying the merge function to 7 upstream publishers.
  public struct Merge7<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >:
    Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure,
    A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output,
    A.Failure == G.Failure, A.Output == G.Output
  {
    public typealias Output = A.Output
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D
    public let e: E
    public let f: F
    public let g: G

    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (a, b, c, d, e, f, g) = (a, b, c, d, e, f, g)
      subscribeMerged(
        "Merge7", subscriber,
        [{ $0.add(a) }, { $0.add(b) }, { $0.add(c) }, { $0.add(d) }, { $0.add(e) }, { $0.add(f) }, { $0.add(g) }])
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where P.Failure == Failure, P.Output == Output {
      Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
  }

  /// A publisher created by applying the merge function to 8 upstream publishers.
  public struct Merge8<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure,
    A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output,
    A.Failure == G.Failure, A.Output == G.Output, A.Failure == H.Failure, A.Output == H.Output
  {
    public typealias Output = A.Output
    public typealias Failure = A.Failure
    public let a: A
    public let b: B
    public let c: C
    public let d: D
    public let e: E
    public let f: F
    public let g: G
    public let h: H

    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (a, b, c, d, e, f, g, h) = (a, b, c, d, e, f, g, h)
      subscribeMerged(
        "Merge8", subscriber,
        [
          { $0.add(a) }, { $0.add(b) }, { $0.add(c) }, { $0.add(d) }, { $0.add(e) }, { $0.add(f) }, { $0.add(g) },
          { $0.add(h) },
        ])
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
      subscribeMerged("MergeMany", subscriber, publishers.map { publisher in { $0.add(publisher) } })
    }

    /// This merge with one more publisher.
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }
  }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

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

  /// Combines elements from this publisher with those from four others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output, D.Failure == Failure,
    D.Output == Output, E.Failure == Failure, E.Output == Output
  {
    Publishers.Merge5(self, b, c, d, e)
  }

  /// Combines elements from this publisher with those from five others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output, D.Failure == Failure,
    D.Output == Output, E.Failure == Failure, E.Output == Output, F.Failure == Failure, F.Output == Output
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }

  /// Combines elements from this publisher with those from six others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
  where
    B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output, D.Failure == Failure,
    D.Output == Output, E.Failure == Failure, E.Output == Output, F.Failure == Failure, F.Output == Output,
    G.Failure == Failure, G.Output == Output
  {
    Publishers.Merge7(self, b, c, d, e, f, g)
  }

  /// Combines elements from this publisher with those from seven others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output, D.Failure == Failure,
    D.Output == Output, E.Failure == Failure, E.Output == Output, F.Failure == Failure, F.Output == Output,
    G.Failure == Failure, G.Output == Output, H.Failure == Failure, H.Output == Output
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }

  /// Combines elements from this publisher with those from other publishers of the same type.
  public func merge(with other: Self...) -> Publishers.MergeMany<Self> {
    Publishers.MergeMany([self] + other)
  }
}

// MARK: - switchToLatest

/// The subscription behind `switchToLatest`, as Combine builds it: requests `.unlimited` of the
/// outer publisher; each new inner publisher cancels the previous one and is asked for the
/// demand the subscriber still has outstanding; inner values pass straight down and the
/// subscriber's returned demand goes back to the inner. It finishes when the outer and the
/// current inner have finished; any failure cancels the rest and fails downstream.
///
/// `@unchecked Sendable`: the state is guarded by a lock; calls into the subscriber are
/// serialised by a recursive lock.
private final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  typealias Input = Inner
  typealias Failure = Inner.Failure

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let downstream: Downstream
  private var outer: Subscription?
  private var current: Subscription?
  private var currentIndex = 0
  private var nextIndex = 1
  private var cancelled = false
  private var finished = false
  private var sentCompletion = false
  private var awaitingInnerSubscription = false
  private var demand = Subscribers.Demand.none

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "SwitchToLatest" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func start() {
    downstream.receive(subscription: self)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    guard outer == nil, !cancelled else {
      lock.unlock()
      subscription.cancel()
      return
    }
    outer = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  func receive(_ input: Inner) -> Subscribers.Demand {
    lock.lock()
    guard !cancelled, !finished else {
      lock.unlock()
      return .none
    }
    if let previous = current.take() {
      lock.unlock()
      previous.cancel()
      lock.lock()
    }
    let index = nextIndex
    currentIndex = index
    nextIndex += 1
    awaitingInnerSubscription = true
    lock.unlock()
    input.subscribe(
      PhaseSubscriber<Inner.Output, Inner.Failure>(
        combineIdentifier: CombineIdentifier(), description: description, mirror: { [self] in customMirror },
        receiveSubscription: { [self] in innerSubscribed($0, index) },
        receiveValue: { [self] in innerReceived($0, index) },
        receiveCompletion: { [self] in innerCompleted($0, index) }))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    outer = nil
    finished = true
    guard !cancelled else {
      lock.unlock()
      return
    }
    switch completion {
    case .finished:
      guard !awaitingInnerSubscription, current == nil, !sentCompletion else {
        lock.unlock()
        return
      }
      sentCompletion = true
      lock.unlock()
      deliver(.finished)
    case .failure:
      guard !sentCompletion else {
        lock.unlock()
        return
      }
      let current = self.current.take()
      sentCompletion = true
      lock.unlock()
      current?.cancel()
      deliver(completion)
    }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    downstreamLock.lock()
    downstream.receive(completion: completion)
    downstreamLock.unlock()
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    self.demand += demand
    let current = self.current
    lock.unlock()
    current?.request(demand)
  }

  func cancel() {
    lock.lock()
    cancelled = true
    let current = self.current.take()
    let outer = self.outer.take()
    lock.unlock()
    current?.cancel()
    outer?.cancel()
  }

  private func innerSubscribed(_ subscription: Subscription, _ index: Int) {
    lock.lock()
    guard currentIndex == index, !cancelled, current == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    current = subscription
    awaitingInnerSubscription = false
    let demand = self.demand
    lock.unlock()
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  private func innerReceived(_ value: Inner.Output, _ index: Int) -> Subscribers.Demand {
    lock.lock()
    guard currentIndex == index, !cancelled else {
      lock.unlock()
      return .none
    }
    demand = demand.decremented
    lock.unlock()
    downstreamLock.lock()
    let more = downstream.receive(value)
    downstreamLock.unlock()
    if more.rawValue > 0 {
      lock.lock()
      demand += more
      lock.unlock()
    }
    return more
  }

  private func innerCompleted(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    lock.lock()
    guard currentIndex == index, !cancelled else {
      lock.unlock()
      return
    }
    current = nil
    awaitingInnerSubscription = false
    switch completion {
    case .finished:
      guard finished, !sentCompletion else {
        lock.unlock()
        return
      }
      sentCompletion = true
      lock.unlock()
      deliver(.finished)
    case .failure:
      guard !sentCompletion else {
        lock.unlock()
        return
      }
      cancelled = true
      let outer = self.outer.take()
      sentCompletion = true
      lock.unlock()
      outer?.cancel()
      deliver(completion)
    }
  }
}

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
      let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
      subscription.start()
      upstream.subscribe(subscription)
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
