extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription, as
  /// Combine's `Sink`.
  ///
  /// The closures run on the thread the publisher delivers on. The sink holds its subscription
  /// (and through it the publisher chain) until it completes or is cancelled; `sink(…)` wraps it
  /// in an ``AnyCancellable`` so releasing that cancellable ends the subscription. On completion,
  /// or on a cancel after it was subscribed, the sink releases its closures (and whatever they
  /// capture), outside its lock. A closure that captures its owner strongly while the owner keeps
  /// the cancellable forms a cycle until then: capture the owner `weak`.
  ///
  /// As in Combine: a second subscription is cancelled; values received without a subscription
  /// still reach `receiveValue`; nothing reaches the closures after completion or cancellation;
  /// a cancel before any subscription does nothing.
  ///
  /// `@unchecked Sendable`: the state is guarded by a lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    /// The closure to execute on receipt of a value (a no-op once the sink has terminated).
    public var receiveValue: (Input) -> Void {
      lock.lock()
      defer { lock.unlock() }
      return storedReceiveValue
    }

    /// The closure to execute on completion (a no-op once the sink has terminated).
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      lock.lock()
      defer { lock.unlock() }
      return storedReceiveCompletion
    }

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var status = UpstreamState.awaiting
    @usableFromInline @exclusivity(unchecked) var storedReceiveValue: (Input) -> Void
    @usableFromInline @exclusivity(unchecked) var storedReceiveCompletion: (Subscribers.Completion<Failure>) -> Void

    /// Creates a sink with the given closures.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      storedReceiveCompletion = receiveCompletion
      storedReceiveValue = receiveValue
    }

    public var description: String { "Sink" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: Subscription) {
      lock.lock()
      guard status.isAwaiting else {
        lock.unlock()
        subscription.cancel()
        return
      }
      status = .subscribed(subscription)
      lock.unlock()
      subscription.request(.unlimited)
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      lock.lock()
      let receiveValue = storedReceiveValue
      lock.unlock()
      receiveValue(value)
      return .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      lock.lock()
      let previous = status
      status = .terminal
      let (receiveValue, receiveCompletion) = (storedReceiveValue, storedReceiveCompletion)
      storedReceiveValue = { _ in }
      storedReceiveCompletion = { _ in }
      lock.unlock()
      withExtendedLifetime((previous, receiveValue)) {}
      receiveCompletion(completion)
    }

    /// Cancels the subscription and releases the closures; no closure runs afterwards. Does
    /// nothing before a subscription arrived or after termination.
    @inlinable
    public func cancel() {
      lock.lock()
      guard case .subscribed(let subscription) = status else {
        lock.unlock()
        return
      }
      status = .terminal
      let closures = (storedReceiveValue, storedReceiveCompletion)
      storedReceiveValue = { _ in }
      storedReceiveCompletion = { _ in }
      lock.unlock()
      withExtendedLifetime(closures) {}
      subscription.cancel()
    }
  }

  /// A simple subscriber that assigns received elements to a property indicated by a key path,
  /// as Combine's `Assign`. It holds `object` strongly until completion or cancellation, and
  /// releases it then (outside its lock, so the object's `deinit` may cancel or complete this
  /// same subscription).
  ///
  /// As in Combine: a second subscription is cancelled; values are assigned only while
  /// subscribed; a cancel before any subscription does nothing.
  ///
  /// `@unchecked Sendable`: the state is guarded by a lock.
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    public typealias Failure = Never

    /// The object that contains the property to assign (`nil` after completion or cancel).
    public var object: Root? {
      lock.lock()
      defer { lock.unlock() }
      return storedObject
    }
    /// The key path of the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var storedObject: Root?
    @usableFromInline @exclusivity(unchecked) var status = UpstreamState.awaiting

    /// Creates a subscriber that assigns each value to `object[keyPath: keyPath]`.
    @inlinable
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      storedObject = object
      self.keyPath = keyPath
    }

    public var description: String { "Assign \(Root.self)." }
    public var customMirror: Mirror {
      lock.lock()
      let children: [Mirror.Child] = [("object", storedObject as Any), ("keyPath", keyPath), ("status", status)]
      lock.unlock()
      return Mirror(self, children: children)
    }
    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: Subscription) {
      lock.lock()
      guard status.isAwaiting else {
        lock.unlock()
        subscription.cancel()
        return
      }
      status = .subscribed(subscription)
      lock.unlock()
      subscription.request(.unlimited)
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      lock.lock()
      guard status.isSubscribed, let object = storedObject else {
        lock.unlock()
        return .none
      }
      lock.unlock()
      object[keyPath: keyPath] = value
      return .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Never>) {
      lock.lock()
      guard status.isSubscribed else {
        lock.unlock()
        return
      }
      let previous = status
      status = .terminal
      let object = storedObject.take()
      lock.unlock()
      withExtendedLifetime((previous, object)) {}
    }

    /// Cancels the subscription and releases `object`.
    @inlinable
    public func cancel() {
      lock.lock()
      guard case .subscribed(let subscription) = status else {
        lock.unlock()
        return
      }
      status = .terminal
      let object = storedObject.take()
      lock.unlock()
      withExtendedLifetime(object) {}
      subscription.cancel()
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior and requests unlimited values.
  ///
  /// The subscription lives as long as the returned cancellable (store it).
  @inlinable
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
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }

  /// Assigns each element to a property of `object` (held strongly while subscribed).
  @inlinable
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
