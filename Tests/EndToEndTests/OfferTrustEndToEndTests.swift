import CommonTesting
import Foundation
import Testing

/// Issue #13 at the command line, as separate processes on one data directory: a signed offer id
/// edited by hand is `invalid_offer_id` (exit 2), an idempotency key reused for another request is
/// `idempotency_key_reused` (exit 2), a duplicate booking is `duplicate_booking` (exit 1) until
/// `--allow-duplicate`, and the signing key is an owner-only file of the data directory.
@Suite(.serialized) struct OfferTrustEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "trust-e2e")
  var environment: [String: String] { ["TRAVEL_DATA_DIR": directory.path] }

  func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
    try runner.run(product, arguments, stdin: stdin, environment: environment)
  }

  func json(_ result: ProductRunner.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
  }

  func signIn() throws {
    let password = "correct horse battery staple\n"
    #expect(
      try run(
        "account", ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
        stdin: password + password
      ).status == 0)
    #expect(try run("account", ["login", "--email", "ada@example.com"], stdin: password).status == 0)
    #expect(try run("account", ["cards", "add"], stdin: "4242424242424242\n12/30\n123\n").status == 0)
  }

  @Test func editedFlightID_otherFlightOrRaisedTotal_exitsTwo_andTheKeyIsOwnerOnly() throws {
    try signIn()
    let search = try json(
      try run(
        "booking",
        [
          "search", "--from", "SFO", "--to", "JFK", "--date", FlightsEndToEndTests.date(30), "--max-stops", "0",
          "--json",
        ]))
    let offers = try #require(search["offers"] as? [[String: Any]])
    let ids = offers.compactMap { $0["id"] as? String }
    let id = try #require(ids.first)
    let other = try #require(ids.first { $0.split(separator: ".")[3] != id.split(separator: ".")[3] })
    var parts = id.split(separator: ".").map(String.init)
    // Another flight (another city, as in the report), and a raised total: both keep the signature.
    var otherFlight = parts
    otherFlight[3] = other.split(separator: ".").map(String.init)[3]
    let price = parts[parts.count - 2]
    parts[parts.count - 2] = String(price.prefix(3)) + String(Int(price.dropFirst(3))! + 10_000)
    for edited in [otherFlight.joined(separator: "."), parts.joined(separator: ".")] {
      let result = try run("booking", ["book", edited, "--passenger", "Ada Lovelace", "--json"])
      #expect(result.status == 2, "\(result.stderr)")
      #expect(try json(result)["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "invalid_offer_id")
      #expect(result.stderr.contains("signature"), "\(result.stderr)")
    }
    #expect(!(try run("account", ["trips", "list", "--json"]).stdout.contains("\"flight\"")))
    let key = directory.url.appendingPathComponent("offer-signing.key").path
    let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    // The id as printed books.
    #expect(try run("booking", ["book", id, "--passenger", "Ada Lovelace"]).status == 0)
  }

  @Test func hotel_idempotencyKeyReused_exitsTwo_duplicate_exitsOne_untilAllowed() throws {
    try signIn()
    let stay = ["--check-in", HotelEndToEndTests.day(40), "--check-out", HotelEndToEndTests.day(43)]
    let search = try json(try run("hotel", ["search", "--near", "Paris"] + stay + ["--guests", "2", "--json"]))
    let offers = try #require(search["offers"] as? [[String: Any]])
    let id = try #require(offers.first?["id"] as? String)
    let otherId = try #require(offers.dropFirst().first?["id"] as? String)
    // An edited hotel offer id.
    var parts = id.split(separator: "_").map(String.init)
    parts[2] = parts[2] == "suite" ? "double" : "suite"
    let edited = try run("hotel", ["book", parts.joined(separator: "_"), "--guest", "Ada Lovelace", "--json"])
    #expect(edited.status == 2 && edited.stdout.contains("\"invalid_offer_id\""), "\(edited.stderr)")

    let first = try run("hotel", ["book", id, "--guest", "Ada Lovelace", "--idempotency-key", "trip-1", "--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let reservation = try #require(try json(first)["reservation"] as? [String: Any])
    let reservationId = try #require(reservation["id"] as? String)
    let same = try run("hotel", ["book", id, "--guest", "Ada Lovelace", "--idempotency-key", "trip-1", "--json"])
    #expect(same.status == 0 && same.stdout.contains(reservationId))
    let reused = try run("hotel", ["book", otherId, "--guest", "Alan Turing", "--idempotency-key", "trip-1", "--json"])
    #expect(reused.status == 2, "\(reused.stderr)")
    #expect(reused.stdout.contains("\"idempotency_key_reused\""))
    #expect(reused.stderr.contains("the guest differs") && reused.stderr.contains("the offer differs"))

    let duplicate = try run("hotel", ["book", id, "--guest", "Ada Lovelace", "--json"])
    #expect(duplicate.status == 1, "\(duplicate.stderr)")
    #expect(duplicate.stdout.contains("\"duplicate_booking\"") && duplicate.stdout.contains(reservationId))
    #expect(duplicate.stderr.contains("--allow-duplicate"))
    let allowed = try run("hotel", ["book", id, "--guest", "Ada Lovelace", "--allow-duplicate"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let trips = try json(try run("account", ["trips", "list", "--json"]))
    #expect((trips["reservations"] as? [[String: Any]])?.count == 2)
  }
}
