import Common
import Foundation

extension FlightNetworkInput {
  /// The network input of the reference data: every airport, the airlines with a two-character
  /// IATA code (the active one where a code was reused), the direct routes that are not
  /// codeshares (OpenFlights.org), and the aircraft type names.
  public init(referenceData data: ReferenceData) {
    var airlines: [String: String] = [:]
    for airline in data.airlines where airline.iata.count == 2 && airline.iata != "\\N" && airline.iata != "-" {
      if airline.active || airlines[airline.iata] == nil { airlines[airline.iata] = airline.name }
    }
    var names: [String: String] = [:]
    for type in data.aircraftTypes where !type.iata.isEmpty && type.iata != "\\N" { names[type.iata] = type.name }
    self.init(
      airports: data.airports.map {
        Airport(
          iata: $0.iata, name: $0.name, city: $0.city, country: $0.countryCode, latitude: $0.latitude,
          longitude: $0.longitude, timeZone: $0.timeZoneIdentifier)
      },
      airlines: airlines,
      routes: Self.directRoutes(of: data),
      aircraftNames: names)
  }
}

extension FlightNetworkInput {
  /// The routes of `data` that are direct (no stops) and not codeshares, in one pass.
  fileprivate static func directRoutes(of data: ReferenceData) -> [Route] {
    let all = data.allRoutes()
    var routes: [Route] = []
    routes.reserveCapacity(all.count)
    for route in all where !route.codeshare && route.stops == 0 {
      routes.append(
        Route(airline: route.airline, origin: route.origin, destination: route.destination, equipment: route.equipment))
    }
    return routes
  }
}

/// How the apps get the flight services: the world network generated once per process from the
/// reference data, over the seats booked in the store of the command's data directory.
public enum FlightsWiring {
  private static let loaded: Result<(FlightNetwork, ReferenceData), ServiceError> = {
    do {
      let data = try ReferenceData.shared()
      return .success((FlightNetwork(FlightNetworkInput(referenceData: data)), data))
    } catch let error as ServiceError {
      return .failure(error)
    } catch {
      return .failure(
        ServiceError(.unavailable, code: "reference_data_unavailable", message: ErrorText.reason(of: error)))
    }
  }()

  /// The world's flight network and its reference data (built on first use, then kept).
  /// - Throws: ``ServiceError`` `reference_data_unavailable` (exit 1).
  public static func world() throws -> (FlightNetwork, ReferenceData) { try loaded.get() }

  /// Places through the reference data (CLI.md "Places"): an airport gives itself; a metropolitan
  /// code or a city its airports; `lat,lon` the served airports within 100 km (else the nearest
  /// within 300 km).
  public static func resolver(_ data: ReferenceData) -> FlightEngine.PlaceResolver {
    { text in
      let place = try data.resolvePlace(text)
      if case .coordinate(let point, _) = place {
        let near = data.airports(near: point, radiusKm: 100, servedOnly: true)
        let codes = (near.isEmpty ? Array(data.airports(near: point, radiusKm: 300, servedOnly: true).prefix(1)) : near)
          .map(\.airport.iata)
        return codes
      }
      return place.airports.map(\.iata)
    }
  }

  /// Autocomplete through the reference data (code, name or city prefix; busiest first).
  public static func suggester(_ data: ReferenceData) -> FlightEngine.AirportSuggester {
    { query, limit in
      data.airportSuggestions(for: query, limit: limit).map {
        AirportSummary(
          iata: $0.iata, name: $0.name, city: $0.city, country: $0.countryCode, timeZone: $0.timeZoneIdentifier)
      }
    }
  }

  /// The search engine over `seats`, pricing a search that names no currency in
  /// `defaultCurrency()` (an ISO 4217 code; nil, the default, is USD), signing offer ids with
  /// `signer` (the data directory's, ``BackendServices/offerSigner``).
  public static func engine(
    seats: any FlightSeatReading, defaultCurrency: @escaping @Sendable () -> String? = { nil },
    signer: OfferSigner = .processLocal
  ) throws -> FlightEngine {
    let (network, data) = try world()
    return FlightEngine(
      network: network, seats: seats, resolvePlace: resolver(data), suggestAirports: suggester(data),
      defaultCurrency: defaultCurrency, signer: signer)
  }

  /// The signed-in user's preferred currency (Account preferences) in the store of `services`,
  /// read from the session file of `dataDirectory` at each call (so a sign-in or a preference
  /// changed meanwhile counts); nil when nobody is signed in or the session has ended.
  public static func preferredCurrency(services: BackendServices, dataDirectory: URL) -> @Sendable () -> String? {
    let file = SessionFile(dataDirectory: dataDirectory)
    return {
      guard let token = (try? file.read()) ?? nil else { return nil }
      return try? services.accounts.preferences(token: token).currencyCode
    }
  }

  /// The flight search service for a command run with `context` (seats from its store); offers
  /// are priced in the request's currency, else the signed-in user's preferred one, else USD.
  public static func search(context: CLIContext) throws -> any FlightSearching {
    let services = try BackendServices(dataDirectory: context.dataDirectory)
    return try engine(
      seats: SQLiteFlightSeats(database: services.database),
      defaultCurrency: preferredCurrency(services: services, dataDirectory: context.dataDirectory),
      signer: services.offerSigner)
  }

  /// The booking service for a command run with `context`: an offer is re-priced and charged in
  /// the currency of its quote (the offer id's).
  public static func booking(context: CLIContext) throws -> any FlightBooking {
    let services = try BackendServices(dataDirectory: context.dataDirectory)
    let engine = try engine(
      seats: SQLiteFlightSeats(database: services.database),
      defaultCurrency: preferredCurrency(services: services, dataDirectory: context.dataDirectory),
      signer: services.offerSigner)
    return FlightBookingEngine(engine: engine, ledger: services.ledger)
  }
}

extension FlightsWiring {
  private static let simulation: Result<FlightOperations, ServiceError> = Result {
    try FlightOperations(network: world().0)
  }.mapError { $0 as? ServiceError ?? ServiceError.wrapping($0) }

  /// The simulation of the world's flight operations (``FlightOperations`` with the default seed),
  /// made on first use, then kept.
  /// - Throws: ``ServiceError`` `reference_data_unavailable` (exit 1).
  public static func operations() throws -> FlightOperations { try simulation.get() }

  /// Live flight status for a command run with `context`: the simulation on the context's clock
  /// (`--clock-speed`, `--clock-start`), the traveller's trips from the store of its data
  /// directory (opened only when a trips feed starts).
  public static func status(context: CLIContext) throws -> any FlightStatusService {
    let (_, data) = try world()
    let dataDirectory = context.dataDirectory
    let ledger = LazyLedger { try BackendServices(dataDirectory: dataDirectory).ledger }
    return FlightStatusFeed(
      operations: try operations(), clock: context.clock, isKnownAirport: { data.airport(iata: $0) != nil },
      reservations: { token in try ledger.get().reservations(token: token) })
  }
}

/// The reservations ledger, opened on first use (a status command never opens the store).
private final class LazyLedger: @unchecked Sendable {
  private let lock = NSLock()
  private let make: @Sendable () throws -> ReservationLedger
  private var ledger: ReservationLedger?

  init(_ make: @escaping @Sendable () throws -> ReservationLedger) { self.make = make }

  /// `@unchecked Sendable`: `ledger` is guarded by `lock`.
  func get() throws -> ReservationLedger {
    try lock.withLock {
      if let ledger { return ledger }
      let made = try make()
      ledger = made
      return made
    }
  }
}
