import Foundation
import Reactive

/// Where the connection to the backend stands, for the app to say so.
public enum ConnectionStatus: Hashable, Sendable {
  /// The embedded backend: nothing to connect to.
  case embedded
  /// Connecting (or reconnecting) to the server.
  case connecting
  /// Connected: live events arrive.
  case connected
  /// The server cannot be reached; the next attempt is in `retryIn` seconds.
  case unreachable(server: String, retryIn: TimeInterval)
}

/// One event of a topic the traveller follows (`trips`: `reservation.booked`, `reservation.cancelled`).
public struct TopicEvent: Hashable, Sendable {
  /// The public topic name (`trips`).
  public var topic: String
  /// The place in the topic's order (1, 2, 3, …).
  public var sequence: Int64
  /// What happened (`reservation.booked`).
  public var type: String
  /// The event's document (`{"reservation": …}`).
  public var data: JSONValue

  public init(topic: String, sequence: Int64, type: String, data: JSONValue) {
    self.topic = topic
    self.sequence = sequence
    self.type = type
    self.data = data
  }
}

/// Live events of the traveller's topics: the embedded backend follows its store's change feed
/// (so it sees other processes' bookings too), a server client the server's `/v1/stream`.
/// Features see only this protocol.
public protocol LiveUpdates: Sendable {
  /// The events of `topic` for the session `token`, from now on, each once and in order (a client
  /// that reconnects resumes where it stopped). Never fails; cancel to stop.
  func events(topic: String, token: String) -> AnyPublisher<TopicEvent, Never>
  /// The connection's state (``ConnectionStatus/embedded`` for the embedded backend).
  var status: AnyPublisher<ConnectionStatus, Never> { get }
}

/// No live events (previews, tests, apps without a store).
public struct NoLiveUpdates: LiveUpdates {
  public init() {}
  public func events(topic: String, token: String) -> AnyPublisher<TopicEvent, Never> {
    Empty(completeImmediately: false).eraseToAnyPublisher()
  }
  public var status: AnyPublisher<ConnectionStatus, Never> { Just(.embedded).eraseToAnyPublisher() }
}
