import Common
import Foundation
import Testing

@testable import CommonUI

@Suite struct ThemeTests {
  @Test func sharedPalette_hasBothAppearances() throws {
    let palettes = try Palette.shared()
    #expect(palettes[.light]?.background == Color(hex: "#fafafa"))
    #expect(palettes[.dark] != palettes[.light])
  }

  @Test func named_withoutColorIsMonochrome() throws {
    #expect(try Theme.named(.dark, useColor: false) == .monochrome)
    #expect(try Theme.named(.dark, useColor: true).usesColor)
    #expect(try Theme.named(.light, useColor: true) != Theme.named(.dark, useColor: true))
  }

  @Test func decode_namesTheBadRole() {
    let json = #"{"light": {"background": "white"}, "dark": {}}"#
    #expect(
      throws: SharedResources.Failure.malformed(
        path: "p.json", reason: "light.background is \"white\", expected a #rrggbb colour")
    ) {
      try Palette.decode(Data(json.utf8), path: "p.json")
    }
    #expect(
      throws: SharedResources.Failure.malformed(
        path: "p.json", reason: "\"light\" is missing or not an object of role → #rrggbb")
    ) {
      try Palette.decode(Data("{}".utf8), path: "p.json")
    }
  }

  @Test func colorHex() {
    #expect(Color(hex: "#0A0b0C") == .rgb(10, 11, 12))
    #expect(Color(hex: "0a0b0c") == nil)
    #expect(Color(hex: "#0a0b0") == nil)
  }
}
