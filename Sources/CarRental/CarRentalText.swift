import Common
import Foundation

/// The human text of the car commands (what `--json` does not print).
enum CarRentalText {
  /// `value` written by `money`, right-aligned in 13 columns (amounts line up under each other).
  static func amount(_ value: Money, _ money: MoneyFormat) -> String {
    let text = money.string(value)
    return String(repeating: " ", count: max(0, 13 - text.count)) + text
  }

  /// One block per offer: company, desk, code in words, days, every price line, the total and the id.
  static func searchResult(_ result: CarSearchResult, money: MoneyFormat) -> String {
    var lines: [String] = []
    if result.offers.isEmpty { lines.append(L("No cars found.")) }
    for offer in result.offers {
      var where_ = offer.pickupLocation.id
      if offer.dropoffLocation.id != offer.pickupLocation.id { where_ += " → \(offer.dropoffLocation.id)" }
      lines.append(
        "\(offer.company.name) · \(where_) · \(offer.acriss) \(offer.acriss.words) · \(offer.days) "
          + "day\(offer.days == 1 ? "" : "s") · \(offer.carsAvailable) available")
      lines += breakdown(offer, money: money).map { "  " + $0 }
      lines.append(L("  id \(offer.id)"))
      lines.append("")
    }
    for notice in result.notices { lines.append(L("note: \(notice)")) }
    return lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
  }

  /// Every line of the price and the total (`Total` = the sum rounded once).
  static func breakdown(_ offer: CarOffer, money: MoneyFormat) -> [String] {
    let width = max(40, (offer.lines.map(\.name.count).max() ?? 0) + 2)
    var lines = offer.lines.map {
      $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + amount($0.amount, money)
    }
    lines.append(L("Total").padding(toLength: width, withPad: " ", startingAt: 0) + amount(offer.total, money))
    if let note = offer.promoNote { lines.append(L("(promo not applied: \(note))")) }
    return lines
  }

  /// `WINTER10  10% off the rental · pick-ups 2026-11-01 → 2027-02-28 · 3+ days · every company`.
  static func promotions(_ codes: [PromoCode], money: MoneyFormat) -> String {
    guard !codes.isEmpty else { return L("No promo codes.") }
    let width = (codes.map(\.code.count).max() ?? 0) + 2
    return codes.map { promo in
      let discount: String
      switch promo.discount {
      case .percent(let value): discount = L("\(value)% off the rental")
      case .fixed(let amount): discount = L("\(money.string(amount)) off the rental")
      }
      let days = promo.minimumDays > 1 ? L("\(promo.minimumDays)+ days") : L("any length")
      let companies = promo.companies.isEmpty ? L("every company") : promo.companies.joined(separator: ", ")
      return promo.code.padding(toLength: width, withPad: " ", startingAt: 0)
        + L("\(discount) · pick-ups \(promo.validFrom) → \(promo.validUntil) · \(days) · \(companies)")
    }.joined(separator: "\n")
  }

  static func companies(_ companies: [CompanyAtPlace], money: MoneyFormat) -> String {
    var lines: [String] = []
    for entry in companies {
      lines.append("\(entry.company.name) (\(entry.company.id)) · \(entry.company.oneWay.summary(money: money))")
      for desk in entry.desks {
        let cars = desk.fleet.values.reduce(0, +)
        lines.append(L("  \(desk.location.id) \(desk.location.name) · \(desk.hours.summary) · \(cars) cars"))
        lines.append("    " + desk.fleet.keys.sorted().map { "\($0)×\(desk.fleet[$0] ?? 0)" }.joined(separator: " "))
      }
    }
    return lines.isEmpty ? L("No rental companies there.") : lines.joined(separator: "\n")
  }
}
