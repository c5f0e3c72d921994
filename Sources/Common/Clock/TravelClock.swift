import Dispatch
import Foundation
import Reactive

/// The app's notion of "now", shared by every executable (and later `travel-server`): real time by
/// default, or a simulated clock that starts at another instant and/or runs faster, so that a
/// flight's whole day can be watched in a minute.
///
/// The clock is driven by a ``Reactive`` scheduler: the simulated instant is
/// `start + (scheduler.now − origin) × speed`, where `origin` is the scheduler's time when the
/// clock is first read (so the minutes a process spends loading before it shows anything do not
/// count: `--clock-start 06:00` shows 06:00 on the first screen or line, whatever the speed). Work due at a simulated instant is scheduled on the scheduler at the matching
/// scheduler time (``schedule(at:_:)``), so:
/// - in the apps the scheduler is a `DispatchQueue` (real time, sped up by ``speed``);
/// - in tests it is a `TestScheduler` (`DispatchQueue.test`): moving its virtual clock with
///   `advance(by:)` moves the simulated clock by `speed ×` as much, instantly and deterministically.
///
/// Command line (every executable, CLI.md "Global options"): `--clock-speed N` (env
/// `TRAVEL_CLOCK_SPEED`) and `--clock-start INSTANT` (env `TRAVEL_CLOCK_START`); an option wins
/// over the environment. See ``parse(speed:start:timeZone:)`` for what each accepts.
public struct TravelClock: Sendable {
  /// Simulated seconds per scheduler second (1 = real time; 600 = ten simulated minutes a second).
  public let speed: Double
  /// The scheduler that runs work at simulated instants (see the type's documentation).
  public let scheduler: AnySchedulerOf<DispatchQueue>
  /// The simulated instant at ``origin`` (nil in `init`: the real instant of the first read).
  private let requestedStart: Date?
  private let anchor: Anchor

  /// The scheduler's time when the clock was first read (``now()``, ``schedulerTime(for:)``).
  public var origin: DispatchQueue.SchedulerTimeType { anchored.origin }
  /// The simulated instant at ``origin``.
  public var start: Date { anchored.start }

  private var anchored: (origin: DispatchQueue.SchedulerTimeType, start: Date) {
    anchor.anchor { (scheduler.now, requestedStart ?? Date()) }
  }

  /// The fastest clock accepted: about 28 simulated hours a real second.
  public static let maximumSpeed: Double = 100_000

  /// A clock at `start` (default: the real current instant) running `speed` times faster than
  /// `scheduler` (default: a global dispatch queue, i.e. real time).
  /// - Precondition: `speed` is finite and in `0 < speed ≤ maximumSpeed` (``parse(speed:start:timeZone:)``
  ///   checks what people type).
  public init(
    start: Date? = nil, speed: Double = 1,
    scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global(qos: .utility).eraseToAnyScheduler()
  ) {
    precondition(speed.isFinite && speed > 0 && speed <= Self.maximumSpeed, "clock speed out of range")
    self.speed = speed
    self.scheduler = scheduler
    self.anchor = Anchor()
    self.requestedStart = start
  }

  /// The scheduler time the clock starts from, set on first use. `@unchecked Sendable`: `value`
  /// is guarded by `lock`.
  private final class Anchor: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (origin: DispatchQueue.SchedulerTimeType, start: Date)?

    var isAnchored: Bool { lock.withLock { value != nil } }

    func anchor(_ make: () -> (DispatchQueue.SchedulerTimeType, Date)) -> (
      origin: DispatchQueue.SchedulerTimeType, start: Date
    ) {
      lock.withLock {
        if let value { return value }
        let made = make()
        value = made
        return made
      }
    }
  }

  /// Real time on a global dispatch queue.
  public static var realTime: TravelClock { TravelClock() }

  /// Whether this clock is real time (speed 1, started at the real instant it was first read).
  public var isRealTime: Bool { speed == 1 && requestedStart == nil }

  /// The current simulated instant, without starting the clock: before the first ``now()`` it is
  /// the start (the instant the clock will read when it starts). For decisions of day granularity
  /// ("today at the airport") made before heavy work, so that work does not eat a fast clock's time.
  public func peek() -> Date {
    if anchor.isAnchored { return now() }
    return requestedStart ?? Date()
  }

  /// The current simulated instant.
  public func now() -> Date {
    let (origin, start) = anchored
    let elapsed = Double(origin.distance(to: scheduler.now).magnitude) / 1_000_000_000
    return start.addingTimeInterval(elapsed * speed)
  }

  /// The scheduler time at which the simulated clock reads `instant` (the origin when `instant` is
  /// before the start: such work is due at once).
  public func schedulerTime(for instant: Date) -> DispatchQueue.SchedulerTimeType {
    let (origin, start) = anchored
    let seconds = max(0, instant.timeIntervalSince(start)) / speed
    let nanoseconds = min(seconds * 1_000_000_000, Double(Int.max / 2))
    return origin.advanced(by: .nanoseconds(Int(nanoseconds.rounded(.up))))
  }

  /// Runs `action` on the scheduler when the simulated clock reaches `instant` (at once when it
  /// has already passed).
  public func schedule(at instant: Date, _ action: @escaping () -> Void) {
    scheduler.schedule(after: schedulerTime(for: instant), action)
  }

  // MARK: Parsing

  /// The environment variable of `--clock-speed`.
  public static let speedVariable = "TRAVEL_CLOCK_SPEED"
  /// The environment variable of `--clock-start`.
  public static let startVariable = "TRAVEL_CLOCK_START"

  /// The clock the options (or, for each one absent, the environment) ask for; real time when
  /// neither is given.
  /// - Throws: as ``parse(speed:start:timeZone:)``.
  public static func configured(
    speedOption: String?, startOption: String?, environment: [String: String], timeZone: TimeZone = .current,
    scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global(qos: .utility).eraseToAnyScheduler()
  ) throws -> TravelClock {
    let speedText = speedOption ?? environment[speedVariable].flatMap { $0.isEmpty ? nil : $0 }
    let startText = startOption ?? environment[startVariable].flatMap { $0.isEmpty ? nil : $0 }
    let parsed = try parse(speed: speedText, start: startText, timeZone: timeZone)
    return TravelClock(start: parsed.start, speed: parsed.speed, scheduler: scheduler)
  }

  /// Parses the clock options.
  ///
  /// - `speed`: a number from 1 to 100,000 (`600`, `1.5`); nil is 1 (real time).
  /// - `start`: an ISO 8601 instant with its UTC offset (`2026-12-20T06:00:00+01:00`,
  ///   `2026-12-20T05:00Z`), or a local date-time `YYYY-MM-DDTHH:MM[:SS]` or a date `YYYY-MM-DD`
  ///   (midnight), both read in `timeZone` (the machine's, `TZ`); nil is now.
  /// - Throws: ``ServiceError`` (invalid input, exit 2) `invalid_clock_speed` or
  ///   `invalid_clock_start`, naming what was typed and what is accepted.
  public static func parse(speed: String?, start: String?, timeZone: TimeZone = .current) throws -> (
    speed: Double, start: Date?
  ) {
    var value = 1.0
    if let speed {
      let trimmed = speed.trimmingCharacters(in: .whitespaces)
      guard let number = Double(trimmed), number.isFinite, number >= 1, number <= maximumSpeed,
        trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
      else {
        throw ServiceError.invalid(
          "invalid_clock_speed",
          "invalid --clock-speed \(EchoedInput.quoted(speed)): expected a number from 1 (real time) to 100000, like 600"
        )
      }
      value = number
    }
    var instant: Date?
    if let start {
      guard let parsed = parseInstant(start.trimmingCharacters(in: .whitespaces), timeZone: timeZone) else {
        throw ServiceError.invalid(
          "invalid_clock_start",
          "invalid --clock-start \(EchoedInput.quoted(start)): expected an ISO 8601 instant like 2026-12-20T06:00+01:00 "
            + "or 2026-12-20T05:00Z, or a local date-time like 2026-12-20T06:00 or a date like 2026-12-20")
      }
      instant = parsed
    }
    return (value, instant)
  }

  /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` (local to `timeZone`), or either time form followed by
  /// `Z` or `±HH:MM`.
  static func parseInstant(_ text: String, timeZone: TimeZone) -> Date? {
    if let date = LocalDate(text) {
      return date.instant(hour: 0, in: timeZone)
    }
    let characters = Array(text)
    guard characters.count >= 16, characters[10] == "T" || characters[10] == "t",
      let date = LocalDate(String(characters[0..<10]))
    else { return nil }
    var rest = Array(characters[11...])
    var offsetSeconds: Int?
    if rest.last == "Z" || rest.last == "z" {
      offsetSeconds = 0
      rest.removeLast()
    } else if rest.count >= 6, rest[rest.count - 6] == "+" || rest[rest.count - 6] == "-" {
      let tail = rest.suffix(6)
      let sign = tail.first == "-" ? -1 : 1
      let digits = Array(tail.dropFirst())
      guard digits.count == 5, digits[2] == ":", let hours = Int(String(digits[0..<2])),
        let minutes = Int(String(digits[3..<5])), hours <= 14, minutes < 60
      else { return nil }
      offsetSeconds = sign * (hours * 3600 + minutes * 60)
      rest.removeLast(6)
    }
    let parts = String(rest).split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3,
      parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
    guard second < 60 else { return nil }
    if let offsetSeconds {
      let local = date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
      return Date(timeIntervalSince1970: TimeInterval(local - offsetSeconds))
    }
    return date.instant(hour: hour, minute: minute, in: timeZone).addingTimeInterval(TimeInterval(second))
  }
}
