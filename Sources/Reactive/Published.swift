/// A type that publishes a property marked with an attribute, as Combine's `@Published`.
///
/// `$property` is a publisher that first sends the current value to each new subscriber, then
/// every new value *before* it is stored (Combine's `willSet` semantics: a subscriber that reads
/// the property inside its closure still sees the old value). Values are sent on the thread that
/// sets the property.
///
/// Differences from Apple's Combine (there is no Objective-C runtime on Linux): there is no
/// `ObservableObject`/`objectWillChange`; observe each property through its `$` publisher. The
/// storage is a reference shared by copies of the wrapper, so use `@Published` in classes (as
/// Combine requires), typically in a view model:
///
/// ```swift
/// final class SearchViewModel {
///   @Published private(set) var results: [String] = []
/// }
/// let cancellable = viewModel.$results.sink { print($0) }
/// ```
@propertyWrapper
public struct Published<Value> {
  private let storage: PublishedStorage<Value>

  /// Creates the property with an initial value (used by `@Published var x = value`).
  public init(wrappedValue: Value) {
    storage = PublishedStorage(wrappedValue)
  }

  /// Creates the property with an initial value.
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// The property's value; setting it publishes the new value, then stores it.
  public var wrappedValue: Value {
    get { storage.value }
    nonmutating set { storage.set(newValue) }
  }

  /// The publisher of this property (`$property`). The setter exists so that
  /// `assign(to: &$property)` compiles; it leaves the storage unchanged.
  public var projectedValue: Publisher {
    get { Publisher(storage: storage) }
    nonmutating set {}
  }

  /// The publisher of a `@Published` property: current value first, then each new value; never
  /// completes while the property exists.
  public struct Publisher: Reactive.Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    fileprivate let storage: PublishedStorage<Value>

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
      storage.subject.receive(subscriber: subscriber)
    }

    /// Keeps `upstream` assigning into this property for the life of the property.
    func attach<P: Reactive.Publisher>(_ upstream: P) where P.Output == Value, P.Failure == Never {
      storage.attach(upstream)
    }
  }
}

extension Published: Sendable where Value: Sendable {}
extension Published.Publisher: Sendable where Value: Sendable {}

/// The shared storage of a `@Published` property.
///
/// `@unchecked Sendable`: `value` and the assignments are guarded by a lock; the subject is
/// thread-safe on its own.
private final class PublishedStorage<Value>: @unchecked Sendable {
  let subject: CurrentValueSubject<Value, Never>
  private let lock = Lock()
  private var stored: Value
  private var assignments: [AnyCancellable] = []

  init(_ value: Value) {
    stored = value
    subject = CurrentValueSubject(value)
  }

  var value: Value { lock.withLock { stored } }

  func set(_ newValue: Value) {
    subject.send(newValue)
    lock.withLock { stored = newValue }
  }

  func attach<P: Publisher>(_ upstream: P) where P.Output == Value, P.Failure == Never {
    let cancellable = upstream.sink { [weak self] value in self?.set(value) }
    lock.withLock { assignments.append(cancellable) }
  }
}
