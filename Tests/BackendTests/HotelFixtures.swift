import Common
import Foundation

@testable import Backend

/// Small fixed worlds for the hotel tests.
enum HotelFixtures {
  static let paris = HotelWorld.City(
    geonameId: 2_988_507, name: "Paris", countryCode: "FR", continent: "EU", latitude: 48.85341, longitude: 2.3488,
    population: 2_138_551, timeZone: "Europe/Paris", currencyCode: "EUR")
  static let sydney = HotelWorld.City(
    geonameId: 2_147_714, name: "Sydney", countryCode: "AU", continent: "OC", latitude: -33.86785,
    longitude: 151.20732, population: 4_627_345, timeZone: "Australia/Sydney", currencyCode: "AUD")
  static let tokyo = HotelWorld.City(
    geonameId: 1_850_147, name: "Tokyo", countryCode: "JP", continent: "AS", latitude: 35.6895, longitude: 139.69171,
    population: 8_336_599, timeZone: "Asia/Tokyo", currencyCode: "JPY")
  static let suva = HotelWorld.City(
    geonameId: 2_198_148, name: "Suva", countryCode: "FJ", continent: "OC", latitude: -18.14161, longitude: 178.44149,
    population: 100_000, timeZone: "Pacific/Fiji", currencyCode: "FJD")

  static let cities = [paris, sydney, tokyo, suva]
  static let rates: [String: Decimal] = ["USD": Decimal(string: "1.1172")!, "AUD": Decimal(string: "1.7")!, "JPY": 170]

  /// 2026-11-30 12:00 UTC.
  static let now = Date(timeIntervalSince1970: 1_796_040_000)

  static func resolver(_ cities: [HotelWorld.City]) -> HotelEngine.PlaceResolver {
    { text in
      let parts = text.split(separator: ",")
      if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
        return HotelSearchCenter(name: text, latitude: lat, longitude: lon)
      }
      guard let city = cities.first(where: { $0.name.lowercased() == text.lowercased() }) else {
        throw ServiceError.invalid("unknown_place", "unknown place \"\(text)\"")
      }
      return HotelSearchCenter(name: city.name, latitude: city.latitude, longitude: city.longitude)
    }
  }

  static func engine(
    cities: [HotelWorld.City] = cities, inventory: any HotelInventory = InMemoryHotelInventory(),
    booker: HotelEngine.Booker? = nil, defaultCurrency: String? = nil
  ) throws -> HotelEngine {
    try HotelEngine(
      world: try HotelWorld(cities: cities), inventory: inventory, eurRates: rates, resolvePlace: resolver(cities),
      booker: booker, now: { now }, defaultCurrency: defaultCurrency)
  }
}

extension LocalDate {
  /// A date literal for tests.
  static func of(_ text: String) -> LocalDate { LocalDate(text)! }
}
