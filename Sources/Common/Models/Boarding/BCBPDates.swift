import Foundation

/// The dates of a boarding pass, which carries no full year: the flight date (item 46) is a day of
/// the year (`001`–`366`, local at the departure airport) and the issue date (item 22) the year's
/// last digit and a day of the year (`6225`).
///
/// The year is resolved from the issue date when the pass has one, else from a reference date the
/// caller gives (a trip's date, the date a person typed); never from the device's clock or time
/// zone (standards.md §1.5).
public enum BCBPDates {
  /// The day of the year of `date`, 1–366.
  public static func dayOfYear(_ date: LocalDate) -> Int {
    date.daysSinceEpoch - LocalDate(year: date.year, month: 1, day: 1)!.daysSinceEpoch + 1
  }

  /// `date` as item 22: the last digit of the year and the three-digit day of the year (`6225`).
  public static func issueDateField(_ date: LocalDate) -> String {
    let day = dayOfYear(date)
    return "\(date.year % 10)" + String(repeating: "0", count: day < 10 ? 2 : day < 100 ? 1 : 0) + "\(day)"
  }

  /// The date `day` of `year`, or nil when the year has fewer days (366 outside a leap year).
  public static func date(year: Int, dayOfYear day: Int) -> LocalDate? {
    guard (1...366).contains(day), let first = LocalDate(year: year, month: 1, day: 1) else { return nil }
    let date = first.adding(days: day - 1)
    return date.year == year ? date : nil
  }

  /// The issue date of item 22 (`6225`): of the years ending in its digit, the one that puts the
  /// date nearest to `reference` (so ten years' span around it), or nil when the field is not a
  /// date (blank, not digits, day 000 or past the year's last day).
  public static func issueDate(_ field: String, reference: LocalDate) -> LocalDate? {
    let bytes = Array(field.utf8)
    guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let day = Int(field.dropFirst()) else {
      return nil
    }
    return issueDate(yearDigit: Int(bytes[0] - 0x30), dayOfYear: day, reference: reference)
  }

  /// The issue date of a year's last digit (0–9) and a day of the year: of the years ending in
  /// `digit`, the one that puts the date nearest to `reference` (earlier on a tie); nil when no
  /// such year has that day. Integer arithmetic only (see ``issueDate(_:reference:)``).
  public static func issueDate(yearDigit digit: Int, dayOfYear day: Int, reference: LocalDate) -> LocalDate? {
    guard (0...9).contains(digit), (1...366).contains(day) else { return nil }
    let year = reference.year
    let base = year - ((year % 10 - digit + 10) % 10)
    var best: LocalDate?
    for candidateYear in [base - 10, base, base + 10] {
      guard let candidate = date(year: candidateYear, dayOfYear: day) else { continue }
      if let found = best, abs(found.days(to: reference)) <= abs(candidate.days(to: reference)) { continue }
      best = candidate
    }
    return best
  }

  /// The flight date of `dayOfYear` (item 46).
  ///
  /// - With an issue date: the first such day on or after the issue date (a pass is issued before
  ///   its flight; a pass issued on 30 December for day 002 flies in January of the next year).
  /// - Without: of the previous, the reference's and the next year, the one that puts the day
  ///   nearest to `reference`.
  ///
  /// Nil when no year fits (day 366 and neither candidate year is a leap year, or day 0).
  public static func flightDate(dayOfYear day: Int, issueDate: LocalDate?, reference: LocalDate) -> LocalDate? {
    guard (1...366).contains(day) else { return nil }
    if let issued = issueDate {
      for year in issued.year...(issued.year + 1) {
        if let candidate = date(year: year, dayOfYear: day), candidate >= issued { return candidate }
      }
      return nil
    }
    let candidates = [reference.year - 1, reference.year, reference.year + 1].compactMap {
      date(year: $0, dayOfYear: day)
    }
    return candidates.min { abs($0.days(to: reference)) < abs($1.days(to: reference)) }
  }
}

extension BoardingPass {
  /// The issue date (item 22) resolved near `reference`, nil when the pass has none.
  public func resolvedIssueDate(reference: LocalDate) -> LocalDate? {
    BCBPDates.issueDate(issueDate, reference: reference)
  }

  /// The date of each leg (item 46): from the issue date when the pass has one, else the year that
  /// puts the day nearest to `reference` (see ``BCBPDates/flightDate(dayOfYear:issueDate:reference:)``).
  public func flightDates(reference: LocalDate) -> [LocalDate?] {
    let issued = resolvedIssueDate(reference: reference)
    return legs.map { BCBPDates.flightDate(dayOfYear: $0.dayOfYear, issueDate: issued, reference: reference) }
  }
}
