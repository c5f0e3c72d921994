import Common
import Foundation
import Synchronization

/// Accounts, sessions, profile and preferences, stored in the SQLite store.
///
/// Passwords are kept only as scrypt hashes (``PasswordHasher``); session tokens are 256 random
/// bits given to the client and stored only as their SHA-256. Every failed sign-in says
/// "email or password is wrong"; after the first failure for an email, each further failure is
/// answered after a delay that doubles (0.5 s, 1 s, 2 s, … up to 30 s); the count is forgotten
/// 15 minutes after the last failure or on a successful sign-in. The count is kept per email,
/// whether or not an account has it, so the delay reveals nothing either.
public final class Accounts: AccountService, @unchecked Sendable {
  let db: Database
  let environment: BackendEnvironment
  let hasher: PasswordHasher
  /// A hash of a random password: verified against when the email is unknown, so an unknown
  /// email costs the same time as a wrong password.
  private let decoy = Mutex<String?>(nil)

  /// The minimum password length.
  public static let minimumPasswordLength = 10
  /// Failures older than this are forgotten (seconds).
  public static let failureWindow: TimeInterval = 15 * 60
  /// The longest sign-in delay (seconds).
  public static let maximumDelay: TimeInterval = 30

  public init(database: Database, environment: BackendEnvironment = .live) {
    self.db = database
    self.environment = environment
    self.hasher = PasswordHasher(parameters: environment.passwordParameters)
  }

  /// The delay before answering the `failures`-th failed sign-in in a row: none for the first,
  /// then 0.5 s doubling up to ``maximumDelay``.
  public static func delay(afterFailures failures: Int) -> TimeInterval {
    guard failures >= 2 else { return 0 }
    return min(maximumDelay, 0.5 * pow(2, Double(min(failures - 2, 16))))
  }

  // MARK: AccountService

  public func signUp(email: String, password: String, firstName: String, lastName: String) throws -> UserProfile {
    try serviceCall {
      let email = try Self.normalizedEmail(email)
      let (first, last) = try Self.names(firstName, lastName)
      try AccountInputRules.checkPassword(password)
      let hash = try hasher.hash(password)
      try db.write { db in
        if try db.queryOne("SELECT 1 FROM users WHERE email = ?", email) != nil { throw Self.emailTaken(email) }
        try db.run(
          "INSERT INTO users (email, first_name, last_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
          email, first, last, hash, environment.now())
      }
      return UserProfile(firstName: first, lastName: last, email: email)
    }
  }

  public func signIn(email: String, password: String) throws -> Session {
    try serviceCall {
      let email = try Self.normalizedEmail(email)
      let user = try db.queryOne("SELECT id, password_hash FROM users WHERE email = ?", email)
      let storedHash: String = try user?.get("password_hash") ?? decoyHash()
      let matches = try hasher.verify(password, against: storedHash)
      let now = environment.now()
      guard matches, let user else {
        let failures = try db.write { db -> Int in
          let row = try db.queryOne("SELECT count, last_at FROM sign_in_failures WHERE email = ?", email)
          var count: Int = try row?.get("count") ?? 0
          let last: Date = try row?.get("last_at") ?? .distantPast
          if now.timeIntervalSince(last) > Self.failureWindow { count = 0 }
          count += 1
          try db.run(
            "INSERT INTO sign_in_failures (email, count, last_at) VALUES (?, ?, ?) "
              + "ON CONFLICT(email) DO UPDATE SET count = excluded.count, last_at = excluded.last_at",
            email, count, now)
          return count
        }
        environment.sleep(Self.delay(afterFailures: failures))
        throw ServiceError(
          .unauthenticated, code: "invalid_credentials",
          message: "email or password is wrong: check both and try again (or sign up: account signup --email …)")
      }
      let userID: Int64 = try user.get("id")
      let tokenBytes = try Crypto.randomBytes(32)
      let token = Crypto.hex(tokenBytes)
      let expires = now.addingTimeInterval(environment.sessionLifetime)
      let rehash = hasher.needsRehash(storedHash) ? try hasher.hash(password) : nil
      try db.write { db in
        try db.run("DELETE FROM sign_in_failures WHERE email = ?", email)
        try db.run("DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?", userID, now)
        try db.run(
          "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
          Self.tokenHash(token), userID, now, expires)
        if let rehash { try db.run("UPDATE users SET password_hash = ? WHERE id = ?", rehash, userID) }
      }
      return Session(token: token, expiresAt: expires)
    }
  }

  public func signOut(token: String) throws {
    try serviceCall {
      _ = try db.write { db in try db.run("DELETE FROM sessions WHERE token_hash = ?", Self.tokenHash(token)) }
    }
  }

  public func session(token: String) throws -> Session {
    try serviceCall {
      let (_, expires) = try authenticate(token)
      return Session(token: token, expiresAt: expires)
    }
  }

  public func profile(token: String) throws -> UserProfile {
    try serviceCall {
      let userID = try userID(token: token)
      guard let row = try db.queryOne("SELECT email, first_name, last_name FROM users WHERE id = ?", userID) else {
        throw ServiceError.notSignedIn
      }
      return UserProfile(
        firstName: try row.get("first_name"), lastName: try row.get("last_name"), email: try row.get("email"))
    }
  }

  public func updateProfile(_ profile: UserProfile, token: String) throws -> UserProfile {
    try serviceCall {
      let userID = try userID(token: token)
      let (first, last) = try Self.names(profile.firstName, profile.lastName)
      let email = try Self.normalizedEmail(profile.email)
      try db.write { db in
        if try db.queryOne("SELECT 1 FROM users WHERE email = ? AND id <> ?", email, userID) != nil {
          throw Self.emailTaken(email)
        }
        try db.run(
          "UPDATE users SET first_name = ?, last_name = ?, email = ? WHERE id = ?", first, last, email, userID)
      }
      return UserProfile(firstName: first, lastName: last, email: email)
    }
  }

  public func preferences(token: String) throws -> Preferences {
    try serviceCall {
      let userID = try userID(token: token)
      guard
        let row = try db.queryOne(
          "SELECT currency, language, appearance, home_airport FROM users WHERE id = ?", userID)
      else { throw ServiceError.notSignedIn }
      return Preferences(
        currencyCode: try row.get("currency"), language: try row.get("language"),
        appearance: Appearance(rawValue: try row.get("appearance")) ?? .system,
        homeAirport: try row.get("home_airport"))
    }
  }

  public func updatePreferences(_ preferences: Preferences, token: String) throws -> Preferences {
    try serviceCall {
      let userID = try userID(token: token)
      let checked = try Self.checked(preferences)
      try db.write { db in
        try db.run(
          "UPDATE users SET currency = ?, language = ?, appearance = ?, home_airport = ? WHERE id = ?",
          checked.currencyCode, checked.language, checked.appearance.rawValue, checked.homeAirport, userID)
      }
      return checked
    }
  }

  /// Made on first use, not at start: a CLI run that never signs in pays no scrypt.
  private func decoyHash() throws -> String {
    if let hash = decoy.withLock({ $0 }) { return hash }
    let hash = try hasher.hash(Crypto.hex(try Crypto.randomBytes(16)))
    decoy.withLock { $0 = hash }
    return hash
  }

  // MARK: Sessions (for the other services)

  /// The user id of a valid session token.
  /// - Throws: `not_signed_in` for an unknown token, `session_expired` for an expired one.
  public func userID(token: String) throws -> Int64 {
    try authenticate(token).userID
  }

  private func authenticate(_ token: String) throws -> (userID: Int64, expires: Date) {
    let hash = Self.tokenHash(token)
    guard let row = try db.queryOne("SELECT user_id, expires_at FROM sessions WHERE token_hash = ?", hash) else {
      throw ServiceError.notSignedIn
    }
    let expires: Date = try row.get("expires_at")
    guard expires > environment.now() else {
      // Forgotten here only when the store is already open for writing: a search never writes.
      if db.connection == .readWrite {
        _ = try? db.write { db in try db.run("DELETE FROM sessions WHERE token_hash = ?", hash) } as Int
      }
      throw ServiceError(
        .unauthenticated, code: "session_expired",
        message: "your session has expired: sign in again: account login --email …")
    }
    return (try row.get("user_id"), expires)
  }

  static func tokenHash(_ token: String) -> Data { Crypto.sha256(Data(token.utf8)) }

  // MARK: Validation

  /// `email` trimmed and lowercased.
  /// - Throws: `invalid_email` unless it looks like `name@domain.tld` (one `@`, no spaces, a dot in
  ///   the domain, at most 254 characters).
  public static func normalizedEmail(_ email: String) throws -> String {
    let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let parts = normalized.split(separator: "@", omittingEmptySubsequences: false)
    let valid =
      normalized.count <= 254 && parts.count == 2 && !parts[0].isEmpty && !normalized.contains(where: \.isWhitespace)
      && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !parts[1].contains("..")
    guard valid else {
      throw ServiceError.invalid(
        "invalid_email", "invalid email \"\(email)\": expected an address like name@example.com")
    }
    return normalized
  }

  static func names(_ first: String, _ last: String) throws -> (String, String) {
    let first = first.trimmingCharacters(in: .whitespacesAndNewlines)
    let last = last.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !first.isEmpty else { throw ServiceError.invalid("first_name_missing", "First Name is missing") }
    guard !last.isEmpty else { throw ServiceError.invalid("last_name_missing", "Last Name is missing") }
    if let problem = AccountInputRules.nameProblem(first, field: "First Name") { throw problem }
    if let problem = AccountInputRules.nameProblem(last, field: "Last Name") { throw problem }
    return (first, last)
  }

  static func emailTaken(_ email: String) -> ServiceError {
    .refused("email_taken", "an account with \(email) already exists: sign in with account login --email \(email)")
  }

  /// The preferences in stored form, checked with Common's ``PreferenceValidation`` (the same
  /// rules the Account feature applies): a known ISO 4217 currency, a language with a string table,
  /// a home airport of IATA shape (whether it exists is the caller's check against the airports).
  static func checked(_ preferences: Preferences) throws -> Preferences {
    var result = preferences
    result.currencyCode = try PreferenceValidation.currency(preferences.currencyCode)
    result.language = try PreferenceValidation.language(preferences.language).rawValue
    if let airport = preferences.homeAirport, !airport.trimmingCharacters(in: .whitespaces).isEmpty {
      result.homeAirport = try PreferenceValidation.airportCodeShape(airport)
    } else {
      result.homeAirport = nil
    }
    return result
  }
}
