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

extension Publishers {
  /// A publisher that uses a subject to deliver elements to multiple subscribers: `connect()`
  /// subscribes the subject to the upstream.
  ///
  /// `@unchecked Sendable`: the connection is guarded by a lock.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
  where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    /// A closure to create a new subject (called once, lazily).
    public let createSubject: () -> SubjectType
    private let lock = Lock()
    private var subject: SubjectType?
    private var connection: AnyCancellable?

    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    private var lazySubject: SubjectType {
      lock.withLock {
        if let subject { return subject }
        let created = createSubject()
        subject = created
        return created
      }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      lazySubject.subscribe(subscriber)
    }

    /// Subscribes the subject to the upstream (once; later calls return the same connection).
    public func connect() -> Cancellable {
      let subject = lazySubject
      lock.lock()
      if let connection {
        lock.unlock()
        return connection
      }
      let placeholder = AnyCancellable {}
      connection = placeholder
      lock.unlock()
      let real = upstream.subscribe(subject)
      let connection = AnyCancellable { [weak self] in
        real.cancel()
        self?.lock.withLock { self?.connection = nil }
      }
      lock.withLock { self.connection = connection }
      return connection
    }
  }

  /// A publisher that connects its connectable upstream on the first subscription and cancels
  /// the connection when every subscriber has cancelled.
  ///
  /// `@unchecked Sendable`: the subscriber count and connection are guarded by a lock.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    private let lock = Lock()
    private var subscribers = 0
    private var connection: Cancellable?

    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      lock.withLock { subscribers += 1 }
      upstream.subscribe(
        AutoconnectSubscriber(downstream: subscriber, onEnd: { [weak self] in self?.subscriberEnded() }))
      let needsConnection = lock.withLock { connection == nil && subscribers > 0 }
      if needsConnection {
        let connection = upstream.connect()
        lock.withLock { self.connection = connection }
      }
    }

    private func subscriberEnded() {
      let connection = lock.withLock { () -> Cancellable? in
        subscribers -= 1
        guard subscribers == 0 else { return nil }
        let connection = self.connection
        self.connection = nil
        return connection
      }
      connection?.cancel()
    }
  }

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
      inner = Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
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
      inner = Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    public func connect() -> Cancellable {
      inner.connect()
    }
  }
}

/// Forwards to a downstream subscriber and reports when its subscription ends (completion or
/// cancellation), once.
private final class AutoconnectSubscriber<Downstream: Subscriber>: Subscriber, Subscription, DescribedSubscription,
  @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  private let lock = Lock()
  private var downstream: Downstream?
  private var upstream: Subscription?
  private var onEnd: (() -> Void)?

  init(downstream: Downstream, onEnd: @escaping () -> Void) {
    self.downstream = downstream
    self.onEnd = onEnd
  }

  var description: String { "Autoconnect" }

  func receive(subscription: Subscription) {
    guard
      let downstream = lock.withLock({ () -> Downstream? in
        upstream = subscription
        return self.downstream
      })
    else { return }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { downstream }?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (downstream, onEnd) = end()
    downstream?.receive(completion: completion)
    onEnd?()
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { self.upstream }
    let (_, onEnd) = end()
    upstream?.cancel()
    onEnd?()
  }

  private func end() -> (Downstream?, (() -> Void)?) {
    lock.withLock {
      let result = (downstream, onEnd)
      downstream = nil
      upstream = nil
      onEnd = nil
      return result
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

/// The subscription behind `retry`: on failure, resubscribes to the upstream (up to `retries`
/// times, or forever for `nil`), requesting whatever demand is still outstanding.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription,
  DescribedSubscription, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  private let lock = Lock()
  private let upstream: Upstream
  private var remaining: Int?
  private var downstream: Downstream?
  private var current: Subscription?
  private var generation = 0
  private var started = false
  private var demand = Subscribers.Demand.none

  init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    self.upstream = upstream
    self.remaining = retries
    self.downstream = downstream
  }

  var description: String { "Retry" }

  func subscribeUpstream() {
    let generation = lock.withLock { self.generation }
    upstream.subscribe(
      AnySubscriber<Upstream.Output, Upstream.Failure>(
        receiveSubscription: { [self] subscription in
          lock.lock()
          guard downstream != nil, self.generation == generation else {
            lock.unlock()
            subscription.cancel()
            return
          }
          current = subscription
          let first = !started
          started = true
          let demand = self.demand
          let downstream = self.downstream
          lock.unlock()
          if first {
            downstream?.receive(subscription: self)
          } else if demand > .none {
            subscription.request(demand)
          }
        },
        receiveValue: { [self] value in
          lock.lock()
          guard let downstream, self.generation == generation else {
            lock.unlock()
            return .none
          }
          demand -= 1
          lock.unlock()
          let more = downstream.receive(value)
          lock.withLock { demand += more }
          return more
        },
        receiveCompletion: { [self] completion in
          lock.lock()
          guard let downstream, self.generation == generation else {
            lock.unlock()
            return
          }
          if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
            remaining = remaining.map { $0 - 1 }
            self.generation += 1
            current = nil
            lock.unlock()
            subscribeUpstream()
            return
          }
          self.downstream = nil
          current = nil
          lock.unlock()
          downstream.receive(completion: completion)
        }))
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
    let current = self.current
    self.current = nil
    downstream = nil
    lock.unlock()
    current?.cancel()
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
      RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber).subscribeUpstream()
    }
  }
}

extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to `retries` times.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}
