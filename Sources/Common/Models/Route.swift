/// A scheduled airline route between two airports, from `Shared/openflights/routes.csv`
/// (OpenFlights, routes as of June 2014, ODbL 1.0). Only routes whose two airports are in the
/// airport table are kept. Directional: `origin` → `destination`.
public struct Route: Hashable, Sendable, Codable {
  /// The operating (or, for a codeshare, marketing) airline: its IATA 2-character code, or its
  /// ICAO 3-letter code where OpenFlights gives that.
  public var airline: String
  /// IATA code of the departure airport.
  public var origin: String
  /// IATA code of the arrival airport.
  public var destination: String
  /// Whether the airline markets a flight operated by another carrier.
  public var codeshare: Bool
  /// Number of stops: 0 for a direct flight.
  public var stops: Int
  /// IATA aircraft type codes flown on the route (`["738", "320"]`); see ``AircraftType``.
  public var equipment: [String]

  public init(airline: String, origin: String, destination: String, codeshare: Bool, stops: Int, equipment: [String]) {
    self.airline = airline
    self.origin = origin
    self.destination = destination
    self.codeshare = codeshare
    self.stops = stops
    self.equipment = equipment
  }
}
