import Foundation

/// What the services take from the outside world, injectable for tests: the clock, how a
/// delay is served (sign-in backoff), and the password-hashing cost.
public struct BackendEnvironment: Sendable {
  /// The current instant.
  public var now: @Sendable () -> Date
  /// Waits `seconds` (the sign-in backoff). Tests record instead of sleeping.
  public var sleep: @Sendable (_ seconds: TimeInterval) -> Void
  /// scrypt cost for new password hashes.
  public var passwordParameters: PasswordHasher.Parameters
  /// How long a session lasts (seconds); 30 days.
  public var sessionLifetime: TimeInterval

  public init(
    now: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (TimeInterval) -> Void = { seconds in
      if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    },
    passwordParameters: PasswordHasher.Parameters = .standard,
    sessionLifetime: TimeInterval = 30 * 24 * 3600
  ) {
    self.now = now
    self.sleep = sleep
    self.passwordParameters = passwordParameters
    self.sessionLifetime = sessionLifetime
  }

  /// The real clock, real sleeps, standard cost.
  public static let live = BackendEnvironment()
}
