import Common
import Foundation

/// Rate limits for signing in and signing up: at most `perAddress` attempts from one client
/// address and `perEmail` for one email address within a sliding window of `window` seconds.
/// Beyond that the request is refused with `too_many_requests` (HTTP 429, `Retry-After`) before
/// the backend is asked, so a storm of guesses costs no password hashing. (The backend also slows
/// repeated wrong passwords for one account down on its own.)
final class SignInLimiter: @unchecked Sendable {
  let perAddress: Int
  let perEmail: Int
  let window: TimeInterval
  private let now: @Sendable () -> Date
  private let lock = NSLock()
  private var attempts: [String: [Date]] = [:]

  init(perAddress: Int, perEmail: Int, window: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
    self.perAddress = perAddress
    self.perEmail = perEmail
    self.window = window
    self.now = now
  }

  /// Counts one attempt for `address` and `email`.
  /// - Throws: `too_many_requests` (`.refused`, HTTP 429) with `retryAfter` (seconds) in its details.
  func admit(address: String, email: String) throws {
    let instant = now()
    let emailKey = "email:" + email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let addressKey = "address:" + address
    try lock.withLock {
      if attempts.count > 10_000 { prune(before: instant.addingTimeInterval(-window)) }
      for (key, limit, what) in [
        (addressKey, perAddress, "from this address"), (emailKey, perEmail, "for this email address"),
      ] {
        let recent = (attempts[key] ?? []).filter { $0 > instant.addingTimeInterval(-window) }
        attempts[key] = recent
        if recent.count >= limit, let oldest = recent.first {
          let wait = max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(instant)).rounded(.up)))
          throw ServiceError(
            .refused, code: "too_many_requests",
            message: "too many sign-in attempts \(what): try again in \(wait) s", details: ["retryAfter": "\(wait)"])
        }
      }
      attempts[addressKey, default: []].append(instant)
      attempts[emailKey, default: []].append(instant)
    }
  }

  private func prune(before cutoff: Date) {
    attempts = attempts.filter { $0.value.last.map { $0 > cutoff } ?? false }
  }
}
