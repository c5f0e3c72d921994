import Foundation

/// A city of at least 100,000 inhabitants, from `Shared/geonames/cities.csv` (GeoNames, CC BY 4.0;
/// see `Shared/geonames/SOURCE.md`).
public struct City: Hashable, Sendable, Codable {
  /// The GeoNames id (stable).
  public var geonameID: Int
  /// The name, usually the local name in Latin script with diacritics (`Zürich`, `São Paulo`).
  public var name: String
  /// The ISO 3166-1 alpha-2 country code.
  public var countryCode: String
  /// The GeoNames first-level subdivision code (country-specific: `NY` in the US, often numeric).
  public var admin1: String
  /// Latitude of the centre, decimal degrees (WGS84).
  public var latitude: Double
  /// Longitude of the centre, decimal degrees (WGS84).
  public var longitude: Double
  /// The population as given by GeoNames.
  public var population: Int
  /// The IANA time zone id.
  public var timeZoneIdentifier: String

  public init(
    geonameID: Int, name: String, countryCode: String, admin1: String, latitude: Double, longitude: Double,
    population: Int, timeZoneIdentifier: String
  ) {
    self.geonameID = geonameID
    self.name = name
    self.countryCode = countryCode
    self.admin1 = admin1
    self.latitude = latitude
    self.longitude = longitude
    self.population = population
    self.timeZoneIdentifier = timeZoneIdentifier
  }

  /// The centre, in decimal degrees.
  public var coordinate: Coordinate { Coordinate(uncheckedLatitude: latitude, longitude: longitude) }

  /// The city's time zone (GMT if the id is unknown to Foundation).
  public var timeZone: TimeZone { TimeZone.named(timeZoneIdentifier) }
}
