import Common
import Foundation

/// Books flight offers through the reservations ledger (``FlightBooking``).
///
/// Every amount is in the currency of the offer's quote (the offer id's, e.g. EUR for
/// `…EUR31460`): the offer is re-priced in it, compared with the quote in it, and charged in it.
///
/// 1. The offer id's signature is checked (``OfferSigner``): an id edited by hand or made by
///    another data directory is `invalid_offer_id` (exit 2).
/// 2. An idempotency key used before returns its first reservation when the request is the same
///    (offer, passengers, card, `allowDuplicate`) and is refused with `idempotency_key_reused`
///    naming what differs otherwise (``ReservationLedger/idempotent(key:fingerprint:token:_:)``).
/// 3. The offer is re-priced at today's seats (outside the transaction, to fail fast): a flight
///    gone from the schedule or departed is `offer_expired`; fewer seats than passengers left is
///    `sold_out`; any other price than the quoted one, higher or lower, is `price_changed`, with
///    the new `price` and `offerId` in the error's details (nobody is charged a price they did not
///    see).
/// 4. In the ledger's single `BEGIN IMMEDIATE` transaction, the seats of the offer's flights are
///    read again and the offer re-priced (another buyer may have moved the price: `price_changed`
///    again, or `sold_out`); the duplicate rule is applied (``refuseDuplicate(_:passengers:context:)``);
///    then `adults` seats are taken on every flight, the card is charged the quoted total and the
///    reservation is recorded with a PNR.
public final class FlightBookingEngine: FlightBooking, Sendable {
  let engine: FlightEngine
  let ledger: ReservationLedger

  public init(engine: FlightEngine, ledger: ReservationLedger) {
    self.engine = engine
    self.ledger = ledger
  }

  public func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    let id = request.offerID
    try engine.verify(id)
    guard request.passengers.count == id.adults else {
      throw ServiceError.invalid(
        "passenger_count",
        "the offer is for \(id.adults) adult(s) but \(request.passengers.count) passenger(s) were given: expected one per adult"
      )
    }
    var seen = Set<String>()
    if let twice = request.passengers.first(where: {
      !seen.insert(DuplicateBookings.personKey($0.description)).inserted
    }) {
      throw ServiceError.invalid(
        "duplicate_passenger",
        "passenger \(twice) is given twice: each passenger of a booking must be a different person")
    }
    let fields = Self.requestFields(request)
    let fingerprint = BookingFingerprint(kind: .flight, cardID: request.cardID, fields: fields)
    return try ledger.idempotent(key: request.idempotencyKey, fingerprint: fingerprint, token: token) {
      try bookOnce(request, fields: fields, token: token)
    }
  }

  private func bookOnce(_ request: FlightBookingRequest, fields: [String: String], token: String) throws -> Reservation
  {
    let id = request.offerID
    let current = try engine.offer(id)
    try Self.checkPrice(current, quoted: id.quotedTotal)
    let details = Self.details(current, passengers: request.passengers)
    let summary = Self.summary(current)
    let booking = BookingRequest(
      token: token, kind: .flight, cardID: request.cardID, idempotencyKey: request.idempotencyKey,
      total: id.quotedTotal, summary: summary, startsAt: current.outbound.departure.instant,
      endsAt: (current.inbound ?? current.outbound).arrival.instant, details: details, requestFields: fields)
    return try ledger.book(booking) { context in
      let booked = try SQLiteFlightSeats.booked(context.db, flights: id.flights, cabin: id.cabin)
      let now = try engine.offer(id, booked: booked)
      try Self.checkPrice(now, quoted: id.quotedTotal)
      if !request.allowDuplicate {
        try Self.refuseDuplicate(current, passengers: request.passengers, context: context)
      }
      try SQLiteFlightSeats.take(
        context.db, reservationID: context.reservationID, flights: id.flights, cabin: id.cabin, seats: id.adults,
        capacity: { engine.seatCapacity(of: $0, cabin: id.cabin) })
    }
  }

  /// The duplicate rule for flights (``DuplicateBookings``): refuses a second seat for the same
  /// person on the same flight — when one of `passengers` (names compared without regard to case,
  /// accents or spacing) already holds a confirmed reservation of this user on any flight of
  /// `offer` (same flight number, same departure instant), as airlines refuse duplicate bookings.
  /// Runs inside the booking transaction, after the idempotency check, so a retry with the same key
  /// still gets its first reservation; skipped with `allowDuplicate` (`--allow-duplicate`).
  /// - Throws: `duplicate_booking` (`.refused`, exit 1) naming the passenger, the flight and the
  ///   reservation to cancel first (details `reservationId`); nothing is taken or charged.
  static func refuseDuplicate(_ offer: FlightOffer, passengers: [PassengerName], context: BookingContext) throws {
    let flights = Set(offer.segments.map { "\($0.flight.code)@\($0.departure.iso8601)" })
    let people = Dictionary(passengers.map { (DuplicateBookings.personKey($0.description), $0.description) }) {
      first, _ in first
    }
    let departures = offer.segments.map(\.departure.instant)
    guard let first = departures.min(), let last = departures.max() else { return }
    for held in try DuplicateBookings.confirmed(.flight, from: first, until: last, context: context) {
      guard case .array(let segments)? = held.details["segments"], case .array(let names)? = held.details["passengers"],
        let person = names.lazy.compactMap({ $0.stringValue.flatMap { people[DuplicateBookings.personKey($0)] } }).first
      else { continue }
      for case .object(let segment) in segments {
        guard let code = segment["flight"]?.stringValue, let departure = segment["departure"]?.stringValue,
          flights.contains("\(code)@\(departure)")
        else { continue }
        throw DuplicateBookings.refusal(
          "\(person) already holds a seat on \(code) departing \(DuplicateBookings.readableLocalTime(departure)) local time",
          existing: held)
      }
    }
  }

  /// Throws `price_changed` (`.refused`) when `offer` costs anything other than `quoted`, more or
  /// less, with the new `price`, `currency` and `offerId` in the details.
  static func checkPrice(_ offer: FlightOffer, quoted: Money) throws {
    let price = offer.price.rounded()
    guard price.currencyCode != quoted.currencyCode || price.minorUnits != quoted.minorUnits else { return }
    let direction =
      price.currencyCode == quoted.currencyCode ? (price.amount > quoted.amount ? "rose" : "fell") : "changed"
    throw ServiceError.refused(
      "price_changed",
      "the price of this offer \(direction) from \(MoneyFormat.english.string(quoted)) to \(MoneyFormat.english.string(price)) since the "
        + "search: nothing was booked; book the new offer \(offer.id) to accept it",
      details: [
        "price": price.amountString, "currency": price.currencyCode, "offerId": offer.id.description,
      ])
  }

  /// What the caller asked for, for the idempotency key (with the kind and card: ``BookingFingerprint``).
  static func requestFields(_ request: FlightBookingRequest) -> [String: String] {
    [
      "offerId": request.offerID.description,
      "passengers": request.passengers.map(\.description).joined(separator: ", "),
      "allowDuplicate": String(request.allowDuplicate),
    ]
  }

  /// `SFO → JFK, UA 1478, 2026-12-20` (round trip: `SFO ⇄ JFK, …`).
  static func summary(_ offer: FlightOffer) -> String {
    let arrow = offer.inbound == nil ? "→" : "⇄"
    let flights = offer.outbound.segments.map(\.flight.description).joined(separator: " + ")
    var text =
      "\(offer.outbound.origin) \(arrow) \(offer.outbound.destination), \(flights), \(offer.outbound.departure.localDate)"
    if let inbound = offer.inbound { text += " – \(inbound.departure.localDate)" }
    return text
  }

  /// What the reservation keeps: offer id, cabin, passengers, segments (local times), fare.
  static func details(_ offer: FlightOffer, passengers: [PassengerName]) -> [String: JSONValue] {
    let segments: [JSONValue] = offer.segments.map { segment in
      .object([
        "flight": .string(segment.flight.code), "carrier": .string(segment.flight.carrier),
        "from": .string(segment.from), "to": .string(segment.to),
        "departure": .string(segment.departure.iso8601), "arrival": .string(segment.arrival.iso8601),
        "departureTimeZone": .string(segment.departure.timeZone), "arrivalTimeZone": .string(segment.arrival.timeZone),
        "aircraft": .string(segment.aircraft),
      ])
    }
    let fare = offer.fare
    return [
      "offerId": .string(offer.id.description),
      "cabin": .string(offer.cabin.rawValue),
      "adults": .integer(Int64(offer.adults)),
      "passengers": .array(passengers.map { .string($0.description) }),
      "segments": .array(segments),
      // Where the trip begins and ends, for local times in trips and calendar export.
      "timeZone": .string(offer.outbound.departure.timeZone),
      "endTimeZone": .string((offer.inbound ?? offer.outbound).arrival.timeZone),
      "fare": .object([
        "fare": .string(fare.fare.rounded().amountString),
        "taxesAndFees": .string(fare.taxesAndFees.rounded().amountString),
        "total": .string(fare.total.rounded().amountString), "currency": .string(fare.total.currencyCode),
      ]),
    ]
  }
}
