import Testing

@testable import CommonUI

@Suite struct BufferTests {
  @Test func write_wideCharacterTakesTwoCells() {
    var buffer = Buffer(width: 6, height: 1)
    let used = buffer.write("a東b", x: 0, y: 0, style: .plain)
    #expect(used == 4)
    #expect(buffer[x: 1, y: 0].symbol == "東")
    #expect(buffer[x: 2, y: 0].isContinuation)
    #expect(buffer[x: 3, y: 0].symbol == "b")
    #expect(buffer.plainText == "a東b")
  }

  @Test func write_cutsAtMaxWidthWithEllipsis_neverSpills() {
    var buffer = Buffer(width: 10, height: 1)
    buffer.write("XXXXXXXXXX", x: 0, y: 0, style: .plain)
    buffer.write("Amsterdam Schiphol", x: 2, y: 0, maxWidth: 5, style: .plain)
    #expect(buffer.plainText == "XXAmst…XXX")
  }

  @Test func write_combiningMarksStayInTheirCell() {
    var buffer = Buffer(width: 8, height: 1)
    buffer.write("Cafe\u{301}!", x: 0, y: 0, style: .plain)
    #expect(buffer[x: 3, y: 0].symbol == "e\u{301}")
    #expect(buffer[x: 4, y: 0].symbol == "!")
  }

  @Test func set_overwritingHalfAWideCharacterBlanksTheOtherHalf() {
    var buffer = Buffer(width: 4, height: 1)
    buffer.write("東京", x: 0, y: 0, style: .plain)
    buffer.set(x: 1, y: 0, Cell("x"))
    buffer.set(x: 2, y: 0, Cell("y"))
    #expect(buffer.plainText == " xy")
  }

  @Test func writesOutsideTheAreaAreIgnored() {
    var buffer = Buffer(width: 3, height: 2)
    buffer.write("abc", x: -5, y: 0, style: .plain)
    buffer.write("abc", x: 0, y: 5, style: .plain)
    buffer.set(x: 3, y: 0, Cell("z"))
    #expect(buffer.plainText == "\n")
  }

  @Test func writeLine_keepsSpanStylesAndCuts() {
    var buffer = Buffer(width: 6, height: 1)
    let line = Line([Span("Esc", style: .bold), Span(" back", style: .dim)])
    let used = buffer.write(line, x: 0, y: 0)
    #expect(used == 6)
    #expect(buffer.plainText == "Esc b…")
    #expect(buffer[x: 0, y: 0].style == .bold)
    #expect(buffer[x: 4, y: 0].style == .dim)
    #expect(buffer[x: 5, y: 0].style == .dim)
  }

  @Test func patchStyle_addsAttributesKeepsSymbols() {
    var buffer = Buffer(width: 3, height: 1)
    buffer.write("abc", x: 0, y: 0, style: .bold)
    buffer.patchStyle(Rect(x: 1, y: 0, width: 5, height: 1), .reverse)
    #expect(buffer[x: 0, y: 0].style == .bold)
    #expect(buffer[x: 2, y: 0].style == Style(attributes: [.bold, .reverse]))
    #expect(buffer.plainText == "abc")
  }
}

@Suite struct RectTests {
  let area = Rect(x: 2, y: 1, width: 20, height: 10)

  @Test func rows_fixedThenFill() {
    let rows = area.rows([.length(1), .fill, .length(2)])
    #expect(rows.map(\.height) == [1, 7, 2])
    #expect(rows.map(\.y) == [1, 2, 9])
  }

  @Test func columns_percentageFillsAndSpacing() {
    let columns = area.columns([.percentage(50), .fill(1), .fill(1)], spacing: 1)
    #expect(columns.map(\.width) == [9, 4, 5])
    #expect(columns.map(\.x) == [2, 12, 17])
  }

  @Test func split_oversubscribedShrinksLastParts() {
    #expect(area.rows([.length(8), .length(8)]).map(\.height) == [8, 2])
    #expect(Rect(width: 0, height: 0).rows([.length(3), .fill]).map(\.height) == [0, 0])
  }

  @Test func insetAndCentered() {
    #expect(area.inset(by: 1) == Rect(x: 3, y: 2, width: 18, height: 8))
    #expect(area.inset(top: 1, left: 2) == Rect(x: 4, y: 2, width: 18, height: 9))
    #expect(area.centered(width: 10, height: 4) == Rect(x: 7, y: 4, width: 10, height: 4))
    #expect(area.centered(width: 50, height: 50) == area)
  }

  @Test func intersection() {
    #expect(area.intersection(Rect(x: 0, y: 0, width: 5, height: 5)) == Rect(x: 2, y: 1, width: 3, height: 4))
    #expect(area.intersection(Rect(x: 50, y: 50, width: 5, height: 5)).isEmpty)
  }
}
