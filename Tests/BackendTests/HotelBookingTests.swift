import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

@Suite struct HotelBookingTests {
  let backend: TestBackend
  let engine: HotelEngine

  init() throws {
    backend = try TestBackend()
    engine = try Self.engine(backend.services, clock: backend.clock)
  }

  static func engine(_ services: BackendServices, clock: Locked<Date>) throws -> HotelEngine {
    try HotelEngine(
      world: try HotelWorld(cities: HotelFixtures.cities), inventory: StoredHotelInventory(database: services.database),
      eurRates: HotelFixtures.rates, resolvePlace: HotelFixtures.resolver(HotelFixtures.cities),
      booker: HotelBookings.booker(ledger: services.ledger), now: { clock.withLock { $0 } })
  }

  func firstOffer(_ checkIn: String = "2026-12-20", _ checkOut: String = "2026-12-23", rooms: Int = 1) throws
    -> HotelOffer
  {
    let request = HotelSearchRequest(
      place: "Paris", checkIn: .of(checkIn), checkOut: .of(checkOut), guests: 2, rooms: rooms, limit: 1)
    return try #require(try engine.search(request).offers.first)
  }

  func errorOf(_ body: () throws -> Void) -> ServiceError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ServiceError
    }
  }

  func available(_ offer: HotelOffer) throws -> Int {
    try engine.rooms(
      hotelId: offer.hotelId, checkIn: offer.checkIn, checkOut: offer.checkOut, guests: offer.guests, rooms: 1
    ).first { $0.roomType == offer.roomType }?.roomsAvailable ?? 0
  }

  @Test func book_takesARoomEveryNight_chargesTheTotal_andCancelGivesItBack() throws {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let offer = try firstOffer()
    let before = try available(offer)
    let reservation = try engine.book(HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace"), token: token)
    #expect(reservation.kind == .hotel)
    #expect(reservation.status == .confirmed)
    #expect(reservation.total == offer.total)
    #expect(reservation.details["nights"] == .integer(3))
    #expect(reservation.details["checkIn"] == .string("2026-12-20"))
    #expect(reservation.details["freeCancellationUntil"] == .string("2026-12-19T15:00:00+01:00"))
    #expect(try available(offer) == before - 1)
    // A stay that only shares the check-out day is not affected.
    let next = try engine.rooms(
      hotelId: offer.hotelId, checkIn: .of("2026-12-23"), checkOut: .of("2026-12-24"), guests: 2, rooms: 1)
    #expect(next.first { $0.roomType == offer.roomType }?.roomsAvailable == before)
    #expect(try backend.services.ledger.reservations(token: token).map(\.id) == [reservation.id])

    let cancelled = try backend.services.ledger.cancelReservation(id: reservation.id, token: token)
    #expect(cancelled.status == .cancelled)
    #expect(cancelled.refunded == offer.total)
    #expect(try available(offer) == before)
  }

  @Test func descriptionsAndStays_tellOneCheckInAndCheckOutTime() throws {
    // #14: a description said "Check-in from 14:00" while the policy and the trip said 15:00.
    let offers = try engine.search(
      HotelSearchRequest(place: "Paris", checkIn: .of("2026-12-20"), checkOut: .of("2026-12-23"), guests: 2, limit: 200)
    ).offers
    let descriptions = try Set(offers.map(\.hotelId)).map { try engine.details(hotelId: $0).description }
    let stating = descriptions.filter { $0.contains("Check-in from") }
    #expect(!stating.isEmpty, "no description of \(descriptions.count) names the check-in time: widen the sample")
    for text in stating {
      #expect(
        text.contains(
          "Check-in from \(HotelCancellation.checkInHour):00, check-out by \(HotelCancellation.checkOutHour):00"))
      #expect(!text.contains("{"), "a placeholder was left: \(text)")
    }
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let reservation = try engine.book(
      HotelBookingRequest(offerId: try firstOffer().id, guestName: "Ada Lovelace"), token: token)
    let paris = TimeZone(identifier: "Europe/Paris")!
    #expect(reservation.startsAt == LocalDate.of("2026-12-20").instant(hour: HotelCancellation.checkInHour, in: paris))
    #expect(reservation.endsAt == LocalDate.of("2026-12-23").instant(hour: HotelCancellation.checkOutHour, in: paris))
  }

  @Test func cancellation_isFreeUntil15hTheDayBefore_inTheHotelsTime_thenCostsTheFirstNight() throws {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let offer = try firstOffer()
    let late = try engine.book(HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace"), token: token)
    let early = try engine.book(
      HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace", allowDuplicate: true), token: token)
    // Paris is UTC+1 in December: the deadline 2026-12-19 15:00 local is 14:00 UTC.
    let deadline = Date(timeIntervalSince1970: 1_797_688_800)
    #expect(
      HotelCancellation.freeUntil(checkIn: .of("2026-12-20"), timeZone: TimeZone(identifier: "Europe/Paris")!)
        == deadline)
    backend.clock.withLock { $0 = deadline.addingTimeInterval(-60) }
    let token2 = try backend.services.accounts.signIn(email: "ada@example.com", password: "correct horse battery").token
    #expect(try backend.services.ledger.cancelReservation(id: early.id, token: token2).refunded == offer.total)
    backend.clock.withLock { $0 = deadline }
    let firstNight = (offer.nightlyRates[0].rate * (1 + offer.taxRate)).rounded()
    let refunded = try backend.services.ledger.cancelReservation(id: late.id, token: token2).refunded
    #expect(refunded == offer.total - firstNight)
    #expect(
      try available(offer) == (try engine.hotel(id: offer.hotelId)).rooms.first { $0.roomType == offer.roomType }!.count
    )
  }

  @Test func idempotencyKey_returnsTheFirstReservation_chargedOnce() throws {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let offer = try firstOffer()
    let before = try available(offer)
    let a = try engine.book(
      HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace", idempotencyKey: "k1"), token: token)
    let b = try engine.book(
      HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace", idempotencyKey: "k1"), token: token)
    #expect(a.id == b.id)
    #expect(try backend.services.ledger.reservations(token: token).count == 1)
    #expect(try available(offer) == before - 1)
  }

  @Test func priceMovedEitherWay_isRefused_withTheNewOffer_andTakesNothing() throws {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let offer = try firstOffer()
    // A quote made when the price was different (validly signed): higher and lower alike are refused.
    for change: Int64 in [-100, 100] {
      var id = try #require(HotelOfferID(offer.id))
      id.quotedMinorUnits += change
      id.signature = try OfferSigner.processLocal.signature(of: id.payload)
      let error = try #require(
        errorOf {
          _ = try engine.book(HotelBookingRequest(offerId: id.description, guestName: "Ada Lovelace"), token: token)
        })
      #expect(error.code == "price_changed")
      #expect(error.message.contains(change < 0 ? "rose" : "fell"))
      #expect(error.details["offerId"] == offer.id)
      #expect(error.details["price"] == offer.total.amountString)
    }
    #expect(try backend.services.ledger.reservations(token: token).isEmpty)
  }

  @Test func lastRoom_racingConnections_neverDoubleBook() async throws {
    let token = try backend.signedIn()
    try backend.addCard(token: token)
    let offer = try firstOffer("2027-02-01", "2027-02-03")
    let hotel = try engine.hotel(id: offer.hotelId)
    let count = try #require(hotel.rooms.first { $0.roomType == offer.roomType }?.count)
    // Fill all but one room of the type on the second night.
    try backend.services.database.run(
      "INSERT INTO hotel_room_nights (hotel_id, room_type, night, booked) VALUES (?, ?, '2027-02-02', ?)",
      offer.hotelId, offer.roomType.rawValue, count - 1)
    let engines = try (0..<8).map { _ in try Self.engine(try backend.secondConnection(), clock: backend.clock) }
    let outcomes = await withTaskGroup(of: String.self) { group in
      for engine in engines {
        group.addTask {
          do {
            _ = try engine.book(
              HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace", allowDuplicate: true), token: token)
            return "booked"
          } catch let error as ServiceError {
            return error.code
          } catch {
            return "\(error)"
          }
        }
      }
      var all: [String] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.filter { $0 == "booked" }.count == 1, "\(outcomes)")
    #expect(outcomes.allSatisfy { $0 == "booked" || $0 == "sold_out" }, "\(outcomes)")
    let booked: Int? = try backend.services.database.queryOne(
      "SELECT booked FROM hotel_room_nights WHERE hotel_id = ? AND room_type = ? AND night = '2027-02-02'",
      offer.hotelId, offer.roomType.rawValue)?.get("booked")
    #expect(booked == count)
  }
}
