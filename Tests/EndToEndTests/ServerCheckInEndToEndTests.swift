import CommonTesting
import Foundation
import Testing

/// Check-in, seats and boarding passes of `travel` against a `travel-server` started by the
/// suite: the seats, the sequence numbers and the key that signs the passes are the server's.
@Suite(.serialized, .timeLimit(.minutes(3)))
final class ServerCheckInEndToEndTests {
  let server: ServerProcess

  init() throws { server = try ServerProcess() }

  deinit { server.stop() }

  func travel(_ arguments: [String], stdin: String = "", client: TemporaryDirectory) throws -> ProductRunner.Result {
    try ProductRunner().run(
      "travel", arguments + ["--data-dir", client.path], stdin: stdin,
      environment: ["TRAVEL_SERVER": server.url.absoluteString])
  }

  func json(_ result: ProductRunner.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test func checkInSeatsAndPassesGoThroughTheServer() throws {
    let client = TemporaryDirectory(prefix: "server-client")
    let password = "correct horse battery\n"
    let signup = try travel(
      ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: password + password, client: client)
    #expect(signup.status == 0, "\(signup.stderr)")
    #expect(
      try travel(["account", "login", "--email", "ada@example.com"], stdin: password, client: client).status == 0)
    #expect(
      try travel(["account", "cards", "add"], stdin: "4242424242424242\n12/39\n123\n", client: client).status == 0)

    // A nonstop leaving 2 to 22 hours from now: its check-in is open on the server's clock.
    let now = Date()
    var offerID: String?
    for day in [0, 1] where offerID == nil {
      let date = ISO8601DateFormatter.string(
        from: now.addingTimeInterval(Double(day) * 86400), timeZone: TimeZone(identifier: "America/Los_Angeles")!,
        formatOptions: [.withFullDate])
      let search = try travel(
        [
          "flights", "search", "--from", "SFO", "--to", "JFK", "--date", date, "--max-stops", "0", "--sort",
          "departure", "--limit", "50", "--json",
        ], client: client)
      guard search.status == 0, let offers = try json(search)["offers"] as? [[String: Any]] else { continue }
      offerID =
        offers.first { offer in
          guard let segments = offer["segments"] as? [[String: Any]],
            let text = segments.first?["departure"] as? String, let departure = ISO8601DateFormatter().date(from: text)
          else { return false }
          let hours = departure.timeIntervalSince(now) / 3600
          return hours > 2 && hours < 22
        }?["id"] as? String
    }
    let offer = try #require(offerID, "no SFO→JFK nonstop in the next 2–22 hours")
    let book = try travel(["flights", "book", offer, "--passenger", "Ada Lovelace", "--json"], client: client)
    #expect(book.status == 0, "\(book.stderr)")
    let reservation = try #require((try json(book)["reservation"] as? [String: Any])?["id"] as? String)

    let seats = try travel(["flights", "seats", reservation, "--auto", "--json"], client: client)
    #expect(seats.status == 0, "\(seats.stderr)")
    #expect(try json(seats)["reservationId"] as? String == reservation)

    let checkIn = try travel(["trips", "checkin", reservation, "--json"], client: client)
    #expect(checkIn.status == 0, "\(checkIn.stderr)")
    let checked = try #require(try json(checkIn)["checkIn"] as? [String: Any])
    #expect((checked["boardingPasses"] as? [Any])?.count == 1)

    let passes = try travel(["trips", "boarding-pass", reservation, "--json"], client: client)
    #expect(passes.status == 0, "\(passes.stderr)")
    let bcbp = try #require((try json(passes)["boardingPasses"] as? [[String: Any]])?.first?["bcbp"] as? String)

    // The pass is signed with the server's key: valid over the server, and matched to the trip.
    let scan = try travel(["flights", "boarding-pass", "scan", "--text", bcbp, "--json"], client: client)
    #expect(scan.status == 0, "\(scan.stderr)")
    #expect(scan.stdout.contains("\"valid\""), "\(scan.stdout)")
    #expect(scan.stdout.contains(reservation), "\(scan.stdout)")
    // Nothing of it is on the client.
    #expect(!FileManager.default.fileExists(atPath: client.url.appendingPathComponent("travel.sqlite3").path))
  }
}
