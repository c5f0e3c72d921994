import Common
import Foundation
import Synchronization

/// An airport the car inventory may open desks at (see ``CarInventory``).
public struct CarSite: Hashable, Sendable {
  public var iata: String
  public var airportName: String
  public var city: String
  /// ISO 3166-1 alpha-2.
  public var countryCode: String
  /// IANA time zone.
  public var timeZoneIdentifier: String
  /// Its traffic: scheduled routes at the airport, departures plus arrivals, one per airline and
  /// airport pair (OpenFlights, ``ReferenceData/routeCount(at:)``). Decides which companies open a
  /// desk there and how many cars it holds. 250 by default: an airport of reference size, where
  /// every company has a desk with its reference fleet (small inventories, tests).
  public var routes: Int

  public init(
    iata: String, airportName: String, city: String, countryCode: String, timeZoneIdentifier: String,
    routes: Int = 250
  ) {
    self.iata = iata
    self.airportName = airportName
    self.city = city
    self.countryCode = countryCode
    self.timeZoneIdentifier = timeZoneIdentifier
    self.routes = routes
  }
}

/// A city the car inventory may open city-centre desks in (see ``CarInventory``).
public struct CarCitySite: Hashable, Sendable {
  /// The location id of its desks: `<anchor>-CITY` (`LAX-CITY`), or `<anchor>-CITY2`, `-CITY3`, …
  /// for the second and later cities (by population) anchored at the same airport.
  public var id: String
  /// The city's name (`Los Angeles`).
  public var name: String
  /// ISO 3166-1 alpha-2.
  public var countryCode: String
  /// IANA time zone of the city.
  public var timeZoneIdentifier: String
  /// Inhabitants (GeoNames); sizes the desk's fleet.
  public var population: Int
  /// IATA code of the airport that anchors it: the busiest serving the city. A search for a city,
  /// a metropolitan code or a point finds the city-centre desks anchored at its airports.
  public var anchorIATA: String

  public init(
    id: String, name: String, countryCode: String, timeZoneIdentifier: String, population: Int, anchorIATA: String
  ) {
    self.id = id
    self.name = name
    self.countryCode = countryCode
    self.timeZoneIdentifier = timeZoneIdentifier
    self.population = population
    self.anchorIATA = anchorIATA
  }

  /// One city per distinct city name and country of `sites`, anchored at its first site, of
  /// ``CarCitySite/referencePopulation`` (a small inventory without city data, as in tests).
  public static func derived(from sites: [CarSite]) -> [CarCitySite] {
    var seen = Set<String>()
    return sites.filter { seen.insert("\($0.city)|\($0.countryCode)").inserted }.map {
      CarCitySite(
        id: "\($0.iata)-CITY", name: $0.city, countryCode: $0.countryCode, timeZoneIdentifier: $0.timeZoneIdentifier,
        population: referencePopulation, anchorIATA: $0.iata)
    }
  }

  /// The population ``derived(from:)`` gives a city: 2,000,000.
  public static let referencePopulation = 2_000_000
}

/// The rate and fleet model of `Shared/cars/companies.json` (documented in `Shared/cars/README.md`).
struct CarRentalSpec: Decodable, Sendable {
  struct OneWay: Decodable, Sendable {
    var allowed: Bool
    /// Absent = `true`: one-way rentals stay within the pick-up country unless a company says otherwise.
    var sameCountryOnly: Bool?
    var fee: String
  }

  struct Company: Decodable, Sendable {
    var id: String
    var name: String
    var rateFactor: String
    var weeklyRateDays: String
    /// A desk at every site with at least this many routes.
    var airportMinimumRoutes: Int
    /// A city-centre desk in every city site of at least this population; absent: none.
    var cityCentreMinimumPopulation: Int?
    var airportHours: [String]
    var cityHours: [String]
    var oneWay: OneWay
    var fleet: [String: Int]
  }

  var rateCurrency: String
  var categoryDailyRates: [String: String]
  var typeFactors: [String: String]
  var transmissionFactors: [String: String]
  var fuelFactors: [String: String]
  var locationKindFactors: [String: String]
  var locationSpread: String
  var airportConcessionFeePercent: String
  var memberDiscountPercent: String
  var taxPercent: [String: String]
  var airportFleetReferenceRoutes: Int
  var airportFleetMaximumFactor: Int
  var cityFleetReferencePopulation: Int
  var cityFleetMaximumFactor: Int
  var companies: [Company]
}

/// One company's desk at one location: hours, cars per ACRISS code, and the location's rate factor.
public struct CarDesk: Hashable, Sendable {
  public var company: RentalCompany
  public var location: RentalLocation
  public var hours: OpeningHours
  /// Cars per ACRISS code at this desk.
  public var fleet: [ACRISSCode: Int]
  /// Multiplies the company's daily rates here (location kind × a stable per-desk spread).
  public var rateFactor: Decimal
}

/// The deterministic car inventory: desks of ≥ 6 invented companies at the airports with regular
/// scheduled service and in the centres of large cities, with fleets scaled to their traffic and
/// rates, built from `Shared/cars/companies.json`, the airports (with their route counts) and the
/// cities (with their populations).
///
/// - **Where**: company `k` opens an airport desk at every site with at least
///   `k.airportMinimumRoutes` routes (the busiest airports have all seven companies, a 40-route
///   airport the two that go everywhere), and a city-centre desk in every city of at least
///   `k.cityCentreMinimumPopulation` people.
/// - **How many cars**: each company's `fleet` is its reference desk. An airport desk holds
///   `fleet[c] × routes / airportFleetReferenceRoutes` cars of code `c` (at most
///   `airportFleetMaximumFactor` times the reference), a city-centre desk
///   `fleet[c] × population / cityFleetReferencePopulation` (at most `cityFleetMaximumFactor`
///   times), rounded half up in integers; a code that rounds to no car is not stocked there, but a
///   desk always has at least one car of its company's most stocked code (the first by code of
///   equals).
///
/// Same inputs, same inventory: nothing is random; per-desk variation comes from a stable FNV-1a
/// hash of company id and location id. See `Shared/cars/README.md` for the model.
public struct CarInventory: Sendable {
  public let companies: [RentalCompany]
  /// Every desk, in a stable order (company order of the file, then airports busiest first, then
  /// cities in the order given).
  public let desks: [CarDesk]
  /// Every location with at least one desk, busiest airport first.
  public let locations: [RentalLocation]
  let spec: CarRentalSpec
  let companyFactors: [String: Decimal]
  /// The spec's rate tables, parsed once: category letter → base daily rate (``rateCurrency``).
  let baseDailyRates: [String: Decimal]
  /// Letter → factor for ACRISS positions 1 (type), 2 (transmission) and 3 (fuel), at those indices.
  let letterFactors: [[String: Decimal]]
  /// Country code (or `default`) → tax percent.
  let taxPercents: [String: Decimal]
  let weeklyDays: [String: Decimal]
  let desksByLocation: [String: [CarDesk]]
  let locationsByID: [String: RentalLocation]
  /// Indices into ``desks`` of the airport desks by IATA code, and of the city-centre desks by
  /// their anchor airport's code, each ascending (so a place's desks come in inventory order).
  let airportDeskIndices: [String: [Int32]]
  let cityDeskIndices: [String: [Int32]]
  /// ``rateMinorUnits(_:at:digits:)`` of the cars priced so far.
  let rateCache = CarRateCache()

  /// Builds the inventory.
  /// - Parameters:
  ///   - sites: the airports desks may open at, busiest first.
  ///   - cities: the cities city-centre desks may open in; nil = ``CarCitySite/derived(from:)``
  ///     of `sites` (one per city of the sites, of reference size).
  ///   - specData: the contents of `Shared/cars/companies.json` (nil = read it from `Shared/`).
  /// - Throws: ``ServiceError`` `.unavailable` when the file is missing or malformed.
  public init(sites: [CarSite], cities: [CarCitySite]? = nil, specData: Data? = nil) throws {
    let data = try specData ?? Self.sharedData("cars/companies.json")
    let spec: CarRentalSpec
    do {
      spec = try JSONDecoder().decode(CarRentalSpec.self, from: data)
    } catch {
      throw ServiceError(
        .unavailable, code: "malformed_data",
        message: "Shared/cars/companies.json is malformed: \(ErrorText.reason(of: error))")
    }
    guard spec.airportFleetReferenceRoutes > 0, spec.cityFleetReferencePopulation > 0,
      spec.airportFleetMaximumFactor > 0, spec.cityFleetMaximumFactor > 0
    else {
      throw ServiceError(
        .unavailable, code: "malformed_data", message: "companies.json: the fleet references must be positive")
    }
    self.spec = spec
    func parsed(_ table: [String: String]) -> [String: Decimal] {
      table.compactMapValues { Decimal(string: $0, locale: Self.posix) }
    }
    baseDailyRates = parsed(spec.categoryDailyRates)
    letterFactors = [[:], parsed(spec.typeFactors), parsed(spec.transmissionFactors), parsed(spec.fuelFactors)]
    taxPercents = parsed(spec.taxPercent)
    let cities = cities ?? CarCitySite.derived(from: sites)
    var companies: [RentalCompany] = []
    var desks: [CarDesk] = []
    var companyFactors: [String: Decimal] = [:]
    var weeklyDays: [String: Decimal] = [:]
    let airportFactor = try Self.decimal(spec.locationKindFactors["airport"] ?? "1", "locationKindFactors")
    let cityFactor = try Self.decimal(spec.locationKindFactors["cityCentre"] ?? "1", "locationKindFactors")
    let spread = try Self.decimal(spec.locationSpread, "locationSpread")
    // Locations are shared by the companies: made once.
    let airportLocations = sites.map { site in
      RentalLocation(
        id: site.iata, kind: .airport, name: site.airportName, iata: site.iata, city: site.city,
        countryCode: site.countryCode, timeZoneIdentifier: site.timeZoneIdentifier)
    }
    let cityLocations = cities.map { city in
      RentalLocation(
        id: city.id, kind: .cityCentre, name: "\(city.name) city centre", iata: city.anchorIATA, city: city.name,
        countryCode: city.countryCode, timeZoneIdentifier: city.timeZoneIdentifier)
    }
    for entry in spec.companies {
      let fee = try Self.decimal(entry.oneWay.fee, "oneWay.fee of \(entry.id)")
      let company = RentalCompany(
        id: entry.id, name: entry.name,
        oneWay: OneWayPolicy(
          allowed: entry.oneWay.allowed, sameCountryOnly: entry.oneWay.sameCountryOnly ?? true,
          fee: Money(amount: fee, currency: spec.rateCurrency)))
      companies.append(company)
      companyFactors[entry.id] = try Self.decimal(entry.rateFactor, "rateFactor of \(entry.id)")
      weeklyDays[entry.id] = try Self.decimal(entry.weeklyRateDays, "weeklyRateDays of \(entry.id)")
      let airportHours = try OpeningHours(parsing: entry.airportHours)
      let cityHours = try OpeningHours(parsing: entry.cityHours)
      var reference: [(code: ACRISSCode, count: Int)] = []
      for (code, count) in entry.fleet {
        guard let acriss = try? ACRISSCode(code), count > 0 else {
          throw ServiceError(
            .unavailable, code: "malformed_data", message: "companies.json: bad fleet entry \(code) of \(entry.id)")
        }
        reference.append((acriss, count))
      }
      guard !reference.isEmpty else {
        throw ServiceError(.unavailable, code: "malformed_data", message: "companies.json: \(entry.id) has no fleet")
      }
      reference.sort { $0.code < $1.code }
      for (index, site) in sites.enumerated() where site.routes >= entry.airportMinimumRoutes {
        let location = airportLocations[index]
        desks.append(
          CarDesk(
            company: company, location: location, hours: airportHours,
            fleet: Self.scaledFleet(
              reference, by: site.routes, per: spec.airportFleetReferenceRoutes, atMost: spec.airportFleetMaximumFactor),
            rateFactor: airportFactor * Self.spreadFactor(company.id, location.id, spread: spread)))
      }
      if let minimum = entry.cityCentreMinimumPopulation, minimum > 0 {
        for (index, city) in cities.enumerated() where city.population >= minimum {
          let location = cityLocations[index]
          desks.append(
            CarDesk(
              company: company, location: location, hours: cityHours,
              fleet: Self.scaledFleet(
                reference, by: city.population, per: spec.cityFleetReferencePopulation,
                atMost: spec.cityFleetMaximumFactor),
              rateFactor: cityFactor * Self.spreadFactor(company.id, location.id, spread: spread)))
        }
      }
    }
    guard companies.count >= 1 else {
      throw ServiceError(.unavailable, code: "malformed_data", message: "companies.json lists no company")
    }
    self.companies = companies
    self.desks = desks
    self.companyFactors = companyFactors
    self.weeklyDays = weeklyDays
    desksByLocation = Dictionary(grouping: desks, by: \.location.id)
    var airportDeskIndices: [String: [Int32]] = [:]
    var cityDeskIndices: [String: [Int32]] = [:]
    for (index, desk) in desks.enumerated() {
      switch desk.location.kind {
      case .airport: airportDeskIndices[desk.location.iata, default: []].append(Int32(index))
      case .cityCentre: cityDeskIndices[desk.location.iata, default: []].append(Int32(index))
      }
    }
    self.airportDeskIndices = airportDeskIndices
    self.cityDeskIndices = cityDeskIndices
    // Locations: airports busiest first, each followed by the city centres it anchors.
    let hasDesk = Set(desks.map(\.location.id))
    var citiesByAnchor: [String: [RentalLocation]] = [:]
    for location in cityLocations where hasDesk.contains(location.id) {
      citiesByAnchor[location.iata, default: []].append(location)
    }
    var locations: [RentalLocation] = []
    var placed = Set<String>()
    for location in airportLocations where hasDesk.contains(location.id) && placed.insert(location.id).inserted {
      locations.append(location)
      for city in citiesByAnchor[location.iata] ?? [] where placed.insert(city.id).inserted { locations.append(city) }
    }
    for location in cityLocations where hasDesk.contains(location.id) && placed.insert(location.id).inserted {
      locations.append(location)
    }
    self.locations = locations
    locationsByID = Dictionary(locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// `reference` (sorted by code) × `size` / `per`, at most `atMost` times, rounded half up; codes
  /// that get no car dropped, but at least one car of the most stocked code.
  static func scaledFleet(
    _ reference: [(code: ACRISSCode, count: Int)], by size: Int, per: Int, atMost: Int
  ) -> [ACRISSCode: Int] {
    var fleet: [ACRISSCode: Int] = [:]
    let size = Int64(max(0, size))
    for (code, count) in reference {
      let scaled = min(Int64(count) * Int64(atMost), (Int64(count) * size * 2 + Int64(per)) / (Int64(per) * 2))
      if scaled > 0 { fleet[code] = Int(scaled) }
    }
    if fleet.isEmpty, let top = reference.max(by: { ($0.count, $1.code) < ($1.count, $0.code) }) {
      fleet[top.code] = 1
    }
    return fleet
  }

  /// The desks of `airportCodes` (airport desks) and those anchored at `cityCentreAirportCodes`
  /// (city-centre desks), in inventory order.
  func desks(airportCodes: [String], cityCentreAirportCodes: [String]) -> [CarDesk] {
    var indices: [Int32] = []
    var seen = Set<String>()
    for code in airportCodes where seen.insert(code).inserted { indices += airportDeskIndices[code] ?? [] }
    seen.removeAll()
    for code in cityCentreAirportCodes where seen.insert(code).inserted { indices += cityDeskIndices[code] ?? [] }
    return indices.sorted().map { desks[Int($0)] }
  }

  /// The desks at location `id` (empty when none).
  public func desks(at locationID: String) -> [CarDesk] { desksByLocation[locationID] ?? [] }

  /// The location with `id`, if any desk is there.
  public func location(_ id: String) -> RentalLocation? { locationsByID[id] }

  /// The company with id or name `text` (case-insensitive).
  public func company(named text: String) -> RentalCompany? {
    let key = text.lowercased()
    return companies.first { $0.id == key || $0.name.lowercased() == key }
  }

  /// The daily rate, in ``rateCurrency``, of `code` at `desk`: category base × type × transmission
  /// × fuel factors × company factor × the desk's factor (full precision).
  public func dailyRate(_ code: ACRISSCode, at desk: CarDesk) -> Decimal {
    func factor(_ position: Int) -> Decimal { letterFactors[position][code.letter(position)] ?? 1 }
    let base = baseDailyRates[code.categoryLetter] ?? 50
    let product = base * factor(1) * factor(2) * factor(3) * (companyFactors[desk.company.id] ?? 1) * desk.rateFactor
    return Self.round(product, scale: 2)
  }

  /// The weekly rate of `code` at `desk`: the daily rate × the company's `weeklyRateDays`.
  public func weeklyRate(_ code: ACRISSCode, at desk: CarDesk) -> Decimal {
    Self.round(dailyRate(code, at: desk) * (weeklyDays[desk.company.id] ?? 7), scale: 2)
  }

  /// ``dailyRate(_:at:)`` and ``weeklyRate(_:at:)`` in whole minor units of ``rateCurrency``
  /// (cents of USD), with `digits` the currency's minor-unit digits; nil when a rate has more
  /// decimals than that.
  ///
  /// The `Decimal` arithmetic is done once per company, code, desk factor and `digits`, then
  /// kept (``CarRateCache``): every search prices every car of its desks with these.
  func rateMinorUnits(_ code: ACRISSCode, at desk: CarDesk, digits: Int) -> (daily: Int64, weekly: Int64)? {
    let key = CarRateCache.Key(companyID: desk.company.id, code: code, rateFactor: desk.rateFactor, digits: digits)
    if let known = rateCache.rates(key) { return known.minorUnits }
    let daily = dailyRate(code, at: desk)
    let weekly = Self.round(daily * (weeklyDays[desk.company.id] ?? 7), scale: 2)
    var rates = CarRateCache.Rates(minorUnits: nil)
    if let dailyMinor = OfferPricing.exactMinorUnits(daily, digits: digits),
      let weeklyMinor = OfferPricing.exactMinorUnits(weekly, digits: digits)
    {
      rates.minorUnits = (dailyMinor, weeklyMinor)
    }
    rateCache.store(rates, for: key)
    return rates.minorUnits
  }

  /// The currency rates and fees are defined in (`USD`).
  public var rateCurrency: String { spec.rateCurrency }

  /// Tax percent of a country (the `default` entry when the country has none).
  public func taxPercent(countryCode: String) -> Decimal {
    spec.taxPercent[countryCode] != nil ? taxPercents[countryCode] ?? 0 : taxPercents["default"] ?? 0
  }

  public var airportConcessionFeePercent: Decimal {
    Decimal(string: spec.airportConcessionFeePercent, locale: Self.posix) ?? 0
  }

  public var memberDiscountPercent: Decimal { Decimal(string: spec.memberDiscountPercent, locale: Self.posix) ?? 0 }

  // MARK: Helpers

  static let posix = Locale(identifier: "en_US_POSIX")

  static func decimal(_ text: String, _ field: String) throws -> Decimal {
    guard let value = Decimal(string: text, locale: posix) else {
      throw ServiceError(
        .unavailable, code: "malformed_data", message: "companies.json: \(field) \"\(text)\" is not a number")
    }
    return value
  }

  static func sharedData(_ path: String) throws -> Data {
    do {
      return try SharedResources.data(path)
    } catch {
      throw ServiceError(
        .unavailable, code: "missing_data", message: "cannot read Shared/\(path): \(ErrorText.reason(of: error))")
    }
  }

  static func round(_ value: Decimal, scale: Int) -> Decimal {
    var input = value
    var output = Decimal()
    NSDecimalRound(&output, &input, scale, .plain)
    return output
  }

  /// 1 − spread/2 … 1 + spread/2, from a stable FNV-1a hash of the company and location ids, in
  /// steps of 1/100 of the spread.
  static func spreadFactor(_ companyID: String, _ locationID: String, spread: Decimal) -> Decimal {
    let bucket = Decimal(Int(fnv1a("\(companyID)|\(locationID)") % 101))  // 0…100
    return 1 + spread * (bucket - 50) / 100
  }

  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}

/// The daily and weekly rates in minor units (``CarInventory/rateMinorUnits(_:at:digits:)``) of
/// the cars priced so far, by what they depend on: the company (its factor and weekly days), the
/// ACRISS code, the desk's rate factor and the minor-unit digits. At most one entry per desk, code
/// and digits of the inventory; shared between threads behind a lock.
final class CarRateCache: Sendable {
  struct Key: Hashable, Sendable {
    var companyID: String
    var code: ACRISSCode
    var rateFactor: Decimal
    var digits: Int
  }

  struct Rates: Sendable {
    /// Nil when a rate has more decimals than `digits`.
    var minorUnits: (daily: Int64, weekly: Int64)?
  }

  /// The most entries kept (far more than the inventory's desks × codes); when full it starts again.
  static let capacity = 1 << 20

  private let table = Mutex<[Key: Rates]>([:])

  func rates(_ key: Key) -> Rates? { table.withLock { $0[key] } }

  func store(_ rates: Rates, for key: Key) {
    table.withLock { table in
      if table.count >= Self.capacity { table.removeAll() }
      table[key] = rates
    }
  }
}
