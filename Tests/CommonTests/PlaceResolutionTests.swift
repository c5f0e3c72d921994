import Foundation
import Testing

@testable import Common

@Suite struct PlaceResolutionTests {
  let data: ReferenceData

  init() throws {
    data = try ReferenceData.shared()
  }

  private func failure(_ text: String) -> ServiceError? {
    do {
      _ = try data.resolvePlace(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func airportCodeAnyCase() throws {
    let place = try data.resolvePlace(" sfo ")
    guard case .airport(let airport) = place else {
      Issue.record("not an airport: \(place)")
      return
    }
    #expect(airport.iata == "SFO")
    #expect(place.timeZoneIdentifier == "America/Los_Angeles")
    #expect(place.code == "SFO")
  }

  @Test func metroCodes() throws {
    let nyc = try data.resolvePlace("NYC")
    guard case .metroArea(let area, let airports) = nyc else {
      Issue.record("not a metro area: \(nyc)")
      return
    }
    #expect(area.code == "NYC")
    #expect(Set(airports.map(\.iata)).isSuperset(of: ["JFK", "LGA", "EWR"]))
    #expect(nyc.timeZoneIdentifier == "America/New_York")
    for code in ["LON", "PAR", "TYO", "CHI", "WAS"] {
      #expect(try data.resolvePlace(code.lowercased()).airports.count >= 2, "\(code)")
    }
    #expect(try data.resolvePlace("LON").airports.map(\.iata).contains("LHR"))
  }

  @Test func cityNamesIgnoreCaseAndDiacritics() throws {
    let zurich = try data.resolvePlace("Zurich")
    guard case .city(let city, let airports) = zurich else {
      Issue.record("not a city: \(zurich)")
      return
    }
    #expect(city.name == "Zürich")
    #expect(airports.first?.iata == "ZRH")
    #expect(zurich.timeZoneIdentifier == "Europe/Zurich")
    #expect(try data.resolvePlace("sao paulo").countryCode == "BR")
    #expect(try data.resolvePlace("São Paulo").airports.map(\.iata).contains("GRU"))
    #expect(try data.resolvePlace("DÜSSELDORF").airports.map(\.iata).contains("DUS"))
    #expect(try data.resolvePlace("dusseldorf").countryCode == "DE")
  }

  @Test func parisIsTheCityWithItsAirports() throws {
    let paris = try data.resolvePlace("Paris")
    guard case .city(let city, let airports) = paris else {
      Issue.record("not a city: \(paris)")
      return
    }
    #expect(city.countryCode == "FR")
    #expect(Set(airports.map(\.iata)).isSuperset(of: ["CDG", "ORY"]))
    #expect(airports.first?.iata == "CDG")
    let london = try data.resolvePlace("london")
    #expect(london.countryCode == "GB")
    #expect(Set(london.airports.map(\.iata)).isSuperset(of: ["LHR", "LGW", "STN"]))
  }

  @Test func namesWithoutACityFallBackToMetroAreasThenAirports() throws {
    #expect(try data.resolvePlace("new york").code == "NYC")
    #expect(try data.resolvePlace("WAS").airports.map(\.iata).sorted() == ["BWI", "DCA", "IAD"])
    #expect(Set(try data.resolvePlace("Washington").airports.map(\.iata)).isSuperset(of: ["BWI", "DCA", "IAD"]))
    #expect(try data.resolvePlace("Aspen").code == "ASE")
  }

  @Test func ambiguousNamesListTheCandidates() throws {
    let error = try #require(failure("Springfield"))
    #expect(error.code == "ambiguous_place")
    #expect(error.kind == .invalidInput)
    #expect(error.message.contains("Springfield, US-MO"))
    #expect(error.message.contains("Springfield, US-MA"))
    #expect(error.details["candidates"]?.contains("US-IL") == true)
    #expect(error.cliError.exitStatus == 2)
    let chosen = try data.resolvePlace("Springfield, US-MA")
    guard case .city(let city, _) = chosen else {
      Issue.record("not a city")
      return
    }
    #expect(city.admin1 == "MA")
    #expect(try data.resolvePlace("London, CA").countryCode == "CA")
  }

  /// #14: "Springfield" suggested "Springfield, US", ambiguous again, which suggested
  /// "Springfield, US, US". Every suggestion resolves, each to its own candidate.
  @Test(arguments: ["Springfield", "Springfield, US", "San Jose", "Columbus", "Birmingham"])
  func ambiguousNames_suggestTextsThatResolve(_ text: String) throws {
    let error = try #require(failure(text))
    #expect(error.code == "ambiguous_place")
    let suggestions = try #require(error.details["suggestions"]).components(separatedBy: "; ")
    let candidates = try #require(error.details["candidates"]).components(separatedBy: "; ")
    #expect(suggestions.count == candidates.count)
    var resolved: Set<String> = []
    for suggestion in suggestions {
      #expect(error.message.contains("\"\(suggestion)\""))
      let place = try data.resolvePlace(suggestion)  // never ambiguous
      resolved.insert("\(place)")
    }
    #expect(resolved.count == suggestions.count)  // each its own place
    #expect(!error.message.contains(", US, US"))
    #expect(!error.message.contains("--"))
  }

  @Test func springfield_suggestsTheStates() throws {
    let error = try #require(failure("Springfield"))
    #expect(error.message.hasSuffix("type one of \"Springfield, MO\", \"Springfield, MA\" or \"Springfield, IL\""))
    let birmingham = try #require(failure("Birmingham"))
    #expect(birmingham.message.hasSuffix("type one of \"Birmingham, GB\" or \"Birmingham, US\""))
  }

  @Test func coordinates() throws {
    let place = try data.resolvePlace("48.85,2.35")
    guard case .coordinate(let coordinate, let zone) = place else {
      Issue.record("not a coordinate")
      return
    }
    #expect(coordinate.latitude == 48.85 && coordinate.longitude == 2.35)
    #expect(zone == "Europe/Paris")
    #expect(place.airports.isEmpty)
    #expect(try data.resolvePlace("-33.87, 151.21").timeZoneIdentifier == "Australia/Sydney")
  }

  @Test func coordinatesOutOfRangeAreTheirOwnError() throws {
    let latitude = try #require(failure("91,0"))
    #expect(latitude.code == "invalid_coordinate")
    #expect(latitude.message.contains("latitude 91 is out of range"))
    let longitude = try #require(failure("0,181"))
    #expect(longitude.code == "invalid_coordinate")
    #expect(longitude.message.contains("longitude 181"))
    #expect(failure("48.8,abc")?.code == "invalid_coordinate")
  }

  @Test func unknownPlaces() throws {
    let code = try #require(failure("XXQ"))
    #expect(code.code == "unknown_place")
    #expect(code.message == "unknown airport \"XXQ\": expected an IATA code like SFO or a city name")
    let name = try #require(failure("Atlantis"))
    #expect(name.code == "unknown_place")
    #expect(name.message.contains("unknown place \"Atlantis\""))
    #expect(failure("   ")?.code == "unknown_place")
  }
}
