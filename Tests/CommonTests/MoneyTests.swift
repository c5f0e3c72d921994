import Foundation
import Testing

@testable import Common

@Suite struct MoneyTests {
  @Test func minorUnitsFollowISO4217() throws {
    #expect(try Currency.named("jpy").minorUnits == 0)
    #expect(try Currency.named("USD").minorUnits == 2)
    #expect(try Currency.named("KWD").minorUnits == 3)
    #expect(throws: Currency.LookupError.unknown("XYZ")) { try Currency.named("XYZ") }
  }

  @Test func amountStringHasExactlyTheMinorDigits() throws {
    #expect(Money(amount: Decimal(string: "123.455")!, currency: "USD").amountString == "123.46")
    #expect(Money(amount: 1500.5, currency: "JPY").amountString == "1501")
    #expect(Money(amount: Decimal(string: "0.1235")!, currency: "KWD").amountString == "0.124")
    #expect(Money(amount: -3, currency: "EUR").amountString == "-3.00")
    #expect(try Money(minorUnits: 12345, currency: "USD").amount == Decimal(string: "123.45"))
  }

  @Test func jsonIsADecimalStringAndRoundTrips() throws {
    let money = Money(amount: Decimal(string: "19.9")!, currency: "EUR")
    let json = try JSONOutput.string(money)
    #expect(json.contains("\"amount\" : \"19.90\""))
    let back = try JSONDecoder().decode(Money.self, from: Data(json.utf8))
    #expect(back == Money(amount: Decimal(string: "19.90")!, currency: "EUR"))
  }

  @Test func formattedForALocale() {
    let money = Money(amount: Decimal(string: "1234.5")!, currency: "EUR")
    #expect(money.formatted(locale: Locale(identifier: "de_DE")) == "1.234,50\u{00A0}€")
  }
}

@Suite struct JSONOutputTests {
  @Test func instantsAreISO8601InUTC() throws {
    struct Stamp: Encodable { var at: Date }
    let json = try JSONOutput.string(Stamp(at: Date(timeIntervalSince1970: 1_797_782_700)))
    #expect(json.contains("\"at\" : \"2026-12-20T16:05:00Z\""))
  }
}

@Suite struct CurrencyFormattersTests {
  /// The formatters the languages' locales use write what the currency `FormatStyle` writes, for
  /// every currency, amounts of every size and sign, and each currency's minor units.
  @Test func sameTextAsTheFormatStyle_everyCurrency_bothLanguages() throws {
    let currencies = try Currency.all().values.sorted { $0.code < $1.code }
    #expect(currencies.count > 100)
    let minorAmounts: [Int64] = [
      0, 1, 5, 99, 100, 2375, 123_456, 98_765_432, -1, -2375, -123_456_789, 1_234_567_890_123,
    ]
    var compared = 0
    for language in Strings.Language.allCases {
      let locale = language.locale
      for currency in currencies {
        for minor in minorAmounts {
          let money = try Money(minorUnits: minor, currency: currency.code)
          let expected = Money.styleFormatted(
            money.amount, currency: currency.code, digits: currency.minorUnits, locale: locale)
          let fast = CurrencyFormatters.shared.string(
            money.amount, currency: currency.code, digits: currency.minorUnits, locale: locale)
          #expect(fast == expected, "\(language) \(currency.code) \(minor)")
          #expect(money.formatted(locale: locale) == expected)
          compared += 1
        }
      }
    }
    #expect(compared > 2000)
  }

  @Test func otherLocales_useTheFormatStyle() {
    // en_IN groups by lakh in the FormatStyle: never served by a NumberFormatter.
    let locale = Locale(identifier: "en_IN")
    #expect(CurrencyFormatters.shared.string(98_765_432, currency: "INR", digits: 2, locale: locale) == nil)
    let money = Money(amount: 98_765_432, currency: "INR")
    #expect(
      money.formatted(locale: locale) == Money.styleFormatted(98_765_432, currency: "INR", digits: 2, locale: locale))
  }

  @Test func amountsAreRoundedHalfAwayFromZeroFirst() {
    #expect(Money(amount: Decimal(string: "2.345")!, currency: "USD").formatted() == "$2.35")
    #expect(
      Money(amount: Decimal(string: "-2.345")!, currency: "USD").formatted()
        == Money.styleFormatted(
          Decimal(string: "-2.35")!, currency: "USD", digits: 2, locale: Locale(identifier: "en_US")))
    #expect(Money(amount: Decimal(string: "1500.5")!, currency: "JPY").formatted() == "¥1,501")
  }
}
