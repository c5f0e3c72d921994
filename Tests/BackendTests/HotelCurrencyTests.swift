import Common
import Foundation
import Testing

@testable import Backend

/// Hotels charge in their country's currency wherever ``ExchangeRates`` has a rate for it (ECB
/// reference rates and official fixed pegs), and the README names every country where they
/// charge USD instead.
@Suite struct HotelCurrencyTests {
  /// Real cities of the reference data, by name and country.
  static func cities(_ wanted: [(String, String)]) throws -> [HotelWorld.City] {
    let all = HotelBackend.cities(of: try ReferenceData.shared())
    return try wanted.map { name, country in
      try #require(all.filter { $0.name == name && $0.countryCode == country }.max { $0.population < $1.population })
    }
  }

  static func engine(_ cities: [HotelWorld.City], rates: [String: Decimal]) throws -> HotelEngine {
    try HotelEngine(
      world: try HotelWorld(cities: cities), inventory: InMemoryHotelInventory(), eurRates: rates,
      resolvePlace: HotelFixtures.resolver(cities), now: { HotelFixtures.now })
  }

  static func search(_ engine: HotelEngine, _ place: String) throws -> [HotelOffer] {
    try engine.search(
      HotelSearchRequest(place: place, checkIn: .of("2027-01-11"), checkOut: .of("2027-01-14"), limit: 1000)
    ).offers
  }

  @Test func peggedCurrencies_areDerivedExactlyFromTheECBsRateOfTheirAnchor() throws {
    let rates = try ExchangeRates.reference()
    let usd = try #require(rates.ratesPerEuro["USD"])
    for (code, perDollar) in [("SAR", "3.75"), ("AED", "3.6725"), ("JOD", "0.709"), ("BHD", "0.376")] {
      let peg = try #require(Decimal(string: perDollar))
      #expect(rates.ratesPerEuro[code] == peg * usd, "\(code)")
      #expect(try rates.rate(from: "USD", to: code) == peg, "\(code)")
      #expect(rates.pegs[code]?.anchor == "USD")
      #expect(rates.sourceOfRate(code)?.hasPrefix("fixed peg: \(perDollar) \(code) per USD") == true)
    }
    #expect(rates.ratesPerEuro["XOF"] == Decimal(string: "655.957"))
    #expect(rates.ratesPerEuro["MOP"] == Decimal(string: "1.03")! * rates.ratesPerEuro["HKD"]!)
    #expect(rates.ratesPerEuro["NAD"] == rates.ratesPerEuro["ZAR"])
    // 100 USD is exactly 375.00 SAR and 70.900 JOD; a floating currency without a source has no rate.
    #expect(try rates.convert(Money(amount: 100, currency: "USD"), to: "SAR").amountString == "375.00")
    #expect(try rates.convert(Money(amount: 100, currency: "USD"), to: "JOD").amountString == "70.900")
    #expect(rates.ratesPerEuro["KWD"] == nil)
    for peg in rates.pegs.values {
      #expect(!peg.authority.isEmpty && !peg.basis.isEmpty, "\(peg.currency) names its source")
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func hotelsInRiyadhDubaiAmmanAndDakar_chargeTheirOwnCurrency_convertedAtThePeg() throws {
    let cities = try Self.cities([("Riyadh", "SA"), ("Dubai", "AE"), ("Amman", "JO"), ("Dakar", "SN")])
    let rates = try ExchangeRates.reference()
    let local = try Self.engine(cities, rates: rates.ratesPerEuro)
    // The same world priced as before the pegs: the ECB rates alone, so these hotels charge USD.
    let ecbOnly = rates.ratesPerEuro.filter { rates.pegs[$0.key] == nil }
    let dollars = try Self.engine(cities, rates: ecbOnly)
    for (city, currency, perDollar) in [
      ("Riyadh", "SAR", "3.75"), ("Dubai", "AED", "3.6725"), ("Amman", "JOD", "0.709"), ("Dakar", "XOF", ""),
    ] {
      let offers = try Self.search(local, city)
      #expect(!offers.isEmpty, "\(city)")
      #expect(offers.allSatisfy { $0.total.currencyCode == currency && $0.nightlyRate.currencyCode == currency })
      let inDollars = try Self.search(dollars, city)
      #expect(inDollars.allSatisfy { $0.total.currencyCode == "USD" })
      let quote = local.cityQuotes[try #require(local.world.cities.firstIndex { $0.name == city })]
      #expect(quote.currency == currency)
      #expect(quote.perEUR == NSDecimalNumber(decimal: rates.ratesPerEuro[currency]!).doubleValue)
      guard let peg = Decimal(string: perDollar) else { continue }
      // Each night is the same model price, rounded to a whole unit in each currency: within half
      // a unit of each of the two roundings apart once converted at the peg.
      let slack = peg / 2 + Decimal(string: "0.5")!
      let byKey = Dictionary(inDollars.map { ("\($0.hotelId) \($0.roomType)", $0) }) { first, _ in first }
      var compared = 0
      for offer in offers {
        let twin = try #require(byKey["\(offer.hotelId) \(offer.roomType)"])
        for (night, usd) in zip(offer.nightlyRates, twin.nightlyRates) {
          let gap = night.rate.amount - usd.rate.amount * peg
          #expect(gap.magnitude <= slack, "\(offer.hotelId) \(night.date): \(night.rate) vs \(usd.rate)")
          compared += 1
        }
      }
      #expect(compared > 0)
    }
  }

  @Test func aHotelInSofia_chargesEuros_theCurrencyThatReplacedTheLev() throws {
    let cities = try Self.cities([("Sofia", "BG")])
    #expect(cities[0].currencyCode == "EUR")
    let engine = try Self.engine(cities, rates: try ExchangeRates.reference().ratesPerEuro)
    let offers = try Self.search(engine, "Sofia")
    #expect(!offers.isEmpty && offers.allSatisfy { $0.total.currencyCode == "EUR" })
  }

  /// The countries listed in the README between `<!-- hotels-in-usd -->` and `<!-- /hotels-in-usd -->`,
  /// as `Name (XX, CUR)`.
  static func documentedUSDCountries() throws -> [String: String] {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let start = try #require(text.range(of: "<!-- hotels-in-usd -->"))
    let end = try #require(text.range(of: "<!-- /hotels-in-usd -->", range: start.upperBound..<text.endIndex))
    var listed: [String: String] = [:]
    for match in text[start.upperBound..<end.lowerBound].matches(of: /\(([A-Z]{2}), ([A-Z]{3})\)/) {
      listed[String(match.1)] = String(match.2)
    }
    return listed
  }

  @Test func theREADMEsListOfCountriesWhoseHotelsChargeUSD_isExactlyTheCodes() throws {
    let rates = try ExchangeRates.reference()
    let reference = try ReferenceData.shared()
    var withoutRate: [String: String] = [:]
    for city in HotelBackend.cities(of: reference) where rates.ratesPerEuro[city.currencyCode] == nil {
      withoutRate[city.countryCode] = city.currencyCode
    }
    let documented = try Self.documentedUSDCountries()
    #expect(withoutRate.count > 10)
    #expect(
      Set(withoutRate.keys).subtracting(documented.keys).sorted() == [], "hotel countries charging USD, not in README")
    #expect(
      Set(documented.keys).subtracting(withoutRate.keys).sorted() == [], "in the README, but charging their own")
    for (country, currency) in documented where withoutRate[country] != nil {
      #expect(withoutRate[country] == currency, "\(country)")
    }
    // And it is the engine that decides: a hotel in Kuwait's largest city (Al Aḩmadī) charges USD.
    let kuwait = try #require(
      HotelBackend.cities(of: reference).filter { $0.countryCode == "KW" }.max { $0.population < $1.population })
    #expect(kuwait.currencyCode == "KWD")
    let engine = try Self.engine([kuwait], rates: rates.ratesPerEuro)
    #expect(engine.quoteCurrency(at: 0) == "USD")
  }
}
