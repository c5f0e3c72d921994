import Foundation

/// Service errors in the interactive app's words. The services word their messages for the
/// command line ("--date 2026-01-02 is in the past", "sign in first: account login --email …");
/// a screen names its own fields and keys instead, never an option or a command.
///
/// ``message(for:fields:)`` words an error for a screen:
/// - errors about the account and payment, whose advice is a command, get sentences of their own
///   by ``ServiceError/code`` (``accountMessages``);
/// - every other message has each command-line option replaced by the name of the field that
///   holds it on the screen (`fields`, then ``defaultFields``: `--date` → "the departure date"),
///   and any option still left loses its dashes; the first letter is made upper-case.
///
/// Feature screens pass their own `fields` where an option means something else there (the car
/// form's `--from` is the pick-up time, the flight form's is From).
public enum ScreenText {
  /// Option → field name used by every screen unless it passes its own.
  public static let defaultFields: [String: String] = [
    "--date": "the departure date", "--return": "the return date", "--adults": "adults",
    "--max-stops": "max stops", "--limit": "the number of results", "--class": "class",
    "--promo": "the promo code", "--card ID": "another card", "--card": "another card",
    "--currency": "the currency", "--check-in": "check-in", "--check-out": "check-out", "--guests": "guests",
    "--rooms": "rooms", "--near": "the place", "--passenger": "the passenger's name", "--guest": "the guest's name",
    "--driver": "the driver's name", "--pickup": "the pick-up place", "--dropoff": "the return place",
    "--first-name": "First name", "--last-name": "Last name", "--email": "Email", "--language": "the language",
    "--appearance": "the appearance", "--home-airport": "the home airport", "--max-price": "the price cap",
    "--data-dir DIR": "another data directory (TRAVEL_DATA_DIR)", "--data-dir": "another data directory",
  ]

  /// Codes whose command-line advice becomes a sentence of the app's.
  public static let accountMessages: [String: String] = [
    "not_signed_in": "You are not signed in: sign in (the Account tab, or the sign-in sheet of a booking).",
    "session_expired": "Your session has expired: sign in again.",
    "invalid_credentials": "Email or password is wrong: check both and try again.",
    "email_taken": "An account with this email already exists: sign in with it instead.",
    "card_declined": "The card was declined: nothing was booked. Choose another card and book again.",
    "insufficient_funds": "The card has insufficient funds: nothing was booked. Choose another card and book again.",
  ]

  /// The message of `error` for a screen (see the type's documentation).
  /// - Parameter fields: option → the screen's name for it, before ``defaultFields``.
  public static func message(for error: ServiceError, fields: [String: String] = [:]) -> String {
    if let sentence = accountMessages[error.code] { return sentence }
    return reworded(error.message, fields: fields)
  }

  /// `text` with each command-line option or command replaced by the screen's words.
  public static func reworded(_ text: String, fields: [String: String] = [:]) -> String {
    var text = text
    // Commands first ("account login --email …"): the Account tab does that here.
    for command in ["account login --email …", "account signup --email …", "account login", "account signup"] {
      text = text.replacingOccurrences(of: command, with: "the Account tab")
    }
    text = text.replacingOccurrences(of: "search without --promo", with: "clear the promo code")
    let table = defaultFields.merging(fields) { _, own in own }
    // Longest options first, so `--card ID` wins over `--card`.
    for option in table.keys.sorted(by: { $0.count > $1.count }) {
      text = replacingOption(option, with: table[option]!, in: text)
    }
    // Whatever option is left: its name without the dashes.
    text = text.replacingOccurrences(of: #"(^|[\s("])--([a-z][a-z-]*)"#, with: "$1$2", options: .regularExpression)
    return capitalizedFirst(text)
  }

  /// `text` with the option `option` (whole word: `--to` is not the start of `--total`) replaced.
  private static func replacingOption(_ option: String, with name: String, in text: String) -> String {
    let pattern = NSRegularExpression.escapedPattern(for: option) + #"(?![a-z-])"#
    return text.replacingOccurrences(of: pattern, with: name, options: .regularExpression)
  }

  /// `text` with its first letter upper-case ("the return date …" → "The return date …").
  public static func capitalizedFirst(_ text: String) -> String {
    guard let first = text.first, first.isLowercase else { return text }
    return first.uppercased() + text.dropFirst()
  }
}
