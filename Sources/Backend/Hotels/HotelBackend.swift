import Common
import Foundation

/// Wiring of the hotel system for the apps: one ``HotelWorld`` per process (built on first use)
/// over the cities of ``ReferenceData``, places resolved by it, and the ECB reference rates of
/// ``ExchangeRates``.
public enum HotelBackend {
  private static let cache = WorldCache()

  /// The process's hotel world over every city of the reference data (built once, thread-safe).
  public static func world() throws -> HotelWorld { try cache.get().world }

  /// The hotel service over `services` (availability in its store, booking through its ledger).
  public static func service(
    services: BackendServices, now: @escaping @Sendable () -> Date = { Date() }, defaultCurrency: String? = nil
  ) throws -> HotelEngine {
    let shared = try cache.get()
    return try HotelEngine(
      world: shared.world, inventory: StoredHotelInventory(database: services.database), eurRates: shared.rates,
      resolvePlace: { try resolve($0, in: shared.reference) }, booker: HotelBookings.booker(ledger: services.ledger),
      now: now, defaultCurrency: defaultCurrency, ledger: services.ledger, signer: services.offerSigner)
  }

  /// The hotel service for `dataDirectory` (opens the store there). When a user is signed in
  /// there, `--max-price` is read in their preferred currency (Account preferences).
  public static func service(dataDirectory: URL) throws -> HotelEngine {
    let services = try BackendServices(dataDirectory: dataDirectory)
    let token = (try? SessionFile(dataDirectory: dataDirectory).read()) ?? nil
    let preferred = token.flatMap { try? services.accounts.preferences(token: $0).currencyCode }
    return try service(services: services, defaultCurrency: preferred)
  }

  final class WorldCache: @unchecked Sendable {
    struct Loaded {
      var world: HotelWorld
      var rates: [String: Decimal]
      var reference: ReferenceData
    }
    private let lock = NSLock()
    private var loaded: Loaded?

    func get() throws -> Loaded {
      try lock.withLock {
        if let loaded { return loaded }
        let reference = try ReferenceData.shared()
        let value = Loaded(
          world: try HotelWorld(cities: HotelBackend.cities(of: reference)),
          rates: try ExchangeRates.reference().ratesPerEuro,
          reference: reference)
        loaded = value
        return value
      }
    }
  }

  /// The cities of the reference data (population ≥ 100,000) with their country's continent and
  /// currency (a replaced currency as its successor, ``Currency/current(_:)``: Bulgaria's is EUR).
  /// Hotels quote in that currency when ``ExchangeRates`` has a rate for it, else in USD (see
  /// ``HotelEngine``).
  public static func cities(of reference: ReferenceData) -> [HotelWorld.City] {
    var countries: [String: (continent: String, currency: String)] = [:]
    for country in reference.countries {
      countries[country.iso2] = (country.continent, Currency.current(country.currencyCode))
    }
    return reference.cities.map { city in
      let country = countries[city.countryCode]
      return HotelWorld.City(
        geonameId: city.geonameID, name: city.name, countryCode: city.countryCode, continent: country?.continent ?? "",
        latitude: city.latitude, longitude: city.longitude, population: city.population,
        timeZone: city.timeZoneIdentifier, currencyCode: country?.currency ?? "USD")
    }
  }

  /// Resolves a place with the reference data (city, IATA airport or metro code, `lat,lon`).
  /// A `lat,lon` is parsed directly (hotels need no time zone for it, so the nearest-airport look-up
  /// of a coordinate place is skipped).
  static func resolve(_ text: String, in reference: ReferenceData) throws -> HotelSearchCenter {
    if let point = try Coordinate.parse(text.trimmingCharacters(in: .whitespaces)) {
      return HotelSearchCenter(name: point.description, latitude: point.latitude, longitude: point.longitude)
    }
    let place = try reference.resolvePlace(text)
    return HotelSearchCenter(
      name: place.displayName, latitude: place.coordinate.latitude, longitude: place.coordinate.longitude)
  }
}
