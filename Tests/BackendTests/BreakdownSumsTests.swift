import Common
import Foundation
import Testing

@testable import Backend

/// Issue #13: every price breakdown adds up exactly to the total shown — flights (fare + taxes and
/// fees, per passenger and for all), hotels (each night × rooms + taxes and fees) — over
/// thousands of random offers in currencies of 0, 2 and 3 decimals; each amount a whole number of
/// minor units, so writing it (``MoneyFormat``) rounds nothing. (Cars:
/// `CarPricingEquivalenceTests.integerPricing_matchesTheDecimalRule_andEveryBreakdownAddsUpToItsTotal`.)
@Suite struct BreakdownSumsTests {
  static let currencies = ["USD", "EUR", "JPY", "GBP", "ISK", "CHF", "INR", "KRW", "HUF", "MYR"]

  func whole(_ amounts: [Money]) -> Bool { amounts.allSatisfy { $0 == $0.rounded() } }

  @Test func flightBreakdowns_addUpToTheTotal_overThousandsOfRandomOffers() throws {
    let engine = FlightsFixtures.engine()
    let hubs = [
      "SFO", "JFK", "LHR", "FRA", "CDG", "NRT", "SYD", "DXB", "SIN", "GRU", "ORD", "MAD", "ZRH", "HKG", "YYZ",
    ]
    var generator = CarPricingEquivalenceTests.Generator(state: 13)
    var offers = 0
    var failures: [String] = []
    while offers < 2000 {
      let from = hubs.randomElement(using: &generator)!
      let to = hubs.filter { $0 != from }.randomElement(using: &generator)!
      let currency = Self.currencies.randomElement(using: &generator)!
      let request = FlightSearchRequest(
        origin: from, destination: to, departureDate: FlightsFixtures.date(Int.random(in: 5...200, using: &generator)),
        adults: Int.random(in: 1...4, using: &generator), limit: 50, currency: currency)
      for offer in try engine.search(request) {
        offers += 1
        let lines = [offer.fare.fare, offer.fare.taxesAndFees]
        let each = [offer.perPassenger.fare, offer.perPassenger.taxesAndFees]
        if !whole(lines + each + [offer.price]) || lines.sum(in: currency) != offer.price
          || each.sum(in: currency) != offer.perPassenger.total
          || offer.perPassenger.total * Decimal(offer.adults) != offer.price || offer.id.quotedTotal != offer.price
        {
          failures.append("\(offer.id): \(lines) ≠ \(offer.price)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(offers): \(failures.prefix(3))")
  }

  @Test func hotelBreakdowns_addUpToTheTotal_overThousandsOfRandomOffers() throws {
    let engine = try HotelFixtures.engine()
    var generator = CarPricingEquivalenceTests.Generator(state: 17)
    var offers = 0
    var failures: [String] = []
    let start = LocalDate(HotelFixtures.now, in: .gmt).adding(days: 2)
    while offers < 3000 {
      let checkIn = start.adding(days: Int.random(in: 0...300, using: &generator))
      let nights = Int.random(in: 1...14, using: &generator)
      let rooms = Int.random(in: 1...3, using: &generator)
      let request = HotelSearchRequest(
        place: ["Paris", "Sydney", "Tokyo"].randomElement(using: &generator)!, checkIn: checkIn,
        checkOut: checkIn.adding(days: nights), guests: rooms * Int.random(in: 1...2, using: &generator),
        rooms: rooms, radiusKm: 30, limit: 200)
      for offer in try engine.search(request).offers {
        offers += 1
        let currency = offer.total.currencyCode
        let nightsCharged = offer.nightlyRates.map { $0.rate * Decimal(offer.rooms) }
        let breakdownTotal = (nightsCharged + [offer.taxes]).sum(in: currency)
        if !whole(nightsCharged + [offer.taxes, offer.total]) || breakdownTotal != offer.total
          || offer.nightlyRates.count != offer.nights
        {
          failures.append("\(offer.id): \(nightsCharged) + \(offer.taxes) ≠ \(offer.total)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(offers): \(failures.prefix(3))")
  }
}
