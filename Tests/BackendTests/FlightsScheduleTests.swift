import Common
import Foundation
import Testing

@testable import Backend

@Suite struct FlightsScheduleTests {
  // MARK: Time zones

  @Test func zoneClock_agreesWithCalendarAroundEveryTransition() throws {
    for identifier in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "America/Sao_Paulo", "Asia/Tokyo"] {
      let zone = TimeZone(identifier: identifier)!
      let clock = ZoneClock(timeZone: zone)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      // Every 37 minutes over two years: local → UTC like Calendar.date(from:), UTC → local offset.
      let start = LocalDate(year: 2026, month: 1, day: 1)!.daysSinceEpoch * 1440
      var local = Int32(start)
      while local < Int32(start + 730 * 1440) {
        let day = LocalDate(daysSinceEpoch: Int(local / 1440))
        let minute = Int(local % 1440)
        let parts = DateComponents(
          year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
        let expected = Int32(calendar.date(from: parts)!.timeIntervalSince1970 / 60)
        #expect(clock.utc(fromLocal: local) == expected, "\(identifier) \(day) \(minute)")
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(expected) * 60)) / 60
        #expect(clock.offset(atUTC: expected) == Int32(offset))
        local += 37
      }
    }
  }

  @Test func zoneClock_gapMovesForwardAndOverlapTakesTheFirst() {
    let clock = ZoneClock(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    let spring = Int32(LocalDate("2027-03-28")!.daysSinceEpoch * 1440)
    // 02:30 does not exist: 03:30 CEST = 01:30 UTC.
    #expect(clock.utc(fromLocal: spring + 150) == spring + 90)
    let autumn = Int32(LocalDate("2027-10-31")!.daysSinceEpoch * 1440)
    // 02:30 happens twice: the first is 02:30 CEST = 00:30 UTC.
    #expect(clock.utc(fromLocal: autumn + 150) == autumn + 30)
  }

  /// Years before and after the years built with the clock (and those of the old 2024–2031
  /// table) use their own rules: every transition of 2019 and 2035 in both hemispheres, and a
  /// zone whose rules changed (São Paulo dropped DST in 2019), against `Calendar`.
  @Test(arguments: [2019, 2035])
  func zoneClock_agreesWithCalendarInYearsOutsideTheBuiltOnes(year: Int) throws {
    for identifier in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "America/Sao_Paulo", "Europe/Moscow"] {
      let zone = TimeZone(identifier: identifier)!
      let clock = ZoneClock(timeZone: zone, eagerYears: 2026...2027)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      func check(_ local: Int32) {
        let day = LocalDate(daysSinceEpoch: Int(local / 1440))
        let minute = Int(local % 1440)
        let parts = DateComponents(
          year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
        let expected = Int32(calendar.date(from: parts)!.timeIntervalSince1970 / 60)
        #expect(clock.utc(fromLocal: local) == expected, "\(identifier) \(day) \(minute)")
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(expected) * 60)) / 60
        #expect(clock.offset(atUTC: expected) == Int32(offset), "\(identifier) \(day) \(minute)")
      }
      // The 1st and 15th of every month at 12:00.
      for month in 1...12 {
        for dayOfMonth in [1, 15] {
          check(Int32(LocalDate(year: year, month: month, day: dayOfMonth)!.daysSinceEpoch * 1440 + 720))
        }
      }
      // Two days around each transition of the year, every 7 minutes.
      var cursor = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
      let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
      while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
        let local = Int32((next.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: next))) / 60)
        for step in stride(from: local - 1440, to: local + 1440, by: 7) { check(step) }
        cursor = next
      }
    }
  }

  @Test func zoneClock_dstChangeDaysOfBothHemispheresIn2035() {
    let berlin = ZoneClock(timeZone: TimeZone(identifier: "Europe/Berlin")!, eagerYears: 2026...2027)
    let spring = Int32(LocalDate("2035-03-25")!.daysSinceEpoch * 1440)
    #expect(berlin.utc(fromLocal: spring + 150) == spring + 90)  // 02:30 does not exist: 03:30 CEST
    #expect(berlin.offset(atUTC: spring + 30) == 60)
    #expect(berlin.offset(atUTC: spring + 90) == 120)
    let sydney = ZoneClock(timeZone: TimeZone(identifier: "Australia/Sydney")!, eagerYears: 2026...2027)
    // DST ends on 2035-04-01 at 03:00 AEDT: 02:30 happens twice; the first is 02:30 AEDT (+11).
    let autumn = Int32(LocalDate("2035-04-01")!.daysSinceEpoch * 1440)
    #expect(sydney.utc(fromLocal: autumn + 150) == autumn + 150 - 660)
    // DST starts on 2035-10-07 at 02:00 AEST: 02:30 does not exist, 03:30 AEDT.
    let spring2 = Int32(LocalDate("2035-10-07")!.daysSinceEpoch * 1440)
    #expect(sydney.utc(fromLocal: spring2 + 150) == spring2 + 210 - 660)
    #expect(sydney.offset(atUTC: spring2 + 210 - 660) == 660)
    #expect(sydney.offset(atUTC: autumn - 1440 * 30) == 660)  // March 2035: summer
    #expect(sydney.offset(atUTC: autumn + 1440 * 90) == 600)  // July 2035: winter
  }

  @Test func schedule_usesEachYearsOwnOffsets_beforeAndAfter2024To2031() {
    let world = FlightsFixtures.world
    for (date, departure, arrival) in [
      ("2019-07-17", 120, -240), ("2019-01-16", 60, -300), ("2035-07-18", 120, -240), ("2035-01-17", 60, -300),
      ("2040-07-18", 120, -240),
    ] {
      let flights = world.flights(from: "FRA", to: "JFK", on: LocalDate(date)!)
      #expect(!flights.isEmpty, "\(date)")
      #expect(flights.allSatisfy { $0.departure.utcOffsetMinutes == departure }, "\(date)")
      #expect(flights.allSatisfy { $0.arrival.utcOffsetMinutes == arrival }, "\(date)")
    }
    // Southern hemisphere: Sydney in its summer and winter of 2035; São Paulo with DST in 2019, not since.
    #expect(
      world.departures(from: "SYD", on: LocalDate("2035-01-17")!).allSatisfy { $0.departure.utcOffsetMinutes == 660 })
    #expect(
      world.departures(from: "SYD", on: LocalDate("2035-07-18")!).allSatisfy { $0.departure.utcOffsetMinutes == 600 })
    #expect(
      world.departures(from: "GRU", on: LocalDate("2019-01-16")!).allSatisfy { $0.departure.utcOffsetMinutes == -120 })
    #expect(
      world.departures(from: "GRU", on: LocalDate("2035-01-17")!).allSatisfy { $0.departure.utcOffsetMinutes == -180 })
  }

  // MARK: Schedules

  @Test func schedule_isDeterministicWhateverTheInputOrder() {
    var input = FlightsFixtures.worldInput
    var generator = SeededGenerator(seed: 7)
    input.routes.shuffle(using: &generator)
    input.airports.shuffle(using: &generator)
    let shuffled = FlightNetwork(input)
    let world = FlightsFixtures.world
    #expect(shuffled.patternCount == world.patternCount)
    let date = LocalDate("2027-01-15")!
    for airport in ["FRA", "SFO", "NRT", "GRU", "JNB"] {
      #expect(shuffled.departures(from: airport, on: date) == world.departures(from: airport, on: date))
    }
  }

  @Test func schedule_keepsLocalDepartureTimesAcrossDaylightSavingChanges() {
    let world = FlightsFixtures.world
    // Europe springs forward on 2027-03-28: the same local times, one hour less of UTC offset.
    let before = world.flights(from: "FRA", to: "JFK", on: LocalDate("2027-03-27")!)
    let after = world.flights(from: "FRA", to: "JFK", on: LocalDate("2027-03-28")!)
    #expect(!before.isEmpty)
    #expect(before.map(\.departure.localTimeText) == after.map(\.departure.localTimeText))
    #expect(before.allSatisfy { $0.departure.utcOffsetMinutes == 60 })
    #expect(after.allSatisfy { $0.departure.utcOffsetMinutes == 120 })
    // Block times do not change; the local arrival moves with the two zones' offsets.
    #expect(before.map(\.durationMinutes) == after.map(\.durationMinutes))
    // New York changed on 2027-03-14: the JFK arrivals of 2027-03-27 are on EDT (-4h).
    #expect(before.allSatisfy { $0.arrival.utcOffsetMinutes == -240 })
    let winter = world.flights(from: "FRA", to: "JFK", on: LocalDate("2027-01-15")!)
    #expect(winter.allSatisfy { $0.arrival.utcOffsetMinutes == -300 && $0.departure.utcOffsetMinutes == 60 })
  }

  @Test func schedule_arrivalsCanFallOnTheNextOrPreviousLocalDate() {
    let world = FlightsFixtures.world
    let date = LocalDate("2027-01-15")!
    // Eastbound overnight across the Atlantic: next day.
    let transatlantic = world.flights(from: "JFK", to: "LHR", on: date)
    #expect(transatlantic.contains { $0.arrivalDayOffset == 1 })
    // Westbound across the dateline: arrivals in Honolulu on the previous local date exist.
    let pacific = ["NRT", "HND", "SYD", "AKL", "ICN"].flatMap { world.flights(from: $0, to: "HNL", on: date) }
    #expect(pacific.contains { $0.arrivalDayOffset == -1 })
    for segment in transatlantic + pacific {
      #expect(segment.durationMinutes > 0)
      #expect(segment.departure.localDate == date)
    }
  }

  @Test func schedule_seatsAndCabinsFollowTheAircraft() throws {
    let world = FlightsFixtures.world
    let date = LocalDate("2027-01-15")!
    let longHaul = try #require(world.flights(from: "LHR", to: "JFK", on: date).first { $0.aircraft == "744" })
    let seats = try #require(world.seats(of: longHaul.flight))
    #expect(seats[.first]! > 0 && seats[.business]! > 0 && seats[.premium]! > 0)
    #expect(seats.values.reduce(0, +) == 400)
    let departures = ["ORD", "ATL", "DTW", "MUC", "CLT"].flatMap { world.departures(from: $0, on: date) }
    let regional = try #require(departures.first { $0.aircraft == "CR2" })
    #expect(world.seats(of: regional.flight) == [.economy: 50, .premium: 0, .business: 0, .first: 0])
  }

  @Test func schedule_blockTimesGrowWithDistance() {
    let world = FlightsFixtures.world
    let date = LocalDate("2027-01-15")!
    let short = world.flights(from: "SFO", to: "LAX", on: date)
    let long = world.flights(from: "SFO", to: "JFK", on: date)
    #expect(!short.isEmpty && !long.isEmpty)
    #expect(short.allSatisfy { (50...110).contains($0.durationMinutes) })
    #expect(long.allSatisfy { (300...420).contains($0.durationMinutes) })
  }
}

/// A reproducible random number generator (SplitMix64) for shuffles in tests.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
