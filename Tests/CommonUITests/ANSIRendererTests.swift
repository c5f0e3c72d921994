import Testing

@testable import CommonUI

@Suite struct ANSIRendererTests {
  @Test func firstFrame_clearsAndWritesEveryCell() {
    var renderer = ANSIRenderer(useColor: true)
    var buffer = Buffer(width: 3, height: 2)
    buffer.write("ab", x: 0, y: 0, style: .plain)
    let out = renderer.render(buffer)
    #expect(out == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0mab \u{1B}[2;1H   ")
  }

  @Test func oneCellChange_writesOnlyThatCell() {
    var renderer = ANSIRenderer(useColor: true)
    var buffer = Buffer(width: 20, height: 5)
    buffer.write("Departures", x: 0, y: 0, style: .plain)
    _ = renderer.render(buffer)
    buffer.set(x: 3, y: 1, Cell("x", style: .bold))
    #expect(renderer.render(buffer) == "\u{1B}[2;4H\u{1B}[0;1mx")
  }

  @Test func unchangedFrame_writesNothing() {
    var renderer = ANSIRenderer(useColor: true)
    let buffer = Buffer(width: 10, height: 3)
    _ = renderer.render(buffer)
    #expect(renderer.render(buffer) == "")
  }

  @Test func adjacentChanges_shareOneCursorMoveAndStyle() {
    var renderer = ANSIRenderer(useColor: true)
    var buffer = Buffer(width: 10, height: 2)
    _ = renderer.render(buffer)
    buffer.write("hey", x: 2, y: 1, style: .plain)
    #expect(renderer.render(buffer) == "\u{1B}[2;3H\u{1B}[0mhey")
  }

  @Test func wideCharacter_skipsItsContinuationCell() {
    var renderer = ANSIRenderer(useColor: true)
    var buffer = Buffer(width: 6, height: 1)
    _ = renderer.render(buffer)
    buffer.write("東a", x: 1, y: 0, style: .plain)
    #expect(renderer.render(buffer) == "\u{1B}[1;2H\u{1B}[0m東a")
  }

  @Test func resizeOrInvalidate_redrawsEverything() {
    var renderer = ANSIRenderer(useColor: true)
    _ = renderer.render(Buffer(width: 2, height: 1))
    #expect(renderer.render(Buffer(width: 3, height: 1)).hasPrefix("\u{1B}[0m\u{1B}[2J"))
    renderer.invalidate()
    #expect(renderer.render(Buffer(width: 3, height: 1)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0m   ")
  }

  @Test func colours_andNoColor() {
    let style = Style(foreground: .rgb(1, 2, 3), background: .red, attributes: [.bold, .reverse])
    #expect(ANSIRenderer.sgr(style) == "\u{1B}[0;1;7;38;2;1;2;3;41m")
    #expect(ANSIRenderer.sgr(Style(foreground: .ansi(9), background: .indexed(200))) == "\u{1B}[0;91;48;5;200m")
    var renderer = ANSIRenderer(useColor: false)
    var buffer = Buffer(width: 1, height: 1)
    buffer.set(x: 0, y: 0, Cell("x", style: style))
    #expect(renderer.render(buffer) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;1;7mx")
  }
}
