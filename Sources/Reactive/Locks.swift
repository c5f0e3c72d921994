import Foundation

/// A non-recursive mutual-exclusion lock (a `pthread_mutex_t`) guarding a few fields of state.
///
/// Every type of this module that has mutable state guards it with one of these and never calls
/// out (to a subscriber, a subscription, a scheduler or a user closure) while holding it, so a
/// subscriber that re-enters the same object (sends, requests or cancels from inside `receive`)
/// cannot deadlock. Objects whose release may run arbitrary code (a subscriber, a closure, an
/// assigned object) are released after the lock is given up, for the same reason: their `deinit`
/// may call back in.
@usableFromInline
final class Lock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline
  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inlinable @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held; `body` must not call out of this module.
  @inlinable
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A recursive lock that serialises calls into one downstream subscriber (as Combine does), so
/// values sent from several threads arrive one at a time, while a `send` from inside that
/// subscriber's own `receive` (same thread) re-enters without deadlocking.
final class RecursiveLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

  @inline(__always)
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// Gives a subscription Combine's debugging conformances from its `description` alone: a
/// playground shows the description, a mirror shows no children.
protocol DescribedSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension DescribedSubscription {
  var playgroundDescription: Any { description }
  var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// Where a subscriber that holds one upstream subscription stands, as Combine's operators track
/// it: waiting for the subscription, subscribed, completed upstream but still delivering the
/// completion (time-shifting operators), or done.
@usableFromInline
enum UpstreamState {
  case awaiting
  case subscribed(Subscription)
  case pendingTerminal(Subscription)
  case terminal

  /// The upstream subscription while subscribed or delivering the completion.
  @inlinable
  var subscription: Subscription? {
    switch self {
    case .subscribed(let subscription), .pendingTerminal(let subscription): subscription
    case .awaiting, .terminal: nil
    }
  }

  @inlinable
  var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }

  @inlinable
  var isAwaiting: Bool {
    if case .awaiting = self { return true }
    return false
  }
}
