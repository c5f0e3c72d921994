import Common
import Foundation

/// A failure reported by SQLite: its primary and extended result codes and message, and the file.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067); `code & 0xff` is the primary one.
  public var extendedCode: Int32
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?
  /// The database file, or `":memory:"` (nil when unknown).
  public var path: String?
  /// For a damaged file (``isDamage``): the first lines of `PRAGMA integrity_check`.
  public var integrityCheck: String?

  public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
    self.extendedCode = code
    self.message = message
    self.sql = sql
    self.path = path
  }

  /// The primary result code (`SQLITE_BUSY` 5, `SQLITE_CONSTRAINT` 19, `SQLITE_NOTADB` 26, …).
  public var code: Int32 { extendedCode & 0xff }

  /// Another connection holds the lock (`SQLITE_BUSY`, `SQLITE_LOCKED`): transient.
  public var isBusy: Bool { code == 5 || code == 6 }

  /// The file is damaged or not a database (`SQLITE_CORRUPT` 11, `SQLITE_NOTADB` 26): permanent.
  public var isDamage: Bool { code == 11 || code == 26 }

  /// A UNIQUE or PRIMARY KEY constraint failed.
  public var isUniqueViolation: Bool { extendedCode == 2067 || extendedCode == 1555 }

  public var description: String {
    "SQLite error \(extendedCode): \(message)" + (sql.map { " in \"\($0)\"" } ?? "")
      + (path.map { " (\($0))" } ?? "")
  }

  /// The failure as the services report it (`.unavailable`, exit 1), with advice that can work.
  ///
  /// Only a transient fault says "try again": `store_busy` (another program holds the lock past
  /// every retry) and `disk_full` (once space is freed). Permanent faults name the file and what
  /// to do: `store_damaged` (the `PRAGMA integrity_check` result, and which files to move away),
  /// `store_read_only` (nothing was changed; make it writable or use another `--data-dir`),
  /// `store_unreadable` (cannot be opened: permissions), `store_io_error` (the disk), and
  /// `store_failed` for anything else (the SQLite message).
  public var serviceError: ServiceError {
    let file = path ?? "the store"
    let details = ["sqliteCode": String(extendedCode)]
    func error(_ code: String, _ message: String) -> ServiceError {
      ServiceError(.unavailable, code: code, message: message, details: details)
    }
    switch code {
    case 5, 6:
      return error("store_busy", "the store \(file) is busy with another program for too long: try again")
    case 11, 26:
      let check = integrityCheck ?? (path.map { Database.integrityCheck($0) } ?? "not run")
      return error(
        "store_damaged",
        "the store \(file) is damaged (\(message); PRAGMA integrity_check: \(check)). Retrying will not help, and "
          + "it was left untouched. Move it away with its -wal and -shm files (mv \(file) \(file).damaged; "
          + "mv \(file)-wal \(file).damaged-wal; mv \(file)-shm \(file).damaged-shm) and the next command starts an "
          + "empty store (sign up again); `sqlite3 \(file).damaged .recover` may save what it held")
    case 8:
      return error(
        "store_read_only",
        "the store \(file) cannot be changed: it or its directory is read-only (\(message)). Nothing was changed; "
          + "searches still work. To save there, make both writable yourself (chmod u+w), or use another --data-dir")
    case 3, 14, 23:
      return error(
        "store_unreadable",
        "the store \(file) cannot be opened (\(message)): check that it and its directory are yours and readable "
          + "(ls -l), or use another --data-dir. Nothing was changed")
    case 13:
      return error(
        "disk_full", "the disk holding the store \(file) is full: free some space, then try again. Nothing was changed")
    case 10:
      return error(
        "store_io_error",
        "the store \(file) could not be read or written (\(message)): check the disk and the file. "
          + "Nothing was changed")
    default:
      return error("store_failed", "the store \(file) failed: \(message). Nothing was changed")
    }
  }
}

extension ServiceError {
  /// `error` as a ``ServiceError``: itself, or a storage failure mapped by ``SQLiteError/serviceError``
  /// or ``PostgresError/serviceError``.
  public static func wrapping(_ error: any Error) -> ServiceError {
    switch error {
    case let error as ServiceError: error
    case let error as SQLiteError: error.serviceError
    case let error as PostgresError: error.serviceError
    default:
      ServiceError(.unavailable, code: "internal_error", message: "unexpected failure: \(ErrorText.reason(of: error))")
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
