import Foundation

/// Runs a command tree the way every executable of the app does (the contract of `CLI.md`).
///
/// - Global options, accepted anywhere on the line: `--help`/`-h`, `--version`, `--json` (with
///   `--help`, `--version` or a command group run alone too: every output is one JSON document),
///   `--data-dir DIR` (env `TRAVEL_DATA_DIR`), `--no-color` (env `NO_COLOR`), `--clock-speed N`
///   (env `TRAVEL_CLOCK_SPEED`) and `--clock-start INSTANT` (env `TRAVEL_CLOCK_START`): the
///   app's ``TravelClock``.
/// - Options are `--name VALUE` or `--name=VALUE`; `--` ends options.
/// - Exit status: `0` success, `1` refused or failed, `2` bad usage or invalid input. The message
///   goes to stderr; with `--json` stdout also carries `{"error": {"code", "message"}}`.
public struct CommandLineTool: Sendable {
  /// The root command; its name is the executable's name.
  public var root: Command
  /// Printed by `--version`.
  public var version: String
  /// The signed-in traveller's language in a data directory, for ``CLIContext/travellerLanguage``
  /// (the apps read the Account preferences; nil: English).
  public var travellerLanguage: @Sendable (_ dataDirectory: URL) -> Strings.Language?

  public init(
    root: Command, version: String = TravelVersion.current,
    travellerLanguage: @escaping @Sendable (_ dataDirectory: URL) -> Strings.Language? = { _ in nil }
  ) {
    self.root = root
    self.version = version
    self.travellerLanguage = travellerLanguage
  }

  /// The global options, listed in every help text.
  public static let globalOptions: [OptionSpec] = [
    .flag("help", help: "Show help for the command (also -h)."),
    .flag("version", help: "Show the version."),
    .flag("json", help: "Write one JSON document to stdout (camelCase keys)."),
    .option(
      "data-dir", "DIR",
      help: "Where the store lives (env TRAVEL_DATA_DIR).", default: "$XDG_DATA_HOME/travel or ~/.local/share/travel"),
    .flag("no-color", help: "No ANSI colours (also env NO_COLOR; off when stdout is not a terminal)."),
    .option(
      "clock-speed", "N",
      help: "Run the app's clock N times faster, 1–100000, for demos of live flight status (env TRAVEL_CLOCK_SPEED).",
      default: "1, real time"),
    .option(
      "clock-start", "INSTANT",
      help:
        "Start the app's clock at INSTANT: 2026-12-20T06:00+01:00, or local 2026-12-20T06:00 (env TRAVEL_CLOCK_START).",
      default: "now"),
    .option(
      "server", "URL",
      help: "Talk to a travel-server (env TRAVEL_SERVER; remembered by 'account login --server').",
      default: "the embedded backend"),
  ]

  /// Parses `arguments` (without the executable), runs the selected command and returns the exit
  /// status. Never traps on any input.
  public func run(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    console: Console = .standard()
  ) -> Int32 {
    let wantsJSON = arguments.contains("--json")
    var language = Strings.Language.english
    do {
      return try dispatch(arguments, environment: environment, console: console, language: &language)
    } catch let error as CLIError {
      Localization.with(language) { report(error, json: wantsJSON, console: console) }
      return error.exitStatus
    } catch let error as ServiceError {
      Localization.with(language) { report(error.cliError, json: wantsJSON, console: console) }
      return error.cliError.exitStatus
    } catch {
      let failure = CLIError.refused(ErrorText.reason(of: error), code: "failed")
      Localization.with(language) { report(failure, json: wantsJSON, console: console) }
      return failure.exitStatus
    }
  }

  private func report(_ error: CLIError, json: Bool, console: Console) {
    console.printError(L("error: \(error.message)"))
    guard json else { return }
    var body = error.details
    body["code"] = error.code
    body["message"] = error.message
    if let document = try? JSONOutput.string(["error": body]) { console.print(document) }
  }

  /// The language of a command's human output: `TRAVEL_LANGUAGE` (a tag: `de`, `en`), else the
  /// signed-in traveller's preference in `dataDirectory`; English for `--json` (stable for scripts).
  func language(environment: [String: String], dataDirectory: URL, json: Bool) -> Strings.Language {
    if json { return .english }
    if let tag = environment["TRAVEL_LANGUAGE"], let language = Strings.Language(tag: tag) { return language }
    return travellerLanguage(dataDirectory) ?? .english
  }

  private func dispatch(
    _ arguments: [String], environment: [String: String], console: Console, language: inout Strings.Language
  ) throws -> Int32 {
    // The language first, so that usage errors are in it too: `--data-dir DIR` / `--data-dir=DIR`
    // as the parser will read it (the last one), `--json` anywhere.
    var dataDirectoryOption: String?
    for (index, word) in arguments.enumerated() {
      if word == "--" { break }
      if word == "--data-dir", index + 1 < arguments.count { dataDirectoryOption = arguments[index + 1] }
      if word.hasPrefix("--data-dir=") { dataDirectoryOption = String(word.dropFirst("--data-dir=".count)) }
    }
    let commandLanguage = self.language(
      environment: environment,
      dataDirectory: DataDirectory.resolve(option: dataDirectoryOption, environment: environment),
      json: arguments.contains("--json"))
    language = commandLanguage
    return try Localization.with(commandLanguage) {
      try select(arguments, environment: environment, console: console, language: commandLanguage)
    }
  }

  private func select(
    _ arguments: [String], environment: [String: String], console: Console, language: Strings.Language
  ) throws -> Int32 {
    // Select the command: leading words that name subcommands, global options (with the value of
    // `--data-dir`) passed over wherever they stand among them, as git and docker do.
    var command = root
    var path = [root.name]
    var globals: [String] = []
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      if let width = Self.globalOptionWidth(word) {
        let end = min(arguments.count, index + width)
        globals += arguments[index..<end]
        index = end
      } else if let next = command.subcommands.first(where: { $0.name == word }) {
        command = next
        path.append(next.name)
        index += 1
      } else {
        break
      }
    }
    let parsed = try parse(globals + arguments[index...], for: command, path: path)

    let json = parsed.flags.contains("json")
    if parsed.flags.contains("version") {
      if json {
        console.print(try JSONOutput.string(VersionDocument(name: root.name, version: version)))
      } else {
        console.print("\(root.name) \(version)")
      }
      return 0
    }
    if parsed.flags.contains("help") {
      try Self.printHelp(for: command, path: path, json: json, console: console)
      return 0
    }
    let clock = try TravelClock.configured(
      speedOption: parsed.options["clock-speed"]?.last, startOption: parsed.options["clock-start"]?.last,
      environment: environment)
    let dataDirectory = DataDirectory.resolve(option: parsed.options["data-dir"]?.last, environment: environment)
    let serverOption = parsed.options["server"]?.last
    let context = CLIContext(
      json: parsed.flags.contains("json"),
      useColor: console.isTerminal && !parsed.flags.contains("no-color") && environment["NO_COLOR"] == nil,
      dataDirectory: dataDirectory,
      environment: environment,
      console: console,
      executableName: root.name,
      clock: clock,
      server: try ServerSelection.resolve(option: serverOption, environment: environment, dataDirectory: dataDirectory),
      serverNamed: serverOption != nil
        || !(environment["TRAVEL_SERVER"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty,
      travellerLanguage: { language }
    )
    guard let action = command.action else {
      if let word = parsed.arguments.first {
        let names = command.subcommands.map(\.name).joined(separator: ", ")
        let accepted =
          names.isEmpty ? L("this version has no commands here yet (see --help)") : L("expected one of \(names)")
        throw CLIError.usage(
          L("unknown command \"\(word)\" for '\(path.joined(separator: " "))': \(accepted)"), code: "unknown_command")
      }
      try Self.printHelp(for: command, path: path, json: json, console: console)
      return 0
    }
    if let word = parsed.arguments.first, !command.subcommands.isEmpty, command.arguments.isEmpty {
      let names = command.subcommands.map(\.name).joined(separator: ", ")
      throw CLIError.usage(
        L("unknown command \"\(word)\" for '\(path.joined(separator: " "))': expected one of \(names)"),
        code: "unknown_command")
    }
    for option in command.options where option.isRequired && parsed.options[option.name] == nil {
      throw CLIError.usage(
        L("missing --\(option.name) for '\(path.joined(separator: " "))': see '\(path.joined(separator: " ")) --help'"),
        code: "missing_option")
    }
    let maxArguments = command.arguments.count
    if parsed.arguments.count > maxArguments {
      throw CLIError.usage(
        L("unexpected argument \"\(parsed.arguments[maxArguments])\" for '\(path.joined(separator: " "))'"),
        code: "unexpected_argument")
    }
    let required = command.arguments.filter { !$0.isOptional }.count
    if parsed.arguments.count < required {
      let missing = command.arguments[parsed.arguments.count].name
      throw CLIError.usage(
        L("missing \(missing) for '\(path.joined(separator: " "))': see '\(path.joined(separator: " ")) --help'"),
        code: "missing_argument")
    }
    // Permissions are reported, never changed: a data directory open to other users is named.
    if let warning = DataDirectory.permissionWarning(
      DataDirectory.status(of: context.dataDirectory), path: context.dataDirectory.path)
    {
      console.printError(L("warning: \(warning)"))
    }
    try action(
      Invocation(
        path: path, arguments: parsed.arguments, options: parsed.options, flags: parsed.flags, context: context))
    return 0
  }

  private struct Parsed {
    var arguments: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
  }

  private func parse(_ words: [String], for command: Command, path: [String]) throws -> Parsed {
    let specs = Dictionary(
      (command.options + Self.globalOptions).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var parsed = Parsed()
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if optionsEnded || !word.hasPrefix("-") || word == "-" || Self.isNegativeNumber(word) {
        parsed.arguments.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      if word == "-h" {
        parsed.flags.insert("help")
        continue
      }
      guard word.hasPrefix("--") else {
        throw CLIError.usage(
          L("unknown option \"\(word)\" for '\(path.joined(separator: " "))': options are spelled --name (see --help)"),
          code: "unknown_option")
      }
      var name = String(word.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let spec = specs[name] else {
        let known = command.options.map { "--\($0.name)" }
        let accepted =
          known.isEmpty ? L("this command takes no options") : L("expected one of \(known.joined(separator: ", "))")
        throw CLIError.usage(
          L("unknown option \"--\(name)\" for '\(path.joined(separator: " "))': \(accepted)"), code: "unknown_option")
      }
      if spec.valueName == nil {
        guard inlineValue == nil else {
          throw CLIError.usage(L("option --\(name) takes no value"), code: "invalid_argument")
        }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < words.count else {
          throw CLIError.usage(
            L(
              "option --\(name) needs a value (\(spec.valueName ?? "VALUE")): see '\(path.joined(separator: " ")) --help'"
            ),
            code: "missing_value")
        }
        value = words[index]
        index += 1
      }
      if value.isEmpty && name == "data-dir" {
        throw CLIError.usage(L("empty --data-dir: expected a directory path"), code: "invalid_argument")
      }
      if parsed.options[name] != nil && !spec.isRepeatable {
        throw CLIError.usage(L("option --\(name) was given more than once"), code: "invalid_argument")
      }
      parsed.options[name, default: []].append(value)
    }
    return parsed
  }

  /// How many words the global option `word` spans (`--data-dir DIR` two, `--data-dir=DIR` and
  /// the flags one), or nil when `word` is not a global option.
  private static func globalOptionWidth(_ word: String) -> Int? {
    if word == "-h" { return 1 }
    guard word.hasPrefix("--") else { return nil }
    let name = word.dropFirst(2)
    if name.hasPrefix("data-dir=") || name.hasPrefix("clock-speed=") || name.hasPrefix("clock-start=")
      || name.hasPrefix("server=")
    {
      return 1
    }
    guard let spec = globalOptions.first(where: { $0.name == name }) else { return nil }
    return spec.valueName == nil ? 1 : 2
  }

  private static func isNegativeNumber(_ word: String) -> Bool {
    word.count > 1 && word.hasPrefix("-") && Double(word) != nil
  }

  // MARK: Help

  /// `--version --json`: `{"name": "booking", "version": "0.1.0"}`.
  struct VersionDocument: Encodable {
    var name: String
    var version: String
  }

  /// Prints the help of `command` reached by `path`: the text (``help(for:path:)``), or with
  /// `json` one JSON document (``HelpDocument``).
  public static func printHelp(for command: Command, path: [String], json: Bool, console: Console) throws {
    if json {
      console.print(try JSONOutput.string(HelpDocument(command: command, path: path)))
    } else {
      console.print(help(for: command, path: path))
    }
  }

  /// The help text of `command` reached by `path` (usage, description, commands, options,
  /// global options with defaults, examples).
  public static func help(for command: Command, path: [String]) -> String {
    let name = path.joined(separator: " ")
    var lines: [String] = []
    var usage = name
    if !command.subcommands.isEmpty && command.action == nil {
      usage += " <command>"
    } else {
      for option in command.options where option.isRequired {
        usage += " --\(option.name) \(option.valueName ?? "")"
      }
      for argument in command.arguments {
        usage += argument.isOptional ? " [\(argument.name)]" : " \(argument.name)"
      }
      if command.options.contains(where: { !$0.isRequired }) { usage += " [options]" }
      if !command.subcommands.isEmpty { usage += "\n       \(name) <command>" }
    }
    lines.append(L("USAGE: \(usage.trimmingCharacters(in: .whitespaces))"))
    lines.append("")
    lines.append(L(english: command.summary))
    if let discussion = command.discussion {
      lines.append("")
      lines.append(L(english: discussion))
    }
    if !command.subcommands.isEmpty {
      lines.append("")
      lines.append(L("COMMANDS:"))
      let width = min(24, (command.subcommands.map(\.name.count).max() ?? 0) + 2)
      for sub in command.subcommands {
        lines.append(
          "  " + sub.name.padding(toLength: max(width, sub.name.count + 2), withPad: " ", startingAt: 0)
            + L(english: sub.summary))
      }
      lines.append("")
      lines.append(L("See '\(name) <command> --help' for the options of each command."))
    }
    if !command.arguments.isEmpty {
      lines.append("")
      lines.append(L("ARGUMENTS:"))
      lines += formatted(command.arguments.map { ($0.name, L(english: $0.help)) })
    }
    if !command.options.isEmpty {
      lines.append("")
      lines.append(L("OPTIONS:"))
      lines += formatted(command.options.map(describe))
    }
    lines.append("")
    lines.append(L("GLOBAL OPTIONS:"))
    lines += formatted(globalOptions.map(describe))
    if !command.examples.isEmpty {
      lines.append("")
      lines.append(L("EXAMPLES:"))
      for example in command.examples { lines.append(example.isEmpty ? "  \(name)" : "  \(name) \(example)") }
    }
    return lines.joined(separator: "\n")
  }

  private static func describe(_ option: OptionSpec) -> (String, String) {
    var left = "--\(option.name)"
    if let value = option.valueName { left += " \(value)" }
    var help = L(english: option.help)
    if let defaultValue = option.defaultValue { help += L(" (default: \(L(english: defaultValue)))") }
    if option.isRepeatable { help += L(" (repeatable)") }
    if option.isRequired { help += L(" (required)") }
    return (left, help)
  }

  private static func formatted(_ rows: [(String, String)]) -> [String] {
    let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
    return rows.map { left, right in
      left.count + 2 > width
        ? "  \(left)\n  \(String(repeating: " ", count: width))\(right)"
        : "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + right
    }
  }
}

/// The version of every executable of the app.
public enum TravelVersion {
  public static let current = "0.1.0"
}
