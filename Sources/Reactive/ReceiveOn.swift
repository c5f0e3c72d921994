// MARK: - receive(on:)

/// The subscription behind `receive(on:)`: values and the completion are re-sent on the
/// scheduler; requests and cancellation go straight upstream.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var upstreamDone = false

  init(scheduler: Context, options: Context.SchedulerOptions?, downstream: Downstream) {
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { "ReceiveOn" }
  var playgroundDescription: Any { description }
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
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ downstream != nil && !upstreamDone }) else { return .none }
    scheduler.schedule(options: options) { [self] in
      guard let downstream = lock.withLock({ self.downstream }) else { return }
      let demand = downstream.receive(input)
      if demand > .none { lock.withLock { upstream }?.request(demand) }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let active = lock.withLock { () -> Bool in
      guard downstream != nil, !upstreamDone else { return false }
      upstreamDone = true
      upstream = nil
      return true
    }
    guard active else { return }
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      let downstream = self.downstream
      self.downstream = nil
      lock.unlock()
      downstream?.receive(completion: completion)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    lock.lock()
    let upstream = self.upstream
    self.upstream = nil
    downstream = nil
    lock.unlock()
    upstream?.cancel()
  }
}

extension Publishers {
  /// A publisher that delivers elements (and the completion) to its downstream subscriber on a
  /// specific scheduler. Each value and the completion are scheduled separately, in order.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The scheduler the publisher delivers elements on.
    public let scheduler: Context
    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReceiveOnSubscription<Upstream, Context, S>(scheduler: scheduler, options: options, downstream: subscriber))
    }
  }

  /// A publisher that receives elements from an upstream publisher on a specific scheduler: the
  /// subscription, requests and cancellation happen on it.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let scheduler: Context
    public let options: Context.SchedulerOptions?

    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let (upstream, scheduler, options) = (upstream, scheduler, options)
      scheduler.schedule(options: options) {
        upstream.subscribe(
          TransformSubscription<Output, Failure, SubscribeOnDownstream<S, Context>>(
            "SubscribeOn",
            downstream: SubscribeOnDownstream(downstream: subscriber, scheduler: scheduler, options: options),
            mapFailure: { $0 }, transform: { .send($0) }))
      }
    }
  }
}

/// Wraps the downstream of `subscribe(on:)` so that the subscription it receives performs its
/// requests and cancellation on the scheduler.
private struct SubscribeOnDownstream<Downstream: Subscriber, Context: Scheduler>: Subscriber {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  let downstream: Downstream
  let scheduler: Context
  let options: Context.SchedulerOptions?
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  func receive(subscription: Subscription) {
    downstream.receive(
      subscription: ScheduledSubscription(upstream: subscription, scheduler: scheduler, options: options))
  }

  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
  func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

private final class ScheduledSubscription<Context: Scheduler>: Subscription, DescribedSubscription,
  @unchecked Sendable
{
  let upstream: Subscription
  let scheduler: Context
  let options: Context.SchedulerOptions?

  init(upstream: Subscription, scheduler: Context, options: Context.SchedulerOptions?) {
    self.upstream = upstream
    self.scheduler = scheduler
    self.options = options
  }

  var description: String { "SubscribeOn" }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    let upstream = upstream
    scheduler.schedule(options: options) { upstream.request(demand) }
  }

  func cancel() {
    let upstream = upstream
    scheduler.schedule(options: options) { upstream.cancel() }
  }
}

extension Publisher {
  /// Specifies the scheduler on which to receive elements (and the completion) from the publisher.
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.ReceiveOn<Self, S>
  {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }

  /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

// MARK: - debounce

/// The subscription behind `debounce`: requests `.unlimited` upstream, and sends the latest value
/// once `dueTime` has passed without a newer one (if the subscriber has demand then; otherwise
/// the value is dropped). The completion is forwarded on the scheduler; a value still waiting
/// for its due time is dropped, as in Combine.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var upstreamDone = false
  private var demand = Subscribers.Demand.none
  private var latest: Input?
  private var generation = 0

  init(
    dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?,
    downstream: Downstream
  ) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { "Debounce" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }], displayStyle: .class) }

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
    lock.lock()
    guard downstream != nil, !upstreamDone else {
      lock.unlock()
      return .none
    }
    generation += 1
    let generation = self.generation
    latest = input
    lock.unlock()
    scheduler.schedule(
      after: scheduler.now.advanced(by: dueTime), tolerance: scheduler.minimumTolerance, options: options
    ) { [self] in fire(generation) }
    return .none
  }

  private func fire(_ generation: Int) {
    lock.lock()
    guard generation == self.generation, let value = latest, let downstream else {
      lock.unlock()
      return
    }
    latest = nil
    guard demand > .none else {
      lock.unlock()
      return
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(value)
    lock.withLock { demand += more }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let active = lock.withLock { () -> Bool in
      guard downstream != nil, !upstreamDone else { return false }
      upstreamDone = true
      upstream = nil
      return true
    }
    guard active else { return }
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      let downstream = self.downstream
      self.downstream = nil
      latest = nil
      lock.unlock()
      downstream?.receive(completion: completion)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { self.demand += demand }
  }

  func cancel() {
    lock.lock()
    let upstream = self.upstream
    self.upstream = nil
    downstream = nil
    latest = nil
    lock.unlock()
    upstream?.cancel()
  }
}

extension Publishers {
  /// A publisher that publishes elements only after a specified time interval elapses between
  /// events (the latest element of each burst), on the scheduler.
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The amount of time the publisher should wait before publishing an element.
    public let dueTime: Context.SchedulerTimeType.Stride
    public let scheduler: Context
    public let options: Context.SchedulerOptions?

    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        DebounceSubscription<Upstream, Context, S>(
          dueTime: dueTime, scheduler: scheduler, options: options, downstream: subscriber))
    }
  }
}

extension Publisher {
  /// Publishes elements only after `dueTime` elapses between events.
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}
