/// A publisher that provides an explicit means of connecting and cancelling publication, as
/// Combine's `ConnectablePublisher`: subscribers attach first, nothing flows until `connect()`.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Connects to the publisher, allowing it to produce elements; cancel the result to disconnect.
  func connect() -> Cancellable
}

extension ConnectablePublisher {
  /// Connects on the first subscription and disconnects when the last subscriber cancels.
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

// MARK: - multicast

/// The subscriber a `Multicast` attaches to its subject for each of its own subscribers: passes
/// values down and asks the subject for whatever demand the subscriber returns.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class MulticastSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private var status = UpstreamState.awaiting

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "Multicast" }
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
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    let more = downstream.receive(input)
    if more.rawValue > 0 { subscription.request(more) }
    return .none
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
  /// A publisher that uses a subject to deliver elements to multiple subscribers: `connect()`
  /// subscribes the subject to the upstream (each call subscribes again, as in Combine).
  ///
  /// `@unchecked Sendable`: the subject is created once, under a lock.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
  where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// A closure to create a new subject (called once, lazily).
    public let createSubject: () -> SubjectType
    private let lock = Lock()
    private var subject: SubjectType?

    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    private var lazySubject: SubjectType {
      lock.lock()
      if let subject {
        lock.unlock()
        return subject
      }
      let created = createSubject()
      subject = created
      lock.unlock()
      return created
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      lazySubject.subscribe(MulticastSubscription(downstream: subscriber))
    }

    /// Subscribes the subject to the upstream; cancel the result to disconnect.
    public func connect() -> Cancellable {
      upstream.subscribe(lazySubject)
    }
  }

  /// A publisher that connects its connectable upstream on the first subscription and cancels
  /// the connection when every subscriber has cancelled.
  ///
  /// `@unchecked Sendable`: the subscriber count and connection are guarded by a lock.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    private enum State {
      case disconnected
      case connected(count: Int, connection: Cancellable)
    }

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream
    private let lock = Lock()
    private var state = State.disconnected

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = AutoconnectSubscriber(parent: self, downstream: subscriber)
      lock.lock()
      switch state {
      case .connected(let count, let connection):
        state = .connected(count: count + 1, connection: connection)
        lock.unlock()
        upstream.subscribe(inner)
      case .disconnected:
        lock.unlock()
        upstream.subscribe(inner)
        let connection = upstream.connect()
        lock.lock()
        state = .connected(count: 1, connection: connection)
        lock.unlock()
      }
    }

    fileprivate func willCancel() {
      lock.lock()
      guard case .connected(let count, let connection) = state else {
        lock.unlock()
        return
      }
      if count <= 1 {
        state = .disconnected
        lock.unlock()
        connection.cancel()
      } else {
        state = .connected(count: count - 1, connection: connection)
        lock.unlock()
      }
    }
  }
}

/// Forwards to a downstream subscriber; its subscription tells the `Autoconnect` when it is
/// cancelled.
private struct AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  let combineIdentifier = CombineIdentifier()
  let parent: Publishers.Autoconnect<Upstream>
  let downstream: Downstream

  var description: String { "Autoconnect" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: ["parent": parent, "downstream": downstream]) }

  func receive(subscription: Subscription) {
    downstream.receive(subscription: AutoconnectSubscription(upstream: subscription, parent: parent))
  }

  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
  func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// The upstream subscription, seen through `Autoconnect`: a cancel first tells the parent.
private struct AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription, CustomStringConvertible,
  CustomPlaygroundDisplayConvertible
{
  let upstream: Subscription
  let parent: Publishers.Autoconnect<Upstream>

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
  var description: String { String(describing: upstream) }
  var playgroundDescription: Any { description }

  func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

  func cancel() {
    parent.willCancel()
    upstream.cancel()
  }
}

extension Publishers {
  /// A publisher that shares the output of an upstream publisher with multiple subscribers: the
  /// upstream is subscribed once, on the first subscription, through a `PassthroughSubject` (so
  /// late subscribers miss earlier values), and cancelled when the last subscriber cancels.
  /// A class: copies share one upstream subscription, as in Combine.
  ///
  /// `@unchecked Sendable`: its state lives in thread-safe `Multicast`/`Autoconnect` objects.
  public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
  }

  /// A connectable publisher made from a publisher (`makeConnectable()`).
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

    public init(upstream: Upstream) {
      inner = upstream.multicast(subject: PassthroughSubject())
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    public func connect() -> Cancellable {
      inner.connect()
    }
  }
}

extension Publisher {
  /// Shares the output of this publisher with multiple subscribers (see `Publishers.Share`).
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }

  /// Applies a closure to create a subject that delivers elements to subscribers after `connect()`.
  public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
  where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Provides a subject to deliver elements to subscribers after `connect()`.
  public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
  where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self, createSubject: { subject })
  }
}

extension Publisher where Failure == Never {
  /// Creates a connectable wrapper around this publisher.
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}

// MARK: - retry

/// The subscription behind `retry`: on failure, subscribes to the upstream again (up to
/// `retries` times, or forever for `nil`), requesting the demand still outstanding; the demand
/// the subscriber returns from `receive(_:)` is requested from the upstream (and `.none`
/// returned), as Combine does. A failure from inside a resubscription is retried by the loop
/// already running, not recursively.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let upstreamPublisher: Upstream
  /// Released on termination (as Combine does for `retry`).
  private var downstream: Downstream?
  private var isActive = true
  private var upstream: Subscription?
  private var remaining: Int?
  private var downstreamNeedsSubscription = true
  private var demand = Subscribers.Demand.none
  private var completionRecursion = false
  private var needsSubscribe = false

  init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    upstreamPublisher = upstream
    remaining = retries
    self.downstream = downstream
  }

  var description: String { "Retry" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard isActive, upstream == nil, let downstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    let demand = self.demand
    let handOver = downstreamNeedsSubscription
    downstreamNeedsSubscription = false
    lock.unlock()
    if handOver { downstream.receive(subscription: self) }
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard isActive, let downstream else {
      lock.unlock()
      return .none
    }
    demand = demand.decremented
    lock.unlock()
    let more = downstream.receive(input)
    guard more.rawValue > 0 else { return .none }
    lock.lock()
    demand += more
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(more)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard isActive else {
      lock.unlock()
      return
    }
    if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
      upstream = nil
      remaining = remaining.map { $0 - 1 }
      if completionRecursion {
        needsSubscribe = true
        lock.unlock()
        return
      }
      repeat {
        completionRecursion = true
        needsSubscribe = false
        lock.unlock()
        upstreamPublisher.subscribe(self)
        lock.lock()
        completionRecursion = false
      } while needsSubscribe
      lock.unlock()
      return
    }
    isActive = false
    upstream = nil
    let downstream = self.downstream.take()
    lock.unlock()
    downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard isActive else {
      lock.unlock()
      return
    }
    self.demand += demand
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard isActive else {
      lock.unlock()
      return
    }
    isActive = false
    let upstream = self.upstream.take()
    let downstream = self.downstream.take()
    lock.unlock()
    withExtendedLifetime(downstream) {}
    upstream?.cancel()
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The maximum number of retry attempts to perform (`nil`: retry indefinitely).
    public let retries: Int?

    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber))
    }
  }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to `retries` times.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}
