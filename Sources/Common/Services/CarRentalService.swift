import Foundation

/// What to search: a pick-up place and local date-times, optional filters.
public struct CarSearchQuery: Hashable, Sendable {
  /// An IATA airport or metropolitan code (any case) or a city name.
  public var pickupPlace: String
  /// Where the car goes back; nil = the pick-up location.
  public var dropoffPlace: String?
  /// Local wall-clock times at the pick-up and drop-off locations.
  public var pickup: LocalDateTime
  public var dropoff: LocalDateTime
  public var classPattern: ACRISSPattern?
  /// A company id or name (case-insensitive).
  public var company: String?
  /// A promo code (case-insensitive).
  public var promoCode: String?
  /// At most this many offers (1–1000).
  public var limit: Int

  public init(
    pickupPlace: String, dropoffPlace: String? = nil, pickup: LocalDateTime, dropoff: LocalDateTime,
    classPattern: ACRISSPattern? = nil, company: String? = nil, promoCode: String? = nil, limit: Int = 50
  ) {
    self.pickupPlace = pickupPlace
    self.dropoffPlace = dropoffPlace
    self.pickup = pickup
    self.dropoff = dropoff
    self.classPattern = classPattern
    self.company = company
    self.promoCode = promoCode
    self.limit = limit
  }
}

/// The answer to a search: offers sorted by total (cheapest first), and notes a person should
/// read (a desk closed at that hour, why a promo code does not apply to some offers).
public struct CarSearchResult: Hashable, Sendable {
  public var offers: [CarOffer]
  public var notices: [String]
  /// The currency every price is in (the user's).
  public var currency: String

  public init(offers: [CarOffer], notices: [String], currency: String) {
    self.offers = offers
    self.notices = notices
    self.currency = currency
  }
}

/// A company's desks at a place, for the company selector and `companies --pickup`.
public struct CompanyAtPlace: Hashable, Sendable {
  public struct Desk: Hashable, Sendable {
    public var location: RentalLocation
    public var hours: OpeningHours
    /// ACRISS code → number of cars at that desk.
    public var fleet: [ACRISSCode: Int]
    public init(location: RentalLocation, hours: OpeningHours, fleet: [ACRISSCode: Int]) {
      self.location = location
      self.hours = hours
      self.fleet = fleet
    }
  }

  public var company: RentalCompany
  public var desks: [Desk]

  public init(company: RentalCompany, desks: [Desk]) {
    self.company = company
    self.desks = desks
  }
}

/// A place the search form can suggest while the user types (autocomplete).
public struct CarPlaceSuggestion: Hashable, Sendable {
  /// What goes into the search (`LAX`).
  public var code: String
  /// What the user reads (`LAX — Los Angeles International Airport, Los Angeles`).
  public var label: String
  public init(code: String, label: String) {
    self.code = code
    self.label = label
  }
}

/// What to book: an offer id from a search, the driver, optionally a card and an idempotency key.
public struct CarBookingRequest: Hashable, Sendable {
  public var offerID: String
  /// "Given Family".
  public var driverName: String
  /// A stored card id; nil = the default card.
  public var cardID: String?
  /// A retry with the same key and the same request returns the first reservation; the same key
  /// with any other request is refused (`idempotency_key_reused`).
  public var idempotencyKey: String?
  /// Book even when the driver already holds a rental for overlapping times
  /// (`--allow-duplicate`; otherwise `duplicate_booking`).
  public var allowDuplicate: Bool

  public init(
    offerID: String, driverName: String, cardID: String? = nil, idempotencyKey: String? = nil,
    allowDuplicate: Bool = false
  ) {
    self.offerID = offerID
    self.driverName = driverName
    self.cardID = cardID
    self.idempotencyKey = idempotencyKey
    self.allowDuplicate = allowDuplicate
  }
}

/// The car rental service: inventory, pricing, availability and booking. Implemented by
/// `Backend` (embedded), wired by the apps. Every call is synchronous and throws ``ServiceError``
/// only; view models call it off the main queue.
public protocol CarRentalService: Sendable {
  /// Offers at the pick-up place for the period, sorted by total (then company, then code).
  ///
  /// - Throws: `.invalidInput` for an unknown place (`unknown_place`), drop-off not after pick-up
  ///   (`dropoff_not_after_pickup`), a rental over 60 days (`rental_too_long`), a pick-up in the
  ///   past (`pickup_in_past`), an unknown company (`unknown_company`), an unknown, expired or not yet
  ///   valid promo code (`unknown_promo`, `expired_promo`, `promo_not_yet_valid`); `.refused` /
  ///   `outside_opening_hours` when every desk at the place is closed at those times (the message
  ///   says when they open).
  func search(_ query: CarSearchQuery) throws -> CarSearchResult

  /// The companies with a desk at `place`, with their hours and fleets; each one-way fee in the
  /// traveller's currency (as an offer's fee line charges it). Throws `unknown_place`.
  func companies(at place: String) throws -> [CompanyAtPlace]

  /// Every promo code (`--promo`), by code.
  func promoCodes() throws -> [PromoCode]

  /// Places with a rental desk whose code, city or name starts with `prefix` (case- and
  /// diacritic-insensitive), busiest first.
  func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion]

  /// Books an offer for the signed-in user in one transaction: checks the id's signature,
  /// re-prices it, takes one car of the code for the period, charges the card exactly the quoted
  /// total, records the reservation (kind `car`); a retry with the same idempotency key and the
  /// same request returns the first reservation. Cancelling is free until pick-up.
  /// - Throws: `invalid_offer_id` (malformed, or altered / made by another data directory),
  ///   `invalid_driver`, `idempotency_key_reused` (`.invalidInput`); `not_signed_in`;
  ///   `price_changed` (any other price, up or down; details `offerId`, `price`, `currency`),
  ///   `sold_out`, `offer_expired`, `duplicate_booking` (the driver already holds a rental for
  ///   overlapping times; details `reservationId`), card errors (`.refused`).
  func book(_ request: CarBookingRequest) throws -> Reservation
}
