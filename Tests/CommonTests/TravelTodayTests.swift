import Common
import Foundation
import Testing

@Suite struct TravelTodayTests {
  /// #14 (QA 1): "today" comes from the app's clock (`--clock-start`), not the machine's; `here`
  /// is in the traveller's zone, and the span runs from UTC−12 to UTC+14.
  @Test func today_followsTheClock_andSpansEveryZone() throws {
    let start = try #require(ISO8601DateFormatter().date(from: "2026-12-02T02:30:00Z"))
    let clock = TravelClock(start: start, speed: 1)
    let utc = TravelToday(clock: clock, zone: .gmt)
    #expect(utc.here == LocalDate("2026-12-02"))
    #expect(utc.earliest == LocalDate("2026-12-01"))
    #expect(utc.latest == LocalDate("2026-12-02"))
    let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
    #expect(TravelToday(clock: clock, zone: losAngeles).here == LocalDate("2026-12-01"))
    #expect(!utc.isPastEverywhere(LocalDate("2026-12-01")!))
    #expect(utc.isPastEverywhere(LocalDate("2026-11-30")!))
    #expect(utc.lastAllowed(daysAhead: 330) == LocalDate("2026-12-02")!.adding(days: 330))
    let late = try #require(ISO8601DateFormatter().date(from: "2026-12-02T12:30:00Z"))
    #expect(TravelToday(at: late, zone: .gmt).latest == LocalDate("2026-12-03"))
  }
}
