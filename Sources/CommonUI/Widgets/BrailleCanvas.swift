/// A canvas of braille dots: each cell is a 2 × 4 grid of dots (Unicode braille patterns
/// U+2800–U+28FF), so a `w` × `h` cell area has `2w` × `4h` dots. Dots are set by dot coordinates
/// (origin top left); each cell keeps the style of
/// the last dot set in it. Out-of-range dots are ignored. Text labels can be laid on top.
///
/// Drawing is plain array work (a bit set per cell), so 100,000 points cost about as much as
/// 100,000 integer multiplications.
public struct BrailleCanvas: Widget {
  /// Size in cells.
  public let width: Int
  public let height: Int
  private var dots: [UInt8]
  private var styles: [Style?]
  private var labels: [(x: Int, y: Int, text: String, style: Style?)] = []

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    dots = Array(repeating: 0, count: self.width * self.height)
    styles = Array(repeating: nil, count: self.width * self.height)
  }

  /// Size in dots.
  public var dotWidth: Int { width * 2 }
  public var dotHeight: Int { height * 4 }

  /// Bit of dot (column 0–1, row 0–3) in a braille pattern: dots 1-2-3-7 on the left,
  /// 4-5-6-8 on the right.
  private static let bits: [UInt8] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]

  /// Sets the dot at (`x`, `y`), in dots from the top left; `style` nil keeps the cell's style.
  @inlinable
  public mutating func set(dotX x: Int, dotY y: Int, style: Style? = nil) {
    guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
    setUnchecked(x, y, style)
  }

  @usableFromInline
  mutating func setUnchecked(_ x: Int, _ y: Int, _ style: Style?) {
    let cell = (y >> 2) * width + (x >> 1)
    dots[cell] |= Self.bits[(y & 3) << 1 | (x & 1)]
    if let style { styles[cell] = style }
  }

  /// Whether the dot at (`x`, `y`) is set.
  public func isSet(dotX x: Int, dotY y: Int) -> Bool {
    guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return false }
    return dots[(y >> 2) * width + (x >> 1)] & Self.bits[(y & 3) << 1 | (x & 1)] != 0
  }

  /// A straight line of dots from one dot to another (Bresenham).
  public mutating func line(fromDot start: (x: Int, y: Int), toDot end: (x: Int, y: Int), style: Style? = nil) {
    var x = start.x
    var y = start.y
    let dx = abs(end.x - x)
    let dy = -abs(end.y - y)
    let sx = x < end.x ? 1 : -1
    let sy = y < end.y ? 1 : -1
    var error = dx + dy
    while true {
      set(dotX: x, dotY: y, style: style)
      if x == end.x && y == end.y { break }
      let e2 = 2 * error
      if e2 >= dy {
        error += dy
        x += sx
      }
      if e2 <= dx {
        error += dx
        y += sy
      }
    }
  }

  /// Lays text over the canvas at cell (`x`, `y`) (cut at the right edge).
  public mutating func label(_ text: String, x: Int, y: Int, style: Style? = nil) {
    labels.append((x, y, text, style))
  }

  /// Number of cells with at least one dot.
  public var filledCells: Int { dots.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let rows = min(height, area.height)
    let columns = min(width, area.width)
    guard rows > 0, columns > 0 else { return }
    for row in 0..<rows {
      for column in 0..<columns {
        let index = row * width + column
        let pattern = dots[index]
        guard pattern != 0 else { continue }
        let symbol = String(Character(Unicode.Scalar(0x2800 + UInt32(pattern))!))
        buffer.set(x: area.x + column, y: area.y + row, Cell(symbol, style: styles[index] ?? buffer.theme.base))
      }
    }
    for label in labels where label.y >= 0 && label.y < rows && label.x < columns {
      buffer.write(
        label.text, x: area.x + max(0, label.x), y: area.y + label.y, maxWidth: columns - max(0, label.x),
        style: label.style ?? buffer.theme.base)
    }
  }
}
