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

extension Publishers {
  /// A publisher that decodes each upstream element with a decoder; a decoding error fails it.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    public typealias Failure = Error
    public let upstream: Upstream
    public let decoder: Coder

    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let decoder = decoder
      upstream.subscribeTryTransforming("Decode", subscriber) { value in
        attempt { .send(try decoder.decode(Output.self, from: value)) }
      }
    }
  }

  /// A publisher that encodes each upstream element with an encoder; an encoding error fails it.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
    public typealias Output = Coder.Output
    public typealias Failure = Error
    public let upstream: Upstream
    public let encoder: Coder

    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
      let encoder = encoder
      upstream.subscribeTryTransforming("Encode", subscriber) { value in
        attempt { .send(try encoder.encode(value)) }
      }
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

// MARK: - Result.Publisher

extension Result {
  /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails
  /// immediately without producing any elements (`result.publisher`).
  public struct Publisher: Reactive.Publisher {
    public typealias Output = Success
    /// The result to deliver to each subscriber.
    public let result: Result<Success, Failure>

    public init(_ result: Result<Success, Failure>) {
      self.result = result
    }

    /// Creates a publisher that sends `output` once, then finishes.
    public init(_ output: Output) {
      self.init(.success(output))
    }

    /// Creates a publisher that immediately fails with `failure`.
    public init(_ failure: Failure) {
      self.init(.failure(failure))
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
      switch result {
      case .success(let value):
        let subscription = OneShotSubscription<Success, Failure>(name: "Once", downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.resolve(value: value, completion: .finished)
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }

  /// A publisher of this result.
  public var publisher: Publisher { Publisher(self) }
}
