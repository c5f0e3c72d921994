import BackendTesting
import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

/// What only the PostgreSQL driver has: the URL, the pool, reconnection, the statement timeout,
/// retried serialization failures.
@Suite(.timeLimit(.minutes(1))) struct PostgresStoreTests {
  @Test func url_acceptsPostgresURLs_andTakesTheStoresOwnParametersOut() throws {
    let plain = try PostgresConfiguration(url: "postgresql://travel@db.example:5433/travel")
    #expect(plain.poolSize == 10)
    #expect(plain.statementTimeoutMilliseconds == 10_000)
    let tuned = try PostgresConfiguration(
      url: "postgres://travel:s3cret@db.example/travel?sslmode=require&pool_size=4&statement_timeout=250")
    #expect(tuned.poolSize == 4)
    #expect(tuned.statementTimeoutMilliseconds == 250)
    #expect(tuned.conninfo == "postgres://travel:s3cret@db.example/travel?sslmode=require")
    #expect(tuned.displayName == "postgres://travel:***@db.example/travel?sslmode=require")
    let socket = try PostgresConfiguration(url: "postgresql://postgres@/travel?host=%2Ftmp%2Fpg&port=5499")
    #expect(socket.conninfo == "postgresql://postgres@/travel?host=%2Ftmp%2Fpg&port=5499")
  }

  @Test(arguments: [
    ("mysql://root@localhost/travel", "unknown scheme \"mysql\""),
    ("db.example/travel", "it is not a URL"),
    ("postgresql://u@h/db?pool_size=0", "pool_size must be a whole number from 1 to 1000"),
    ("postgresql://u@h/db?statement_timeout=soon", "statement_timeout must be milliseconds"),
    ("postgresql://u@h/db?colour=blue", "invalid URI query parameter: \"colour\""),
    ("postgresql://u:pw@h/db?host", "missing key/value separator"),
  ])
  func url_malformedOrForeign_isInvalidInput_withoutThePassword(_ text: String, _ reason: String) {
    do {
      _ = try DatabaseLocation.parse(text)
      Issue.record("\(text) was accepted")
    } catch let error as ServiceError {
      #expect(error.kind == .invalidInput)
      #expect(error.code == "invalid_database_url")
      #expect(error.message.contains(reason), "\(error.message)")
      #expect(error.message.contains("expected postgresql://"))
      #expect(!error.message.contains("pw@"))
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func unreachableDatabase_isStoreUnavailable_namingTheReason() throws {
    let directory = TemporaryDirectory()
    let location = try DatabaseLocation.parse(
      "postgresql://nobody@/travel?host=\(directory.url.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&port=1"
    )
    #expect { try BackendServices(dataDirectory: directory.url, database: location) } throws: { error in
      guard let error = error as? ServiceError else { return false }
      return error.code == "store_unavailable" && error.kind == .unavailable
        && error.message.contains("cannot be reached") && error.message.contains(directory.url.path)
    }
  }

  /// Every server connection is ended (what a PostgreSQL restart does): a read on a pooled
  /// connection is retried on a new one, a write outside a transaction fails with
  /// `store_unavailable` and nothing else, and the next one works: no restart of ours needed.
  @Test func lostConnections_failOneWriteAs503_thenReconnect() throws {
    let schema = try PostgresTestSchema()
    let db = try Store.open(
      postgres: schema.configuration,
      migrations: [Migration(id: "t.001", sql: "CREATE TABLE notes (body TEXT NOT NULL);")])
    defer { db.close() }
    try db.run("INSERT INTO notes (body) VALUES (?)", "before")
    let admin = try schema.admin()
    defer { admin.close() }
    func endSessions() throws {
      _ = try admin.query(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = ?", schema.name)
    }
    try endSessions()
    #expect(try db.query("SELECT body FROM notes").count == 1)
    try endSessions()
    do {
      try db.run("INSERT INTO notes (body) VALUES (?)", "lost")
      Issue.record("the write on a dead connection succeeded")
    } catch {
      #expect(ServiceError.wrapping(error).code == "store_unavailable", "\(error)")
      #expect(ServiceError.wrapping(error).kind == .unavailable)
    }
    try db.run("INSERT INTO notes (body) VALUES (?)", "after")
    try endSessions()
    try db.write { db in try db.run("INSERT INTO notes (body) VALUES (?)", "in a transaction") }
    #expect(
      try db.query("SELECT body FROM notes ORDER BY rowid").map { try $0.get("body", as: String.self) } == [
        "before", "after", "in a transaction",
      ])
  }

  @Test func statementTimeout_cancelsTheStatement_asStoreTimeout() throws {
    let schema = try PostgresTestSchema(settings: ["statement_timeout": "100"])
    let db = try Database(postgres: schema.configuration)
    defer { db.close() }
    let started = Date()
    #expect { try db.query("SELECT pg_sleep(5) AS slept") } throws: { error in
      ServiceError.wrapping(error).code == "store_timeout"
    }
    #expect(Date().timeIntervalSince(started) < 3)
    #expect(try db.queryOne("SELECT 1 AS one")?.get("one") == Int64(1))
  }

  /// Serializable transactions that read and then write the same rows conflict (`40001`): each is
  /// run again until it commits, so all 8 land, numbered 1…8 without a gap or a repeat.
  @Test func serializationFailures_areRetried_untilEveryTransactionCommits() throws {
    let schema = try PostgresTestSchema()
    let db = try Store.open(
      postgres: schema.configuration,
      migrations: [Migration(id: "t.001", sql: "CREATE TABLE numbers (n INTEGER NOT NULL);")])
    defer { db.close() }
    let failures = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      do {
        try db.write { db in
          let last: Int64 = try db.queryOne("SELECT COALESCE(MAX(n), 0) AS last FROM numbers")?.get("last") ?? 0
          usleep(20_000)
          try db.run("INSERT INTO numbers (n) VALUES (?)", last + 1)
        }
      } catch {
        failures.withLock { $0 += 1 }
      }
    }
    #expect(failures.withLock { $0 } == 0)
    #expect(try db.query("SELECT n FROM numbers ORDER BY n").map { try $0.get("n", as: Int64.self) } == Array(1...8))
  }

  /// The pool never opens more than `pool_size` connections; callers wait their turn.
  @Test func pool_isBounded() throws {
    let schema = try PostgresTestSchema(settings: ["pool_size": "3"])
    let db = try Database(postgres: schema.configuration)
    defer { db.close() }
    let admin = try schema.admin()
    defer { admin.close() }
    let peak = Locked<Int64>(0)
    DispatchQueue.concurrentPerform(iterations: 12) { _ in
      let count: Int64 =
        (try? db.queryOne(
          "SELECT count(*) AS n FROM pg_stat_activity, pg_sleep(0.05) WHERE application_name = ?", schema.name)?
          .get("n")) ?? -1
      peak.withLock { $0 = max($0, count) }
    }
    #expect((1...3).contains(peak.withLock { $0 }))
  }

  @Test func dialect_translatesPlaceholdersTypesAndSQLiteOnlySyntax() throws {
    let (ddl, none) = try PostgresDialect.translate(
      """
      CREATE TABLE a (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, key BLOB) STRICT;
      CREATE TABLE b (name TEXT PRIMARY KEY, n INTEGER) STRICT, WITHOUT ROWID;
      CREATE TABLE c (name TEXT NOT NULL);
      """)
    #expect(none == 0)
    #expect(
      ddl == """
        CREATE TABLE a (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at DOUBLE PRECISION NOT NULL, key BYTEA);
        CREATE TABLE b (name TEXT PRIMARY KEY, n BIGINT);
        CREATE TABLE c (
          rowid BIGINT GENERATED ALWAYS AS IDENTITY,name TEXT NOT NULL)
        """)
    let (insert, count) = try PostgresDialect.translate(
      "INSERT OR IGNORE INTO t (a, b) VALUES (?, '?''s') RETURNING a -- why?\n")
    #expect(count == 1)
    #expect(insert == "INSERT INTO t (a, b) VALUES ($1, '?''s') ON CONFLICT DO NOTHING RETURNING a -- why?")
    #expect(
      try PostgresDialect.translate("UPDATE t SET n = MAX(0, n - ?), k = X'0aFF' WHERE json_extract(d, '$.id') = ?").sql
        == "UPDATE t SET n = GREATEST(0, n - $1), k = '\\x0aFF'::bytea WHERE (d::jsonb ->> 'id') = $2")
    #expect(throws: PostgresDialect.Untranslatable.self) {
      try PostgresDialect.translate("INSERT OR REPLACE INTO t (a) VALUES (?)")
    }
  }
}
