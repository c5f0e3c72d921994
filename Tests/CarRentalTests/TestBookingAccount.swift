import Common
import Foundation

/// A ``BookingAccount`` in memory: Ada (`ada@example.com` / `correct horse`) with a Visa (the
/// default) and a Mastercard; signed out until a sign-in unless made signed in.
final class TestBookingAccount: @unchecked Sendable {
  static let visa = PaymentCard(
    id: "card_visa", brand: "visa", last4: "4242", expiryMonth: 3, expiryYear: 2029, isDefault: true)
  static let mastercard = PaymentCard(
    id: "card_mc", brand: "mastercard", last4: "4444", expiryMonth: 11, expiryYear: 2030, isDefault: false)

  private let lock = NSLock()
  private var token: String?

  init(signedIn: Bool) { token = signedIn ? "token-ada" : nil }

  /// Ends the session, as `account logout` in another shell would.
  func signOut() { lock.withLock { token = nil } }

  var account: BookingAccount {
    BookingAccount(
      token: { [self] in lock.withLock { token } },
      signIn: { [self] email, password in
        guard email == "ada@example.com", password == "correct horse" else {
          throw ServiceError(.unauthenticated, code: "invalid_credentials", message: "email or password is wrong")
        }
        lock.withLock { token = "token-ada" }
        return Session(token: "token-ada", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
      },
      cards: { token in
        guard token == "token-ada" else { throw ServiceError.notSignedIn }
        return [Self.visa, Self.mastercard]
      },
      profile: { _ in UserProfile(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com") })
  }
}
