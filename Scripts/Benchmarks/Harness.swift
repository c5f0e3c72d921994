import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One measured figure of the benchmark table: samples in `unit`, summarised as median, p95
/// and p99 (nearest-rank percentiles), checked against `target`.
struct Figure: Codable {
  enum Goal: String, Codable {
    /// Smaller is better (times, memory); the target is a maximum.
    case atMost
    /// Larger is better (throughput); the target is a minimum.
    case atLeast
    /// Smaller is better, and the target is a maximum for the p99 (frame times under load).
    case p99AtMost
  }

  var name: String
  var unit: String
  var goal: Goal
  var target: Double?
  var samples: Int
  var median: Double
  var p95: Double
  var p99: Double
  /// Free text shown under the table (e.g. "0 lost, 0 doubled").
  var note: String?
  /// Set when the figure's own checks failed (a booking lost or doubled, a hard flight pair that
  /// is no longer hard, a benchmark that could not run): the run exits 1 whatever the timings.
  var violation: String?
  /// The calibration of the run that measured this figure, when it differs from its report's:
  /// set on the figures of one group merged into a baseline recorded by another run
  /// (`Scripts/bench --only GROUP --record-baseline`).
  var calibrationMilliseconds: Double?

  init(
    name: String, unit: String, goal: Goal = .atMost, target: Double?, values: [Double], note: String? = nil,
    violation: String? = nil
  ) {
    self.name = name
    self.unit = unit
    self.goal = goal
    self.target = target
    let sorted = values.sorted()
    samples = sorted.count
    median = Figure.percentile(sorted, 0.50)
    p95 = Figure.percentile(sorted, 0.95)
    p99 = Figure.percentile(sorted, 0.99)
    self.note = note
    self.violation = violation
  }

  /// A figure that could not be measured: no samples, and a violation that fails the run.
  static func failed(_ name: String, unit: String = "ms", goal: Goal = .atMost, target: Double?, _ reason: String)
    -> Figure
  {
    Figure(name: name, unit: unit, goal: goal, target: target, values: [], violation: reason)
  }

  /// Nearest-rank percentile of sorted values (0 for none).
  static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  /// The figure compared against the target: the p95 for times (a maximum), the p99 for
  /// ``Goal/p99AtMost``, the median for throughputs (a minimum).
  var checkedValue: Double {
    switch goal {
    case .atMost: p95
    case .p99AtMost: p99
    case .atLeast: median
    }
  }

  /// Whether smaller is better.
  var isMaximum: Bool { goal != .atLeast }

  /// Whether the target is met (true when there is none).
  var passes: Bool {
    guard let target else { return true }
    return isMaximum ? checkedValue <= target : checkedValue >= target
  }
}

/// Wall-clock milliseconds of `body`.
@inline(never)
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

/// Runs `body` `warmup` times unmeasured, then `count` times measured; returns milliseconds.
func sample(count: Int, warmup: Int = 3, _ body: (Int) throws -> Void) rethrows -> [Double] {
  for index in 0..<warmup { try body(index) }
  var values: [Double] = []
  values.reserveCapacity(count)
  for index in 0..<count {
    values.append(try milliseconds { try body(index) })
  }
  return values
}

/// The outcome of one child process: wall time, peak resident memory, exit status.
struct ChildRun {
  var milliseconds: Double
  var maxResidentMB: Double
  var status: Int32
}

/// Spawns `path` with `arguments` (stdin, stdout and stderr to /dev/null) and waits, measuring
/// wall time and the child's peak resident set size (`ru_maxrss` of `wait4`).
func spawn(_ path: String, _ arguments: [String], environment: [String: String]) -> ChildRun {
  var pid = pid_t()
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for fd in [Int32(0), 1, 2] {
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
  }
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    argv.forEach { free($0) }
    envp.forEach { free($0) }
  }
  let start = DispatchTime.now().uptimeNanoseconds
  guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
    return ChildRun(milliseconds: 0, maxResidentMB: 0, status: -1)
  }
  var status: Int32 = 0
  var usage = rusage()
  _ = wait4(pid, &status, 0, &usage)
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  return ChildRun(milliseconds: elapsed, maxResidentMB: Double(usage.ru_maxrss) / 1024, status: exitStatus)
}

/// Starts `path` with `arguments` without waiting (stdin from /dev/null, stdout to /dev/null,
/// stderr to `stderrPath`); the process id, or nil when it could not start. Reap it with
/// ``waitForChild(_:)``.
func launch(_ path: String, _ arguments: [String], environment: [String: String], stderrPath: String) -> pid_t? {
  var pid = pid_t()
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    argv.forEach { free($0) }
    envp.forEach { free($0) }
  }
  return posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 ? pid : nil
}

/// Waits for child `pid`; its exit status (128 + signal when killed).
func waitForChild(_ pid: pid_t) -> Int32 {
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return exitStatus(status)
}

/// The exit status in a `waitpid` status word (128 + signal when killed).
func exitStatus(_ status: Int32) -> Int32 {
  (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// Child processes started by ``launch(_:_:environment:stderrPath:)``, reaped once each.
struct Children {
  var pids: [pid_t] = []
  /// Exit status per child once it has ended.
  var statuses: [Int32?] = []

  mutating func add(_ pid: pid_t) {
    pids.append(pid)
    statuses.append(nil)
  }

  /// Reaps the children that have ended, without waiting.
  mutating func poll() {
    for (index, pid) in pids.enumerated() where statuses[index] == nil {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { statuses[index] = exitStatus(status) }
    }
  }

  var anyEnded: Bool { statuses.contains { $0 != nil } }
  var allEnded: Bool { statuses.allSatisfy { $0 != nil } }

  /// Kills the children still running (SIGKILL) and reaps them; every exit status.
  mutating func killAll() -> [Int32] {
    for (index, pid) in pids.enumerated() where statuses[index] == nil {
      kill(pid, SIGKILL)
      statuses[index] = waitForChild(pid)
    }
    return statuses.map { $0 ?? -1 }
  }

  /// Waits until every child has ended or `deadline` (monotonic nanoseconds) passes, then kills
  /// the rest; every exit status, and whether they all ended in time.
  mutating func waitAll(until deadline: UInt64) -> (statuses: [Int32], inTime: Bool) {
    while true {
      poll()
      if allEnded { return (statuses.map { $0 ?? -1 }, true) }
      if monotonicNanoseconds() > deadline { return (killAll(), false) }
      usleep(2000)
    }
  }
}

/// Nanoseconds of the system's monotonic clock (`CLOCK_MONOTONIC`), comparable between processes
/// of one machine.
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// FNV-1a (64 bits) of `text`, then MurmurHash3's 64-bit finaliser (so that the order of hashes
/// does not follow the first letter): a hash that is the same in every process, for
/// deterministic picks.
func stableHash(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x0000_0100_0000_01b3
  }
  hash ^= hash >> 33
  hash = hash &* 0xff51_afd7_ed55_8ccd
  hash ^= hash >> 33
  hash = hash &* 0xc4ce_b9fe_1a85_ec53
  hash ^= hash >> 33
  return hash
}

/// A fixed CPU workload: its time calibrates the others, so runs on different machines are
/// compared as ratios (figure ÷ calibration) rather than absolute times.
@inline(never)
func calibrationWorkload() -> UInt64 {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  var accumulator: UInt64 = 0
  for _ in 0..<2_000_000 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    accumulator &+= state % 1009
  }
  return accumulator
}

/// A deterministic pseudo-random generator (SplitMix64), so every run picks the same inputs.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
