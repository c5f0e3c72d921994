/// A row of tab titles with the selected one highlighted: ` Flights │ Hotels │ Cars `.
public struct Tabs: Widget {
  public var titles: [String]
  public var selected: Int
  public var divider = "│"

  public init(_ titles: [String], selected: Int) {
    self.titles = titles
    self.selected = selected
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    var x = area.x
    for (index, title) in titles.enumerated() {
      if index > 0 {
        guard x < area.right else { return }
        x += buffer.write(divider, x: x, y: area.y, maxWidth: area.right - x, style: buffer.theme.muted)
      }
      guard x < area.right else { return }
      let style = index == selected ? buffer.theme.selection : buffer.theme.base
      x += buffer.write(" \(title) ", x: x, y: area.y, maxWidth: area.right - x, style: style)
    }
  }
}

/// The selection and scroll position of a list or table: which of `count` rows is selected and
/// which row is shown at the top. Mutated by key handling, read by ``List`` and ``Table``, kept by
/// the screen between frames.
public struct SelectionState: Hashable, Sendable {
  /// Number of rows.
  public var count: Int {
    didSet { clamp() }
  }
  /// The selected row, nil when there are no rows.
  public private(set) var selected: Int?
  /// The first row shown.
  public private(set) var offset: Int = 0

  public init(count: Int = 0, selected: Int? = 0) {
    self.count = max(0, count)
    self.selected = selected
    clamp()
  }

  private mutating func clamp() {
    if count <= 0 {
      selected = nil
      offset = 0
    } else {
      selected = min(max(selected ?? 0, 0), count - 1)
      offset = min(max(offset, 0), count - 1)
    }
  }

  /// Selects `row` (clamped to the rows).
  public mutating func select(_ row: Int) {
    guard count > 0 else { return }
    selected = min(max(row, 0), count - 1)
  }

  /// Moves the selection by `delta` rows (clamped).
  public mutating func move(by delta: Int) { select((selected ?? 0) + delta) }

  /// Handles ↑ ↓ PgUp PgDn Home End for a view showing `visibleRows` rows.
  /// - Returns: whether the key was used.
  public mutating func handle(_ key: Key, visibleRows: Int) -> Bool {
    let page = max(1, visibleRows - 1)
    switch key {
    case .up: move(by: -1)
    case .down: move(by: 1)
    case .pageUp: move(by: -page)
    case .pageDown: move(by: page)
    case .home: select(0)
    case .end: select(count - 1)
    default: return false
    }
    scroll(visibleRows: visibleRows)
    return true
  }

  /// Adjusts ``offset`` as little as possible so the selected row is among `visibleRows` rows.
  public mutating func scroll(visibleRows: Int) {
    offset = Self.offset(offset, selected: selected, count: count, visibleRows: visibleRows)
  }

  static func offset(_ offset: Int, selected: Int?, count: Int, visibleRows: Int) -> Int {
    guard visibleRows > 0, count > 0 else { return 0 }
    var result = min(offset, max(0, count - visibleRows))
    if let selected {
      if selected < result { result = selected }
      if selected >= result + visibleRows { result = selected - visibleRows + 1 }
    }
    return max(0, result)
  }
}

/// A scrolling list with a highlighted selection; a scroll bar appears in the last column when
/// there are more rows than fit. Rows are cut with `…`.
public struct List: Widget {
  public var items: [Line]
  public var state: SelectionState
  public var marker = "▸ "
  /// Whether the selection is shown highlighted (false when the list does not have focus).
  public var isFocused = true

  public init(_ items: [Line], state: SelectionState) {
    self.items = items
    self.state = state
    self.state.count = items.count
  }

  public init(_ items: [String], state: SelectionState) {
    self.init(items.map { Line($0) }, state: state)
  }

  public func focused(_ focused: Bool) -> List {
    var copy = self
    copy.isFocused = focused
    return copy
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let overflow = items.count > area.height
    let content = overflow ? area.inset(right: 1) : area
    let offset = SelectionState.offset(
      state.offset, selected: state.selected, count: items.count, visibleRows: area.height)
    let markerWidth = DisplayWidth.of(marker)
    for row in 0..<area.height {
      let index = offset + row
      guard index < items.count else { break }
      let y = area.y + row
      let isSelected = index == state.selected
      if isSelected {
        let style = isFocused ? buffer.theme.selection : buffer.theme.base.adding(.bold)
        buffer.fill(Rect(x: content.x, y: y, width: content.width, height: 1), style: style)
        buffer.write(marker, x: content.x, y: y, maxWidth: content.width, style: style)
        var line = items[index]
        line.spans = line.spans.map { Span($0.text, style: $0.style.patched(style)) }
        buffer.write(line, x: content.x + markerWidth, y: y, maxWidth: content.width - markerWidth)
      } else {
        buffer.write(items[index], x: content.x + markerWidth, y: y, maxWidth: content.width - markerWidth)
      }
    }
    if overflow { ScrollBar(total: items.count, offset: offset, visible: area.height).render(in: area, into: &buffer) }
  }
}

/// A one-column scroll bar on the right edge of an area: `│` track, `█` thumb.
public struct ScrollBar: Widget {
  /// Rows in all, the first shown, and how many are shown.
  public var total: Int
  public var offset: Int
  public var visible: Int

  public init(total: Int, offset: Int, visible: Int) {
    self.total = total
    self.offset = offset
    self.visible = visible
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.height > 0, total > visible else { return }
    let x = area.right - 1
    let thumb = max(1, area.height * visible / total)
    let start = min(area.height - thumb, (area.height - thumb) * offset / max(1, total - visible))
    for row in 0..<area.height {
      let inThumb = row >= start && row < start + thumb
      buffer.set(x: x, y: area.y + row, Cell(inThumb ? "█" : "│", style: buffer.theme.muted))
    }
  }
}
