import Common
import CommonTesting
import Foundation
import Glibc
import Testing

/// The nginx config the project ships (`deploy/nginx/travel-server.conf`, #19), run as it is (its
/// ports rewritten) by Debian's nginx in front of three `travel-server` instances on one
/// PostgreSQL cluster of the suite's own: requests spread over the instances, a booking made
/// through nginx is seen by every instance, a WebSocket subscription through nginx hears bookings
/// written on every instance, and the sign-in limit per address counts the client's address
/// (X-Real-IP, which clients cannot forge through nginx), not nginx's.
@Suite(.timeLimit(.minutes(3)))
struct ServerBehindNginxEndToEndTests {
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test func threeInstancesBehindTheShippedNginxConfig() throws {
    let postgres = try PostgresCluster()
    let keys = TemporaryDirectory(prefix: "nginx-keys")
    let arguments = [
      "--database", postgres.url, "--trusted-proxy", "127.0.0.1", "--sign-ins-per-address", "2",
      "--sign-ins-per-email", "100",
    ]
    let servers = try Self.startServers(3, arguments: arguments, keys: keys)
    let nginx = try Nginx(upstreams: servers.map { $0.url.port ?? 0 })
    let clients = try Clients()
    let proxy = nginx.url
    func call(
      _ method: String, _ path: String, body: [String: Any]? = nil, token: String? = nil, server: String? = nil,
      source: String? = nil, headers: [String: String]? = nil
    ) throws -> (status: Int, body: [String: Any]) {
      var spec: [String: Any] = ["action": "call", "server": server ?? proxy, "method": method, "path": path]
      if let body { spec["body"] = body }
      if let token { spec["token"] = token }
      if let source { spec["source"] = source }
      if let headers { spec["headers"] = headers }
      let answer = try clients.run([spec])[0]
      return (answer["status"] as? Int ?? 0, answer["body"] as? [String: Any] ?? [:])
    }

    // Requests spread over the instances.
    let checks = try clients.run(
      (0..<12).map { _ in ["action": "call", "server": proxy, "method": "GET", "path": "/healthz"] })
    #expect(checks.allSatisfy { $0["status"] as? Int == 200 }, "\(checks)")
    let served = servers.map { Self.accessLog($0).filter { $0["path"] as? String == "/healthz" }.count }
    #expect(served.reduce(0, +) == 12 && served.allSatisfy { $0 >= 1 }, "/healthz per instance: \(served)")

    // A traveller and a booking through nginx; every instance sees it.
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    let traveller = try clients.run([
      [
        "action": "traveller", "server": proxy, "email": "proxied@nginx.example", "password": "correct horse battery",
        "card": ["number": "4242424242424242", "expiryMonth": 12, "expiryYear": year, "cvc": "123"],
      ]
    ])[0]
    let token = try #require(traveller["token"] as? String, "\(traveller)")
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "UTC")!)
    let search: [String: Any] = [
      "origin": "SFO", "destination": "JFK", "departureDate": date.description, "adults": 1, "cabin": "economy",
      "maxStops": 0, "sort": "price", "limit": 5,
    ]
    let offers = try #require(call("POST", "/v1/flights/search", body: search).body["offers"] as? [[String: Any]])
    let offerID = try #require(offers.first?["id"] as? String)
    func book(_ key: String, on server: String) throws -> [String: Any] {
      let spec: [String: Any] = [
        "action": "book", "servers": [server], "token": token, "deadline": 30,
        "bookings": [
          [
            "path": "/v1/flights/bookings", "key": key,
            "body": ["offerId": offerID, "passengers": ["Proxied Person"], "allowDuplicate": true],
          ]
        ],
      ]
      return try #require((try clients.run([spec])[0]["outcomes"] as? [[String: Any]])?.first)
    }
    let booked = try book("nginx-1", on: proxy)
    let reservation = try #require(booked["reservation"] as? String, "\(booked)")
    let bookedOn = servers.indices.filter { index in
      Self.accessLog(servers[index]).contains {
        $0["path"] as? String == "/v1/flights/bookings" && $0["status"] as? Int == 201
      }
    }
    #expect(bookedOn.count == 1, "booked on \(bookedOn)")
    for server in servers {
      let trips = try call("GET", "/v1/trips", token: token, server: server.url.absoluteString)
      let ids = (trips.body["reservations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
      #expect(ids == [reservation], "trips on \(server.url): \(trips)")
    }

    // A subscriber through nginx hears a booking written on each instance (two of them at least
    // not the instance that holds its socket).
    let listener = try clients.launch([
      ["action": "listen", "server": proxy, "token": token, "topic": "trips", "events": 3, "timeout": 20]
    ])[0]
    let first = Clients.firstLine(of: listener.1)
    #expect(first.contains("subscribed"), "listener: \(first)")
    var written: [String] = []
    for (index, server) in servers.enumerated() {
      let outcome = try book("nginx-live-\(index)", on: server.url.absoluteString)
      written.append(outcome["reservation"] as? String ?? "\(outcome)")
    }
    let heard = try clients.collect([listener])[0]
    let events = heard["events"] as? [[String: Any]] ?? []
    #expect(events.allSatisfy { $0["event"] as? String == "reservation.booked" }, "\(heard)")
    let heardIDs = events.compactMap { ($0["data"] as? [String: Any])?["reservation"] as? [String: Any] }
      .compactMap { $0["id"] as? String }
    #expect(heardIDs.sorted() == written.sorted(), "heard \(heard), written \(written)")

    // The sign-in limit per address (2 a minute; the traveller's sign-up and sign-in from
    // 127.0.0.1 used that address's two) counts the client's address through nginx: 127.0.0.2 is
    // refused at its third attempt; 127.0.0.3 still is judged, even when it names 127.0.0.2 in
    // an X-Real-IP of its own (nginx replaces it). (Few attempts: each judged one hashes a password.)
    let wrong: [String: Any] = ["email": "proxied@nginx.example", "password": "not the password"]
    var statuses: [Int] = []
    for _ in 0..<3 { statuses.append(try call("POST", "/v1/sessions", body: wrong, source: "127.0.0.2").status) }
    #expect(statuses == [401, 401, 429])
    let other = try call("POST", "/v1/sessions", body: wrong, source: "127.0.0.3", headers: ["X-Real-IP": "127.0.0.2"])
    #expect(other.status == 401, "\(other)")
    let signIns = servers.flatMap { Self.accessLog($0).filter { $0["path"] as? String == "/v1/sessions" } }
    let remotes = signIns.compactMap { $0["remote"] as? String }
    #expect(remotes.filter { $0 == "127.0.0.2" }.count == 3 && remotes.filter { $0 == "127.0.0.3" }.count == 1)
    #expect(signIns.allSatisfy { ($0["requestId"] as? String)?.count == 32 }, "nginx's $request_id: \(signIns)")
  }

  /// `count` servers on one store and one key directory, started together.
  static func startServers(_ count: Int, arguments: [String], keys: TemporaryDirectory) throws -> [ServerProcess] {
    let made = Locked<[Int: Result<ServerProcess, any Error>]>([:])
    let started = DispatchGroup()
    for index in 0..<count {
      started.enter()
      Thread {
        let result = Result { try ServerProcess(arguments: arguments, directory: keys) }
        made.withLock { $0[index] = result }
        started.leave()
      }.start()
    }
    started.wait()
    return try (0..<count).map { index in try made.withLock { $0[index]! }.get() }
  }

  /// The access log lines (JSON) the server wrote so far.
  static func accessLog(_ server: ServerProcess) -> [[String: Any]] {
    server.output.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("{") else { return nil }
      return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
  }

  /// The client processes (``StormClient``'s script).
  final class Clients {
    let scripts = TemporaryDirectory(prefix: "nginx-clients")

    init() throws {
      try StormClient.source.write(
        to: scripts.url.appendingPathComponent("client.py"), atomically: true, encoding: .utf8)
    }

    func run(_ specs: [[String: Any]]) throws -> [[String: Any]] { try collect(try launch(specs)) }

    func launch(_ specs: [[String: Any]]) throws -> [(Process, Pipe)] {
      try specs.enumerated().map { index, spec in
        let file = scripts.url.appendingPathComponent("spec-\(UUID().uuidString)-\(index).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scripts.url.appendingPathComponent("client.py").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
      }
    }

    /// Waits for the clients; the last line each printed, as JSON.
    func collect(_ running: [(Process, Pipe)]) throws -> [[String: Any]] {
      try running.map { process, output in
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard let document = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] else {
          throw Failure("client exited \(process.terminationStatus): \(String(decoding: data, as: UTF8.self))")
        }
        return document
      }
    }

    /// Reads up to the first newline the client prints (or the end of its output).
    static func firstLine(of pipe: Pipe) -> String {
      var data = Data()
      while !data.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        data.append(chunk)
      }
      return String(decoding: data, as: UTF8.self)
    }
  }
}

/// nginx running the shipped config, unprivileged and self-contained: one process in the
/// foreground (`daemon off; master_process off;`, so it never switches users), with its pid file,
/// logs and temporary paths in a directory of its own, on a free loopback port. Stopped (SIGTERM,
/// then SIGKILL) when released.
final class Nginx {
  let directory = TemporaryDirectory(prefix: "nginx")
  let process = Process()
  let port: Int
  var url: String { "http://127.0.0.1:\(port)" }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static let shippedConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("deploy/nginx/travel-server.conf")

  /// - Parameter upstreams: the instances' ports, in place of the config's 8081, 8082 and 8083.
  init(upstreams: [Int], timeout: TimeInterval = 10) throws {
    let executable = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let executable else {
      throw Failure(description: "nginx is missing (no /usr/sbin/nginx): run Scripts/bootstrap (Debian nginx-light)")
    }
    var config = try String(contentsOf: Self.shippedConfig, encoding: .utf8)
    let placeholders = ["listen 8080;", "127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083"]
    for placeholder in placeholders where !config.contains(placeholder) {
      throw Failure(description: "\(Self.shippedConfig.path) no longer has \(placeholder): update this test")
    }
    port = try Self.freePort()
    config = config.replacingOccurrences(of: "listen 8080;", with: "listen 127.0.0.1:\(port);")
    for (index, upstream) in upstreams.enumerated() {
      config = config.replacingOccurrences(of: "127.0.0.1:\(8081 + index)", with: "127.0.0.1:\(upstream)")
    }
    let path = directory.path
    try config.write(toFile: "\(path)/travel-server.conf", atomically: true, encoding: .utf8)
    let main = """
      daemon off;
      master_process off;
      pid \(path)/nginx.pid;
      error_log \(path)/error.log info;
      events { worker_connections 512; }
      http {
        access_log \(path)/access.log;
        client_body_temp_path \(path)/client_body;
        proxy_temp_path \(path)/proxy;
        fastcgi_temp_path \(path)/fastcgi;
        uwsgi_temp_path \(path)/uwsgi;
        scgi_temp_path \(path)/scgi;
        include \(path)/travel-server.conf;
      }

      """
    try main.write(toFile: "\(path)/nginx.conf", atomically: true, encoding: .utf8)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-p", path, "-c", "\(path)/nginx.conf", "-e", "\(path)/error.log"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while !Self.accepts(port) {
      guard process.isRunning, Date() < deadline else {
        stop()
        let log = (try? String(contentsOfFile: "\(path)/error.log", encoding: .utf8)) ?? ""
        throw Failure(description: "nginx did not start on port \(port): \(log)")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  deinit { stop() }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// A loopback port nobody listens on now (the kernel's choice).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  static func accepts(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
