import Common
import Foundation
import Reactive
import ReactiveNetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP side of `Remote`: requests to a `travel-server`'s `/v1` routes, answered as
/// publishers built the classic Combine way — `dataTaskPublisher(for:)` → `tryMap` (the status:
/// an error document becomes its ``ServiceError``) → `decode` → `mapError` →
/// `eraseToAnyPublisher()`.
///
/// The synchronous service protocols of `Common` are implemented by waiting for one such publisher
/// (``value(_:)``); callers already run them off the main thread (``ServiceCall``).
public struct APIClient: Sendable {
  /// `http://host:port` of the server.
  public let server: URL
  /// The session's token for routes that need one (and searches that price for the traveller).
  public let token: @Sendable () -> String?
  let session: URLSession
  /// Seconds before a request is given up (then `server_unreachable`).
  public let timeout: TimeInterval

  /// - Parameters:
  ///   - timeout: seconds before a request is given up.
  ///   - token: read at each call that needs it (the session file's token in the apps).
  ///
  /// Every client of the process with the same `timeout` shares one `URLSession` (``session(timeout:)``),
  /// so their requests reuse its kept-alive connections: an app makes many clients (one per
  /// service it wires), and a request on a new connection costs a TCP handshake and, the first
  /// time in a process, libcurl's start-up.
  public init(server: URL, timeout: TimeInterval = 30, token: @escaping @Sendable () -> String? = { nil }) {
    self.server = server
    self.token = token
    self.timeout = timeout
    session = Self.session(timeout: timeout)
  }

  /// The process's `URLSession` for requests of `timeout` seconds: ephemeral (no cookies, no
  /// cache, no credentials on disk), up to 8 kept-alive connections per server.
  static func session(timeout: TimeInterval) -> URLSession { sessions.session(timeout: timeout) }

  private static let sessions = Sessions()

  private final class Sessions: @unchecked Sendable {
    private let lock = NSLock()
    private var byTimeout: [TimeInterval: URLSession] = [:]
    func session(timeout: TimeInterval) -> URLSession {
      lock.withLock {
        if let session = byTimeout[timeout] { return session }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 8
        let session = URLSession(configuration: configuration)
        byTimeout[timeout] = session
        return session
      }
    }
  }

  /// A request body: nothing, or a JSON document.
  public enum Body: Sendable {
    case none
    case json(@Sendable () throws -> Data)

    public static func encode<T: Encodable & Sendable>(_ value: T) -> Body {
      .json { try API.makeEncoder().encode(value) }
    }
  }

  /// `method path` answered as `T`, as a publisher (nothing is sent before subscription).
  /// - Parameters:
  ///   - token: the bearer token to send (nil: none).
  ///   - query: `?name=value` pairs (percent-encoded here).
  ///   - idempotencyKey: the `Idempotency-Key` header of a booking.
  /// - Returns: the decoded document, or a ``ServiceError``: the server's own (its code, message
  ///   and details; kind from the HTTP status), `server_unreachable` (`.unavailable`, naming the
  ///   URL) when no answer came, `bad_response` when the answer is not the expected document.
  public func publisher<T: Decodable>(
    _ method: String, _ path: String, query: [(String, String)] = [], body: Body = .none, token: String? = nil,
    idempotencyKey: String? = nil, as type: T.Type = T.self
  ) -> AnyPublisher<T, ServiceError> {
    let server = server
    let request: URLRequest
    do {
      request = try makeRequest(method, path, query: query, body: body, token: token, idempotencyKey: idempotencyKey)
    } catch {
      return Fail(error: ServiceError(wrapping: error)).eraseToAnyPublisher()
    }
    return session.dataTaskPublisher(for: request)
      .mapError { Self.unreachable(server, $0) }
      .tryMap { output -> Data in
        let status = (output.response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
          throw Self.failure(status: status, data: output.data, server: server)
        }
        return output.data
      }
      .decode(type: T.self, decoder: API.makeDecoder())
      .mapError { error in
        if let error = error as? ServiceError { return error }
        return ServiceError(
          .unavailable, code: "bad_response",
          message:
            "the server at \(server.absoluteString) sent an answer this version cannot read: update the app or the server"
        )
      }
      .eraseToAnyPublisher()
  }

  /// Waits for `publisher`'s one value (blocking the calling thread; never call it on the main
  /// thread of the interactive app).
  public func value<T>(_ publisher: AnyPublisher<T, ServiceError>) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let cancellable = publisher.sink(
      receiveCompletion: { completion in
        if case .failure(let error) = completion { box.set(.failure(error)) }
        done.signal()
      },
      receiveValue: { box.set(.success($0)) })
    if done.wait(timeout: .now() + timeout + 5) == .timedOut {
      cancellable.cancel()
      throw Self.unreachable(server, URLError(.timedOut))
    }
    cancellable.cancel()
    guard let result = box.result else {
      throw ServiceError(
        .unavailable, code: "bad_response", message: "the server at \(server.absoluteString) sent no answer")
    }
    return try result.get()
  }

  /// `publisher(…)` waited for.
  public func call<T: Decodable>(
    _ method: String, _ path: String, query: [(String, String)] = [], body: Body = .none, token: String? = nil,
    idempotencyKey: String? = nil, as type: T.Type = T.self
  ) throws -> T {
    try value(publisher(method, path, query: query, body: body, token: token, idempotencyKey: idempotencyKey, as: type))
  }

  private func makeRequest(
    _ method: String, _ path: String, query: [(String, String)], body: Body, token: String?, idempotencyKey: String?
  ) throws -> URLRequest {
    var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
    components.path = path
    if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
    guard let url = components.url else {
      throw ServiceError.invalid("invalid_request", "cannot build a request for \(path)")
    }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = timeout
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
    if case .json(let encode) = body {
      request.httpBody = try encode()
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    return request
  }

  /// The error document of a failed answer as its ``ServiceError``.
  static func failure(status: Int, data: Data, server: URL) -> ServiceError {
    if let document = try? API.makeDecoder().decode(API.ErrorDocument.self, from: data) {
      return document.serviceError(kind: API.kind(ofStatus: status, code: document.error["code"] ?? ""))
    }
    return ServiceError(
      .unavailable, code: "bad_response", message: "the server at \(server.absoluteString) answered HTTP \(status)")
  }

  /// `server_unreachable`, naming the server and what happened.
  public static func unreachable(_ server: URL, _ error: URLError) -> ServiceError {
    let reason: String
    switch error.code {
    case .timedOut: reason = "it did not answer in time"
    case .cannotConnectToHost: reason = "connection refused"
    case .cannotFindHost, .dnsLookupFailed: reason = "unknown host"
    case .networkConnectionLost: reason = "the connection was lost"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
      reason = "its TLS certificate was not accepted"
    default: reason = "network error \(error.code.rawValue)"
    }
    return ServiceError(
      .unavailable, code: "server_unreachable",
      message: "cannot reach the server at \(server.absoluteString): \(reason)",
      details: ["server": server.absoluteString])
  }
}

private final class ResultBox<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<T, ServiceError>?
  func set(_ result: Result<T, ServiceError>) { lock.withLock { if stored == nil { stored = result } } }
  var result: Result<T, ServiceError>? { lock.withLock { stored } }
}
