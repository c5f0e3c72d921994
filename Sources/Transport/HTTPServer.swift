import CLibWebSockets
import Foundation

/// An HTTP/1.1 server (keep-alive) with WebSocket upgrades on the same port, over libwebsockets.
///
/// Threading: one service thread runs libwebsockets (accepting, parsing, writing); it never runs
/// application code. A complete request goes to ``WorkerPool`` as a call of ``Routes/http``; its
/// response comes back through the service thread's inbox. WebSocket events go to each
/// connection's ``Mailbox`` on the same pool. So a handler may block (SQLite, a search) without
/// holding up any other connection.
///
/// Limits (see ``Configuration``): the body (`413` before it is read when `Content-Length` says
/// so), the header block (lws drops a request whose headers do not fit), slow clients (lws's
/// timeouts while headers or a body trickle in, the keep-alive idle timeout), connections at once,
/// the work queue (`503`), WebSocket messages (`1009`) and outboxes (a slow reader is cut off).
public final class HTTPServer: Sendable {
  /// How the server listens and what it tolerates.
  public struct Configuration: Sendable {
    /// The address to bind (`127.0.0.1`, `0.0.0.0`, `::1`).
    public var host: String
    /// The TCP port; 0 picks a free one (read it from ``HTTPServer/port``).
    public var port: Int
    /// PEM certificate and key files: serve HTTPS and WSS instead of plain HTTP.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Largest accepted request body in bytes (larger: `413`).
    public var maxBodyBytes: Int
    /// Largest header block in bytes (lws's `max_http_header_data`).
    public var maxHeaderBytes: Int
    /// Connections (HTTP and WebSocket) open at once; one more is closed as soon as it is
    /// accepted. The process's open-file limit is raised to fit them where the hard limit allows
    /// (beyond it, connections wait in the listen backlog).
    public var maxConnections: Int
    /// Seconds a client has for each network step (headers, body) before it is dropped.
    public var clientTimeoutSeconds: Int
    /// Seconds an idle keep-alive connection stays open.
    public var keepAliveSeconds: Int
    /// Seconds a handler has to answer before the connection is dropped.
    public var handlerTimeoutSeconds: Int
    /// Worker threads and how many requests may wait for one.
    public var workers: Int
    public var workQueueLimit: Int
    /// Paths that upgrade to WebSocket (`/v1/stream`).
    public var webSocketPaths: Set<String>
    /// WebSocket heartbeat: a ping after this many seconds without a frame received (repeated
    /// as long as the silence lasts); nothing received, not even a pong, for
    /// ``webSocketIdleSeconds`` drops the connection (its end: `1006`). Checked once a second.
    public var webSocketPingSeconds: Int
    public var webSocketIdleSeconds: Int
    /// Largest WebSocket message received (larger: close `1009`).
    public var webSocketMaxMessageBytes: Int
    /// A connection's outbox: more messages (or bytes) waiting than this disconnects the reader.
    public var webSocketOutboxMessages: Int
    public var webSocketOutboxBytes: Int
    /// Headers outside lws's table to read into ``HTTPRequest/headers`` (lowercased names).
    public var customHeaders: [String]

    public init(
      host: String = "127.0.0.1", port: Int = 8080, tlsCertificate: String? = nil, tlsKey: String? = nil,
      maxBodyBytes: Int = 64 * 1024, maxHeaderBytes: Int = 8 * 1024, maxConnections: Int = 4096,
      clientTimeoutSeconds: Int = 10, keepAliveSeconds: Int = 30, handlerTimeoutSeconds: Int = 60,
      workers: Int = max(4, ProcessInfo.processInfo.activeProcessorCount * 2), workQueueLimit: Int = 1024,
      webSocketPaths: Set<String> = [], webSocketPingSeconds: Int = 20, webSocketIdleSeconds: Int = 60,
      webSocketMaxMessageBytes: Int = 64 * 1024, webSocketOutboxMessages: Int = 1024,
      webSocketOutboxBytes: Int = 1 << 20, customHeaders: [String] = ["idempotency-key", "x-request-id"]
    ) {
      self.host = host
      self.port = port
      self.tlsCertificate = tlsCertificate
      self.tlsKey = tlsKey
      self.maxBodyBytes = maxBodyBytes
      self.maxHeaderBytes = maxHeaderBytes
      self.maxConnections = maxConnections
      self.clientTimeoutSeconds = clientTimeoutSeconds
      self.keepAliveSeconds = keepAliveSeconds
      self.handlerTimeoutSeconds = handlerTimeoutSeconds
      self.workers = workers
      self.workQueueLimit = workQueueLimit
      self.webSocketPaths = webSocketPaths
      self.webSocketPingSeconds = webSocketPingSeconds
      self.webSocketIdleSeconds = webSocketIdleSeconds
      self.webSocketMaxMessageBytes = webSocketMaxMessageBytes
      self.webSocketOutboxMessages = webSocketOutboxMessages
      self.webSocketOutboxBytes = webSocketOutboxBytes
      self.customHeaders = customHeaders
    }
  }

  /// What the server does with requests: plain functions, called on worker threads.
  public struct Routes: Sendable {
    /// Answers one request (may block).
    public var http: @Sendable (HTTPRequest) -> HTTPResponse
    /// The answer for a request the transport refuses itself (too large, overloaded, shutting down).
    public var rejection: @Sendable (HTTPRequest, HTTPRejection) -> HTTPResponse
    /// A new WebSocket on one of ``Configuration/webSocketPaths``; subscribe to its
    /// ``WebSocket/events`` here (events after `opened` arrive only after this returns).
    public var webSocket: @Sendable (WebSocket) -> Void
    /// Every answer sent (the access log): the request, the status, the body size and the
    /// handler's time in seconds. Called on a worker thread.
    public var completed: @Sendable (HTTPRequest, HTTPResponse, TimeInterval) -> Void

    public init(
      http: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
      rejection: @escaping @Sendable (HTTPRequest, HTTPRejection) -> HTTPResponse = { _, rejection in
        switch rejection {
        case .bodyTooLarge: HTTPResponse(status: 413, contentType: "text/plain", closeConnection: true)
        case .overloaded, .shuttingDown: HTTPResponse(status: 503, contentType: "text/plain")
        case .malformed: HTTPResponse(status: 400, contentType: "text/plain", closeConnection: true)
        }
      },
      webSocket: @escaping @Sendable (WebSocket) -> Void = { $0.close(code: 1008, reason: "no WebSocket here") },
      completed: @escaping @Sendable (HTTPRequest, HTTPResponse, TimeInterval) -> Void = { _, _, _ in }
    ) {
      self.http = http
      self.rejection = rejection
      self.webSocket = webSocket
      self.completed = completed
    }
  }

  private let loop: ServerLoop
  /// The port the server listens on (the chosen one when configured with 0).
  public let port: Int
  public let configuration: Configuration

  /// Binds and starts serving on a thread of its own.
  /// - Throws: ``TransportError`` `invalid_tls_file` when a TLS file is missing, unreadable, not
  ///   PEM or the key is not the certificate's (see ``TLSFiles``); `listen_failed` when the address
  ///   cannot be bound (the port in use, not an address of this machine, a privileged port),
  ///   saying which.
  public init(configuration: Configuration, routes: Routes) throws {
    self.configuration = configuration
    let pool = WorkerPool(
      name: "http-worker", threads: configuration.workers, queueLimit: configuration.workQueueLimit)
    loop = ServerLoop(configuration: configuration, routes: routes, pool: pool)
    try loop.start(name: "http-service") { [loop] in try loop.makeContext() }
    port = loop.boundPort
  }

  /// Graceful shutdown: stop accepting (new connections are closed at once), let requests in
  /// flight finish and be answered, close every WebSocket with `1001` (going away), and end —
  /// within `timeout` seconds, after which whatever is left is closed. Blocks until done.
  public func shutdown(timeout: TimeInterval = 10) {
    let deadline = Date().addingTimeInterval(timeout)
    loop.post(.shutdown)
    if !loop.waitUntilStopped(timeout: max(0, timeout - 0.5)) {
      loop.post(.stop)
      loop.waitUntilStopped(timeout: max(0.5, deadline.timeIntervalSinceNow))
    }
    loop.pool.stop()
  }

  /// Open connections (HTTP and WebSocket) that have sent a request, for tests and `/readyz`.
  public var openConnections: Int { loop.openConnections }

  /// WebSocket writable callbacks that wrote messages and the messages they wrote (tests).
  var webSocketWrites: (callbacks: Int, messages: Int) { loop.frames.counts.now }

  /// Whether the service thread runs on libev's epoll loop (tests).
  var runsOnEpoll: Bool { loop.runsOnEpoll }
}

/// An error of the transport itself.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `listen_failed`, `invalid_tls_file`, `client_failed`.
  public var code: String
  public var message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

/// The server's service-thread state.
private final class ServerLoop: EventLoop, @unchecked Sendable {
  let configuration: HTTPServer.Configuration
  let routes: HTTPServer.Routes
  let pool: WorkerPool
  var boundPort = 0
  private var context: OpaquePointer?
  private var stopping = false
  private let countLock = NSLock()
  private var connectionCount = 0

  /// One HTTP connection's transaction in progress.
  final class HTTPState {
    var request: HTTPRequest?
    var inFlight = false
    var response: HTTPResponse?
    var offset = 0
    var headersSent = false
    var closeAfter = false
    var bodyLimitExceeded = false
    /// The request declared a body (Content-Length > 0 or chunked): it is dispatched at
    /// LWS_CALLBACK_HTTP_BODY_COMPLETION, and only then. lws also sends that callback for an
    /// explicit `Content-Length: 0`, after the request was already dispatched at LWS_CALLBACK_HTTP.
    var awaitingBody = false
  }

  private var http: [UInt64: HTTPState] = [:]
  private var sockets: [UInt64: SocketState] = [:]
  private var upgrades: [UInt64: HTTPRequest] = [:]
  private var wsiByID: [UInt64: OpaquePointer] = [:]
  /// Every accepted connection still open (whether or not it has sent a request), by id: the
  /// count ``HTTPServer/Configuration/maxConnections`` caps.
  private var accepted: Set<UInt64> = []

  init(configuration: HTTPServer.Configuration, routes: HTTPServer.Routes, pool: WorkerPool) {
    self.configuration = configuration
    self.routes = routes
    self.pool = pool
    super.init(pingSeconds: configuration.webSocketPingSeconds, hangupSeconds: configuration.webSocketIdleSeconds)
  }

  var openConnections: Int { countLock.withLock { connectionCount } }

  private func updateCount() {
    let count = http.count + sockets.count
    countLock.withLock { connectionCount = count }
  }

  func makeContext() throws -> OpaquePointer {
    // lws's own log lines never reach the user: failures come back as ``TransportError``s.
    lws_set_log_level(0, nil)
    var info = lws_context_creation_info()
    prepare(&info)
    info.port = Int32(configuration.port)
    let iface = strdup(configuration.host)
    defer { free(iface) }
    info.iface = UnsafePointer(iface)
    info.max_http_header_data = UInt16(clamping: configuration.maxHeaderBytes)
    info.timeout_secs = UInt32(configuration.clientTimeoutSeconds)
    info.timeout_secs_ah_idle = UInt32(configuration.clientTimeoutSeconds)
    info.keepalive_timeout = Int32(configuration.keepAliveSeconds)
    // lws sizes its socket table to the process's open-file limit and indexes it by descriptor;
    // a smaller `fd_limit_per_thread` would make it search the table linearly on every event
    // (see ``OpenFiles``), so the limit is raised instead and the cap enforced on accept.
    OpenFiles.raise(toAtLeast: configuration.maxConnections + 64)
    info.fd_limit_per_thread = 0
    info.options |= travel_lws_option_validate_utf8()
    if !configuration.host.contains(":") { info.options |= travel_lws_option_disable_ipv6() }
    let cert = configuration.tlsCertificate.map { strdup($0) }
    let key = configuration.tlsKey.map { strdup($0) }
    let alpn = strdup("http/1.1")
    defer {
      cert.map { free($0) }
      key.map { free($0) }
      free(alpn)
    }
    if let cert, let key, let certificatePath = configuration.tlsCertificate, let keyPath = configuration.tlsKey {
      try TLSFiles.validate(certificate: certificatePath, key: keyPath)
      info.options |= travel_lws_option_ssl_global_init()
      info.ssl_cert_filepath = UnsafePointer(cert)
      info.ssl_private_key_filepath = UnsafePointer(key)
      info.alpn = UnsafePointer(alpn)
    }
    let address = "\(configuration.host):\(configuration.port)"
    if let problem = ListenProblem.unusableHost(configuration.host) {
      throw TransportError(code: "listen_failed", message: "cannot listen on \(address): \(problem)")
    }
    guard let context = lws_create_context(&info) else {
      let problem =
        ListenProblem.diagnose(host: configuration.host, port: configuration.port)
        ?? "the listening socket could not be set up"
      throw TransportError(code: "listen_failed", message: "cannot listen on \(address): \(problem)")
    }
    guard let vhost = lws_get_vhost_by_name(context, "default") else {
      lws_context_destroy(context)
      throw TransportError(
        code: "listen_failed", message: "cannot listen on \(configuration.host):\(configuration.port)")
    }
    boundPort = Int(lws_get_vhost_listen_port(vhost))
    guard boundPort > 0 else {
      lws_context_destroy(context)
      throw TransportError(code: "listen_failed", message: "cannot listen on \(address): no listening socket was made")
    }
    self.context = context
    return context
  }

  // MARK: Commands

  override func run(_ command: Command) {
    switch command {
    case .respond(let id, let response):
      // Only the answer of the request in flight is written: one request, one response.
      guard let state = http[id], state.inFlight, let wsi = wsiByID[id] else { return }
      state.response = response
      state.inFlight = false
      lws_callback_on_writable(wsi)
    case .send(let id, let data):
      queue(data, on: id)
    case .broadcast(let ids, let data):
      for id in ids { queue(data, on: id) }
    case .close(let id, let code, let reason):
      guard let socket = sockets[id], let wsi = wsiByID[id], socket.closing == nil else { return }
      socket.closing = (code, reason)
      lws_callback_on_writable(wsi)
    case .sweep:
      sweep(sockets, wsiByID)
    case .shutdown:
      beginShutdown()
    case .stop:
      finished = true
    case .connect:
      break
    }
  }

  /// Queues `data` on socket `id`'s outbox; a reader too slow for its bounded outbox is cut off.
  private func queue(_ data: Data, on id: UInt64) {
    guard let socket = sockets[id], let wsi = wsiByID[id], socket.closing == nil else { return }
    if !socket.enqueue(
      data, wsi, maxMessages: configuration.webSocketOutboxMessages, maxBytes: configuration.webSocketOutboxBytes)
    {
      // A slow reader: cut it off now (its socket buffer is full, so no close frame would get through).
      socket.closing = (1008, "outbox full: the client reads too slowly")
      LWS.kill(wsi)
    }
  }

  private func beginShutdown() {
    stopping = true
    for (id, socket) in sockets where socket.closing == nil {
      socket.closing = (1001, "server shutting down")
      if let wsi = wsiByID[id] { lws_callback_on_writable(wsi) }
    }
    for (id, state) in http {
      if state.inFlight || state.response != nil || state.request != nil {
        state.closeAfter = true
      } else if let wsi = wsiByID[id] {
        LWS.kill(wsi)
      }
    }
    finishIfDrained()
  }

  private func finishIfDrained() {
    if stopping && http.isEmpty && sockets.isEmpty { finished = true }
  }

  // MARK: Callbacks

  override func handle(
    _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      drainInbox()
      return 0
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
      // Nonzero closes the socket just accepted.
      return stopping || accepted.count >= configuration.maxConnections ? 1 : 0
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
      accepted.insert(register(wsi))
      return 0
    case LWS_CALLBACK_WSI_DESTROY:
      let id = LWS.id(of: wsi)
      if id != 0 {
        accepted.remove(id)
        forget(id)
      }
      return 0
    case LWS_CALLBACK_HTTP:
      return beginRequest(wsi, input, length)
    case LWS_CALLBACK_HTTP_BODY:
      return receiveBody(wsi, input, length)
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
      return completeBody(wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
      return writeResponse(wsi)
    case LWS_CALLBACK_CLOSED_HTTP:
      forget(LWS.id(of: wsi))
      return 0
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
      return filterUpgrade(wsi)
    case LWS_CALLBACK_ESTABLISHED:
      return openSocket(wsi)
    case LWS_CALLBACK_RECEIVE:
      guard let socket = sockets[LWS.id(of: wsi)] else { return -1 }
      if let (code, reason) = socket.receive(
        wsi, input, length, limit: configuration.webSocketMaxMessageBytes)
      {
        socket.closing = (code, reason)
        socket.outbox.removeAll()
        socket.outboxHead = 0
        socket.outboxBytes = 0
        lws_callback_on_writable(wsi)
      }
      return 0
    case LWS_CALLBACK_RECEIVE_PONG:
      sockets[LWS.id(of: wsi)]?.heard()
      return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
      guard let socket = sockets[LWS.id(of: wsi)] else { return -1 }
      return socket.writeNext(wsi, through: frames)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      sockets[LWS.id(of: wsi)]?.recordPeerClose(input, length)
      return 0
    case LWS_CALLBACK_CLOSED:
      forget(LWS.id(of: wsi))
      return 0
    default:
      return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
  }

  private func forget(_ id: UInt64) {
    guard id != 0 else { return }
    http[id] = nil
    upgrades[id] = nil
    wsiByID[id] = nil
    if let socket = sockets.removeValue(forKey: id) {
      socket.deliver(.closed(code: socket.ending.code, reason: socket.ending.reason))
    }
    updateCount()
    finishIfDrained()
  }

  private static let methods: [(lws_token_indexes, String)] = [
    (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_PUT_URI, "PUT"),
    (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_DELETE_URI, "DELETE"), (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
    (WSI_TOKEN_HEAD_URI, "HEAD"),
  ]

  private static let knownHeaders: [(lws_token_indexes, String)] = [
    (WSI_TOKEN_HTTP_AUTHORIZATION, "authorization"), (WSI_TOKEN_HTTP_CONTENT_TYPE, "content-type"),
    (WSI_TOKEN_HTTP_CONTENT_LENGTH, "content-length"), (WSI_TOKEN_HTTP_USER_AGENT, "user-agent"),
    (WSI_TOKEN_HOST, "host"), (WSI_TOKEN_HTTP_ACCEPT, "accept"),
    (WSI_TOKEN_HTTP_TRANSFER_ENCODING, "transfer-encoding"), (WSI_TOKEN_X_FORWARDED_FOR, "x-forwarded-for"),
    // A token of lws's own (Debian builds it with LWS_WITH_HTTP_UNCOMMON_HEADERS), so never a
    // custom header: read as one, it was always missing.
    (WSI_TOKEN_HTTP_X_REAL_IP, "x-real-ip"),
  ]

  /// The request line and headers of `wsi` (service thread, while lws still has them).
  private func readRequest(_ wsi: OpaquePointer, path: String) -> HTTPRequest {
    var headers: [String: String] = [:]
    for (token, name) in Self.knownHeaders {
      if let value = LWS.header(wsi, token) { headers[name] = value }
    }
    for name in configuration.customHeaders {
      if let value = LWS.customHeader(wsi, name) { headers[name] = value }
    }
    let method = Self.methods.first(where: { lws_hdr_total_length(wsi, $0.0) > 0 }).map(\.1) ?? "GET"
    return HTTPRequest(
      method: method, path: path, query: LWS.query(wsi), headers: headers, remoteAddress: LWS.peer(wsi))
  }

  private func register(_ wsi: OpaquePointer) -> UInt64 {
    var id = LWS.id(of: wsi)
    if id == 0 {
      id = ConnectionIDs.next()
      LWS.setID(id, on: wsi)
    }
    wsiByID[id] = wsi
    return id
  }

  private func beginRequest(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    let id = register(wsi)
    let state = http[id] ?? HTTPState()
    http[id] = state
    updateCount()
    let path = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? "/"
    var request = readRequest(wsi, path: path.isEmpty ? "/" : path)
    state.request = request
    state.response = nil
    state.offset = 0
    state.headersSent = false
    state.bodyLimitExceeded = false
    state.awaitingBody = false
    if stopping {
      state.closeAfter = true
      answerNow(wsi, state, routes.rejection(request, .shuttingDown))
      return 0
    }
    if Self.methods.allSatisfy({ lws_hdr_total_length(wsi, $0.0) <= 0 }) {
      answerNow(wsi, state, routes.rejection(request, .malformed("unsupported method")))
      return 0
    }
    let declared = request.headers["content-length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    if let declared, declared > configuration.maxBodyBytes {
      state.closeAfter = true
      answerNow(wsi, state, routes.rejection(request, .bodyTooLarge(limit: configuration.maxBodyBytes)))
      return 0
    }
    let expectsBody =
      (declared ?? 0) > 0 || request.headers["transfer-encoding"]?.lowercased().contains("chunked") == true
    if expectsBody {
      request.body.reserveCapacity(declared ?? 1024)
      state.request = request
      state.awaitingBody = true
      return 0  // The body follows in LWS_CALLBACK_HTTP_BODY.
    }
    dispatch(wsi, id, state)
    return 0
  }

  private func receiveBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let state = http[LWS.id(of: wsi)], var request = state.request else { return -1 }
    if state.bodyLimitExceeded { return 0 }
    if request.body.count + length > configuration.maxBodyBytes {
      state.bodyLimitExceeded = true
      state.closeAfter = true
      request.body = Data()
      state.request = request
      answerNow(wsi, state, routes.rejection(request, .bodyTooLarge(limit: configuration.maxBodyBytes)))
      return 0
    }
    if let input, length > 0 { request.body.append(input.assumingMemoryBound(to: UInt8.self), count: length) }
    state.request = request
    return 0
  }

  private func completeBody(_ wsi: OpaquePointer) -> Int32 {
    let id = LWS.id(of: wsi)
    guard let state = http[id], state.awaitingBody, !state.bodyLimitExceeded else { return 0 }
    state.awaitingBody = false
    dispatch(wsi, id, state)
    return 0
  }

  /// Sends the request to a worker; the response comes back as `.respond`.
  private func dispatch(_ wsi: OpaquePointer, _ id: UInt64, _ state: HTTPState) {
    guard !state.inFlight, state.response == nil, var pending = state.request else { return }
    pending.receivedAt = Date()
    let request = pending
    state.inFlight = true
    let routes = routes
    let accepted = pool.submit { [weak self] in
      let started = Date()
      let response = routes.http(request)
      routes.completed(request, response, Date().timeIntervalSince(started))
      self?.post(.respond(id, response))
    }
    if accepted {
      lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(configuration.handlerTimeoutSeconds))
    } else {
      state.inFlight = false
      answerNow(wsi, state, routes.rejection(request, .overloaded))
    }
  }

  /// Answers on the service thread without a worker (rejections), logging it like any other.
  private func answerNow(_ wsi: OpaquePointer, _ state: HTTPState, _ response: HTTPResponse) {
    state.response = response
    if let request = state.request {
      let routes = routes
      pool.submit { routes.completed(request, response, 0) }
    }
    lws_callback_on_writable(wsi)
  }

  private func writeResponse(_ wsi: OpaquePointer) -> Int32 {
    let id = LWS.id(of: wsi)
    guard let state = http[id], let response = state.response else { return 0 }
    let close = response.closeConnection || state.closeAfter
    if !state.headersSent {
      guard writeHeaders(wsi, response, close: close) else { return -1 }
      state.headersSent = true
      if response.body.isEmpty { return finishTransaction(wsi, state, close: close) }
      lws_callback_on_writable(wsi)
      return 0
    }
    let chunk = min(16 * 1024, response.body.count - state.offset)
    let last = state.offset + chunk == response.body.count
    var buffer = [UInt8](repeating: 0, count: LWS.pre + chunk)
    buffer.replaceSubrange(LWS.pre..<(LWS.pre + chunk), with: response.body[state.offset..<(state.offset + chunk)])
    let written = buffer.withUnsafeMutableBufferPointer { raw in
      lws_write(wsi, raw.baseAddress! + LWS.pre, chunk, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
    }
    guard written >= 0 else { return -1 }
    state.offset += chunk
    if !last {
      lws_callback_on_writable(wsi)
      return 0
    }
    return finishTransaction(wsi, state, close: close)
  }

  private func finishTransaction(_ wsi: OpaquePointer, _ state: HTTPState, close: Bool) -> Int32 {
    state.request = nil
    state.response = nil
    state.offset = 0
    state.headersSent = false
    if close || stopping { return -1 }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
  }

  private func writeHeaders(_ wsi: OpaquePointer, _ response: HTTPResponse, close: Bool) -> Bool {
    var buffer = [UInt8](repeating: 0, count: LWS.pre + 4096)
    return buffer.withUnsafeMutableBufferPointer { raw -> Bool in
      let start = raw.baseAddress! + LWS.pre
      let end = raw.baseAddress! + raw.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      func add(_ token: lws_token_indexes, _ value: String) -> Bool {
        var bytes = Array(value.utf8)
        return lws_add_http_header_by_token(wsi, token, &bytes, Int32(bytes.count), &cursor, end) == 0
      }
      guard lws_add_http_header_status(wsi, UInt32(response.status), &cursor, end) == 0,
        Self.setReasonPhrase(of: response.status, start: start, cursor: &cursor, end: end),
        add(WSI_TOKEN_HTTP_CONTENT_TYPE, response.contentType),
        lws_add_http_header_content_length(wsi, UInt64(response.body.count), &cursor, end) == 0
      else { return false }
      for (name, value) in response.headers {
        var nameBytes = Array((name.lowercased() + ":").utf8) + [0]
        var valueBytes = Array(value.utf8)
        guard
          lws_add_http_header_by_name(wsi, &nameBytes, &valueBytes, Int32(valueBytes.count), &cursor, end) == 0
        else { return false }
      }
      if close { guard add(WSI_TOKEN_CONNECTION, "close") else { return false } }
      guard lws_finalize_http_header(wsi, &cursor, end) == 0, let cursor else { return false }
      return lws_write(wsi, start, cursor - start, LWS_WRITE_HTTP_HEADERS) >= 0
    }
  }

  /// Rewrites the status line lws wrote at `start` (`HTTP/1.1 426 `: lws knows the phrases of
  /// 200, 304 and 400–417 only, some in old words) with RFC 9110's reason phrase, moving what lws
  /// wrote after it. Returns false when it does not fit before `end`.
  private static func setReasonPhrase(
    of status: Int, start: UnsafeMutablePointer<UInt8>, cursor: inout UnsafeMutablePointer<UInt8>?,
    end: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    guard let written = cursor, let phrase = HTTPResponse.reasonPhrase(for: status) else { return cursor != nil }
    let bytes = UnsafeBufferPointer(start: start, count: written - start)
    guard let space = bytes.firstIndex(of: UInt8(ascii: " ")),
      let lineEnd = bytes.indices.dropLast().first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 })
    else { return true }
    let line = Array(bytes[..<space]) + Array(" \(status) \(phrase)".utf8)
    let delta = line.count - lineEnd
    guard written + delta <= end else { return false }
    memmove(start + line.count, start + lineEnd, written - (start + lineEnd))
    start.update(from: line, count: line.count)
    cursor = written + delta
    return true
  }

  // MARK: WebSocket

  private func filterUpgrade(_ wsi: OpaquePointer) -> Int32 {
    guard !stopping, let path = LWS.header(wsi, WSI_TOKEN_GET_URI),
      configuration.webSocketPaths.contains(path)
    else { return 1 }
    let id = register(wsi)
    upgrades[id] = readRequest(wsi, path: path)
    return 0
  }

  private func openSocket(_ wsi: OpaquePointer) -> Int32 {
    let id = register(wsi)
    http[id] = nil
    let request = upgrades.removeValue(forKey: id) ?? HTTPRequest(method: "GET", path: "", remoteAddress: LWS.peer(wsi))
    let socket = WebSocket(id: id, request: request, sink: Sink(loop: self))
    let state = SocketState(socket: socket, mailbox: Mailbox(pool: pool))
    sockets[id] = state
    updateCount()
    let routes = routes
    state.mailbox.post { routes.webSocket(socket) }
    return 0
  }

  /// The ``FrameSink`` of this loop's sockets.
  private struct Sink: FrameSink {
    weak var loop: ServerLoop?
    func send(_ data: Data, on id: UInt64) -> Bool {
      guard let loop, loop.isRunning else { return false }
      loop.post(.send(id, data))
      return true
    }
    func send(_ data: Data, on ids: [UInt64]) {
      guard let loop, !ids.isEmpty else { return }
      loop.post(.broadcast(ids, data))
    }
    func close(_ id: UInt64, code: UInt16, reason: String) { loop?.post(.close(id, code: code, reason: reason)) }
    var loopKey: ObjectIdentifier? { loop.map { ObjectIdentifier($0) } }
  }
}
