import Foundation
import Testing

@testable import Common

@Suite struct LocalizedTests {
  @Test func interpolationMakesTheKeyAndTheArguments() {
    let origin = "LIS"
    let count = 3
    let text: Localized = "No flights from \(origin) on \(count) days at 100%"
    #expect(text.key == "No flights from %@ on %@ days at 100%%")
    #expect(text.arguments == ["LIS", "3"])
    #expect(text.text(in: .english) == "No flights from LIS on 3 days at 100%")
  }

  @Test func substitutesInOrderAndByPosition() {
    #expect(Localized.substitute("%@ → %@", ["a", "b"]) == "a → b")
    #expect(Localized.substitute("%2$@ vor %1$@ (100%%)", ["a", "b"]) == "b vor a (100%)")
    #expect(Localized.substitute("%@ and %@", ["a"]) == "a and ")
    #expect(Localized.substitute("50% off", []) == "50% off")
  }

  @Test func germanFromTheTablesEnglishOtherwise() {
    let command = "demo"
    Localization.with(.german) {
      #expect(L("COMMANDS:") == "BEFEHLE:")
      #expect(L("option --\(command) takes no value") == "Option --demo nimmt keinen Wert")
      #expect(L("A sentence no table has \(command)") == "A sentence no table has demo")
      #expect(L(english: "Show the version.") == "Die Version zeigen.")
    }
    #expect(L("COMMANDS:") == "COMMANDS:")
    Localization.with(.english) { #expect(L("COMMANDS:") == "COMMANDS:") }
  }

  @Test func datesFollowTheLanguage() {
    let date = Date(timeIntervalSince1970: 1_796_212_800)  // 2026-12-02 12:00 UTC
    #expect(Localization.mediumDate(date, in: .german) == "2. Dez. 2026")
    #expect(Localization.mediumDate(date, in: .english) == "Dec 2, 2026")
  }

  /// Every per-target table: each translation keeps the key's values (as many `%@`, or `%N$@`
  /// naming each), and a sentence in two tables has one translation.
  @Test func everyTranslationKeepsItsPlaceholders() throws {
    #expect(Localization.loadingError == nil)
    let tables = try Localization.readTables()
    #expect(tables.contains { $0.name == "Common" })
    var seen: [String: (table: String, text: String)] = [:]
    for table in tables {
      for (key, text) in table.entries {
        let wanted = Self.placeholderCount(key)
        let positional = Set(Self.positions(text))
        if positional.isEmpty {
          #expect(Self.placeholderCount(text) == wanted, "\(table.name).json: '\(key)' → '\(text)'")
        } else {
          #expect(positional == Set(1...max(1, wanted)), "\(table.name).json: '\(key)' → '\(text)'")
        }
        #expect(!text.isEmpty)
        if let earlier = seen[key], earlier.text != text {
          Issue.record("'\(key)' is '\(earlier.text)' in \(earlier.table).json, '\(text)' in \(table.name).json")
        }
        seen[key] = (table.name, text)
      }
    }
  }

  @Test func commandLineToolInGerman() {
    let tool = CommandLineTool(
      root: Command(
        name: "demo", summary: "Show the version.",
        subcommands: [Command(name: "go", summary: "Go.", action: { _ in })]))
    let console = Console.capturing()
    #expect(tool.run(arguments: ["nope"], environment: ["TRAVEL_LANGUAGE": "de"], console: console) == 2)
    #expect(console.errorOutput.contains("Fehler: unbekannter Befehl „nope“ für „demo“: erwartet wird eines von: go"))
    let help = Console.capturing()
    #expect(tool.run(arguments: ["--help"], environment: ["TRAVEL_LANGUAGE": "de"], console: help) == 0)
    #expect(help.output.contains("AUFRUF: demo <command>"))
    #expect(help.output.contains("GLOBALE OPTIONEN:"))
    #expect(help.output.contains("Die Version zeigen."))
    let english = Console.capturing()
    #expect(tool.run(arguments: ["nope"], environment: [:], console: english) == 2)
    #expect(english.errorOutput.contains("error: unknown command \"nope\" for 'demo': expected one of go"))
    let json = Console.capturing()
    #expect(tool.run(arguments: ["nope", "--json"], environment: ["TRAVEL_LANGUAGE": "de"], console: json) == 2)
    #expect(json.errorOutput.contains("error: unknown command"))
  }

  static func placeholderCount(_ text: String) -> Int {
    text.replacingOccurrences(of: "%%", with: "").components(separatedBy: "%@").count - 1
  }

  static func positions(_ text: String) -> [Int] {
    var result: [Int] = []
    var rest = Substring(text)
    while let percent = rest.firstIndex(of: "%") {
      rest = rest[rest.index(after: percent)...]
      if let dollar = rest.firstIndex(of: "$"), let index = Int(rest[..<dollar]) { result.append(index) }
    }
    return result
  }
}

extension LocalizedTests {
  @Test func twoLiteralsMakeOneSentence() {
    let name = "Visa"
    let text: Localized = "The card \(name) was " + "declined \(2) times"
    #expect(text.key == "The card %@ was declined %@ times")
    #expect(text.arguments == ["Visa", "2"])
  }
}
