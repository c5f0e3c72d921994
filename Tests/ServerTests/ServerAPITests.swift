import BackendTesting
import Common
import Foundation
import Testing

@testable import Server

/// Route-by-route security and the error contract, against a real server over HTTP; the tests
/// that reach the store run on SQLite and on PostgreSQL.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ServerAPITests {
  /// One server per store for the suite (its tests run one at a time and use their own accounts).
  static let shared = Result { try ServerFixture() }
  static let sharedOnPostgres = Result { try ServerFixture(store: .postgres) }
  let fixture: ServerFixture

  init() throws { fixture = try Self.shared.get() }

  static func fixture(_ store: StoreDriver) throws -> ServerFixture {
    try (store == .sqlite ? shared : sharedOnPostgres).get()
  }

  @Test(arguments: StoreDriver.allCases) func healthAndReadiness(store: StoreDriver) async throws {
    let fixture = try Self.fixture(store)
    #expect(try await fixture.call("GET", "/healthz").status == 200)
    let ready = try await fixture.call("GET", "/readyz")
    #expect(ready.status == 200)
    #expect(ready.json["status"]?.stringValue == "ready")
  }

  @Test(arguments: StoreDriver.allCases) func signInGivesATokenAndWhoamiReadsIt(store: StoreDriver) async throws {
    let fixture = try Self.fixture(store)
    let token = try await fixture.traveller("ada@example.com")
    let whoami = try await fixture.call("GET", "/v1/session", token: token)
    #expect(whoami.status == 200)
    #expect(whoami.json["profile"]?["email"]?.stringValue == "ada@example.com")
    let out = try await fixture.call("DELETE", "/v1/session", token: token)
    #expect(out.json["signedOut"] == .bool(true))
    #expect(try await fixture.call("GET", "/v1/profile", token: token).status == 401)
  }

  @Test(arguments: StoreDriver.allCases) func noWrongOrExpiredTokenIs401OnEveryAuthenticatedRoute(store: StoreDriver)
    async throws
  {
    let fixture = try Self.fixture(store)
    let token = try await fixture.traveller("expiry@example.com")
    let routes: [(String, String)] = [
      ("GET", "/v1/session"), ("GET", "/v1/profile"), ("PUT", "/v1/profile"), ("GET", "/v1/preferences"),
      ("PUT", "/v1/preferences"), ("GET", "/v1/cards"), ("POST", "/v1/cards"), ("DELETE", "/v1/cards/card_x"),
      ("POST", "/v1/cards/card_x/default"), ("GET", "/v1/trips"), ("GET", "/v1/trips/res_x"),
      ("POST", "/v1/trips/res_x/cancel"), ("POST", "/v1/flights/bookings"), ("POST", "/v1/hotels/bookings"),
      ("POST", "/v1/cars/bookings"),
    ]
    for (method, path) in routes {
      let body = method == "GET" || method == "DELETE" ? nil : Data("{}".utf8)
      let none = try await fixture.call(method, path, raw: body)
      #expect(none.status == 401, "\(method) \(path) without a token")
      #expect(none.errorCode == "not_signed_in")
      let wrong = try await fixture.call(method, path, token: "not-a-token", raw: body)
      #expect(wrong.status == 401, "\(method) \(path) with a wrong token")
    }
    // A session of its own per route: the first use of an expired session ends it.
    let expiring = routes + [("GET", "/v1/trips/res_x/cancellation"), ("DELETE", "/v1/session")]
    var tokens = [token]
    for _ in expiring.dropFirst() {
      let signIn = try await fixture.call(
        "POST", "/v1/sessions", body: API.SignIn(email: "expiry@example.com", password: "correct horse battery"))
      tokens.append(try #require(signIn.json["session"]?["token"]?.stringValue))
    }
    fixture.clock.advance(31 * 86400)
    defer { fixture.clock.advance(-31 * 86400) }
    for ((method, path), token) in zip(expiring, tokens) {
      let body = method == "GET" || method == "DELETE" ? nil : Data("{}".utf8)
      let expired = try await fixture.call(method, path, token: token, raw: body)
      #expect(expired.status == 401, "\(method) \(path) with an expired token")
      #expect(expired.errorCode == "session_expired", "\(method) \(path)")
    }
  }

  /// Bob books with the id of Ada's card: refused as not found, and nothing is charged or booked.
  @Test(arguments: StoreDriver.allCases) func anotherTravellersCardIsNeverCharged(store: StoreDriver) async throws {
    let fixture = try Self.fixture(store)
    let ada = try await fixture.traveller("card-a@example.com")
    let bob = try await fixture.traveller("card-b@example.com", first: "Bob", last: "Babbage")
    let adaCard = try await fixture.addCard(ada)
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    let search = try await fixture.call(
      "POST", "/v1/flights/search", token: bob,
      body: FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 1))
    let offerID = try #require(search.json["offers"]?[0]?["id"]?.stringValue)
    let booked = try await fixture.call(
      "POST", "/v1/flights/bookings", token: bob,
      body: API.FlightBooking(offerId: offerID, passengers: ["Bob Babbage"], cardId: adaCard))
    #expect(booked.status == 404 || booked.status == 409, "\(booked.json)")
    #expect(try await fixture.call("GET", "/v1/trips", token: bob).json["reservations"] == .array([]))
    #expect(try await fixture.call("GET", "/v1/trips", token: ada).json["reservations"] == .array([]))
    // Nor can Bob read what cancelling Ada's trip would refund.
    let adas = try await fixture.bookFlight(ada)
    let id = try #require(adas.json["reservation"]?["id"]?.stringValue)
    #expect(try await fixture.call("GET", "/v1/trips/\(id)/cancellation", token: bob).status == 404)
  }

  /// Every route that reads a body: over 64 KB is 413, a body that is not JSON is 400, and neither
  /// changes anything.
  @Test func everyBodyRouteRefusesOversizedAndMalformedBodies() async throws {
    let token = try await fixture.traveller("bodies@example.com")
    let routes: [(String, String)] = [
      ("POST", "/v1/accounts"), ("POST", "/v1/sessions"), ("PUT", "/v1/profile"), ("PUT", "/v1/preferences"),
      ("POST", "/v1/cards"), ("POST", "/v1/flights/search"), ("POST", "/v1/flights/bookings"),
      ("POST", "/v1/hotels/search"), ("POST", "/v1/hotels/rooms"), ("POST", "/v1/hotels/map"),
      ("POST", "/v1/hotels/bookings"), ("POST", "/v1/cars/search"), ("POST", "/v1/cars/bookings"),
    ]
    let big = Data(("{\"x\":\"" + String(repeating: "a", count: 70_000) + "\"}").utf8)
    for (method, path) in routes {
      let tooLarge = try await fixture.call(method, path, token: token, raw: big)
      #expect(tooLarge.status == 413, "\(method) \(path)")
      #expect(tooLarge.errorCode == "body_too_large", "\(method) \(path)")
      let malformed = try await fixture.call(method, path, token: token, raw: Data("{\"a\": [1, 2".utf8))
      #expect(malformed.status == 400, "\(method) \(path)")
      #expect(malformed.errorCode == "invalid_json", "\(method) \(path): \(malformed.json)")
      #expect(malformed.json["error"]?["message"]?.stringValue?.isEmpty == false)
    }
    #expect(try await fixture.call("GET", "/v1/cards", token: token).json["cards"] == .array([]))
    #expect(
      try await fixture.call("GET", "/v1/profile", token: token).json["profile"]?["firstName"]?.stringValue == "Ada")
  }

  @Test(arguments: StoreDriver.allCases) func oneTravellerNeverReadsOrChangesAnothers(store: StoreDriver) async throws {
    let fixture = try Self.fixture(store)
    let ada = try await fixture.traveller("a@example.com")
    let bob = try await fixture.traveller("b@example.com", first: "Bob", last: "Babbage")
    let adaCard = try await fixture.addCard(ada)
    let booked = try await fixture.bookFlight(ada)
    #expect(booked.status == 201)
    let reservation = try #require(booked.json["reservation"]?["id"]?.stringValue)

    // Bob's token: Ada's trip, card and cancellation are not found; his lists are empty.
    #expect(try await fixture.call("GET", "/v1/trips/\(reservation)", token: bob).status == 404)
    #expect(try await fixture.call("POST", "/v1/trips/\(reservation)/cancel", token: bob).status == 404)
    #expect(try await fixture.call("DELETE", "/v1/cards/\(adaCard)", token: bob).status == 404)
    #expect(try await fixture.call("POST", "/v1/cards/\(adaCard)/default", token: bob).status == 404)
    #expect(try await fixture.call("GET", "/v1/trips", token: bob).json["reservations"] == .array([]))
    #expect(try await fixture.call("GET", "/v1/cards", token: bob).json["cards"] == .array([]))
    // Profile and preferences change only Bob's.
    let renamed = try await fixture.call("PUT", "/v1/profile", token: bob, body: API.ProfileChange(firstName: "Robert"))
    #expect(renamed.json["profile"]?["firstName"]?.stringValue == "Robert")
    let prefs = API.PreferencesDocument(
      Preferences(currencyCode: "EUR", language: "en", appearance: .dark, homeAirport: nil))
    #expect(try await fixture.call("PUT", "/v1/preferences", token: bob, body: prefs).status == 200)
    #expect(
      try await fixture.call("GET", "/v1/profile", token: ada).json["profile"]?["firstName"]?.stringValue == "Ada")
    #expect(
      try await fixture.call("GET", "/v1/preferences", token: ada).json["preferences"]?["currency"]?.stringValue
        == "USD")
    // Ada still has all of hers.
    #expect(try await fixture.call("GET", "/v1/trips/\(reservation)", token: ada).status == 200)
    #expect(try await fixture.call("GET", "/v1/cards", token: ada).json["cards"]?.arrayValue?.count == 1)
  }

  @Test(arguments: StoreDriver.allCases) func idempotencyKeyReplaysTheFirstBookingAndRefusesAnotherRequest(
    store: StoreDriver
  ) async throws {
    let fixture = try Self.fixture(store)
    let token = try await fixture.traveller("idem@example.com")
    _ = try await fixture.addCard(token)
    let first = try await fixture.bookFlight(token, key: "trip-1")
    let again = try await fixture.bookFlight(token, key: "trip-1")
    #expect(first.status == 201)
    #expect(again.json["reservation"]?["id"] == first.json["reservation"]?["id"])
    let trips = try await fixture.call("GET", "/v1/trips", token: token)
    #expect(trips.json["reservations"]?.arrayValue?.count == 1)
    let bad = try await fixture.call(
      "POST", "/v1/flights/bookings", token: token, body: API.FlightBooking(offerId: "x", passengers: [], cardId: nil),
      headers: ["Idempotency-Key": String(repeating: "k", count: 300)])
    #expect(bad.status == 400)
  }

  @Test func oversizedBodyIs413AndMalformedJSONIs400() async throws {
    let big = Data(("{\"email\":\"" + String(repeating: "a", count: 70_000) + "\"}").utf8)
    let tooLarge = try await fixture.call("POST", "/v1/sessions", raw: big)
    #expect(tooLarge.status == 413)
    #expect(tooLarge.errorCode == "body_too_large")
    let malformed = try await fixture.call("POST", "/v1/sessions", raw: Data("{\"email\": ".utf8))
    #expect(malformed.status == 400)
    #expect(malformed.errorCode == "invalid_json")
    #expect(malformed.json["error"]?["message"]?.stringValue == "the body is not valid JSON")
    let missing = try await fixture.call("POST", "/v1/sessions", raw: Data(#"{"email":"a@b.co"}"#.utf8))
    #expect(missing.status == 400)
    #expect(missing.json["error"]?["message"]?.stringValue == "missing field \"password\" in the JSON body")
    let wrongType = try await fixture.call("POST", "/v1/sessions", raw: Data(#"{"email":1,"password":"x"}"#.utf8))
    #expect(wrongType.json["error"]?["message"]?.stringValue == "field \"email\" has the wrong type: expected a string")
  }

  @Test func unknownRoutesAndMethods() async throws {
    let missing = try await fixture.call("GET", "/v1/nothing")
    #expect(missing.status == 404)
    #expect(missing.errorCode == "not_found")
    let method = try await fixture.call("DELETE", "/v1/trips")
    #expect(method.status == 405)
    #expect(method.headers["allow"] == "GET")
  }

  /// The server's own paths take GET only: `DELETE /healthz` was 200, `POST /v1/stream` 404.
  @Test func healthReadinessAndStream_refuseOtherMethods_with405() async throws {
    for path in ["/healthz", "/readyz", "/v1/stream"] {
      for method in ["DELETE", "POST", "PUT", "PATCH"] {
        let answer = try await fixture.call(method, path, raw: method == "DELETE" ? nil : Data("{}".utf8))
        #expect(answer.status == 405, "\(method) \(path)")
        #expect(answer.headers["allow"] == "GET", "\(method) \(path)")
        #expect(answer.errorCode == "method_not_allowed", "\(method) \(path)")
        #expect(answer.json["error"]?["message"]?.stringValue == "\(method) is not allowed on \(path): use GET")
        #expect(answer.statusLine.hasSuffix(" 405 Method Not Allowed"))
      }
    }
    #expect(try await fixture.call("GET", "/healthz").status == 200)
  }

  /// Found by schemathesis: a plain GET of the live channel was 404 "no route" (undocumented).
  @Test func streamWithoutUpgradeIs426() async throws {
    let plain = try await fixture.call("GET", "/v1/stream")
    #expect(plain.status == 426)
    #expect(plain.errorCode == "upgrade_required")
    #expect(plain.headers["upgrade"] == "websocket")
    #expect(plain.statusLine == "HTTP/1.1 426 Upgrade Required")
  }

  @Test(arguments: StoreDriver.allCases) func errorsCarryTheirStatus(store: StoreDriver) async throws {
    let fixture = try Self.fixture(store)
    let token = try await fixture.traveller("errors@example.com")
    let invalid = try await fixture.call(
      "POST", "/v1/flights/search",
      body: FlightSearchRequest(origin: "SFO", destination: "SFO", departureDate: LocalDate("2030-01-01")!))
    #expect(invalid.status == 400)
    #expect(invalid.errorCode == "same_place")
    let noCard = try await fixture.bookFlight(token)
    #expect(noCard.status == 409)
    #expect(noCard.errorCode == "no_payment_card")
    let wrongPassword = try await fixture.call(
      "POST", "/v1/sessions", body: API.SignIn(email: "errors@example.com", password: "wrong password!"))
    #expect(wrongPassword.status == 401)
    #expect(wrongPassword.errorCode == "invalid_credentials")
  }

  @Test func openAPIDocumentListsEveryRoute() async throws {
    let document = try await fixture.call("GET", "/v1/openapi.json")
    #expect(document.status == 200)
    #expect(document.json["openapi"]?.stringValue == "3.1.0")
    let paths = try #require(document.json["paths"]?.objectValue)
    for path in ["/v1/sessions", "/v1/trips/{id}/cancel", "/v1/flights/bookings", "/v1/cars/search", "/v1/stream"] {
      #expect(paths[path] != nil, "\(path) is documented")
    }
  }

  @Test func accessLogHasOneJSONLinePerRequestAndNoSecrets() async throws {
    let token = try await fixture.traveller("log@example.com")
    _ = try await fixture.addCard(token, number: "5555555555554444")
    _ = try await fixture.call("GET", "/v1/cards", token: token)
    let lines = fixture.log.all
    #expect(lines.count >= 4)
    for line in lines {
      let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
      #expect(parsed["status"]?.integerValue != nil)
      #expect(!line.contains(token))
      #expect(!line.contains("correct horse battery"))
      #expect(!line.contains("5555555555554444"))
      #expect(!line.contains("4444") || line.contains("\"path\""))
    }
  }
}

@Suite(.timeLimit(.minutes(1)))
struct SignInRateLimitTests {
  @Test(arguments: StoreDriver.allCases) func signInStormIs429(store: StoreDriver) async throws {
    let fixture = try ServerFixture(signInsPerAddress: 6, signInsPerEmail: 5, store: store)
    var statuses: [Int] = []
    for _ in 0..<7 {
      statuses.append(
        try await fixture.call(
          "POST", "/v1/sessions", body: API.SignIn(email: "storm@example.com", password: "guess guess guess")
        ).status)
    }
    #expect(statuses.prefix(5).allSatisfy { $0 == 401 })
    #expect(statuses.suffix(2).allSatisfy { $0 == 429 })
    let limited = try await fixture.call(
      "POST", "/v1/sessions", body: API.SignIn(email: "other@example.com", password: "guess guess guess"))
    #expect(limited.status == 401)  // another email, same address: the address allows 6
    let blocked = try await fixture.call(
      "POST", "/v1/sessions", body: API.SignIn(email: "third@example.com", password: "x"))
    #expect(blocked.status == 429)
    #expect(blocked.errorCode == "too_many_requests")
    #expect(blocked.headers["retry-after"] != nil)
  }
}
