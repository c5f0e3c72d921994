import Foundation

extension API {
  // MARK: Check-in, seats and boarding passes (`CheckInService` over HTTP)

  /// `GET /v1/trips/{id}/seats`: `{"reservationId", "passengers", "legs": [FlightSeatMap]}`, the
  /// document `booking seats ID --json` prints (every leg).
  public struct SeatMapsDocument: Codable, Sendable, Hashable {
    public var reservationId: String
    /// The passengers as booked (`"Ada Lovelace"`).
    public var passengers: [String]
    public var legs: [FlightSeatMap]
    public init(_ response: SeatMapResponse) {
      reservationId = response.reservationID
      passengers = response.passengers
      legs = response.legs
    }
    public var model: SeatMapResponse {
      SeatMapResponse(reservationID: reservationId, passengers: passengers, legs: legs)
    }
  }

  /// The body of `POST /v1/trips/{id}/seats`: `{"choices": [{"passenger", "leg", "seat"}],
  /// "assignRest": Bool}` (the reservation is the path's; `assignRest` absent is false).
  public struct SeatsChange: Codable, Sendable, Hashable {
    public var choices: [SeatChoice]
    public var assignRest: Bool?
    public init(_ request: SeatAssignmentRequest) {
      choices = request.choices
      assignRest = request.assignRest ? true : nil
    }
    public func model(reservationID: String) -> SeatAssignmentRequest {
      SeatAssignmentRequest(reservationID: reservationID, choices: choices, assignRest: assignRest ?? false)
    }
  }

  /// `{"reservationId", "assignments": [SeatAssignment]}`: the booking's seats after a change.
  public struct SeatAssignmentsDocument: Codable, Sendable, Hashable {
    public var reservationId: String
    public var assignments: [SeatAssignment]
    public init(_ response: SeatAssignmentResponse) {
      reservationId = response.reservationID
      assignments = response.assignments
    }
    public var model: SeatAssignmentResponse {
      SeatAssignmentResponse(reservationID: reservationId, assignments: assignments)
    }
  }

  /// The body of `POST /v1/trips/{id}/checkin`: `{"passengers": [String], "seats": [{"passenger",
  /// "seats": [SEAT or null]}]}`, both optional (absent `passengers`: every passenger).
  public struct CheckInBody: Codable, Sendable, Hashable {
    public var passengers: [String]?
    public var seats: [CheckInSeats]?
    public init(_ request: CheckInRequest) {
      passengers = request.passengers
      seats = request.seats.isEmpty ? nil : request.seats
    }
    public func model(reservationID: String) -> CheckInRequest {
      CheckInRequest(reservationID: reservationID, passengers: passengers, seats: seats ?? [])
    }
  }

  /// `{"checkIn": CheckInResponse}`, as `trips checkin ID --json` prints it.
  public struct CheckInDocument: Codable, Sendable, Hashable {
    public var checkIn: CheckInResponse
    public init(_ response: CheckInResponse) { checkIn = response }
  }

  /// `GET /v1/trips/{id}/boarding-passes`: `{"boardingPasses": [IssuedBoardingPass]}`, as
  /// `trips boarding-pass ID --json` prints them (without the files it writes).
  public struct BoardingPassesDocument: Codable, Sendable, Hashable {
    public var boardingPasses: [IssuedBoardingPass]
    public init(_ response: BoardingPassesResponse) { boardingPasses = response.boardingPasses }
  }
}
