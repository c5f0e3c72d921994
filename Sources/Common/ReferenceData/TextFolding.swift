import Foundation

/// The search form of names: case- and diacritic-insensitive, punctuation as spaces.
///
/// `"Zürich"` → `"zurich"`, `"São Paulo"` → `"sao paulo"`, `"Xi'an"` → `"xian"`,
/// `"St. Louis"` → `"st louis"`, `"Łódź"` → `"lodz"`. Letters of other scripts are kept
/// (lower-cased). The same function folds the reference data (at compile time) and what users
/// type, so both always agree.
enum TextFolding {
  /// Letters that Foundation's diacritic folding leaves alone.
  private static let extra: [Character: String] = [
    "ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ß": "ss", "ħ": "h",
  ]

  static func fold(_ text: String) -> String {
    var folded = text
    if !text.utf8.allSatisfy({ $0 < 0x80 }) {
      folded = text.folding(
        options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX")
      )
      if folded.contains(where: { extra[$0] != nil }) {
        folded = String(folded.flatMap { extra[$0].map(Array.init) ?? [$0] })
      }
    }
    var result = ""
    result.reserveCapacity(folded.utf8.count)
    var pendingSpace = false
    for scalar in folded.unicodeScalars {
      if scalar == "'" || scalar == "\u{2019}" || scalar == "`" { continue }
      let isWord = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
      if !isWord {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace {
        result.unicodeScalars.append(" ")
        pendingSpace = false
      }
      if scalar.isASCII {
        result.unicodeScalars.append(
          ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar)
      } else {
        result += String(scalar).lowercased()
      }
    }
    return result
  }
}
