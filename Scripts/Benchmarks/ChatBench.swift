import Backend
import Common
import Foundation
import Reactive
import Server
import Transport

#if canImport(Glibc)
  import Glibc
#endif

/// The chat with a travel agent: messages stored per second (the store: message, marks and three
/// feed events in one transaction), and the delivery latency through a travel-server — a
/// traveller's `POST /v1/chat/messages` until the agent's WebSocket has the event — with 1,000
/// open conversations, each followed by the agent (`chat:<id>`) besides the queue (`chat-queue`).
extension BenchmarkSuite {
  func chatFigures() -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "travel-bench-chat-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let environment = BackendEnvironment(passwordParameters: .fastForTests)
      let services = try BackendServices(dataDirectory: directory, environment: environment)
      let conversations = quick ? 50 : 1_000
      var tokens: [String] = []
      var ids: [Int64] = []
      for index in 0..<conversations {
        let email = "t\(index)@example.com"
        _ = try services.accounts.signUp(
          email: email, password: "benchmark password", firstName: "T", lastName: "\(index)")
        let token = try services.accounts.signIn(email: email, password: "benchmark password").token
        tokens.append(token)
        ids.append(try services.chat.send("Hello", trip: nil, clientID: nil, token: token).conversationID)
      }
      var counter = 0
      let store = try sample(count: count(1000), warmup: 10) { _ in
        counter += 1
        _ = try services.chat.send(
          "Message \(counter)", trip: nil, clientID: nil, token: tokens[counter % tokens.count])
      }
      try services.agents.add(email: "bench@agency.example", name: "Bench", password: "benchmark password")

      let server = try TravelServer(
        configuration: TravelServer.Configuration(
          port: 0, dataDirectory: directory, backendEnvironment: environment, accessLog: { _ in }))
      defer { server.shutdown(timeout: 3) }
      let agent = try services.agents.signIn(email: "bench@agency.example", password: "benchmark password").token
      let client = try WebSocketClient()
      defer { client.shutdown() }
      let probe = ChatProbe(client: client, base: server.baseURL)
      probe.send(StreamMessage(type: "auth", token: agent))
      probe.send(StreamMessage(type: "subscribe", topic: "chat-queue"))
      for id in ids { probe.send(StreamMessage(type: "subscribe", topic: "chat:\(id)")) }
      guard probe.waitForSubscriptions(ids.count + 1, timeout: 30) else {
        return [Figure.failed("chat.delivery-latency", target: 50, "the agent's subscriptions were not confirmed")]
      }
      var lost = 0
      let latency = try sample(count: count(400), warmup: 5) { index in
        let text = "bench-\(index)-\(UUID().uuidString.prefix(8))"
        let token = tokens[Int.random(in: 0..<tokens.count)]
        let body = try API.makeEncoder().encode(API.NewChatMessage(text: text))
        probe.expect(text)
        let status = try ChatHTTP.post("/v1/chat/messages", port: server.port, token: token, body: body)
        guard status == 201 else { throw ServiceError(.unavailable, code: "bench", message: "POST answered \(status)") }
        if !probe.waitForExpected(timeout: 5) { lost += 1 }
      }
      return [
        Figure(
          name: "chat.messages-stored-per-second", unit: "1/s", goal: .atLeast, target: 500,
          values: store.map { 1000 / $0 },
          note: "one transaction each: the message and three feed events; \(conversations) conversations"),
        Figure(
          name: "chat.delivery-latency", unit: "ms", target: 50, values: latency,
          note: "POST /v1/chat/messages → the agent's WebSocket event, \(conversations) open conversations followed",
          violation: lost > 0 ? "\(lost) message(s) never reached the agent" : nil),
      ]
    } catch {
      return [Figure.failed("chat.delivery-latency", target: 50, "failed: \(error)")]
    }
  }
}

/// The agent's stream connection in the benchmark: counts subscriptions, waits for one text.
final class ChatProbe: @unchecked Sendable {
  let socket: WebSocket
  private let lock = NSLock()
  private var subscribed = 0
  private var expected: String?
  private var arrived = false
  private let signal = DispatchSemaphore(value: 0)
  private var cancellable: AnyCancellable?

  init(client: WebSocketClient, base: URL) {
    let url = URL(string: base.absoluteString.replacingOccurrences(of: "http", with: "ws") + "/v1/stream")!
    socket = client.socket(to: url)
    cancellable = socket.events.sink { [self] event in
      guard case .text(let text) = event, let message = StreamMessage.parse(text) else { return }
      lock.withLock {
        if message.type == "subscribed" { subscribed += 1 }
        if message.type == "event", let expected, !arrived,
          message.data?["message"]?["text"]?.stringValue == expected
        {
          arrived = true
          signal.signal()
        }
      }
    }
    client.connect(socket, to: url)
  }

  func send(_ message: StreamMessage) { _ = socket.send(message.text) }

  func waitForSubscriptions(_ count: Int, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if lock.withLock({ subscribed >= count }) { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  func expect(_ text: String) {
    lock.withLock {
      expected = text
      arrived = false
    }
    while signal.wait(timeout: .now()) == .success {}
  }

  func waitForExpected(timeout: TimeInterval) -> Bool { signal.wait(timeout: .now() + timeout) == .success }
}

/// One HTTP/1.1 POST over a loopback socket (one request per connection), the status only.
enum ChatHTTP {
  static func post(_ path: String, port: Int, token: String, body: Data) throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw ServiceError(.unavailable, code: "connect", message: "cannot connect") }
    let head =
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
      + "Authorization: Bearer \(token)\r\nContent-Length: \(body.count)\r\n\r\n"
    let request = Data(head.utf8) + body
    _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var data = Data()
    while !data.contains(0x0A) {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      data.append(buffer, count: count)
    }
    let line = String(decoding: data, as: UTF8.self).split(separator: "\r\n").first ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
