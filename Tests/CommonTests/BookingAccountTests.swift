import Common
import Foundation
import Testing

@Suite struct BookingAccountTests {
  @Test func cardDisplayNameShowsBrandLastFourExpiryAndDefault() {
    let card = PaymentCard(
      id: "card_1", brand: "visa", last4: "4242", expiryMonth: 3, expiryYear: 2029, isDefault: true)
    #expect(card.displayName == "Visa •••• 4242  03/29 (default)")
    var other = card
    other.isDefault = false
    #expect(other.displayName == "Visa •••• 4242  03/29")
  }

  @Test func preferredCurrency_isTheSignedInUsersOrNil() {
    func account(token: String?, preferences: Bool) -> BookingAccount {
      let standard = BookingAccount(
        token: { token }, signIn: { _, _ in throw ServiceError.notSignedIn }, cards: { _ in [] })
      guard preferences else { return standard }
      return BookingAccount(
        token: standard.token, signIn: standard.signIn, cards: standard.cards,
        preferences: { _ in Preferences(currencyCode: "EUR", language: "de", appearance: .dark, homeAirport: "FRA") })
    }
    #expect(account(token: "token-1", preferences: true).preferredCurrency() == "EUR")
    #expect(account(token: nil, preferences: true).preferredCurrency() == nil)
    // Built without preferences (the existing callers): nil, and the caller's default applies.
    #expect(account(token: "token-1", preferences: false).preferredCurrency() == nil)
    #expect(BookingAccount.unavailable.preferredCurrency() == nil)
  }

  @Test func unavailableAccountHasNobodySignedInAndRefusesSignIn() throws {
    let account = BookingAccount.unavailable
    #expect(try account.token() == nil)
    #expect(throws: ServiceError.self) { try account.signIn("ada@example.com", "secret") }
  }
}
