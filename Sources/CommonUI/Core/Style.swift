/// A terminal colour: one of the 16 ANSI colours, a 256-colour index, or 24-bit RGB.
public enum Color: Hashable, Sendable {
  /// ANSI colour 0–15 (0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white, 8–15 bright).
  case ansi(UInt8)
  /// xterm 256-colour palette index.
  case indexed(UInt8)
  /// 24-bit colour (written as `38;2;r;g;b` / `48;2;r;g;b`).
  case rgb(UInt8, UInt8, UInt8)

  public static let black = Color.ansi(0)
  public static let red = Color.ansi(1)
  public static let green = Color.ansi(2)
  public static let yellow = Color.ansi(3)
  public static let blue = Color.ansi(4)
  public static let magenta = Color.ansi(5)
  public static let cyan = Color.ansi(6)
  public static let white = Color.ansi(7)
  public static let gray = Color.ansi(8)

  /// Parses `#rrggbb` (case-insensitive); nil for anything else.
  public init?(hex: String) {
    var text = Substring(hex)
    guard text.first == "#" else { return nil }
    text = text.dropFirst()
    guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
    self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
  }
}

/// Text attributes of a cell (SGR 1, 2, 3, 4, 7).
public struct Attributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let bold = Attributes(rawValue: 1 << 0)
  public static let dim = Attributes(rawValue: 1 << 1)
  public static let italic = Attributes(rawValue: 1 << 2)
  public static let underline = Attributes(rawValue: 1 << 3)
  public static let reverse = Attributes(rawValue: 1 << 4)
}

/// How a cell looks: foreground and background colour (nil = the terminal's default) and attributes.
///
/// Styles combine with ``patched(_:)``: the patch's colours win where set, attributes are added.
public struct Style: Hashable, Sendable {
  public var foreground: Color?
  public var background: Color?
  public var attributes: Attributes

  public init(foreground: Color? = nil, background: Color? = nil, attributes: Attributes = []) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// No colour, no attributes.
  public static let plain = Style()
  public static let bold = Style(attributes: .bold)
  public static let dim = Style(attributes: .dim)
  public static let reverse = Style(attributes: .reverse)
  public static let underline = Style(attributes: .underline)

  /// This style with `patch` laid over it: the patch's colours replace these where set, and its
  /// attributes are added.
  public func patched(_ patch: Style) -> Style {
    Style(
      foreground: patch.foreground ?? foreground, background: patch.background ?? background,
      attributes: attributes.union(patch.attributes))
  }

  /// The style with its foreground set.
  public func foreground(_ color: Color?) -> Style {
    var copy = self
    copy.foreground = color
    return copy
  }

  /// The style with its background set.
  public func background(_ color: Color?) -> Style {
    var copy = self
    copy.background = color
    return copy
  }

  /// The style with `extra` attributes added.
  public func adding(_ extra: Attributes) -> Style {
    var copy = self
    copy.attributes.formUnion(extra)
    return copy
  }

  /// The style without colours (attributes kept): what is drawn under `NO_COLOR`.
  public var withoutColor: Style { Style(attributes: attributes) }
}
