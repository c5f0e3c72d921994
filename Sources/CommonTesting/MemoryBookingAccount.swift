import Common
import Foundation

/// A ``BookingAccount`` kept in memory for tests of booking screens and the checkout: one user,
/// Ada Lovelace (``email`` / ``password``), a session token once signed in, and her cards (by
/// default ``PaymentCard/visa``, the default card, and ``PaymentCard/mastercard``), and her
/// preferred currency (USD unless given).
///
/// - A wrong email or password fails with `invalid_credentials` (`.unauthenticated`).
/// - ``signOut()`` forgets the session (as `account logout` in another shell would);
///   ``endSession()`` keeps a token the service no longer accepts, so `cards` fails with
///   `session_expired`; ``signInElsewhere()`` is a sign-in made in another tab or shell.
/// - Every change (those, a sign-in or sign-out through the account, ``setCards(_:)``) bumps the
///   account's ``BookingAccount/revision``, as a write to the store would; ``signOuts`` counts the
///   sign-outs made through the account.
public final class MemoryBookingAccount: @unchecked Sendable {
  public static let email = "ada@example.com"
  public static let password = "correct horse"
  /// The token of a live session.
  public static let token = "token-1"

  private let lock = NSLock()
  private var storedToken: String?
  private var storedCards: [PaymentCard]
  private var signInCount = 0
  private var signOutCount = 0
  private var signUpCount = 0
  private var changes = 0
  private let currency: String
  private var home: String?

  public init(
    signedIn: Bool = false, cards: [PaymentCard] = [.visa, .mastercard], currency: String = "USD",
    homeAirport: String? = nil
  ) {
    storedToken = signedIn ? Self.token : nil
    storedCards = cards
    self.currency = currency
    home = homeAirport
  }

  /// How many sign-ins succeeded.
  public var signIns: Int { lock.withLock { signInCount } }
  /// How many accounts were created through the account (``BookingAccount/signUp``; a new account
  /// starts with no card).
  public var signUps: Int { lock.withLock { signUpCount } }
  /// How many sign-outs were made through the account.
  public var signOuts: Int { lock.withLock { signOutCount } }

  public func signOut() { change { storedToken = nil } }
  public func endSession() { change { storedToken = "expired" } }
  public func signInElsewhere() { change { storedToken = Self.token } }
  public func setCards(_ cards: [PaymentCard]) { change { storedCards = cards } }
  /// Sets the home airport preference (nil: none).
  public func setHomeAirport(_ code: String?) { change { home = code } }

  private func change(_ body: () -> Void) {
    lock.withLock {
      body()
      changes += 1
    }
  }

  public var account: BookingAccount {
    BookingAccount(
      token: { [self] in lock.withLock { storedToken } },
      signIn: { [self] email, password in
        guard email == Self.email, password == Self.password else {
          throw ServiceError(.unauthenticated, code: "invalid_credentials", message: "email or password is wrong")
        }
        return lock.withLock {
          signInCount += 1
          changes += 1
          storedToken = Self.token
          return Session(token: Self.token, expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        }
      },
      cards: { [self] token in
        try lock.withLock {
          guard token == Self.token else {
            throw ServiceError(.unauthenticated, code: "session_expired", message: "your session has expired")
          }
          return storedCards
        }
      },
      profile: { _ in UserProfile(firstName: "Ada", lastName: "Lovelace", email: Self.email) },
      preferences: { [self] _ in
        lock.withLock {
          Preferences(currencyCode: currency, language: "en", appearance: .system, homeAirport: home)
        }
      },
      signOut: { [self] (_: String) in
        change {
          signOutCount += 1
          storedToken = nil
        }
      },
      revision: { [self] in lock.withLock { "\(changes)" } },
      signUp: { [self] email, password, firstName, lastName in
        guard email != Self.email else {
          throw ServiceError(.refused, code: "email_taken", message: "an account with this email already exists")
        }
        guard password.count >= 10 else {
          throw ServiceError(
            .invalidInput, code: "password_too_short", message: "password is too short: use at least 10 characters")
        }
        return lock.withLock {
          signUpCount += 1
          signInCount += 1
          changes += 1
          storedToken = Self.token
          storedCards = []
          return Session(token: Self.token, expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        }
      },
      addCard: { [self] card, token in
        try lock.withLock {
          guard token == Self.token else {
            throw ServiceError(.unauthenticated, code: "session_expired", message: "your session has expired")
          }
          let stored = PaymentCard(
            id: "card_\(storedCards.count + 1)", brand: PaymentCardValidation.brand(of: card.number).rawValue,
            last4: String(card.number.suffix(4)),
            expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, isDefault: storedCards.isEmpty)
          storedCards.append(stored)
          changes += 1
          return stored
        }
      })
  }
}

extension PaymentCard {
  /// `Visa •••• 4242  03/29`, the default card.
  public static let visa = PaymentCard(
    id: "card_visa", brand: "visa", last4: "4242", expiryMonth: 3, expiryYear: 2029, isDefault: true)
  /// `Mastercard •••• 4444  11/30`.
  public static let mastercard = PaymentCard(
    id: "card_mc", brand: "mastercard", last4: "4444", expiryMonth: 11, expiryYear: 2030, isDefault: false)
}
