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
  /// Statements run after ``sql`` on PostgreSQL only, as written (not translated): what SQLite
  /// has no form for (a column default calling a PostgreSQL function).
  public var postgres: String?

  public init(id: String, sql: String, postgres: String? = nil) {
    self.id = id
    self.sql = sql
    self.postgres = postgres
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
/// - A new file is created owner-only (`0600`; its `-wal` and `-shm` copy that mode), in a new
///   directory created `0700`. Existing files and directories keep the mode their owner gave them:
///   the store never changes a permission (see ``DataDirectory``).
public enum Store {
  /// The database file name inside the data directory.
  public static let fileName = "travel.sqlite3"
  /// `PRAGMA application_id` of our store: "TRVL".
  public static let applicationID: Int64 = 0x5452_564C

  /// Opens the store at `dataDirectory/travel.sqlite3` for reading and writing (creating the
  /// directory `0700` and the file `0600` if missing) and applies `migrations` in order.
  /// - Throws: ``ServiceError`` `store_unreadable` when the file is another program's database
  ///   or not a database (the file is left untouched); `data_dir_unusable`, `data_dir_unreadable`,
  ///   `data_dir_read_only` from ``DataDirectory/prepare(_:)``; ``SQLiteError`` `SQLITE_READONLY`
  ///   when the owner made the file read-only.
  public static func open(dataDirectory: URL, migrations: [Migration]) throws -> Database {
    try DataDirectory.prepare(dataDirectory)
    let path = dataDirectory.appendingPathComponent(fileName).path
    let file = DataDirectory.status(of: URL(fileURLWithPath: path))
    if file.exists && file.ownerMadeReadOnly {
      throw SQLiteError(code: 8, message: "the file is read-only (\(file.modeText))", path: path).serviceError
    }
    return try open(path: path, migrations: migrations)
  }

  /// The store of `dataDirectory` opened for reading, switching to read-write at its first write
  /// (see ``Database``, "Deferred stores"): a search creates nothing and works in a read-only
  /// directory; a missing store reads as empty.
  /// - Throws: ``ServiceError`` `data_dir_unusable` (a file, not a directory), `data_dir_unreadable`
  ///   (another user's directory), `store_unreadable` (another program's file, not a database),
  ///   `store_outdated` (an older schema in a read-only directory); `store_damaged` and the other
  ///   ``SQLiteError/serviceError`` codes come from the first query that meets them.
  public static func openDeferred(dataDirectory: URL, migrations: [Migration]) throws -> Database {
    try Database(deferredStoreIn: dataDirectory, fileName: fileName, migrations: migrations)
  }

  /// Opens the store at `path` and applies `migrations` (see ``open(dataDirectory:migrations:)``).
  public static func open(path: String, migrations: [Migration]) throws -> Database {
    let db = try Database(path: path)
    try checkOwnership(db)
    try configure(db)
    try migrate(db, migrations)
    return db
  }

  /// Connects to the PostgreSQL database of `configuration` and applies `migrations` (each
  /// translated by ``PostgresDialect``), recording them in that database's own
  /// `schema_migrations` table. Several servers starting together apply each migration once: the
  /// whole run holds a transaction-scoped advisory lock.
  /// - Throws: ``ServiceError`` `store_unavailable` naming the database and libpq's reason when it
  ///   cannot be reached (wrong host, password, database, TLS); `store_failed` when a migration fails
  ///   (nothing of that run is applied).
  public static func open(postgres configuration: PostgresConfiguration, migrations: [Migration]) throws -> Database {
    do {
      let db = try Database(postgres: configuration)
      do {
        try migratePostgres(db, migrations)
      } catch {
        db.close()
        throw error
      }
      return db
    } catch {
      throw ServiceError.wrapping(error)
    }
  }

  /// The lock key of migrations on PostgreSQL (`pg_advisory_xact_lock`): "TRVL".
  static let postgresMigrationLock: Int64 = applicationID

  static func migratePostgres(_ db: Database, _ migrations: [Migration]) throws {
    var seen = Set<String>()
    for migration in migrations where !seen.insert(migration.id).inserted {
      throw PostgresError(sqlState: "42000", message: "migration id \(migration.id) is listed twice")
    }
    try db.write(isolation: .readCommitted) { db in
      _ = try db.query("SELECT pg_advisory_xact_lock(?) AS locked", postgresMigrationLock)
      try db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at REAL NOT NULL) WITHOUT ROWID")
      let applied = try appliedIDs(db)
      for migration in migrations where !applied.contains(migration.id) {
        try db.execute(migration.sql)
        if let extra = migration.postgres { try db.postgres?.untranslatedScript(extra) }
        try db.run("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)", migration.id, Date())
      }
    }
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
    if let applied = try appliedIDsIfAny(db), wanted.isSubset(of: applied) { return }
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

  /// ``appliedIDs(_:)``, or nil when `schema_migrations` does not exist yet (a new file).
  /// - Throws: a damaged file's ``SQLiteError`` (nothing may be written to it).
  static func appliedIDsIfAny(_ db: Database) throws -> Set<String>? {
    do {
      return try appliedIDs(db)
    } catch let error as SQLiteError where !error.isDamage && !error.isBusy {
      return nil
    }
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
