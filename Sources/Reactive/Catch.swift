/// The subscription behind `catch`, `tryCatch` and `replaceError`: forwards the upstream until it
/// fails, then switches to the publisher the handler returns, requesting from it whatever demand
/// is still outstanding.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
final class CatchEngine<UpstreamFailure: Error, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
  typealias Output = Downstream.Input

  private let lock = Lock()
  private let name: String
  private var downstream: Downstream?
  private var current: Subscription?
  private var phase = 0
  private var started = false
  private var demand = Subscribers.Demand.none
  private var handler: ((UpstreamFailure) -> Result<NewPublisher, Downstream.Failure>)?
  /// For `append`: the publisher to continue with when the upstream finishes.
  private var continuation: (() -> NewPublisher)?
  private let mapFailure: ((UpstreamFailure) -> Downstream.Failure)?

  /// An engine that switches to `handler`'s publisher when the upstream fails (`catch`).
  init(
    _ name: String, downstream: Downstream,
    handler: @escaping (UpstreamFailure) -> Result<NewPublisher, Downstream.Failure>
  ) {
    self.name = name
    self.downstream = downstream
    self.handler = handler
    self.continuation = nil
    self.mapFailure = nil
  }

  /// An engine that switches to `continuation`'s publisher when the upstream finishes (`append`)
  /// and forwards its failure.
  init(
    _ name: String, downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    continuation: @escaping () -> NewPublisher
  ) {
    self.name = name
    self.downstream = downstream
    self.handler = nil
    self.continuation = continuation
    self.mapFailure = mapFailure
  }

  var description: String { name }
  var playgroundDescription: Any { name }
  var customMirror: Mirror {
    Mirror(self, children: ["demand": lock.withLock { demand }], displayStyle: .class)
  }

  /// The subscriber to attach to the upstream publisher.
  func upstreamSubscriber() -> AnySubscriber<Output, UpstreamFailure> {
    AnySubscriber(
      receiveSubscription: { [self] in subscribed($0, phase: 0) },
      receiveValue: { [self] in received($0, phase: 0) },
      receiveCompletion: { [self] completion in
        switch completion {
        case .finished:
          if let continuation = lock.withLock({ self.continuation }) {
            switchTo(.success(continuation()))
          } else {
            finish(.finished, phase: 0)
          }
        case .failure(let error):
          if let mapFailure {
            finish(.failure(mapFailure(error)), phase: 0)
          } else if let handler = lock.withLock({ self.handler }) {
            switchTo(handler(error))
          }
        }
      })
  }

  private func subscribed(_ subscription: Subscription, phase: Int) {
    lock.lock()
    guard let downstream, self.phase == phase, current == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    current = subscription
    let first = !started
    started = true
    let demand = self.demand
    lock.unlock()
    if first {
      downstream.receive(subscription: self)
    } else if demand > .none {
      subscription.request(demand)
    }
  }

  private func received(_ value: Output, phase: Int) -> Subscribers.Demand {
    lock.lock()
    guard let downstream, self.phase == phase else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(value)
    lock.withLock { demand += more }
    return more
  }

  private func finish(_ completion: Subscribers.Completion<Downstream.Failure>, phase: Int) {
    lock.lock()
    guard let downstream, self.phase == phase else {
      lock.unlock()
      return
    }
    self.downstream = nil
    current = nil
    handler = nil
    continuation = nil
    lock.unlock()
    downstream.receive(completion: completion)
  }

  private func switchTo(_ next: Result<NewPublisher, Downstream.Failure>) {
    lock.lock()
    guard downstream != nil, phase == 0 else {
      lock.unlock()
      return
    }
    phase = 1
    current = nil
    handler = nil
    continuation = nil
    lock.unlock()
    switch next {
    case .success(let publisher):
      publisher.subscribe(
        AnySubscriber<Output, Downstream.Failure>(
          receiveSubscription: { [self] in subscribed($0, phase: 1) },
          receiveValue: { [self] in received($0, phase: 1) },
          receiveCompletion: { [self] in finish($0, phase: 1) }))
    case .failure(let error):
      finish(.failure(error), phase: 1)
    }
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
    handler = nil
    continuation = nil
    lock.unlock()
    current?.cancel()
  }
}

extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
  /// with another publisher.
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = NewPublisher.Failure
    public let upstream: Upstream
    /// A closure that accepts the upstream failure as input and returns a publisher to replace it.
    public let handler: (Upstream.Failure) -> NewPublisher

    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let handler = handler
      let engine = CatchEngine<Upstream.Failure, NewPublisher, S>("Catch", downstream: subscriber) {
        .success(handler($0))
      }
      upstream.subscribe(engine.upstreamSubscriber())
    }
  }

  /// A publisher that handles errors by replacing the failed publisher with another one, or by
  /// failing with the error the handler throws.
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let handler: (Upstream.Failure) throws -> NewPublisher

    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let handler = handler
      let engine = CatchEngine<Upstream.Failure, Publishers.MapError<NewPublisher, Error>, S>(
        "TryCatch", downstream: subscriber
      ) { error in
        Result { try handler(error).mapError { $0 as Error } }
      }
      upstream.subscribe(engine.upstreamSubscriber())
    }
  }

  /// A publisher that replaces any error from the upstream publisher with the provided element
  /// (sent when the subscriber has demand), then finishes.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never
    public let upstream: Upstream
    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output

    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let output = output
      let engine = CatchEngine<Upstream.Failure, Just<Output>, S>("ReplaceError", downstream: subscriber) { _ in
        .success(Just(output))
      }
      upstream.subscribe(engine.upstreamSubscriber())
    }
  }
}

extension Publisher {
  /// Handles errors from an upstream publisher by replacing it with the publisher `handler` returns.
  public func `catch`<P: Publisher>(
    _ handler: @escaping (Failure) -> P
  ) -> Publishers.Catch<Self, P> where P.Output == Output {
    Publishers.Catch(upstream: self, handler: handler)
  }

  /// Handles errors by replacing the publisher, or fails with the error `handler` throws.
  public func tryCatch<P: Publisher>(
    _ handler: @escaping (Failure) throws -> P
  ) -> Publishers.TryCatch<Self, P> where P.Output == Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }

  /// Replaces any error from the upstream publisher with `output`, then finishes.
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

// MARK: - handleEvents

/// The subscription behind `handleEvents`: calls each closure, then forwards the event.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class HandleEventsSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let events: Publishers.HandleEvents<Upstream>
  private var downstream: Downstream?
  private var upstream: Subscription?

  init(events: Publishers.HandleEvents<Upstream>, downstream: Downstream) {
    self.events = events
    self.downstream = downstream
  }

  var description: String { "HandleEvents" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }

  func receive(subscription: Subscription) {
    lock.lock()
    guard upstream == nil, let downstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    lock.unlock()
    events.receiveSubscription?(subscription)
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ downstream }) else { return .none }
    events.receiveOutput?(input)
    let demand = downstream.receive(input)
    if demand > .none { events.receiveRequest?(demand) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let downstream = self.downstream
    self.downstream = nil
    upstream = nil
    lock.unlock()
    guard let downstream else { return }
    events.receiveCompletion?(completion)
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    events.receiveRequest?(demand)
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    lock.lock()
    let upstream = self.upstream
    let wasActive = downstream != nil
    self.upstream = nil
    downstream = nil
    lock.unlock()
    guard wasActive else { return }
    events.receiveCancel?()
    upstream?.cancel()
  }
}

extension Publishers {
  /// A publisher that performs the specified closures when publisher events occur (before
  /// forwarding them), on the thread of the event.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public var receiveSubscription: ((Subscription) -> Void)?
    public var receiveOutput: ((Upstream.Output) -> Void)?
    public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
    public var receiveCancel: (() -> Void)?
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    public init(
      upstream: Upstream, receiveSubscription: ((Subscription) -> Void)? = nil,
      receiveOutput: ((Upstream.Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(HandleEventsSubscription(events: self, downstream: subscriber))
    }
  }
}

extension Publisher {
  /// Performs the specified closures when publisher events occur.
  public func handleEvents(
    receiveSubscription: ((Subscription) -> Void)? = nil, receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil, receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
  }
}

// MARK: - append, prepend

extension Publishers {
  /// A publisher that emits all of one publisher's elements before those from another publisher
  /// (subscribed to when the first finishes; a failure of the first ends everything).
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
    public typealias Output = Suffix.Output
    public typealias Failure = Suffix.Failure
    /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
    public let prefix: Prefix
    /// The publisher to republish only after `prefix` finishes.
    public let suffix: Suffix

    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let suffix = suffix
      let engine = CatchEngine<Prefix.Failure, Suffix, S>(
        "Concatenate", downstream: subscriber, mapFailure: { $0 }, continuation: { suffix })
      prefix.subscribe(engine.upstreamSubscriber())
    }
  }
}

extension Publisher {
  /// Appends `publisher`'s elements after this publisher's (when it finishes).
  public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
  where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Appends the given elements after this publisher's.
  public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes this publisher's elements with `publisher`'s.
  public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
  where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }

  /// Prefixes this publisher's elements with the given elements.
  public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
    prepend(Publishers.Sequence(sequence: elements))
  }
}
