import Common
import Foundation
import Testing

@testable import Backend

@Suite struct HotelEngineTests {
  func request(
    _ place: String = "Paris", _ checkIn: String = "2026-12-20", _ checkOut: String = "2026-12-23", guests: Int = 2,
    rooms: Int = 1, sort: HotelSortOrder = .price
  ) -> HotelSearchRequest {
    HotelSearchRequest(
      place: place, checkIn: .of(checkIn), checkOut: .of(checkOut), guests: guests, rooms: rooms, sort: sort,
      limit: 1000)
  }

  @Test func search_findsHotelsInRadius_sortedByPrice_withNightsAndTotals() throws {
    let engine = try HotelFixtures.engine()
    let result = try engine.search(request())
    #expect(!result.offers.isEmpty)
    for offer in result.offers {
      #expect(offer.distanceKm <= 10)
      #expect(offer.nights == 3)
      #expect(offer.nightlyRates.map(\.date.description) == ["2026-12-20", "2026-12-21", "2026-12-22"])
      #expect(offer.total.currencyCode == "EUR")
      let subtotal = offer.nightlyRates.map(\.rate).sum(in: "EUR") * Decimal(offer.rooms)
      #expect(offer.total == (subtotal * (1 + offer.taxRate)).rounded())
      #expect(offer.taxes == offer.total - subtotal)
      #expect(offer.roomType.capacity >= 2)
      #expect(HotelOfferID(offer.id)?.description == offer.id)
    }
    let totals = result.offers.map(\.total.amount)
    #expect(totals == totals.sorted())
  }

  @Test func search_sortsByDistanceStarsAndRating() throws {
    let engine = try HotelFixtures.engine()
    let byDistance = try engine.search(request(sort: .distance)).offers.map(\.distanceKm)
    #expect(byDistance == byDistance.sorted())
    let byStars = try engine.search(request(sort: .stars)).offers.map(\.stars)
    #expect(byStars == byStars.sorted(by: >))
    let byRating = try engine.search(request(sort: .rating)).offers.map(\.guestRating)
    #expect(byRating == byRating.sorted(by: >))
  }

  @Test func search_filters_starsAmenitiesAndPrice() throws {
    let engine = try HotelFixtures.engine()
    var filtered = request()
    filtered.minStars = 4
    filtered.amenities = [.pool, .wifi]
    filtered.maxPrice = 400
    let offers = try engine.search(filtered).offers
    #expect(!offers.isEmpty)
    for offer in offers {
      #expect(offer.stars >= 4)
      #expect(offer.amenities.contains(.pool) && offer.amenities.contains(.wifi))
      #expect(offer.nightlyRate.amount <= 400)
    }
  }

  @Test func maxPrice_isInTheUsersPreferredCurrency_whenNoneIsGiven() throws {
    var filtered = request()
    filtered.maxPrice = 400
    let local = try HotelFixtures.engine().search(filtered).offers
    #expect(!local.isEmpty)
    // 400 JPY is about 2.4 EUR: nothing in these cities costs that little.
    let yen = try HotelFixtures.engine(defaultCurrency: "JPY").search(filtered).offers
    #expect(yen.isEmpty)
    // An explicit --currency wins over the preference.
    filtered.currency = "EUR"
    let euros = try HotelFixtures.engine().search(filtered).offers.count
    #expect(euros > 0)
    #expect(try HotelFixtures.engine(defaultCurrency: "JPY").search(filtered).offers.count == euros)
  }

  @Test func weekendAndSeason_changeTheRate() throws {
    let engine = try HotelFixtures.engine()
    let hotel = try #require(try engine.search(request()).offers.first?.hotelId)
    let weekday = try engine.rooms(
      hotelId: hotel, checkIn: .of("2027-07-07"), checkOut: .of("2027-07-08"), guests: 1, rooms: 1)
    let friday = try engine.rooms(
      hotelId: hotel, checkIn: .of("2027-07-09"), checkOut: .of("2027-07-10"), guests: 1, rooms: 1)
    let january = try engine.rooms(
      hotelId: hotel, checkIn: .of("2027-01-13"), checkOut: .of("2027-01-14"), guests: 1, rooms: 1)
    #expect(friday[0].nightlyRate.amount > weekday[0].nightlyRate.amount)
    #expect(january[0].nightlyRate.amount < weekday[0].nightlyRate.amount)
    // Sydney's summer is in January.
    let sydney = try #require(try engine.search(request("Sydney")).offers.first?.hotelId)
    let julyS = try engine.rooms(
      hotelId: sydney, checkIn: .of("2027-07-07"), checkOut: .of("2027-07-08"), guests: 1, rooms: 1)
    let janS = try engine.rooms(
      hotelId: sydney, checkIn: .of("2027-01-13"), checkOut: .of("2027-01-14"), guests: 1, rooms: 1)
    #expect(janS[0].nightlyRate.amount > julyS[0].nightlyRate.amount)
    #expect(janS[0].total.currencyCode == "AUD")
  }

  @Test func roomType_isOfferedOnlyWhenFreeOnEveryNight() throws {
    let inventory = InMemoryHotelInventory()
    let engine = try HotelFixtures.engine(inventory: inventory)
    let offer = try #require(try engine.search(request()).offers.first)
    let hotel = try engine.hotel(id: offer.hotelId)
    let count = try #require(hotel.rooms.first { $0.roomType == offer.roomType }?.count)
    // Fill that room type on the middle night only.
    let middle = try #require(DateRange(start: .of("2026-12-21"), end: .of("2026-12-22")))
    inventory.add(count, of: HotelRoomKey(hotelId: offer.hotelId, roomType: offer.roomType), during: middle)
    let covering = try engine.rooms(
      hotelId: offer.hotelId, checkIn: .of("2026-12-20"), checkOut: .of("2026-12-23"), guests: 2, rooms: 1)
    #expect(!covering.contains { $0.roomType == offer.roomType })
    let before = try engine.rooms(
      hotelId: offer.hotelId, checkIn: .of("2026-12-19"), checkOut: .of("2026-12-21"), guests: 2, rooms: 1)
    #expect(before.contains { $0.roomType == offer.roomType && $0.roomsAvailable == count })
    let after = try engine.rooms(
      hotelId: offer.hotelId, checkIn: .of("2026-12-22"), checkOut: .of("2026-12-24"), guests: 2, rooms: 1)
    #expect(after.contains { $0.roomType == offer.roomType })
    #expect(throws: ServiceError.self) { try engine.quote(offerId: offer.id) }
  }

  @Test func invalidRequests_areInvalidInput_withCodes() throws {
    let engine = try HotelFixtures.engine()
    func code(_ change: (inout HotelSearchRequest) -> Void) -> String? {
      var r = request()
      change(&r)
      do {
        _ = try engine.search(r)
        return nil
      } catch let error as ServiceError {
        #expect(error.kind == .invalidInput)
        return error.code
      } catch {
        return "other"
      }
    }
    #expect(code { $0.checkOut = $0.checkIn } == "invalid_dates")
    #expect(code { $0.checkOut = .of("2027-01-30") } == "too_many_nights")
    #expect(code { $0.checkIn = .of("2026-11-01") } == "date_in_past")
    #expect(code { $0.guests = 0 } == "invalid_guests")
    #expect(code { $0.guests = 21 } == "invalid_guests")
    #expect(code { $0.rooms = 0 } == "invalid_rooms")
    #expect(code { $0.rooms = 3 } == "invalid_rooms")
    #expect(
      code {
        $0.guests = 9
        $0.rooms = 2
      } == "invalid_guests")
    #expect(code { $0.radiusKm = -1 } == "invalid_radius")
    #expect(code { $0.maxPrice = -5 } == "invalid_price")
    #expect(
      code {
        $0.checkIn = .of("9999-12-20")
        $0.checkOut = .of("9999-12-23")
      } == "date_too_far")
    #expect(code { $0.minStars = 6 } == "invalid_stars")
    #expect(code { $0.place = "Atlantis" } == "unknown_place")
  }

  @Test func offerId_roundTrips_andRejectsJunk() throws {
    let id = HotelOfferID(
      hotelId: "h2988507-17", roomType: .double, stay: DateRange(start: .of("2026-12-20"), end: .of("2026-12-23"))!,
      guests: 2, rooms: 1, quotedMinorUnits: 45678, currency: "EUR", signature: OfferSignature.example)
    #expect(id.payload == "hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR")
    #expect(id.description == id.payload + "_" + OfferSignature.example)
    #expect(HotelOfferID(id.description) == id)
    #expect(HotelOfferID(id.payload) == nil)
    for junk in [
      "", "hof_", "hof_h1-1_penthouse_20261220_20261223_2g1r_1EUR", "hof_h1-1_double_20261223_20261220_2g1r_1EUR",
      "hof_h1-1_double_20261220_20261223_2g1_1EUR",
    ] {
      #expect(HotelOfferID(junk) == nil)
    }
  }
}
