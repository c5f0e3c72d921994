import Backend
import BackendTesting
import Common
import CommonTesting
import Foundation
import Glibc
import Reactive
import Testing
import Transport

@testable import Server

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
  /// The store's database (`.sqlite`: the data directory's file).
  let database: DatabaseLocation
  /// The schema of a fixture made with `store: .postgres` (dropped after the server stops).
  let schema: PostgresTestSchema?

  /// - Parameters:
  ///   - dataDirectory: the data directory (keys; the SQLite store) instead of a fresh one.
  ///   - database: the store's database (a PostgreSQL schema shared with other fixtures:
  ///     ``PostgresTestSchema``).
  ///   - store: `.postgres` puts the store in a schema of its own on `TRAVEL_TEST_DATABASE_URL`
  ///     (when `database` is `.sqlite`).
  init(
    signInsPerAddress: Int = 1000, signInsPerEmail: Int = 1000, flightStatus: (any FlightStatusService)? = nil,
    dataDirectory: URL? = nil, database: DatabaseLocation = .sqlite, store: StoreDriver = .sqlite,
    feedPollInterval: TimeInterval? = nil
  ) throws {
    if store == .postgres && database == .sqlite {
      let schema = try PostgresTestSchema()
      self.schema = schema
      self.database = schema.location
    } else {
      schema = nil
      self.database = database
    }
    let clock = clock
    let log = log
    var transport = HTTPServer.Configuration()
    transport.webSocketPingSeconds = 5
    var configuration = TravelServer.Configuration(
      port: 0, dataDirectory: dataDirectory ?? directory.url,
      backendEnvironment: BackendEnvironment(
        now: { clock.now() }, sleep: { _ in }, passwordParameters: .fastForTests),
      accessLog: { log.append($0) }, signInsPerAddress: signInsPerAddress, signInsPerEmail: signInsPerEmail,
      feedPollInterval: feedPollInterval, transport: transport, flightStatus: flightStatus)
    configuration.database = self.database
    server = try TravelServer(configuration: configuration)
  }

  deinit { server.shutdown(timeout: 3) }

  var base: URL { server.baseURL }

  struct Answer {
    var status: Int
    var json: JSONValue
    var headers: [String: String]
    /// `HTTP/1.1 426 Upgrade Required`.
    var statusLine: String
    var errorCode: String? { json["error"]?["code"]?.stringValue }
  }

  /// One request; `body` is JSON-encoded unless it is already `Data`.
  func call(
    _ method: String, _ path: String, token: String? = nil, body: (any Encodable)? = nil, raw: Data? = nil,
    headers: [String: String] = [:]
  ) async throws -> Answer {
    var payload = raw ?? Data()
    var fields = headers
    if let token { fields["Authorization"] = "Bearer \(token)" }
    if let body { payload = try API.makeEncoder().encode(body) }
    if body != nil || raw != nil { fields["Content-Type"] = "application/json" }
    let response = try HTTPTestClient.send(method, path, port: server.port, headers: fields, body: payload)
    let json = (try? JSONDecoder().decode(JSONValue.self, from: response.body)) ?? .null
    return Answer(status: response.status, json: json, headers: response.headers, statusLine: response.statusLine)
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

/// A plain HTTP/1.1 client over a loopback TCP socket (one request per connection): the real
/// wire, without FoundationNetworking's per-request latency on this machine.
enum HTTPTestClient {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var statusLine = ""
  }

  static func send(_ method: String, _ path: String, port: Int, headers: [String: String], body: Data) throws
    -> Response
  {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw ServiceError(.unavailable, code: "connect", message: "cannot connect") }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let request = Data((head + "\r\n").utf8) + body
    _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      data.append(buffer, count: count)
      if let split = data.range(of: Data("\r\n\r\n".utf8)) {
        let text = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        if let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
          let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
          data.count - split.upperBound >= length
        {
          break
        }
      }
    }
    guard let split = data.range(of: Data("\r\n\r\n".utf8)) else {
      throw ServiceError(.unavailable, code: "no_response", message: "no HTTP response")
    }
    var lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst()
    let status = Int(statusLine.split(separator: " ")[1]) ?? 0
    var fields: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: fields, body: Data(data[split.upperBound...]), statusLine: statusLine)
  }
}

extension JSONValue {
  subscript(index: Int) -> JSONValue? { arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}
