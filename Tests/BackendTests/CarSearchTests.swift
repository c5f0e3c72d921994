import Common
import Foundation
import Testing

@testable import Backend

/// Searches against a small fixture of airports, a fixed clock and an in-memory rentals store.
@Suite struct CarSearchTests {
  static let sites = [
    CarSite(
      iata: "LAX", airportName: "Los Angeles International Airport", city: "Los Angeles", countryCode: "US",
      timeZoneIdentifier: "America/Los_Angeles"),
    CarSite(
      iata: "LHR", airportName: "London Heathrow Airport", city: "London", countryCode: "GB",
      timeZoneIdentifier: "Europe/London"),
    CarSite(
      iata: "SFO", airportName: "San Francisco International Airport", city: "San Francisco", countryCode: "US",
      timeZoneIdentifier: "America/Los_Angeles"),
  ]
  // 2026-11-30T00:00Z
  static let now = Date(timeIntervalSince1970: 1_796_083_200)

  func engine(member: Bool = false, rentals: CarRentalsStore = NoCarRentals()) throws -> CarRentalEngine {
    CarRentalEngine(
      inventory: try CarInventory(sites: Self.sites), promotions: try CarPromotions(), rentals: rentals,
      now: { Self.now }, isMember: { member })
  }

  func query(
    _ place: String = "LAX", from: String = "2026-12-20T10:00", to: String = "2026-12-27T10:00", dropoff: String? = nil,
    pattern: String? = nil, company: String? = nil, promo: String? = nil
  ) throws -> CarSearchQuery {
    CarSearchQuery(
      pickupPlace: place, dropoffPlace: dropoff, pickup: try LocalDateTime(parsing: from),
      dropoff: try LocalDateTime(parsing: to), classPattern: try pattern.map { try ACRISSPattern($0) },
      company: company, promoCode: promo, limit: 1000)
  }

  func code(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch let error as ServiceError {
      return error.code
    } catch {
      return "\(error)"
    }
  }

  @Test func inventory_isDeterministic_andHasSixCompanies() throws {
    let a = try CarInventory(sites: Self.sites)
    let b = try CarInventory(sites: Self.sites)
    #expect(a.companies.count >= 6)
    #expect(a.desks.map(\.location.id) == b.desks.map(\.location.id))
    #expect(a.desks.map(\.rateFactor) == b.desks.map(\.rateFactor))
    #expect(a.locations.contains { $0.id == "LAX-CITY" && $0.kind == .cityCentre })
  }

  @Test func search_weekAtLAX_severalCompanies_sortedByTotal_weeklyRate() throws {
    let result = try engine().search(try query())
    #expect(Set(result.offers.map(\.company.id)).count >= 4)
    #expect(result.offers.map(\.total.amount) == result.offers.map(\.total.amount).sorted())
    #expect(result.offers.allSatisfy { $0.days == 7 })
    #expect(result.offers.contains { $0.lines[0].name.contains("weekly rate") })
  }

  @Test func total_isExactlyTheSumOfTheLinesShown_eachInMinorUnits() throws {
    // Member discount, promo, airport fee and tax: every line that can carry fractions of a cent,
    // in a currency with 2 minor units and one with 0.
    for currency in ["USD", "JPY"] {
      let rates = try ExchangeRates.reference()
      let engine = CarRentalEngine(
        inventory: try CarInventory(sites: Self.sites), promotions: try CarPromotions(), now: { Self.now },
        isMember: { true }, currency: { currency },
        rates: { rates })
      for offer in try engine.search(try query(promo: "WINTER10")).offers {
        for line in offer.lines { #expect(line.amount == line.amount.rounded(), "\(line.name): \(line.amount)") }
        #expect(offer.total == offer.lines.map(\.amount).sum(in: currency))
      }
    }
  }

  @Test func promo_lowersTheTotal_andMemberDiscountToo() throws {
    let plain = try engine().search(try query(pattern: "CDAR", company: "zephyr")).offers[0]
    let promo = try engine().search(try query(pattern: "CDAR", company: "zephyr", promo: "winter10")).offers[0]
    let member = try engine(member: true).search(try query(pattern: "CDAR", company: "zephyr")).offers[0]
    #expect(promo.total.amount < plain.total.amount)
    #expect(member.total.amount < plain.total.amount)
    #expect(promo.discounts.count == 1)
    #expect(member.lines.contains { $0.kind == .member })
  }

  @Test func promo_notApplying_keepsOfferWithAReason() throws {
    let result = try engine().search(try query(pattern: "CDAR", promo: "ZEPHYR15"))
    let orbitless = result.offers.filter { $0.company.id != "zephyr" }
    #expect(!orbitless.isEmpty)
    #expect(orbitless.allSatisfy { $0.discounts.isEmpty && $0.promoNote != nil })
    #expect(result.notices.contains { $0.contains("ZEPHYR15 is not valid with") })
  }

  @Test func badInputs_areInvalid() throws {
    let engine = try engine()
    #expect(code { _ = try engine.search(try query("XXQ")) } == "unknown_place")
    #expect(code { _ = try engine.search(try query(to: "2026-12-20T09:00")) } == "dropoff_not_after_pickup")
    #expect(code { _ = try engine.search(try query(to: "2027-02-20T10:00")) } == "rental_too_long")
    #expect(code { _ = try engine.search(try query(from: "2026-11-01T10:00")) } == "pickup_in_past")
    #expect(code { _ = try engine.search(try query(promo: "BOGUS")) } == "unknown_promo")
    #expect(code { _ = try engine.search(try query(promo: "SPRING2026")) } == "expired_promo")
    #expect(code { _ = try engine.search(try query(company: "nobody")) } == "unknown_company")
  }

  @Test func pickupMoreThan330DaysAhead_isTooFar() throws {
    // Now is 2026-11-30 16:00 at LAX: the last pick-up date there is 2027-10-26 (330 days on).
    let engine = try engine()
    #expect(try !engine.search(try query(from: "2027-10-26T23:00", to: "2027-11-02T10:00")).offers.isEmpty)
    #expect(
      code { _ = try engine.search(try query(from: "2027-10-27T10:00", to: "2027-11-03T10:00")) } == "pickup_too_far")
    #expect(
      code { _ = try engine.search(try query(from: "2099-12-20T10:00", to: "2099-12-27T10:00")) } == "pickup_too_far")
  }

  @Test func sixtyDays_isAccepted() throws {
    #expect(try !engine().search(try query(to: "2027-02-18T10:00")).offers.isEmpty)
  }

  @Test func openingHours_closedCityDesk_saysWhy() throws {
    // 2026-12-20 is a Sunday: city desks of most companies are closed; airports are open.
    #expect(
      code { _ = try engine().search(try query("LAX-CITY-never", from: "2026-12-20T03:00")) } == "unknown_place")
    let result = try engine().search(try query("Los Angeles", from: "2026-12-20T10:00"))
    #expect(result.notices.contains { $0.contains("closed on Sun") })
    #expect(
      code { _ = try engine().search(try query("LAX", from: "2026-12-21T02:00", company: "budgetwheels")) }
        == "outside_opening_hours")
  }

  @Test func oneWay_addsTheFee_orIsRefusedByPolicy() throws {
    let result = try engine().search(try query("LAX", dropoff: "SFO", pattern: "CDAR"))
    #expect(!result.offers.isEmpty)
    #expect(result.offers.allSatisfy { $0.lines.contains { $0.kind == .oneWayFee } })
    #expect(!result.offers.contains { $0.company.id == "budgetwheels" })
    #expect(result.notices.contains { $0.contains("Budget Wheels does not rent one-way") })
    // No company takes a car back across the Atlantic: each says so instead.
    let abroad = try engine().search(try query("LAX", dropoff: "LHR", pattern: "****"))
    #expect(abroad.offers.isEmpty)
    #expect(abroad.notices.contains { $0.contains("Orbit Mobility rents one-way only within US") })
  }

  /// Issue #13: a company's fees are shown in the traveller's currency — `companies` gives the
  /// one-way fee in it (not the company's own USD), the very amount an offer's one-way line charges.
  @Test func companies_showTheOneWayFeeInTheTravellersCurrency_asTheOfferChargesIt() throws {
    let engine = CarRentalEngine(
      inventory: try CarInventory(sites: Self.sites), promotions: try CarPromotions(), now: { Self.now },
      currency: { "EUR" }, rates: { try ExchangeRates.reference() })
    let companies = try engine.companies(at: "LAX")
    let result = try engine.search(try query("LAX", dropoff: "SFO", pattern: "CDAR"))
    var compared = 0
    for entry in companies where entry.company.oneWay.allowed {
      #expect(entry.company.oneWay.fee.currencyCode == "EUR", "\(entry.company.id)")
      guard let offer = result.offers.first(where: { $0.company.id == entry.company.id }) else { continue }
      #expect(offer.lines.first { $0.kind == .oneWayFee }?.amount == entry.company.oneWay.fee)
      compared += 1
    }
    #expect(compared > 0)
  }

  @Test func classPattern_filters() throws {
    let result = try engine().search(try query(pattern: "C***"))
    #expect(!result.offers.isEmpty)
    #expect(result.offers.allSatisfy { $0.acriss.categoryLetter == "C" })
  }
}
