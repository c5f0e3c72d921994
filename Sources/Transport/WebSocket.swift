import Foundation
import Reactive

/// What happens on a WebSocket, in order: for a client ``opened`` first; then text messages;
/// ``closed`` last (the publisher then finishes).
public enum WebSocketEvent: Sendable, Equatable {
  /// The client's handshake succeeded (clients only: a server socket is open when it is handed out).
  case opened
  /// One complete text message (fragments joined), UTF-8.
  case text(String)
  /// The connection ended: the close code the peer or this side sent (`1000` normal, `1001` going
  /// away, `1006` dropped without a close frame, `1008` policy, `1009` message too big), and why.
  case closed(code: UInt16, reason: String)
}

/// One WebSocket connection, server or client side.
///
/// Thread-safe: ``send(_:)`` and ``close(code:reason:)`` may be called from any thread; they
/// hand the frame to the service thread, which writes it when the socket can take it. Events
/// arrive on ``events`` on a worker thread, one at a time and in order (the connection's
/// ``Mailbox``), never on the service thread.
public final class WebSocket: Sendable {
  /// Unique within the process.
  public let id: UInt64
  /// The upgrade request: path, query, the headers the server reads, the peer's address (server
  /// side); the URL's path and query (client side).
  public let request: HTTPRequest
  private let subject = PassthroughSubject<WebSocketEvent, Never>()
  private let sink: any FrameSink

  init(id: UInt64, request: HTTPRequest, sink: any FrameSink) {
    self.id = id
    self.request = request
    self.sink = sink
  }

  /// The connection's events; finishes after ``WebSocketEvent/closed(code:reason:)``.
  public var events: AnyPublisher<WebSocketEvent, Never> { subject.eraseToAnyPublisher() }

  /// Queues a text message. Returns false when the connection is already closing or closed. A
  /// peer that does not read fast enough for its bounded outbox is disconnected (`1008`).
  @discardableResult
  public func send(_ text: String) -> Bool { sink.send(Data(text.utf8), on: id) }

  /// Closes with `code` (1000 normal, 1001 going away, 1008 policy violation, 4xxx the
  /// application's) after the messages already queued.
  public func close(code: UInt16 = 1000, reason: String = "") { sink.close(id, code: code, reason: reason) }

  func deliver(_ event: WebSocketEvent) {
    subject.send(event)
    if case .closed = event { subject.send(completion: .finished) }
  }
}

/// Where a ``WebSocket`` hands its frames: the service loop that owns it.
protocol FrameSink: Sendable {
  func send(_ data: Data, on id: UInt64) -> Bool
  func close(_ id: UInt64, code: UInt16, reason: String)
}
