import Foundation

/// What was booked: one reservations ledger holds every kind.
public enum ReservationKind: String, Hashable, Sendable, Codable, CaseIterable {
  case flight
  case hotel
  case car
}

/// Whether a reservation still holds.
public enum ReservationStatus: String, Hashable, Sendable, Codable {
  case confirmed
  case cancelled
}

/// One booking of the signed-in user, of any kind (JSON: `{"id", "kind", "status", "total", …}`).
public struct Reservation: Hashable, Sendable, Codable, Identifiable {
  /// Stable id (`res_…`), used by `trips show ID` and `trips cancel ID`.
  public var id: String
  public var kind: ReservationKind
  public var status: ReservationStatus
  /// What was charged, in the currency of the charge.
  public var total: Money
  /// When it was booked (UTC instant).
  public var createdAt: Date
  /// One line for lists (`"SFO → JFK, UA 123, 2026-12-20"`).
  public var summary: String
  /// The six-character record locator (PNR) of a flight, or the confirmation code of another kind.
  public var locator: String?
  /// When the trip begins and ends (UTC instants), when the kind has them; for trip lists and
  /// calendar export.
  public var startsAt: Date?
  public var endsAt: Date?
  /// The kind's own fields (segments, passengers, hotel, room, car, …), as the feature stored them,
  /// plus `"payment"`: `{"cardId": "card_…", "card": "Visa •••• 4242"}`, the card charged (added
  /// by the reservations ledger when it books).
  public var details: [String: JSONValue]
  /// When it was cancelled, and what was refunded (nil while confirmed).
  public var cancelledAt: Date?
  public var refunded: Money?

  /// What the cancellation kept (`total − refunded`), once cancelled; nil while confirmed.
  public var cancellationFee: Money? {
    guard status == .cancelled, let refunded, refunded.currencyCode == total.currencyCode else { return nil }
    return total - refunded
  }

  public init(
    id: String, kind: ReservationKind, status: ReservationStatus, total: Money, createdAt: Date, summary: String,
    locator: String? = nil, startsAt: Date? = nil, endsAt: Date? = nil, details: [String: JSONValue] = [:],
    cancelledAt: Date? = nil, refunded: Money? = nil
  ) {
    self.id = id
    self.kind = kind
    self.status = status
    self.total = total
    self.createdAt = createdAt
    self.summary = summary
    self.locator = locator
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.details = details
    self.cancelledAt = cancelledAt
    self.refunded = refunded
  }
}

extension Reservation {
  /// The time zone of the place where the trip begins, for showing ``startsAt`` as local time:
  /// the `"timeZone"` detail (an IANA identifier; hotels, cars, flights), else the first flight
  /// segment's `"departureTimeZone"` (flights booked before `"timeZone"` was kept). Nil when the
  /// kind stored neither (then show UTC).
  public var startTimeZone: TimeZone? {
    if let zone = details["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) { return zone }
    return segmentZone(first: true, key: "departureTimeZone")
  }

  /// The time zone of the place where the trip ends, for ``endsAt``: the `"endTimeZone"` detail
  /// (a car's drop-off desk, a flight's last arrival), else the last flight segment's
  /// `"arrivalTimeZone"`, else ``startTimeZone`` (a hotel begins and ends in one place).
  public var endTimeZone: TimeZone? {
    if let zone = details["endTimeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) { return zone }
    return segmentZone(first: false, key: "arrivalTimeZone") ?? startTimeZone
  }

  private func segmentZone(first: Bool, key: String) -> TimeZone? {
    guard case .array(let segments)? = details["segments"],
      case .object(let segment)? = first ? segments.first : segments.last
    else { return nil }
    return segment[key]?.stringValue.flatMap(TimeZone.init(identifier:))
  }
}
