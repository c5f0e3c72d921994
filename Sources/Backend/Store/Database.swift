import CSQLite
import Common
import Foundation

/// SQLite's "copy the value now" destructor, for binding Swift strings and data.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The store's connection: one SQLite connection with a cache of prepared statements, or (opened
/// with ``init(postgres:)``) a pool of PostgreSQL connections (``PostgresStore``). The services
/// write SQLite's dialect with `?` parameters; on PostgreSQL every statement goes through
/// ``PostgresDialect`` (`$n` parameters, types, `INSERT OR IGNORE`, …), so the services' code is
/// the same on both drivers.
///
/// **PostgreSQL** (several server instances on one database): calls are not serialised; each
/// statement borrows a pooled connection, and ``write(isolation:_:)`` holds one for its
/// transaction, pinned to the calling thread (every statement the body runs on this store goes
/// to it). ``write(isolation:_:)`` is `SERIALIZABLE` by default (the same guarantee as SQLite's
/// single writer: a body that reads, checks and writes stays correct), retried on `40001`/`40P01`;
/// booking and cancelling run in `READ COMMITTED` with conditional statements and row locks
/// instead (see ``ReservationLedger``). Failures are ``PostgresError``s.
///
/// A `Database` is safe to share between threads: every call holds the connection's lock, so
/// calls run one at a time. For parallelism open one `Database` per thread (they coordinate
/// through SQLite's file locks, like separate processes do).
///
/// Writes go through ``write(_:)``, which runs its body in a `BEGIN IMMEDIATE` transaction: the
/// write lock is taken up front, so two writers never deadlock upgrading a read lock, and a busy
/// lock is waited for (SQLite's busy timeout, then our own retries with random jitter) instead of
/// reaching the user as "database is locked".
///
/// **Deferred stores** (``Store/openDeferred(dataDirectory:migrations:)``, what the apps use):
/// reading never writes. The connection starts read-only on the store file (`SQLITE_OPEN_READONLY`;
/// in a read-only directory without the WAL's `-shm` file, `immutable=1`, since nothing can
/// change it there), or, when there is no store yet, on an empty in-memory copy of the schema
/// (re-checked for a store file at each call). The first ``write(_:)`` (or ``run(_:_:)`` outside
/// a transaction) checks the data directory for writing, creates it and the file if needed
/// (`0700`/`0600`), and reopens read-write, migrated. A search therefore works in a read-only
/// directory and creates nothing.
///
/// Every ``SQLiteError`` it throws names the file (``SQLiteError/path``); a damaged file's error
/// carries the first lines of `PRAGMA integrity_check` (``SQLiteError/integrityCheck``).
public final class Database: @unchecked Sendable {
  /// How long one attempt waits for a lock inside SQLite (milliseconds).
  public static let busyTimeoutMilliseconds: Int32 = 2_000
  /// How many times ``write(_:)`` retries `BEGIN IMMEDIATE` after SQLite's own wait ran out.
  public static let beginRetries = 12

  /// What the connection is open on now.
  public enum Connection: Sendable, Equatable {
    /// The file, read-write.
    case readWrite
    /// The file, read-only (a deferred store before its first write).
    case readOnly
    /// No store file yet: an empty in-memory schema, read-only (a deferred store).
    case placeholder
  }

  private var handle: OpaquePointer?
  /// The PostgreSQL driver (nil: SQLite).
  let postgres: PostgresStore?
  private var statements: [String: OpaquePointer] = [:]
  private let lock = NSRecursiveLock()
  private var inTransaction = false
  private var state: Connection = .readWrite
  /// True while a connection is being opened (its own queries and migrations must not refresh it).
  private var opening = false
  /// For a deferred store: its directory and migrations (applied when it opens read-write).
  private let deferred: (directory: URL, migrations: [Migration])?
  /// The file path, or `":memory:"`; for PostgreSQL the URL without its password.
  public let path: String

  /// Opens (or creates) the database at `path` for reading and writing.
  ///
  /// `path` must be a SQLite database, or absent or empty (then a new one is made, owner-only
  /// `0600`). Nothing is written before the file is known to be a SQLite database, so a corrupt
  /// or foreign file is left exactly as it was.
  /// - Throws: ``ServiceError`` `store_unreadable` (`.unavailable`) naming `path` when the file
  ///   is not a SQLite database or cannot be opened; ``SQLiteError`` for other failures.
  public init(path: String) throws {
    self.path = path
    deferred = nil
    postgres = nil
    try openReadWrite()
  }

  /// Connects to the PostgreSQL database of `configuration` (one connection now, more as needed
  /// up to its pool size). Use ``Store/open(postgres:migrations:)`` to migrate it as well.
  /// - Throws: ``PostgresError`` (a connection failure: `store_unavailable` once wrapped) with
  ///   libpq's reason (unreachable, authentication, no such database, TLS).
  public init(postgres configuration: PostgresConfiguration) throws {
    path = configuration.displayName
    deferred = nil
    postgres = try PostgresStore(configuration)
  }

  /// Which database this is.
  public enum Driver: String, Sendable {
    case sqlite, postgres
  }

  /// SQLite or PostgreSQL.
  public var driver: Driver { postgres == nil ? .sqlite : .postgres }

  /// A deferred store at `directory/fileName` (see the type's documentation); opens read-only or
  /// on the in-memory placeholder.
  init(deferredStoreIn directory: URL, fileName: String, migrations: [Migration]) throws {
    path = directory.appendingPathComponent(fileName).path
    deferred = (directory, migrations)
    postgres = nil
    try DataDirectory.check(DataDirectory.status(of: directory), for: .read, path: directory.path)
    if DataDirectory.status(of: URL(fileURLWithPath: path)).exists {
      try openReadOnly()
    } else {
      try openPlaceholder()
    }
  }

  deinit { close() }

  /// What the connection is open on (a plain ``init(path:)`` is always ``Connection/readWrite``).
  public var connection: Connection { postgres == nil ? locked { state } : .readWrite }

  /// Closes the connection (further calls fail). Called by `deinit`.
  public func close() {
    postgres?.close()
    lock.lock()
    defer { lock.unlock() }
    closeHandle()
  }

  private func closeHandle() {
    for statement in statements.values { sqlite3_finalize(statement) }
    statements = [:]
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
  }

  static func unreadable(_ path: String, reason: String) -> ServiceError {
    ServiceError(
      .unavailable, code: "store_unreadable",
      message: "the store \(path) cannot be read: \(reason). It was left untouched: move it away (mv \(path) "
        + "\(path).old) and the next command starts an empty store, or use another --data-dir")
  }

  /// Opens `location` with `flags` and reads the header (junk gives `SQLITE_NOTADB` here, before
  /// anything writes).
  private func connect(_ location: String, flags: Int32) throws {
    var db: OpaquePointer?
    let status = sqlite3_open_v2(location, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let db else {
      let code = db.map { sqlite3_extended_errcode($0) } ?? status
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)
      throw SQLiteError(code: code, message: message, path: path)
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
    do {
      _ = try query("SELECT count(*) FROM sqlite_master")
    } catch let error as SQLiteError where error.code == SQLITE_NOTADB {
      closeHandle()
      throw Self.unreadable(path, reason: "it is not a SQLite database (\(error.message))")
    } catch {
      closeHandle()
      throw error
    }
  }

  private func openReadWrite() throws {
    let wasOpening = opening
    opening = true
    defer { opening = wasOpening }
    if path != ":memory:" {
      if let deferred {
        try DataDirectory.prepare(deferred.directory)
        let file = DataDirectory.status(of: URL(fileURLWithPath: path))
        if file.exists && file.ownerMadeReadOnly {
          throw SQLiteError(code: SQLITE_READONLY, message: "the file is read-only (\(file.modeText))", path: path)
        }
      }
      try Self.createOwnerOnly(path)
    }
    try connect(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    state = .readWrite
    if let deferred {
      try Store.checkOwnership(self)
      try Store.configure(self)
      try Store.migrate(self, deferred.migrations)
    }
  }

  private func openReadOnly() throws {
    guard let deferred else { return }
    let wasOpening = opening
    opening = true
    defer { opening = wasOpening }
    let directory = DataDirectory.status(of: deferred.directory)
    let directoryReadOnly = !directory.canWrite || directory.ownerMadeReadOnly
    // In a read-only directory without the WAL's `-shm` file SQLite cannot make its shared-memory
    // index (and root, who could, must not create files there); no process can write the store
    // either (a writer needs a `-wal` file it cannot create), so it is read as immutable.
    let hasIndex = DataDirectory.status(of: URL(fileURLWithPath: path + "-shm")).exists
    if directoryReadOnly && !hasIndex {
      try connect(Self.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
    } else {
      do {
        try connect(path, flags: SQLITE_OPEN_READONLY)
      } catch let error as SQLiteError
        where directoryReadOnly && (error.code == SQLITE_READONLY || error.code == SQLITE_CANTOPEN)
      {
        try connect(Self.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
      }
    }
    state = .readOnly
    try Store.checkOwnership(self)
    let applied = try Store.appliedIDsIfAny(self) ?? []
    if !Set(deferred.migrations.map(\.id)).isSubset(of: applied) {
      // Written by an older version: upgrading the schema is a write, done now when allowed.
      closeHandle()
      do {
        try openReadWrite()
      } catch let error as ServiceError where error.code == "data_dir_read_only" {
        throw ServiceError(
          .unavailable, code: "store_outdated",
          message: "the store \(path) was written by an older version of the app and must be upgraded, which needs "
            + "write access: make its directory writable once (chmod u+w \(deferred.directory.path)) and run any "
            + "command, or use another --data-dir")
      }
    }
  }

  private func openPlaceholder() throws {
    guard let deferred else { return }
    let wasOpening = opening
    opening = true
    defer { opening = wasOpening }
    try connect(":memory:", flags: SQLITE_OPEN_READWRITE)
    state = .placeholder
    try Store.migrate(self, deferred.migrations)
    try execute("PRAGMA query_only=1")
  }

  /// For a deferred store: a placeholder becomes the file once one exists (another process made
  /// it); a write (outside a transaction) reopens read-write. When that fails, what was open
  /// before stays open (searches go on) and the error says why the write cannot happen.
  private func refresh(forWriting: Bool) throws {
    guard deferred != nil, !inTransaction, !opening else { return }
    if state == .placeholder && DataDirectory.status(of: URL(fileURLWithPath: path)).exists {
      closeHandle()
      try openReadOnly()
    }
    guard forWriting && state != .readWrite else { return }
    let before = state
    closeHandle()
    do {
      try openReadWrite()
    } catch {
      closeHandle()
      if before == .placeholder { try? openPlaceholder() } else { try? openReadOnly() }
      throw error
    }
  }

  /// `file:` URI of `path` with `immutable=1`.
  static func immutableURI(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
  }

  /// Creates an empty file `0600` if none exists, so SQLite (and its `-wal`/`-shm` files, which
  /// copy the database file's mode) never make a world-readable file.
  private static func createOwnerOnly(_ path: String) throws {
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd >= 0 {
      _ = Foundation.close(fd)
    } else if errno != EEXIST {
      let code = errno
      throw SQLiteError(
        code: code == EACCES || code == EPERM || code == EROFS ? SQLITE_READONLY : SQLITE_CANTOPEN,
        message: ErrorText.reason(errno: code), path: path)
    }
  }

  /// The first lines of `PRAGMA integrity_check` on `path` (a separate read-only connection), or
  /// why it could not run.
  static func integrityCheck(_ path: String, lines: Int = 5) -> String {
    var db: OpaquePointer?
    defer { sqlite3_close_v2(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
      return "it could not run (the file cannot be opened)"
    }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, "PRAGMA integrity_check(\(lines))", -1, &statement, nil) == SQLITE_OK else {
      return "it could not run (\(String(cString: sqlite3_errmsg(db))))"
    }
    var found: [String] = []
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) {
        found.append(String(cString: text))
      } else if status == SQLITE_DONE {
        break
      } else {
        found.append("stopped: \(String(cString: sqlite3_errmsg(db)))")
        break
      }
    }
    return found.isEmpty ? "no result" : found.joined(separator: "; ")
  }

  // MARK: Statements

  /// Runs one statement (with `?` parameters) that returns no rows.
  /// - Returns: the number of rows changed.
  @discardableResult
  public func run(_ sql: String, _ bindings: any SQLBindable...) throws -> Int {
    try run(sql, bindings: bindings)
  }

  /// Runs one statement with an array of bindings. - Returns: rows changed.
  @discardableResult
  public func run(_ sql: String, bindings: [any SQLBindable]) throws -> Int {
    if let postgres {
      return try postgres.statement(sql, bindings.map(\.sqlValue), retryOnLostConnection: false).changed
    }
    return try locked {
      try refresh(forWriting: true)
      try step(sql, bindings) { _ in }
      return Int(sqlite3_changes(handle))
    }
  }

  /// Runs one query and returns every row.
  public func query(_ sql: String, _ bindings: any SQLBindable...) throws -> [Row] {
    try query(sql, bindings: bindings)
  }

  /// Runs one query with an array of bindings and returns every row.
  public func query(_ sql: String, bindings: [any SQLBindable]) throws -> [Row] {
    if let postgres {
      let reading = sql.prefix(8).uppercased().hasPrefix("SELECT")
      return try postgres.statement(sql, bindings.map(\.sqlValue), retryOnLostConnection: reading).rows
    }
    return try locked {
      try refresh(forWriting: false)
      var rows: [Row] = []
      try step(sql, bindings) { rows.append($0) }
      return rows
    }
  }

  /// The first row of a query, or `nil`.
  public func queryOne(_ sql: String, _ bindings: any SQLBindable...) throws -> Row? {
    try query(sql, bindings: bindings).first
  }

  /// Runs several statements without parameters (migrations, pragmas).
  public func execute(_ sql: String) throws {
    if let postgres { return try postgres.script(sql) }
    try locked {
      var error: UnsafeMutablePointer<CChar>?
      let status = sqlite3_exec(handle, sql, nil, nil, &error)
      if status != SQLITE_OK {
        let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
        sqlite3_free(error)
        throw failure(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
      }
    }
  }

  /// Wakes the listeners of `channel` in every process on this database (PostgreSQL's
  /// `pg_notify`), outside any transaction: a `NOTIFY` in a transaction takes a lock, held to the
  /// commit, that serialises every committing transaction that notifies. Nothing on SQLite (its
  /// followers poll the file).
  /// - Throws: ``ServiceError`` `store_failed` when called inside a transaction (a programming
  ///   error); the store's errors.
  public func notify(channel: String) throws {
    guard let postgres else { return }
    guard !isInTransaction else {
      throw ServiceError(.unavailable, code: "store_failed", message: "NOTIFY \(channel) inside a transaction")
    }
    _ = try postgres.statement("SELECT pg_notify(?, '') AS sent", [.text(channel)], retryOnLostConnection: true)
  }

  /// Calls `wake` (on a thread of its own) after each batch of notifications on `channel`
  /// (``notify(channel:)``), and after each reconnection; nil on SQLite. Stop it with
  /// ``StoreListener/stop()``.
  public func listen(channel: String, wake: @escaping @Sendable () -> Void) -> StoreListener? {
    postgres?.listen(channel: channel, wake: wake)
  }

  /// A stamp that changes whenever a transaction that changed something was committed to the
  /// store, by this connection or by any other (another process included): SQLite's
  /// `PRAGMA data_version` (changes by other connections; https://sqlite.org/pragma.html#pragma_data_version)
  /// and `sqlite3_total_changes64` (this connection's), as `data_version.total_changes`. Cheap
  /// (no table is read): for polling.
  /// - Throws: ``SQLiteError`` when the connection is closed or the file cannot be read.
  public func changeStamp() throws -> String {
    if postgres != nil {
      return try queryOne("SELECT pg_current_wal_lsn()::text AS lsn")?.get("lsn", as: String.self) ?? ""
    }
    return try locked {
      let version = try query("PRAGMA data_version").first?.get(at: 0, as: Int64.self) ?? 0
      return "\(version).\(sqlite3_total_changes64(handle))"
    }
  }

  /// The rowid of the last row inserted on this connection.
  /// On PostgreSQL: `lastval()` of the calling thread's transaction (0 outside one); prefer
  /// `INSERT … RETURNING id`, which both drivers take.
  public var lastInsertRowID: Int64 {
    if postgres != nil {
      return (try? queryOne("SELECT lastval() AS id")?.get("id", as: Int64.self)) ?? 0
    }
    return locked { sqlite3_last_insert_rowid(handle) }
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  private func prepared(_ sql: String) throws -> OpaquePointer {
    guard let handle else {
      throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed", sql: sql, path: path)
    }
    if let cached = statements[sql] { return cached }
    var statement: OpaquePointer?
    // `FOR UPDATE` locks rows on PostgreSQL; SQLite's one writer already holds the whole file.
    let text = sql.hasSuffix(" FOR UPDATE") ? String(sql.dropLast(11)) : sql
    let status = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard status == SQLITE_OK, let statement else {
      throw failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
    statements[sql] = statement
    return statement
  }

  private func step(_ sql: String, _ bindings: [any SQLBindable], row: (Row) -> Void) throws {
    let statement = try prepared(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    let expected = Int(sqlite3_bind_parameter_count(statement))
    guard expected == bindings.count else {
      throw SQLiteError(
        code: SQLITE_RANGE, message: "\(bindings.count) values bound to \(expected) parameters", sql: sql, path: path)
    }
    for (offset, value) in bindings.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value.sqlValue {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let int): status = sqlite3_bind_int64(statement, index, int)
      case .real(let double): status = sqlite3_bind_double(statement, index, double)
      case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
      case .blob(let data):
        status = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob64(
            statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count),
            sqliteTransient)
        }
      }
      guard status == SQLITE_OK else { throw lastError(sql) }
    }
    let columnCount = sqlite3_column_count(statement)
    var names: [String]?
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw lastError(sql) }
      let columns = names ?? (0..<columnCount).map { String(cString: sqlite3_column_name(statement, $0)) }
      names = columns
      var values: [SQLValue] = []
      values.reserveCapacity(Int(columnCount))
      for index in 0..<columnCount {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, index)))
        case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, index)))
        case SQLITE_TEXT:
          values.append(.text(String(cString: sqlite3_column_text(statement, index))))
        case SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(statement, index))
          if let bytes = sqlite3_column_blob(statement, index), count > 0 {
            values.append(.blob(Data(bytes: bytes, count: count)))
          } else {
            values.append(.blob(Data()))
          }
        default: values.append(.null)
        }
      }
      row(Row(columns: columns, values: values))
    }
  }

  private func lastError(_ sql: String?) -> SQLiteError {
    failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  /// An error of this file; a damaged file's carries `PRAGMA integrity_check`.
  private func failure(code: Int32, message: String, sql: String?) -> SQLiteError {
    var error = SQLiteError(code: code, message: message, sql: sql, path: path)
    if error.isDamage && path != ":memory:" { error.integrityCheck = Self.integrityCheck(path) }
    return error
  }

  // MARK: Transactions

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed if it returns, rolled back
  /// if it throws (the error is rethrown). Nested calls run in a savepoint of the outer transaction.
  ///
  /// When another connection or process holds the write lock, SQLite waits up to
  /// ``busyTimeoutMilliseconds``; after that this retries `BEGIN IMMEDIATE` up to ``beginRetries``
  /// times with a random, growing pause (jitter, so racing writers spread out). Only when all of
  /// that fails does it throw a `store_busy` ``SQLiteError``.
  ///
  /// On PostgreSQL the transaction runs at `isolation` (``TransactionIsolation``), and a body that
  /// fails with a serialization failure or a deadlock is rolled back and run again (see
  /// ``PostgresStore``): a body must change nothing but the database. SQLite's one writer is
  /// serializable whatever `isolation` says.
  @discardableResult
  public func write<T>(isolation: TransactionIsolation = .serializable, _ body: (Database) throws -> T) throws -> T {
    if let postgres {
      return try postgres.transaction(isolation: isolation.postgres, readOnly: false) { try body(self) }
    }
    return try locked {
      if inTransaction { return try savepoint(body) }
      try refresh(forWriting: true)
      try beginImmediate()
      inTransaction = true
      defer { inTransaction = false }
      let result: T
      do {
        result = try body(self)
      } catch {
        try? execute("ROLLBACK")
        throw error
      }
      try commit()
      return result
    }
  }

  /// Runs `body` in a read transaction (`BEGIN DEFERRED`): one consistent snapshot of the file.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    if let postgres {
      return try postgres.transaction(isolation: .repeatableRead, readOnly: true) { try body(self) }
    }
    return try locked {
      if inTransaction { return try body(self) }
      try refresh(forWriting: false)
      try execute("BEGIN DEFERRED")
      inTransaction = true
      defer { inTransaction = false }
      do {
        let result = try body(self)
        try execute("COMMIT")
        return result
      } catch {
        try? execute("ROLLBACK")
        throw error
      }
    }
  }

  /// Runs `body` in a savepoint: rolled back to its start (and the error rethrown) if it throws,
  /// leaving the enclosing transaction alive.
  public func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
    if let postgres {
      return try postgres.transaction(isolation: .serializable, readOnly: false) { try body(self) }
    }
    return try locked {
      let name = "sp\(UInt32.random(in: 0...UInt32.max))"
      try execute("SAVEPOINT \(name)")
      do {
        let result = try body(self)
        try execute("RELEASE \(name)")
        return result
      } catch {
        try? execute("ROLLBACK TO \(name)")
        try? execute("RELEASE \(name)")
        throw error
      }
    }
  }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { postgres.map(\.isInTransaction) ?? locked { inTransaction } }

  private func beginImmediate() throws {
    var attempt = 0
    while true {
      do {
        try execute("BEGIN IMMEDIATE")
        return
      } catch let error as SQLiteError where error.isBusy && attempt < Self.beginRetries {
        attempt += 1
        Self.jitterPause(attempt: attempt)
      }
    }
  }

  private func commit() throws {
    var attempt = 0
    while true {
      do {
        try execute("COMMIT")
        return
      } catch let error as SQLiteError where error.isBusy && attempt < Self.beginRetries {
        attempt += 1
        Self.jitterPause(attempt: attempt)
      } catch {
        try? execute("ROLLBACK")
        throw error
      }
    }
  }

  /// Sleeps a random time in [0, min(2^attempt × 5 ms, 500 ms)].
  static func jitterPause(attempt: Int) {
    let ceiling = min(500.0, 5.0 * pow(2.0, Double(attempt)))
    usleep(useconds_t(Double.random(in: 0...ceiling) * 1000))
  }
}

/// The isolation of a ``Database/write(isolation:_:)`` transaction on PostgreSQL
/// (https://www.postgresql.org/docs/15/transaction-iso.html).
public enum TransactionIsolation: Sendable {
  /// As if the transactions ran one after another (SQLite's behaviour); conflicts are retried.
  case serializable
  /// Each statement sees what was committed before it began: for transactions whose every
  /// check-and-change is one conditional statement or follows a row lock (`FOR UPDATE`).
  case readCommitted

  var postgres: PostgresStore.Isolation {
    switch self {
    case .serializable: .serializable
    case .readCommitted: .readCommitted
    }
  }
}
