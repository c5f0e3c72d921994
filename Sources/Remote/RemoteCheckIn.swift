import Common
import Foundation
import Reactive

/// Check-in, seats and boarding passes of a `travel-server` (`/v1/trips/{id}/seats`,
/// `/v1/trips/{id}/checkin`, `/v1/trips/{id}/boarding-passes`, `/v1/boarding-passes/verify`,
/// `/v1/boarding-passes/match`): ``CheckInService`` over HTTP. The server keeps the seat maps,
/// the check-in sequence numbers and the key that signs the passes, so two travellers on two
/// machines never get the same seat. Errors are the server's ``ServiceError``s (`seat_taken`,
/// `check_in_not_open`, …, with their messages), or `server_unreachable`.
public struct RemoteCheckIn: CheckInService {
  let api: APIClient

  public init(api: APIClient) { self.api = api }

  public func seatMaps(_ request: SeatMapRequest, token: String) throws -> SeatMapResponse {
    try api.call("GET", "\(Self.trip(request.reservationID))/seats", token: token, as: API.SeatMapsDocument.self)
      .model
  }

  public func assignSeats(_ request: SeatAssignmentRequest, token: String) throws -> SeatAssignmentResponse {
    try api.call(
      "POST", "\(Self.trip(request.reservationID))/seats", body: .encode(API.SeatsChange(request)), token: token,
      as: API.SeatAssignmentsDocument.self
    ).model
  }

  public func checkIn(_ request: CheckInRequest, token: String) throws -> CheckInResponse {
    try api.call(
      "POST", "\(Self.trip(request.reservationID))/checkin", body: .encode(API.CheckInBody(request)), token: token,
      as: API.CheckInDocument.self
    ).checkIn
  }

  public func boardingPasses(_ request: BoardingPassesRequest, token: String) throws -> BoardingPassesResponse {
    let document = try api.call(
      "GET", "\(Self.trip(request.reservationID))/boarding-passes", token: token, as: API.BoardingPassesDocument.self)
    return BoardingPassesResponse(reservationID: request.reservationID, boardingPasses: document.boardingPasses)
  }

  public func verify(_ request: PassVerificationRequest) throws -> PassVerificationResponse {
    try api.call("POST", "/v1/boarding-passes/verify", body: .encode(request), as: PassVerificationResponse.self)
  }

  public func matchTrip(_ request: TripMatchRequest, token: String) throws -> TripMatchResponse {
    try api.call("POST", "/v1/boarding-passes/match", body: .encode(request), token: token, as: TripMatchResponse.self)
  }

  /// `/v1/trips/{id}` with the id percent-encoded as one segment.
  static func trip(_ id: String) -> String { "/v1/trips/\(RemoteAccounts.segment(id))" }
}
