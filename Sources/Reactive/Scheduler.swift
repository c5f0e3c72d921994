import Dispatch
import Foundation

/// A protocol that provides a scheduler with an expression for relative time, as Combine's.
public protocol SchedulerTimeIntervalConvertible {
  /// Converts the specified number of seconds into an instance of this scheduler time type.
  static func seconds(_ s: Int) -> Self
  /// Converts the specified number of seconds, as a floating-point value, into this type.
  static func seconds(_ s: Double) -> Self
  /// Converts the specified number of milliseconds into this type.
  static func milliseconds(_ ms: Int) -> Self
  /// Converts the specified number of microseconds into this type.
  static func microseconds(_ us: Int) -> Self
  /// Converts the specified number of nanoseconds into this type.
  static func nanoseconds(_ ns: Int) -> Self
}

/// A protocol that defines when and how to execute a closure, as Combine's `Scheduler`.
///
/// Operators that deal with time or threads (`receive(on:)`, `subscribe(on:)`, `debounce`,
/// `throttle`, `delay`, `timeout`) take a scheduler. In production pass `DispatchQueue.main` (or
/// another queue); in tests pass a ``TestScheduler`` and move its virtual clock with
/// `advance(by:)`. The actions are not `@Sendable` (as in Combine); the queue scheduler runs them
/// on its queue, so whatever they capture must be safe to use there.
public protocol Scheduler<SchedulerTimeType> {
  /// Describes an instant in time for this scheduler.
  associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
  /// A type that defines options accepted by the scheduler.
  associatedtype SchedulerOptions

  /// This scheduler's definition of the current moment in time.
  var now: SchedulerTimeType { get }
  /// The minimum tolerance allowed by the scheduler.
  var minimumTolerance: SchedulerTimeType.Stride { get }

  /// Performs the action at the next possible opportunity.
  func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
  /// Performs the action at some time after the specified date.
  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void)
  /// Performs the action at some time after the specified date, at the specified frequency,
  /// until the returned cancellable is cancelled.
  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable
}

extension Scheduler {
  /// Performs the action at the next possible opportunity, without options.
  public func schedule(_ action: @escaping () -> Void) {
    schedule(options: nil, action)
  }

  /// Performs the action at some time after `date`.
  public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
    schedule(after: date, tolerance: minimumTolerance, options: nil, action)
  }

  /// Performs the action at some time after `date`, with a tolerance.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
  ) {
    schedule(after: date, tolerance: tolerance, options: nil, action)
  }

  /// Performs the action repeatedly from `date`, every `interval`, until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    _ action: @escaping () -> Void
  ) -> Cancellable {
    schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
  }

  /// Performs the action repeatedly from `date`, every `interval`, until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
  ) -> Cancellable {
    schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
  }
}

/// Carries a value that is not `Sendable` into a `@Sendable` closure, where the caller guarantees
/// the hand-over is safe (for example a scheduler action that runs once on one queue).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

// MARK: - ImmediateScheduler

/// A scheduler for performing synchronous actions, as Combine's `ImmediateScheduler`: every
/// action runs at once on the calling thread, whatever date it is scheduled for; its clock never
/// moves.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The time type of the immediate scheduler (a clock that never moves).
  public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
    /// The distance between two instants of the immediate scheduler, as Combine defines it: a
    /// plain number with no unit (the immediate scheduler ignores time). A literal keeps the
    /// number it is written with (a floating-point literal drops its fraction, as `Int(_:)`
    /// does); `.seconds(_:)`, `.milliseconds(_:)`, `.microseconds(_:)` and `.nanoseconds(_:)`
    /// are all zero. Encoded as `{"magnitude": n}`.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
      Hashable, Codable, Sendable, CustomStringConvertible
    {
      public typealias FloatLiteralType = Double
      public typealias IntegerLiteralType = Int
      public typealias Magnitude = Int

      /// The value of this interval.
      public var magnitude: Int

      /// Creates an interval of `value`.
      public init(_ value: Int) {
        magnitude = value
      }

      public init(integerLiteral value: Int) {
        self.init(value)
      }

      /// Creates an interval from a floating-point literal, without its fraction (`14.6` is `14`).
      public init(floatLiteral value: Double) {
        self.init(Int(value))
      }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self.init(value)
      }

      public var description: String { "\(magnitude)" }

      public static func seconds(_ s: Int) -> Stride { 0 }
      public static func seconds(_ s: Double) -> Stride { 0 }
      public static func milliseconds(_ ms: Int) -> Stride { 0 }
      public static func microseconds(_ us: Int) -> Stride { 0 }
      public static func nanoseconds(_ ns: Int) -> Stride { 0 }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }
    }

    public init() {}

    /// Always zero: the immediate scheduler's clock does not move.
    public func distance(to other: SchedulerTimeType) -> Stride { 0 }

    /// The same instant: the immediate scheduler's clock does not move.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }
  }

  public typealias SchedulerOptions = Never

  /// The shared instance of the immediate scheduler.
  public static let shared = ImmediateScheduler()

  public var now: SchedulerTimeType { SchedulerTimeType() }
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    action()
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Runs the action once, immediately; returns ``Subscriptions/empty`` (there is nothing to
  /// cancel), as Combine does.
  @discardableResult
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> Cancellable {
    action()
    return Subscriptions.empty
  }
}

// MARK: - DispatchQueue

extension DispatchQueue: Scheduler {
  /// The scheduler time type used by the dispatch queue (a `DispatchTime`).
  public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
    /// A type that represents the distance between two values of a dispatch time, as Combine's.
    ///
    /// Measured in nanoseconds (`magnitude`). Integer and floating-point literals are seconds;
    /// `.seconds(_:)` with a `Double` drops the fraction of a nanosecond; results beyond `Int`
    /// clamp to its bounds. As in Combine, multiplying two strides gives zero (a product of
    /// durations is not a duration).
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
      Hashable, Codable, Sendable, CustomStringConvertible
    {
      public typealias FloatLiteralType = Double
      public typealias IntegerLiteralType = Int
      public typealias Magnitude = Int

      /// The value of this time interval in nanoseconds.
      public var magnitude: Int

      /// Creates a stride of `nanoseconds`.
      init(nanoseconds: Int) {
        magnitude = nanoseconds
      }

      /// Creates a stride from a dispatch time interval (`.never` is the largest stride).
      public init(_ timeInterval: DispatchTimeInterval) {
        switch timeInterval {
        case .seconds(let value): self = .seconds(value)
        case .milliseconds(let value): self = .milliseconds(value)
        case .microseconds(let value): self = .microseconds(value)
        case .nanoseconds(let value): self = .nanoseconds(value)
        default: self = .nanoseconds(.max)
        }
      }

      /// This stride as a dispatch time interval.
      public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

      public init(floatLiteral value: Double) {
        self = .seconds(value)
      }

      public init(integerLiteral value: Int) {
        self = .seconds(value)
      }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self = .seconds(value)
      }

      public var description: String { "\(Double(magnitude) / 1_000_000_000) s" }

      private static func clamped(_ value: Int, times factor: Int) -> Stride {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard overflow else { return Stride(nanoseconds: product) }
        return Stride(nanoseconds: value < 0 ? .min : .max)
      }

      public static func seconds(_ s: Int) -> Stride { clamped(s, times: 1_000_000_000) }

      public static func seconds(_ s: Double) -> Stride {
        let nanoseconds = s * 1_000_000_000
        if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
        if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
        return Stride(nanoseconds: Int(nanoseconds))
      }

      public static func milliseconds(_ ms: Int) -> Stride { clamped(ms, times: 1_000_000) }
      public static func microseconds(_ us: Int) -> Stride { clamped(us, times: 1_000) }
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude + rhs.magnitude) }
      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude - rhs.magnitude) }
      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: 0) }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      public static prefix func - (operand: Stride) -> Stride { Stride(nanoseconds: -operand.magnitude) }
    }

    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    public init(_ time: DispatchTime) {
      dispatchTime = time
    }

    public init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(nanoseconds: Int(bitPattern: UInt(other.dispatchTime.uptimeNanoseconds &- dispatchTime.uptimeNanoseconds)))
    }

    public func advanced(by n: Stride) -> SchedulerTimeType {
      let nanoseconds = dispatchTime.uptimeNanoseconds
      let moved = n.magnitude >= 0 ? nanoseconds &+ UInt64(n.magnitude) : nanoseconds &- UInt64(-n.magnitude)
      return SchedulerTimeType(DispatchTime(uptimeNanoseconds: moved))
    }

    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }
  }

  /// Options that affect the operation of the dispatch queue scheduler.
  ///
  /// `@unchecked Sendable`: every field is an immutable value or a thread-safe Dispatch object;
  /// only Linux's Dispatch overlay leaves `DispatchWorkItemFlags` (an option set) unannotated.
  public struct SchedulerOptions: @unchecked Sendable {
    /// The dispatch queue quality of service.
    public var qos: DispatchQoS
    /// The dispatch queue work item flags.
    public var flags: DispatchWorkItemFlags
    /// The dispatch group, if any, that should be used for performing actions.
    public var group: DispatchGroup?

    public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
      self.qos = qos
      self.flags = flags
      self.group = group
    }
  }

  /// The queue's notion of now: `DispatchTime.now()`.
  public var now: SchedulerTimeType { SchedulerTimeType(.now()) }
  public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

  /// Runs `action` asynchronously on this queue.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let action = UncheckedSendable(action)
    let options = options ?? SchedulerOptions()
    async(group: options.group, qos: options.qos, flags: options.flags) { action.value() }
  }

  /// Runs `action` on this queue at `date` (`asyncAfter`).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let action = UncheckedSendable(action)
    let options = options ?? SchedulerOptions()
    asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { action.value() }
  }

  /// Runs `action` on this queue from `date`, every `interval` (a dispatch timer), until the
  /// returned cancellable is cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let action = UncheckedSendable(action)
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler { action.value() }
    timer.schedule(
      deadline: date.dispatchTime, repeating: .nanoseconds(max(1, interval.magnitude)),
      leeway: .nanoseconds(max(0, tolerance.magnitude)))
    timer.resume()
    return AnyCancellable { timer.cancel() }
  }
}
