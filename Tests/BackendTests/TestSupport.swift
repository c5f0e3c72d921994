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

/// The two drivers of the store, for tests parameterised over both.
enum StoreDriver: String, CaseIterable, Sendable, CustomStringConvertible {
  case sqlite, postgres
  var description: String { rawValue }
}

/// A schema of its own, for one test, in the PostgreSQL database of `TRAVEL_TEST_DATABASE_URL`
/// (set by `Scripts/test`, which starts a throwaway cluster): ``configuration`` connects with
/// `search_path` set to it. Dropped (with everything in it) when released.
///
/// Without `TRAVEL_TEST_DATABASE_URL` it throws, so the PostgreSQL half of a test fails loudly: it
/// never skips.
final class PostgresTestSchema: Sendable {
  let configuration: PostgresConfiguration
  let name: String
  private let adminURL: String

  struct Missing: Error, CustomStringConvertible {
    var description: String {
      "TRAVEL_TEST_DATABASE_URL is not set: the PostgreSQL tests need a database. Run them with "
        + "`Scripts/test Backend` (it starts a throwaway PostgreSQL cluster and sets the variable), or set it to a "
        + "database you may create schemas in"
    }
  }

  /// `TRAVEL_TEST_DATABASE_URL`, or ``Missing``.
  static func url() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["TRAVEL_TEST_DATABASE_URL"], !url.isEmpty else {
      throw Missing()
    }
    return url
  }

  /// `url` with extra query parameters (percent-encoded as libpq expects).
  static func url(_ url: String, adding items: [String: String]) -> String {
    var components = URLComponents(string: url)!
    var query = components.percentEncodedQuery.map { [$0] } ?? []
    for (key, value) in items.sorted(by: { $0.key < $1.key }) {
      let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
      query.append("\(key)=\(encoded)")
    }
    components.percentEncodedQuery = query.joined(separator: "&")
    return components.string!
  }

  init(settings: [String: String] = [:]) throws {
    adminURL = try Self.url()
    name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    let admin = try Database(postgres: PostgresConfiguration(url: adminURL))
    defer { admin.close() }
    try admin.execute("CREATE SCHEMA \(name)")
    configuration = try PostgresConfiguration(
      url: Self.url(
        adminURL,
        adding: settings.merging(["options": "-c search_path=\(name)", "application_name": name]) { $1 }))
  }

  /// A connection to the database with administrator rights (to end other sessions, …).
  func admin() throws -> Database { try Database(postgres: PostgresConfiguration(url: adminURL)) }

  deinit {
    if let admin = try? Database(postgres: PostgresConfiguration(url: adminURL)) {
      try? admin.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
      admin.close()
    }
  }
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
