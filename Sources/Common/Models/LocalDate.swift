import Foundation

/// A calendar date with no time and no time zone (`YYYY-MM-DD`, proleptic Gregorian), as used
/// for hotel stays: check-in and check-out are dates *at the hotel* (standards.md §3).
///
/// Arithmetic is on whole days counted from 1970-01-01, never through `Date` and UTC, so a stay
/// never shifts by a day and a daylight-saving change never makes a night 23 hours long.
/// In JSON it is the string `"2026-12-20"`.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before).
  public let daysSinceEpoch: Int

  /// The date `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch: Int) {
    self.daysSinceEpoch = daysSinceEpoch
  }

  /// The date `year`-`month`-`day`, or nil when no such date exists (2026-02-30) or the year is
  /// outside 1–9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...LocalDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    daysSinceEpoch = LocalDate.days(year: year, month: month, day: day)
  }

  /// Parses exactly `YYYY-MM-DD` (ISO 8601 calendar date, four-digit year); nil for anything
  /// else, including impossible dates like `2026-02-30`.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The calendar date of `instant` in `timeZone` (e.g. "today at the hotel").
  public init(_ instant: Date, in timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: instant)
    daysSinceEpoch = LocalDate.days(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
  }

  /// Year, month (1–12) and day (1–31).
  public var components: (year: Int, month: Int, day: Int) {
    // Civil-from-days (Howard Hinnant's algorithm, public domain description), era of 400 years.
    let z = daysSinceEpoch + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  public var year: Int { components.year }
  public var month: Int { components.month }
  public var day: Int { components.day }

  /// ISO 8601 weekday: 1 = Monday … 7 = Sunday.
  public var isoWeekday: Int {
    // 1970-01-01 was a Thursday (4).
    let offset = (daysSinceEpoch + 3) % 7
    return (offset < 0 ? offset + 7 : offset) + 1
  }

  /// The date `count` days later (earlier when negative).
  public func adding(days count: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + count) }

  /// Whole calendar days from `self` to `other` (positive when `other` is later).
  public func days(to other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

  /// The instant of the wall-clock time `hour`:`minute` on this date in `timeZone`. In a
  /// daylight-saving gap the next valid time is used; in an overlap, the first occurrence.
  public func instant(hour: Int, minute: Int = 0, in timeZone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let (year, month, day) = components
    let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
    return calendar.date(from: parts)
      ?? Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch * 86_400 + hour * 3600 + minute * 60))
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    let (year, month, day) = components
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = LocalDate(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "invalid date \"\(text)\": expected YYYY-MM-DD")
    }
    self = date
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func days(year: Int, month: Int, day: Int) -> Int {
    // Days-from-civil (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// A half-open range of local dates `[start, end)`: a hotel stay from check-in (`start`) to
/// check-out (`end`), covering the nights dated `start … end − 1` (standards.md §3).
///
/// JSON: `{"start": "2026-12-20", "end": "2026-12-23"}`.
public struct DateRange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The first date (check-in; the first night).
  public let start: LocalDate
  /// The day after the last night (check-out).
  public let end: LocalDate

  /// The range `[start, end)`, or nil unless `end` is after `start` (at least one night).
  public init?(start: LocalDate, end: LocalDate) {
    guard start < end else { return nil }
    self.start = start
    self.end = end
  }

  /// Nights (or days) in the range: `end − start` in calendar days, at least 1.
  public var count: Int { start.days(to: end) }

  /// The dates of the nights, `start … end − 1`, in order.
  public var dates: [LocalDate] { (0..<count).map { start.adding(days: $0) } }

  /// Whether `date` is one of the range's nights.
  public func contains(_ date: LocalDate) -> Bool { start <= date && date < end }

  /// Whether two ranges share a night: `a.start < b.end && b.start < a.end`. Leaving on the day
  /// another guest arrives is not an overlap.
  public func overlaps(_ other: DateRange) -> Bool { start < other.end && other.start < end }

  /// `2026-12-20/2026-12-23` (ISO 8601 interval).
  public var description: String { "\(start)/\(end)" }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decode(LocalDate.self, forKey: .start)
    let end = try container.decode(LocalDate.self, forKey: .end)
    guard start < end else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "end \(end) is not after start \(start)")
    }
    self.start = start
    self.end = end
  }
}
