import Foundation

/// An airport with an IATA code, from `Shared/airports/airports.csv` (airportsdata 20260905, MIT;
/// see `Shared/airports/SOURCE.md`). Only the 7,884 airports that have an IATA code are kept.
public struct Airport: Hashable, Sendable, Codable {
  /// The IATA 3-letter location code, upper case (`SFO`).
  public var iata: String
  /// The ICAO 4-letter indicator (`KSFO`); a pseudo-identifier where none exists.
  public var icao: String
  /// The official name in Latin script, with diacritics (`San Francisco International Airport`).
  public var name: String
  /// The city served (`San Francisco`).
  public var city: String
  /// The subdivision (state, province, region), or "".
  public var subdivision: String
  /// The ISO 3166-1 alpha-2 country code (`US`; `NA` is Namibia).
  public var countryCode: String
  /// Latitude of the airport reference point, decimal degrees (WGS84), north positive.
  public var latitude: Double
  /// Longitude of the airport reference point, decimal degrees (WGS84), east positive.
  public var longitude: Double
  /// The IANA time zone id (`America/Los_Angeles`).
  public var timeZoneIdentifier: String

  public init(
    iata: String, icao: String, name: String, city: String, subdivision: String, countryCode: String,
    latitude: Double, longitude: Double, timeZoneIdentifier: String
  ) {
    self.iata = iata
    self.icao = icao
    self.name = name
    self.city = city
    self.subdivision = subdivision
    self.countryCode = countryCode
    self.latitude = latitude
    self.longitude = longitude
    self.timeZoneIdentifier = timeZoneIdentifier
  }

  /// The position, in decimal degrees.
  public var coordinate: Coordinate { Coordinate(uncheckedLatitude: latitude, longitude: longitude) }

  /// The airport's time zone (``timeZoneIdentifier``; GMT if Foundation does not know the id,
  /// which the reference data test rules out for every shipped airport).
  public var timeZone: TimeZone { TimeZone.named(timeZoneIdentifier) }
}

extension TimeZone {
  /// The zone with IANA id `identifier`, or GMT when the id is unknown.
  static func named(_ identifier: String) -> TimeZone {
    TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
  }
}
