/// A type-erasing subscriber, as Combine's `AnySubscriber`: forwards every call to the wrapped
/// subscriber (or closures) and keeps the wrapped subscriber's `combineIdentifier`, description,
/// mirror and playground description.
///
/// Wrapping an `AnySubscriber` again returns it unchanged. Wrapping a subject makes a subscriber
/// that re-sends everything to the subject (and hands it the subscription through
/// `send(subscription:)`).
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  private let box: AnySubscriberBox<Input, Failure>
  public let combineIdentifier: CombineIdentifier

  /// Wraps `subscriber` (or returns it unchanged when it already is an `AnySubscriber`).
  public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    if let erased = subscriber as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    combineIdentifier = subscriber.combineIdentifier
    box = WrappedSubscriberBox(subscriber)
  }

  /// Wraps a subject: values and the completion are sent to it, and the subscription is handed
  /// to its `send(subscription:)` (which requests `.unlimited`). Described as "Subject".
  public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
    self.init(SubjectSubscriber(subject))
  }

  /// Creates a subscriber from closures; a missing value closure requests nothing more.
  /// Described as "Anonymous AnySubscriber".
  public init(
    receiveSubscription: ((Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    combineIdentifier = CombineIdentifier()
    box = ClosureSubscriberBox(
      receiveSubscription ?? { _ in }, receiveValue ?? { _ in .none }, receiveCompletion ?? { _ in })
  }

  public var description: String { box.description }
  public var customMirror: Mirror { box.customMirror }
  public var playgroundDescription: Any { box.playgroundDescription }

  @inline(__always)
  public func receive(subscription: Subscription) { box.receive(subscription: subscription) }
  @inline(__always)
  public func receive(_ value: Input) -> Subscribers.Demand { box.receive(value) }
  @inline(__always)
  public func receive(completion: Subscribers.Completion<Failure>) { box.receive(completion: completion) }
}

/// The storage of an ``AnySubscriber`` (one allocation, dispatched by subclass).
class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
  func receive(subscription: Subscription) {}
  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) {}
  var description: String { "" }
  var customMirror: Mirror { Mirror(reflecting: description) }
  var playgroundDescription: Any { description }
}

private final class WrappedSubscriberBox<Base: Subscriber>: AnySubscriberBox<Base.Input, Base.Failure>,
  @unchecked Sendable
{
  let base: Base

  init(_ base: Base) { self.base = base }

  override func receive(subscription: Subscription) { base.receive(subscription: subscription) }
  override func receive(_ input: Base.Input) -> Subscribers.Demand { base.receive(input) }
  override func receive(completion: Subscribers.Completion<Base.Failure>) { base.receive(completion: completion) }

  override var description: String {
    (base as? CustomStringConvertible)?.description ?? String(describing: Base.self)
  }

  override var customMirror: Mirror {
    (base as? CustomReflectable)?.customMirror ?? Mirror(base, children: [:])
  }

  override var playgroundDescription: Any {
    (base as? CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }
}

private final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure>, @unchecked Sendable {
  let receiveSubscriptionBody: (Subscription) -> Void
  let receiveValueBody: (Input) -> Subscribers.Demand
  let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void

  init(
    _ receiveSubscription: @escaping (Subscription) -> Void, _ receiveValue: @escaping (Input) -> Subscribers.Demand,
    _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    receiveSubscriptionBody = receiveSubscription
    receiveValueBody = receiveValue
    receiveCompletionBody = receiveCompletion
  }

  override func receive(subscription: Subscription) { receiveSubscriptionBody(subscription) }
  override func receive(_ input: Input) -> Subscribers.Demand { receiveValueBody(input) }
  override func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
  override var description: String { "Anonymous AnySubscriber" }
}

/// A publisher that performs type erasure by wrapping another publisher, as Combine's.
///
/// Owners keep their subjects private and expose `AnyPublisher` so callers can subscribe but not
/// send. Subscribing to it subscribes to the wrapped publisher. Described as "AnyPublisher".
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
  CustomPlaygroundDisplayConvertible
{
  private let box: AnyPublisherBox<Output, Failure>

  /// Wraps `publisher` (returning it unchanged when it already is an `AnyPublisher`).
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
      return
    }
    box = WrappedPublisherBox(publisher)
  }

  public var description: String { "AnyPublisher" }
  public var playgroundDescription: Any { description }

  @inline(__always)
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    box.receive(subscriber: subscriber)
  }
}

private class AnyPublisherBox<Output, Failure: Error>: @unchecked Sendable {
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

private final class WrappedPublisherBox<Base: Publisher>: AnyPublisherBox<Base.Output, Base.Failure>,
  @unchecked Sendable
{
  let base: Base

  init(_ base: Base) { self.base = base }

  override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
    base.receive(subscriber: subscriber)
  }
}

extension Publisher {
  /// Wraps this publisher with type erasure (`AnyPublisher`).
  @inline(__always)
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}
