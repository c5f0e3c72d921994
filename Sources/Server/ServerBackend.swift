import Backend
import Common
import Foundation

/// The request being served: its bearer token, for the services that price for "whoever is signed
/// in" (preferred currency, member discount). A task-local, so it is bound for exactly the
/// synchronous call of one handler on one worker thread; the services themselves stay shared.
enum RequestScope {
  @TaskLocal static var token: String?
}

/// The embedded backend as the server uses it: opened once at start, shared by every worker. It
/// keeps nothing per client: every call carries its token, so any number of server instances can
/// serve one store.
final class ServerBackend: Sendable {
  let services: BackendServices
  let flights: FlightEngine
  let flightBooking: FlightBookingEngine
  let cars: CarRentalEngine
  /// Check-in, seats and boarding passes (one instance: it reads the reference data once).
  let checkIn: any CheckInService
  private let hotelEngines = HotelEngines()

  init(dataDirectory: URL, database: DatabaseLocation = .sqlite, environment: BackendEnvironment) throws {
    let services = try BackendServices(dataDirectory: dataDirectory, database: database, environment: environment)
    self.services = services
    let preferred: @Sendable () -> String? = {
      RequestScope.token.flatMap { try? services.accounts.preferences(token: $0).currencyCode }
    }
    // Offer ids are signed with the data directory's key, as in the apps: an id searched before
    // a restart (or on another instance on the same store) still books.
    flights = try FlightsWiring.engine(
      seats: SQLiteFlightSeats(database: services.database), defaultCurrency: preferred,
      signer: services.offerSigner)
    flightBooking = FlightBookingEngine(engine: flights, ledger: services.ledger)
    cars = try CarRentalWiring.service(services: services, token: { RequestScope.token })
    checkIn = services.checkInService
    _ = try hotels()
  }

  var accounts: any AccountService { services.accountService }
  var cards: any PaymentCardService { services.cardService }
  var reservations: any ReservationService { services.reservationService }
  var events: any EventFeed { services.events }

  /// The hotel service pricing `--max-price` in the request's traveller's currency (one engine
  /// per currency, built on first use).
  func hotels() throws -> HotelEngine {
    let currency = RequestScope.token.flatMap { try? services.accounts.preferences(token: $0).currencyCode }
    return try hotelEngines.engine(for: currency) {
      try HotelBackend.service(services: services, defaultCurrency: currency)
    }
  }

  /// The user id behind `token` (for topics), or the session error.
  func userID(token: String) throws -> Int64 { try services.accounts.userID(token: token) }

  /// Whether the store answers (for `/readyz`).
  func isReady() -> Bool { (try? services.database.queryOne("SELECT 1 AS one")) != nil }

  private final class HotelEngines: @unchecked Sendable {
    private let lock = NSLock()
    private var engines: [String: HotelEngine] = [:]

    func engine(for currency: String?, make: () throws -> HotelEngine) throws -> HotelEngine {
      try lock.withLock {
        let key = currency ?? ""
        if let engine = engines[key] { return engine }
        let engine = try make()
        engines[key] = engine
        return engine
      }
    }
  }
}
