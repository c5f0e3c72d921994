import Common
import CommonTesting
import Foundation

@testable import Account

/// Runs the account commands in-process against ``InMemoryServices`` and a temporary data
/// directory, the way the `account` executable would.
final class Harness: @unchecked Sendable {
  let services = InMemoryServices()
  let directory = TemporaryDirectory(prefix: "account-tests")

  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// - Parameter interactive: `input` is a person answering at a terminal (confirmations), not a pipe.
  func run(_ arguments: [String], input: [String] = [], interactive: Bool = false, root: String = "account")
    -> Outcome
  {
    let console = Console.capturing(input: input, interactive: interactive)
    let tool = CommandLineTool(root: AccountCommands.root(name: root, environment: services.environment()))
    let status = tool.run(arguments: arguments + ["--data-dir", directory.path], environment: [:], console: console)
    return Outcome(status: status, stdout: console.output, stderr: console.errorOutput)
  }

  var sessionFile: SessionFile { SessionFile(dataDirectory: directory.url) }

  /// The saved session's token.
  func token() throws -> String { try sessionFile.read() ?? "" }

  /// Signs up and signs in Ada (password `correct horse`).
  @discardableResult
  func signedInAda() -> Outcome {
    _ = run(
      ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      input: ["correct horse", "correct horse"])
    return run(["login", "--email", "ada@example.com"], input: ["correct horse"])
  }
}
