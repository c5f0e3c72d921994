import Backend
import Foundation

/// A schema of its own, for one test, in the PostgreSQL database of `TRAVEL_TEST_DATABASE_URL`
/// (set by `Scripts/test`, which starts a throwaway cluster for BackendTests and ServerTests
/// through `Scripts/with-postgres`): ``configuration`` (and ``location``) connect with
/// `search_path` set to it. Dropped (with everything in it) when released.
///
/// Without `TRAVEL_TEST_DATABASE_URL` it throws, so the PostgreSQL half of a test fails loudly: it
/// never skips.
public final class PostgresTestSchema: Sendable {
  public let configuration: PostgresConfiguration
  public let name: String
  private let adminURL: String

  /// The store's location: this schema.
  public var location: DatabaseLocation { .postgres(configuration) }

  public struct Missing: Error, CustomStringConvertible {
    public var description: String {
      "TRAVEL_TEST_DATABASE_URL is not set: the PostgreSQL tests need a database. Run them with "
        + "`Scripts/test Backend` or `Scripts/test Server` (it starts a throwaway PostgreSQL cluster and sets the "
        + "variable), or set it to a database you may create schemas in"
    }
  }

  /// `TRAVEL_TEST_DATABASE_URL`, or ``Missing``.
  public static func url() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["TRAVEL_TEST_DATABASE_URL"], !url.isEmpty else {
      throw Missing()
    }
    return url
  }

  /// `url` with extra query parameters (percent-encoded as libpq expects).
  public static func url(_ url: String, adding items: [String: String]) -> String {
    var components = URLComponents(string: url)!
    var query = components.percentEncodedQuery.map { [$0] } ?? []
    for (key, value) in items.sorted(by: { $0.key < $1.key }) {
      let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
      query.append("\(key)=\(encoded)")
    }
    components.percentEncodedQuery = query.joined(separator: "&")
    return components.string!
  }

  /// - Parameter settings: more URL parameters (`pool_size`, `statement_timeout`, …).
  public init(settings: [String: String] = [:]) throws {
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
  public func admin() throws -> Database { try Database(postgres: PostgresConfiguration(url: adminURL)) }

  deinit {
    if let admin = try? Database(postgres: PostgresConfiguration(url: adminURL)) {
      try? admin.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
      admin.close()
    }
  }
}
