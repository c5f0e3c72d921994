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
public final class MemoryBookingAccount: @unchecked Sendable {
  public static let email = "ada@example.com"
  public static let password = "correct horse"
  /// The token of a live session.
  public static let token = "token-1"

  private let lock = NSLock()
  private var storedToken: String?
  private var storedCards: [PaymentCard]
  private var signInCount = 0
  private let currency: String

  public init(signedIn: Bool = false, cards: [PaymentCard] = [.visa, .mastercard], currency: String = "USD") {
    storedToken = signedIn ? Self.token : nil
    storedCards = cards
    self.currency = currency
  }

  /// How many sign-ins succeeded.
  public var signIns: Int { lock.withLock { signInCount } }

  public func signOut() { lock.withLock { storedToken = nil } }
  public func endSession() { lock.withLock { storedToken = "expired" } }
  public func signInElsewhere() { lock.withLock { storedToken = Self.token } }
  public func setCards(_ cards: [PaymentCard]) { lock.withLock { storedCards = cards } }

  public var account: BookingAccount {
    BookingAccount(
      token: { [self] in lock.withLock { storedToken } },
      signIn: { [self] email, password in
        guard email == Self.email, password == Self.password else {
          throw ServiceError(.unauthenticated, code: "invalid_credentials", message: "email or password is wrong")
        }
        return lock.withLock {
          signInCount += 1
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
      preferences: { [currency] _ in
        Preferences(currencyCode: currency, language: "en", appearance: .system, homeAirport: nil)
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
