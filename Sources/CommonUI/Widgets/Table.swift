/// A table with a header row, columns sized by ``Constraint``s and a highlighted, scrolling
/// selection (the same ``SelectionState`` as ``List``). Cells are cut with `…`. A row may take
/// several lines (``rowHeight(_:)``): a cell's text is then split at its line breaks, one line each
/// (a round trip's two directions).
///
/// ```swift
/// Table(
///   columns: [.init("Flight", .length(8)), .init("Price", .length(10), alignment: .trailing)],
///   rows: offers.map { [$0.number, $0.price.formatted()] }, state: selection
/// ).render(in: area, into: &buffer)
/// ```
public struct Table: Widget {
  /// A column: its header, width and alignment.
  public struct Column: Hashable, Sendable {
    public var title: String
    public var width: Constraint
    public var alignment: Alignment

    public init(_ title: String, _ width: Constraint = .fill, alignment: Alignment = .leading) {
      self.title = title
      self.width = width
      self.alignment = alignment
    }
  }

  public var columns: [Column]
  public var rows: [[String]]
  public var state: SelectionState
  public var isFocused = true
  /// Lines per row, 1 or more.
  public var linesPerRow = 1

  public init(columns: [Column], rows: [[String]], state: SelectionState) {
    self.columns = columns
    self.rows = rows
    self.state = state
    self.state.count = rows.count
  }

  public func focused(_ focused: Bool) -> Table {
    var copy = self
    copy.isFocused = focused
    return copy
  }

  /// The table with `lines` lines per row (at least 1): each cell's text split at its line
  /// breaks, a line beyond `lines` not shown.
  public func rowHeight(_ lines: Int) -> Table {
    var copy = self
    copy.linesPerRow = max(1, lines)
    return copy
  }

  /// Rows of data that fit in `area` (its height less the header), each `rowHeight` lines tall.
  public static func visibleRows(in area: Rect, rowHeight: Int = 1) -> Int {
    max(0, (area.height - 1) / max(1, rowHeight))
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.height >= 1, area.width > 0 else { return }
    let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
    let visible = Self.visibleRows(in: area, rowHeight: linesPerRow)
    let overflow = rows.count > visible
    let content = overflow ? area.inset(right: 1) : area
    let cells = content.columns(columns.map(\.width), spacing: 1)
    let headerStyle = buffer.theme.accent.adding(.underline)
    for (column, rect) in zip(columns, cells) {
      Label(column.title, style: headerStyle).alignment(column.alignment).render(in: rect.row(0), into: &buffer)
    }
    let offset = SelectionState.offset(
      state.offset, selected: state.selected, count: rows.count, visibleRows: visible)
    for row in 0..<visible {
      let index = offset + row
      guard index < rows.count else { break }
      let y = body.y + row * linesPerRow
      var style = buffer.theme.base
      if index == state.selected {
        style = isFocused ? buffer.theme.selection : buffer.theme.base.adding(.bold)
        buffer.fill(Rect(x: content.x, y: y, width: content.width, height: linesPerRow), style: style)
      }
      for (columnIndex, rect) in cells.enumerated() where columnIndex < rows[index].count {
        let text = rows[index][columnIndex]
        let lines = linesPerRow == 1 ? [Substring(text)] : text.split(separator: "\n", omittingEmptySubsequences: false)
        for (line, part) in lines.prefix(linesPerRow).enumerated() {
          Label(String(part), style: style).alignment(columns[columnIndex].alignment)
            .render(in: Rect(x: rect.x, y: y + line, width: rect.width, height: 1), into: &buffer)
        }
      }
    }
    if overflow { ScrollBar(total: rows.count, offset: offset, visible: visible).render(in: body, into: &buffer) }
  }
}
