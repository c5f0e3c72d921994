import Foundation

/// A wall-clock date and time at a place, without a time zone (`2026-12-20T10:00` at LAX):
/// the way car pick-up and drop-off times are given (docs/standards.md §3).
///
/// Arithmetic on wall-clock values (``wallClockMinutes(until:)``) ignores daylight-saving
/// changes on purpose: 10:00 to 10:00 a week later is exactly 7 × 1440 minutes. Turn one into
/// an instant only with the place's IANA time zone (``instant(in:)``).
public struct LocalDateTime: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  public var year: Int
  /// 1–12.
  public var month: Int
  /// 1–31.
  public var day: Int
  /// 0–23.
  public var hour: Int
  /// 0–59.
  public var minute: Int

  public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
  }

  /// Parses `YYYY-MM-DDTHH:MM` (a space instead of `T` is accepted too).
  /// - Throws: ``ServiceError`` `.invalidInput` / `invalid_date_time` naming `field` and the format.
  public init(parsing text: String, field: String = "date-time") throws {
    let invalid = ServiceError.invalid(
      "invalid_date_time",
      "invalid \(field) \"\(text)\": expected a local date-time YYYY-MM-DDTHH:MM (e.g. 2026-12-20T10:00)")
    let characters = Array(text)
    guard characters.count == 16, characters[4] == "-", characters[7] == "-",
      characters[10] == "T" || characters[10] == " " || characters[10] == "t", characters[13] == ":"
    else { throw invalid }
    func number(_ range: Range<Int>) throws -> Int {
      let slice = characters[range]
      guard slice.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(slice)) else { throw invalid }
      return value
    }
    let value = LocalDateTime(
      year: try number(0..<4), month: try number(5..<7), day: try number(8..<10), hour: try number(11..<13),
      minute: try number(14..<16))
    guard (1...12).contains(value.month), value.hour < 24, value.minute < 60, value.day >= 1,
      value.day <= Self.daysInMonth(year: value.year, month: value.month)
    else { throw invalid }
    self = value
  }

  /// The wall-clock time of `instant` in `timeZone`.
  public init(_ instant: Date, in timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
    self.init(
      year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
      minute: parts.minute ?? 0)
  }

  /// `2026-12-20T10:00`.
  public var description: String {
    var text = ""
    text.reserveCapacity(16)
    Self.append(year, width: 4, to: &text)
    text.append("-")
    Self.append(month, width: 2, to: &text)
    text.append("-")
    Self.append(day, width: 2, to: &text)
    text.append("T")
    Self.append(hour, width: 2, to: &text)
    text.append(":")
    Self.append(minute, width: 2, to: &text)
    return text
  }

  /// `202612201000`, for identifiers.
  public var compact: String {
    var text = ""
    text.reserveCapacity(12)
    Self.append(year, width: 4, to: &text)
    Self.append(month, width: 2, to: &text)
    Self.append(day, width: 2, to: &text)
    Self.append(hour, width: 2, to: &text)
    Self.append(minute, width: 2, to: &text)
    return text
  }

  /// Appends `value` in decimal, zero-padded to `width` characters counting a minus sign, never
  /// cut: what `%0<width>d` writes (`7` → `07`, `-5` → `-005` at width 4), without the cost of
  /// `String(format:)` (which was most of the time a car search spent on an offer's id).
  static func append(_ value: Int, width: Int, to text: inout String) {
    let digits = String(value.magnitude)
    let sign = value < 0 ? 1 : 0
    if value < 0 { text.append("-") }
    let padding = width - sign - digits.utf8.count
    if padding > 0 { text.append(String(repeating: "0", count: padding)) }
    text.append(digits)
  }

  /// Parses ``compact``; nil when malformed.
  public init?(compact text: String) {
    guard text.count == 12, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let digits = Array(text)
    guard
      let value = try? LocalDateTime(
        parsing: "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))T"
          + "\(String(digits[8..<10])):\(String(digits[10..<12]))")
    else { return nil }
    self = value
  }

  /// Minutes since 1970-01-01T00:00 on a clock that never changes for daylight saving.
  public var wallClockMinutes: Int {
    Self.daysFromCivil(year: year, month: month, day: day) * 1440 + hour * 60 + minute
  }

  /// Wall-clock minutes from `self` to `other` (negative when `other` is earlier), DST ignored.
  public func wallClockMinutes(until other: LocalDateTime) -> Int { other.wallClockMinutes - wallClockMinutes }

  /// This wall-clock time moved by `minutes` (wall clock, DST ignored).
  public func adding(minutes: Int) -> LocalDateTime {
    let total = wallClockMinutes + minutes
    let days = Int((Double(total) / 1440).rounded(.down))
    let rest = total - days * 1440
    let (y, m, d) = Self.civil(fromDays: days)
    return LocalDateTime(year: y, month: m, day: d, hour: rest / 60, minute: rest % 60)
  }

  /// Day of week, 1 = Monday … 7 = Sunday (ISO 8601).
  public var isoWeekday: Int {
    let days = Self.daysFromCivil(year: year, month: month, day: day)  // 1970-01-01 was a Thursday (4)
    return ((days % 7) + 7 + 3) % 7 + 1
  }

  /// Minutes after local midnight (0–1439).
  public var minuteOfDay: Int { hour * 60 + minute }

  /// The instant this wall-clock time denotes in `timeZone`, or nil when it does not exist there
  /// (skipped by a daylight-saving change). In a repeated hour the first instance is taken.
  public func instant(in timeZone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return instant(using: calendar)
  }

  /// ``instant(in:)`` with a Gregorian calendar already set to the place's zone (cheaper in loops).
  public func instant(using calendar: Calendar) -> Date? {
    let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
    guard parts.isValidDate(in: calendar) else { return nil }
    guard let date = calendar.date(from: parts) else { return nil }
    let back = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let same =
      back.year == year && back.month == month && back.day == day && back.hour == hour && back.minute == minute
    return same ? date : nil
  }

  /// ISO 8601 with the local UTC offset of `timeZone` (`2026-12-20T10:00:00-08:00`), or the
  /// wall-clock time without offset when it does not exist there.
  public func iso8601(in timeZone: TimeZone) -> String {
    guard let date = instant(in: timeZone) else { return description + ":00" }
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = timeZone
    formatter.formatOptions = [.withInternetDateTime]
    let text = formatter.string(from: date)
    return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
  }

  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.wallClockMinutes < rhs.wallClockMinutes }

  public init(from decoder: Decoder) throws {
    try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  // MARK: Civil calendar (proleptic Gregorian), after the well-known days-from-civil algorithm

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  static func civil(fromDays days: Int) -> (Int, Int, Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}
