import Common
import Foundation
import Testing

@testable import Backend

/// Flight offers priced in the traveller's currency: USD fares converted per line, each rounded
/// to the currency's minor units, carried by the offer id, re-priced and charged in it.
@Suite struct FlightsCurrencyTests {
  let date = FlightsFixtures.date(30)

  /// Every amount of `offer` is in `currency`, has no digits past its minor units, and adds up.
  func expectPricedExactly(_ offer: FlightOffer, in currency: String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    let amounts = [
      offer.perPassenger.fare, offer.perPassenger.taxesAndFees, offer.perPassenger.total, offer.fare.fare,
      offer.fare.taxesAndFees, offer.price,
    ]
    for money in amounts {
      #expect(money.currencyCode == currency, sourceLocation: sourceLocation)
      #expect(
        money == money.rounded(), "\(money.amount) has digits past the minor units", sourceLocation: sourceLocation)
    }
    #expect(offer.perPassenger.fare + offer.perPassenger.taxesAndFees == offer.perPassenger.total)
    #expect(offer.fare.fare + offer.fare.taxesAndFees == offer.price, sourceLocation: sourceLocation)
    #expect(offer.price == offer.perPassenger.total * Decimal(offer.adults), sourceLocation: sourceLocation)
    #expect(offer.id.quotedTotal == offer.price, sourceLocation: sourceLocation)
  }

  /// `usd` converted at the shipped ECB rates without rounding.
  func exact(_ usd: Money, to currency: String) throws -> Decimal {
    usd.amount * (try ExchangeRates.reference().rate(from: "USD", to: currency))
  }

  @Test(arguments: ["EUR", "JPY"])
  func search_pricesEveryLineInTheCurrency_andTheyAddUp(currency: String) throws {
    let engine = FlightsFixtures.engine()
    let request = FlightSearchRequest(origin: "FRA", destination: "SYD", departureDate: date, adults: 2, limit: 10)
    var converted = request
    converted.currency = currency
    let inUSD = try engine.search(request)
    let offers = try engine.search(converted)
    #expect(offers.count == inUSD.count && !offers.isEmpty)
    let usdByFlights = Dictionary(inUSD.map { ($0.id.flights, $0) }, uniquingKeysWith: { first, _ in first })
    for offer in offers {
      expectPricedExactly(offer, in: currency)
      let usd = try #require(usdByFlights[offer.id.flights])
      // Each line is the USD line converted at full precision, then rounded once.
      let half = Decimal(currency == "JPY" ? 0.5 : 0.005)
      let fareError = offer.perPassenger.fare.amount - (try exact(usd.perPassenger.fare, to: currency))
      let taxError = offer.perPassenger.taxesAndFees.amount - (try exact(usd.perPassenger.taxesAndFees, to: currency))
      #expect(abs(fareError) <= half && abs(taxError) <= half)
    }
    #expect(offers.map(\.price.amount) == offers.map(\.price.amount).sorted())
    if currency == "JPY" {
      #expect(offers.allSatisfy { $0.id.payload.hasSuffix(".JPY\($0.price.amountString)") })
    }
  }

  /// The engine's integer conversion agrees with converting the `Decimal` amount at the rates
  /// (``ExchangeRates/convert(_:to:)``), for every currency with a rate (ECB or fixed peg) and
  /// amounts of all sizes, exact ties included: both round the true half away from zero (the
  /// pegged currencies make ties common: 0.02 USD is exactly 0.075 SAR, charged as 0.08).
  @Test func integerConversion_matchesTheDecimalConversion_forEveryCurrency() throws {
    let rates = try ExchangeRates.reference()
    var cents: [Int64] = [0, 1, 2, 5, 49, 50, 99, 100, 850, 3162, 12_345, 70_552, 999_999, 12_345_678]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<200 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      cents.append(Int64(seed >> 40))
    }
    for code in rates.currencyCodes {
      let pricing = try OfferPricing(currency: code, rates: { rates })
      for amount in cents {
        let expected = try rates.convert(Money(amount: Decimal(amount) / 100, currency: "USD"), to: code)
        let minor = pricing.minorUnits(cents: amount)
        #expect(pricing.money(minorUnits: minor) == expected, "\(amount) US cents in \(code)")
      }
    }
    let riyals = try OfferPricing(currency: "SAR", rates: { rates })
    #expect(riyals.minorUnits(cents: 2) == 8)
    let twoCents = Money(amount: Decimal(string: "0.02")!, currency: "USD")
    #expect(try rates.convert(twoCents, to: "SAR").amountString == "0.08")
    // The tie: 141,976.74 USD is exactly 576,002.125 MYR at 4.5325 / 1.1172 per euro.
    let ringgit = try OfferPricing(currency: "MYR", rates: { rates })
    #expect(
      ringgit.money(minorUnits: ringgit.minorUnits(cents: 14_197_674))
        == (try Money(minorUnits: 57_600_213, currency: "MYR")))
    #expect(
      try rates.convert(Money(amount: Decimal(string: "141976.74")!, currency: "USD"), to: "MYR").amountString
        == "576002.13")
  }

  @Test func threeMinorDigits_roundEachLineToTheThousandth() throws {
    let rates = ExchangeRates(
      date: "2026-10-30", ratesPerEuro: ["USD": Decimal(string: "1.1172")!, "KWD": Decimal(string: "0.34253")!])
    let engine = FlightEngine(
      network: FlightsFixtures.world, seats: InMemoryFlightSeats(),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()),
      now: { Date(timeIntervalSince1970: 1_795_000_000) }, exchangeRates: { rates })
    let offers = try engine.search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, adults: 3, currency: "kwd"))
    #expect(!offers.isEmpty)
    for offer in offers {
      expectPricedExactly(offer, in: "KWD")
      #expect(offer.price.amountString.split(separator: ".").last?.count == 3)
    }
  }

  @Test func noCurrency_usesTheDefault_andTheRequestOverridesIt() throws {
    let engine = FlightEngine(
      network: FlightsFixtures.world, seats: InMemoryFlightSeats(),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()),
      now: { Date(timeIntervalSince1970: 1_795_000_000) }, defaultCurrency: { "EUR" })
    var request = FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, maxStops: 0, limit: 3)
    #expect(try engine.search(request).map(\.price.currencyCode) == ["EUR", "EUR", "EUR"])
    request.currency = "USD"
    #expect(try engine.search(request).map(\.price.currencyCode) == ["USD", "USD", "USD"])
    // Without a default, USD.
    request.currency = nil
    #expect(try FlightsFixtures.engine().search(request).first?.price.currencyCode == "USD")
  }

  @Test func offerID_carriesTheCurrency_andRepricesInIt() throws {
    let engine = FlightsFixtures.engine()
    let offer = try #require(
      try engine.search(
        FlightSearchRequest(
          origin: "FRA", destination: "SYD", departureDate: date, returnDate: FlightsFixtures.date(44), adults: 2,
          currency: "EUR")
      ).first)
    let text = offer.id.description
    #expect(offer.id.payload.hasSuffix(".EUR\(offer.price.minorUnits)"))
    #expect(text == offer.id.payload + "." + offer.id.signature)
    let parsed = try FlightOfferID(parsing: text)
    #expect(parsed.quotedTotal == Money(amount: offer.price.amount, currency: "EUR"))
    let again = try engine.offer(parsed)
    #expect(again.price == offer.price)
    #expect(again.perPassenger == offer.perPassenger)
    #expect(again.id == offer.id)
  }

  @Test func currencyWithoutARate_isAnError_neverUSD() throws {
    let engine = FlightsFixtures.engine()
    func failure(_ currency: String) -> ServiceError? {
      do {
        _ = try engine.search(
          FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, currency: currency))
        return nil
      } catch { return error as? ServiceError }
    }
    let unknown = try #require(failure("XYZ"))
    #expect(unknown.code == "unknown_currency" && unknown.kind == .invalidInput)
    #expect(unknown.message.contains("XYZ") && unknown.message.contains("ISO 4217"))
    let noRate = try #require(failure("ALL"))  // Albanian lek: ISO 4217, no ECB reference rate
    #expect(noRate.code == "unsupported_currency" && noRate.kind == .invalidInput)
    #expect(noRate.message.contains("EUR, GBP"))
    // An offer id quoted in a currency without a rate is refused too.
    let stamp = String(format: "%04d%02d%02d", date.year, date.month, date.day)
    let id = try signedFlightOffer("FL1.Y.1.\(stamp)UA1478.ALL3000")
    #expect(errorCode { _ = try engine.offer(id) } == "unsupported_currency")
    // Rates that cannot be read: the search fails rather than price in USD.
    let broken = FlightEngine(
      network: FlightsFixtures.world, seats: InMemoryFlightSeats(),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()),
      now: { Date(timeIntervalSince1970: 1_795_000_000) },
      exchangeRates: { throw ServiceError(.unavailable, code: "exchange_rates_unavailable", message: "gone") })
    #expect(
      errorCode {
        _ = try broken.search(
          FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, currency: "EUR"))
      } == "exchange_rates_unavailable")
    #expect(
      try broken.search(FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, currency: "USD"))
        .isEmpty == false)
  }

  // MARK: Booking

  /// A signed-in user with a card, and the booking engine over the backend's store.
  func booking() throws -> (TestBackend, String, FlightEngine, FlightBookingEngine) {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let engine = FlightsFixtures.engine(seats: InMemoryFlightSeats())
    let stored = FlightEngine(
      network: FlightsFixtures.world, seats: SQLiteFlightSeats(database: backend.services.database),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()),
      now: { Date(timeIntervalSince1970: 1_795_000_000) })
    return (backend, token, engine, FlightBookingEngine(engine: stored, ledger: backend.services.ledger))
  }

  @Test func booking_chargesTheQuotedEURTotal() throws {
    let (backend, token, engine, booking) = try booking()
    let offer = try #require(
      try engine.search(
        FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, adults: 2, currency: "EUR")
      ).first)
    let reservation = try booking.book(
      FlightBookingRequest(
        offerID: offer.id,
        passengers: [
          PassengerName(given: "Ada", family: "Lovelace"), PassengerName(given: "Charles", family: "Babbage"),
        ]
      ), token: token)
    #expect(reservation.total == offer.price)
    #expect(reservation.total.currencyCode == "EUR")
    let payment = try #require(try backend.services.database.queryOne("SELECT * FROM payments"))
    #expect(try payment.get("currency") == "EUR")
    #expect(try payment.get("captured_minor") == offer.price.minorUnits)
    guard case .object(let fare)? = reservation.details["fare"] else {
      Issue.record("no fare in \(reservation.details)")
      return
    }
    #expect(fare["currency"] == .string("EUR"))
    #expect(fare["total"] == .string(offer.price.amountString))
    #expect(fare["fare"] == .string(offer.fare.fare.amountString))
    // The ledger's copy says the same.
    #expect(try backend.services.ledger.reservation(id: reservation.id, token: token).total == offer.price)
  }

  @Test func booking_samePersonOnTheSameFlightTwice_isRefused_untilTheFirstIsCancelled() throws {
    let (backend, token, engine, booking) = try booking()
    let offers = try engine.search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, maxStops: 0, currency: "USD"))
    let offer = try #require(offers.first)
    let ada = PassengerName(given: "Ada", family: "Lovelace")
    let first = try booking.book(FlightBookingRequest(offerID: offer.id, passengers: [ada]), token: token)
    // A retry with no key is a second booking of the same seat for the same person: refused.
    let refusal = #expect(throws: ServiceError.self) {
      _ = try booking.book(
        FlightBookingRequest(offerID: offer.id, passengers: [PassengerName(given: "ADA", family: "lovelace")]),
        token: token)
    }
    #expect(refusal?.code == "duplicate_booking")
    #expect(refusal?.details["reservationId"] == first.id)
    #expect(try backend.services.database.query("SELECT id FROM payments").count == 1)
    // Another person on that flight, and Ada on another flight, are fine.
    _ = try booking.book(
      FlightBookingRequest(offerID: offer.id, passengers: [PassengerName(given: "Charles", family: "Babbage")]),
      token: token)
    let other = try #require(offers.first { $0.segments.map(\.flight) != offer.segments.map(\.flight) })
    _ = try booking.book(FlightBookingRequest(offerID: other.id, passengers: [ada]), token: token)
    // Once the first is cancelled, Ada can book that flight again.
    _ = try backend.services.ledger.cancelReservation(id: first.id, token: token)
    _ = try booking.book(FlightBookingRequest(offerID: offer.id, passengers: [ada]), token: token)
  }

  @Test func booking_priceChanged_comparesInTheQuotedCurrency_inBothDirections() throws {
    let (backend, token, engine, booking) = try booking()
    let offer = try #require(
      try engine.search(
        FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: date, maxStops: 0, currency: "JPY")
      ).first)
    // Quoted one yen less than today's price (the price rose), or 5,000 yen more (it fell): both
    // are refused with the new offer; nothing is charged at a price the traveller did not see.
    for (change, word) in [(Decimal(-1), "rose"), (Decimal(5000), "fell")] {
      var quoted = offer.id
      quoted.quotedTotal = offer.price + Money(amount: change, currency: "JPY")
      quoted.signature = try OfferSigner.processLocal.signature(of: quoted.payload)
      let request = FlightBookingRequest(offerID: quoted, passengers: [PassengerName(given: "Ada", family: "Lovelace")])
      do {
        _ = try booking.book(request, token: token)
        Issue.record("booked at a price other than the quote")
      } catch let error as ServiceError {
        #expect(error.code == "price_changed" && error.kind == .refused)
        #expect(error.details["currency"] == "JPY")
        #expect(error.details["price"] == offer.price.amountString)
        #expect(error.details["offerId"] == offer.id.description)
        #expect(error.message.contains("¥"), "\(error.message)")
        #expect(error.message.contains(word), "\(error.message)")
      }
    }
    #expect(try backend.services.database.queryOne("SELECT count(*) FROM payments")?.get(at: 0) == Int64(0))
    // The new offer books at exactly its price.
    let booked = try booking.book(
      FlightBookingRequest(offerID: offer.id, passengers: [PassengerName(given: "Ada", family: "Lovelace")]),
      token: token)
    #expect(booked.total == offer.price)
  }
}
