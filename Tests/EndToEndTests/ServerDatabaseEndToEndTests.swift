import Common
import CommonTesting
import Foundation
import Testing

/// `travel-server --database URL` / `TRAVEL_DATABASE_URL` when the URL is wrong or the database is
/// not there: exit 2 `invalid_database_url` or exit 1 `store_unavailable`, a message naming what
/// is wrong (never the password), nothing listening, nothing written to the data directory.
@Suite(.timeLimit(.minutes(3)))
struct ServerDatabaseEndToEndTests {
  let directory = TemporaryDirectory()

  func server(_ arguments: [String], environment: [String: String] = [:]) throws -> ProductRunner.Result {
    try ProductRunner().run(
      "travel-server", arguments + ["--data-dir", directory.url.path, "--listen", "127.0.0.1:0"],
      environment: environment)
  }

  @Test func malformedOrForeignURL_isExit2_namingTheSource() throws {
    for (arguments, environment, source) in [
      (["--database", "mysql://root:hunter2@localhost/travel"], [:], "--database"),
      (["--database", "postgresql://u:hunter2@h/db?colour=blue"], [:], "--database"),
      ([], ["TRAVEL_DATABASE_URL": "not a url at all"], "TRAVEL_DATABASE_URL"),
    ] {
      let result = try server(arguments, environment: environment)
      #expect(result.status == 2, "\(arguments) \(result.stderr)")
      #expect(result.stderr.contains("invalid_database_url") || result.stderr.contains("invalid database URL"))
      #expect(result.stderr.contains(source))
      #expect(result.stderr.contains("expected postgresql://"))
      #expect(!result.stderr.contains("hunter2"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
  }

  @Test func unreachableDatabase_atStart_isExit1_withLibpqsReason() throws {
    let socket = TemporaryDirectory()
    let url = "postgresql://travel:hunter2@/travel?host=\(socket.url.path)&port=1&connect_timeout=2"
    let result = try server(["--database", url])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
    #expect(result.stderr.contains(socket.url.path))
    #expect(!result.stderr.contains("hunter2"))
    #expect(!result.stderr.contains("listening on"))
  }
}
