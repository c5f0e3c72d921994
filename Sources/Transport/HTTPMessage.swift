import Foundation

/// One HTTP request as the server received it, complete (headers and body).
public struct HTTPRequest: Sendable {
  /// `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `OPTIONS` or `HEAD`.
  public var method: String
  /// The path, percent-decoded, without the query (`/v1/flights/search`).
  public var path: String
  /// The query's `name=value` pairs in order, percent-decoded (`+` is a space).
  public var query: [(name: String, value: String)]
  /// The headers the server reads, by lowercased name (`authorization`, `content-type`,
  /// `idempotency-key`, …); see ``HTTPServer/Configuration/customHeaders``.
  public var headers: [String: String]
  /// The body (empty for `GET`); at most ``HTTPServer/Configuration/maxBodyBytes``.
  public var body: Data
  /// The peer's IP address (`127.0.0.1`, `::1`).
  public var remoteAddress: String
  /// When the last byte of the request arrived.
  public var receivedAt: Date

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
    body: Data = Data(), remoteAddress: String = "", receivedAt: Date = Date()
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
    self.receivedAt = receivedAt
  }

  /// The first value of the query parameter `name`.
  public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The value of header `name` (any case).
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// An answer: a status, headers and a body (sent with `Content-Length`).
public struct HTTPResponse: Sendable {
  public var status: Int
  /// Extra headers (`Content-Type` and `Content-Length` are written from ``contentType`` and ``body``).
  public var headers: [(name: String, value: String)]
  public var contentType: String
  public var body: Data
  /// Close the connection after this response instead of keeping it alive.
  public var closeConnection: Bool

  public init(
    status: Int, contentType: String = "application/json", headers: [(name: String, value: String)] = [],
    body: Data = Data(), closeConnection: Bool = false
  ) {
    self.status = status
    self.contentType = contentType
    self.headers = headers
    self.body = body
    self.closeConnection = closeConnection
  }
}

extension HTTPResponse {
  /// The reason phrase of `status` in RFC 9110 §15 (`426` → `Upgrade Required`), and RFC 6585's
  /// `428`, `429`, `431`; nil for a code neither defines.
  public static func reasonPhrase(for status: Int) -> String? { reasonPhrases[status] }

  private static let reasonPhrases: [Int: String] = [
    100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
    203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
    300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
    402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
    407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
    411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
    415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
    421: "Misdirected Request", 422: "Unprocessable Content", 426: "Upgrade Required", 428: "Precondition Required",
    429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
    501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    505: "HTTP Version Not Supported",
  ]
}

/// Why the transport answered a request itself, without calling the handler.
public enum HTTPRejection: Sendable, Equatable {
  /// The body is larger than ``HTTPServer/Configuration/maxBodyBytes`` (413).
  case bodyTooLarge(limit: Int)
  /// Every worker is busy and the queue is full (503).
  case overloaded
  /// The request line or headers cannot be served (400), e.g. an unknown method.
  case malformed(String)
  /// The server is shutting down (503).
  case shuttingDown
}
