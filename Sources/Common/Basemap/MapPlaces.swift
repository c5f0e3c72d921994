import Foundation

/// A place a map may label: a city by its name, or an airport by its IATA code.
public struct MapPlace: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case city
    case airport
  }

  public var kind: Kind
  /// The text written on the map: the city's name (`Zürich`) or the airport's code (`ZRH`).
  public var label: String
  /// Degrees, north positive.
  public var latitude: Double
  /// Degrees, east positive, −180…180.
  public var longitude: Double

  public init(kind: Kind, label: String, latitude: Double, longitude: Double) {
    self.kind = kind
    self.label = label
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// The places a map labels, most important first: the cities of the reference data by population
/// (GeoNames, ≥ 100,000 people), then the airports with scheduled routes by their number of
/// routes (OpenFlights). A map writes as many as fit without overlapping, in this order, so the
/// biggest cities are named first at any zoom; airports are labelled from ``airportZoom`` on.
public final class MapPlaces: Sendable {
  /// Airports are labelled from this zoom (``MapViewport``'s 0–18) on.
  public static let airportZoom = 7

  public let cities: [MapPlace]
  public let airports: [MapPlace]

  private static let sharedResult: Result<MapPlaces, ServiceError> = {
    do throws(ServiceError) {
      return .success(MapPlaces(reference: try ReferenceData.shared()))
    } catch {
      return .failure(error)
    }
  }()

  /// The places of the shared reference data, built on first use.
  /// - Throws: ``ServiceError`` `reference_data_unavailable` when the reference data cannot be loaded.
  public static func shared() throws(ServiceError) -> MapPlaces { try sharedResult.get() }

  /// The places of `reference`: its cities by population, its served airports by routes.
  public convenience init(reference: ReferenceData) {
    let cities = reference.cities.sorted { ($0.population, $1.geonameID) > ($1.population, $0.geonameID) }
      .map { MapPlace(kind: .city, label: $0.name, latitude: $0.latitude, longitude: $0.longitude) }
    let airports = reference.airportsByRoutes.filter { reference.routeCounts[$0] > 0 }.map {
      let airport = reference.airports[$0]
      return MapPlace(kind: .airport, label: airport.iata, latitude: airport.latitude, longitude: airport.longitude)
    }
    self.init(cities: cities, airports: airports)
  }

  /// Explicit places (tests), each list most important first.
  public init(cities: [MapPlace], airports: [MapPlace] = []) {
    self.cities = cities
    self.airports = airports
  }
}
