import Common

/// One line of text, cut with `…` when it is wider than its area; aligned in it.
///
/// ```swift
/// Label("Flights", style: buffer.theme.accent).alignment(.center).render(in: row, into: &buffer)
/// ```
public struct Label: Widget {
  public var line: Line
  public var alignment: Alignment = .leading

  /// `text` in English; shown in the current language when a table has it (``L(english:)``).
  public init(_ text: String, style: Style = .plain) { self.line = Line(L(english: text), style: style) }
  public init(_ line: Line) { self.line = line }

  public func alignment(_ alignment: Alignment) -> Label {
    var copy = self
    copy.alignment = alignment
    return copy
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let width = min(line.width, area.width)
    let x =
      switch alignment {
      case .leading: area.x
      case .center: area.x + (area.width - width) / 2
      case .trailing: area.right - width
      }
    buffer.write(line, x: x, y: area.y, maxWidth: area.right - x)
  }
}

/// Several lines of text, word-wrapped to the area's width (words longer than a line are cut with
/// `…`); lines beyond the area's height are dropped, the last shown one ending in `…`.
public struct Paragraph: Widget {
  public var text: String
  public var style: Style
  public var alignment: Alignment = .leading

  /// `text` in English; shown in the current language when a table has it (``L(english:)``).
  public init(_ text: String, style: Style = .plain) {
    self.text = L(english: text)
    self.style = style
  }

  public func alignment(_ alignment: Alignment) -> Paragraph {
    var copy = self
    copy.alignment = alignment
    return copy
  }

  /// `text` wrapped to `width` columns: paragraphs split on newlines, then on spaces.
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var current = ""
      var currentWidth = 0
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        let wordWidth = DisplayWidth.of(word)
        if currentWidth == 0 {
          current = String(word)
          currentWidth = wordWidth
        } else if currentWidth + 1 + wordWidth <= width {
          current += " " + word
          currentWidth += 1 + wordWidth
        } else {
          lines.append(current)
          current = String(word)
          currentWidth = wordWidth
        }
      }
      lines.append(current)
    }
    return lines
  }

  /// Rows the text needs at `width` columns.
  public func height(forWidth width: Int) -> Int { Self.wrap(text, width: width).count }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    var lines = Self.wrap(text, width: area.width)
    if lines.count > area.height {
      lines = Array(lines.prefix(area.height))
      // Pad past the edge so the cut puts `…` in the last column: more text follows.
      lines[lines.count - 1] = DisplayWidth.truncate(
        lines[lines.count - 1] + String(repeating: " ", count: area.width + 1), to: area.width)
    }
    for (row, line) in lines.enumerated() {
      Label(line, style: style).alignment(alignment).render(in: area.row(row), into: &buffer)
    }
  }
}

/// A box: a border (rounded corners) with an optional title on the top edge, clearing its inside.
/// ``inner(_:)`` gives the area inside the border for the contents.
public struct Block: Widget {
  public var title: String?
  public var style: Style?
  public var titleStyle: Style?
  public var clears = true

  public init(title: String? = nil) { self.title = title.map { L(english: $0) } }

  /// The border's style (default: `theme.border`).
  public func style(_ style: Style) -> Block {
    var copy = self
    copy.style = style
    return copy
  }

  /// The title's style (default: `theme.accent`).
  public func titleStyle(_ style: Style) -> Block {
    var copy = self
    copy.titleStyle = style
    return copy
  }

  /// The area inside the border.
  public func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.width >= 2, area.height >= 2 else { return }
    let border = style ?? buffer.theme.border
    if clears { buffer.clear(area) }
    let right = area.right - 1
    let bottom = area.bottom - 1
    for x in area.x + 1..<right {
      buffer.set(x: x, y: area.y, Cell("─", style: border))
      buffer.set(x: x, y: bottom, Cell("─", style: border))
    }
    for y in area.y + 1..<bottom {
      buffer.set(x: area.x, y: y, Cell("│", style: border))
      buffer.set(x: right, y: y, Cell("│", style: border))
    }
    buffer.set(x: area.x, y: area.y, Cell("╭", style: border))
    buffer.set(x: right, y: area.y, Cell("╮", style: border))
    buffer.set(x: area.x, y: bottom, Cell("╰", style: border))
    buffer.set(x: right, y: bottom, Cell("╯", style: border))
    if let title, area.width > 4 {
      buffer.write(
        " \(title) ", x: area.x + 1, y: area.y, maxWidth: area.width - 2, style: titleStyle ?? buffer.theme.accent)
    }
  }
}
