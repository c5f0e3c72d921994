import Common
import Foundation
import Reactive
import Transport

/// The live flight-status topics of `/v1/stream` (``FlightStatusTopic``: `flight:KEY`,
/// `board:AIRPORT:departures|arrivals[:DATE]`), fanned out: one feed of the status service per
/// topic however many sessions follow it, each change encoded once per topic name (text and
/// UTF-8 bytes) and handed to every subscriber's socket in one go (``WebSocket/send(_:to:)``: one
/// hand-over to the server's service thread for all of them, the bytes shared, not copied).
///
/// Per subscription, in order, each message once:
/// - without `after`: the snapshot (`flight.snapshot` / `board.snapshot`, numbered with its
///   sequence), then `subscribed`, then each change;
/// - with `after` (a reconnect): the changes numbered after it, then `subscribed`, then each
///   change. Recent changes come from the channel's history (the last ``historyLimit``); older
///   ones from the feed itself, which resumes after any sequence exactly (the simulation is a
///   pure function of the clock); `resume_unavailable` when neither can.
///
/// A channel is made by its first subscriber and ends with its last. `time` of an event is the
/// server's real instant when the change was sent (the status's own `updatedAt` is simulated time).
final class FlightStatusChannels: @unchecked Sendable {
  let service: any FlightStatusService
  /// How many recent changes each channel keeps for resuming subscribers.
  let historyLimit: Int
  private let lock = NSLock()
  private var channels: [FlightStatusTopic: Channel] = [:]

  init(service: any FlightStatusService, historyLimit: Int = 4096) {
    self.service = service
    self.historyLimit = historyLimit
  }

  /// Whether `name` is a flight-status topic (`flight:…`, `board:…`).
  static func handles(_ name: String) -> Bool {
    name.hasPrefix(FlightStatusTopic.flightPrefix) || name.hasPrefix(FlightStatusTopic.boardPrefix)
  }

  /// How many channels are open (one per topic followed).
  var channelCount: Int { lock.withLock { channels.count } }

  /// Starts following `name` for one session: the snapshot or what it missed, then `subscribed`,
  /// then each change, as stream-message texts handed to `send` in order (from the caller's thread
  /// first, then from the feed's).
  /// - Returns: what ends the subscription.
  /// - Throws: ``ServiceError``: `invalid_topic`, the service's (`flight_not_found`,
  ///   `unknown_airport`, `date_out_of_range`, …), `resume_unavailable`.
  func subscribe(name: String, after: Int64?, send: @escaping @Sendable (String) -> Void) throws -> AnyCancellable {
    try subscribe(name: name, after: after, subscriber: Subscriber(name: name, send: send, socket: nil))
  }

  /// ``subscribe(name:after:send:)`` for a WebSocket: every message goes to `socket`, and the
  /// changes of the fan-out go to all of a channel's sockets at once (``WebSocket/send(_:to:)``).
  func subscribe(name: String, after: Int64?, socket: WebSocket) throws -> AnyCancellable {
    try subscribe(
      name: name, after: after, subscriber: Subscriber(name: name, send: { socket.send($0) }, socket: socket))
  }

  private func subscribe(name: String, after: Int64?, subscriber: Subscriber) throws -> AnyCancellable {
    let send = subscriber.send
    let topic: FlightStatusTopic
    let source: Channel.Source
    switch try FlightStatusTopic(parsing: name) {
    case .flight(let key):
      (topic, source) = (.flight(key), .flight(key))
    case .board(let airport, let direction, let date):
      // Without a date, the airport's local date now: a board's sequence numbers belong to its date.
      let day = try date ?? service.board(airport: airport, date: nil, direction: direction).date
      (topic, source) = (.board(airport: airport, direction: direction, date: day), .board(airport, direction, day))
    }
    let channel = try lock.withLock { () throws -> Channel in
      if let channel = channels[topic] { return channel }
      let channel = try Channel(topic: topic, source: source, service: service, historyLimit: historyLimit)
      channels[topic] = channel
      return channel
    }
    do {
      try channel.add(subscriber, after: after, service: service)
    } catch let error as ServiceError where error.code == "resume_unavailable" {
      // Older than the channel's history and not served at once by the feed: this subscriber
      // gets a feed of its own resumed after `after` (the feed continues exactly after any sequence).
      _ = (self.lock.withLock { channel.isIdle ? self.channels.removeValue(forKey: topic) : nil })?.stop()
      return Self.resumedFeed(source: source, topic: topic, name: name, after: after ?? 0, send: send, service: service)
    }
    return AnyCancellable { [weak self, weak channel] in
      guard let self, let channel else { return }
      self.lock.withLock {
        if channel.remove(subscriber), self.channels[topic] === channel { self.channels[topic] = nil }
      }
    }
  }
}

extension FlightStatusChannels {
  /// `subscribed` (at `after`), then every change of `source` after `after` from a feed of its
  /// own, each encoded for this subscriber.
  private static func resumedFeed(
    source: Channel.Source, topic: FlightStatusTopic, name: String, after: Int64,
    send: @escaping @Sendable (String) -> Void, service: any FlightStatusService
  ) -> AnyCancellable {
    send(StreamMessage(type: "subscribed", topic: name, sequence: after).text)
    let changes: AnyPublisher<(Int64, JSONValue), ServiceError>
    switch source {
    case .flight(let key):
      changes = service.statusEvents(key, after: Int(after)).compactMap { event -> (Int64, JSONValue)? in
        guard case .update(let update) = event, let data = try? jsonValue(["update": update]) else { return nil }
        return (Int64(update.sequence), data)
      }.eraseToAnyPublisher()
    case .board(let airport, let direction, let date):
      changes = service.boardEvents(airport: airport, date: date, direction: direction, after: Int(after))
        .compactMap { event -> (Int64, JSONValue)? in
          guard case .update(let update) = event, let data = try? jsonValue(["boardUpdate": update]) else { return nil }
          return (Int64(update.sequence), data)
        }.eraseToAnyPublisher()
    }
    let event = topic.updateEvent
    return changes.sink(
      receiveCompletion: { completion in
        if case .failure(let error) = completion {
          send(StreamMessage(type: "error", topic: name, code: error.code, message: error.message).text)
        }
      },
      receiveValue: { number, data in send(Channel.text(name, number, event, data)) })
  }
}

/// One session's subscription to a channel. Guarded by its channel's lock.
private final class Subscriber: @unchecked Sendable {
  /// The topic as the session named it (messages carry it).
  let name: String
  let send: @Sendable (String) -> Void
  /// The session's socket when it has one: the fan-out sends changes to all sockets at once.
  let socket: WebSocket?
  /// The last sequence sent.
  var last: Int64 = 0

  init(name: String, send: @escaping @Sendable (String) -> Void, socket: WebSocket?) {
    self.name = name
    self.send = send
    self.socket = socket
  }

  /// Sends a message made once for many subscribers (`text`, and `message` its bytes).
  func send(_ text: String, _ message: WebSocketMessage) {
    if let socket { socket.send(message) } else { send(text) }
  }
}

/// One topic's feed, its state now and recent changes, and its subscribers. `@unchecked Sendable`:
/// all state is guarded by `lock`.
private final class Channel: @unchecked Sendable {
  enum State {
    case flight(FlightStatus)
    case board(FlightBoard)
  }

  /// What the channel follows: a flight, or a board of a known date.
  enum Source {
    case flight(FlightStatusKey)
    case board(String, BoardDirection, LocalDate)
  }

  let topic: FlightStatusTopic
  private let source: Source
  private let historyLimit: Int
  private let lock = NSLock()
  private var state: State?
  private var sequence: Int64 = 0
  /// Recent changes: (sequence, event data), ascending, without gaps.
  private var history: [(sequence: Int64, data: JSONValue)] = []
  private var historyStart = 0
  private var subscribers: [ObjectIdentifier: Subscriber] = [:]
  /// The snapshot message last sent, for the state it was made of (cleared when the state
  /// changes) and the topic name it was made for: thousands of subscribers arriving together get
  /// one encoding, not one each under the lock.
  private var snapshotText: (name: String, text: String, message: WebSocketMessage)?
  private var upstream: AnyCancellable?
  private var failure: ServiceError?

  /// Starts the topic's feed (its snapshot arrives at once: the status service's feeds publish
  /// what is due when subscribed).
  /// - Throws: the feed's ``ServiceError`` when it cannot start.
  init(topic: FlightStatusTopic, source: Source, service: any FlightStatusService, historyLimit: Int) throws {
    self.topic = topic
    self.source = source
    self.historyLimit = historyLimit
    let events: AnyPublisher<Event, ServiceError>
    switch source {
    case .flight(let key):
      events = service.statusEvents(key, after: nil).map(Event.flight).eraseToAnyPublisher()
    case .board(let airport, let direction, let date):
      events = service.boardEvents(airport: airport, date: date, direction: direction, after: nil)
        .map(Event.board).eraseToAnyPublisher()
    }
    let cancellable = events.sink(
      receiveCompletion: { [weak self] completion in
        if case .failure(let error) = completion { self?.fail(error) }
      },
      receiveValue: { [weak self] event in self?.receive(event) })
    let (failure, started) = lock.withLock { (self.failure, state != nil) }
    if let failure { throw failure }
    guard started else {
      cancellable.cancel()
      throw ServiceError(
        .unavailable, code: "flight_status_unavailable", message: "the status feed of \(topic) did not start")
    }
    lock.withLock { upstream = cancellable }
  }

  enum Event {
    case flight(FlightStatusEvent)
    case board(FlightBoardEvent)
  }

  // MARK: Subscribers

  /// Sends `subscriber` the snapshot (no `after`) or the changes after `after`, then `subscribed`,
  /// and adds it: all under the lock, so no change falls between catching up and following.
  func add(_ subscriber: Subscriber, after: Int64?, service: any FlightStatusService) throws {
    try lock.withLock {
      if let failure { throw failure }
      guard let state else { return }
      if let after, after < sequence {
        for (number, data) in try missed(after: after, service: service) {
          subscriber.send(Self.text(subscriber.name, number, topic.updateEvent, data))
        }
        subscriber.last = sequence
      } else if let after {
        subscriber.last = after
      } else {
        if let made = snapshotText, made.name == subscriber.name {
          subscriber.send(made.text, made.message)
        } else {
          let data: JSONValue
          switch state {
          case .flight(let status): data = try jsonValue(["flightStatus": status])
          case .board(let board): data = try jsonValue(["board": board])
          }
          let text = Self.text(subscriber.name, sequence, topic.snapshotEvent, data)
          let message = WebSocketMessage(text)
          snapshotText = (subscriber.name, text, message)
          subscriber.send(text, message)
        }
        subscriber.last = sequence
      }
      subscriber.send(StreamMessage(type: "subscribed", topic: subscriber.name, sequence: subscriber.last).text)
      subscribers[ObjectIdentifier(subscriber)] = subscriber
    }
  }

  /// Whether nobody follows the channel (a channel made for a resume it could not serve).
  var isIdle: Bool { lock.withLock { subscribers.isEmpty } }

  /// Stops the feed.
  func stop() {
    let feed = lock.withLock { () -> AnyCancellable? in
      defer { upstream = nil }
      return upstream
    }
    feed?.cancel()
  }

  /// Removes `subscriber`; true when it was the last (the feed is then stopped).
  func remove(_ subscriber: Subscriber) -> Bool {
    let ended = lock.withLock { () -> AnyCancellable?? in
      subscribers[ObjectIdentifier(subscriber)] = nil
      guard subscribers.isEmpty else { return .none }
      defer { upstream = nil }
      return .some(upstream)
    }
    guard case .some(let upstream) = ended else { return false }
    upstream?.cancel()
    return true
  }

  /// The changes numbered after `after` up to ``sequence`` (lock held): from the history when it
  /// reaches back that far, else from the service's feed resumed after `after` (it publishes what
  /// is already due at once).
  private func missed(after: Int64, service: any FlightStatusService) throws -> [(Int64, JSONValue)] {
    if let first = history.dropFirst(historyStart).first?.sequence, first <= after + 1 {
      return history.dropFirst(historyStart).filter { $0.sequence > after }.map { ($0.sequence, $0.data) }
    }
    let collected = Collected()
    let feed: AnyPublisher<(Int64, JSONValue)?, ServiceError>
    switch source {
    case .flight(let key):
      feed = service.statusEvents(key, after: Int(after))
        .map { event in
          guard case .update(let update) = event else { return nil }
          return (Int64(update.sequence), (try? jsonValue(["update": update])) ?? .null)
        }.eraseToAnyPublisher()
    case .board(let airport, let direction, let date):
      feed = service.boardEvents(airport: airport, date: date, direction: direction, after: Int(after))
        .map { event in
          guard case .update(let update) = event else { return nil }
          return (Int64(update.sequence), (try? jsonValue(["boardUpdate": update])) ?? .null)
        }.eraseToAnyPublisher()
    }
    let target = sequence
    let cancellable = feed.sink(receiveCompletion: { _ in }, receiveValue: { collected.add($0, through: target) })
    cancellable.cancel()
    let changes = collected.changes
    guard changes.count == Int(target - after), changes.first?.0 == after + 1 else {
      throw ServiceError(
        .unavailable, code: "resume_unavailable",
        message: "cannot resume \(topic) after \(after): subscribe without \"after\" for a fresh snapshot")
    }
    return changes
  }

  // MARK: The feed

  private func receive(_ event: Event) {
    lock.lock()
    defer { lock.unlock() }
    snapshotText = nil
    switch event {
    case .flight(.snapshot(let status)):
      state = .flight(status)
      sequence = Int64(status.sequence)
    case .board(.snapshot(let board)):
      state = .board(board)
      sequence = Int64(board.sequence)
    case .flight(.update(let update)):
      guard case .flight = state, Int64(update.sequence) > sequence else { return }
      state = .flight(update.flightStatus)
      publish(Int64(update.sequence), ["update": update])
    case .board(.update(let update)):
      guard case .board(var board) = state, Int64(update.sequence) > sequence else { return }
      state = nil
      board.apply(update)
      state = .board(board)
      publish(Int64(update.sequence), ["boardUpdate": update])
    }
  }

  /// Records change `number` and sends it to every subscriber, encoded once per topic name, to
  /// all their sockets in one hand-over per name (lock held: a subscriber being added gets its
  /// snapshot before or after this change, never both or neither).
  private func publish<Document: Encodable>(_ number: Int64, _ document: Document) {
    sequence = number
    guard let data = try? jsonValue(document) else { return }
    history.append((number, data))
    if history.count - historyStart > historyLimit { historyStart += 1 }
    if historyStart > historyLimit {
      history.removeFirst(historyStart)
      historyStart = 0
    }
    // Per topic name (subscribers of one channel nearly always share one): the text, its bytes
    // and the sockets it goes to.
    var batches: [(name: String, text: String, message: WebSocketMessage, sockets: [WebSocket])] = []
    var current = -1
    for subscriber in subscribers.values where subscriber.last < number {
      if current < 0 || batches[current].name != subscriber.name {
        if let found = batches.firstIndex(where: { $0.name == subscriber.name }) {
          current = found
        } else {
          let text = Self.text(subscriber.name, number, topic.updateEvent, data)
          batches.append((subscriber.name, text, WebSocketMessage(text), []))
          batches[batches.count - 1].sockets.reserveCapacity(subscribers.count)
          current = batches.count - 1
        }
      }
      if let socket = subscriber.socket {
        batches[current].sockets.append(socket)
      } else {
        subscriber.send(batches[current].text)
      }
      subscriber.last = number
    }
    for batch in batches where !batch.sockets.isEmpty { WebSocket.send(batch.message, to: batch.sockets) }
  }

  private func fail(_ error: ServiceError) {
    let all = lock.withLock { () -> [Subscriber] in
      failure = error
      defer { subscribers.removeAll() }
      return Array(subscribers.values)
    }
    for subscriber in all {
      subscriber.send(
        StreamMessage(type: "error", topic: subscriber.name, code: error.code, message: error.message).text)
    }
  }

  static func text(_ name: String, _ sequence: Int64, _ event: String, _ data: JSONValue) -> String {
    StreamMessage(type: "event", topic: name, sequence: sequence, event: event, data: data, time: Date()).text
  }
}

/// The changes of a resumed feed up to a target sequence. `@unchecked Sendable`: guarded by `lock`.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [(Int64, JSONValue)] = []

  func add(_ change: (Int64, JSONValue)?, through target: Int64) {
    guard let change, change.0 <= target else { return }
    lock.withLock { values.append(change) }
  }

  var changes: [(Int64, JSONValue)] { lock.withLock { values } }
}

/// `value` as the JSON the API sends (``API/makeEncoder()``: ISO 8601 instants, sorted keys).
func jsonValue<T: Encodable>(_ value: T) throws -> JSONValue {
  try API.makeDecoder().decode(JSONValue.self, from: API.makeEncoder().encode(value))
}
