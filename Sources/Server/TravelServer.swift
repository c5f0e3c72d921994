import Backend
import Common
import Foundation
import Transport

/// `travel-server`: the backend on the network. JSON over HTTP/1.1 under `/v1` (the documents of
/// ``API``), the live channel `/v1/stream` (``StreamMessage``), `/healthz`, `/readyz` and
/// `/v1/openapi.json`, over ``HTTPServer``.
///
/// Stateless: every request carries its bearer token and is answered from the store, so the
/// server keeps no session of its own; live events come from the store's change feed, so
/// several instances (or embedded apps) on one store see each other's changes.
public final class TravelServer: Sendable {
  /// Where and how the server runs.
  public struct Configuration: Sendable {
    /// `127.0.0.1` (the default: loopback only) or another address of this machine.
    public var host: String
    /// 0 picks a free port (see ``TravelServer/port``).
    public var port: Int
    /// The store (`travel.sqlite3`, `vault.key`), as for the apps.
    public var dataDirectory: URL
    /// The database: the data directory's SQLite file (the default) or a PostgreSQL database
    /// (`--database`, `TRAVEL_DATABASE_URL`); the keys stay in ``dataDirectory`` either way.
    public var database: DatabaseLocation = .sqlite
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// The clock and password cost of the backend (tests make hashing cheap).
    public var backendEnvironment: BackendEnvironment
    /// Where access-log lines go (one JSON object per line); stderr by default.
    public var accessLog: @Sendable (String) -> Void
    /// Sign-in and sign-up attempts allowed per client address and per email in `signInWindow` seconds.
    public var signInsPerAddress: Int
    public var signInsPerEmail: Int
    public var signInWindow: TimeInterval
    /// The addresses of reverse proxies (nginx) in front of the server: a request from one of
    /// them is counted (sign-in limit) and logged as coming from the address its `X-Real-IP`
    /// header names. Empty by default: headers are never trusted from anyone else.
    public var trustedProxies: Set<String> = []
    /// The topics of `/v1/stream`.
    public var topics: [TopicDefinition]
    /// How often the change feed is read when nothing wakes the hub (seconds); nil: every 0.05 s
    /// on SQLite (other processes' commits are seen only by reading), every 0.5 s on PostgreSQL
    /// (the instances wake each other with `LISTEN`/`NOTIFY`; this read is the fallback).
    public var feedPollInterval: TimeInterval?
    /// Live flight status (`/v1/flights/{flight}/status`, `/v1/airports/{code}/board`, the
    /// `flight:` and `board:` topics); nil: none (`travel-server` serves the simulation of the
    /// world's operations on its clock options).
    public var flightStatus: (any FlightStatusService)?
    /// The transport's limits and timeouts (body 64 KB, headers 8 KB, 4,096 connections, …);
    /// `host`, `port`, TLS and the WebSocket path are set from the fields above.
    public var transport: HTTPServer.Configuration

    public init(
      host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, tlsCertificate: String? = nil,
      tlsKey: String? = nil, backendEnvironment: BackendEnvironment = .live,
      accessLog: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
      signInsPerAddress: Int = 30, signInsPerEmail: Int = 10, signInWindow: TimeInterval = 60,
      topics: [TopicDefinition] = [.trips], feedPollInterval: TimeInterval? = nil,
      transport: HTTPServer.Configuration = HTTPServer.Configuration(),
      flightStatus: (any FlightStatusService)? = nil
    ) {
      self.host = host
      self.port = port
      self.dataDirectory = dataDirectory
      self.tlsCertificate = tlsCertificate
      self.tlsKey = tlsKey
      self.backendEnvironment = backendEnvironment
      self.accessLog = accessLog
      self.signInsPerAddress = signInsPerAddress
      self.signInsPerEmail = signInsPerEmail
      self.signInWindow = signInWindow
      self.topics = topics
      self.feedPollInterval = feedPollInterval
      self.transport = transport
      self.flightStatus = flightStatus
    }
  }

  /// The path of the live channel.
  public static let streamPath = "/v1/stream"

  private let http: HTTPServer
  private let hub: StreamHub
  private let state = ShutdownState()
  /// How many flight-status topics are followed now (one channel each, whatever the subscribers).
  var statusChannelCount: Int { hub.flightStatus?.channelCount ?? 0 }
  /// The port it listens on.
  public var port: Int { http.port }
  /// `http://host:port` (or `https://`).
  public let baseURL: URL

  /// Opens the store and starts listening.
  /// - Throws: ``ServiceError``: `store_unreadable`, `store_unavailable` (the PostgreSQL database
  ///   cannot be reached), `data_dir_unusable`, `reference_data_unavailable`
  ///   (the store or data), `invalid_tls_file` (`.invalidInput`: a TLS file missing, unreadable, not
  ///   PEM, encrypted, or a key that is not the certificate's; checked before the store is opened),
  ///   `listen_failed` (`.unavailable`: the port is in use, the address not of this machine, or
  ///   the port privileged; the message says which).
  public init(configuration: Configuration) throws {
    // The TLS files first: a wrong one is named before anything is opened or written.
    if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
      do {
        try TLSFiles.validate(certificate: certificate, key: key)
      } catch let error as TransportError {
        throw ServiceError(.invalidInput, code: error.code, message: error.message)
      }
    }
    let backend = try ServerBackend(
      dataDirectory: configuration.dataDirectory, database: configuration.database,
      environment: configuration.backendEnvironment)
    let status = configuration.flightStatus
    let hub = try StreamHub(
      feed: backend.events, topics: configuration.topics + ChatEndpoints.topics(backend),
      pollInterval: configuration.feedPollInterval ?? (configuration.database == .sqlite ? 0.05 : 0.5),
      flightStatus: status.map { FlightStatusChannels(service: $0) })
    self.hub = hub
    let signIns = SignInLimiter(
      database: backend.services.database, perAddress: configuration.signInsPerAddress,
      perEmail: configuration.signInsPerEmail, window: configuration.signInWindow)
    let log = AccessLog(write: configuration.accessLog)
    let state = state
    let openAPI = OpenAPIBox()
    var table = Endpoints.router(backend: backend, signIns: signIns, openAPI: { openAPI.data })
    if let status { FlightStatusEndpoints.add(to: &table, service: status) }
    let router = table
    openAPI.data = OpenAPIDocument.data(routes: router.routes)
    var transport = configuration.transport
    transport.host = configuration.host
    transport.port = configuration.port
    transport.tlsCertificate = configuration.tlsCertificate
    transport.tlsKey = configuration.tlsKey
    transport.webSocketPaths.insert(Self.streamPath)
    let proxies = configuration.trustedProxies
    let routes = HTTPServer.Routes(
      http: { request in
        let request = Self.behindProxies(request, proxies)
        let response = Self.answer(request, router: router, backend: backend, state: state)
        if request.method != "GET", response.status < 300 { hub.nudge() }
        return response
      },
      rejection: { _, rejection in Self.reject(rejection) },
      webSocket: { socket in StreamSession(socket: socket, hub: hub, backend: backend).start() },
      completed: { request, response, seconds in
        log.record(
          Self.behindProxies(request, proxies), response, seconds: seconds, errorCode: Self.errorCode(of: response))
      })
    do {
      http = try HTTPServer(configuration: transport, routes: routes)
    } catch let error as TransportError {
      hub.stop()
      throw ServiceError(
        error.code == "invalid_tls_file" ? .invalidInput : .unavailable, code: error.code, message: error.message)
    }
    let scheme = configuration.tlsCertificate == nil ? "http" : "https"
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    baseURL = URL(string: "\(scheme)://\(host):\(http.port)")!
  }

  /// Graceful shutdown (SIGTERM): `/readyz` turns 503, new connections are refused, requests in
  /// flight are answered, WebSockets are closed with 1001; returns within `timeout` seconds.
  public func shutdown(timeout: TimeInterval = 10) {
    state.begin()
    http.shutdown(timeout: max(1, timeout - 0.5))
    hub.stop()
  }

  // MARK: Answering

  static func answer(_ request: HTTPRequest, router: Router, backend: ServerBackend, state: ShutdownState)
    -> HTTPResponse
  {
    // The transport's own paths answer GET only; anything else is 405 with `Allow`, as on the API's routes.
    if [Self.streamPath, "/healthz", "/readyz"].contains(request.path), request.method != "GET" {
      return methodNotAllowed(request, allowed: ["GET"])
    }
    switch request.path {
    case "/healthz":
      return HTTPResponse(status: 200, body: Data(#"{"status":"ok"}"#.utf8))
    case "/readyz":
      let ready = !state.isShuttingDown && backend.isReady()
      return HTTPResponse(
        status: ready ? 200 : 503, body: Data((ready ? #"{"status":"ready"}"# : #"{"status":"unavailable"}"#).utf8))
    case streamPath:
      // A plain GET of the live channel (no WebSocket upgrade): 426, saying how to upgrade (RFC 9110 §15.5.22).
      var response = error(
        .init(
          .invalidInput, code: "upgrade_required",
          message:
            "\(streamPath) is a WebSocket: send Connection: Upgrade and Upgrade: websocket (subprotocol travel.v1)"),
        status: 426)
      response.headers.append(("Upgrade", "websocket"))
      return response
    default:
      break
    }
    switch router.match(method: request.method, path: request.path) {
    case .none:
      return error(
        .init(.notFound, code: "not_found", message: "no route \(request.method) \(request.path): see /v1/openapi.json")
      )
    case .wrongMethod(let allowed):
      return methodNotAllowed(request, allowed: allowed)
    case .found(let route, let parameters):
      do {
        let call = Call(request: request, parameters: parameters)
        // A dead session is 401 before anything else is judged (a malformed body, an unknown id).
        // The agents' routes take an agent's token (a role apart), every other one a traveller's.
        if route.authenticated {
          let token = try call.token()
          if route.pattern.hasPrefix(ChatEndpoints.agentPrefix) {
            _ = try backend.services.agents.agentID(token: token)
          } else {
            _ = try backend.accounts.session(token: token)
          }
        }
        let reply = try route.handler(call)
        return HTTPResponse(status: reply.status, headers: reply.headers, body: reply.body)
      } catch {
        return Self.error(ServiceError(wrapping: error))
      }
    }
  }

  /// `request` as sent by the client behind a trusted proxy: its address is the proxy's
  /// `X-Real-IP` (an IPv4 or IPv6 address; anything else is ignored) when the peer is one of
  /// `proxies`, else unchanged.
  static func behindProxies(_ request: HTTPRequest, _ proxies: Set<String>) -> HTTPRequest {
    guard !proxies.isEmpty, proxies.contains(request.remoteAddress),
      let real = request.header("x-real-ip")?.trimmingCharacters(in: .whitespaces), !real.isEmpty, real.count <= 45,
      real.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" })
    else { return request }
    var forwarded = request
    forwarded.remoteAddress = real
    return forwarded
  }

  /// 405 `method_not_allowed` with `Allow` (RFC 9110 §15.5.6), naming the methods the path takes.
  static func methodNotAllowed(_ request: HTTPRequest, allowed: [String]) -> HTTPResponse {
    let methods = allowed.joined(separator: ", ")
    var response = error(
      .init(
        .invalidInput, code: "method_not_allowed",
        message: "\(request.method) is not allowed on \(request.path): use \(methods)"),
      status: 405)
    response.headers.append(("Allow", methods))
    return response
  }

  static func error(_ error: ServiceError, status: Int? = nil) -> HTTPResponse {
    let body = (try? API.makeEncoder().encode(API.ErrorDocument(error))) ?? Data()
    var response = HTTPResponse(status: status ?? API.status(of: error), body: body)
    if let retry = error.details["retryAfter"] { response.headers.append(("Retry-After", retry)) }
    return response
  }

  static func reject(_ rejection: HTTPRejection) -> HTTPResponse {
    switch rejection {
    case .bodyTooLarge(let limit):
      var response = error(
        .init(.invalidInput, code: "body_too_large", message: "the request body is larger than \(limit / 1024) KB"),
        status: 413)
      response.closeConnection = true
      return response
    case .overloaded:
      return error(.init(.unavailable, code: "overloaded", message: "the server is busy: try again shortly"))
    case .shuttingDown:
      return error(.init(.unavailable, code: "shutting_down", message: "the server is shutting down"))
    case .malformed(let what):
      return error(.init(.invalidInput, code: "bad_request", message: "cannot serve this request: \(what)"))
    }
  }

  /// The error code of an error response (for the access log), nil for a success.
  static func errorCode(of response: HTTPResponse) -> String? {
    guard response.status >= 400,
      let document = try? API.makeDecoder().decode(API.ErrorDocument.self, from: response.body)
    else { return nil }
    return document.error["code"]
  }
}

/// The OpenAPI document, made once the route table exists.
final class OpenAPIBox: @unchecked Sendable {
  var data = Data()
}

/// Whether a shutdown has begun (for `/readyz`).
final class ShutdownState: @unchecked Sendable {
  private let lock = NSLock()
  private var shuttingDown = false
  var isShuttingDown: Bool { lock.withLock { shuttingDown } }
  func begin() { lock.withLock { shuttingDown = true } }
}
