import Common
import Foundation

/// Books flight offers through the reservations ledger (``FlightBooking``).
///
/// Every amount is in the currency of the offer's quote (the offer id's, e.g. EUR for
/// `…EUR31460`): the offer is re-priced in it, compared with the quote in it, and charged in it.
///
/// 1. The offer id is re-priced at today's seats (outside the transaction, to fail fast): a flight
///    gone from the schedule or departed is `offer_expired`; fewer seats than passengers left is
///    `sold_out`; a price above the quoted one is `price_changed`, with the new `price` and
///    `offerId` in the error's details.
/// 2. In the ledger's single `BEGIN IMMEDIATE` transaction, the seats of the offer's flights are
///    read again and the offer re-priced; if it now costs more than quoted (`price_changed`) or
///    lacks seats (`sold_out`) nothing is taken; if it costs more than the amount about to be
///    charged but not more than quoted (another buyer got in first), the booking starts again
///    at the new price (up to 8 times). Else `adults` seats
///    are taken on every flight, the card is charged the current price (never more than quoted)
///    and the reservation is recorded with a PNR. An idempotency key seen before returns the
///    first reservation.
public final class FlightBookingEngine: FlightBooking, Sendable {
  let engine: FlightEngine
  let ledger: ReservationLedger

  public init(engine: FlightEngine, ledger: ReservationLedger) {
    self.engine = engine
    self.ledger = ledger
  }

  public func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    let id = request.offerID
    guard request.passengers.count == id.adults else {
      throw ServiceError.invalid(
        "passenger_count",
        "the offer is for \(id.adults) adult(s) but \(request.passengers.count) passenger(s) were given: expected one per adult"
      )
    }
    var seen = Set<String>()
    if let twice = request.passengers.first(where: { !seen.insert($0.description.lowercased()).inserted }) {
      throw ServiceError.invalid(
        "duplicate_passenger",
        "passenger \(twice) is given twice: each passenger of a booking must be a different person")
    }
    // Concurrent buyers may raise the price between the check and the transaction: retry at the
    // new price while it stays within the quote.
    var attempt = 0
    while true {
      attempt += 1
      do {
        return try bookOnce(request, token: token)
      } catch let error as ServiceError where error.code == Self.priceMoved && attempt < 8 {
        continue
      } catch let error as ServiceError where error.code == Self.priceMoved {
        throw ServiceError.refused("price_changed", error.message, details: error.details)
      }
    }
  }

  /// The in-transaction code for "the price rose since the check, but is still within the quote".
  static let priceMoved = "price_moved"

  private func bookOnce(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    let id = request.offerID
    let current: FlightOffer
    do {
      current = try engine.offer(id)
      try Self.checkPrice(current, quoted: id.quotedTotal)
    } catch let error as ServiceError where error.kind == .refused {
      // A retry of a booking that already went through may see its own seats: answer it first.
      if let first = try earlierReservation(request, token: token) { return first }
      throw error
    }
    let total = current.price.rounded()
    let details = Self.details(current, passengers: request.passengers)
    let summary = Self.summary(current)
    let booking = BookingRequest(
      token: token, kind: .flight, cardID: request.cardID, idempotencyKey: request.idempotencyKey, total: total,
      summary: summary, startsAt: current.outbound.departure.instant,
      endsAt: (current.inbound ?? current.outbound).arrival.instant, details: details,
      fingerprintSource: Self.fingerprintSource(request))
    return try ledger.book(booking) { context in
      let booked = try SQLiteFlightSeats.booked(context.db, flights: id.flights, cabin: id.cabin)
      let now = try engine.offer(id, booked: booked)
      try Self.checkPrice(now, quoted: id.quotedTotal)
      if now.price.rounded().amount > total.amount {
        throw ServiceError.refused(
          Self.priceMoved, "the price moved to \(now.price.formatted()) while booking",
          details: ["price": now.price.amountString, "currency": now.price.currencyCode, "offerId": now.id.description])
      }
      try Self.refuseDuplicate(current, passengers: request.passengers, context: context)
      try SQLiteFlightSeats.take(
        context.db, reservationID: context.reservationID, flights: id.flights, cabin: id.cabin, seats: id.adults)
    }
  }

  /// Refuses a second seat for the same person on the same flight: when one of `passengers`
  /// already holds a confirmed reservation of this user on any flight of `offer` (same flight
  /// number, same departure instant), as airlines refuse duplicate bookings. Runs inside the
  /// booking transaction, after the idempotency check, so a retry with the same key still gets its
  /// first reservation.
  /// - Throws: `duplicate_booking` (`.refused`, exit 1) naming the passenger, the flight and the
  ///   reservation to cancel first; nothing is taken or charged.
  static func refuseDuplicate(_ offer: FlightOffer, passengers: [PassengerName], context: BookingContext) throws {
    let flights = Set(offer.segments.map { "\($0.flight.code)@\($0.departure.iso8601)" })
    let people = Dictionary(passengers.map { ($0.description.lowercased(), $0.description) }) { first, _ in first }
    let rows = try context.db.query(
      "SELECT * FROM reservations WHERE user_id = ? AND kind = 'flight' AND status = 'confirmed'", context.userID)
    for held in try rows.map(ReservationLedger.reservation) {
      guard case .array(let segments)? = held.details["segments"], case .array(let names)? = held.details["passengers"],
        let person = names.lazy.compactMap({ $0.stringValue.flatMap { people[$0.lowercased()] } }).first
      else { continue }
      for case .object(let segment) in segments {
        guard let code = segment["flight"]?.stringValue, let departure = segment["departure"]?.stringValue,
          flights.contains("\(code)@\(departure)")
        else { continue }
        throw ServiceError.refused(
          "duplicate_booking",
          "\(person) already holds a seat on \(code) departing \(departure) (reservation \(held.id)"
            + (held.locator.map { ", PNR \($0)" } ?? "")
            + "): nothing was booked; cancel it first with 'trips cancel \(held.id)'",
          details: ["reservationId": held.id])
      }
    }
  }

  /// Throws `price_changed` when `offer` costs more than `quoted`.
  static func checkPrice(_ offer: FlightOffer, quoted: Money) throws {
    guard offer.price.currencyCode == quoted.currencyCode, offer.price.rounded().amount <= quoted.amount else {
      throw ServiceError.refused(
        "price_changed",
        "the price of this offer rose from \(quoted.formatted()) to \(offer.price.formatted()): book the new offer \(offer.id) to accept it",
        details: [
          "price": offer.price.amountString, "currency": offer.price.currencyCode, "offerId": offer.id.description,
        ])
    }
  }

  /// What identifies a flight booking for its idempotency key: the quoted offer and the passengers
  /// (the charged total may move below the quote between retries).
  static func fingerprintSource(_ request: FlightBookingRequest) -> String {
    ([request.offerID.description] + request.passengers.map(\.description)).joined(separator: "|")
  }

  /// The reservation an earlier call made with the same idempotency key for the same request, if
  /// any; `idempotency_key_reused` when the key was used for another one.
  private func earlierReservation(_ request: FlightBookingRequest, token: String) throws -> Reservation? {
    guard let key = request.idempotencyKey else { return nil }
    let userID = try ledger.accounts.userID(token: token)
    guard
      let row = try ledger.db.queryOne(
        "SELECT * FROM reservations WHERE user_id = ? AND idempotency_key = ?", userID, key)
    else { return nil }
    let probe = BookingRequest(
      token: token, kind: .flight, idempotencyKey: key, total: request.offerID.quotedTotal, summary: "",
      fingerprintSource: Self.fingerprintSource(request))
    return try ReservationLedger.earlier(row, key: key, for: probe)
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
