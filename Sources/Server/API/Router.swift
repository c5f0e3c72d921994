import Common
import Foundation
import Transport

/// One API call being answered: the request, the path's parameters, and helpers that turn the
/// wire into service arguments (the bearer token, the JSON body, the idempotency key).
struct Call: Sendable {
  var request: HTTPRequest
  /// `{id}` in a route's pattern → the path segment.
  var parameters: [String: String]

  /// The `Authorization: Bearer …` token.
  /// - Throws: `not_signed_in` (401) when there is none or it is not a bearer token.
  func token() throws -> String {
    guard let header = request.header("authorization"),
      header.lowercased().hasPrefix("bearer "),
      case let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces), !token.isEmpty
    else {
      throw ServiceError(
        .unauthenticated, code: "not_signed_in",
        message: "sign in first: send Authorization: Bearer TOKEN (the token of POST /v1/sessions)")
    }
    return token
  }

  /// The token when one is sent (searches price for the signed-in traveller), else nil.
  var optionalToken: String? { try? token() }

  /// The `Idempotency-Key` header (1–200 visible ASCII characters).
  /// - Throws: `invalid_idempotency_key` (400).
  func idempotencyKey() throws -> String? {
    guard let key = request.header("idempotency-key") else { return nil }
    guard (1...200).contains(key.count), key.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0.asciiValue! >= 32 })
    else {
      throw ServiceError.invalid(
        "invalid_idempotency_key", "invalid Idempotency-Key header: expected 1–200 visible ASCII characters")
    }
    return key
  }

  /// The body decoded as `T`.
  /// - Throws: `invalid_json` (400) naming what is wrong (malformed JSON, a missing field, a
  ///   field of the wrong type), or the model's own ``ServiceError`` for a bad value.
  func body<T: Decodable>(_ type: T.Type) throws -> T {
    guard !request.body.isEmpty else {
      throw ServiceError.invalid("invalid_json", "the request needs a JSON body (Content-Type: application/json)")
    }
    do {
      return try API.makeDecoder().decode(T.self, from: request.body)
    } catch let error as ServiceError {
      throw error
    } catch let error as DecodingError {
      throw ServiceError.invalid("invalid_json", Self.describe(error))
    } catch {
      throw ServiceError.invalid("invalid_json", "the body is not valid JSON")
    }
  }

  /// A decoding failure in words, naming the field (never Foundation's text).
  static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field \"\(path(context.codingPath + [key]))\" in the JSON body"
    case .typeMismatch(let type, let context):
      return "field \"\(path(context.codingPath))\" has the wrong type: expected \(Self.name(of: type))"
    case .valueNotFound(let type, let context):
      return "field \"\(path(context.codingPath))\" is null: expected \(Self.name(of: type))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "the body is not valid JSON" }
      return "field \"\(path(context.codingPath))\" has an invalid value"
    @unknown default:
      return "the body is not valid JSON"
    }
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type, is Int64.Type: "an integer"
    case is Double.Type, is Decimal.Type: "a number"
    case is Bool.Type: "true or false"
    default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
    }
  }
}

/// What a route answers: a status and an encodable document.
struct Reply: Sendable {
  var status: Int
  var body: Data
  var headers: [(name: String, value: String)] = []

  static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> Reply {
    Reply(status: status, body: try API.makeEncoder().encode(value))
  }
}

/// The route table: method and path pattern (`/v1/trips/{id}`) → handler.
struct Router: Sendable {
  struct Route: Sendable {
    var method: String
    var pattern: String
    var segments: [String]
    /// Whether the route needs a signed-in traveller (documented in the OpenAPI file).
    var authenticated: Bool
    var summary: String
    var handler: @Sendable (Call) throws -> Reply
  }

  private(set) var routes: [Route] = []

  mutating func add(
    _ method: String, _ pattern: String, auth: Bool, _ summary: String,
    _ handler: @escaping @Sendable (Call) throws -> Reply
  ) {
    routes.append(
      Route(
        method: method, pattern: pattern, segments: pattern.split(separator: "/").map(String.init), authenticated: auth,
        summary: summary, handler: handler))
  }

  enum Match {
    case found(Route, [String: String])
    case wrongMethod(allowed: [String])
    case none
  }

  func match(method: String, path: String) -> Match {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    var allowed: [String] = []
    for route in routes where route.segments.count == parts.count {
      var parameters: [String: String] = [:]
      var matches = true
      for (segment, part) in zip(route.segments, parts) {
        if segment.hasPrefix("{") && segment.hasSuffix("}") {
          parameters[String(segment.dropFirst().dropLast())] = part
        } else if segment != part {
          matches = false
          break
        }
      }
      guard matches else { continue }
      if route.method == method { return .found(route, parameters) }
      allowed.append(route.method)
    }
    return allowed.isEmpty ? .none : .wrongMethod(allowed: allowed)
  }
}
