import Common
import Foundation
import Testing

@testable import Backend

/// Pins what the flight searches answer over the world schedule: a digest of every offer (its
/// id's text without the signature: flights, dates, cabin, adults, currency and total; its seats)
/// of 250 seeded searches — nonstop, one and two stops, airports and metropolitan codes, one-way
/// and round trips, several currencies, cabins and sort orders. The searches' speed work (#13)
/// changes how itineraries are found, never which: a change of this value is a change of the
/// offers.
@Suite struct FlightsSearchDigestTests {
  @Test func worldSearches_answerTheSameOffers() throws {
    let engine = FlightsFixtures.engine()
    let data = try ReferenceData.shared()
    var places = data.busiestAirports(limit: 120).map(\.iata)
    places += ["NYC", "LON", "PAR", "TYO", "CHI", "MIL"]
    var generator = SeededGenerator(seed: 0x5EED_2026)
    func pick(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ text: String) {
      for byte in text.utf8 {
        digest ^= UInt64(byte)
        digest = digest &* 0x0000_0100_0000_01B3
      }
      digest ^= 0xff
      digest = digest &* 0x0000_0100_0000_01B3
    }
    var offers = 0
    var searches = 0
    while searches < 250 {
      let from = places[pick(places.count)]
      let to = places[pick(places.count)]
      guard from != to else { continue }
      let departure = FlightsFixtures.date(1 + pick(200))
      let request = FlightSearchRequest(
        origin: from, destination: to, departureDate: departure,
        returnDate: pick(4) == 0 ? departure.adding(days: 1 + pick(14)) : nil, adults: 1 + pick(4),
        cabin: pick(5) == 0 ? Cabin.allCases[pick(4)] : .economy, maxStops: pick(10) == 0 ? 2 : pick(2),
        sort: FlightSortOrder.allCases[pick(FlightSortOrder.allCases.count)], limit: 1 + pick(60),
        currency: ["USD", "EUR", "JPY", "GBP"][pick(4)])
      let found: [FlightOffer]
      do {
        found = try engine.search(request)
      } catch {
        mix("error \(from) \(to): \(ErrorText.reason(of: error))")
        searches += 1
        continue
      }
      mix("\(from)-\(to) \(found.count)")
      for offer in found {
        mix(offer.id.payload)
        mix(
          "\(offer.seatsAvailable) \(offer.perPassenger.fare.minorUnits) \(offer.perPassenger.taxesAndFees.minorUnits)")
      }
      offers += found.count
      searches += 1
    }
    #expect(offers > 1_000)
    print("FlightsSearchDigestTests: \(offers) offers, digest \(digest)")
    // The closed airports' routes flown from their successors (airport_changes.csv) changed the
    // offers of searches touching Berlin and Beijing (was 8,642,231,010,783,504,138).
    #expect(digest == 16_600_698_664_712_121_455)
  }
}
