/// A publisher that exposes a method for outside callers to publish elements, as Combine's.
///
/// A subject is a reference type. `send(_:)` delivers a value synchronously, on the calling
/// thread, to every current subscriber that has outstanding demand (others miss it); after
/// `send(completion:)` every further `send` is ignored and late subscribers receive the
/// completion at once.
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

/// A namespace for symbols related to subscriptions, as Combine's `Subscriptions`.
public enum Subscriptions {
  /// A subscription that does nothing on request or cancellation (handed to a subscriber of a
  /// publisher that has already completed).
  public static var empty: Subscription { EmptySubscription() }
}

private struct EmptySubscription: Subscription, DescribedSubscription {
  let combineIdentifier = CombineIdentifier()
  var description: String { "Empty" }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
}

/// The subscription a subject hands to each subscriber.
///
/// Thread safety (`@unchecked Sendable`): `lock` guards the fields; `downstreamLock` (recursive)
/// serialises calls into the subscriber so concurrent `send`s arrive one at a time, while a
/// re-entrant `send` from inside `receive` on the same thread goes through. No lock of this
/// object is held while it calls back into the subject.
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  private let lock = Lock()
  private let downstreamLock = RecursiveLock()
  private let name: String
  private var downstream: AnySubscriber<Output, Failure>?
  private var demand = Subscribers.Demand.none
  /// Removes this conduit from its subject; cleared on termination (breaks the retain cycle).
  private var detach: (() -> Void)?
  /// For `CurrentValueSubject`: reads the subject's current value.
  private var currentValue: (() -> Output)?
  /// For `CurrentValueSubject`: the subscriber has not yet seen the latest value.
  private var owesCurrentValue: Bool

  init(
    name: String, downstream: AnySubscriber<Output, Failure>, currentValue: (() -> Output)?,
    detach: @escaping () -> Void
  ) {
    self.name = name
    self.downstream = downstream
    self.currentValue = currentValue
    self.owesCurrentValue = currentValue != nil
    self.detach = detach
  }

  var description: String { name }
  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    let (downstream, demand) = lock.withLock { (self.downstream, self.demand) }
    return Mirror(
      self, children: ["downstream": downstream as Any, "demand": demand], displayStyle: .class)
  }

  /// Hands this subscription to the subscriber (no completion can overtake it).
  func start() {
    downstreamLock.withLock {
      guard let downstream = lock.withLock({ self.downstream }) else { return }
      downstream.receive(subscription: self)
    }
  }

  /// Delivers `value` if the subscriber has demand; otherwise drops it.
  func offer(_ value: Output) {
    lock.lock()
    guard downstream != nil else {
      lock.unlock()
      return
    }
    guard demand > .none else {
      if currentValue != nil { owesCurrentValue = true }
      lock.unlock()
      return
    }
    demand -= 1
    owesCurrentValue = false
    lock.unlock()
    deliver(value)
  }

  private func deliver(_ value: Output) {
    downstreamLock.withLock {
      guard let downstream = lock.withLock({ self.downstream }) else { return }
      let more = downstream.receive(value)
      if more > .none {
        lock.withLock { demand += more }
      }
    }
  }

  /// Sends the completion (regardless of demand) and ends the subscription.
  func finish(_ completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      let downstream = self.downstream
      self.downstream = nil
      detach = nil
      currentValue = nil
      return downstream
    }
    guard let downstream else { return }
    downstreamLock.withLock { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    let replay = lock.withLock { () -> (() -> Output)? in
      guard downstream != nil else { return nil }
      self.demand += demand
      guard owesCurrentValue, let currentValue else { return nil }
      owesCurrentValue = false
      self.demand -= 1
      return currentValue
    }
    if let replay { deliver(replay()) }
  }

  func cancel() {
    let detach = lock.withLock { () -> (() -> Void)? in
      let detach = self.detach
      downstream = nil
      self.detach = nil
      currentValue = nil
      return detach
    }
    detach?()
  }
}

/// The shared bookkeeping of both subjects: the list of conduits and the terminal state.
private final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  let lock = Lock()
  var conduits: [SubjectConduit<Output, Failure>] = []
  var completion: Subscribers.Completion<Failure>?
  var upstreams: [Subscription] = []

  /// Adds a conduit for `subscriber`, or returns the completion if the subject has finished.
  func attach<S: Subscriber>(
    _ subscriber: S, name: String, currentValue: (() -> Output)?, owner: AnyObject
  ) where S.Input == Output, S.Failure == Failure {
    lock.lock()
    if let completion {
      lock.unlock()
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
      return
    }
    var conduit: SubjectConduit<Output, Failure>?
    let created = SubjectConduit(
      name: name, downstream: AnySubscriber(subscriber), currentValue: currentValue,
      detach: { [self, owner] in
        _ = owner
        if let conduit { remove(conduit) }
      })
    conduit = created
    conduits.append(created)
    lock.unlock()
    created.start()
  }

  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    lock.withLock { conduits.removeAll { $0 === conduit } }
  }

  func snapshotIfActive() -> [SubjectConduit<Output, Failure>]? {
    lock.withLock { completion == nil ? conduits : nil }
  }

  func complete(_ completion: Subscribers.Completion<Failure>) {
    let conduits = lock.withLock { () -> [SubjectConduit<Output, Failure>] in
      guard self.completion == nil else { return [] }
      self.completion = completion
      let conduits = self.conduits
      self.conduits = []
      upstreams = []
      return conduits
    }
    for conduit in conduits { conduit.finish(completion) }
  }

  func add(upstream: Subscription) {
    let active = lock.withLock { () -> Bool in
      guard completion == nil else { return false }
      upstreams.append(upstream)
      return true
    }
    if active { upstream.request(.unlimited) } else { upstream.cancel() }
  }
}

/// A subject that broadcasts elements to downstream subscribers, as Combine's
/// `PassthroughSubject`. It keeps no value: a subscriber sees only what is sent after it
/// subscribed, and only while it has demand.
///
/// `send` may be called from any thread, also concurrently and re-entrantly; each subscriber gets
/// every value exactly once (if it has demand), on the sending thread, one call at a time.
/// A subscription holds the subject until it is cancelled or the subject completes.
///
/// `@unchecked Sendable`: all state is guarded by an internal lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  private let core = SubjectCore<Output, Failure>()

  /// Creates a subject with no subscribers.
  public init() {}

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.attach(subscriber, name: "PassthroughSubject", currentValue: nil, owner: self)
  }

  /// Sends `input` to every subscriber with demand; ignored after completion.
  public func send(_ input: Output) {
    guard let conduits = core.snapshotIfActive() else { return }
    for conduit in conduits { conduit.offer(input) }
  }

  /// Completes every subscriber; later sends and completions are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    core.complete(completion)
  }

  /// Requests `.unlimited` from `subscription` (so an upstream publisher can feed this subject).
  public func send(subscription: Subscription) {
    core.add(upstream: subscription)
  }
}

/// A subject that wraps a single value and publishes a new element whenever the value changes,
/// as Combine's `CurrentValueSubject`.
///
/// Each new subscriber receives the current value as soon as it requests demand, then every later
/// value. Setting ``value`` is the same as `send(_:)`. Threads: as ``PassthroughSubject``.
///
/// `@unchecked Sendable`: all state is guarded by an internal lock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  private let core = SubjectCore<Output, Failure>()
  private var currentValue: Output

  /// Creates a subject holding `value`.
  public init(_ value: Output) {
    currentValue = value
  }

  /// The value wrapped by this subject; setting it publishes the new value.
  public var value: Output {
    get { core.lock.withLock { currentValue } }
    set { send(newValue) }
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.attach(subscriber, name: "CurrentValueSubject", currentValue: { [self] in value }, owner: self)
  }

  /// Stores `input` as the current value and sends it to every subscriber with demand; ignored
  /// after completion.
  public func send(_ input: Output) {
    let conduits = core.lock.withLock { () -> [SubjectConduit<Output, Failure>]? in
      guard core.completion == nil else { return nil }
      currentValue = input
      return core.conduits
    }
    guard let conduits else { return }
    for conduit in conduits { conduit.offer(input) }
  }

  /// Completes every subscriber; later sends and completions are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    core.complete(completion)
  }

  /// Requests `.unlimited` from `subscription`.
  public func send(subscription: Subscription) {
    core.add(upstream: subscription)
  }
}

/// Feeds a publisher into a subject; returned by `Publisher.subscribe(_:)` with a subject.
private final class SubjectSubscriber<S: Subject>: Subscriber, Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  private let lock = Lock()
  private var subject: S?
  private var upstream: Subscription?

  init(_ subject: S) { self.subject = subject }

  var description: String { "Subject" }

  func receive(subscription: Subscription) {
    lock.lock()
    let subject = upstream == nil ? self.subject : nil
    if subject != nil { upstream = subscription }
    lock.unlock()
    guard let subject else {
      subscription.cancel()
      return
    }
    subject.send(subscription: self)
  }

  func receive(_ input: S.Output) -> Subscribers.Demand {
    lock.withLock { subject }?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<S.Failure>) {
    let subject = lock.withLock { () -> S? in
      let subject = self.subject
      self.subject = nil
      upstream = nil
      return subject
    }
    subject?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> Subscription? in
      let upstream = self.upstream
      self.upstream = nil
      subject = nil
      return upstream
    }
    upstream?.cancel()
  }
}

extension Publisher {
  /// Attaches `subject` to this publisher: the subject re-sends every value and the completion.
  /// Cancel (or release) the returned cancellable to detach.
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
    let subscriber = SubjectSubscriber(subject)
    receive(subscriber: subscriber)
    return AnyCancellable(subscriber)
  }
}
