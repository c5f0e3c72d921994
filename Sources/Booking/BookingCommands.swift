import Common

/// The command tree of the Booking feature: the root of the standalone `booking` executable, mounted
/// as `travel flights` in the assembled app.
public enum BookingCommands {
  /// The commands this version has. Until the feature lands the tree is empty and its help says
  /// so plainly.
  public static func root(name: String = "booking") -> Command {
    Command(
      name: name,
      summary: "Flights: search real routes between real airports and book seats.",
      discussion: """
        This version has no flights commands yet: search, airports and book are not built. Only --help and
        --version work.
        """
    )
  }
}
