import Foundation
import Testing

@testable import Common

@Suite struct StringsTests {
  @Test func everyTableHasEveryKeyWithTheSamePlaceholders() throws {
    #expect(Strings.loadingError == nil)
    let english = try Strings.readTable(.english)
    for language in Strings.Language.allCases {
      let table = try Strings.readTable(language)
      for key in Strings.Key.allCases {
        let text = try #require(table[key.rawValue], "\(language.rawValue).json lacks \(key.rawValue)")
        #expect(!text.isEmpty)
        #expect(
          Strings.placeholders(in: text) == Strings.placeholders(in: english[key.rawValue] ?? ""),
          "placeholders of \(key.rawValue) differ in \(language.rawValue)")
      }
      let unknown = Set(table.keys).subtracting(Strings.Key.allCases.map(\.rawValue))
      #expect(unknown.isEmpty, "\(language.rawValue).json has keys no code uses: \(unknown.sorted())")
    }
  }

  @Test func typedAccessors() {
    #expect(Strings.english.welcome(firstName: "Ada", lastName: "Lovelace") == "Welcome, Ada Lovelace")
    #expect(Strings(.german).welcome(firstName: "Ada", lastName: "Lovelace") == "Willkommen, Ada Lovelace")
    #expect(Strings.english[.profileFirstNameMissing] == "First Name is missing")
    #expect(Strings.english[.profileMissingData] == "Missing Data")
    #expect(Strings(.german)[.profileFirstNameMissing] == "Vorname fehlt")
    #expect(Strings(.german).name(of: .german) == "Deutsch")
  }

  @Test func languageTags() {
    #expect(Strings.Language(tag: "de") == .german)
    #expect(Strings.Language(tag: "DE-at") == .german)
    #expect(Strings.Language(tag: "en_US") == .english)
    #expect(Strings.Language(tag: "fr") == nil)
    #expect(Strings.Language(tag: "") == nil)
  }
}
