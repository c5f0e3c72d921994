import Common
import Foundation
import Testing

@testable import Backend

@Suite struct CarPricingTests {
  func dt(_ text: String) throws -> LocalDateTime { try LocalDateTime(parsing: text) }

  @Test func days_aWeekTenToTen_isSeven() throws {
    #expect(CarPricing.chargedDays(from: try dt("2026-12-20T10:00"), to: try dt("2026-12-27T10:00")) == 7)
  }

  @Test func days_acrossSpringForward_countWallClock() throws {
    // US DST starts 2027-03-14: the real elapsed time is 7 days minus 1 hour; still 7 days.
    #expect(CarPricing.chargedDays(from: try dt("2027-03-10T10:00"), to: try dt("2027-03-17T10:00")) == 7)
    // Europe's autumn change (2026-10-25): 7 days plus 1 real hour; still 7 days, no extra day.
    #expect(CarPricing.chargedDays(from: try dt("2026-10-22T10:00"), to: try dt("2026-10-29T10:00")) == 7)
  }

  @Test func days_gracePeriodIs29Minutes() throws {
    let start = try dt("2026-12-20T10:00")
    #expect(CarPricing.chargedDays(from: start, to: try dt("2026-12-21T10:29")) == 1)
    #expect(CarPricing.chargedDays(from: start, to: try dt("2026-12-21T10:30")) == 2)
    #expect(CarPricing.chargedDays(from: start, to: try dt("2026-12-20T10:10")) == 1)
    #expect(CarPricing.chargedDays(from: start, to: start) == 0)
  }

  @Test func rental_fiveToSevenDays_useWeeklyRateOnlyWhenCheaper() {
    // weekly = 5.5 daily: 5 days daily (5 < 5.5), 6 and 7 days weekly.
    #expect(CarPricing.rentalCharge(days: 5, daily: 40, weekly: 220) == (200, false))
    #expect(CarPricing.rentalCharge(days: 6, daily: 40, weekly: 220) == (220, true))
    #expect(CarPricing.rentalCharge(days: 7, daily: 40, weekly: 220) == (220, true))
    #expect(CarPricing.rentalCharge(days: 4, daily: 40, weekly: 220) == (160, false))
    // 9 days: a week + 2 days; 13 days: two weekly rates.
    #expect(CarPricing.rentalCharge(days: 9, daily: 40, weekly: 220) == (300, true))
    #expect(CarPricing.rentalCharge(days: 13, daily: 40, weekly: 220) == (440, true))
  }

  @Test func promo_rules() throws {
    let promotions = try CarPromotions()
    let pickup = try dt("2026-12-20T10:00")
    #expect(throws: ServiceError.self) { try promotions.validate("NOPE", pickup: pickup) }
    do {
      _ = try promotions.validate("spring2026", pickup: pickup)
      Issue.record("expected expired")
    } catch let error as ServiceError {
      #expect(error.code == "expired_promo")
      #expect(error.kind == .invalidInput)
    }
    do {
      _ = try promotions.validate("SUMMER25", pickup: pickup)
      Issue.record("expected not yet valid")
    } catch let error as ServiceError {
      #expect(error.code == "promo_not_yet_valid")
    }
    let zephyr15 = try promotions.validate("zephyr15", pickup: pickup)
    let zephyr = RentalCompany(
      id: "zephyr", name: "Zephyr", oneWay: OneWayPolicy(allowed: true, sameCountryOnly: true, fee: .zero("USD")))
    let other = RentalCompany(
      id: "orbit", name: "Orbit", oneWay: OneWayPolicy(allowed: true, sameCountryOnly: true, fee: .zero("USD")))
    #expect(CarPromotions.reasonNotApplying(zephyr15, company: zephyr, days: 3) == nil)
    #expect(CarPromotions.reasonNotApplying(zephyr15, company: zephyr, days: 2)?.contains("at least 3 days") == true)
    #expect(
      CarPromotions.reasonNotApplying(zephyr15, company: other, days: 5)?.contains("not valid with Orbit") == true)
  }

  @Test func acriss_decodesByPosition() throws {
    #expect(try ACRISSCode("cdar").words == "Compact, 4-5 door, automatic, air conditioning")
    #expect(try ACRISSCode("CCCC").words.contains("manual, AWD"))
    #expect(throws: ServiceError.self) { try ACRISSCode("CDA") }
    #expect(throws: ServiceError.self) { try ACRISSCode("YDAR") }
    let pattern = try ACRISSPattern("*dar")
    #expect(pattern.matches(try ACRISSCode("CDAR")))
    #expect(!pattern.matches(try ACRISSCode("CDMR")))
    #expect(throws: ServiceError.self) { try ACRISSPattern("C**") }
    #expect(throws: ServiceError.self) { try ACRISSPattern("C*Z*") }
  }

  @Test func offerID_roundTrips() throws {
    let text = "car_zephyr_LAX_LAX-CITY_CDAR_202612201000_202612271000_WINTER10_41234USD_" + OfferSignature.example
    let id = try CarOfferID(parsing: text)
    #expect(id.description == text)
    #expect(id.payload == "car_zephyr_LAX_LAX-CITY_CDAR_202612201000_202612271000_WINTER10_41234USD")
    #expect(id.signature == OfferSignature.example)
    // Without a signature, or with one of another shape: invalid_offer_id.
    for unsigned in [id.payload, id.payload + "_" + OfferSignature.example.uppercased(), id.payload + "_abc"] {
      #expect(errorCode { _ = try CarOfferID(parsing: unsigned) } == "invalid_offer_id")
    }
    #expect(id.promoCode == "WINTER10")
    #expect(id.quotedMinorUnits == 41234)
    #expect(throws: ServiceError.self) { try CarOfferID(parsing: "car_zephyr_LAX") }
  }
}
