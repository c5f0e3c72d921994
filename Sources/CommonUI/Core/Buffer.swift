/// One terminal cell: the grapheme cluster drawn there and its style.
///
/// A wide character (CJK, emoji) occupies two cells: the first holds the character, the second
/// is a *continuation* cell whose `symbol` is empty; backends skip continuation cells.
public struct Cell: Hashable, Sendable {
  /// The grapheme cluster drawn in the cell; `""` for the second half of a wide character.
  public var symbol: String
  public var style: Style

  public init(_ symbol: String = " ", style: Style = .plain) {
    self.symbol = symbol
    self.style = style
  }

  /// A space without style.
  public static let blank = Cell()

  /// Whether this is the second half of a wide character.
  public var isContinuation: Bool { symbol.isEmpty }
}

/// A rectangle of ``Cell``s that views draw into (immediate mode: each frame is drawn from scratch
/// into a fresh buffer, and a backend shows it).
///
/// The buffer also carries the ``Theme`` of the frame, so views take their colours from
/// `buffer.theme` and a theme change (appearance, `NO_COLOR`) is simply the next frame.
/// Writes outside ``area`` are ignored: a view can never draw outside the buffer.
public struct Buffer: Sendable {
  /// The cells' rectangle (usually at the origin, the size of the terminal).
  public let area: Rect
  /// Cells row by row, `area.width * area.height` of them.
  public private(set) var cells: [Cell]
  /// The colours and styles views draw with.
  public var theme: Theme

  /// A buffer of blank cells painted with the theme's base style.
  public init(area: Rect, theme: Theme = .monochrome) {
    self.area = area
    self.theme = theme
    self.cells = Array(repeating: Cell(" ", style: theme.base), count: area.width * area.height)
  }

  /// A `width` × `height` buffer at the origin.
  public init(width: Int, height: Int, theme: Theme = .monochrome) {
    self.init(area: Rect(width: width, height: height), theme: theme)
  }

  @inline(__always)
  func index(_ x: Int, _ y: Int) -> Int? {
    guard x >= area.x, x < area.right, y >= area.y, y < area.bottom else { return nil }
    return (y - area.y) * area.width + (x - area.x)
  }

  /// The cell at column `x`, row `y` (a blank cell outside the area).
  public subscript(x x: Int, y y: Int) -> Cell {
    guard let i = index(x, y) else { return .blank }
    return cells[i]
  }

  /// Replaces one cell. Overwriting half of a wide character blanks its other half, so no
  /// half-characters are ever left on screen. Ignored outside the area.
  public mutating func set(x: Int, y: Int, _ cell: Cell) {
    guard let i = index(x, y) else { return }
    let old = cells[i]
    if old.isContinuation, x > area.x, !cell.isContinuation {
      cells[i - 1].symbol = " "
    }
    if !old.isContinuation, x + 1 < area.right, cells[i + 1].isContinuation {
      cells[i + 1].symbol = " "
    }
    cells[i] = cell
  }

  /// Changes the style of the cell at (x, y), keeping its symbol.
  public mutating func setStyle(x: Int, y: Int, _ style: Style) {
    guard let i = index(x, y) else { return }
    cells[i].style = style
  }

  /// Lays `style` over every cell of `rect` (see ``Style/patched(_:)``), keeping symbols.
  public mutating func patchStyle(_ rect: Rect, _ style: Style) {
    let clipped = rect.intersection(area)
    for y in clipped.y..<clipped.bottom {
      for x in clipped.x..<clipped.right {
        let i = index(x, y)!
        cells[i].style = cells[i].style.patched(style)
      }
    }
  }

  /// Fills `rect` with `symbol` (one narrow character) in `style`.
  public mutating func fill(_ rect: Rect, symbol: String = " ", style: Style) {
    let clipped = rect.intersection(area)
    guard !clipped.isEmpty else { return }
    for y in clipped.y..<clipped.bottom {
      for x in clipped.x..<clipped.right { set(x: x, y: y, Cell(symbol, style: style)) }
    }
  }

  /// Blanks `rect` with the theme's base style.
  public mutating func clear(_ rect: Rect) { fill(rect, style: theme.base) }

  /// Writes `text` from column `x` on row `y`, at most `maxWidth` columns (default: to the right
  /// edge of the buffer), cutting it with `…` when it does not fit. Control characters are not
  /// drawn; zero-width clusters are skipped; wide characters take two cells.
  /// - Returns: the number of columns written.
  @discardableResult
  public mutating func write(_ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style) -> Int {
    let limit = min(maxWidth ?? Int.max, area.right - x)
    guard limit > 0, y >= area.y, y < area.bottom else { return 0 }
    let shown = DisplayWidth.truncate(text, to: limit)
    var column = x
    for character in shown {
      let width = DisplayWidth.of(character)
      guard width > 0 else { continue }
      set(x: column, y: y, Cell(String(character), style: style))
      if width == 2 { set(x: column + 1, y: y, Cell("", style: style)) }
      column += width
    }
    return column - x
  }

  /// Writes a line of styled spans (see ``Line``) from (x, y), at most `maxWidth` columns, cut
  /// with `…` (in the style of the span it cuts) when it does not fit.
  /// - Returns: the number of columns written.
  @discardableResult
  public mutating func write(_ line: Line, x: Int, y: Int, maxWidth: Int? = nil) -> Int {
    let limit = min(maxWidth ?? Int.max, area.right - x)
    guard limit > 0, y >= area.y, y < area.bottom else { return 0 }
    let fits = line.width <= limit
    var column = x
    for span in line.spans {
      for character in span.text {
        let width = DisplayWidth.of(character)
        guard width > 0 else { continue }
        if !fits, column - x + width > limit - 1 {
          set(x: column, y: y, Cell("…", style: span.style))
          return column + 1 - x
        }
        set(x: column, y: y, Cell(String(character), style: span.style))
        if width == 2 { set(x: column + 1, y: y, Cell("", style: span.style)) }
        column += width
      }
    }
    return column - x
  }

  /// The buffer as plain text: one line per row, trailing spaces removed, styles dropped.
  /// This is what the test backend and text snapshots show.
  public var plainText: String {
    var lines: [String] = []
    lines.reserveCapacity(area.height)
    for row in 0..<area.height {
      var line = ""
      for column in 0..<area.width {
        let cell = cells[row * area.width + column]
        line += cell.symbol
      }
      while line.last == " " { line.removeLast() }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
