import Common
import Foundation

@testable import Backend

/// Networks for the flight tests: the real world (from `Shared/`, built once per test process)
/// and small hand-made ones.
enum FlightsFixtures {
  /// The real network of `Shared/` (airportsdata airports, OpenFlights airlines and routes).
  static let world: FlightNetwork = FlightNetwork(worldInput)

  static let worldInput: FlightNetworkInput = try! FlightNetworkInput.shared()

  /// An engine over `network` resolving only IATA airport codes, with the clock at `now`.
  static func engine(
    _ network: FlightNetwork = world, seats: InMemoryFlightSeats = InMemoryFlightSeats(),
    now: Date = Date(timeIntervalSince1970: 1_795_000_000)
  ) -> FlightEngine {
    FlightEngine(
      network: network, seats: seats,
      resolvePlace: { text in
        let code = text.uppercased()
        guard network.airportIndex[code] != nil else {
          throw ServiceError.invalid("unknown_place", "unknown airport \"\(text)\": expected an IATA code like SFO")
        }
        return [code]
      },
      suggestAirports: { _, _ in [] }, now: { now })
  }

  /// A date `days` after the fixed test clock (2026-11-18).
  static func date(_ days: Int) -> LocalDate {
    LocalDate(daysSinceEpoch: Int(1_795_000_000 / 86_400) + days)
  }
}
