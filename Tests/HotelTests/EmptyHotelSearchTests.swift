import Common
import Foundation
import Testing

@testable import Hotel

/// Why a hotel search found nothing, asked of scripted answers: the conditions that alone find
/// offers are named with the option to change; a place without hotels and full hotels are told
/// apart by the map.
@Suite struct EmptyHotelSearchTests {
  let request = HotelSearchRequest(
    place: "Paris", checkIn: LocalDate("2026-12-20")!, checkOut: LocalDate("2026-12-21")!, guests: 1)

  func search(finds: @escaping (HotelSearchRequest) -> Bool) -> (HotelSearchRequest) throws -> HotelSearchResult {
    { asked in
      var result = HotelTestData.result
      if !finds(asked) {
        result.offers = []
        result.matched = 0
      }
      return result
    }
  }

  @Test func theConditionsThatAloneFindOffersAreNamed_withTheirOptions() throws {
    var capped = request
    capped.maxPrice = 5
    capped.currency = "EUR"
    capped.minStars = 5
    let empty = try EmptyHotelSearch(
      request: capped, center: FakeHotelService.center, search: search { $0.maxPrice == nil }, markers: { _, _ in [] })
    #expect(empty.cause == .conditions([.price]))
    #expect(
      empty.commandLineText
        == "No hotel within 10 km of Paris has a room for 1 guest free on every night from 2026-12-20 to 2026-12-21 "
        + "as asked: no room costs at most 5 EUR a night (try a higher --max-price).")
    #expect(!empty.screenText.contains("--"))
  }

  /// Only together the stars and the amenities empty it: both are named.
  @Test func conditionsThatOnlyTogetherEmptyItAreAllNamed() throws {
    var asked = request
    asked.minStars = 5
    asked.amenities = [.spa]
    let empty = try EmptyHotelSearch(
      request: asked, center: FakeHotelService.center,
      search: search { $0.minStars == nil && $0.amenities.isEmpty }, markers: { _, _ in [] })
    #expect(empty.cause == .conditions([.stars, .amenities]))
  }

  @Test func theOpenSeaHasNoHotel_andFullHotelsAreFull() throws {
    let sea = try EmptyHotelSearch(
      request: request, center: FakeHotelService.center, search: search { _ in false }, markers: { _, _ in [] })
    #expect(
      sea.commandLineText == "There is no hotel within 10 km of Paris: try another place or a larger --radius-km.")
    let full = try EmptyHotelSearch(
      request: request, center: FakeHotelService.center, search: search { _ in false },
      markers: { _, _ in [HotelMapMarker(latitude: 48.85, longitude: 2.35, count: 3)] })
    #expect(full.cause == .fullyBooked)
  }

  /// The map's rectangle holds the radius: 10 km is about 0.09° of latitude, and more degrees of
  /// longitude nearer the poles; it wraps at the antimeridian.
  @Test func theAreaHoldsTheRadius() {
    let paris = EmptyHotelSearch.area(around: FakeHotelService.center, radiusKm: 10)
    #expect(abs((paris.north - paris.south) - 2 * 10 / 111.32) < 1e-9)
    #expect(paris.east - paris.west > paris.north - paris.south)
    var fiji = FakeHotelService.center
    fiji.latitude = -17.7
    fiji.longitude = 179.99
    let wrapped = EmptyHotelSearch.area(around: fiji, radiusKm: 10)
    #expect(wrapped.west > wrapped.east)
  }
}
