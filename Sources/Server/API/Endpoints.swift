import Backend
import Common
import Foundation
import Transport

/// Every route of `/v1`: the service protocols of `Common` on the network. Each handler reads the
/// wire (token, body, path), calls the backend once and encodes the answer as the document the
/// matching command prints with `--json` (see ``API``).
enum Endpoints {
  static func router(backend: ServerBackend, signIns: SignInLimiter, openAPI: @escaping @Sendable () -> Data) -> Router
  {
    var router = Router()
    account(&router, backend, signIns)
    trips(&router, backend)
    checkIn(&router, backend)
    flights(&router, backend)
    hotels(&router, backend)
    cars(&router, backend)
    ChatEndpoints.add(&router, backend, signIns)
    router.add("GET", "/v1/openapi.json", auth: false, "This API as an OpenAPI 3.1 document.") { _ in
      Reply(status: 200, body: openAPI())
    }
    return router
  }

  // MARK: Account

  static func account(_ router: inout Router, _ backend: ServerBackend, _ signIns: SignInLimiter) {
    router.add("POST", "/v1/accounts", auth: false, "Sign up: creates an account (then sign in).") { call in
      let body = try call.body(API.SignUp.self)
      try signIns.admit(address: call.request.remoteAddress, email: body.email)
      let profile = try backend.accounts.signUp(
        email: body.email, password: body.password, firstName: body.firstName, lastName: body.lastName)
      return try .json(API.ProfileDocument(profile: profile), status: 201)
    }
    router.add("POST", "/v1/sessions", auth: false, "Sign in: a session token for Authorization: Bearer.") { call in
      let body = try call.body(API.SignIn.self)
      try signIns.admit(address: call.request.remoteAddress, email: body.email)
      let session = try backend.accounts.signIn(email: body.email, password: body.password)
      let profile = try backend.accounts.profile(token: session.token)
      return try .json(API.SignedIn(session: session, profile: profile), status: 201)
    }
    router.add("GET", "/v1/session", auth: true, "Who is signed in (whoami), and until when.") { call in
      let token = try call.token()
      let session = try backend.accounts.session(token: token)
      return try .json(API.SignedIn(session: session, profile: try backend.accounts.profile(token: token)))
    }
    router.add("DELETE", "/v1/session", auth: true, "Sign out: the token stops working.") { call in
      try backend.accounts.signOut(token: try call.token())
      return try .json(API.SignedOut(signedOut: true))
    }
    router.add("GET", "/v1/profile", auth: true, "The traveller's profile.") { call in
      try .json(API.ProfileDocument(profile: try backend.accounts.profile(token: try call.token())))
    }
    router.add("PUT", "/v1/profile", auth: true, "Changes first name, last name or email.") { call in
      let token = try call.token()
      let change = try call.body(API.ProfileChange.self)
      var profile = try backend.accounts.profile(token: token)
      if let first = change.firstName { profile.firstName = first }
      if let last = change.lastName { profile.lastName = last }
      if let email = change.email { profile.email = email }
      return try .json(API.ProfileDocument(profile: try backend.accounts.updateProfile(profile, token: token)))
    }
    router.add("GET", "/v1/preferences", auth: true, "Currency, language, appearance, home airport.") { call in
      try .json(API.PreferencesDocument(try backend.accounts.preferences(token: try call.token())))
    }
    router.add("PUT", "/v1/preferences", auth: true, "Saves the preferences (all four fields).") { call in
      let token = try call.token()
      let body = try call.body(API.PreferencesDocument.self)
      return try .json(API.PreferencesDocument(try backend.accounts.updatePreferences(body.model, token: token)))
    }
    router.add("GET", "/v1/cards", auth: true, "The payment cards, the default first.") { call in
      let cards = try backend.cards.cards(token: try call.token()).sorted { $0.isDefault && !$1.isDefault }
      return try .json(API.CardsDocument(cards))
    }
    router.add("POST", "/v1/cards", auth: true, "Adds a card (the first becomes the default).") { call in
      let token = try call.token()
      let card = try call.body(API.NewCard.self)
      return try .json(API.CardDocument(try backend.cards.addCard(card.model, token: token)), status: 201)
    }
    router.add("DELETE", "/v1/cards/{id}", auth: true, "Removes a card.") { call in
      let token = try call.token()
      let id = call.parameters["id"] ?? ""
      try backend.cards.removeCard(id: id, token: token)
      return try .json(API.Removed(removed: id))
    }
    router.add("POST", "/v1/cards/{id}/default", auth: true, "Makes a card the default.") { call in
      let token = try call.token()
      return try .json(
        API.CardDocument(try backend.cards.setDefaultCard(id: call.parameters["id"] ?? "", token: token)))
    }
  }

  // MARK: Trips

  static func trips(_ router: inout Router, _ backend: ServerBackend) {
    router.add("GET", "/v1/trips", auth: true, "Every reservation, newest booking first.") { call in
      try .json(API.ReservationsDocument(try backend.reservations.reservations(token: try call.token())))
    }
    router.add("GET", "/v1/trips/{id}", auth: true, "One reservation.") { call in
      let token = try call.token()
      return try .json(
        API.ReservationDocument(try backend.reservations.reservation(id: call.parameters["id"] ?? "", token: token)))
    }
    router.add(
      "GET", "/v1/trips/{id}/cancellation", auth: true,
      "What cancelling now would cost and refund (fee, refund, deadline in the place's local time)."
    ) { call in
      let token = try call.token()
      return try .json(
        API.CancellationQuoteDocument(
          try backend.reservations.cancellationQuote(id: call.parameters["id"] ?? "", token: token)))
    }
    router.add(
      "POST", "/v1/trips/{id}/cancel", auth: true,
      "Cancels a reservation; with {\"accepting\": CancellationQuote} only at exactly that refund."
    ) { call in
      let token = try call.token()
      let accepting = call.request.body.isEmpty ? nil : try call.body(API.CancelRequest.self).accepting
      return try .json(
        API.ReservationDocument(
          try backend.reservations.cancelReservation(
            id: call.parameters["id"] ?? "", token: token, accepting: accepting)))
    }
  }

  // MARK: Flights

  static func flights(_ router: inout Router, _ backend: ServerBackend) {
    router.add("GET", "/v1/airports", auth: false, "Airports matching ?query= (code, name, city), ?limit=.") { call in
      let query = call.request.queryValue("query") ?? ""
      let limit = try limitValue(call.request.queryValue("limit"), default: 10)
      return try .json(API.AirportsDocument(try backend.flights.airports(matching: query, limit: limit)))
    }
    router.add("POST", "/v1/flights/search", auth: false, "Flight offers (priced for the signed-in traveller).") {
      call in
      let request = try call.body(FlightSearchRequest.self)
      return try RequestScope.$token.withValue(call.optionalToken) {
        try .json(API.FlightOffersDocument(try backend.flights.search(request)))
      }
    }
    router.add("GET", "/v1/flights/offers/{id}", auth: false, "One offer at today's price and seats.") { call in
      let id = try FlightOfferID(parsing: call.parameters["id"] ?? "")
      return try .json(API.OfferDocument(try backend.flights.offer(id)))
    }
    router.add("POST", "/v1/flights/bookings", auth: true, "Books an offer (Idempotency-Key header).") { call in
      let token = try call.token()
      let body = try call.body(API.FlightBooking.self)
      let request = FlightBookingRequest(
        offerID: try FlightOfferID(parsing: body.offerId), passengers: try body.passengers.map(PassengerName.init),
        cardID: body.cardId, idempotencyKey: try call.idempotencyKey(), allowDuplicate: body.allowDuplicate ?? false)
      let reservation = try RequestScope.$token.withValue(token) {
        try backend.flightBooking.book(request, token: token)
      }
      return try .json(API.ReservationDocument(reservation), status: 201)
    }
  }

  // MARK: Hotels

  static func hotels(_ router: inout Router, _ backend: ServerBackend) {
    router.add("POST", "/v1/hotels/search", auth: false, "Hotel offers near a place for a stay.") { call in
      let request = try call.body(HotelSearchRequest.self)
      return try RequestScope.$token.withValue(call.optionalToken) { try .json(try backend.hotels().search(request)) }
    }
    router.add("GET", "/v1/hotels/{id}", auth: false, "One hotel.") { call in
      try .json(API.HotelDocument(try backend.hotels().hotel(id: call.parameters["id"] ?? "")))
    }
    router.add("GET", "/v1/hotels/{id}/details", auth: false, "A hotel's description and reviews.") { call in
      try .json(API.HotelDetailsDocument(try backend.hotels().details(hotelId: call.parameters["id"] ?? "")))
    }
    router.add("POST", "/v1/hotels/rooms", auth: false, "One hotel's offers for a stay, cheapest first.") { call in
      let query = try call.body(API.RoomsQuery.self)
      return try RequestScope.$token.withValue(call.optionalToken) {
        try .json(
          API.HotelOffersDocument(
            try backend.hotels().rooms(
              hotelId: query.hotelId, checkIn: query.checkIn, checkOut: query.checkOut, guests: query.guests,
              rooms: query.rooms)))
      }
    }
    router.add("GET", "/v1/hotels/offers/{id}", auth: false, "One hotel offer re-priced now.") { call in
      try .json(API.OfferDocument(try backend.hotels().quote(offerId: call.parameters["id"] ?? "")))
    }
    router.add("POST", "/v1/hotels/map", auth: false, "Map markers (hotels or clusters) in a viewport.") { call in
      let query = try call.body(API.MapQuery.self)
      return try .json(
        API.MarkersDocument(try backend.hotels().mapMarkers(in: query.viewport, maxMarkers: query.maxMarkers)))
    }
    router.add("POST", "/v1/hotels/bookings", auth: true, "Books a hotel offer (Idempotency-Key header).") { call in
      let token = try call.token()
      let body = try call.body(API.HotelBooking.self)
      let request = HotelBookingRequest(
        offerId: body.offerId, guestName: body.guest, cardId: body.cardId, idempotencyKey: try call.idempotencyKey(),
        allowDuplicate: body.allowDuplicate ?? false)
      let reservation = try RequestScope.$token.withValue(token) { try backend.hotels().book(request, token: token) }
      return try .json(API.ReservationDocument(reservation), status: 201)
    }
  }

  // MARK: Cars

  static func cars(_ router: inout Router, _ backend: ServerBackend) {
    router.add("POST", "/v1/cars/search", auth: false, "Car offers at a place for a period.") { call in
      let query = try call.body(CarSearchQuery.self)
      return try RequestScope.$token.withValue(call.optionalToken) { try .json(try backend.cars.search(query)) }
    }
    router.add("GET", "/v1/cars/companies", auth: false, "The companies with a desk at ?pickup=PLACE.") { call in
      let place = call.request.queryValue("pickup") ?? ""
      return try .json(API.CompaniesDocument(try backend.cars.companies(at: place)))
    }
    router.add("GET", "/v1/cars/promotions", auth: false, "The promo codes with their discount and validity.") { _ in
      try .json(API.PromotionsDocument(try backend.cars.promoCodes()))
    }
    router.add("GET", "/v1/cars/places", auth: false, "Rental places starting with ?prefix=, ?limit=.") { call in
      let prefix = call.request.queryValue("prefix") ?? ""
      let limit = try limitValue(call.request.queryValue("limit"), default: 10)
      return try .json(API.PlacesDocument(backend.cars.suggestPlaces(prefix, limit: limit)))
    }
    router.add("POST", "/v1/cars/bookings", auth: true, "Books a car offer (Idempotency-Key header).") { call in
      let token = try call.token()
      let body = try call.body(API.CarBooking.self)
      let request = CarBookingRequest(
        offerID: body.offerId, driverName: body.driver, cardID: body.cardId, idempotencyKey: try call.idempotencyKey(),
        allowDuplicate: body.allowDuplicate ?? false)
      let reservation = try RequestScope.$token.withValue(token) { try backend.cars.book(request) }
      return try .json(API.ReservationDocument(reservation), status: 201)
    }
  }

  /// `?limit=` as 1–1000.
  static func limitValue(_ text: String?, default value: Int) throws -> Int {
    guard let text else { return value }
    guard let limit = Int(text), (1...1000).contains(limit) else {
      throw ServiceError.invalid("invalid_limit", "invalid limit \"\(text)\": expected a whole number from 1 to 1000")
    }
    return limit
  }
}
