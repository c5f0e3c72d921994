import Foundation

/// The JSON conventions of every executable: camelCase keys, sorted so output is stable,
/// pretty-printed, slashes unescaped, UTF-8; a `Date` (an instant) as ISO 8601 in UTC
/// (`2026-12-20T16:05:00Z`). Times that belong to a place are encoded by their models with the
/// place's UTC offset instead (CLI.md "Values").
public enum JSONOutput {
  /// An encoder configured for command output.
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// `value` as a JSON document (UTF-8 text without a trailing newline).
  public static func string<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try makeEncoder().encode(value), as: UTF8.self)
  }

  /// `value` as a JSON document on one line (no newline inside or after it), for streams of
  /// documents such as `booking status --follow --json` (one document per line, "JSON Lines").
  public static func line<T: Encodable>(_ value: T) throws -> String {
    let encoder = makeEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

extension CLIContext {
  /// Writes the result of a command: `json` as one document when `--json` is on, else the
  /// human text from `human`.
  public func emit<T: Encodable>(json value: T, human: () -> String) throws {
    if json {
      console.print(try JSONOutput.string(value))
    } else {
      let text = human()
      if !text.isEmpty { console.print(text) }
    }
  }
}
