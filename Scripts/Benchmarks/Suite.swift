import Foundation

/// The figures of the benchmark, in table order. Each measurement lives in its own method.
struct BenchmarkSuite {
  var quick: Bool
  var packageRoot: URL
  var binDirectory: URL
  var only: String?
  /// The fan-out's rates (``FanoutPlan``); nil: its defaults.
  var fanoutRates: [Double]? = nil
  /// How long the fan-out figure's rate runs; nil: 60 s.
  var fanoutSeconds: Double? = nil
  /// The fan-out's subscribers; nil: 10,000 (quick: 200).
  var fanoutSubscribers: Int? = nil

  /// Repetitions: enough for a p99 in a full run, a handful in quick mode.
  func count(_ full: Int) -> Int { quick ? max(3, full / 20) : full }

  func run() -> [Figure] {
    var figures: [Figure] = []
    func add(_ name: String, _ make: () -> [Figure]) {
      guard only == nil || name.hasPrefix(only!) else { return }
      figures += make()
    }
    add("referencedata") { referenceDataLoad() }
    add("autocomplete") { autocomplete() }
    add("coldstart") { coldStart() + coldStartSearch() }
    add("memory") { memorySession() }
    add("hotels") { hotels() + hotelMap() }
    add("rebuild") { quick ? [] : rebuildRatio() }
    add("backend") { backendFigures() + contentionFigures() }
    add("cars") { carFigures() }
    add("flights") { flightFigures() }
    add("ui") { uiFigures() }
    add("reactive") { reactiveFigures() }
    add("boarding") { boardingFigures() }
    add("status") { statusFigures() }
    add("chat") { chatFigures() }
    add("fanout") { fanoutFigures() }
    add("radar") { radarFigures() }
    add("server") { serverFigures() }
    return figures
  }

  func environment(dataDirectory: String? = nil) -> [String: String] {
    var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
    env["HOME"] = ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"
    if let dataDirectory { env["TRAVEL_DATA_DIR"] = dataDirectory }
    return env
  }

  /// Cold start: the wall time of whole processes, as a user starts them.
  func coldStart() -> [Figure] {
    let travel = binDirectory.appendingPathComponent("travel").path
    let runs = (0..<count(60)).map { _ in spawn(travel, ["--help"], environment: environment()) }
    let failed = runs.filter { $0.status != 0 }.count
    return [
      Figure(
        name: "coldstart.travel-help", unit: "ms", target: 30, values: runs.map(\.milliseconds),
        note: failed > 0 ? "\(failed) run(s) exited non-zero" : nil)
    ]
  }

  /// The targets article's claim: touching a feature rebuilds less than touching Common.
  /// Incremental debug builds of `travel` after touching one file; ratio Booking ÷ Common.
  func rebuildRatio() -> [Figure] {
    let booking = packageRoot.appendingPathComponent("Sources/Booking/BookingCommands.swift")
    let common = packageRoot.appendingPathComponent("Sources/Common/Models/Money.swift")
    guard build() != nil else { return [] }
    var bookingTimes: [Double] = []
    var commonTimes: [Double] = []
    for _ in 0..<3 {
      touch(booking)
      if let time = build() { bookingTimes.append(time) }
      touch(common)
      if let time = build() { commonTimes.append(time) }
    }
    let ratios = zip(bookingTimes, commonTimes).map { $0 / $1 }
    return [
      Figure(name: "rebuild.debug.touch-booking", unit: "ms", target: nil, values: bookingTimes),
      Figure(name: "rebuild.debug.touch-common", unit: "ms", target: nil, values: commonTimes),
      Figure(
        name: "rebuild.ratio.booking-to-common", unit: "ratio", target: 1, values: ratios,
        note: "incremental `swift build --product travel` (debug) after touching one file"),
    ]
  }

  private func touch(_ file: URL) {
    // One second apart, so the build never misses the change (LINUX-NOTES §9).
    Thread.sleep(forTimeInterval: 1.1)
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
  }

  private func build() -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "build", "--product", "travel", "--package-path", packageRoot.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }

  func gitCommit() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", packageRoot.path, "rev-parse", "--short", "HEAD"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "unknown" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? "unknown" : text
  }
}
