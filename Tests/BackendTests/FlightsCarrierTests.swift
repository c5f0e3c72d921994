import Common
import Foundation
import Testing

@testable import Backend

/// The schedule flies the airlines of today, not those of the 2014 routes, and codeshares are
/// marketing carriers of operated flights (Shared/openflights/carrier_changes.csv, FlightNetwork).
@Suite struct FlightsCarrierTests {
  let world = FlightsFixtures.world
  let date = LocalDate("2027-03-10")!

  @Test func defunctAirlines_flyNoMore_mergedOnesUnderTheirSuccessor() throws {
    let data = try ReferenceData.shared()
    for code in ["US", "VX", "FL", "4U", "KA", "MI", "TZ", "AB", "HG", "UN", "9W", "BE", "ZB", "AP", "OV", "GE"] {
      #expect(!world.carriers.contains(code), "\(code) still flies")
      #expect(data.carrier(code: code)?.status != .operating, "\(code)")
      #expect(data.carrier(code: code)?.source?.hasPrefix("https://en.wikipedia.org/wiki/") == true, "\(code)")
    }
    let usAirways = try #require(data.carrier(code: "US"))
    #expect(usAirways.status == .merged && usAirways.successor == "AA" && usAirways.since == "2015-10-17")
    #expect(data.carrier(code: "AB")?.status == .ceased)
    // San Francisco – New York nonstops: no US Airways or Virgin America in 2027; Alaska flies
    // Virgin America's flights (and no longer markets them as a codeshare).
    let carriers = Set(world.flights(from: "SFO", to: "JFK", on: date).map(\.flight.carrier))
    #expect(carriers.isSubset(of: ["AA", "AS", "B6", "DL", "UA"]))
    #expect(carriers.contains("AS"))
    // US Airways' Philadelphia hub is American's.
    let philadelphia = Set(world.departures(from: "PHL", on: date).map(\.flight.carrier))
    #expect(philadelphia.contains("AA") && !philadelphia.contains("US"))
  }

  /// QA (#14): Berlin's flights used Tegel, closed in 2020, and `--to BER` had none.
  @Test func closedAirports_theirFlightsUseTheSuccessor() throws {
    let successors = try FlightNetworkInput.airportSuccessors()
    #expect(successors["TXL"] == "BER" && successors["NAY"] == "PKX" && successors["ULN"] == "UBN")
    for closed in successors.keys.sorted() {
      #expect(world.departures(from: closed, on: date).isEmpty, "\(closed) still has departures")
    }
    #expect(world.departures(from: "BER", on: date).count > 50)
    #expect(!world.flights(from: "BER", to: "FRA", on: date).isEmpty)
    #expect(!world.departures(from: "PKX", on: date).isEmpty)
    // Each airline flies a moved route once.
    let berlin = world.departures(from: "BER", on: date).map { "\($0.flight)" }
    #expect(Set(berlin).count == berlin.count)
    // "Berlin" and TXL are searched at BER; Tegel is not suggested any more.
    let data = try ReferenceData.shared()
    let resolve = FlightsWiring.resolver(data)
    #expect(try resolve("Berlin") == ["BER"])
    #expect(try resolve("TXL") == ["BER"])
    let suggested = FlightsWiring.suggester(data)("berlin", 10).map(\.iata)
    #expect(suggested.contains("BER") && !suggested.contains("TXL"), "\(suggested)")
  }

  @Test func carrierNames_areTheAirlinesFlyingTheRoutes() {
    #expect(world.carrierName("VY") == "Vueling")
    #expect(world.carrierName("SQ") == "Singapore Airlines")
    #expect(world.carrierName("AZ") == "ITA Airways")
    #expect(world.carrierName("LA") == "LATAM Airlines")
    #expect(world.carrierName("GS") == "Tianjin Airlines")
    #expect(world.carrierName("EW") == "Eurowings")
    #expect(world.carrierName("UA") == "United Airlines")
  }

  @Test func codeshares_areMarketingCarriersOfAnOperatedFlight_notFlightsOfTheirOwn() throws {
    // Zürich – New York: United codeshares on Swiss (its partner), not on American.
    let zurich = world.flights(from: "ZRH", to: "JFK", on: date)
    #expect(!zurich.contains { $0.flight.carrier == "UA" })
    let swiss = zurich.filter { $0.flight.carrier == "LX" }
    #expect(!swiss.isEmpty)
    #expect(swiss.allSatisfy { $0.codeshares.contains { $0.carrier == "UA" } })
    #expect(zurich.filter { $0.flight.carrier == "AA" }.allSatisfy { !$0.codeshares.contains { $0.carrier == "UA" } })
    // Sydney – Los Angeles: American sells Qantas's flights.
    let sydney = world.flights(from: "SYD", to: "LAX", on: date)
    #expect(!sydney.contains { $0.flight.carrier == "AA" })
    #expect(sydney.filter { $0.flight.carrier == "QF" }.allSatisfy { $0.codeshares.contains { $0.carrier == "AA" } })

    // Every marketing designator names one operated flight; none is an operated flight itself, and
    // no flight is marketed by its own operator.
    var designators = Set<Flight>()
    for index in 0..<Int32(world.patternCount) {
      let operated = world.flight(of: index)
      for codeshare in world.patternCodeshares[
        Int(world.codeshareStart[Int(index)])..<Int(world.codeshareStart[Int(index) + 1])]
      {
        #expect(codeshare.carrier != operated.carrier)
        #expect(world.pattern(of: codeshare) == nil)
        #expect(world.operatingFlight(of: codeshare) == operated)
        #expect(designators.insert(codeshare).inserted)
      }
    }
    #expect(designators.count > 10_000)
  }

  @Test func codeshares_inTheSearchJSON_withTheOperatingCarrier() throws {
    let segment = try #require(world.flights(from: "ZRH", to: "JFK", on: date).first { $0.flight.carrier == "LX" })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = try #require(
      JSONSerialization.jsonObject(with: try encoder.encode(segment)) as? [String: Any])
    #expect(json["carrier"] as? String == "LX")
    #expect(json["operatingCarrier"] as? String == "LX")
    let codeshares = try #require(json["codeshares"] as? [[String: String]])
    #expect(codeshares.contains { $0["carrier"] == "UA" && $0["flightNumber"]?.hasPrefix("UA") == true })
    #expect(try JSONDecoder().decode(FlightSegment.self, from: try encoder.encode(segment)) == segment)
  }
}
