import Foundation

/// Hotels: search, details, map data and booking. Implemented by `Backend`'s hotel world; apps
/// wire it, the `Hotel` feature calls it through this protocol only.
///
/// Synchronous and thread-safe; every method fails with ``ServiceError``:
/// `.invalidInput` for a bad request (`unknown_place`, `ambiguous_place`, `invalid_coordinate`,
/// `invalid_dates`, `too_many_nights`, `date_in_past`, `invalid_guests`, `invalid_rooms`,
/// `invalid_radius`, `invalid_price`, `invalid_stars`, `unknown_amenity`, `invalid_offer_id`,
/// `invalid_hotel_id` for an id not shaped `h<digits>-<digits>`; `date_in_past` is judged by today
/// in each hotel's own time zone), `.notFound` for a well-formed id of no hotel (`hotel_not_found`), `.refused` for `sold_out` or
/// `price_changed`, `.unauthenticated` when booking without a session.
public protocol HotelService: Sendable {
  /// Offers near a place for a stay, filtered, sorted and limited as the request says. A room type
  /// is offered only when enough rooms of it are free on every night of `[checkIn, checkOut)`.
  func search(_ request: HotelSearchRequest) throws -> HotelSearchResult

  /// One hotel.
  func hotel(id: String) throws -> Hotel

  /// The slow parts of a hotel page (description and reviews).
  func details(hotelId: String) throws -> HotelDetails

  /// The offers of one hotel for a stay (every room type that has room), cheapest first.
  func rooms(hotelId: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int) throws
    -> [HotelOffer]

  /// The offer `offerId` re-priced now (availability and price), without booking.
  /// - Throws: `invalid_offer_id` (malformed, or its signature does not match: altered or made
  ///   by another data directory), `hotel_not_found`, `sold_out`.
  func quote(offerId: String) throws -> HotelOffer

  /// Books the offer for the signed-in user, in one transaction: one room of the type for every
  /// night (× rooms), the charge of exactly the quoted total, the reservation. A retry with the
  /// same idempotency key and the same request returns the first reservation, charged once.
  /// - Throws: `invalid_offer_id`, `invalid_guest`, `idempotency_key_reused` (`.invalidInput`);
  ///   `price_changed` (the price moved either way; details `offerId`, `price`, `currency`),
  ///   `sold_out`, `duplicate_booking` (details `reservationId`) (`.refused`), taking nothing.
  func book(_ request: HotelBookingRequest, token: String) throws -> Reservation

  /// Markers for the map viewport: single hotels, or clusters where more than about
  /// `maxMarkers` would be shown.
  func mapMarkers(in viewport: GeoRect, maxMarkers: Int) throws -> [HotelMapMarker]

}

/// What to book: an offer id from a search, the guest, optionally a card, an idempotency key and
/// `allowDuplicate`.
public struct HotelBookingRequest: Hashable, Sendable {
  public var offerId: String
  /// "Given Family" (the one name rule, ``PassengerName``).
  public var guestName: String
  /// A stored card id; nil = the default card.
  public var cardId: String?
  /// A retry with the same key and the same request returns the first reservation; the same key
  /// with any other request is refused (`idempotency_key_reused`).
  public var idempotencyKey: String?
  /// Book even when the guest already holds the same room type at the same hotel for overlapping
  /// nights (`--allow-duplicate`; otherwise `duplicate_booking`).
  public var allowDuplicate: Bool

  public init(
    offerId: String, guestName: String, cardId: String? = nil, idempotencyKey: String? = nil,
    allowDuplicate: Bool = false
  ) {
    self.offerId = offerId
    self.guestName = guestName
    self.cardId = cardId
    self.idempotencyKey = idempotencyKey
    self.allowDuplicate = allowDuplicate
  }
}
