/// Terminal display width of text, in columns.
///
/// Decision (see LINUX-NOTES §3): we do **not** call the C library's `wcwidth`. It is hidden from
/// `import Glibc`, answers −1 for all non-ASCII until a UTF-8 locale is set (a process-wide
/// `setlocale`, which a library should not do behind the app's back), and judges single scalars,
/// not the grapheme clusters a terminal draws. Instead the width of a grapheme cluster
/// (`Character`) is computed here in pure Swift from Unicode properties:
/// - 0 for control characters and clusters made only of combining marks (Mn, Me), format
///   characters (Cf, e.g. ZWJ) or variation selectors;
/// - 2 for emoji shown as emoji (`Emoji_Presentation`, or any emoji followed by U+FE0F), regional
///   indicator pairs (flags), and East Asian Wide/Fullwidth scalars (ranges below, after Unicode's
///   `EastAsianWidth.txt`: Hangul Jamo, CJK radicals, kana, CJK ideographs, Hangul syllables,
///   fullwidth forms, CJK extension planes 2 and 3);
/// - 1 otherwise — ambiguous-width characters (±, §, box drawing) count as narrow, as glibc does.
///
/// Checked widths: `漢` 2, `ｱ` 1, `😀` 2, `🤌` 2, `é` (e + U+0301) 1, `👩‍👩‍👧` 2, `🇫🇷` 2, `±` 1.
public enum DisplayWidth {
  /// Columns that `character` takes in a terminal: 0, 1 or 2.
  @inlinable
  public static func of(_ character: Character) -> Int {
    if let ascii = character.asciiValue {
      return ascii >= 0x20 && ascii != 0x7F ? 1 : 0
    }
    return nonASCII(character)
  }

  /// Columns that `text` takes: the sum over its grapheme clusters.
  public static func of(_ text: some StringProtocol) -> Int {
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// Columns a lone scalar takes (0, 1 or 2), by the rules of ``DisplayWidth``.
  public static func of(scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x7F { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    return isWide(value) ? 2 : 1
  }

  /// `text` cut to at most `width` columns; when it had to be cut, the last column shows `…`.
  /// Never returns more than `width` columns (a wide character that would straddle the limit is
  /// dropped).
  public static func truncate(_ text: String, to width: Int, ellipsis: Character = "…") -> String {
    guard width > 0 else { return "" }
    var used = 0
    var end = text.startIndex
    var index = text.startIndex
    // Fast path: find whether it fits, remembering the last cut that leaves room for the ellipsis.
    while index < text.endIndex {
      let columns = of(text[index])
      if used + columns > width {
        // Does not fit: cut at `end` (the last position with width-1 columns or less).
        return String(text[..<end]) + String(ellipsis)
      }
      used += columns
      index = text.index(after: index)
      if used <= width - 1 { end = index }
    }
    return text
  }

  @usableFromInline
  static func nonASCII(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    // A cluster: the base decides, except that VS16 turns a text-style emoji into a wide one.
    var base = of(scalar: first)
    if base == 0 {
      // Leading marks only (e.g. a lone U+0301): look for a visible scalar after them.
      for scalar in scalars.dropFirst() where of(scalar: scalar) > 0 {
        base = of(scalar: scalar)
        break
      }
    }
    if base == 1, first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
    if base == 1, (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
    return base
  }

  static func isWide(_ value: UInt32) -> Bool {
    if value < 0x1100 { return false }
    for range in wideRanges where range.contains(value) { return true }
    return false
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks (Unicode `EastAsianWidth.txt`, condensed to blocks).
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initial consonants
    0x2329...0x232A,  // angle brackets
    0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
    0x3400...0x4DBF,  // CJK extension A
    0x4E00...0x9FFF,  // CJK unified ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo extended A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,  // fullwidth signs
    0x1F200...0x1F2FF,  // enclosed ideographic supplement
    0x20000...0x2FFFD,  // CJK extension planes
    0x30000...0x3FFFD,
  ]
}
