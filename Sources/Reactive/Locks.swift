import Foundation

/// A non-recursive mutual-exclusion lock guarding a few fields of state.
///
/// Every type of this module that has mutable state guards it with one of these and never calls
/// out (to a subscriber, a subscription or a user closure) while holding it, so a subscriber that
/// re-enters the same object (sends, requests or cancels from inside `receive`) cannot deadlock.
final class Lock: @unchecked Sendable {
  private let mutex = NSLock()

  init() {}

  func lock() { mutex.lock() }
  func unlock() { mutex.unlock() }

  /// Runs `body` with the lock held; `body` must not call out of this module.
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    mutex.lock()
    defer { mutex.unlock() }
    return try body()
  }
}

/// A recursive lock that serialises calls into one downstream subscriber (as Combine does), so
/// values sent from several threads arrive one at a time, while a `send` from inside that
/// subscriber's own `receive` (same thread) re-enters without deadlocking.
final class RecursiveLock: @unchecked Sendable {
  private let mutex = NSRecursiveLock()

  init() {}

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    mutex.lock()
    defer { mutex.unlock() }
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
