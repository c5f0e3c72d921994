/// Turns frames into ANSI escape sequences, writing only what changed since the previous frame:
/// for each changed cell a cursor move (CUP, skipped when the cursor is already there) and an SGR
/// style change (skipped when the style is the current one), then the cell's text.
///
/// The first frame, a frame of another size, or one after ``invalidate()`` clears the screen and
/// writes every cell. Colours are dropped when `useColor` is false (`NO_COLOR`, `--no-color`);
/// bold, dim, underline and reverse stay.
public struct ANSIRenderer: Sendable {
  /// Whether SGR colour codes are written.
  public var useColor: Bool
  private var previous: Buffer?

  public init(useColor: Bool) { self.useColor = useColor }

  /// Forget the screen: the next frame is written in full.
  public mutating func invalidate() { previous = nil }

  /// The escape sequences that turn the previous frame into `buffer` (empty when nothing changed).
  public mutating func render(_ buffer: Buffer) -> String {
    var out = ""
    let full = previous?.area != buffer.area
    if full { out += "\u{1B}[0m\u{1B}[2J" }
    var cursor: (x: Int, y: Int)? = nil
    var current: Style? = nil
    let width = buffer.area.width
    let cells = buffer.cells
    let old = full ? nil : previous?.cells
    for row in 0..<buffer.area.height {
      for column in 0..<width {
        let index = row * width + column
        let cell = cells[index]
        if let old, old[index] == cell { continue }
        if cell.isContinuation { continue }
        if cursor == nil || cursor! != (column, row) {
          out += "\u{1B}[\(row + 1);\(column + 1)H"
        }
        let style = useColor ? cell.style : cell.style.withoutColor
        if current != style {
          out += Self.sgr(style)
          current = style
        }
        out += cell.symbol
        cursor = (column + max(1, DisplayWidth.of(cell.symbol)), row)
      }
    }
    previous = buffer
    return out
  }

  /// The SGR sequence that sets exactly `style` (a reset, then attributes and colours).
  public static func sgr(_ style: Style) -> String {
    var codes = ["0"]
    let attributes = style.attributes
    if attributes.contains(.bold) { codes.append("1") }
    if attributes.contains(.dim) { codes.append("2") }
    if attributes.contains(.italic) { codes.append("3") }
    if attributes.contains(.underline) { codes.append("4") }
    if attributes.contains(.reverse) { codes.append("7") }
    if let color = style.foreground { codes.append(code(color, foreground: true)) }
    if let color = style.background { codes.append(code(color, foreground: false)) }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  private static func code(_ color: Color, foreground: Bool) -> String {
    switch color {
    case .ansi(let n):
      let n = Int(n % 16)
      return n < 8 ? "\((foreground ? 30 : 40) + n)" : "\((foreground ? 90 : 100) + n - 8)"
    case .indexed(let n): return "\(foreground ? 38 : 48);5;\(n)"
    case .rgb(let r, let g, let b): return "\(foreground ? 38 : 48);2;\(r);\(g);\(b)"
    }
  }
}
