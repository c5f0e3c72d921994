import Common
import Foundation
import Testing

@testable import Backend

/// The engine prices in integer minor units (``OfferPricing``); this checks it against the
/// `Decimal` pricing it replaced (kept below as the reference), line by line and to the minor
/// unit, over thousands of random cars, periods, promos and currencies (2, 0 and 3 decimals).
@Suite struct CarPricingEquivalenceTests {
  /// A fixed-seed generator (SplitMix64), so a failure is reproducible.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The ECB reference rates plus two 3-decimal currencies (KWD, BHD) the ECB does not quote.
  static func rates() throws -> ExchangeRates {
    let reference = try ExchangeRates.reference()
    var perEuro = reference.ratesPerEuro
    perEuro["KWD"] = Decimal(string: "0.34253")!
    perEuro["BHD"] = Decimal(string: "0.42117")!
    return ExchangeRates(date: reference.date, ratesPerEuro: perEuro)
  }

  /// The pricing rule in `Decimal` (the reference the engine's integers must match): the daily and
  /// weekly rates converted (multiply by the target's rate per euro, then divide by the source's:
  /// exact whenever the result terminates, so on every tie) and rounded half away from zero as
  /// the rental line shows them; the rental those shown rates times the days and weeks (issue
  /// #13: `3 × €23.75` is €71.25, never a separately converted €71.24), 5 to 7 remaining days at
  /// the weekly rate when the shown weekly rate is cheaper; each later line rounded as it is made.
  static func referenceLines(
    _ inventory: CarInventory, _ code: ACRISSCode, desk: CarDesk, dropoff: CarDesk, days: Int, promo: PromoCode?,
    member: Bool, currency: String, rates: ExchangeRates
  ) throws -> (lines: [PriceLine], total: Money) {
    func convert(_ money: Money) throws -> Money {
      if money.currencyCode == currency { return money }
      let amount = money.amount * rates.ratesPerEuro[currency]! / rates.ratesPerEuro[money.currencyCode]!
      return Money(amount: amount, currency: currency)
    }
    func percent(_ money: Money, _ percent: Decimal) -> Money {
      Money(amount: money.amount * percent / 100, currency: money.currencyCode).rounded()
    }
    let daily = try convert(Money(amount: inventory.dailyRate(code, at: desk), currency: inventory.rateCurrency))
      .rounded()
    let weekly = try convert(Money(amount: inventory.weeklyRate(code, at: desk), currency: inventory.rateCurrency))
      .rounded()
    let charge = CarPricing.rentalCharge(days: days, daily: daily.amount, weekly: weekly.amount)
    let rental = Money(amount: charge.amount, currency: currency)
    let rest = days % 7
    var lines = [
      PriceLine(
        kind: .rental,
        name: CarPricing.rentalDescription(
          days: days, daily: MoneyFormat.english.string(daily), weekly: MoneyFormat.english.string(weekly),
          restAtWeeklyRate: weekly.amount < Decimal(rest) * daily.amount),
        amount: rental)
    ]
    var discounted = rental
    if let promo, CarPromotions.reasonNotApplying(promo, company: desk.company, days: days) == nil {
      var off: Money
      switch promo.discount {
      case .percent(let value): off = percent(rental, value)
      case .fixed(let amount): off = try convert(amount).rounded()
      }
      if off.amount > rental.amount { off = rental }
      lines.append(PriceLine(kind: .promo, name: "Promo \(promo.code) (\(promo.summary))", amount: -off))
      discounted = discounted - off
    }
    if member {
      let value = inventory.memberDiscountPercent
      let off = percent(rental, value)
      lines.append(PriceLine(kind: .member, name: "Member discount (\(value)% off the rental)", amount: -off))
      discounted = discounted - off
    }
    var taxable = discounted
    if dropoff.location.id != desk.location.id {
      let fee = try convert(desk.company.oneWay.fee).rounded()
      lines.append(PriceLine(kind: .oneWayFee, name: "One-way fee (drop-off at \(dropoff.location.id))", amount: fee))
      taxable = taxable + fee
    }
    if desk.location.kind == .airport {
      let value = inventory.airportConcessionFeePercent
      let fee = percent(discounted, value)
      lines.append(PriceLine(kind: .fee, name: "Airport concession fee (\(value)%)", amount: fee))
      taxable = taxable + fee
    }
    let tax = inventory.taxPercent(countryCode: desk.location.countryCode)
    lines.append(
      PriceLine(
        kind: .tax, name: "Tax (\(tax)%, \(desk.location.countryCode))", amount: percent(taxable, tax)))
    return (lines, lines.map(\.amount).sum(in: currency))
  }

  /// Issue #13: every car breakdown adds up exactly to the total shown, and the rental line is the
  /// rates it shows times the days and weeks — over 6,000 random cars, periods, promos, members,
  /// one-way rentals and currencies of 0, 2 and 3 decimals, line by line against the `Decimal` rule.
  @Test func integerPricing_matchesTheDecimalRule_andEveryBreakdownAddsUpToItsTotal() throws {
    let (inventory, _) = try CarRentalWiring.inventory()
    let promotions = try CarPromotions()
    let rates = try Self.rates()
    let promos: [PromoCode?] = [nil] + promotions.codes.keys.sorted().map { promotions.codes[$0] }
    let currencies = ["USD", "EUR", "JPY", "GBP", "ISK", "KWD", "BHD", "CHF", "INR", "MYR"]
    let desksByCompany = Dictionary(grouping: inventory.desks, by: \.company.id)
    var generator = Generator(state: 9)
    var checked = 0
    var mismatches: [String] = []
    var unbalanced: [String] = []
    for currency in currencies {
      let engine = CarRentalEngine(
        inventory: inventory, promotions: promotions, currency: { currency }, rates: { rates })
      let digits = try Currency.named(currency).minorUnits
      for _ in 0..<600 {
        let desk = inventory.desks.randomElement(using: &generator)!
        let code = desk.fleet.keys.sorted().randomElement(using: &generator)!
        let dropoff =
          Bool.random(using: &generator)
          ? desk : desksByCompany[desk.company.id]!.randomElement(using: &generator)!
        let days = Int.random(in: 1...CarPricing.maximumDays, using: &generator)
        let promo = promos.randomElement(using: &generator)!
        let member = Bool.random(using: &generator)
        let pickup = try LocalDateTime(parsing: "2026-12-20T10:00")
        let offer = try engine.price(
          code, desk: desk, dropoff: dropoff, pickup: pickup, dropoffTime: pickup.adding(minutes: days * 1440),
          days: days, promo: promo, member: member, currency: currency, carsAvailable: 1)
        checked += 1
        // The lines shown (each a whole number of minor units, so writing it rounds nothing) add up
        // to the total shown.
        let wholeUnits = (offer.lines.map(\.amount) + [offer.total]).allSatisfy { $0.rounded() == $0 }
        if !wholeUnits || offer.lines.map(\.amount).sum(in: currency) != offer.total
          || offer.total.minorUnitDigits != digits
        {
          unbalanced.append("\(code) \(days) days \(currency): \(offer.lines.map(\.amount)) ≠ \(offer.total)")
        }
        let reference = try Self.referenceLines(
          inventory, code, desk: desk, dropoff: dropoff, days: days, promo: promo, member: member,
          currency: currency, rates: rates)
        let same =
          offer.total == reference.total && offer.total.currencyCode == currency
          && offer.lines.map(\.kind) == reference.lines.map(\.kind)
          && offer.lines.map(\.name) == reference.lines.map(\.name)
          && offer.lines.map(\.amount) == reference.lines.map(\.amount)
          && offer.lines.map(\.amount.amountString) == reference.lines.map(\.amount.amountString)
        if !same {
          mismatches.append(
            "\(code) at \(desk.location.id)→\(dropoff.location.id), \(days) days, \(promo?.code ?? "no promo"), "
              + "member \(member), \(currency): \(offer.lines.map { "\($0.name) \($0.amount)" }) vs "
              + "\(reference.lines.map { "\($0.name) \($0.amount)" })")
        }
      }
    }
    #expect(checked == 6000)
    #expect(unbalanced.isEmpty, "\(unbalanced.count) breakdowns do not add up: \(unbalanced.prefix(3))")
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(3))")
  }

  /// The case of the report: a rate of 23.75 for 3 days is 71.25, in the line and the total.
  @Test func rentalLine_isTheShownRateTimesTheDays() throws {
    let (inventory, _) = try CarRentalWiring.inventory()
    let rates = try Self.rates()
    let engine = CarRentalEngine(
      inventory: inventory, promotions: try CarPromotions(), currency: { "EUR" }, rates: { rates })
    var found = 0
    for desk in inventory.desks.prefix(40) {
      for code in desk.fleet.keys.sorted() {
        let pickup = try LocalDateTime(parsing: "2026-12-20T10:00")
        for days in [3, 8] {
          let offer = try engine.price(
            code, desk: desk, dropoff: desk, pickup: pickup, dropoffTime: pickup.adding(minutes: days * 1440),
            days: days, promo: nil, member: false, currency: "EUR", carsAvailable: 1)
          let daily = try #require(
            Money(
              amount: inventory.dailyRate(code, at: desk) * rates.ratesPerEuro["EUR"]! / rates.ratesPerEuro["USD"]!,
              currency: "EUR"
            ).rounded() as Money?)
          let weekly = Money(
            amount: inventory.weeklyRate(code, at: desk) * rates.ratesPerEuro["EUR"]! / rates.ratesPerEuro["USD"]!,
            currency: "EUR"
          ).rounded()
          let rental = try #require(offer.lines.first { $0.kind == .rental })
          let expected = days == 3 ? daily * 3 : weekly + daily
          #expect(rental.amount == expected, "\(rental.name): \(rental.amount) ≠ \(expected)")
          #expect(rental.name.contains(MoneyFormat.english.string(days == 3 ? daily : weekly)))
          found += 1
        }
      }
    }
    #expect(found > 100)
  }

  @Test func rentalChargeInMinorUnits_followsTheDecimalRule() {
    for days in 1...CarPricing.maximumDays {
      for (daily, weekly) in [(4000, 22000), (4000, 16000), (3999, 27993), (1, 5), (12345, 61725)] as [(Int64, Int64)] {
        let integer = CarPricing.rentalChargeMinorUnits(days: days, daily: daily, weekly: weekly)
        let decimal = CarPricing.rentalCharge(days: days, daily: Decimal(daily), weekly: Decimal(weekly))
        #expect(Decimal(integer.amount) == decimal.amount && integer.usesWeeklyRate == decimal.usesWeeklyRate)
      }
    }
  }

  @Test func percentsRoundHalfAwayFromZero() {
    let half = OfferPricing.Percent(Decimal(string: "12.5")!)
    #expect(half.of(4) == 1)  // 0.5 → 1
    #expect(half.of(-4) == -1)  // -0.5 → -1
    #expect(half.of(3) == 0)  // 0.375 → 0
    let tax = OfferPricing.Percent(Decimal(string: "8.875")!)
    #expect(tax.of(10_000) == 888)  // 887.5 → 888
    #expect(tax.of(1_000_000_000_000) == 88_750_000_000)
  }
}
