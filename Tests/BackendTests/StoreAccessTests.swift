import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

/// Reading never writes; permissions are the user's; a permanent fault says what can work.
@Suite struct StoreAccessTests {
  let migrations = [
    Migration(id: "test.001", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  ]

  private func mode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
  }

  private func makeStore(_ directory: URL, rows: Int = 3) throws {
    let db = try Store.open(dataDirectory: directory, migrations: migrations)
    try db.write { db in
      for index in 0..<rows {
        try db.run("INSERT INTO items (name) VALUES (?)", String(repeating: "row \(index) ", count: 20))
      }
    }
    db.close()
  }

  @Test func deferredStore_withoutADirectory_readsEmpty_andCreatesNothing() throws {
    let parent = TemporaryDirectory()
    let data = parent.url.appendingPathComponent("travel")
    let db = try Store.openDeferred(dataDirectory: data, migrations: migrations)
    #expect(db.connection == .placeholder)
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(0))
    #expect(!FileManager.default.fileExists(atPath: data.path))
    // The first write makes the directory (0700) and the file (0600), then reads see it.
    try db.write { db in try db.run("INSERT INTO items (name) VALUES ('a')") }
    #expect(db.connection == .readWrite)
    #expect(mode(data.path) == 0o700)
    #expect(mode(data.appendingPathComponent(Store.fileName).path) == 0o600)
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(1))
  }

  @Test func deferredStore_seesAStoreAnotherProcessCreatedMeanwhile() throws {
    let directory = TemporaryDirectory()
    let reader = try Store.openDeferred(dataDirectory: directory.url, migrations: migrations)
    #expect(try reader.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(0))
    try makeStore(directory.url, rows: 2)
    #expect(try reader.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(2))
    #expect(reader.connection == .readOnly)
  }

  @Test func backendServices_readingOpensNothingForWriting() throws {
    let parent = TemporaryDirectory()
    let data = parent.url.appendingPathComponent("fresh")
    let services = try BackendServices(dataDirectory: data)
    #expect(try SQLiteFlightSeats(database: services.database).bookedSeats().isEmpty)
    #expect(throws: ServiceError.self) { try services.accounts.preferences(token: "not-a-session") }
    #expect(!FileManager.default.fileExists(atPath: data.path))
  }

  @Test func readOnlyDirectory_readsWork_writesAreRefused_andNothingChanges() throws {
    let directory = TemporaryDirectory()
    try makeStore(directory.url)
    let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    chmod(directory.path, 0o500)
    defer { chmod(directory.path, 0o700) }

    let db = try Store.openDeferred(dataDirectory: directory.url, migrations: migrations)
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(3))
    do {
      try db.write { db in try db.run("INSERT INTO items (name) VALUES ('b')") }
      Issue.record("wrote into a directory its owner made read-only")
    } catch {
      let failure = ServiceError.wrapping(error)
      #expect(failure.code == "data_dir_read_only")
      #expect(!failure.message.contains("try again"))
    }
    // Still readable after the refused write; the mode and the files are as the owner left them.
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(3))
    #expect(mode(directory.path) == 0o500)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    // The read-write open is refused the same way, before touching anything.
    #expect { try Store.open(dataDirectory: directory.url, migrations: migrations) } throws: {
      ($0 as? ServiceError)?.code == "data_dir_read_only"
    }
    #expect(mode(directory.path) == 0o500)
  }

  @Test func readOnlyStoreFile_isNeverMadeWritable() throws {
    let directory = TemporaryDirectory()
    try makeStore(directory.url)
    let file = directory.url.appendingPathComponent(Store.fileName).path
    chmod(file, 0o400)
    let db = try Store.openDeferred(dataDirectory: directory.url, migrations: migrations)
    #expect(try db.queryOne("SELECT count(*) FROM items")?.get(at: 0) == Int64(3))
    #expect { try db.write { db in try db.run("INSERT INTO items (name) VALUES ('b')") } } throws: {
      ServiceError.wrapping($0).code == "store_read_only"
    }
    #expect { try Store.open(dataDirectory: directory.url, migrations: migrations) } throws: {
      ($0 as? ServiceError)?.code == "store_read_only"
    }
    #expect(mode(file) == 0o400)
  }

  @Test func existingModes_areKept_byTheReadWriteOpenToo() throws {
    let directory = TemporaryDirectory()
    try makeStore(directory.url)
    let file = directory.url.appendingPathComponent(Store.fileName).path
    chmod(directory.path, 0o750)
    chmod(file, 0o640)
    let db = try Store.open(dataDirectory: directory.url, migrations: migrations)
    try db.write { db in try db.run("INSERT INTO items (name) VALUES ('b')") }
    #expect(mode(directory.path) == 0o750)
    #expect(mode(file) == 0o640)
  }

  @Test func damagedStore_isAPermanentFault_withIntegrityCheckAndWhatToMove() throws {
    let directory = TemporaryDirectory()
    try makeStore(directory.url, rows: 400)
    let path = directory.url.appendingPathComponent(Store.fileName).path
    var bytes = try #require(FileManager.default.contents(atPath: path))
    let pageSize = 4096
    #expect(bytes.count > 8 * pageSize)
    // Scribble over the b-tree header of every page after the first two (the schema stays readable).
    for page in 2..<(bytes.count / pageSize) {
      for offset in 0..<24 { bytes[page * pageSize + offset] = UInt8(truncatingIfNeeded: 0xA5 &+ offset &* 7) }
    }
    try bytes.write(to: URL(fileURLWithPath: path))

    do {
      let db = try Store.openDeferred(dataDirectory: directory.url, migrations: migrations)
      _ = try db.query("SELECT name FROM items")
      Issue.record("read a damaged store")
    } catch {
      let failure = ServiceError.wrapping(error)
      #expect(failure.code == "store_damaged")
      #expect(failure.message.contains(path))
      #expect(failure.message.contains("PRAGMA integrity_check:"))
      #expect(failure.message.contains("mv \(path) \(path).damaged"))
      #expect(!failure.message.contains("try again"))
    }
    // Left untouched.
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test func foreignSQLiteFile_throughTheDeferredStore_isRefusedUntouched() throws {
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent(Store.fileName).path
    do {
      let other = try Database(path: path)
      try other.execute("PRAGMA journal_mode=DELETE; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x');")
      other.close()
    }
    let before = FileManager.default.contents(atPath: path)
    do {
      _ = try BackendServices(dataDirectory: directory.url)
      Issue.record("opened another program's database")
    } catch let error as ServiceError {
      #expect(error.code == "store_unreadable")
      #expect(error.message.contains("another program's SQLite database"))
      #expect(!error.message.contains("try again"))
    }
    #expect(FileManager.default.contents(atPath: path) == before)
  }

  @Test func onlyTransientFaults_sayTryAgain() {
    func message(_ code: Int32) -> String {
      SQLiteError(code: code, message: "m", path: "/d/travel.sqlite3").serviceError.message
    }
    #expect(message(5).contains("try again"))  // SQLITE_BUSY
    #expect(message(13).contains("try again"))  // SQLITE_FULL: once space is freed
    for permanent: Int32 in [1, 3, 8, 10, 11, 14, 19, 26] {
      #expect(!message(permanent).contains("try again"), "SQLite code \(permanent)")
      #expect(message(permanent).contains("/d/travel.sqlite3"))
    }
    #expect(SQLiteError(code: 11, message: "m", path: "/d/x").serviceError.code == "store_damaged")
    #expect(SQLiteError(code: 8, message: "m", path: "/d/x").serviceError.code == "store_read_only")
  }
}
