import Foundation

/// A type that defines methods for decoding, as Combine's `TopLevelDecoder` (`JSONDecoder` and
/// `PropertyListDecoder` conform).
public protocol TopLevelDecoder {
  /// The type this decoder accepts.
  associatedtype Input
  /// Decodes an instance of the indicated type.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

/// A type that defines methods for encoding, as Combine's `TopLevelEncoder` (`JSONEncoder` and
/// `PropertyListEncoder` conform).
public protocol TopLevelEncoder {
  /// The type this encoder produces.
  associatedtype Output
  /// Encodes an instance of the indicated type.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONDecoder: TopLevelDecoder {}
extension JSONEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}

/// The subscription of `encode` and `decode`: each value goes through a throwing coder; an error
/// cancels upstream and fails downstream. After termination it ignores upstream and releases the
/// upstream subscription.
///
/// `@unchecked Sendable`: the state is guarded by a lock; the coder runs without it.
private final class CodingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == Error {
  typealias Failure = UpstreamFailure

  let description: String
  private let lock = Lock()
  private let downstream: Downstream
  private let code: (Input) throws -> Downstream.Input
  private var finished = false
  private var upstream: Subscription?

  init(_ name: String, downstream: Downstream, code: @escaping (Input) throws -> Downstream.Input) {
    description = name
    self.downstream = downstream
    self.code = code
  }

  var playgroundDescription: Any { description }
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("finished", finished), ("upstreamSubscription", upstream as Any),
    ]
    return Mirror(self, children: children)
  }

  func receive(subscription: Subscription) {
    lock.lock()
    guard !finished, upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    do {
      return downstream.receive(try code(input))
    } catch {
      lock.lock()
      finished = true
      let upstream = self.upstream.take()
      lock.unlock()
      upstream?.cancel()
      downstream.receive(completion: .failure(error))
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return
    }
    finished = true
    let upstream = self.upstream.take()
    lock.unlock()
    withExtendedLifetime(upstream) {}
    downstream.receive(completion: completion.erased)
  }

  func request(_ demand: Subscribers.Demand) {
    assertValidRequest(demand)
    lock.lock()
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard !finished, let upstream = self.upstream.take() else {
      lock.unlock()
      return
    }
    finished = true
    lock.unlock()
    upstream.cancel()
  }
}

extension Publishers {
  /// A publisher that decodes each upstream element with a decoder; a decoding error cancels
  /// upstream and fails downstream.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    public typealias Failure = Error
    public let upstream: Upstream

    private let decoder: Coder

    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let decoder = decoder
      upstream.subscribe(
        CodingSubscription<Upstream.Output, Upstream.Failure, S>("Decode", downstream: subscriber) {
          try decoder.decode(Output.self, from: $0)
        })
    }
  }

  /// A publisher that encodes each upstream element with an encoder; an encoding error cancels
  /// upstream and fails downstream.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
    public typealias Output = Coder.Output
    public typealias Failure = Error
    public let upstream: Upstream

    private let encoder: Coder

    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let encoder = encoder
      upstream.subscribe(
        CodingSubscription<Upstream.Output, Upstream.Failure, S>("Encode", downstream: subscriber) {
          try encoder.encode($0)
        })
    }
  }
}

extension Publisher {
  /// Decodes each element (for example `Data`) as `type` with `decoder`.
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type, decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}

extension Publisher where Output: Encodable {
  /// Encodes each element with `encoder`.
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}
