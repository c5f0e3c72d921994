import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

/// The QA report's account, card and idempotency bugs, each pinned by a test.
@Suite struct QAFixesTests {
  func hotel(_ token: String, key: String, summary: String = "Hotel Test, Paris", amount: Decimal = 120.5)
    -> BookingRequest
  {
    BookingRequest(
      token: token, kind: .hotel, idempotencyKey: key, total: Money(amount: amount, currency: "EUR"),
      summary: summary, startsAt: Date(timeIntervalSince1970: 1_800_000_000))
  }

  @Test func idempotencyKey_reusedForAnotherRequest_isRefused_evenAfterCancel() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    try ToyInventory.install(backend.services, units: 5)
    let ledger = backend.services.ledger
    let first = try ledger.book(hotel(token, key: "k1"), take: ToyInventory.take())
    _ = try ledger.cancelReservation(id: first.id, token: token)
    for other in [
      hotel(token, key: "k1", summary: "Hotel Other, Rome"), hotel(token, key: "k1", summary: "Hotel Test, Nice"),
    ] {
      do {
        _ = try ledger.book(other, take: ToyInventory.take())
        Issue.record("a reused key booked")
      } catch let error as ServiceError {
        #expect(error.code == "idempotency_key_reused")
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("k1"))
      }
    }
    #expect(try ledger.book(hotel(token, key: "k1"), take: ToyInventory.take()).id == first.id)
    #expect(try backend.services.database.queryOne("SELECT count(*) FROM payments")?.get(at: 0) == Int64(1))
  }

  @Test func signUp_refusesBlankPassword_andControlCharactersOrLongNames() throws {
    let accounts = try TestBackend().services.accounts
    func signUp(_ password: String = "0123456789", first: String = "Ada", last: String = "Lovelace") -> String? {
      errorCode { _ = try accounts.signUp(email: "a@b.co", password: password, firstName: first, lastName: last) }
    }
    #expect(signUp(String(repeating: " ", count: 10)) == "password_blank")
    #expect(signUp(first: "\u{1B}[31mRED\u{1B}[0m") == "invalid_name")
    #expect(signUp(last: "Love\tlace") == "invalid_name")
    #expect(signUp(first: String(repeating: "a", count: 101)) == "name_too_long")
    #expect(signUp(first: "Ada María", last: String(repeating: "b", count: 100)) == nil)
  }

  @Test func profileUpdate_refusesControlCharacters() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    var profile = try backend.services.accounts.profile(token: token)
    profile.firstName = "\u{1B}[31mRED"
    #expect(errorCode { _ = try backend.services.accounts.updateProfile(profile, token: token) } == "invalid_name")
    #expect(try backend.services.accounts.profile(token: token).firstName == "Ada")
  }

  @Test func cards_refuseRepeatedDigits_farExpiry_andDuplicates() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let cards = backend.services.cards
    func add(_ number: String, _ month: Int = 12, _ year: Int = 2030) -> String? {
      errorCode {
        _ = try cards.addCard(
          NewPaymentCard(number: number, expiryMonth: month, expiryYear: year, cvc: "123"), token: token)
      }
    }
    #expect(add("0000 0000 0000 0000") == "invalid_card_number")
    #expect(add("4242424242424242", 12, 2099) == "invalid_expiry")
    #expect(add("4242424242424242") == nil)
    #expect(add("4242 4242 4242 4242", 1, 2031) == "card_already_added")
    #expect(add("4000056655665556") == nil)
    #expect(try cards.cards(token: token).count == 2)
    let other = try backend.signedIn("bob@example.com")
    #expect(try backend.addCard(token: other).last4 == "4242")
  }

  @Test func flightBooking_refusesTheSamePassengerTwice() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let booking = FlightBookingEngine(engine: FlightsFixtures.engine(), ledger: backend.services.ledger)
    let ada = try PassengerName(parsing: "Ada Lovelace")
    let request = FlightBookingRequest(
      offerID: try signedFlightOffer("FL1.Y.2.20261220UA1478.USD70552"), passengers: [ada, ada])
    #expect(errorCode { _ = try booking.book(request, token: token) } == "duplicate_passenger")
    #expect(
      FlightBookingEngine.requestFields(request)
        != FlightBookingEngine.requestFields(
          FlightBookingRequest(
            offerID: try signedFlightOffer("FL1.Y.2.20261220UA1479.USD70552"), passengers: [ada, ada])))
  }
}
