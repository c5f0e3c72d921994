import Foundation
import Testing

@testable import Common

@Suite struct ICalendarTests {
  static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @Test func escapeText_escapesTheFourSpecials() {
    #expect(ICalendar.escapeText("a\\b;c,d\ne\r\nf") == "a\\\\b\\;c\\,d\\ne\\nf")
    #expect(ICalendar.escapeText("bell\u{07}") == "bell")
  }

  @Test func fold_limitsEveryLineTo75OctetsAndKeepsUTF8Whole() {
    let line = "SUMMARY:" + String(repeating: "ü", count: 100)  // 2 octets each
    let folded = ICalendar.fold(line)
    #expect(folded.hasSuffix("\r\n"))
    let body = String(decoding: folded.utf8.dropLast(2), as: UTF8.self)  // "\r\n" is one Character
    let physical = body.components(separatedBy: "\r\n")
    #expect(physical.count > 1)
    for (index, part) in physical.enumerated() {
      #expect(part.utf8.count <= 75)
      if index > 0 { #expect(part.hasPrefix(" ")) }
    }
    // Unfolding (drop CRLF + one space) gives the line back.
    #expect(body.replacingOccurrences(of: "\r\n ", with: "") == line)
    #expect(ICalendar.fold("SHORT:1") == "SHORT:1\r\n")
    let exact = String(repeating: "x", count: 75)
    #expect(ICalendar.fold(exact) == exact + "\r\n")
    #expect(ICalendar.fold(exact + "y") == exact + "\r\n y\r\n")
  }

  @Test func document_inUTC_hasTheRequiredProperties() {
    let event = CalendarEvent(
      uid: "res_1@travel.app", summary: "Flight SFO → JFK, UA 123", description: "Seat 23C\nGate, terminal; later",
      location: "SFO", start: Self.instant("2026-12-20T16:05:00Z"), end: Self.instant("2026-12-21T00:35:00Z"))
    let text = ICalendar.document(events: [event], stamp: Self.instant("2026-11-29T10:00:00Z"))
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.first == "BEGIN:VCALENDAR")
    #expect(lines.contains("VERSION:2.0"))
    #expect(lines.contains { $0.hasPrefix("PRODID:") })
    #expect(lines.contains("UID:res_1@travel.app"))
    #expect(lines.contains("DTSTAMP:20261129T100000Z"))
    #expect(lines.contains("DTSTART:20261220T160500Z"))
    #expect(lines.contains("DTEND:20261221T003500Z"))
    #expect(lines.contains("DESCRIPTION:Seat 23C\\nGate\\, terminal\\; later"))
    #expect(lines.contains("STATUS:CONFIRMED"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    #expect(!text.contains("VTIMEZONE"))
  }

  @Test func document_withAZone_writesTZIDAndAMatchingVTIMEZONE() {
    let zone = TimeZone(identifier: "America/Los_Angeles")!
    let event = CalendarEvent(
      uid: "res_2@travel.app", summary: "Car", start: Self.instant("2026-12-20T16:05:00Z"),
      end: Self.instant("2026-12-27T16:05:00Z"), timeZone: zone)
    let text = ICalendar.document(events: [event], stamp: Self.instant("2026-11-29T10:00:00Z"))
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20261220T080500"))
    #expect(lines.contains("DTEND;TZID=America/Los_Angeles:20261227T080500"))
    #expect(lines.contains("BEGIN:VTIMEZONE"))
    #expect(lines.contains("TZID:America/Los_Angeles"))
    // 2026-11-01 09:00 UTC: PDT (-0700) → PST (-0800), at 02:00 local daylight time.
    let standard = lines.firstIndex(of: "DTSTART:20261101T020000")
    #expect(standard != nil)
    if let standard {
      #expect(lines[standard - 1] == "BEGIN:STANDARD")
      #expect(lines[standard + 1] == "TZOFFSETFROM:-0700")
      #expect(lines[standard + 2] == "TZOFFSETTO:-0800")
    }
    #expect(lines.contains("BEGIN:DAYLIGHT"))
    #expect(lines.firstIndex(of: "END:VTIMEZONE")! < lines.firstIndex(of: "BEGIN:VEVENT")!)
  }

  @Test func reservation_becomesAnEvent() throws {
    let reservation = Reservation(
      id: "res_9", kind: .hotel, status: .cancelled, total: Money(amount: 300, currency: "EUR"),
      createdAt: Self.instant("2026-11-01T10:00:00Z"), summary: "Hotel Adlon, 2 nights", locator: "ABC123",
      startsAt: Self.instant("2026-12-20T14:00:00Z"), endsAt: Self.instant("2026-12-22T10:00:00Z"),
      details: ["timeZone": .string("Europe/Berlin"), "location": .string("Berlin")])
    let event = try #require(reservation.calendarEvent())
    #expect(event.uid == "res_9@travel.app")
    #expect(event.isCancelled)
    #expect(event.timeZone?.identifier == "Europe/Berlin")
    #expect(event.location == "Berlin")
    #expect(event.description?.contains("ABC123") == true)
    var undated = reservation
    undated.startsAt = nil
    #expect(undated.calendarEvent() == nil)
  }

  @Test func flight_startsInTheDepartureZoneAndEndsInTheArrivalZone() throws {
    // A reservation kept before "timeZone" was stored: the zones come from its segments.
    let segments: JSONValue = .array([
      .object(["departureTimeZone": .string("America/Los_Angeles"), "arrivalTimeZone": .string("America/Chicago")]),
      .object(["departureTimeZone": .string("America/Chicago"), "arrivalTimeZone": .string("America/New_York")]),
    ])
    let reservation = Reservation(
      id: "res_7", kind: .flight, status: .confirmed, total: Money(amount: 420, currency: "USD"),
      createdAt: Self.instant("2026-11-01T10:00:00Z"), summary: "SFO → JFK", locator: "QX7P2A",
      startsAt: Self.instant("2026-12-20T16:05:00Z"), endsAt: Self.instant("2026-12-21T01:40:00Z"),
      details: ["segments": segments])
    #expect(reservation.startTimeZone?.identifier == "America/Los_Angeles")
    #expect(reservation.endTimeZone?.identifier == "America/New_York")
    let event = try #require(reservation.calendarEvent())
    let lines = ICalendar.document(events: [event], stamp: Self.instant("2026-11-29T10:00:00Z"))
      .components(separatedBy: "\r\n")
    #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20261220T080500"))
    #expect(lines.contains("DTEND;TZID=America/New_York:20261220T204000"))
    #expect(lines.contains("TZID:America/Los_Angeles"))
    #expect(lines.contains("TZID:America/New_York"))
  }

  @Test func zones_explicitDetailsWin_andAHotelEndsWhereItBegins() {
    var reservation = Reservation(
      id: "res_8", kind: .car, status: .confirmed, total: Money(amount: 90, currency: "EUR"),
      createdAt: Self.instant("2026-11-01T10:00:00Z"), summary: "Car",
      details: ["timeZone": .string("Europe/Berlin"), "endTimeZone": .string("Europe/Lisbon")])
    #expect(reservation.startTimeZone?.identifier == "Europe/Berlin")
    #expect(reservation.endTimeZone?.identifier == "Europe/Lisbon")
    reservation.details = ["timeZone": .string("Asia/Tokyo")]
    #expect(reservation.endTimeZone?.identifier == "Asia/Tokyo")
    reservation.details = [:]
    #expect(reservation.startTimeZone == nil && reservation.endTimeZone == nil)
  }
}
