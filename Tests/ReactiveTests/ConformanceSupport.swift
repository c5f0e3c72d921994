import Foundation
import Reactive
import Testing

// Test doubles written only against the public protocols, the way a third party would: a
// subscription that records what it is asked, a publisher that sends whatever the test says
// (ignoring demand, and reporting the demand its subscriber returns), a subscriber that records
// every event, a virtual-time scheduler, and deadlines that turn a hang into a failure.

/// A subscription that records every request and cancel, and can run a closure on each.
final class TestSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  enum Event: Equatable, CustomStringConvertible {
    case requested(Subscribers.Demand)
    case cancelled

    var description: String {
      switch self {
      case .requested(let demand): "requested(\(demand))"
      case .cancelled: "cancelled"
      }
    }
  }

  private let lock = NSLock()
  private var recorded: [Event] = []
  var onRequest: ((Subscribers.Demand) -> Void)?
  var onCancel: (() -> Void)?

  init() {}

  var description: String { "TestSubscription" }
  var events: [Event] { lock.withLock { recorded } }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { recorded.append(.requested(demand)) }
    onRequest?(demand)
  }

  func cancel() {
    lock.withLock { recorded.append(.cancelled) }
    onCancel?()
  }
}

/// A hand-written upstream: hands its subscriber `subscription` (if any) and sends whatever the
/// test tells it to, returning the demand the subscriber returns from `receive(_:)`.
final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  private let lock = NSLock()
  private var stored: AnySubscriber<Output, Failure>?
  let subscription: TestSubscription?

  init(subscription: TestSubscription? = TestSubscription()) {
    self.subscription = subscription
  }

  var subscriber: AnySubscriber<Output, Failure>? { lock.withLock { stored } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let erased = AnySubscriber(subscriber)
    lock.withLock { stored = erased }
    if let subscription { erased.receive(subscription: subscription) }
  }

  func send(subscription: Subscription) {
    subscriber?.receive(subscription: subscription)
  }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    subscriber?.receive(completion: completion)
  }
}

/// A subscriber that records every event (as text, so any output type compares), requests
/// `initialDemand` when subscribed and returns `demandPerValue` for each value; the closures let
/// a test act from inside each call (cancel, request, send more, complete).
final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var recorded: [String] = []
  private var storedValues: [Input] = []
  private var storedSubscription: Subscription?
  private let initialDemand: Subscribers.Demand?
  var demandPerValue: Subscribers.Demand
  var onSubscription: ((Subscription) -> Void)?
  var onValue: ((Input) -> Void)?
  var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
  }

  var events: [String] { lock.withLock { recorded } }
  var values: [Input] { lock.withLock { storedValues } }
  var subscription: Subscription? { lock.withLock { storedSubscription } }
  var completionCount: Int { events.filter { $0.hasPrefix("finished") || $0.hasPrefix("failure") }.count }

  func receive(subscription: Subscription) {
    lock.withLock {
      storedSubscription = subscription
      recorded.append("subscription(\(subscription))")
    }
    if let initialDemand { subscription.request(initialDemand) }
    onSubscription?(subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock {
      storedValues.append(input)
      recorded.append("value(\(input))")
    }
    onValue?(input)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      switch completion {
      case .finished: recorded.append("finished")
      case .failure(let error): recorded.append("failure(\(error))")
      }
    }
    onCompletion?(completion)
  }

  func request(_ demand: Subscribers.Demand) {
    subscription?.request(demand)
  }

  func cancel() {
    subscription?.cancel()
  }
}

/// A box for handing a value to another thread when the caller guarantees it is safe (the test
/// thread waits while the other runs).
struct Unchecked<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Runs `body` on its own thread and waits at most `seconds` for it: a deadlock or hang records
/// a failure within seconds instead of stalling the test run (the stuck thread is left behind).
/// Returns whether `body` finished in time.
@discardableResult
func finishesInTime(
  _ seconds: Double = 3, _ what: String = "the scenario", sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping () -> Void
) -> Bool {
  let done = DispatchSemaphore(value: 0)
  let work = Unchecked(body)
  let thread = Thread {
    work.value()
    done.signal()
  }
  thread.stackSize = 4 << 20
  thread.start()
  guard done.wait(timeout: .now() + seconds) == .success else {
    Issue.record("\(what) did not finish within \(seconds) s (deadlock or hang)", sourceLocation: sourceLocation)
    return false
  }
  return true
}

/// Runs `operation` and waits at most `seconds` for it: a hang records a failure (the stuck task
/// is left behind) and returns `nil`.
func finishesInTime<T: Sendable>(
  _ seconds: Double = 5, _ what: String = "the operation", sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: @escaping @Sendable () async throws -> T
) async -> Result<T, Error>? {
  let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Error>?, Never>) in
    let once = OnceFlag()
    Task {
      let result: Result<T, Error>
      do { result = .success(try await operation()) } catch { result = .failure(error) }
      if once.claim() { continuation.resume(returning: result) }
    }
    Task {
      try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
      if once.claim() { continuation.resume(returning: nil) }
    }
  }
  if outcome == nil {
    Issue.record("\(what) did not finish within \(seconds) s (hang)", sourceLocation: sourceLocation)
  }
  return outcome
}

/// True for the first caller only.
final class OnceFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var claimed = false
  func claim() -> Bool {
    lock.withLock {
      defer { claimed = true }
      return !claimed
    }
  }
}

/// An object whose release a test can observe through a weak reference.
final class Tracked: @unchecked Sendable {
  let name: String
  init(_ name: String = "tracked") { self.name = name }
}

// MARK: - A third-party virtual-time scheduler

/// A minimal virtual-time scheduler written the way a third party would, using nothing of this
/// package but the `Scheduler` protocol: its own time and interval types (nanosecond counts), its
/// own options, and a log of every call an operator makes (`calls`), so tests can check that the
/// time-based operators use only the protocol's requirements, in Combine's order.
final class ManualClockScheduler: Scheduler, @unchecked Sendable {
  struct Time: Strideable, Hashable, CustomStringConvertible {
    var nanoseconds: Int
    func distance(to other: Time) -> Interval { Interval(nanoseconds: other.nanoseconds - nanoseconds) }
    func advanced(by interval: Interval) -> Time { Time(nanoseconds: nanoseconds + interval.magnitude) }
    var description: String { "t\(nanoseconds)" }
  }

  struct Interval: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable,
    CustomStringConvertible
  {
    var magnitude: Int

    init(nanoseconds: Int) { magnitude = nanoseconds }
    init(integerLiteral value: Int) { magnitude = value * 1_000_000_000 }
    init(floatLiteral value: Double) { magnitude = Int(value * 1_000_000_000) }
    init?<T: BinaryInteger>(exactly source: T) {
      guard let value = Int(exactly: source) else { return nil }
      self.init(integerLiteral: value)
    }

    static func seconds(_ s: Int) -> Interval { Interval(nanoseconds: s * 1_000_000_000) }
    static func seconds(_ s: Double) -> Interval { Interval(nanoseconds: Int(s * 1_000_000_000)) }
    static func milliseconds(_ ms: Int) -> Interval { Interval(nanoseconds: ms * 1_000_000) }
    static func microseconds(_ us: Int) -> Interval { Interval(nanoseconds: us * 1_000) }
    static func nanoseconds(_ ns: Int) -> Interval { Interval(nanoseconds: ns) }

    static func < (lhs: Interval, rhs: Interval) -> Bool { lhs.magnitude < rhs.magnitude }
    static func + (lhs: Interval, rhs: Interval) -> Interval { Interval(nanoseconds: lhs.magnitude + rhs.magnitude) }
    static func - (lhs: Interval, rhs: Interval) -> Interval { Interval(nanoseconds: lhs.magnitude - rhs.magnitude) }
    static func * (lhs: Interval, rhs: Interval) -> Interval { Interval(nanoseconds: lhs.magnitude * rhs.magnitude) }
    static func += (lhs: inout Interval, rhs: Interval) { lhs = lhs + rhs }
    static func -= (lhs: inout Interval, rhs: Interval) { lhs = lhs - rhs }
    static func *= (lhs: inout Interval, rhs: Interval) { lhs = lhs * rhs }
    var description: String { "\(magnitude)ns" }
  }

  enum Options: Equatable { case tagged }

  enum Call: Equatable, CustomStringConvertible {
    case now
    case minimumTolerance
    case schedule(Options?)
    case scheduleAfter(Time, tolerance: Interval, Options?)
    case scheduleRepeating(Time, interval: Interval, tolerance: Interval, Options?)

    var description: String {
      switch self {
      case .now: "now"
      case .minimumTolerance: "minimumTolerance"
      case .schedule(let options): "schedule(\(options.map { "\($0)" } ?? "nil"))"
      case .scheduleAfter(let time, let tolerance, let options):
        "scheduleAfter(\(time), \(tolerance), \(options.map { "\($0)" } ?? "nil"))"
      case .scheduleRepeating(let time, let interval, let tolerance, let options):
        "scheduleRepeating(\(time), every \(interval), \(tolerance), \(options.map { "\($0)" } ?? "nil"))"
      }
    }
  }

  /// Cancels one repeating action.
  final class Token: Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool { lock.withLock { cancelled } }
    func cancel() { lock.withLock { cancelled = true } }
  }

  private struct Entry {
    let date: Time
    let order: Int
    let action: () -> Void
  }

  private let lock = NSLock()
  private var clock = Time(nanoseconds: 0)
  private var queue: [Entry] = []
  private var nextOrder = 0
  private var log: [Call] = []

  /// Every call operators made, in order.
  var calls: [Call] { lock.withLock { log } }
  /// The current virtual time, without logging a call.
  var currentTime: Time { lock.withLock { clock } }
  var pendingCount: Int { lock.withLock { queue.count } }

  var now: Time {
    lock.withLock {
      log.append(.now)
      return clock
    }
  }

  var minimumTolerance: Interval {
    lock.withLock {
      log.append(.minimumTolerance)
      return Interval(nanoseconds: 7)
    }
  }

  func schedule(options: Options?, _ action: @escaping () -> Void) {
    lock.withLock {
      log.append(.schedule(options))
      enqueue(clock, action)
    }
  }

  func schedule(after date: Time, tolerance: Interval, options: Options?, _ action: @escaping () -> Void) {
    lock.withLock {
      log.append(.scheduleAfter(date, tolerance: tolerance, options))
      enqueue(date, action)
    }
  }

  func schedule(
    after date: Time, interval: Interval, tolerance: Interval, options: Options?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let token = Token()
    lock.withLock {
      log.append(.scheduleRepeating(date, interval: interval, tolerance: tolerance, options))
      repeatAction(at: date, every: interval, token: token, action)
    }
    return token
  }

  /// Lock held.
  private func repeatAction(at date: Time, every interval: Interval, token: Token, _ action: @escaping () -> Void) {
    enqueue(date) { [weak self] in
      guard !token.isCancelled else { return }
      action()
      guard let self, !token.isCancelled else { return }
      lock.withLock { repeatAction(at: date.advanced(by: interval), every: interval, token: token, action) }
    }
  }

  /// Lock held.
  private func enqueue(_ date: Time, _ action: @escaping () -> Void) {
    nextOrder += 1
    queue.append(Entry(date: date, order: nextOrder, action: action))
  }

  /// Moves the clock to `date`, running every action due until then in time order.
  func advance(to date: Time) {
    while true {
      let next: (() -> Void)? = lock.withLock {
        guard
          let index = queue.indices.min(by: { (queue[$0].date, queue[$0].order) < (queue[$1].date, queue[$1].order) }),
          queue[index].date <= date
        else { return nil }
        let entry = queue.remove(at: index)
        if clock < entry.date { clock = entry.date }
        return entry.action
      }
      guard let next else { break }
      next()
    }
    lock.withLock { if clock < date { clock = date } }
  }

  /// Moves the clock forward by `interval`.
  func advance(by interval: Interval) {
    advance(to: currentTime.advanced(by: interval))
  }
}

extension Collection {
  /// The element at `index`, or `nil`.
  subscript(safe index: Index) -> Element? { indices.contains(index) ? self[index] : nil }
}
