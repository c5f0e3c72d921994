import Foundation

/// A command's help as one JSON document (`--help --json`, or a command group run without a
/// command under `--json`): the same facts as ``CommandLineTool/help(for:path:)``'s text, with the
/// path typed, so that with `--json` every output of an executable is one JSON document.
///
/// ```json
/// {"command": "booking search", "summary": "…", "usage": "booking search --from PLACE …",
///  "arguments": [], "options": [{"name": "from", "value": "PLACE", …}], "globalOptions": […],
///  "subcommands": [], "examples": ["booking search --from SFO --to JFK --date 2026-12-20"]}
/// ```
public struct HelpDocument: Codable, Hashable, Sendable {
  /// A positional argument.
  public struct Argument: Codable, Hashable, Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
  }

  /// An option (`--from PLACE`).
  public struct Option: Codable, Hashable, Sendable {
    /// Without the dashes (`from`).
    public var name: String
    /// The value's placeholder (`PLACE`); nil for a flag.
    public var value: String?
    public var help: String
    /// The default, in words; nil when there is none.
    public var `default`: String?
    public var required: Bool
    public var repeatable: Bool
  }

  /// A subcommand: its name and its line.
  public struct Subcommand: Codable, Hashable, Sendable {
    public var name: String
    public var summary: String
  }

  /// The path typed (`booking search`).
  public var command: String
  /// The usage line of the text help, without `USAGE: `.
  public var usage: String
  public var summary: String
  public var discussion: String?
  public var arguments: [Argument]
  public var options: [Option]
  /// The global options, accepted by every command.
  public var globalOptions: [Option]
  public var subcommands: [Subcommand]
  /// Each example as typed, with the command's path (`booking search --from SFO …`).
  public var examples: [String]

  /// The help of `command` reached by `path`.
  public init(command: Command, path: [String]) {
    func option(_ spec: OptionSpec) -> Option {
      Option(
        name: spec.name, value: spec.valueName, help: spec.help, default: spec.defaultValue, required: spec.isRequired,
        repeatable: spec.isRepeatable)
    }
    let name = path.joined(separator: " ")
    self.command = name
    usage = String(
      CommandLineTool.help(for: command, path: path).split(separator: "\n", omittingEmptySubsequences: false)
        .first?.dropFirst("USAGE: ".count) ?? "")
    summary = command.summary
    discussion = command.discussion
    arguments = command.arguments.map { Argument(name: $0.name, help: $0.help, optional: $0.isOptional) }
    options = command.options.map(option)
    globalOptions = CommandLineTool.globalOptions.map(option)
    subcommands = command.subcommands.map { Subcommand(name: $0.name, summary: $0.summary) }
    examples = command.examples.map { "\(name) \($0)" }
  }
}
