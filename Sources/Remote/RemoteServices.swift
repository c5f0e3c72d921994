import Common
import Foundation
import Reactive

/// Accounts, cards and trips of a `travel-server` (`/v1/accounts`, `/v1/sessions`, `/v1/profile`,
/// `/v1/preferences`, `/v1/cards`, `/v1/trips`): ``AccountService``, ``PaymentCardService`` and
/// ``ReservationService`` over HTTP. Errors are the server's ``ServiceError``s, or
/// `server_unreachable`.
public struct RemoteAccounts: AccountService, PaymentCardService, ReservationService {
  let api: APIClient

  public init(api: APIClient) { self.api = api }

  public func signUp(email: String, password: String, firstName: String, lastName: String) throws -> UserProfile {
    try api.call(
      "POST", "/v1/accounts",
      body: .encode(API.SignUp(email: email, password: password, firstName: firstName, lastName: lastName)),
      as: API.ProfileDocument.self
    ).profile
  }

  public func signIn(email: String, password: String) throws -> Session {
    try api.call(
      "POST", "/v1/sessions", body: .encode(API.SignIn(email: email, password: password)), as: API.SignedIn.self
    )
    .model
  }

  public func signOut(token: String) throws {
    _ = try api.call("DELETE", "/v1/session", token: token, as: API.SignedOut.self)
  }

  public func session(token: String) throws -> Session {
    try api.call("GET", "/v1/session", token: token, as: API.SignedIn.self).model
  }

  public func profile(token: String) throws -> UserProfile {
    try api.call("GET", "/v1/profile", token: token, as: API.ProfileDocument.self).profile
  }

  public func updateProfile(_ profile: UserProfile, token: String) throws -> UserProfile {
    let change = API.ProfileChange(firstName: profile.firstName, lastName: profile.lastName, email: profile.email)
    return try api.call("PUT", "/v1/profile", body: .encode(change), token: token, as: API.ProfileDocument.self).profile
  }

  public func preferences(token: String) throws -> Preferences {
    try api.call("GET", "/v1/preferences", token: token, as: API.PreferencesDocument.self).model
  }

  public func updatePreferences(_ preferences: Preferences, token: String) throws -> Preferences {
    try api.call(
      "PUT", "/v1/preferences", body: .encode(API.PreferencesDocument(preferences)), token: token,
      as: API.PreferencesDocument.self
    ).model
  }

  public func cards(token: String) throws -> [PaymentCard] {
    try api.call("GET", "/v1/cards", token: token, as: API.CardsDocument.self).cards.map(\.model)
  }

  public func addCard(_ card: NewPaymentCard, token: String) throws -> PaymentCard {
    try api.call("POST", "/v1/cards", body: .encode(API.NewCard(card)), token: token, as: API.CardDocument.self).card
      .model
  }

  public func removeCard(id: String, token: String) throws {
    _ = try api.call("DELETE", "/v1/cards/\(Self.segment(id))", token: token, as: API.Removed.self)
  }

  public func setDefaultCard(id: String, token: String) throws -> PaymentCard {
    try api.call("POST", "/v1/cards/\(Self.segment(id))/default", token: token, as: API.CardDocument.self).card.model
  }

  public func reservations(token: String) throws -> [Reservation] {
    try reservationsPublisher(token: token).wait(api)
  }

  /// The trips list as a publisher (the classic chain; ``reservations(token:)`` waits for it).
  public func reservationsPublisher(token: String) -> AnyPublisher<[Reservation], ServiceError> {
    api.publisher("GET", "/v1/trips", token: token, as: API.ReservationsDocument.self)
      .map(\.reservations)
      .eraseToAnyPublisher()
  }

  public func reservation(id: String, token: String) throws -> Reservation {
    try api.call("GET", "/v1/trips/\(Self.segment(id))", token: token, as: API.ReservationDocument.self).reservation
  }

  public func cancellationQuote(id: String, token: String) throws -> CancellationQuote {
    try api.call(
      "GET", "/v1/trips/\(Self.segment(id))/cancellation", token: token, as: API.CancellationQuoteDocument.self
    ).quote
  }

  public func cancelReservation(id: String, token: String, accepting quote: CancellationQuote?) throws -> Reservation {
    try api.call(
      "POST", "/v1/trips/\(Self.segment(id))/cancel", body: .encode(API.CancelRequest(accepting: quote)),
      token: token, as: API.ReservationDocument.self
    ).reservation
  }

  /// An id as one path segment (percent-encoded).
  static func segment(_ id: String) -> String {
    id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id
  }
}

/// Flights of a `travel-server` (`/v1/airports`, `/v1/flights/…`): search, re-pricing, booking.
/// Searches send the session's token when there is one, so prices come in the traveller's currency.
public struct RemoteFlights: FlightSearching, FlightBooking {
  let api: APIClient

  public init(api: APIClient) { self.api = api }

  public func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    try api.call(
      "GET", "/v1/airports", query: [("query", query), ("limit", "\(limit)")], as: API.AirportsDocument.self
    ).airports
  }

  public func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
    try searchPublisher(request).wait(api)
  }

  /// The search as a publisher: `dataTaskPublisher → map(\.data) → decode → map(\.offers)`.
  public func searchPublisher(_ request: FlightSearchRequest) -> AnyPublisher<[FlightOffer], ServiceError> {
    api.publisher(
      "POST", "/v1/flights/search", body: .encode(request), token: api.token(), as: API.FlightOffersDocument.self
    )
    .map(\.offers)
    .eraseToAnyPublisher()
  }

  public func offer(_ id: FlightOfferID) throws -> FlightOffer {
    try api.call(
      "GET", "/v1/flights/offers/\(RemoteAccounts.segment(id.description))",
      as: API.OfferDocument<FlightOffer>.self
    ).offer
  }

  public func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    let body = API.FlightBooking(
      offerId: request.offerID.description, passengers: request.passengers.map(\.description), cardId: request.cardID,
      allowDuplicate: request.allowDuplicate ? true : nil)
    return try api.call(
      "POST", "/v1/flights/bookings", body: .encode(body), token: token, idempotencyKey: request.idempotencyKey,
      as: API.ReservationDocument.self
    ).reservation
  }
}

/// Hotels of a `travel-server` (`/v1/hotels/…`).
public struct RemoteHotels: HotelService {
  let api: APIClient

  public init(api: APIClient) { self.api = api }

  public func search(_ request: HotelSearchRequest) throws -> HotelSearchResult {
    try api.call("POST", "/v1/hotels/search", body: .encode(request), token: api.token(), as: HotelSearchResult.self)
  }

  public func hotel(id: String) throws -> Hotel {
    try api.call("GET", "/v1/hotels/\(RemoteAccounts.segment(id))", as: API.HotelDocument.self).hotel
  }

  public func details(hotelId: String) throws -> HotelDetails {
    try api.call("GET", "/v1/hotels/\(RemoteAccounts.segment(hotelId))/details", as: API.HotelDetailsDocument.self)
      .details
  }

  public func rooms(hotelId: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int) throws
    -> [HotelOffer]
  {
    let query = API.RoomsQuery(hotelId: hotelId, checkIn: checkIn, checkOut: checkOut, guests: guests, rooms: rooms)
    return try api.call(
      "POST", "/v1/hotels/rooms", body: .encode(query), token: api.token(), as: API.HotelOffersDocument.self
    ).offers
  }

  public func quote(offerId: String) throws -> HotelOffer {
    try api.call(
      "GET", "/v1/hotels/offers/\(RemoteAccounts.segment(offerId))", token: api.token(),
      as: API.OfferDocument<HotelOffer>.self
    ).offer
  }

  public func book(_ request: HotelBookingRequest, token: String) throws -> Reservation {
    let body = API.HotelBooking(
      offerId: request.offerId, guest: request.guestName, cardId: request.cardId,
      allowDuplicate: request.allowDuplicate ? true : nil)
    return try api.call(
      "POST", "/v1/hotels/bookings", body: .encode(body), token: token, idempotencyKey: request.idempotencyKey,
      as: API.ReservationDocument.self
    ).reservation
  }

  public func mapMarkers(in viewport: GeoRect, maxMarkers: Int) throws -> [HotelMapMarker] {
    try api.call(
      "POST", "/v1/hotels/map", body: .encode(API.MapQuery(viewport: viewport, maxMarkers: maxMarkers)),
      as: API.MarkersDocument.self
    ).markers
  }
}

/// Rental cars of a `travel-server` (`/v1/cars/…`). The session's token goes with every call
/// (member discount, currency, who books), like the embedded service reads the session file.
public struct RemoteCars: CarRentalService {
  let api: APIClient

  public init(api: APIClient) { self.api = api }

  public func search(_ query: CarSearchQuery) throws -> CarSearchResult {
    try api.call("POST", "/v1/cars/search", body: .encode(query), token: api.token(), as: CarSearchResult.self)
  }

  public func companies(at place: String) throws -> [CompanyAtPlace] {
    try api.call("GET", "/v1/cars/companies", query: [("pickup", place)], as: API.CompaniesDocument.self).companies
  }

  public func promoCodes() throws -> [PromoCode] {
    try api.call("GET", "/v1/cars/promotions", as: API.PromotionsDocument.self).promotions
  }

  public func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion] {
    (try? api.call(
      "GET", "/v1/cars/places", query: [("prefix", prefix), ("limit", "\(max(1, min(limit, 1000)))")],
      as: API.PlacesDocument.self
    ).places) ?? []
  }

  public func book(_ request: CarBookingRequest) throws -> Reservation {
    guard let token = api.token() else { throw ServiceError.notSignedIn }
    return try api.call(
      "POST", "/v1/cars/bookings",
      body: .encode(
        API.CarBooking(
          offerId: request.offerID, driver: request.driverName, cardId: request.cardID,
          allowDuplicate: request.allowDuplicate ? true : nil)),
      token: token, idempotencyKey: request.idempotencyKey, as: API.ReservationDocument.self
    ).reservation
  }
}

extension AnyPublisher where Failure == ServiceError {
  /// Waits for the one value (the synchronous protocols over the publisher).
  func wait(_ api: APIClient) throws -> Output { try api.value(self) }
}
