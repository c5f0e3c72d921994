import Foundation

/// A passenger's seat on one leg of a flight reservation, and whether they are checked in there.
///
/// JSON: `{"passenger", "leg", "flight", "date", "from", "to", "seat", "checkedIn", "sequence"}`.
public struct SeatAssignment: Hashable, Sendable, Codable {
  /// The passenger's name as booked (`Ada Lovelace`).
  public var passenger: String
  /// The leg: the position of the flight in the reservation's segments, from 0.
  public var leg: Int
  public var flight: Flight
  /// Local departure date.
  public var date: LocalDate
  public var from: String
  public var to: String
  public var seat: SeatNumber?
  public var checkedIn: Bool
  /// The check-in sequence number on that flight (1, 2, … in check-in order), once checked in.
  public var sequence: Int?

  public init(
    passenger: String, leg: Int, flight: Flight, date: LocalDate, from: String, to: String, seat: SeatNumber?,
    checkedIn: Bool, sequence: Int?
  ) {
    self.passenger = passenger
    self.leg = leg
    self.flight = flight
    self.date = date
    self.from = from
    self.to = to
    self.seat = seat
    self.checkedIn = checkedIn
    self.sequence = sequence
  }
}

/// The seat map of one leg of a reservation with who sits where: the aircraft's map, the seats
/// other travellers hold, and this booking's.
public struct FlightSeatMap: Hashable, Sendable, Codable {
  /// The position of the flight in the reservation's segments, from 0.
  public var leg: Int
  public var flight: Flight
  public var date: LocalDate
  public var from: String
  public var to: String
  /// The cabin booked: only its seats can be chosen.
  public var cabin: Cabin
  public var map: SeatMap
  /// Seats held by other bookings.
  public var taken: [SeatNumber]
  /// This booking's passengers on this leg, with their seats when they have one.
  public var assignments: [SeatAssignment]

  public init(
    leg: Int, flight: Flight, date: LocalDate, from: String, to: String, cabin: Cabin, map: SeatMap,
    taken: [SeatNumber], assignments: [SeatAssignment]
  ) {
    self.leg = leg
    self.flight = flight
    self.date = date
    self.from = from
    self.to = to
    self.cabin = cabin
    self.map = map
    self.taken = taken
    self.assignments = assignments
  }

  /// What `seat` is to this booking.
  public func state(of seat: SeatNumber) -> SeatState {
    guard let layout = map.cabinLayout(of: seat) else { return .none }
    if let holder = assignments.first(where: { $0.seat == seat }) { return .yours(holder.passenger) }
    if map.blocked.contains(seat) { return .blocked }
    if taken.contains(seat) { return .taken }
    return layout.cabin == cabin ? .available : .otherCabin
  }
}

/// A seat as a seat map shows it.
public enum SeatState: Hashable, Sendable {
  /// Free, in the cabin booked.
  case available
  /// Held by another booking.
  case taken
  /// Held by this booking's passenger.
  case yours(String)
  /// Fitted but never sold.
  case blocked
  /// In another cabin than the one booked.
  case otherCabin
  /// No such seat on this aircraft.
  case none
}

/// `seatMaps`: the reservation.
public struct SeatMapRequest: Hashable, Sendable, Codable {
  public var reservationID: String
  public init(reservationID: String) { self.reservationID = reservationID }
}

/// The seat map of every leg of a flight reservation.
public struct SeatMapResponse: Hashable, Sendable, Codable {
  public var reservationID: String
  /// The passengers as booked.
  public var passengers: [String]
  public var legs: [FlightSeatMap]

  public init(reservationID: String, passengers: [String], legs: [FlightSeatMap]) {
    self.reservationID = reservationID
    self.passengers = passengers
    self.legs = legs
  }
}

/// One passenger's choice of seat on one leg.
public struct SeatChoice: Hashable, Sendable, Codable {
  /// A passenger's name as booked (any case).
  public var passenger: String
  /// The leg (position in the reservation's segments, from 0).
  public var leg: Int
  public var seat: SeatNumber

  public init(passenger: String, leg: Int, seat: SeatNumber) {
    self.passenger = passenger
    self.leg = leg
    self.seat = seat
  }
}

/// `assignSeats`: seats chosen, and whether to give every passenger still without a seat one
/// (the booking's passengers together when the map allows).
public struct SeatAssignmentRequest: Hashable, Sendable, Codable {
  public var reservationID: String
  public var choices: [SeatChoice]
  /// Seat the others automatically.
  public var assignRest: Bool

  public init(reservationID: String, choices: [SeatChoice] = [], assignRest: Bool = false) {
    self.reservationID = reservationID
    self.choices = choices
    self.assignRest = assignRest
  }
}

/// The booking's seats after a change.
public struct SeatAssignmentResponse: Hashable, Sendable, Codable {
  public var reservationID: String
  public var assignments: [SeatAssignment]

  public init(reservationID: String, assignments: [SeatAssignment]) {
    self.reservationID = reservationID
    self.assignments = assignments
  }
}

/// The seats one passenger wants on the flights checked in, in flight order (nil: any seat).
public struct CheckInSeats: Hashable, Sendable, Codable {
  public var passenger: String
  public var seats: [SeatNumber?]

  public init(passenger: String, seats: [SeatNumber?]) {
    self.passenger = passenger
    self.seats = seats
  }
}

/// `checkIn`: which passengers (nil: all) and the seats they want on the flights of the direction
/// being checked in; passengers without a seat are seated automatically, together.
public struct CheckInRequest: Hashable, Sendable, Codable {
  public var reservationID: String
  public var passengers: [String]?
  public var seats: [CheckInSeats]

  public init(reservationID: String, passengers: [String]? = nil, seats: [CheckInSeats] = []) {
    self.reservationID = reservationID
    self.passengers = passengers
    self.seats = seats
  }
}

/// A boarding pass the backend issued: one passenger, the legs of one direction of the trip,
/// the signed BCBP text.
///
/// JSON: `{"passenger", "direction", "legs": [Int], "bcbp", "issuedAt"}`.
public struct IssuedBoardingPass: Hashable, Sendable, Codable {
  public var passenger: String
  /// 0 outbound, 1 return.
  public var direction: Int
  /// The reservation legs the pass holds, in order.
  public var legs: [Int]
  /// The IATA BCBP text (Resolution 792, format M, version 8), signed.
  public var bcbp: String
  public var issuedAt: Date

  public init(passenger: String, direction: Int, legs: [Int], bcbp: String, issuedAt: Date) {
    self.passenger = passenger
    self.direction = direction
    self.legs = legs
    self.bcbp = bcbp
    self.issuedAt = issuedAt
  }
}

/// What a check-in did: every passenger's seat and sequence number on each leg of the direction
/// checked in, and the boarding passes.
public struct CheckInResponse: Hashable, Sendable, Codable {
  public var reservationID: String
  /// 0 outbound, 1 return.
  public var direction: Int
  public var assignments: [SeatAssignment]
  public var boardingPasses: [IssuedBoardingPass]

  public init(
    reservationID: String, direction: Int, assignments: [SeatAssignment], boardingPasses: [IssuedBoardingPass]
  ) {
    self.reservationID = reservationID
    self.direction = direction
    self.assignments = assignments
    self.boardingPasses = boardingPasses
  }
}

/// `boardingPasses`: the reservation.
public struct BoardingPassesRequest: Hashable, Sendable, Codable {
  public var reservationID: String
  public init(reservationID: String) { self.reservationID = reservationID }
}

/// The boarding passes issued for a reservation (empty before check-in).
public struct BoardingPassesResponse: Hashable, Sendable, Codable {
  public var reservationID: String
  public var boardingPasses: [IssuedBoardingPass]

  public init(reservationID: String, boardingPasses: [IssuedBoardingPass]) {
    self.reservationID = reservationID
    self.boardingPasses = boardingPasses
  }
}

/// Whether a pass's security data (items 25–30) is the issuer's signature.
public enum SignatureStatus: String, Hashable, Sendable, Codable {
  /// Verified with a key the scanner knows.
  case valid
  /// Present, but not verifiable with the keys known: another issuer's, or altered.
  case unknown
  /// The pass has no security data.
  case absent
}

/// `verify`: a pass's BCBP text.
public struct PassVerificationRequest: Hashable, Sendable, Codable {
  public var bcbp: String
  public init(bcbp: String) { self.bcbp = bcbp }
}

public struct PassVerificationResponse: Hashable, Sendable, Codable {
  public var signature: SignatureStatus
  /// Why, in words (`ECDSA P-256 signature of this backend`, …).
  public var reason: String

  public init(signature: SignatureStatus, reason: String) {
    self.signature = signature
    self.reason = reason
  }
}

/// `matchTrip`: a pass read from a barcode.
public struct TripMatchRequest: Hashable, Sendable, Codable {
  public var pass: BoardingPass
  public init(pass: BoardingPass) { self.pass = pass }
}

/// The traveller's trip a pass belongs to: the reservation, and for each leg of the pass the
/// reservation leg it is (nil when it is not one of them) and its date.
public struct TripMatchResponse: Hashable, Sendable, Codable {
  public var reservation: Reservation?
  public var legs: [Int?]
  public var flightDates: [LocalDate?]

  public init(reservation: Reservation?, legs: [Int?], flightDates: [LocalDate?]) {
    self.reservation = reservation
    self.legs = legs
    self.flightDates = flightDates
  }
}

/// Online check-in, seats and boarding passes for the signed-in traveller's flight reservations.
/// Implemented by the embedded backend (`Backend.FlightCheckIn`), wired by the apps; a
/// `travel-server` exposes the same calls (every request and response is `Codable`).
///
/// Rules (the backend's documentation has the details):
/// - Check-in opens 24 hours before the first departure of a direction (elapsed time: a day with
///   a daylight-saving change is not 24 hours on the clock) and closes 60 minutes before it when
///   the direction crosses a border, 45 minutes when it is domestic. Each passenger is checked in
///   on each leg of the direction; each flight's check-in sequence numbers run 1, 2, 3 … without
///   gaps or repeats.
/// - Seats can be chosen from booking until check-in closes; a seat held by another booking is
///   never given twice, whatever the number of processes.
///
/// Every method blocks on the store; call them off the main thread.
public protocol CheckInService: Sendable {
  /// The seat map of each leg of a flight reservation, with the seats taken and the booking's own.
  /// - Throws: ``ServiceError``: `not_signed_in`; `reservation_not_found` (`.notFound`);
  ///   `not_a_flight` (`.invalidInput`) for a hotel or car reservation; `already_cancelled`.
  func seatMaps(_ request: SeatMapRequest, token: String) throws -> SeatMapResponse

  /// Gives the passengers the seats chosen (and, with ``SeatAssignmentRequest/assignRest``, seats
  /// to the others), in one transaction: all or nothing.
  /// - Throws: ``ServiceError``: as ``seatMaps(_:token:)``; `invalid_seat` (no such seat on the
  ///   aircraft), `unknown_passenger`, `invalid_leg` (`.invalidInput`); `seat_taken`,
  ///   `seat_blocked`, `seat_in_other_cabin`, `seat_selection_closed`, `already_checked_in`,
  ///   `flight_departed` (`.refused`).
  func assignSeats(_ request: SeatAssignmentRequest, token: String) throws -> SeatAssignmentResponse

  /// Checks in the passengers on every leg of the direction whose check-in window is open,
  /// seating those without a seat (together when the map allows), and issues their signed boarding
  /// passes — in one transaction. Checking in again returns the same passes.
  /// - Throws: ``ServiceError``: as ``assignSeats(_:token:)``; `check_in_not_open` and
  ///   `check_in_closed` (`.refused`), saying when it opens or closed in the airport's local time.
  func checkIn(_ request: CheckInRequest, token: String) throws -> CheckInResponse

  /// The boarding passes issued for a reservation.
  /// - Throws: as ``seatMaps(_:token:)``.
  func boardingPasses(_ request: BoardingPassesRequest, token: String) throws -> BoardingPassesResponse

  /// Whether the security data of a pass is this backend's signature.
  /// - Throws: ``ServiceError`` `invalid_boarding_pass` when the text is not a pass.
  func verify(_ request: PassVerificationRequest) throws -> PassVerificationResponse

  /// The signed-in traveller's flight reservation a pass belongs to (same record locator, flights,
  /// airports and days), if any.
  /// - Throws: `not_signed_in`.
  func matchTrip(_ request: TripMatchRequest, token: String) throws -> TripMatchResponse
}
