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
    var out: [UInt8] = []
    let full = previous?.area != buffer.area
    if full {
      out.reserveCapacity(buffer.cells.count * 2 + 64)
      out.append(contentsOf: "\u{1B}[0m\u{1B}[2J".utf8)
    }
    var cursorX = -1
    var cursorY = -1
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
        if cursorX != column || cursorY != row {
          out.append(0x1B)
          out.append(UInt8(ascii: "["))
          Self.appendNumber(row + 1, to: &out)
          out.append(UInt8(ascii: ";"))
          Self.appendNumber(column + 1, to: &out)
          out.append(UInt8(ascii: "H"))
        }
        let style = useColor ? cell.style : cell.style.withoutColor
        if current != style {
          out.append(contentsOf: Self.sgr(style).utf8)
          current = style
        }
        let bytes = cell.symbol.utf8
        out.append(contentsOf: bytes)
        cursorX = column + (bytes.count == 1 ? 1 : max(1, DisplayWidth.of(cell.symbol)))
        cursorY = row
      }
    }
    previous = buffer
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendNumber(_ value: Int, to out: inout [UInt8]) {
    if value >= 10 { appendNumber(value / 10, to: &out) }
    out.append(UInt8(ascii: "0") + UInt8(value % 10))
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
