import Common
import CommonTesting
import Foundation
import Testing

/// The names of the live flight-status topics of `/v1/stream`.
struct FlightStatusTopicTests {
  @Test func names_roundTrip_forFlightsAndBoards() throws {
    let key = try #require(FlightStatusKey(id: "LH400-2026-12-20-FRA"))
    let topics: [FlightStatusTopic] = [
      .flight(key),
      .board(airport: "FRA", direction: .departures, date: LocalDate("2026-12-20")),
      .board(airport: "JFK", direction: .arrivals, date: nil),
    ]
    #expect(
      topics.map(\.name) == ["flight:LH400-2026-12-20-FRA", "board:FRA:departures:2026-12-20", "board:JFK:arrivals"])
    for topic in topics { #expect(try FlightStatusTopic(parsing: topic.name) == topic) }
    #expect(topics.map(\.updateEvent) == ["flight.update", "board.update", "board.update"])
    #expect(topics[0].snapshotEvent == "flight.snapshot")
  }

  @Test func badNames_areRefused_namingWhatIsAccepted() {
    for bad in [
      "flight:", "flight:LH400", "flight:LH400-2026-13-20-FRA", "board:FRA", "board:fra:departures",
      "board:FRA:outbound", "board:FRA:departures:tomorrow", "board:FRA:departures:2026-12-20:x", "trips", "",
    ] {
      let error = #expect(throws: ServiceError.self, "\(bad)") { try FlightStatusTopic(parsing: bad) }
      #expect(error?.code == "invalid_topic")
      #expect(error?.message.contains("expected") == true || error?.message.contains("starts with") == true)
    }
  }

  @Test func boardApply_replacesTheFlight_andAdvancesTheSequence() throws {
    let key = try #require(FlightStatusKey(id: "LH400-2026-12-20-FRA"))
    let other = try #require(FlightStatusKey(id: "LH402-2026-12-20-FRA"))
    let departure = Date(timeIntervalSince1970: 1_800_000_000)
    func status(_ key: FlightStatusKey, _ sequence: Int, gate: String?) -> FlightStatus {
      var status = FlightStatus.fixture(
        key.flight.code, from: "FRA", to: "JFK", date: key.date, departure: "10:00", blockMinutes: 500,
        fromZone: "Europe/Berlin", toZone: "America/New_York")
      status.sequence = sequence
      status.departure.gate = gate
      status.updatedAt = departure.addingTimeInterval(Double(sequence) * 60)
      return status
    }
    var board = FlightBoard(
      airport: "FRA", airportName: "Frankfurt", city: "Frankfurt", timeZone: "Europe/Berlin",
      date: key.date, direction: .departures,
      flights: [status(key, 1, gate: nil), status(other, 1, gate: "A1")], sequence: 4, asOf: departure)
    let new = status(key, 2, gate: "B44")
    board.apply(FlightBoardUpdate(sequence: 5, update: FlightStatusUpdate(from: board.flights[0], to: new)))
    #expect(board.flights[0].departure.gate == "B44")
    #expect(board.flights[1].departure.gate == "A1")
    #expect(board.sequence == 5)
    #expect(board.asOf == new.updatedAt)
  }
}
