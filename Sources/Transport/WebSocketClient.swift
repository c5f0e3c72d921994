import CLibWebSockets
import Foundation

/// WebSocket client connections (`ws://` and `wss://`) over libwebsockets, serviced by one thread
/// of their own (Foundation's `URLSessionWebSocketTask` cannot work here: Debian's libcurl has no
/// WebSocket support).
///
/// Use: `let socket = client.socket(to: url)`, subscribe to `socket.events`, then
/// `client.connect(socket)`. Events: `.opened`, `.text` messages, and `.closed` last (`1006`
/// with lws's reason when the connection could not be made or dropped). The heartbeat sends a
/// ping after `pingSeconds` without traffic and closes after `idleSeconds` without any, so a
/// dead server is noticed even when nothing is being sent.
///
/// At most `maxConnecting` connections are being opened at once (TCP connect and handshake);
/// more wait their turn in the order `connect` was called, as RFC 6455 §4.1 asks of clients
/// ("limit the total number of simultaneous pending connections to a reasonably low number").
/// Thousands of connects at once would overflow the server's listen backlog (its SYNs dropped and
/// retried seconds later) and make every connect and timer of this loop slower (libwebsockets
/// keeps its timers in one sorted list), so most would hit lws's 5 s connect timeout.
public final class WebSocketClient: Sendable {
  private let loop: ClientLoop

  /// Starts the client's service thread.
  /// - Parameters:
  ///   - pingSeconds: a ping after this many seconds without traffic.
  ///   - idleSeconds: the connection is closed (`1006`) after this many without any.
  ///   - maxMessageBytes: larger messages close the connection (`1009`).
  ///   - maxConnecting: connections being opened at once (at least 1); the rest queue.
  /// - Throws: ``TransportError`` `client_failed` when libwebsockets cannot make a context.
  public init(
    pingSeconds: Int = 15, idleSeconds: Int = 45, maxMessageBytes: Int = 4 << 20, maxConnecting: Int = 64
  ) throws {
    let pool = WorkerPool(name: "ws-client", threads: 2, queueLimit: 100_000)
    loop = ClientLoop(
      pool: pool, pingSeconds: pingSeconds, idleSeconds: idleSeconds, maxMessageBytes: maxMessageBytes,
      maxConnecting: max(1, maxConnecting))
    try loop.start(name: "ws-client-service") { [loop] in try loop.makeContext() }
  }

  /// A socket for `url` (`ws://host:port/path?query`), not yet connected.
  public func socket(to url: URL) -> WebSocket {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let query = (components?.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
    components?.query = nil
    return WebSocket(
      id: ConnectionIDs.next(), request: HTTPRequest(method: "GET", path: url.path, query: query),
      sink: ClientSink(loop: loop))
  }

  /// Connects `socket` to its URL; the outcome arrives on its events.
  public func connect(_ socket: WebSocket, to url: URL) { loop.post(.connect(socket, url)) }

  /// Writable callbacks that wrote messages and the messages they wrote (tests).
  var writes: (callbacks: Int, messages: Int) { loop.frames.counts.now }

  /// Whether the service thread runs on libev's epoll loop (tests).
  var runsOnEpoll: Bool { loop.runsOnEpoll }

  /// Closes every connection (1001) and stops the service thread.
  public func shutdown() {
    loop.post(.shutdown)
    loop.waitUntilStopped(timeout: 3)
    loop.pool.stop()
  }

  deinit { shutdown() }
}

private struct ClientSink: FrameSink {
  let loop: ClientLoop
  func send(_ data: Data, on id: UInt64) -> Bool {
    guard loop.isRunning else { return false }
    loop.post(.send(id, data))
    return true
  }
  func send(_ data: Data, on ids: [UInt64]) {
    guard loop.isRunning, !ids.isEmpty else { return }
    loop.post(.broadcast(ids, data))
  }
  func close(_ id: UInt64, code: UInt16, reason: String) { loop.post(.close(id, code: code, reason: reason)) }
  var loopKey: ObjectIdentifier? { ObjectIdentifier(loop) }
}

private final class ClientLoop: EventLoop, @unchecked Sendable {
  let pool: WorkerPool
  let maxMessageBytes: Int
  let maxConnecting: Int
  private var sockets: [UInt64: SocketState] = [:]
  private var wsiByID: [UInt64: OpaquePointer] = [:]
  /// Sockets whose connection is being opened (connect called, not yet established or ended).
  private var connecting: Set<UInt64> = []
  /// Connects waiting for a place among ``connecting``, first come first served (from `waitingHead`).
  private var waiting: [(socket: WebSocket, url: URL)] = []
  private var waitingHead = 0
  /// Set while ``startWaiting()`` runs: a connect failing at once ends inside it, and must not recurse.
  private var starting = false
  private var stopping = false

  init(pool: WorkerPool, pingSeconds: Int, idleSeconds: Int, maxMessageBytes: Int, maxConnecting: Int) {
    self.pool = pool
    self.maxMessageBytes = maxMessageBytes
    self.maxConnecting = maxConnecting
    super.init(pingSeconds: pingSeconds, hangupSeconds: idleSeconds)
  }

  func makeContext() throws -> OpaquePointer {
    // lws's own log lines never reach the user: a connection's end carries the reason.
    lws_set_log_level(0, nil)
    // The context's socket table is sized to the open-file limit now (see ``OpenFiles``).
    OpenFiles.raise()
    var info = lws_context_creation_info()
    prepare(&info)
    info.port = CONTEXT_PORT_NO_LISTEN
    info.options |= travel_lws_option_ssl_global_init()
    guard let context = lws_create_context(&info) else {
      throw TransportError(code: "client_failed", message: "cannot start the WebSocket client")
    }
    return context
  }

  override func run(_ command: Command) {
    switch command {
    case .connect(let socket, let url):
      guard !stopping else {
        SocketState(socket: socket, mailbox: Mailbox(pool: pool))
          .deliver(.closed(code: 1006, reason: "cannot connect to \(url.absoluteString): the client is shutting down"))
        return
      }
      // Known from now on (a send waits in its outbox, a close ends it), connected in turn.
      sockets[socket.id] = SocketState(socket: socket, mailbox: Mailbox(pool: pool))
      waiting.append((socket, url))
      startWaiting()
    case .send(let id, let data):
      queue(data, on: id)
    case .broadcast(let ids, let data):
      for id in ids { queue(data, on: id) }
    case .close(let id, let code, let reason):
      guard let state = sockets[id], state.closing == nil else { return }
      state.closing = (code, reason)
      if let wsi = wsiByID[id] {
        lws_callback_on_writable(wsi)
      } else if !connecting.contains(id) {
        // Still waiting its turn: it never connects.
        sockets[id] = nil
        state.deliver(.closed(code: code, reason: reason))
      }
    case .shutdown:
      stopping = true
      for (id, state) in sockets where state.closing == nil {
        state.closing = (1001, "client shutting down")
        if let wsi = wsiByID[id] {
          lws_callback_on_writable(wsi)
        } else if !connecting.contains(id) {
          sockets[id] = nil
          state.deliver(.closed(code: 1001, reason: "client shutting down"))
        }
      }
      waiting.removeAll()
      waitingHead = 0
      if sockets.isEmpty { finished = true }
    case .sweep:
      sweep(sockets, wsiByID)
    case .stop:
      finished = true
    case .respond:
      break
    }
  }

  /// Queues `data` on socket `id`; before the handshake completes it waits in the outbox (sent
  /// once established).
  private func queue(_ data: Data, on id: UInt64) {
    guard let state = sockets[id], state.closing == nil else { return }
    _ = state.enqueue(data, wsiByID[id])
  }

  override func willDestroy() {
    for state in sockets.values { state.deliver(.closed(code: 1001, reason: "client shut down")) }
    sockets.removeAll()
  }

  /// Opens waiting connections while fewer than ``maxConnecting`` are being opened.
  private func startWaiting() {
    guard !starting else { return }
    starting = true
    defer { starting = false }
    while connecting.count < maxConnecting, waitingHead < waiting.count {
      let (socket, url) = waiting[waitingHead]
      waitingHead += 1
      // One closed while it waited is already gone.
      if let state = sockets[socket.id], state.closing == nil { connect(socket, url, state) }
    }
    if waitingHead == waiting.count {
      waiting.removeAll(keepingCapacity: true)
      waitingHead = 0
    } else if waitingHead > 1024, waitingHead * 2 > waiting.count {
      waiting.removeFirst(waitingHead)
      waitingHead = 0
    }
  }

  private func connect(_ socket: WebSocket, _ url: URL, _ state: SocketState) {
    guard let host = url.host, let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss" else {
      sockets[socket.id] = nil
      state.deliver(.closed(code: 1006, reason: "cannot connect to \(url.absoluteString): expected ws:// or wss://"))
      return
    }
    connecting.insert(socket.id)
    let port = url.port ?? (scheme == "wss" ? 443 : 80)
    var path = url.path.isEmpty ? "/" : url.path
    if let query = url.query { path += "?" + query }
    let strings = [host, path, "\(host):\(port)", EventLoop.protocolName].map { $0.withCString { strdup($0)! } }
    defer { strings.forEach { free($0) } }
    var info = lws_client_connect_info()
    info.context = contextPointer
    info.address = UnsafePointer(strings[0])
    info.port = Int32(port)
    info.path = UnsafePointer(strings[1])
    info.host = UnsafePointer(strings[2])
    info.origin = UnsafePointer(strings[2])
    info.protocol = UnsafePointer(strings[3])
    info.ssl_connection = scheme == "wss" ? Int32(LCCSCF_USE_SSL.rawValue) : 0
    info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(socket.id))
    info.retry_and_idle_policy = idlePolicy
    info.ietf_version_or_minus_one = -1
    if lws_client_connect_via_info(&info) == nil, sockets[socket.id] != nil {
      connecting.remove(socket.id)
      sockets[socket.id] = nil
      state.deliver(.closed(code: 1006, reason: "cannot connect to \(url.absoluteString)"))
    }
  }

  private var contextPointer: OpaquePointer?

  override func didStart(_ context: OpaquePointer) { contextPointer = context }

  override func handle(
    _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      drainInbox()
      return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
      let id = LWS.id(of: wsi)
      if connecting.remove(id) != nil { startWaiting() }
      guard let state = sockets[id] else { return -1 }
      wsiByID[id] = wsi
      state.heard()
      state.deliver(.opened)
      if state.pending > 0 || state.closing != nil { lws_callback_on_writable(wsi) }
      return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
      guard let state = sockets[LWS.id(of: wsi)] else { return -1 }
      if let (code, reason) = state.receive(wsi, input, length, limit: maxMessageBytes) {
        state.closing = (code, reason)
        lws_callback_on_writable(wsi)
      }
      return 0
    case LWS_CALLBACK_CLIENT_RECEIVE_PONG:
      sockets[LWS.id(of: wsi)]?.heard()
      return 0
    case LWS_CALLBACK_CLIENT_WRITEABLE:
      guard let state = sockets[LWS.id(of: wsi)] else { return -1 }
      return state.writeNext(wsi, through: frames)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      sockets[LWS.id(of: wsi)]?.recordPeerClose(input, length)
      return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
      let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
      end(LWS.id(of: wsi), fallback: (1006, message))
      return 0
    case LWS_CALLBACK_CLIENT_CLOSED:
      end(LWS.id(of: wsi), fallback: nil)
      return 0
    case LWS_CALLBACK_CLOSED_CLIENT_HTTP, LWS_CALLBACK_WSI_DESTROY:
      // The last word on a connection, whichever way it ended (one that closed during the
      // handshake may report neither of the above): its place among the connecting is freed and
      // its socket ends, once.
      end(LWS.id(of: wsi), fallback: (1006, "connection closed before the handshake completed"))
      return 0
    default:
      return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
  }

  private func end(_ id: UInt64, fallback: (UInt16, String)?) {
    wsiByID[id] = nil
    if connecting.remove(id) != nil, !stopping { startWaiting() }
    guard let state = sockets.removeValue(forKey: id) else { return }
    let ending = state.peerClose ?? fallback.map { (code: $0.0, reason: $0.1) } ?? state.ending
    state.deliver(.closed(code: ending.code, reason: ending.reason))
    if stopping && sockets.isEmpty { finished = true }
  }
}
