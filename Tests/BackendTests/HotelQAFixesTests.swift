import Common
import Foundation
import Testing

@testable import Backend

/// QA findings on hotels: check-in dates against today at the hotel, map viewports past the
/// world's edges, malformed hotel ids.
@Suite struct HotelQAFixesTests {
  static let honolulu = HotelWorld.City(
    geonameId: 5_856_195, name: "Honolulu", countryCode: "US", continent: "NA", latitude: 21.30694,
    longitude: -157.85834, population: 371_657, timeZone: "Pacific/Honolulu", currencyCode: "USD")
  static let apia = HotelWorld.City(
    geonameId: 4_035_413, name: "Apia", countryCode: "WS", continent: "OC", latitude: -13.83333, longitude: -171.76666,
    population: 40_407, timeZone: "Pacific/Apia", currencyCode: "WST")
  static let cities = HotelFixtures.cities + [honolulu, apia]

  /// 2026-11-30 04:53 UTC: 05:53 on the 30th in Paris, 18:53 on the 29th in Honolulu.
  static let earlyMorning = Date(timeIntervalSince1970: 1_796_014_380)

  static func engine(now: Date, booker: HotelEngine.Booker? = nil) throws -> HotelEngine {
    try HotelEngine(
      world: try HotelWorld(cities: cities), inventory: InMemoryHotelInventory(), eurRates: HotelFixtures.rates,
      resolvePlace: HotelFixtures.resolver(cities), booker: booker, now: { now })
  }

  func request(_ place: String, _ checkIn: String, _ checkOut: String) -> HotelSearchRequest {
    HotelSearchRequest(place: place, checkIn: .of(checkIn), checkOut: .of(checkOut), guests: 1, rooms: 1, limit: 50)
  }

  func error(_ body: () throws -> some Any) -> ServiceError? {
    do {
      _ = try body()
      return nil
    } catch let error as ServiceError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test func checkInBeforeTodayAtTheHotel_isRefused_namingTodayThere() throws {
    let engine = try Self.engine(now: Self.earlyMorning)
    let refused = try #require(error { try engine.search(request("Paris", "2026-11-29", "2026-12-01")) })
    #expect(refused.kind == .invalidInput)
    #expect(refused.code == "date_in_past")
    #expect(refused.message.contains("2026-11-30"), "\(refused.message)")
    #expect(refused.message.contains("Europe/Paris"), "\(refused.message)")
    // Today in Paris is accepted.
    #expect(try !engine.search(request("Paris", "2026-11-30", "2026-12-01")).offers.isEmpty)
  }

  @Test func checkInStillTodayAtTheHotel_isAccepted() throws {
    let engine = try Self.engine(now: Self.earlyMorning)
    let offers = try engine.search(request("Honolulu", "2026-11-29", "2026-12-01")).offers
    #expect(!offers.isEmpty)
    #expect(offers.allSatisfy { $0.timeZone == "Pacific/Honolulu" })
    let hotel = try #require(offers.first?.hotelId)
    #expect(
      try !engine.rooms(hotelId: hotel, checkIn: .of("2026-11-29"), checkOut: .of("2026-12-01"), guests: 1, rooms: 1)
        .isEmpty)
  }

  @Test func roomsQuoteAndBook_recheckAgainstTheHotelsZone_andChargeNothing() throws {
    // An offer found the day before, booked once the check-in is past in Paris.
    let dayBefore = try Self.engine(now: Self.earlyMorning.addingTimeInterval(-86_400))
    let offer = try #require(try dayBefore.search(request("Paris", "2026-11-29", "2026-12-01")).offers.first)
    let engine = try Self.engine(now: Self.earlyMorning) { _, _, _, _ in
      Issue.record("the booker (payment) must not be called")
      throw ServiceError.refused("unexpected", "unexpected")
    }
    let fromRooms = error {
      try engine.rooms(
        hotelId: offer.hotelId, checkIn: .of("2026-11-29"), checkOut: .of("2026-12-01"), guests: 1, rooms: 1)
    }
    #expect(fromRooms?.code == "date_in_past")
    #expect(error { try engine.quote(offerId: offer.id) }?.code == "date_in_past")
    let fromBook = error {
      try engine.book(HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace"), token: "t")
    }
    #expect(fromBook?.code == "date_in_past")
    #expect(fromBook?.kind == .invalidInput)
  }

  @Test func searchAcrossZones_dropsOnlyTheHotelsWhereTheDateIsPast() throws {
    // 12:30 UTC on the 30th: already 1 December in Fiji (UTC+12), still the 30th in Paris.
    let engine = try Self.engine(now: Date(timeIntervalSince1970: 1_796_041_800))
    let refused = error { try engine.search(request("Suva", "2026-11-30", "2026-12-02")) }
    #expect(refused?.code == "date_in_past")
    #expect(refused?.message.contains("2026-12-01") == true)
    #expect(try !engine.search(request("Paris", "2026-11-30", "2026-12-02")).offers.isEmpty)
  }

  @Test func mapViewportAcrossTheAntimeridian_returnsHotelsFromBothSides() throws {
    let engine = try Self.engine(now: HotelFixtures.now)
    let markers = try engine.mapMarkers(in: GeoRect(south: -25, west: 170, north: -10, east: -170), maxMarkers: 10_000)
    #expect(markers.contains { $0.longitude > 170 })
    #expect(markers.contains { $0.longitude < -170 })
    #expect(markers.allSatisfy { $0.longitude >= 170 || $0.longitude <= -170 })
    // The same area asked as 170…190 (past 180) wraps the same way.
    let past = try engine.mapMarkers(in: GeoRect(south: -25, west: 170, north: -10, east: 190), maxMarkers: 10_000)
    #expect(past == markers)
  }

  @Test func mapViewportWiderThanTheWorld_showsTheWholeWorld() throws {
    let engine = try Self.engine(now: HotelFixtures.now)
    let total = try engine.mapMarkers(in: GeoRect(south: -90, west: -180, north: 90, east: 180), maxMarkers: 64)
      .map(\.count).reduce(0, +)
    #expect(total > 0)
    // Zoom 0 panned left a quarter: −270…90, and latitudes past ±90.
    for viewport in [
      GeoRect(south: -120, west: -270, north: 160, east: 90), GeoRect(south: -95, west: -200, north: 95, east: 200),
    ] {
      let markers = try engine.mapMarkers(in: viewport, maxMarkers: 64)
      #expect(markers.map(\.count).reduce(0, +) == total)
      #expect(markers.allSatisfy { (-180...180).contains($0.longitude) })
    }
    #expect(
      error { try engine.mapMarkers(in: GeoRect(south: .nan, west: 0, north: 1, east: 1), maxMarkers: 64) }?.code
        == "invalid_coordinate")
  }

  @Test func malformedHotelId_isInvalidInput_unknownWellFormedId_isNotFound() throws {
    let engine = try Self.engine(now: HotelFixtures.now)
    for id in ["nope", "h", "h-1", "h12-", "x2988507-1", "h2988507-1-2", "h2988507_1", "h29885O7-1"] {
      let failure = error { try engine.details(hotelId: id) }
      #expect(failure?.code == "invalid_hotel_id", "\(id)")
      #expect(failure?.kind == .invalidInput)
      #expect(failure?.message.contains("h2988507-17") == true)
    }
    let unknown = error { try engine.details(hotelId: "h1-1") }
    #expect(unknown?.code == "hotel_not_found")
    #expect(unknown?.kind == .notFound)
    let known = try #require(try engine.search(request("Paris", "2026-12-20", "2026-12-23")).offers.first?.hotelId)
    #expect(try engine.details(hotelId: known).hotelId == known)
  }
}
