import Common
import Foundation
import Reactive
import Transport

/// ``LiveUpdates`` over a server's `/v1/stream` (WebSocket through libwebsockets, see
/// ``Transport/WebSocketClient``): one connection per app, authenticated with the session's
/// token, one subscription per followed topic.
///
/// When the connection drops or cannot be made, ``status`` says so (`unreachable`, with the
/// seconds to the next attempt) and it reconnects with exponential backoff (0.5 s doubling to
/// 15 s, ±20 % jitter); on reconnecting it resubscribes each topic `after` the last sequence it
/// delivered, so subscribers get every event once, in order.
public final class RemoteLiveUpdates: LiveUpdates, @unchecked Sendable {
  private let server: URL
  private let streamURL: URL
  private let lock = NSLock()
  private var client: WebSocketClient?
  private var socket: WebSocket?
  private var socketEvents: AnyCancellable?
  private var topics: [String: Followed] = [:]
  private var attempt = 0
  private var keepConnected = false
  private var reconnectPending = false
  private var stopped = false
  private let statusSubject = CurrentValueSubject<ConnectionStatus, Never>(.connecting)
  /// The backoff's first delay and ceiling (seconds).
  let firstDelay: TimeInterval
  let maxDelay: TimeInterval

  private final class Followed {
    let subject = PassthroughSubject<TopicEvent, Never>()
    var token: String
    var last: Int64?
    var subscribers = 0
    init(token: String) { self.token = token }
  }

  /// A client of `server` (`http://host:port`); nothing connects before ``start()`` or the first
  /// subscription to ``events(topic:token:)``.
  public init(server: URL, firstDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 15) {
    self.server = server
    var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
    components.scheme = components.scheme == "https" ? "wss" : "ws"
    components.path = "/v1/stream"
    streamURL = components.url ?? server
    self.firstDelay = firstDelay
    self.maxDelay = maxDelay
  }

  deinit { stop() }

  /// The connection's state, the current one first. Subscribing keeps the connection up (as
  /// ``start()``), so an app that shows the status knows whether the server is reachable even
  /// before it follows a topic.
  public var status: AnyPublisher<ConnectionStatus, Never> {
    Deferred { [self] () -> CurrentValueSubject<ConnectionStatus, Never> in
      start()
      return statusSubject
    }
    .eraseToAnyPublisher()
  }

  /// The one client of `server` in this process (every part of an app shares its connection).
  public static func shared(server: URL) -> RemoteLiveUpdates {
    registry.client(of: server)
  }

  private static let registry = Registry()

  private final class Registry: @unchecked Sendable {
    private let lock = NSLock()
    private var clients: [String: RemoteLiveUpdates] = [:]
    func client(of server: URL) -> RemoteLiveUpdates {
      lock.withLock {
        if let client = clients[server.absoluteString] { return client }
        let client = RemoteLiveUpdates(server: server)
        clients[server.absoluteString] = client
        return client
      }
    }
  }

  /// Keeps the connection up even with no topic followed (the interactive app, to show whether
  /// the server is reachable).
  public func start() {
    lock.withLock { keepConnected = true }
    connectIfNeeded()
  }

  /// Closes the connection for good.
  public func stop() {
    let (socket, client) = lock.withLock { () -> (WebSocket?, WebSocketClient?) in
      stopped = true
      let taken = (self.socket, self.client)
      self.socket = nil
      self.client = nil
      socketEvents = nil
      return taken
    }
    socket?.close(code: 1000, reason: "app closing")
    client?.shutdown()
  }

  public func events(topic: String, token: String) -> AnyPublisher<TopicEvent, Never> {
    Deferred { [self] () -> AnyPublisher<TopicEvent, Never> in
      let (followed, isNew) = lock.withLock { () -> (Followed, Bool) in
        if let existing = topics[topic] {
          existing.subscribers += 1
          let changed = existing.token != token
          existing.token = token
          return (existing, changed)
        }
        let followed = Followed(token: token)
        followed.subscribers = 1
        topics[topic] = followed
        return (followed, true)
      }
      if isNew { subscribeOnOpenSocket(topic) }
      connectIfNeeded()
      return followed.subject
        .handleEvents(receiveCancel: { [weak self] in self?.release(topic) })
        .eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
  }

  private func release(_ topic: String) {
    let socket = lock.withLock { () -> WebSocket? in
      guard let followed = topics[topic] else { return nil }
      followed.subscribers -= 1
      guard followed.subscribers <= 0 else { return nil }
      topics[topic] = nil
      return self.socket
    }
    socket?.send(StreamMessage(type: "unsubscribe", topic: topic).text)
  }

  private func subscribeOnOpenSocket(_ topic: String) {
    let (socket, followed) = lock.withLock { (self.socket, topics[topic]) }
    guard let socket, let followed, case .connected = statusSubject.value else { return }
    // Public topics (flight:, board:) are followed without a session: no auth to send.
    if !followed.token.isEmpty { socket.send(StreamMessage(type: "auth", token: followed.token).text) }
    socket.send(StreamMessage(type: "subscribe", topic: topic, after: followed.last).text)
  }

  private func connectIfNeeded() {
    let socket: WebSocket
    let client: WebSocketClient
    lock.lock()
    guard !stopped, self.socket == nil, !reconnectPending, keepConnected || !topics.isEmpty else {
      lock.unlock()
      return
    }
    if self.client == nil { self.client = try? WebSocketClient() }
    guard let made = self.client else {
      lock.unlock()
      scheduleReconnect(reason: "cannot start the WebSocket client")
      return
    }
    client = made
    socket = made.socket(to: streamURL)
    self.socket = socket
    socketEvents = socket.events.sink { [weak self] event in self?.handle(event, on: socket) }
    lock.unlock()
    if case .connected = statusSubject.value {} else { statusSubject.send(.connecting) }
    client.connect(socket, to: streamURL)
  }

  private func handle(_ event: WebSocketEvent, on socket: WebSocket) {
    switch event {
    case .opened:
      let followed = lock.withLock { () -> [(String, String, Int64?)] in
        attempt = 0
        return topics.map { ($0.key, $0.value.token, $0.value.last) }
      }
      statusSubject.send(.connected)
      if let token = followed.first(where: { !$0.1.isEmpty })?.1 {
        socket.send(StreamMessage(type: "auth", token: token).text)
      }
      for (topic, _, last) in followed {
        socket.send(StreamMessage(type: "subscribe", topic: topic, after: last).text)
      }
    case .text(let text):
      guard let message = StreamMessage.parse(text) else { return }
      receive(message)
    case .closed(let code, _):
      let isCurrent = lock.withLock { () -> Bool in
        guard self.socket === socket else { return false }
        self.socket = nil
        socketEvents = nil
        return true
      }
      // 4401: the server is there but refused the token (signed out, expired): not "unreachable";
      // the session notices on its own, and a new token resubscribes.
      if isCurrent {
        scheduleReconnect(reason: "connection lost", reachable: code == StreamMessage.unauthorizedCloseCode)
      }
    }
  }

  private func receive(_ message: StreamMessage) {
    guard let topic = message.topic else { return }
    switch message.type {
    case "subscribed":
      lock.withLock {
        if let followed = topics[topic], followed.last == nil { followed.last = message.sequence ?? 0 }
      }
    case "event":
      guard let sequence = message.sequence else { return }
      let subject = lock.withLock { () -> PassthroughSubject<TopicEvent, Never>? in
        // The first event of a topic is taken whatever its number (a snapshot may be numbered 0).
        guard let followed = topics[topic], followed.last.map({ sequence > $0 }) ?? true else { return nil }
        followed.last = sequence
        return followed.subject
      }
      subject?.send(
        TopicEvent(topic: topic, sequence: sequence, type: message.event ?? "", data: message.data ?? .null))
    default:
      break
    }
  }

  private func scheduleReconnect(reason: String, reachable: Bool = false) {
    let delay = lock.withLock { () -> TimeInterval? in
      guard !stopped, keepConnected || !topics.isEmpty else { return nil }
      let base = min(maxDelay, firstDelay * pow(2, Double(attempt)))
      attempt += 1
      reconnectPending = true
      return base * Double.random(in: 0.8...1.2)
    }
    guard let delay else { return }
    if !reachable { statusSubject.send(.unreachable(server: server.absoluteString, retryIn: delay)) }
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
      guard let self else { return }
      lock.withLock { reconnectPending = false }
      connectIfNeeded()
    }
  }
}
