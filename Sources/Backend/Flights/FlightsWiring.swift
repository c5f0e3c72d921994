import Common
import Foundation

/// How the apps get the flight services: the world network generated once per process from
/// `Shared/`, over the seats booked in the store of the command's data directory.
public enum FlightsWiring {
  private static let world: Result<FlightNetwork, ServiceError> = {
    do {
      return .success(FlightNetwork(try FlightNetworkInput.shared()))
    } catch let error as ServiceError {
      return .failure(error)
    } catch {
      return .failure(
        ServiceError(
          .unavailable, code: "reference_data_unavailable",
          message: "cannot load the airline and route data: \(error.localizedDescription)"))
    }
  }()

  /// The world's flight network (built on first use, then kept).
  /// - Throws: ``ServiceError`` `reference_data_unavailable` (exit 1) when `Shared/` cannot be read.
  public static func network() throws -> FlightNetwork { try world.get() }

  /// The flight search service for a command run with `context`.
  public static func search(context: CLIContext) throws -> any FlightSearching {
    let network = try network()
    return FlightEngine(
      network: network, seats: InMemoryFlightSeats(), resolvePlace: InterimPlaces.resolver(network),
      suggestAirports: InterimPlaces.suggester(network))
  }
}
