import Synchronization

// MARK: - Publisher

/// Declares that a type can transmit a sequence of values over time, as Combine's `Publisher`.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` must match the publisher's `Output` and `Failure`. `receive(subscriber:)` must
/// call the subscriber's `receive(subscription:)` exactly once; afterwards the publisher may call
/// `receive(_:)` as often as the subscriber has requested (its ``Subscribers/Demand``) and
/// `receive(completion:)` at most once. After completion or cancellation nothing more is sent.
///
/// Values are delivered on whatever thread the publisher produces them (a subject: the thread that
/// calls `send`); use `receive(on:)` to move them. Calls into one subscriber are serialised.
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output
  /// The kind of errors this publisher might publish (`Never` if it cannot fail).
  associatedtype Failure: Error

  /// Attaches `subscriber` to this publisher. Call ``Publisher/subscribe(_:)-(Subscriber)``
  /// instead; it is the entry point Combine code uses.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Attaches `subscriber` to this publisher (calls `receive(subscriber:)`).
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    receive(subscriber: subscriber)
  }
}

// MARK: - Subscriber

/// A protocol that declares a type that can receive input from a publisher, as Combine's.
///
/// The publisher first calls `receive(subscription:)`; the subscriber keeps the subscription and
/// asks for values with `request(_:)`. Each `receive(_:)` returns how many *more* values the
/// subscriber wants (added to its outstanding demand; return `.none` for no change).
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input
  /// The kind of errors this subscriber might receive.
  associatedtype Failure: Error

  /// Tells the subscriber that it has successfully subscribed; called exactly once, first.
  func receive(subscription: Subscription)
  /// Tells the subscriber that the publisher has produced an element; returns additional demand.
  func receive(_ input: Input) -> Subscribers.Demand
  /// Tells the subscriber that the publisher has completed, normally or with an error. Last call.
  func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
  /// Sends `()` to the subscriber (for `Void` inputs), ignoring the returned demand.
  public func receive() -> Subscribers.Demand { receive(()) }
}

// MARK: - Cancellable and Subscription

/// A protocol indicating that an activity or action supports cancellation.
///
/// Calling `cancel()` frees any allocated resources and stops side effects such as timers,
/// network access or disk I/O. Cancelling twice, or after completion, does nothing.
public protocol Cancellable {
  /// Cancels the activity.
  func cancel()
}

extension Cancellable {
  /// Stores this cancellable, wrapped in a new ``AnyCancellable``, in `collection` (as Combine
  /// does: even an `AnyCancellable` seen as a `Cancellable` is wrapped once more).
  public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
    AnyCancellable(self).store(in: &collection)
  }

  /// Stores this cancellable, wrapped in a new ``AnyCancellable``, in `set`.
  public func store(in set: inout Set<AnyCancellable>) {
    AnyCancellable(self).store(in: &set)
  }
}

/// A protocol representing the connection of a subscriber to a publisher, as Combine's.
///
/// Subscriptions are class instances with identity. Cancelling one must be thread-safe and can
/// happen at any time (also from inside the subscriber's `receive`); after it, the subscriber gets
/// nothing more.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Tells the publisher it may send `demand` more values to the subscriber.
  ///
  /// - Precondition: `demand` is not `.none` (requesting zero values is a programming error and
  ///   traps, as in Combine).
  func request(_ demand: Subscribers.Demand)
}

/// Traps like Combine does when a subscriber requests zero values.
@inlinable
func assertValidRequest(_ demand: Subscribers.Demand, file: StaticString = #file, line: UInt = #line) {
  precondition(
    demand.rawValue > 0, "demand must not be zero (requesting .none is a programming error)", file: file, line: line)
}

/// A namespace for symbols related to subscriptions, as Combine's `Subscriptions`.
public enum Subscriptions {
  /// The subscription that does nothing on request or cancellation (one shared instance, as in
  /// Combine), handed to a subscriber of a publisher that completes at once (`Empty`, `Fail`, a
  /// subject that has completed).
  nonisolated(unsafe) public static let empty: Subscription = EmptySubscription()
}

/// The subscription behind ``Subscriptions/empty``: described as "Empty", without children.
private struct EmptySubscription: Subscription, DescribedSubscription, Sendable {
  let combineIdentifier = CombineIdentifier()
  var description: String { "Empty" }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
}

// MARK: - AnyCancellable

/// A type-erasing cancellable object that executes a provided closure when cancelled, and cancels
/// automatically when it is released (deinitialised), as Combine's `AnyCancellable`.
///
/// Keep the value returned by `sink` or `assign` alive (for instance with ``store(in:)-(Set<AnyCancellable>)``)
/// for as long as you want to receive values; releasing it stops the subscription.
///
/// `@unchecked Sendable`: the cancel closure is guarded by a lock; it runs at most once, outside
/// the lock (so it may cancel this same cancellable again, or release objects whose `deinit`
/// does), and is released after it has run.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  private let lock = Lock()
  private var cancelAction: (() -> Void)?

  /// Creates a cancellable that runs `cancel` once, on the first `cancel()` or on deinit.
  public init(_ cancel: @escaping () -> Void) {
    cancelAction = cancel
  }

  /// Creates a cancellable that cancels `canceller` (held strongly until then).
  public init<C: Cancellable>(_ canceller: C) {
    cancelAction = canceller.cancel
  }

  deinit {
    cancelAction?()
  }

  /// Runs the cancel action (only the first time) and releases it.
  public func cancel() {
    lock.lock()
    let action = cancelAction.take()
    lock.unlock()
    action?()
  }

  /// Stores this cancellable in `set`, tying the subscription's life to the set's owner.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }

  /// Stores this cancellable in `collection` (for instance an array).
  public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
    collection.append(self)
  }

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

// MARK: - CombineIdentifier

private let nextCombineIdentifier = Atomic<UInt64>(1)

/// A unique identifier for identifying publisher streams, as Combine's `CombineIdentifier`.
///
/// `init()` draws a fresh process-wide number; `init(_:)` derives it from an object's identity.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
  private let rawValue: UInt64

  /// Creates a unique identifier.
  public init() {
    rawValue = nextCombineIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Creates an identifier from an object's identity (equal for the same live object).
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue))
  }

  public var description: String {
    "0x" + String(rawValue, radix: 16)
  }
}

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
  /// A unique identifier for identifying publisher streams.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The object's identity.
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
