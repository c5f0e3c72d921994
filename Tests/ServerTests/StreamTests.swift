import BackendTesting
import Common
import Foundation
import Reactive
import Testing
import Transport

@testable import Server

/// A stream client for tests: the messages received, parsed.
final class StreamProbe: @unchecked Sendable {
  let socket: WebSocket
  private let lock = NSLock()
  private var received: [StreamMessage] = []
  private var closedCode: UInt16?
  private var cancellable: AnyCancellable?

  init(client: WebSocketClient, base: URL) {
    let url = URL(string: base.absoluteString.replacingOccurrences(of: "http", with: "ws") + "/v1/stream")!
    socket = client.socket(to: url)
    cancellable = socket.events.sink { [self] event in
      switch event {
      case .text(let text): if let message = StreamMessage.parse(text) { lock.withLock { received.append(message) } }
      case .closed(let code, _): lock.withLock { closedCode = code }
      case .opened: break
      }
    }
    client.connect(socket, to: url)
  }

  var messages: [StreamMessage] { lock.withLock { received } }
  var events: [StreamMessage] { messages.filter { $0.type == "event" } }
  var closed: UInt16? { lock.withLock { closedCode } }

  func send(_ message: StreamMessage) { socket.send(message.text) }

  @discardableResult
  func wait(_ timeout: TimeInterval = 5, until condition: ([StreamMessage]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(messages) { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }
}

@Suite(.serialized, .timeLimit(.minutes(2)))
struct StreamTests {
  let fixture: ServerFixture
  let client: WebSocketClient

  /// One server and one WebSocket client for the suite, and a server on PostgreSQL.
  static let shared = Result { (try ServerFixture(), try WebSocketClient()) }
  static let onPostgres = Result { try ServerFixture(store: .postgres) }

  init() throws {
    (fixture, client) = try Self.shared.get()
  }

  func fixture(on store: StoreDriver) throws -> ServerFixture {
    store == .sqlite ? fixture : try Self.onPostgres.get()
  }

  @Test(arguments: StoreDriver.allCases) func subscribingNeedsAuthentication(store: StoreDriver) async throws {
    let fixture = try self.fixture(on: store)
    let probe = StreamProbe(client: client, base: fixture.base)
    probe.send(StreamMessage(type: "subscribe", topic: "trips"))
    #expect(probe.wait { $0.contains { $0.type == "error" && $0.code == "not_signed_in" } })
    probe.send(StreamMessage(type: "subscribe", topic: "weather"))
    #expect(probe.wait { $0.contains { $0.code == "unknown_topic" } })
    probe.send(StreamMessage(type: "auth", token: "wrong"))
    #expect(probe.wait { _ in probe.closed == StreamMessage.unauthorizedCloseCode })
  }

  @Test(arguments: StoreDriver.allCases) func aBookingFromElsewhereArrivesWithinASecondAndResumeLosesNothing(
    store: StoreDriver
  ) async throws {
    let fixture = try self.fixture(on: store)
    let token = try await fixture.traveller("live@example.com")
    _ = try await fixture.addCard(token)
    let probe = StreamProbe(client: client, base: fixture.base)
    probe.send(StreamMessage(type: "auth", token: token))
    probe.send(StreamMessage(type: "subscribe", topic: "trips"))
    #expect(probe.wait { $0.contains { $0.type == "subscribed" && $0.sequence == 0 } })

    let started = Date()
    let booked = try await fixture.bookFlight(token)
    #expect(booked.status == 201)
    #expect(probe.wait(1.5) { $0.contains { $0.type == "event" } })
    #expect(Date().timeIntervalSince(started) < 2.5)
    let first = try #require(probe.events.first)
    #expect(first.topic == "trips")
    #expect(first.sequence == 1)
    #expect(first.event == "reservation.booked")
    #expect(first.data?["reservation"]?["id"] == booked.json["reservation"]?["id"])

    // Disconnect; two more changes happen meanwhile; resume after sequence 1.
    probe.socket.close()
    #expect(probe.wait { _ in probe.closed != nil })
    let id = try #require(booked.json["reservation"]?["id"]?.stringValue)
    let cancelled = try await fixture.call("POST", "/v1/trips/\(id)/cancel", token: token)
    #expect(cancelled.status == 200, "\(cancelled.json)")
    #expect(try await fixture.bookFlight(token, passenger: "Grace Hopper").status == 201)

    let resumed = StreamProbe(client: client, base: fixture.base)
    resumed.send(StreamMessage(type: "auth", token: token))
    resumed.send(StreamMessage(type: "subscribe", topic: "trips", after: 1))
    #expect(resumed.wait { $0.contains { $0.type == "subscribed" } })
    #expect(resumed.events.map(\.sequence) == [2, 3])
    #expect(resumed.events.map(\.event) == ["reservation.cancelled", "reservation.booked"])
    #expect(resumed.messages.last { $0.type == "subscribed" }?.sequence == 3)
    // Live after the backlog, without repeats.
    #expect(try await fixture.bookFlight(token, passenger: "Alan Turing").status == 201)
    #expect(resumed.wait { $0.filter { $0.type == "event" }.count == 3 })
    try await Task.sleep(for: .milliseconds(300))
    #expect(resumed.events.map(\.sequence) == [2, 3, 4])
  }

  @Test(arguments: StoreDriver.allCases) func anotherTravellersBookingsNeverArrive(store: StoreDriver) async throws {
    let fixture = try self.fixture(on: store)
    let ada = try await fixture.traveller("ada.live@example.com")
    let bob = try await fixture.traveller("bob.live@example.com")
    _ = try await fixture.addCard(bob)
    let probe = StreamProbe(client: client, base: fixture.base)
    probe.send(StreamMessage(type: "auth", token: ada))
    probe.send(StreamMessage(type: "subscribe", topic: "trips", after: 0))
    #expect(probe.wait { $0.contains { $0.type == "subscribed" } })
    #expect(try await fixture.bookFlight(bob).status == 201)
    try await Task.sleep(for: .milliseconds(500))
    #expect(probe.events.isEmpty)
  }

  @Test func shutdownClosesTheStreamWith1001() async throws {
    let own = try ServerFixture()
    let probe = StreamProbe(client: client, base: own.base)
    probe.send(StreamMessage(type: "ping"))
    #expect(probe.wait { $0.contains { $0.type == "pong" } })
    let started = Date()
    own.server.shutdown(timeout: 10)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(probe.wait { _ in probe.closed != nil })
    #expect(probe.closed == 1001)
  }
}
