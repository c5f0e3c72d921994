import Foundation

/// The shape of the names and passwords of an account, checked the same way by the account
/// service (Backend) and the Account feature (sign-up, profile editor, `profile` command).
public enum AccountInputRules {
  /// The most characters (extended grapheme clusters) of a first or last name.
  public static let maximumNameLength = 100
  /// The fewest characters of a password.
  public static let minimumPasswordLength = 10

  /// Why `name` (already trimmed, not empty) cannot be stored, or `nil` when it can: a control
  /// character (escape, tab, newline, …; Unicode general category Cc) or a bidirectional control
  /// (U+202E right-to-left override and the other Bidi_Control characters) is `invalid_name`, more than
  /// ``maximumNameLength`` characters is `name_too_long`. `field` names it in the message
  /// (`First Name`).
  public static func nameProblem(_ name: String, field: String) -> ServiceError? {
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return .invalid(
        "invalid_name",
        "\(field) contains a control character (such as an escape, tab or newline): use letters, spaces and punctuation"
      )
    }
    if let scalar = name.unicodeScalars.first(where: { $0.properties.isBidiControl }) {
      return .invalid(
        "invalid_name",
        "\(field) contains an invisible direction control (U+\(String(format: "%04X", scalar.value))) that would show it "
          + "other than it is stored: type the name without it")
    }
    if name.count > maximumNameLength {
      return .invalid(
        "name_too_long", "\(field) is \(name.count) characters long: use at most \(maximumNameLength) characters")
    }
    return nil
  }

  /// - Throws: ``ServiceError`` `password_too_short` (``ServiceError/Kind/invalidInput``) when
  ///   `password` has fewer than ``minimumPasswordLength`` characters, `password_blank` when all
  ///   of them are whitespace.
  public static func checkPassword(_ password: String) throws {
    guard password.count >= minimumPasswordLength else {
      throw ServiceError.invalid(
        "password_too_short",
        "password is too short (\(password.count) characters): use at least \(minimumPasswordLength) characters")
    }
    guard password.contains(where: { !$0.isWhitespace }) else {
      throw ServiceError.invalid(
        "password_blank",
        "password is only whitespace: use at least \(minimumPasswordLength) characters, not all of them spaces")
    }
  }
}
