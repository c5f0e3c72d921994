/// An airline, from `Shared/openflights/airlines.csv` (OpenFlights, ODbL 1.0; see
/// `Shared/openflights/SOURCE.md`). IATA codes are reused by several airlines: look airlines up
/// through ``ReferenceData/airline(code:)``, which prefers the active one.
public struct Airline: Hashable, Sendable, Codable {
  /// The IATA 2-character code (`UA`), or "" when it has none.
  public var iata: String
  /// The ICAO 3-letter code (`UAL`), or "" when it has none.
  public var icao: String
  /// The name (`United Airlines`).
  public var name: String
  /// The country, as a name (`United States`), not an ISO code; "" when unknown.
  public var country: String
  /// Whether OpenFlights marks it as operating (as of its 2017 snapshot).
  public var active: Bool

  public init(iata: String, icao: String, name: String, country: String, active: Bool) {
    self.iata = iata
    self.icao = icao
    self.name = name
    self.country = country
    self.active = active
  }
}
