import Common
import Foundation

/// The flight tables (`flights.001`).
///
/// - `flight_seats`: seats sold per flight (`UA1478`), local departure date (`2026-12-20`) and
///   cabin (`economy` …); a row exists once a seat was sold; `booked` never goes below 0.
/// - `flight_bookings`: what each reservation holds (one row per flight of the reservation), so a
///   cancellation gives back exactly what was taken.
public enum FlightSchema {
  public static let migrations = [
    Migration(
      id: "flights.001",
      sql: """
        CREATE TABLE flight_seats (
          flight TEXT NOT NULL,
          date TEXT NOT NULL,
          cabin TEXT NOT NULL,
          booked INTEGER NOT NULL CHECK (booked >= 0),
          PRIMARY KEY (flight, date, cabin)
        ) WITHOUT ROWID;
        CREATE TABLE flight_bookings (
          reservation_id TEXT NOT NULL,
          flight TEXT NOT NULL,
          date TEXT NOT NULL,
          cabin TEXT NOT NULL,
          seats INTEGER NOT NULL,
          active INTEGER NOT NULL DEFAULT 1,
          PRIMARY KEY (reservation_id, flight, date)
        );
        """)
  ]
}

/// Seats sold, read from the store (see ``FlightSchema``).
public struct SQLiteFlightSeats: FlightSeatReading, @unchecked Sendable {
  let database: Database

  public init(database: Database) { self.database = database }

  public func bookedSeats() throws -> [BookedSeats] {
    do {
      return try Self.rows(try database.query("SELECT flight, date, cabin, booked FROM flight_seats WHERE booked > 0"))
    } catch let error as ServiceError {
      throw error
    } catch {
      throw ServiceError.wrapping(error)
    }
  }

  /// The seats sold on `flights` in `cabin`, read on `db` (inside a transaction when booking).
  static func booked(_ db: Database, flights: [DatedFlight], cabin: Cabin) throws -> [BookedSeats] {
    var result: [BookedSeats] = []
    for dated in flights {
      let found = try db.query(
        "SELECT flight, date, cabin, booked FROM flight_seats WHERE flight = ? AND date = ? AND cabin = ?",
        dated.flight.code, dated.date.description, cabin.rawValue)
      result += try Self.rows(found)
    }
    return result
  }

  private static func rows(_ rows: [Row]) throws -> [BookedSeats] {
    try rows.compactMap { row in
      guard let flight = Flight(code: try row.get("flight")),
        let date = LocalDate(try row.get("date", as: String.self)),
        let cabin = Cabin(rawValue: try row.get("cabin"))
      else { return nil }
      return BookedSeats(flight: flight, date: date, cabin: cabin, seats: Int(try row.get("booked", as: Int64.self)))
    }
  }

  /// Takes `seats` on every flight of `flights` for `reservationID` (in the booking transaction),
  /// each with one conditional statement: the row's `booked` grows only while it stays within
  /// `capacity(flight)` (the cabin's seats), checked against the row as it is when the statement
  /// runs (PostgreSQL locks the row and re-reads it in `READ COMMITTED`; SQLite has one writer).
  /// So concurrent buyers on any number of servers never sell more seats than the cabin has.
  /// - Throws: `sold_out` (`.refused`) naming the flight when fewer than `seats` are left on it;
  ///   the transaction then rolls back what earlier flights took.
  static func take(
    _ db: Database, reservationID: String, flights: [DatedFlight], cabin: Cabin, seats: Int,
    capacity: (Flight) -> Int
  ) throws {
    for dated in flights {
      let taken = try db.takeWithinCapacity(
        "flight_seats",
        key: [("flight", dated.flight.code), ("date", dated.date.description), ("cabin", cabin.rawValue)],
        amount: seats, capacity: capacity(dated.flight))
      guard taken else {
        throw ServiceError.refused(
          "sold_out",
          "sold out: fewer than \(seats) \(cabin.displayName.lowercased()) seat(s) left on \(dated); search again")
      }
      try db.run(
        "INSERT INTO flight_bookings (reservation_id, flight, date, cabin, seats) VALUES (?, ?, ?, ?, ?)",
        reservationID, dated.flight.code, dated.date.description, cabin.rawValue, Int64(seats))
    }
  }

  /// Gives back the seats of `reservationID` (in the cancellation transaction).
  static func release(_ db: Database, reservationID: String) throws {
    let rows = try db.query(
      "SELECT flight, date, cabin, seats FROM flight_bookings WHERE reservation_id = ? AND active = 1", reservationID)
    for row in rows {
      try db.run(
        "UPDATE flight_seats SET booked = max(0, booked - ?) WHERE flight = ? AND date = ? AND cabin = ?",
        try row.get("seats", as: Int64.self), try row.get("flight", as: String.self),
        try row.get("date", as: String.self), try row.get("cabin", as: String.self))
    }
    try db.run("UPDATE flight_bookings SET active = 0 WHERE reservation_id = ?", reservationID)
  }

  /// Cancelling a flight: the refund rule of ``FarePolicy`` (fare in full from 7 days before the
  /// first departure, half from 1 to 6 days, none on the day; taxes and fees always), counted in
  /// whole days from the cancellation instant to the first departure; no cancellation after
  /// departure (`not_cancellable`). The seats come back.
  public static let cancellation = CancellationPolicy(
    refund: { reservation, now in
      guard let start = reservation.startsAt, now < start else {
        throw ServiceError.refused(
          "not_cancellable", "the flight of reservation \(reservation.id) has departed: it can no longer be cancelled")
      }
      let days = Int(start.timeIntervalSince(now) / 86_400)
      guard case .object(let fare)? = reservation.details["fare"], case .string(let fareText)? = fare["fare"],
        case .string(let taxText)? = fare["taxesAndFees"],
        let fareAmount = Decimal(string: fareText, locale: Locale(identifier: "en_US_POSIX")),
        let taxAmount = Decimal(string: taxText, locale: Locale(identifier: "en_US_POSIX"))
      else { return reservation.total }
      let currency = reservation.total.currencyCode
      let refund = FarePolicy.refund(
        of: FareBreakdown(
          fare: Money(amount: fareAmount, currency: currency),
          taxesAndFees: Money(amount: taxAmount, currency: currency)),
        daysBeforeDeparture: days)
      return refund.amount > reservation.total.amount ? reservation.total : refund
    },
    release: { context in
      try release(context.db, reservationID: context.reservation.id)
      try CheckInSchema.release(context.db, reservationID: context.reservation.id)
    },
    terms: { reservation, now in cancellationTerms(reservation, now: now) })

  /// The fare rule's terms at `now` (``FarePolicy/refund(of:daysBeforeDeparture:)``): the fare in
  /// full until 7 days before the first departure, half until 1 day before, then taxes and fees
  /// only until departure; each deadline the instant the next step begins, in the departure
  /// airport's local time.
  static func cancellationTerms(_ reservation: Reservation, now: Date) -> CancellationPolicy.Terms {
    guard let start = reservation.startsAt else {
      return CancellationPolicy.Terms(deadline: nil, rule: .fullRefund, policy: "Cancelling refunds the whole total.")
    }
    let zone = reservation.startTimeZone ?? .gmt
    func local(_ date: Date) -> String {
      "\(LocalDateTime(date, in: zone).description.replacingOccurrences(of: "T", with: " ")) (\(zone.identifier))"
    }
    let days = Int(start.timeIntervalSince(now) / 86_400)
    if days >= 7 {
      let deadline = start.addingTimeInterval(-7 * 86_400)
      return CancellationPolicy.Terms(
        deadline: deadline, rule: .flightFullFare,
        policy: "The fare is refunded in full until \(local(deadline)), 7 days before departure; then half of it, "
          + "and nothing on the day of departure. Taxes and fees are always refunded.")
    }
    if days >= 1 {
      let deadline = start.addingTimeInterval(-86_400)
      return CancellationPolicy.Terms(
        deadline: deadline, rule: .flightHalfFare,
        policy:
          "Half the fare is refunded until \(local(deadline)), a day before departure; then none of it. Taxes and "
          + "fees are always refunded.")
    }
    return CancellationPolicy.Terms(
      deadline: start, rule: .flightTaxesOnly,
      policy:
        "On the day of departure the fare is not refunded, taxes and fees are; a flight can be cancelled until it "
        + "departs, \(local(start)).")
  }
}
