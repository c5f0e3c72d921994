import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

/// Crash safety of the server process: eight clients book flights over HTTP while the
/// `travel-server` process is killed with SIGKILL and restarted on the same store and port.
///
/// Each client books with an `Idempotency-Key` per request and, after a dropped connection (no
/// answer: the server died before or after committing), retries the same request with the same
/// key until it gets an answer. Afterwards every reservation a client got a 2xx for is in the
/// store, each key is charged once (one reservation per key, none without a 2xx), no answer was a
/// 5xx, and `PRAGMA integrity_check` is ok. The limit allows three server starts on a loaded
/// machine (about 20 s each in a debug build at load 12); a hang fails sooner, inside the test.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ServerCrashTests {
  static let clients = 8
  static let password = "correct horse battery"

  /// What one client saw.
  struct Outcome: Sendable {
    /// Idempotency key → the reservation id of its 2xx.
    var confirmed: [String: String] = [:]
    /// Requests retried after a dropped connection or a refused connect.
    var retries = 0
    /// Answers with a 5xx status (there must be none).
    var serverErrors: [String] = []
    var failure: String?
  }

  @Test func bookingsSurviveSIGKILL_retriesAreChargedOnce_storeIntact() async throws {
    let directory = TemporaryDirectory(prefix: "crash-server")
    var server = try ServerProcess(directory: directory)
    let port = try #require(server.url.port)
    let tokens = try (0..<Self.clients).map { try Self.traveller(index: $0, port: port) }

    let stop = StopFlag()
    let up = UpSince()
    let results = OutcomeBox()
    let group = DispatchGroup()
    for index in 0..<Self.clients {
      group.enter()
      Thread {
        results.set(index, Self.book(index: index, token: tokens[index], port: port, up: up, until: stop))
        group.leave()
      }.start()
    }
    // Two crashes while the clients book: SIGKILL, a moment down, then a restart on the same store.
    for _ in 0..<2 {
      try await Task.sleep(for: .milliseconds(1500))
      up.down()
      server.kill()
      try await Task.sleep(for: .milliseconds(300))
      server = try ServerProcess(directory: directory, port: port)
      up.up()
    }
    try await Task.sleep(for: .milliseconds(1500))
    stop.set()
    let finished = group.wait(timeout: .now() + 90)
    #expect(finished == .success, "every client got an answer for its last request")

    let outcomes = results.all
    for (index, outcome) in outcomes.enumerated() {
      #expect(outcome.failure == nil, "client \(index): \(outcome.failure ?? "")")
      #expect(outcome.serverErrors.isEmpty, "client \(index): \(outcome.serverErrors)")
    }
    #expect(outcomes.reduce(0) { $0 + $1.retries } > 0, "the crashes dropped at least one request")
    #expect(outcomes.reduce(0) { $0 + $1.confirmed.count } >= Self.clients, "the clients booked")

    // The restarted server holds exactly the confirmed reservations: each 2xx is there, and a
    // retried key did not book (or charge) a second time.
    for (index, outcome) in outcomes.enumerated() {
      let trips = try HTTPTestClient.send(
        "GET", "/v1/trips", port: port, headers: Self.auth(tokens[index]), body: Data())
      #expect(trips.status == 200)
      let listed = try JSONDecoder().decode(JSONValue.self, from: trips.body)["reservations"]?.arrayValue ?? []
      let ids = listed.compactMap { $0["id"]?.stringValue }
      #expect(
        Set(ids) == Set(outcome.confirmed.values),
        "client \(index): stored \(ids.count), confirmed \(outcome.confirmed.count)")
      #expect(ids.count == outcome.confirmed.count, "client \(index): one reservation per key")
      #expect(listed.allSatisfy { $0["status"]?.stringValue == "confirmed" })
    }
    #expect(server.stop() == 0)
    let check = Database.integrityCheck(directory.url.appendingPathComponent("travel.sqlite3").path)
    #expect(check == "ok", "PRAGMA integrity_check: \(check)")
  }

  /// Offer ids are signed with the store's key, not the process's: an offer searched before a
  /// restart still books after it (it was `invalid_offer_id` for flights).
  @Test func anOfferSearchedBeforeARestartStillBooks() throws {
    let directory = TemporaryDirectory(prefix: "restart-server")
    var server = try ServerProcess(directory: directory)
    let port = try #require(server.url.port)
    let token = try Self.traveller(index: 99, port: port)
    let date = LocalDate(Date().addingTimeInterval(45 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    let search = try HTTPTestClient.send(
      "POST", "/v1/flights/search", port: port, headers: Self.auth(token),
      body: try API.makeEncoder().encode(
        FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 1)))
    let offerID = try #require(
      try JSONDecoder().decode(JSONValue.self, from: search.body)["offers"]?[0]?["id"]?.stringValue)
    #expect(server.stop() == 0)
    server = try ServerProcess(directory: directory, port: port)
    let booked = try HTTPTestClient.send(
      "POST", "/v1/flights/bookings", port: port, headers: Self.auth(token),
      body: try API.makeEncoder().encode(API.FlightBooking(offerId: offerID, passengers: ["Ada Lovelace"], cardId: nil))
    )
    #expect(booked.status == 201, "\(String(decoding: booked.body, as: UTF8.self))")
    server.stop()
  }

  static func auth(_ token: String) -> [String: String] {
    ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
  }

  /// Signs traveller `index` up and in and adds a card; returns the token.
  static func traveller(index: Int, port: Int) throws -> String {
    let email = "crash\(index)@example.com"
    let json = ["Content-Type": "application/json"]
    let signUp = try HTTPTestClient.send(
      "POST", "/v1/accounts", port: port, headers: json,
      body: try API.makeEncoder().encode(
        API.SignUp(email: email, password: password, firstName: "Crash", lastName: "Tester")))
    #expect(signUp.status == 201)
    let signIn = try HTTPTestClient.send(
      "POST", "/v1/sessions", port: port, headers: json,
      body: try API.makeEncoder().encode(API.SignIn(email: email, password: password)))
    let token = try #require(
      try JSONDecoder().decode(JSONValue.self, from: signIn.body)["session"]?["token"]?.stringValue)
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    let card = try HTTPTestClient.send(
      "POST", "/v1/cards", port: port, headers: auth(token),
      body: try API.makeEncoder().encode(
        API.NewCard(NewPaymentCard(number: "4242424242424242", expiryMonth: 12, expiryYear: year, cvc: "123"))))
    #expect(card.status == 201)
    return token
  }

  /// How long a request may go unanswered while the server is up (listening) before it is a hang.
  static let patience: TimeInterval = 45

  /// Client `index`: searches SFO→JFK, books its own offer (the `index`-th) with a fresh key,
  /// re-searches after a refusal (the price moved), retries the same request with the same key
  /// after a dropped connection, until `stop` and its last request is answered. A request fails
  /// when it has had no answer for ``patience`` seconds of the server being up (a restart can
  /// take long on a loaded machine: that time does not count; a server that listens and does
  /// not answer does).
  static func book(index: Int, token: String, port: Int, up: UpSince, until stop: StopFlag) -> Outcome {
    var outcome = Outcome()
    let date = LocalDate(Date().addingTimeInterval(50 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    /// Sends until an answer comes (a dropped connection or a refused connect is retried).
    func answer(_ method: String, _ path: String, _ body: Data, key: String? = nil) -> HTTPTestClient.Response? {
      var headers = auth(token)
      if let key { headers["Idempotency-Key"] = key }
      let asked = Date()
      while up.unansweredSeconds(since: asked) < patience {
        if let response = try? HTTPTestClient.send(method, path, port: port, headers: headers, body: body) {
          if response.status >= 500 { outcome.serverErrors.append("\(response.status) \(method) \(path)") }
          if response.status != 503 { return response }  // 503: not ready yet, retried like a drop
        }
        outcome.retries += 1
        Thread.sleep(forTimeInterval: 0.05)
      }
      outcome.failure =
        "no answer to \(method) \(path) in \(Int(patience)) s of the server being up (\(outcome.retries) retries)"
      return nil
    }
    var attempt = 0
    while !stop.isSet && outcome.failure == nil {
      let search = try? API.makeEncoder().encode(
        FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 20))
      guard let searched = answer("POST", "/v1/flights/search", search ?? Data()) else { break }
      let offers = (try? JSONDecoder().decode(JSONValue.self, from: searched.body))?["offers"]?.arrayValue ?? []
      guard !offers.isEmpty, let offerID = offers[index % offers.count]["id"]?.stringValue else {
        outcome.failure = "search answered \(searched.status) without offers"
        break
      }
      attempt += 1
      let key = "crash-\(index)-\(attempt)"
      let booking = try? API.makeEncoder().encode(
        API.FlightBooking(
          offerId: offerID, passengers: ["Crash Tester"], cardId: nil, allowDuplicate: true))
      guard let booked = answer("POST", "/v1/flights/bookings", booking ?? Data(), key: key) else { break }
      let document = try? JSONDecoder().decode(JSONValue.self, from: booked.body)
      if (200..<300).contains(booked.status) {
        guard let id = document?["reservation"]?["id"]?.stringValue else {
          outcome.failure = "a \(booked.status) without a reservation id"
          break
        }
        outcome.confirmed[key] = id
      } else if booked.status != 409 {
        outcome.failure = "booking answered \(booked.status): \(String(decoding: booked.body, as: UTF8.self))"
      }
    }
    return outcome
  }
}

/// Set once by the test: the clients finish their current request and stop.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// When the server (re)started: nil while it is down (killed, not listening again yet).
final class UpSince: @unchecked Sendable {
  private let lock = NSLock()
  private var since: Date? = Date()
  func down() { lock.withLock { since = nil } }
  func up() { lock.withLock { since = Date() } }
  /// Seconds a request asked at `asked` has waited while the server was up (0 while it is down).
  func unansweredSeconds(since asked: Date) -> TimeInterval {
    lock.withLock { since.map { Date().timeIntervalSince(max($0, asked)) } ?? 0 }
  }
}

/// The outcomes of the clients, by index.
final class OutcomeBox: @unchecked Sendable {
  private let lock = NSLock()
  private var outcomes = [Int: ServerCrashTests.Outcome]()
  func set(_ index: Int, _ outcome: ServerCrashTests.Outcome) { lock.withLock { outcomes[index] = outcome } }
  var all: [ServerCrashTests.Outcome] {
    lock.withLock { (0..<ServerCrashTests.clients).map { outcomes[$0] ?? .init(failure: "did not finish") } }
  }
}
