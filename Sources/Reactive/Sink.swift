extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription, as
  /// Combine's `Sink`.
  ///
  /// The closures run on the thread the publisher delivers on. The sink holds its subscription
  /// (and through it the publisher chain) until it completes or is cancelled; `sink(…)` wraps it
  /// in an ``AnyCancellable`` so releasing that cancellable ends the subscription. A closure that
  /// captures its owner strongly while the owner keeps the cancellable forms a cycle: capture
  /// the owner `weak`.
  ///
  /// `@unchecked Sendable`: the subscription state is guarded by a lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    /// The closure to execute on receipt of a value.
    public let receiveValue: (Input) -> Void
    /// The closure to execute on completion.
    public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    private let lock = Lock()
    private var subscription: Subscription?
    private var isTerminated = false

    /// Creates a sink with the given closures.
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      self.receiveCompletion = receiveCompletion
      self.receiveValue = receiveValue
    }

    public var description: String { "Sink" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
    public var playgroundDescription: Any { description }

    public func receive(subscription: Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard self.subscription == nil, !isTerminated else { return false }
        self.subscription = subscription
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    public func receive(_ value: Input) -> Subscribers.Demand {
      guard lock.withLock({ !isTerminated }) else { return .none }
      receiveValue(value)
      return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
      let active = lock.withLock { () -> Bool in
        guard !isTerminated else { return false }
        isTerminated = true
        subscription = nil
        return true
      }
      if active { receiveCompletion(completion) }
    }

    /// Cancels the subscription; no closure runs afterwards.
    public func cancel() {
      let subscription = lock.withLock { () -> Subscription? in
        let subscription = self.subscription
        self.subscription = nil
        isTerminated = true
        return subscription
      }
      subscription?.cancel()
    }
  }

  /// A simple subscriber that assigns received elements to a property indicated by a key path,
  /// as Combine's `Assign`. It holds `object` strongly until completion or cancellation.
  ///
  /// `@unchecked Sendable`: the state is guarded by a lock.
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    public typealias Failure = Never

    /// The object that contains the property to assign (`nil` after completion or cancel).
    public var object: Root? { lock.withLock { storedObject } }
    /// The key path of the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    private let lock = Lock()
    private var storedObject: Root?
    private var subscription: Subscription?
    private var isTerminated = false

    /// Creates a subscriber that assigns each value to `object[keyPath: keyPath]`.
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      storedObject = object
      self.keyPath = keyPath
    }

    public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }
    public var customMirror: Mirror {
      Mirror(self, children: ["object": object as Any, "keyPath": keyPath], displayStyle: .class)
    }
    public var playgroundDescription: Any { description }

    public func receive(subscription: Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard self.subscription == nil, !isTerminated else { return false }
        self.subscription = subscription
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    public func receive(_ value: Input) -> Subscribers.Demand {
      guard let object = lock.withLock({ isTerminated ? nil : storedObject }) else { return .none }
      object[keyPath: keyPath] = value
      return .none
    }

    public func receive(completion: Subscribers.Completion<Never>) {
      lock.withLock {
        isTerminated = true
        subscription = nil
        storedObject = nil
      }
    }

    /// Cancels the subscription and releases `object`.
    public func cancel() {
      let subscription = lock.withLock { () -> Subscription? in
        let subscription = self.subscription
        self.subscription = nil
        storedObject = nil
        isTerminated = true
        return subscription
      }
      subscription?.cancel()
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior and requests unlimited values.
  ///
  /// The subscription lives as long as the returned cancellable (store it).
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber that runs `receiveValue` for each value (for publishers that cannot fail).
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }

  /// Assigns each element to a property of `object` (held strongly while subscribed).
  public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
    let assign = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(assign)
    return AnyCancellable(assign)
  }

  /// Republishes elements through a `@Published` property (`publisher.assign(to: &$property)`).
  ///
  /// The subscription lives as long as the property's storage (its owner): no cancellable is
  /// returned and no retain cycle is formed.
  public func assign(to published: inout Published<Output>.Publisher) {
    published.attach(self)
  }
}
