import Foundation

/// "Today" as a form judges a travel date: the traveller's own date, and the span of dates that
/// are today somewhere on Earth.
///
/// A departure, a pick-up or a check-in is judged by the service in the place's own time zone
/// (the origin airport, the rental desk, the hotel), which a form does not know while it is being
/// typed. So a form refuses as past only a date before ``earliest`` (past at every place: today in
/// UTC−12, the last zone to start a day) and as too far only a date after ``latest`` plus the
/// allowed days (today in UTC+14, the first zone); between them the service decides at the place.
/// Calendars open on ``here``.
///
/// All three dates are read from the app's clock (``TravelClock``: `--clock-start`,
/// `--clock-speed`), never from the machine's clock directly, so a simulated day is the forms' day
/// too.
public struct TravelToday: Hashable, Sendable {
  /// Today in the traveller's time zone (the device's zone, `TZ`): where calendars open.
  public var here: LocalDate
  /// Today in UTC−12: the earliest date that is still today somewhere. A date before it is past
  /// everywhere.
  public var earliest: LocalDate
  /// Today in UTC+14: the latest date that is already today somewhere.
  public var latest: LocalDate

  /// The earliest time zone on Earth (UTC−12, Baker Island).
  public static let earliestZone = TimeZone(secondsFromGMT: -12 * 3600) ?? .gmt
  /// The latest time zone on Earth (UTC+14, Kiritimati).
  public static let latestZone = TimeZone(secondsFromGMT: 14 * 3600) ?? .gmt

  /// The three dates at `instant`, `here` in `zone` (default: the device's zone).
  public init(at instant: Date, zone: TimeZone = .current) {
    here = LocalDate(instant, in: zone)
    earliest = LocalDate(instant, in: Self.earliestZone)
    latest = LocalDate(instant, in: Self.latestZone)
  }

  /// The three dates now on `clock` (read without starting it: ``TravelClock/peek()``), `here` in
  /// `zone` (default: the device's zone).
  public init(clock: TravelClock, zone: TimeZone = .current) {
    self.init(at: clock.peek(), zone: zone)
  }

  /// One date for all three (tests, and places whose zone is known).
  public init(_ date: LocalDate) {
    here = date
    earliest = date
    latest = date
  }

  /// Whether `date` is before today at every place (before ``earliest``).
  public func isPastEverywhere(_ date: LocalDate) -> Bool { date < earliest }

  /// The last date a service that allows `days` days ahead of the place's today accepts anywhere.
  public func lastAllowed(daysAhead days: Int) -> LocalDate { latest.adding(days: days) }

  /// The message for a `date` that is past everywhere, named `name` in the form's words ("The
  /// departure date"): "The departure date 2026-11-30 is in the past: choose today (2026-12-02) or
  /// later."
  public func pastMessage(_ name: String, _ date: String) -> String {
    "\(name) \(date) is in the past: choose today (\(here)) or later."
  }
}
