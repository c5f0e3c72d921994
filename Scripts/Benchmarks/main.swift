// The benchmarks of Scripts/bench: what the app exists for, measured against targets.
// Run through Scripts/bench (release build); see its header for the options.
import Foundation

struct Options {
  var quick = false
  var output: String?
  var baseline: String?
  var check = false
  var only: String?
  /// `--fanout-rates R1,R2,…`: the fan-out figure's rate, then the sweep's (changes a second).
  var fanoutRates: [Double]?
  /// `--fanout-seconds S`: how long the fan-out figure's rate runs (60 s by default).
  var fanoutSeconds: Double?
  /// `--fanout-subscribers N`: the fan-out's subscribers (10,000 by default).
  var fanoutSubscribers: Int?
}

if CommandLine.arguments.dropFirst().first == "--child" {
  exit(runChildMode(Array(CommandLine.arguments.dropFirst(2))))
}

// `--merge-baseline RUN BASELINE`: merge the figures of one run (of one group) into the baseline.
if CommandLine.arguments.dropFirst().first == "--merge-baseline", CommandLine.arguments.count == 4 {
  let (runPath, baselinePath) = (CommandLine.arguments[2], CommandLine.arguments[3])
  do {
    let decoder = JSONDecoder()
    let run = try decoder.decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: runPath)))
    let baseline = try decoder.decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: baselinePath)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(mergeBaseline(run: run, into: baseline)).write(to: URL(fileURLWithPath: baselinePath))
    print("baseline: \(run.figures.count) figure(s) of this run merged into \(baselinePath)")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("travel-bench: cannot merge \(runPath) into \(baselinePath): \(error)\n".utf8))
    exit(1)
  }
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--quick": options.quick = true
  case "--check": options.check = true
  case "--out": options.output = arguments.next()
  case "--baseline": options.baseline = arguments.next()
  case "--only": options.only = arguments.next()
  case "--fanout-rates":
    let rates = arguments.next()?.split(separator: ",").compactMap { Double($0) }.filter { $0 > 0 } ?? []
    guard !rates.isEmpty else {
      FileHandle.standardError.write(
        Data(
          "travel-bench: --fanout-rates takes changes a second, e.g. 1,5,20 (the figure's rate, then the sweep's)\n"
            .utf8))
      exit(2)
    }
    options.fanoutRates = rates
  case "--fanout-seconds":
    guard let seconds = arguments.next().flatMap(Double.init), seconds > 0 else {
      FileHandle.standardError.write(Data("travel-bench: --fanout-seconds takes a number of seconds, e.g. 60\n".utf8))
      exit(2)
    }
    options.fanoutSeconds = seconds
  case "--fanout-subscribers":
    guard let count = arguments.next().flatMap(Int.init), count > 0 else {
      FileHandle.standardError.write(Data("travel-bench: --fanout-subscribers takes a count, e.g. 10000\n".utf8))
      exit(2)
    }
    options.fanoutSubscribers = count
  default:
    FileHandle.standardError.write(Data("travel-bench: unknown option \(argument)\n".utf8))
    exit(2)
  }
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  .deletingLastPathComponent()
let suite = BenchmarkSuite(
  quick: options.quick, packageRoot: packageRoot, binDirectory: binDirectory, only: options.only,
  fanoutRates: options.fanoutRates, fanoutSeconds: options.fanoutSeconds,
  fanoutSubscribers: options.fanoutSubscribers)

let selfChecks = SelfChecks.run()
if !selfChecks.failures.isEmpty {
  print("self-checks of the benchmark FAILED:")
  selfChecks.failures.forEach { print("  \($0)") }
  exit(1)
}
print("self-checks: \(selfChecks.count) passed (percentiles, contention verifier, hard-pair selection)")

// Calibrated before and after the figures (the median of both), with the load average at both
// ends: the machine is shared, and a busy one inflates every figure.
let loadAtStart = Report.loadAverage()
var calibration = sample(count: options.quick ? 3 : 15, warmup: 1) { _ in _ = calibrationWorkload() }
let figures = suite.run()
calibration += sample(count: options.quick ? 3 : 15, warmup: 1) { _ in _ = calibrationWorkload() }
let loadAtEnd = Report.loadAverage()

let report = Report(
  date: ISO8601DateFormatter().string(from: Date()),
  commit: suite.gitCommit(),
  mode: options.quick ? "quick" : "full",
  build: binDirectory.lastPathComponent,
  machine: Report.machine(),
  calibrationMilliseconds: Figure.percentile(calibration.sorted(), 0.5),
  loadAverage: [loadAtStart, loadAtEnd].compactMap { $0 },
  figures: figures)

var baseline: Report?
if let path = options.baseline, let data = FileManager.default.contents(atPath: path) {
  baseline = try? JSONDecoder().decode(Report.self, from: data)
}
print(
  "travel benchmarks — \(report.mode), \(report.build) build, commit \(report.commit), \(report.machine.cores) cores, "
    + "calibration \(format(report.calibrationMilliseconds)) ms, load average (1 min) "
    + (report.loadAverage ?? []).map { String(format: "%.2f", $0) }.joined(separator: " → "))
let regressions = printTable(report, baseline: baseline)

if let output = options.output {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  do {
    try encoder.encode(report).write(to: URL(fileURLWithPath: output))
  } catch {
    FileHandle.standardError.write(Data("travel-bench: cannot write \(output): \(error)\n".utf8))
    exit(1)
  }
}
let failures = figures.filter { !$0.passes }
if !failures.isEmpty {
  print("\(failures.count) figure(s) miss their target: \(failures.map(\.name).joined(separator: ", "))")
}
let violations = figures.filter { $0.violation != nil }
if !violations.isEmpty {
  print("FAILED checks (the run fails whatever the timings):")
  violations.forEach { print("  \($0.name): \($0.violation!)") }
}
if options.check && !regressions.isEmpty {
  print("regressions against the baseline (more than 1.5× worse):")
  regressions.forEach { print("  \($0)") }
  exit(1)
}
if !violations.isEmpty { exit(1) }
