/// The subscriber behind `AsyncPublisher`/`AsyncThrowingPublisher`: each `next()` waits in a
/// queue and requests `.max(1)` (or, before the subscription arrives, adds one to the demand it
/// requests then), so demand stays one value per waiting `next()` and nothing is buffered. A
/// value resumes the oldest waiting `next()`; the completion resumes the oldest with `nil` or the
/// failure (kept for the next `next()` if none is waiting) and every other with `nil`; a cancel
/// (of the consuming task, or of this subscriber) cancels the subscription and resumes every
/// waiting `next()` with `nil`. After that every `next()` returns `nil` at once. No ordering of
/// these events leaves a `next()` waiting forever.
///
/// `@unchecked Sendable`: the state is guarded by a lock; continuations are resumed outside it.
private final class AsyncBridgeSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  private enum State {
    case awaitingSubscription
    case subscribed(Subscription)
    /// Done; a failure not yet thrown to a `next()`.
    case terminal(Failure?)
  }

  typealias Waiter = CheckedContinuation<UncheckedSendable<Input?>, Error>

  private let lock = Lock()
  private var state = State.awaitingSubscription
  private var waiting: [Waiter] = []
  private var pendingDemand = Subscribers.Demand.none

  func receive(subscription: Subscription) {
    lock.lock()
    guard case .awaitingSubscription = state else {
      lock.unlock()
      subscription.cancel()
      return
    }
    state = .subscribed(subscription)
    let demand = pendingDemand
    pendingDemand = .none
    lock.unlock()
    if demand.rawValue > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed = state else {
      let waiting = self.waiting
      self.waiting = []
      lock.unlock()
      for waiter in waiting { waiter.resume(returning: UncheckedSendable(nil)) }
      return .none
    }
    precondition(!waiting.isEmpty, "received a value that no next() asked for")
    let first = waiting.removeFirst()
    lock.unlock()
    first.resume(returning: UncheckedSendable(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    if case .terminal = state {
      let waiting = self.waiting
      self.waiting = []
      lock.unlock()
      for waiter in waiting { waiter.resume(returning: UncheckedSendable(nil)) }
      return
    }
    let waiting = self.waiting
    self.waiting = []
    let failure: Failure?
    if case .failure(let error) = completion { failure = error } else { failure = nil }
    guard let first = waiting.first else {
      state = .terminal(failure)
      lock.unlock()
      return
    }
    state = .terminal(nil)
    lock.unlock()
    if let failure {
      first.resume(throwing: failure)
    } else {
      first.resume(returning: UncheckedSendable(nil))
    }
    for waiter in waiting.dropFirst() { waiter.resume(returning: UncheckedSendable(nil)) }
  }

  func cancel() {
    lock.lock()
    let waiting = self.waiting
    self.waiting = []
    let previous = state
    state = .terminal(nil)
    lock.unlock()
    if case .subscribed(let subscription) = previous { subscription.cancel() }
    for waiter in waiting { waiter.resume(returning: UncheckedSendable(nil)) }
  }

  /// The next value, `nil` at the end (or after a cancel), or the failure (once).
  func next() async throws -> Input? {
    try await nextBox().value
  }

  private func nextBox() async throws -> UncheckedSendable<Input?> {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: Waiter) in
        lock.lock()
        switch state {
        case .awaitingSubscription:
          waiting.append(continuation)
          pendingDemand += 1
          lock.unlock()
        case .subscribed(let subscription):
          waiting.append(continuation)
          lock.unlock()
          subscription.request(.max(1))
        case .terminal(let failure?):
          state = .terminal(nil)
          lock.unlock()
          continuation.resume(throwing: failure)
        case .terminal(nil):
          lock.unlock()
          continuation.resume(returning: UncheckedSendable(nil))
        }
      }
    } onCancel: {
      cancel()
    }
  }
}

/// A publisher that exposes its elements as an asynchronous sequence (`publisher.values` when it
/// cannot fail), as Combine's `AsyncPublisher`. Each iterator subscribes anew and requests one
/// element per `next()`; a subject sending while nobody waits drops the value, as with any
/// subscriber without demand. Cancelling the task that waits in `next()` cancels the
/// subscription and ends the sequence.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  public typealias Element = P.Output
  private let publisher: P

  /// Creates a sequence of `publisher`'s elements.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator of an ``AsyncPublisher``.
  public struct Iterator: AsyncIteratorProtocol {
    private let subscriber: AsyncBridgeSubscriber<P.Output, Never>

    fileprivate init(_ publisher: P) {
      subscriber = AsyncBridgeSubscriber()
      publisher.subscribe(subscriber)
    }

    /// Requests one element and waits for it; `nil` once the publisher finished (or the task was
    /// cancelled).
    public mutating func next() async -> P.Output? {
      // The subscriber throws only its publisher's failure, and this one cannot fail.
      (try? await subscriber.next()) ?? nil
    }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}

/// A publisher that exposes its elements as an asynchronous throwing sequence
/// (`publisher.values` when it can fail), as Combine's `AsyncThrowingPublisher`. The failure is
/// thrown once; later `next()` calls return `nil`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  public typealias Element = P.Output
  private let publisher: P

  /// Creates a sequence of `publisher`'s elements.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator of an ``AsyncThrowingPublisher``.
  public struct Iterator: AsyncIteratorProtocol {
    private let subscriber: AsyncBridgeSubscriber<P.Output, P.Failure>

    fileprivate init(_ publisher: P) {
      subscriber = AsyncBridgeSubscriber()
      publisher.subscribe(subscriber)
    }

    /// Requests one element and waits for it; `nil` once the publisher finished (or the task was
    /// cancelled); throws its failure.
    public mutating func next() async throws -> P.Output? {
      try await subscriber.next()
    }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}

extension AsyncPublisher: Sendable where P: Sendable {}
extension AsyncPublisher.Iterator: Sendable {}
extension AsyncThrowingPublisher: Sendable where P: Sendable {}
extension AsyncThrowingPublisher.Iterator: Sendable {}

extension Publisher where Failure == Never {
  /// The elements of this publisher as an asynchronous sequence (one request per element).
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
  /// The elements of this publisher as an asynchronous throwing sequence (one request per element).
  public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

// MARK: - Future and async functions

/// Waits for the one value (or failure) of a `Future`: requests one value and resumes with it.
///
/// `@unchecked Sendable`: the continuation is taken under a lock, once.
private final class FutureValueSubscriber<Output, Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = Output
  private let lock = Lock()
  private var continuation: CheckedContinuation<UncheckedSendable<Output>, Error>?

  init(_ continuation: CheckedContinuation<UncheckedSendable<Output>, Error>) {
    self.continuation = continuation
  }

  func receive(subscription: Subscription) {
    subscription.request(.max(1))
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    lock.lock()
    let continuation = self.continuation.take()
    lock.unlock()
    continuation?.resume(returning: UncheckedSendable(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure(let error) = completion else { return }
    lock.lock()
    let continuation = self.continuation.take()
    lock.unlock()
    continuation?.resume(throwing: error)
  }
}

extension Future where Failure == Never {
  /// The published value, awaited (until the promise is fulfilled).
  public var value: Output {
    get async {
      // A future that cannot fail resumes only with its value.
      do {
        return try await withCheckedThrowingContinuation { continuation in
          subscribe(FutureValueSubscriber<Output, Never>(continuation))
        }.value
      } catch {
        preconditionFailure("a Future that cannot fail threw \(error)")
      }
    }
  }

  /// A future that runs `operation` in a new `Task` at once and publishes its result.
  /// (Wrap it in `Deferred` to start the work only when someone subscribes.)
  public convenience init(operation: @escaping @Sendable () async -> Output) where Output: Sendable {
    self.init { promise in
      Task { promise(.success(await operation())) }
    }
  }
}

extension Future {
  /// The published value, awaited (until the promise is fulfilled); throws the failure.
  public var value: Output {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        subscribe(FutureValueSubscriber<Output, Failure>(continuation))
      }.value
    }
  }
}

extension Future where Failure == Error {
  /// A future that runs the throwing `operation` in a new `Task` at once and publishes its value
  /// or error. (Wrap it in `Deferred` to start the work only when someone subscribes.)
  public convenience init(operation: @escaping @Sendable () async throws -> Output) where Output: Sendable {
    self.init { promise in
      Task {
        do {
          promise(.success(try await operation()))
        } catch {
          promise(.failure(error))
        }
      }
    }
  }
}
