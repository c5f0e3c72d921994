import Common
import Foundation

/// An airport the car inventory may open desks at, busiest first (see ``CarInventory``).
public struct CarSite: Hashable, Sendable {
  public var iata: String
  public var airportName: String
  public var city: String
  /// ISO 3166-1 alpha-2.
  public var countryCode: String
  /// IANA time zone.
  public var timeZoneIdentifier: String

  public init(iata: String, airportName: String, city: String, countryCode: String, timeZoneIdentifier: String) {
    self.iata = iata
    self.airportName = airportName
    self.city = city
    self.countryCode = countryCode
    self.timeZoneIdentifier = timeZoneIdentifier
  }
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
    var airports: Int
    var cityCentres: Int
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
  var largeAirportRank: Int
  var largeAirportFleetFactor: Int
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

/// The deterministic car inventory: desks of ≥ 6 invented companies at the busiest airports and
/// in their cities' centres, with fleets and rates, built from `Shared/cars/companies.json` and
/// a list of airports ordered busiest first (most routes in the reference data).
///
/// Same inputs, same inventory: nothing is random; per-desk variation comes from a stable FNV-1a
/// hash of company id and location id. See `Shared/cars/README.md` for the model.
public struct CarInventory: Sendable {
  public let companies: [RentalCompany]
  /// Every desk, in a stable order (company order of the file, then location rank).
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

  /// Builds the inventory.
  /// - Parameters:
  ///   - sites: airports busiest first; company `c` opens an airport desk at the first
  ///     `c.airports` of them and a city-centre desk in the cities of the first `c.cityCentres`
  ///     (one per city and country).
  ///   - specData: the contents of `Shared/cars/companies.json` (nil = read it from `Shared/`).
  /// - Throws: ``ServiceError`` `.unavailable` when the file is missing or malformed.
  public init(sites: [CarSite], specData: Data? = nil) throws {
    let data = try specData ?? Self.sharedData("cars/companies.json")
    let spec: CarRentalSpec
    do {
      spec = try JSONDecoder().decode(CarRentalSpec.self, from: data)
    } catch {
      throw ServiceError(
        .unavailable, code: "malformed_data",
        message: "Shared/cars/companies.json is malformed: \(ErrorText.reason(of: error))")
    }
    self.spec = spec
    func parsed(_ table: [String: String]) -> [String: Decimal] {
      table.compactMapValues { Decimal(string: $0, locale: Self.posix) }
    }
    baseDailyRates = parsed(spec.categoryDailyRates)
    letterFactors = [[:], parsed(spec.typeFactors), parsed(spec.transmissionFactors), parsed(spec.fuelFactors)]
    taxPercents = parsed(spec.taxPercent)
    var companies: [RentalCompany] = []
    var desks: [CarDesk] = []
    var companyFactors: [String: Decimal] = [:]
    var weeklyDays: [String: Decimal] = [:]
    // City centres: one per (city, country), at the first site of that city.
    var cityCentreSites: [CarSite] = []
    var seenCities = Set<String>()
    for site in sites where seenCities.insert("\(site.city)|\(site.countryCode)").inserted {
      cityCentreSites.append(site)
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
      var fleet: [ACRISSCode: Int] = [:]
      for (code, count) in entry.fleet {
        guard let acriss = try? ACRISSCode(code), count > 0 else {
          throw ServiceError(
            .unavailable, code: "malformed_data", message: "companies.json: bad fleet entry \(code) of \(entry.id)")
        }
        fleet[acriss] = count
      }
      let airportFactor = try Self.decimal(spec.locationKindFactors["airport"] ?? "1", "locationKindFactors")
      let cityFactor = try Self.decimal(spec.locationKindFactors["cityCentre"] ?? "1", "locationKindFactors")
      let spread = try Self.decimal(spec.locationSpread, "locationSpread")
      for (rank, site) in sites.prefix(entry.airports).enumerated() {
        let location = RentalLocation(
          id: site.iata, kind: .airport, name: site.airportName, iata: site.iata, city: site.city,
          countryCode: site.countryCode, timeZoneIdentifier: site.timeZoneIdentifier)
        let scale = rank < spec.largeAirportRank ? spec.largeAirportFleetFactor : 1
        desks.append(
          CarDesk(
            company: company, location: location, hours: airportHours, fleet: fleet.mapValues { $0 * scale },
            rateFactor: airportFactor * Self.spreadFactor(company.id, location.id, spread: spread)))
      }
      for site in cityCentreSites.prefix(entry.cityCentres) {
        let location = RentalLocation(
          id: "\(site.iata)-CITY", kind: .cityCentre, name: "\(site.city) city centre", iata: site.iata,
          city: site.city,
          countryCode: site.countryCode, timeZoneIdentifier: site.timeZoneIdentifier)
        desks.append(
          CarDesk(
            company: company, location: location, hours: cityHours, fleet: fleet.mapValues { ($0 + 1) / 2 },
            rateFactor: cityFactor * Self.spreadFactor(company.id, location.id, spread: spread)))
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
    var seen = Set<String>()
    var locations: [RentalLocation] = []
    let order = Dictionary(sites.enumerated().map { ($1.iata, $0) }, uniquingKeysWith: { first, _ in first })
    for desk in desks.sorted(by: {
      (order[$0.location.iata] ?? 0, $0.location.kind == .airport ? 0 : 1)
        < (order[$1.location.iata] ?? 0, $1.location.kind == .airport ? 0 : 1)
    }) where seen.insert(desk.location.id).inserted {
      locations.append(desk.location)
    }
    self.locations = locations
    locationsByID = Dictionary(locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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
  func rateMinorUnits(_ code: ACRISSCode, at desk: CarDesk, digits: Int) -> (daily: Int64, weekly: Int64)? {
    let daily = dailyRate(code, at: desk)
    let weekly = Self.round(daily * (weeklyDays[desk.company.id] ?? 7), scale: 2)
    guard let dailyMinor = OfferPricing.exactMinorUnits(daily, digits: digits),
      let weeklyMinor = OfferPricing.exactMinorUnits(weekly, digits: digits)
    else { return nil }
    return (dailyMinor, weeklyMinor)
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
