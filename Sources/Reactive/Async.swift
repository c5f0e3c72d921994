/// Pulls one value at a time from a publisher for `AsyncPublisher`/`AsyncThrowingPublisher`:
/// each `next()` requests `.max(1)` and suspends until the value (or completion) arrives, as
/// Combine does; nothing is buffered beyond that one value. Cancelling the waiting task cancels
/// the subscription and ends the sequence.
///
/// `@unchecked Sendable`: the state is guarded by a lock; continuations are resumed outside it.
private final class PullSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  typealias Element = UncheckedSendable<Input?>
  private let lock = Lock()
  private var subscription: Subscription?
  private var waiting: CheckedContinuation<Result<Element, Failure>, Never>?
  private var requestWhenSubscribed = false
  private var completion: Subscribers.Completion<Failure>?
  private var isCancelled = false

  func receive(subscription: Subscription) {
    lock.lock()
    guard self.subscription == nil, completion == nil, !isCancelled else {
      lock.unlock()
      subscription.cancel()
      return
    }
    self.subscription = subscription
    let request = requestWhenSubscribed
    requestWhenSubscribed = false
    lock.unlock()
    if request { subscription.request(.max(1)) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    let waiting = self.waiting
    self.waiting = nil
    lock.unlock()
    waiting?.resume(returning: .success(UncheckedSendable(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    self.completion = completion
    subscription = nil
    let waiting = self.waiting
    self.waiting = nil
    lock.unlock()
    waiting?.resume(returning: Self.ending(completion))
  }

  private static func ending(_ completion: Subscribers.Completion<Failure>) -> Result<Element, Failure> {
    switch completion {
    case .finished: .success(UncheckedSendable(nil))
    case .failure(let error): .failure(error)
    }
  }

  /// The next value, `nil` at the end, or the failure.
  func next() async -> Result<Element, Failure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<Element, Failure>, Never>) in
        lock.lock()
        if let completion {
          lock.unlock()
          continuation.resume(returning: Self.ending(completion))
          return
        }
        if isCancelled {
          lock.unlock()
          continuation.resume(returning: .success(UncheckedSendable(nil)))
          return
        }
        waiting = continuation
        let subscription = self.subscription
        if subscription == nil { requestWhenSubscribed = true }
        lock.unlock()
        subscription?.request(.max(1))
      }
    } onCancel: {
      cancel()
    }
  }

  func cancel() {
    lock.lock()
    isCancelled = true
    let subscription = self.subscription
    self.subscription = nil
    let waiting = self.waiting
    self.waiting = nil
    lock.unlock()
    subscription?.cancel()
    waiting?.resume(returning: .success(UncheckedSendable(nil)))
  }

  deinit {
    subscription?.cancel()
  }
}

/// A publisher that exposes its elements as an asynchronous sequence (`publisher.values` when it
/// cannot fail), as Combine's `AsyncPublisher`. Each iterator subscribes anew and requests one
/// element per `next()`; a subject sending while nobody waits drops the value, as with any
/// subscriber without demand.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  public typealias Element = P.Output
  private let publisher: P

  /// Creates a sequence of `publisher`'s elements.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator of an ``AsyncPublisher``.
  public struct Iterator: AsyncIteratorProtocol {
    private let subscriber: PullSubscriber<P.Output, Never>

    fileprivate init(_ publisher: P) {
      subscriber = PullSubscriber()
      publisher.subscribe(subscriber)
    }

    /// Requests one element and waits for it; `nil` once the publisher finished (or the task was
    /// cancelled).
    public mutating func next() async -> P.Output? {
      switch await subscriber.next() {
      case .success(let element): element.value
      }
    }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}

/// A publisher that exposes its elements as an asynchronous throwing sequence
/// (`publisher.values` when it can fail), as Combine's `AsyncThrowingPublisher`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  public typealias Element = P.Output
  private let publisher: P

  /// Creates a sequence of `publisher`'s elements.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator of an ``AsyncThrowingPublisher``.
  public struct Iterator: AsyncIteratorProtocol {
    private let subscriber: PullSubscriber<P.Output, P.Failure>

    fileprivate init(_ publisher: P) {
      subscriber = PullSubscriber()
      publisher.subscribe(subscriber)
    }

    /// Requests one element and waits for it; `nil` once the publisher finished; throws its failure.
    public mutating func next() async throws -> P.Output? {
      try await subscriber.next().get().value
    }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}

extension Publisher where Failure == Never {
  /// The elements of this publisher as an asynchronous sequence (one request per element).
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
  /// The elements of this publisher as an asynchronous throwing sequence (one request per element).
  public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

// MARK: - Future and async functions

extension Future where Failure == Never {
  /// The published value, awaited.
  public var value: Output {
    get async {
      var iterator = values.makeAsyncIterator()
      // A Future that cannot fail always produces its value before finishing.
      return await iterator.next()!
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
  /// The published value, awaited; throws the failure.
  public var value: Output {
    get async throws {
      var iterator = values.makeAsyncIterator()
      guard let value = try await iterator.next() else { throw CancellationError() }
      return value
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
