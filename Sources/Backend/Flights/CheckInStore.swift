import Common
import Foundation

/// The check-in tables (`checkin.001`).
///
/// - `seat_assignments`: who holds which seat, one row per seat held; the primary key
///   `(flight, date, seat)` makes a seat impossible to give twice, whatever the number of
///   processes, and `(reservation_id, passenger, leg)` gives a passenger one seat per leg.
/// - `check_ins`: one row per passenger and leg checked in, with the flight's sequence number;
///   `(flight, date, sequence)` is unique and numbers are taken as `MAX + 1` inside the write
///   transaction, so each flight's numbers run 1, 2, 3 … without gaps. A cancelled reservation's
///   rows stay (marked `cancelled`), so numbers are never reused.
/// - `boarding_passes`: the signed BCBP text issued per passenger and direction.
/// - `tickets`: the 13-digit e-ticket number of each passenger of a reservation.
public enum CheckInSchema {
  public static let migrations = [
    Migration(
      id: "checkin.001",
      sql: """
        CREATE TABLE seat_assignments (
          flight TEXT NOT NULL,
          date TEXT NOT NULL,
          seat TEXT NOT NULL,
          reservation_id TEXT NOT NULL,
          passenger INTEGER NOT NULL,
          leg INTEGER NOT NULL,
          PRIMARY KEY (flight, date, seat),
          UNIQUE (reservation_id, passenger, leg)
        );
        CREATE TABLE check_ins (
          flight TEXT NOT NULL,
          date TEXT NOT NULL,
          sequence INTEGER NOT NULL CHECK (sequence > 0),
          reservation_id TEXT NOT NULL,
          passenger INTEGER NOT NULL,
          leg INTEGER NOT NULL,
          checked_in_at REAL NOT NULL,
          cancelled INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (flight, date, sequence),
          UNIQUE (reservation_id, passenger, leg)
        );
        CREATE TABLE boarding_passes (
          reservation_id TEXT NOT NULL,
          passenger INTEGER NOT NULL,
          direction INTEGER NOT NULL,
          legs TEXT NOT NULL,
          bcbp TEXT NOT NULL,
          issued_at REAL NOT NULL,
          PRIMARY KEY (reservation_id, passenger, direction)
        );
        CREATE TABLE tickets (
          reservation_id TEXT NOT NULL,
          passenger INTEGER NOT NULL,
          number TEXT NOT NULL UNIQUE,
          PRIMARY KEY (reservation_id, passenger)
        );
        """)
  ]

  /// Gives back the seats of a cancelled reservation and voids its check-ins and boarding passes
  /// (in the cancellation's transaction; sequence numbers stay taken).
  static func release(_ db: Database, reservationID: String) throws {
    try db.run("DELETE FROM seat_assignments WHERE reservation_id = ?", reservationID)
    try db.run("UPDATE check_ins SET cancelled = 1 WHERE reservation_id = ?", reservationID)
    try db.run("DELETE FROM boarding_passes WHERE reservation_id = ?", reservationID)
  }
}

/// A flight reservation as check-in sees it, read from the details the booking stored: the
/// passengers, the cabin, and each leg (flight, local date, airports, departure instant and zone,
/// aircraft) with its direction (outbound 0, return 1, from the offer id).
struct BookedFlight {
  struct Leg {
    var index: Int
    var direction: Int
    var flight: Flight
    /// Local departure date.
    var date: LocalDate
    var from: String
    var to: String
    var departure: Date
    var zone: TimeZone
    var aircraft: String
  }

  var reservation: Reservation
  var passengers: [String]
  var cabin: Cabin
  var legs: [Leg]
  /// Leg indices of each direction, in order.
  var directions: [[Int]]

  init(_ reservation: Reservation) throws {
    guard reservation.kind == .flight else {
      throw ServiceError.invalid(
        "not_a_flight", "reservation \(reservation.id) is a \(reservation.kind.rawValue): only flights have check-in")
    }
    let damaged = ServiceError(
      .unavailable, code: "reservation_unreadable",
      message: "reservation \(reservation.id) does not hold its flights in a readable form")
    guard let names = reservation.details["passengers"]?.arrayValue?.compactMap(\.stringValue), !names.isEmpty,
      let cabinText = reservation.details["cabin"]?.stringValue, let cabin = Cabin(rawValue: cabinText),
      let segments = reservation.details["segments"]?.arrayValue, !segments.isEmpty
    else { throw damaged }
    var counts = [segments.count]
    if let offer = reservation.details["offerId"]?.stringValue, let id = try? FlightOfferID(parsing: offer),
      id.flights.count == segments.count
    {
      counts = id.directions.map(\.count)
    }
    let formatter = ISO8601DateFormatter()
    var legs: [Leg] = []
    var directions: [[Int]] = []
    var index = 0
    for (direction, count) in counts.enumerated() {
      var members: [Int] = []
      for _ in 0..<count {
        guard let segment = segments[index].objectValue, let code = segment["flight"]?.stringValue,
          let flight = Flight(code: code), let from = segment["from"]?.stringValue,
          let to = segment["to"]?.stringValue, let departureText = segment["departure"]?.stringValue,
          let departure = formatter.date(from: departureText), let date = LocalDate(String(departureText.prefix(10))),
          let zone = segment["departureTimeZone"]?.stringValue.flatMap(TimeZone.init(identifier:))
        else { throw damaged }
        legs.append(
          Leg(
            index: index, direction: direction, flight: flight, date: date, from: from, to: to, departure: departure,
            zone: zone, aircraft: segment["aircraft"]?.stringValue ?? "320"))
        members.append(index)
        index += 1
      }
      directions.append(members)
    }
    self.reservation = reservation
    self.passengers = names
    self.cabin = cabin
    self.legs = legs
    self.directions = directions
  }

  /// The index of the passenger named `name` (any case, blanks collapsed).
  /// - Throws: `unknown_passenger` listing the booking's passengers.
  func passenger(named name: String) throws -> Int {
    let wanted = name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    guard let index = passengers.firstIndex(where: { $0.lowercased() == wanted }) else {
      throw ServiceError.invalid(
        "unknown_passenger",
        "\(EchoedInput.quoted(name)) is not a passenger of reservation \(reservation.id): expected "
          + passengers.map { "\"\($0)\"" }.joined(separator: " or "))
    }
    return index
  }
}
