import Backend
import Common
import CommonTesting
import Foundation
import Reactive
import Server
import Transport

#if canImport(Glibc)
  import Glibc
#endif

/// WebSocket fan-out of live flight status (#18): one travel-server — in a child process of its
/// own (`TravelBenchmarks --child fanout-server N`: both ends of 10,000 connections do not fit one
/// process's open files where `ulimit -Hn` is 20,000), its connection cap raised to fit
/// (`TravelServer.Configuration.transport.maxConnections`, as `travel-server --max-connections`) —
/// and `subscribers` WebSocket clients in this process, spread over several client event loops
/// (``WebSocketClient``, one libwebsockets context and service thread each), all following one
/// board topic.
///
/// The server's board feed publishes changes at a steady rate, in phases on the same
/// connections: first the figure's rate (``FanoutPlan/rate``, 1 a second: see
/// ``FanoutPlan``) for a minute, then a sweep of higher rates, 10 s each, ascending, which stops
/// after the first rate whose p99 is over 50 ms or that loses anything (where it breaks).
/// Latency: from the instant the feed publishes a change (the child reports it, monotonic clock,
/// the same on both sides of one machine) to the instant each subscriber's socket hands it over;
/// every subscriber's sequence numbers are checked (each change once, in order, none missing,
/// nobody disconnected). The CPU time of both processes over each phase is in the notes (the
/// client's loops run on the same cores as the server).
extension BenchmarkSuite {
  func fanoutFigures() -> [Figure] {
    let plan = FanoutPlan(quick: quick, rates: fanoutRates, seconds: fanoutSeconds, subscribers: fanoutSubscribers)
    let subscribers = plan.subscribers
    // Two client loops (each a service thread and two workers): on a 2-core machine more threads
    // only add context switches to the client's share (its loops run on libev's epoll).
    let loops = 2
    let name = "fanout.board-delivery-latency"
    let changes = plan.totalChanges
    var figures = [fanoutPeakFigure()]
    do {
      try FanoutLimits.allowDescriptors(subscribers + 512)
    } catch {
      return figures + [Figure.failed(name, goal: .p99AtMost, target: 50, "\(error)")]
    }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: benchBinary)
    child.arguments = ["--child", "fanout-server", String(subscribers), String(changes)]
    let input = Pipe()
    let output = Pipe()
    child.standardInput = input
    child.standardOutput = output
    child.standardError = FileHandle.standardError
    do { try child.run() } catch {
      return figures + [
        Figure.failed(name, goal: .p99AtMost, target: 50, "cannot start the server process: \(error)")
      ]
    }
    defer {
      try? input.fileHandleForWriting.close()
      let deadline = Date().addingTimeInterval(15)
      while child.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
    }
    let stamps = FanoutStamps(capacity: changes)
    let reader = FanoutChildReader(output.fileHandleForReading, stamps: stamps)
    guard let port = reader.waitForPort(timeout: 120) else {
      return figures + [Figure.failed(name, goal: .p99AtMost, target: 50, "the server process did not start")]
    }
    do {
      let date = LocalDate(Date(), in: TimeZone(identifier: "Europe/Berlin")!)
      let url = URL(string: "ws://127.0.0.1:\(port)/v1/stream")!
      let topic = "board:FRA:departures:\(date)"
      let clients = try (0..<loops).map { _ in try WebSocketClient(pingSeconds: 30, idleSeconds: 120) }
      defer { for client in clients { client.shutdown() } }

      // Everybody connects and follows the topic (snapshot, then `subscribed`).
      let connectStart = Date()
      var sockets: [FanoutSubscriber] = []
      sockets.reserveCapacity(subscribers)
      for index in 0..<subscribers {
        sockets.append(FanoutSubscriber(client: clients[index % loops], url: url, topic: topic, changes: changes))
        if index % 500 == 499 { Thread.sleep(forTimeInterval: 0.05) }
      }
      let deadline = Date().addingTimeInterval(quick ? 60 : 300)
      while Date() < deadline, sockets.contains(where: { !$0.isReady && !$0.isClosed }) {
        Thread.sleep(forTimeInterval: 0.1)
      }
      let ready = sockets.filter(\.isReady).count
      guard ready == subscribers else {
        return figures + [
          Figure.failed(
            name, goal: .p99AtMost, target: 50,
            "only \(ready) of \(subscribers) subscribers got the snapshot and subscribed "
              + "(\(sockets.filter(\.isClosed).count) closed: \(sockets.first(where: \.isClosed)?.closeReason ?? ""))")
        ]
      }
      let connectSeconds = Date().timeIntervalSince(connectStart)
      figures.append(
        Figure(
          name: "fanout.subscribe-all", unit: "s", target: nil, values: [connectSeconds],
          note: "\(subscribers) connections opened, each sent the board's snapshot (12 flights) and subscribed"))
      Thread.sleep(forTimeInterval: 1)

      var published = 0
      for (index, phase) in plan.phases.enumerated() {
        // The server's feed publishes `phase.rate` changes a second, on schedule.
        let count = phase.changes
        let cpuBefore = (client: CPUTime.of(getpid()), server: CPUTime.of(child.processIdentifier))
        input.fileHandleForWriting.write(Data("publish \(count) \(phase.rate)\n".utf8))
        let target = published + count
        let drained = Date().addingTimeInterval(phase.seconds + 60)
        while Date() < drained, sockets.contains(where: { $0.received < target && !$0.isClosed }) {
          Thread.sleep(forTimeInterval: 0.1)
        }
        _ = reader.waitForStamps(target, timeout: 10)
        let cpu = (
          client: CPUTime.of(getpid()) - cpuBefore.client,
          server: CPUTime.of(child.processIdentifier) - cpuBefore.server
        )
        published = target

        var latencies: [Double] = []
        latencies.reserveCapacity(subscribers * count)
        var problems: [String] = []
        var short = 0
        var unstamped = 0
        for socket in sockets {
          let result = socket.takeArrivals()
          for (sequence, arrived) in result.arrivals {
            let sent = stamps.get(sequence)
            if sent == 0 { unstamped += 1 } else { latencies.append(Double(Int64(bitPattern: arrived &- sent)) / 1e6) }
          }
          if result.arrivals.count != count { short += 1 }
          if let problem = result.problems.first, problems.count < 3 { problems.append(problem) }
        }
        if unstamped > 0 { problems.insert("\(unstamped) deliveries without the server's publish instant", at: 0) }
        if short > 0 { problems.insert("\(short) subscriber(s) did not get all \(count) changes", at: 0) }
        let closed = sockets.filter(\.isClosed).count
        if closed > 0 {
          let first = sockets.first(where: \.isClosed)
          problems.insert(
            "\(closed) subscriber(s) were disconnected (the first after \(first?.received ?? 0) changes: "
              + "\(first?.closeReason ?? "?"))", at: 0)
        }
        let deliveries = Double(max(1, latencies.count))
        let cost = String(
          format: "CPU: server %.1f ms, client %.1f ms per change (%.1f and %.1f µs per delivery)",
          cpu.server * 1000 / Double(count), cpu.client * 1000 / Double(count), cpu.server * 1e6 / deliveries,
          cpu.client * 1e6 / deliveries)
        let figure = Figure(
          name: index == 0 ? name : "fanout.sweep.\(FanoutPlan.label(phase.rate))-per-second", unit: "ms",
          goal: .p99AtMost, target: 50, values: latencies,
          note: "\(subscribers) WebSocket subscribers of one board topic on \(loops) client loops, "
            + "\(FanoutPlan.label(phase.rate)) changes/s for \(Int(phase.seconds)) s: \(latencies.count) deliveries, "
            + "server feed → client; sequences checked per subscriber; \(cost)",
          // The figure's rate must lose nothing; a sweep rate that does is where it breaks.
          violation: index == 0 && !problems.isEmpty ? problems.joined(separator: "; ") : nil)
        if index > 0, !problems.isEmpty {
          figures.append(withNote(figure, "broke: " + problems.joined(separator: "; ")))
        } else {
          figures.append(figure)
        }
        // The sweep stops at the first rate that breaks: p99 over 50 ms, or anything lost.
        if index > 0, !figure.passes || !problems.isEmpty || closed > 0 { break }
        if closed > 0 { break }
        Thread.sleep(forTimeInterval: 1)
      }
      return figures
    } catch {
      return figures + [Figure.failed(name, goal: .p99AtMost, target: 50, "failed: \(error)")]
    }
  }

  private func withNote(_ figure: Figure, _ extra: String) -> Figure {
    var copy = figure
    copy.note = (copy.note.map { $0 + "; " } ?? "") + extra
    return copy
  }

  /// `fanout.busiest-board-peak`: how fast a real busy board topic changes, from the simulation
  /// (the model of #18, on published on-time statistics and schedules): the busiest airport's
  /// departures board on ``statusDate``, its changes counted per minute; the figure is the
  /// busiest minute's rate (changes a second), the note gives the day's average too.
  func fanoutPeakFigure() -> Figure {
    let name = "fanout.busiest-board-peak"
    let network: FlightNetwork
    do { network = try FlightsWiring.world().0 } catch {
      return Figure.failed(name, unit: "1/s", target: nil, "cannot load the world: \(error)")
    }
    let operations = FlightOperations(network: network)
    let airport = operations.busiestAirport
    let date = Self.statusDate
    let zone = TimeZone(identifier: operations.timeZone(of: airport)) ?? .gmt
    let midnight = date.instant(hour: 0, in: zone)
    var perMinute: [Int] = []
    perMinute.reserveCapacity(1440)
    for minute in 0..<1440 {
      let start = midnight.addingTimeInterval(Double(minute) * 60)
      perMinute.append(operations.boardChanges(airport: airport, date: date, from: start, to: start + 60))
    }
    let total = perMinute.reduce(0, +)
    let peak = perMinute.max() ?? 0
    let peakMinute = perMinute.firstIndex(of: peak) ?? 0
    let busiestHour = (0..<24).map { hour in perMinute[(hour * 60)..<(hour * 60 + 60)].reduce(0, +) }
    return Figure(
      name: name, unit: "1/s", target: nil, values: [Double(peak) / 60],
      note: "\(airport) departures board on \(date) (the simulation's busiest airport): \(total) changes in the day "
        + String(format: "(%.3f/s on average)", Double(total) / 86_400) + ", busiest hour "
        + "\(busiestHour.max() ?? 0) changes, busiest minute \(peak) (at "
        + String(format: "%02d:%02d", peakMinute / 60, peakMinute % 60) + " local)")
  }
}

/// The fan-out benchmark's phases: the figure's rate, then the sweep.
///
/// The figure's rate, 1 change a second on one board, is that of a very busy real board with a
/// wide margin: the simulation's busiest departures board (`fanout.busiest-board-peak`, CDG's
/// 623 departures a day at about 9.5 changes each — gate, boarding, gate closed, out, off and
/// time changes, as FlightAware AeroAPI's and Cirium's flight-status events count them) changes
/// about 0.07 times a second over its day and a few times a minute in its busiest minutes; the
/// world's busiest real airport (Atlanta, about 1,100 departures a day) would be about 0.12 a
/// second. The sweep's rates (2 to 100 a second) are beyond any real board: they find where the
/// server and its clients on this machine stop keeping up.
struct FanoutPlan {
  struct Phase {
    var rate: Double
    var seconds: Double
    var changes: Int { max(1, Int((rate * seconds).rounded())) }
  }

  let subscribers: Int
  let phases: [Phase]

  /// The figure's rate (changes a second).
  static let rate = 1.0

  /// `rates`: the figure's rate first, then the sweep's (`TravelBenchmarks --fanout-rates 1,5,20`);
  /// nil: 1, then 2, 5, 10, 20, 50, 100 (quick: 200 subscribers, 5 a second for 3 s, no sweep).
  /// `seconds`: how long the figure's rate runs (`--fanout-seconds`; nil: 60); each sweep rate 10 s.
  /// `subscribers`: `--fanout-subscribers` (nil: 10,000; quick: 200).
  init(quick: Bool, rates: [Double]?, seconds: Double? = nil, subscribers: Int? = nil) {
    self.subscribers = subscribers ?? (quick ? 200 : 10_000)
    if quick {
      phases = (rates ?? [5]).prefix(1).map { Phase(rate: $0, seconds: 3) }
    } else {
      let all = rates ?? [Self.rate, 2, 5, 10, 20, 50, 100]
      phases = all.enumerated().map { Phase(rate: $0.element, seconds: $0.offset == 0 ? seconds ?? 60 : 10) }
    }
  }

  var totalChanges: Int { phases.reduce(0) { $0 + $1.changes } }

  static func label(_ rate: Double) -> String {
    rate == rate.rounded() ? String(Int(rate)) : String(format: "%.2f", rate)
  }
}

/// CPU time (user + system) of a process, from `/proc/PID/stat`, in seconds.
enum CPUTime {
  static func of(_ pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // After the command's closing parenthesis: state is field 3; utime and stime are 14 and 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

/// `TravelBenchmarks --child fanout-server SUBSCRIBERS CHANGES`: a travel-server for
/// ``BenchmarkSuite/fanoutFigures()`` on a free loopback port over a ``FanoutBoardFeed``. Prints
/// `port N`; then, for `publish COUNT RATE` on stdin, publishes COUNT changes at RATE a second,
/// printing `stamp SEQUENCE NANOSECONDS` (monotonic) as each is published; stops at the end of stdin.
func runFanoutServer(_ arguments: [String]) -> Int32 {
  guard arguments.count == 2, let subscribers = Int(arguments[0]), let changes = Int(arguments[1]) else { return 2 }
  do {
    try FanoutLimits.allowDescriptors(subscribers + 512)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "travel-bench-fanout-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = FileHandle.standardOutput
    let feed = FanoutBoardFeed(
      date: LocalDate(Date(), in: TimeZone(identifier: "Europe/Berlin")!), flights: 12, changes: changes
    ) { sequence, nanoseconds in out.write(Data("stamp \(sequence) \(nanoseconds)\n".utf8)) }
    var transport = HTTPServer.Configuration()
    transport.maxConnections = subscribers + 64
    let server = try TravelServer(
      configuration: TravelServer.Configuration(
        port: 0, dataDirectory: directory, accessLog: { _ in }, transport: transport, flightStatus: feed))
    defer { server.shutdown(timeout: 5) }
    out.write(Data("port \(server.port)\n".utf8))
    while let line = readLine() {
      let parts = line.split(separator: " ")
      guard parts.count == 3, parts[0] == "publish", let count = Int(parts[1]), let rate = Double(parts[2]) else {
        continue
      }
      let start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<count {
        let due = start + UInt64(Double(index) / rate * 1e9)
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { usleep(UInt32((due - now) / 1000)) }
        feed.publish()
      }
    }
    return 0
  } catch {
    FileHandle.standardError.write(Data("fanout-server: \(error)\n".utf8))
    return 1
  }
}

/// Reads the server process's lines: its port, then each change's publish instant.
final class FanoutChildReader: @unchecked Sendable {
  private let lock = NSLock()
  private var port: Int?
  private var stamped = 0
  private var pending = Data()

  init(_ handle: FileHandle, stamps: FanoutStamps) {
    handle.readabilityHandler = { [self] handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      lock.withLock {
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 10) {
          let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
          pending.removeSubrange(pending.startIndex...newline)
          let parts = line.split(separator: " ")
          if parts.count == 2, parts[0] == "port" { port = Int(parts[1]) }
          if parts.count == 3, parts[0] == "stamp", let sequence = Int(parts[1]), let at = UInt64(parts[2]) {
            stamps.set(sequence, at)
            stamped += 1
          }
        }
      }
    }
  }

  func waitForPort(timeout: TimeInterval) -> Int? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let port = lock.withLock({ port }) { return port }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
  }

  func waitForStamps(_ count: Int, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if lock.withLock({ stamped >= count }) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return false
  }
}

/// Publish instants (monotonic nanoseconds) by board sequence, as the server process reports them;
/// read once everything arrived. `@unchecked Sendable`: written by the reader under its lock, read
/// after it is done.
final class FanoutStamps: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<UInt64>

  init(capacity: Int) {
    slots = .allocate(capacity: capacity + 2)
    slots.initialize(repeating: 0)
  }

  deinit { slots.deallocate() }

  func set(_ sequence: Int, _ nanoseconds: UInt64) {
    if sequence >= 0, sequence < slots.count { slots[sequence] = nanoseconds }
  }

  func get(_ sequence: Int) -> UInt64 { sequence >= 0 && sequence < slots.count ? slots[sequence] : 0 }
}

/// A board of `flights` departures at FRA whose changes are made by ``publish()``: each a gate
/// change of the next flight, numbered in the board's sequence. The rest of
/// ``FlightStatusService`` answers for that board only.
final class FanoutBoardFeed: FlightStatusService, @unchecked Sendable {
  let clock = TravelClock()
  /// Called with each change's board sequence and publish instant (monotonic nanoseconds).
  private let onPublish: @Sendable (Int, UInt64) -> Void
  private let lock = NSLock()
  private var board: FlightBoard
  private let subject = PassthroughSubject<FlightBoardEvent, ServiceError>()

  init(date: LocalDate, flights: Int, changes: Int, onPublish: @escaping @Sendable (Int, UInt64) -> Void) {
    self.onPublish = onPublish
    let statuses = (0..<flights).map { index in
      FlightStatus.fixture(
        "LH\(400 + 2 * index)", from: "FRA", to: "JFK", date: date,
        departure: String(format: "%02d:%02d", 6 + index / 2, (index % 2) * 30), blockMinutes: 530,
        fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
    }
    board = FlightBoard(
      airport: "FRA", airportName: "Frankfurt am Main", city: "Frankfurt", timeZone: "Europe/Berlin", date: date,
      direction: .departures, flights: statuses, sequence: 0, asOf: Date())
  }

  /// The next change: flight `sequence % flights` moves to another gate.
  func publish() {
    let update = lock.withLock { () -> FlightBoardUpdate in
      let index = board.sequence % board.flights.count
      let old = board.flights[index]
      var new = old
      new.departure.gate = "B\(board.sequence % 60 + 1)"
      new.sequence += 1
      new.updatedAt = Date()
      board.flights[index] = new
      board.sequence += 1
      board.asOf = Date()
      return FlightBoardUpdate(sequence: board.sequence, update: FlightStatusUpdate(from: old, to: new))
    }
    onPublish(update.sequence, DispatchTime.now().uptimeNanoseconds)
    subject.send(.update(update))
  }

  private func notHere(_ what: String) -> ServiceError {
    ServiceError(.notFound, code: "flight_not_found", message: "the fan-out benchmark has no \(what)")
  }

  func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    guard let status = lock.withLock({ board.flights.first { $0.flight == flight } }) else {
      throw notHere("\(flight)")
    }
    return status.key
  }

  func status(_ key: FlightStatusKey) throws -> FlightStatus {
    guard let status = lock.withLock({ board.flights.first { $0.key == key } }) else { throw notHere("\(key)") }
    return status
  }

  func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    guard airport == "FRA", direction == .departures else { throw notHere("board of \(airport) \(direction)") }
    return lock.withLock { board }
  }

  func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<FlightStatusEvent, ServiceError> {
    Fail(error: notHere("feed of \(key)")).eraseToAnyPublisher()
  }

  func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    guard airport == "FRA", direction == .departures, sequence == nil else {
      return Fail(error: notHere("board feed of \(airport) \(direction) after \(sequence ?? 0)")).eraseToAnyPublisher()
    }
    return Deferred { [self] in lock.withLock { subject.prepend(.snapshot(board)) } }.eraseToAnyPublisher()
  }

  func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    Fail(error: notHere("trips")).eraseToAnyPublisher()
  }
}

/// One subscriber's connection: subscribes when open, takes the snapshot's sequence, then checks
/// each change's sequence (the next one, exactly) and records when it arrived. Messages of one socket
/// arrive one at a time (its mailbox); the lock guards the state read by the benchmark's thread.
final class FanoutSubscriber: @unchecked Sendable {
  private let socket: WebSocket
  private let lock = NSLock()
  private var subscribed = false
  private var last: Int?
  private var count = 0
  /// (sequence, arrival in monotonic nanoseconds) of each change.
  private var arrivals: [(Int, UInt64)] = []
  private var problems: [String] = []
  private var closed: String?
  private var cancellable: AnyCancellable?

  init(client: WebSocketClient, url: URL, topic: String, changes: Int) {
    arrivals.reserveCapacity(changes)
    socket = client.socket(to: url)
    let subscribe = StreamMessage(type: "subscribe", topic: topic).text
    cancellable = socket.events.sink { [self] event in
      switch event {
      case .opened: _ = socket.send(subscribe)
      case .text(let text): receive(text)
      case .closed(let code, let reason): lock.withLock { closed = "\(code) \(reason)" }
      }
    }
    client.connect(socket, to: url)
  }

  var isReady: Bool { lock.withLock { subscribed && last != nil } }
  var isClosed: Bool { lock.withLock { closed != nil } }
  var closeReason: String? { lock.withLock { closed } }
  var received: Int { lock.withLock { count } }

  /// The arrivals recorded since the last call (and every problem so far); they are forgotten here.
  func takeArrivals() -> (arrivals: [(Int, UInt64)], problems: [String]) {
    lock.withLock {
      defer { arrivals.removeAll(keepingCapacity: true) }
      return (arrivals, problems)
    }
  }

  private func receive(_ text: String) {
    let arrived = DispatchTime.now().uptimeNanoseconds
    // A change: the envelope's keys are sorted, so its own `"sequence":` is the last one.
    if let sequence = Self.lastSequence(in: text, ifEvent: Self.updateMarker) {
      lock.withLock {
        count += 1
        if let last, sequence != last + 1, problems.count < 3 {
          problems.append("a subscriber got change \(sequence) after \(last)")
        }
        last = sequence
        arrivals.append((sequence, arrived))
      }
      return
    }
    guard let message = StreamMessage.parse(text) else { return }
    lock.withLock {
      switch message.type {
      case "subscribed": subscribed = true
      case "event" where message.event == "board.snapshot": last = message.sequence.map(Int.init)
      case "error": problems.append("error \(message.code ?? ""): \(message.message ?? "")")
      default: break
      }
    }
  }

  /// What precedes a board change's own sequence number.
  static let updateMarker = marker(forEvent: "board.update")

  /// `"event":"EVENT","sequence":` as bytes.
  static func marker(forEvent event: String) -> [UInt8] { Array("\"event\":\"\(event)\",\"sequence\":".utf8) }

  /// The number after the last `marker` (``marker(forEvent:)``) in the last 320 bytes of `text`,
  /// nil when there is none: `…"event":"board.update","sequence":7,"time":…,"type":"event"}`.
  /// Reads the string's bytes in place, without copying them (the client's share of the
  /// benchmark's CPU is part of what is measured).
  static func lastSequence(in text: String, ifEvent marker: [UInt8]) -> Int? {
    var text = text
    return text.withUTF8 { bytes -> Int? in
      let floor = max(0, bytes.count - 320)
      var start = bytes.count - marker.count
      while start >= floor {
        if bytes[start] == marker[0], bytes[start + marker.count - 1] == marker[marker.count - 1] {
          var matches = true
          for offset in 1..<(marker.count - 1) where bytes[start + offset] != marker[offset] {
            matches = false
            break
          }
          if matches {
            var value = 0
            var index = start + marker.count
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
              value = value * 10 + Int(bytes[index] - 48)
              index += 1
            }
            return index > start + marker.count ? value : nil
          }
        }
        start -= 1
      }
      return nil
    }
  }
}

/// The open-file limit of a benchmark process.
enum FanoutLimits {
  /// Raises `RLIMIT_NOFILE` to `count` (the hard limit too where allowed, as for a privileged user).
  /// - Throws: a message naming both numbers when the limit cannot be raised.
  static func allowDescriptors(_ count: Int) throws {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let needed = rlim_t(count)
    guard limit.rlim_cur < needed else { return }
    var raised = limit
    raised.rlim_cur = needed
    raised.rlim_max = max(limit.rlim_max, needed)
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 {
      throw ServiceError(
        .unavailable, code: "open_file_limit",
        message: "the fan-out needs \(count) open files; this process may open \(limit.rlim_cur) "
          + "(hard limit \(limit.rlim_max), ulimit -Hn): raise it")
    }
  }
}
