import Common
import Foundation
import Reactive

extension FlightNetworkInput {
  /// The network input of the reference data: every airport, the operating carriers
  /// (``ReferenceData/carriers``: the names their routes point to, renamed or corrected by
  /// `Shared/openflights/carrier_changes.csv`), the direct routes (OpenFlights.org) as flown today
  /// — a merged airline's routes under its successor's code, a ceased airline's dropped — the
  /// codeshares (``codeshares(of:)``) and the aircraft type names.
  public init(referenceData data: ReferenceData) {
    self.init(referenceData: data, airportSuccessors: (try? Self.airportSuccessors()) ?? [:])
  }

  /// The airports of the 2014 routes that closed since → the airport that took their flights
  /// (`Shared/openflights/airport_changes.csv`: TXL and SXF → BER, …; see its SOURCE.md).
  /// - Throws: `SharedResources.Failure` when the file is missing or a row is malformed.
  public static func airportSuccessors() throws -> [String: String] {
    let path = "openflights/airport_changes.csv"
    let text = String(decoding: try SharedResources.data(path), as: UTF8.self)
    var successors: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline).dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count >= 4, fields[0].count == 3, fields[3].count == 3 else {
        throw SharedResources.Failure.malformed(path: path, reason: "row \"\(line)\": expected iata,…,successor_iata,…")
      }
      successors[String(fields[0])] = String(fields[3])
    }
    return successors
  }

  /// As ``init(referenceData:)``, with the routes of a closed airport flown from or to its
  /// successor (`airportSuccessors`: closed → successor IATA code); a route that then exists twice
  /// for one airline is flown once.
  public init(referenceData data: ReferenceData, airportSuccessors: [String: String]) {
    var airlines: [String: String] = [:]
    for carrier in data.carriers where carrier.status == .operating { airlines[carrier.code] = carrier.name }
    var names: [String: String] = [:]
    for type in data.aircraftTypes where !type.iata.isEmpty && type.iata != "\\N" { names[type.iata] = type.name }
    var flying: [String: String?] = [:]
    var routes: [Route] = []
    /// Routes moved to a successor airport, by airline and pair, so each is flown once.
    var moved = Set<String>()
    let all = data.allRoutes()
    routes.reserveCapacity(all.count)
    for route in all where route.stops == 0 && !route.codeshare {
      let code: String?
      if let known = flying[route.airline] {
        code = known
      } else {
        // Codes without a carrier (ICAO codes of the routes) are passed on; the network skips them.
        code = data.carrier(code: route.airline).map(\.flyingCode) ?? route.airline
        flying[route.airline] = code
      }
      guard let code else { continue }
      let origin = airportSuccessors[route.origin] ?? route.origin
      let destination = airportSuccessors[route.destination] ?? route.destination
      guard origin != destination else { continue }
      if origin != route.origin || destination != route.destination {
        guard moved.insert("\(code)|\(origin)|\(destination)").inserted else { continue }
      }
      routes.append(Route(airline: code, origin: origin, destination: destination, equipment: route.equipment))
    }
    self.init(
      airports: data.airports.map {
        Airport(
          iata: $0.iata, name: $0.name, city: $0.city, country: $0.countryCode, latitude: $0.latitude,
          longitude: $0.longitude, timeZone: $0.timeZoneIdentifier)
      },
      airlines: airlines, routes: routes, codeshares: Self.codeshares(of: data, airportSuccessors: airportSuccessors),
      aircraftNames: names)
  }

  /// The codeshares of the reference data: each direct codeshare route `(X, origin, destination)`
  /// of OpenFlights marks `X` as a marketing carrier of one airline operating that pair, chosen as
  /// real codeshares are, between partners:
  /// 1. only airlines that still fly count, on both sides (the agreements of a merged or ceased
  ///    airline are not assumed to pass to its successor), and `X` must not fly the pair itself;
  /// 2. an operator in `X`'s alliance (``Carrier/alliance``, `Shared/openflights/alliances.csv`)
  ///    comes first; without one, an operator in no alliance (a rival alliance's member never: the
  ///    2014 data lists codeshares that no longer exist, as United on American flights);
  /// 3. among those, the one `X` has the most codeshare pairs with where it is the only operator,
  ///    then the most pairs at all (the data's own evidence of a partnership), then code order.
  /// A codeshare with no such operator is dropped.
  /// Routes of a closed airport count as its successor's (`airportSuccessors`, as the operated
  /// routes do).
  public static func codeshares(of data: ReferenceData, airportSuccessors: [String: String] = [:]) -> [Codeshare] {
    let all = data.allRoutes().filter { $0.stops == 0 }
    func operating(_ code: String) -> Carrier? {
      data.carrier(code: code).flatMap { $0.status == .operating ? $0 : nil }
    }
    struct Pair: Hashable {
      var origin: String
      var destination: String
    }
    var operators: [Pair: Set<String>] = [:]
    var marketed: [(code: String, pair: Pair)] = []
    var seen = Set<String>()
    for route in all {
      guard operating(route.airline) != nil else { continue }
      let pair = Pair(
        origin: airportSuccessors[route.origin] ?? route.origin,
        destination: airportSuccessors[route.destination] ?? route.destination)
      guard pair.origin != pair.destination else { continue }
      if route.codeshare {
        if seen.insert("\(route.airline)|\(route.origin)|\(route.destination)").inserted {
          marketed.append((route.airline, pair))
        }
      } else {
        operators[pair, default: []].insert(route.airline)
      }
    }
    // The data's evidence of each partnership: pairs where the partner is the only operator, and
    // pairs where it is one of them.
    var sole: [String: [String: Int]] = [:]
    var shared: [String: [String: Int]] = [:]
    for (code, pair) in marketed {
      let others = (operators[pair] ?? []).subtracting([code])
      for other in others { shared[code, default: [:]][other, default: 0] += 1 }
      if others.count == 1, let only = others.first { sole[code, default: [:]][only, default: 0] += 1 }
    }
    var result: [Codeshare] = []
    for (code, pair) in marketed {
      let flying = operators[pair] ?? []
      guard !flying.contains(code), let marketer = operating(code) else { continue }
      let candidates = flying.compactMap(operating)
      let allied = candidates.filter { $0.alliance != nil && $0.alliance == marketer.alliance }
      let pool = !allied.isEmpty ? allied : candidates.filter { $0.alliance == nil }
      let scores = (sole[code] ?? [:], shared[code] ?? [:])
      guard
        let partner = pool.max(by: {
          (scores.0[$0.code] ?? 0, scores.1[$0.code] ?? 0, $1.code) < (
            scores.0[$1.code] ?? 0, scores.1[$1.code] ?? 0, $0.code
          )
        })
      else { continue }
      result.append(
        Codeshare(marketing: code, operating: partner.code, origin: pair.origin, destination: pair.destination))
    }
    return result
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
  ///
  /// A closed airport (`airport_changes.csv`) stands for its successor, as its flights do: "Berlin"
  /// and `TXL` give BER.
  public static func resolver(_ data: ReferenceData) -> FlightEngine.PlaceResolver {
    let successors = (try? FlightNetworkInput.airportSuccessors()) ?? [:]
    return { text in
      var codes: [String]
      // An IATA airport code as typed (three capital letters): what resolvePlace answers for it
      // (the airport), without trimming the text and trying it as coordinates first.
      if text.utf8.count == 3, text.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }),
        let airport = data.airport(iata: text)
      {
        codes = [airport.iata]
      } else {
        let place = try data.resolvePlace(text)
        if case .coordinate(let point, _) = place {
          let near = data.airports(near: point, radiusKm: 100, servedOnly: true)
          codes = (near.isEmpty ? Array(data.airports(near: point, radiusKm: 300, servedOnly: true).prefix(1)) : near)
            .map(\.airport.iata)
        } else {
          codes = place.airports.map(\.iata)
        }
      }
      var seen = Set<String>()
      return codes.map { successors[$0] ?? $0 }.filter { seen.insert($0).inserted }
    }
  }

  /// Autocomplete through the reference data (code, name or city prefix; busiest first): airports
  /// and metropolitan areas, an area the text names first with its airports after it
  /// (``ReferenceData/flightPlaceSuggestions(for:limit:)``).
  /// Closed airports (`airport_changes.csv`) are not suggested: their successors are.
  public static func suggester(_ data: ReferenceData) -> FlightEngine.AirportSuggester {
    let closed = Set(((try? FlightNetworkInput.airportSuccessors()) ?? [:]).keys)
    return { query, limit in
      data.flightPlaceSuggestions(for: query, limit: limit + closed.count).compactMap { suggestion in
        switch suggestion {
        case .airport(let airport) where closed.contains(airport.iata):
          nil
        case .airport(let airport):
          AirportSummary(
            iata: airport.iata, name: airport.name, city: airport.city, country: airport.countryCode,
            timeZone: airport.timeZoneIdentifier)
        case .metroArea(let area):
          AirportSummary(
            iata: area.code, name: "\(area.name) (all airports)", city: area.name, country: area.countryCode,
            timeZone: area.timeZoneIdentifier, airports: data.airports(of: area).map(\.iata))
        case .city:
          nil
        }
      }
      .prefix(limit).map { $0 }
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

  /// The signed-in traveller's home airport (Account preferences) in the data directory of
  /// `context`, read from its session file; nil when nobody is signed in, the session has ended,
  /// none is set, or the store cannot be opened (the search then asks for `--from`).
  public static func homeAirport(context: CLIContext) -> String? {
    // The session file first: nobody signed in opens no store.
    guard let token = (try? SessionFile(dataDirectory: context.dataDirectory).read()) ?? nil,
      let services = try? BackendServices(dataDirectory: context.dataDirectory)
    else { return nil }
    return try? services.accounts.preferences(token: token).homeAirport
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
  /// directory. Nothing is loaded until first used (the world's schedule when a status is asked,
  /// the store when a trips feed starts), so an `account` command that never asks pays nothing.
  public static func status(context: CLIContext) throws -> any FlightStatusService { feed(context: context) }

  /// The feed behind ``status(context:)`` and ``radar(context:)``, made on first use.
  static func feed(context: CLIContext) -> LazyStatus {
    let dataDirectory = context.dataDirectory
    let clock = context.clock
    return LazyStatus(clock: clock) {
      let (_, data) = try world()
      let ledger = LazyLedger { try BackendServices(dataDirectory: dataDirectory).ledger }
      return FlightStatusFeed(
        operations: try operations(), clock: clock, isKnownAirport: { data.airport(iata: $0) != nil },
        reservations: { token in try ledger.get().reservations(token: token) })
    }
  }
}

/// A status service and radar made on first use (a failure is kept and reported by every call).
/// `@unchecked Sendable`: `made` is guarded by `lock`.
final class LazyStatus: FlightStatusService, FlightRadarService, @unchecked Sendable {
  let clock: TravelClock
  private let lock = NSLock()
  private let make: @Sendable () throws -> FlightStatusFeed
  private var made: Result<FlightStatusFeed, ServiceError>?

  init(clock: TravelClock, make: @escaping @Sendable () throws -> FlightStatusFeed) {
    self.clock = clock
    self.make = make
  }

  private func feed() throws -> FlightStatusFeed {
    try lock.withLock {
      if let made { return try made.get() }
      let result = Result { try make() }.mapError { $0 as? ServiceError ?? ServiceError.wrapping($0) }
      made = result
      return try result.get()
    }
  }

  private func deferred<Output>(_ body: @escaping @Sendable (FlightStatusFeed) -> AnyPublisher<Output, ServiceError>)
    -> AnyPublisher<Output, ServiceError>
  {
    Deferred { [self] () -> AnyPublisher<Output, ServiceError> in
      do { return body(try feed()) } catch {
        return Fail(error: error as? ServiceError ?? ServiceError.wrapping(error)).eraseToAnyPublisher()
      }
    }.eraseToAnyPublisher()
  }

  func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    try feed().operation(of: flight, date: date)
  }

  func status(_ key: FlightStatusKey) throws -> FlightStatus { try feed().status(key) }

  func airborne(at instant: Date) throws -> [RadarFlight] { try feed().airborne(at: instant) }

  func bookedOperations(token: String) throws -> Set<FlightStatusKey> { try feed().bookedOperations(token: token) }

  func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    try feed().board(airport: airport, date: date, direction: direction)
  }

  func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<FlightStatusEvent, ServiceError> {
    deferred { $0.statusEvents(key, after: sequence) }
  }

  func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    deferred { $0.boardEvents(airport: airport, date: date, direction: direction, after: sequence) }
  }

  func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    deferred { $0.tripEvents(token: token) }
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
