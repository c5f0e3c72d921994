import Testing

@testable import CommonUI

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("漢", 2), ("ｱ", 1), ("😀", 2), ("🤌", 2), ("e\u{301}", 1), ("👩‍👩‍👧", 2), ("🇫🇷", 2), ("±", 1),
    ("\u{1}", 0), ("한", 2), ("Ａ", 2), ("❤️", 2), ("─", 1),
  ])
  func widthOfCharacter(text: String, width: Int) {
    #expect(DisplayWidth.of(Character(text)) == width)
  }

  @Test func widthOfString_sumsClusters() {
    #expect(DisplayWidth.of("Zürich 東京 😀") == 6 + 1 + 4 + 1 + 2)
    #expect(DisplayWidth.of("Cafe\u{301}") == 4)
  }

  @Test func lonelyCombiningMark_isZero() {
    #expect(DisplayWidth.of(scalar: "\u{301}") == 0)
    #expect(DisplayWidth.of(scalar: "\u{200D}") == 0)
  }

  @Test func truncate_keepsTextThatFits() {
    #expect(DisplayWidth.truncate("Paris", to: 5) == "Paris")
    #expect(DisplayWidth.truncate("", to: 3) == "")
  }

  @Test func truncate_cutsWithEllipsisInLastColumn() {
    #expect(DisplayWidth.truncate("Frankfurt am Main", to: 8) == "Frankfu…")
    #expect(DisplayWidth.truncate("Paris", to: 1) == "…")
    #expect(DisplayWidth.truncate("Paris", to: 0) == "")
  }

  @Test func truncate_neverSplitsAWideCharacter() {
    let cut = DisplayWidth.truncate("東京都渋谷区", to: 6)
    #expect(cut == "東京…")
    #expect(DisplayWidth.of(cut) == 5)
    #expect(DisplayWidth.truncate("Zu\u{308}rich", to: 4) == "Zu\u{308}r…")
  }
}
