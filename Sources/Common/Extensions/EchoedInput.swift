import Foundation

/// User input echoed in a message (an error naming what was wrong), made safe for a terminal.
///
/// Control characters (Unicode general category Cc: C0, DEL, C1) and the line and paragraph
/// separators are written as Swift escapes (`\u{1B}`), so an echoed name cannot clear the
/// screen, set the window title or break a line; everything else is kept as typed.
public enum EchoedInput {
  /// `text` with its control characters escaped as `\u{HEX}` (uppercase hex, no padding).
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator:
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `text` escaped (``escaped(_:)``) between double quotes, as messages quote an option's value.
  public static func quoted(_ text: String) -> String { "\"\(escaped(text))\"" }
}
