/// An aircraft type, from `Shared/openflights/aircraft_types.csv` (OpenFlights planes.dat, ODbL 1.0).
public struct AircraftType: Hashable, Sendable, Codable {
  /// The name (`Boeing 737-800`).
  public var name: String
  /// The IATA 3-character type code used in ``Route/equipment`` (`738`), or "".
  public var iata: String
  /// The ICAO 4-character type designator (`B738`), or "".
  public var icao: String

  public init(name: String, iata: String, icao: String) {
    self.name = name
    self.iata = iata
    self.icao = icao
  }
}
