/// A canvas of braille dots: each cell is a 2 × 4 grid of dots (Unicode braille patterns
/// U+2800–U+28FF), so a `w` × `h` cell area has `2w` × `4h` dots. Dots are set by dot coordinates
/// (origin top left); each cell keeps the style of
/// the last dot set in it. Out-of-range dots are ignored. Text labels can be laid on top, and a
/// cell can be given a fill (``fill(cellX:cellY:style:)``): its background shows behind the
/// cell's dots and labels, and an empty filled cell is drawn as a blank in that style.
///
/// Drawing is plain array work (a bit set per cell), so 100,000 points cost about as much as
/// 100,000 integer multiplications.
public struct BrailleCanvas: Widget {
  /// Size in cells.
  public let width: Int
  public let height: Int
  private var dots: [UInt8]
  private var styles: [Style?]
  private var fills: [Style?]
  private var labels: [(x: Int, y: Int, text: String, style: Style?)] = []

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    dots = Array(repeating: 0, count: self.width * self.height)
    styles = Array(repeating: nil, count: self.width * self.height)
    fills = Array(repeating: nil, count: self.width * self.height)
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

  /// The dots of cell (`x`, `y`) as a braille bit pattern (0: none; 0 outside the canvas).
  public func pattern(cellX x: Int, cellY y: Int) -> UInt8 {
    guard x >= 0, y >= 0, x < width, y < height else { return 0 }
    return dots[y * width + x]
  }

  /// Gives cell (`x`, `y`) a fill: its background colours the cell behind dots and labels; an
  /// empty cell is drawn as a blank in `style`.
  public mutating func fill(cellX x: Int, cellY y: Int, style: Style) {
    guard x >= 0, y >= 0, x < width, y < height else { return }
    fills[y * width + x] = style
  }

  /// A straight line between two points in dot coordinates (fractions allowed, anywhere: the
  /// line is clipped to the canvas first, Liang–Barsky), drawn with Bresenham; `dotted` sets
  /// every other dot.
  public mutating func line(
    from start: (x: Double, y: Double), to end: (x: Double, y: Double), style: Style? = nil, dotted: Bool = false
  ) {
    var t0 = 0.0
    var t1 = 1.0
    let dx = end.x - start.x
    let dy = end.y - start.y
    let maxX = Double(dotWidth) - 1e-6
    let maxY = Double(dotHeight) - 1e-6
    for (p, q) in [(-dx, start.x), (dx, maxX - start.x), (-dy, start.y), (dy, maxY - start.y)] {
      if p == 0 {
        if q < 0 { return }
      } else {
        let r = q / p
        if p < 0 {
          if r > t1 { return }
          if r > t0 { t0 = r }
        } else {
          if r < t0 { return }
          if r < t1 { t1 = r }
        }
      }
    }
    var x = Int(start.x + t0 * dx)
    var y = Int(start.y + t0 * dy)
    let endX = Int(start.x + t1 * dx)
    let endY = Int(start.y + t1 * dy)
    let stepX = abs(endX - x)
    let stepY = -abs(endY - y)
    let sx = x < endX ? 1 : -1
    let sy = y < endY ? 1 : -1
    var error = stepX + stepY
    var count = 0
    while true {
      if !dotted || count & 1 == 0 { set(dotX: x, dotY: y, style: style) }
      count += 1
      if x == endX && y == endY { break }
      let e2 = 2 * error
      if e2 >= stepY {
        error += stepY
        x += sx
      }
      if e2 <= stepX {
        error += stepX
        y += sy
      }
    }
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

  /// `style` drawn on a cell filled with `fill`: the fill's background, the style's colour and attributes.
  private static func over(_ fill: Style?, _ style: Style) -> Style {
    guard let background = fill?.background else { return style }
    return Style(foreground: style.foreground, background: background, attributes: style.attributes)
  }

  /// Number of cells with at least one dot.
  public var filledCells: Int { dots.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let rows = min(height, area.height)
    let columns = min(width, area.width)
    guard rows > 0, columns > 0 else { return }
    let base = buffer.theme.base
    for row in 0..<rows {
      for column in 0..<columns {
        let index = row * width + column
        let pattern = dots[index]
        guard pattern != 0 else {
          if let fill = fills[index] { buffer.set(x: area.x + column, y: area.y + row, Cell(" ", style: fill)) }
          continue
        }
        let symbol = String(Character(Unicode.Scalar(0x2800 + UInt32(pattern))!))
        let style = Self.over(fills[index], styles[index] ?? base)
        buffer.set(x: area.x + column, y: area.y + row, Cell(symbol, style: style))
      }
    }
    for label in labels where label.y >= 0 && label.y < rows && label.x < columns {
      let x = max(0, label.x)
      let style = Self.over(fills[label.y * width + min(x, width - 1)], label.style ?? base)
      buffer.write(label.text, x: area.x + x, y: area.y + label.y, maxWidth: columns - x, style: style)
    }
  }
}
