import Foundation

/// Checks of the values a user sets as ``Preferences``, against the reference data: each returns
/// the value in its stored form or throws a ``ServiceError`` of kind
/// ``ServiceError/Kind/invalidInput`` (exit 2) that names the value and what is accepted.
public enum PreferenceValidation {
  /// An ISO 4217 code with minor units, any case, from `Shared/currencies/iso4217_currencies.csv`,
  /// that prices can be converted to: one with an ECB reference rate or an official fixed peg in
  /// ``ExchangeRates``.
  /// - Returns: the upper-case code (`EUR`).
  /// - Throws: `unknown_currency` (not ISO 4217); `unsupported_currency` (no exchange rate, the
  ///   message lists the currencies that have one).
  public static func currency(_ text: String) throws -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let code: String
    do {
      code = try Currency.named(trimmed).code
    } catch let error as Currency.LookupError {
      throw ServiceError.invalid("unknown_currency", ErrorText.reason(of: error))
    } catch {
      throw ServiceError(.unavailable, code: "reference_data_unavailable", message: ErrorText.reason(of: error))
    }
    let rates = try ExchangeRates.reference()
    guard rates.ratesPerEuro[code] != nil else {
      throw ServiceError.invalid(
        "unsupported_currency",
        "prices cannot be shown in \(code) (no exchange rate: neither an ECB reference rate nor a fixed peg): expected one of "
          + rates.currencyCodes.joined(separator: ", "))
    }
    return code
  }

  /// A language with a string table in `Shared/strings/` (`en`, `de`; any case, a region such as
  /// `de-AT` is accepted and dropped).
  /// - Returns: the language; its `rawValue` is the stored tag.
  /// - Throws: `unknown_language`.
  public static func language(_ text: String) throws -> Strings.Language {
    guard let language = Strings.Language(tag: text) else {
      let accepted = Strings.Language.allCases.map { "\($0.rawValue) (\(Strings.english.name(of: $0)))" }
      throw ServiceError.invalid(
        "unknown_language", "unknown language \"\(text)\": expected one of \(accepted.joined(separator: ", "))")
    }
    return language
  }

  /// `light`, `dark` or `system`, any case.
  /// - Throws: `invalid_appearance`.
  public static func appearance(_ text: String) throws -> Appearance {
    guard let appearance = Appearance(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
      let accepted = Appearance.allCases.map(\.rawValue).joined(separator: ", ")
      throw ServiceError.invalid("invalid_appearance", "invalid appearance \"\(text)\": expected one of \(accepted)")
    }
    return appearance
  }

  /// A home airport: the IATA code (any case) of an airport in the reference data
  /// (`Shared/airports`, through ``ReferenceData``).
  /// - Returns: the upper-case code.
  /// - Throws: `invalid_home_airport` for a malformed or unknown code; the reference data's
  ///   error when it cannot be read.
  public static func homeAirport(_ text: String) throws -> String {
    let code = try airportCodeShape(text)
    guard try ReferenceData.shared().airport(iata: code) != nil else {
      throw ServiceError.invalid(
        "invalid_home_airport", "unknown home airport \"\(text)\": expected the IATA code of an airport like SFO or FRA"
      )
    }
    return code
  }

  /// The shape of an IATA airport code: three letters, any case.
  /// - Returns: the upper-case code.
  /// - Throws: `invalid_home_airport` for anything else.
  public static func airportCodeShape(_ text: String) throws -> String {
    let code = text.trimmingCharacters(in: .whitespaces).uppercased()
    guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw ServiceError.invalid(
        "invalid_home_airport", "invalid home airport \"\(text)\": expected an IATA airport code like SFO or FRA")
    }
    return code
  }
}
