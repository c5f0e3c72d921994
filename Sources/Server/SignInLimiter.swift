import Backend
import Common
import Foundation

/// Rate limits for signing in and signing up: at most `perAddress` attempts from one client
/// address and `perEmail` for one email address within a sliding window of `window` seconds.
/// Beyond that the request is refused with `too_many_requests` (HTTP 429, `Retry-After`) before
/// the backend is asked, so a storm of guesses costs no password hashing. (The backend also slows
/// repeated wrong passwords for one account down on its own.)
///
/// The attempts are counted in the store (``SignInAttempts``), not in this process: every server
/// instance on one database shares the same counts.
final class SignInLimiter: Sendable {
  let perAddress: Int
  let perEmail: Int
  private let attempts: SignInAttempts
  private let now: @Sendable () -> Date

  init(
    database: Database, perAddress: Int, perEmail: Int, window: TimeInterval,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.perAddress = perAddress
    self.perEmail = perEmail
    attempts = SignInAttempts(database: database, window: window)
    self.now = now
  }

  var window: TimeInterval { attempts.window }

  /// Counts one attempt for `address` and `email`.
  /// - Throws: `too_many_requests` (`.refused`, HTTP 429) with `retryAfter` (seconds) in its
  ///   details; the store's errors (`store_unavailable`, HTTP 503).
  func admit(address: String, email: String) throws {
    let email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    try attempts.admit(
      [
        .init(bucket: "address:" + address, limit: perAddress, what: "from this address"),
        .init(bucket: "email:" + email, limit: perEmail, what: "for this email address"),
      ], now: now())
  }
}
