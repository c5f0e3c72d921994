import Backend
import Common
import Foundation
import Transport

/// A topic clients can follow on `/v1/stream`, and how it maps to the change feed.
///
/// Topics are generic: a definition names the public topic (`trips`, or a prefix such as
/// `flight:` for `flight:UA123:2026-12-20`), says whether it needs a signed-in connection, and
/// turns the public name (and the user, when signed in) into the feed topic its events are
/// written to. Adding a topic is adding a definition to ``TravelServer/Configuration/topics``
/// and writing its events with ``EventLog/append(topic:type:data:in:now:)`` in the transaction
/// that makes the change.
public struct TopicDefinition: Sendable {
  /// The exact name (`trips`), or a prefix ending in `:` that matches every name starting with it.
  public var name: String
  /// Whether subscribing needs an authenticated connection.
  public var requiresAuthentication: Bool
  /// The feed topic of a subscription to `publicName` by `userID` (nil when not signed in).
  /// - Throws: ``ServiceError`` (`invalid_topic`) for a name the topic does not accept.
  public var feedTopic: @Sendable (_ publicName: String, _ userID: Int64?) throws -> String
  /// The feed topic of a subscription by the travel agent `agentID` (a connection authenticated
  /// with an agent's token); nil: agents cannot follow it (`not_signed_in`).
  public var agentFeedTopic: (@Sendable (_ publicName: String, _ agentID: Int64) throws -> String)?

  public init(
    name: String, requiresAuthentication: Bool,
    feedTopic: @escaping @Sendable (_ publicName: String, _ userID: Int64?) throws -> String,
    agentFeedTopic: (@Sendable (_ publicName: String, _ agentID: Int64) throws -> String)? = nil
  ) {
    self.name = name
    self.requiresAuthentication = requiresAuthentication
    self.feedTopic = feedTopic
    self.agentFeedTopic = agentFeedTopic
  }

  /// `trips`: the signed-in traveller's reservations (`reservation.booked`,
  /// `reservation.cancelled`, data `{"reservation": …}`).
  public static let trips = TopicDefinition(name: "trips", requiresAuthentication: true) { _, userID in
    guard let userID else { throw ServiceError.notSignedIn }
    return EventLog.tripsTopic(userID: userID)
  }

  func matches(_ publicName: String) -> Bool {
    name.hasSuffix(":") ? publicName.hasPrefix(name) && publicName.count > name.count : publicName == name
  }
}

/// Follows the change feed and hands each event to the sessions subscribed to its topic.
///
/// One thread reads the feed after its ``FeedPosition`` (an indexed read of the rows after it, so
/// an idle read costs next to nothing) — it sees commits of this server, of other server
/// instances on the same store and of embedded apps alike. It reads:
/// - at once when this server committed a change (``nudge()``); after such a read that found
///   events it announces them once (``EventFeed/announce()``: on PostgreSQL one `NOTIFY` for the
///   batch, outside every transaction), which wakes the hubs of the other instances;
/// - when another instance announces (``EventFeed/listen(_:)``: a `LISTEN` connection);
/// - every `pollInterval` seconds otherwise: the fallback, so a lost notification loses nothing.
/// Sessions fill any gap from the feed themselves, so delivery is in sequence order, each event once.
final class StreamHub: @unchecked Sendable {
  let feed: any EventFeed
  let topics: [TopicDefinition]
  /// The live flight-status topics (`flight:…`, `board:…`), fanned out from the status service.
  let flightStatus: FlightStatusChannels?
  private let pollInterval: TimeInterval
  private let lock = NSLock()
  private var subscribers: [String: [ObjectIdentifier: StreamSession]] = [:]
  private var position = FeedPosition.start
  /// When this server last committed a change whose events are not announced yet (nil: none).
  private var unannouncedSince: Date?
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)
  private let wake = DispatchSemaphore(value: 0)

  init(
    feed: any EventFeed, topics: [TopicDefinition], pollInterval: TimeInterval,
    flightStatus: FlightStatusChannels? = nil
  ) throws {
    self.feed = feed
    self.topics = topics
    self.flightStatus = flightStatus
    self.pollInterval = pollInterval
    // A store not written yet has no events table: start at the beginning.
    position = (try? feed.latestPosition()) ?? .start
    let thread = Thread { [self] in run() }
    thread.name = "stream-hub"
    thread.start()
  }

  func definition(for name: String) -> TopicDefinition? { topics.first { $0.matches(name) } }

  /// The names a client may follow, for error messages (`trips, flight:…, board:…`).
  var topicNames: String {
    (topics.map { $0.name.hasSuffix(":") ? $0.name + "…" : $0.name }
      + (flightStatus == nil ? [] : ["flight:…", "board:…"])).joined(separator: ", ")
  }

  func add(_ session: StreamSession, to feedTopic: String) {
    lock.withLock { subscribers[feedTopic, default: [:]][ObjectIdentifier(session)] = session }
  }

  func remove(_ session: StreamSession, from feedTopic: String) {
    lock.withLock {
      subscribers[feedTopic]?[ObjectIdentifier(session)] = nil
      if subscribers[feedTopic]?.isEmpty == true { subscribers[feedTopic] = nil }
    }
  }

  var sessionCount: Int { lock.withLock { Set(subscribers.values.flatMap(\.keys)).count } }

  /// Stops following the feed (once; later calls return at once).
  func stop() {
    let first = lock.withLock {
      defer { stopped = true }
      return !stopped
    }
    if first { done.wait() }
  }

  private func run() {
    let wake = wake
    let listener = feed.listen { wake.signal() }
    while !lock.withLock({ stopped }) {
      // Everything that woke the hub since the last read is one batch: one read, one announcement.
      while wake.wait(timeout: .now()) == .success {}
      let pending = lock.withLock { unannouncedSince }
      let delivered = poll()
      if let pending {
        // Announced once the read finds events (those of the change may wait, on PostgreSQL, for
        // older transactions to end); given up after 2 s (a change without events: a search).
        if delivered > 0 || Date().timeIntervalSince(pending) > 2 {
          lock.withLock { if unannouncedSince == pending { unannouncedSince = nil } }
        }
        if delivered > 0 { try? feed.announce() }
      }
      _ = wake.wait(
        timeout: .now() + (lock.withLock { unannouncedSince } == nil ? pollInterval : min(pollInterval, 0.05)))
    }
    listener?.stop()
    done.signal()
  }

  /// Reads the feed now instead of at the next poll, and announces what it finds to the other
  /// instances: this server just committed a change (so its own clients' events go out at once).
  func nudge() {
    lock.withLock { if unannouncedSince == nil { unannouncedSince = Date() } }
    wake.signal()
  }

  /// Reads the feed after the hub's position and offers each event to its subscribers; returns how
  /// many events it read.
  private func poll() -> Int {
    var count = 0
    while true {
      let after = lock.withLock { position }
      guard let events = try? feed.events(after: after, limit: 500), !events.isEmpty else { return count }
      for event in events {
        let sessions = lock.withLock { subscribers[event.topic].map { Array($0.values) } ?? [] }
        for session in sessions { session.offer(event) }
      }
      count += events.count
      lock.withLock { position = events[events.count - 1].position }
      if events.count < 500 { return count }
    }
  }
}
