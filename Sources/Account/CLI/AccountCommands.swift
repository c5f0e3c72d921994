import Common
import Foundation

/// The command tree of the Account feature (the `account` commands of `CLI.md`): the root of the
/// standalone `account` executable, mounted as `travel account` in the assembled app, with its
/// `trips` group also mounted as `travel trips`.
///
/// Services come from `environment`, called only when a command runs (never for `--help` or a
/// usage error). The signed-in user's session token lives in ``SessionFile`` in the data directory.
public enum AccountCommands {
  /// The `account` root: signup, login, logout, whoami, profile, preferences, cards, trips.
  public static func root(
    name: String = "account", environment: @escaping AccountEnvironment.Factory = AccountEnvironment.unavailable
  ) -> Command {
    Command(
      name: name,
      summary: L("Account: sign up, sign in, profile, preferences, payment cards and trips."),
      discussion: """
        Secrets (passwords, card numbers, CVCs) are never options: they are read from the terminal without echo, \
        or one per line from stdin when stdin is not a terminal. The session is kept in the file 'session' \
        (owner-only) in the data directory.
        """,
      examples: [
        "signup --email ada@example.com --first-name Ada --last-name Lovelace",
        "login --email ada@example.com",
        "cards add",
        "trips list --json",
      ],
      subcommands: SessionCommands.commands(environment) + ProfileCommands.commands(environment) + [
        CardCommands.group(environment),
        TripCommands.group(name: "trips", environment: environment),
      ]
    )
  }

  /// The `trips` group on its own, for `travel trips …`.
  public static func trips(
    name: String = "trips", environment: @escaping AccountEnvironment.Factory = AccountEnvironment.unavailable
  ) -> Command {
    TripCommands.group(name: name, environment: environment)
  }
}

/// What every account command shares: the services, the session file, the user's strings.
struct AccountRun {
  let invocation: Invocation
  let environment: AccountEnvironment
  let session: SessionFile

  init(_ invocation: Invocation, _ factory: AccountEnvironment.Factory) throws {
    self.invocation = invocation
    self.environment = try factory(invocation.context)
    self.session = SessionFile(dataDirectory: invocation.context.dataDirectory)
  }

  var context: CLIContext { invocation.context }
  var console: Console { invocation.context.console }

  /// The saved session token.
  /// - Throws: ``ServiceError/notSignedIn`` (exit 1, "sign in first: account login --email …").
  func token() throws -> String {
    guard let token = try session.read() else { throw ServiceError.notSignedIn }
    return token
  }

  /// The strings of the signed-in user's language (English when it cannot be told, or for JSON).
  func strings(token: String?) -> Strings {
    display(token: token).strings
  }

  /// How human output is shown to the signed-in user: their language and the currency prices are
  /// shown in (English and no conversion when it cannot be told, or for JSON).
  func display(token: String?) -> Display {
    guard !context.json, let token, let preferences = try? environment.accounts.preferences(token: token) else {
      return Display(strings: .english, currencyCode: nil)
    }
    let strings = Strings.Language(tag: preferences.language).map { Strings($0) } ?? .english
    return Display(strings: strings, currencyCode: preferences.currencyCode)
  }

  /// How the user reaches this executable's account commands: `account` or `travel account`.
  var accountCommand: String {
    let path = invocation.path
    guard let first = path.first else { return "account" }
    if path.count > 1, first != "account", ["account", "trips"].contains(path[1]) { return "\(first) account" }
    return first
  }
}

/// The user's language, for human output: its strings and its way of writing money.
struct Display {
  var strings: Strings
  /// The ISO 4217 code of the user's preferred currency, or nil.
  var currencyCode: String?

  /// How amounts are written: the one rule (``MoneyFormat``) in the user's language.
  var money: MoneyFormat { MoneyFormat(strings.language) }

  /// `$161.41`, `161,41 $`: the amount in the currency it was charged in (never converted: what
  /// the card was charged is what is shown).
  func price(_ money: Money) -> String { self.money.string(money) }
}
