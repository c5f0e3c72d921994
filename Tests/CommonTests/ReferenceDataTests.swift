import Foundation
import Testing

@testable import Common

@Suite struct ReferenceDataTests {
  let data: ReferenceData

  init() throws {
    data = try ReferenceData.shared()
  }

  @Test func tablesHaveTheExpectedSizes() {
    #expect(data.airports.count == 7884)
    #expect(data.cities.count == 6204)
    #expect(data.countries.count == 252)
    #expect(data.metroAreas.count >= 40)
    #expect(data.numberOfRoutes > 60_000 && data.numberOfRoutes < 67_663)
    #expect(data.aircraftTypes.count == 246)
    #expect(data.airlines.count > 1000)
  }

  @Test func airportLookupAnyCase() throws {
    let sfo = try #require(data.airport(iata: "sfo"))
    #expect(sfo.icao == "KSFO")
    #expect(sfo.countryCode == "US")
    #expect(sfo.timeZoneIdentifier == "America/Los_Angeles")
    #expect(sfo.timeZone.identifier == "America/Los_Angeles")
    #expect(abs(sfo.latitude - 37.62) < 0.01)
    #expect(data.airport(iata: "XXQ") == nil)
  }

  @Test func everyTimeZoneIsKnownToFoundation() {
    let zones = Set(data.airports.map(\.timeZoneIdentifier) + data.cities.map(\.timeZoneIdentifier))
    let unknown = zones.filter { TimeZone(identifier: $0) == nil }
    #expect(unknown.isEmpty)
  }

  @Test func routesOnlyBetweenKnownAirports() {
    #expect(
      data.allRoutes().allSatisfy { data.airport(iata: $0.origin) != nil && data.airport(iata: $0.destination) != nil })
    let fromSFO = data.routes(from: "SFO")
    #expect(fromSFO.allSatisfy { $0.origin == "SFO" })
    #expect(fromSFO.contains { $0.destination == "JFK" && $0.airline == "UA" })
    #expect(data.destinations(from: "sfo").contains("JFK"))
    #expect(data.routes(from: "XXQ").isEmpty)
  }

  @Test func busiestAirportsHaveTheMostRoutes() {
    let busiest = data.busiestAirports(limit: 10)
    #expect(busiest.count == 10)
    #expect(busiest.map(\.iata).contains("ATL"))
    let counts = busiest.map { data.routeCount(at: $0.iata) }
    #expect(counts == counts.sorted(by: >))
    #expect(data.routeCount(at: "ATL") > 500)
    #expect(data.routeCount(at: "XXQ") == 0)
  }

  @Test func airlinesPreferTheActiveOne() throws {
    let united = try #require(data.airline(code: "UA"))
    #expect(united.name == "United Airlines")
    #expect(united.active)
    #expect(data.airline(code: "ual")?.iata == "UA")
    #expect(data.aircraftType(code: "738")?.icao == "B738")
  }

  @Test func countriesCitiesAndMetroAreas() throws {
    #expect(data.country(iso2: "na")?.name == "Namibia")
    #expect(data.country(iso2: "US")?.continent == "NA")
    #expect(data.currencyCode(forCountry: "JP") == "JPY")
    #expect(data.currencyCode(forCountry: "DE") == "EUR")
    #expect(data.currencyCode(forCountry: "ZZ") == nil)
    #expect(data.cities.first?.name == "Shanghai")
    #expect(data.city(geonameID: 2_988_507)?.name == "Paris")
    #expect(data.cities(named: "ZURICH").map(\.name) == ["Zürich"])
    let nyc = try #require(data.metroArea(code: "nyc"))
    #expect(Set(nyc.airportCodes).isSuperset(of: ["JFK", "LGA", "EWR"]))
    #expect(nyc.timeZoneIdentifier == "America/New_York")
    #expect(nyc.coordinate.distanceKm(to: data.airport(iata: "JFK")!.coordinate) < 40)
  }

  @Test func airportsNearACoordinate() throws {
    let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
    let near = data.airports(near: paris, radiusKm: 30, servedOnly: true).map(\.airport.iata)
    #expect(near.contains("CDG") && near.contains("ORY"))
    let distances = data.airports(near: paris, radiusKm: 30).map(\.distanceKm)
    #expect(distances == distances.sorted())
    #expect(data.nearestAirport(to: try Coordinate(latitude: 37.62, longitude: -122.38))?.iata == "SFO")
  }

  @Test func attributionNamesTheThreeSources() {
    let lines = ReferenceData.attribution.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(ReferenceData.attribution.contains("OpenFlights.org (ODbL)"))
    #expect(ReferenceData.attribution.contains("GeoNames (CC BY 4.0)"))
  }

  @Test func injectedDataForTests() throws {
    let small = ReferenceData(
      airports: [
        Airport(
          iata: "AAA", icao: "XAAA", name: "Alpha Field", city: "Alphaville", subdivision: "", countryCode: "FR",
          latitude: 10, longitude: 10, timeZoneIdentifier: "Europe/Paris"),
        Airport(
          iata: "BBB", icao: "XBBB", name: "Beta International", city: "Betatown", subdivision: "", countryCode: "FR",
          latitude: 11, longitude: 11, timeZoneIdentifier: "Europe/Paris"),
      ],
      routes: [
        Route(airline: "XX", origin: "AAA", destination: "BBB", codeshare: false, stops: 0, equipment: ["320"]),
        Route(airline: "XX", origin: "AAA", destination: "ZZZ", codeshare: false, stops: 0, equipment: []),
      ])
    #expect(small.numberOfRoutes == 1)
    #expect(small.routeCount(at: "BBB") == 1)
    #expect(try small.resolvePlace("betatown").code == "BBB")
    #expect(small.airportSuggestions(for: "alp").map(\.iata) == ["AAA"])
  }
}
