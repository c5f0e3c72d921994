import Common
import Foundation
import Reactive

/// ``LiveUpdates`` of the embedded backend: follows the store's change feed (``EventLog``) by
/// polling it, so an app sees the bookings other processes make on the same data directory (the
/// command line, another `travel`) within `interval` seconds. Topics: `trips` (the session's
/// user's reservations).
public final class StoreLiveUpdates: LiveUpdates, @unchecked Sendable {
  private let services: BackendServices
  private let interval: TimeInterval

  public init(services: BackendServices, interval: TimeInterval = 0.25) {
    self.services = services
    self.interval = interval
  }

  public var status: AnyPublisher<ConnectionStatus, Never> { Just(.embedded).eraseToAnyPublisher() }

  public func events(topic: String, token: String) -> AnyPublisher<TopicEvent, Never> {
    let services = services
    let interval = interval
    return Deferred { () -> AnyPublisher<TopicEvent, Never> in
      let subject = PassthroughSubject<TopicEvent, Never>()
      guard topic == "trips", let userID = try? services.accounts.userID(token: token) else {
        return Empty(completeImmediately: false).eraseToAnyPublisher()
      }
      let feedTopic = EventLog.tripsTopic(userID: userID)
      let follower = Follower(
        feed: services.events, feedTopic: feedTopic, topic: topic, subject: subject, interval: interval)
      follower.start()
      return subject.handleEvents(receiveCancel: { follower.stop() }).eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
  }

  /// One subscription's polling timer.
  private final class Follower: @unchecked Sendable {
    let feed: EventLog
    let feedTopic: String
    let topic: String
    let subject: PassthroughSubject<TopicEvent, Never>
    let timer: any DispatchSourceTimer
    private let lock = NSLock()
    private var last: Int64

    init(
      feed: EventLog, feedTopic: String, topic: String, subject: PassthroughSubject<TopicEvent, Never>,
      interval: TimeInterval
    ) {
      self.feed = feed
      self.feedTopic = feedTopic
      self.topic = topic
      self.subject = subject
      last = (try? feed.latestSequence(topic: feedTopic)) ?? 0
      timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
      timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    }

    func start() {
      timer.setEventHandler { [self] in poll() }
      timer.resume()
    }

    func stop() { timer.cancel() }

    private func poll() {
      lock.withLock {
        guard let events = try? feed.events(topic: feedTopic, after: last, limit: 500) else { return }
        for event in events where event.sequence > last {
          last = event.sequence
          subject.send(TopicEvent(topic: topic, sequence: event.sequence, type: event.type, data: event.data))
        }
      }
    }
  }
}
