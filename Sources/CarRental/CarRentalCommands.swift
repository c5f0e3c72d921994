import Common

/// The command tree of the CarRental feature: the root of the standalone `car-rental` executable, mounted
/// as `travel cars` in the assembled app.
public enum CarRentalCommands {
  /// The commands this version has. Until the feature lands the tree is empty and its help says
  /// so plainly.
  public static func root(name: String = "car-rental") -> Command {
    Command(
      name: name,
      summary: "Cars: search rental cars at airports and in cities, and book them.",
      discussion: """
        This version has no cars commands yet: search, companies and book are not built. Only --help and
        --version work.
        """
    )
  }
}
