import Foundation
import Reactive

/// A booked flight's status event in a traveller's trips feed: which reservation, the designator
/// the traveller booked (a codeshare names the operating flight's status), and the event.
public struct TripFlightEvent: Hashable, Sendable {
  /// The reservation (`res_…`) holding the flight.
  public var reservationID: String
  /// The flight as booked (the operating flight, or one of its codeshares).
  public var booked: Flight
  public var event: FlightStatusEvent

  public init(reservationID: String, booked: Flight, event: FlightStatusEvent) {
    self.reservationID = reservationID
    self.booked = booked
    self.event = event
  }
}

/// Live flight status: one flight, an airport's board, and a traveller's booked flights, as
/// snapshots and as feeds that publish each change when it happens. Implemented by the embedded
/// backend (`Backend.FlightStatusFeed`, a simulation of each day's operations over the generated
/// schedule, on the app's ``TravelClock``); wired by the apps; features see only this protocol.
///
/// Feeds publish a snapshot, then one event per change, in order; a flight's changes carry its
/// ``FlightStatus/sequence``, a board's its ``FlightBoardUpdate/sequence``. A feed given the last
/// sequence it saw (`after`) resumes with the next change and sends no snapshot: nothing is lost
/// or repeated. Feeds never complete on their own (a board's day ends, but a subscriber decides
/// when to stop: `booking status --follow` stops at ``FlightStatus/isFinal``); they fail with a
/// ``ServiceError`` only when they cannot start.
public protocol FlightStatusService: Sendable {
  /// The clock the service runs on: "now" for every snapshot, and the pace of the feeds.
  var clock: TravelClock { get }

  /// The operation of `flight` (operating or codeshare designator) departing on local date `date`
  /// at its origin; for nil, today's at its origin, else its next one within a week.
  /// - Throws: ``ServiceError``: `flight_not_found` (`.notFound`) for a flight no carrier flies,
  ///   `flight_not_operating` (`.notFound`) when it does not fly on `date` (the message names the
  ///   days it flies), `date_out_of_range` (invalid input) outside the last week … 330 days ahead.
  func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey

  /// The status of `key` now.
  /// - Throws: ``ServiceError`` `flight_not_found` (`.notFound`), `date_out_of_range`.
  func status(_ key: FlightStatusKey) throws -> FlightStatus

  /// The board of `airport` (IATA code) for local date `date` there (nil: today there), now.
  /// - Throws: ``ServiceError`` (invalid input): `unknown_airport`, `no_flights_at_place`,
  ///   `date_out_of_range`.
  func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard

  /// `key`'s snapshot (when `after` is nil) then each change; with `after`, the changes numbered
  /// after it. Values arrive on the clock's scheduler.
  func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<FlightStatusEvent, ServiceError>

  /// The board's snapshot (when `after` is nil) then each change of one of its flights; with
  /// `after` (a board sequence), the changes numbered after it.
  func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>

  /// The traveller's booked flights (confirmed flight reservations of `token`'s user): a
  /// snapshot of each (also of each flight booked later), then each change.
  /// Fails with `not_signed_in` / `session_expired` (`.unauthenticated`).
  func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError>
}
