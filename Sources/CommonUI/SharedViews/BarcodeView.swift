import Common

/// A 2D barcode drawn with half-block cells (`▀` `▄` `█` and blank): each cell shows two modules
/// stacked, so a module is half a cell tall and one cell wide — square on a terminal whose cells
/// are twice as tall as wide — and the quiet zone of the ``BarcodeSymbol`` is drawn too.
///
/// With colour, dark modules are black on white whatever the appearance (a camera needs dark on
/// light). Without colour (`NO_COLOR`), the terminal's own colours are used and the *light*
/// modules are drawn as ink, so that on the usual light-on-dark terminal the code reads dark on
/// light (as `qrencode -t UTF8` does).
///
/// `scale` draws each module `scale` cells wide and `scale` half-cells tall: larger codes for
/// phone cameras when the area allows (``largestScale(for:fitting:)``). The symbol is centred in
/// the area; a symbol that does not fit is not drawn (check ``size(of:scale:)`` first).
public struct BarcodeView: Widget {
  public var symbol: BarcodeSymbol
  public var scale: Int

  /// Dark modules in colour (black on white).
  public static let ink = Style(foreground: .rgb(0, 0, 0), background: .rgb(255, 255, 255))

  public init(_ symbol: BarcodeSymbol, scale: Int = 1) {
    self.symbol = symbol
    self.scale = max(1, scale)
  }

  /// The cells `symbol` needs at `scale`: `width` columns and `height` rows.
  public static func size(of symbol: BarcodeSymbol, scale: Int = 1) -> (width: Int, height: Int) {
    (symbol.width * scale, (symbol.height * scale + 1) / 2)
  }

  /// The largest scale (up to 4) at which `symbol` fits `width` × `height` cells, nil when it
  /// does not fit even at 1.
  public static func largestScale(for symbol: BarcodeSymbol, width: Int, height: Int) -> Int? {
    (1...4).reversed().first { scale in
      let size = size(of: symbol, scale: scale)
      return size.width <= width && size.height <= height
    }
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let size = Self.size(of: symbol, scale: scale)
    guard size.width <= area.width, size.height <= area.height else { return }
    let left = area.x + (area.width - size.width) / 2
    let originY = area.y + (area.height - size.height) / 2
    let color = buffer.theme.usesColor
    let style = color ? Self.ink : buffer.theme.base
    for row in 0..<size.height {
      for column in 0..<size.width {
        let x = column / scale
        let upper = symbol.isDark(x: x, y: (2 * row) / scale)
        let lowerUnit = 2 * row + 1
        // An odd number of half-rows leaves the last cell's lower half light (quiet zone).
        let lower = lowerUnit < symbol.height * scale && symbol.isDark(x: x, y: lowerUnit / scale)
        // Ink: dark modules in colour, light modules without colour.
        let (top, bottom) = color ? (upper, lower) : (!upper, !lower)
        let glyph = top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
        buffer.set(x: left + column, y: originY + row, Cell(glyph, style: style))
      }
    }
  }
}
