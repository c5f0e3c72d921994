import Common
import Foundation

/// The embedded backend, opened on one data directory: the store with every module's migrations
/// and the service objects. The apps' `main.swift` needs one line:
/// `let services = try BackendServices(dataDirectory: context.dataDirectory)`.
///
/// To plug a feature's inventory in: add its migrations to ``migrations`` (its own list,
/// `flights.001`, …) and register its cancellation policy in ``init(dataDirectory:environment:)``.
public final class BackendServices: Sendable {
  /// Every module's migrations, in order. Append a module's list; never reorder.
  public static let migrations: [Migration] =
    CoreSchema.migrations + HotelStore.migrations + CarRentalSchema.migrations + FlightSchema.migrations
    + EventLog.migrations
    + CheckInSchema.migrations
    + ChatSchema.migrations

  /// The connection the services share (serialised; see ``Database``).
  public let database: Database
  public let accounts: Accounts
  public let cards: PaymentCards
  public let gateway: PaymentGateway
  public let ledger: ReservationLedger
  public let vault: Vault
  /// Signs the offer ids searches hand out and checks those given to `book`, with the key of
  /// this data directory (``OfferSigner``; `offer-signing.key`, made on first use).
  public let offerSigner: OfferSigner
  /// The change feed: reservations booked and cancelled, per user (``EventLog``).
  public let events: EventLog
  /// Signs and verifies boarding passes (key `boarding-pass-key.pem`, made on first use).
  public let boardingPassSigner: BoardingPassSigner
  /// Travel agents: their accounts and sessions (``AgentAccounts``).
  public let agents: AgentAccounts
  /// The chat with the agency (``ChatStore``).
  public let chat: ChatStore
  private let environment: BackendEnvironment

  /// The services over `dataDirectory/travel.sqlite3`, opened for reading; the store (and the
  /// directory) is created, migrated and opened read-write only at the first write, so searches
  /// and listings write nothing and work in a read-only directory (``Store/openDeferred(dataDirectory:migrations:)``).
  /// `vault.key` is read or made when a card is first added or charged.
  /// - Throws: ``ServiceError`` `data_dir_unreadable`, `data_dir_unusable`, `store_unreadable` (a
  ///   foreign or non-database file, left untouched), `store_outdated`.
  ///
  /// With `database` ``DatabaseLocation/postgres(_:)`` the store is that PostgreSQL database
  /// instead (connected and migrated now); the keys (`vault.key`, `offer-signing.key`, the
  /// boarding-pass key) stay in `dataDirectory`, are made now if missing, and are checked against
  /// the check values the first server on that database recorded (``SharedKeys``).
  /// - Throws: also `store_unavailable` when the PostgreSQL database cannot be reached, and
  ///   `key_mismatch` when this directory's keys are not those of the other servers on it.
  public init(
    dataDirectory: URL, database location: DatabaseLocation = .sqlite, environment: BackendEnvironment = .live
  )
    throws
  {
    do {
      switch location {
      case .sqlite:
        database = try Store.openDeferred(dataDirectory: dataDirectory, migrations: Self.migrations)
      case .postgres(let configuration):
        database = try Store.open(postgres: configuration, migrations: Self.migrations)
      }
    } catch {
      throw ServiceError.wrapping(error)
    }
    vault = Vault(dataDirectory: dataDirectory)
    offerSigner = OfferSigner(dataDirectory: dataDirectory)
    events = EventLog(database: database)
    boardingPassSigner = BoardingPassSigner(dataDirectory: dataDirectory)
    self.environment = environment
    accounts = Accounts(database: database, environment: environment)
    cards = PaymentCards(database: database, accounts: accounts, vault: vault, environment: environment)
    gateway = PaymentGateway(vault: vault, environment: environment)
    ledger = ReservationLedger(database: database, accounts: accounts, gateway: gateway, environment: environment)
    agents = AgentAccounts(database: database, environment: environment)
    chat = ChatStore(database: database, accounts: accounts, agents: agents, events: events, environment: environment)
    if case .postgres = location {
      // Several servers may share this database: they must share the keys too (``SharedKeys``).
      do {
        try SharedKeys.check(
          database: database, dataDirectory: dataDirectory, vault: vault, offerSigner: offerSigner,
          boardingPassSigner: boardingPassSigner, now: environment.now())
      } catch {
        database.close()
        throw ServiceError.wrapping(error)
      }
    }
    ledger.register(.hotel, cancellation: HotelStore.cancellationPolicy)
    ledger.register(.car, cancellation: SQLiteCarRentals.cancellation)
    ledger.register(.flight, cancellation: SQLiteFlightSeats.cancellation)
  }

  /// The account service (sign-up, sessions, profile, preferences).
  public var accountService: any AccountService { accounts }
  /// The payment card service.
  public var cardService: any PaymentCardService { cards }
  /// The traveller's side of the chat with the agency.
  public var chatService: any ChatService { chat }
  /// The agents' side: queue, take, reply, close, the traveller's trips (read only).
  public var agentConsoleService: any AgentConsoleService { StoreAgentConsole(store: chat) }
  /// Trips: every kind of reservation.
  public var reservationService: any ReservationService { ledger }

  /// Check-in, seats and boarding passes over this store, with the aircraft names and airport
  /// countries of the reference data (read on first use).
  public var checkInService: any CheckInService { checkInService(now: environment.now) }

  /// ``checkInService`` on the app's clock (`--clock-start`, `--clock-speed`): the check-in
  /// window (opens 24 h, closes 60 or 45 minutes before departure) and the passes' issue dates
  /// follow `clock`, so check-in can be shown on a simulated day; sessions still expire on the
  /// store's clock.
  public func checkInService(on clock: TravelClock) -> any CheckInService {
    checkInService(now: { clock.now() })
  }

  private func checkInService(now: @escaping @Sendable () -> Date) -> any CheckInService {
    var environment = environment
    environment.now = now
    return FlightCheckIn(
      database: database, accounts: accounts, signer: boardingPassSigner, environment: environment,
      world: {
        let data: ReferenceData
        do {
          data = try ReferenceData.shared()
        } catch {
          throw ServiceError(.unavailable, code: "reference_data_unavailable", message: "\(error)")
        }
        var names: [String: String] = [:]
        for type in data.aircraftTypes where !type.iata.isEmpty && type.iata != "\\N" { names[type.iata] = type.name }
        return FlightCheckIn.World(aircraftNames: names, country: { data.airport(iata: $0)?.countryCode })
      })
  }
}
