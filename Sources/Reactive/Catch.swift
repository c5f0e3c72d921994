// MARK: - catch, tryCatch

/// The subscription behind `catch` and `tryCatch`, as Combine builds it: before the upstream
/// fails it forwards values and tracks the demand still outstanding (requested minus delivered
/// plus what `receive(_:)` returned); when the upstream fails it subscribes to the handler's
/// publisher and requests exactly that outstanding demand from it (nothing if none is left), then
/// passes values, requests and cancellation straight through. A handler that throws (`tryCatch`)
/// fails downstream with the thrown error. The handler is released once it has run or the
/// subscription ended.
///
/// `@unchecked Sendable`: the state is guarded by a lock; nothing is called with it held.
private final class CatchSubscription<UpstreamOutput, UpstreamFailure: Error, NewPublisher: Publisher, Downstream>:
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
  Downstream: Subscriber, NewPublisher.Output == UpstreamOutput, Downstream.Input == UpstreamOutput
{
  private enum Phase {
    case awaitingPre
    case pre(Subscription)
    case awaitingPost
    case post(Subscription)
    case done
  }

  let description: String
  private let lock = Lock()
  private let downstream: Downstream
  private var phase = Phase.awaitingPre
  private var demand = Subscribers.Demand.none
  private var handler: ((UpstreamFailure) throws -> NewPublisher)?
  private let mapNewFailure: (NewPublisher.Failure) -> Downstream.Failure
  private let mapThrown: (Error) -> Downstream.Failure

  init(
    _ name: String, downstream: Downstream, handler: @escaping (UpstreamFailure) throws -> NewPublisher,
    mapNewFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure,
    mapThrown: @escaping (Error) -> Downstream.Failure
  ) {
    description = name
    self.downstream = downstream
    self.handler = handler
    self.mapNewFailure = mapNewFailure
    self.mapThrown = mapThrown
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    return Mirror(self, children: ["downstream": downstream, "demand": demand])
  }

  /// The subscriber to attach to the upstream publisher.
  var upstreamSubscriber: PhaseSubscriber<UpstreamOutput, UpstreamFailure> {
    PhaseSubscriber(
      combineIdentifier: CombineIdentifier(self), description: description, mirror: { [self] in customMirror },
      receiveSubscription: { [self] in receivePre(subscription: $0) }, receiveValue: { [self] in receivePre($0) },
      receiveCompletion: { [self] in receivePre(completion: $0) })
  }

  private func receivePre(subscription: Subscription) {
    lock.lock()
    guard case .awaitingPre = phase else {
      lock.unlock()
      subscription.cancel()
      return
    }
    phase = .pre(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  private func receivePre(_ input: UpstreamOutput) -> Subscribers.Demand {
    lock.lock()
    demand = demand.decremented
    lock.unlock()
    let more = downstream.receive(input)
    guard more.rawValue > 0 else { return .none }
    lock.lock()
    demand += more
    lock.unlock()
    return more
  }

  private func receivePre(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard case .pre = phase else {
      lock.unlock()
      return
    }
    switch completion {
    case .finished:
      phase = .done
      let released = handler.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      downstream.receive(completion: .finished)
    case .failure(let error):
      phase = .awaitingPost
      let handler = self.handler.take()
      lock.unlock()
      guard let handler else { return }
      do {
        let next = try handler(error)
        next.subscribe(
          PhaseSubscriber<UpstreamOutput, NewPublisher.Failure>(
            combineIdentifier: CombineIdentifier(self), description: description, mirror: { [self] in customMirror },
            receiveSubscription: { [self] in receivePost(subscription: $0) },
            receiveValue: { [self] in receivePost($0) }, receiveCompletion: { [self] in receivePost(completion: $0) }))
      } catch {
        lock.lock()
        phase = .done
        lock.unlock()
        downstream.receive(completion: .failure(mapThrown(error)))
      }
    }
  }

  private func receivePost(subscription: Subscription) {
    lock.lock()
    guard case .awaitingPost = phase else {
      lock.unlock()
      subscription.cancel()
      return
    }
    phase = .post(subscription)
    let demand = self.demand
    lock.unlock()
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  private func receivePost(_ input: UpstreamOutput) -> Subscribers.Demand {
    downstream.receive(input)
  }

  private func receivePost(completion: Subscribers.Completion<NewPublisher.Failure>) {
    lock.lock()
    guard case .post = phase else {
      lock.unlock()
      return
    }
    phase = .done
    lock.unlock()
    downstream.receive(completion: completion.mapError(mapNewFailure))
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    switch phase {
    case .pre(let subscription):
      self.demand += demand
      lock.unlock()
      subscription.request(demand)
    case .awaitingPost:
      self.demand += demand
      lock.unlock()
    case .post(let subscription):
      lock.unlock()
      subscription.request(demand)
    case .awaitingPre, .done:
      lock.unlock()
    }
  }

  func cancel() {
    lock.lock()
    switch phase {
    case .pre(let subscription), .post(let subscription):
      phase = .done
      let released = handler.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      subscription.cancel()
    case .awaitingPre, .awaitingPost, .done:
      lock.unlock()
    }
  }
}

/// A subscriber made of closures that keeps the identity, description and mirror of the
/// subscription it works for (the upstream and the replacement of `catch` both see "Catch").
struct PhaseSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  let combineIdentifier: CombineIdentifier
  let description: String
  let mirror: () -> Mirror
  let receiveSubscription: (Subscription) -> Void
  let receiveValue: (Input) -> Subscribers.Demand
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  var customMirror: Mirror { mirror() }
  var playgroundDescription: Any { description }

  func receive(subscription: Subscription) { receiveSubscription(subscription) }
  func receive(_ input: Input) -> Subscribers.Demand { receiveValue(input) }
  func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}

extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
  /// with another publisher (asked for the demand still outstanding).
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
      let subscription = CatchSubscription<Output, Upstream.Failure, NewPublisher, S>(
        "Catch", downstream: subscriber, handler: { handler($0) }, mapNewFailure: { $0 },
        mapThrown: { _ in preconditionFailure("catch's handler cannot throw") })
      upstream.subscribe(subscription.upstreamSubscriber)
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
      let subscription = CatchSubscription<Output, Upstream.Failure, NewPublisher, S>(
        "TryCatch", downstream: subscriber, handler: handler, mapNewFailure: { $0 }, mapThrown: { $0 })
      upstream.subscribe(subscription.upstreamSubscriber)
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
}

// MARK: - replaceError

/// The subscription of `replaceError(with:)`: forwards upstream while tracking the outstanding
/// demand; on failure it sends the replacement (at once if there is demand left, else on the
/// next request) and `.finished`.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class ReplaceErrorSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Never {
  typealias Failure = UpstreamFailure

  private let lock = Lock()
  private let output: Input
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var failedWithoutDemand = false
  private var demand = Subscribers.Demand.none

  init(downstream: Downstream, output: Input) {
    self.downstream = downstream
    self.output = output
  }

  var description: String { "ReplaceError" }
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
    demand = demand.decremented
    lock.unlock()
    let more = downstream.receive(input)
    guard more.rawValue > 0 else { return .none }
    lock.lock()
    demand += more
    lock.unlock()
    return more
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed, !failedWithoutDemand else {
      lock.unlock()
      return
    }
    switch completion {
    case .finished:
      status = .terminal
      lock.unlock()
      downstream.receive(completion: .finished)
    case .failure:
      guard demand.rawValue > 0 else {
        failedWithoutDemand = true
        lock.unlock()
        return
      }
      status = .terminal
      lock.unlock()
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    if failedWithoutDemand {
      failedWithoutDemand = false
      status = .terminal
      lock.unlock()
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
      return
    }
    self.demand += demand
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
  /// A publisher that replaces any error from the upstream publisher with the provided element
  /// (sent when the subscriber has demand), then finishes.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never
    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output
    public let upstream: Upstream

    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      upstream.subscribe(
        ReplaceErrorSubscription<Output, Upstream.Failure, S>(downstream: subscriber, output: output))
    }
  }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
  /// Replaces any error from the upstream publisher with `output`, then finishes.
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

// MARK: - handleEvents

/// The subscription behind `handleEvents`: calls each closure, then forwards the event (the
/// request closure also for the demand the downstream returns from `receive(_:)`, when it is not
/// zero). The closures are released when the subscription terminates.
///
/// `@unchecked Sendable`: the closures and status are guarded by a lock; they run without it.
private final class HandleEventsSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private var status = UpstreamState.awaiting
  private var events: Publishers.HandleEvents<Upstream>?

  init(events: Publishers.HandleEvents<Upstream>, downstream: Downstream) {
    self.events = events
    self.downstream = downstream
  }

  var description: String { "HandleEvents" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  private var currentEvents: Publishers.HandleEvents<Upstream>? {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  func receive(subscription: Subscription) {
    currentEvents?.receiveSubscription?(subscription)
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
    currentEvents?.receiveOutput?(input)
    let demand = downstream.receive(input)
    guard demand.rawValue > 0 else { return .none }
    currentEvents?.receiveRequest?(demand)
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    currentEvents?.receiveCompletion?(completion)
    lock.lock()
    status = .terminal
    let released = events.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    currentEvents?.receiveRequest?(demand)
    lock.lock()
    let subscription = status.isSubscribed ? status.subscription : nil
    lock.unlock()
    subscription?.request(demand)
  }

  func cancel() {
    currentEvents?.receiveCancel?()
    lock.lock()
    guard case .subscribed(let subscription) = status else {
      lock.unlock()
      return
    }
    status = .terminal
    let released = events.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription.cancel()
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
      receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)?
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

/// The subscription of `Publishers.Concatenate`: the prefix publisher first (its values only
/// while the subscriber has demand left), then, once it finishes, the suffix publisher, asked
/// for the demand still outstanding. A failure of the prefix ends everything.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
  typealias Input = Suffix.Output
  typealias Failure = Suffix.Failure

  private let lock = Lock()
  private let downstream: Downstream
  private var prefixState = UpstreamState.awaiting
  private var suffixState = UpstreamState.awaiting
  private var suffix: Suffix?
  private var pending = Subscribers.Demand.none

  init(downstream: Downstream, suffix: Suffix) {
    self.downstream = downstream
    self.suffix = suffix
  }

  var description: String { "Concatenate" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }

  func subscriber(prefix: Bool) -> PhaseSubscriber<Input, Failure> {
    PhaseSubscriber(
      combineIdentifier: CombineIdentifier(self), description: description, mirror: { [self] in customMirror },
      receiveSubscription: { [self] in prefix ? prefixReceive(subscription: $0) : suffixReceive(subscription: $0) },
      receiveValue: { [self] in prefix ? prefixReceive($0) : suffixReceive($0) },
      receiveCompletion: { [self] in prefix ? prefixReceive(completion: $0) : suffixReceive(completion: $0) })
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    pending += demand
    let subscription = prefixState.subscription ?? suffixState.subscription
    lock.unlock()
    subscription?.request(demand)
  }

  func cancel() {
    lock.lock()
    let subscription = prefixState.subscription ?? suffixState.subscription
    prefixState = .terminal
    suffixState = .terminal
    let released = suffix.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription?.cancel()
  }

  private func prefixReceive(subscription: Subscription) {
    lock.lock()
    guard prefixState.isAwaiting else {
      lock.unlock()
      subscription.cancel()
      return
    }
    prefixState = .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  private func prefixReceive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard prefixState.isSubscribed, pending.rawValue > 0 else {
      lock.unlock()
      return .none
    }
    pending = pending.decremented
    lock.unlock()
    let more = downstream.receive(input)
    guard more.rawValue > 0 else { return .none }
    lock.lock()
    pending += more
    lock.unlock()
    return more
  }

  private func prefixReceive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard prefixState.isSubscribed else {
      lock.unlock()
      return
    }
    prefixState = .terminal
    let suffix = self.suffix
    lock.unlock()
    switch completion {
    case .finished: suffix?.subscribe(subscriber(prefix: false))
    case .failure: downstream.receive(completion: completion)
    }
  }

  private func suffixReceive(subscription: Subscription) {
    lock.lock()
    guard suffixState.isAwaiting else {
      lock.unlock()
      subscription.cancel()
      return
    }
    suffixState = .subscribed(subscription)
    let pending = self.pending
    lock.unlock()
    if pending.rawValue > 0 { subscription.request(pending) }
  }

  private func suffixReceive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard suffixState.isSubscribed else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    return downstream.receive(input)
  }

  private func suffixReceive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard suffixState.isSubscribed else {
      lock.unlock()
      return
    }
    prefixState = .terminal
    suffixState = .terminal
    let released = suffix.take()
    lock.unlock()
    withExtendedLifetime(released) {}
    downstream.receive(completion: completion)
  }
}

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
      let subscription = ConcatenateSubscription(downstream: subscriber, suffix: suffix)
      prefix.subscribe(subscription.subscriber(prefix: true))
    }
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

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

  /// Appends the elements of `elements` after this publisher's.
  public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
  where S.Element == Output {
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

  /// Prefixes this publisher's elements with the elements of `elements`.
  public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
  where S.Element == Output {
    prepend(Publishers.Sequence(sequence: elements))
  }
}
