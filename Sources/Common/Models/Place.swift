import Foundation

/// Where a search happens, as the user named it (see ``ReferenceData/resolvePlace(_:)``): an
/// airport, a metropolitan area with its airports, a city with the airports that serve it, or a
/// bare coordinate. Every place has a coordinate (degrees) and an IANA time zone.
public enum Place: Hashable, Sendable, Codable {
  /// An airport, from its IATA code (`SFO`) or a name that resolves to it.
  case airport(Airport)
  /// An IATA metropolitan area (`NYC`) and its airports, busiest first.
  case metroArea(MetroArea, airports: [Airport])
  /// A city and the airports with scheduled routes that serve it, busiest first (may be empty):
  /// see ``ReferenceData/airports(serving:)``.
  case city(City, airports: [Airport])
  /// A `lat,lon` position; the time zone is that of the nearest airport.
  case coordinate(Coordinate, timeZoneIdentifier: String)

  /// The centre: the airport's reference point, the area's or city's centre, or the coordinate.
  public var coordinate: Coordinate {
    switch self {
    case .airport(let airport): airport.coordinate
    case .metroArea(let area, _): area.coordinate
    case .city(let city, _): city.coordinate
    case .coordinate(let coordinate, _): coordinate
    }
  }

  /// The IANA time zone id.
  public var timeZoneIdentifier: String {
    switch self {
    case .airport(let airport): airport.timeZoneIdentifier
    case .metroArea(let area, _): area.timeZoneIdentifier
    case .city(let city, _): city.timeZoneIdentifier
    case .coordinate(_, let identifier): identifier
    }
  }

  /// The time zone (GMT if the id is unknown to Foundation).
  public var timeZone: TimeZone { TimeZone.named(timeZoneIdentifier) }

  /// The airports of the place: the airport itself, the area's or city's airports, none for a
  /// coordinate.
  public var airports: [Airport] {
    switch self {
    case .airport(let airport): [airport]
    case .metroArea(_, let airports), .city(_, let airports): airports
    case .coordinate: []
    }
  }

  /// The IATA airport or metropolitan code, if the place has one.
  public var code: String? {
    switch self {
    case .airport(let airport): airport.iata
    case .metroArea(let area, _): area.code
    case .city, .coordinate: nil
    }
  }

  /// The ISO 3166-1 alpha-2 country code, if known.
  public var countryCode: String? {
    switch self {
    case .airport(let airport): airport.countryCode
    case .metroArea(let area, _): area.countryCode
    case .city(let city, _): city.countryCode
    case .coordinate: nil
    }
  }

  /// A short name for people: `San Francisco International Airport (SFO)`, `New York (NYC)`,
  /// `Paris, FR`, `48.85000,2.35000`.
  public var displayName: String {
    switch self {
    case .airport(let airport): "\(airport.name) (\(airport.iata))"
    case .metroArea(let area, _): "\(area.name) (\(area.code))"
    case .city(let city, _): "\(city.name), \(city.countryCode)"
    case .coordinate(let coordinate, _): coordinate.description
    }
  }
}
