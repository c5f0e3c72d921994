import Common
import Foundation

/// Seats booked on one flight, date and cabin.
public struct BookedSeats: Hashable, Sendable, Codable {
  public var flight: Flight
  /// Local departure date at the flight's origin.
  public var date: LocalDate
  public var cabin: Cabin
  public var seats: Int

  public init(flight: Flight, date: LocalDate, cabin: Cabin, seats: Int) {
    self.flight = flight
    self.date = date
    self.cabin = cabin
    self.seats = seats
  }
}

/// Where the engine reads the seats already sold (the store's `flight_seats` table, or memory
/// in tests).
public protocol FlightSeatReading: Sendable {
  /// Every (flight, date, cabin) with seats booked.
  /// - Throws: ``ServiceError`` `.unavailable` when storage fails.
  func bookedSeats() throws -> [BookedSeats]
}

/// Seats booked, kept in memory: for tests and for running without a store.
public final class InMemoryFlightSeats: FlightSeatReading, @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [BookedSeats] = []

  public init(_ counts: [BookedSeats] = []) { self.counts = counts }

  public func bookedSeats() throws -> [BookedSeats] { lock.withLock { counts } }

  /// Adds `seats` (negative to release) on `flight`/`date`/`cabin`.
  public func add(_ seats: Int, on flight: Flight, date: LocalDate, cabin: Cabin) {
    lock.withLock {
      if let index = counts.firstIndex(where: { $0.flight == flight && $0.date == date && $0.cabin == cabin }) {
        counts[index].seats += seats
      } else {
        counts.append(BookedSeats(flight: flight, date: date, cabin: cabin, seats: seats))
      }
    }
  }
}

/// The embedded flight search service: a ``FlightNetwork`` plus place resolution, booked seats,
/// a clock and the currency offers are priced in. Implements ``FlightSearching``.
///
/// Fares are made in US cents (``FarePolicy``); the search picks and orders its result set on
/// them. Only the offers returned are then priced in the request's currency (else the default
/// currency, else USD): per passenger, the fare and the taxes and fees are each converted at full
/// precision at the ECB reference rates (``ExchangeRates``) and rounded half away from zero to
/// the currency's ISO 4217 minor units, so fare + taxes and fees = total exactly, in every
/// currency (JPY has no minor units, KWD three). The offer id carries that currency and total, so
/// ``offer(_:)`` re-prices an offer in the currency it was quoted in.
public final class FlightEngine: FlightSearching, Sendable {
  /// Resolves what the user typed to airport IATA codes (airport, metro code, city, `lat,lon`).
  public typealias PlaceResolver = @Sendable (String) throws -> [String]
  /// Airports matching a prefix, best first, at most the limit.
  public typealias AirportSuggester = @Sendable (String, Int) -> [AirportSummary]

  public let network: FlightNetwork
  private let resolvePlace: PlaceResolver
  private let suggestAirports: AirportSuggester
  private let seats: any FlightSeatReading
  private let now: @Sendable () -> Date
  private let defaultCurrency: @Sendable () -> String?
  private let exchangeRates: @Sendable () throws -> ExchangeRates
  /// Signs the ids of the offers made and checks the ids given back (``OfferSigner``).
  private let signer: OfferSigner

  /// The minimum time between the outbound arrival and the return departure of a round trip.
  static let minimumStayMinutes: Int32 = 120

  /// - Parameters:
  ///   - network: the schedule searched.
  ///   - seats: the seats already sold.
  ///   - resolvePlace: what the user typed → airport codes.
  ///   - suggestAirports: autocomplete.
  ///   - now: the clock (today at the origin; departed flights are not offered).
  ///   - defaultCurrency: the ISO 4217 code a search without ``FlightSearchRequest/currency`` is
  ///     priced in, asked at each search (the apps answer the signed-in user's preferred currency);
  ///     nil, the default, means USD.
  ///   - exchangeRates: the rates to convert USD fares with, asked only for another currency
  ///     (default: the shipped ECB reference rates, ``ExchangeRates/reference()``).
  ///   - signer: signs offer ids and checks them (the data directory's key in the apps; by default
  ///     a key of this process alone, ``OfferSigner/processLocal``).
  public init(
    network: FlightNetwork, seats: any FlightSeatReading, resolvePlace: @escaping PlaceResolver,
    suggestAirports: @escaping AirportSuggester, now: @escaping @Sendable () -> Date = { Date() },
    defaultCurrency: @escaping @Sendable () -> String? = { nil },
    exchangeRates: @escaping @Sendable () throws -> ExchangeRates = { try ExchangeRates.reference() },
    signer: OfferSigner = .processLocal
  ) {
    self.signer = signer
    self.network = network
    self.seats = seats
    self.resolvePlace = resolvePlace
    self.suggestAirports = suggestAirports
    self.now = now
    self.defaultCurrency = defaultCurrency
    self.exchangeRates = exchangeRates
  }

  // MARK: FlightSearching

  public func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ServiceError.invalid(
        "invalid_query", "empty airport query: expected part of a code, name or city, like Zur")
    }
    guard (1...1000).contains(limit) else {
      throw ServiceError.invalid("invalid_limit", "invalid --limit \(limit): expected a whole number from 1 to 1000")
    }
    return suggestAirports(trimmed, limit)
  }

  public func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
    let origins = try airportIndices(request.origin)
    let destinations = try airportIndices(request.destination)
    if request.origin.lowercased() == request.destination.lowercased() || !Set(origins).isDisjoint(with: destinations) {
      throw ServiceError.invalid(
        "same_place",
        "--from \"\(request.origin)\" and --to \"\(request.destination)\" are the same place: expected two different places"
      )
    }
    let originZone = network.zones[Int(network.airports[Int(origins[0])].zone)]
    let today = localToday(in: originZone)
    try request.validate(today: today)
    let pricing = try OfferPricing(
      currency: request.currency ?? defaultCurrency() ?? FarePolicy.currency, rates: exchangeRates)
    let load = try seatLoad()
    let search = ItinerarySearch(
      network: network, load: load, cabin: request.cabin.index, adults: Int32(request.adults),
      today: Int32(utcToday().daysSinceEpoch))
    let nowMinute = Int32(now().timeIntervalSince1970 / 60)
    let outbound = search.run(
      origins: origins, destinations: destinations, day: Int32(request.departureDate.daysSinceEpoch),
      maxStops: request.maxStops
    ).filter { $0.departure > nowMinute }
    // The carrier filter applies before sorting and the limit: the best offers of that airline.
    let carrier = request.carrier.map { network.carrierIndex[$0] ?? -1 }
    func flown(_ candidate: ItinerarySearch.Candidate) -> Bool {
      guard let carrier else { return true }
      return (0..<Int(candidate.count)).contains { network.patterns[Int(candidate.pattern($0))].carrier == carrier }
    }
    var chosen: [[ItinerarySearch.Candidate]]
    if let returnDate = request.returnDate {
      let inbound = search.run(
        origins: destinations, destinations: origins, day: Int32(returnDate.daysSinceEpoch),
        maxStops: request.maxStops)
      chosen = Self.pairs(outbound, inbound, sort: request.sort, limit: request.limit) { flown($0) || flown($1) }
    } else {
      chosen = Self.sorted(outbound.filter(flown), by: request.sort).prefix(request.limit).map { [$0] }
    }
    let results = try chosen.map { try priced($0, cabin: request.cabin, adults: request.adults, pricing: pricing) }
    guard request.sort == .price, !pricing.isIdentity else { return results.map(\.offer) }
    // Rounding each converted line may swap two offers a minor unit apart: keep price order, ties as found.
    return results.enumerated().sorted { ($0.element.total, $0.offset) < ($1.element.total, $1.offset) }
      .map(\.element.offer)
  }

  /// The offer of `id` at today's seats, priced in the currency of its quote
  /// (``FlightOfferID/quotedTotal``), after checking the id's signature.
  /// - Throws: as ``FlightSearching/offer(_:)``: `invalid_offer_id` (invalid input) for an id whose
  ///   signature does not match (edited by hand, or made by another data directory);
  ///   `unsupported_currency` (invalid input) for a quote currency without an exchange rate.
  public func offer(_ id: FlightOfferID) throws -> FlightOffer {
    try verify(id)
    return try offer(id, load: try seatLoad())
  }

  /// Throws `invalid_offer_id` unless `id` carries this engine's signature of its fields.
  func verify(_ id: FlightOfferID) throws {
    guard !id.signature.isEmpty else { throw OfferSignature.missing(id.description, search: "search") }
    try signer.verify(id.signature, for: id.payload, id: id.description, search: "search")
  }

  /// The seats of `cabin` on `flight`'s aircraft (0 when the flight is not in the schedule or
  /// has no such cabin): the most that may be sold on one of its departures.
  func seatCapacity(of flight: Flight, cabin: Cabin) -> Int {
    guard let index = network.pattern(of: flight) else { return 0 }
    return Int(network.capacity(of: index, cabin: cabin))
  }

  /// The offer of `id` priced over `booked` (the seats sold on its flights, read in the booking
  /// transaction), in the currency of its quote.
  func offer(_ id: FlightOfferID, booked: [BookedSeats]) throws -> FlightOffer {
    try offer(id, load: seatLoad(booked))
  }

  private func offer(_ id: FlightOfferID, load: SeatLoad) throws -> FlightOffer {
    let pricing = try OfferPricing(currency: id.quotedTotal.currencyCode, rates: exchangeRates)
    let search = ItinerarySearch(
      network: network, load: load, cabin: id.cabin.index, adults: Int32(id.adults),
      today: Int32(utcToday().daysSinceEpoch))
    let nowMinute = Int32(now().timeIntervalSince1970 / 60)
    var candidates: [ItinerarySearch.Candidate] = []
    for direction in id.directions {
      var candidate = ItinerarySearch.Candidate()
      var previousArrival: (airport: Int32, minute: Int32)?
      for (position, dated) in direction.enumerated() {
        guard let index = network.pattern(of: dated.flight) else {
          throw Self.expired(id, "flight \(dated.flight) is not in the schedule")
        }
        let pattern = network.patterns[Int(index)]
        let day = Int32(dated.date.daysSinceEpoch)
        guard network.flies(pattern, on: day) else {
          throw Self.expired(id, "flight \(dated.flight) does not fly on \(dated.date)")
        }
        let departure = network.departureUTC(pattern, day: day)
        guard departure > nowMinute else {
          throw Self.expired(id, "flight \(dated.flight) of \(dated.date) has left")
        }
        if let previous = previousArrival {
          guard previous.airport == pattern.origin, departure >= previous.minute + 30 else {
            throw Self.expired(id, "flight \(dated.flight) does not connect with the flight before it")
          }
        }
        guard network.capacity(of: index, cabin: id.cabin) > 0 else {
          throw Self.expired(id, "flight \(dated.flight) has no \(id.cabin.displayName.lowercased()) cabin")
        }
        switch position {
        case 0:
          candidate.patterns.0 = index
          candidate.days.0 = day
          candidate.departure = departure
        case 1:
          candidate.patterns.1 = index
          candidate.days.1 = day
        default:
          candidate.patterns.2 = index
          candidate.days.2 = day
        }
        candidate.count = Int32(position + 1)
        candidate.arrival = departure + pattern.blockMinutes
        previousArrival = (pattern.destination, candidate.arrival)
      }
      guard search.price(&candidate) else {
        throw ServiceError.refused(
          "sold_out",
          "sold out: fewer than \(id.adults) \(id.cabin.displayName.lowercased()) seat(s) left on \(direction.map(\.description).joined(separator: ", "))",
          details: ["offerId": id.description])
      }
      candidates.append(candidate)
    }
    return try priced(candidates, cabin: id.cabin, adults: id.adults, pricing: pricing).offer
  }

  // MARK: Helpers

  private static func expired(_ id: FlightOfferID, _ reason: String) -> ServiceError {
    ServiceError.invalid("offer_expired", "offer \(id) has expired: \(reason); search again for a current offer")
  }

  private func airportIndices(_ text: String) throws -> [Int32] {
    let codes = try resolvePlace(text)
    let indices = codes.compactMap { network.airportIndex[$0] }
    guard !indices.isEmpty else {
      throw ServiceError.invalid(
        "no_flights_at_place",
        "no airport with scheduled flights at \"\(text)\": expected a place served by airlines (try 'airports \(text)')"
      )
    }
    return indices
  }

  private func localToday(in zone: ZoneClock) -> LocalDate {
    let minute = zone.local(fromUTC: Int32(now().timeIntervalSince1970 / 60))
    return LocalDate(daysSinceEpoch: Int(ItinerarySearch.floorDiv(minute, 1440)))
  }

  private func utcToday() -> LocalDate {
    LocalDate(daysSinceEpoch: Int((now().timeIntervalSince1970 / 86_400).rounded(.down)))
  }

  private func seatLoad() throws -> SeatLoad { seatLoad(try seats.bookedSeats()) }

  private func seatLoad(_ booked: [BookedSeats]) -> SeatLoad {
    var load = SeatLoad()
    for entry in booked where entry.seats != 0 {
      guard let index = network.pattern(of: entry.flight) else { continue }
      load.add(
        pattern: index, day: Int32(entry.date.daysSinceEpoch), cabin: entry.cabin.index, seats: Int32(entry.seats))
    }
    return load
  }

  private static func key(_ candidate: ItinerarySearch.Candidate, _ sort: FlightSortOrder) -> (Int64, Int64, Int64) {
    switch sort {
    case .price: (candidate.totalCents, Int64(candidate.duration), Int64(candidate.departure))
    case .duration: (Int64(candidate.duration), candidate.totalCents, Int64(candidate.departure))
    case .departure: (Int64(candidate.departure), candidate.totalCents, Int64(candidate.duration))
    }
  }

  private static func sorted(_ list: [ItinerarySearch.Candidate], by sort: FlightSortOrder)
    -> [ItinerarySearch.Candidate]
  {
    list.sorted { key($0, sort) < key($1, sort) }
  }

  /// The best `limit` round trips of outbound × inbound (inbound leaving at least two hours after
  /// the outbound lands) that `keep` accepts, in `sort` order: by summed price or duration, or by
  /// outbound departure then price.
  static func pairs(
    _ outbound: [ItinerarySearch.Candidate], _ inbound: [ItinerarySearch.Candidate], sort: FlightSortOrder, limit: Int,
    keep: (ItinerarySearch.Candidate, ItinerarySearch.Candidate) -> Bool = { _, _ in true }
  ) -> [[ItinerarySearch.Candidate]] {
    let out = sorted(outbound, by: sort)
    let back = sorted(inbound, by: sort == .departure ? .price : sort)
    guard !out.isEmpty, !back.isEmpty else { return [] }
    func valid(_ i: Int, _ j: Int) -> Bool {
      back[j].departure >= out[i].arrival + minimumStayMinutes && keep(out[i], back[j])
    }
    var result: [[ItinerarySearch.Candidate]] = []
    if sort == .departure {
      for i in out.indices {
        for j in back.indices where valid(i, j) {
          result.append([out[i], back[j]])
          if result.count == limit { return result }
        }
      }
      return result
    }
    // k smallest sums over two sorted lists: a frontier ordered by the summed key.
    func cost(_ i: Int, _ j: Int) -> (Int64, Int64, Int64) {
      let a = key(out[i], sort)
      let b = key(back[j], sort)
      return (a.0 + b.0, a.1 + b.1, a.2)
    }
    var heap = PairHeap()
    var seen = Set<Int64>()
    heap.push((cost(0, 0), 0, 0))
    seen.insert(0)
    var examined = 0
    while let (_, i, j) = heap.pop(), result.count < limit, examined < 200_000 {
      examined += 1
      if valid(i, j) { result.append([out[i], back[j]]) }
      for (ni, nj) in [(i + 1, j), (i, j + 1)] where ni < out.count && nj < back.count {
        let code = Int64(ni) << 32 | Int64(nj)
        if seen.insert(code).inserted { heap.push((cost(ni, nj), ni, nj)) }
      }
    }
    return result
  }

  /// A binary min-heap of candidate pairs by cost.
  struct PairHeap {
    typealias Element = ((Int64, Int64, Int64), Int, Int)
    private var items: [Element] = []

    private static func less(_ a: Element, _ b: Element) -> Bool {
      (a.0.0, a.0.1, a.0.2, a.1, a.2) < (b.0.0, b.0.1, b.0.2, b.1, b.2)
    }

    mutating func push(_ element: Element) {
      items.append(element)
      var child = items.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        if !Self.less(items[child], items[parent]) { break }
        items.swapAt(child, parent)
        child = parent
      }
    }

    mutating func pop() -> Element? {
      guard !items.isEmpty else { return nil }
      items.swapAt(0, items.count - 1)
      let top = items.removeLast()
      var parent = 0
      while true {
        let left = parent * 2 + 1
        let right = left + 1
        var smallest = parent
        if left < items.count && Self.less(items[left], items[smallest]) { smallest = left }
        if right < items.count && Self.less(items[right], items[smallest]) { smallest = right }
        if smallest == parent { break }
        items.swapAt(parent, smallest)
        parent = smallest
      }
      return top
    }
  }

  /// The offer of priced candidates (one per direction) in `pricing`'s currency, and its total in
  /// minor units: per passenger, fare and taxes and fees each converted and rounded, then × adults.
  /// The offer's id is signed.
  private func priced(
    _ directions: [ItinerarySearch.Candidate], cabin: Cabin, adults: Int, pricing: OfferPricing
  ) throws -> (offer: FlightOffer, total: Int64) {
    var itineraries: [Itinerary] = []
    var dated: [[DatedFlight]] = []
    var fareCents: Int64 = 0
    var taxCents: Int64 = 0
    var seatsLeft = Int.max
    var payload = FlightOfferPayload(cabin: cabin, adults: adults)
    for candidate in directions {
      var segments: [FlightSegment] = []
      var flights: [DatedFlight] = []
      segments.reserveCapacity(Int(candidate.count))
      flights.reserveCapacity(Int(candidate.count))
      payload.beginDirection()
      for leg in 0..<Int(candidate.count) {
        let index = candidate.pattern(leg)
        let day = candidate.day(leg)
        let flight = network.flight(of: index)
        let date = LocalDate(daysSinceEpoch: Int(day))
        segments.append(network.segment(index, day: day, flight: flight))
        flights.append(DatedFlight(flight: flight, date: date))
        payload.appendFlight(date: date, carrier: flight.carrier, number: flight.number)
      }
      itineraries.append(Itinerary(segments: segments))
      dated.append(flights)
      fareCents += candidate.fareCents
      taxCents += candidate.taxCents
      seatsLeft = min(seatsLeft, Int(candidate.seats))
    }
    let fare = pricing.minorUnits(cents: fareCents)
    let taxes = pricing.minorUnits(cents: taxCents)
    let perPassenger = FareBreakdown(
      fare: pricing.money(minorUnits: fare), taxesAndFees: pricing.money(minorUnits: taxes))
    let total = (fare + taxes) * Int64(adults)
    var id = FlightOfferID(
      cabin: cabin, adults: adults, directions: dated, quotedTotal: pricing.money(minorUnits: total))
    // The bytes of id.payload, written above from the integers rather than formatted from the id.
    id.signature = try signer.signature(ofUTF8: payload.finish(currency: pricing.currency, totalMinorUnits: total))
    let offer = FlightOffer(
      id: id, cabin: cabin, adults: adults, itineraries: itineraries, perPassenger: perPassenger,
      seatsAvailable: seatsLeft)
    return (offer, total)
  }
}
