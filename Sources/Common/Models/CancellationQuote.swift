import Foundation

/// What cancelling a reservation would cost and refund now, shown before anything is done
/// (`trips cancel`, the app's Trips screen) and then accepted: the cancellation goes through only
/// at exactly this refund (``ReservationService/cancelReservation(id:token:accepting:)``), so
/// nobody is charged a fee they were not shown.
///
/// JSON: `{"reservationId", "total": Money, "fee": Money, "refund": Money, "deadline":
/// "2026-12-19T15:00:00+01:00" | null, "deadlinePassed", "timeZone", "rule", "policy", "card",
/// "quotedAt"}` — instants with the UTC offset of the place (the hotel, the pick-up desk, the
/// departure airport).
public struct CancellationQuote: Hashable, Sendable {
  /// Which cancellation rule applies now, for a sentence in the traveller's language.
  public enum Rule: String, Hashable, Sendable, Codable {
    /// A hotel before its free-cancellation deadline: everything is refunded.
    case hotelFree = "hotel_free"
    /// A hotel at or after the deadline: the first night is charged.
    case hotelFirstNightCharged = "hotel_first_night_charged"
    /// A car before pick-up: everything is refunded (after pick-up it cannot be cancelled).
    case carFreeUntilPickup = "car_free_until_pickup"
    /// A flight 7 days or more before departure: the fare in full, taxes and fees.
    case flightFullFare = "flight_full_fare"
    /// A flight 1–6 days before departure: half the fare, taxes and fees.
    case flightHalfFare = "flight_half_fare"
    /// A flight on its day: taxes and fees only.
    case flightTaxesOnly = "flight_taxes_only"
    /// A kind without a rule of its own: everything is refunded.
    case fullRefund = "full_refund"
  }

  public var reservationId: String
  /// What was charged.
  public var total: Money
  /// What cancelling now keeps: `total − refund`.
  public var fee: Money
  /// What cancelling now gives back to the card charged.
  public var refund: Money
  /// The instant the terms next change for the worse (the free-cancellation deadline, the next
  /// step of a fare rule, the pick-up after which a car cannot be cancelled), or the one that
  /// has passed (a hotel booked or cancelled late); nil when there is none.
  public var deadline: Date?
  /// The IANA time zone the deadline is shown in (the place's).
  public var timeZone: String?
  public var rule: Rule
  /// The rule in English words, with the deadline in local time.
  public var policy: String
  /// The card refunded, as the person knows it (`Visa •••• 4242`), when known.
  public var card: String?
  /// When the quote was made (the refund holds until the deadline).
  public var quotedAt: Date

  public init(
    reservationId: String, total: Money, fee: Money, refund: Money, deadline: Date?, timeZone: String?, rule: Rule,
    policy: String, card: String?, quotedAt: Date
  ) {
    self.reservationId = reservationId
    self.total = total
    self.fee = fee
    self.refund = refund
    self.deadline = deadline
    self.timeZone = timeZone
    self.rule = rule
    self.policy = policy
    self.card = card
    self.quotedAt = quotedAt
  }

  /// Whether ``deadline`` is at or before ``quotedAt``.
  public var deadlinePassed: Bool { deadline.map { $0 <= quotedAt } ?? false }

  /// The deadline's zone (UTC when unknown).
  public var zone: TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt }

  /// `2026-12-19 15:00 (Europe/Paris)`: the deadline on the place's wall clock, with its zone.
  public var deadlineText: String? {
    deadline.map {
      "\(LocalDateTime($0, in: zone).description.replacingOccurrences(of: "T", with: " ")) (\(zone.identifier))"
    }
  }
}

extension CancellationQuote: Codable {
  private enum CodingKeys: String, CodingKey {
    case reservationId, total, fee, refund, deadline, deadlinePassed, timeZone, rule, policy, card, quotedAt
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(reservationId, forKey: .reservationId)
    try container.encode(total, forKey: .total)
    try container.encode(fee, forKey: .fee)
    try container.encode(refund, forKey: .refund)
    try container.encode(deadline.map { LocalDateTime($0, in: zone).iso8601(in: zone) }, forKey: .deadline)
    try container.encode(deadlinePassed, forKey: .deadlinePassed)
    try container.encode(timeZone, forKey: .timeZone)
    try container.encode(rule, forKey: .rule)
    try container.encode(policy, forKey: .policy)
    try container.encode(card, forKey: .card)
    try container.encode(quotedAt, forKey: .quotedAt)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    reservationId = try container.decode(String.self, forKey: .reservationId)
    total = try container.decode(Money.self, forKey: .total)
    fee = try container.decode(Money.self, forKey: .fee)
    refund = try container.decode(Money.self, forKey: .refund)
    timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
    rule = try container.decode(Rule.self, forKey: .rule)
    policy = try container.decode(String.self, forKey: .policy)
    card = try container.decodeIfPresent(String.self, forKey: .card)
    quotedAt = try container.decode(Date.self, forKey: .quotedAt)
    if let text = try container.decodeIfPresent(String.self, forKey: .deadline) {
      let formatter = ISO8601DateFormatter()
      guard let date = formatter.date(from: text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .deadline, in: container, debugDescription: "deadline \"\(text)\" is not an ISO 8601 instant")
      }
      deadline = date
    } else {
      deadline = nil
    }
  }
}
