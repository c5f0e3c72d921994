/// The subscription behind `Publishers.Sequence`: sends elements while the subscriber has demand
/// (a request made from inside `receive` is served by the same loop, not recursively).
///
/// `@unchecked Sendable`: the state is guarded by a lock.
private final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Elements.Element {
  private let lock = Lock()
  private var iterator: Elements.Iterator
  private var next: Elements.Element?
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  private var isEmitting = false

  init(_ elements: Elements, downstream: Downstream) {
    iterator = elements.makeIterator()
    next = iterator.next()
    self.downstream = downstream
  }

  var description: String { "Sequence" }
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }], displayStyle: .class) }

  /// Finishes at once when the sequence is empty (called after `receive(subscription:)`).
  func finishIfEmpty() {
    lock.lock()
    guard next == nil, let downstream else {
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    downstream.receive(completion: .finished)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    self.demand += demand
    guard !isEmitting else {
      lock.unlock()
      return
    }
    isEmitting = true
    while let downstream, self.demand > .none, let element = next {
      self.demand -= 1
      next = iterator.next()
      lock.unlock()
      let more = downstream.receive(element)
      lock.lock()
      self.demand += more
    }
    isEmitting = false
    guard next == nil, let downstream else {
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    downstream.receive(completion: .finished)
  }

  func cancel() {
    lock.withLock { downstream = nil }
  }
}

extension Publishers {
  /// A publisher that publishes a given sequence of elements (as demand allows), then finishes.
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    public typealias Output = Elements.Element
    /// The sequence of elements to publish.
    public let sequence: Elements

    public init(sequence: Elements) {
      self.sequence = sequence
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = SequenceSubscription(sequence, downstream: subscriber)
      subscriber.receive(subscription: subscription)
      subscription.finishIfEmpty()
    }
  }
}

extension Sequence {
  /// A publisher of this sequence's elements.
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}
