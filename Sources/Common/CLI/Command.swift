import Foundation

/// A command of an executable: a leaf that runs an ``Command/Action``, or a group of subcommands.
///
/// Commands are plain values so that a feature can describe its commands once and each app can
/// mount them where it wants: `booking search` in the standalone app is `travel flights search`
/// in the assembled one. Help text is generated from the description, with the path the user
/// actually typed (see ``CommandLineTool``).
public struct Command: Sendable {
  /// What a leaf command does with its parsed invocation. Throw a ``CLIError`` to fail with its
  /// exit status; any other error exits 1 with its reason in words (``ErrorText``).
  public typealias Action = @Sendable (Invocation) throws -> Void

  /// The word that selects this command (`search`), or the executable's name for a root.
  public var name: String
  /// One line for the list of commands.
  public var summary: String
  /// Further paragraphs of help, printed under the usage line.
  public var discussion: String?
  /// Positional arguments, in order.
  public var arguments: [ArgumentSpec]
  /// Options accepted by this command (the global options are always accepted too).
  public var options: [OptionSpec]
  /// Examples, each the part after the command's own path (`--from SFO --to JFK --date 2026-12-20`).
  public var examples: [String]
  /// Subcommands, for a group.
  public var subcommands: [Command]
  /// The action of a leaf; for a group, what runs when no subcommand is given (else: help).
  public var action: Action?

  public init(
    name: String,
    summary: String,
    discussion: String? = nil,
    arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [],
    examples: [String] = [],
    subcommands: [Command] = [],
    action: Action? = nil
  ) {
    self.name = name
    self.summary = summary
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.examples = examples
    self.subcommands = subcommands
    self.action = action
  }

  /// This command under another name, e.g. the `booking` root mounted as `travel flights`.
  public func renamed(_ newName: String, summary newSummary: String? = nil) -> Command {
    var copy = self
    copy.name = newName
    if let newSummary { copy.summary = newSummary }
    return copy
  }
}

/// A positional argument of a command.
public struct ArgumentSpec: Sendable, Equatable {
  /// Shown in usage in upper case, e.g. `OFFER_ID`.
  public var name: String
  public var help: String
  public var isOptional: Bool

  public init(_ name: String, help: String, optional: Bool = false) {
    self.name = name
    self.help = help
    self.isOptional = optional
  }
}

/// An option `--name VALUE` (or `--name=VALUE`), or a flag `--name` when `valueName` is nil.
public struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes, e.g. `max-stops`.
  public var name: String
  /// The placeholder of the value in help (`N`, `PLACE`), or nil for a flag.
  public var valueName: String?
  public var help: String
  /// The default shown in help; the action applies it.
  public var defaultValue: String?
  /// Whether the option may be given more than once (`--passenger A --passenger B`).
  public var isRepeatable: Bool
  /// Whether the command refuses to run without it (exit 2).
  public var isRequired: Bool

  public init(
    _ name: String, value valueName: String?, help: String, default defaultValue: String? = nil,
    repeatable: Bool = false, required: Bool = false
  ) {
    self.name = name
    self.valueName = valueName
    self.help = help
    self.defaultValue = defaultValue
    self.isRepeatable = repeatable
    self.isRequired = required
  }

  /// An option that takes a value.
  public static func option(
    _ name: String, _ valueName: String, help: String, default defaultValue: String? = nil,
    repeatable: Bool = false, required: Bool = false
  ) -> OptionSpec {
    OptionSpec(name, value: valueName, help: help, default: defaultValue, repeatable: repeatable, required: required)
  }

  /// A flag, true when present.
  public static func flag(_ name: String, help: String) -> OptionSpec {
    OptionSpec(name, value: nil, help: help)
  }
}
