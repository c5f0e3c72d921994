import Foundation

/// Checks of a payment card as a user types it: the number (digits, brand from its IIN range,
/// length for the brand, Luhn), the expiry `MM/YY` and the CVC length for the brand.
///
/// Rules from `standards.md` §4 of the project docs (ISO/IEC 7812 PAN lengths, public IIN range
/// tables, the Luhn mod-10 check). Every check fails with a ``ServiceError`` of kind
/// ``ServiceError/Kind/invalidInput`` (exit 2 on the command line) whose message names what was
/// wrong and what is accepted. Nothing here stores, logs or echoes a full card number: messages
/// quote at most the brand and the number of digits.
public enum PaymentCardValidation {
  /// A card brand, from the leading digits (IIN) of the number. Raw values are the lowercase
  /// names the account service stores in ``PaymentCard/brand``.
  public enum Brand: String, Hashable, Sendable, Codable, CaseIterable {
    case visa
    case mastercard
    case amex
    case discover
    case jcb
    case diners
    case unionpay
    case maestro
    /// A number whose prefix matches no known range: accepted (standards.md: "allow unknown brand").
    case unknown

    /// The name shown to users (`Visa`, `American Express`).
    public var displayName: String {
      switch self {
      case .visa: "Visa"
      case .mastercard: "Mastercard"
      case .amex: "American Express"
      case .discover: "Discover"
      case .jcb: "JCB"
      case .diners: "Diners Club"
      case .unionpay: "UnionPay"
      case .maestro: "Maestro"
      case .unknown: "Card"
      }
    }

    /// The brand stored as `name` (``PaymentCard/brand``); ``unknown`` for any other text.
    public init(storedName name: String) {
      self = Brand(rawValue: name.lowercased()) ?? .unknown
    }

    /// The number lengths (digits) the brand issues.
    public var lengths: [Int] {
      switch self {
      case .visa: [13, 16, 19]
      case .mastercard: [16]
      case .amex: [15]
      case .discover, .jcb, .unionpay: Array(16...19)
      case .diners: Array(14...19)
      case .maestro, .unknown: Array(12...19)
      }
    }

    /// The CVC lengths (digits) the brand prints: 4 on the front of an American Express card,
    /// else 3; 3 or 4 for an unknown brand.
    public var cvcLengths: [Int] {
      switch self {
      case .amex: [4]
      case .unknown: [3, 4]
      default: [3]
      }
    }
  }

  /// One IIN range: numbers whose first `digits` digits, read as an integer, lie in `range`.
  private struct IINRange {
    var digits: Int
    var range: ClosedRange<Int>
    var brand: Brand
  }

  /// The IIN table of standards.md §4, most specific first: longer prefixes before shorter ones,
  /// and at equal length a single prefix before a span (`65` Discover before `56–69` Maestro,
  /// `622126–622925` Discover before `62` UnionPay).
  private static let iinTable: [IINRange] = {
    let table: [IINRange] = [
      IINRange(digits: 1, range: 4...4, brand: .visa),
      IINRange(digits: 2, range: 51...55, brand: .mastercard),
      IINRange(digits: 4, range: 2221...2720, brand: .mastercard),
      IINRange(digits: 2, range: 34...34, brand: .amex),
      IINRange(digits: 2, range: 37...37, brand: .amex),
      IINRange(digits: 4, range: 6011...6011, brand: .discover),
      IINRange(digits: 3, range: 644...649, brand: .discover),
      IINRange(digits: 2, range: 65...65, brand: .discover),
      IINRange(digits: 6, range: 622_126...622_925, brand: .discover),
      IINRange(digits: 4, range: 3528...3589, brand: .jcb),
      IINRange(digits: 2, range: 36...36, brand: .diners),
      IINRange(digits: 3, range: 300...305, brand: .diners),
      IINRange(digits: 4, range: 3095...3095, brand: .diners),
      IINRange(digits: 2, range: 38...39, brand: .diners),
      IINRange(digits: 2, range: 62...62, brand: .unionpay),
      IINRange(digits: 2, range: 50...50, brand: .maestro),
      IINRange(digits: 2, range: 56...69, brand: .maestro),
    ]
    return table.sorted { a, b in
      if a.digits != b.digits { return a.digits > b.digits }
      return a.range.count < b.range.count
    }
  }()

  /// The brand of `number` (digits only) from its IIN, most specific range first;
  /// ``Brand/unknown`` when no range matches.
  public static func brand(of number: String) -> Brand {
    let digits = Array(number.utf8)
    for entry in iinTable where digits.count >= entry.digits {
      guard let prefix = Int(String(decoding: digits[0..<entry.digits], as: UTF8.self)) else { continue }
      if entry.range.contains(prefix) { return entry.brand }
    }
    return .unknown
  }

  /// Whether `number` (ASCII digits only) passes the Luhn mod-10 check: from the rightmost
  /// digit, double every second digit (minus 9 above 9); the sum is a multiple of 10.
  /// False for an empty string or one with anything but digits.
  public static func passesLuhn(_ number: String) -> Bool {
    var sum = 0
    var count = 0
    for (position, byte) in number.utf8.reversed().enumerated() {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
      var digit = Int(byte - UInt8(ascii: "0"))
      if position % 2 == 1 {
        digit *= 2
        if digit > 9 { digit -= 9 }
      }
      sum += digit
      count += 1
    }
    return count > 0 && sum % 10 == 0
  }

  /// `input` without the spaces and dashes people type between digit groups.
  /// - Throws: `invalid_card_number` when anything else but digits remains, or when it is not
  ///   12–19 digits long (ISO/IEC 7812).
  public static func normalizedNumber(_ input: String) throws -> String {
    let digits = input.trimmingCharacters(in: .whitespacesAndNewlines).filter { $0 != " " && $0 != "-" }
    guard !digits.isEmpty else {
      throw ServiceError.invalid("invalid_card_number", "card number is missing: expected 12 to 19 digits")
    }
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw ServiceError.invalid(
        "invalid_card_number", "card number must contain only digits (spaces and dashes between groups are allowed)")
    }
    guard (12...19).contains(digits.count) else {
      throw ServiceError.invalid(
        "invalid_card_number", "card number has \(digits.count) digits: expected 12 to 19 digits")
    }
    return digits
  }

  /// Checks a card number and returns its digits and brand. Order of standards.md §4: brand from
  /// the prefix, then the length for the brand, then Luhn. A number of one repeated digit
  /// (`0000 0000 0000 0000`, which passes Luhn) is refused first: no issuer assigns one.
  /// - Throws: `invalid_card_number` (not digits, one repeated digit, wrong length for the brand,
  ///   or "card number is not valid (its last digit does not match the others)").
  public static func validateNumber(_ input: String) throws -> (number: String, brand: Brand) {
    let number = try normalizedNumber(input)
    guard Set(number).count > 1 else {
      throw ServiceError.invalid(
        "invalid_card_number", "card number is one digit repeated: enter the number printed on the card")
    }
    let brand = brand(of: number)
    guard brand.lengths.contains(number.count) else {
      throw ServiceError.invalid(
        "invalid_card_number",
        "card number has \(number.count) digits: \(brand.displayName) numbers have \(list(brand.lengths)) digits")
    }
    guard passesLuhn(number) else {
      throw ServiceError.invalid(
        "invalid_card_number",
        "card number is not valid (its last digit does not match the others): check the digits for a typo")
    }
    return (number, brand)
  }

  /// Checks that `cvc` is all digits and of the length `brand` prints (4 for American Express,
  /// else 3).
  /// - Throws: `invalid_cvc`, e.g. "CVC must be 3 digits for Visa".
  public static func validateCVC(_ cvc: String, brand: Brand) throws {
    let text = cvc.trimmingCharacters(in: .whitespacesAndNewlines)
    let lengths = brand.cvcLengths
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }), lengths.contains(text.count) else {
      let what = brand == .unknown ? "" : " for \(brand.displayName)"
      throw ServiceError.invalid("invalid_cvc", "CVC must be \(list(lengths)) digits\(what)")
    }
  }

  /// A checked card, ready for the account service (which keeps only brand, last 4 and expiry
  /// in the clear). Its `description` never shows the number or the CVC.
  public struct ValidatedCard: Sendable, Equatable, CustomStringConvertible {
    /// Digits only.
    public var number: String
    public var brand: Brand
    public var expiry: CardExpiry
    /// Digits only, of the brand's length.
    public var cvc: String

    /// A card whose fields were checked (by ``PaymentCardValidation/validate(number:expiry:cvc:today:calendar:)``
    /// or the separate checks).
    public init(number: String, brand: Brand, expiry: CardExpiry, cvc: String) {
      self.number = number
      self.brand = brand
      self.expiry = expiry
      self.cvc = cvc
    }

    /// The last four digits of the number.
    public var last4: String { String(number.suffix(4)) }

    /// `Visa •••• 4242`: the most a screen or receipt shows (PCI DSS v4 requirement 3.4.1).
    public var masked: String { PaymentCardValidation.masked(brand: brand, last4: last4) }

    public var description: String { "\(masked) \(expiry)" }

    /// The card in the account service's shape.
    public var newPaymentCard: NewPaymentCard {
      NewPaymentCard(number: number, expiryMonth: expiry.month, expiryYear: expiry.year, cvc: cvc)
    }
  }

  /// Checks all three fields of a card a user typed.
  /// - Parameters:
  ///   - today: the instant whose local date decides whether the card has expired.
  ///   - calendar: the calendar and time zone of "local" (default: the user's current one).
  /// - Throws: `invalid_card_number`, `invalid_expiry` (also more than
  ///   ``CardExpiry/maximumYearsAhead`` years ahead), `card_expired`, `invalid_cvc` (all
  ///   ``ServiceError/Kind/invalidInput``), checked in that order.
  public static func validate(
    number: String, expiry: String, cvc: String, today: Date = Date(), calendar: Calendar = .current
  ) throws -> ValidatedCard {
    let (digits, brand) = try validateNumber(number)
    let parsed = try CardExpiry(parsing: expiry)
    try parsed.checkNotExpired(today: today, calendar: calendar)
    try parsed.checkNotTooFarAhead(today: today, calendar: calendar)
    try validateCVC(cvc, brand: brand)
    return ValidatedCard(
      number: digits, brand: brand, expiry: parsed, cvc: cvc.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// `Visa •••• 4242`.
  public static func masked(brand: Brand, last4: String) -> String {
    "\(brand.displayName) •••• \(last4)"
  }

  /// The sizes of the groups a card number of `digits` is printed in, by brand: American Express
  /// 4-6-5, a 14-digit Diners Club 4-6-4, every other card groups of four (the last one shorter).
  public static func groupSizes(of digits: String) -> [Int] {
    let count = digits.utf8.count
    switch brand(of: digits) {
    case .amex: return [4, 6, 5]
    case .diners where count == 14: return [4, 6, 4]
    default: return Array(repeating: 4, count: max(1, (count + 3) / 4))
    }
  }

  /// `digits` (a card number as typed so far, digits only) in its printed groups:
  /// `4242 4242 4242 42`, `3782 822463 10005`.
  public static func grouped(_ digits: String) -> String {
    split(digits, sizes: groupSizes(of: digits))
  }

  /// `digits` grouped with every digit but the last four hidden: `•••• •••• •••• 4242`.
  public static func maskedNumber(_ digits: String) -> String {
    let hidden = String(repeating: "•", count: max(0, digits.count - 4)) + digits.suffix(4)
    return split(hidden, sizes: groupSizes(of: digits))
  }

  /// `text` cut into groups of `sizes` (what is left after them is one more group), joined by spaces.
  private static func split(_ text: String, sizes: [Int]) -> String {
    var groups: [Substring] = []
    var rest = Substring(text)
    for size in sizes where !rest.isEmpty {
      groups.append(rest.prefix(size))
      rest = rest.dropFirst(size)
    }
    if !rest.isEmpty { groups.append(rest) }
    return groups.joined(separator: " ")
  }

  /// "3", "3 or 4", "13, 16 or 19", "12 to 19".
  private static func list(_ values: [Int]) -> String {
    guard let first = values.first, let last = values.last else { return "" }
    if values.count > 3, values == Array(first...last) { return "\(first) to \(last)" }
    let text = values.map(String.init)
    return text.count == 1 ? text[0] : text.dropLast().joined(separator: ", ") + " or " + text[text.count - 1]
  }
}

/// The expiry of a payment card: a month, valid through its last day inclusive (`09/27` works
/// until 30 Sep 2027 and is expired from 1 Oct 2027, standards.md §4).
public struct CardExpiry: Hashable, Sendable, Codable, CustomStringConvertible {
  /// 1–12.
  public var month: Int
  /// Four digits (2027).
  public var year: Int

  /// An expiry from its numbers; nil when `month` is not 1–12 or `year` not 2000–2099.
  public init?(month: Int, year: Int) {
    guard (1...12).contains(month), (2000...2099).contains(year) else { return nil }
    self.month = month
    self.year = year
  }

  /// Parses `MM/YY` (the year read as 20YY) or `MM/YYYY`; the month may be one digit.
  /// - Throws: `invalid_expiry` naming the text and the accepted shape.
  public init(parsing text: String) throws {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let failure = ServiceError.invalid(
      "invalid_expiry", "invalid expiry \"\(trimmed)\": expected MM/YY like 09/27 (month 01 to 12)")
    let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      (1...2).contains(parts[0].count), parts[1].count == 2 || parts[1].count == 4,
      let month = Int(parts[0]), let rawYear = Int(parts[1])
    else { throw failure }
    let year = parts[1].count == 2 ? 2000 + rawYear : rawYear
    guard let expiry = CardExpiry(month: month, year: year) else { throw failure }
    self = expiry
  }

  /// `09/27`.
  public var description: String {
    String(format: "%02d/%02d", month, year % 100)
  }

  /// Whether the card still works on the local date of `today` in `calendar` (through the last
  /// day of the expiry month, inclusive).
  public func isValid(on today: Date, calendar: Calendar = .current) -> Bool {
    let now = calendar.dateComponents([.year, .month], from: today)
    guard let currentYear = now.year, let currentMonth = now.month else { return false }
    return (year, month) >= (currentYear, currentMonth)
  }

  /// The most years after today an expiry may lie (issuers print 3 to 5; 20 leaves room and
  /// refuses typos such as `12/99`).
  public static let maximumYearsAhead = 20

  /// - Throws: `invalid_expiry` when the expiry month is more than ``maximumYearsAhead`` years
  ///   after the month of `today` in `calendar`.
  public func checkNotTooFarAhead(today: Date, calendar: Calendar = .current) throws {
    let now = calendar.dateComponents([.year, .month], from: today)
    guard let currentYear = now.year, let currentMonth = now.month else { return }
    guard (year, month) <= (currentYear + Self.maximumYearsAhead, currentMonth) else {
      throw ServiceError.invalid(
        "invalid_expiry",
        "expiry \(self) is more than \(Self.maximumYearsAhead) years ahead: check the MM/YY printed on the card")
    }
  }

  /// - Throws: `card_expired` ("card expired 09/24") when the card no longer works on `today`.
  public func checkNotExpired(today: Date, calendar: Calendar = .current) throws {
    guard isValid(on: today, calendar: calendar) else {
      throw ServiceError.invalid("card_expired", "card expired \(self): use a card that is still valid")
    }
  }
}
