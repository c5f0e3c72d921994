import Foundation

/// A fixed set of threads that run submitted work, first in first out, with a bounded queue.
///
/// The HTTP server hands every request to one (the service thread never runs a handler: a handler
/// may block on SQLite or a search), and every WebSocket event through a ``Mailbox`` (one
/// connection's events in order, different connections in parallel). A full queue refuses new
/// requests (``submit(_:)`` returns false) instead of growing: the server answers `503` at once.
/// A mailbox's turn is never refused for a full queue (its events must not be lost, and each
/// mailbox has at most one turn queued, so they are bounded by the connections): it waits in the
/// same queue, beyond the limit.
public final class WorkerPool: Sendable {
  private let state: Mutex
  /// The number of threads.
  public let threadCount: Int
  /// At most this many jobs wait for a thread.
  public let queueLimit: Int

  /// Starts `threads` threads (at least one) named `name-N`.
  public init(name: String, threads: Int, queueLimit: Int) {
    threadCount = max(1, threads)
    self.queueLimit = max(1, queueLimit)
    state = Mutex()
    for index in 0..<threadCount {
      let thread = Thread { [state] in
        while let job = state.next() { job() }
      }
      thread.name = "\(name)-\(index)"
      thread.start()
    }
  }

  /// Queues `job`; false when the queue is full or the pool has stopped.
  @discardableResult
  public func submit(_ job: @escaping @Sendable () -> Void) -> Bool { state.append(job, limit: queueLimit) }

  /// Queues `job` whatever the queue's length (a ``Mailbox``'s turn); false only when the pool has stopped.
  func submitBeyondLimit(_ job: @escaping @Sendable () -> Void) -> Bool { state.append(job, limit: .max) }

  /// Jobs waiting for a thread (not counting those running).
  public var queued: Int { state.count }

  /// Lets the threads finish the queued jobs, then end. Later submissions are refused.
  public func stop() { state.stop() }

  /// The queue, its condition variable and the stop flag.
  private final class Mutex: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopped = false

    var count: Int { condition.withLock { jobs.count - head } }

    func append(_ job: @escaping @Sendable () -> Void, limit: Int) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      guard !stopped, jobs.count - head < limit else { return false }
      jobs.append(job)
      condition.signal()
      return true
    }

    func next() -> (@Sendable () -> Void)? {
      condition.lock()
      defer { condition.unlock() }
      while head == jobs.count {
        if stopped { return nil }
        condition.wait()
      }
      let job = jobs[head]
      head += 1
      if head > 1024 && head * 2 > jobs.count {
        jobs.removeFirst(head)
        head = 0
      }
      return job
    }

    func stop() {
      condition.lock()
      stopped = true
      condition.broadcast()
      condition.unlock()
    }
  }
}

/// One owner's events run one at a time, in order, on a ``WorkerPool`` (an actor's mailbox
/// without Swift concurrency): each WebSocket connection has one, so its messages are handled in
/// the order they arrived while other connections' run in parallel.
public final class Mailbox: @unchecked Sendable {
  private let pool: WorkerPool
  private let lock = NSLock()
  private var pending: [@Sendable () -> Void] = []
  private var scheduled = false

  public init(pool: WorkerPool) { self.pool = pool }

  /// Runs `job` after every job posted before it.
  public func post(_ job: @escaping @Sendable () -> Void) {
    lock.lock()
    pending.append(job)
    let start = !scheduled
    scheduled = true
    lock.unlock()
    if start { schedule() }
  }

  private func schedule() {
    // Never refused for a full queue (a thread per connection would be thousands of threads).
    let accepted = pool.submitBeyondLimit { [self] in drain() }
    if !accepted {
      // The pool has stopped (shutting down): run in a thread of its own rather than lose events.
      Thread.detachNewThread { [self] in drain() }
    }
  }

  private func drain() {
    while true {
      lock.lock()
      if pending.isEmpty {
        scheduled = false
        lock.unlock()
        return
      }
      let batch = pending
      pending.removeAll(keepingCapacity: true)
      lock.unlock()
      for job in batch { job() }
    }
  }
}
