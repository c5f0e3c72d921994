import Backend
import BackendTesting
import Common
import CommonTesting
import Foundation
import Testing
import Transport

@testable import Server

/// Several server instances on one store (#19): any instance answers any request. Sessions,
/// idempotency keys and the sign-in rate limit live in the database; the keys are the same files
/// on every instance, checked against the check values the first instance recorded.
@Suite(.timeLimit(.minutes(2)))
struct SharedInstancesTests {
  /// Two instances (A, B) on one PostgreSQL schema and one key directory.
  struct Pair {
    let schema: PostgresTestSchema
    let keys = TemporaryDirectory(prefix: "shared-keys")
    let a: ServerFixture
    let b: ServerFixture

    init(signInsPerEmail: Int = 1000) throws {
      schema = try PostgresTestSchema()
      a = try ServerFixture(signInsPerEmail: signInsPerEmail, dataDirectory: keys.url, database: schema.location)
      b = try ServerFixture(signInsPerEmail: signInsPerEmail, dataDirectory: keys.url, database: schema.location)
    }
  }

  @Test func anyInstanceAnswers_sessionsCardsOfferIdsAndIdempotencyKeys_onPostgres() async throws {
    let pair = try Pair()
    let token = try await pair.a.traveller("shared@example.com")
    // The session made on A is valid on B; the card sealed on A is charged on B.
    let profile = try await pair.b.call("GET", "/v1/profile", token: token)
    #expect(profile.status == 200, "\(profile.json)")
    _ = try await pair.a.addCard(token)
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    let search = try await pair.a.call(
      "POST", "/v1/flights/search", token: token,
      body: FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 5))
    let offerID = try #require(search.json["offers"]?.arrayValue?.first?["id"]?.stringValue)
    func book(on fixture: ServerFixture) async throws -> ServerFixture.Answer {
      try await fixture.call(
        "POST", "/v1/flights/bookings", token: token,
        body: API.FlightBooking(offerId: offerID, passengers: ["Ada Lovelace"], cardId: nil),
        headers: ["Idempotency-Key": "shared-trip-1"])
    }
    // An offer id signed on A books on B; the same idempotency key on A replays B's booking.
    let first = try await book(on: pair.b)
    #expect(first.status == 201, "\(first.json)")
    let again = try await book(on: pair.a)
    #expect(again.json["reservation"]?["id"] == first.json["reservation"]?["id"])
    let trips = try await pair.a.call("GET", "/v1/trips", token: token)
    #expect(trips.json["reservations"]?.arrayValue?.count == 1)
    // Signed out on B: gone on A too.
    #expect(try await pair.b.call("DELETE", "/v1/session", token: token).status < 300)
    #expect(try await pair.a.call("GET", "/v1/profile", token: token).status == 401)
  }

  @Test func theSignInLimitCountsTheAttemptsOfEveryInstance_onPostgres() async throws {
    let pair = try Pair(signInsPerEmail: 4)
    try await expectSharedLimit(pair.a, pair.b)
  }

  @Test func theSignInLimitCountsTheAttemptsOfEveryInstance_onSQLite() async throws {
    let shared = TemporaryDirectory(prefix: "shared-sqlite")
    let a = try ServerFixture(signInsPerEmail: 4, dataDirectory: shared.url)
    let b = try ServerFixture(signInsPerEmail: 4, dataDirectory: shared.url)
    try await expectSharedLimit(a, b)
  }

  /// Six wrong passwords for one email, alternating between the instances: four are judged (401),
  /// then both instances refuse (429), because together they saw four.
  func expectSharedLimit(_ a: ServerFixture, _ b: ServerFixture) async throws {
    var statuses: [Int] = []
    for attempt in 0..<6 {
      let fixture = attempt.isMultiple(of: 2) ? a : b
      statuses.append(
        try await fixture.call(
          "POST", "/v1/sessions", body: API.SignIn(email: "spread@example.com", password: "guess guess guess")
        ).status)
    }
    #expect(statuses == [401, 401, 401, 401, 429, 429])
    let refused = try await a.call(
      "POST", "/v1/sessions", body: API.SignIn(email: "spread@example.com", password: "guess guess guess"))
    #expect(refused.errorCode == "too_many_requests")
    #expect(refused.headers["retry-after"].flatMap(Int.init).map { (1...60).contains($0) } == true)
  }

  /// B reads the outbox every 60 s only: the event can come in time only by A's `NOTIFY`.
  @Test func aTripsEventMadeOnA_reachesASubscriberOnB_woken_byNotify() async throws {
    let schema = try PostgresTestSchema()
    let keys = TemporaryDirectory(prefix: "shared-keys")
    let a = try ServerFixture(dataDirectory: keys.url, database: schema.location)
    let b = try ServerFixture(dataDirectory: keys.url, database: schema.location, feedPollInterval: 60)
    let token = try await a.traveller("notified@example.com")
    _ = try await a.addCard(token)
    let client = try WebSocketClient()
    let probe = StreamProbe(client: client, base: b.base)
    probe.send(StreamMessage(type: "auth", token: token))
    probe.send(StreamMessage(type: "subscribe", topic: "trips"))
    #expect(probe.wait { $0.contains { $0.type == "subscribed" } })
    let booked = try await a.bookFlight(token)
    #expect(booked.status == 201)
    #expect(probe.wait(5) { $0.contains { $0.type == "event" && $0.event == "reservation.booked" } })
    #expect(probe.events.first?.data?["reservation"]?["id"] == booked.json["reservation"]?["id"])
    #expect(probe.events.count == 1)
  }

  /// A writer that never notifies (another process on the database, or a notification lost):
  /// B's fallback read of the outbox by position delivers the event anyway.
  @Test func anEventNobodyAnnounced_reachesBByItsFallbackRead() async throws {
    let schema = try PostgresTestSchema()
    let keys = TemporaryDirectory(prefix: "shared-keys")
    let a = try ServerFixture(dataDirectory: keys.url, database: schema.location)
    let b = try ServerFixture(dataDirectory: keys.url, database: schema.location, feedPollInterval: 0.3)
    let token = try await a.traveller("quiet@example.com")
    let writer = try BackendServices(dataDirectory: keys.url, database: schema.location)
    defer { writer.database.close() }
    let userID = try writer.accounts.userID(token: token)
    let client = try WebSocketClient()
    let probe = StreamProbe(client: client, base: b.base)
    probe.send(StreamMessage(type: "auth", token: token))
    probe.send(StreamMessage(type: "subscribe", topic: "trips"))
    #expect(probe.wait { $0.contains { $0.type == "subscribed" } })
    try writer.database.write { db in
      try EventLog.append(
        topic: EventLog.tripsTopic(userID: userID), type: "reservation.noted", data: .object([:]), in: db,
        now: Date())
    }
    #expect(probe.wait(5) { $0.contains { $0.type == "event" && $0.event == "reservation.noted" } })
  }

  @Test func anInstanceWithOtherKeysIsRefused_andOneWithCopiedKeysStarts() async throws {
    let pair = try Pair()
    let other = TemporaryDirectory(prefix: "other-keys")
    #expect(throws: ServiceError.self) {
      _ = try ServerFixture(dataDirectory: other.url, database: pair.schema.location)
    }
    do {
      _ = try ServerFixture(dataDirectory: other.url, database: pair.schema.location)
    } catch let error as ServiceError {
      #expect(error.code == "key_mismatch")
      #expect(error.message.contains(other.url.path))
      #expect(error.message.contains("same key files"))
    }
    // The same files copied to another directory (another machine): it starts and serves.
    let copy = TemporaryDirectory(prefix: "copied-keys")
    for name in [Vault.keyFileName, OfferSigner.keyFileName, BoardingPassSigner.keyFileName] {
      let target = copy.url.appendingPathComponent(name)
      try FileManager.default.copyItem(at: pair.keys.url.appendingPathComponent(name), to: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
    }
    let third = try ServerFixture(dataDirectory: copy.url, database: pair.schema.location)
    let token = try await pair.a.traveller("copied@example.com")
    _ = try await pair.a.addCard(token)
    let booked = try await third.bookFlight(token)
    #expect(booked.status == 201, "\(booked.json)")
  }
}
