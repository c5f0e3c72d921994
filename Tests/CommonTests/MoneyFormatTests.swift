import Foundation
import Testing

@testable import Common

/// Issue #13: one rule for every amount a person reads — the currency's symbol or code as the
/// traveller's language writes it, grouping, exactly the currency's ISO 4217 minor units — in place
/// of the five ad-hoc ways (`€283.71`, `38.00 EUR/night`, `30966 JPY/night`,
/// `CHF 745.80 (≈ €811.18)`, `128.41 EUR`).
@Suite struct MoneyFormatTests {
  func money(_ amount: String, _ currency: String) -> Money {
    Money(amount: Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))!, currency: currency)
  }

  @Test func english_symbolOrCode_grouping_exactMinorUnits() {
    let english = MoneyFormat.english
    #expect(english.string(money("283.71", "EUR")) == "€283.71")
    #expect(english.string(money("38", "EUR"), per: "night") == "€38.00/night")
    #expect(english.string(money("30966", "JPY"), per: "night") == "¥30,966/night")
    #expect(english.string(money("745.8", "CHF")).hasPrefix("CHF") == true)
    #expect(english.string(money("745.8", "CHF")).hasSuffix("745.80"))
    #expect(english.string(money("128.41", "EUR")) == "€128.41")
    #expect(english.string(money("1234567.5", "USD")) == "$1,234,567.50")
    #expect(english.string(money("12.3456", "KWD")).hasSuffix("12.346"))
    #expect(english.string(money("0.125", "EUR")) == "€0.13")  // half away from zero
    #expect(english.string(money("-18", "USD")) == "-$18.00")
  }

  @Test func german_writesAmountsTheGermanWay() {
    let german = MoneyFormat(.german)
    #expect(german.string(money("283.71", "EUR")) == "283,71\u{A0}€")
    #expect(german.string(money("30966", "JPY")) == "30.966\u{A0}¥")
    #expect(german.string(money("1234.5", "USD")) == "1.234,50\u{A0}$")
    #expect(german.string(money("745.8", "CHF")) == "745,80\u{A0}CHF")
  }

  @Test func languageTag_choosesTheTable_englishOtherwise() {
    #expect(MoneyFormat(languageTag: "de-AT").language == .german)
    #expect(MoneyFormat(languageTag: "fr").language == .english)
    #expect(MoneyFormat(languageTag: nil).language == .english)
  }
}
