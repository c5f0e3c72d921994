// MARK: - delay

/// The subscription behind `delay`, as Combine builds it: requests and cancellation go straight
/// upstream (nothing is requested on its own); each value and the completion are delivered
/// `interval` later (`schedule(after: now + interval, tolerance:options:)`), and the demand the
/// subscriber returns for a value is then requested upstream.
///
/// `@unchecked Sendable`: the state is guarded by a lock; calls into the subscriber are
/// serialised by a recursive lock.
private final class DelaySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let interval: Context.SchedulerTimeType.Stride
  private let tolerance: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let downstream: Downstream
  private var status = UpstreamState.awaiting

  init(
    interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, downstream: Downstream
  ) {
    self.interval = interval
    self.tolerance = tolerance
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { "Delay" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  private func later(_ action: @escaping () -> Void) {
    scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
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
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    later { [self] in deliver(input) }
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
    later { [self] in deliver(completion) }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .pendingTerminal = status else {
      lock.unlock()
      return
    }
    status = .terminal
    lock.unlock()
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
  /// A publisher that delays delivery of elements and completion to the downstream receiver.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The amount of time to delay.
    public let interval: Context.SchedulerTimeType.Stride
    /// The allowed tolerance in firing delayed events.
    public let tolerance: Context.SchedulerTimeType.Stride
    public let scheduler: Context
    public let options: Context.SchedulerOptions?

    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
      scheduler: Context, options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        DelaySubscription<Upstream, Context, S>(
          interval: interval, tolerance: tolerance, scheduler: scheduler, options: options, downstream: subscriber))
    }
  }
}

// MARK: - throttle

/// The subscription behind `throttle`, as Combine builds it: requests `.unlimited` upstream; a
/// value arriving while the subscriber has demand is scheduled for the later of now and the last
/// emission plus `interval` (at once with `schedule`, else with `schedule(after:)`); values that
/// arrive before it goes out replace it (`latest: true`) or are dropped (`latest: false`); values
/// without demand are dropped. The completion goes out after a value still waiting.
///
/// `@unchecked Sendable`: the state is guarded by a lock; calls into the subscriber are serialised
/// by a recursive lock.
private final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private enum State {
    case awaiting(Downstream)
    case subscribed(Subscription, Downstream)
    case pendingTerminal(Subscription, Downstream)
    case terminal
  }

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let latest: Bool
  private var state: State
  private var lastEmissionTime: Context.SchedulerTimeType?
  private var lastTime: Context.SchedulerTimeType
  private var pendingInput: Input?
  private var pendingCompletion: Subscribers.Completion<Failure>?
  private var demand = Subscribers.Demand.none

  init(interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool, downstream: Downstream) {
    self.interval = interval
    self.scheduler = scheduler
    self.latest = latest
    state = .awaiting(downstream)
    lastTime = scheduler.now
  }

  var description: String { "Throttle" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard case .awaiting = state else {
      lock.unlock()
      subscription.cancel()
      return
    }
    lock.unlock()
    let now = scheduler.now
    lock.lock()
    guard case .awaiting(let downstream) = state else {
      lock.unlock()
      subscription.cancel()
      return
    }
    lastTime = now
    state = .subscribed(subscription, downstream)
    lock.unlock()
    subscription.request(.unlimited)
    downstreamLock.lock()
    downstream.receive(subscription: self)
    downstreamLock.unlock()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed = state else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    let now = scheduler.now
    lock.lock()
    guard case .subscribed = state else {
      lock.unlock()
      return .none
    }
    lastTime = now
    guard demand.rawValue > 0 else {
      lock.unlock()
      return .none
    }
    let hasScheduledOutput = pendingInput != nil || pendingCompletion != nil
    if hasScheduledOutput {
      if latest { pendingInput = input }
      lock.unlock()
      return .none
    }
    let earliest = lastEmissionTime.map { $0.advanced(by: interval) }
    let emissionTime = earliest.map { Swift.max(now, $0) } ?? now
    demand = demand.decremented
    pendingInput = input
    lock.unlock()
    let action: () -> Void = { [weak self] in self?.emit() }
    if emissionTime == now {
      scheduler.schedule(action)
    } else {
      scheduler.schedule(after: emissionTime, action)
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .subscribed = state else {
      lock.unlock()
      return
    }
    lock.unlock()
    let now = scheduler.now
    lock.lock()
    guard case .subscribed(let subscription, let downstream) = state else {
      lock.unlock()
      return
    }
    lastTime = now
    state = .pendingTerminal(subscription, downstream)
    let hasScheduledOutput = pendingInput != nil || pendingCompletion != nil
    if hasScheduledOutput {
      if pendingCompletion == nil { pendingCompletion = completion }
      lock.unlock()
      return
    }
    pendingCompletion = completion
    lock.unlock()
    scheduler.schedule { [weak self] in self?.emit() }
  }

  private func emit() {
    lock.lock()
    let downstream: Downstream
    switch state {
    case .awaiting, .terminal:
      lock.unlock()
      return
    case .subscribed(_, let current), .pendingTerminal(_, let current):
      downstream = current
    }
    let emitsValue = pendingInput != nil && pendingCompletion == nil
    lock.unlock()
    let now: Context.SchedulerTimeType? = emitsValue ? scheduler.now : nil
    lock.lock()
    if let now { lastEmissionTime = now }
    let input = pendingInput.take()
    let completion = pendingCompletion.take()
    let previous = state
    if completion != nil { state = .terminal }
    lock.unlock()
    withExtendedLifetime(previous) {}
    downstreamLock.lock()
    let more = input.map { downstream.receive($0) } ?? .none
    if let completion { downstream.receive(completion: completion) }
    downstreamLock.unlock()
    guard more.rawValue > 0 else { return }
    lock.lock()
    demand += more
    lock.unlock()
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    if case .subscribed = state { self.demand += demand }
    lock.unlock()
  }

  func cancel() {
    lock.lock()
    let previous = state
    state = .terminal
    lock.unlock()
    switch previous {
    case .subscribed(let subscription, _), .pendingTerminal(let subscription, _): subscription.cancel()
    case .awaiting, .terminal: break
    }
  }
}

extension Publishers {
  /// A publisher that publishes either the most-recent or first element published by the
  /// upstream publisher in a specified time interval: at most one element per interval.
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The interval in which to find and emit the most recent (or first) element.
    public let interval: Context.SchedulerTimeType.Stride
    public let scheduler: Context
    /// Whether to emit the most recent element rather than the first one of each interval.
    public let latest: Bool

    public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ThrottleSubscription<Upstream, Context, S>(
          interval: interval, scheduler: scheduler, latest: latest, downstream: subscriber))
    }
  }
}

// MARK: - timeout

/// The subscription behind `timeout`, as Combine builds it: a timer (the scheduler's repeating
/// `schedule(after:interval:tolerance:options:)`, `interval` from now) is armed on subscription,
/// again on the first request, and again on each value; when it fires first, upstream is
/// cancelled and the subscriber gets `.finished` or the custom error. Values and the completion
/// are delivered on the scheduler (`schedule(options:)`); requests go straight upstream.
///
/// `@unchecked Sendable`: the state is guarded by a lock; no lock is held while calling the
/// scheduler, the timer or the subscriber.
private final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let customError: (() -> Failure)?
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var didTimeout = false
  private var timer: AnyCancellable?
  private var requestedOnce = false

  init(
    interval: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?,
    customError: (() -> Failure)?, downstream: Downstream
  ) {
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
    self.customError = customError
    self.downstream = downstream
  }

  var description: String { "Timeout" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  /// Arms a new timer (the one it replaces is cancelled when released).
  private func armTimer() {
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
      options: options
    ) { [weak self] in self?.timedOut() }
    let timer = AnyCancellable(cancellable.cancel)
    lock.lock()
    // A timer that fired while `schedule` ran, or that arrives after termination, is not kept.
    let replaced: AnyCancellable?
    if status.isSubscribed, !didTimeout {
      replaced = self.timer
      self.timer = timer
    } else {
      replaced = timer
    }
    lock.unlock()
    replaced?.cancel()
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
    armTimer()
    downstreamLock.lock()
    downstream.receive(subscription: self)
    downstreamLock.unlock()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard !didTimeout, status.isSubscribed else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    armTimer()
    scheduler.schedule(options: options) { [self] in deliver(input) }
    return .none
  }

  private func deliver(_ input: Input) {
    lock.lock()
    guard !didTimeout, case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    lock.unlock()
    downstreamLock.lock()
    let more = downstream.receive(input)
    downstreamLock.unlock()
    if more.rawValue > 0 { subscription.request(more) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
    let timer = self.timer.take()
    lock.unlock()
    timer?.cancel()
    scheduler.schedule(options: options) { [self] in deliver(completion) }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return
    }
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
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    let first = !requestedOnce
    requestedOnce = true
    lock.unlock()
    if first { armTimer() }
    subscription.request(demand)
  }

  func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    let timer = self.timer.take()
    lock.unlock()
    timer?.cancel()
    subscription.cancel()
  }

  private func timedOut() {
    lock.lock()
    guard !didTimeout, case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    didTimeout = true
    status = .terminal
    let timer = self.timer.take()
    lock.unlock()
    timer?.cancel()
    subscription.cancel()
    downstreamLock.lock()
    downstream.receive(completion: customError.map { .failure($0()) } ?? .finished)
    downstreamLock.unlock()
  }
}

extension Publishers {
  /// A publisher that terminates publishing if the upstream exceeds `interval` without producing
  /// an element: it finishes, or fails with `customError()` when given.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The maximum time interval the publisher can go without emitting an element.
    public let interval: Context.SchedulerTimeType.Stride
    public let scheduler: Context
    public let options: Context.SchedulerOptions?
    /// A closure that produces the error to fail with on timeout (`nil`: finish normally).
    public let customError: (() -> Upstream.Failure)?

    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TimeoutSubscription<Upstream, Context, S>(
          interval: interval, scheduler: scheduler, options: options, customError: customError,
          downstream: subscriber))
    }
  }
}

extension Publisher {
  /// Delays delivery of all output (and the completion) by `interval`, on the scheduler.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
      options: options)
  }

  /// Publishes either the most-recent or first element in each time interval.
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Publishers.Throttle<Self, S> {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }

  /// Terminates publishing if the upstream publisher exceeds `interval` without producing an
  /// element; finishes, or fails with `customError()` when given.
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
  }
}
