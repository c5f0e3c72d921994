import Foundation

/// The messages of the live channel `GET /v1/stream` (a WebSocket, subprotocol `travel.v1`): one
/// JSON object per text message, told apart by `type`.
///
/// Client → server:
/// - `{"type": "auth", "token": "…"}` — authenticate (or send `Authorization: Bearer` with the
///   upgrade request). Answer: `authenticated`, or `error` `not_signed_in`/`session_expired` and
///   the close code 4401.
/// - `{"type": "subscribe", "topic": "trips", "after": 12}` — follow a topic; with `after`, first
///   every retained event of the topic with a sequence above it (what was missed), then live
///   events. Without `after`, only events from now on. Answer: the missed events, then
///   `subscribed` with the topic's current `sequence`.
/// - `{"type": "unsubscribe", "topic": "trips"}`, `{"type": "ping"}` (answer `pong`).
///
/// Server → client:
/// - `{"type": "event", "topic", "sequence", "event": "reservation.booked", "data": {…}, "time"}`.
///   Each topic numbers its events 1, 2, 3, … without gaps; a client keeps the last sequence it
///   handled per topic and resubscribes with `after` after a reconnect: nothing is lost, nothing
///   comes twice.
/// - `{"type": "authenticated"}`, `{"type": "subscribed", "topic", "sequence"}`, `{"type": "pong"}`,
///   `{"type": "error", "code", "message", "topic"?}`.
///
/// Heartbeats: WebSocket pings from both sides; a connection silent past the idle timeout is
/// closed. A client that reads too slowly for its bounded outbox is disconnected (it resumes with
/// `after`). On shutdown the server closes with 1001 (going away).
public struct StreamMessage: Codable, Sendable, Hashable {
  public var type: String
  public var token: String?
  public var topic: String?
  public var after: Int64?
  public var sequence: Int64?
  public var event: String?
  public var data: JSONValue?
  public var time: Date?
  public var code: String?
  public var message: String?

  public init(
    type: String, token: String? = nil, topic: String? = nil, after: Int64? = nil, sequence: Int64? = nil,
    event: String? = nil, data: JSONValue? = nil, time: Date? = nil, code: String? = nil, message: String? = nil
  ) {
    self.type = type
    self.token = token
    self.topic = topic
    self.after = after
    self.sequence = sequence
    self.event = event
    self.data = data
    self.time = time
    self.code = code
    self.message = message
  }

  /// The message as one line of JSON text.
  public var text: String {
    String(decoding: (try? API.makeEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self)
  }

  /// Parses one received text.
  public static func parse(_ text: String) -> StreamMessage? {
    try? API.makeDecoder().decode(StreamMessage.self, from: Data(text.utf8))
  }

  /// The close code for a failed authentication.
  public static let unauthorizedCloseCode: UInt16 = 4401
}
