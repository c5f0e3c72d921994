import Common
import Foundation
import Synchronization
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

  @Test func codeTableSlot_isTheBase37Number_ofOneToThreeCapitalsOrDigits() {
    func expected(_ code: String) -> Int? {
      let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
      guard (1...3).contains(code.count) else { return nil }
      var slot = 0
      for character in code {
        guard let digit = alphabet.firstIndex(of: character) else { return nil }
        slot = slot * 37 + digit + 1
      }
      return slot
    }
    let codes = [
      "JFK", "A", "9Z", "ZZZ", "000", "", "ABCD", "jfk", "Ä1", "É", "LH ", " LH", "3U", "A-B",
      String(repeating: "Z", count: 40), "ZRH\u{301}",
    ]
    for code in codes { #expect(CodeTable.slot(code) == expected(code), "\(code)") }
    var table = CodeTable()
    for (index, code) in codes.enumerated() { table[code] = Int32(index) }
    for (index, code) in codes.enumerated() { #expect(table[code] == Int32(index), "\(code)") }
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

  @Test func flightOfferPayload_isTheBytesOfFlightOfferIDPayload_overThousandsOfIds() throws {
    var generator = SeededGenerator(seed: 13)
    let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let currencies = ["USD", "EUR", "JPY", "KWD", "CHF", "BHD", "ISK"]
    for _ in 0..<5_000 {
      let cabin = Cabin.allCases[Int(generator.next() % 4)]
      let adults = 1 + Int(generator.next() % 9)
      var directions: [[DatedFlight]] = []
      for _ in 0..<(1 + Int(generator.next() % 2)) {
        var direction: [DatedFlight] = []
        for _ in 0..<(1 + Int(generator.next() % 3)) {
          let carrier = String([characters[Int(generator.next() % 36)], characters[Int(generator.next() % 36)]])
          // Dates from year 1 to 9999 (short years are zero-padded to four digits).
          let day = -719_162 + Int(generator.next() % 3_652_059)
          direction.append(
            DatedFlight(
              flight: Flight(carrier: carrier, number: 1 + Int(generator.next() % 9999)),
              date: LocalDate(daysSinceEpoch: day)))
        }
        directions.append(direction)
      }
      let currency = currencies[Int(generator.next() % UInt64(currencies.count))]
      let total =
        generator.next() % 4 == 0 ? Int64(generator.next() % 1000) : Int64(generator.next() % 1_000_000_000_000)
      let id = FlightOfferID(
        cabin: cabin, adults: adults, directions: directions,
        quotedTotal: try Money(minorUnits: total, currency: currency))
      var payload = FlightOfferPayload(cabin: cabin, adults: adults)
      for direction in directions {
        payload.beginDirection()
        for dated in direction {
          payload.appendFlight(date: dated.date, carrier: dated.flight.carrier, number: dated.flight.number)
        }
      }
      let bytes = payload.finish(currency: currency, totalMinorUnits: total)
      #expect(bytes == Array(id.payload.utf8), "\(id.payload)")
    }
  }

  @Test func searchedFlightOffers_areSignedOverTheirPayload_andBookAsQuoted() throws {
    let engine = FlightsFixtures.engine()
    var checked = 0
    for (from, to, currency, adults, returning) in [
      ("FRA", "JFK", "USD", 1, false), ("ZRH", "NRT", "JPY", 2, true), ("LHR", "KEF", "ISK", 3, false),
      ("SYD", "LAX", "EUR", 9, true),
    ] {
      let offers = try engine.search(
        FlightSearchRequest(
          origin: from, destination: to, departureDate: FlightsFixtures.date(20),
          returnDate: returning ? FlightsFixtures.date(27) : nil, adults: adults, maxStops: 1, currency: currency))
      #expect(!offers.isEmpty, "\(from)-\(to)")
      for offer in offers {
        #expect(offer.id.signature == (try OfferSigner.processLocal.signature(of: offer.id.payload)))
        #expect(offer.id.quotedTotal == offer.price)
        checked += 1
      }
      if let first = offers.first { #expect(try engine.offer(first.id).price == first.price) }
    }
    #expect(checked > 20)
  }

  @Test func offerSigner_reusedContexts_giveTheRFC4231Tags_inAnyOrderAndFromManyThreads() throws {
    // RFC 4231 test cases 6 and 7 (a 131-byte key of 0xaa), truncated to 128 bits.
    let signer = try OfferSigner(key: Data(repeating: 0xaa, count: 131))
    let six = "Test Using Larger Than Block-Size Key - Hash Key First"
    let seven =
      "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
      + "hashed before being used by the HMAC algorithm."
    let expected = [six: "60e431591ee0b67f0d8a26aacbf5b77f", seven: "9b09ffa71b942fcb27635fbcd5b0e944"]
    for round in 0..<20 {
      let text = round % 3 == 0 ? seven : six
      #expect(try signer.signature(of: text) == expected[text])
      #expect(try signer.signature(ofUTF8: Array(text.utf8)) == expected[text])
    }
    let wrong = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 64) { index in
      let text = index % 2 == 0 ? six : seven
      if (try? signer.signature(of: text)) != expected[text] { wrong.withLock { $0 += 1 } }
    }
    #expect(wrong.withLock { $0 } == 0)
  }

  @Test func offerPricing_currencyCodes_anyCaseAndSpacing_areTheSameCurrency() throws {
    for code in ["USD", "usd", " USD ", "Usd", "\tusd"] {
      let pricing = try OfferPricing(currency: code, rates: { try ExchangeRates.reference() })
      #expect(pricing.currency == "USD" && pricing.isIdentity, "\(code)")
    }
    let yen = try OfferPricing(currency: " jpy", rates: { try ExchangeRates.reference() })
    #expect(yen.currency == "JPY" && yen.digits == 0)
    #expect(OfferPricing.canonical("EUR") == "EUR")
    #expect(OfferPricing.canonical("eur ") == "EUR")
    #expect(throws: ServiceError.self) { try OfferPricing(currency: "XYZ", rates: { try ExchangeRates.reference() }) }
  }

  @Test func airportLists_carryTheirPatterns_inListOrder() {
    let world = FlightsFixtures.world
    func same(_ a: FlightNetwork.Pattern, _ b: FlightNetwork.Pattern) -> Bool {
      (a.origin, a.destination, a.carrier, a.number, a.departureMinute, a.blockMinutes)
        == (b.origin, b.destination, b.carrier, b.number, b.departureMinute, b.blockMinutes)
        && (a.distanceKm, a.aircraft, a.days, a.isDomestic, a.fareLevel)
          == (b.distanceKm, b.aircraft, b.days, b.isDomestic, b.fareLevel)
    }
    #expect(world.departurePatterns.count == world.patterns.count)
    #expect(world.arrivalPatterns.count == world.patterns.count)
    let departuresWrong = world.departureList.indices.filter {
      !same(world.departurePatterns[$0], world.patterns[Int(world.departureList[$0])])
    }
    let arrivalsWrong = world.arrivalList.indices.filter {
      !same(world.arrivalPatterns[$0], world.patterns[Int(world.arrivalList[$0])])
    }
    #expect(departuresWrong.isEmpty && arrivalsWrong.isEmpty)
  }
}
