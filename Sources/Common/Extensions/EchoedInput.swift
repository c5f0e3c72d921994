import Foundation

/// User input echoed in a message (an error naming what was wrong), made safe for a terminal.
///
/// Control characters (Unicode general category Cc: C0, DEL, C1), the line and paragraph
/// separators and the bidirectional controls (Bidi_Control: U+202E right-to-left override …) are
/// written as Swift escapes (`\u{1B}`), so an echoed name cannot clear the screen, set the window
/// title, break a line or show the rest of the message backwards; everything else is kept as
/// typed. A long input is echoed as a short prefix with its length (``quoted(_:)``), and every
/// ``ServiceError`` and ``CLIError`` message is bounded the same way (``bounded(_:)``), so a
/// 100,000-character input never comes back in full.
public enum EchoedInput {
  /// The most characters of an input a message echoes: 40.
  public static let maximumEchoedLength = 40
  /// The most characters of a whole message (``bounded(_:)``): 2,000.
  public static let maximumMessageLength = 2000

  /// `text` with its control and bidirectional control characters escaped as `\u{HEX}`
  /// (uppercase hex, no padding).
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if isUnsafe(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `text` escaped (``escaped(_:)``) between double quotes, as messages quote an option's value;
  /// longer than ``maximumEchoedLength`` characters, its first ones and its length:
  /// `"aaaaaaaa…" (100,000 characters)`.
  public static func quoted(_ text: String) -> String {
    let count = text.count
    guard count > maximumEchoedLength else { return "\"\(escaped(text))\"" }
    return "\"\(escaped(String(text.prefix(maximumEchoedLength))))…\" (\(grouped(count)) characters)"
  }

  /// `message` made safe to show: each double-quoted part (an echoed input) escaped, and cut to
  /// its first ``maximumEchoedLength`` characters with its length when it has more than twice as
  /// many; the whole cut at ``maximumMessageLength`` characters. A message that is already safe
  /// comes back unchanged.
  public static func bounded(_ message: String) -> String {
    guard message.utf8.count > maximumEchoedLength * 2 || message.unicodeScalars.contains(where: isUnsafe)
    else { return message }
    var result = ""
    var rest = Substring(message)
    while let open = rest.firstIndex(of: "\"") {
      result += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "\"") else {
        rest = rest[open...]
        break
      }
      let inner = String(rest[afterOpen..<close])
      result += inner.count > maximumEchoedLength * 2 ? quoted(inner) : "\"\(escaped(inner))\""
      rest = rest[rest.index(after: close)...]
    }
    result += rest  // the message's own words (a line break there is meant)
    guard result.count > maximumMessageLength else { return result }
    return String(result.prefix(maximumMessageLength)) + "… (message cut)"
  }

  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: scalar.properties.isBidiControl
    }
  }

  /// `100000` → `100,000`.
  private static func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
