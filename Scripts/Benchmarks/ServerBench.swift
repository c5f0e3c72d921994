import Backend
import Common
import Foundation
import Reactive
import Transport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The server group: `travel-server` (the build's binary, a temporary data directory, a free
/// loopback port) under HTTP load from `wrk` (Debian; installed by Scripts/bootstrap) with
/// keep-alive, 64 connections on 2 threads, and the same searches called in-process in the same
/// run on a store of their own:
/// - `server.flights.search.http`: flight searches (24 busy pairs, one stop) per second over HTTP;
///   its note has p50 and p99 from wrk's latency distribution (target p99 ≤ 10 ms);
/// - `server.flights.search.http-p99`: that p99, in ms (target ≤ 10);
/// - `server.flights.search.inprocess`: the same requests on the engine in this process, one
///   thread per core, per second;
/// - `server.flights.search.http-ratio`: HTTP ÷ in-process throughput (target ≥ 0.5);
/// - `server.hotels.search.http`, `server.hotels.search.http-p99`: hotel searches (12 cities, 2 nights).
/// - `server.flights.book.http`: flight bookings (`POST /v1/flights/bookings`, one signed-in
///   traveller, a fresh `Idempotency-Key` each, over the offers of those searches, 16 connections)
///   confirmed per second; `server.flights.book.http-p99` their p99 in ms. An offer whose price
///   moved since the search is answered 409 `price_changed` (counted, not an error).
/// A non-2xx answer to a search under load is a violation (the run fails), a 5xx to a booking
/// too, and so is a socket error in a full run. Quick mode (Scripts/test) runs each load for 1 s on 8 connections, only to keep it working.
extension BenchmarkSuite {
  func serverFigures() -> [Figure] {
    let name = "server.flights.search.http"
    guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile) else {
      return [
        Figure.failed(name, unit: "req/s", goal: .atLeast, target: nil, "wrk is not installed: Scripts/bootstrap")
      ]
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-server-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: work) }
    let idle = quick ? 200 : 10_000
    guard
      let server = BenchServer(
        binDirectory: binDirectory, directory: work, environment: environment(),
        arguments: ["--max-connections", String(idle + 256)])
    else {
      return [Figure.failed(name, unit: "req/s", goal: .atLeast, target: nil, "travel-server did not start")]
    }
    defer { server.stop() }
    do {
      let data = try ReferenceData.shared()
      let today = LocalDate(Date(), in: .gmt)
      let busiest = data.busiestAirports(limit: 30).map(\.iata)
      let flightRequests = (0..<24).map { index in
        FlightSearchRequest(
          origin: busiest[index % busiest.count], destination: busiest[(index * 7 + 3) % busiest.count],
          departureDate: today.adding(days: 20 + index), maxStops: 1, limit: 20)
      }.filter { $0.origin != $0.destination }
      let hotelRequests = (0..<12).map { index in
        let city = data.cities[(index * 37) % data.cities.count]
        return HotelSearchRequest(
          place: "\(city.latitude),\(city.longitude)", checkIn: today.adding(days: 30 + index),
          checkOut: today.adding(days: 32 + index), guests: 2, limit: 20)
      }
      let seconds = quick ? 1 : 10
      let connections = quick ? 8 : 64
      let flights = try load(
        wrk: wrk, server: server, path: "/v1/flights/search", bodies: flightRequests, seconds: seconds,
        connections: connections, in: work)
      let hotels = try load(
        wrk: wrk, server: server, path: "/v1/hotels/search", bodies: hotelRequests, seconds: seconds,
        connections: connections, in: work)

      // Bookings: one traveller with a card, the offers of the flight searches, a key per request.
      let token = try server.signedInTraveller()
      var offerIDs: [String] = []
      for request in flightRequests {
        let (status, body) = try server.send("POST", "/v1/flights/search", body: try API.makeEncoder().encode(request))
        guard status == 200 else { continue }
        let document = try JSONDecoder().decode(JSONValue.self, from: body)
        offerIDs += (document["offers"]?.arrayValue ?? []).prefix(10).compactMap { $0["id"]?.stringValue }
      }
      guard !offerIDs.isEmpty else {
        return [Figure.failed("server.flights.book.http", unit: "1/s", goal: .atLeast, target: nil, "no offers")]
      }
      let bookingBodies = offerIDs.map {
        API.FlightBooking(offerId: $0, passengers: ["Bench Traveller"], cardId: nil, allowDuplicate: true)
      }
      let bookings = try load(
        wrk: wrk, server: server, path: "/v1/flights/bookings", bodies: bookingBodies, seconds: seconds,
        connections: quick ? 4 : 16, in: work, token: token)

      // The same flight searches in this process, one thread per core, for as long.
      let store = work.appendingPathComponent("inprocess")
      let services = try BackendServices(dataDirectory: store)
      let engine = try FlightsWiring.engine(seats: SQLiteFlightSeats(database: services.database))
      let cores = ProcessInfo.processInfo.activeProcessorCount
      let counter = Counter()
      let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
      let start = DispatchTime.now().uptimeNanoseconds
      DispatchQueue.concurrentPerform(iterations: cores) { worker in
        var index = worker
        while DispatchTime.now().uptimeNanoseconds < deadline {
          _ = try? engine.search(flightRequests[index % flightRequests.count])
          index += cores
          counter.increment()
        }
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      let inProcess = Double(counter.value) / elapsed
      let ratio = flights.requestsPerSecond / max(inProcess, 1)
      let sockets = webSocketFigures(server: server, token: token, searches: flightRequests, idle: idle)
      return [
        flights.throughputFigure(name, note: "wrk, \(connections) keep-alive connections, \(seconds) s"),
        Figure(name: "server.flights.search.http-p99", unit: "ms", target: 10, values: [flights.p99]),
        Figure(
          name: "server.flights.search.inprocess", unit: "req/s", goal: .atLeast, target: nil, values: [inProcess],
          note: "the same searches on the engine, \(cores) threads, \(seconds) s"),
        Figure(
          name: "server.flights.search.http-ratio", unit: "ratio", goal: .atLeast, target: 0.5, values: [ratio],
          note: "HTTP ÷ in-process throughput of the same flight searches"),
        hotels.throughputFigure(
          "server.hotels.search.http", note: "wrk, \(connections) keep-alive connections, \(seconds) s"),
        Figure(name: "server.hotels.search.http-p99", unit: "ms", target: nil, values: [hotels.p99]),
        Figure(
          name: "server.flights.book.http", unit: "1/s", goal: .atLeast, target: nil,
          values: [Double(bookings.created) / Double(seconds)],
          note: "confirmed bookings over HTTP, \(quick ? 4 : 16) keep-alive connections, \(seconds) s, "
            + "\(offerIDs.count) offers; \(bookings.created) booked, \(bookings.conflicts) answered 409 (price moved or "
            + "sold out)" + String(format: "; p50 %.2f ms, p99 %.2f ms", bookings.p50, bookings.p99),
          violation: bookings.errors),
        Figure(name: "server.flights.book.http-p99", unit: "ms", target: nil, values: [bookings.p99]),
      ] + sockets
    } catch {
      return [Figure.failed(name, unit: "req/s", goal: .atLeast, target: nil, "failed: \(error)")]
    }
  }

  /// What wrk measured.
  struct LoadResult {
    var requestsPerSecond: Double
    var p50: Double
    var p99: Double
    var errors: String?
    /// With a token (bookings): the 201 and the 409 answers, counted by the script.
    var created = 0
    var conflicts = 0

    func throughputFigure(_ name: String, note: String) -> Figure {
      Figure(
        name: name, unit: "req/s", goal: .atLeast, target: nil, values: [requestsPerSecond],
        note: note + String(format: "; p50 %.2f ms, p99 %.2f ms", p50, p99), violation: errors)
    }
  }

  /// Runs wrk for `seconds` with a Lua script that posts `bodies` in turn to `path`. With a
  /// `token`: signed in, a fresh `Idempotency-Key` per request, answers counted by status (a 409
  /// is an answer, a 5xx an error).
  func load(
    wrk: String, server: BenchServer, path: String, bodies: [some Encodable], seconds: Int, connections: Int,
    in work: URL, token: String? = nil
  ) throws -> LoadResult {
    let encoder = API.makeEncoder()
    let literals = try bodies.map { body -> String in
      let json = String(decoding: try encoder.encode(body), as: UTF8.self)
      return "[==[" + json + "]==]"
    }
    var script = """
      local bodies = { \(literals.joined(separator: ",\n")) }
      local i = 0
      request = function()
        i = i % #bodies + 1
        return wrk.format("POST", "\(path)", { ["Content-Type"] = "application/json" }, bodies[i])
      end
      """
    if let token {
      script = """
        local bodies = { \(literals.joined(separator: ",\n")) }
        local threads = {}
        local next_id = 0
        setup = function(thread)
          next_id = next_id + 1
          thread:set("id", next_id)
          table.insert(threads, thread)
        end
        local i = 0
        created, conflicts, failed = 0, 0, 0
        request = function()
          i = i + 1
          local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer \(token)",
            ["Idempotency-Key"] = "bench-" .. id .. "-" .. i }
          return wrk.format("POST", "\(path)", headers, bodies[(i - 1) % #bodies + 1])
        end
        response = function(status, headers, body)
          if status == 201 then created = created + 1
          elseif status == 409 then conflicts = conflicts + 1
          else failed = failed + 1 end
        end
        done = function(summary, latency, requests)
          local c, k, f = 0, 0, 0
          for _, thread in ipairs(threads) do
            c = c + thread:get("created"); k = k + thread:get("conflicts"); f = f + thread:get("failed")
          end
          io.write(string.format("answers: %d %d %d\\n", c, k, f))
        end
        """
    }
    let scriptURL = work.appendingPathComponent("load-\(UUID().uuidString).lua")
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: wrk)
    process.arguments = [
      "-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "5s", "-s", scriptURL.path, server.url,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var result = Self.parseWrk(output, socketErrorsFail: !quick, conflictsAllowed: token != nil)
    if token != nil {
      let line = output.split(separator: "\n").first { $0.hasPrefix("answers: ") }
      let counts = line.map { $0.dropFirst("answers: ".count).split(separator: " ").compactMap { Int($0) } } ?? []
      if counts.count == 3 {
        (result.created, result.conflicts) = (counts[0], counts[1])
        if counts[2] > 0 {
          result.errors = [result.errors, "\(counts[2]) answer(s) neither 201 nor 409"].compactMap { $0 }.joined(
            separator: "; ")
        }
      } else {
        result.errors = "the script's counts are missing: \(output.prefix(300))"
      }
    }
    return result
  }

  /// Requests/sec, the 50 % and 99 % latencies (ms) and any non-2xx or socket errors of wrk's report.
  static func parseWrk(_ output: String, socketErrorsFail: Bool, conflictsAllowed: Bool = false) -> LoadResult {
    var result = LoadResult(requestsPerSecond: 0, p50: 0, p99: 0, errors: nil)
    var problems: [String] = []
    for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      if line.hasPrefix("Requests/sec:"), fields.count == 2 { result.requestsPerSecond = Double(fields[1]) ?? 0 }
      if fields.count == 2, fields[0] == "50%" { result.p50 = wrkMilliseconds(fields[1]) }
      if fields.count == 2, fields[0] == "99%" { result.p99 = wrkMilliseconds(fields[1]) }
      if (line.hasPrefix("Non-2xx") && !conflictsAllowed) || (socketErrorsFail && line.hasPrefix("Socket errors")) {
        problems.append(line)
      }
    }
    if result.requestsPerSecond == 0 { problems.append("wrk measured nothing: \(output.prefix(300))") }
    result.errors = problems.isEmpty ? nil : problems.joined(separator: "; ")
    return result
  }

  /// `635.91us`, `1.20ms`, `2.00s` in milliseconds.
  static func wrkMilliseconds(_ text: String) -> Double {
    for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
      return (Double(text.dropLast(suffix.count)) ?? 0) * scale
    }
    return 0
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }
}

/// A `travel-server` started for the benchmark: `--listen 127.0.0.1:0` on its own data directory;
/// its URL read from the line it prints; SIGTERM on ``stop()``.
final class BenchServer {
  let pid: pid_t
  let url: String

  init?(binDirectory: URL, directory: URL, environment: [String: String], arguments: [String] = []) {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let log = directory.appendingPathComponent("server.log").path
    let data = directory.appendingPathComponent("server-data").path
    guard
      let pid = launch(
        binDirectory.appendingPathComponent("travel-server").path,
        ["--listen", "127.0.0.1:0", "--data-dir", data] + arguments, environment: environment, stderrPath: log)
    else { return nil }
    self.pid = pid
    let deadline = Date().addingTimeInterval(120)
    var found: String?
    while found == nil && Date() < deadline {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if let range = text.range(of: #"listening on http://[0-9.:]+"#, options: .regularExpression) {
        found = String(text[range].dropFirst("listening on ".count))
      } else {
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    guard let found else {
      kill(pid, SIGKILL)
      _ = waitForChild(pid)
      return nil
    }
    url = found
  }

  /// The server process's resident memory (`VmRSS` of `/proc/PID/status`), in KiB; nil where unreadable.
  func residentKiB() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return line.split(separator: " ").compactMap { Int($0) }.first
  }

  func stop() {
    kill(pid, SIGTERM)
    _ = waitForChild(pid)
  }

  /// One request and its answer (status, body), over URLSession.
  func send(
    _ method: String, _ path: String, body: Data, token: String? = nil, headers: [String: String] = [:]
  ) throws -> (Int, Data) {
    guard let target = URL(string: url + path) else { throw URLError(.badURL) }
    var request = URLRequest(url: target)
    request.httpMethod = method
    request.httpBody = body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let done = DispatchSemaphore(value: 0)
    let answer = Answer()
    URLSession.shared.dataTask(with: request) { data, response, error in
      answer.value = (data, (response as? HTTPURLResponse)?.statusCode, error)
      done.signal()
    }.resume()
    guard done.wait(timeout: .now() + 60) == .success else { throw URLError(.timedOut) }
    let (data, status, error) = answer.value
    if let error { throw error }
    return (status ?? 0, data ?? Data())
  }

  /// A new traveller (`bench@example.com`) with a test card, signed in: its bearer token.
  func signedInTraveller() throws -> String {
    let encoder = API.makeEncoder()
    let password = "correct horse battery"
    let signUp = API.SignUp(email: "bench@example.com", password: password, firstName: "Bench", lastName: "Traveller")
    _ = try send("POST", "/v1/accounts", body: try encoder.encode(signUp))
    let (status, body) = try send(
      "POST", "/v1/sessions", body: try encoder.encode(API.SignIn(email: signUp.email, password: password)))
    guard status == 201 || status == 200,
      let token = try JSONDecoder().decode(JSONValue.self, from: body)["session"]?["token"]?.stringValue
    else { throw URLError(.userAuthenticationRequired) }
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    let card = API.NewCard(NewPaymentCard(number: "4242424242424242", expiryMonth: 12, expiryYear: year, cvc: "123"))
    _ = try send("POST", "/v1/cards", body: try encoder.encode(card), token: token)
    return token
  }

  private final class Answer: @unchecked Sendable {
    var value: (Data?, Int?, (any Error)?) = (nil, nil, nil)
  }
}

extension BenchmarkSuite {
  /// WebSocket figures of the server group, on the same `travel-server` process:
  /// - `server.ws.idle-memory-per-connection`: `idle` WebSocket connections to `/v1/stream` opened
  ///   from this process over 4 client event loops and left idle; the server process's resident
  ///   memory (`VmRSS`) after they are all open minus before, ÷ `idle`, in KB (target ≤ 10);
  /// - `server.ws.trips-event-latency`: while they are held, one more client signed in and
  ///   following `trips`; flight bookings over HTTP one after another, each of the first offer of a
  ///   search just made (not timed); from sending each
  ///   `POST /v1/flights/bookings` to the `reservation.booked` event arriving on the socket, ms
  ///   (target p99 ≤ 20). A 409 (price moved, sold out) has no event and is not counted.
  func webSocketFigures(server: BenchServer, token: String, searches: [FlightSearchRequest], idle: Int) -> [Figure] {
    let memoryName = "server.ws.idle-memory-per-connection"
    let latencyName = "server.ws.trips-event-latency"
    do {
      try FanoutLimits.allowDescriptors(idle + 512)
    } catch {
      return [Figure.failed(memoryName, unit: "KB", target: 10, "\(error)")]
    }
    guard let port = URL(string: server.url)?.port, let url = URL(string: "ws://127.0.0.1:\(port)/v1/stream"),
      let before = server.residentKiB()
    else {
      return [Figure.failed(memoryName, unit: "KB", target: 10, "cannot read the server's address or memory")]
    }
    do {
      let clients = try (0..<4).map { _ in try WebSocketClient(pingSeconds: 60, idleSeconds: 600) }
      defer { for client in clients { client.shutdown() } }
      let tally = IdleTally()
      var sockets: [(WebSocket, AnyCancellable)] = []
      sockets.reserveCapacity(idle)
      for index in 0..<idle {
        let client = clients[index % clients.count]
        let socket = client.socket(to: url)
        let cancellable = socket.events.sink { event in
          switch event {
          case .opened: tally.opened()
          case .closed: tally.closed()
          case .text: break
          }
        }
        sockets.append((socket, cancellable))
        client.connect(socket, to: url)
        if index % 500 == 499 { Thread.sleep(forTimeInterval: 0.05) }
      }
      let deadline = Date().addingTimeInterval(quick ? 60 : 300)
      while Date() < deadline, tally.counts.open + tally.counts.closed < idle { Thread.sleep(forTimeInterval: 0.1) }
      let (open, closed) = tally.counts
      guard open == idle, closed == 0 else {
        return [
          Figure.failed(
            memoryName, unit: "KB", target: 10,
            "only \(open) of \(idle) WebSocket connections opened (\(closed) closed)")
        ]
      }
      Thread.sleep(forTimeInterval: quick ? 0.5 : 3)
      guard let after = server.residentKiB() else {
        return [Figure.failed(memoryName, unit: "KB", target: 10, "cannot read the server's memory")]
      }
      let perConnection = Double(after - before) * 1.024 / Double(idle)
      let memory = Figure(
        name: memoryName, unit: "KB", target: 10, values: [perConnection],
        note: "\(idle) idle WebSocket connections held by one travel-server: VmRSS \(before) KiB → \(after) KiB")

      // A trips event while they are held.
      let probe = TripsProbe(client: clients[0], url: url, token: token)
      guard probe.waitSubscribed(timeout: 30) else {
        return [memory, Figure.failed(latencyName, goal: .p99AtMost, target: 20, "could not follow trips")]
      }
      let encoder = API.makeEncoder()
      var latencies: [Double] = []
      var conflicts = 0
      var problems: [String] = []
      let bookings = quick ? 5 : 200
      for index in 0..<bookings {
        // A fresh offer each time (the bookings before moved prices); the search is not timed.
        let (found, answer) = try server.send(
          "POST", "/v1/flights/search", body: try encoder.encode(searches[index % searches.count]))
        guard found == 200,
          let offer = try JSONDecoder().decode(JSONValue.self, from: answer)["offers"]?.arrayValue?.first?["id"]?
            .stringValue
        else { continue }
        let body = try encoder.encode(
          API.FlightBooking(offerId: offer, passengers: ["Bench Traveller"], cardId: nil, allowDuplicate: true))
        let sent = DispatchTime.now().uptimeNanoseconds
        let (status, _) = try server.send(
          "POST", "/v1/flights/bookings", body: body, token: token,
          headers: ["Idempotency-Key": "bench-ws-\(UUID().uuidString)"])
        if status == 409 {
          conflicts += 1
          continue
        }
        guard status == 201 else {
          problems.append("a booking was answered \(status)")
          break
        }
        guard let arrived = probe.nextEvent(timeout: 5) else {
          problems.append("no trips event within 5 s of booking \(index + 1)")
          break
        }
        latencies.append(Double(Int64(bitPattern: arrived &- sent)) / 1e6)
      }
      probe.close()
      return [
        memory,
        Figure(
          name: latencyName, unit: "ms", goal: .p99AtMost, target: 20, values: latencies,
          note: "POST /v1/flights/bookings sent → reservation.booked on /v1/stream, \(latencies.count) bookings "
            + "one after another (\(conflicts) answered 409) while \(idle) idle connections are held",
          violation: problems.isEmpty ? nil : problems.joined(separator: "; ")),
      ]
    } catch {
      return [Figure.failed(memoryName, unit: "KB", target: 10, "failed: \(error)")]
    }
  }
}

/// Opened and closed connections of the idle sockets, counted from their event loops.
final class IdleTally: @unchecked Sendable {
  private let lock = NSLock()
  private var open = 0
  private var shut = 0
  func opened() { lock.withLock { open += 1 } }
  func closed() { lock.withLock { shut += 1 } }
  var counts: (open: Int, closed: Int) { lock.withLock { (open, shut) } }
}

/// One signed-in client following `trips`: the arrival instant (monotonic nanoseconds) of each event,
/// handed out in order by ``nextEvent(timeout:)``.
final class TripsProbe: @unchecked Sendable {
  private let socket: WebSocket
  private let lock = NSLock()
  private var subscribed = false
  private var arrivals: [UInt64] = []
  private let arrived = DispatchSemaphore(value: 0)
  private var cancellable: AnyCancellable?

  init(client: WebSocketClient, url: URL, token: String) {
    socket = client.socket(to: url)
    let auth = StreamMessage(type: "auth", token: token).text
    let subscribe = StreamMessage(type: "subscribe", topic: "trips").text
    cancellable = socket.events.sink { [self] event in
      guard case .text(let text) = event else {
        if case .opened = event {
          _ = socket.send(auth)
          _ = socket.send(subscribe)
        }
        return
      }
      let now = DispatchTime.now().uptimeNanoseconds
      guard let message = StreamMessage.parse(text) else { return }
      if message.type == "subscribed" { lock.withLock { subscribed = true } }
      if message.type == "event", message.topic == "trips", message.event == "reservation.booked" {
        lock.withLock { arrivals.append(now) }
        arrived.signal()
      }
    }
    client.connect(socket, to: url)
  }

  func waitSubscribed(timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if lock.withLock({ subscribed }) { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  /// The arrival of the next event not yet handed out, or nil after `timeout` seconds.
  func nextEvent(timeout: TimeInterval) -> UInt64? {
    guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
    return lock.withLock { arrivals.removeFirst() }
  }

  func close() { socket.close() }
}
