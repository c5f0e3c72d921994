import BackendTesting
import CommonTesting
import Foundation
import Synchronization

@testable import Backend
@testable import Common

/// A backend on a fresh temporary directory with a settable clock, recorded sleeps and cheap scrypt.
final class TestBackend: Sendable {
  let directory = TemporaryDirectory()
  /// The test clock: ``fixedStart`` unless another start is given.
  let clock: Locked<Date>
  let sleeps = Locked<[TimeInterval]>([])
  let services: BackendServices

  /// 2026-09-21T…Z: the default start of the clock (tests of other kinds book dates after it).
  static let fixedStart = Date(timeIntervalSince1970: 1_790_000_000)

  /// - Parameter now: the clock's start; pass `Date()` when other processes (with the real clock)
  ///   use the store too.
  /// - Parameter driver: `.postgres` puts the store in a schema of its own on
  ///   `TRAVEL_TEST_DATABASE_URL` (``PostgresTestSchema``); the keys stay in ``directory``.
  init(now: Date = TestBackend.fixedStart, driver: StoreDriver = .sqlite) throws {
    clock = Locked(now)
    let clock = self.clock
    let sleeps = self.sleeps
    let environment = BackendEnvironment(
      now: { clock.withLock { $0 } }, sleep: { seconds in sleeps.withLock { $0.append(seconds) } },
      passwordParameters: .fastForTests)
    self.environment = environment
    switch driver {
    case .sqlite:
      schema = nil
      services = try BackendServices(dataDirectory: directory.url, environment: environment)
    case .postgres:
      let schema = try PostgresTestSchema()
      self.schema = schema
      services = try BackendServices(
        dataDirectory: directory.url, database: .postgres(schema.configuration), environment: environment)
    }
  }

  /// The PostgreSQL schema of a `.postgres` backend (dropped when the backend goes).
  let schema: PostgresTestSchema?

  let environment: BackendEnvironment

  /// Another, independent set of services (its own connection) on the same data directory.
  func secondConnection() throws -> BackendServices {
    try BackendServices(dataDirectory: directory.url, environment: environment)
  }

  func advance(_ seconds: TimeInterval) { clock.withLock { $0 += seconds } }
  var recordedSleeps: [TimeInterval] { sleeps.withLock { $0 } }

  /// Signs up and signs in `email`; returns the session token.
  @discardableResult
  func signedIn(_ email: String = "ada@example.com", password: String = "correct horse battery") throws -> String {
    _ = try services.accounts.signUp(email: email, password: password, firstName: "Ada", lastName: "Lovelace")
    return try services.accounts.signIn(email: email, password: password).token
  }

  /// Adds card `number` (expiry 12/2030, CVC 123) for `token`.
  @discardableResult
  func addCard(_ number: String = "4242424242424242", token: String) throws -> PaymentCard {
    try services.cards.addCard(
      NewPaymentCard(number: number, expiryMonth: 12, expiryYear: 2030, cvc: "123"), token: token)
  }
}

/// A value behind a lock, shareable by reference.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  init(_ value: Value) { mutex = Mutex(value) }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}

/// `body`'s ServiceError code, or nil if it did not throw one.
func errorCode(_ body: () throws -> Void) -> String? {
  do {
    try body()
    return nil
  } catch let error as ServiceError {
    return error.code
  } catch {
    return "not a ServiceError: \(error)"
  }
}

/// The flight offer id of `payload` (an id's text without its signature) signed with the key of
/// this process (``OfferSigner/processLocal``, what engines built without a data directory use).
func signedFlightOffer(_ payload: String) throws -> FlightOfferID {
  try FlightOfferID(parsing: payload + "." + (try OfferSigner.processLocal.signature(of: payload)))
}

/// A store with `migrations` on `driver`: a SQLite file in a temporary directory, or a PostgreSQL
/// schema of its own. Keep the returned holder alive while using the database.
func openStore(_ driver: StoreDriver, migrations: [Migration]) throws -> (db: Database, holder: AnyObject) {
  switch driver {
  case .sqlite:
    let directory = TemporaryDirectory()
    return (try Store.open(dataDirectory: directory.url, migrations: migrations), directory)
  case .postgres:
    let schema = try PostgresTestSchema()
    return (try Store.open(postgres: schema.configuration, migrations: migrations), schema)
  }
}
