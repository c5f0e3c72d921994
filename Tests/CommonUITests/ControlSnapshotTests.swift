import CommonTesting
import Testing

@testable import CommonUI

/// Text field, button, sheet, alert, spinner, progress bar and braille canvas, snapshotted at
/// fixed sizes (re-record with `RECORD_SNAPSHOTS=1`).
@Suite struct ControlSnapshotTests {
  @Test func textField_editing() {
    var field = TextFieldState(text: "Frankfurt")
    func press(_ key: Key) -> Bool { field.handle(key) }
    #expect(field.cursor == 9)
    #expect(press(.home))
    #expect(press(.delete))
    #expect(field.text == "rankfurt")
    #expect(press(.character("F")))
    #expect(press(.end))
    #expect(press(.backspace))
    #expect(field.text == "Frankfur")
    #expect(press(.left) && field.handle(.left))
    #expect(press(.paste("a\nb")))
    #expect(field.text == "Frankfa bur")
    #expect(field.cursor == 9)
    #expect(press(.control("k")))
    #expect(field.text == "Frankfa b")
    #expect(press(.control("u")))
    #expect(field.text == "" && field.cursor == 0)
    #expect(!press(.enter))
    #expect(!press(.tab))
  }

  @Test func textField_clustersAreOneStepAndMaxLength() {
    var field = TextFieldState(text: "Zu\u{308}rich 東京", maxLength: 12)
    #expect(field.cursor == 9)
    _ = field.handle(.backspace)
    _ = field.handle(.home)
    _ = field.handle(.right)
    _ = field.handle(.right)
    _ = field.handle(.backspace)
    #expect(field.text == "Zrich 東")
    _ = field.handle(.paste("0123456789"))
    #expect(field.text.count == 12)
    #expect(field.text == "Z01234rich 東")
  }

  @Test func textField_snapshots() throws {
    struct Form: Widget {
      func render(in area: Rect, into buffer: inout Buffer) {
        let rows = area.rows([.length(1), .length(1), .length(1), .length(1), .length(1)])
        TextField("From", state: TextFieldState(text: "Frankfurt (FRA)")).labelWidth(6).focused(true)
          .render(in: rows[0], into: &buffer)
        TextField("To", state: TextFieldState()).labelWidth(6).placeholder("City or airport")
          .render(in: rows[1], into: &buffer)
        var long = TextFieldState(text: "A very long street name in 東京都 that scrolls")
        long.moveCursor(to: 30)
        TextField("Street", state: long).labelWidth(7).focused(true).render(in: rows[2], into: &buffer)
        TextField("PIN", state: TextFieldState(text: "1234")).labelWidth(6).secure().render(in: rows[3], into: &buffer)
        Button("Search").render(in: rows[4], into: &buffer)
        Button("Cancel", focused: true).render(in: rows[4].inset(left: 12), into: &buffer)
      }
    }
    try assertSnapshot(of: Form(), width: 30, height: 5, named: "text-fields")
    let frame = Form().rendered(width: 30, height: 5)
    #expect(frame[x: 21, y: 0].style == .reverse)  // the cursor after "Frankfurt (FRA)"
    #expect(frame[x: 6, y: 1].style == Style(attributes: [.dim, .underline]))
  }

  @Test func sheetAndAlert() throws {
    struct Screen: Widget {
      var alert: Bool
      func render(in area: Rect, into buffer: inout Buffer) {
        for row in 0..<area.height { buffer.write(String(repeating: "behind ", count: 8), x: 0, y: row, style: .plain) }
        if alert {
          Alert(title: "Missing Data", message: "First Name is missing", buttons: ["OK"]).render(
            in: area, into: &buffer)
        } else {
          let sheet = Sheet(title: "Edit profile", width: 30, height: 6)
          sheet.render(in: area, into: &buffer)
          let inner = sheet.contentArea(in: area)
          TextField("First", state: TextFieldState(text: "Ada")).focused(true).render(in: inner.row(0), into: &buffer)
          Button("Save").render(in: inner.row(2), into: &buffer)
        }
      }
    }
    try assertSnapshot(of: Screen(alert: false), width: 40, height: 10, named: "sheet")
    try assertSnapshot(of: Screen(alert: true), width: 40, height: 10, named: "alert")
    try assertSnapshot(
      of: Alert(
        AlertContent(
          title: "Cancel trip?",
          message:
            "Your hotel in Lisbon from 12 to 15 March will be cancelled. The refund goes to the card ending 4242.",
          buttons: ["Keep", "Cancel trip"]), selected: 1),
      width: 60, height: 12, named: "alert-long")
  }

  @Test func spinnerAndProgress() throws {
    struct Progress: Widget {
      func render(in area: Rect, into buffer: inout Buffer) {
        Spinner("Searching flights…", frame: 3).render(in: area.row(0), into: &buffer)
        ProgressBar(fraction: 0).render(in: area.row(1), into: &buffer)
        ProgressBar(fraction: 0.423).render(in: area.row(2), into: &buffer)
        ProgressBar(fraction: 1).render(in: area.row(3), into: &buffer)
        ProgressBar(fraction: 0.5, label: "3 of 6 rooms").render(in: area.row(4), into: &buffer)
      }
    }
    try assertSnapshot(of: Progress(), width: 30, height: 5, named: "progress")
    #expect(Spinner("x", frame: 13).rendered(width: 3, height: 1).plainText == "⠸ x")
  }

  @Test func brailleCanvas_dotsLinesAndLabels() throws {
    var canvas = BrailleCanvas(width: 12, height: 4)
    canvas.line(fromDot: (0, 0), toDot: (23, 15))
    canvas.line(fromDot: (0, 15), toDot: (23, 0))
    for x in 0..<24 { canvas.set(dotX: x, dotY: 7) }
    canvas.set(dotX: 99, dotY: 99)
    canvas.label("X", x: 11, y: 0)
    #expect(canvas.isSet(dotX: 0, dotY: 0))
    #expect(!canvas.isSet(dotX: 1, dotY: 0))
    try assertSnapshot(of: canvas, width: 12, height: 4, named: "canvas")
    var single = BrailleCanvas(width: 1, height: 1)
    for y in 0..<4 { for x in 0..<2 { single.set(dotX: x, dotY: y) } }
    #expect(single.rendered(width: 1, height: 1).plainText == "⣿")
    var one = BrailleCanvas(width: 1, height: 1)
    one.set(dotX: 1, dotY: 3)
    #expect(one.rendered(width: 1, height: 1).plainText == "⢀")
  }
}
