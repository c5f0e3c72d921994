import Foundation

/// A kind of hotel room. The raw value is the CLI and JSON spelling (`double`).
public enum RoomType: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
  case single
  case double
  case twin
  case family
  case suite

  /// How many guests one room of this type sleeps (adults; children count as guests too).
  public var capacity: Int {
    switch self {
    case .single: 1
    case .double, .twin: 2
    case .suite: 3
    case .family: 4
    }
  }

  /// Position in ``allCases`` (cheap identity for compact storage).
  public var ordinal: Int { RoomType.allCases.firstIndex(of: self) ?? 0 }

  public static func < (lhs: RoomType, rhs: RoomType) -> Bool { lhs.ordinal < rhs.ordinal }
}

/// A facility of a hotel. The raw value is the CLI and JSON spelling (`--amenities wifi,pool`).
public enum Amenity: String, Hashable, Sendable, Codable, CaseIterable {
  case wifi
  case breakfast
  case pool
  case parking
  case gym
  case spa
  case pets
  case accessible
  case restaurant
  case bar
  case airportShuttle = "airport_shuttle"
  case airConditioning = "air_conditioning"

  /// How the amenity is named to a traveller (`Wi-Fi`, `Airport shuttle`); the raw value
  /// (`airport_shuttle`) is the name in `--amenities`, JSON and the API.
  public var displayName: String {
    switch self {
    case .wifi: "Wi-Fi"
    case .breakfast: "Breakfast"
    case .pool: "Pool"
    case .parking: "Parking"
    case .gym: "Gym"
    case .spa: "Spa"
    case .pets: "Pets allowed"
    case .accessible: "Step-free access"
    case .restaurant: "Restaurant"
    case .bar: "Bar"
    case .airportShuttle: "Airport shuttle"
    case .airConditioning: "Air conditioning"
    }
  }

  /// `amenities` as a traveller reads them: display names joined by ", " (`Wi-Fi, Pool, Spa`).
  public static func displayList(_ amenities: some Sequence<Amenity>) -> String {
    amenities.map(\.displayName).joined(separator: ", ")
  }

  /// The bit of this amenity in a compact set (see ``Amenity/mask(of:)``).
  public var bit: UInt16 { UInt16(1) << UInt16(Amenity.allCases.firstIndex(of: self) ?? 0) }

  /// A bit set of `amenities`.
  public static func mask(of amenities: some Sequence<Amenity>) -> UInt16 {
    amenities.reduce(0) { $0 | $1.bit }
  }

  /// The amenities whose bits are set in `mask`, in ``allCases`` order.
  public static func members(of mask: UInt16) -> [Amenity] { allCases.filter { mask & $0.bit != 0 } }

  /// Parses a comma-separated list (`wifi,pool`), case-insensitive, ignoring spaces.
  /// - Throws: ``ServiceError`` `unknown_amenity` (`.invalidInput`) naming the word and the accepted values.
  public static func parseList(_ text: String) throws -> [Amenity] {
    var result: [Amenity] = []
    for word in text.split(separator: ",") {
      let name = word.trimmingCharacters(in: .whitespaces).lowercased()
      if name.isEmpty { continue }
      guard let amenity = Amenity(rawValue: name) else {
        throw ServiceError.invalid(
          "unknown_amenity",
          "unknown amenity \"\(name)\": expected a comma-separated list of \(allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      if !result.contains(amenity) { result.append(amenity) }
    }
    return result
  }
}

/// How many rooms of one type a hotel has.
public struct RoomInventory: Hashable, Sendable, Codable {
  public var roomType: RoomType
  /// Rooms of this type in the hotel (all nights).
  public var count: Int

  public init(roomType: RoomType, count: Int) {
    self.roomType = roomType
    self.count = count
  }
}

/// A hotel of the generated inventory (see `Backend`'s hotel world for the model).
///
/// JSON: `{"id", "name", "stars", "guestRating", "latitude", "longitude", "city", "countryCode",
/// "timeZone", "currency", "amenities", "rooms": [{"roomType", "count"}], "address"}`.
public struct Hotel: Hashable, Sendable, Codable, Identifiable {
  /// Stable id, `h<GeoNames id of its city>-<n>` (`h2988507-17`).
  public var id: String
  public var name: String
  /// Official classification, 1–5.
  public var stars: Int
  /// Average guest review score, 1.0–10.0 (one decimal).
  public var guestRating: Double
  /// WGS84 decimal degrees.
  public var latitude: Double
  public var longitude: Double
  /// The city it belongs to, and that city's ISO 3166-1 alpha-2 country.
  public var city: String
  public var countryCode: String
  /// The IANA time zone of the hotel (its city's): check-in dates and the cancellation deadline
  /// are in this zone.
  public var timeZone: String
  /// ISO 4217 code of the currency its rates are quoted in.
  public var currency: String
  public var amenities: [Amenity]
  public var rooms: [RoomInventory]
  /// A street address made of generated words (not a real address).
  public var address: String

  public init(
    id: String, name: String, stars: Int, guestRating: Double, latitude: Double, longitude: Double, city: String,
    countryCode: String, timeZone: String, currency: String, amenities: [Amenity], rooms: [RoomInventory],
    address: String
  ) {
    self.id = id
    self.name = name
    self.stars = stars
    self.guestRating = guestRating
    self.latitude = latitude
    self.longitude = longitude
    self.city = city
    self.countryCode = countryCode
    self.timeZone = timeZone
    self.currency = currency
    self.amenities = amenities
    self.rooms = rooms
    self.address = address
  }
}

/// A guest review of a hotel (generated).
public struct HotelReview: Hashable, Sendable, Codable {
  public var author: String
  /// 1–10.
  public var score: Int
  public var text: String
  public var date: LocalDate

  public init(author: String, score: Int, text: String, date: LocalDate) {
    self.author = author
    self.score = score
    self.text = text
    self.date = date
  }
}

/// The slower parts of a hotel page, loaded only when shown.
public struct HotelDetails: Hashable, Sendable, Codable {
  public var hotelId: String
  public var description: String
  public var reviews: [HotelReview]

  public init(hotelId: String, description: String, reviews: [HotelReview]) {
    self.hotelId = hotelId
    self.description = description
    self.reviews = reviews
  }
}
