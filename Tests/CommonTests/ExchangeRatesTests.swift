import Foundation
import Testing

@testable import Common

@Suite struct ExchangeRatesTests {
  let rates: ExchangeRates

  init() throws {
    rates = try ExchangeRates.reference()
  }

  @Test func theShippedTableIsTheECBsOfOneDay() {
    #expect(rates.date == "2026-10-30")
    #expect(rates.currencyCodes.count == 30 + 19)  // 29 currencies and EUR, 19 fixed pegs
    #expect(rates.currencyCodes.filter { rates.pegs[$0] == nil }.count == 30)
    #expect(rates.ratesPerEuro["EUR"] == 1)
    #expect(rates.ratesPerEuro["USD"] == Decimal(string: "1.1172"))
  }

  @Test func convertsThroughTheEuroAndRoundsToTheTargetsMinorUnits() throws {
    let hundredEuros = Money(amount: 100, currency: "EUR")
    #expect(try rates.convert(hundredEuros, to: "usd") == Money(amount: Decimal(string: "111.72")!, currency: "USD"))
    #expect(try rates.convert(hundredEuros, to: "JPY") == Money(amount: 17568, currency: "JPY"))
    let dollars = Money(amount: 100, currency: "USD")
    let euros = try rates.convert(dollars, to: "EUR")
    #expect(euros.amountString == "89.51")
    let yen = try rates.convert(dollars, to: "JPY")
    #expect(yen.amountString == "15725")
    #expect(try rates.convert(dollars, to: "USD") == dollars)
    #expect(try rates.rate(from: "EUR", to: "GBP") == rates.ratesPerEuro["GBP"])
  }

  @Test func unknownAndUnsupportedCurrencies() {
    #expect(throws: ServiceError.self) { try rates.convert(Money(amount: 1, currency: "EUR"), to: "XYZ") }
    do {
      _ = try rates.convert(Money(amount: 1, currency: "EUR"), to: "XYZ")
    } catch {
      #expect(error.code == "unknown_currency")
      #expect(error.message.contains("unknown currency \"XYZ\""))
      #expect(error.cliError.exitStatus == 2)
    }
    do {
      _ = try rates.convert(Money(amount: 1, currency: "KWD"), to: "EUR")
    } catch {
      #expect(error.code == "unsupported_currency")
      #expect(error.message.contains("2026-10-30"))
    }
  }

  @Test func countryToCurrencyForLocalPrices() throws {
    let data = try ReferenceData.shared()
    let local = try #require(data.currencyCode(forCountry: "CH"))
    #expect(local == "CHF")
    #expect(try rates.convert(Money(amount: 10, currency: "EUR"), to: local).currencyCode == "CHF")
  }
}
