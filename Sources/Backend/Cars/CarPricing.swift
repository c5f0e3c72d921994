import Common
import Foundation

/// How rental days are counted and a car is priced. Rules (issue 7; docs/standards.md §3):
///
/// - **Days**: 24-hour periods from pick-up counted on the *local wall clock*, DST ignored
///   (10:00 to 10:00 a week later is 7 days even across a daylight-saving change); a return up to
///   29 minutes after a full period is not charged (10:29 a week later: 7 days; 10:30: 8 days);
///   at least 1 day.
/// - **Rental line**: whole weeks at the weekly rate; the remaining days at the daily rate, except
///   that 5 to 7 remaining days are charged at the weekly rate when that is cheaper.
/// - **Promo** (negative): percent or fixed amount off the rental line, never below zero.
/// - **Member** (negative): the member percent off the rental line, for a signed-in user.
/// - **One-way fee**: the company's flat fee when the drop-off location differs.
/// - **Airport concession fee**: a percent of (rental − discounts) when picked up at an airport.
/// - **Tax**: the pick-up country's percent of everything above.
///
/// The daily and weekly rates are converted into the user's currency at full precision (the ECB
/// reference rates per euro, as an exact ratio of integers: ``OfferPricing``) and rounded to the
/// currency's minor units (half away from zero) as the rental line shows them; the rental line is
/// those shown rates times the days and weeks (`3 days at €23.75 a day` = €71.25). Each later line
/// (discounts, fees, tax) is rounded as it is made and computed from the rounded ones, so the
/// total is exactly the sum of the lines shown — as on an invoice. The engine computes it all in
/// integer minor units (`Int64`, products in `Int128`).
public enum CarPricing {
  /// The grace period after a full 24-hour period, in minutes.
  public static let graceMinutes = 29
  /// The longest rental, in charged days.
  public static let maximumDays = 60
  /// The furthest pick-up, in days after today at the desk (local dates; the same horizon as flights,
  /// ``FlightSearchRequest/maximumDaysAhead``).
  public static let maximumDaysAhead = FlightSearchRequest.maximumDaysAhead

  /// Charged days from `pickup` to `dropoff` (local wall-clock times); 0 when the drop-off is not
  /// after the pick-up.
  public static func chargedDays(from pickup: LocalDateTime, to dropoff: LocalDateTime) -> Int {
    let minutes = pickup.wallClockMinutes(until: dropoff)
    guard minutes > 0 else { return 0 }
    return max(1, (minutes - graceMinutes + 1439) / 1440)
  }

  /// The rental line's amount and description for `days` at `daily` and `weekly` rates (same currency).
  public static func rentalCharge(days: Int, daily: Decimal, weekly: Decimal) -> (amount: Decimal, usesWeeklyRate: Bool)
  {
    let weeks = days / 7
    let rest = days % 7
    var amount = Decimal(weeks) * weekly
    var usesWeekly = weeks > 0
    if rest >= 5 && weekly < Decimal(rest) * daily {
      amount += weekly
      usesWeekly = true
    } else {
      amount += Decimal(rest) * daily
    }
    return (amount, usesWeekly)
  }

  /// The rental line in minor units for `days` at `daily` and `weekly` rates (minor units of one
  /// currency; the same rule as ``rentalCharge(days:daily:weekly:)``, exact in integers).
  static func rentalChargeMinorUnits(days: Int, daily: Int64, weekly: Int64) -> (amount: Int64, usesWeeklyRate: Bool) {
    let weeks = Int64(days / 7)
    let rest = Int64(days % 7)
    if rest >= 5 && weekly < rest * daily { return ((weeks + 1) * weekly, true) }
    return (weeks * weekly + rest * daily, weeks > 0)
  }

  /// `"7 days: 1 week at the weekly rate $202.80"`, `"3 days: 3 days at $39.00 a day"`: `daily` and
  /// `weekly` are the rates as shown (``MoneyFormat``, `"$39.00"`);
  /// `restAtWeeklyRate` whether the 5 to 7 remaining days are charged at the weekly rate (decided
  /// on the rates shown).
  static func rentalDescription(days: Int, daily: String, weekly: String, restAtWeeklyRate: Bool) -> String {
    let weeks = days / 7
    let rest = days % 7
    let dayWord = days == 1 ? "day" : "days"
    var parts: [String] = []
    if weeks > 0 { parts.append("\(weeks) week\(weeks == 1 ? "" : "s") at the weekly rate \(weekly)") }
    if rest >= 5 && restAtWeeklyRate {
      parts.append("\(rest) days at the weekly rate \(weekly)")
    } else if rest > 0 {
      parts.append("\(rest) day\(rest == 1 ? "" : "s") at \(daily) a day")
    }
    return "\(days) \(dayWord): " + parts.joined(separator: " + ")
  }
}

/// The promo codes of `Shared/cars/promotions.json`.
public struct CarPromotions: Sendable {
  private struct File: Decodable {
    struct Entry: Decodable {
      var code: String
      var kind: String
      var value: String
      var currency: String?
      var validFrom: String
      var validUntil: String
      var minimumDays: Int
      var companies: [String]
    }
    var promotions: [Entry]
  }

  public let codes: [String: PromoCode]

  /// Loads the table (`data` nil = read `Shared/cars/promotions.json`).
  /// - Throws: ``ServiceError`` `.unavailable` when missing or malformed.
  public init(data: Data? = nil) throws {
    let data = try data ?? CarInventory.sharedData("cars/promotions.json")
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: data)
    } catch {
      throw ServiceError(
        .unavailable, code: "malformed_data", message: "promotions.json is malformed: \(ErrorText.reason(of: error))")
    }
    var codes: [String: PromoCode] = [:]
    for entry in file.promotions {
      let value = try CarInventory.decimal(entry.value, "value of promo \(entry.code)")
      let discount: PromoCode.Discount
      switch entry.kind {
      case "percent": discount = .percent(value)
      case "fixed": discount = .fixed(Money(amount: value, currency: entry.currency ?? "USD"))
      default:
        throw ServiceError(
          .unavailable, code: "malformed_data", message: "promotions.json: kind \"\(entry.kind)\" of \(entry.code)")
      }
      let code = entry.code.uppercased()
      codes[code] = PromoCode(
        code: code, discount: discount, validFrom: entry.validFrom, validUntil: entry.validUntil,
        minimumDays: entry.minimumDays, companies: entry.companies)
    }
    self.codes = codes
  }

  /// The promo `text` (any case) for a rental picked up on `pickup` (local date).
  /// - Throws: ``ServiceError`` `.invalidInput`: `unknown_promo`, `expired_promo` (pick-up after
  ///   the last valid day), `promo_not_yet_valid` (pick-up before the first valid day).
  public func validate(_ text: String, pickup: LocalDateTime) throws -> PromoCode {
    guard let promo = codes[text.uppercased()] else {
      throw ServiceError.invalid(
        "unknown_promo", "unknown promo code \"\(text)\": check the spelling, or search without --promo")
    }
    let date = String(pickup.description.prefix(10))
    if date > promo.validUntil {
      throw ServiceError.invalid(
        "expired_promo",
        "promo code \(promo.code) expired on \(promo.validUntil) (pick-up \(date)): search without --promo")
    }
    if date < promo.validFrom {
      throw ServiceError.invalid(
        "promo_not_yet_valid",
        "promo code \(promo.code) is valid for pick-ups from \(promo.validFrom) (pick-up \(date)): search without --promo"
      )
    }
    return promo
  }

  /// Why `promo` does not apply to a rental of `days` with `company`, or nil when it applies.
  public static func reasonNotApplying(_ promo: PromoCode, company: RentalCompany, days: Int) -> String? {
    if !promo.companies.isEmpty && !promo.companies.contains(company.id) {
      return "\(promo.code) is not valid with \(company.name) (only \(promo.companies.joined(separator: ", ")))"
    }
    if days < promo.minimumDays {
      return "\(promo.code) needs at least \(promo.minimumDays) days (this rental is \(days))"
    }
    return nil
  }
}
