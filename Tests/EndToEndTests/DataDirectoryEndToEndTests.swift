import CommonTesting
import Foundation
import Testing

/// The data directory as real processes meet it: searches write nothing but the offer signing key
/// of a directory not made yet, and work in a read-only
/// directory, permissions are never changed, and a permanent fault says what can work (never
/// "try again").
@Suite(.serialized) struct DataDirectoryEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "datadir-e2e")
  static let password = "correct horse battery staple\n"

  var data: URL { directory.url.appendingPathComponent("data") }

  static func date(_ days: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
  }

  func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
    try runner.run(product, arguments + ["--data-dir", data.path], stdin: stdin)
  }

  func search() throws -> ProductRunner.Result {
    try run("booking", ["search", "--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--limit", "3", "--json"])
  }

  func signUp() throws {
    let signup = try run(
      "account", ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: Self.password + Self.password)
    #expect(signup.status == 0, "\(signup.stderr)")
  }

  func mode(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
  }

  func errorCode(_ result: ProductRunner.Result) -> String? {
    let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]]
    return json?["error"]?["code"] as? String
  }

  /// #14 (QA 9): the README's order — search, then sign up, add a card, book the id — works: a
  /// search in a directory that does not exist yet makes it (0700) with the offer signing key only
  /// (no store), so the id it printed books in a later process.
  @Test func search_inAMissingDirectory_savesOnlyTheOfferKey_andItsIdBooksAfterSignUp() throws {
    let result = try search()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == ["offer-signing.key"])
    #expect(mode(data) == 0o700)
    let offers = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let id = try #require(((offers?["offers"] as? [[String: Any]])?.first?["id"]) as? String)
    try signUp()
    let login = try run("account", ["login", "--email", "ada@example.com"], stdin: Self.password)
    #expect(login.status == 0, "\(login.stderr)")
    let card = try run("account", ["cards", "add"], stdin: "4242424242424242\n12/30\n123\n")
    #expect(card.status == 0, "\(card.stderr)")
    let book = try run("booking", ["book", id, "--passenger", "Ada Lovelace", "--json"])
    #expect(book.status == 0, "\(book.stderr)")
    #expect(errorCode(book) == nil)
  }

  @Test func readOnlyDirectory_searchesWork_savingIsRefused_andTheModeStays() throws {
    try signUp()
    let before = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
    chmod(data.path, 0o500)
    defer { chmod(data.path, 0o700) }

    let flights = try search()
    #expect(flights.status == 0, "\(flights.stderr)")
    let hotels = try run(
      "hotel", ["search", "--near", "Paris", "--check-in", Self.date(30), "--check-out", Self.date(32), "--limit", "2"])
    #expect(hotels.status == 0, "\(hotels.stderr)")
    let cars = try run(
      "car-rental", ["search", "--pickup", "LAX", "--from", "\(Self.date(30))T10:00", "--to", "\(Self.date(33))T10:00"])
    #expect(cars.status == 0, "\(cars.stderr)")

    let login = try run("account", ["login", "--email", "ada@example.com", "--json"], stdin: Self.password)
    #expect(login.status == 1)
    #expect(errorCode(login) == "data_dir_read_only")
    #expect(login.stderr.contains("chmod u+w \(data.path)"))
    #expect(!login.stderr.contains("try again"))

    #expect(mode(data) == 0o500)
    #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() == before)
  }

  @Test func openDirectory_isReported_notChanged() throws {
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
    chmod(data.path, 0o755)
    let result = try search()
    #expect(result.status == 0)
    #expect(result.stderr.contains("warning: the data directory \(data.path) is open to other users"))
    #expect(mode(data) == 0o755)
  }

  @Test func damagedStore_givesTheIntegrityCheckAndWhatToMove() throws {
    try signUp()
    let store = data.appendingPathComponent("travel.sqlite3")
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
    var bytes = try #require(FileManager.default.contents(atPath: store.path))
    let pageSize = 4096
    for page in 1..<(bytes.count / pageSize) {
      for offset in 0..<24 { bytes[page * pageSize + offset] = UInt8(truncatingIfNeeded: 0x5A &+ offset &* 13) }
    }
    try bytes.write(to: store)

    let result = try search()
    #expect(result.status == 1)
    #expect(errorCode(result) == "store_damaged")
    #expect(result.stderr.contains(store.path))
    #expect(result.stderr.contains("PRAGMA integrity_check:"))
    #expect(result.stderr.contains("mv \(store.path) \(store.path).damaged"))
    #expect(!result.stderr.contains("try again"))
    #expect(FileManager.default.contents(atPath: store.path) == bytes)
  }

  /// Another user's directory (`0700`, not ours): the search runs as an unprivileged user — as
  /// `nobody` through `setpriv` when the tests run as root (root reads anything), else as the
  /// test's own user on a directory closed with `chmod 000`.
  @Test func anotherUsersDirectory_isRefusedWithAdvice_notTryAgain() throws {
    try signUp()
    let arguments = [
      "search", "--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--json", "--data-dir", data.path,
    ]
    let result: ProductRunner.Result
    if geteuid() == 0 {
      // Others may pass through the test's directory to reach `data` (0700, root's), not read it.
      chmod(directory.path, 0o711)
      let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
      let tool = try #require(setpriv, "setpriv (util-linux) is needed to run a search as another user")
      result = try Self.runProcess(
        tool,
        ["--reuid=65534", "--regid=65534", "--clear-groups", "--", try runner.executable("booking").path] + arguments)
    } else {
      chmod(data.path, 0o000)
      defer { chmod(data.path, 0o700) }
      result = try Self.runProcess(try runner.executable("booking").path, arguments)
    }
    #expect(result.status == 1, "\(result.stderr)")
    #expect(errorCode(result) == "data_dir_unreadable", "\(result.stdout)")
    #expect(result.stderr.contains("the data directory \(data.path)"))
    #expect(result.stderr.contains("--data-dir"))
    #expect(!result.stderr.contains("try again"))
  }

  private static func runProcess(_ executable: String, _ arguments: [String]) throws -> ProductRunner.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errData = error.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProductRunner.Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
