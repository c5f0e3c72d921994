import Foundation

/// An IATA metropolitan area (multi-airport city) code such as `NYC`, `LON`, `PAR`, `TYO`, `CHI`
/// or `WAS`, from `Shared/airports/iata_metro_areas.csv` (airportsdata 20260905, MIT). The code is
/// not an airport itself.
public struct MetroArea: Hashable, Sendable, Codable {
  /// The IATA metropolitan code (`NYC`).
  public var code: String
  /// The name (`New York`).
  public var name: String
  /// The ISO 3166-1 alpha-2 country code.
  public var countryCode: String
  /// IATA codes of its airports that are in the airport table, sorted (`["EWR", "JFK", "LGA"]`).
  public var airportCodes: [String]
  /// Latitude of the centre, decimal degrees: the same-named city's centre, else the mean of its airports'.
  public var latitude: Double
  /// Longitude of the centre, decimal degrees (see ``latitude``).
  public var longitude: Double
  /// The IANA time zone id of its first airport.
  public var timeZoneIdentifier: String

  public init(
    code: String, name: String, countryCode: String, airportCodes: [String], latitude: Double, longitude: Double,
    timeZoneIdentifier: String
  ) {
    self.code = code
    self.name = name
    self.countryCode = countryCode
    self.airportCodes = airportCodes
    self.latitude = latitude
    self.longitude = longitude
    self.timeZoneIdentifier = timeZoneIdentifier
  }

  /// The centre, in decimal degrees.
  public var coordinate: Coordinate { Coordinate(uncheckedLatitude: latitude, longitude: longitude) }

  /// The area's time zone (GMT if the id is unknown to Foundation).
  public var timeZone: TimeZone { TimeZone.named(timeZoneIdentifier) }
}
