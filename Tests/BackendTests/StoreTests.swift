import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

@Suite struct StoreTests {
  let migrations = [
    Migration(
      id: "test.001", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, data BLOB)"),
    Migration(id: "test.002", sql: "ALTER TABLE items ADD COLUMN note TEXT"),
  ]

  @Test func bindings_roundTripEveryType() throws {
    let dir = TemporaryDirectory()
    let db = try Store.open(dataDirectory: dir.url, migrations: migrations)
    try db.run(
      "INSERT INTO items (id, name, price, data, note) VALUES (?, ?, ?, ?, ?)", Int64(7), "Zürich", 12.5,
      Data([0, 1, 2]), SQLValue.null)
    let row = try #require(try db.queryOne("SELECT * FROM items WHERE id = ?", 7))
    #expect(try row.get("name") == "Zürich")
    #expect(try row.get("price") == 12.5)
    #expect(try row.get("data") == Data([0, 1, 2]))
    #expect(try row.get("note", as: String?.self) == nil)
    #expect(throws: SQLiteError.self) { try row.get("name", as: Int64.self) }
  }

  @Test func migrations_applyOnceInOrder_andRecordIDs() throws {
    let dir = TemporaryDirectory()
    let db = try Store.open(dataDirectory: dir.url, migrations: migrations)
    db.close()
    let again = try Store.open(
      dataDirectory: dir.url, migrations: migrations + [Migration(id: "other.001", sql: "CREATE TABLE x (a)")])
    #expect(try Store.appliedIDs(again) == ["test.001", "test.002", "other.001"])
    let ids = try again.query("SELECT id FROM schema_migrations ORDER BY rowid").map {
      try $0.get("id", as: String.self)
    }
    #expect(ids == ["test.001", "test.002", "other.001"])
  }

  @Test func failingMigration_appliesNothingOfThatRun() throws {
    let dir = TemporaryDirectory()
    let bad = migrations + [Migration(id: "test.003", sql: "CREATE TABLE oops (")]
    #expect(throws: SQLiteError.self) { try Store.open(dataDirectory: dir.url, migrations: bad) }
    let db = try Store.open(dataDirectory: dir.url, migrations: [])
    #expect(try Store.appliedIDs(db).isEmpty)
  }

  @Test func pragmas_walNormalForeignKeys_andOwnerOnlyFiles() throws {
    let dir = TemporaryDirectory()
    let db = try Store.open(dataDirectory: dir.url.appendingPathComponent("data"), migrations: migrations)
    #expect(try db.queryOne("PRAGMA journal_mode")?.get(at: 0) == "wal")
    #expect(try db.queryOne("PRAGMA synchronous")?.get(at: 0) == Int64(1))
    #expect(try db.queryOne("PRAGMA foreign_keys")?.get(at: 0) == Int64(1))
    let file = dir.url.appendingPathComponent("data/travel.sqlite3").path
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let dirAttributes = try FileManager.default.attributesOfItem(atPath: dir.url.appendingPathComponent("data").path)
    #expect((dirAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    let wal = try FileManager.default.attributesOfItem(atPath: file + "-wal")
    #expect((wal[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func junkFile_isRefusedByName_andLeftUntouched() throws {
    let dir = TemporaryDirectory()
    let path = dir.url.appendingPathComponent(Store.fileName).path
    let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try junk.write(to: URL(fileURLWithPath: path))
    do {
      _ = try Store.open(dataDirectory: dir.url, migrations: migrations)
      Issue.record("opened a junk file")
    } catch let error as ServiceError {
      #expect(error.code == "store_unreadable")
      #expect(error.message.contains(path))
    }
    #expect(FileManager.default.contents(atPath: path) == junk)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func foreignSQLiteFile_isRefused_andLeftUntouched() throws {
    let dir = TemporaryDirectory()
    let path = dir.url.appendingPathComponent(Store.fileName).path
    do {
      let other = try Database(path: path)
      try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('theirs');")
      other.close()
    }
    let before = FileManager.default.contents(atPath: path)
    #expect {
      _ = try Store.open(dataDirectory: dir.url, migrations: migrations)
    } throws: { ($0 as? ServiceError)?.code == "store_unreadable" }
    #expect(FileManager.default.contents(atPath: path) == before)
  }

  @Test func write_rollsBackOnThrow_andSavepointKeepsOuter() throws {
    let dir = TemporaryDirectory()
    let db = try Store.open(dataDirectory: dir.url, migrations: migrations)
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.write { db in
        try db.run("INSERT INTO items (name) VALUES ('a')")
        throw Boom()
      }
    }
    try db.write { db in
      try db.run("INSERT INTO items (name) VALUES ('b')")
      _ = try? db.savepoint { db in
        try db.run("INSERT INTO items (name) VALUES ('c')")
        throw Boom()
      }
    }
    let names = try db.query("SELECT name FROM items ORDER BY id").map { try $0.get("name", as: String.self) }
    #expect(names == ["b"])
  }

  @Test func concurrentWriters_onSeparateConnections_neverSeeLockErrors() throws {
    let dir = TemporaryDirectory()
    _ = try Store.open(dataDirectory: dir.url, migrations: migrations)
    let failures = LockedCounter()
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      do {
        let db = try Store.open(dataDirectory: dir.url, migrations: migrations)
        for index in 0..<25 {
          try db.write { db in
            let count: Int64 = try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) ?? 0
            try db.run("INSERT INTO items (name, price) VALUES (?, ?)", "w\(worker)-\(index)", Double(count))
          }
        }
      } catch {
        failures.add(String(describing: error))
      }
    }
    #expect(failures.values.isEmpty)
    let db = try Store.open(dataDirectory: dir.url, migrations: migrations)
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(200))
    // Each write saw every earlier one: the counts read inside the transactions are 0..<200.
    #expect(try db.queryOne("SELECT count(DISTINCT price) FROM items")?.get(at: 0) == Int64(200))
  }
}

extension StoreTests {
  @Test func writer_waitsOutALockHeldLongerThanTheBusyTimeout() throws {
    let dir = TemporaryDirectory()
    let holder = try Store.open(dataDirectory: dir.url, migrations: migrations)
    let waiter = try Store.open(dataDirectory: dir.url, migrations: migrations)
    let held = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let holdSeconds = Double(Database.busyTimeoutMilliseconds) / 1000 + 0.5
    DispatchQueue.global().async {
      try? holder.write { db in
        try db.run("INSERT INTO items (name) VALUES ('holder')")
        held.signal()
        Thread.sleep(forTimeInterval: holdSeconds)
      }
      done.signal()
    }
    held.wait()
    // SQLite's own wait gives up after the busy timeout; the retries with jitter carry on.
    try waiter.write { db in try db.run("INSERT INTO items (name) VALUES ('waiter')") }
    done.wait()
    let names = try waiter.query("SELECT name FROM items ORDER BY id").map { try $0.get("name", as: String.self) }
    #expect(names == ["holder", "waiter"])
  }
}

/// A thread-safe list of strings, for collecting failures from concurrent work.
final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ value: String) { lock.withLock { items.append(value) } }
  var values: [String] { lock.withLock { items } }
}
