/// Decodes the bytes a terminal in raw mode sends into ``Key``s.
///
/// Feed bytes as they arrive with ``decode(_:)``; a sequence cut between two reads is kept and
/// finished by the next read. A lone Esc cannot be told from the start of an escape sequence
/// until a moment passes without more bytes: the reader then calls ``flush()`` (after
/// ``escapeTimeout``), which turns a pending `ESC` into ``Key/escape``.
///
/// Understood: printable UTF-8 (grapheme clusters that arrive together stay one `Character`),
/// Enter (CR or LF), Tab, Shift-Tab (`CSI Z`), Backspace (DEL or BS), Ctrl-letter, Esc, arrows,
/// Home/End, PgUp/PgDn, Insert/Delete, F1–F12 (CSI and SS3 forms, xterm modifiers ignored), and
/// bracketed paste (`CSI 200~ … CSI 201~` → one ``Key/paste(_:)``, CR LF and CR made LF).
/// Unknown sequences are dropped whole.
public struct KeyDecoder: Sendable {
  /// How long to wait after an `ESC` for the rest of a sequence: 25 ms (a sequence's bytes
  /// arrive together; a person cannot type Esc and `[` that fast).
  public static let escapeTimeout = Duration.milliseconds(25)

  private var pending: [UInt8] = []
  private var pasting = false
  private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  public init() {}

  /// Whether bytes are waiting for more (an `ESC` or an unfinished sequence): the reader should
  /// call ``flush()`` if nothing arrives within ``escapeTimeout``.
  public var hasPending: Bool { !pending.isEmpty && !pasting }

  /// Keys completed by `bytes` (with those left pending from before).
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (consumed, key) = parse(at: index, final: false) else { break }
      index += consumed
      if let key { keys.append(key) }
    }
    pending.removeFirst(index)
    return Self.mergingText(keys)
  }

  /// Called when no byte followed within ``escapeTimeout``: a pending `ESC` is Esc, and any other
  /// unfinished sequence is taken as far as it goes.
  public mutating func flush() -> [Key] {
    guard !pasting else { return [] }
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (consumed, key) = parse(at: index, final: true) else { break }
      index += consumed
      if let key { keys.append(key) }
    }
    pending.removeAll()
    return Self.mergingText(keys)
  }

  /// Parses one key at `index`: (bytes consumed, key or nil to drop), or nil when more bytes are
  /// needed (never nil when `final`).
  private mutating func parse(at index: Int, final: Bool) -> (Int, Key?)? {
    if pasting { return parsePaste(at: index) }
    let byte = pending[index]
    switch byte {
    case 0x1B: return parseEscape(at: index, final: final)
    case 0x0D, 0x0A: return (1, .enter)
    case 0x09: return (1, .tab)
    case 0x7F, 0x08: return (1, .backspace)
    case 0x01...0x1A: return (1, .control(Character(Unicode.Scalar(byte + 0x60))))
    case 0x00, 0x1C...0x1F: return (1, nil)
    default: return parseUTF8(at: index, final: final)
    }
  }

  private func parseUTF8(at index: Int, final: Bool) -> (Int, Key?)? {
    let lead = pending[index]
    let length =
      switch lead {
      case 0x20..<0x80: 1
      case 0xC2..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF5: 4
      default: 0
      }
    guard length > 0 else { return (1, nil) }  // a stray continuation byte or an invalid lead
    guard index + length <= pending.count else { return final ? (pending.count - index, nil) : nil }
    let bytes = pending[index..<index + length]
    guard bytes.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
      let scalar = String(validating: bytes, as: UTF8.self)?.unicodeScalars.first
    else { return (1, nil) }
    return (length, .character(Character(scalar)))
  }

  private mutating func parseEscape(at index: Int, final: Bool) -> (Int, Key?)? {
    guard index + 1 < pending.count else { return final ? (1, .escape) : nil }
    let next = pending[index + 1]
    switch next {
    case UInt8(ascii: "["):
      // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
      var end = index + 2
      while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
      guard end < pending.count else { return final ? (1, .escape) : nil }
      let finalByte = pending[end]
      guard (0x40...0x7E).contains(finalByte) else { return (end - index, nil) }
      let parameters = String(decoding: pending[index + 2..<end], as: UTF8.self)
      return (end - index + 1, csi(parameters: parameters, final: finalByte))
    case UInt8(ascii: "O"):
      guard index + 2 < pending.count else { return final ? (1, .escape) : nil }
      return (3, ss3(pending[index + 2]))
    default:
      // ESC then something else (Alt-key, or Esc typed just before a key): Esc, then the key.
      return (1, .escape)
    }
  }

  private mutating func csi(parameters: String, final: UInt8) -> Key? {
    let first = Int(parameters.split(separator: ";").first ?? "") ?? 1
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "P"): return .function(1)
    case UInt8(ascii: "Q"): return .function(2)
    case UInt8(ascii: "R"): return .function(3)
    case UInt8(ascii: "S"): return .function(4)
    case UInt8(ascii: "~"):
      switch first {
      case 1, 7: return .home
      case 4, 8: return .end
      case 2: return .insert
      case 3: return .delete
      case 5: return .pageUp
      case 6: return .pageDown
      case 11...15: return .function(first - 10)
      case 17...21: return .function(first - 11)
      case 23, 24: return .function(first - 12)
      case 200:
        pasting = true
        return nil
      default: return nil
      }
    default: return nil
    }
  }

  private func ss3(_ byte: UInt8) -> Key? {
    switch byte {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    case UInt8(ascii: "P"): .function(1)
    case UInt8(ascii: "Q"): .function(2)
    case UInt8(ascii: "R"): .function(3)
    case UInt8(ascii: "S"): .function(4)
    default: nil
    }
  }

  private mutating func parsePaste(at index: Int) -> (Int, Key?)? {
    let rest = pending[index...]
    let marker = Self.pasteEnd
    guard let start = rest.firstRange(of: marker)?.lowerBound else { return nil }
    pasting = false
    var text = String(decoding: pending[index..<start], as: UTF8.self)
    text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    return (start - index + marker.count, .paste(text))
  }

  /// Consecutive characters decoded together are regrouped into grapheme clusters, so a
  /// combining accent or a ZWJ emoji sequence typed at once is one ``Key/character(_:)``.
  private static func mergingText(_ keys: [Key]) -> [Key] {
    var result: [Key] = []
    var run = ""
    func flushRun() {
      for character in run { result.append(.character(character)) }
      run = ""
    }
    for key in keys {
      if case .character(let c) = key {
        run.append(c)
      } else {
        flushRun()
        result.append(key)
      }
    }
    flushRun()
    return result
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
