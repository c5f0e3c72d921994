import Common
import Foundation
import Testing

@testable import Booking

/// Why a flight search found nothing: each condition named only when relaxing it alone finds
/// flights (asked of a scripted search), worded for the command line and for the screen.
@Suite struct EmptyFlightSearchTests {
  let day = LocalDate(year: 2026, month: 12, day: 20)!

  /// A search that finds one offer exactly when `finds` says so, recording what was asked.
  final class Probe: @unchecked Sendable {
    let finds: (FlightSearchRequest) -> Bool
    var asked: [FlightSearchRequest] = []
    init(_ finds: @escaping (FlightSearchRequest) -> Bool) { self.finds = finds }
    func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
      asked.append(request)
      guard finds(request) else { return [] }
      return [ScriptedFlights.offer(request.departureDate, [("UA", 1, "SFO", "JFK", 330)], layover: 0, price: 300)]
    }
  }

  @Test func theCabinAskedIsNamed_withTheClassesSoldAndTheNearestOne() throws {
    let probe = Probe { $0.cabin != .first }
    let request = FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: day, cabin: .first, maxStops: 2)
    let empty = try EmptyFlightSearch(request: request, search: probe.search)
    #expect(empty.conditions == [.cabin(others: [.economy, .premium, .business])])
    #expect(
      empty.commandLineText
        == "No flights from SFO to JFK on 2026-12-20 in First with at most 2 stops: First is not sold on this route "
        + "that day; Economy, Premium economy and Business are (try --cabin business).")
    #expect(!empty.screenText.contains("--"))
    #expect(empty.screenText.hasSuffix("(choose another class)."))
    // Each probe asks for one offer only, and none asks for the stops already given.
    #expect(probe.asked.allSatisfy { $0.limit == 1 })
    #expect(probe.asked.count == 3)
  }

  @Test func moreStops_otherCarriers_fewerAdults_andTheReturnAreEachNamedWhenTheyAloneFindFlights() throws {
    let request = FlightSearchRequest(
      origin: "SFO", destination: "JFK", departureDate: day, returnDate: day.adding(days: 7), adults: 4, maxStops: 0,
      carrier: "QF")
    let probe = Probe { $0.maxStops == 2 || $0.carrier == nil || $0.adults == 1 || $0.returnDate == nil }
    let empty = try EmptyFlightSearch(request: request, search: probe.search)
    #expect(empty.conditions == [.stops, .carrier, .adults, .returnDate])
    let text = empty.commandLineText
    #expect(
      text.hasPrefix("No flights from SFO to JFK on 2026-12-20 (back 2026-12-27) flown by QF nonstop for 4 adults: "))
    for advice in ["--max-stops 2", "without --carrier", "fewer --adults", "another --return"] {
      #expect(text.contains(advice))
    }
    #expect(!empty.screenText.contains("--"))
  }

  /// When no single condition is to blame, the message says the route has no flights then, and
  /// never advises the value already given (`--max-stops 2` to a search with 2).
  @Test func nothingRelaxedFindsFlights_theRouteHasNoneThatDay() throws {
    let probe = Probe { _ in false }
    let widest = FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: day, maxStops: 2)
    let empty = try EmptyFlightSearch(request: widest, search: probe.search)
    #expect(empty.conditions.isEmpty)
    #expect(
      empty.commandLineText
        == "No flights from SFO to JFK on 2026-12-20 with at most 2 stops: no flights fly this route that day "
        + "(try another --date or nearby airports).")
    #expect(probe.asked.count == 3)  // the three other cabins; stops are already the most
    let narrow = FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: day, cabin: .first, maxStops: 0)
    let none = try EmptyFlightSearch(request: narrow, search: Probe { _ in false }.search)
    #expect(none.screenText.contains("in any class with up to 2 stops; try another date or nearby airports."))
  }

  @Test func aFailingServiceFailsTheExplanation() {
    let request = FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: day)
    #expect(throws: ServiceError.self) {
      try EmptyFlightSearch(request: request) { _ in throw ServiceError(.unavailable, code: "failed", message: "down") }
    }
  }
}
