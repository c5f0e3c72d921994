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
