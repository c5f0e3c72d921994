import Foundation

/// The traveller's name and sign-in email, as the account service stores it.
///
/// `email` is normalised (trimmed, lowercased) by the service; names are trimmed.
public struct UserProfile: Hashable, Sendable, Codable {
  public var firstName: String
  public var lastName: String
  public var email: String

  public init(firstName: String, lastName: String, email: String) {
    self.firstName = firstName
    self.lastName = lastName
    self.email = email
  }
}

/// The light/dark theme choice of a user; `.system` follows the terminal.
public enum Appearance: String, Hashable, Sendable, Codable, CaseIterable {
  case light
  case dark
  case system
}

/// A user's display preferences. The account service stores these values as given (after
/// trimming/uppercasing codes); which values are acceptable is decided by the Account feature
/// against the reference data (ISO 4217 currencies, the string tables, IATA airports).
public struct Preferences: Hashable, Sendable, Codable {
  /// ISO 4217 code prices are shown in (`"USD"`).
  public var currencyCode: String
  /// Language of the string tables, a BCP 47 tag (`"en"`, `"de"`).
  public var language: String
  public var appearance: Appearance
  /// IATA airport code: the default origin of a flight search, or `nil` when unset.
  public var homeAirport: String?

  public init(currencyCode: String, language: String, appearance: Appearance, homeAirport: String?) {
    self.currencyCode = currencyCode
    self.language = language
    self.appearance = appearance
    self.homeAirport = homeAirport
  }

  /// What a new account starts with: USD, English, system appearance, no home airport.
  public static let standard = Preferences(currencyCode: "USD", language: "en", appearance: .system, homeAirport: nil)
}

/// A stored payment card as its owner sees it: never the full number, never the CVC.
public struct PaymentCard: Hashable, Sendable, Codable, Identifiable {
  /// Stable id (`card_…`), used by `cards remove ID`, `cards default ID` and `book --card ID`.
  public var id: String
  /// Lowercase brand name from the IIN range (`"visa"`, `"mastercard"`, `"amex"`, …).
  public var brand: String
  /// The last four digits of the number.
  public var last4: String
  /// 1–12.
  public var expiryMonth: Int
  /// Four digits (2029).
  public var expiryYear: Int
  /// The card charged when a booking names none. Exactly one card of a user is the default.
  public var isDefault: Bool

  public init(id: String, brand: String, last4: String, expiryMonth: Int, expiryYear: Int, isDefault: Bool) {
    self.id = id
    self.brand = brand
    self.last4 = last4
    self.expiryMonth = expiryMonth
    self.expiryYear = expiryYear
    self.isDefault = isDefault
  }
}

/// What a user types to add a card. Only brand, last four digits, expiry and the encrypted
/// number are kept; the CVC is checked for length and then forgotten.
public struct NewPaymentCard: Hashable, Sendable {
  /// Digits only (spaces and dashes removed by the caller or the service).
  public var number: String
  /// 1–12.
  public var expiryMonth: Int
  /// Four digits (2029); a two-digit `YY` is the caller's to expand.
  public var expiryYear: Int
  public var cvc: String

  public init(number: String, expiryMonth: Int, expiryYear: Int, cvc: String) {
    self.number = number
    self.expiryMonth = expiryMonth
    self.expiryYear = expiryYear
    self.cvc = cvc
  }
}

/// A signed-in session. `token` is the secret the client keeps (an owner-only file in the data
/// directory); the service stores only its SHA-256 hash.
public struct Session: Hashable, Sendable, Codable {
  /// 64 lowercase hex characters (256 random bits).
  public var token: String
  /// When the session stops working (UTC instant).
  public var expiresAt: Date

  public init(token: String, expiresAt: Date) {
    self.token = token
    self.expiresAt = expiresAt
  }
}
