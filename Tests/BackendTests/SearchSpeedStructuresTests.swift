import Common
import Foundation
import Testing

@testable import Backend

/// The structures that keep the flight schedule's build and the searches fast (issue #13's
/// benchmark check) answer exactly what the dictionaries, string sorts and `Decimal` arithmetic
/// they replaced answered.
@Suite struct SearchSpeedStructuresTests {
  @Test func indexTable_answersAsADictionary_acrossGrowth() {
    var table = IndexTable(capacity: 4)
    var dictionary: [Int64: Int32] = [:]
    var generator = SystemRandomNumberGenerator()
    for step in 0..<20_000 {
      // Keys of every size, many repeated (counting), some colliding in the low bits.
      let key =
        step % 3 == 0
        ? Int64.random(in: 0...Int64.max, using: &generator) : Int64(step % 977) << 32 | Int64(step % 13)
      if step % 2 == 0 {
        table.add(1, to: key)
        dictionary[key, default: 0] += 1
      } else {
        table[key] = Int32(step)
        dictionary[key] = Int32(step)
      }
    }
    #expect(table.count == dictionary.count)
    for (key, value) in dictionary { #expect(table[key] == value) }
    let probes: [Int64] = [0, 1, 976 << 32 | 12, .max]
    for key in probes where dictionary[key] == nil { #expect(table[key] == nil) }
  }

  @Test func sortedByCode_isTheStringOrder_equalCodesByIndex() {
    let codes = ["ZRH", "AAA", "0A9", "JFK", "A1B", "JFK", "9ZZ", "ZZZ", "000", "AA0", "JFK"]
    let expected = codes.indices.sorted { (codes[$0], $0) < (codes[$1], $1) }
    #expect(FlightNetwork.sortedByCode(Array(codes.indices), code: { codes[$0] }) == expected)
    // Codes that are not three characters A–Z, 0–9 are compared as strings.
    let mixed = ["LHR", "LH", "lhr", "LHRX", "", "Ä12", "LHR"]
    let mixedExpected = mixed.indices.sorted { (mixed[$0], $0) < (mixed[$1], $1) }
    #expect(FlightNetwork.sortedByCode(Array(mixed.indices), code: { mixed[$0] }) == mixedExpected)
  }

  @Test func marketingDesignators_outsideACarriersNumbers_resolveToNothing() throws {
    let world = FlightsFixtures.world
    var checked = 0
    for (carrier, range) in world.marketedRanges {
      #expect(range.count > 0)
      let first = Flight(carrier: carrier, number: Int(range.firstNumber))
      let last = Flight(carrier: carrier, number: Int(range.firstNumber + range.count - 1))
      #expect(world.operatingFlight(of: first) != nil)
      #expect(world.operatingFlight(of: last) != nil)
      let after = Flight(carrier: carrier, number: Int(range.firstNumber + range.count))
      if world.pattern(of: after) == nil { #expect(world.operatingFlight(of: after) == nil) }
      if range.firstNumber == 100 {
        #expect(world.operatingFlight(of: Flight(carrier: carrier, number: 99)) == nil)
      }
      checked += 1
    }
    #expect(checked > 50)
    #expect(world.operatingFlight(of: Flight(carrier: "QQ", number: 100)) == nil)
  }

  @Test func flightResolver_answersAsResolvePlace_forEveryAirportCodeAndOtherTexts() throws {
    let data = try ReferenceData.shared()
    let resolver = FlightsWiring.resolver(data)
    var texts = FlightsFixtures.world.airportCodes
    texts += ["NYC", "LON", "TYO", "jfk", " JFK", "JFK ", "Paris", "QQQ", "ZZZ", "48.85,2.35"]
    var compared = 0
    for text in texts {
      let expected: [String]?
      do {
        let place = try data.resolvePlace(text)
        if case .coordinate = place { continue }  // the resolver's own radius search; not the fast path
        expected = place.airports.map(\.iata)
      } catch {
        expected = nil
      }
      #expect((try? resolver(text)) == expected, "\(text)")
      compared += 1
    }
    #expect(compared > 2500)
  }

  @Test func carRates_cached_equalTheDecimalArithmetic_everyDeskAndCode() throws {
    let inventory = try CarInventory(sites: CarSearchTests.sites)
    var compared = 0
    for pass in 0..<2 {  // the second pass reads the cache
      for desk in inventory.desks {
        for code in desk.fleet.keys {
          for digits in [0, 2, 3] {
            let daily = inventory.dailyRate(code, at: desk)
            let weekly = inventory.weeklyRate(code, at: desk)
            let expectedDaily = OfferPricing.exactMinorUnits(daily, digits: digits)
            let expectedWeekly = OfferPricing.exactMinorUnits(weekly, digits: digits)
            let rates = inventory.rateMinorUnits(code, at: desk, digits: digits)
            if let expectedDaily, let expectedWeekly {
              #expect(rates?.daily == expectedDaily && rates?.weekly == expectedWeekly, "\(desk.location.id) \(code)")
            } else {
              #expect(rates == nil, "\(desk.location.id) \(code) \(digits)")
            }
            if pass == 0 { compared += 1 }
          }
        }
      }
    }
    #expect(compared > 100)
    // A desk whose factor changed is priced with its own factor, not a cached neighbour's.
    var desk = try #require(inventory.desks.first)
    let code = try #require(desk.fleet.keys.sorted().first)
    let before = try #require(inventory.rateMinorUnits(code, at: desk, digits: 2))
    desk.rateFactor *= 2
    let after = try #require(inventory.rateMinorUnits(code, at: desk, digits: 2))
    #expect(after.daily == OfferPricing.exactMinorUnits(inventory.dailyRate(code, at: desk), digits: 2))
    #expect(after.daily != before.daily)
  }
}
