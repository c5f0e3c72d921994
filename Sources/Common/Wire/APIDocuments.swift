import Foundation

/// The JSON documents of the HTTP API (`travel-server`, `/v1/…`): request bodies and answers.
///
/// `Server` encodes them and `Remote` decodes them, so both sides share one definition. Every
/// answer is the document the matching command prints with `--json` (CLI.md): the same top-level
/// key (`offers`, `reservation`, `profile`, …) and, for every member the command prints, the same
/// name, type and format. Where a client needs the whole model (a car offer's price lines, a
/// hotel offer's nightly rates), the element carries the model's further members too. Errors are
/// `{"error": {"code", "message", …details}}`, as with `--json`. Keys are camelCase; money is
/// `{"amount": "123.45", "currency": "USD"}`; instants are ISO 8601.
public enum API {
  /// The path prefix of every route of this version.
  public static let prefix = "/v1"

  // MARK: Requests

  /// `POST /v1/accounts`.
  public struct SignUp: Codable, Sendable, Hashable {
    public var email: String
    public var password: String
    public var firstName: String
    public var lastName: String
    public init(email: String, password: String, firstName: String, lastName: String) {
      self.email = email
      self.password = password
      self.firstName = firstName
      self.lastName = lastName
    }
  }

  /// `POST /v1/sessions`.
  public struct SignIn: Codable, Sendable, Hashable {
    public var email: String
    public var password: String
    public init(email: String, password: String) {
      self.email = email
      self.password = password
    }
  }

  /// `PUT /v1/profile`: the fields to change (absent: unchanged).
  public struct ProfileChange: Codable, Sendable, Hashable {
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public init(firstName: String? = nil, lastName: String? = nil, email: String? = nil) {
      self.firstName = firstName
      self.lastName = lastName
      self.email = email
    }
  }

  /// `POST /v1/cards`: the card as typed (the number and CVC are never stored in clear or logged).
  public struct NewCard: Codable, Sendable, Hashable {
    public var number: String
    public var expiryMonth: Int
    public var expiryYear: Int
    public var cvc: String
    public init(_ card: NewPaymentCard) {
      number = card.number
      expiryMonth = card.expiryMonth
      expiryYear = card.expiryYear
      cvc = card.cvc
    }
    public var model: NewPaymentCard {
      NewPaymentCard(number: number, expiryMonth: expiryMonth, expiryYear: expiryYear, cvc: cvc)
    }
  }

  /// `POST /v1/flights/bookings` (with an `Idempotency-Key` header).
  public struct FlightBooking: Codable, Sendable, Hashable {
    public var offerId: String
    /// One `"Given Family"` per adult of the offer.
    public var passengers: [String]
    public var cardId: String?
    /// Book although a passenger already holds a seat on one of the flights (else `duplicate_booking`).
    public var allowDuplicate: Bool?
    public init(offerId: String, passengers: [String], cardId: String?, allowDuplicate: Bool? = nil) {
      self.offerId = offerId
      self.passengers = passengers
      self.cardId = cardId
      self.allowDuplicate = allowDuplicate
    }
  }

  /// `POST /v1/hotels/bookings` (with an `Idempotency-Key` header).
  public struct HotelBooking: Codable, Sendable, Hashable {
    public var offerId: String
    public var guest: String
    public var cardId: String?
    public var allowDuplicate: Bool?
    public init(offerId: String, guest: String, cardId: String?, allowDuplicate: Bool? = nil) {
      self.offerId = offerId
      self.guest = guest
      self.cardId = cardId
      self.allowDuplicate = allowDuplicate
    }
  }

  /// `POST /v1/cars/bookings` (with an `Idempotency-Key` header).
  public struct CarBooking: Codable, Sendable, Hashable {
    public var offerId: String
    public var driver: String
    public var cardId: String?
    public var allowDuplicate: Bool?
    public init(offerId: String, driver: String, cardId: String?, allowDuplicate: Bool? = nil) {
      self.offerId = offerId
      self.driver = driver
      self.cardId = cardId
      self.allowDuplicate = allowDuplicate
    }
  }

  /// `POST /v1/hotels/rooms`.
  public struct RoomsQuery: Codable, Sendable, Hashable {
    public var hotelId: String
    public var checkIn: LocalDate
    public var checkOut: LocalDate
    public var guests: Int
    public var rooms: Int
    public init(hotelId: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int) {
      self.hotelId = hotelId
      self.checkIn = checkIn
      self.checkOut = checkOut
      self.guests = guests
      self.rooms = rooms
    }
  }

  /// `POST /v1/hotels/map`.
  public struct MapQuery: Codable, Sendable, Hashable {
    public var viewport: GeoRect
    public var maxMarkers: Int
    public init(viewport: GeoRect, maxMarkers: Int) {
      self.viewport = viewport
      self.maxMarkers = maxMarkers
    }
  }

  // MARK: Answers

  /// A session as `login --json` shows it, with the token the API needs:
  /// `{"session": {"token", "email", "expiresAt"}, "profile": …}`.
  public struct SignedIn: Codable, Sendable, Hashable {
    public struct Body: Codable, Sendable, Hashable {
      public var token: String
      public var email: String
      public var expiresAt: Date
    }
    public var session: Body
    public var profile: UserProfile?
    public init(session: Session, profile: UserProfile) {
      self.session = Body(token: session.token, email: profile.email, expiresAt: session.expiresAt)
      self.profile = profile
    }
    public var model: Session { Session(token: session.token, expiresAt: session.expiresAt) }
  }

  /// `{"profile": {"firstName", "lastName", "email"}}`.
  public struct ProfileDocument: Codable, Sendable, Hashable {
    public var profile: UserProfile
    public init(profile: UserProfile) { self.profile = profile }
  }

  /// `{"preferences": {"currency", "language", "appearance", "homeAirport"}}` (`homeAirport` null when unset).
  public struct PreferencesDocument: Codable, Sendable, Hashable {
    public struct Body: Codable, Sendable, Hashable {
      public var currency: String
      public var language: String
      public var appearance: Appearance
      public var homeAirport: String?

      public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(language, forKey: .language)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(homeAirport, forKey: .homeAirport)
      }
      enum CodingKeys: String, CodingKey { case currency, language, appearance, homeAirport }
    }
    public var preferences: Body
    public init(_ preferences: Preferences) {
      self.preferences = Body(
        currency: preferences.currencyCode, language: preferences.language, appearance: preferences.appearance,
        homeAirport: preferences.homeAirport)
    }
    public var model: Preferences {
      Preferences(
        currencyCode: preferences.currency, language: preferences.language, appearance: preferences.appearance,
        homeAirport: preferences.homeAirport)
    }
  }

  /// A card as `cards list --json` shows it: `{"id", "brand", "last4", "expiry": "MM/YY",
  /// "expiryMonth", "expiryYear", "isDefault", "display"}`.
  public struct Card: Codable, Sendable, Hashable {
    public var id: String
    public var brand: String
    public var last4: String
    public var expiry: String
    public var expiryMonth: Int
    public var expiryYear: Int
    public var isDefault: Bool
    public var display: String
    public init(_ card: PaymentCard) {
      id = card.id
      brand = card.brand
      last4 = card.last4
      expiryMonth = card.expiryMonth
      expiryYear = card.expiryYear
      expiry = String(format: "%02d/%02d", card.expiryMonth, card.expiryYear % 100)
      isDefault = card.isDefault
      display = PaymentCardValidation.masked(
        brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4)
    }
    public var model: PaymentCard {
      PaymentCard(
        id: id, brand: brand, last4: last4, expiryMonth: expiryMonth, expiryYear: expiryYear, isDefault: isDefault)
    }
  }

  /// `{"cards": [Card]}`.
  public struct CardsDocument: Codable, Sendable, Hashable {
    public var cards: [Card]
    public init(_ cards: [PaymentCard]) { self.cards = cards.map(Card.init) }
  }

  /// `{"card": Card}`.
  public struct CardDocument: Codable, Sendable, Hashable {
    public var card: Card
    public init(_ card: PaymentCard) { self.card = Card(card) }
  }

  /// `{"reservation": Reservation}`.
  public struct ReservationDocument: Codable, Sendable, Hashable {
    public var reservation: Reservation
    public init(_ reservation: Reservation) { self.reservation = reservation }
  }

  /// `{"quote": CancellationQuote}`: what cancelling now would cost and refund.
  public struct CancellationQuoteDocument: Codable, Sendable, Hashable {
    public var quote: CancellationQuote
    public init(_ quote: CancellationQuote) { self.quote = quote }
  }

  /// The body of `POST /v1/trips/{id}/cancel`: `{"accepting": CancellationQuote}` cancels only at
  /// exactly that quote's refund (`cancellation_terms_changed` otherwise); an empty body or no
  /// `accepting` cancels at the terms that apply now.
  public struct CancelRequest: Codable, Sendable, Hashable {
    public var accepting: CancellationQuote?
    public init(accepting: CancellationQuote?) { self.accepting = accepting }
  }

  /// `{"reservations": [Reservation]}`, newest booking first.
  public struct ReservationsDocument: Codable, Sendable, Hashable {
    public var reservations: [Reservation]
    public init(_ reservations: [Reservation]) { self.reservations = reservations }
  }

  /// `{"offers": [FlightOffer]}`.
  public struct FlightOffersDocument: Codable, Sendable, Hashable {
    public var offers: [FlightOffer]
    public init(_ offers: [FlightOffer]) { self.offers = offers }
  }

  /// `{"offer": …}` of one offer re-priced.
  public struct OfferDocument<Offer: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var offer: Offer
    public init(_ offer: Offer) { self.offer = offer }
  }

  /// `{"airports": [AirportSummary]}`.
  public struct AirportsDocument: Codable, Sendable, Hashable {
    public var airports: [AirportSummary]
    public init(_ airports: [AirportSummary]) { self.airports = airports }
  }

  /// `{"hotel": Hotel}`.
  public struct HotelDocument: Codable, Sendable, Hashable {
    public var hotel: Hotel
    public init(_ hotel: Hotel) { self.hotel = hotel }
  }

  /// `{"details": HotelDetails}`.
  public struct HotelDetailsDocument: Codable, Sendable, Hashable {
    public var details: HotelDetails
    public init(_ details: HotelDetails) { self.details = details }
  }

  /// `{"offers": [HotelOffer]}` of one hotel's rooms.
  public struct HotelOffersDocument: Codable, Sendable, Hashable {
    public var offers: [HotelOffer]
    public init(_ offers: [HotelOffer]) { self.offers = offers }
  }

  /// `{"markers": [HotelMapMarker]}`.
  public struct MarkersDocument: Codable, Sendable, Hashable {
    public var markers: [HotelMapMarker]
    public init(_ markers: [HotelMapMarker]) { self.markers = markers }
  }

  /// `{"promotions": [PromoCode]}`: every promo code with its discount, validity and companies.
  public struct PromotionsDocument: Codable, Sendable, Hashable {
    public var promotions: [PromoCode]
    public init(_ promotions: [PromoCode]) { self.promotions = promotions }
  }

  /// `{"companies": [CompanyAtPlace]}`.
  public struct CompaniesDocument: Codable, Sendable, Hashable {
    public var companies: [CompanyAtPlace]
    public init(_ companies: [CompanyAtPlace]) { self.companies = companies }
  }

  /// `{"places": [CarPlaceSuggestion]}`.
  public struct PlacesDocument: Codable, Sendable, Hashable {
    public var places: [CarPlaceSuggestion]
    public init(_ places: [CarPlaceSuggestion]) { self.places = places }
  }

  /// `{"signedOut": true}`, `{"removed": "card_…"}` and other one-fact answers.
  public struct SignedOut: Codable, Sendable, Hashable {
    public var signedOut: Bool
    public init(signedOut: Bool) { self.signedOut = signedOut }
  }

  public struct Removed: Codable, Sendable, Hashable {
    public var removed: String
    public init(removed: String) { self.removed = removed }
  }

  /// `{"error": {"code", "message", …details}}`.
  public struct ErrorDocument: Codable, Sendable, Hashable {
    public var error: [String: String]
    public init(_ error: ServiceError) {
      var body = error.details
      body["code"] = error.code
      body["message"] = error.message
      self.error = body
    }
    /// The error back as a ``ServiceError`` of `kind`.
    public func serviceError(kind: ServiceError.Kind) -> ServiceError {
      var details = error
      let code = details.removeValue(forKey: "code") ?? "failed"
      let message = details.removeValue(forKey: "message") ?? "the server failed"
      return ServiceError(kind, code: code, message: message, details: details)
    }
  }

  /// The HTTP status of a failure: 400 invalid input; 401 not signed in or session expired; 403;
  /// 404; 409 a refusal (`sold_out`, `price_changed`, `duplicate_booking`, …); 422
  /// `idempotency_key_reused`; 429 `too_many_requests` / `too_many_attempts`; 503 unavailable.
  public static func status(of error: ServiceError) -> Int {
    switch error.code {
    case "idempotency_key_reused": return 422
    case "too_many_requests", "too_many_attempts": return 429
    case "forbidden": return 403
    case "body_too_large": return 413
    default: break
    }
    switch error.kind {
    case .invalidInput: return 400
    case .unauthenticated: return 401
    case .notFound: return 404
    case .refused: return 409
    case .unavailable: return 503
    }
  }

  /// The kind of a failure answered with `status` (the inverse of ``status(of:)``, for clients).
  public static func kind(ofStatus status: Int, code: String) -> ServiceError.Kind {
    switch status {
    case 400, 413: return .invalidInput
    case 422: return code == "idempotency_key_reused" ? .invalidInput : .refused
    case 401: return .unauthenticated
    case 404: return .notFound
    case 403, 409, 429: return .refused
    default: return .unavailable
    }
  }

  /// The encoder of every API document: sorted keys, slashes unescaped, ISO 8601 instants (compact:
  /// no pretty printing on the wire).
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// The matching decoder (accepts ISO 8601 instants with any offset).
  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
