import CommonTesting
import Foundation
import Testing

/// Runs each built product as a user would.
@Suite struct ExecutablesTests {
  static let products = ["travel", "booking", "hotel", "car-rental", "account", "travel-agent"]

  @Test(arguments: products)
  func help_printsUsageAndExitsZero(product: String) throws {
    let result = try ProductRunner().run(product, ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("USAGE: \(product)"))
    #expect(result.stderr.isEmpty)
  }

  @Test(arguments: products)
  func version_printsTheVersion(product: String) throws {
    let result = try ProductRunner().run(product, ["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == "\(product) 0.1.0\n")
  }

  @Test(arguments: products)
  func unknownOption_exitsTwoWithAMessageOnStderr(product: String) throws {
    let result = try ProductRunner().run(product, ["--bogus"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown option \"--bogus\""))
  }

  /// #14 (QA 12): with `--json` every output is one JSON document, `--version` and an
  /// executable run without a command included.
  @Test(arguments: products)
  func json_versionAndNoCommand_areOneJSONDocument(product: String) throws {
    let version = try ProductRunner().run(product, ["--version", "--json"])
    #expect(version.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: String]
    #expect(document == ["name": product, "version": "0.1.0"])
    let help = try ProductRunner().run(product, ["--json"])
    #expect(help.status == 0, "\(help.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any]
    #expect(object?["command"] as? String == product, "\(help.stdout.prefix(200))")
    #expect((object?["subcommands"] as? [Any])?.isEmpty == false)
  }

  @Test func noTerminal_noCommand_printsHelp() throws {
    let result = try ProductRunner().run("travel", [])
    #expect(result.status == 0)
    #expect(result.stdout.contains("COMMANDS:"))
    #expect(result.stdout.contains("flights"))
  }

  /// Global options may come before the command (as with git or docker).
  @Test func globalOptionsBeforeTheCommand_reachIt() throws {
    let data = TemporaryDirectory(prefix: "executables-e2e")
    let result = try ProductRunner().run("travel", ["--json", "--data-dir", data.path, "account", "whoami"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr == "error: sign in first: account login --email …\n")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: String]]
    #expect(object?["error"]?["code"] == "not_signed_in")
    #expect(object?["error"]?["message"] == "sign in first: account login --email …")
  }

  /// Piped, `signup` reads the password once (one line), as CLI.md says: a script gives it once.
  @Test func signup_pipedPasswordIsReadOnce() throws {
    let data = TemporaryDirectory(prefix: "executables-e2e")
    let signup = try ProductRunner().run(
      "account",
      ["signup", "--email", "bob@example.com", "--first-name", "Bob", "--last-name", "B", "--data-dir", data.path],
      stdin: "secret12345\n")
    #expect(signup.status == 0, "\(signup.stderr)")
    let login = try ProductRunner().run(
      "account", ["login", "--email", "bob@example.com", "--data-dir", data.path], stdin: "secret12345\n")
    #expect(login.status == 0, "\(login.stderr)")
  }
}
