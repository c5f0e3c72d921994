import Common
import Foundation

/// How the apps build the car rental service (kept here so `Apps/*/main.swift` stays thin).
public enum CarRentalWiring {
  /// Desks are opened at this many of the busiest airports (most routes) at most.
  public static let busiestAirportCount = 40

  /// The airports desks may be opened at: the busiest by routes in the reference data.
  public static func sites(_ data: ReferenceData) -> [CarSite] {
    data.busiestAirports(limit: busiestAirportCount).map {
      CarSite(
        iata: $0.iata, airportName: $0.name, city: $0.city, countryCode: $0.countryCode,
        timeZoneIdentifier: $0.timeZoneIdentifier)
    }
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
    return (try CarInventory(sites: sites(data)), data)
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
