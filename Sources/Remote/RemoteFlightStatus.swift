import Common
import Foundation
import Reactive

/// Live flight status of a `travel-server`: snapshots over HTTP (`GET /v1/flights/{flight}/status`,
/// `GET /v1/airports/{code}/board`), changes over `/v1/stream` (topics ``FlightStatusTopic``:
/// `flight:KEY`, `board:AIRPORT:DIRECTION:DATE`), the traveller's booked flights from their trips
/// (`GET /v1/trips`, read again at each event of the `trips` topic) and those flights' topics.
///
/// One stream connection (``RemoteLiveUpdates``: reconnects with backoff and resumes each topic
/// after the last sequence received, so a dropped connection loses and repeats nothing). Each
/// topic is followed once however many subscribers want it: the client keeps the topic's state
/// (the snapshot with every change applied) and its recent changes, so a second subscriber gets a
/// snapshot of now, and one that resumes (`after`) gets what it missed; all on one serial queue.
///
/// The events arrive when the server's clock (`travel-server --clock-speed`) makes them happen;
/// ``clock`` is this app's own (its "today", and how long a changed cell stays highlighted).
public final class RemoteFlightStatus: FlightStatusService, @unchecked Sendable {
  public let clock: TravelClock
  let api: APIClient
  let live: any LiveUpdates
  /// How many recent changes a topic keeps for subscribers that resume.
  let historyLimit = 1024
  private let queue = DispatchQueue(label: "travel.remote-flight-status")
  /// Followed topics by name; touched only on `queue`.
  private var topics: [String: Topic] = [:]

  /// - Parameters:
  ///   - api: the server's HTTP client.
  ///   - live: the server's stream (default: a connection of its own to `api.server`).
  ///   - clock: this app's clock.
  public init(api: APIClient, live: (any LiveUpdates)? = nil, clock: TravelClock) {
    self.api = api
    self.live = live ?? RemoteLiveUpdates(server: api.server)
    self.clock = clock
  }

  // MARK: Snapshots

  public func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    try fetch(flight, date: date, origin: nil).key
  }

  public func status(_ key: FlightStatusKey) throws -> FlightStatus {
    try fetch(key.flight, date: key.date, origin: key.origin)
  }

  public func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    var query = [("direction", direction.rawValue)]
    if let date { query.append(("date", date.description)) }
    let document = try api.call(
      "GET", "/v1/airports/\(Self.pathSegment(airport))/board", query: query, as: [String: FlightBoard].self)
    guard let board = document["board"] else { throw badResponse("board") }
    return board
  }

  private func fetch(_ flight: Flight, date: LocalDate?, origin: String?) throws -> FlightStatus {
    var query: [(String, String)] = []
    if let date { query.append(("date", date.description)) }
    if let origin { query.append(("origin", origin)) }
    let document = try api.call(
      "GET", "/v1/flights/\(Self.pathSegment(flight.code))/status", query: query, as: [String: FlightStatus].self)
    guard let status = document["flightStatus"] else { throw badResponse("flightStatus") }
    return status
  }

  private func badResponse(_ what: String) -> ServiceError {
    ServiceError(
      .unavailable, code: "bad_response",
      message: "the server at \(api.server.absoluteString) sent no \(what): update the app or the server")
  }

  /// `text` safe as one path segment.
  static func pathSegment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }

  // MARK: Feeds

  public func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<
    FlightStatusEvent, ServiceError
  > {
    events(FlightStatusTopic.flight(key), after: sequence)
      .compactMap { event -> FlightStatusEvent? in
        switch event {
        case .flight(let status): .snapshot(status)
        case .flightUpdate(let update): .update(update)
        case .board, .boardUpdate: nil
        }
      }
      .eraseToAnyPublisher()
  }

  public func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    events(FlightStatusTopic.board(airport: airport, direction: direction, date: date), after: sequence)
      .compactMap { event -> FlightBoardEvent? in
        switch event {
        case .board(let board): .snapshot(board)
        case .boardUpdate(let update): .update(update)
        case .flight, .flightUpdate: nil
        }
      }
      .eraseToAnyPublisher()
  }

  /// The booked flights of the traveller's confirmed trips (flights of the last day on), each a
  /// ``statusEvents(_:after:)`` feed: a snapshot, then its changes — a ``TripFlightFeed`` as the
  /// embedded backend's. The trips are read with `GET /v1/trips` when the feed starts and again at
  /// each event of the stream's `trips` topic (`reservation.booked`, `reservation.cancelled`, the
  /// traveller's own token), so a flight booked later — by this app or any other client — joins
  /// the feed and a cancelled one leaves it. Fails with `not_signed_in` / `session_expired`.
  public func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    let accounts = RemoteAccounts(api: api)
    let changes = live.events(topic: "trips", token: token).map { _ in () }.eraseToAnyPublisher()
    return TripFlightFeed(service: self, token: token, refresh: .on(changes)) { token in
      try accounts.reservations(token: token)
    }
    .subscribe(on: DispatchQueue.global(qos: .utility))
    .eraseToAnyPublisher()
  }

  // MARK: Topics

  /// A topic's event as received: a snapshot or a change.
  enum Event {
    case flight(FlightStatus)
    case flightUpdate(FlightStatusUpdate)
    case board(FlightBoard)
    case boardUpdate(FlightBoardUpdate)

    var sequence: Int {
      switch self {
      case .flight(let status): status.sequence
      case .flightUpdate(let update): update.sequence
      case .board(let board): board.sequence
      case .boardUpdate(let update): update.sequence
      }
    }

    var isSnapshot: Bool {
      switch self {
      case .flight, .board: true
      case .flightUpdate, .boardUpdate: false
      }
    }

    /// The stream event of a flight-status topic, or nil for one this version does not know.
    init?(_ event: TopicEvent) throws {
      switch event.type {
      case "flight.snapshot": self = .flight(try Self.field("flightStatus", of: event.data))
      case "flight.update": self = .flightUpdate(try Self.field("update", of: event.data))
      case "board.snapshot": self = .board(try Self.field("board", of: event.data))
      case "board.update": self = .boardUpdate(try Self.field("boardUpdate", of: event.data))
      default: return nil
      }
    }

    /// Field `key` of an event's document (`{"flightStatus": …}`).
    static func field<T: Decodable>(_ key: String, of data: JSONValue) throws -> T {
      let document = try API.makeDecoder().decode([String: T].self, from: API.makeEncoder().encode(data))
      guard let value = document[key] else {
        throw DecodingError.keyNotFound(
          AnyKey(key), .init(codingPath: [], debugDescription: "the event has no \(key)"))
      }
      return value
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// One followed topic: the stream subscription, the state now, recent changes, and the local
  /// subscribers' subject. Touched only on the queue.
  private final class Topic {
    let subject = PassthroughSubject<Event, ServiceError>()
    var state: Event?
    var history: [Event] = []
    var subscribers = 0
    var stream: AnyCancellable?
  }

  /// The events of `topic` for one subscriber: the state now (or, with `after`, the changes it
  /// missed), then each change. On the queue, so nothing falls between the two.
  private func events(_ topic: FlightStatusTopic, after: Int?) -> AnyPublisher<Event, ServiceError> {
    let name = topic.name
    return Deferred { [self] () -> AnyPublisher<Event, ServiceError> in
      let followed = follow(name)
      followed.subscribers += 1
      var first: [Event] = []
      var skipThrough = -1
      if let state = followed.state {
        if let after {
          let missed = followed.history.filter { $0.sequence > after }
          guard after >= state.sequence || missed.first?.sequence == after + 1 else {
            release(name)
            return Fail(
              error: ServiceError(
                .unavailable, code: "resume_unavailable",
                message: "cannot resume \(name) after \(after): follow it again for a fresh snapshot")
            ).eraseToAnyPublisher()
          }
          first = missed
        } else {
          first = [state]
        }
        skipThrough = state.sequence
      }
      let queue = queue
      let release: @Sendable () -> Void = { [weak self] in
        guard let self else { return }
        queue.async { self.release(name) }
      }
      let skip = skipThrough
      return followed.subject
        .filter { skip < 0 || (!$0.isSnapshot && $0.sequence > skip) }
        .prepend(first)
        .handleEvents(receiveCancel: release)
        .eraseToAnyPublisher()
    }
    .subscribe(on: queue)
    .eraseToAnyPublisher()
  }

  /// The topic `name`, followed on the stream from its first subscriber (on the queue).
  private func follow(_ name: String) -> Topic {
    if let followed = topics[name] { return followed }
    let followed = Topic()
    topics[name] = followed
    followed.stream = live.events(topic: name, token: "")
      .receive(on: queue)
      .sink { [weak self, weak followed] event in
        guard let self, let followed else { return }
        receive(event, on: followed)
      }
    return followed
  }

  private func receive(_ topicEvent: TopicEvent, on followed: Topic) {
    guard let event = try? Event(topicEvent) else {
      followed.subject.send(
        completion: .failure(
          ServiceError(
            .unavailable, code: "bad_response",
            message: "the server sent a \(topicEvent.type) event this version cannot read: update the app or the server"
          )))
      return
    }
    switch (followed.state, event) {
    case (_, .flight), (_, .board):
      followed.state = event
      followed.history = []
    case (.flight?, .flightUpdate(let update)):
      followed.state = .flight(update.flightStatus)
      remember(event, in: followed)
    case (.board(var board)?, .boardUpdate(let update)):
      board.apply(update)
      followed.state = .board(board)
      remember(event, in: followed)
    default:
      return
    }
    followed.subject.send(event)
  }

  private func remember(_ event: Event, in followed: Topic) {
    followed.history.append(event)
    if followed.history.count > historyLimit * 2 { followed.history.removeFirst(historyLimit) }
  }

  /// One subscriber of `name` left; the last one stops following it (on the queue).
  private func release(_ name: String) {
    guard let followed = topics[name] else { return }
    followed.subscribers -= 1
    guard followed.subscribers <= 0 else { return }
    topics[name] = nil
    followed.stream?.cancel()
  }
}
