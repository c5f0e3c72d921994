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

  /// Queues `message` (encoded once, its bytes shared by every socket it is sent to). Returns
  /// false when the connection is already closing or closed.
  @discardableResult
  public func send(_ message: WebSocketMessage) -> Bool { sink.send(message.bytes, on: id) }

  /// Queues `message` on every socket of `sockets` — a fan-out — in one hand-over to each service
  /// loop for all its sockets (one lock and at most one wake-up, instead of one per socket), its
  /// bytes shared, not copied. Per socket it is ordered as ``send(_:)-(WebSocketMessage)`` would
  /// order it among that socket's messages; sockets already closing skip it, and a reader too slow
  /// for its bounded outbox is disconnected (`1008`), as with ``send(_:)-(String)``.
  public static func send(_ message: WebSocketMessage, to sockets: some Sequence<WebSocket>) {
    var groups: [ObjectIdentifier: (sink: any FrameSink, ids: [UInt64])] = [:]
    for socket in sockets {
      guard let key = socket.sink.loopKey else { continue }
      if groups[key] == nil {
        groups[key] = (socket.sink, [socket.id])
      } else {
        groups[key]?.ids.append(socket.id)
      }
    }
    for (sink, ids) in groups.values { sink.send(message.bytes, on: ids) }
  }

  /// Closes with `code` (1000 normal, 1001 going away, 1008 policy violation, 4xxx the
  /// application's) after the messages already queued.
  public func close(code: UInt16 = 1000, reason: String = "") { sink.close(id, code: code, reason: reason) }

  func deliver(_ event: WebSocketEvent) {
    subject.send(event)
    if case .closed = event { subject.send(completion: .finished) }
  }
}

/// A text message encoded once, to be sent to many sockets (``WebSocket/send(_:to:)``): its
/// UTF-8 bytes are made once and shared by every socket's outbox until written.
public struct WebSocketMessage: Sendable {
  let bytes: Data

  /// `text` as UTF-8.
  public init(_ text: String) { bytes = Data(text.utf8) }

  /// The message's size in bytes (UTF-8).
  public var count: Int { bytes.count }
}

/// Where a ``WebSocket`` hands its frames: the service loop that owns it.
protocol FrameSink: Sendable {
  func send(_ data: Data, on id: UInt64) -> Bool
  /// `data` for each of `ids` (sockets of this sink's loop), in one command.
  func send(_ data: Data, on ids: [UInt64])
  func close(_ id: UInt64, code: UInt16, reason: String)
  /// The loop's identity (sockets with the same key share a loop); nil once the loop is gone.
  var loopKey: ObjectIdentifier? { get }
}
