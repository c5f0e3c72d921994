extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of published
  /// elements (`prefix(_:)`, `output(at:)`, `output(in:)`), finishing after the last one.
  public struct Output<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The range of elements to publish.
    public let range: CountableRange<Int>

    public init(upstream: Upstream, range: CountableRange<Int>) {
      precondition(range.lowerBound >= 0, "the range must not be negative")
      self.upstream = upstream
      self.range = range
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let range = range
      var index = 0
      upstream.subscribeTransforming("Output", subscriber) { value in
        defer { index += 1 }
        if range.isEmpty { return .finish }
        if index < range.lowerBound { return .skip }
        return index == range.upperBound - 1 ? .sendAndFinish(value) : .send(value)
      }
    }
  }

  /// A publisher that republishes elements while a predicate is true, then finishes.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let predicate = predicate
      upstream.subscribeTransforming("PrefixWhile", subscriber) { predicate($0) ? .send($0) : .finish }
    }
  }

  /// `prefix(while:)` with a throwing predicate.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let predicate = predicate
      upstream.subscribeTryTransforming("TryPrefixWhile", subscriber) { value in
        attempt { try predicate(value) ? .send(value) : .finish }
      }
    }
  }

  /// A publisher that omits a specified number of elements before republishing the rest.
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The number of elements to drop.
    public let count: Int

    public init(upstream: Upstream, count: Int) {
      precondition(count >= 0, "count must not be negative")
      self.upstream = upstream
      self.count = count
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      var remaining = count
      upstream.subscribeTransforming("Drop", subscriber) { value in
        guard remaining == 0 else {
          remaining -= 1
          return .skip
        }
        return .send(value)
      }
    }
  }

  /// A publisher that omits elements while a predicate is true, then republishes the rest.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let predicate: (Upstream.Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let predicate = predicate
      var dropping = true
      upstream.subscribeTransforming("DropWhile", subscriber) { value in
        if dropping, predicate(value) { return .skip }
        dropping = false
        return .send(value)
      }
    }
  }

  /// `drop(while:)` with a throwing predicate.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let predicate: (Upstream.Output) throws -> Bool

    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let predicate = predicate
      var dropping = true
      upstream.subscribeTryTransforming("TryDropWhile", subscriber) { value in
        attempt {
          if dropping, try predicate(value) { return .skip }
          dropping = false
          return .send(value)
        }
      }
    }
  }

  /// A publisher that buffers a maximum number of items and publishes them as arrays; the
  /// remainder is published when upstream finishes (Combine's `collect(_:)`).
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    public init(upstream: Upstream, count: Int) {
      precondition(count > 0, "count must be positive")
      self.upstream = upstream
      self.count = count
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let count = count
      var buffer: [Upstream.Output] = []
      // A `nil` marks the end of the upstream, so the last, partial group can be sent with demand.
      upstream.map { Optional.some($0) }.append(Just(nil).setFailureType(to: Failure.self))
        .subscribeTransforming("CollectByCount", subscriber) { value in
          guard let value else { return buffer.isEmpty ? .finish : .sendAndFinish(buffer) }
          buffer.append(value)
          guard buffer.count == count else { return .skip }
          defer { buffer = [] }
          return .send(buffer)
        }
    }
  }
}

extension Publisher {
  /// Republishes elements up to `maxLength`, then finishes.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    output(in: 0..<maxLength)
  }

  /// Republishes elements while `predicate` is true, then finishes.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes elements while a throwing predicate is true, then finishes.
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }

  /// Publishes only the element at `index`, then finishes.
  public func output(at index: Int) -> Publishers.Output<Self> {
    output(in: index..<(index + 1))
  }

  /// Publishes the elements in `range`, then finishes.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }

  /// Omits the first `count` elements.
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }

  /// Omits elements while `predicate` is true.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements while a throwing predicate is true.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }

  /// Collects up to `count` elements and publishes them as arrays (the last may be shorter).
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}
