import Common
import Foundation

/// The radar over the embedded simulation: the flights ``FlightOperations/airborne(at:)`` finds in
/// the air, each with its great circle (``RadarFlight``), on the same clock as the status feeds.
extension FlightStatusFeed: FlightRadarService {
  public func airborne(at instant: Date) throws -> [RadarFlight] {
    let now = clock.now()
    let earliest = now.addingTimeInterval(-Double(Self.pastDays) * 86_400)
    let latest = now.addingTimeInterval(Double(Self.futureDays) * 86_400)
    guard instant >= earliest, instant <= latest else {
      let format = ISO8601DateFormatter()
      throw ServiceError.invalid(
        "date_out_of_range",
        "no radar for \(format.string(from: instant)): expected an instant from \(format.string(from: earliest)) "
          + "to \(format.string(from: latest))")
    }
    return operations.radarFlights(at: instant)
  }

  public func bookedOperations(token: String) throws -> Set<FlightStatusKey> {
    guard let reservations else {
      throw ServiceError(.unavailable, code: "trips_unavailable", message: "this app keeps no trips")
    }
    var keys = Set<FlightStatusKey>()
    for reservation in try reservations(token) where reservation.status == .confirmed {
      for (booked, key) in reservation.bookedFlights {
        // The operating flight of a codeshare; a flight the schedule no longer has is skipped.
        if let operating = try? operation(of: booked, date: key.date) { keys.insert(operating) }
      }
    }
    return keys
  }
}

extension FlightOperations {
  /// Every flight in the air at `instant` as a ``RadarFlight`` (its great circle precomputed), by takeoff.
  public func radarFlights(at instant: Date) -> [RadarFlight] {
    airborne(at: instant).map { flight in
      RadarFlight(
        key: flight.key, origin: flight.origin, destination: flight.destination,
        originLatitude: flight.originLatitude, originLongitude: flight.originLongitude,
        destinationLatitude: flight.destinationLatitude, destinationLongitude: flight.destinationLongitude,
        takeoff: flight.takeoff, landing: flight.landing)
    }
  }
}

extension FlightsWiring {
  /// The radar for a command run with `context`: the live status simulation of
  /// ``status(context:)`` (same clock, same trips), which also answers where every flight is.
  /// Nothing is loaded until first asked; then its calls throw ``ServiceError``
  /// `reference_data_unavailable` (exit 1) when the simulation cannot be made.
  public static func radar(context: CLIContext) throws -> any FlightRadarService { feed(context: context) }
}
