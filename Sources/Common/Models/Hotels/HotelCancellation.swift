import Foundation

/// The cancellation rule of every hotel booking.
///
/// **Free cancellation until 24 hours before check-in, in the hotel's local time; after that the
/// first night is charged.** Check-in is at 15:00 local time (``checkInHour``), so the deadline is
/// 15:00 on the day before the check-in date, on the hotel's wall clock (its IANA time zone) —
/// which stays "the day before at 15:00" even across a daylight-saving change. Cancelling at or
/// after the deadline refunds the total minus the first night (that night's rate for every room,
/// with its taxes); cancelling before it refunds everything.
public enum HotelCancellation {
  /// The local hour check-in opens (a property rule: standards.md §3).
  public static let checkInHour = 15

  /// The local hour check-out closes: a stay ends at 11:00 on the check-out date, hotel time. The
  /// one source of the hotels' times with ``checkInHour``: descriptions, the ledger's stay
  /// (`starts_at`, `ends_at`) and the trips all read these two.
  public static let checkOutHour = 11

  /// The last instant a cancellation is free: `checkIn − 1 day` at 15:00 in `timeZone`.
  public static func freeUntil(checkIn: LocalDate, timeZone: TimeZone) -> Date {
    checkIn.adding(days: -1).instant(hour: checkInHour, in: timeZone)
  }

  /// Whether cancelling at `now` is free.
  public static func isFree(at now: Date, checkIn: LocalDate, timeZone: TimeZone) -> Bool {
    now < freeUntil(checkIn: checkIn, timeZone: timeZone)
  }

  /// The refund of cancelling at `now` a booking of `total` whose first night (all rooms, with
  /// taxes) costs `firstNight`: all of `total` before the deadline, `total − firstNight` after
  /// (never below zero).
  public static func refund(total: Money, firstNight: Money, at now: Date, checkIn: LocalDate, timeZone: TimeZone)
    -> Money
  {
    if isFree(at: now, checkIn: checkIn, timeZone: timeZone) { return total }
    let rest = total - firstNight
    return rest.amount < 0 ? Money.zero(total.currencyCode) : rest
  }

  /// The rule in words, with the deadline in the hotel's local time:
  /// `Free cancellation until 2026-12-19 15:00 (Europe/Paris, 24 hours before check-in); after that the first night is charged.`
  public static func summary(checkIn: LocalDate, timeZone: TimeZone) -> String {
    "Free cancellation until \(checkIn.adding(days: -1)) \(checkInHour):00 hotel time (\(timeZone.identifier), "
      + "24 hours before check-in at \(checkInHour):00); after that the first night is charged."
  }

  /// The rule as it applies at `now` (booking or cancelling then), with the deadline in the
  /// hotel's local time: ``summary(checkIn:timeZone:)`` before the deadline; at or after it,
  /// `Free cancellation ended 2026-12-19 15:00 hotel time (Europe/Paris): cancelling costs the
  /// first night (€112.20); the rest is refunded.` — a booking made late says so at once.
  public static func summary(checkIn: LocalDate, timeZone: TimeZone, at now: Date, firstNight: Money?) -> String {
    if isFree(at: now, checkIn: checkIn, timeZone: timeZone) { return summary(checkIn: checkIn, timeZone: timeZone) }
    let charge = firstNight.map { " (\(MoneyFormat.english.string($0)))" } ?? ""
    return "Free cancellation ended \(checkIn.adding(days: -1)) \(checkInHour):00 hotel time (\(timeZone.identifier)): "
      + "cancelling costs the first night\(charge); the rest is refunded."
  }

  /// The rule without dates.
  public static let rule =
    "Free cancellation until 24 hours before check-in (15:00 hotel local time); after that the first night is charged."
}
