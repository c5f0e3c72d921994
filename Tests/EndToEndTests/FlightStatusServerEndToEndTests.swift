import CommonTesting
import Foundation
import Testing

/// `booking status --follow` and `booking board` against a `travel-server` whose clock runs a
/// compressed day (`travel-server --clock-start … --clock-speed 2000`): the snapshot over HTTP,
/// every change over `/v1/stream`, in sequence, until the flight is at its gate.
@Suite(.serialized) struct FlightStatusServerEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "status-server-e2e")

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test(.timeLimit(.minutes(3))) func statusFollow_andBoard_againstTheServer() throws {
    let local = ["TRAVEL_DATA_DIR": directory.path]
    let date = FlightsEndToEndTests.date(10)
    let embedded = try runner.run("booking", ["board", "FRA", "--date", date, "--json"], environment: local)
    let flights = try #require(try json(embedded.stdout)["board"] as? [String: Any])["flights"] as? [[String: Any]]
    let first = try #require(flights?.first { ($0["flight"] as? String)?.hasPrefix("LH") == true } ?? flights?.first)
    let flight = try #require(first["flight"] as? String)
    let departure = try #require((first["gateDeparture"] as? [String: Any])?["scheduled"] as? String)
    // The server's day starts three hours before departure and runs 2,000× faster.
    let start = ISO8601DateFormatter().date(from: departure)!.addingTimeInterval(-3 * 3600)
    let server = try ServerProcess(arguments: [
      "--clock-start", ISO8601DateFormatter().string(from: start), "--clock-speed", "2000",
    ])
    defer { server.stop() }
    let remote = local.merging(["TRAVEL_SERVER": server.url.absoluteString]) { $1 }

    let board = try runner.run("booking", ["board", "FRA", "--date", date, "--json"], environment: remote)
    #expect(board.status == 0, "\(board.stderr)")
    let served = try #require(try json(board.stdout)["board"] as? [String: Any])
    #expect((served["flights"] as? [[String: Any]])?.count == flights?.count)

    let result = try runner.run(
      "booking", ["status", flight, "--date", date, "--follow", "--json"], environment: remote)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count >= 3, "\(lines)")
    let snapshot = try #require(try json(lines[0])["flightStatus"] as? [String: Any])
    var sequence = try #require(snapshot["sequence"] as? Int)
    var last = snapshot
    for line in lines.dropFirst() {
      let status = try #require((try json(line)["update"] as? [String: Any])?["flightStatus"] as? [String: Any])
      #expect(status["sequence"] as? Int == sequence + 1, "each change once, in order")
      sequence += 1
      last = status
    }
    #expect(["arrived", "cancelled", "diverted"].contains(last["status"] as? String ?? ""))

    // Every time is named by its airport's zone over the server too (once "times GMT+0100").
    let text = try runner.run("booking", ["status", flight, "--date", date], environment: remote)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("times Europe/Berlin, UTC+01:00"), "\(text.stdout)")
    #expect(!text.stdout.contains("GMT"), "\(text.stdout)")

    let unknown = try runner.run("booking", ["status", "ZZ9999", "--date", date], environment: remote)
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("ZZ"), "\(unknown.stderr)")
  }
}
