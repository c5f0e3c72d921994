import Foundation
import Testing

@testable import Common

@Suite struct AutocompleteTests {
  let data: ReferenceData

  init() throws {
    data = try ReferenceData.shared()
  }

  @Test func exactCodeComesFirst() {
    #expect(data.airportSuggestions(for: "lax").first?.iata == "LAX")
    #expect(data.suggestions(for: "NYC").first == .metroArea(data.metroArea(code: "NYC")!))
  }

  /// #14: no "all airports of a city" choice; "Tokyo" picked NRT; `LON` ranked a Chinese airport
  /// above Luton. A metropolitan area the text names comes first, its airports right after it.
  @Test func flightSuggestions_metroAreaFirst_thenItsAirports() throws {
    func codes(_ query: String, limit: Int = 10) -> [String] {
      data.flightPlaceSuggestions(for: query, limit: limit).map(\.query)
    }
    #expect(codes("LON", limit: 7) == ["LON", "LHR", "LGW", "STN", "LTN", "LCY", "SEN"])
    #expect(codes("Tokyo").prefix(3) == ["TYO", "NRT", "HND"])
    #expect(codes("new york").prefix(4) == ["NYC", "JFK", "EWR", "LGA"])
    #expect(codes("nyc").first == "NYC")
    #expect(codes("lax").first == "LAX")  // an airport's code: the airport
    #expect(codes("Zurich").first == "ZRH")  // one airport: no area
    // An area whose code is an airport's is never offered: its code gives the airport.
    #expect(
      !data.flightPlaceSuggestions(for: "Istanbul", limit: 20).contains {
        if case .metroArea = $0 { true } else { false }
      })
    #expect(codes("IST").first == "IST")
    // Every suggestion's code resolves to what it says.
    for query in ["LON", "Tokyo", "new york", "par", "chi", "Istanbul", "was"] {
      for suggestion in data.flightPlaceSuggestions(for: query, limit: 10) {
        let place = try data.resolvePlace(suggestion.query)
        switch (suggestion, place) {
        case (.metroArea(let area), .metroArea(let resolved, _)): #expect(area.code == resolved.code)
        case (.airport(let airport), .airport(let resolved)): #expect(airport.iata == resolved.iata)
        default: Issue.record("\(suggestion.query) resolves to \(place)")
        }
      }
    }
    #expect(data.flightPlaceSuggestions(for: "", limit: 5).isEmpty)
  }

  @Test func namesAndCitiesIgnoreDiacritics() {
    let zur = data.suggestions(for: "zur", limit: 5)
    #expect(zur.contains { $0.query == "ZRH" })
    #expect(zur.contains { $0.query == "Zürich" })
    #expect(data.suggestions(for: "São P", kinds: .cities).first?.query == "São Paulo")
    #expect(data.suggestions(for: "sao p", kinds: .cities).first?.query == "São Paulo")
    #expect(data.airportSuggestions(for: "heath").first?.iata == "LHR")
  }

  @Test func rankedByProminenceWithinLimitAndKinds() {
    let london = data.airportSuggestions(for: "lond", limit: 3)
    #expect(london.count == 3)
    #expect(london.first?.iata == "LHR")
    let oneLetter = data.suggestions(for: "s", limit: 7, kinds: [.airports, .cities])
    #expect(oneLetter.count == 7)
    #expect(oneLetter.allSatisfy { if case .metroArea = $0 { false } else { true } })
    #expect(Set(oneLetter).count == 7)
    #expect(data.suggestions(for: "", limit: 5).isEmpty)
    #expect(data.suggestions(for: "  ", limit: 5).isEmpty)
    #expect(data.suggestions(for: "qqqqqq").isEmpty)
    #expect(data.suggestions(for: "par", limit: 0).isEmpty)
  }

  @Test func labels() throws {
    let sfo = try #require(data.airportSuggestions(for: "SFO").first)
    #expect(PlaceSuggestion.airport(sfo).label == "SFO  San Francisco International Airport, San Francisco, US")
  }
}
