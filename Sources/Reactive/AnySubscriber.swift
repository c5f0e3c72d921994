/// A type-erasing subscriber, as Combine's `AnySubscriber`: forwards every call to the wrapped
/// subscriber (or closures) and keeps the wrapped subscriber's `combineIdentifier`.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  public let combineIdentifier: CombineIdentifier
  private let descriptionProvider: () -> String
  private let receiveSubscriptionBody: (Subscription) -> Void
  private let receiveValueBody: (Input) -> Subscribers.Demand
  private let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void

  /// Wraps `subscriber` (or returns it unchanged when it already is an `AnySubscriber`).
  public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    if let erased = subscriber as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    combineIdentifier = subscriber.combineIdentifier
    descriptionProvider = { String(describing: subscriber) }
    receiveSubscriptionBody = { subscriber.receive(subscription: $0) }
    receiveValueBody = { subscriber.receive($0) }
    receiveCompletionBody = { subscriber.receive(completion: $0) }
  }

  /// Wraps a subject: values and completion are sent to it, the subscription is handed to its
  /// `send(subscription:)` (which requests `.unlimited`).
  public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
    combineIdentifier = CombineIdentifier()
    descriptionProvider = { "Subject" }
    receiveSubscriptionBody = { subject.send(subscription: $0) }
    receiveValueBody = {
      subject.send($0)
      return .none
    }
    receiveCompletionBody = { subject.send(completion: $0) }
  }

  /// Creates a subscriber from closures; a missing value closure requests nothing more.
  public init(
    receiveSubscription: ((Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    combineIdentifier = CombineIdentifier()
    descriptionProvider = { "Anonymous AnySubscriber" }
    receiveSubscriptionBody = receiveSubscription ?? { _ in }
    receiveValueBody = receiveValue ?? { _ in .none }
    receiveCompletionBody = receiveCompletion ?? { _ in }
  }

  public var description: String { descriptionProvider() }

  public func receive(subscription: Subscription) { receiveSubscriptionBody(subscription) }
  public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }
  public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}

/// A publisher that performs type erasure by wrapping another publisher, as Combine's.
///
/// Owners keep their subjects private and expose `AnyPublisher` so callers can subscribe but not
/// send. Subscribing to it subscribes to the wrapped publisher.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
  private let subscribeBody: (AnySubscriber<Output, Failure>) -> Void
  private let descriptionProvider: () -> String

  /// Wraps `publisher` (returning it unchanged when it already is an `AnyPublisher`).
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
      return
    }
    subscribeBody = { publisher.receive(subscriber: $0) }
    descriptionProvider = { "AnyPublisher" }
  }

  public var description: String { descriptionProvider() }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscribeBody(AnySubscriber(subscriber))
  }
}

extension Publisher {
  /// Wraps this publisher with type erasure (`AnyPublisher`).
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}
