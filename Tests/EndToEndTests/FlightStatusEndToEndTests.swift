import CommonTesting
import Foundation
import Testing

/// `booking status` and `booking board` (and `travel flights …`), run as real processes; a flight's
/// whole day is compressed with `--clock-speed` and `--clock-start`.
@Suite(.serialized) struct FlightStatusEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "status-e2e")

  var environment: [String: String] { ["TRAVEL_DATA_DIR": directory.path] }

  func booking(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProductRunner.Result {
    try runner.run("booking", arguments, environment: environment.merging(extra) { $1 })
  }

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The date ten days from now (UTC), and the first departure from Frankfurt that day:
  /// (flight, scheduled gate departure as ISO 8601).
  func frankfurtFlight() throws -> (date: String, flight: String, departure: String) {
    let date = FlightsEndToEndTests.date(10)
    let board = try booking(["board", "FRA", "--date", date, "--json"])
    #expect(board.status == 0, "\(board.stderr)")
    let flights = try #require(try json(board.stdout)["board"] as? [String: Any])["flights"] as? [[String: Any]]
    let first = try #require(flights?.first { ($0["flight"] as? String)?.hasPrefix("LH") == true } ?? flights?.first)
    let departure = try #require((first["gateDeparture"] as? [String: Any])?["scheduled"] as? String)
    return (date, try #require(first["flight"] as? String), departure)
  }

  @Test(.timeLimit(.minutes(2))) func status_json_hasTheModelsFields_timesLocalWithOffsets() throws {
    let (date, flight, departure) = try frankfurtFlight()
    let result = try booking(["status", flight, "--date", date, "--json", "--clock-start", "\(date)T00:00Z"])
    #expect(result.status == 0, "\(result.stderr)")
    let status = try #require(try json(result.stdout)["flightStatus"] as? [String: Any])
    for key in [
      "flight", "date", "origin", "destination", "codeshares", "status", "departure", "arrival", "gateDeparture",
      "runwayDeparture", "runwayArrival", "gateArrival", "delays", "aircraft", "sequence",
    ] {
      #expect(status[key] != nil, "missing \(key)")
    }
    #expect(status["origin"] as? String == "FRA")
    #expect(status["status"] as? String == "scheduled")
    #expect((status["gateDeparture"] as? [String: Any])?["scheduled"] as? String == departure)
    #expect(departure.hasSuffix("+01:00") || departure.hasSuffix("+02:00"))
    #expect((status["departure"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin")
  }

  @Test(.timeLimit(.minutes(2))) func statusFollow_json_oneDocumentPerLine_untilAtTheGate() throws {
    let (date, flight, departure) = try frankfurtFlight()
    // Three hours before departure, 20,000× faster: the whole flight in a few seconds.
    let start = ISO8601DateFormatter().date(from: departure)!.addingTimeInterval(-3 * 3600)
    let result = try booking([
      "status", flight, "--date", date, "--follow", "--json", "--clock-start",
      ISO8601DateFormatter().string(from: start), "--clock-speed", "20000",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count >= 7, "\(lines)")
    let first = try json(lines[0])
    let snapshot = try #require(first["flightStatus"] as? [String: Any])
    var sequence = try #require(snapshot["sequence"] as? Int)
    var last: [String: Any] = snapshot
    var states: [String] = []
    for line in lines.dropFirst() {
      let update = try #require(try json(line)["update"] as? [String: Any])
      let status = try #require(update["flightStatus"] as? [String: Any])
      #expect(status["sequence"] as? Int == sequence + 1)
      sequence += 1
      #expect(!((update["changes"] as? [[String: Any]]) ?? []).isEmpty)
      states.append(status["status"] as? String ?? "")
      last = status
    }
    #expect(["arrived", "cancelled", "diverted"].contains(last["status"] as? String ?? ""))
    if last["status"] as? String == "arrived" {
      for state in ["boarding", "departed", "enRoute", "landed", "arrived"] {
        #expect(states.contains(state), "\(state) in \(states)")
      }
      let arrival = try #require(last["gateArrival"] as? [String: Any])
      #expect(arrival["actual"] != nil)
    }
  }

  @Test(.timeLimit(.minutes(2))) func statusFollow_text_printsEachChangeWithItsLocalTime() throws {
    let (date, flight, departure) = try frankfurtFlight()
    let start = ISO8601DateFormatter().date(from: departure)!.addingTimeInterval(-3 * 3600)
    let result = try booking(
      ["status", flight, "--date", date, "--follow"],
      environment: ["TRAVEL_CLOCK_START": ISO8601DateFormatter().string(from: start), "TRAVEL_CLOCK_SPEED": "20000"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("times Europe/Berlin, UTC+0"))
    #expect(result.stdout.contains("Following \(flight.prefix(2)) "))
    #expect(result.stdout.contains("UTC+0"))
    #expect(result.stdout.contains("took off") || result.stdout.contains("Cancelled"))
  }

  @Test(.timeLimit(.minutes(2))) func board_listsTheDaysDepartures_andArrivals_inLocalTime() throws {
    let date = FlightsEndToEndTests.date(10)
    let departures = try booking(["board", "FRA", "--date", date, "--clock-start", "\(date)T11:00Z"])
    #expect(departures.status == 0, "\(departures.stderr)")
    #expect(departures.stdout.hasPrefix("FRA Frankfurt"))
    #expect(departures.stdout.contains("departures · \(date) · times Europe/Berlin"))
    #expect(departures.stdout.contains("Departed "))
    let arrivals = try booking(["board", "fra", "--date", date, "--arrivals", "--json"])
    #expect(arrivals.status == 0, "\(arrivals.stderr)")
    let board = try #require(try json(arrivals.stdout)["board"] as? [String: Any])
    #expect(board["direction"] as? String == "arrivals")
    #expect(((board["flights"] as? [Any])?.count ?? 0) > 300)
    let travel = try runner.run(
      "travel", ["flights", "board", "FRA", "--date", date, "--json"], environment: environment)
    #expect(travel.status == 0, "\(travel.stderr)")
  }

  @Test(.timeLimit(.minutes(2))) func boardFollow_json_boardThenNumberedUpdates() throws {
    let date = FlightsEndToEndTests.date(10)
    // 23:00 at Frankfurt: the day's last flights leave and the board ends.
    let result = try booking([
      "board", "FRA", "--date", date, "--follow", "--json", "--clock-start", "\(date)T21:00Z", "--clock-speed",
      "20000",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let board = try #require(try json(lines[0])["board"] as? [String: Any])
    var sequence = try #require(board["sequence"] as? Int)
    for line in lines.dropFirst() {
      let update = try #require(try json(line)["boardUpdate"] as? [String: Any])
      #expect(update["sequence"] as? Int == sequence + 1)
      sequence += 1
    }
    #expect(lines.count > 3)
  }

  @Test func badInput_exitsTwo_unknownFlightExitsOne_withCodes() throws {
    let invalid = try booking(["status", "L400X", "--json"])
    #expect(invalid.status == 2)
    #expect(invalid.stdout.contains("invalid_flight_number"))
    let unknown = try booking(["status", "LH9999", "--json"])
    #expect(unknown.status == 1)
    #expect(unknown.stdout.contains("flight_not_found"))
    let date = try booking(["status", "LH400", "--date", "2026-02-30"])
    #expect(date.status == 2)
    let airport = try booking(["board", "QQQ", "--json"])
    #expect(airport.status == 2)
    #expect(airport.stdout.contains("unknown_airport"))
    let speed = try booking(["board", "FRA", "--clock-speed", "fast"])
    #expect(speed.status == 2)
    #expect(speed.stderr.contains("invalid --clock-speed \"fast\""))
    let start = try booking(["status", "LH400"], environment: ["TRAVEL_CLOCK_START": "yesterday"])
    #expect(start.status == 2)
    #expect(start.stderr.contains("invalid --clock-start"))
  }
}
