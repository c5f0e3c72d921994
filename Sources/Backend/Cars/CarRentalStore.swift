import Common
import Foundation

/// The car rentals table (`cars.001`): one row per booked car, active until cancelled.
///
/// A rental holds one car of `acriss` at the pick-up desk (`company_id`, `location_id`) for
/// `[pickup_at, dropoff_at)` (UTC seconds since 1970).
public enum CarRentalSchema {
  public static let migrations = [
    Migration(
      id: "cars.001",
      sql: """
        CREATE TABLE car_rentals (
          reservation_id TEXT PRIMARY KEY,
          company_id TEXT NOT NULL,
          location_id TEXT NOT NULL,
          dropoff_location_id TEXT NOT NULL,
          acriss TEXT NOT NULL,
          pickup_at REAL NOT NULL,
          dropoff_at REAL NOT NULL,
          active INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX car_rentals_by_desk ON car_rentals (location_id, company_id, acriss, pickup_at);
        """),
    // One row per fleet (company, desk, ACRISS code), locked by each booking of that fleet before
    // it counts the cars out: the count spans rows, so concurrent bookings of one fleet must take
    // turns (PostgreSQL in READ COMMITTED; SQLite's one writer takes turns anyway).
    Migration(
      id: "cars.002",
      sql: """
        CREATE TABLE car_fleet_locks (
          company_id TEXT NOT NULL,
          location_id TEXT NOT NULL,
          acriss TEXT NOT NULL,
          bookings INTEGER NOT NULL,
          PRIMARY KEY (company_id, location_id, acriss)
        ) WITHOUT ROWID;
        """),
  ]
}

/// Availability over the SQLite store (see ``CarRentalSchema``).
public struct SQLiteCarRentals: CarRentalsStore, @unchecked Sendable {
  let database: Database

  public init(database: Database) { self.database = database }

  public func busyCounts(locationIDs: [String], from: Date, until: Date) throws -> [CarFleetKey: Int] {
    guard !locationIDs.isEmpty else { return [:] }
    do {
      return try Self.busyCounts(database, locationIDs: locationIDs, from: from, until: until)
    } catch let error as ServiceError {
      throw error
    } catch {
      throw ServiceError.wrapping(error)
    }
  }

  /// Per fleet, the most cars rented at the same time during `[from, until)` (a sweep over the
  /// active rentals overlapping the window), so a car is free iff this is below the fleet count.
  static func busyCounts(_ db: Database, locationIDs: [String], from: Date, until: Date) throws -> [CarFleetKey: Int] {
    let marks = Array(repeating: "?", count: locationIDs.count).joined(separator: ",")
    let rows = try db.query(
      """
      SELECT company_id, location_id, acriss, pickup_at, dropoff_at FROM car_rentals
      WHERE active = 1 AND location_id IN (\(marks)) AND pickup_at < ? AND dropoff_at > ?
      """, bindings: locationIDs.map { $0 as any SQLBindable } + [until, from])
    var events: [CarFleetKey: [(Double, Int)]] = [:]
    for row in rows {
      let key = CarFleetKey(
        companyID: try row.get("company_id"), locationID: try row.get("location_id"), acriss: try row.get("acriss"))
      let start = max(try row.get("pickup_at", as: Double.self), from.timeIntervalSince1970)
      let end = min(try row.get("dropoff_at", as: Double.self), until.timeIntervalSince1970)
      events[key, default: []] += [(start, 1), (end, -1)]
    }
    // Ends sort before starts at the same instant: a car returned at 10:00 can go out at 10:00.
    return events.mapValues { list in
      var current = 0
      var peak = 0
      for (_, delta) in list.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
        current += delta
        peak = max(peak, current)
      }
      return peak
    }
  }

  /// Takes one car inside the booking transaction, or throws `sold_out` when every car of the
  /// code is rented at some moment of the period.
  static func take(
    _ db: Database, reservationID: String, desk: CarDesk, dropoffLocationID: String, acriss: ACRISSCode, from: Date,
    until: Date
  ) throws {
    let key = CarFleetKey(companyID: desk.company.id, locationID: desk.location.id, acriss: acriss.rawValue)
    // Takes the fleet's row lock first (held until the booking commits or rolls back), so the
    // count below sees every booking of this fleet committed before it.
    try db.run(
      """
      INSERT INTO car_fleet_locks (company_id, location_id, acriss, bookings) VALUES (?, ?, ?, 1)
      ON CONFLICT (company_id, location_id, acriss) DO UPDATE SET bookings = car_fleet_locks.bookings + 1
      """, key.companyID, key.locationID, key.acriss)
    let busy = try busyCounts(db, locationIDs: [desk.location.id], from: from, until: until)[key] ?? 0
    guard busy < desk.fleet[acriss] ?? 0 else {
      throw ServiceError.refused(
        "sold_out",
        "every \(acriss) car of \(desk.company.name) at \(desk.location.id) is taken for that period: search again")
    }
    try db.run(
      """
      INSERT INTO car_rentals (reservation_id, company_id, location_id, dropoff_location_id, acriss, pickup_at,
        dropoff_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      """, reservationID, desk.company.id, desk.location.id, dropoffLocationID, acriss.rawValue, from, until)
  }

  /// Frees the car of a cancelled reservation (in the cancellation transaction).
  static func release(_ db: Database, reservationID: String) throws {
    try db.run("UPDATE car_rentals SET active = 0 WHERE reservation_id = ?", reservationID)
  }

  /// Cancelling a car is free until pick-up: a full refund before ``Reservation/startsAt``,
  /// `not_cancellable` from then on; the car is freed.
  public static let cancellation = CancellationPolicy(
    refund: { reservation, now in
      if let start = reservation.startsAt, now >= start {
        throw ServiceError.refused(
          "not_cancellable", "the rental \(reservation.id) has started: cancelling is free only until pick-up")
      }
      return reservation.total
    },
    release: { context in try release(context.db, reservationID: context.reservation.id) },
    terms: { reservation, _ in
      let zone = reservation.startTimeZone ?? .gmt
      let pickup = reservation.startsAt.map {
        ", \(LocalDateTime($0, in: zone).description.replacingOccurrences(of: "T", with: " ")) "
          + "(\(zone.identifier))"
      }
      return CancellationPolicy.Terms(
        deadline: reservation.startsAt, rule: .carFreeUntilPickup,
        policy: "Free cancellation until pick-up\(pickup ?? ""); a rental that has started cannot be cancelled.")
    })
}
