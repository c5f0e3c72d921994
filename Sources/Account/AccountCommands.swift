import Common

/// The command tree of the Account feature: the root of the standalone `account` executable, mounted
/// as `travel account` in the assembled app.
public enum AccountCommands {
  /// The commands this version has. Until the feature lands the tree is empty and its help says
  /// so plainly.
  public static func root(name: String = "account") -> Command {
    Command(
      name: name,
      summary: "Account: sign up, sign in, profile, preferences, payment cards and trips.",
      discussion: """
        This version has no account commands yet: signup, login, logout, whoami, profile, preferences, cards and trips are not built. Only --help and
        --version work.
        """
    )
  }
}
