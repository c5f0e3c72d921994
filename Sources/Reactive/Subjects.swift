/// A publisher that exposes a method for outside callers to publish elements, as Combine's.
///
/// A subject is a reference type. `send(_:)` delivers a value synchronously, on the calling
/// thread, to every current subscriber that has outstanding demand (others miss it); after
/// `send(completion:)` every further `send` is ignored and late subscribers receive the
/// completion at once (with ``Subscriptions/empty``).
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to the subscribers.
  func send(_ value: Output)
  /// Sends a completion signal to the subscribers (only the first one counts).
  func send(completion: Subscribers.Completion<Failure>)
  /// Provides this subject with an upstream subscription (see `subscribe(_:)` with a subject).
  func send(subscription: Subscription)
}

extension Subject where Output == Void {
  /// Sends `()` to the subscribers.
  public func send() {
    send(())
  }
}

/// What a subject keeps of one subscriber: the subscription it handed out. The subject calls
/// `offer` for each value and `finish` once; the subscriber calls `request` and `cancel`.
class SubjectConduit<Output, Failure: Error>: Subscription, @unchecked Sendable {
  func offer(_ value: Output) {}
  func finish(_ completion: Subscribers.Completion<Failure>) {}
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
}

/// The state both subjects share: whether they are active, the completion, the conduits of their
/// subscribers, and the upstream subscriptions handed to them (`send(subscription:)`), which they
/// cancel when they are released.
///
/// `@unchecked Sendable`: every field is guarded by `lock`; nothing is called with it held.
final class SubjectState<Output, Failure: Error>: @unchecked Sendable {
  let lock = Lock()
  var completion: Subscribers.Completion<Failure>?
  var conduits: [SubjectConduit<Output, Failure>] = []
  var upstreams: [Subscription] = []

  /// Removes `conduit` (cancelled or finished) while the subject is active.
  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    lock.lock()
    guard completion == nil, let index = conduits.firstIndex(where: { $0 === conduit }) else {
      lock.unlock()
      return
    }
    let removed = conduits.remove(at: index)
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

  /// Attaches `subscriber` with a conduit made by `makeConduit`, or hands it the completion if
  /// the subject has completed.
  func attach<S: Subscriber>(
    _ subscriber: S, makeConduit: () -> SubjectConduit<Output, Failure>
  ) where S.Input == Output, S.Failure == Failure {
    lock.lock()
    if let completion {
      lock.unlock()
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
      return
    }
    let conduit = makeConduit()
    conduits.append(conduit)
    lock.unlock()
    subscriber.receive(subscription: conduit)
  }

  /// Completes every subscriber (the first time only).
  func complete(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard self.completion == nil else {
      lock.unlock()
      return
    }
    self.completion = completion
    let conduits = self.conduits
    self.conduits = []
    lock.unlock()
    for conduit in conduits { conduit.finish(completion) }
  }

  func cancelUpstreams() {
    lock.lock()
    let upstreams = self.upstreams
    self.upstreams = []
    lock.unlock()
    for upstream in upstreams { upstream.cancel() }
  }
}

// MARK: - PassthroughSubject

/// A subject that broadcasts elements to downstream subscribers, as Combine's
/// `PassthroughSubject`. It keeps no value: a subscriber sees only what is sent after it
/// subscribed, and only while it has demand.
///
/// `send` may be called from any thread, also concurrently and re-entrantly; each subscriber gets
/// every value exactly once (if it has demand), on the sending thread, one call at a time.
/// A subscription holds the subject until it is cancelled or the subject completes. An upstream
/// subscription handed to it (`send(subscription:)`) is asked for `.unlimited` once any
/// subscriber has asked for a value, and cancelled when the subject is released.
///
/// `@unchecked Sendable`: all state is guarded by an internal lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  fileprivate let state = SubjectState<Output, Failure>()
  fileprivate var hasAnyDownstreamDemand = false

  /// Creates a subject with no subscribers.
  public init() {}

  deinit {
    state.cancelUpstreams()
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    state.attach(subscriber) { PassthroughConduit(parent: self, downstream: subscriber) }
  }

  /// Sends `input` to every subscriber with demand; ignored after completion.
  public func send(_ input: Output) {
    state.lock.lock()
    guard state.completion == nil else {
      state.lock.unlock()
      return
    }
    let conduits = state.conduits
    state.lock.unlock()
    for conduit in conduits { conduit.offer(input) }
  }

  /// Completes every subscriber; later sends and completions are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    state.complete(completion)
  }

  /// Keeps `subscription` (cancelled when this subject is released) and requests `.unlimited`
  /// from it as soon as any subscriber has demand.
  public func send(subscription: Subscription) {
    state.lock.lock()
    state.upstreams.append(subscription)
    let request = hasAnyDownstreamDemand
    state.lock.unlock()
    if request { subscription.request(.unlimited) }
  }

  /// The first demand of any subscriber asks every upstream for `.unlimited`.
  fileprivate func acknowledgeDownstreamDemand() {
    state.lock.lock()
    guard !hasAnyDownstreamDemand else {
      state.lock.unlock()
      return
    }
    hasAnyDownstreamDemand = true
    let upstreams = state.upstreams
    state.lock.unlock()
    for upstream in upstreams { upstream.request(.unlimited) }
  }
}

/// The subscription a `PassthroughSubject` hands to each subscriber.
///
/// Thread safety (`@unchecked Sendable`): `lock` guards the fields; `downstreamLock` (recursive)
/// serialises calls into the subscriber so concurrent `send`s arrive one at a time, while a
/// re-entrant `send` from inside `receive` on the same thread goes through.
private final class PassthroughConduit<Downstream: Subscriber>: SubjectConduit<Downstream.Input, Downstream.Failure>,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Parent = PassthroughSubject<Downstream.Input, Downstream.Failure>
  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private var parent: Parent?
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none

  init(parent: Parent, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  var description: String { "PassthroughSubject" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("parent", parent as Any), ("downstream", downstream as Any), ("demand", demand), ("subject", parent as Any),
    ]
    return Mirror(self, children: children)
  }

  override func offer(_ value: Downstream.Input) {
    lock.lock()
    guard demand.rawValue > 0, let downstream else {
      lock.unlock()
      return
    }
    demand = demand.decremented
    lock.unlock()
    downstreamLock.lock()
    let more = downstream.receive(value)
    downstreamLock.unlock()
    guard more.rawValue > 0 else { return }
    lock.lock()
    demand += more
    lock.unlock()
  }

  override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard let downstream = downstream.take() else {
      lock.unlock()
      return
    }
    let parent = self.parent.take()
    lock.unlock()
    parent?.state.remove(self)
    downstreamLock.lock()
    downstream.receive(completion: completion)
    downstreamLock.unlock()
  }

  override func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard downstream != nil else {
      lock.unlock()
      return
    }
    self.demand += demand
    let parent = self.parent
    lock.unlock()
    parent?.acknowledgeDownstreamDemand()
  }

  override func cancel() {
    lock.lock()
    guard let downstream = downstream.take() else {
      lock.unlock()
      return
    }
    let parent = self.parent.take()
    lock.unlock()
    parent?.state.remove(self)
    withExtendedLifetime(downstream) {}
  }
}

// MARK: - CurrentValueSubject

/// A subject that wraps a single value and publishes a new element whenever the value changes,
/// as Combine's `CurrentValueSubject`.
///
/// Each new subscriber receives the current value as soon as it requests demand, then every later
/// value (a subscriber without demand when a value is sent gets the latest value on its next
/// request). Setting ``value`` is the same as `send(_:)`, except after completion: then it still
/// changes the value, silently (as in Combine), while `send(_:)` is ignored. Threads: as
/// ``PassthroughSubject``. An upstream subscription handed to it is asked for `.unlimited` at
/// once and cancelled when the subject is released.
///
/// `@unchecked Sendable`: all state is guarded by an internal lock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  fileprivate let state = SubjectState<Output, Failure>()
  private var currentValue: Output

  /// Creates a subject holding `value`.
  public init(_ value: Output) {
    currentValue = value
  }

  deinit {
    state.cancelUpstreams()
  }

  /// The value wrapped by this subject. Setting it stores the value and, unless the subject has
  /// completed, publishes it to every subscriber with demand.
  public var value: Output {
    get {
      state.lock.lock()
      defer { state.lock.unlock() }
      return currentValue
    }
    set {
      state.lock.lock()
      currentValue = newValue
      guard state.completion == nil else {
        state.lock.unlock()
        return
      }
      let conduits = state.conduits
      state.lock.unlock()
      for conduit in conduits { conduit.offer(newValue) }
    }
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    state.attach(subscriber) { CurrentValueConduit(parent: self, downstream: subscriber) }
  }

  /// Stores `input` as the current value and sends it to every subscriber with demand; ignored
  /// (the value unchanged) after completion.
  public func send(_ input: Output) {
    state.lock.lock()
    guard state.completion == nil else {
      state.lock.unlock()
      return
    }
    currentValue = input
    let conduits = state.conduits
    state.lock.unlock()
    for conduit in conduits { conduit.offer(input) }
  }

  /// Completes every subscriber; later sends and completions are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    state.complete(completion)
  }

  /// Keeps `subscription` (cancelled when this subject is released) and requests `.unlimited`.
  public func send(subscription: Subscription) {
    state.lock.lock()
    state.upstreams.append(subscription)
    state.lock.unlock()
    subscription.request(.unlimited)
  }
}

/// The subscription a `CurrentValueSubject` hands to each subscriber: as ``PassthroughConduit``,
/// plus the current value on the first request (and after a value it had no demand for).
private final class CurrentValueConduit<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Parent = CurrentValueSubject<Downstream.Input, Downstream.Failure>
  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private var parent: Parent?
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  /// Whether the subscriber has seen the latest value.
  private var deliveredCurrentValue = false

  init(parent: Parent, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  var description: String { "CurrentValueSubject" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("parent", parent as Any), ("downstream", downstream as Any), ("demand", demand), ("subject", parent as Any),
    ]
    return Mirror(self, children: children)
  }

  override func offer(_ value: Downstream.Input) {
    lock.lock()
    guard demand.rawValue > 0, let downstream else {
      deliveredCurrentValue = false
      lock.unlock()
      return
    }
    demand = demand.decremented
    deliveredCurrentValue = true
    lock.unlock()
    deliver(value, to: downstream)
  }

  private func deliver(_ value: Downstream.Input, to downstream: Downstream) {
    downstreamLock.lock()
    let more = downstream.receive(value)
    downstreamLock.unlock()
    guard more.rawValue > 0 else { return }
    lock.lock()
    demand += more
    lock.unlock()
  }

  override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard let downstream = downstream.take() else {
      lock.unlock()
      return
    }
    let parent = self.parent.take()
    lock.unlock()
    parent?.state.remove(self)
    downstreamLock.lock()
    downstream.receive(completion: completion)
    downstreamLock.unlock()
  }

  override func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    self.demand += demand
    guard !deliveredCurrentValue, let parent else {
      lock.unlock()
      return
    }
    deliveredCurrentValue = true
    let value = parent.value
    self.demand = self.demand.decremented
    lock.unlock()
    deliver(value, to: downstream)
  }

  override func cancel() {
    lock.lock()
    guard let downstream = downstream.take() else {
      lock.unlock()
      return
    }
    let parent = self.parent.take()
    lock.unlock()
    parent?.state.remove(self)
    withExtendedLifetime(downstream) {}
  }
}

// MARK: - Feeding a subject

/// Feeds a publisher into a subject, as Combine's `SubjectSubscriber` (returned, wrapped in an
/// `AnyCancellable`, by `Publisher.subscribe(_:)` with a subject; also behind
/// `AnySubscriber(subject)`). It holds the subject weakly: a released subject ends the feed.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure
  private let lock = Lock()
  private weak var downstreamSubject: Downstream?
  private var upstreamSubscription: Subscription?

  init(_ subject: Downstream) {
    downstreamSubject = subject
  }

  var description: String { "Subject" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstreamSubject", downstreamSubject as Any), ("upstreamSubscription", upstreamSubscription as Any),
      ("subject", downstreamSubject as Any),
    ]
    return Mirror(self, children: children)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    guard upstreamSubscription == nil, let subject = downstreamSubject else {
      lock.unlock()
      return
    }
    upstreamSubscription = subscription
    lock.unlock()
    subject.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let subject = downstreamSubject, upstreamSubscription != nil else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    subject.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard let subject = downstreamSubject, upstreamSubscription != nil else {
      lock.unlock()
      return
    }
    downstreamSubject = nil
    lock.unlock()
    subject.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    let upstream = upstreamSubscription
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard downstreamSubject != nil, let upstream = upstreamSubscription.take() else {
      lock.unlock()
      return
    }
    downstreamSubject = nil
    lock.unlock()
    upstream.cancel()
  }
}

extension Publisher {
  /// Attaches `subject` to this publisher: the subject re-sends every value and the completion
  /// (it holds the subject weakly). Cancel (or release) the returned cancellable to detach.
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
    let subscriber = SubjectSubscriber(subject)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
