import Foundation

/// An ISO 4217 currency with its minor units, from `Shared/currencies/iso4217_currencies.csv`
/// (ISO 4217 List One, published 2026-01-01; see `Shared/currencies/SOURCE.md`).
public struct Currency: Hashable, Sendable, Codable {
  /// The alphabetic code, e.g. `EUR`.
  public let code: String
  /// The numeric code with its leading zeros, e.g. `978`, `008`.
  public let numeric: String
  /// The name as published, e.g. `Euro`.
  public let name: String
  /// Decimal digits of the minor unit: 0 (JPY), 2 (USD), 3 (KWD), 4 (CLF).
  public let minorUnits: Int

  public init(code: String, numeric: String, name: String, minorUnits: Int) {
    self.code = code
    self.numeric = numeric
    self.name = name
    self.minorUnits = minorUnits
  }

  /// Errors of looking up a currency.
  public enum LookupError: Error, LocalizedError, Equatable {
    /// `code` is not an ISO 4217 code with minor units (funds and metals such as XAU have none).
    case unknown(String)
    public var errorDescription: String? {
      switch self {
      case .unknown(let code):
        "unknown currency \"\(code)\": expected an ISO 4217 code like USD, EUR or JPY"
      }
    }
  }

  /// Currencies that the GeoNames country table still names but that ISO 4217 List One of
  /// 2026-01-01 no longer has, each with the currency that replaced it:
  /// - `BGN` → `EUR`: Bulgaria uses the euro since 2026-01-01 (irrevocable conversion rate
  ///   1.95583 BGN per EUR, fixed by the Council of the European Union in July 2025);
  /// - `ANG` → `XCG`: the Caribbean guilder replaced the Netherlands Antillean guilder at par in
  ///   Curaçao and Sint Maarten on 2025-03-31 (Centrale Bank van Curaçao en Sint Maarten).
  public static let replacements: [String: String] = ["BGN": "EUR", "ANG": "XCG"]

  /// `code` upper-cased, or the currency that replaced it (``replacements``): `bgn` → `EUR`.
  public static func current(_ code: String) -> String {
    let upper = code.uppercased()
    return replacements[upper] ?? upper
  }

  /// The currency with alphabetic code `code` (any case).
  /// - Throws: ``LookupError/unknown(_:)`` for an unknown code, or when the data cannot be read.
  public static func named(_ code: String) throws -> Currency {
    guard let currency = try table.get()[code.uppercased()] else { throw LookupError.unknown(code) }
    return currency
  }

  /// Every currency with minor units, by code.
  public static func all() throws -> [String: Currency] { try table.get() }

  private static let table: Result<[String: Currency], Error> = Result {
    let path = "currencies/iso4217_currencies.csv"
    let csv = try CSVTable.shared(path)
    let code = try csv.column("code", in: path)
    let numeric = try csv.column("numeric", in: path)
    let name = try csv.column("name", in: path)
    let minor = try csv.column("minor_units", in: path)
    var result: [String: Currency] = [:]
    for row in csv.rows {
      guard let units = Int(row[minor]) else { continue }  // "N.A." for funds, metals, testing codes
      result[row[code]] = Currency(code: row[code], numeric: row[numeric], name: row[name], minorUnits: units)
    }
    return result
  }
}
