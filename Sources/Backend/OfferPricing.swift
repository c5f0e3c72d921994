import Common
import Foundation

/// The currency an engine prices offers in, and how: an amount in minor units of the source
/// currency (US cents for fares and car rates) times an exact ratio of integers (minor units of
/// the currency per minor unit of the source, from the ECB reference rates per euro of both),
/// rounded half away from zero to a whole number of minor units. Shared by flights and cars.
///
/// Exact rational arithmetic (no `Decimal` division per amount): `minor × 10^digits × rate(cur) /
/// (10^sourceDigits × rate(source))`, so a conversion is a few integer operations and rounds the
/// true value, not a 38-digit approximation of it. The source currency itself is the identity.
struct OfferPricing {
  /// The ISO 4217 code (upper case).
  let currency: String
  /// Decimal digits of the currency's minor unit (ISO 4217): JPY 0, EUR 2, KWD 3.
  let digits: Int
  /// The ISO 4217 code amounts are converted from (upper case): USD unless told.
  let source: String
  /// Decimal digits of the source currency's minor unit (USD 2).
  let sourceDigits: Int
  /// Minor units of ``currency`` per minor unit of ``source`` = numerator / denominator (both positive).
  private let numerator: Int128
  private let denominator: Int128

  /// - Parameters:
  ///   - code: the currency prices are shown in (any case).
  ///   - source: the currency amounts are given in (any case; ``FarePolicy/currency``, USD, unless told).
  ///   - rates: the exchange rates, asked for only when the currencies differ.
  /// - Throws: ``ServiceError`` (invalid input): `unknown_currency` (not ISO 4217),
  ///   `unsupported_currency` (no exchange rate); `exchange_rates_unavailable` (exit 1) when the
  ///   rates cannot be read.
  init(currency code: String, from source: String = FarePolicy.currency, rates: () throws -> ExchangeRates) throws {
    currency = Self.canonical(code)
    self.source = Self.canonical(source)
    sourceDigits = try Self.minorDigits(self.source)
    guard currency != self.source else {
      digits = sourceDigits
      numerator = 1
      denominator = 1
      return
    }
    let loaded = try rates()
    _ = try loaded.rate(from: self.source, to: currency)  // checks the codes and that both have a rate
    digits = try Self.minorDigits(currency)
    let (target, targetScale) = Self.integerAndScale(loaded.ratesPerEuro[currency] ?? 1)
    let (base, baseScale) = Self.integerAndScale(loaded.ratesPerEuro[self.source] ?? 1)
    // minor / 10^sourceDigits × (target / 10^targetScale) / (base / 10^baseScale) × 10^digits
    numerator = target * Self.power(baseScale + digits)
    denominator = base * Self.power(targetScale + sourceDigits)
  }

  /// `code` without surrounding spaces, in upper case: a code that is three capital letters
  /// already (every search's, as the apps send it) as it is, without Foundation's trimming.
  static func canonical(_ code: String) -> String {
    if code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
      return code
    }
    return code.trimmingCharacters(in: .whitespaces).uppercased()
  }

  /// True when prices stay in the source currency.
  var isIdentity: Bool { currency == source }

  /// `cents` minor units of ``source`` (US cents) in minor units of ``currency``, rounded half
  /// away from zero.
  func minorUnits(cents: Int64) -> Int64 {
    Self.divideRounded(Int128(cents) * numerator, by: denominator)
  }

  /// `minor` minor units of ``currency`` as money (exact: no rounding needed).
  func money(minorUnits minor: Int64) -> Money {
    let significand = Decimal(minor.magnitude)
    return Money(
      amount: Decimal(sign: minor < 0 ? .minus : .plus, exponent: -digits, significand: significand),
      currency: currency)
  }

  /// `value / divisor` (divisor > 0) rounded half away from zero.
  static func divideRounded(_ value: Int128, by divisor: Int128) -> Int64 {
    let magnitude = (2 * value.magnitude + UInt128(divisor)) / (2 * UInt128(divisor))
    return value < 0 ? -Int64(magnitude) : Int64(magnitude)
  }

  /// A percent as an exact fraction: 12.5 % → 125 / 1000, 8.875 % → 8875 / 100000.
  struct Percent {
    let numerator: Int128
    let denominator: Int128

    /// `percent` (a non-negative decimal with at most 8 decimals, e.g. `8.875`).
    init(_ percent: Decimal) {
      let (value, scale) = OfferPricing.integerAndScale(percent)
      numerator = value
      denominator = 100 * OfferPricing.power(scale)
    }

    /// `percent` % of `minor` minor units, rounded half away from zero to a whole minor unit.
    func of(_ minor: Int64) -> Int64 {
      OfferPricing.divideRounded(Int128(minor) * numerator, by: denominator)
    }
  }

  /// An amount of a currency (at most 8 decimals) as whole minor units of `digits` decimals, or
  /// nil when it has more decimals than that (or does not fit).
  static func exactMinorUnits(_ amount: Decimal, digits: Int) -> Int64? {
    var scaled = amount
    for _ in 0..<digits { scaled *= 10 }
    var whole = Decimal()
    var input = scaled
    NSDecimalRound(&whole, &input, 0, .plain)
    guard whole == scaled, abs(whole) < Decimal(Int64.max / 2) else { return nil }
    return NSDecimalNumber(decimal: whole).int64Value
  }

  private static func minorDigits(_ code: String) throws -> Int {
    do {
      return try Currency.named(code).minorUnits
    } catch {
      throw ServiceError.invalid("unknown_currency", ErrorText.reason(of: error))
    }
  }

  static func power(_ exponent: Int) -> Int128 {
    var result: Int128 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
  }

  /// A non-negative number as an integer and its decimal scale (`1.1172` → (11172, 4)): exact for
  /// the ECB's rates (at most 5 decimals in the shipped file) and the percents of the car data; a
  /// number with more than 8 decimals is rounded to 8, which keeps every product within `Int128`
  /// for any amount a fare or a rental can reach.
  static func integerAndScale(_ rate: Decimal) -> (Int128, Int) {
    var scale = 0
    var scaled = rate
    while scale < 8 {
      var value = scaled
      var whole = Decimal()
      NSDecimalRound(&whole, &value, 0, .plain)
      if whole == scaled { break }
      scaled *= 10
      scale += 1
    }
    var rounded = Decimal()
    NSDecimalRound(&rounded, &scaled, 0, .plain)
    return (Int128(NSDecimalNumber(decimal: rounded).int64Value), scale)
  }
}
