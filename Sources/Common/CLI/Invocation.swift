import Foundation

/// The settings every command shares, parsed from the global options and the environment.
public struct CLIContext: Sendable {
  /// How amounts are written for the traveller in human output (``MoneyFormat`` in their
  /// language; reads the preference: call it once per command).
  public var money: MoneyFormat { MoneyFormat(travellerLanguage()) }

  /// `--json`: one JSON document on stdout (camelCase keys, UTF-8).
  public var json: Bool
  /// Colour is on only on a terminal, without `--no-color` and without `NO_COLOR`.
  public var useColor: Bool
  /// The data directory (see ``DataDirectory``); not created until a command needs it.
  public var dataDirectory: URL
  /// The process environment (or a test's).
  public var environment: [String: String]
  public var console: Console
  /// The executable's name as the user typed it (`travel`, `booking`).
  public var executableName: String
  /// The app's clock (`--clock-speed`, `--clock-start`): real time unless asked otherwise.
  public var clock: TravelClock
  /// The `travel-server` to talk to (`--server URL`, `TRAVEL_SERVER`, or the one remembered with
  /// the session; see ``ServerSelection``); nil for the embedded backend on ``dataDirectory``.
  public var server: URL?
  /// Whether ``server`` was named for this run (`--server` or `TRAVEL_SERVER`), not remembered.
  public var serverNamed: Bool
  /// The signed-in traveller's language preference (English when nobody is signed in or it cannot
  /// be read), read from the data directory each time it is called: call it once per command.
  public var travellerLanguage: @Sendable () -> Strings.Language

  public init(
    json: Bool, useColor: Bool, dataDirectory: URL, environment: [String: String], console: Console,
    executableName: String, clock: TravelClock = .realTime, server: URL? = nil, serverNamed: Bool = false,
    travellerLanguage: @escaping @Sendable () -> Strings.Language = { .english }
  ) {
    self.server = server
    self.serverNamed = serverNamed
    self.travellerLanguage = travellerLanguage
    self.json = json
    self.useColor = useColor
    self.dataDirectory = dataDirectory
    self.environment = environment
    self.console = console
    self.executableName = executableName
    self.clock = clock
  }
}

/// A parsed command line, as handed to a command's action.
public struct Invocation: Sendable {
  /// The words that selected the command, from the executable on (`["travel", "flights", "search"]`).
  public var path: [String]
  /// Positional arguments in order.
  public var arguments: [String]
  /// Option values by long name, in the order given.
  public var options: [String: [String]]
  /// Flags that were present, by long name.
  public var flags: Set<String>
  public var context: CLIContext

  public init(
    path: [String], arguments: [String], options: [String: [String]], flags: Set<String>, context: CLIContext
  ) {
    self.path = path
    self.arguments = arguments
    self.options = options
    self.flags = flags
    self.context = context
  }

  /// The command as the user typed it, for messages (`travel flights search`).
  public var commandName: String { path.joined(separator: " ") }

  /// The last value of option `name`, or nil when absent.
  public func value(_ name: String) -> String? { options[name]?.last }

  /// Every value of a repeatable option, in order.
  public func values(_ name: String) -> [String] { options[name] ?? [] }

  /// Whether flag `name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`; throws a usage error (exit 2) naming the option when absent.
  public func required(_ name: String) throws -> String {
    guard let value = value(name), !value.isEmpty else {
      throw CLIError.usage(
        "missing --\(name) for '\(commandName)': see '\(commandName) --help'", code: "missing_option")
    }
    return value
  }

  /// The positional argument at `index`; throws a usage error naming `name` when absent.
  public func argument(_ index: Int, name: String) throws -> String {
    guard index < arguments.count else {
      throw CLIError.usage(
        "missing \(name) for '\(commandName)': see '\(commandName) --help'", code: "missing_argument")
    }
    return arguments[index]
  }

  /// An integer option within `range`, or `defaultValue` when absent.
  /// Throws a usage error naming the option and the accepted range.
  public func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
    guard let text = value(name) else { return defaultValue }
    guard let number = Int(text), range.contains(number) else {
      throw CLIError.usage(
        "invalid --\(name) \"\(text)\": expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  /// `--limit N`: 1–1000, default 50 (the contract of every search).
  public func limit() throws -> Int { try integer("limit", in: 1...1000, default: 50) }
}
