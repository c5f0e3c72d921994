extension Buffer {
  /// The buffer as lines of text for a command's standard output (no cursor movement): each
  /// style change as an SGR sequence when `useColor`, a reset at the end of every line that used
  /// one; trailing blanks without style are dropped. Without colour, attributes (bold, reverse)
  /// are dropped too and this is ``plainText``.
  public func styledText(useColor: Bool) -> String {
    guard useColor else { return plainText }
    var lines: [String] = []
    lines.reserveCapacity(area.height)
    for row in 0..<area.height {
      var line = ""
      var current = Style.plain
      var styled = false
      var cells = Array(cells[(row * area.width)..<((row + 1) * area.width)])
      while let last = cells.last, last.symbol == " ", last.style == .plain || last.style == theme.base {
        cells.removeLast()
      }
      for cell in cells where !cell.isContinuation {
        if cell.style != current {
          line += ANSIRenderer.sgr(cell.style)
          current = cell.style
          styled = true
        }
        line += cell.symbol
      }
      if styled { line += "\u{1B}[0m" }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
