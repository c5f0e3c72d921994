import Common
import Foundation

/// Wiring of the hotel system for the apps: one ``HotelWorld`` per process (built on first use),
/// cities, places and exchange rates from the reference data in `Shared/`.
public enum HotelBackend {
  private static let cache = WorldCache()

  /// The process's hotel world over every city of the reference data (built once, thread-safe).
  public static func world() throws -> HotelWorld { try cache.get().world }

  /// The hotel service for `dataDirectory`.
  public static func service(dataDirectory: URL, now: @escaping @Sendable () -> Date = { Date() }) throws -> HotelEngine
  {
    let shared = try cache.get()
    return try HotelEngine(
      world: shared.world, inventory: InMemoryHotelInventory(), eurRates: shared.rates,
      resolvePlace: shared.places.resolve, now: now)
  }

  final class WorldCache: @unchecked Sendable {
    struct Loaded {
      var world: HotelWorld
      var rates: [String: Decimal]
      var places: HotelPlaces
    }
    private let lock = NSLock()
    private var loaded: Loaded?

    func get() throws -> Loaded {
      try lock.withLock {
        if let loaded { return loaded }
        let cities = try HotelPlaces.loadCities()
        let value = Loaded(
          world: HotelWorld(cities: cities), rates: try HotelPlaces.loadRates(), places: HotelPlaces(cities: cities))
        loaded = value
        return value
      }
    }
  }
}

/// Interim place resolution and reference loading for hotels (cities, countries and ECB rates
/// from `Shared/`), until the shared reference data of `Common` is wired here.
struct HotelPlaces: Sendable {
  let cities: [HotelWorld.City]
  private let byName: [String: [Int]]

  init(cities: [HotelWorld.City]) {
    self.cities = cities
    var byName: [String: [Int]] = [:]
    for (index, city) in cities.enumerated() { byName[Self.fold(city.name), default: []].append(index) }
    self.byName = byName
  }

  static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
      .trimmingCharacters(in: .whitespaces)
  }

  /// `lat,lon`, or a city name (the most populous match, unless another is within 10×).
  func resolve(_ text: String) throws -> HotelSearchCenter {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
    if parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
      let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
    {
      guard lat.isFinite, (-90...90).contains(lat) else {
        throw ServiceError.invalid(
          "invalid_coordinate", "latitude \(parts[0]) is out of range in \"\(text)\": expected -90 to 90")
      }
      guard lon.isFinite, (-180...180).contains(lon) else {
        throw ServiceError.invalid(
          "invalid_coordinate", "longitude \(parts[1]) is out of range in \"\(text)\": expected -180 to 180")
      }
      return HotelSearchCenter(name: "\(lat),\(lon)", latitude: lat, longitude: lon)
    }
    let matches = (byName[Self.fold(trimmed)] ?? []).map { cities[$0] }.sorted { $0.population > $1.population }
    guard let best = matches.first else {
      throw ServiceError.invalid(
        "unknown_place", "unknown place \"\(text)\": expected a city name, an IATA airport code like CDG, or lat,lon")
    }
    if matches.count > 1, matches[1].population * 10 > best.population {
      let names = matches.prefix(5).map { "\($0.name), \($0.countryCode)" }.joined(separator: "; ")
      throw ServiceError.invalid(
        "ambiguous_place", "\"\(text)\" is ambiguous: \(names); give lat,lon or an airport code instead")
    }
    return HotelSearchCenter(
      name: "\(best.name), \(best.countryCode)", latitude: best.latitude, longitude: best.longitude)
  }

  /// Every city of `Shared/geonames/cities.csv` with its country's continent and currency.
  static func loadCities() throws -> [HotelWorld.City] {
    let countries = try CSVTable.shared("geonames/countries.csv")
    let iso = try countries.column("iso2", in: "geonames/countries.csv")
    let continent = try countries.column("continent", in: "geonames/countries.csv")
    let currency = try countries.column("currency_code", in: "geonames/countries.csv")
    var byCountry: [String: (String, String)] = [:]
    for row in countries.rows { byCountry[row[iso]] = (row[continent], row[currency]) }
    let path = "geonames/cities.csv"
    let table = try CSVTable.shared(path)
    let c = try ["geonameid", "name", "country_code", "latitude", "longitude", "population", "timezone"].map {
      try table.column($0, in: path)
    }
    return try table.rows.map { row in
      guard let id = Int(row[c[0]]), let lat = Double(row[c[3]]), let lon = Double(row[c[4]]),
        let population = Int(row[c[5]])
      else { throw SharedResources.Failure.malformed(path: path, reason: "bad row \(row.prefix(2))") }
      let country = byCountry[row[c[2]]] ?? ("", "USD")
      return HotelWorld.City(
        geonameId: id, name: row[c[1]], countryCode: row[c[2]], continent: country.0, latitude: lat, longitude: lon,
        population: population, timeZone: row[c[6]], currencyCode: country.1)
    }
  }

  /// Units per euro of each currency of `Shared/currencies/ecb_reference_rates.csv`.
  static func loadRates() throws -> [String: Decimal] {
    let path = "currencies/ecb_reference_rates.csv"
    let table = try CSVTable.shared(path)
    let code = try table.column("currency", in: path)
    let rate = try table.column("rate", in: path)
    var rates: [String: Decimal] = [:]
    for row in table.rows {
      if let value = Decimal(string: row[rate], locale: Locale(identifier: "en_US_POSIX")) { rates[row[code]] = value }
    }
    return rates
  }
}
