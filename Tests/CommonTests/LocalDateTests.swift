import Common
import Foundation
import Testing

@Suite struct LocalDateTests {
  @Test func parse_acceptsOnlyRealCalendarDates() {
    #expect(LocalDate("2026-12-20")?.description == "2026-12-20")
    #expect(LocalDate("2028-02-29") != nil)
    #expect(LocalDate("2026-02-29") == nil)
    #expect(LocalDate("2026-13-01") == nil)
    #expect(LocalDate("2026-1-01") == nil)
    #expect(LocalDate("20261220") == nil)
    #expect(LocalDate("") == nil)
  }

  @Test func components_roundTripOverCenturies() {
    for days in stride(from: -700_000, to: 2_900_000, by: 997) {
      let date = LocalDate(daysSinceEpoch: days)
      let (year, month, day) = date.components
      #expect(LocalDate(year: year, month: month, day: day) == date)
    }
    #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
  }

  @Test func weekday_isISO() {
    #expect(LocalDate("2026-11-30")?.isoWeekday == 1)  // Monday
    #expect(LocalDate("2026-12-06")?.isoWeekday == 7)  // Sunday
    #expect(LocalDate("1969-12-31")?.isoWeekday == 3)  // Wednesday
  }

  @Test func nights_countCalendarDaysAcrossDaylightSaving() throws {
    // Europe's clocks go back on 2026-10-25: still 2 nights.
    let stay = try #require(DateRange(start: LocalDate("2026-10-24")!, end: LocalDate("2026-10-26")!))
    #expect(stay.count == 2)
    #expect(stay.dates.map(\.description) == ["2026-10-24", "2026-10-25"])
    #expect(DateRange(start: LocalDate("2026-10-24")!, end: LocalDate("2026-10-24")!) == nil)
  }

  @Test func overlap_isHalfOpen() throws {
    let a = try #require(DateRange(start: LocalDate("2026-12-20")!, end: LocalDate("2026-12-23")!))
    let b = try #require(DateRange(start: LocalDate("2026-12-23")!, end: LocalDate("2026-12-25")!))
    let c = try #require(DateRange(start: LocalDate("2026-12-22")!, end: LocalDate("2026-12-24")!))
    #expect(!a.overlaps(b))
    #expect(a.overlaps(c) && c.overlaps(b))
  }

  @Test func json_isTheDateString() throws {
    let data = try JSONEncoder().encode([LocalDate("2026-12-20")!])
    #expect(String(decoding: data, as: UTF8.self) == "[\"2026-12-20\"]")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([LocalDate].self, from: Data("[\"2026-02-30\"]".utf8))
    }
  }

  @Test func instant_isTheLocalWallClockTime() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let instant = LocalDate("2026-07-01")!.instant(hour: 14, in: paris)
    #expect(instant.timeIntervalSince1970 == 1_782_907_200)  // 12:00 UTC
    #expect(LocalDate(instant, in: paris) == LocalDate("2026-07-01"))
  }
}

@Suite struct LocalDateTimeTextTests {
  @Test func descriptionAndCompact_zeroPadded_asPrintfWrites() {
    let time = LocalDateTime(year: 2026, month: 3, day: 7, hour: 8, minute: 5)
    #expect(time.description == "2026-03-07T08:05")
    #expect(time.compact == "202603070805")
    #expect(LocalDateTime(compact: time.compact) == time)
    // Every field width, as %04d / %02d write it (a year before 1000, after 9999, below zero).
    for (year, month, day, hour, minute) in [
      (1, 1, 1, 0, 0), (999, 12, 31, 23, 59), (1970, 1, 1, 0, 0), (9999, 10, 10, 10, 10), (12345, 6, 15, 12, 30),
      (-5, 2, 3, 4, 5),
    ] {
      let value = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)
      #expect(
        value.description == String(format: "%04d-%02d-%02dT%02d:%02d", year, month, day, hour, minute))
      #expect(value.compact == String(format: "%04d%02d%02d%02d%02d", year, month, day, hour, minute))
    }
  }
}
