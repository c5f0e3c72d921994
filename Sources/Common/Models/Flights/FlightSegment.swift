import Foundation

/// A flight designator: the operating carrier's IATA code and the flight number (`UA 123`).
///
/// In JSON and offer ids it is written without a blank (`UA123`); people see `UA 123`.
public struct Flight: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The carrier's two-character IATA code (`UA`, `3U`).
  public var carrier: String
  /// The flight number, 1–9999.
  public var number: Int

  public init(carrier: String, number: Int) {
    self.carrier = carrier
    self.number = number
  }

  /// `UA123`: the designator as it appears in JSON and offer ids.
  public var code: String { "\(carrier)\(number)" }

  /// `UA 123`: the designator for people.
  public var description: String { "\(carrier) \(number)" }

  /// Parses `UA123` (a two-character carrier code, then 1–4 digits), or nil.
  public init?(code: String) {
    let characters = Array(code.uppercased())
    guard characters.count >= 3, characters.count <= 6 else { return nil }
    let carrier = String(characters[0..<2])
    guard carrier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
      let number = Int(String(characters[2...])), (1...9999).contains(number),
      characters[2...].allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    self.init(carrier: carrier, number: number)
  }

  public static func < (lhs: Flight, rhs: Flight) -> Bool {
    (lhs.carrier, lhs.number) < (rhs.carrier, rhs.number)
  }
}

/// An instant at an airport: the UTC instant together with the airport's IANA time zone and the
/// UTC offset in force there at that instant.
///
/// JSON: the ISO 8601 date-time with the local offset, `"2026-12-20T08:05:00-08:00"` (CLI.md,
/// Values). Flight times are always local to their airport (standards.md §3).
public struct AirportTime: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The instant.
  public var instant: Date
  /// The IANA time zone of the airport (`America/Los_Angeles`).
  public var timeZone: String
  /// The offset from UTC in force at `instant`, in minutes (`-480` for PST).
  public var utcOffsetMinutes: Int

  public init(instant: Date, timeZone: String, utcOffsetMinutes: Int) {
    self.instant = instant
    self.timeZone = timeZone
    self.utcOffsetMinutes = utcOffsetMinutes
  }

  /// The instant in `timeZone`, the offset taken from Foundation's time zone rules.
  public init(instant: Date, timeZone: TimeZone) {
    self.init(
      instant: instant, timeZone: timeZone.identifier, utcOffsetMinutes: timeZone.secondsFromGMT(for: instant) / 60)
  }

  /// Seconds of the local wall clock since 1970-01-01T00:00 local.
  private var localSeconds: Int { Int(instant.timeIntervalSince1970.rounded(.down)) + utcOffsetMinutes * 60 }

  /// The local calendar date at the airport.
  public var localDate: LocalDate { LocalDate(daysSinceEpoch: Int((Double(localSeconds) / 86_400).rounded(.down))) }

  /// Minutes since local midnight, 0–1439.
  public var localMinuteOfDay: Int {
    let seconds = localSeconds - localDate.daysSinceEpoch * 86_400
    return seconds / 60
  }

  /// The local wall-clock time, `08:05`.
  public var localTimeText: String {
    let minute = localMinuteOfDay
    return Self.pad(minute / 60) + ":" + Self.pad(minute % 60)
  }

  /// `2026-12-20T08:05:00-08:00`.
  public var iso8601: String {
    let offset = abs(utcOffsetMinutes)
    let sign = utcOffsetMinutes < 0 ? "-" : "+"
    let seconds = (localSeconds % 60 + 60) % 60
    return "\(localDate)T\(localTimeText):\(Self.pad(seconds))\(sign)\(Self.pad(offset / 60)):\(Self.pad(offset % 60))"
  }

  public var description: String { iso8601 }

  public static func < (lhs: AirportTime, rhs: AirportTime) -> Bool { lhs.instant < rhs.instant }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Encodes as the ISO 8601 string only (the time zone travels in the segment).
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(iso8601)
  }

  /// Decodes `2026-12-20T08:05:00-08:00`; the time zone becomes the fixed offset (`GMT-0800`).
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    let formatter = ISO8601DateFormatter()
    guard let instant = formatter.date(from: text), text.count >= 25 else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "invalid date-time \"\(text)\": expected 2026-12-20T08:05:00-08:00")
    }
    let tail = Array(text.suffix(6))
    let hours = Int(String(tail[1...2])) ?? 0
    let minutes = Int(String(tail[4...5])) ?? 0
    let offset = (hours * 60 + minutes) * (tail[0] == "-" ? -1 : 1)
    self.init(
      instant: instant, timeZone: TimeZone(secondsFromGMT: offset * 60)?.identifier ?? "GMT",
      utcOffsetMinutes: offset)
  }
}

/// One flight of an itinerary on its date: where and when it leaves and lands, in local time at
/// each airport.
///
/// JSON (the `segments` of `booking search`): `{"carrier", "flightNumber", "operatingCarrier",
/// "codeshares", "from", "to", "departure", "arrival", "aircraft", "durationMinutes",
/// "departureTimeZone", "arrivalTimeZone"}`; `departure`/`arrival` are ISO 8601 with the airport's
/// UTC offset. `carrier`/`flightNumber` are the operating carrier's (who flies the aircraft, whose
/// flight is booked), repeated as `operatingCarrier`; `codeshares` lists the same flight as other
/// airlines sell it (marketing carriers: `[{"carrier": "LH", "flightNumber": "LH7601"}]`, often
/// empty).
public struct FlightSegment: Hashable, Sendable, Codable {
  /// The operating flight (`UA 123`): the carrier that flies it.
  public var flight: Flight
  /// The same flight under the designators of the airlines that market it (codeshares:
  /// `LH 7601` on a United flight), in carrier-code order; empty when only its operator sells it.
  public var codeshares: [Flight]
  /// IATA code of the departure airport.
  public var from: String
  /// IATA code of the arrival airport.
  public var to: String
  /// Departure, local to `from`.
  public var departure: AirportTime
  /// Arrival, local to `to` (its local date may be the next, or on rare dateline routes the
  /// previous, date).
  public var arrival: AirportTime
  /// IATA aircraft type code (`77W`, `320`).
  public var aircraft: String
  /// The aircraft type's name when known (`Boeing 777-300ER`).
  public var aircraftName: String?

  public init(
    flight: Flight, from: String, to: String, departure: AirportTime, arrival: AirportTime, aircraft: String,
    aircraftName: String? = nil, codeshares: [Flight] = []
  ) {
    self.flight = flight
    self.codeshares = codeshares
    self.from = from
    self.to = to
    self.departure = departure
    self.arrival = arrival
    self.aircraft = aircraft
    self.aircraftName = aircraftName
  }

  /// Block time: arrival minus departure, in minutes (UTC instants, so time zones cancel out).
  public var durationMinutes: Int { Int(arrival.instant.timeIntervalSince(departure.instant) / 60) }

  /// Local arrival date minus local departure date, in days (`+1` overnight, `-1` across the
  /// dateline westward... eastward), for the "+1" mark.
  public var arrivalDayOffset: Int { departure.localDate.days(to: arrival.localDate) }

  private enum CodingKeys: String, CodingKey {
    case carrier, flightNumber, operatingCarrier, codeshares, from, to, departure, arrival, aircraft, aircraftName
    case durationMinutes, departureTimeZone, arrivalTimeZone
  }

  /// One marketing designator in JSON: `{"carrier": "LH", "flightNumber": "LH7601"}`.
  private struct Codeshare: Codable {
    var carrier: String
    var flightNumber: String
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(flight.carrier, forKey: .carrier)
    try container.encode(flight.code, forKey: .flightNumber)
    try container.encode(flight.carrier, forKey: .operatingCarrier)
    try container.encode(
      codeshares.map { Codeshare(carrier: $0.carrier, flightNumber: $0.code) }, forKey: .codeshares)
    try container.encode(from, forKey: .from)
    try container.encode(to, forKey: .to)
    try container.encode(departure, forKey: .departure)
    try container.encode(arrival, forKey: .arrival)
    try container.encode(aircraft, forKey: .aircraft)
    try container.encodeIfPresent(aircraftName, forKey: .aircraftName)
    try container.encode(durationMinutes, forKey: .durationMinutes)
    try container.encode(departure.timeZone, forKey: .departureTimeZone)
    try container.encode(arrival.timeZone, forKey: .arrivalTimeZone)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let code = try container.decode(String.self, forKey: .flightNumber)
    guard let flight = Flight(code: code) else {
      throw DecodingError.dataCorruptedError(
        forKey: .flightNumber, in: container, debugDescription: "invalid flight number \"\(code)\"")
    }
    self.flight = flight
    codeshares = try (container.decodeIfPresent([Codeshare].self, forKey: .codeshares) ?? []).map {
      guard let flight = Flight(code: $0.flightNumber) else {
        throw DecodingError.dataCorruptedError(
          forKey: .codeshares, in: container, debugDescription: "invalid flight number \"\($0.flightNumber)\"")
      }
      return flight
    }
    from = try container.decode(String.self, forKey: .from)
    to = try container.decode(String.self, forKey: .to)
    departure = try container.decode(AirportTime.self, forKey: .departure)
    arrival = try container.decode(AirportTime.self, forKey: .arrival)
    if let zone = try container.decodeIfPresent(String.self, forKey: .departureTimeZone) { departure.timeZone = zone }
    if let zone = try container.decodeIfPresent(String.self, forKey: .arrivalTimeZone) { arrival.timeZone = zone }
    aircraft = try container.decode(String.self, forKey: .aircraft)
    aircraftName = try container.decodeIfPresent(String.self, forKey: .aircraftName)
  }
}

/// The flights of one direction of a trip, in order, each leaving from where the previous landed
/// (never across two airports of a city).
public struct Itinerary: Hashable, Sendable, Codable {
  /// At least one segment.
  public var segments: [FlightSegment]

  public init(segments: [FlightSegment]) {
    self.segments = segments
  }

  /// Connections: segments − 1.
  public var stops: Int { max(0, segments.count - 1) }
  /// First departure, local to the origin.
  public var departure: AirportTime { segments[0].departure }
  /// Last arrival, local to the destination.
  public var arrival: AirportTime { segments[segments.count - 1].arrival }
  /// IATA code of the first airport.
  public var origin: String { segments[0].from }
  /// IATA code of the last airport.
  public var destination: String { segments[segments.count - 1].to }
  /// Door-to-door: last arrival minus first departure, in minutes (UTC instants).
  public var durationMinutes: Int { Int(arrival.instant.timeIntervalSince(departure.instant) / 60) }
  /// Minutes on the ground at each connection, in order (`stops` values).
  public var layoverMinutes: [Int] {
    zip(segments, segments.dropFirst()).map { Int($1.departure.instant.timeIntervalSince($0.arrival.instant) / 60) }
  }
  /// The IATA codes of the connection airports.
  public var connectionAirports: [String] { segments.dropLast().map(\.to) }
  /// The distinct carriers, in order of first appearance.
  public var carriers: [String] {
    var seen: [String] = []
    for segment in segments where !seen.contains(segment.flight.carrier) { seen.append(segment.flight.carrier) }
    return seen
  }
}
