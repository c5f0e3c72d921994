import Foundation

/// Accounts, sessions, profile and preferences. Implemented by `Backend` (SQLite store); the
/// apps wire it, features call it through this protocol only.
///
/// Every method is synchronous and fails with ``ServiceError``. Methods taking a `token` fail with
/// ``ServiceError/notSignedIn`` (`not_signed_in`, exit 1) for an unknown or signed-out token and
/// with `session_expired` (`.unauthenticated`, exit 1) for an expired one. Storage failures are
/// `.unavailable` (`store_unavailable`, `store_unreadable`).
public protocol AccountService: Sendable {
  /// Creates an account with ``Preferences/standard`` preferences.
  ///
  /// The email is trimmed and lowercased; names are trimmed.
  /// - Throws: `invalid_email` (not `local@domain.tld`), `password_too_short` (fewer than 10
  ///   characters), `first_name_missing` / `last_name_missing` (blank), all `.invalidInput`;
  ///   `email_taken` (`.refused`) when an account already uses the email.
  func signUp(email: String, password: String, firstName: String, lastName: String) throws -> UserProfile

  /// Checks the password and opens a session (30 days).
  ///
  /// - Throws: `invalid_credentials` (`.unauthenticated`, "email or password is wrong") for an
  ///   unknown email and for a wrong password alike. Repeated wrong passwords for one account are
  ///   answered ever more slowly (exponential backoff, capped).
  func signIn(email: String, password: String) throws -> Session

  /// Ends the session: the token stops working. Signing out an unknown token is not an error.
  func signOut(token: String) throws

  /// The session of `token` if it is valid (for `whoami` and for clients checking a saved token).
  func session(token: String) throws -> Session

  /// The signed-in user's profile.
  func profile(token: String) throws -> UserProfile

  /// Saves first and last name (trimmed) and the email (normalised) of the signed-in user.
  /// - Throws: `first_name_missing`, `last_name_missing`, `invalid_email`; `email_taken`.
  func updateProfile(_ profile: UserProfile, token: String) throws -> UserProfile

  /// The signed-in user's preferences.
  func preferences(token: String) throws -> Preferences

  /// Saves the preferences, checked with ``PreferenceValidation`` (a known ISO 4217 currency, a
  /// language with a string table, a home airport of IATA shape), in stored form (codes uppercased,
  /// language tag reduced to its table). Whether the airport exists is the caller's check.
  /// - Throws: `unknown_currency`, `unknown_language`, `invalid_home_airport` (`.invalidInput`).
  func updatePreferences(_ preferences: Preferences, token: String) throws -> Preferences
}

/// The signed-in user's payment cards, kept in the gateway's vault (number encrypted, CVC never
/// stored). Errors as for ``AccountService``.
public protocol PaymentCardService: Sendable {
  /// The user's cards, the default first, then in the order they were added.
  func cards(token: String) throws -> [PaymentCard]

  /// Adds a card; the user's first card becomes the default.
  /// - Throws: `invalid_card_number` (Luhn or length), `unsupported_card_brand`, `card_expired`,
  ///   `invalid_expiry`, `invalid_cvc` (wrong length for the brand), all `.invalidInput`.
  func addCard(_ card: NewPaymentCard, token: String) throws -> PaymentCard

  /// Removes a card. If it was the default, the most recently added remaining card becomes default.
  /// - Throws: `card_not_found` (`.notFound`) when the user has no such card.
  func removeCard(id: String, token: String) throws

  /// Makes a card the default (the others lose the mark).
  /// - Throws: `card_not_found` (`.notFound`).
  func setDefaultCard(id: String, token: String) throws -> PaymentCard
}
