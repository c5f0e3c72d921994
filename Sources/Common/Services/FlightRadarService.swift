import Foundation

/// A flight in the air: its operation, where it took off and where it is bound, and when it took
/// off and lands (UTC instants, the landing the one the simulation knows), so its position at any
/// instant in between is ``position(at:)`` along the great circle.
public struct RadarFlight: Hashable, Sendable {
  public var key: FlightStatusKey
  /// IATA codes; `destination` is the alternate for a flight that diverted.
  public var origin: String
  public var destination: String
  public var takeoff: Date
  public var landing: Date
  /// The great circle from the origin to the destination.
  public let track: GreatCircleTrack

  public init(
    key: FlightStatusKey, origin: String, destination: String, originLatitude: Double, originLongitude: Double,
    destinationLatitude: Double, destinationLongitude: Double, takeoff: Date, landing: Date
  ) {
    self.key = key
    self.origin = origin
    self.destination = destination
    self.takeoff = takeoff
    self.landing = landing
    track = GreatCircleTrack(
      fromLatitude: originLatitude, fromLongitude: originLongitude, toLatitude: destinationLatitude,
      toLongitude: destinationLongitude)
  }

  /// The share of the flight time flown at `instant`, 0…1 (clamped before takeoff and after landing).
  public func progress(at instant: Date) -> Double {
    let total = landing.timeIntervalSince(takeoff)
    guard total > 0 else { return 1 }
    return min(1, max(0, instant.timeIntervalSince(takeoff) / total))
  }

  /// Where the aircraft is at `instant`: the point of the great circle at the share of the flight
  /// time flown (a constant ground speed from takeoff to landing; climb and descent are not
  /// modelled), with its course.
  public func position(at instant: Date) -> TrackPoint { track.point(at: progress(at: instant)) }
}

/// One aircraft on the radar, as `booking radar --json` prints it.
public struct FlightPosition: Hashable, Sendable, Codable {
  /// The operating flight (`LH 400`) and its operation (`LH400-2026-12-20-FRA`).
  public var flight: String
  public var operation: String
  public var origin: String
  public var destination: String
  /// Degrees, north and east positive, and the true course (0–360, clockwise from north).
  public var latitude: Double
  public var longitude: Double
  public var heading: Double
  /// Share of the flight time flown, 0…1.
  public var progress: Double
  /// Kilometres flown and left along the great circle.
  public var flownKm: Double
  public var remainingKm: Double
  /// ISO 8601 UTC instants.
  public var takeoff: Date
  public var landing: Date
  /// Whether the signed-in traveller holds a booking on this flight.
  public var booked: Bool

  public init(_ flight: RadarFlight, at instant: Date, booked: Bool = false) {
    let progress = flight.progress(at: instant)
    let point = flight.track.point(at: progress)
    self.flight = flight.key.flight.description
    operation = flight.key.id
    origin = flight.origin
    destination = flight.destination
    latitude = (point.latitude * 10_000).rounded() / 10_000
    longitude = (point.longitude * 10_000).rounded() / 10_000
    heading = (point.heading * 10).rounded() / 10
    self.progress = (progress * 1000).rounded() / 1000
    flownKm = (flight.track.distanceKm * progress).rounded()
    remainingKm = (flight.track.distanceKm * (1 - progress)).rounded()
    takeoff = flight.takeoff
    landing = flight.landing
    self.booked = booked
  }
}

/// The live map of the flights in the air, from the same simulation as ``FlightStatusService``
/// (`Backend.FlightOperations`), on the app's ``TravelClock``.
public protocol FlightRadarService: Sendable {
  /// The clock the radar runs on.
  var clock: TravelClock { get }

  /// Every flight in the air at `instant` (took off at or before it, lands after it), by takeoff.
  /// Cancelled flights never fly; a diverted flight flies to its alternate.
  /// - Throws: ``ServiceError`` `date_out_of_range` (invalid input) outside the days the
  ///   simulation covers (the last week … 330 days ahead).
  func airborne(at instant: Date) throws -> [RadarFlight]

  /// The operations of the traveller's booked flights (confirmed flight reservations of `token`'s
  /// user), as the operating flights' keys (a codeshare booked names its operating flight).
  /// - Throws: ``ServiceError`` `not_signed_in` / `session_expired` (`.unauthenticated`),
  ///   `trips_unavailable` (`.unavailable`) when the app keeps no reservations.
  func bookedOperations(token: String) throws -> Set<FlightStatusKey>
}
