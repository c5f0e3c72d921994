import Common

/// The command tree of the Hotel feature: the root of the standalone `hotel` executable, mounted
/// as `travel hotels` in the assembled app.
public enum HotelCommands {
  /// The commands this version has. Until the feature lands the tree is empty and its help says
  /// so plainly.
  public static func root(name: String = "hotel") -> Command {
    Command(
      name: name,
      summary: "Hotels: search hotels around real cities and book rooms.",
      discussion: """
        This version has no hotels commands yet: search, show, book and map are not built. Only --help and
        --version work.
        """
    )
  }
}
