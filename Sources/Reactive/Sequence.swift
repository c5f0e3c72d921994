/// The subscription behind `Publishers.Sequence`: sends elements while the subscriber has demand
/// (a request made from inside `receive` is served by the same loop, not recursively) and
/// finishes right after the last element. Described by the sequence's own description while it
/// is being published ("Sequence" once done), as Combine does.
///
/// `@unchecked Sendable`: the state is guarded by a lock.
@usableFromInline
final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Elements.Element {
  @usableFromInline let lock = Lock()
  @usableFromInline @exclusivity(unchecked) var sequence: Elements?
  @usableFromInline @exclusivity(unchecked) var iterator: Elements.Iterator
  @usableFromInline @exclusivity(unchecked) var next: Elements.Element?
  @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
  @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
  @usableFromInline @exclusivity(unchecked) var isEmitting = false

  @inlinable
  init(_ sequence: Elements, downstream: Downstream) {
    self.sequence = sequence
    iterator = sequence.makeIterator()
    next = iterator.next()
    self.downstream = downstream
  }

  @inlinable
  var isExhausted: Bool { next == nil }

  @usableFromInline
  var description: String {
    lock.lock()
    defer { lock.unlock() }
    return sequence.map { String(describing: $0) } ?? "Sequence"
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @usableFromInline
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let sequence: Any = self.sequence.map { $0 as Any } ?? [Elements.Element]()
    return Mirror(self, children: ["sequence": sequence])
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    guard downstream != nil else {
      lock.unlock()
      return
    }
    self.demand += demand
    guard !isEmitting else {
      lock.unlock()
      return
    }
    isEmitting = true
    while let downstream, self.demand.rawValue > 0, let element = next {
      self.demand = self.demand.decremented
      next = iterator.next()
      lock.unlock()
      let more = downstream.receive(element)
      lock.lock()
      if more.rawValue > 0 { self.demand += more }
    }
    isEmitting = false
    guard next == nil, let finished = downstream.take() else {
      lock.unlock()
      return
    }
    let sequence = self.sequence.take()
    lock.unlock()
    withExtendedLifetime(sequence) {}
    finished.receive(completion: .finished)
  }

  @inlinable
  func cancel() {
    lock.lock()
    let downstream = self.downstream.take()
    let sequence = self.sequence.take()
    lock.unlock()
    withExtendedLifetime((downstream, sequence)) {}
  }
}

extension Publishers {
  /// A publisher that publishes a given sequence of elements (as demand allows), then finishes,
  /// as Combine's `Publishers.Sequence`. An empty sequence finishes at once (with
  /// ``Subscriptions/empty``).
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    public typealias Output = Elements.Element
    /// The sequence of elements to publish.
    public let sequence: Elements

    @inlinable
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = SequenceSubscription(sequence, downstream: subscriber)
      if subscription.isExhausted {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        subscription.cancel()
      } else {
        subscriber.receive(subscription: subscription)
      }
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
  /// A publisher of this sequence's elements.
  @inlinable
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}

// MARK: - Combine's specialisations for Publishers.Sequence

extension Publishers.Sequence where Failure == Never {
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence {
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  @inlinable
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  @inlinable
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(Array(sequence))
  }

  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  @inlinable
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
    Result<Bool, Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  @inlinable
  public func drop(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<
      DropWhileSequence<Elements>, Failure
    >
  {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
  }

  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
  }

  @inlinable
  public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

  @inlinable
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
  }

  @inlinable
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  @inlinable
  public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
  }

  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Result<T, Error>.Publisher {
    Result<T, Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }

  @inlinable
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
    Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
  }

  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var accumulator = initialResult
    return Publishers.Sequence<[T], Failure>(
      sequence: sequence.map {
        accumulator = nextPartialResult(accumulator, $0)
        return accumulator
      })
  }

  @inlinable
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  @inlinable
  public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
    var kept: [Output] = []
    for element in sequence where kept.last != element || kept.isEmpty {
      kept.append(element)
    }
    return Publishers.Sequence<[Output], Failure>(sequence: kept)
  }

  @inlinable
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  @inlinable
  public func min() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.min()) }
  @inlinable
  public func max() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.max()) }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  @inlinable
  public func first() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.first) }

  @inlinable
  public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(sequence.count) }

  @inlinable
  public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  @inlinable
  public func last() -> Optional<Output>.Publisher { Optional<Output>.Publisher(sequence.last) }

  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }

  @inlinable
  public func count() -> Just<Int> { Just(sequence.count) }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  @inlinable
  public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
    Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
  }

  @inlinable
  public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(sequence.count) }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  @inlinable
  public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> { prepend(elements) }

  @inlinable
  public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var combined = Elements()
    combined.reserveCapacity(sequence.count + elements.underestimatedCount)
    combined.append(contentsOf: elements)
    combined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  @inlinable
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    var combined = publisher.sequence
    combined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  @inlinable
  public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> { append(elements) }

  @inlinable
  public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var combined = sequence
    combined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: combined)
  }

  @inlinable
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    append(publisher.sequence)
  }
}
