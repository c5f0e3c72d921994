import Foundation
import Testing

@testable import Common

@Suite struct CommandLineToolTests {
  final class Box: @unchecked Sendable { var invocation: Invocation? }

  func tool(_ box: Box) -> CommandLineTool {
    let search = Command(
      name: "search", summary: "Search.",
      options: [
        .option("from", "PLACE", help: "Origin.", required: true),
        .option("limit", "N", help: "How many.", default: "50"),
        .option("passenger", "NAME", help: "A passenger.", repeatable: true),
        .flag("verbose", help: "More."),
      ],
      examples: ["--from SFO"],
      action: { box.invocation = $0 })
    return CommandLineTool(root: Command(name: "demo", summary: "Demo.", subcommands: [search]), version: "9.9.9")
  }

  @Test func parsesOptionsFlagsAndRepeatables() throws {
    let box = Box()
    let console = Console.capturing()
    let status = tool(box).run(
      arguments: ["search", "--from", "SFO", "--limit=5", "--passenger", "A B", "--passenger", "C D", "--verbose"],
      environment: ["TRAVEL_DATA_DIR": "/tmp/x"], console: console)
    #expect(status == 0)
    let invocation = try #require(box.invocation)
    #expect(invocation.value("from") == "SFO")
    #expect(try invocation.limit() == 5)
    #expect(invocation.values("passenger") == ["A B", "C D"])
    #expect(invocation.flag("verbose"))
    #expect(invocation.context.dataDirectory.path == "/tmp/x")
    #expect(invocation.commandName == "demo search")
  }

  @Test func missingRequiredOption_exitsTwoWithMessage() {
    let console = Console.capturing()
    let status = tool(Box()).run(arguments: ["search"], environment: [:], console: console)
    #expect(status == 2)
    #expect(console.errorOutput.contains("missing --from"))
  }

  @Test func unknownOption_namesItAndTheAcceptedOnes() {
    let console = Console.capturing()
    let status = tool(Box()).run(
      arguments: ["search", "--from", "X", "--frm", "Y"], environment: [:], console: console)
    #expect(status == 2)
    #expect(console.errorOutput.contains("\"--frm\""))
    #expect(console.errorOutput.contains("--from"))
  }

  /// #14 (QA 12): `--json` is honoured by `--version`, `--help` and an executable run without a
  /// command: every output is one JSON document.
  @Test func json_versionHelpAndNoCommand_areOneJSONDocumentEach() throws {
    func document(_ arguments: [String]) throws -> [String: Any] {
      let console = Console.capturing()
      let status = tool(Box()).run(arguments: arguments, environment: [:], console: console)
      #expect(status == 0)
      return try #require(
        try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any], "\(console.output)")
    }
    let version = try document(["--version", "--json"])
    #expect(version["name"] as? String == "demo")
    #expect(version["version"] as? String == "9.9.9")
    let root = try document(["--json"])
    #expect(root["command"] as? String == "demo")
    #expect((root["subcommands"] as? [[String: Any]])?.first?["name"] as? String == "search")
    let help = try document(["search", "--help", "--json"])
    #expect(help["command"] as? String == "demo search")
    #expect(help["examples"] as? [String] == ["demo search --from SFO"])
    #expect((help["options"] as? [[String: Any]])?.first?["name"] as? String == "from")
    #expect((help["options"] as? [[String: Any]])?.first?["required"] as? Bool == true)
    #expect((help["globalOptions"] as? [[String: Any]])?.contains { $0["name"] as? String == "json" } == true)
    #expect((help["usage"] as? String)?.hasPrefix("demo search --from PLACE") == true)
  }

  @Test func jsonErrorDocument_onStdout() throws {
    let console = Console.capturing()
    let status = tool(Box()).run(arguments: ["search", "--json"], environment: [:], console: console)
    #expect(status == 2)
    let object = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: [String: String]]
    #expect(object?["error"]?["code"] == "missing_option")
  }

  @Test func limitOutOfRange_exitsTwo() throws {
    let box = Box()
    _ = tool(box).run(arguments: ["search", "--from", "X", "--limit", "0"], environment: [:], console: .capturing())
    #expect(throws: CLIError.self) { try box.invocation?.limit() }
  }

  @Test func helpAndVersion() {
    let console = Console.capturing()
    #expect(tool(Box()).run(arguments: ["search", "--help"], environment: [:], console: console) == 0)
    #expect(console.output.contains("USAGE: demo search --from PLACE [options]"))
    #expect(console.output.contains("(default: 50)"))
    #expect(console.output.contains("demo search --from SFO"))
    let versionConsole = Console.capturing()
    #expect(tool(Box()).run(arguments: ["--version"], environment: [:], console: versionConsole) == 0)
    #expect(versionConsole.output == "demo 9.9.9\n")
  }

  @Test func emptyDataDirectory_isRefused() {
    let console = Console.capturing()
    let status = tool(Box()).run(
      arguments: ["search", "--from", "X", "--data-dir", ""], environment: [:], console: console)
    #expect(status == 2)
    #expect(console.errorOutput.contains("empty --data-dir"))
  }

  @Test func dataDirectoryResolution() {
    #expect(DataDirectory.resolve(option: "/a", environment: ["TRAVEL_DATA_DIR": "/b"]).path == "/a")
    #expect(DataDirectory.resolve(option: nil, environment: ["TRAVEL_DATA_DIR": "/b"]).path == "/b")
    #expect(DataDirectory.resolve(option: nil, environment: ["XDG_DATA_HOME": "/c"]).path == "/c/travel")
    #expect(DataDirectory.resolve(option: nil, environment: ["HOME": "/h"]).path == "/h/.local/share/travel")
  }

  // MARK: Global options anywhere (before, between and after the command words)

  func nestedTool(_ box: Box) -> CommandLineTool {
    let whoami = Command(name: "whoami", summary: "Who.", action: { box.invocation = $0 })
    let account = Command(name: "account", summary: "Account.", subcommands: [whoami])
    let search = Command(
      name: "search", summary: "Search.", options: [.option("from", "PLACE", help: "Origin.", required: true)],
      action: { box.invocation = $0 })
    return CommandLineTool(
      root: Command(name: "demo", summary: "Demo.", subcommands: [search, account]), version: "9.9.9")
  }

  @Test func globalOptionsBeforeAndBetweenCommandWords_selectTheCommand() throws {
    let box = Box()
    let console = Console.capturing()
    let status = nestedTool(box).run(
      arguments: ["--json", "--data-dir", "/tmp/d", "account", "--no-color", "whoami"], environment: [:],
      console: console)
    #expect(status == 0, "\(console.errorOutput)")
    let invocation = try #require(box.invocation)
    #expect(invocation.commandName == "demo account whoami")
    #expect(invocation.context.json)
    #expect(invocation.context.dataDirectory.path == "/tmp/d")
    #expect(!invocation.context.useColor)
  }

  @Test func globalOptionsBeforeTheCommand_thenItsOwnOptions() throws {
    let box = Box()
    let status = nestedTool(box).run(
      arguments: ["--json", "--data-dir=/tmp/e", "search", "--from", "SFO"], environment: [:], console: .capturing())
    #expect(status == 0)
    let invocation = try #require(box.invocation)
    #expect(invocation.commandName == "demo search")
    #expect(invocation.value("from") == "SFO")
    #expect(invocation.context.json)
    #expect(invocation.context.dataDirectory.path == "/tmp/e")
  }

  @Test func helpBeforeTheCommand_showsTheCommandsHelp() {
    for help in ["-h", "--help"] {
      let console = Console.capturing()
      #expect(nestedTool(Box()).run(arguments: [help, "account", "whoami"], environment: [:], console: console) == 0)
      #expect(console.output.contains("USAGE: demo account whoami"))
    }
  }

  @Test func unknownOptionOrCommandBeforeTheCommand_keepsItsMessage() throws {
    let option = Console.capturing()
    #expect(nestedTool(Box()).run(arguments: ["--bogus", "account", "whoami"], environment: [:], console: option) == 2)
    #expect(option.errorOutput == "error: unknown option \"--bogus\" for 'demo': this command takes no options\n")

    let command = Console.capturing()
    #expect(nestedTool(Box()).run(arguments: ["--json", "nope", "whoami"], environment: [:], console: command) == 2)
    #expect(command.errorOutput == "error: unknown command \"nope\" for 'demo': expected one of search, account\n")
    let object = try JSONSerialization.jsonObject(with: Data(command.output.utf8)) as? [String: [String: String]]
    #expect(object?["error"]?["code"] == "unknown_command")

    let value = Console.capturing()
    #expect(nestedTool(Box()).run(arguments: ["--data-dir"], environment: [:], console: value) == 2)
    #expect(value.errorOutput.contains("option --data-dir needs a value (DIR)"))

    let flagValue = Console.capturing()
    #expect(
      nestedTool(Box()).run(arguments: ["--json=yes", "account", "whoami"], environment: [:], console: flagValue) == 2)
    #expect(flagValue.errorOutput == "error: option --json takes no value\n")
  }
}
