import Common
import Foundation
import Synchronization

/// Fast local ↔ UTC conversion for one IANA time zone, in whole minutes since 1970-01-01, for
/// any date.
///
/// Offsets come from the tz database through Foundation (`TimeZone.secondsFromGMT(for:)` and
/// `nextDaylightSavingTimeTransition(after:)`), turned into tables of transitions so that a search
/// converts with a binary search over a few entries instead of a `Calendar` call per flight:
/// - the years around today (``eagerYears``: last year to next year, UTC, which hold every date a
///   search may ask for, today + 330 days at most) are built with the clock, in one flat table
///   read without a lock;
/// - any other instant falls in a year-long span of 525,600 minutes from 1970 (span `k` is
///   `[k × 525,600, (k + 1) × 525,600)`), whose table is built on first use and cached per zone
///   (behind a lock), so a 2019 or 2035 date gets that year's own rules (Moscow's +4 of 2011–2014,
///   a zone that drops DST, a DST rule that changes) instead of another year's offset.
///
/// Local times that do not exist (the spring-forward gap) move forward by the gap, and local
/// times that occur twice (the autumn overlap) take the first occurrence: the choice of
/// `Calendar.date(from:)`. The tests check it against `Calendar` with explicit time zones around
/// every DST change, inside and outside the eager years, in both hemispheres.
final class ZoneClock: Sendable {
  /// Minutes in one cached span (365 days).
  static let spanMinutes: Int32 = 525_600

  /// The UTC years built with the clock: last year to next year by default.
  static func defaultEagerYears(now: Date = Date()) -> ClosedRange<Int> {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let year = calendar.component(.year, from: now)
    return (year - 1)...(year + 1)
  }

  /// One table: the offset in force at its start and each change in `[start, end)`.
  private struct Table: Sendable {
    /// UTC minute of each transition, ascending.
    let transitions: [Int32]
    /// Offset (minutes) in force from `transitions[i - 1]` up to `transitions[i]`; `offsets[0]`
    /// from the table's start. `offsets.count == transitions.count + 1`.
    let offsets: [Int32]

    init(_ timeZone: TimeZone, from start: Int32, to end: Int32) {
      let startDate = Date(timeIntervalSince1970: TimeInterval(start) * 60)
      let endDate = Date(timeIntervalSince1970: TimeInterval(end) * 60)
      var transitions: [Int32] = []
      var offsets: [Int32] = [Int32(timeZone.secondsFromGMT(for: startDate) / 60)]
      var cursor = startDate
      while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < endDate, next > cursor {
        let offset = Int32(timeZone.secondsFromGMT(for: next) / 60)
        if offset != offsets[offsets.count - 1] {
          transitions.append(Int32(next.timeIntervalSince1970 / 60))
          offsets.append(offset)
        }
        cursor = next
      }
      self.transitions = transitions
      self.offsets = offsets
    }

    @inline(__always)
    func offset(atUTC utc: Int32) -> Int32 {
      var low = 0
      var high = transitions.count
      while low < high {
        let middle = (low + high) >> 1
        if transitions[middle] <= utc { low = middle + 1 } else { high = middle }
      }
      return offsets[low]
    }
  }

  let identifier: String
  /// The UTC years of the eager table.
  let eagerYears: ClosedRange<Int>
  private let timeZone: TimeZone
  /// The eager table covers UTC minutes `[eagerStart, eagerEnd)`.
  private let eagerStart: Int32
  private let eagerEnd: Int32
  private let eager: Table
  /// Tables of other spans, by span index, built on first use.
  private let spans = Mutex<[Int32: Table]>([:])

  /// - Parameter eagerYears: the UTC years built now (default: last year to next year).
  init(timeZone: TimeZone, eagerYears: ClosedRange<Int> = ZoneClock.defaultEagerYears()) {
    identifier = timeZone.identifier
    self.timeZone = timeZone
    self.eagerYears = eagerYears
    // 1 January 00:00 UTC of the first year and of the year after the last, in minutes.
    // (Civil-date arithmetic for years 1–9999, a Gregorian calendar beyond.)
    func newYear(_ year: Int) -> Int32 {
      if let date = LocalDate(year: year, month: 1, day: 1) { return Int32(date.daysSinceEpoch * 1440) }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      return Int32(calendar.date(from: DateComponents(year: year, month: 1, day: 1))!.timeIntervalSince1970 / 60)
    }
    eagerStart = newYear(eagerYears.lowerBound)
    eagerEnd = newYear(eagerYears.upperBound + 1)
    eager = Table(timeZone, from: eagerStart, to: eagerEnd)
  }

  /// The UTC offset in minutes in force at UTC minute `utc`.
  @inline(__always)
  func offset(atUTC utc: Int32) -> Int32 {
    if utc >= eagerStart && utc < eagerEnd { return eager.offset(atUTC: utc) }
    return spanOffset(atUTC: utc)
  }

  private func spanOffset(atUTC utc: Int32) -> Int32 {
    let span = utc >= 0 ? utc / Self.spanMinutes : (utc + 1) / Self.spanMinutes - 1
    return spans.withLock { tables in
      if let table = tables[span] { return table.offset(atUTC: utc) }
      let start = span * Self.spanMinutes
      let table = Table(timeZone, from: start, to: start + Self.spanMinutes)
      tables[span] = table
      return table.offset(atUTC: utc)
    }
  }

  /// How far (minutes) around a local time a transition can matter: the widest UTC offsets are
  /// −12 h and +14 h, so every UTC candidate of a local time lies within 26 hours of it.
  private static let reach: Int32 = 26 * 60

  /// The UTC minute of local wall-clock minute `local` (gap: moved forward; overlap: the first).
  @inline(__always)
  func utc(fromLocal local: Int32) -> Int32 {
    let early = offset(atUTC: local - Self.reach)
    let late = offset(atUTC: local + Self.reach)
    if early == late { return local - early }
    let first = local - early
    let second = local - late
    let firstHolds = offset(atUTC: first) == early
    let secondHolds = offset(atUTC: second) == late
    switch (firstHolds, secondHolds) {
    case (true, true): return min(first, second)  // overlap: the first occurrence
    case (true, false): return first
    case (false, true): return second
    case (false, false): return first  // gap: the earlier offset, which lands after the transition
    }
  }

  /// The local wall-clock minute of UTC minute `utc`.
  @inline(__always)
  func local(fromUTC utc: Int32) -> Int32 { utc + offset(atUTC: utc) }
}
