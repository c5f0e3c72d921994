import Foundation

/// Finds English left in text that should be in another language (#14): the lines of a rendered
/// screen or a command's output that hold a word of ``words``, common English words no German
/// sentence has.
///
/// Not counted: text in quotes (`„account login“`, `'travel --help'`, `"LH400"`), words with two
/// capitals or other than letters (codes: `SFO`, `LH400`, `--from`), and the substrings
/// `allowing` (names from the test's data: `"The Grand"`).
public enum EnglishLeftovers {
  /// English words that are not German words (nor names the German text keeps: Economy,
  /// Business, Hotel, Enter, Tab, OK).
  public static let words: Set<String> = [
    "a", "about", "add", "added", "adult", "adults", "after", "again", "agent", "airport", "airports", "all", "an",
    "and", "another", "any", "are", "arrival", "arrivals", "arrive", "arrives", "at", "available", "back", "be",
    "before", "book", "booked", "booking", "bookings", "but", "by", "can", "cancel", "cancelled", "cannot", "car",
    "card", "cards", "cars", "change", "changed", "check", "checked", "choose", "city", "close", "closed", "could",
    "currency", "date", "day", "days", "default", "delayed", "departure", "departures", "departs", "does", "done",
    "each", "edit", "email", "empty", "every", "expired", "expires", "fare", "fares", "field", "flight", "flights",
    "for", "found", "free", "from", "gate", "guest", "guests", "has", "have", "help", "here", "how", "if", "is",
    "it", "its", "language", "leave", "list", "loading", "login", "more", "most", "move", "must", "need", "needs",
    "new", "next", "night", "nights", "no", "none", "not", "nothing", "now", "of", "on", "one", "only", "open",
    "or", "other", "our", "out", "password", "pay", "per", "pick", "pickup", "please", "press", "price", "prices",
    "profile", "quit", "rental", "return", "room", "rooms", "save", "saved", "search", "searching", "seat", "seats",
    "see", "select", "show", "shows", "sign", "signed", "some", "stop", "stops", "than", "that", "the", "their",
    "there", "this", "time", "to", "today", "tomorrow", "trip", "trips", "try", "type", "up", "use", "want", "was",
    "were", "what", "when", "where", "which", "while", "who", "why", "with", "without", "yet", "you", "your",
  ]

  /// The lines of `text` with English words, each with the words found.
  public static func find(in text: String, allowing: [String] = []) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
      let found = englishWords(in: String(line), allowing: allowing)
      return found.isEmpty ? nil : "\(line.trimmingCharacters(in: .whitespaces))   ← \(found.joined(separator: ", "))"
    }
  }

  /// The English words of one line.
  public static func englishWords(in line: String, allowing: [String] = []) -> [String] {
    var rest = line
    for name in allowing { rest = rest.replacingOccurrences(of: name, with: " ") }
    rest = removingQuoted(rest)
    var found: [String] = []
    for token in rest.split(whereSeparator: { !$0.isLetter && $0 != "-" && $0 != "'" && !$0.isNumber }) {
      let word = String(token)
      guard word.allSatisfy(\.isLetter) else { continue }
      guard word.filter(\.isUppercase).count < 2 else { continue }
      if words.contains(word.lowercased()) { found.append(word) }
    }
    return found
  }

  /// `text` without what stands in quotes (`„…“`, `"…"`, `'…'`, `` `…` ``).
  static func removingQuoted(_ text: String) -> String {
    var result = ""
    var closing: Character?
    for character in text {
      if let end = closing {
        if character == end { closing = nil }
        continue
      }
      switch character {
      case "„": closing = "“"
      case "\"": closing = "\""
      case "`": closing = "`"
      case "'" where result.last.map({ !$0.isLetter }) ?? true: closing = "'"
      default: result.append(character)
      }
    }
    return result
  }
}
