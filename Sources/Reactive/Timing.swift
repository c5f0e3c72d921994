/// The subscription behind `delay`, `throttle` and `timeout`: requests `.unlimited` upstream
/// and delivers on the scheduler; the subclass-free design keeps each operator's rule in the
/// closures below. Values are sent only while the subscriber has demand (others are dropped),
/// one call at a time as the scheduler runs them.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class TimedSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  enum Kind {
    case delay(Context.SchedulerTimeType.Stride)
    case throttle(Context.SchedulerTimeType.Stride, latest: Bool)
    case timeout(Context.SchedulerTimeType.Stride, customError: (() -> Failure)?)
  }

  private let lock = Lock()
  private let name: String
  private let kind: Kind
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var upstreamDone = false
  private var demand = Subscribers.Demand.none
  // throttle
  private var windowOpen = false
  private var pending: Input?
  private var pendingCompletion: Subscribers.Completion<Failure>?
  // timeout
  private var generation = 0

  init(_ name: String, kind: Kind, scheduler: Context, options: Context.SchedulerOptions?, downstream: Downstream) {
    self.name = name
    self.kind = kind
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  var description: String { name }
  var playgroundDescription: Any { name }
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
    if case .timeout(let interval, _) = kind { armTimeout(interval) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ downstream != nil && !upstreamDone }) else { return .none }
    switch kind {
    case .delay(let interval):
      scheduler.schedule(
        after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options
      ) {
        [self] in send(input)
      }
    case .throttle(let interval, let latest):
      lock.lock()
      if windowOpen {
        if latest || pending == nil { pending = input }
        lock.unlock()
      } else {
        windowOpen = true
        lock.unlock()
        scheduler.schedule(options: options) { [self] in send(input) }
        scheduleWindowEnd(interval)
      }
    case .timeout(let interval, _):
      armTimeout(interval)
      scheduler.schedule(options: options) { [self] in send(input) }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let active = lock.withLock { () -> Bool in
      guard downstream != nil, !upstreamDone else { return false }
      upstreamDone = true
      upstream = nil
      generation += 1
      return true
    }
    guard active else { return }
    switch kind {
    case .delay(let interval):
      scheduler.schedule(
        after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options
      ) {
        [self] in complete(completion)
      }
    case .throttle:
      // A value still waiting for the end of its window is sent first.
      let waiting = lock.withLock { () -> Bool in
        guard windowOpen, pending != nil else { return false }
        pendingCompletion = completion
        return true
      }
      if !waiting { scheduler.schedule(options: options) { [self] in complete(completion) } }
    case .timeout:
      scheduler.schedule(options: options) { [self] in complete(completion) }
    }
  }

  private func scheduleWindowEnd(_ interval: Context.SchedulerTimeType.Stride) {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options
    ) {
      [self] in
      lock.lock()
      guard let value = pending else {
        windowOpen = false
        lock.unlock()
        return
      }
      pending = nil
      let completion = pendingCompletion
      pendingCompletion = nil
      lock.unlock()
      send(value)
      if let completion {
        complete(completion)
      } else {
        scheduleWindowEnd(interval)
      }
    }
  }

  private func armTimeout(_ interval: Context.SchedulerTimeType.Stride) {
    let generation = lock.withLock { () -> Int in
      self.generation += 1
      return self.generation
    }
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options
    ) {
      [self] in
      lock.lock()
      guard generation == self.generation, !upstreamDone, downstream != nil else {
        lock.unlock()
        return
      }
      upstreamDone = true
      let upstream = self.upstream
      self.upstream = nil
      lock.unlock()
      upstream?.cancel()
      if case .timeout(_, let customError) = kind, let customError {
        complete(.failure(customError()))
      } else {
        complete(.finished)
      }
    }
  }

  /// Sends a value on the scheduler if the subscriber has demand.
  private func send(_ value: Input) {
    lock.lock()
    guard let downstream, demand > .none else {
      lock.unlock()
      return
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(value)
    lock.withLock { demand += more }
  }

  private func complete(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let downstream = self.downstream
    self.downstream = nil
    pending = nil
    lock.unlock()
    downstream?.receive(completion: completion)
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
    pending = nil
    generation += 1
    lock.unlock()
    upstream?.cancel()
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
        TimedSubscription<Upstream, Context, S>(
          "Delay", kind: .delay(interval), scheduler: scheduler, options: options, downstream: subscriber))
    }
  }

  /// A publisher that publishes either the most-recent or first element published by the
  /// upstream publisher in a specified time interval: the first element of a quiet period goes
  /// out at once, then at most one per interval (at the end of it).
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
        TimedSubscription<Upstream, Context, S>(
          "Throttle", kind: .throttle(interval, latest: latest), scheduler: scheduler, options: nil,
          downstream: subscriber))
    }
  }

  /// A publisher that terminates publishing if the upstream publisher exceeds a specified time
  /// interval without producing an element (finishing, or failing with `customError()`).
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
        TimedSubscription<Upstream, Context, S>(
          "Timeout", kind: .timeout(interval, customError: customError), scheduler: scheduler, options: options,
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
