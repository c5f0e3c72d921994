import Common
import Foundation

/// How the apps build the car rental service (kept here so `Apps/*/main.swift` stays thin).
public enum CarRentalWiring {
  /// An airport has regular scheduled service, and may have rental desks, from this many routes
  /// (departures plus arrivals, one per airline and airport pair, in the OpenFlights routes): 40,
  /// about 600 airports worldwide (SFO, LAX and Boise alike; not a 4-route island strip).
  public static let siteMinimumRoutes = 40
  /// A city may have city-centre desks from this many inhabitants (GeoNames): 500,000, about 1,200
  /// cities.
  public static let cityMinimumPopulation = 500_000

  /// The airports desks may be opened at: every airport with at least ``siteMinimumRoutes`` routes
  /// in the reference data, busiest first, with its route count.
  public static func sites(_ data: ReferenceData) -> [CarSite] {
    data.busiestAirports(limit: data.airports.count).prefix { data.routeCount(at: $0.iata) >= siteMinimumRoutes }
      .map {
        CarSite(
          iata: $0.iata, airportName: $0.name, city: $0.city, countryCode: $0.countryCode,
          timeZoneIdentifier: $0.timeZoneIdentifier, routes: data.routeCount(at: $0.iata))
      }
  }

  /// The cities city-centre desks may be opened in: every city of at least
  /// ``cityMinimumPopulation`` people, most populous first, anchored at the busiest airport with
  /// routes within ``ReferenceData/cityAirportRadiusKm`` of its centre (else the nearest within
  /// ``ReferenceData/cityAirportFallbackRadiusKm``; a city with neither is left out): one of the
  /// airports ``ReferenceData/airports(serving:)`` gives, so a search for the city finds its desk.
  /// The first city of an anchor gets the id `<IATA>-CITY`, later ones `<IATA>-CITY2`, `-CITY3`, …
  public static func cities(_ data: ReferenceData) -> [CarCitySite] {
    // Served airports in 1° cells, so each city looks at a few dozen airports, not 7,884.
    func cell(_ latitude: Int, _ longitude: Int) -> Int {
      let wrapped = ((longitude + 180) % 360 + 360) % 360
      return min(179, max(0, latitude + 90)) * 360 + wrapped
    }
    var cells: [Int: [Airport]] = [:]
    for airport in data.airports where data.routeCount(at: airport.iata) > 0 {
      let key = cell(Int(airport.latitude.rounded(.down)), Int(airport.longitude.rounded(.down)))
      cells[key, default: []].append(airport)
    }
    func near(_ city: City, radiusKm: Double) -> [(airport: Airport, distanceKm: Double)] {
      let latitudeSpan = Int((radiusKm / 111).rounded(.up))
      let longitudeSpan = min(180, Int((radiusKm / (111 * max(0.01, cos(city.latitude * .pi / 180)))).rounded(.up)))
      let latitude = Int(city.latitude.rounded(.down))
      let longitude = Int(city.longitude.rounded(.down))
      var keys = Set<Int>()
      for dLat in -latitudeSpan...latitudeSpan {
        for dLon in -longitudeSpan...longitudeSpan { keys.insert(cell(latitude + dLat, longitude + dLon)) }
      }
      var found: [(airport: Airport, distanceKm: Double)] = []
      for key in keys {
        for airport in cells[key] ?? [] {
          let distance = Geography.distanceKm(city.coordinate, airport.coordinate)
          if distance <= radiusKm { found.append((airport, distance)) }
        }
      }
      return found
    }
    var anchored: [String: Int] = [:]
    var result: [CarCitySite] = []
    let big = data.cities.filter { $0.population >= cityMinimumPopulation }.sorted {
      ($0.population, $1.geonameID) > ($1.population, $0.geonameID)
    }
    for city in big {
      let close = near(city, radiusKm: ReferenceData.cityAirportRadiusKm)
      let anchor: Airport?
      if close.isEmpty {
        anchor =
          near(city, radiusKm: ReferenceData.cityAirportFallbackRadiusKm)
          .min { ($0.distanceKm, $0.airport.iata) < ($1.distanceKm, $1.airport.iata) }?.airport
      } else {
        anchor =
          close.max {
            (data.routeCount(at: $0.airport.iata), $1.airport.iata) < (
              data.routeCount(at: $1.airport.iata), $0.airport.iata
            )
          }?.airport
      }
      guard let anchor else { continue }
      let rank = anchored[anchor.iata, default: 0] + 1
      anchored[anchor.iata] = rank
      result.append(
        CarCitySite(
          id: rank == 1 ? "\(anchor.iata)-CITY" : "\(anchor.iata)-CITY\(rank)", name: city.name,
          countryCode: city.countryCode, timeZoneIdentifier: city.timeZoneIdentifier, population: city.population,
          anchorIATA: anchor.iata))
    }
    return result
  }

  /// Places through the reference data (docs/CLI.md "Places"): an airport code gives its airport
  /// desks; a metropolitan code or city its airports' desks and their city-centre desks; `lat,lon`
  /// the desks of the served airports within 50 km.
  public static func resolver(_ data: ReferenceData) -> CarRentalEngine.PlaceResolver {
    { text in
      let place = try data.resolvePlace(text)
      switch place {
      case .airport(let airport):
        return CarPlaceMatch(airportCodes: [airport.iata], cityCentreAirportCodes: [], displayName: place.displayName)
      case .metroArea(_, let airports), .city(_, let airports):
        let codes = airports.map(\.iata)
        return CarPlaceMatch(airportCodes: codes, cityCentreAirportCodes: codes, displayName: place.displayName)
      case .coordinate(let point, _):
        let codes = data.airports(near: point, radiusKm: 50, servedOnly: true).map(\.airport.iata)
        return CarPlaceMatch(airportCodes: codes, cityCentreAirportCodes: codes, displayName: place.displayName)
      }
    }
  }

  /// The inventory of the shipped data (reference data + `Shared/cars/`).
  public static func inventory() throws -> (CarInventory, ReferenceData) {
    let data = try ReferenceData.shared()
    return (try CarInventory(sites: sites(data), cities: cities(data)), data)
  }

  /// The embedded car rental service for a command's context: the store of its data directory;
  /// the session file is read at each search and booking (member discount, the signed-in user's
  /// preferred currency, who books), so a sign-in or a preference changed in the interactive app
  /// counts from the next call, and a booking of an offer quoted before is re-priced for whoever is
  /// signed in now (`price_changed` when that price differs).
  public static func service(context: CLIContext) throws -> CarRentalService {
    let services = try BackendServices(dataDirectory: context.dataDirectory)
    let file = SessionFile(dataDirectory: context.dataDirectory)
    _ = try file.read()  // An unreadable session file fails now, as before, not at the first search.
    return try service(services: services, token: { (try? file.read()) ?? nil })
  }

  /// The car rental service over `services`, for whoever `token()` names at each call (the
  /// session file's token in the apps, the request's bearer token in the server): member
  /// discount, preferred currency and who books are read from that session each time.
  public static func service(services: BackendServices, token: @escaping @Sendable () -> String?) throws
    -> CarRentalEngine
  {
    let (inventory, data) = try inventory()
    let isMember: @Sendable () -> Bool = {
      token().flatMap { try? services.accounts.session(token: $0) } != nil
    }
    // Prices in the signed-in user's currency (preferences), converted at the ECB reference rates.
    let currency: @Sendable () -> String = {
      token().flatMap { try? services.accounts.preferences(token: $0).currencyCode } ?? "USD"
    }
    let rates = try? ExchangeRates.reference()
    return CarRentalEngine(
      inventory: inventory, promotions: try CarPromotions(), rentals: SQLiteCarRentals(database: services.database),
      resolvePlace: resolver(data), isMember: isMember, currency: currency,
      rates: {
        // Full precision: each price line is rounded once, when it is made (CarPricing).
        guard let rates else {
          throw ServiceError(.unavailable, code: "no_exchange_rates", message: "exchange rates are not available")
        }
        return rates
      }, ledger: services.ledger, token: token, signer: services.offerSigner)
  }
}
