import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

/// The wired car rental service reads the session at each call (QA: a sign-in on the booking
/// sheet kept the signed-out price), and books drivers by the name rule of every booking kind.
@Suite struct CarRentalWiringTests {
  let backend: TestBackend
  let service: CarRentalService

  init() throws {
    backend = try TestBackend(now: Date())
    let context = CLIContext(
      json: false, useColor: false, dataDirectory: backend.directory.url, environment: [:],
      console: .capturing(), executableName: "car-rental")
    service = try CarRentalWiring.service(context: context)
  }

  /// A week at LAX from 10:00, `days` days from now.
  func query(inDays days: Int = 30) throws -> CarSearchQuery {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
    let start = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: start)
    let day = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    let end = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: 7, to: start)!)
    let endDay = String(format: "%04d-%02d-%02d", end.year!, end.month!, end.day!)
    return CarSearchQuery(
      pickupPlace: "LAX", pickup: try LocalDateTime(parsing: "\(day)T10:00"),
      dropoff: try LocalDateTime(parsing: "\(endDay)T10:00"), limit: 50)
  }

  func signIn(currency: String? = nil) throws -> String {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    if let currency {
      var preferences = try backend.services.accounts.preferences(token: token)
      preferences.currencyCode = currency
      _ = try backend.services.accounts.updatePreferences(preferences, token: token)
    }
    try SessionFile(dataDirectory: backend.directory.url).write(token)
    return token
  }

  @Test func searchAfterSignIn_pricesForTheMemberInTheirCurrency() throws {
    let signedOut = try service.search(try query())
    #expect(signedOut.currency == "USD")
    _ = try signIn(currency: "EUR")
    let signedIn = try service.search(try query())
    #expect(signedIn.currency == "EUR")
    #expect(signedIn.offers.allSatisfy { $0.total.currencyCode == "EUR" })
  }

  @Test func searchAfterSignIn_getsTheMemberDiscount() throws {
    let before = try #require(try service.search(try query()).offers.first)
    _ = try signIn()
    let after = try #require(
      try service.search(try query()).offers.first {
        $0.company.id == before.company.id && $0.acriss == before.acriss && $0.pickupLocation == before.pickupLocation
      })
    #expect(after.total.currencyCode == before.total.currencyCode)
    #expect(after.total.amount < before.total.amount)
  }

  @Test func bookingAnOfferQuotedBeforeSignIn_offersTheSignedInPriceFirst() throws {
    let quoted = try #require(try service.search(try query()).offers.first)
    let token = try signIn(currency: "EUR")
    do {
      _ = try service.book(CarBookingRequest(offerID: quoted.id, driverName: "Ada Lovelace"))
      Issue.record("expected price_changed")
    } catch let error as ServiceError {
      #expect(error.code == "price_changed")
      #expect(error.details["currency"] == "EUR")
      let newID = try #require(error.details["offerId"])
      #expect(newID != quoted.id)
      // The new offer, once seen, books at its price.
      let reservation = try service.book(CarBookingRequest(offerID: newID, driverName: "Ada Lovelace"))
      #expect(reservation.total.currencyCode == "EUR")
      #expect(reservation.total.amountString == error.details["price"])
    }
    #expect(try backend.services.ledger.reservations(token: token).count == 1)
  }

  @Test(arguments: ["Ada \u{1B}[2JLovelace", "1 2", "Ada \u{202E}ecalevoL", "Ada Lovelace\u{7}"])
  func book_rejectsDriverNamesOutsideTheNameRule(_ name: String) throws {
    let quoted = try #require(try service.search(try query()).offers.first)
    _ = try signIn()
    do {
      _ = try service.book(CarBookingRequest(offerID: quoted.id, driverName: name))
      Issue.record("expected invalid_driver for \(name.debugDescription)")
    } catch let error as ServiceError {
      #expect(error.code == "invalid_driver")
      #expect(error.message.hasPrefix("invalid --driver \""))
      #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }
  }
}
