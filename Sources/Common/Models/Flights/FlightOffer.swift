import Foundation

/// A flight on its local departure date: what a seat is sold on (`UA123` on `2026-12-20`).
public struct DatedFlight: Hashable, Sendable, Codable, CustomStringConvertible {
  public var flight: Flight
  /// The departure date, local to the departure airport.
  public var date: LocalDate

  public init(flight: Flight, date: LocalDate) {
    self.flight = flight
    self.date = date
  }

  /// `UA 123 2026-12-20`.
  public var description: String { "\(flight) \(date)" }
}

/// The id of a flight offer: stable (the same flights, cabin, passengers and price give the
/// same id) and self-describing, so that `book` can re-price it without any server-side state.
///
/// Text form: `FL1.<cabin>.<adults>.<outbound>[.<return>].<currency><total minor units>.<signature>`,
/// where each direction is its segments joined by `-`, each segment `YYYYMMDD` (local departure
/// date) then the flight code, and the signature is 32 lowercase hex digits (``OfferSignature``):
/// `FL1.Y.2.20261220LH778-20261221QF2.USD245010.3f9c…`. Only letters, digits, `.` and `-`: safe
/// to paste into a shell. The signature covers ``payload`` (everything before it); the backend that
/// searched makes it and refuses an id whose signature does not match (`invalid_offer_id`).
public struct FlightOfferID: Hashable, Sendable, Codable, CustomStringConvertible {
  public var cabin: Cabin
  /// Adult passengers, 1–9.
  public var adults: Int
  /// One itinerary (one-way) or two (outbound, return); each a list of dated flights.
  public var directions: [[DatedFlight]]
  /// The total quoted for all passengers when the offer was made, in the currency the offer was
  /// priced in (re-pricing and booking use that currency; JPY `…JPY49842`, EUR `…EUR28371`).
  public var quotedTotal: Money
  /// The signature of ``payload`` (``OfferSignature``); empty until the backend signs the id.
  public var signature: String

  public init(cabin: Cabin, adults: Int, directions: [[DatedFlight]], quotedTotal: Money, signature: String = "") {
    self.cabin = cabin
    self.adults = adults
    self.directions = directions
    self.quotedTotal = quotedTotal
    self.signature = signature
  }

  /// Every dated flight, outbound first.
  public var flights: [DatedFlight] { directions.flatMap { $0 } }

  /// The text form (see the type's documentation): ``payload``, then `.` and the signature.
  public var description: String { signature.isEmpty ? payload : payload + "." + signature }

  /// What the signature covers: the text form without its signature
  /// (`FL1.Y.2.20261220LH778-20261221QF2.USD245010`).
  public var payload: String {
    var parts = ["FL1", String(cabin.letter), String(adults)]
    for direction in directions {
      parts.append(
        direction.map { dated in
          let (year, month, day) = dated.date.components
          // YYYYMMDD without String(format:), which costs more than the rest of a search's id.
          return Self.zeroPadded(year, 4) + Self.zeroPadded(month, 2) + Self.zeroPadded(day, 2) + dated.flight.code
        }.joined(separator: "-"))
    }
    parts.append(quotedTotal.currencyCode + String(quotedTotal.minorUnits))
    return parts.joined(separator: ".")
  }

  /// `number` in decimal, left-padded with zeros to `width` digits (never cut).
  static func zeroPadded(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  /// Parses the text form (the signature is checked for its shape only; the backend checks it
  /// matches).
  /// - Throws: ``ServiceError`` `invalid_offer_id` (invalid input) when `text` is not an offer id
  ///   or has no signature.
  public init(parsing text: String) throws {
    let malformed = ServiceError.invalid(
      "invalid_offer_id",
      "malformed offer id \(EchoedInput.quoted(text)): expected an id printed by 'search', like "
        + "FL1.Y.1.20261220UA123.USD35410.\(OfferSignature.example)")
    var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 2, OfferSignature.isWellFormed(parts[parts.count - 1]) else {
      throw parts[0] == "FL1" && parts.count >= 5 ? OfferSignature.missing(text, search: "search") : malformed
    }
    let signature = parts.removeLast()
    guard parts.count == 5 || parts.count == 6, parts[0] == "FL1", parts[1].count == 1,
      let cabin = Cabin(letter: Character(parts[1])), let adults = Int(parts[2]), (1...9).contains(adults),
      parts[2].count == 1
    else { throw malformed }
    var directions: [[DatedFlight]] = []
    for part in parts[3..<(parts.count - 1)] {
      let pieces = part.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...3).contains(pieces.count) else { throw malformed }
      var direction: [DatedFlight] = []
      for piece in pieces {
        let text = String(piece)
        guard text.count >= 11 else { throw malformed }
        let stamp = String(text.prefix(8))
        guard stamp.allSatisfy({ $0.isASCII && $0.isNumber }),
          let date = LocalDate(
            year: Int(stamp.prefix(4)) ?? 0, month: Int(stamp.dropFirst(4).prefix(2)) ?? 0,
            day: Int(stamp.suffix(2)) ?? 0),
          let flight = Flight(code: String(text.dropFirst(8))), flight.code == text.dropFirst(8)
        else { throw malformed }
        direction.append(DatedFlight(flight: flight, date: date))
      }
      directions.append(direction)
    }
    let priceText = parts[parts.count - 1]
    let currency = String(priceText.prefix(3))
    let digits = priceText.dropFirst(3)
    guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }), !digits.isEmpty,
      digits.allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int64(digits),
      let total = try? Money(minorUnits: units, currency: currency)
    else { throw malformed }
    self.init(cabin: cabin, adults: adults, directions: directions, quotedTotal: total, signature: signature)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      try self.init(parsing: try container.decode(String.self))
    } catch let error as ServiceError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
  }
}

/// What one passenger pays, or all of them: the fare, the taxes and fees on it, and the total.
///
/// JSON: `{"fare": Money, "taxesAndFees": Money, "total": Money}`.
public struct FareBreakdown: Hashable, Sendable, Codable {
  /// The carrier's fare (before taxes).
  public var fare: Money
  /// Government taxes and airport/security fees.
  public var taxesAndFees: Money

  public init(fare: Money, taxesAndFees: Money) {
    self.fare = fare
    self.taxesAndFees = taxesAndFees
  }

  /// Fare plus taxes and fees.
  public var total: Money { fare + taxesAndFees }

  /// The same breakdown for `count` passengers.
  public func times(_ count: Int) -> FareBreakdown {
    FareBreakdown(fare: fare * Decimal(count), taxesAndFees: taxesAndFees * Decimal(count))
  }

  private enum CodingKeys: String, CodingKey { case fare, taxesAndFees, total }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(fare, forKey: .fare)
    try container.encode(taxesAndFees, forKey: .taxesAndFees)
    try container.encode(total, forKey: .total)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    fare = try container.decode(Money.self, forKey: .fare)
    taxesAndFees = try container.decode(Money.self, forKey: .taxesAndFees)
  }
}

/// A priced, bookable trip: one itinerary (one-way) or two (outbound and return), in one cabin,
/// for a number of adults.
///
/// JSON (CLI.md, `booking search`): `{"id", "price": Money, "stops", "durationMinutes",
/// "seatsAvailable", "segments": [FlightSegment]}` plus `pricePerPassenger` (a ``FareBreakdown``),
/// `fare` (the breakdown for all passengers), `cabin`, `adults` and `itineraries` (per direction:
/// `from`, `to`, `departure`, `arrival`, `stops`, `durationMinutes`). `price` is the total for
/// all passengers; `stops` and `durationMinutes` add both directions of a round trip;
/// `segments` lists every flight, outbound first.
public struct FlightOffer: Hashable, Sendable, Codable, Identifiable {
  public var id: FlightOfferID
  public var cabin: Cabin
  public var adults: Int
  /// The outbound itinerary, then the return one for a round trip.
  public var itineraries: [Itinerary]
  /// What one passenger pays.
  public var perPassenger: FareBreakdown
  /// Seats still bookable in `cabin` on the fullest segment (not capped).
  public var seatsAvailable: Int

  public init(
    id: FlightOfferID, cabin: Cabin, adults: Int, itineraries: [Itinerary], perPassenger: FareBreakdown,
    seatsAvailable: Int
  ) {
    self.id = id
    self.cabin = cabin
    self.adults = adults
    self.itineraries = itineraries
    self.perPassenger = perPassenger
    self.seatsAvailable = seatsAvailable
  }

  /// The breakdown for all passengers.
  public var fare: FareBreakdown { perPassenger.times(adults) }
  /// What all passengers pay together.
  public var price: Money { fare.total }
  /// The outbound itinerary.
  public var outbound: Itinerary { itineraries[0] }
  /// The return itinerary of a round trip.
  public var inbound: Itinerary? { itineraries.count > 1 ? itineraries[1] : nil }
  /// Connections over all directions.
  public var stops: Int { itineraries.reduce(0) { $0 + $1.stops } }
  /// The most connections of any direction (what `--max-stops` limits).
  public var maxStopsPerDirection: Int { itineraries.map(\.stops).max() ?? 0 }
  /// Travel time of all directions together, in minutes.
  public var durationMinutes: Int { itineraries.reduce(0) { $0 + $1.durationMinutes } }
  /// Every flight, outbound first.
  public var segments: [FlightSegment] { itineraries.flatMap(\.segments) }
  /// The distinct operating carriers.
  public var carriers: [String] {
    var seen: [String] = []
    for carrier in itineraries.flatMap(\.carriers) where !seen.contains(carrier) { seen.append(carrier) }
    return seen
  }

  private enum CodingKeys: String, CodingKey {
    case id, price, stops, durationMinutes, seatsAvailable, segments, pricePerPassenger, fare, cabin, adults
    case itineraries
  }

  private struct Summary: Codable {
    var from: String
    var to: String
    var departure: AirportTime
    var arrival: AirportTime
    var stops: Int
    var durationMinutes: Int
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(price, forKey: .price)
    try container.encode(stops, forKey: .stops)
    try container.encode(durationMinutes, forKey: .durationMinutes)
    try container.encode(seatsAvailable, forKey: .seatsAvailable)
    try container.encode(segments, forKey: .segments)
    try container.encode(perPassenger, forKey: .pricePerPassenger)
    try container.encode(fare, forKey: .fare)
    try container.encode(cabin, forKey: .cabin)
    try container.encode(adults, forKey: .adults)
    try container.encode(
      itineraries.map {
        Summary(
          from: $0.origin, to: $0.destination, departure: $0.departure, arrival: $0.arrival, stops: $0.stops,
          durationMinutes: $0.durationMinutes)
      }, forKey: .itineraries)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(FlightOfferID.self, forKey: .id)
    cabin = try container.decode(Cabin.self, forKey: .cabin)
    adults = try container.decode(Int.self, forKey: .adults)
    perPassenger = try container.decode(FareBreakdown.self, forKey: .pricePerPassenger)
    seatsAvailable = try container.decode(Int.self, forKey: .seatsAvailable)
    let segments = try container.decode([FlightSegment].self, forKey: .segments)
    let summaries = try container.decode([Summary].self, forKey: .itineraries)
    var rest = segments[...]
    var itineraries: [Itinerary] = []
    for summary in summaries {
      let count = summary.stops + 1
      guard rest.count >= count else {
        throw DecodingError.dataCorruptedError(
          forKey: .itineraries, in: container, debugDescription: "itineraries do not match segments")
      }
      itineraries.append(Itinerary(segments: Array(rest.prefix(count))))
      rest = rest.dropFirst(count)
    }
    self.itineraries = itineraries
  }
}
