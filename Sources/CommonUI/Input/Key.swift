import Common

/// A key press (or a paste) decoded from the terminal's input bytes by ``KeyDecoder``.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  /// A printable character (a whole grapheme cluster when typed as one UTF-8 sequence).
  case character(Character)
  /// Ctrl plus a letter, lower case: Ctrl-A is `.control("a")`. (Ctrl-I, Ctrl-M and Ctrl-H arrive
  /// as ``tab``, ``enter`` and ``backspace``; Ctrl-C as `.control("c")`.)
  case control(Character)
  case up, down, left, right
  case home, end, pageUp, pageDown
  case tab, backTab
  case enter
  case escape
  case backspace
  case delete
  case insert
  /// F1–F12.
  case function(Int)
  /// Text pasted with bracketed paste on: arrives whole, never interpreted as keys.
  case paste(String)

  /// Ctrl-C: always quits the interactive app.
  public static let interrupt = Key.control("c")

  public var description: String {
    switch self {
    case .character(" "): "Space"
    case .character(let c): String(c)
    case .control(let c): "Ctrl-\(c.uppercased())"
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .enter: "Enter"
    case .escape: "Esc"
    case .backspace: "Backspace"
    case .delete: "Delete"
    case .insert: "Insert"
    case .function(let n): "F\(n)"
    case .paste(let text): "paste(\(text.count) characters)"
    }
  }
}

/// A key and what it does, for the footer and the help overlay ("↑↓ move", "Enter open").
public struct KeyHint: Hashable, Sendable {
  public var keys: String
  public var action: String

  /// `action` is English (`"move"`), shown in the current language (``Localization``).
  public init(_ keys: String, _ action: String) {
    self.keys = keys
    self.action = L(english: action)
  }
}
