import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

@Suite struct PaymentCardsTests {
  @Test func firstCardIsDefault_andDefaultMoves() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let cards = backend.services.cards
    let visa = try backend.addCard(token: token)
    let master = try backend.addCard("5555555555554444", token: token)
    #expect(visa.isDefault && !master.isDefault)
    #expect(visa.brand == "visa" && visa.last4 == "4242" && master.brand == "mastercard")
    _ = try cards.setDefaultCard(id: master.id, token: token)
    #expect(try cards.cards(token: token).map(\.id) == [master.id, visa.id])
    #expect(try cards.cards(token: token).filter(\.isDefault).map(\.id) == [master.id])
    try cards.removeCard(id: master.id, token: token)
    #expect(try cards.cards(token: token).map { [$0.id: $0.isDefault] } == [[visa.id: true]])
  }

  @Test func badCards_areRejected_andNothingStored() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let cards = backend.services.cards
    func add(_ number: String, _ month: Int = 12, _ year: Int = 2030, cvc: String = "123") -> String? {
      errorCode {
        _ = try cards.addCard(
          NewPaymentCard(number: number, expiryMonth: month, expiryYear: year, cvc: cvc), token: token)
      }
    }
    #expect(add("4242424242424241") == "invalid_card_number")
    #expect(add("4242424242424242", 13) == "invalid_expiry")
    #expect(add("4242424242424242", 8, 2026) == "card_expired")
    #expect(add("4242424242424242", cvc: "12") == "invalid_cvc")
    #expect(add("4242424242424242", cvc: "123") == nil)
    #expect(try cards.cards(token: token).count == 1)
  }

  @Test func cardNumber_isNotInTheDataDirectory_inPlainText() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard("5555555555554444", token: token)
    backend.services.database.close()
    for file in try FileManager.default.contentsOfDirectory(atPath: backend.directory.path) {
      let data = try Data(contentsOf: backend.directory.url.appendingPathComponent(file))
      #expect(data.range(of: Data("5555555555554444".utf8)) == nil, "card number in \(file)")
    }
  }

  @Test func usersSeeOnlyTheirOwnCards() throws {
    let backend = try TestBackend()
    let ada = try backend.signedIn()
    let bob = try backend.signedIn("bob@example.com")
    let card = try backend.addCard(token: ada)
    #expect(try backend.services.cards.cards(token: bob).isEmpty)
    #expect(errorCode { try backend.services.cards.removeCard(id: card.id, token: bob) } == "card_not_found")
    #expect(errorCode { _ = try backend.services.cards.setDefaultCard(id: card.id, token: bob) } == "card_not_found")
    #expect(try backend.services.cards.cards(token: ada).count == 1)
  }
}
