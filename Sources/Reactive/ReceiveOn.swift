// The operators that move events onto a scheduler. They use only the requirements of the
// `Scheduler` protocol (`now`, `minimumTolerance` and the three `schedule` methods), in the same
// order as Combine, so they work on any conforming scheduler (a test scheduler written outside
// this package included) and a scheduler that records its calls sees Combine's sequence.

// MARK: - receive(on:)

/// The subscription behind `receive(on:)`: each value and the completion are re-sent on the
/// scheduler (`schedule(options:)`); requests and cancellation go straight upstream. The demand
/// the subscriber returns for a value is requested upstream once that value has been delivered.
///
/// `@unchecked Sendable`: the state is guarded by a lock; calls into the subscriber are serialised
/// by a recursive lock.
private final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let downstream: Downstream
  private var status = UpstreamState.awaiting

  init(scheduler: Context, options: Context.SchedulerOptions?, downstream: Downstream) {
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { "ReceiveOn" }
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
    downstreamLock.lock()
    downstream.receive(subscription: self)
    downstreamLock.unlock()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    scheduler.schedule(options: options) { [self] in deliver(input) }
    return .none
  }

  private func deliver(_ input: Input) {
    lock.lock()
    guard status.subscription != nil else {
      lock.unlock()
      return
    }
    lock.unlock()
    downstreamLock.lock()
    let more = downstream.receive(input)
    downstreamLock.unlock()
    guard more.rawValue > 0 else { return }
    lock.lock()
    let subscription = status.subscription
    lock.unlock()
    subscription?.request(more)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .pendingTerminal(subscription)
    lock.unlock()
    scheduler.schedule(options: options) { [self] in deliver(completion) }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let previous = status
    status = .terminal
    lock.unlock()
    withExtendedLifetime(previous) {}
    downstreamLock.lock()
    downstream.receive(completion: completion)
    downstreamLock.unlock()
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
}

extension Publisher {
  /// Specifies the scheduler on which to receive elements (and the completion) from the publisher.
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.ReceiveOn<Self, S>
  {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

// MARK: - subscribe(on:)

/// The subscription behind `subscribe(on:)`: the subscription to the upstream, each request and
/// the cancellation happen on the scheduler; values and the completion pass straight through.
///
/// `@unchecked Sendable`: the state is guarded by a lock; upstream calls are serialised by
/// another.
private final class SubscribeOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let upstreamLock = Lock()
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let downstream: Downstream
  private var status = UpstreamState.awaiting

  init(scheduler: Context, options: Context.SchedulerOptions?, downstream: Downstream) {
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { "SubscribeOn" }
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
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
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
    lock.unlock()
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    lock.unlock()
    scheduler.schedule(options: options) { [upstreamLock] in
      upstreamLock.withLock { subscription.request(demand) }
    }
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    lock.unlock()
    scheduler.schedule(options: options) { [upstreamLock] in
      upstreamLock.withLock { subscription.cancel() }
    }
  }
}

extension Publishers {
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
      let subscription = SubscribeOnSubscription<Upstream, Context, S>(
        scheduler: scheduler, options: options, downstream: subscriber)
      let upstream = upstream
      scheduler.schedule(options: options) { upstream.subscribe(subscription) }
    }
  }
}

extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

// MARK: - debounce

/// The subscription behind `debounce`, as Combine builds it: requests `.unlimited` upstream;
/// each value replaces the one waiting and arms a timer for `dueTime` from now with the
/// scheduler's repeating `schedule(after:interval:tolerance:options:)` (the previous timer is
/// cancelled); when a timer fires for the latest value, that value goes down if the subscriber
/// has demand (else it is dropped) and the timer is cancelled. The completion is forwarded on the
/// scheduler (`schedule(options: nil)`, as Combine does); a value still waiting is dropped.
///
/// `@unchecked Sendable`: the state is guarded by a lock; no lock is held while calling the
/// scheduler, a timer or the subscriber.
private final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// A timer: armed (waiting for `schedule` to return its cancellable) or active.
  private enum Timer {
    case arming
    case active(Cancellable)
  }

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var timers: [UInt64: Timer] = [:]
  private var latest: Input?
  private var generation: UInt64 = 0
  private var demand = Subscribers.Demand.none

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
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("downstreamDemand", demand), ("currentValue", latest as Any),
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
    downstreamLock.lock()
    downstream.receive(subscription: self)
    downstreamLock.unlock()
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    generation += 1
    let generation = self.generation
    latest = input
    lock.unlock()
    let due = scheduler.now.advanced(by: dueTime)
    lock.lock()
    let previous = timers
    timers = [generation: .arming]
    lock.unlock()
    let timer = scheduler.schedule(
      after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.fire(generation) }
    lock.lock()
    // The timer may have fired (and been retired) while `schedule` ran, or been superseded.
    let keep: Bool
    if case .arming = timers[generation], status.isSubscribed {
      timers[generation] = .active(timer)
      keep = true
    } else {
      keep = false
    }
    lock.unlock()
    if !keep { timer.cancel() }
    Self.cancel(previous)
    return .none
  }

  private static func cancel(_ timers: [UInt64: Timer]) {
    for timer in timers.values {
      if case .active(let cancellable) = timer { cancellable.cancel() }
    }
  }

  private func fire(_ generation: UInt64) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    guard generation == self.generation, let value = latest else {
      let stale = timers.removeValue(forKey: generation)
      lock.unlock()
      if let stale { Self.cancel([generation: stale]) }
      return
    }
    guard let timer = timers.removeValue(forKey: generation) else {
      lock.unlock()
      return
    }
    let hasDemand = demand.rawValue > 0
    if hasDemand { demand = demand.decremented }
    lock.unlock()
    Self.cancel([generation: timer])
    guard hasDemand else { return }
    downstreamLock.lock()
    let more = downstream.receive(value)
    downstreamLock.unlock()
    guard more.rawValue > 0 else { return }
    lock.lock()
    demand += more
    lock.unlock()
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    let previous = status
    status = .terminal
    let timers = self.timers
    self.timers = [:]
    lock.unlock()
    withExtendedLifetime(previous) {}
    Self.cancel(timers)
    scheduler.schedule { [self] in
      downstreamLock.lock()
      downstream.receive(completion: completion)
      downstreamLock.unlock()
    }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    if status.isSubscribed { self.demand += demand }
    lock.unlock()
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    let timers = self.timers
    self.timers = [:]
    lock.unlock()
    Self.cancel(timers)
    subscription.cancel()
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
