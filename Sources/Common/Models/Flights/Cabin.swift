import Foundation

/// A cabin of an aircraft, from the cheapest to the most expensive.
///
/// The raw value is the word of the command line and of JSON (`economy`, `premium`, `business`,
/// `first`); ``letter`` is the one-letter compartment code used in offer ids and boarding passes
/// (`Y`, `W`, `J`, `F`).
public enum Cabin: String, CaseIterable, Comparable, Hashable, Sendable, Codable {
  case economy
  /// Premium economy.
  case premium
  case business
  case first

  /// The compartment code: `Y` economy, `W` premium economy, `J` business, `F` first.
  public var letter: Character {
    switch self {
    case .economy: "Y"
    case .premium: "W"
    case .business: "J"
    case .first: "F"
    }
  }

  /// The cabin of compartment code `letter` (`Y`, `W`, `J`, `F`), or nil.
  public init?(letter: Character) {
    guard let cabin = Cabin.allCases.first(where: { $0.letter == letter }) else { return nil }
    self = cabin
  }

  /// A name for people: `Economy`, `Premium economy`, `Business`, `First`.
  public var displayName: String {
    switch self {
    case .economy: "Economy"
    case .premium: "Premium economy"
    case .business: "Business"
    case .first: "First"
    }
  }

  /// Parses the command-line word (any case; `premium-economy` and `premium_economy` are accepted
  /// for `premium`).
  /// - Throws: ``ServiceError`` `invalid_cabin` (invalid input) naming the accepted words.
  public static func parse(_ text: String) throws -> Cabin {
    let word = text.lowercased()
    if let cabin = Cabin(rawValue: word) { return cabin }
    if word == "premium-economy" || word == "premium_economy" || word == "premiumeconomy" { return .premium }
    throw ServiceError.invalid(
      "invalid_cabin", "unknown cabin \"\(text)\": expected one of economy, premium, business, first")
  }

  /// The position in `allCases`: economy 0 … first 3.
  public var index: Int { Cabin.allCases.firstIndex(of: self) ?? 0 }

  public static func < (lhs: Cabin, rhs: Cabin) -> Bool { lhs.index < rhs.index }
}
