import Backend
import Common
import CommonTesting
import Foundation
import Reactive
import Testing
import Transport

@testable import Server

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A settable clock for session expiry.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var offset: TimeInterval = 0
  func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
  func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
}

/// The lines of the access log, kept for greps.
final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

/// A `travel-server` on a free loopback port with a fresh data directory, and an HTTP client.
final class ServerFixture: @unchecked Sendable {
  let directory = TemporaryDirectory(prefix: "server-test")
  let clock = TestClock()
  let log = LogLines()
  let server: TravelServer

  init(signInsPerAddress: Int = 1000, signInsPerEmail: Int = 1000) throws {
    let clock = clock
    let log = log
    var transport = HTTPServer.Configuration()
    transport.webSocketPingSeconds = 5
    server = try TravelServer(
      configuration: TravelServer.Configuration(
        port: 0, dataDirectory: directory.url,
        backendEnvironment: BackendEnvironment(
          now: { clock.now() }, sleep: { _ in }, passwordParameters: .fastForTests),
        accessLog: { log.append($0) }, signInsPerAddress: signInsPerAddress, signInsPerEmail: signInsPerEmail,
        transport: transport))
  }

  deinit { server.shutdown(timeout: 3) }

  var base: URL { server.baseURL }

  struct Answer {
    var status: Int
    var json: JSONValue
    var headers: [String: String]
    var errorCode: String? { json["error"]?["code"]?.stringValue }
  }

  /// One request; `body` is JSON-encoded unless it is already `Data`.
  func call(
    _ method: String, _ path: String, token: String? = nil, body: (any Encodable)? = nil, raw: Data? = nil,
    headers: [String: String] = [:]
  ) async throws -> Answer {
    var request = URLRequest(url: URL(string: base.absoluteString + path)!)
    request.httpMethod = method
    request.timeoutInterval = 20
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body {
      request.httpBody = try API.makeEncoder().encode(body)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    } else if let raw {
      request.httpBody = raw
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var headers: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
      headers[String(describing: key).lowercased()] = String(describing: value)
    }
    let json = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    return Answer(status: http.statusCode, json: json, headers: headers)
  }

  /// Signs up and in `email`; returns the token.
  func traveller(_ email: String, first: String = "Ada", last: String = "Lovelace") async throws -> String {
    let signUp = try await call(
      "POST", "/v1/accounts",
      body: API.SignUp(email: email, password: "correct horse battery", firstName: first, lastName: last))
    #expect(signUp.status == 201)
    let signIn = try await call(
      "POST", "/v1/sessions", body: API.SignIn(email: email, password: "correct horse battery"))
    #expect(signIn.status == 201)
    return try #require(signIn.json["session"]?["token"]?.stringValue)
  }

  /// Adds the Visa test card; returns its id.
  func addCard(_ token: String, number: String = "4242424242424242") async throws -> String {
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    let added = try await call(
      "POST", "/v1/cards", token: token,
      body: API.NewCard(NewPaymentCard(number: number, expiryMonth: 12, expiryYear: year, cvc: "123")))
    #expect(added.status == 201)
    return try #require(added.json["card"]?["id"]?.stringValue)
  }

  /// Books the cheapest nonstop-or-one-stop SFO→JFK offer 40 days ahead for `token`.
  func bookFlight(_ token: String, key: String? = nil, passenger: String = "Ada Lovelace") async throws -> Answer {
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    let search = try await call(
      "POST", "/v1/flights/search", token: token,
      body: FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 5))
    #expect(search.status == 200)
    let offerID = try #require(search.json["offers"]?.arrayValue?.first?["id"]?.stringValue)
    return try await call(
      "POST", "/v1/flights/bookings", token: token,
      body: API.FlightBooking(offerId: offerID, passengers: [passenger], cardId: nil),
      headers: key.map { ["Idempotency-Key": $0] } ?? [:])
  }
}

extension JSONValue {
  subscript(index: Int) -> JSONValue? { arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}
