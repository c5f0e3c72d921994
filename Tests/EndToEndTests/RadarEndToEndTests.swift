import CommonTesting
import Foundation
import Testing

/// `booking radar` (and `travel flights radar`) run as real processes: one frame of the map
/// (`--once`), the positions as JSON (`--json`), and bad input refused.
@Suite(.serialized) struct RadarEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "radar-e2e")

  func run(_ product: String, _ arguments: [String]) throws -> ProductRunner.Result {
    try runner.run(product, arguments, environment: ["TRAVEL_DATA_DIR": directory.path])
  }

  /// 14:00 UTC ten days from now: the world's busiest hour is around then.
  var afternoon: String { "\(FlightsEndToEndTests.date(10))T14:00Z" }

  @Test(.timeLimit(.minutes(2))) func json_everyFlightInTheAir_withPositionAndCourse() throws {
    let result = try run("booking", ["radar", "--json", "--clock-start", afternoon])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let airborne = try #require(document["airborne"] as? Int)
    let flights = try #require(document["flights"] as? [[String: Any]])
    #expect(airborne > 5_000, "\(airborne) in the air")
    #expect(flights.count == airborne)
    let instant = try #require(document["instant"] as? String)
    #expect(instant.hasPrefix(afternoon.dropLast()))
    for flight in flights.prefix(200) {
      for key in [
        "flight", "operation", "origin", "destination", "latitude", "longitude", "heading", "progress", "flownKm",
        "remainingKm", "takeoff", "landing", "booked",
      ] {
        #expect(flight[key] != nil, "missing \(key)")
      }
      let heading = try #require(flight["heading"] as? Double)
      #expect((0..<360).contains(heading))
      let progress = try #require(flight["progress"] as? Double)
      #expect((0...1).contains(progress))
    }
  }

  @Test(.timeLimit(.minutes(2))) func near_keepsTheFlightsWithinTheRadius_andOnceDrawsTheMap() throws {
    let near = try run(
      "booking", ["radar", "--near", "FRA", "--radius-km", "300", "--json", "--clock-start", afternoon])
    #expect(near.status == 0, "\(near.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [String: Any])
    let flights = try #require(document["flights"] as? [[String: Any]])
    #expect(flights.count > 20 && flights.count < (document["airborne"] as? Int ?? 0))

    let once = try run("travel", ["flights", "radar", "--near", "FRA", "--once", "--clock-start", afternoon])
    #expect(once.status == 0, "\(once.stderr)")
    let lines = once.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count >= 34)
    #expect(lines[0].contains("Flights in the air"))
    // FRA's reference coordinate (OurAirports: 50.0264° N, 8.54313° E).
    #expect(once.stdout.contains("zoom 5 · 50.03°N 8.54°E"))
    #expect(once.stdout.contains("in the air ·") && once.stdout.contains("in view ·"))
    // Place names around FRA (which of them find room depends on where the aircraft are).
    let places = ["Frankfurt", "Mainz", "Wiesbaden", "Darmstadt", "Mannheim", "Köln", "Würzburg", "Essen"]
    #expect(places.contains { once.stdout.contains($0) }, "\(once.stdout)")
    // Aircraft (braille dots or arrows) over the ground.
    #expect(once.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
  }

  @Test(.timeLimit(.minutes(1))) func badInput_isRefusedWithExit2() throws {
    let place = try run("booking", ["radar", "--near", "Qwxzz", "--once"])
    #expect(place.status == 2, "\(place.stderr)")
    #expect(place.stderr.contains("Qwxzz"))
    let zoom = try run("booking", ["radar", "--zoom", "40", "--once"])
    #expect(zoom.status == 2)
    #expect(zoom.stderr.contains("--zoom") && zoom.stderr.contains("0 to 12"))
  }
}
