import Common
import Foundation

/// One versioned schema change. Each module keeps its own ordered list (`core.001`, `core.002`,
/// …; `flights.001`, …) and ``Store`` applies the ones not yet recorded in `schema_migrations`.
public struct Migration: Hashable, Sendable {
  /// Unique across modules: `"<module>.<NNN>"`. Never change a migration once it has shipped;
  /// add a new one.
  public var id: String
  /// One or more SQL statements.
  public var sql: String

  public init(id: String, sql: String) {
    self.id = id
    self.sql = sql
  }
}

/// The app's one database file (`travel.sqlite3` in the data directory), configured and migrated.
///
/// Settings of every connection:
/// - `journal_mode=WAL`: readers never block the writer nor the writer readers; several
///   processes (`travel` and a standalone `account`) share the file.
/// - `synchronous=NORMAL`: in WAL mode a commit is not fsynced; the WAL is synced at checkpoints.
///   A crash of the process loses nothing that was committed; a power cut or kernel crash can
///   lose the last transactions committed since the last checkpoint (never corrupts the file).
/// - `foreign_keys=ON`; a busy timeout plus retries with jitter (see ``Database/write(_:)``).
/// - `application_id` marks the file as ours, so another program's SQLite file is refused.
/// - The file, its `-wal` and `-shm`, are owner-only (`0600`); the directory `0700`.
public enum Store {
  /// The database file name inside the data directory.
  public static let fileName = "travel.sqlite3"
  /// `PRAGMA application_id` of our store: "TRVL".
  public static let applicationID: Int64 = 0x5452_564C

  /// Opens the store at `dataDirectory/travel.sqlite3` (creating the directory `0700`) and
  /// applies `migrations` in order.
  /// - Throws: ``ServiceError`` `store_unreadable` when the file is corrupt or another program's
  ///   database (the file is left untouched), `data_dir_unusable` when the directory cannot be made.
  public static func open(dataDirectory: URL, migrations: [Migration]) throws -> Database {
    do {
      try DataDirectory.prepare(dataDirectory)
    } catch let error as CLIError {
      throw ServiceError(.unavailable, code: error.code, message: error.message)
    }
    return try open(path: dataDirectory.appendingPathComponent(fileName).path, migrations: migrations)
  }

  /// Opens the store at `path` and applies `migrations` (see ``open(dataDirectory:migrations:)``).
  public static func open(path: String, migrations: [Migration]) throws -> Database {
    let db = try Database(path: path)
    try checkOwnership(db)
    try configure(db)
    try migrate(db, migrations)
    return db
  }

  /// Refuses a SQLite file that has tables but not our application id.
  static func checkOwnership(_ db: Database) throws {
    let objects: Int64 = try db.queryOne("SELECT count(*) AS n FROM sqlite_master")?.get("n") ?? 0
    let id: Int64 = try db.queryOne("PRAGMA application_id")?.get(at: 0) ?? 0
    if objects > 0 && id != applicationID {
      db.close()
      throw Database.unreadable(db.path, reason: "it is another program's SQLite database, not the travel store")
    }
  }

  static func configure(_ db: Database) throws {
    let mode: String = try db.queryOne("PRAGMA journal_mode")?.get(at: 0) ?? ""
    if mode.lowercased() != "wal" && db.path != ":memory:" {
      try withBusyRetry { _ = try db.query("PRAGMA journal_mode=WAL") }
    }
    try db.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    if db.path != ":memory:" {
      for suffix in ["", "-wal", "-shm"] { chmod(db.path + suffix, 0o600) }
    }
  }

  /// Creates `schema_migrations` and applies each migration of `migrations` not recorded there,
  /// in order, each with its record, in one `BEGIN IMMEDIATE` transaction (so two processes
  /// starting together apply each migration once). Idempotent.
  /// - Throws: ``SQLiteError`` of a failing migration (nothing of that run is applied).
  public static func migrate(_ db: Database, _ migrations: [Migration]) throws {
    var seen = Set<String>()
    for migration in migrations where !seen.insert(migration.id).inserted {
      throw SQLiteError(code: 1, message: "migration id \(migration.id) is listed twice")
    }
    let wanted = Set(migrations.map(\.id))
    if let applied = try? appliedIDs(db), wanted.isSubset(of: applied) { return }
    try db.write { db in
      try db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at REAL NOT NULL) STRICT")
      try db.execute("PRAGMA application_id=\(applicationID)")
      let applied = try appliedIDs(db)
      for migration in migrations where !applied.contains(migration.id) {
        try db.execute(migration.sql)
        try db.run("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)", migration.id, Date())
      }
    }
  }

  /// The ids recorded in `schema_migrations`.
  public static func appliedIDs(_ db: Database) throws -> Set<String> {
    Set(try db.query("SELECT id FROM schema_migrations").map { try $0.get("id", as: String.self) })
  }

  private static func withBusyRetry(_ body: () throws -> Void) throws {
    var attempt = 0
    while true {
      do {
        return try body()
      } catch let error as SQLiteError where error.isBusy && attempt < Database.beginRetries {
        attempt += 1
        Database.jitterPause(attempt: attempt)
      }
    }
  }
}
