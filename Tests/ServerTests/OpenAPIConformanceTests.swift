import Backend
import BackendTesting
import Common
import CommonTesting
import Foundation
import Testing

@testable import Server

/// `/v1/openapi.json` is true: every operation it lists is called over HTTP, each request body is
/// checked against the operation's request schema before it is sent, and each answer's status must
/// be one the operation documents, with a body matching that status's schema. An operation of the
/// document that no call reached fails the test, so a new route needs a call here.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct OpenAPIConformanceTests {
  /// With live flight status (LH 400 and LH 402 FRA → JFK on 2026-12-20, ``FlightStatusStreamTests/service()``).
  static let shared = Result { try ServerFixture(flightStatus: FlightStatusStreamTests.service()) }
  static let sharedOnPostgres = Result {
    try ServerFixture(flightStatus: FlightStatusStreamTests.service(), store: .postgres)
  }
  let fixture: ServerFixture

  init() throws { fixture = try Self.shared.get() }

  /// The calls and what they saw.
  final class Conformance: @unchecked Sendable {
    let document: JSONValue
    let fixture: ServerFixture
    var reached: Set<String> = []
    init(document: JSONValue, fixture: ServerFixture) {
      self.document = document
      self.fixture = fixture
    }

    /// The operation of `method` on the document's `template`.
    func operation(_ method: String, _ template: String) -> JSONValue? {
      document["paths"]?[template]?[method.lowercased()]
    }

    /// Calls `path` (an instance of `template`), checking request and answer against the document.
    @discardableResult
    func call(
      _ method: String, _ template: String, _ path: String? = nil, token: String? = nil,
      body: (any Encodable)? = nil, headers: [String: String] = [:],
      sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServerFixture.Answer {
      let name = "\(method) \(template)"
      guard let operation = operation(method, template) else {
        Issue.record("\(name) is not in the document", sourceLocation: sourceLocation)
        return ServerFixture.Answer(status: 0, json: .null, headers: [:], statusLine: "")
      }
      reached.insert(name)
      if let body {
        let sent = try JSONDecoder().decode(JSONValue.self, from: try API.makeEncoder().encode(body))
        if let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"] {
          let problems = SchemaValidator(root: document).problems(sent, schema)
          #expect(problems.isEmpty, "request of \(name): \(problems)", sourceLocation: sourceLocation)
        } else {
          Issue.record("\(name) takes no body in the document", sourceLocation: sourceLocation)
        }
      }
      let answer = try await fixture.call(method, path ?? template, token: token, body: body, headers: headers)
      guard let response = operation["responses"]?["\(answer.status)"] else {
        Issue.record("\(name) answered \(answer.status), not documented", sourceLocation: sourceLocation)
        return answer
      }
      if let schema = response["content"]?["application/json"]?["schema"] {
        #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true, "\(name)")
        let problems = SchemaValidator(root: document).problems(answer.json, schema)
        #expect(problems.isEmpty, "\(answer.status) of \(name): \(problems)", sourceLocation: sourceLocation)
      }
      return answer
    }

    /// Every operation of the document (but the WebSocket upgrade).
    var documented: Set<String> {
      var all: Set<String> = []
      for (path, item) in document["paths"]?.objectValue ?? [:] where path != TravelServer.streamPath {
        for method in (item.objectValue ?? [:]).keys { all.insert("\(method.uppercased()) \(path)") }
      }
      return all
    }
  }

  /// On both stores (the routes' answers come from the store).
  @Test(arguments: StoreDriver.allCases) func everyOperationAnswersAsDocumented(store: StoreDriver) async throws {
    let fixture = try (store == .sqlite ? Self.shared : Self.sharedOnPostgres).get()
    let served = try await fixture.call("GET", "/v1/openapi.json")
    #expect(served.status == 200)
    let check = Conformance(document: served.json, fixture: fixture)
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "UTC")!)

    // Service and the document itself.
    try await check.call("GET", "/healthz")
    try await check.call("GET", "/readyz")
    try await check.call("GET", "/v1/openapi.json")

    // Account.
    let email = "conformance@example.com"
    let password = "correct horse battery"
    try await check.call(
      "POST", "/v1/accounts", body: API.SignUp(email: email, password: password, firstName: "Ada", lastName: "Lovelace")
    )
    let signedIn = try await check.call("POST", "/v1/sessions", body: API.SignIn(email: email, password: password))
    let token = try #require(signedIn.json["session"]?["token"]?.stringValue)
    try await check.call("POST", "/v1/sessions", body: API.SignIn(email: email, password: "not the password"))
    try await check.call("GET", "/v1/session", token: token)
    try await check.call("GET", "/v1/profile", token: token)
    try await check.call("GET", "/v1/profile")
    try await check.call("PUT", "/v1/profile", token: token, body: API.ProfileChange(firstName: "Augusta"))
    try await check.call("GET", "/v1/preferences", token: token)
    try await check.call(
      "PUT", "/v1/preferences", token: token,
      body: API.PreferencesDocument(
        Preferences(currencyCode: "USD", language: "en", appearance: .system, homeAirport: "SFO")))
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    let first = try await check.call(
      "POST", "/v1/cards", token: token,
      body: API.NewCard(NewPaymentCard(number: "4242424242424242", expiryMonth: 12, expiryYear: year, cvc: "123")))
    let second = try await check.call(
      "POST", "/v1/cards", token: token,
      body: API.NewCard(NewPaymentCard(number: "5555555555554444", expiryMonth: 11, expiryYear: year, cvc: "321")))
    try await check.call(
      "POST", "/v1/cards", token: token,
      body: API.NewCard(NewPaymentCard(number: "4242424242424241", expiryMonth: 11, expiryYear: year, cvc: "321")))
    try await check.call("GET", "/v1/cards", token: token)
    let secondID = try #require(second.json["card"]?["id"]?.stringValue)
    let firstID = try #require(first.json["card"]?["id"]?.stringValue)
    try await check.call("POST", "/v1/cards/{id}/default", "/v1/cards/\(secondID)/default", token: token)
    try await check.call("POST", "/v1/cards/{id}/default", "/v1/cards/card_none/default", token: token)
    try await check.call("DELETE", "/v1/cards/{id}", "/v1/cards/\(secondID)", token: token)
    try await check.call("DELETE", "/v1/cards/{id}", "/v1/cards/\(secondID)", token: token)
    try await check.call("POST", "/v1/cards/{id}/default", "/v1/cards/\(firstID)/default", token: token)

    // Flights.
    try await check.call("GET", "/v1/airports", "/v1/airports?query=san&limit=3")
    try await check.call("GET", "/v1/airports", "/v1/airports?query=san&limit=0")
    let flights = try await check.call(
      "POST", "/v1/flights/search", token: token,
      body: FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, limit: 3))
    try await check.call(
      "POST", "/v1/flights/search", body: FlightSearchRequest(origin: "SFO", destination: "SFO", departureDate: date))
    let flightOffer = try #require(flights.json["offers"]?[0]?["id"]?.stringValue)
    try await check.call("GET", "/v1/flights/offers/{id}", "/v1/flights/offers/\(flightOffer)")
    try await check.call("GET", "/v1/flights/offers/{id}", "/v1/flights/offers/nonsense")
    let flight = try await check.call(
      "POST", "/v1/flights/bookings", token: token,
      body: API.FlightBooking(offerId: flightOffer, passengers: ["Ada Lovelace"], cardId: nil),
      headers: ["Idempotency-Key": "conformance-flight"])
    #expect(flight.status == 201)
    try await check.call(
      "POST", "/v1/flights/bookings", token: token,
      body: API.FlightBooking(offerId: flightOffer, passengers: ["Charles Babbage"], cardId: nil),
      headers: ["Idempotency-Key": "conformance-flight"])

    // Hotels.
    let stay = (date, date.adding(days: 2))
    let hotels = try await check.call(
      "POST", "/v1/hotels/search", token: token,
      body: HotelSearchRequest(place: "Paris", checkIn: stay.0, checkOut: stay.1, guests: 2, rooms: 1, limit: 2))
    let hotelOffer = try #require(hotels.json["offers"]?[0])
    let hotelID = try #require(hotelOffer["hotelId"]?.stringValue)
    try await check.call("GET", "/v1/hotels/{id}", "/v1/hotels/\(hotelID)")
    try await check.call("GET", "/v1/hotels/{id}", "/v1/hotels/h1-1")
    try await check.call("GET", "/v1/hotels/{id}/details", "/v1/hotels/\(hotelID)/details")
    try await check.call(
      "POST", "/v1/hotels/rooms", token: token,
      body: API.RoomsQuery(hotelId: hotelID, checkIn: stay.0, checkOut: stay.1, guests: 2, rooms: 1))
    let hotelOfferID = try #require(hotelOffer["id"]?.stringValue)
    try await check.call("GET", "/v1/hotels/offers/{id}", "/v1/hotels/offers/\(hotelOfferID)")
    try await check.call(
      "POST", "/v1/hotels/map",
      body: API.MapQuery(
        viewport: GeoRect(south: 48.80, west: 2.25, north: 48.90, east: 2.42), maxMarkers: 20))
    let hotel = try await check.call(
      "POST", "/v1/hotels/bookings", token: token,
      body: API.HotelBooking(offerId: hotelOfferID, guest: "Ada Lovelace", cardId: nil),
      headers: ["Idempotency-Key": "conformance-hotel"])
    #expect(hotel.status == 201)

    // Cars.
    func tenOClock(_ day: LocalDate) -> LocalDateTime {
      LocalDateTime(year: day.year, month: day.month, day: day.day, hour: 10, minute: 0)
    }
    let cars = try await check.call(
      "POST", "/v1/cars/search", token: token,
      body: CarSearchQuery(
        pickupPlace: "LAX", pickup: tenOClock(date), dropoff: tenOClock(date.adding(days: 3)), limit: 2))
    let carOffer = try #require(cars.json["offers"]?[0]?["id"]?.stringValue)
    try await check.call("GET", "/v1/cars/companies", "/v1/cars/companies?pickup=LAX")
    try await check.call("GET", "/v1/cars/companies", "/v1/cars/companies?pickup=XXQ")
    try await check.call("GET", "/v1/cars/places", "/v1/cars/places?prefix=LA&limit=5")
    try await check.call("GET", "/v1/cars/promotions")
    let car = try await check.call(
      "POST", "/v1/cars/bookings", token: token,
      body: API.CarBooking(offerId: carOffer, driver: "Ada Lovelace", cardId: nil),
      headers: ["Idempotency-Key": "conformance-car"])
    #expect(car.status == 201)

    // Trips.
    try await check.call("GET", "/v1/trips", token: token)
    let carID = try #require(car.json["reservation"]?["id"]?.stringValue)
    try await check.call("GET", "/v1/trips/{id}", "/v1/trips/\(carID)", token: token)
    try await check.call("GET", "/v1/trips/{id}", "/v1/trips/res_none", token: token)
    let quote = try await check.call(
      "GET", "/v1/trips/{id}/cancellation", "/v1/trips/\(carID)/cancellation", token: token)
    let accepting = try API.makeDecoder().decode(
      API.CancellationQuoteDocument.self, from: try JSONEncoder().encode(quote.json))
    try await check.call(
      "POST", "/v1/trips/{id}/cancel", "/v1/trips/\(carID)/cancel", token: token,
      body: API.CancelRequest(accepting: accepting.quote))
    try await check.call(
      "POST", "/v1/trips/{id}/cancel", "/v1/trips/\(carID)/cancel", token: token,
      body: API.CancelRequest(accepting: nil))

    // Live flight status (public): snapshots, and the 400/404 answers.
    let status = "/v1/flights/{flight}/status"
    try await check.call("GET", status, "/v1/flights/LH400/status?date=2026-12-20")
    try await check.call("GET", status, "/v1/flights/lh400/status?date=2026-12-20&origin=FRA")
    try await check.call("GET", status, "/v1/flights/LH9/status?date=2026-12-20")
    try await check.call("GET", status, "/v1/flights/L/status")
    try await check.call("GET", status, "/v1/flights/LH400/status?origin=FRA")
    let board = "/v1/airports/{code}/board"
    let departures = try await check.call("GET", board, "/v1/airports/FRA/board?date=2026-12-20")
    #expect(departures.json["board"]?["flights"]?.arrayValue?.count == 2)
    try await check.call("GET", board, "/v1/airports/JFK/board?date=2026-12-20&direction=arrivals")
    try await check.call("GET", board, "/v1/airports/FRANKFURT/board")
    try await check.call("GET", board, "/v1/airports/FRA/board?direction=up")

    // Seats, check-in and boarding passes: the flight 40 days ahead is not open yet (409), a
    // nonstop leaving 2–22 hours from now is.
    let later = try #require(flight.json["reservation"]?["id"]?.stringValue)
    try await check.call(
      "POST", "/v1/trips/{id}/checkin", "/v1/trips/\(later)/checkin", token: token,
      body: API.CheckInBody(CheckInRequest(reservationID: later)))
    try await check.call("GET", "/v1/trips/{id}/seats", "/v1/trips/res_none/seats", token: token)
    let soon = try await Self.nonstopLeavingSoon(fixture, token: token)
    let booked = try await check.call(
      "POST", "/v1/flights/bookings", token: token,
      body: API.FlightBooking(offerId: soon, passengers: ["Ada Lovelace"], cardId: nil),
      headers: ["Idempotency-Key": "conformance-check-in"])
    let tripID = try #require(booked.json["reservation"]?["id"]?.stringValue)
    let seats = try await check.call("GET", "/v1/trips/{id}/seats", "/v1/trips/\(tripID)/seats", token: token)
    #expect(seats.status == 200)
    try await check.call(
      "POST", "/v1/trips/{id}/seats", "/v1/trips/\(tripID)/seats", token: token,
      body: API.SeatsChange(SeatAssignmentRequest(reservationID: tripID, assignRest: true)))
    try await check.call(
      "POST", "/v1/trips/{id}/seats", "/v1/trips/\(tripID)/seats", token: token,
      body: API.SeatsChange(
        SeatAssignmentRequest(
          reservationID: tripID,
          choices: [SeatChoice(passenger: "Nobody Here", leg: 0, seat: SeatNumber(row: 1, letter: "A"))])))
    let checkedIn = try await check.call(
      "POST", "/v1/trips/{id}/checkin", "/v1/trips/\(tripID)/checkin", token: token,
      body: API.CheckInBody(CheckInRequest(reservationID: tripID)))
    #expect(checkedIn.status == 200)
    let passes = try await check.call(
      "GET", "/v1/trips/{id}/boarding-passes", "/v1/trips/\(tripID)/boarding-passes", token: token)
    let bcbp = try #require(passes.json["boardingPasses"]?[0]?["bcbp"]?.stringValue)
    let verified = try await check.call(
      "POST", "/v1/boarding-passes/verify", body: PassVerificationRequest(bcbp: bcbp))
    #expect(verified.json["signature"]?.stringValue == "valid")
    try await check.call("POST", "/v1/boarding-passes/verify", body: PassVerificationRequest(bcbp: "not a pass"))
    let matched = try await check.call(
      "POST", "/v1/boarding-passes/match", token: token, body: TripMatchRequest(pass: try BCBPParser.parse(bcbp).pass))
    #expect(matched.json["reservation"]?["id"]?.stringValue == tripID)

    // Chat: the traveller writes about a trip; an agent (its own token) takes the conversation,
    // reads the trips, replies, and closes it.
    try await check.call("GET", "/v1/chat", token: token)
    try await check.call("GET", "/v1/chat/unread", token: token)
    let sent = try await check.call(
      "POST", "/v1/chat/messages", token: token,
      body: API.NewChatMessage(text: "Can I change my seat?", trip: tripID, clientID: "conformance-1"))
    #expect(sent.status == 201)
    try await check.call("POST", "/v1/chat/messages", token: token, body: API.NewChatMessage(text: ""))
    let conversation = try #require(sent.json["message"]?["conversationId"]?.integerValue)
    let services = try BackendServices(
      dataDirectory: fixture.directory.url, database: fixture.database,
      environment: BackendEnvironment(passwordParameters: .fastForTests))
    defer { services.database.close() }
    try services.agents.add(email: "grace@agency.example", name: "Grace Hopper", password: "agent password 1")
    try await check.call(
      "POST", "/v1/agent/sessions", body: API.SignIn(email: "grace@agency.example", password: "not the password"))
    let agentSignIn = try await check.call(
      "POST", "/v1/agent/sessions", body: API.SignIn(email: "grace@agency.example", password: "agent password 1"))
    let agent = try #require(agentSignIn.json["session"]?["token"]?.stringValue)
    try await check.call("GET", "/v1/agent/session", token: agent)
    try await check.call("GET", "/v1/agent/queue", token: agent)
    try await check.call("GET", "/v1/agent/queue", token: token)
    let thread = "/v1/agent/conversations/\(conversation)"
    try await check.call("GET", "/v1/agent/conversations/{id}", thread, token: agent)
    try await check.call("GET", "/v1/agent/conversations/{id}", "/v1/agent/conversations/999999", token: agent)
    try await check.call("GET", "/v1/agent/conversations/{id}", "/v1/agent/conversations/abc", token: agent)
    try await check.call("POST", "/v1/agent/conversations/{id}/take", thread + "/take", token: agent)
    try await check.call("GET", "/v1/agent/conversations/{id}/trips", thread + "/trips", token: agent)
    let reply = try await check.call(
      "POST", "/v1/agent/conversations/{id}/messages", thread + "/messages", token: agent,
      body: API.NewChatMessage(text: "Yes: seat 3A is free.", clientID: "agent-1"))
    let replySequence = try #require(reply.json["message"]?["sequence"]?.integerValue)
    let travellerSequence = try #require(sent.json["message"]?["sequence"]?.integerValue)
    try await check.call(
      "POST", "/v1/agent/conversations/{id}/receipts", thread + "/receipts", token: agent,
      body: API.ChatReceipt(through: Int64(travellerSequence), read: true))
    try await check.call(
      "POST", "/v1/chat/conversations/{id}/receipts", "/v1/chat/conversations/\(conversation)/receipts",
      token: token, body: API.ChatReceipt(through: Int64(replySequence), read: true))
    try await check.call(
      "POST", "/v1/chat/conversations/{id}/receipts", "/v1/chat/conversations/999999/receipts", token: token,
      body: API.ChatReceipt(through: 1, read: false))
    try await check.call("POST", "/v1/agent/conversations/{id}/close", thread + "/close", token: agent)
    try await check.call(
      "POST", "/v1/agent/conversations/{id}/messages", thread + "/messages", token: agent,
      body: API.NewChatMessage(text: "One more thing."))
    try await check.call("GET", "/v1/chat", token: token)
    try await check.call("DELETE", "/v1/agent/session", token: agent)
    try await check.call("GET", "/v1/agent/session", token: agent)

    // Signing out last: the token ends.
    try await check.call("DELETE", "/v1/session", token: token)
    try await check.call("GET", "/v1/session", token: token)

    let missing = check.documented.subtracting(check.reached)
    #expect(missing.isEmpty, "operations of the document no call reached: \(missing.sorted())")
  }

  /// An SFO→JFK nonstop leaving 2 to 22 hours from now (its online check-in is open); its offer id.
  static func nonstopLeavingSoon(_ fixture: ServerFixture, token: String) async throws -> String {
    let now = Date()
    let zone = TimeZone(identifier: "America/Los_Angeles")!
    for day in [0, 1] {
      let search = try await fixture.call(
        "POST", "/v1/flights/search", token: token,
        body: FlightSearchRequest(
          origin: "SFO", destination: "JFK",
          departureDate: LocalDate(now.addingTimeInterval(Double(day) * 86400), in: zone),
          maxStops: 0, sort: .departure, limit: 50))
      for offer in search.json["offers"]?.arrayValue ?? [] {
        guard let text = offer["segments"]?[0]?["departure"]?.stringValue,
          let departure = ISO8601DateFormatter().date(from: text), let id = offer["id"]?.stringValue
        else { continue }
        let hours = departure.timeIntervalSince(now) / 3600
        if hours > 2 && hours < 22 { return id }
      }
    }
    throw ServiceError.invalid("no_flight", "no SFO→JFK nonstop leaves in the next 2–22 hours")
  }

  @Test func theValidatorRefusesWhatTheSchemaDoesNot() throws {
    let root: JSONValue = .object([:])
    let validator = SchemaValidator(root: root)
    let schema = try JSONDecoder().decode(
      JSONValue.self,
      from: Data(
        (#"{"type":"object","required":["a"],"properties":{"a":{"type":"string","pattern":"^[A-Z]{3}$"},"#
          + #""b":{"type":["integer","null"]},"c":{"type":"array","items":{"enum":["x","y"]}}}}"#).utf8))
    func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
    #expect(validator.problems(try json(#"{"a":"USD","b":null,"c":["x"]}"#), schema).isEmpty)
    #expect(validator.problems(try json(#"{"b":1}"#), schema) == ["$: missing \"a\""])
    #expect(validator.problems(try json(#"{"a":"usd"}"#), schema) == [#"$.a: "usd" does not match ^[A-Z]{3}$"#])
    #expect(validator.problems(try json(#"{"a":"USD","b":1.5}"#), schema) == ["$.b: expected integer or null"])
    #expect(validator.problems(try json(#"{"a":"USD","c":["z"]}"#), schema) == [#"$.c[0]: "z" is not one of x, y"#])
    #expect(validator.problems(try json("[]"), schema) == ["$: expected object"])
  }
}

/// A JSON Schema (2020-12) checker for the keywords `/v1/openapi.json` uses: `$ref` (local),
/// `type` (one or several), `properties`, `required`, `items`, `enum`, `pattern`, and `format:
/// date-time` (ISO 8601 with a zone). Returns the problems found, each with its JSON path.
struct SchemaValidator {
  let root: JSONValue

  func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
    if let reference = schema["$ref"]?.stringValue {
      guard let target = resolve(reference) else { return ["\(path): unresolvable \(reference)"] }
      return problems(value, target, at: path)
    }
    var found: [String] = []
    let types: [String] =
      schema["type"]?.stringValue.map { [$0] } ?? schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? []
    if !types.isEmpty && !types.contains(where: { Self.matches(value, type: $0) }) {
      return ["\(path): expected \(types.joined(separator: " or "))"]
    }
    if let options = schema["enum"]?.arrayValue, !options.contains(value) {
      found.append(
        "\(path): \(Self.text(value)) is not one of \(options.map { $0.stringValue ?? Self.text($0) }.joined(separator: ", "))"
      )
    }
    if case .string(let text) = value {
      if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
        found.append("\(path): \(Self.text(value)) does not match \(pattern)")
      }
      if schema["format"]?.stringValue == "date-time", !Self.isDateTime(text) {
        found.append("\(path): \(Self.text(value)) is not an ISO 8601 date-time")
      }
    }
    if case .object(let members) = value {
      for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
        found.append("\(path): missing \"\(name)\"")
      }
      for (name, member) in members {
        if let property = schema["properties"]?[name] { found += problems(member, property, at: "\(path).\(name)") }
      }
    }
    if case .array(let elements) = value, let items = schema["items"] {
      for (index, element) in elements.enumerated() { found += problems(element, items, at: "\(path)[\(index)]") }
    }
    return found
  }

  func resolve(_ reference: String) -> JSONValue? {
    guard reference.hasPrefix("#/") else { return nil }
    var node: JSONValue? = root
    for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
    return node
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
      ("integer", .integer), ("number", .integer), ("number", .number):
      true
    case ("integer", .number(let number)): number == number.rounded()
    default: false
    }
  }

  static func isDateTime(_ text: String) -> Bool {
    text.range(
      of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"#,
      options: .regularExpression) != nil
  }

  static func text(_ value: JSONValue) -> String {
    (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? "?"
  }
}
