import Foundation
import Reactive

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// A publisher that loads `url` when subscribed, as Combine's `dataTaskPublisher(for:)`.
  public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  /// A publisher that performs `request` when subscribed (and demanded), as Combine's
  /// `dataTaskPublisher(for:)`: one value `(data, response)` then `.finished`, or a `URLError`
  /// (a failed connection, a timeout, …; an HTTP error status is a value, not a failure).
  /// Cancelling the subscription cancels the task.
  public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }

  /// Combine's `URLSession.DataTaskPublisher`: one data task per subscription.
  public struct DataTaskPublisher: Publisher, @unchecked Sendable {
    public typealias Output = (data: Data, response: URLResponse)
    public typealias Failure = URLError

    /// The request performed for each subscriber.
    public let request: URLRequest
    /// The session that performs it.
    public let session: URLSession

    public init(request: URLRequest, session: URLSession) {
      self.request = request
      self.session = session
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = DataTaskSubscription(request: request, session: session, downstream: AnySubscriber(subscriber))
      subscriber.receive(subscription: subscription)
    }
  }
}

/// The subscription of ``URLSession/DataTaskPublisher``: starts the task on the first demand.
private final class DataTaskSubscription: Subscription, @unchecked Sendable {
  private let lock = NSLock()
  private let request: URLRequest
  private let session: URLSession
  private var downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>?
  private var task: URLSessionDataTask?

  init(
    request: URLRequest, session: URLSession, downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>
  ) {
    self.request = request
    self.session = session
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    lock.lock()
    guard downstream != nil, task == nil else {
      lock.unlock()
      return
    }
    let task = session.dataTask(with: request) { [self] data, response, error in finish(data, response, error) }
    self.task = task
    lock.unlock()
    task.resume()
  }

  private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
    let subscriber = lock.withLock {
      let subscriber = downstream
      downstream = nil
      return subscriber
    }
    guard let subscriber else { return }
    if let error {
      subscriber.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
    } else if let response {
      _ = subscriber.receive((data ?? Data(), response))
      subscriber.receive(completion: .finished)
    } else {
      subscriber.receive(completion: .failure(URLError(.badServerResponse)))
    }
  }

  func cancel() {
    let task = lock.withLock {
      downstream = nil
      return self.task
    }
    task?.cancel()
  }
}
