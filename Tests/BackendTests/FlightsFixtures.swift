import Common
import Foundation

@testable import Backend

/// Networks for the flight tests: the real world (from `Shared/`, built once per test process)
/// and small hand-made ones.
enum FlightsFixtures {
  /// The real network of `Shared/` (airportsdata airports, OpenFlights airlines and routes).
  static let world: FlightNetwork = FlightNetwork(worldInput)

  static let worldInput = FlightNetworkInput(referenceData: try! ReferenceData.shared())

  /// An engine over `network` resolving places through the reference data, with the clock at `now`.
  static func engine(
    _ network: FlightNetwork = world, seats: InMemoryFlightSeats = InMemoryFlightSeats(),
    now: Date = Date(timeIntervalSince1970: 1_795_000_000)
  ) -> FlightEngine {
    FlightEngine(
      network: network, seats: seats,
      resolvePlace: FlightsWiring.resolver(try! ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try! ReferenceData.shared()), now: { now })
  }

  /// A date `days` after the fixed test clock (2026-11-18).
  static func date(_ days: Int) -> LocalDate {
    LocalDate(daysSinceEpoch: Int(1_795_000_000 / 86_400) + days)
  }
}
