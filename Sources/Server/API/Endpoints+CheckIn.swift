import Backend
import Common
import Foundation
import Transport

extension Endpoints {
  // MARK: Check-in, seats and boarding passes

  /// ``CheckInService`` on the network: the seat maps, seat choice, online check-in and boarding
  /// passes of the traveller's flight reservations, and the reading of a pass (its signature, the
  /// trip it belongs to). Refusals (`seat_taken`, `check_in_not_open`, …) are 409; a reservation
  /// that is not the caller's is 404, as for the other trip routes.
  static func checkIn(_ router: inout Router, _ backend: ServerBackend) {
    router.add("GET", "/v1/trips/{id}/seats", auth: true, "The seat map of each leg, who sits where.") { call in
      let token = try call.token()
      let request = SeatMapRequest(reservationID: call.parameters["id"] ?? "")
      return try .json(API.SeatMapsDocument(try backend.checkIn.seatMaps(request, token: token)))
    }
    router.add(
      "POST", "/v1/trips/{id}/seats", auth: true,
      "Chooses seats ({\"choices\": [{passenger, leg, seat}], \"assignRest\": true seats the others}); all or nothing."
    ) { call in
      let token = try call.token()
      let request = try call.body(API.SeatsChange.self).model(reservationID: call.parameters["id"] ?? "")
      return try .json(API.SeatAssignmentsDocument(try backend.checkIn.assignSeats(request, token: token)))
    }
    router.add(
      "POST", "/v1/trips/{id}/checkin", auth: true,
      "Checks in (all passengers, or {\"passengers\": […]}) where the window is open; issues signed boarding passes."
    ) { call in
      let token = try call.token()
      let body =
        call.request.body.isEmpty
        ? API.CheckInBody(CheckInRequest(reservationID: ""))
        : try call.body(
          API.CheckInBody.self)
      let request = body.model(reservationID: call.parameters["id"] ?? "")
      return try .json(API.CheckInDocument(try backend.checkIn.checkIn(request, token: token)))
    }
    router.add("GET", "/v1/trips/{id}/boarding-passes", auth: true, "The boarding passes issued (BCBP text).") {
      call in
      let token = try call.token()
      let request = BoardingPassesRequest(reservationID: call.parameters["id"] ?? "")
      return try .json(API.BoardingPassesDocument(try backend.checkIn.boardingPasses(request, token: token)))
    }
    router.add(
      "POST", "/v1/boarding-passes/verify", auth: false,
      "Whether a pass's security data ({\"bcbp\": \"M1…\"}) is this backend's signature."
    ) { call in
      try .json(try backend.checkIn.verify(try call.body(PassVerificationRequest.self)))
    }
    router.add(
      "POST", "/v1/boarding-passes/match", auth: true,
      "The traveller's flight reservation a pass ({\"pass\": BoardingPass}, as read) belongs to."
    ) { call in
      let token = try call.token()
      return try .json(try backend.checkIn.matchTrip(try call.body(TripMatchRequest.self), token: token))
    }
  }
}
