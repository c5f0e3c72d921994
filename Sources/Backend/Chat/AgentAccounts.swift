import Common
import Foundation

/// Travel agents: a role of their own, stored apart from travellers (``ChatSchema``).
///
/// Agents are created by an operator (`travel-server agents add --email E`), never by signing up.
/// They sign in like travellers: scrypt-hashed passwords, 256-bit session tokens kept only as
/// their SHA-256, the same failure delays as ``Accounts`` (counted apart, under `agent:<email>`),
/// the same session lifetime.
public final class AgentAccounts: @unchecked Sendable {
  let db: Database
  let environment: BackendEnvironment
  let hasher: PasswordHasher

  public init(database: Database, environment: BackendEnvironment = .live) {
    db = database
    self.environment = environment
    hasher = PasswordHasher(parameters: environment.passwordParameters)
  }

  /// Creates an agent.
  /// - Parameters:
  ///   - name: shown to travellers ("Grace Hopper"); nil takes the email's part before `@`, capitalised.
  /// - Throws: `invalid_email`; `invalid_name`, `name_too_long` (``AccountInputRules``); the
  ///   password rules of sign-up (`password_too_short`, `password_blank`); `agent_exists` (`.refused`).
  @discardableResult
  public func add(email: String, name: String?, password: String) throws -> AgentProfile {
    try serviceCall {
      let email = try Accounts.normalizedEmail(email)
      let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
      let name = trimmed.isEmpty ? String(email.prefix { $0 != "@" }).capitalized : trimmed
      if let problem = AccountInputRules.nameProblem(name, field: "Name") { throw problem }
      try AccountInputRules.checkPassword(password)
      let hash = try hasher.hash(password)
      try db.write { db in
        if try db.queryOne("SELECT 1 FROM agents WHERE email = ?", email) != nil {
          throw ServiceError.refused("agent_exists", "an agent with \(email) already exists")
        }
        try db.run(
          "INSERT INTO agents (email, name, password_hash, created_at) VALUES (?, ?, ?, ?)", email, name, hash,
          environment.now())
      }
      return AgentProfile(email: email, name: name)
    }
  }

  /// Every agent, by email.
  public func list() throws -> [AgentProfile] {
    try serviceCall {
      try db.query("SELECT email, name FROM agents ORDER BY email").map {
        AgentProfile(email: try $0.get("email"), name: try $0.get("name"))
      }
    }
  }

  /// Signs an agent in.
  /// - Throws: `invalid_credentials` (`.unauthenticated`) for a wrong email or password (after the
  ///   growing delay of ``Accounts/delay(afterFailures:)``), `invalid_email`.
  public func signIn(email: String, password: String) throws -> Session {
    try serviceCall {
      let email = try Accounts.normalizedEmail(email)
      let row = try db.queryOne("SELECT id, password_hash FROM agents WHERE email = ?", email)
      // An unknown email costs a hash too, so the time reveals nothing.
      let storedHash: String = try row?.get("password_hash") ?? hasher.hash("not an agent's password")
      let matches = try hasher.verify(password, against: storedHash)
      let now = environment.now()
      let failureKey = "agent:\(email)"
      guard matches, let row else {
        let failures = try db.write { db -> Int in
          let last = try db.queryOne("SELECT count, last_at FROM sign_in_failures WHERE email = ?", failureKey)
          var count: Int = try last?.get("count") ?? 0
          let at: Date = try last?.get("last_at") ?? .distantPast
          if now.timeIntervalSince(at) > Accounts.failureWindow { count = 0 }
          count += 1
          try db.run(
            "INSERT INTO sign_in_failures (email, count, last_at) VALUES (?, ?, ?) "
              + "ON CONFLICT(email) DO UPDATE SET count = excluded.count, last_at = excluded.last_at",
            failureKey, count, now)
          return count
        }
        environment.sleep(Accounts.delay(afterFailures: failures))
        throw ServiceError(
          .unauthenticated, code: "invalid_credentials",
          message: "email or password is wrong: check both (agents are added with travel-server agents add)")
      }
      let agentID: Int64 = try row.get("id")
      let token = Crypto.hex(try Crypto.randomBytes(32))
      let expires = now.addingTimeInterval(environment.sessionLifetime)
      try db.write { db in
        try db.run("DELETE FROM sign_in_failures WHERE email = ?", failureKey)
        try db.run("DELETE FROM agent_sessions WHERE agent_id = ? AND expires_at <= ?", agentID, now)
        try db.run(
          "INSERT INTO agent_sessions (token_hash, agent_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
          Accounts.tokenHash(token), agentID, now, expires)
      }
      return Session(token: token, expiresAt: expires)
    }
  }

  /// Ends an agent's session (an unknown token is not an error).
  public func signOut(token: String) throws {
    try serviceCall {
      _ = try db.write { db in
        try db.run("DELETE FROM agent_sessions WHERE token_hash = ?", Accounts.tokenHash(token))
      }
    }
  }

  /// The agent of a valid agent token.
  /// - Throws: `not_signed_in` for an unknown token (a traveller's included), `session_expired`.
  public func agentID(token: String) throws -> Int64 {
    guard
      let row = try db.queryOne(
        "SELECT agent_id, expires_at FROM agent_sessions WHERE token_hash = ?", Accounts.tokenHash(token))
    else { throw Self.notSignedIn }
    let expires: Date = try row.get("expires_at")
    guard expires > environment.now() else {
      throw ServiceError(
        .unauthenticated, code: "session_expired", message: "your session has expired: travel-agent login --email …")
    }
    return try row.get("agent_id")
  }

  /// The signed-in agent.
  public func profile(token: String) throws -> AgentProfile {
    try serviceCall {
      let id = try agentID(token: token)
      guard let row = try db.queryOne("SELECT email, name FROM agents WHERE id = ?", id) else { throw Self.notSignedIn }
      return AgentProfile(email: try row.get("email"), name: try row.get("name"))
    }
  }

  /// The error of a missing or unknown agent session.
  public static let notSignedIn = ServiceError(
    .unauthenticated, code: "not_signed_in", message: "sign in as an agent first: travel-agent login --email …")
}
