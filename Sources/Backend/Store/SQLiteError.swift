import Common
import Foundation

/// A failure reported by SQLite: its primary and extended result codes and message.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067); `code & 0xff` is the primary one.
  public var extendedCode: Int32
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?

  public init(code: Int32, message: String, sql: String? = nil) {
    self.extendedCode = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`SQLITE_BUSY` 5, `SQLITE_CONSTRAINT` 19, `SQLITE_NOTADB` 26, …).
  public var code: Int32 { extendedCode & 0xff }

  /// Another connection holds the lock (`SQLITE_BUSY`, `SQLITE_LOCKED`).
  public var isBusy: Bool { code == 5 || code == 6 }

  /// A UNIQUE or PRIMARY KEY constraint failed.
  public var isUniqueViolation: Bool { extendedCode == 2067 || extendedCode == 1555 }

  public var description: String {
    "SQLite error \(extendedCode): \(message)" + (sql.map { " in \"\($0)\"" } ?? "")
  }

  /// The failure as the services report it: `store_unavailable`, retryable (`.unavailable`).
  public var serviceError: ServiceError {
    ServiceError(
      .unavailable, code: isBusy ? "store_busy" : "store_unavailable",
      message: isBusy
        ? "the store is busy with another program for too long: try again"
        : "the store failed (\(message)): try again; if it persists, check the data directory",
      details: ["sqliteCode": String(extendedCode)])
  }
}

extension ServiceError {
  /// `error` as a ``ServiceError``: itself, or a storage failure mapped by ``SQLiteError/serviceError``.
  public static func wrapping(_ error: any Error) -> ServiceError {
    switch error {
    case let error as ServiceError: error
    case let error as SQLiteError: error.serviceError
    default:
      ServiceError(.unavailable, code: "internal_error", message: "unexpected failure: \(error.localizedDescription)")
    }
  }
}

/// Runs `body`, turning any error into a ``ServiceError`` (the boundary of every service method).
@inline(__always)
func serviceCall<T>(_ body: () throws -> T) throws(ServiceError) -> T {
  do {
    return try body()
  } catch {
    throw ServiceError.wrapping(error)
  }
}
