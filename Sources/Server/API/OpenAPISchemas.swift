import Common
import Foundation

/// The JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the documents of ``Common/API``. Objects
/// list the members every answer has (`required`) and allow more (documents grow compatibly).
enum OpenAPISchemas {
  static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }
  static func object(_ properties: [String: [String: Any]], required: [String]) -> [String: Any] {
    ["type": "object", "properties": properties, "required": required]
  }
  static func array(_ items: [String: Any]) -> [String: Any] { ["type": "array", "items": items] }
  static var string: [String: Any] { ["type": "string"] }
  static var nullableString: [String: Any] { ["type": ["string", "null"]] }
  static var integer: [String: Any] { ["type": "integer"] }
  static var number: [String: Any] { ["type": "number"] }
  static var boolean: [String: Any] { ["type": "boolean"] }
  static var date: [String: Any] { ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"] }
  static var dateTime: [String: Any] { ["type": "string", "format": "date-time"] }
  static var anyObject: [String: Any] { ["type": "object"] }
  static var airportCode: [String: Any] { ["type": "string", "pattern": "^[A-Za-z0-9]{3}$"] }

  /// Live flight status (`Common.FlightStatus`, `FlightBoard`): the documents of
  /// `GET /v1/flights/{flight}/status` and `GET /v1/airports/{code}/board`, as the stream's
  /// `flight.snapshot` and `board.snapshot` events carry them. Times are ISO 8601 with the
  /// airport's offset; `status` is one of ``Common/FlightStatusCode``.
  static var flightStatus: [String: Any] {
    let upper: [String: Any] = ["type": "string", "pattern": "^[A-Z0-9]{3}$"]
    let flight: [String: Any] = ["type": "string", "pattern": "^[A-Z0-9]{2}[0-9]{1,4}$"]
    let times = object(["scheduled": dateTime, "estimated": dateTime, "actual": dateTime], required: ["scheduled"])
    let end = object(
      ["airport": upper, "timeZone": string, "terminal": string, "gate": string, "baggageBelt": string],
      required: ["airport", "timeZone"])
    let key = object(["flight": flight, "date": date, "origin": upper], required: ["flight", "date", "origin"])
    return [
      "FlightStatus": object(
        [
          "flight": flight, "date": date, "origin": upper, "destination": upper, "codeshares": array(flight),
          "status": ["type": "string", "enum": FlightStatusCode.allCases.map(\.rawValue)],
          "departure": end, "arrival": end, "gateDeparture": times, "runwayDeparture": times,
          "runwayArrival": times, "gateArrival": times, "departureDelayMinutes": integer,
          "arrivalDelayMinutes": integer,
          "delays": array(
            object(
              ["code": ["type": "integer", "minimum": 0, "maximum": 99], "minutes": integer, "reason": string],
              required: ["code", "minutes"])),
          "divertedTo": upper, "divertedToTimeZone": string, "aircraft": string, "aircraftName": string, "inbound": key,
          "sequence": ["type": "integer", "minimum": 0], "updatedAt": dateTime,
        ],
        required: [
          "flight", "date", "origin", "destination", "codeshares", "status", "departure", "arrival", "gateDeparture",
          "runwayDeparture", "runwayArrival", "gateArrival", "delays", "aircraft", "sequence",
        ]),
      "FlightStatusDocument": object(["flightStatus": ref("FlightStatus")], required: ["flightStatus"]),
      "FlightBoard": object(
        [
          "airport": upper, "airportName": string, "city": string, "timeZone": string, "date": date,
          "direction": ["type": "string", "enum": BoardDirection.allCases.map(\.rawValue)],
          "flights": array(ref("FlightStatus")), "sequence": ["type": "integer", "minimum": 0], "asOf": dateTime,
        ],
        required: ["airport", "airportName", "city", "timeZone", "date", "direction", "flights", "sequence", "asOf"]),
      "FlightBoardDocument": object(["board": ref("FlightBoard")], required: ["board"]),
    ]
  }

  static var all: [String: Any] {
    let documents: [String: Any] = [
      "Error": object(
        ["error": object(["code": string, "message": string], required: ["code", "message"])], required: ["error"]),
      "Status": object(["status": string], required: ["status"]),
      "OpenAPI": object(["openapi": string], required: ["openapi"]),
      "Any": anyObject,
      "Money": object(
        [
          "amount": ["type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"],
          "currency": ["type": "string", "pattern": "^[A-Z]{3}$"],
        ],
        required: ["amount", "currency"]),
      "SignUp": object(
        ["email": string, "password": string, "firstName": string, "lastName": string],
        required: ["email", "password", "firstName", "lastName"]),
      "SignIn": object(["email": string, "password": string], required: ["email", "password"]),
      "Profile": object(
        ["firstName": string, "lastName": string, "email": string], required: ["firstName", "lastName", "email"]),
      "ProfileDocument": object(["profile": ref("Profile")], required: ["profile"]),
      "ProfileChange": object(["firstName": string, "lastName": string, "email": string], required: []),
      "SignedIn": object(
        [
          "session": object(
            ["token": string, "email": string, "expiresAt": dateTime], required: ["token", "email", "expiresAt"]),
          "profile": ref("Profile"),
        ], required: ["session"]),
      "SignedOut": object(["signedOut": boolean], required: ["signedOut"]),
      "Removed": object(["removed": string], required: ["removed"]),
      "PreferencesDocument": object(
        [
          "preferences": object(
            [
              "currency": string, "language": string,
              "appearance": ["type": "string", "enum": ["light", "dark", "system"]],
              "homeAirport": nullableString,
            ], required: ["currency", "language", "appearance"])
        ], required: ["preferences"]),
      "Card": object(
        [
          "id": string, "brand": string, "last4": string, "expiry": string, "expiryMonth": integer,
          "expiryYear": integer,
          "isDefault": boolean, "display": string,
        ], required: ["id", "brand", "last4", "expiry", "expiryMonth", "expiryYear", "isDefault", "display"]),
      "CardsDocument": object(["cards": array(ref("Card"))], required: ["cards"]),
      "CardDocument": object(["card": ref("Card")], required: ["card"]),
      "NewCard": object(
        ["number": string, "expiryMonth": integer, "expiryYear": integer, "cvc": string],
        required: ["number", "expiryMonth", "expiryYear", "cvc"]),
      "Reservation": object(
        [
          "id": string, "kind": ["type": "string", "enum": ["flight", "hotel", "car"]],
          "status": ["type": "string", "enum": ["confirmed", "cancelled"]], "total": ref("Money"), "summary": string,
          "locator": string, "createdAt": dateTime, "startsAt": dateTime, "endsAt": dateTime, "cancelledAt": dateTime,
          "refunded": ref("Money"), "details": anyObject,
        ], required: ["id", "kind", "status", "total", "summary", "createdAt", "details"]),
      "ReservationDocument": object(["reservation": ref("Reservation")], required: ["reservation"]),
      "CancellationQuote": object(
        [
          "reservationId": string, "total": ref("Money"), "fee": ref("Money"), "refund": ref("Money"),
          "deadline": ["type": ["string", "null"], "format": "date-time"], "deadlinePassed": ["type": "boolean"],
          "timeZone": ["type": ["string", "null"]], "rule": string, "policy": string,
          "card": ["type": ["string", "null"]], "quotedAt": dateTime,
        ], required: ["reservationId", "total", "fee", "refund", "rule", "policy", "quotedAt"]),
      "CancellationQuoteDocument": object(["quote": ref("CancellationQuote")], required: ["quote"]),
      "CancelRequest": object(["accepting": ref("CancellationQuote")], required: []),
      "ReservationsDocument": object(["reservations": array(ref("Reservation"))], required: ["reservations"]),
      "FlightSearchRequest": object(
        [
          "origin": string, "destination": string, "departureDate": date, "returnDate": date, "adults": integer,
          "cabin": ["type": "string", "enum": ["economy", "premium", "business", "first"]], "maxStops": integer,
          "sort": ["type": "string", "enum": ["price", "duration", "departure"]], "limit": integer, "currency": string,
        ], required: ["origin", "destination", "departureDate", "adults", "cabin", "maxStops", "sort", "limit"]),
      "FlightOffer": object(
        [
          "id": string, "price": ref("Money"), "stops": integer, "durationMinutes": integer, "seatsAvailable": integer,
          "segments": array(anyObject), "cabin": string, "adults": integer, "itineraries": array(anyObject),
          "pricePerPassenger": anyObject, "fare": anyObject,
        ], required: ["id", "price", "stops", "durationMinutes", "seatsAvailable", "segments"]),
      "FlightOffersDocument": object(["offers": array(ref("FlightOffer"))], required: ["offers"]),
      "FlightOfferDocument": object(["offer": ref("FlightOffer")], required: ["offer"]),
      "FlightBooking": object(
        ["offerId": string, "passengers": array(string), "cardId": string], required: ["offerId", "passengers"]),
      "Airport": object(
        ["iata": string, "name": string, "city": string, "country": string, "timeZone": string],
        required: ["iata", "name", "city", "country", "timeZone"]),
      "AirportsDocument": object(["airports": array(ref("Airport"))], required: ["airports"]),
      "HotelSearchRequest": anyObject,
      "HotelOffer": object(
        [
          "id": string, "hotelId": string, "name": string, "stars": integer, "latitude": number, "longitude": number,
          "distanceKm": number, "roomType": string, "nights": integer, "roomsAvailable": integer,
          "nightlyRate": ref("Money"), "total": ref("Money"),
        ],
        required: [
          "id", "hotelId", "name", "stars", "latitude", "longitude", "distanceKm", "roomType", "nights",
          "roomsAvailable",
          "nightlyRate", "total",
        ]),
      "HotelSearchResult": object(
        ["offers": array(ref("HotelOffer")), "center": anyObject, "radiusKm": number, "matched": integer],
        required: ["offers", "center", "radiusKm", "matched"]),
      "HotelOffersDocument": object(["offers": array(ref("HotelOffer"))], required: ["offers"]),
      "HotelOfferDocument": object(["offer": ref("HotelOffer")], required: ["offer"]),
      "HotelDocument": object(["hotel": anyObject], required: ["hotel"]),
      "HotelDetailsDocument": object(["details": anyObject], required: ["details"]),
      "RoomsQuery": object(
        ["hotelId": string, "checkIn": date, "checkOut": date, "guests": integer, "rooms": integer],
        required: ["hotelId", "checkIn", "checkOut", "guests", "rooms"]),
      "MapQuery": object(["viewport": anyObject, "maxMarkers": integer], required: ["viewport", "maxMarkers"]),
      "MarkersDocument": object(["markers": array(anyObject)], required: ["markers"]),
      "HotelBooking": object(["offerId": string, "guest": string, "cardId": string], required: ["offerId", "guest"]),
      "CarSearchQuery": object(
        [
          "pickupPlace": string, "dropoffPlace": string, "pickup": string, "dropoff": string, "classPattern": string,
          "company": string, "promoCode": string, "limit": integer,
        ], required: ["pickupPlace", "pickup", "dropoff"]),
      "CarOffer": object(
        [
          "id": string, "company": string, "acriss": string, "category": string, "pickup": string, "dropoff": string,
          "days": integer, "carsAvailable": integer, "total": ref("Money"), "discounts": array(anyObject),
        ],
        required: [
          "id", "company", "acriss", "category", "pickup", "dropoff", "days", "carsAvailable", "total", "discounts",
        ]),
      "CarSearchResult": object(
        ["offers": array(ref("CarOffer")), "notices": array(string), "currency": string],
        required: ["offers", "notices", "currency"]),
      "CompaniesDocument": object(["companies": array(anyObject)], required: ["companies"]),
      "PromotionsDocument": object(["promotions": array(anyObject)], required: ["promotions"]),
      "PlacesDocument": object(
        ["places": array(object(["code": string, "label": string], required: ["code", "label"]))], required: ["places"]),
      "CarBooking": object(["offerId": string, "driver": string, "cardId": string], required: ["offerId", "driver"]),
    ]
    return documents.merging(checkIn) { first, _ in first }.merging(flightStatus) { first, _ in first }
  }

  /// Check-in, seats and boarding passes (`/v1/trips/{id}/seats`, `…/checkin`, `…/boarding-passes`,
  /// `/v1/boarding-passes/…`).
  static var checkIn: [String: Any] {
    let seat: [String: Any] = ["type": "string", "pattern": "^[0-9]{1,3}[A-Z]$"]
    let flight = object(["carrier": string, "number": integer], required: ["carrier", "number"])
    let assignment = object(
      [
        "passenger": string, "leg": integer, "flight": flight, "date": date, "from": string, "to": string,
        "seat": seat, "checkedIn": boolean, "sequence": integer,
      ], required: ["passenger", "leg", "flight", "date", "from", "to", "checkedIn"])
    let pass = object(
      ["passenger": string, "direction": integer, "legs": array(integer), "bcbp": string, "issuedAt": dateTime],
      required: ["passenger", "direction", "legs", "bcbp", "issuedAt"])
    return [
      "SeatAssignment": assignment,
      "IssuedBoardingPass": pass,
      "SeatMapsDocument": object(
        [
          "reservationId": string, "passengers": array(string),
          "legs": array(
            object(
              [
                "leg": integer, "flight": flight, "date": date, "from": string, "to": string,
                "cabin": ["type": "string", "enum": ["economy", "premium", "business", "first"]], "map": anyObject,
                "taken": array(seat), "assignments": array(ref("SeatAssignment")),
              ], required: ["leg", "flight", "date", "from", "to", "cabin", "map", "taken", "assignments"])),
        ], required: ["reservationId", "passengers", "legs"]),
      "SeatsChange": object(
        [
          "choices": array(
            object(["passenger": string, "leg": integer, "seat": seat], required: ["passenger", "leg", "seat"])),
          "assignRest": boolean,
        ], required: ["choices"]),
      "SeatAssignmentsDocument": object(
        ["reservationId": string, "assignments": array(ref("SeatAssignment"))],
        required: ["reservationId", "assignments"]),
      "CheckInBody": object(
        [
          "passengers": array(string),
          "seats": array(
            object(
              ["passenger": string, "seats": array(["type": ["string", "null"]])], required: ["passenger", "seats"])),
        ], required: []),
      "CheckInDocument": object(
        [
          "checkIn": object(
            [
              "reservationID": string, "direction": integer, "assignments": array(ref("SeatAssignment")),
              "boardingPasses": array(ref("IssuedBoardingPass")),
            ], required: ["reservationID", "direction", "assignments", "boardingPasses"])
        ], required: ["checkIn"]),
      "BoardingPassesDocument": object(
        ["boardingPasses": array(ref("IssuedBoardingPass"))], required: ["boardingPasses"]),
      "PassVerificationRequest": object(["bcbp": string], required: ["bcbp"]),
      "PassVerification": object(
        ["signature": ["type": "string", "enum": ["valid", "unknown", "absent"]], "reason": string],
        required: ["signature", "reason"]),
      "TripMatchRequest": object(["pass": anyObject], required: ["pass"]),
      "TripMatch": object(
        [
          "reservation": ref("Reservation"), "legs": array(["type": ["integer", "null"]]),
          "flightDates": array(["type": ["string", "null"]]),
        ], required: ["legs", "flightDates"]),
    ]
  }
}
