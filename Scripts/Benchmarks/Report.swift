import Foundation

/// A whole benchmark run as written to `bench/*.json`.
struct Report: Codable {
  struct Machine: Codable {
    var cpu: String
    var cores: Int
    var memoryGB: Double
    var system: String
  }

  var date: String
  var commit: String
  var mode: String
  var build: String
  var machine: Machine
  /// Milliseconds of the fixed calibration workload in this run.
  var calibrationMilliseconds: Double
  /// The 1-minute load average (`/proc/loadavg`) when the run started and when it ended.
  var loadAverage: [Double]?
  var figures: [Figure]

  /// The 1-minute load average, or nil where `/proc/loadavg` is not readable.
  static func loadAverage() -> Double? {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.flatMap {
      Double($0)
    }
  }

  static func machine() -> Machine {
    let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
      ?? "unknown"
    let process = ProcessInfo.processInfo
    return Machine(
      cpu: model, cores: process.activeProcessorCount,
      memoryGB: (Double(process.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
      system: process.operatingSystemVersionString)
  }
}

/// Prints the table: figure, median, p95, p99, target, pass/fail and the ratio to the baseline
/// (normalised by each run's calibration workload, so machines of different speed compare).
func printTable(_ report: Report, baseline: Report?) -> [String] {
  var regressions: [String] = []
  let header = [
    "figure".padding(toLength: 46, withPad: " ", startingAt: 0), pad("median"), pad("p95"), pad("p99"),
    pad("target", 12), pad("result", 7), pad("vs base", 9),
  ]
  print(header.joined(separator: " "))
  print(String(repeating: "-", count: 46 + 11 * 3 + 12 + 7 + 9 + 6))
  for figure in report.figures {
    var ratioText = "-"
    if let baseline, let old = baseline.figures.first(where: { $0.name == figure.name }), old.median > 0,
      figure.median > 0
    {
      let baseCalibration = old.calibrationMilliseconds ?? baseline.calibrationMilliseconds
      let scale = baseCalibration > 0 ? report.calibrationMilliseconds / baseCalibration : 1
      let expected = old.median * (figure.unit == "ms" ? scale : 1)
      let ratio = figure.isMaximum ? figure.median / expected : expected / figure.median
      ratioText = String(format: "%.2f×", ratio)
      if ratio > 1.5 { regressions.append("\(figure.name): \(ratioText) worse than the baseline") }
    }
    let target =
      figure.target.map {
        (figure.goal == .p99AtMost ? "p99 ≤ " : figure.goal == .atMost ? "≤ " : "≥ ") + format($0)
      } ?? "-"
    let row = [
      "\(figure.name) (\(figure.unit))".padding(toLength: 46, withPad: " ", startingAt: 0),
      pad(format(figure.median)), pad(format(figure.p95)), pad(format(figure.p99)), pad(target, 12),
      pad(figure.violation != nil ? "FAIL" : figure.target == nil ? "-" : (figure.passes ? "pass" : "FAIL"), 7),
      pad(ratioText, 9),
    ]
    print(row.joined(separator: " "))
    if let note = figure.note { print("    \(note)") }
    if let violation = figure.violation { print("    FAILED: \(violation)") }
  }
  return regressions
}

private func pad(_ text: String, _ width: Int = 10) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func format(_ value: Double) -> String {
  if value >= 1000 { return String(format: "%.0f", value) }
  if value >= 100 { return String(format: "%.1f", value) }
  if value >= 1 { return String(format: "%.2f", value) }
  return String(format: "%.3f", value)
}

/// Merges the figures of `run` into `baseline` (`Scripts/bench --only GROUP --record-baseline`):
/// each figure of the run replaces the baseline's figure of the same name (or is appended),
/// stamped with the run's calibration so that later comparisons scale it by the right run; the
/// baseline's other figures, date, commit and machine stay as they were.
func mergeBaseline(run: Report, into baseline: Report) -> Report {
  var merged = baseline
  for var figure in run.figures {
    figure.calibrationMilliseconds = run.calibrationMilliseconds
    if let index = merged.figures.firstIndex(where: { $0.name == figure.name }) {
      merged.figures[index] = figure
    } else {
      merged.figures.append(figure)
    }
  }
  return merged
}
