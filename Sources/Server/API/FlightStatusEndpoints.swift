import Common
import Foundation
import Transport

/// Live flight status over HTTP (snapshots; the changes stream on `/v1/stream`, topics
/// ``FlightStatusTopic``), answered with the documents `booking status|board --json` print:
/// - `GET /v1/flights/{flight}/status?date=YYYY-MM-DD&origin=XXX` → `{"flightStatus"}`: the
///   operation of `flight` (operating or codeshare designator) departing on local `date` (today at
///   its origin by default, else its next within a week); `origin` picks the leg of a flight
///   number that flies several.
/// - `GET /v1/airports/{code}/board?date=YYYY-MM-DD&direction=departures|arrivals` →
///   `{"board"}`: the airport's board for its local `date` (today there by default).
///
/// Errors: the service's (`flight_not_found`, `flight_not_operating` 404; `unknown_airport`,
/// `no_flights_at_place`, `date_out_of_range` 400), `invalid_flight`, `invalid_date`,
/// `invalid_direction`, `invalid_airport` (400) for malformed parameters.
enum FlightStatusEndpoints {
  static func add(to router: inout Router, service: any FlightStatusService) {
    router.add(
      "GET", "/v1/flights/{flight}/status", auth: false,
      "A flight's live status (?date= local departure date, ?origin= its departure airport)."
    ) { call in
      let text = call.parameters["flight"] ?? ""
      guard let flight = Flight(code: text.uppercased()) else {
        throw ServiceError.invalid(
          "invalid_flight",
          "invalid flight \"\(EchoedInput.escaped(text))\": expected an airline code and number like LH400")
      }
      let date = try dateValue(call.request.queryValue("date"))
      let key: FlightStatusKey
      if let origin = call.request.queryValue("origin") {
        guard let date else {
          throw ServiceError.invalid("invalid_date", "origin needs a date: give ?date=YYYY-MM-DD with ?origin=")
        }
        key = FlightStatusKey(flight: flight, date: date, origin: try airportValue(origin))
      } else {
        key = try service.operation(of: flight, date: date)
      }
      return try .json(["flightStatus": try service.status(key)])
    }
    router.add(
      "GET", "/v1/airports/{code}/board", auth: false,
      "An airport's live departures or arrivals board (?date= local date, ?direction=departures|arrivals)."
    ) { call in
      let airport = try airportValue(call.parameters["code"] ?? "")
      let date = try dateValue(call.request.queryValue("date"))
      let text = call.request.queryValue("direction") ?? "departures"
      guard let direction = BoardDirection(rawValue: text) else {
        throw ServiceError.invalid(
          "invalid_direction", "invalid direction \"\(EchoedInput.escaped(text))\": expected departures or arrivals")
      }
      return try .json(["board": try service.board(airport: airport, date: date, direction: direction)])
    }
  }

  /// `YYYY-MM-DD`, or nil when absent.
  static func dateValue(_ text: String?) throws -> LocalDate? {
    guard let text else { return nil }
    guard let date = LocalDate(text) else {
      throw ServiceError.invalid("invalid_date", "invalid date \"\(EchoedInput.escaped(text))\": expected YYYY-MM-DD")
    }
    return date
  }

  /// A three-letter IATA airport code (any case).
  static func airportValue(_ text: String) throws -> String {
    let code = text.uppercased()
    guard code.count == 3, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      throw ServiceError.invalid(
        "invalid_airport",
        "invalid airport \"\(EchoedInput.escaped(text))\": expected a three-letter IATA code like FRA")
    }
    return code
  }
}
