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

  @Test func unavailableAccountHasNobodySignedInAndRefusesSignIn() throws {
    let account = BookingAccount.unavailable
    #expect(try account.token() == nil)
    #expect(throws: ServiceError.self) { try account.signIn("ada@example.com", "secret") }
  }
}
