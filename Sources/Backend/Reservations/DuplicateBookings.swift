import Common
import Foundation

/// The one duplicate-booking rule of every kind: **a traveller is not booked twice for the same
/// thing at the same time by mistake.** A booking is refused with `duplicate_booking` (exit 1),
/// naming the reservation already held and how to cancel it, when the same account already holds
/// a confirmed reservation of the same kind for the same person (names compared without regard to
/// letter case, accents or spacing) that it would duplicate:
///
/// - **flights**: a passenger already holds a seat on one of the offer's flights (same flight
///   number and departure) — an airline refuses a second seat for one person on one flight;
/// - **hotels**: the guest already holds the same room type at the same hotel for at least one of
///   the same nights (stays `[check-in, check-out)` overlap);
/// - **cars**: the driver already holds a rental, with any company, whose period overlaps
///   (`[pick-up, drop-off)` instants) — one person drives one car at a time.
///
/// `--allow-duplicate` (`allowDuplicate` in the requests) books anyway (two people with the same
/// name, a second room for a family under one name). The check runs inside the booking
/// transaction after the idempotency key's, so a retry with the same key still gets its first
/// reservation and two concurrent bookings cannot both pass it. Another account's reservations are
/// never looked at.
enum DuplicateBookings {
  /// `name` for comparing people: case- and diacritic-folded, whitespace collapsed
  /// (`"ADA  Lovelace"`, `"Ada Lóvelace"` and `"ada lovelace"` are one person).
  static func personKey(_ name: String) -> String {
    name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
      .lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The user's confirmed reservations of `kind` whose `[starts_at, ends_at]` meets `[from, until]`
  /// (the candidates; each kind compares the rest), read in the booking transaction. `extra` adds
  /// SQL conditions on the row (`json_extract(details, '$.hotelId') = ?`) with their `bindings`.
  static func confirmed(
    _ kind: ReservationKind, from: Date, until: Date, extra: String = "", bindings: [any SQLBindable] = [],
    context: BookingContext
  ) throws -> [Reservation] {
    try context.db.query(
      """
      SELECT * FROM reservations WHERE user_id = ? AND kind = ? AND status = 'confirmed'
        AND starts_at <= ? AND ends_at >= ?\(extra)
      """, bindings: [context.userID, kind.rawValue, until, from] + bindings
    ).map(ReservationLedger.reservation)
  }

  /// An ISO 8601 local date-time as a traveller reads it: `2026-12-20T14:05:00+01:00` →
  /// `20 Dec 2026, 14:05` (the wall clock of the place, as stored; the offset is dropped). Text
  /// that is not such a date-time comes back unchanged.
  static func readableLocalTime(_ iso: String) -> String {
    let parts = iso.split(separator: "T", maxSplits: 1)
    guard parts.count == 2, let date = LocalDate(String(parts[0])), parts[1].count >= 5 else { return iso }
    let clock = parts[1].prefix(5)
    guard clock.dropFirst(2).first == ":", clock.allSatisfy({ $0.isNumber || $0 == ":" }) else { return iso }
    return "\(readableDate(date)), \(clock)"
  }

  /// `date` as a traveller reads it: `20 Dec 2026` (English month abbreviations, as the messages).
  static func readableDate(_ date: LocalDate) -> String {
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(date.day) \(months[date.month - 1]) \(date.year)"
  }

  /// The `duplicate_booking` refusal: `what` (`Ada Lovelace already holds …`), the reservation
  /// held, and the two ways on.
  static func refusal(_ what: String, existing: Reservation) -> ServiceError {
    ServiceError.refused(
      "duplicate_booking",
      "\(what) (reservation \(existing.id)" + (existing.locator.map { ", confirmation \($0)" } ?? "")
        + ": \(existing.summary)): nothing was booked. Cancel it first with 'trips cancel \(existing.id)', "
        + "or book again with --allow-duplicate if a second booking is meant",
      details: ["reservationId": existing.id])
  }
}
