import Backend
import Common
import Foundation
import Reactive
import Transport

/// One client of `/v1/stream`: its authentication and its subscriptions, each with the last
/// sequence sent. Messages from the client arrive on the socket's mailbox (a worker thread);
/// events arrive from the hub's thread; one lock orders both, so per topic every event is sent
/// once, in sequence order, with gaps filled from the feed.
final class StreamSession: @unchecked Sendable {
  private let socket: WebSocket
  private let hub: StreamHub
  private let backend: ServerBackend
  private let lock = NSLock()
  private var userID: Int64?
  /// Set instead of `userID` when the connection authenticated with a travel agent's token.
  private var agentID: Int64?
  /// Public topic name → (feed topic, last sequence sent).
  private var subscriptions: [String: (feedTopic: String, last: Int64)] = [:]
  /// Public topic name → the subscription to a flight-status channel (``FlightStatusChannels``).
  private var statusSubscriptions: [String: AnyCancellable] = [:]
  private var cancellable: AnyCancellable?

  init(socket: WebSocket, hub: StreamHub, backend: ServerBackend) {
    self.socket = socket
    self.hub = hub
    self.backend = backend
  }

  /// Starts handling the socket's events (called on its mailbox, before any message arrives).
  func start() {
    cancellable = socket.events.sink { [self] event in
      switch event {
      case .text(let text): receive(text)
      case .closed: end()
      case .opened: break
      }
    }
    if let header = socket.request.header("authorization"), header.lowercased().hasPrefix("bearer ") {
      authenticate(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
    }
  }

  private func end() {
    let (topics, statuses) = lock.withLock {
      let topics = subscriptions.values.map(\.feedTopic)
      subscriptions.removeAll()
      defer { statusSubscriptions.removeAll() }
      return (topics, Array(statusSubscriptions.values))
    }
    for topic in topics { hub.remove(self, from: topic) }
    for status in statuses { status.cancel() }
    cancellable = nil
  }

  private func send(_ message: StreamMessage) { socket.send(message.text) }

  private func fail(_ error: ServiceError, topic: String? = nil) {
    send(StreamMessage(type: "error", topic: topic, code: error.code, message: error.message))
  }

  private func receive(_ text: String) {
    guard let message = StreamMessage.parse(text) else {
      fail(.invalid("invalid_message", "expected a JSON object with a \"type\" (auth, subscribe, unsubscribe, ping)"))
      return
    }
    switch message.type {
    case "auth":
      authenticate(message.token ?? "")
    case "subscribe":
      subscribe(message.topic ?? "", after: message.after)
    case "unsubscribe":
      let name = message.topic ?? ""
      if let removed = lock.withLock({ subscriptions.removeValue(forKey: name) }) {
        hub.remove(self, from: removed.feedTopic)
      }
      lock.withLock { statusSubscriptions.removeValue(forKey: name) }?.cancel()
    case "ping":
      send(StreamMessage(type: "pong"))
    default:
      fail(
        .invalid(
          "unknown_message", "unknown message type \"\(message.type)\": expected auth, subscribe, unsubscribe or ping"))
    }
  }

  private func authenticate(_ token: String) {
    do {
      do {
        let id = try backend.userID(token: token)
        lock.withLock { (userID, agentID) = (id, nil) }
      } catch let error as ServiceError where error.kind == .unauthenticated {
        // Not a traveller's token: an agent's (a role apart), or the traveller's error.
        guard let id = try? backend.services.agents.agentID(token: token) else { throw error }
        lock.withLock { (userID, agentID) = (nil, id) }
      }
      send(StreamMessage(type: "authenticated"))
    } catch {
      fail(ServiceError(wrapping: error))
      socket.close(code: StreamMessage.unauthorizedCloseCode, reason: "not signed in")
    }
  }

  private func subscribe(_ name: String, after: Int64?) {
    if let channels = hub.flightStatus, FlightStatusChannels.handles(name) {
      subscribeStatus(name, after: after, channels: channels)
      return
    }
    guard let definition = hub.definition(for: name) else {
      fail(.invalid("unknown_topic", "unknown topic \"\(name)\": expected one of \(hub.topicNames)"), topic: name)
      return
    }
    let (user, agent) = lock.withLock { (userID, agentID) }
    if definition.requiresAuthentication && user == nil && agent == nil {
      fail(ServiceError.notSignedIn, topic: name)
      return
    }
    do {
      let feedTopic: String
      if let agent {
        guard let agentFeedTopic = definition.agentFeedTopic else { throw ServiceError.notSignedIn }
        feedTopic = try agentFeedTopic(name, agent)
      } else {
        feedTopic = try definition.feedTopic(name, user)
      }
      try lock.withLock {
        if let old = subscriptions[name] { hub.remove(self, from: old.feedTopic) }
        let start = try after.map { max(0, $0) } ?? hub.feed.latestSequence(topic: feedTopic)
        subscriptions[name] = (feedTopic, start)
        hub.add(self, to: feedTopic)
        try catchUp(name)
        send(StreamMessage(type: "subscribed", topic: name, sequence: subscriptions[name]?.last ?? start))
      }
    } catch {
      fail(ServiceError(wrapping: error), topic: name)
    }
  }

  /// Follows a flight-status topic: its channel sends the snapshot or the missed changes,
  /// `subscribed`, then each change, straight to the socket (no sign-in needed).
  private func subscribeStatus(_ name: String, after: Int64?, channels: FlightStatusChannels) {
    lock.withLock { statusSubscriptions.removeValue(forKey: name) }?.cancel()
    do {
      let subscription = try channels.subscribe(name: name, after: after, socket: socket)
      lock.withLock { statusSubscriptions[name] = subscription }
    } catch {
      fail(ServiceError(wrapping: error), topic: name)
    }
  }

  /// Sends what the feed holds for `name` after the last sequence sent (lock held).
  private func catchUp(_ name: String, through target: Int64 = .max) throws {
    while let subscription = subscriptions[name], subscription.last < target {
      let events = try hub.feed.events(topic: subscription.feedTopic, after: subscription.last, limit: 500)
      for event in events where event.sequence <= target { deliver(event, as: name) }
      if events.count < 500 { return }
    }
  }

  private func deliver(_ event: StoredEvent, as name: String) {
    send(
      StreamMessage(
        type: "event", topic: name, sequence: event.sequence, event: event.type, data: event.data,
        time: event.createdAt))
    subscriptions[name]?.last = event.sequence
  }

  /// A new event of one of this session's feed topics (hub thread).
  func offer(_ event: StoredEvent) {
    lock.withLock {
      for (name, subscription) in subscriptions where subscription.feedTopic == event.topic {
        guard event.sequence > subscription.last else { continue }
        if event.sequence > subscription.last + 1 { try? catchUp(name, through: event.sequence - 1) }
        if event.sequence == (subscriptions[name]?.last ?? 0) + 1 { deliver(event, as: name) }
      }
    }
  }
}
