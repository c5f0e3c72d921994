import Common
import Foundation
import Testing

@testable import Backend

/// Where the desks are and how big their fleets are, on the shipped data (Shared/cars/README.md).
@Suite struct CarDesksTests {
  static let wired: (inventory: CarInventory, data: ReferenceData) = {
    let (inventory, data) = try! CarRentalWiring.inventory()
    return (inventory, data)
  }()

  var inventory: CarInventory { Self.wired.inventory }
  var data: ReferenceData { Self.wired.data }

  /// A date-time `days` ahead at `hour`:00, in `zone`.
  func local(inDays days: Int, hour: Int, zone: String) throws -> LocalDateTime {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: zone))
    let day = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(Double(days) * 86_400))
    return try LocalDateTime(parsing: String(format: "%04d-%02d-%02dT%02d:00", day.year!, day.month!, day.day!, hour))
  }

  func engine() -> CarRentalEngine {
    CarRentalEngine(
      inventory: inventory, promotions: try! CarPromotions(), resolvePlace: CarRentalWiring.resolver(data))
  }

  @Test func oneWay_losAngelesToSanFrancisco_isOffered() throws {
    let query = CarSearchQuery(
      pickupPlace: "LAX", dropoffPlace: "SFO", pickup: try local(inDays: 30, hour: 10, zone: "America/Los_Angeles"),
      dropoff: try local(inDays: 33, hour: 10, zone: "America/Los_Angeles"), limit: 200)
    let result = try engine().search(query)
    #expect(!result.offers.isEmpty, "\(result.notices)")
    #expect(result.offers.allSatisfy { $0.pickupLocation.id == "LAX" && $0.dropoffLocation.id == "SFO" })
    #expect(result.offers.allSatisfy { offer in offer.lines.contains { $0.kind == .oneWayFee } })
    // Every company that allows one-way rentals and has desks at both airports offers it.
    let oneWayCompanies = Set(
      inventory.companies.filter(\.oneWay.allowed).map(\.id).filter { company in
        ["LAX", "SFO"].allSatisfy { code in inventory.desks(at: code).contains { $0.company.id == company } }
      })
    #expect(oneWayCompanies.count >= 3)
    #expect(Set(result.offers.map(\.company.id)) == oneWayCompanies)
  }

  @Test func desks_atEveryAirportWithRegularService_severalHundred() throws {
    let sites = CarRentalWiring.sites(data)
    #expect((300...1000).contains(sites.count), "\(sites.count) airports")
    for site in sites {
      #expect(site.routes >= CarRentalWiring.siteMinimumRoutes)
      #expect(!inventory.desks(at: site.iata).isEmpty, "no desk at \(site.iata)")
    }
    // Below the threshold: none.
    let quiet = try #require(
      data.busiestAirports(limit: data.airports.count).first {
        (1..<CarRentalWiring.siteMinimumRoutes).contains(data.routeCount(at: $0.iata))
      })
    #expect(inventory.desks(at: quiet.iata).isEmpty)
  }

  @Test func desks_inSmallCitiesWithAnAirport_andInEveryCityOfHalfAMillion() throws {
    // The least busy site serves a small town, far from the old 40 busiest airports.
    let smallest = try #require(CarRentalWiring.sites(data).last)
    let desks = inventory.desks(at: smallest.iata)
    #expect(!desks.isEmpty)
    #expect(data.busiestAirports(limit: 40).allSatisfy { $0.iata != smallest.iata })
    // Palm Springs (about 45,000 people) has airport desks.
    #expect(!inventory.desks(at: "PSP").isEmpty)
    #expect(try engine().companies(at: "Palm Springs").count >= 1)
    // Every city of at least 500,000 people that has an airport nearby has a city-centre desk,
    // found by its name.
    let cities = CarRentalWiring.cities(data)
    #expect(cities.count > 1000, "\(cities.count) cities")
    #expect(Set(cities.map(\.id)).count == cities.count)
    for city in cities {
      #expect(inventory.desks(at: city.id).contains { $0.company.id == "zephyr" }, "\(city.name)")
    }
    let lyon = try engine().companies(at: "Lyon")
    #expect(lyon.contains { $0.desks.contains { $0.location.kind == .cityCentre && $0.location.city == "Lyon" } })
  }

  @Test func fleets_scaleWithTheAirportsTraffic() throws {
    func cars(_ code: String, company: String = "zephyr") throws -> Int {
      let desk = try #require(inventory.desks(at: code).first { $0.company.id == company })
      return desk.fleet.values.reduce(0, +)
    }
    let smallest = try #require(CarRentalWiring.sites(data).last)
    let busiest = try cars("ATL")
    #expect(try cars("LAX") > cars("SFO"))
    #expect(try cars("SFO") > cars("PSP"))
    #expect(try cars(smallest.iata) >= 1)
    #expect(busiest >= 10 * (try cars(smallest.iata)))
    // Companies with a higher minimum are only at busier airports.
    #expect(inventory.desks(at: "PSP").allSatisfy { ["zephyr", "roadrunner"].contains($0.company.id) })
    #expect(inventory.desks(at: "LAX").count == inventory.companies.count)
  }

  @Test func scaledFleet_roundsHalfUp_capsAndKeepsOneCar() throws {
    let reference = [(try ACRISSCode("CDAR"), 8), (try ACRISSCode("ECMR"), 5), (try ACRISSCode("LDAR"), 1)]
      .map { (code: $0.0, count: $0.1) }
    func fleet(_ size: Int) -> [String: Int] {
      Dictionary(
        uniqueKeysWithValues: CarInventory.scaledFleet(reference, by: size, per: 250, atMost: 4).map {
          ($0.key.rawValue, $0.value)
        })
    }
    #expect(fleet(250) == ["CDAR": 8, "ECMR": 5, "LDAR": 1])
    #expect(fleet(1000) == ["CDAR": 32, "ECMR": 20, "LDAR": 4])
    #expect(fleet(5000) == ["CDAR": 32, "ECMR": 20, "LDAR": 4])  // at most 4 times
    #expect(fleet(40) == ["CDAR": 1, "ECMR": 1])  // 1.28 → 1, 0.8 → 1, 0.16 → none
    #expect(fleet(10) == ["CDAR": 1])  // nothing rounds to a car: the most stocked code, once
  }
}
