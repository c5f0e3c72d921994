import Foundation
import Reactive
import Testing

@testable import Transport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A raw TCP connection to the loopback server, for what URLSession hides (keep-alive, partial
/// requests, oversized headers).
final class RawConnection {
  let fd: Int32

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if result != 0 { throw TransportError(code: "connect", message: "connect failed") }
  }

  deinit { Glibc.close(fd) }

  func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Reads one HTTP response with a Content-Length body; nil on EOF or timeout.
  func readResponse() -> (status: Int, headers: [String: String], body: String, statusLine: String)? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let range = data.range(of: Data("\r\n\r\n".utf8)) {
        let head = String(decoding: data[..<range.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while data.count - range.upperBound < length {
          let n = recv(fd, &buffer, buffer.count, 0)
          if n <= 0 { return nil }
          data.append(buffer, count: n)
        }
        let body = String(decoding: data[range.upperBound..<(range.upperBound + length)], as: UTF8.self)
        return (
          Int(statusLine.count > 1 ? statusLine[1] : "0") ?? 0, headers, body, statusLine.joined(separator: " ")
        )
      }
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { return nil }
      data.append(buffer, count: n)
    }
  }

  /// Whether the server closed the connection (EOF) within the receive timeout.
  func isClosedByPeer() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n == 0 { return true }
      if n < 0 { return errno == ECONNRESET }
    }
  }
}

/// Collects a socket's events for assertions.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [WebSocketEvent] = []
  private var cancellable: AnyCancellable?

  init(_ socket: WebSocket) {
    cancellable = socket.events.sink { [self] event in lock.withLock { events.append(event) } }
  }

  var all: [WebSocketEvent] { lock.withLock { events } }

  /// Waits up to `timeout` seconds for an event matching `predicate`.
  func wait(_ timeout: TimeInterval = 5, for predicate: (WebSocketEvent) -> Bool) -> WebSocketEvent? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let found = all.first(where: predicate) { return found }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return nil
  }
}

/// Keeps the echo server's subscriptions alive.
final class Subscriptions: @unchecked Sendable {
  private let lock = NSLock()
  private var all: [AnyCancellable] = []
  func keep(_ cancellable: AnyCancellable) { lock.withLock { all.append(cancellable) } }
}

let subscriptions = Subscriptions()

/// A thread-safe count of handler calls.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func next() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
  var value: Int { lock.withLock { count } }
}

func echoServer(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
  var configuration = HTTPServer.Configuration(port: 0, maxBodyBytes: 1024, webSocketPaths: ["/stream"])
  configure(&configuration)
  let routes = HTTPServer.Routes(
    http: { request in
      if request.path == "/slow" { Thread.sleep(forTimeInterval: 0.5) }
      let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      let text =
        "\(request.method) \(request.path) \(query) key=\(request.header("Idempotency-Key") ?? "-") body=\(String(decoding: request.body, as: UTF8.self))"
      return HTTPResponse(
        status: request.path == "/missing" ? 404 : 200, contentType: "text/plain", headers: [("X-Echo", "yes")],
        body: Data(text.utf8))
    },
    webSocket: { socket in
      subscriptions.keep(
        socket.events.sink { event in
          if case .text(let text) = event {
            if text == "flood" {
              for index in 0..<200_000 { if !socket.send(String(repeating: "x", count: 1000) + "\(index)") { break } }
            } else if text == "bye" {
              socket.close(code: 4000, reason: "asked to")
            } else {
              socket.send("echo: " + text)
            }
          }
        })
    })
  return try HTTPServer(configuration: configuration, routes: routes)
}

@Suite(.timeLimit(.minutes(1)))
struct HTTPServerTests {
  /// X-Real-IP is a header lws parses itself (a token, not a custom header): a proxy's X-Real-IP
  /// reaches the handler (travel-server's --trusted-proxy reads it).
  @Test func aProxysXRealIPReachesTheHandler() async throws {
    let routes = HTTPServer.Routes(http: { request in
      HTTPResponse(
        status: 200, contentType: "text/plain",
        body: Data("\(request.header("X-Real-IP") ?? "-") \(request.header("X-Forwarded-For") ?? "-")".utf8))
    })
    let server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0), routes: routes)
    defer { server.shutdown(timeout: 2) }
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/whoami")!)
    request.setValue("203.0.113.7", forHTTPHeaderField: "X-Real-IP")
    request.setValue("203.0.113.7, 10.0.0.1", forHTTPHeaderField: "X-Forwarded-For")
    let (data, _) = try await URLSession.shared.data(for: request)
    #expect(String(decoding: data, as: UTF8.self) == "203.0.113.7 203.0.113.7, 10.0.0.1")
  }

  @Test func urlSessionGetAndPost() async throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    #expect(server.port > 0)
    let url = URL(string: "http://127.0.0.1:\(server.port)/v1/echo?name=Ada%20L&x=1")!
    let (data, response) = try await URLSession.shared.data(from: url)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Echo") == "yes")
    #expect(String(decoding: data, as: UTF8.self) == "GET /v1/echo name=Ada L&x=1 key=- body=")

    var post = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/things")!)
    post.httpMethod = "POST"
    post.httpBody = Data(#"{"a":1}"#.utf8)
    post.setValue("k-1", forHTTPHeaderField: "Idempotency-Key")
    let (posted, postResponse) = try await URLSession.shared.data(for: post)
    #expect((postResponse as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: posted, as: UTF8.self) == #"POST /v1/things  key=k-1 body={"a":1}"#)
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    for index in 0..<3 {
      connection.write("GET /n\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      let response = try #require(connection.readResponse())
      #expect(response.status == 200)
      #expect(response.body.hasPrefix("GET /n\(index) "))
    }
    connection.write("DELETE /missing HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(connection.readResponse()?.status == 404)
  }

  /// A POST with an explicit `Content-Length: 0` (what URLSession sends for a body-less POST) is
  /// handled once and answered once: lws also reports its (empty) body as complete, which once
  /// dispatched it a second time, so a cancel ran twice and the stray second answer was read by
  /// the next request on the same keep-alive connection.
  @Test func anEmptyPostIsHandledOnceAndAnsweredOnce() throws {
    let calls = Counter()
    let server = try HTTPServer(
      configuration: HTTPServer.Configuration(port: 0),
      routes: HTTPServer.Routes(
        http: { request in
          let count = calls.next()
          return HTTPResponse(
            status: 200, contentType: "text/plain", body: Data("\(request.method) \(request.path) #\(count)".utf8))
        },
        webSocket: { _ in }))
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    for index in 0..<20 {
      connection.write("POST /cancel/\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
      #expect(try #require(connection.readResponse()).body == "POST /cancel/\(index) #\(2 * index + 1)")
      connection.write("GET /after/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try #require(connection.readResponse()).body == "GET /after/\(index) #\(2 * index + 2)")
    }
    Thread.sleep(forTimeInterval: 0.2)
    #expect(calls.value == 40)
  }

  @Test func oversizedBodyIs413BeforeItIsRead() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    connection.write("POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
    let response = try #require(connection.readResponse())
    #expect(response.status == 413)
    #expect(connection.isClosedByPeer())
  }

  @Test func bodyAtTheLimitIsServed() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    let body = String(repeating: "b", count: 1024)
    connection.write("POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + body)
    let response = try #require(connection.readResponse())
    #expect(response.status == 200)
    #expect(response.body.hasSuffix(body))
  }

  @Test func slowClientIsDropped() throws {
    let server = try echoServer { $0.clientTimeoutSeconds = 1 }
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    connection.write("GET /v1/x HTTP/1.1\r\nHost: x\r\n")  // never finishes its headers
    let started = Date()
    #expect(connection.isClosedByPeer())
    #expect(Date().timeIntervalSince(started) < 4.5)
  }

  @Test func oversizedHeadersAreRefused() throws {
    let server = try echoServer { $0.maxHeaderBytes = 1024 }
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    connection.write("GET /v1/x HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 4000))\r\n\r\n")
    let response = connection.readResponse()
    #expect(response == nil || response?.status != 200)
  }

  @Test func shutdownFinishesRequestsInFlight() throws {
    let server = try echoServer()
    let connection = try RawConnection(port: server.port)
    connection.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
    Thread.sleep(forTimeInterval: 0.1)
    let started = Date()
    server.shutdown(timeout: 5)
    #expect(Date().timeIntervalSince(started) < 5)
    let response = try #require(connection.readResponse())
    #expect(response.status == 200)
    #expect(throws: (any Error).self) { _ = try RawConnection(port: server.port).readResponse().map { $0 }.orThrow() }
  }
}

extension Optional {
  func orThrow() throws -> Wrapped {
    guard let self else { throw TransportError(code: "none", message: "nil") }
    return self
  }
}

@Suite(.timeLimit(.minutes(1)))
struct WebSocketTests {
  @Test func echoAndCloseCodes() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream?token=t")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { $0 == .opened } != nil)
    socket.send("hello")
    socket.send("wörld")
    #expect(log.wait { $0 == .text("echo: wörld") } != nil)
    #expect(
      log.all.filter { if case .text = $0 { true } else { false } } == [.text("echo: hello"), .text("echo: wörld")])
    socket.send("bye")
    let closed = log.wait { if case .closed = $0 { true } else { false } }
    #expect(closed == .closed(code: 4000, reason: "asked to"))
  }

  @Test func unknownPathIsRefused() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/elsewhere")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { if case .closed = $0 { true } else { false } } != nil)
    #expect(!log.all.contains(.opened))
  }

  @Test func unreachableServerEndsWith1006() throws {
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:1/stream")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    let closed = log.wait { if case .closed = $0 { true } else { false } }
    guard case .closed(let code, _)? = closed else {
      Issue.record("no close event")
      return
    }
    #expect(code == 1006)
  }

  @Test func shutdownClosesSocketsWith1001() throws {
    let server = try echoServer()
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { $0 == .opened } != nil)
    server.shutdown(timeout: 5)
    let closed = log.wait { if case .closed = $0 { true } else { false } }
    guard case .closed(let code, _)? = closed else {
      Issue.record("no close event")
      return
    }
    #expect(code == 1001)
  }

  /// 2,000 idle sockets from one client loop to one server in the same process, which starts with
  /// the soft open-file limit most systems give (`ulimit -n` 1,024; both ends need a descriptor
  /// each): the loops raise the limit before making their contexts, the server keeps lws's
  /// descriptor table at the process's size (a smaller one is searched linearly on every event),
  /// the client opens its connections a few dozen at a time; all are open at once, and the last
  /// one still answers.
  @Test func twoThousandIdleSocketsStayOpen() throws {
    let count = 2000
    var original = rlimit()
    #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) == 0)
    try #require(original.rlim_max >= 2 * rlim_t(count) + 256, "ulimit -Hn is too low for this test")
    if original.rlim_cur > 1024 {
      var lowered = original
      lowered.rlim_cur = 1024
      #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0)
    }
    defer {
      var now = rlimit()
      getrlimit(Int32(RLIMIT_NOFILE.rawValue), &now)
      if now.rlim_cur < original.rlim_cur { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) }
    }
    let server = try echoServer()
    defer { server.shutdown(timeout: 5) }
    let client = try WebSocketClient(pingSeconds: 60, idleSeconds: 600)
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let tally = OpenTally()
    var held: [(WebSocket, AnyCancellable)] = []
    for _ in 0..<count {
      let socket = client.socket(to: url)
      let cancellable = socket.events.sink { event in
        switch event {
        case .opened: tally.add(opened: 1)
        case .closed: tally.add(closed: 1)
        case .text: break
        }
      }
      held.append((socket, cancellable))
      client.connect(socket, to: url)
    }
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline, tally.counts.opened + tally.counts.closed < count { Thread.sleep(forTimeInterval: 0.02) }
    #expect(tally.counts == (count, 0), "\(tally.counts.opened) of \(count) opened, \(tally.counts.closed) closed")
    #expect(server.openConnections == count)
    let last = try #require(held.last?.0)
    let log = EventLog(last)
    last.send("still here")
    #expect(log.wait(10) { $0 == .text("echo: still here") } != nil)
  }

  /// Connections beyond `maxConnecting` wait their turn; one closed while waiting ends at once
  /// without connecting, and the others still open.
  @Test func connectsWaitTheirTurnAndAWaitingOneCanBeClosed() throws {
    let server = try echoServer()
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient(maxConnecting: 1)
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let sockets = (0..<4).map { _ in client.socket(to: url) }
    let logs = sockets.map(EventLog.init)
    for socket in sockets { client.connect(socket, to: url) }
    sockets[3].close(code: 1000, reason: "changed my mind")
    for log in logs.prefix(3) { #expect(log.wait { $0 == .opened } != nil) }
    #expect(
      logs[3].wait { if case .closed = $0 { true } else { false } } == .closed(code: 1000, reason: "changed my mind"))
    #expect(!logs[3].all.contains(.opened))
    sockets[2].send("third")
    #expect(logs[2].wait { $0 == .text("echo: third") } != nil)
  }

  @Test func slowReaderIsDisconnectedWithoutHoldingOthersUp() throws {
    let server = try echoServer { $0.webSocketOutboxMessages = 64 }
    defer { server.shutdown(timeout: 2) }
    // A raw client that upgrades, asks for a flood and never reads.
    let slow = try RawConnection(port: server.port)
    slow.write(
      "GET /stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Protocol: travel.v1\r\n\r\n")
    // A masked client text frame "flood".
    let payload = Array("flood".utf8)
    let mask: [UInt8] = [1, 2, 3, 4]
    var frame: [UInt8] = [0x81, 0x80 | UInt8(payload.count)] + mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    _ = frame.withUnsafeBytes { send(slow.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    // Meanwhile another client is served normally.
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { $0 == .opened } != nil)
    socket.send("ping")
    #expect(log.wait { $0 == .text("echo: ping") } != nil)
    // The slow reader is cut off: reading now, the stream ends before the whole flood (200 MB).
    #expect(slow.isClosedByPeer())
  }
}

/// Opened and closed counts of many sockets.
final class OpenTally: @unchecked Sendable {
  private let lock = NSLock()
  private var opened = 0
  private var closed = 0
  func add(opened: Int = 0, closed: Int = 0) {
    lock.withLock {
      self.opened += opened
      self.closed += closed
    }
  }
  var counts: (opened: Int, closed: Int) { lock.withLock { (opened, closed) } }
}

@Suite(.timeLimit(.minutes(1)))
struct WorkerPoolTests {
  /// A mailbox's turn is queued even when the pool's queue is full (it used to get a thread of its
  /// own: thousands of threads for thousands of new WebSockets), and runs on the pool in order.
  @Test func mailboxTurnsWaitInThePoolBeyondItsLimit() throws {
    let pool = WorkerPool(name: "test-pool", threads: 1, queueLimit: 2)
    defer { pool.stop() }
    let gate = DispatchSemaphore(value: 0)
    let running = DispatchSemaphore(value: 0)
    #expect(
      pool.submit {
        running.signal()
        gate.wait()
      })
    running.wait()
    #expect(pool.submit {})
    #expect(pool.submit {})
    #expect(!pool.submit {}, "an ordinary job is refused when the queue is full")
    let tally = OpenTally()
    let mailboxes = (0..<10).map { _ in Mailbox(pool: pool) }
    for mailbox in mailboxes { mailbox.post { tally.add(opened: 1) } }
    Thread.sleep(forTimeInterval: 0.2)
    #expect(tally.counts.opened == 0, "no mailbox ran before the pool's thread was free")
    #expect(pool.queued == 12)
    gate.signal()
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, tally.counts.opened < 10 { Thread.sleep(forTimeInterval: 0.01) }
    #expect(tally.counts.opened == 10)
  }
}

/// The loop's own WebSocket heartbeat (lws's validity timers are off): a ping after
/// `webSocketPingSeconds` of silence, the connection dropped after `webSocketIdleSeconds` without
/// a frame or a pong.
@Suite(.timeLimit(.minutes(1)))
struct HeartbeatTests {
  /// A server whose sockets' events are kept, with a 1 s ping and a 2 s idle limit.
  final class Watched: @unchecked Sendable {
    private let lock = NSLock()
    private var logs: [EventLog] = []
    var all: [EventLog] { lock.withLock { logs } }
    func add(_ socket: WebSocket) -> EventLog {
      let log = EventLog(socket)
      lock.withLock { logs.append(log) }
      return log
    }
  }

  func server(_ watched: Watched) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(port: 0, webSocketPaths: ["/stream"])
    configuration.webSocketPingSeconds = 1
    configuration.webSocketIdleSeconds = 2
    return try HTTPServer(
      configuration: configuration,
      routes: HTTPServer.Routes(
        http: { _ in HTTPResponse(status: 404) },
        webSocket: { socket in
          let log = watched.add(socket)
          subscriptions.keep(
            socket.events.sink { event in
              if case .text(let text) = event { socket.send("echo: " + text) }
            })
          _ = log
        }))
  }

  /// A peer that upgrades and then never answers (no pong, nothing sent) gets pings, and is
  /// dropped about two seconds after it last spoke.
  @Test func aSilentPeer_isPinged_thenDropped() throws {
    let watched = Watched()
    let server = try server(watched)
    defer { server.shutdown(timeout: 2) }
    let raw = try RawConnection(port: server.port)
    let opened = Date()
    raw.write(
      "GET /stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Protocol: travel.v1\r\n\r\n")
    var bytes = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(raw.fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      bytes.append(buffer, count: count)
    }
    let droppedAfter = Date().timeIntervalSince(opened)
    let head = try #require(bytes.range(of: Data("\r\n\r\n".utf8)))
    #expect(String(decoding: bytes[..<head.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
    let frames = Array(bytes[head.upperBound...])
    // A ping (FIN, opcode 9) came first, its payload ASCII digits: a pong echoing it must pass a
    // UTF-8-validating peer (binary bytes once made this server close its own clients with 1007).
    #expect(frames.first == 0x89, "\(frames)")
    let length = frames.count > 1 ? Int(frames[1]) : 0
    #expect((1...20).contains(length), "\(frames)")
    #expect(frames.count >= 2 + length && frames[2..<(2 + length)].allSatisfy { (0x30...0x39).contains($0) })
    #expect(droppedAfter >= 1.9 && droppedAfter < 4.5, "dropped after \(droppedAfter) s")
    let log = try #require(watched.all.first)
    let closed = log.wait { if case .closed = $0 { true } else { false } }
    guard case .closed(let code, let reason)? = closed else {
      Issue.record("the server's socket did not end")
      return
    }
    #expect(code == 1006)
    #expect(reason.contains("nothing received for 2 s"), "\(reason)")
  }

  /// A peer that says nothing but answers pings (lws's client pongs by itself) stays connected
  /// well past the idle limit, and is still served.
  @Test func aPeerThatAnswersPings_staysConnected() throws {
    let watched = Watched()
    let server = try server(watched)
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient(pingSeconds: 600, idleSeconds: 1200)
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { $0 == .opened } != nil)
    Thread.sleep(forTimeInterval: 5)
    #expect(!log.all.contains { if case .closed = $0 { true } else { false } }, "\(log.all)")
    #expect(!(watched.all.first?.all.contains { if case .closed = $0 { true } else { false } } ?? true))
    socket.send("still here")
    #expect(log.wait { $0 == .text("echo: still here") } != nil)
  }
}

/// A fan-out: one message to many sockets (``WebSocket/send(_:to:)``), and a backlog written
/// several messages per writable callback.
@Suite(.timeLimit(.minutes(1)))
struct FanOutTests {
  /// The server's sockets, as they open.
  final class Registry: @unchecked Sendable {
    private let lock = NSLock()
    private var sockets: [WebSocket] = []
    var all: [WebSocket] { lock.withLock { sockets } }
    func add(_ socket: WebSocket) { lock.withLock { sockets.append(socket) } }
  }

  /// Texts received by one client socket, in order.
  final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []
    private var cancellable: AnyCancellable?
    init(_ socket: WebSocket) {
      cancellable = socket.events.sink { [self] event in
        if case .text(let text) = event { lock.withLock { texts.append(text) } }
      }
    }
    var all: [String] { lock.withLock { texts } }
  }

  func server(_ registry: Registry) throws -> HTTPServer {
    try HTTPServer(
      configuration: HTTPServer.Configuration(port: 0, webSocketPaths: ["/stream"]),
      routes: HTTPServer.Routes(
        http: { _ in HTTPResponse(status: 404) },
        webSocket: { socket in
          subscriptions.keep(
            socket.events.sink { event in
              guard case .text(let text) = event else { return }
              if text.hasPrefix("burst ") {
                for index in 0..<(Int(text.dropFirst(6)) ?? 0) { socket.send("burst \(index)") }
              } else {
                socket.send("echo: " + text)
              }
            })
          registry.add(socket)
        }))
  }

  /// 40 sockets get each of 300 fanned-out messages once, in order, interleaved in order with
  /// messages sent to one socket alone; a socket closed meanwhile is skipped, not an error.
  @Test func oneMessageReachesEverySocket_once_inOrder() throws {
    let registry = Registry()
    let server = try server(registry)
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let sockets = (0..<40).map { _ in client.socket(to: url) }
    let received = sockets.map(Received.init)
    for socket in sockets { client.connect(socket, to: url) }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, registry.all.count < sockets.count { Thread.sleep(forTimeInterval: 0.01) }
    let serverSockets = registry.all
    try #require(serverSockets.count == sockets.count)
    let closing = serverSockets[0]
    closing.close(code: 1000, reason: "done")
    for index in 0..<300 {
      WebSocket.send(WebSocketMessage("change \(index)"), to: serverSockets)
      if index % 100 == 0 { serverSockets[1].send("alone \(index)") }
    }
    let expected = (0..<300).map { "change \($0)" }
    let alone = (0..<300).flatMap { $0 % 100 == 0 ? ["change \($0)", "alone \($0)"] : ["change \($0)"] }
    let end = Date().addingTimeInterval(20)
    while Date() < end, received.filter({ $0.all.count >= expected.count }).count < sockets.count - 1 {
      Thread.sleep(forTimeInterval: 0.02)
    }
    // The server's sockets opened in their own order: which client is which shows in what it got.
    let all = received.map(\.all)
    #expect(all.filter(\.isEmpty).count == 1, "the closed socket got messages")
    #expect(all.filter { $0 == alone }.count == 1)
    #expect(all.filter { $0 == expected }.count == sockets.count - 2, "\(all.map(\.count))")
  }

  /// 800 messages queued at once on one socket are written in far fewer writable callbacks than
  /// messages (several per callback while the socket takes them), by the client and by the
  /// server alike, and all arrive in order (fewer than the server's outbox of 1,024 holds, so the
  /// echoes never make this client a slow reader).
  @Test func aBacklogIsWrittenSeveralMessagesPerCallback() throws {
    let registry = Registry()
    let server = try server(registry)
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let socket = client.socket(to: url)
    let received = Received(socket)
    let count = 800
    client.connect(socket, to: url)
    // Queued during the handshake: the whole backlog is waiting when the socket first becomes writable.
    for index in 0..<count { socket.send("message \(index)") }
    var deadline = Date().addingTimeInterval(20)
    while Date() < deadline, received.all.count < count { Thread.sleep(forTimeInterval: 0.02) }
    #expect(received.all == (0..<count).map { "echo: message \($0)" })
    let sent = client.writes
    #expect(sent.messages == count)
    #expect(sent.callbacks * 4 <= count, "the client wrote \(count) messages in \(sent.callbacks) callbacks")

    // The server queues a burst in one go (one handler call; within its outbox's 1,024 messages).
    let before = server.webSocketWrites
    let burstCount = 800
    socket.send("burst \(burstCount)")
    deadline = Date().addingTimeInterval(20)
    while Date() < deadline, received.all.count < count + burstCount { Thread.sleep(forTimeInterval: 0.02) }
    #expect(Array(received.all.dropFirst(count)) == (0..<burstCount).map { "burst \($0)" })
    let burst = (
      callbacks: server.webSocketWrites.callbacks - before.callbacks,
      messages: server.webSocketWrites.messages - before.messages
    )
    #expect(burst.messages == burstCount, "\(burst)")
    #expect(
      burst.callbacks * 4 <= burstCount, "the server wrote \(burstCount) messages in \(burst.callbacks) callbacks")
  }

  /// Both loops run libwebsockets on libev's epoll loop (not lws's poll() over every socket), and
  /// still serve: an echo over a WebSocket.
  @Test func theLoopsRunOnEpoll() throws {
    let registry = Registry()
    let server = try server(registry)
    defer { server.shutdown(timeout: 2) }
    let client = try WebSocketClient()
    defer { client.shutdown() }
    #expect(server.runsOnEpoll)
    #expect(client.runsOnEpoll)
    let url = URL(string: "ws://127.0.0.1:\(server.port)/stream")!
    let socket = client.socket(to: url)
    let log = EventLog(socket)
    client.connect(socket, to: url)
    #expect(log.wait { $0 == .opened } != nil)
    socket.send("over epoll")
    #expect(log.wait { $0 == .text("echo: over epoll") } != nil)
  }
}
