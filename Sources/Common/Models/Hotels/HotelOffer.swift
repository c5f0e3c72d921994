import Foundation

/// What a hotel offer's price is for one night of the stay (per room, before taxes).
public struct NightlyRate: Hashable, Sendable, Codable {
  /// The night (the local date the guest sleeps there).
  public var date: LocalDate
  public var rate: Money

  public init(date: LocalDate, rate: Money) {
    self.date = date
    self.rate = rate
  }
}

/// The parts of an offer id: which hotel, which room type, which stay, how many guests and rooms,
/// the quoted total in minor units, and the signature. `book` checks the signature
/// (`invalid_offer_id`), re-prices the offer and compares (`price_changed`).
///
/// Text form (stable, parseable):
/// `hof_<hotelId>_<roomType>_<YYYYMMDD>_<YYYYMMDD>_<guests>g<rooms>r_<total minor units><CUR>_<signature>`,
/// e.g. `hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR_5d1e0c9b7a3f42e8b6d09a1c7e4f2b38`; the
/// signature (``OfferSignature``) covers ``payload``, everything before it.
public struct HotelOfferID: Hashable, Sendable, CustomStringConvertible {
  public var hotelId: String
  public var roomType: RoomType
  public var stay: DateRange
  public var guests: Int
  public var rooms: Int
  /// The quoted total (with taxes) in minor units of `currency`.
  public var quotedMinorUnits: Int64
  public var currency: String
  /// The signature of ``payload`` (``OfferSignature``); empty until the backend signs the id.
  public var signature: String

  public init(
    hotelId: String, roomType: RoomType, stay: DateRange, guests: Int, rooms: Int, quotedMinorUnits: Int64,
    currency: String, signature: String = ""
  ) {
    self.signature = signature
    self.hotelId = hotelId
    self.roomType = roomType
    self.stay = stay
    self.guests = guests
    self.rooms = rooms
    self.quotedMinorUnits = quotedMinorUnits
    self.currency = currency
  }

  /// Parses the text form; nil when `text` is not an offer id or has no well-formed signature
  /// (whether the signature matches is the backend's check).
  public init?(_ text: String) {
    var parts = text.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 8, OfferSignature.isWellFormed(parts[7]) else { return nil }
    let signature = parts.removeLast()
    guard parts[0] == "hof", !parts[1].isEmpty, let roomType = RoomType(rawValue: parts[2]),
      let start = Self.date(parts[3]), let end = Self.date(parts[4]), let stay = DateRange(start: start, end: end)
    else { return nil }
    let occupancy = parts[5]
    guard occupancy.hasSuffix("r"), let g = occupancy.firstIndex(of: "g"),
      let guests = Int(occupancy[..<g]),
      let rooms = Int(occupancy[occupancy.index(after: g)..<occupancy.index(before: occupancy.endIndex)]),
      guests > 0, rooms > 0
    else { return nil }
    let price = parts[6]
    guard price.count > 3 else { return nil }
    let currency = String(price.suffix(3))
    guard currency.allSatisfy({ $0.isASCII && $0.isUppercase }), let minor = Int64(price.dropLast(3)), minor >= 0
    else { return nil }
    self.init(
      hotelId: parts[1], roomType: roomType, stay: stay, guests: guests, rooms: rooms, quotedMinorUnits: minor,
      currency: currency, signature: signature)
  }

  /// The text form: ``payload``, then `_` and the signature.
  public var description: String { signature.isEmpty ? payload : payload + "_" + signature }

  /// What the signature covers: the text form without its signature.
  public var payload: String {
    func compact(_ date: LocalDate) -> String {
      let (year, month, day) = date.components
      return String(year * 10_000 + month * 100 + day)
    }
    return "hof_\(hotelId)_\(roomType.rawValue)_\(compact(stay.start))_\(compact(stay.end))_\(guests)g\(rooms)r_"
      + "\(quotedMinorUnits)\(currency)"
  }

  private static func date(_ text: String) -> LocalDate? {
    guard text.count == 8, text.allSatisfy(\.isASCII) else { return nil }
    let chars = Array(text)
    return LocalDate("\(String(chars[0..<4]))-\(String(chars[4..<6]))-\(String(chars[6..<8]))")
  }
}

/// A bookable room type of a hotel for one stay, priced.
///
/// Amounts are in the hotel's currency. `nightlyRate` is the average rate of one room per night
/// before taxes; `total` is the whole stay for all rooms with taxes:
/// `total = round((Σ nightly rates) × rooms × (1 + taxRate))`.
public struct HotelOffer: Hashable, Sendable, Codable, Identifiable {
  /// See ``HotelOfferID``.
  public var id: String
  public var hotelId: String
  public var name: String
  public var stars: Int
  public var guestRating: Double
  public var latitude: Double
  public var longitude: Double
  /// Great-circle distance from the searched place, in kilometres.
  public var distanceKm: Double
  public var roomType: RoomType
  public var checkIn: LocalDate
  public var checkOut: LocalDate
  /// Check-out − check-in, in calendar days.
  public var nights: Int
  public var guests: Int
  public var rooms: Int
  /// Rooms of this type free on every night of the stay.
  public var roomsAvailable: Int
  /// Average nightly rate of one room, before taxes.
  public var nightlyRate: Money
  /// Each night's rate of one room, before taxes.
  public var nightlyRates: [NightlyRate]
  /// Taxes and fees of the whole stay.
  public var taxes: Money
  /// The tax rate applied to the room price (0.10 = 10 %).
  public var taxRate: Decimal
  /// The whole stay, all rooms, with taxes.
  public var total: Money
  public var amenities: [Amenity]
  /// The hotel's IANA time zone.
  public var timeZone: String

  public init(
    id: String, hotelId: String, name: String, stars: Int, guestRating: Double, latitude: Double, longitude: Double,
    distanceKm: Double, roomType: RoomType, checkIn: LocalDate, checkOut: LocalDate, nights: Int, guests: Int,
    rooms: Int, roomsAvailable: Int, nightlyRate: Money, nightlyRates: [NightlyRate], taxes: Money, taxRate: Decimal,
    total: Money, amenities: [Amenity], timeZone: String
  ) {
    self.id = id
    self.hotelId = hotelId
    self.name = name
    self.stars = stars
    self.guestRating = guestRating
    self.latitude = latitude
    self.longitude = longitude
    self.distanceKm = distanceKm
    self.roomType = roomType
    self.checkIn = checkIn
    self.checkOut = checkOut
    self.nights = nights
    self.guests = guests
    self.rooms = rooms
    self.roomsAvailable = roomsAvailable
    self.nightlyRate = nightlyRate
    self.nightlyRates = nightlyRates
    self.taxes = taxes
    self.taxRate = taxRate
    self.total = total
    self.amenities = amenities
    self.timeZone = timeZone
  }

  /// Room price of the whole stay before taxes (`total − taxes`).
  public var subtotal: Money { total - taxes }
}

/// How search results are ordered. Ties break by hotel id, then room type.
public enum HotelSortOrder: String, Hashable, Sendable, Codable, CaseIterable {
  /// Total, cheapest first.
  case price
  /// Distance from the searched place, nearest first.
  case distance
  /// Stars, most first (then price).
  case stars
  /// Guest rating, best first (then price).
  case rating
}

/// A hotel search. Validation (``ServiceError`` `.invalidInput`) is the service's: nights 1–30,
/// check-in not in the past, guests 1–``maxGuests``, rooms 1–``maxRooms`` and not more rooms than guests,
/// radius over 0 and at most ``maxRadiusKm``, price not negative, stars 1–5, limit 1–1000.
public struct HotelSearchRequest: Hashable, Sendable, Codable {
  public static let maxGuests = 20
  public static let maxRooms = 9
  public static let maxNights = 30
  /// The furthest check-in a search or booking may ask for, in days after today (hotels, like
  /// airlines, sell about a year out).
  public static let maxDaysAhead = 365
  public static let maxRadiusKm = 500.0
  public static let defaultRadiusKm = 10.0

  /// A city name, an IATA airport or metro code, or `lat,lon`.
  public var place: String
  public var checkIn: LocalDate
  public var checkOut: LocalDate
  public var guests: Int
  public var rooms: Int
  /// Great-circle radius around the place, kilometres.
  public var radiusKm: Double
  public var minStars: Int?
  /// Highest average nightly rate of one room, in `currency` (the user's), or in each hotel's own
  /// currency when `currency` is nil.
  public var maxPrice: Decimal?
  /// ISO 4217 code of the user's currency (for `maxPrice`).
  public var currency: String?
  /// Every listed amenity must be present.
  public var amenities: [Amenity]
  public var sort: HotelSortOrder
  public var limit: Int

  public init(
    place: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int = 1, rooms: Int = 1,
    radiusKm: Double = HotelSearchRequest.defaultRadiusKm, minStars: Int? = nil, maxPrice: Decimal? = nil,
    currency: String? = nil, amenities: [Amenity] = [], sort: HotelSortOrder = .price, limit: Int = 50
  ) {
    self.place = place
    self.checkIn = checkIn
    self.checkOut = checkOut
    self.guests = guests
    self.rooms = rooms
    self.radiusKm = radiusKm
    self.minStars = minStars
    self.maxPrice = maxPrice
    self.currency = currency
    self.amenities = amenities
    self.sort = sort
    self.limit = limit
  }
}

/// The place a search was centred on, as resolved.
public struct HotelSearchCenter: Hashable, Sendable, Codable {
  /// What it resolved to (`Paris, FR`, `CDG`, `48.8566,2.3522`).
  public var name: String
  public var latitude: Double
  public var longitude: Double

  public init(name: String, latitude: Double, longitude: Double) {
    self.name = name
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// The answer to a ``HotelSearchRequest``: the resolved centre and the offers, in order.
public struct HotelSearchResult: Hashable, Sendable, Codable {
  public var center: HotelSearchCenter
  public var radiusKm: Double
  public var offers: [HotelOffer]
  /// How many offers matched before `limit`.
  public var matched: Int

  public init(center: HotelSearchCenter, radiusKm: Double, offers: [HotelOffer], matched: Int) {
    self.center = center
    self.radiusKm = radiusKm
    self.offers = offers
    self.matched = matched
  }
}

/// A rectangle of the map in WGS84 degrees. `west > east` crosses the antimeridian.
public struct GeoRect: Hashable, Sendable, Codable {
  public var south: Double
  public var west: Double
  public var north: Double
  public var east: Double

  public init(south: Double, west: Double, north: Double, east: Double) {
    self.south = south
    self.west = west
    self.north = north
    self.east = east
  }
}

/// One thing to draw on the map: a single hotel, or a cluster of hotels too dense to show one
/// by one (at the cluster's centroid).
public struct HotelMapMarker: Hashable, Sendable, Codable {
  public var latitude: Double
  public var longitude: Double
  /// Hotels in the marker (1 for a single hotel).
  public var count: Int
  /// The hotel's id when `count == 1`.
  public var hotelId: String?
  /// The hotel's stars when `count == 1`.
  public var stars: Int?

  public init(latitude: Double, longitude: Double, count: Int, hotelId: String? = nil, stars: Int? = nil) {
    self.latitude = latitude
    self.longitude = longitude
    self.count = count
    self.hotelId = hotelId
    self.stars = stars
  }
}
