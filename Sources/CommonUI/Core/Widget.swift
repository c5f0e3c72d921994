/// Something that draws itself into a rectangle of a ``Buffer``: a widget, a shared view or a
/// feature's view. Views are value types built fresh each frame from state (immediate mode, as in
/// ratatui); they keep no state between frames and must not draw outside `area`.
public protocol Widget {
  /// Draws into `area` of `buffer`, with the colours of `buffer.theme`.
  func render(in area: Rect, into buffer: inout Buffer)
}

extension Widget {
  /// Renders the view alone into a fresh `width` × `height` buffer (for tests and previews).
  public func rendered(width: Int, height: Int, theme: Theme = .monochrome) -> Buffer {
    var buffer = Buffer(width: width, height: height, theme: theme)
    render(in: buffer.area, into: &buffer)
    return buffer
  }
}

/// A run of text in one style.
public struct Span: Hashable, Sendable, ExpressibleByStringLiteral {
  public var text: String
  public var style: Style

  public init(_ text: String, style: Style = .plain) {
    self.text = text
    self.style = style
  }

  public init(stringLiteral value: String) { self.init(value) }
}

/// One line of text made of styled spans.
public struct Line: Hashable, Sendable, ExpressibleByStringLiteral {
  public var spans: [Span]

  public init(_ spans: [Span]) { self.spans = spans }
  public init(_ text: String, style: Style = .plain) { self.spans = [Span(text, style: style)] }
  public init(stringLiteral value: String) { self.init(value) }

  /// Display width in columns.
  public var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }
  /// The text without styles.
  public var plainText: String { spans.map(\.text).joined() }
}

/// Horizontal placement of text in its area.
public enum Alignment: Hashable, Sendable {
  case leading, center, trailing
}
