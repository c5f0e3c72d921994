import Foundation

/// One event of an iCalendar file: what each kind of reservation supplies for calendar export
/// (a flight its departure and arrival, a stay its check-in and check-out, a rental its pick-up
/// and return).
public struct CalendarEvent: Hashable, Sendable {
  /// Globally unique and stable across exports of the same thing (`res_…@travel.app`), so a
  /// calendar app updates the event instead of duplicating it.
  public var uid: String
  /// The title (`Flight SFO → JFK`).
  public var summary: String
  /// Free text; may contain newlines.
  public var description: String?
  /// Where it happens (`San Francisco International Airport (SFO)`).
  public var location: String?
  /// Start and end instants. `end` is not before `start`.
  public var start: Date
  public var end: Date
  /// The zone the start is written in: nil or UTC gives UTC times (`…Z`); any other zone gives
  /// `TZID=<identifier>` times and a matching `VTIMEZONE`.
  public var timeZone: TimeZone?
  /// The zone the end is written in (a flight lands in another zone than it leaves); the start's
  /// zone unless given.
  public var endTimeZone: TimeZone?
  /// Whether the event still holds (`STATUS:CONFIRMED`) or was cancelled (`STATUS:CANCELLED`).
  public var isCancelled: Bool

  public init(
    uid: String, summary: String, description: String? = nil, location: String? = nil, start: Date, end: Date,
    timeZone: TimeZone? = nil, endTimeZone: TimeZone? = nil, isCancelled: Bool = false
  ) {
    self.uid = uid
    self.summary = summary
    self.description = description
    self.location = location
    self.start = start
    self.end = max(start, end)
    self.timeZone = timeZone
    self.endTimeZone = endTimeZone ?? timeZone
    self.isCancelled = isCancelled
  }
}

/// Writes iCalendar documents (RFC 5545) that calendar apps import.
///
/// - Lines end in CRLF and are folded so no line is longer than 75 octets (the CRLF excluded);
///   a fold is CRLF plus one space and never splits a UTF-8 sequence (RFC 5545 §3.1).
/// - TEXT values escape `\`, `;`, `,` and newlines (§3.3.11); other control characters are dropped.
/// - Every event has `UID`, `DTSTAMP` (UTC), `DTSTART` and `DTEND`: UTC (`19970714T173000Z`) or
///   local time with `TZID` and a `VTIMEZONE` whose `STANDARD`/`DAYLIGHT` parts cover the years of
///   the events (from the Foundation time-zone database).
public enum ICalendar {
  /// `PRODID` of every document this app writes.
  public static let productIdentifier = "-//Travel App//Travel \(TravelVersion.current)//EN"

  /// The whole `VCALENDAR` document for `events`, stamped with `stamp` (the export time).
  public static func document(events: [CalendarEvent], stamp: Date = Date()) -> String {
    var lines = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:\(escapeText(productIdentifier))",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
    ]
    var zones: [String: TimeZone] = [:]
    var years: [String: ClosedRange<Int>] = [:]
    for event in events {
      for case let zone? in [event.timeZone, event.endTimeZone] where !isUTC(zone) {
        zones[zone.identifier] = zone
        let first = utcYear(event.start) - 1
        let last = utcYear(event.end) + 1
        let known = years[zone.identifier] ?? first...last
        years[zone.identifier] = min(known.lowerBound, first)...max(known.upperBound, last)
      }
    }
    for identifier in zones.keys.sorted() {
      lines += timeZoneComponent(zones[identifier]!, years: years[identifier]!)
    }
    for event in events {
      lines.append("BEGIN:VEVENT")
      lines.append("UID:\(escapeText(event.uid))")
      lines.append("DTSTAMP:\(utcDateTime(stamp))")
      lines.append(dateTimeProperty("DTSTART", event.start, zone: event.timeZone))
      lines.append(dateTimeProperty("DTEND", event.end, zone: event.endTimeZone))
      lines.append("SUMMARY:\(escapeText(event.summary))")
      if let description = event.description { lines.append("DESCRIPTION:\(escapeText(description))") }
      if let location = event.location { lines.append("LOCATION:\(escapeText(location))") }
      lines.append("STATUS:\(event.isCancelled ? "CANCELLED" : "CONFIRMED")")
      lines.append("TRANSP:OPAQUE")
      lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined()
  }

  /// `text` as an iCalendar TEXT value: `\` → `\\`, `;` → `\;`, `,` → `\,`, any newline (CRLF,
  /// LF, CR) → `\n`; other control characters but tab are dropped.
  public static func escapeText(_ text: String) -> String {
    var result = ""
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\r": result += "\\n"
      case "\n": if !previousWasCR { result += "\\n" }
      case "\t": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F { continue }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// One content line folded to at most 75 octets per physical line, each ending in CRLF;
  /// continuation lines start with a space (which counts in their 75). Folds fall between
  /// Unicode scalars, never inside a UTF-8 sequence.
  public static func fold(_ line: String) -> String {
    var result = ""
    var current = 0
    var limit = 75
    for scalar in line.unicodeScalars {
      let size = String(scalar).utf8.count
      if current + size > limit {
        result += "\r\n "
        current = 1
        limit = 75
      }
      result.unicodeScalars.append(scalar)
      current += size
    }
    return result + "\r\n"
  }

  /// `20261220T160500Z`.
  public static func utcDateTime(_ date: Date) -> String {
    basic(date, offset: 0) + "Z"
  }

  // MARK: - Private

  private static func isUTC(_ zone: TimeZone) -> Bool {
    ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"].contains(zone.identifier)
  }

  private static func dateTimeProperty(_ name: String, _ date: Date, zone: TimeZone?) -> String {
    guard let zone, !isUTC(zone) else { return "\(name):\(utcDateTime(date))" }
    return "\(name);TZID=\(zone.identifier):\(basic(date, offset: zone.secondsFromGMT(for: date)))"
  }

  private static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  private static func utcYear(_ date: Date) -> Int {
    utcCalendar.component(.year, from: date)
  }

  /// `YYYYMMDDTHHMMSS` of the wall-clock time `offset` seconds from UTC.
  private static func basic(_ date: Date, offset: Int) -> String {
    let parts = utcCalendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date.addingTimeInterval(TimeInterval(offset)))
    return String(
      format: "%04d%02d%02dT%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0, parts.second ?? 0)
  }

  /// `+0100`, `-0530`.
  private static func offsetText(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
  }

  /// A `VTIMEZONE` for `zone` with one observance per transition in `years` (or one fixed
  /// `STANDARD` observance for a zone without transitions then).
  private static func timeZoneComponent(_ zone: TimeZone, years: ClosedRange<Int>) -> [String] {
    var lines = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)"]
    let start = utcCalendar.date(from: DateComponents(year: years.lowerBound, month: 1, day: 1))!
    let end = utcCalendar.date(from: DateComponents(year: years.upperBound + 1, month: 1, day: 1))!
    var observances: [[String]] = []
    var cursor = start
    while let transition = zone.nextDaylightSavingTimeTransition(after: cursor), transition < end {
      let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
      let after = zone.secondsFromGMT(for: transition)
      let kind = zone.isDaylightSavingTime(for: transition) ? "DAYLIGHT" : "STANDARD"
      observances.append([
        "BEGIN:\(kind)",
        "DTSTART:\(basic(transition, offset: before))",
        "TZOFFSETFROM:\(offsetText(before))",
        "TZOFFSETTO:\(offsetText(after))",
        "TZNAME:\(escapeText(zone.abbreviation(for: transition) ?? zone.identifier))",
        "END:\(kind)",
      ])
      cursor = transition
    }
    if observances.isEmpty {
      let offset = zone.secondsFromGMT(for: start)
      observances.append([
        "BEGIN:STANDARD",
        "DTSTART:\(basic(start, offset: offset))",
        "TZOFFSETFROM:\(offsetText(offset))",
        "TZOFFSETTO:\(offsetText(offset))",
        "TZNAME:\(escapeText(zone.abbreviation(for: start) ?? zone.identifier))",
        "END:STANDARD",
      ])
    } else {
      // The offset in force before the first transition, so times before it are covered too.
      let offset = zone.secondsFromGMT(for: start)
      let kind = zone.isDaylightSavingTime(for: start) ? "DAYLIGHT" : "STANDARD"
      observances.insert(
        [
          "BEGIN:\(kind)",
          "DTSTART:\(basic(start, offset: offset))",
          "TZOFFSETFROM:\(offsetText(offset))",
          "TZOFFSETTO:\(offsetText(offset))",
          "TZNAME:\(escapeText(zone.abbreviation(for: start) ?? zone.identifier))",
          "END:\(kind)",
        ], at: 0)
    }
    lines += observances.flatMap { $0 }
    lines.append("END:VTIMEZONE")
    return lines
  }
}
