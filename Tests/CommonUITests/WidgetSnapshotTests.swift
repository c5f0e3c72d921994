import CommonTesting
import Testing

@testable import CommonUI

/// Each widget rendered at a fixed size through the text backend and compared with
/// `__Snapshots__/WidgetSnapshotTests/<name>.txt` (re-record with `RECORD_SNAPSHOTS=1`).
@Suite struct WidgetSnapshotTests {
  /// Draws `widget` inside a titled box so the snapshot shows the widget's bounds.
  struct Framed<Content: Widget>: Widget {
    var content: Content
    func render(in area: Rect, into buffer: inout Buffer) {
      Block().render(in: area, into: &buffer)
      content.render(in: area.inset(by: 1), into: &buffer)
    }
  }

  @Test func label_alignmentsAndCut() throws {
    struct Labels: Widget {
      func render(in area: Rect, into buffer: inout Buffer) {
        let rows = area.rows([.length(1), .length(1), .length(1), .length(1), .length(1)])
        Label("leading").render(in: rows[0], into: &buffer)
        Label("center").alignment(.center).render(in: rows[1], into: &buffer)
        Label("trailing").alignment(.trailing).render(in: rows[2], into: &buffer)
        Label("München → 東京 (NRT) 😀 a long way").render(in: rows[3], into: &buffer)
        Label("Cafe\u{301} crème brûlée").render(in: rows[4], into: &buffer)
      }
    }
    try assertSnapshot(of: Framed(content: Labels()), width: 22, height: 7, named: "label")
  }

  @Test func paragraph_wrapsAndCutsOverflow() throws {
    let text = "Your booking is confirmed. The PNR is ABC123; keep it for check-in.\nSee you soon."
    try assertSnapshot(of: Framed(content: Paragraph(text)), width: 24, height: 6, named: "paragraph-cut")
    try assertSnapshot(of: Framed(content: Paragraph(text)), width: 24, height: 9, named: "paragraph")
  }

  @Test func block_title() throws {
    try assertSnapshot(of: Block(title: "Search flights"), width: 24, height: 4, named: "block")
    try assertSnapshot(of: Block(title: "A title far too long for it"), width: 14, height: 3, named: "block-cut")
  }

  @Test func tabs_selectedAndCut() throws {
    let tabs = Tabs(["Flights", "Hotels", "Cars", "Account"], selected: 1)
    try assertSnapshot(of: tabs, width: 44, height: 1, named: "tabs")
    try assertSnapshot(of: tabs, width: 20, height: 1, named: "tabs-narrow")
    let selected = tabs.rendered(width: 44, height: 1)
    #expect(selected[x: 11, y: 0].style == .reverse)
    #expect(selected[x: 1, y: 0].style == .plain)
  }

  @Test func list_scrollsToKeepSelectionVisible() throws {
    let cities = ["Amsterdam", "Berlin", "Copenhagen", "Dublin", "Edinburgh", "Frankfurt am Main", "Genève", "東京"]
    var state = SelectionState(count: cities.count)
    try assertSnapshot(of: Framed(content: List(cities, state: state)), width: 18, height: 6, named: "list-top")
    for _ in 0..<6 { _ = state.handle(.down, visibleRows: 4) }
    #expect(state.selected == 6)
    #expect(state.offset == 3)
    try assertSnapshot(of: Framed(content: List(cities, state: state)), width: 18, height: 6, named: "list-scrolled")
    _ = state.handle(.up, visibleRows: 4)
    _ = state.handle(.up, visibleRows: 4)
    #expect(state.offset == 3)
    _ = state.handle(.home, visibleRows: 4)
    #expect(state.offset == 0)
    _ = state.handle(.end, visibleRows: 4)
    try assertSnapshot(of: Framed(content: List(cities, state: state)), width: 18, height: 6, named: "list-end")
    try assertSnapshot(of: List([String](), state: SelectionState()), width: 10, height: 2, named: "list-empty")
  }

  @Test func selectionState_clampsAndHandlesEmpty() {
    var state = SelectionState(count: 3, selected: 7)
    #expect(state.selected == 2)
    state.count = 0
    #expect(state.selected == nil)
    let usedDown = state.handle(.down, visibleRows: 3)
    #expect(usedDown)
    #expect(state.selected == nil)
    let usedEnter = state.handle(.enter, visibleRows: 3)
    #expect(!usedEnter)
    state.count = 30
    _ = state.handle(.pageDown, visibleRows: 10)
    #expect(state.selected == 9)
  }

  @Test func table_headerColumnsAndSelection() throws {
    let columns = [
      Table.Column("Flight", .length(7)), Table.Column("From → To", .fill),
      Table.Column("Price", .length(10), alignment: .trailing),
    ]
    let rows = [
      ["LH 400", "FRA → JFK", "612.00 EUR"], ["UA 901", "FRA → SFO 旧金山", "1,040.50 USD"],
      ["NH 204", "FRA → HND 東京羽田空港", "98,000 JPY"], ["AF 1019", "CDG → FRA", "120.00 EUR"],
      ["BA 903", "LHR → FRA", "88.00 GBP"],
    ]
    var state = SelectionState(count: rows.count)
    state.select(1)
    let table = Table(columns: columns, rows: rows, state: state)
    try assertSnapshot(of: Framed(content: table), width: 40, height: 8, named: "table")
    state.select(4)
    state.scroll(visibleRows: 3)
    try assertSnapshot(
      of: Framed(content: Table(columns: columns, rows: rows, state: state)), width: 40, height: 6,
      named: "table-scrolled")
  }

  /// Rows of two lines (a round trip's directions): each cell split at its line break, the
  /// selection filling both lines, scrolling by whole rows.
  @Test func table_rowsOfTwoLines() throws {
    let columns: [Table.Column] = [.init("Times", .fill), .init("Price", .length(8), alignment: .trailing)]
    let rows = (1...4).map { ["07:0\($0) SFO → JFK\n18:0\($0) JFK → SFO", "$\($0)00.00"] }
    var state = SelectionState(count: rows.count)
    state.select(3)
    let area = Rect(x: 0, y: 0, width: 30, height: 6)
    #expect(Table.visibleRows(in: area, rowHeight: 2) == 2)
    state.scroll(visibleRows: Table.visibleRows(in: area, rowHeight: 2))
    try assertSnapshot(
      of: Framed(content: Table(columns: columns, rows: rows, state: state).rowHeight(2)), width: 32, height: 8,
      named: "table-two-line-rows")
  }
}
