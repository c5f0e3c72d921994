import Common
import Foundation

/// A failure reported by PostgreSQL (or by libpq about the connection): its SQLSTATE, message and
/// the statement. SQLSTATE codes: https://www.postgresql.org/docs/15/errcodes-appendix.html
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Five characters (`23505` unique violation, `40001` serialization failure, `08006` connection
  /// failure, …). libpq's own connection failures (no server answer) are reported as `08006`.
  public var sqlState: String
  public var message: String
  /// The server's `DETAIL` line, if any.
  public var detail: String?
  /// The constraint that failed (for `23xxx`), if any.
  public var constraint: String?
  /// The statement as sent (PostgreSQL's dialect), if any.
  public var sql: String?
  /// The database, as `postgresql://user@host/db` (no password).
  public var database: String?

  public init(
    sqlState: String, message: String, detail: String? = nil, constraint: String? = nil, sql: String? = nil,
    database: String? = nil
  ) {
    self.sqlState = sqlState
    self.message = message
    self.detail = detail
    self.constraint = constraint
    self.sql = sql
    self.database = database
  }

  /// A UNIQUE or PRIMARY KEY constraint failed (`23505`).
  public var isUniqueViolation: Bool { sqlState == "23505" }

  /// A serialization failure (`40001`) or a deadlock (`40P01`): the transaction was rolled back
  /// and running it again can succeed.
  public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

  /// The connection is gone or could not be made: class `08` (connection exception), `57P01`–`57P03`
  /// (administrator shutdown, crash shutdown, cannot connect now), `53300` (too many connections).
  public var isConnectionFailure: Bool {
    sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(sqlState)
  }

  /// The statement ran past `statement_timeout` (`57014`, query canceled).
  public var isTimeout: Bool { sqlState == "57014" }

  public var description: String {
    "PostgreSQL error \(sqlState): \(message)" + (detail.map { " (\($0))" } ?? "") + (sql.map { " in \"\($0)\"" } ?? "")
      + (database.map { " (\($0))" } ?? "")
  }

  /// The failure as the services report it (`.unavailable`: HTTP 503 from the server, exit 1 from
  /// a command): `store_unavailable` when the database cannot be reached or the connection was
  /// lost (nothing of the request was committed unless the answer says so; try again),
  /// `store_busy` when a transaction kept conflicting past every retry or every pooled connection
  /// stayed busy, `store_timeout` when a statement ran past the statement timeout, and
  /// `store_failed` for anything else (the server's message).
  public var serviceError: ServiceError {
    let name = database ?? "the PostgreSQL store"
    let details = ["sqlState": sqlState]
    func error(_ code: String, _ message: String) -> ServiceError {
      ServiceError(.unavailable, code: code, message: message, details: details)
    }
    if isConnectionFailure {
      return error(
        "store_unavailable",
        "the store \(name) cannot be reached (\(message)): nothing was changed; try again shortly")
    }
    if isRetryable {
      return error("store_busy", "the store \(name) is busy with other requests for too long: try again")
    }
    if isTimeout {
      return error("store_timeout", "the store \(name) took too long to answer: nothing was changed; try again")
    }
    return error("store_failed", "the store \(name) failed: \(message). Nothing was changed")
  }
}
