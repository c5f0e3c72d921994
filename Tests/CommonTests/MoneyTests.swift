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
