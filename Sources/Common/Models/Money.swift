import Foundation

/// An amount of money in one currency. `Decimal`, never a binary float.
///
/// In JSON it is `{"amount": "123.45", "currency": "USD"}`: the amount a decimal string with
/// exactly the currency's minor units (JPY none, KWD three), rounded half away from zero.
/// Arithmetic keeps full precision; round once, at the end, with ``rounded()``.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The amount in major units (dollars, euros), at full precision.
  public var amount: Decimal
  /// The ISO 4217 alphabetic code.
  public var currencyCode: String

  public init(amount: Decimal, currency currencyCode: String) {
    self.amount = amount
    self.currencyCode = currencyCode
  }

  /// An amount given as an integer count of minor units (cents): `Money(minorUnits: 12345,
  /// currency: "USD")` is 123.45 USD.
  /// - Throws: ``Currency/LookupError`` for an unknown currency.
  public init(minorUnits: Int64, currency currencyCode: String) throws {
    let currency = try Currency.named(currencyCode)
    self.amount = Decimal(minorUnits) / Self.power(currency.minorUnits)
    self.currencyCode = currency.code
  }

  /// Zero in `currencyCode`.
  public static func zero(_ currencyCode: String) -> Money { Money(amount: 0, currency: currencyCode) }

  /// The number of minor units of the currency (2 when the currency is unknown, as most are).
  public var minorUnitDigits: Int { (try? Currency.named(currencyCode).minorUnits) ?? 2 }

  /// The amount rounded half away from zero to the currency's minor units.
  public func rounded() -> Money {
    Money(amount: Self.round(amount, scale: minorUnitDigits), currency: currencyCode)
  }

  /// The amount as an integer count of minor units, after rounding (12345 for 123.45 USD).
  public var minorUnits: Int64 {
    let scaled = Self.round(amount, scale: minorUnitDigits) * Self.power(minorUnitDigits)
    return NSDecimalNumber(decimal: scaled).int64Value
  }

  /// The amount as a plain decimal string with exactly the currency's minor units: `"123.45"`,
  /// `"1500"` (JPY), `"0.125"` (KWD), `"-3.00"`.
  public var amountString: String {
    let digits = minorUnitDigits
    let units = minorUnits
    let negative = units < 0
    let magnitude = units.magnitude
    guard digits > 0 else { return (negative ? "-" : "") + String(magnitude) }
    let divisor = UInt64(NSDecimalNumber(decimal: Self.power(digits)).int64Value)
    let fraction = String(magnitude % divisor)
    let padded = String(repeating: "0", count: digits - fraction.count) + fraction
    return (negative ? "-" : "") + "\(magnitude / divisor).\(padded)"
  }

  /// `123.45 USD`.
  public var description: String { "\(amountString) \(currencyCode)" }

  /// The amount formatted for people in `locale` (`$1,234.50`, `1.234,50 €`). Always pass an
  /// explicit locale: `Locale.current` is fixed on Linux.
  ///
  /// In the languages' locales (``Strings/Language/locale``: `en_US`, `de_DE`) the text comes from
  /// one Foundation `NumberFormatter` per locale, currency and digits, kept for the process
  /// (``CurrencyFormatters``): the same text as the currency `FormatStyle` (the tests compare both
  /// for every currency), at a quarter of its cost. Any other locale uses the `FormatStyle`.
  public func formatted(locale: Locale = Locale(identifier: "en_US")) -> String {
    let digits = minorUnitDigits
    let amount = Self.round(amount, scale: digits)
    if let text = CurrencyFormatters.shared.string(amount, currency: currencyCode, digits: digits, locale: locale) {
      return text
    }
    return Self.styleFormatted(amount, currency: currencyCode, digits: digits, locale: locale)
  }

  /// `amount` written by Foundation's currency `FormatStyle` with exactly `digits` fraction digits.
  static func styleFormatted(_ amount: Decimal, currency: String, digits: Int, locale: Locale) -> String {
    amount.formatted(.currency(code: currency).locale(locale).precision(.fractionLength(digits)))
  }

  // MARK: Arithmetic (same currency only; mixing currencies is a programming error)

  public static func + (lhs: Money, rhs: Money) -> Money {
    precondition(lhs.currencyCode == rhs.currencyCode, "adding \(lhs.currencyCode) to \(rhs.currencyCode)")
    return Money(amount: lhs.amount + rhs.amount, currency: lhs.currencyCode)
  }

  public static func - (lhs: Money, rhs: Money) -> Money {
    precondition(lhs.currencyCode == rhs.currencyCode, "subtracting \(rhs.currencyCode) from \(lhs.currencyCode)")
    return Money(amount: lhs.amount - rhs.amount, currency: lhs.currencyCode)
  }

  public static func * (lhs: Money, rhs: Decimal) -> Money {
    Money(amount: lhs.amount * rhs, currency: lhs.currencyCode)
  }

  public static prefix func - (value: Money) -> Money {
    Money(amount: -value.amount, currency: value.currencyCode)
  }

  // MARK: Codable

  private enum CodingKeys: String, CodingKey { case amount, currency }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let text = try container.decode(String.self, forKey: .amount)
    guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
      throw DecodingError.dataCorruptedError(
        forKey: .amount, in: container, debugDescription: "amount \"\(text)\" is not a decimal string")
    }
    self.amount = amount
    self.currencyCode = try container.decode(String.self, forKey: .currency)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(amountString, forKey: .amount)
    try container.encode(currencyCode, forKey: .currency)
  }

  // MARK: Helpers

  static func power(_ digits: Int) -> Decimal {
    var result = Decimal(1)
    for _ in 0..<max(0, digits) { result *= 10 }
    return result
  }

  static func round(_ value: Decimal, scale: Int) -> Decimal {
    var input = value
    var output = Decimal()
    NSDecimalRound(&output, &input, scale, .plain)
    return output
  }
}

extension Sequence where Element == Money {
  /// The sum of the amounts, in `currencyCode` (zero for an empty sequence).
  public func sum(in currencyCode: String) -> Money {
    reduce(Money.zero(currencyCode), +)
  }
}
