import Common
import CommonTesting
import Foundation
import Reactive
import Testing
import Transport

@testable import Server

/// Live flight status on the server: the HTTP snapshots and the `flight:` / `board:` topics of
/// `/v1/stream` (snapshot, changes in sequence, fan-out, resume after a dropped connection), over
/// a ``MemoryFlightStatus`` whose clock the test moves.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FlightStatusStreamTests {
  /// LH 400 FRA → JFK on 2026-12-20 at 08:30 (gate B40, changed to B44, 25 minutes late) and
  /// LH 402 at 10:00, on a clock at 05:00 UTC running 60× the test scheduler.
  static func service() -> MemoryFlightStatus {
    let status = MemoryFlightStatus(start: ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z")!, speed: 60)
    for (code, departure, gate) in [("LH400", "08:30", "B40"), ("LH402", "10:00", "A12")] {
      let flight = FlightStatus.fixture(
        code, from: "FRA", to: "JFK", date: LocalDate("2026-12-20")!, departure: departure, blockMinutes: 530,
        fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
      status.add(flight.day(gate: gate, changedGate: code == "LH400" ? "B44" : nil, delay: code == "LH400" ? 25 : 0))
    }
    status.nameAirport("FRA", name: "Frankfurt", city: "Frankfurt", timeZone: "Europe/Berlin")
    status.nameAirport("JFK", name: "John F Kennedy", city: "New York", timeZone: "America/New_York")
    return status
  }

  let status: MemoryFlightStatus
  let server: TravelServer
  let directory = TemporaryDirectory(prefix: "status-server-test")
  let client: WebSocketClient
  static let flightTopic = "flight:LH400-2026-12-20-FRA"
  static let boardTopic = "board:FRA:departures:2026-12-20"

  init() throws {
    status = Self.service()
    server = try TravelServer(
      configuration: TravelServer.Configuration(
        port: 0, dataDirectory: directory.url, accessLog: { _ in }, flightStatus: status))
    client = try WebSocketClient()
  }

  func get(_ path: String) throws -> (status: Int, json: JSONValue) {
    let response = try HTTPTestClient.send("GET", path, port: server.port, headers: [:], body: Data())
    return (response.status, (try? JSONDecoder().decode(JSONValue.self, from: response.body)) ?? .null)
  }

  /// Moves the service's clock by `minutes` simulated minutes (one second of scheduler time each).
  func advance(minutes: Int) {
    for _ in 0..<minutes { status.scheduler.advance(by: .seconds(1)) }
  }

  @Test func snapshots_overHTTP_andBadParametersAreRefused() throws {
    defer { server.shutdown(timeout: 2) }
    let flight = try get("/v1/flights/LH400/status?date=2026-12-20")
    #expect(flight.status == 200)
    #expect(flight.json["flightStatus"]?["flight"]?.stringValue == "LH400")
    #expect(flight.json["flightStatus"]?["status"]?.stringValue == "scheduled")
    let byKey = try get("/v1/flights/lh400/status?date=2026-12-20&origin=FRA")
    #expect(byKey.json["flightStatus"]?["sequence"] == flight.json["flightStatus"]?["sequence"])
    let board = try get("/v1/airports/FRA/board?date=2026-12-20&direction=departures")
    #expect(board.status == 200)
    #expect(board.json["board"]?["flights"]?.arrayValue?.count == 2)
    for (path, code) in [
      ("/v1/flights/L/status", "invalid_flight"), ("/v1/flights/LH400/status?date=tomorrow", "invalid_date"),
      ("/v1/airports/FRANKFURT/board", "invalid_airport"), ("/v1/airports/FRA/board?direction=up", "invalid_direction"),
    ] {
      let answer = try get(path)
      #expect(answer.status == 400, "\(path)")
      #expect(answer.json["error"]?["code"]?.stringValue == code, "\(path)")
    }
    let missing = try get("/v1/flights/ZZ999/status?date=2026-12-20")
    #expect(missing.status == 404)
  }

  @Test func aFlightTopic_sendsTheSnapshot_thenEachChange_toEverySubscriberOfOneFeed() throws {
    defer { server.shutdown(timeout: 2) }
    let first = StreamProbe(client: client, base: server.baseURL)
    first.send(StreamMessage(type: "subscribe", topic: Self.flightTopic))
    #expect(first.wait { $0.contains { $0.type == "subscribed" } })
    let snapshot = try #require(first.events.first)
    #expect(snapshot.event == "flight.snapshot")
    #expect(snapshot.data?["flightStatus"]?["status"]?.stringValue == "scheduled")
    #expect(first.messages.map(\.type) == ["event", "subscribed"])

    advance(minutes: 200)  // 08:20 local: the gate changed, boarding, the delay
    #expect(first.wait { $0.last?.type == "event" && $0.last?.event == "flight.update" })
    let second = StreamProbe(client: client, base: server.baseURL)
    second.send(StreamMessage(type: "subscribe", topic: Self.flightTopic))
    #expect(second.wait { $0.contains { $0.type == "subscribed" } })
    #expect(second.events.first?.event == "flight.snapshot")
    #expect(second.events.first?.data?["flightStatus"]?["departure"]?["gate"]?.stringValue == "B44")
    #expect(server.statusChannelCount == 1)

    advance(minutes: 600)  // the whole flight
    Thread.sleep(forTimeInterval: 0.3)
    for probe in [first, second] {
      let numbers = probe.events.compactMap(\.sequence)
      #expect(numbers == Array(numbers[0]...numbers[0] + Int64(numbers.count - 1)), "in sequence, each once")
    }
    #expect(first.events.last?.sequence == second.events.last?.sequence)
    #expect(first.events.last?.data?["update"]?["flightStatus"]?["status"]?.stringValue == "arrived")
  }

  @Test func aBoardTopic_resumesAfterADroppedConnection_withoutLossOrRepeat() throws {
    defer { server.shutdown(timeout: 2) }
    let probe = StreamProbe(client: client, base: server.baseURL)
    probe.send(StreamMessage(type: "subscribe", topic: Self.boardTopic))
    #expect(probe.wait { $0.contains { $0.type == "subscribed" } })
    #expect(probe.events.first?.event == "board.snapshot")
    #expect(probe.events.first?.data?["board"]?["flights"]?.arrayValue?.count == 2)
    advance(minutes: 180)
    #expect(probe.wait { $0.count > 2 })
    Thread.sleep(forTimeInterval: 0.2)
    let seen = try #require(probe.events.last?.sequence)
    probe.socket.close()
    #expect(probe.wait { _ in probe.closed != nil })

    advance(minutes: 120)  // changes while disconnected
    let resumed = StreamProbe(client: client, base: server.baseURL)
    resumed.send(StreamMessage(type: "subscribe", topic: Self.boardTopic, after: seen))
    #expect(resumed.wait { $0.contains { $0.type == "subscribed" } })
    status.scheduler.advance()  // the test double delivers the backlog on its scheduler
    #expect(resumed.wait { $0.filter { $0.type == "event" }.count > 0 })
    let missed = resumed.events.compactMap(\.sequence)
    #expect(missed.first == seen + 1)
    #expect(resumed.events.allSatisfy { $0.event == "board.update" })
    advance(minutes: 600)
    Thread.sleep(forTimeInterval: 0.3)
    let all = resumed.events.compactMap(\.sequence)
    #expect(all == Array(seen + 1...seen + Int64(all.count)), "live after the backlog, nothing twice")
  }

  @Test func badTopics_areRefused_namingWhatIsAccepted() throws {
    defer { server.shutdown(timeout: 2) }
    let probe = StreamProbe(client: client, base: server.baseURL)
    probe.send(StreamMessage(type: "subscribe", topic: "board:FRA:sideways"))
    #expect(probe.wait { $0.contains { $0.code == "invalid_topic" } })
    probe.send(StreamMessage(type: "subscribe", topic: "flight:ZZ999-2026-12-20-FRA"))
    #expect(probe.wait { $0.contains { $0.code == "flight_not_found" } })
    probe.send(StreamMessage(type: "subscribe", topic: "weather"))
    #expect(probe.wait { $0.contains { $0.code == "unknown_topic" && $0.message?.contains("board:") == true } })
  }

  @Test func aResumeOlderThanTheHistory_isServedByTheFeed() throws {
    defer { server.shutdown(timeout: 2) }
    let channels = FlightStatusChannels(service: status, historyLimit: 2)
    let received = Received()
    let following = try channels.subscribe(name: Self.flightTopic, after: nil) { received.add($0) }
    advance(minutes: 800)
    let last = try #require(received.events.last?.sequence)
    #expect(last > 5)
    let late = Received()
    let resumed = try channels.subscribe(name: Self.flightTopic, after: 1) { late.add($0) }
    status.scheduler.advance()
    #expect(late.events.compactMap(\.sequence) == Array(2...last))
    #expect(late.messages.contains { $0.type == "subscribed" })
    following.cancel()
    resumed.cancel()
    #expect(channels.channelCount == 0)
  }
}

/// Messages handed to a channel subscriber.
final class Received: @unchecked Sendable {
  private let lock = NSLock()
  private var all: [StreamMessage] = []
  func add(_ text: String) { if let message = StreamMessage.parse(text) { lock.withLock { all.append(message) } } }
  var messages: [StreamMessage] { lock.withLock { all } }
  var events: [StreamMessage] { messages.filter { $0.type == "event" } }
}
