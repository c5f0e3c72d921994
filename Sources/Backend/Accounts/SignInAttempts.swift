import Common
import Foundation

/// Sliding-window counts of sign-in attempts, kept in the store (table `sign_in_attempts`,
/// migration `core.003`), so every server instance on one database counts the same attempts: a
/// client that spreads its guesses over three instances behind a load balancer meets the same
/// limit as one that sends them all to one.
///
/// Each attempt is one row `(bucket, at)`; a bucket is whatever the caller limits (`address:…`,
/// `email:…`). ``admit(_:now:)`` counts and records in one write transaction (serializable on
/// PostgreSQL, retried on conflict; SQLite's one writer), so two instances admitting at once never
/// both take the last place. Rows older than the window are deleted as buckets are used, and all
/// expired rows at most once per window per process.
public final class SignInAttempts: @unchecked Sendable {
  /// One limit: at most `limit` attempts in `bucket` within the window.
  public struct Limit: Sendable {
    public var bucket: String
    public var limit: Int
    /// What the bucket is, for the refusal's message ("from this address").
    public var what: String

    public init(bucket: String, limit: Int, what: String) {
      self.bucket = bucket
      self.limit = limit
      self.what = what
    }
  }

  private let db: Database
  /// The window, in seconds.
  public let window: TimeInterval
  private let lock = NSLock()
  private var lastSweep = Date.distantPast

  public init(database: Database, window: TimeInterval) {
    db = database
    self.window = window
  }

  /// Counts one attempt in every bucket of `limits` at `now`, unless one of them is full.
  /// - Throws: ``ServiceError`` `too_many_requests` (`.refused`, HTTP 429) naming the full bucket's
  ///   `what`, with `retryAfter` (whole seconds until its oldest attempt leaves the window, at least
  ///   1) in its details; nothing is recorded then. The store's errors (`store_unavailable`, …).
  public func admit(_ limits: [Limit], now: Date) throws {
    let cutoff = now.addingTimeInterval(-window)
    let sweep = lock.withLock {
      guard now.timeIntervalSince(lastSweep) >= window else { return false }
      lastSweep = now
      return true
    }
    try db.write { db in
      if sweep { try db.run("DELETE FROM sign_in_attempts WHERE at <= ?", cutoff) }
      for limit in limits {
        try db.run("DELETE FROM sign_in_attempts WHERE bucket = ? AND at <= ?", limit.bucket, cutoff)
        let row = try db.queryOne(
          "SELECT count(*) AS n, min(at) AS oldest FROM sign_in_attempts WHERE bucket = ?", limit.bucket)
        let count: Int64 = try row?.get("n") ?? 0
        if count >= Int64(limit.limit) {
          let oldest: Date = try row?.get("oldest", as: Date?.self) ?? now
          let wait = max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
          throw ServiceError(
            .refused, code: "too_many_requests",
            message: "too many sign-in attempts \(limit.what): try again in \(wait) s",
            details: ["retryAfter": "\(wait)"])
        }
      }
      for limit in limits {
        try db.run("INSERT INTO sign_in_attempts (bucket, at) VALUES (?, ?)", limit.bucket, now)
      }
    }
  }
}
