import Common
import Foundation
import Testing

@testable import Backend

/// Pins the generated world schedule: a digest of every pattern (airports, carrier, number, local
/// departure, block time, distance, aircraft, weekdays, price level), the UTC departures on a winter
/// and a summer day, the aircraft models, carriers, the departure/arrival indexes and the codeshare
/// designators. A change of this value is a change of the schedule.
@Suite struct FlightsNetworkDigestTests {
  @Test func worldSchedule_isUnchanged() {
    let network = FlightsFixtures.world
    var digest = Digest()
    digest.add(network.airports.count)
    for airport in network.airports {
      digest.add(airport.iata)
      digest.add(airport.country)
      digest.add(network.zones[Int(airport.zone)].identifier)
    }
    for (index, carrier) in network.carriers.enumerated() {
      digest.add(carrier)
      digest.add(network.carrierNames[index])
    }
    for model in network.aircraft {
      digest.add(model.code)
      digest.add(model.name ?? "-")
      digest.add(model.kind.rawValue)
      for seats in model.seats { digest.add(Int(seats)) }
    }
    let winter = Int32(LocalDate(daysSinceEpoch: 20_470).daysSinceEpoch)
    let summer = Int32(LocalDate(daysSinceEpoch: 20_650).daysSinceEpoch)
    digest.add(network.patterns.count)
    for pattern in network.patterns {
      for value in [
        pattern.origin, pattern.destination, pattern.carrier, pattern.number, pattern.departureMinute,
        pattern.blockMinutes, pattern.distanceKm, pattern.aircraft, Int32(pattern.days), pattern.isDomestic ? 1 : 0,
        pattern.fareLevel, network.departureUTC(pattern, day: winter), network.departureUTC(pattern, day: summer),
      ] {
        digest.add(Int(value))
      }
    }
    for list in [network.departureStart, network.departureList, network.arrivalStart, network.arrivalList] {
      for value in list { digest.add(Int(value)) }
    }
    for value in network.codeshareStart { digest.add(Int(value)) }
    for flight in network.patternCodeshares { digest.add(flight.code) }
    // Issue #13 changed the schedule on purpose: defunct airlines' routes flown by their successors
    // (US Airways by American, …) or dropped (Air Berlin, …), names of the airlines flying the codes,
    // codeshares as marketing designators of operated flights (was 74,998 patterns,
    // 15,515,002,533,004,064,121).
    #expect(network.patterns.count == 68_208)
    #expect(network.patternCodeshares.count == 11_266)
    // And the closed airports' routes flown from their successors (airport_changes.csv: TXL → BER,
    // NAY → PKX, ULN → UBN; was 573,091,097,621,999,661 with the same pattern count).
    #expect(digest.value == 837_169_118_889_179_673)
  }

  @Test func everyFlightNumber_findsItsPattern() {
    let network = FlightsFixtures.world
    let lost = (0..<Int32(network.patternCount)).filter { network.pattern(of: network.flight(of: $0)) != $0 }
    #expect(lost.isEmpty)
    let carrier = network.carriers[0]
    for number in [0, 99, 10_000, Int.max, Int.min] {
      #expect(network.pattern(of: Flight(carrier: carrier, number: number)) == nil)
    }
    #expect(network.pattern(of: Flight(carrier: "??", number: 100)) == nil)
  }

  private struct Digest {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
      for byte in text.utf8 { mix(byte) }
      mix(0)
    }

    mutating func add(_ number: Int) {
      var bits = UInt64(bitPattern: Int64(number))
      for _ in 0..<8 {
        mix(UInt8(truncatingIfNeeded: bits))
        bits >>= 8
      }
    }

    private mutating func mix(_ byte: UInt8) {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01B3
    }
  }
}
