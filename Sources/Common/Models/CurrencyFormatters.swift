import Foundation
import Synchronization

/// Foundation `NumberFormatter`s in currency style, one per (locale, ISO 4217 code, fraction
/// digits), made on first use and kept for the process: what ``Money/formatted(locale:)`` writes
/// amounts with in the app's locales.
///
/// Only the locales of ``Strings/Language`` (`en_US`, `de_DE`) are served: for them a
/// `NumberFormatter` writes exactly what the currency `FormatStyle` writes (symbol or code, its
/// position, the no-break space, grouping, separators, minus sign; `CommonTests` compares both for
/// every currency of ``Currency`` and amounts of every size), at about a quarter of the cost, which
/// matters where a search writes two rates for each of fifty offers. Other locales are not served
/// (nil), because there the two can differ (`en_IN` groups by lakh in the `FormatStyle` only).
///
/// A formatter is used under the lock (`NumberFormatter` is not safe to share between threads).
/// The table holds at most ``capacity`` formatters; when full it starts again.
final class CurrencyFormatters: Sendable {
  static let shared = CurrencyFormatters()

  /// The locale identifiers served: those of ``Strings/Language/locale``.
  static let locales: Set<String> = Set(Strings.Language.allCases.map(\.locale.identifier))

  /// The most formatters kept (each locale × currency × digits in use is one).
  static let capacity = 1024

  private struct Key: Hashable {
    var locale: String
    var currency: String
    var digits: Int
  }

  private let formatters = Mutex<[Key: NumberFormatter]>([:])

  /// `amount` (already rounded to `digits`) in currency `currency` as `locale` writes it, with
  /// exactly `digits` fraction digits; nil when `locale` is not one of ``locales``.
  func string(_ amount: Decimal, currency: String, digits: Int, locale: Locale) -> String? {
    let identifier = locale.identifier
    guard Self.locales.contains(identifier) else { return nil }
    let key = Key(locale: identifier, currency: currency, digits: digits)
    return formatters.withLock { table -> String? in
      let formatter: NumberFormatter
      if let known = table[key] {
        formatter = known
      } else {
        formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        formatter.minimumFractionDigits = digits
        formatter.maximumFractionDigits = digits
        if table.count >= Self.capacity { table.removeAll() }
        table[key] = formatter
      }
      return formatter.string(from: amount as NSDecimalNumber)
    }
  }
}
