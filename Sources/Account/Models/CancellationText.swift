import Common
import Foundation

/// The words of a ``CancellationQuote``, shown before a cancellation acts (`trips cancel`, the
/// Trips screen): the fee, the refund (to the card charged) and the rule with its deadline in
/// the local time of the place, in the traveller's language and money format.
enum CancellationText {
  /// `Cancellation fee €112.20`, `Refund €171.51 to Visa •••• 4242`, and the rule's sentence.
  static func lines(_ quote: CancellationQuote, strings: Strings, money: MoneyFormat) -> [String] {
    let refund =
      quote.card.map { strings.format(.tripsRefundTo, ["amount": money.string(quote.refund), "card": $0]) }
      ?? strings.format(.tripsRefund, ["amount": money.string(quote.refund)])
    return [strings.format(.tripsFee, ["amount": money.string(quote.fee)]), refund, rule(quote, strings: strings)]
  }

  /// The rule that applies, with the deadline (`2026-12-19 15:00 (Europe/Paris)`).
  static func rule(_ quote: CancellationQuote, strings: Strings) -> String {
    let deadline = ["deadline": quote.deadlineText ?? ""]
    switch quote.rule {
    case .hotelFree: return strings.format(.tripsRuleHotelFree, deadline)
    case .hotelFirstNightCharged: return strings.format(.tripsRuleHotelFirstNight, deadline)
    case .carFreeUntilPickup: return strings.format(.tripsRuleCar, deadline)
    case .flightFullFare: return strings.format(.tripsRuleFlightFull, deadline)
    case .flightHalfFare: return strings.format(.tripsRuleFlightHalf, deadline)
    case .flightTaxesOnly: return strings.format(.tripsRuleFlightTaxes, deadline)
    case .fullRefund: return strings[.tripsRuleFull]
    }
  }

  /// The terms in one sentence of the current language, for error messages: `the fee is €112.20
  /// and €171.51 is refunded (Free cancellation ended …).`
  static func english(_ quote: CancellationQuote) -> String {
    let money = MoneyFormat(Localization.current)
    return L("the fee is \(money.string(quote.fee)) and \(money.string(quote.refund)) is refunded (")
      + rule(quote, strings: Strings(Localization.current)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
      + ")."
  }

  /// The quote as the flat fields of a JSON error document (`fee`, `refund`, `currency`,
  /// `deadline`, `rule`, `reservationId`).
  static func fields(_ quote: CancellationQuote) -> [String: String] {
    var fields = [
      "reservationId": quote.reservationId, "fee": quote.fee.amountString, "refund": quote.refund.amountString,
      "total": quote.total.amountString, "currency": quote.total.currencyCode, "rule": quote.rule.rawValue,
      "policy": quote.policy,
    ]
    if let deadline = quote.deadline {
      fields["deadline"] = LocalDateTime(deadline, in: quote.zone).iso8601(in: quote.zone)
    }
    return fields
  }
}
