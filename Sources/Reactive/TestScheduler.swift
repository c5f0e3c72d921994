import Dispatch

/// A scheduler with a virtual clock, for deterministic tests of time-based code (debounce,
/// throttle, delay, timeout, `receive(on:)`).
///
/// Nothing runs until the test moves the clock: ``advance(by:)`` runs, in time order (ties in the
/// order they were scheduled), every action due up to the new time, on the calling thread;
/// ``run()`` runs everything scheduled. Actions scheduled "now" (`receive(on:)`) therefore run on
/// the next `advance()`. The clock type is generic so that a test scheduler can stand in for a
/// real one: `DispatchQueue.test` has `DispatchQueue`'s time and option types, so code that takes
/// an `AnySchedulerOf<DispatchQueue>` accepts `DispatchQueue.main.eraseToAnyScheduler()` in
/// production and `DispatchQueue.test.eraseToAnyScheduler()` in tests.
///
/// Not part of Apple's Combine (modelled on the test schedulers of the Combine literature).
///
/// `@unchecked Sendable`: the clock and the queue of actions are guarded by a lock; actions run
/// without it held, so they may schedule more actions.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private struct Entry {
    let id: Int
    let sequence: Int
    let date: SchedulerTimeType
    let action: () -> Void
  }

  private let lock = Lock()
  private var currentTime: SchedulerTimeType
  private var entries: [Entry] = []
  private var nextSequence = 0
  private var nextID = 0

  /// Creates a scheduler whose clock starts at `now`.
  public init(now: SchedulerTimeType) {
    currentTime = now
  }

  /// The virtual current time.
  public var now: SchedulerTimeType { lock.withLock { currentTime } }

  /// Zero: the virtual clock is exact.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The number of actions waiting to run.
  public var pendingActionCount: Int { lock.withLock { entries.count } }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    enqueue(at: now, id: nil, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    enqueue(at: date, id: nil, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let id = lock.withLock { () -> Int in
      nextID += 1
      return nextID
    }
    let interval = Swift.max(interval, .nanoseconds(1))
    func repeating(at date: SchedulerTimeType) {
      enqueue(at: date, id: id) { [weak self] in
        action()
        // Schedule the next tick only if this one was not cancelled meanwhile.
        guard let self, !lock.withLock({ cancelledIDs.contains(id) }) else { return }
        repeating(at: date.advanced(by: interval))
      }
    }
    repeating(at: date)
    return AnyCancellable { [weak self] in
      guard let self else { return }
      lock.withLock {
        cancelledIDs.insert(id)
        entries.removeAll { $0.id == id }
      }
    }
  }

  private var cancelledIDs: Set<Int> = []

  private func enqueue(at date: SchedulerTimeType, id: Int?, _ action: @escaping () -> Void) {
    lock.withLock {
      nextSequence += 1
      entries.append(Entry(id: id ?? 0, sequence: nextSequence, date: date, action: action))
    }
  }

  /// Moves the clock forward by `stride` (default: zero, which runs what is due now), running every
  /// action due until then, in time order, including ones those actions schedule within the window.
  public func advance(by stride: SchedulerTimeType.Stride = .zero) {
    advance(to: now.advanced(by: stride))
  }

  /// Moves the clock to `instant` (never backwards), running every action due until then.
  public func advance(to instant: SchedulerTimeType) {
    while let action = takeNext(dueBy: instant) {
      action()
    }
    lock.withLock {
      if currentTime < instant { currentTime = instant }
    }
  }

  /// Runs every scheduled action, moving the clock to each one's date, until none is left.
  /// (A repeating action scheduled with an interval never runs out: cancel it first.)
  public func run() {
    while let action = takeNext(dueBy: nil) {
      action()
    }
  }

  /// Removes the earliest action due by `limit` (any if `nil`) and moves the clock to its date.
  private func takeNext(dueBy limit: SchedulerTimeType?) -> (() -> Void)? {
    lock.withLock {
      guard
        let index = entries.indices.min(by: {
          (entries[$0].date, entries[$0].sequence) < (entries[$1].date, entries[$1].sequence)
        })
      else { return nil }
      let entry = entries[index]
      if let limit, limit < entry.date { return nil }
      entries.remove(at: index)
      if currentTime < entry.date { currentTime = entry.date }
      return entry.action
    }
  }
}

/// A test scheduler with the time and option types of scheduler `S` (for example
/// `TestSchedulerOf<DispatchQueue>`).
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension DispatchQueue {
  /// A new virtual-time scheduler with `DispatchQueue`'s time types (clock starts at uptime 1 ns).
  public static var test: TestSchedulerOf<DispatchQueue> {
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

// MARK: - AnyScheduler

/// A type-erased scheduler, so that a type can take "some scheduler of `DispatchQueue`'s time"
/// without being generic: `AnySchedulerOf<DispatchQueue>` accepts `DispatchQueue.main` in
/// production and `DispatchQueue.test` in tests (both through `eraseToAnyScheduler()`).
///
/// Not part of Apple's Combine. `@unchecked Sendable`: its closures only capture the wrapped
/// scheduler, which `init` requires to be `Sendable`.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private let nowBody: () -> SchedulerTimeType
  private let minimumToleranceBody: () -> SchedulerTimeType.Stride
  private let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleAfterBody:
    (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleIntervalBody:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void
    ) -> Cancellable

  /// Wraps `scheduler`.
  public init<S: Scheduler & Sendable>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    nowBody = { scheduler.now }
    minimumToleranceBody = { scheduler.minimumTolerance }
    scheduleBody = { scheduler.schedule(options: $0, $1) }
    scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
    scheduleIntervalBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
  }

  public var now: SchedulerTimeType { nowBody() }
  public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    scheduleBody(options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    scheduleAfterBody(date, tolerance, options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    scheduleIntervalBody(date, interval, tolerance, options, action)
  }
}

/// A type-erased scheduler with the time and option types of scheduler `S`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler where Self: Sendable {
  /// Wraps this scheduler in an ``AnyScheduler``.
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    AnyScheduler(self)
  }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// The main dispatch queue, type-erased.
  public static var main: Self { AnyScheduler(DispatchQueue.main) }
}

extension AnyScheduler where SchedulerTimeType == ImmediateScheduler.SchedulerTimeType, SchedulerOptions == Never {
  /// The immediate scheduler, type-erased.
  public static var immediate: Self { AnyScheduler(ImmediateScheduler.shared) }
}
