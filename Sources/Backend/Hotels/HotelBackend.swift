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
  /// currency (a replaced currency as its successor, ``Currency/current(_:)``: Bulgaria's is EUR;
  /// hotels quote in it when ``ExchangeRates`` has a rate for it, else in USD, see ``HotelEngine``),
  /// and the airports whose hotels they hold: every airport with at least
  /// ``HotelWorld/routesPerHotel`` routes goes to the nearest city within
  /// ``ReferenceData/cityAirportRadiusKm`` (50 km) of it, great circle (ties: the more populous).
  public static func cities(of reference: ReferenceData) -> [HotelWorld.City] {
    var countries: [String: (continent: String, currency: String)] = [:]
    for country in reference.countries {
      countries[country.iso2] = (country.continent, Currency.current(country.currencyCode))
    }
    var cities = reference.cities.map { city in
      let country = countries[city.countryCode]
      return HotelWorld.City(
        geonameId: city.geonameID, name: city.name, countryCode: city.countryCode, continent: country?.continent ?? "",
        latitude: city.latitude, longitude: city.longitude, population: city.population,
        timeZone: city.timeZoneIdentifier, currencyCode: country?.currency ?? "USD")
    }
    // Cities by whole degree of latitude: 50 km is less than a degree, so a city within it lies
    // in the airport's band or the next one either way.
    var bands: [Int: [Int]] = [:]
    for (index, city) in cities.enumerated() { bands[Int(city.latitude.rounded(.down)), default: []].append(index) }
    let radius = ReferenceData.cityAirportRadiusKm
    for airport in reference.busiestAirports(limit: reference.airports.count) {
      let routes = reference.routeCount(at: airport.iata)
      guard routes >= HotelWorld.routesPerHotel else { break }
      let band = Int(airport.latitude.rounded(.down))
      var best: (index: Int, km: Double)?
      for b in band - 1...band + 1 {
        for index in bands[b] ?? [] {
          let city = cities[index]
          let km = GreatCircle.kilometres(airport.latitude, airport.longitude, city.latitude, city.longitude)
          guard km <= radius else { continue }
          if let current = best,
            (km, -city.population, city.geonameId) >= (
              current.km, -cities[current.index].population, cities[current.index].geonameId
            )
          {
            continue
          }
          best = (index, km)
        }
      }
      guard let best else { continue }
      cities[best.index].airports.append(
        HotelWorld.Airport(iata: airport.iata, latitude: airport.latitude, longitude: airport.longitude, routes: routes)
      )
    }
    return cities
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
