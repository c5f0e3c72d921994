import CLibPQ
import Common
import Foundation

/// Where the server's store lives: the data directory's SQLite file (the default) or a
/// PostgreSQL database given as a URL (`travel-server --database`, `TRAVEL_DATABASE_URL`).
public enum DatabaseLocation: Sendable, Equatable {
  /// `travel.sqlite3` in the data directory.
  case sqlite
  /// A PostgreSQL database (see ``PostgresConfiguration``).
  case postgres(PostgresConfiguration)

  /// The location named by `text`: a `postgres://` or `postgresql://` URL.
  /// - Throws: ``ServiceError`` `invalid_database_url` (`.invalidInput`, exit 2) naming what is
  ///   wrong and what is accepted: another scheme, a URL libpq cannot parse (an unknown
  ///   parameter, bad percent-encoding), or a bad `pool_size`/`statement_timeout`.
  public static func parse(_ text: String) throws -> DatabaseLocation {
    .postgres(try PostgresConfiguration(url: text))
  }
}

/// A PostgreSQL database URL and the store's own settings taken out of it.
///
/// The URL is libpq's (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING):
/// `postgresql://user:password@host:port/db?sslmode=require`, or a Unix socket as
/// `postgresql://user@/db?host=/run/postgresql`. Every libpq parameter passes through (TLS:
/// `sslmode=require`, `verify-full`, `sslrootcert=…`). Two more are the store's own and are taken
/// out before libpq sees the URL:
/// - `pool_size=N`: connections kept open at most (1…1000, default 10); a request waits up to
///   ``acquireTimeout`` for one, then fails with `store_busy`.
/// - `statement_timeout=MS`: each statement's limit in milliseconds (default 10,000; 0 = none);
///   past it the statement is cancelled and the request fails with `store_timeout`.
public struct PostgresConfiguration: Sendable, Equatable {
  /// The URL given to libpq (without `pool_size` and `statement_timeout`).
  public var conninfo: String
  /// The URL without its password, for messages.
  public var displayName: String
  public var poolSize: Int
  public var statementTimeoutMilliseconds: Int
  /// How long a request waits for a pooled connection (seconds).
  public var acquireTimeout: TimeInterval = 10
  /// libpq's `connect_timeout` unless the URL gives one (seconds).
  public var connectTimeout: Int = 5

  /// See the type's documentation.
  /// - Throws: ``ServiceError`` `invalid_database_url` (`.invalidInput`).
  public init(url text: String) throws {
    func invalid(_ reason: String) -> ServiceError {
      ServiceError(
        .invalidInput, code: "invalid_database_url",
        message: "invalid database URL \(EchoedInput.quoted(Self.redacted(text))): \(reason); expected "
          + "postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=require&pool_size=N&statement_timeout=MS] "
          + "(or postgres://…; a Unix socket as postgresql://USER@/DATABASE?host=/run/postgresql)")
    }
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
      throw invalid("it is not a URL")
    }
    guard scheme == "postgres" || scheme == "postgresql" else {
      throw invalid("unknown scheme \"\(EchoedInput.escaped(scheme))\" (only PostgreSQL URLs are accepted)")
    }
    var kept = components
    var poolSize = 10
    var timeout = 10_000
    var items: [URLQueryItem] = []
    // Percent-encoded as given: libpq decodes the values itself (and refuses a raw `=` in one).
    for item in components.percentEncodedQueryItems ?? [] {
      let value = item.value?.removingPercentEncoding
      switch item.name {
      case "pool_size":
        guard let value = value.flatMap(Int.init), (1...1000).contains(value) else {
          throw invalid("pool_size must be a whole number from 1 to 1000")
        }
        poolSize = value
      case "statement_timeout":
        guard let value = value.flatMap(Int.init), (0...86_400_000).contains(value) else {
          throw invalid("statement_timeout must be milliseconds from 0 (none) to 86400000")
        }
        timeout = value
      default: items.append(item)
      }
    }
    kept.percentEncodedQueryItems = items.isEmpty ? nil : items
    guard let conninfo = kept.string else { throw invalid("it is not a URL") }
    // libpq's own parser: unknown parameters and malformed parts are refused here, not at connect.
    var error: UnsafeMutablePointer<CChar>?
    if let options = PQconninfoParse(conninfo, &error) {
      PQconninfoFree(options)
    } else {
      let reason = error.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "not valid"
      PQfreemem(error)
      throw invalid(reason)
    }
    self.conninfo = conninfo
    displayName = Self.redacted(conninfo)
    self.poolSize = poolSize
    statementTimeoutMilliseconds = timeout
  }

  /// `text` with the password of its user part replaced by `***`.
  static func redacted(_ text: String) -> String {
    // By hand, so a URL Foundation cannot parse keeps its password out of messages too.
    guard let scheme = text.range(of: "://") else { return text }
    let rest = text[scheme.upperBound...]
    guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":"),
      !rest[..<at].contains("/")
    else { return text }
    return String(text[..<rest.index(after: colon)]) + "***" + String(rest[at...])
  }
}

/// A PostgreSQL database behind a bounded pool of libpq connections: the PostgreSQL driver of
/// ``Database``.
///
/// - A statement outside a transaction borrows a connection for that statement. A transaction
///   holds one connection from `BEGIN` to `COMMIT`/`ROLLBACK`, pinned to the calling thread, so
///   every statement the transaction's body runs on this store (on any ``Database`` value)
///   goes to that connection.
/// - At most ``PostgresConfiguration/poolSize`` connections are open; a caller waits up to
///   ``PostgresConfiguration/acquireTimeout`` for one (`store_busy` after that).
/// - A lost connection (PostgreSQL restarted, network cut) fails its request with
///   `store_unavailable` (HTTP 503); the pool then drops its idle connections, which were made
///   before the loss, and the next request connects again: no server restart is needed. A
///   read outside a transaction, and a transaction's `BEGIN`, are retried once on a new
///   connection (nothing can have been written).
/// - A transaction that fails with a serialization failure (`40001`) or a deadlock (`40P01`) is
///   rolled back and run again, up to ``retries`` times with a random growing pause.
final class PostgresStore: @unchecked Sendable {
  /// Runs of a transaction after a `40001`/`40P01` failure.
  static let retries = 10

  /// Isolation of a transaction (https://www.postgresql.org/docs/15/transaction-iso.html).
  enum Isolation: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
  }

  let configuration: PostgresConfiguration
  private let condition = NSCondition()
  private var idle: [PostgresConnection] = []
  private var open = 0
  private var closed = false
  /// The transaction (connection and nesting) each thread holds now.
  private let pinnedLock = NSLock()
  private var pinned: [ObjectIdentifier: Pinned] = [:]
  /// Translations by SQLite-dialect text.
  private let translationLock = NSLock()
  private var translations: [String: (sql: String, parameters: Int)] = [:]

  private final class Pinned {
    let connection: PostgresConnection
    var depth = 0
    /// Set when a statement of the transaction failed with `40001`/`40P01`, whatever the error
    /// the body let out (a service may have wrapped it).
    var retryable = false
    init(_ connection: PostgresConnection) { self.connection = connection }
  }

  /// Connects once (so a wrong URL, password or unreachable server fails now, with libpq's reason).
  /// - Throws: ``PostgresError`` (connection failure).
  init(_ configuration: PostgresConfiguration) throws {
    self.configuration = configuration
    let first = try connect()
    condition.withLock {
      open = 1
      idle = [first]
    }
  }

  var name: String { configuration.displayName }

  /// Closes every idle connection; later calls fail.
  func close() {
    condition.withLock {
      closed = true
      idle = []
      open = 0
      condition.broadcast()
    }
  }

  private func connect() throws -> PostgresConnection {
    try PostgresConnection(
      conninfo: configuration.conninfo, name: configuration.displayName,
      statementTimeoutMilliseconds: configuration.statementTimeoutMilliseconds,
      connectTimeoutSeconds: configuration.connectTimeout)
  }

  // MARK: Pool

  private func acquire() throws -> PostgresConnection {
    let deadline = Date().addingTimeInterval(configuration.acquireTimeout)
    condition.lock()
    while true {
      if closed {
        condition.unlock()
        throw PostgresError(sqlState: "08003", message: "the store was closed", database: name)
      }
      if let connection = idle.popLast() {
        condition.unlock()
        return connection
      }
      if open < configuration.poolSize {
        open += 1
        condition.unlock()
        do {
          return try connect()
        } catch {
          condition.withLock {
            open -= 1
            condition.signal()
          }
          throw error
        }
      }
      if !condition.wait(until: deadline) {
        condition.unlock()
        throw ServiceError(
          .unavailable, code: "store_busy",
          message: "the store \(name) is busy: all \(configuration.poolSize) connections stayed in use for "
            + "\(Int(configuration.acquireTimeout)) s; try again")
      }
    }
  }

  private func release(_ connection: PostgresConnection) {
    condition.withLock {
      if connection.isUsable && !connection.isInTransaction && !closed {
        idle.append(connection)
      } else {
        open -= 1
        if !connection.isUsable { dropIdle() }
      }
      condition.signal()
    }
  }

  /// After a lost connection: the idle ones were opened before the loss and are likely dead too.
  private func dropIdle() {
    open -= idle.count
    idle = []
  }

  /// The calling thread (its `Thread` object lives as long as the thread).
  private var threadID: ObjectIdentifier { ObjectIdentifier(Thread.current) }

  private func pinnedTransaction() -> Pinned? {
    let id = threadID
    return pinnedLock.withLock { pinned[id] }
  }

  // MARK: Statements

  func translated(_ sql: String) throws -> (sql: String, parameters: Int) {
    if let known = translationLock.withLock({ translations[sql] }) { return known }
    let result = try PostgresDialect.translate(sql)
    translationLock.withLock { translations[sql] = result }
    return result
  }

  /// Runs one statement: on the calling thread's transaction, or on a borrowed connection.
  /// `retryOnLostConnection`: outside a transaction, run it again once on a new connection when
  /// the borrowed one turns out to be dead (only for statements that change nothing).
  func statement(_ sql: String, _ values: [SQLValue], retryOnLostConnection: Bool) throws -> (
    rows: [Row], changed: Int
  ) {
    let (text, count) = try translated(sql)
    guard count == values.count else {
      throw PostgresError(
        sqlState: "08P01", message: "\(values.count) values bound to \(count) parameters", sql: sql, database: name)
    }
    if let transaction = pinnedTransaction() {
      do {
        return try transaction.connection.run(text, parameters: values)
      } catch let error as PostgresError {
        if error.isRetryable { transaction.retryable = true }
        throw error
      }
    }
    var attempt = 0
    while true {
      let connection = try acquire()
      defer { release(connection) }
      do {
        return try connection.run(text, parameters: values)
      } catch let error as PostgresError where error.isConnectionFailure && retryOnLostConnection && attempt == 0 {
        attempt += 1
      }
    }
  }

  /// Runs a script without parameters (migrations), on the thread's transaction or a borrowed connection.
  func script(_ sql: String) throws {
    let text = try translated(sql).sql
    if let transaction = pinnedTransaction() {
      try transaction.connection.execute(text)
      return
    }
    let connection = try acquire()
    defer { release(connection) }
    try connection.execute(text)
  }

  /// Runs a script as written (no translation), on the thread's transaction or a borrowed connection.
  func untranslatedScript(_ sql: String) throws {
    if let transaction = pinnedTransaction() {
      try transaction.connection.execute(sql)
      return
    }
    let connection = try acquire()
    defer { release(connection) }
    try connection.execute(sql)
  }

  /// Starts a ``StoreListener`` on `channel` (a connection of its own, outside the pool).
  func listen(channel: String, wake: @escaping @Sendable () -> Void) -> StoreListener {
    StoreListener(configuration: configuration, channel: channel, wake: wake)
  }

  // MARK: Transactions

  /// Runs `body` in a transaction at `isolation` (read-only when `readOnly`): committed if it
  /// returns, rolled back if it throws. Inside a transaction of this thread it runs in a
  /// savepoint of it instead. A `40001`/`40P01` failure (of any statement or of `COMMIT`) runs
  /// the whole body again, up to ``retries`` times.
  func transaction<T>(isolation: Isolation, readOnly: Bool, _ body: () throws -> T) throws -> T {
    if let transaction = pinnedTransaction() {
      return try savepoint(transaction, body)
    }
    var attempt = 0
    while true {
      let connection = try begun(isolation: isolation, readOnly: readOnly)
      let transaction = Pinned(connection)
      let id = threadID
      pinnedLock.withLock { pinned[id] = transaction }
      defer {
        pinnedLock.withLock { pinned[id] = nil }
        release(connection)
      }
      do {
        let result = try body()
        do {
          try connection.execute("COMMIT")
        } catch let error as PostgresError where error.isRetryable {
          transaction.retryable = true
          throw error
        }
        return result
      } catch {
        if connection.isUsable && connection.isInTransaction { try? connection.execute("ROLLBACK") }
        guard transaction.retryable, attempt < Self.retries else { throw error }
        attempt += 1
      }
      Database.jitterPause(attempt: attempt)
    }
  }

  /// A borrowed connection with a transaction begun; a connection found dead at `BEGIN` (nothing
  /// was sent that could change anything) is replaced by a new one, once.
  private func begun(isolation: Isolation, readOnly: Bool) throws -> PostgresConnection {
    let begin = "BEGIN ISOLATION LEVEL \(isolation.rawValue)\(readOnly ? " READ ONLY" : "")"
    var attempt = 0
    while true {
      let connection = try acquire()
      do {
        try connection.execute(begin)
        return connection
      } catch let error as PostgresError where error.isConnectionFailure && attempt == 0 {
        release(connection)
        attempt += 1
      } catch {
        release(connection)
        throw error
      }
    }
  }

  private func savepoint<T>(_ transaction: Pinned, _ body: () throws -> T) throws -> T {
    transaction.depth += 1
    defer { transaction.depth -= 1 }
    let name = "sp\(transaction.depth)"
    try transaction.connection.execute("SAVEPOINT \(name)")
    do {
      let result = try body()
      try transaction.connection.execute("RELEASE SAVEPOINT \(name)")
      return result
    } catch {
      if !transaction.retryable {
        try? transaction.connection.execute("ROLLBACK TO SAVEPOINT \(name)")
        try? transaction.connection.execute("RELEASE SAVEPOINT \(name)")
      }
      throw error
    }
  }

  /// Whether the calling thread holds a transaction of this store.
  var isInTransaction: Bool { pinnedTransaction() != nil }
}
