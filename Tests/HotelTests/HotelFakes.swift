import Common
import Foundation

/// A hotel service double: two hotels in Paris, records calls, can be told to fail.
final class FakeHotelService: HotelService, @unchecked Sendable {
  private let lock = NSLock()
  private var calls: [String] = []
  var failure: ServiceError?
  var bookedReservation: Reservation?

  var recordedCalls: [String] { lock.withLock { calls } }

  private func record(_ call: String) throws {
    lock.withLock { calls.append(call) }
    if let failure { throw failure }
  }

  static let center = HotelSearchCenter(name: "Paris, FR", latitude: 48.85341, longitude: 2.3488)

  static func offer(
    hotelId: String = "h2988507-1", name: String = "Quiet Harbour Hotel", roomType: RoomType = .double,
    nightly: Decimal = 100, km: Double = 1.5, stars: Int = 3, rating: Double = 8.1, currency: String = "EUR"
  ) -> HotelOffer {
    let checkIn = LocalDate("2026-12-20")!
    let checkOut = LocalDate("2026-12-23")!
    let subtotal = nightly * 3
    let total = Money(amount: subtotal * Decimal(string: "1.1")!, currency: currency).rounded()
    let id = HotelOfferID(
      hotelId: hotelId, roomType: roomType, stay: DateRange(start: checkIn, end: checkOut)!, guests: 2, rooms: 1,
      quotedMinorUnits: total.minorUnits, currency: currency, signature: OfferSignature.example)
    return HotelOffer(
      id: id.description, hotelId: hotelId, name: name, stars: stars, guestRating: rating, latitude: 48.86,
      longitude: 2.35, distanceKm: km, roomType: roomType, checkIn: checkIn, checkOut: checkOut, nights: 3, guests: 2,
      rooms: 1, roomsAvailable: 4, nightlyRate: Money(amount: nightly, currency: currency),
      nightlyRates: (0..<3).map {
        NightlyRate(date: checkIn.adding(days: $0), rate: Money(amount: nightly, currency: currency))
      },
      taxes: total - Money(amount: subtotal, currency: currency), taxRate: Decimal(string: "0.1")!, total: total,
      amenities: [.wifi], timeZone: "Europe/Paris")
  }

  static let hotel = Hotel(
    id: "h2988507-1", name: "Quiet Harbour Hotel", stars: 3, guestRating: 8.1, latitude: 48.86, longitude: 2.35,
    city: "Paris", countryCode: "FR", timeZone: "Europe/Paris", currency: "EUR", amenities: [.wifi, .breakfast],
    rooms: [RoomInventory(roomType: .double, count: 20)], address: "12 Mill Lane, Paris")

  var offers: [HotelOffer] = [
    offer(), offer(hotelId: "h2988507-2", name: "Grand Pier Suites", roomType: .suite, nightly: 300, km: 0.5, stars: 5),
  ]

  func search(_ request: HotelSearchRequest) throws -> HotelSearchResult {
    try record("search \(request.place) \(request.checkIn) \(request.checkOut) g\(request.guests) r\(request.rooms)")
    return HotelSearchResult(center: Self.center, radiusKm: request.radiusKm, offers: offers, matched: offers.count)
  }

  func hotel(id: String) throws -> Hotel {
    try record("hotel \(id)")
    return Self.hotel
  }

  func details(hotelId: String) throws -> HotelDetails {
    try record("details \(hotelId)")
    return HotelDetails(
      hotelId: hotelId, description: "A hotel in Paris.",
      reviews: [HotelReview(author: "Ada", score: 9, text: "Lovely.", date: LocalDate("2026-10-01")!)])
  }

  func rooms(hotelId: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int) throws -> [HotelOffer] {
    try record("rooms \(hotelId) \(checkIn) \(checkOut)")
    return [Self.offer(hotelId: hotelId)]
  }

  func quote(offerId: String) throws -> HotelOffer {
    try record("quote \(offerId)")
    return Self.offer()
  }

  func book(_ request: HotelBookingRequest, token: String) throws -> Reservation {
    try record(
      "book \(request.offerId) \(request.guestName) \(token)" + (request.cardId.map { " card \($0)" } ?? "")
        + (request.allowDuplicate ? " allow-duplicate" : ""))
    return Reservation(
      id: "res_1", kind: .hotel, status: .confirmed, total: Self.offer().total,
      createdAt: Date(timeIntervalSince1970: 0),
      summary: "Quiet Harbour Hotel, 2026-12-20 → 2026-12-23", locator: "ABC123")
  }

  func mapMarkers(in viewport: GeoRect, maxMarkers: Int) throws -> [HotelMapMarker] {
    try record("map")
    return [
      HotelMapMarker(latitude: 48.86, longitude: 2.35, count: 1, hotelId: "h2988507-1", stars: 3),
      HotelMapMarker(latitude: 48.85, longitude: 2.36, count: 1, hotelId: "h2988507-3", stars: 2),
      HotelMapMarker(latitude: 48.87, longitude: 2.34, count: 7),
    ]
  }
}
