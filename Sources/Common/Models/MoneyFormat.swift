import Foundation

/// The one way every amount is written for people — in command-line text, in the app, in trips
/// and in service messages: Foundation's currency formatting with an explicit locale built from
/// the traveller's language preference (``Strings/Language/locale``: `en` → `en_US`, `de` →
/// `de_DE`), so the currency's symbol or code, its position and spacing, the grouping and the
/// decimal separator are those of that language; always exactly the currency's ISO 4217 minor
/// units, rounded half away from zero (JPY none, EUR two, KWD three).
///
/// English: `€283.71`, `$1,234.50`, `¥30,966`, `CHF 745.80`, `KWD 12.345`; German:
/// `283,71 €`, `1.234,50 $`, `30.966 ¥`, `745,80 CHF` (a no-break space before a trailing symbol).
/// JSON never uses this: it keeps `{"amount": "283.71", "currency": "EUR"}` (``Money``).
public struct MoneyFormat: Hashable, Sendable {
  /// The language whose locale writes the amounts.
  public let language: Strings.Language

  public init(_ language: Strings.Language) {
    self.language = language
  }

  /// The format of a language preference (`en`, `de`, `de-CH`, …); English when the tag names no
  /// language the app has.
  public init(languageTag: String?) {
    self.init(languageTag.flatMap(Strings.Language.init(tag:)) ?? .english)
  }

  /// English (`en_US`): service messages and anyone whose language is not known.
  public static let english = MoneyFormat(.english)

  /// The Foundation locale used.
  public var locale: Locale { language.locale }

  /// `money` as this language writes it (`€283.71`, `283,71 €`).
  public func string(_ money: Money) -> String {
    money.formatted(locale: locale)
  }

  /// `money` per `unit` (`€38.00/night`, `38,00 €/Nacht`): the amount as ``string(_:)`` writes it,
  /// then the unit as given.
  public func string(_ money: Money, per unit: String) -> String {
    string(money) + "/" + unit
  }
}
