import Common
import Foundation

/// The OpenAPI 3.1 description of `/v1` (served at `/v1/openapi.json`): every route of the
/// router with its summary, security, request body and answers, and the schemas of the
/// documents (``API``). Built from the route table, so a route cannot be missing from it.
enum OpenAPIDocument {
  /// Request schema, success status and response schema per `METHOD path`.
  static let shapes: [String: (request: String?, status: Int, response: String)] = [
    "POST /v1/accounts": ("SignUp", 201, "ProfileDocument"),
    "POST /v1/sessions": ("SignIn", 201, "SignedIn"),
    "GET /v1/session": (nil, 200, "SignedIn"),
    "DELETE /v1/session": (nil, 200, "SignedOut"),
    "GET /v1/profile": (nil, 200, "ProfileDocument"),
    "PUT /v1/profile": ("ProfileChange", 200, "ProfileDocument"),
    "GET /v1/preferences": (nil, 200, "PreferencesDocument"),
    "PUT /v1/preferences": ("PreferencesDocument", 200, "PreferencesDocument"),
    "GET /v1/cards": (nil, 200, "CardsDocument"),
    "POST /v1/cards": ("NewCard", 201, "CardDocument"),
    "DELETE /v1/cards/{id}": (nil, 200, "Removed"),
    "POST /v1/cards/{id}/default": (nil, 200, "CardDocument"),
    "GET /v1/trips": (nil, 200, "ReservationsDocument"),
    "GET /v1/trips/{id}": (nil, 200, "ReservationDocument"),
    "GET /v1/trips/{id}/cancellation": (nil, 200, "CancellationQuoteDocument"),
    "POST /v1/trips/{id}/cancel": ("CancelRequest", 200, "ReservationDocument"),
    "GET /v1/trips/{id}/seats": (nil, 200, "SeatMapsDocument"),
    "POST /v1/trips/{id}/seats": ("SeatsChange", 200, "SeatAssignmentsDocument"),
    "POST /v1/trips/{id}/checkin": ("CheckInBody", 200, "CheckInDocument"),
    "GET /v1/trips/{id}/boarding-passes": (nil, 200, "BoardingPassesDocument"),
    "POST /v1/boarding-passes/verify": ("PassVerificationRequest", 200, "PassVerification"),
    "POST /v1/boarding-passes/match": ("TripMatchRequest", 200, "TripMatch"),
    "GET /v1/airports": (nil, 200, "AirportsDocument"),
    "POST /v1/flights/search": ("FlightSearchRequest", 200, "FlightOffersDocument"),
    "GET /v1/flights/offers/{id}": (nil, 200, "FlightOfferDocument"),
    "POST /v1/flights/bookings": ("FlightBooking", 201, "ReservationDocument"),
    "POST /v1/hotels/search": ("HotelSearchRequest", 200, "HotelSearchResult"),
    "GET /v1/hotels/{id}": (nil, 200, "HotelDocument"),
    "GET /v1/hotels/{id}/details": (nil, 200, "HotelDetailsDocument"),
    "POST /v1/hotels/rooms": ("RoomsQuery", 200, "HotelOffersDocument"),
    "GET /v1/hotels/offers/{id}": (nil, 200, "HotelOfferDocument"),
    "POST /v1/hotels/map": ("MapQuery", 200, "MarkersDocument"),
    "POST /v1/hotels/bookings": ("HotelBooking", 201, "ReservationDocument"),
    "POST /v1/cars/search": ("CarSearchQuery", 200, "CarSearchResult"),
    "GET /v1/cars/companies": (nil, 200, "CompaniesDocument"),
    "GET /v1/cars/places": (nil, 200, "PlacesDocument"),
    "GET /v1/cars/promotions": (nil, 200, "PromotionsDocument"),
    "POST /v1/cars/bookings": ("CarBooking", 201, "ReservationDocument"),
    "GET /v1/flights/{flight}/status": (nil, 200, "FlightStatusDocument"),
    "GET /v1/airports/{code}/board": (nil, 200, "FlightBoardDocument"),
    "GET /v1/openapi.json": (nil, 200, "OpenAPI"),
  ]

  /// Query parameters per `METHOD path`.
  static var queries: [String: [(name: String, required: Bool, schema: [String: Any])]] {
    [
      "GET /v1/airports": [("query", true, ["type": "string"]), ("limit", false, limitSchema)],
      "GET /v1/cars/companies": [("pickup", true, ["type": "string"])],
      "GET /v1/cars/places": [("prefix", true, ["type": "string"]), ("limit", false, limitSchema)],
      "GET /v1/flights/{flight}/status": [
        ("date", false, OpenAPISchemas.date), ("origin", false, OpenAPISchemas.airportCode),
      ],
      "GET /v1/airports/{code}/board": [
        ("date", false, OpenAPISchemas.date),
        ("direction", false, ["type": "string", "enum": BoardDirection.allCases.map(\.rawValue)]),
      ],
    ]
  }

  static var limitSchema: [String: Any] { ["type": "integer", "minimum": 1, "maximum": 1000] }

  static func document(routes: [Router.Route]) -> [String: Any] {
    var paths: [String: [String: Any]] = [:]
    for route in routes {
      let key = "\(route.method) \(route.pattern)"
      let shape = shapes[key] ?? ChatEndpoints.shapes[key] ?? (nil, 200, "Any")
      var operation: [String: Any] = [
        "summary": route.summary,
        "operationId": operationID(route),
        "responses": responses(
          key, shape.status, shape.response, authenticated: route.authenticated,
          body: shape.request != nil, idempotent: route.pattern.hasSuffix("/bookings")),
      ]
      var parameters: [[String: Any]] = route.segments.filter { $0.hasPrefix("{") }.map {
        ["name": String($0.dropFirst().dropLast()), "in": "path", "required": true, "schema": ["type": "string"]]
      }
      for query in queries[key] ?? [] {
        parameters.append(["name": query.name, "in": "query", "required": query.required, "schema": query.schema])
      }
      if route.pattern.hasSuffix("/bookings") {
        parameters.append([
          "name": "Idempotency-Key", "in": "header", "required": false,
          "description": "A retry with the same key returns the first reservation, charged once.",
          "schema": ["type": "string", "minLength": 1, "maxLength": 200],
        ])
      }
      if !parameters.isEmpty { operation["parameters"] = parameters }
      if let request = shape.request {
        operation["requestBody"] = [
          "required": !optionalBodies.contains(key),
          "content": ["application/json": ["schema": ["$ref": "#/components/schemas/\(request)"]]],
        ]
      }
      if route.authenticated {
        // The agents' routes take an agent's token (POST /v1/agent/sessions), every other one a traveller's.
        let scheme = route.pattern.hasPrefix(ChatEndpoints.agentPrefix) ? "agentBearer" : "bearer"
        operation["security"] = [[scheme: [String]()]]
      }
      paths[route.pattern, default: [:]][route.method.lowercased()] = operation
    }
    paths["/healthz"] = ["get": plain("Alive (the process answers).", "health")]
    paths["/readyz"] = ["get": plain("Ready (the store answers and no shutdown has begun); 503 otherwise.", "ready")]
    paths["/v1/stream"] = [
      "get": [
        "summary": "The live channel: upgrades to WebSocket (subprotocol travel.v1); see StreamMessage.",
        "operationId": "stream",
        "responses": [
          "101": ["description": "Switching Protocols"],
          "426": [
            "description": "Upgrade required: a GET without the WebSocket upgrade headers.",
            "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
          ],
        ],
      ]
    ]
    return [
      "openapi": "3.1.0",
      "info": [
        "title": "travel-server", "version": "1",
        "description": "The travel backend over HTTP: the documents the commands print with --json.",
      ],
      "paths": paths,
      "components": [
        "securitySchemes": [
          "bearer": [
            "type": "http", "scheme": "bearer", "description": "A traveller's token: POST /v1/sessions.",
          ],
          "agentBearer": [
            "type": "http", "scheme": "bearer",
            "description": "An agent's token (POST /v1/agent/sessions); a traveller's token is 401 on these routes.",
          ],
        ],
        "schemas": OpenAPISchemas.all.merging(ChatEndpoints.schemas) { first, _ in first },
      ],
    ]
  }

  static func operationID(_ route: Router.Route) -> String {
    let words = route.segments.dropFirst().map {
      $0.replacingOccurrences(of: "{", with: "by-").replacingOccurrences(of: "}", with: "")
    }
    return ([route.method.lowercased()] + words).joined(separator: "-").replacingOccurrences(of: ".", with: "-")
  }

  static func plain(_ summary: String, _ id: String) -> [String: Any] {
    [
      "summary": summary, "operationId": id,
      "responses": [
        "200": [
          "description": "OK", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Status"]]],
        ],
        "503": [
          "description": "Not ready",
          "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Status"]]],
        ],
      ],
    ]
  }

  /// Operations whose body may be left out (check-in without a body checks everyone in).
  static let optionalBodies: Set<String> = ["POST /v1/trips/{id}/checkin"]

  /// Sign-in and sign-up: rate-limited per address and email (429), and a wrong password is 401.
  static let signIns: Set<String> = ["POST /v1/accounts", "POST /v1/sessions", "POST /v1/agent/sessions"]

  /// The answers of operation `key`: its success, and the errors it can give: 400, 404, 405 and
  /// 503 everywhere; 401 behind a token and for a sign-in; 413 with a body; 409 where a request
  /// can be refused (behind a token, or creating something); 422 with an `Idempotency-Key`; 429
  /// for sign-in and sign-up.
  static func responses(
    _ key: String, _ status: Int, _ schema: String, authenticated: Bool, body: Bool, idempotent: Bool
  ) -> [String: Any] {
    func error(_ text: String) -> [String: Any] {
      ["description": text, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
    }
    var responses: [String: Any] = [
      "\(status)": [
        "description": "OK", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/\(schema)"]]],
      ],
      "400": error("Invalid input (the message says what and what is accepted)."),
      "404": error("Not found (or not the caller's)."),
      "405": error("Method not allowed on this path."),
      "503": error("Unavailable (storage failed, overloaded or shutting down)."),
    ]
    if authenticated || (signIns.contains(key) && key != "POST /v1/accounts") {
      responses["401"] = error("Not signed in, the session expired, a token of the other role, or a wrong password.")
    }
    if body { responses["413"] = error("Body larger than 64 KB.") }
    if authenticated || status == 201 {
      responses["409"] = error(
        "Refused: sold_out, price_changed, duplicate_booking, card_declined, seat_taken, conversation_closed, …")
    }
    if idempotent { responses["422"] = error("idempotency_key_reused: the key was used for another request.") }
    if signIns.contains(key) { responses["429"] = error("Too many sign-in attempts (Retry-After says when to retry).") }
    return responses
  }

  /// The document as JSON bytes (sorted keys).
  static func data(routes: [Router.Route]) -> Data {
    (try? JSONSerialization.data(
      withJSONObject: document(routes: routes), options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data("{}".utf8)
  }
}
