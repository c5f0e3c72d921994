import Common
import Foundation

/// The human text of the car commands (what `--json` does not print).
enum CarRentalText {
  static func money(_ value: Money) -> String {
    let text = value.rounded().amountString
    return String(repeating: " ", count: max(0, 11 - text.count)) + text + " " + value.currencyCode
  }

  /// One block per offer: company, desk, code in words, days, every price line, the total and the id.
  static func searchResult(_ result: CarSearchResult) -> String {
    var lines: [String] = []
    if result.offers.isEmpty { lines.append("No cars found.") }
    for offer in result.offers {
      var where_ = offer.pickupLocation.id
      if offer.dropoffLocation.id != offer.pickupLocation.id { where_ += " → \(offer.dropoffLocation.id)" }
      lines.append(
        "\(offer.company.name) · \(where_) · \(offer.acriss) \(offer.acriss.words) · \(offer.days) "
          + "day\(offer.days == 1 ? "" : "s") · \(offer.carsAvailable) available")
      lines += breakdown(offer).map { "  " + $0 }
      lines.append("  id \(offer.id)")
      lines.append("")
    }
    for notice in result.notices { lines.append("note: \(notice)") }
    return lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
  }

  /// Every line of the price and the total (`Total` = the sum rounded once).
  static func breakdown(_ offer: CarOffer) -> [String] {
    let width = max(40, (offer.lines.map(\.name.count).max() ?? 0) + 2)
    var lines = offer.lines.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + money($0.amount) }
    lines.append("Total".padding(toLength: width, withPad: " ", startingAt: 0) + money(offer.total))
    if let note = offer.promoNote { lines.append("(promo not applied: \(note))") }
    return lines
  }

  static func companies(_ companies: [CompanyAtPlace]) -> String {
    var lines: [String] = []
    for entry in companies {
      lines.append("\(entry.company.name) (\(entry.company.id)) · \(entry.company.oneWay.summary)")
      for desk in entry.desks {
        let cars = desk.fleet.values.reduce(0, +)
        lines.append("  \(desk.location.id) \(desk.location.name) · \(desk.hours.summary) · \(cars) cars")
        lines.append("    " + desk.fleet.keys.sorted().map { "\($0)×\(desk.fleet[$0] ?? 0)" }.joined(separator: " "))
      }
    }
    return lines.isEmpty ? "No rental companies there." : lines.joined(separator: "\n")
  }
}
