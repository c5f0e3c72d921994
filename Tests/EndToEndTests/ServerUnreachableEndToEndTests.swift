import Common
import CommonTesting
import Foundation
import Testing

/// Every command that needs the backend, pointed at a server that is not there: exit 1,
/// `server_unreachable`, the URL named — never a crash, a hang, or the embedded store instead.
@Suite(.timeLimit(.minutes(3)))
struct ServerUnreachableEndToEndTests {
  static let server = "http://127.0.0.1:9"

  /// `travel` commands (signed in with a token the server would be asked about).
  static let commands: [[String]] = [
    ["account", "whoami"], ["account", "logout"], ["account", "profile"], ["account", "preferences"],
    ["account", "cards", "list"], ["account", "cards", "remove", "card_1"], ["account", "cards", "default", "card_1"],
    ["trips", "list"], ["trips", "show", "res_1"], ["trips", "cancel", "res_1", "--yes"],
    ["trips", "export", "res_1", "--ics", "trip.ics"],
    ["trips", "checkin", "res_1"], ["trips", "boarding-pass", "res_1"],
    ["flights", "airports", "SFO"], ["flights", "search", "--from", "SFO", "--to", "JFK", "--date", "2030-01-10"],
    [
      "flights", "book", "FL1.Y.1.20300110UA1.USD10000.0123456789abcdef0123456789abcdef", "--passenger", "Ada Lovelace",
    ],
    ["flights", "seats", "res_1"],
    ["flights", "boarding-pass", "scan", "--text", "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100"],
    ["hotels", "search", "--near", "Paris", "--check-in", "2030-01-10", "--check-out", "2030-01-12"],
    ["hotels", "show", "h_1"],
    [
      "hotels", "book", "hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR_5d1e0c9b7a3f42e8b6d09a1c7e4f2b38",
      "--guest", "Ada Lovelace",
    ],
    ["hotels", "map", "--near", "Paris", "--check-in", "2030-01-10", "--check-out", "2030-01-12", "--svg", "map.svg"],
    ["cars", "search", "--pickup", "LHR", "--from", "2030-01-10T10:00", "--to", "2030-01-12T10:00"],
    ["cars", "book", "CA1.x", "--driver", "Ada Lovelace"], ["cars", "companies", "--pickup", "LHR"],
    ["cars", "promotions"],
  ]

  /// Commands that read what they send from stdin: the command, then its input.
  static let typed: [[String]] = [
    [
      "account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace",
      "\ncorrect horse battery\ncorrect horse battery\n",
    ],
    ["account", "login", "--email", "ada@example.com", "\ncorrect horse battery\n"],
    ["account", "cards", "add", "\n4242424242424242\n12/39\n123\n"],
  ]

  @Test(arguments: commands + typed)
  func saysTheServerCannotBeReached(_ arguments: [String]) throws {
    let client = TemporaryDirectory(prefix: "unreachable")
    try SessionFile(dataDirectory: client.url).write("a-token-the-server-would-check")
    let input = arguments.last.flatMap { $0.hasPrefix("\n") ? String($0.dropFirst()) : nil }
    let command = input == nil ? arguments : Array(arguments.dropLast())
    let result = try ProductRunner().run(
      "travel", command + ["--json", "--data-dir", client.path], stdin: input ?? "",
      environment: ["TRAVEL_SERVER": Self.server])
    #expect(result.status == 1, "\(command): \(result.stderr)")
    #expect(result.stdout.contains("\"code\" : \"server_unreachable\""), "\(command): \(result.stdout)")
    #expect(result.stderr.contains(Self.server), "\(command): \(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: client.url.appendingPathComponent("travel.sqlite3").path))
  }
}
