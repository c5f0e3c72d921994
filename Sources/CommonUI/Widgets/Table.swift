/// A table with a header row, columns sized by ``Constraint``s and a highlighted, scrolling
/// selection (the same ``SelectionState`` as ``List``). Cells are cut with `…`.
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

  /// Rows of data that fit in `area` (its height less the header).
  public static func visibleRows(in area: Rect) -> Int { max(0, area.height - 1) }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.height >= 1, area.width > 0 else { return }
    let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
    let overflow = rows.count > body.height
    let content = overflow ? area.inset(right: 1) : area
    let cells = content.columns(columns.map(\.width), spacing: 1)
    let headerStyle = buffer.theme.accent.adding(.underline)
    for (column, rect) in zip(columns, cells) {
      Label(column.title, style: headerStyle).alignment(column.alignment).render(in: rect.row(0), into: &buffer)
    }
    let offset = SelectionState.offset(
      state.offset, selected: state.selected, count: rows.count, visibleRows: body.height)
    for row in 0..<body.height {
      let index = offset + row
      guard index < rows.count else { break }
      let y = body.y + row
      var style = buffer.theme.base
      if index == state.selected {
        style = isFocused ? buffer.theme.selection : buffer.theme.base.adding(.bold)
        buffer.fill(Rect(x: content.x, y: y, width: content.width, height: 1), style: style)
      }
      for (columnIndex, rect) in cells.enumerated() where columnIndex < rows[index].count {
        Label(rows[index][columnIndex], style: style).alignment(columns[columnIndex].alignment)
          .render(in: Rect(x: rect.x, y: y, width: rect.width, height: 1), into: &buffer)
      }
    }
    if overflow { ScrollBar(total: rows.count, offset: offset, visible: body.height).render(in: body, into: &buffer) }
  }
}
