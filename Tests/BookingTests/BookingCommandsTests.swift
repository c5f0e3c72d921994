import Common
import Foundation
import Testing

@testable import Booking

@Suite struct BookingCommandsTests {
  let stub = StubFlights()

  func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let console = Console.capturing()
    let services = BookingServices(flights: { [stub] _ in stub })
    let status = CommandLineTool(root: BookingCommands.root(services: services)).run(
      arguments: arguments, environment: ["TRAVEL_DATA_DIR": "/nonexistent-travel-test"], console: console)
    return (status, console.output, console.errorOutput)
  }

  @Test func help_listsTheCommands() {
    let result = run(["--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("USAGE: booking"))
    for command in ["search", "airports", "book"] { #expect(result.out.contains(command)) }
    let search = run(["search", "--help"])
    #expect(search.out.contains("--max-stops N"))
    #expect(search.out.contains("EXAMPLES:"))
  }

  @Test func unknownCommand_exitsTwo() {
    let result = run(["nonsense"])
    #expect(result.status == 2)
    #expect(result.err.contains("nonsense"))
  }

  @Test func search_writesTheOffersDocument() throws {
    let result = run(["search", "--from", "SFO", "--to", "JFK", "--date", StubFlights.day(30).description, "--json"])
    #expect(result.status == 0, "\(result.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let offers = try #require(json["offers"] as? [[String: Any]])
    let offer = try #require(offers.first)
    for key in ["id", "price", "stops", "durationMinutes", "seatsAvailable", "segments"] {
      #expect(offer[key] != nil, "missing \(key)")
    }
    #expect((offer["price"] as? [String: String]) == ["amount": "702.00", "currency": "USD"])
    let segment = try #require((offer["segments"] as? [[String: Any]])?.first)
    for key in ["carrier", "flightNumber", "from", "to", "departure", "arrival", "aircraft"] {
      #expect(segment[key] != nil, "missing \(key)")
    }
    #expect(segment["departure"] as? String == "\(StubFlights.day(30))T08:05:00-08:00")
    #expect(segment["flightNumber"] as? String == "UA1478")
    #expect(stub.lastRequest?.adults == 1)
    #expect(stub.lastRequest?.maxStops == 1)
  }

  @Test func itineraryText_namesTheOperatingFlightAndItsCodeshares() {
    var itinerary = StubFlights.offer(on: StubFlights.day(30)).itineraries[0]
    #expect(FlightText.itinerary(itinerary).hasSuffix("UA 1478 (757)"))
    itinerary.segments[0].codeshares = [Flight(carrier: "LH", number: 7601), Flight(carrier: "NH", number: 702)]
    #expect(FlightText.itinerary(itinerary).hasSuffix("UA 1478 (757; also LH 7601, NH 702)"))
  }

  @Test func search_humanOutputShowsLocalTimesAndTheOfferID() {
    let result = run(["search", "--from", "SFO", "--to", "JFK", "--date", StubFlights.day(30).description])
    #expect(result.status == 0)
    #expect(result.out.contains("08:05 SFO → 16:40 JFK"))
    #expect(result.out.contains("nonstop"))
    #expect(result.out.contains("id: FL1.Y."))
  }

  @Test func search_passesEveryOption() {
    let result = run([
      "search", "--from", "FRA", "--to", "Sydney", "--date", StubFlights.day(30).description, "--return",
      StubFlights.day(40).description, "--adults", "3", "--cabin", "Business", "--max-stops", "2", "--sort",
      "duration", "--limit", "7",
    ])
    #expect(result.status == 0, "\(result.err)")
    let request = stub.lastRequest
    #expect(request?.destination == "Sydney")
    #expect(request?.returnDate == StubFlights.day(40))
    #expect(request?.adults == 3)
    #expect(request?.cabin == .business)
    #expect(request?.maxStops == 2)
    #expect(request?.sort == .duration)
    #expect(request?.limit == 7)
    #expect(request?.currency == nil, "no --currency: the service's default (the traveller's preference)")
  }

  @Test func search_currency_isPassedUpperCase_andPricesShowInIt() throws {
    let result = run([
      "search", "--from", "SFO", "--to", "JFK", "--date", StubFlights.day(30).description, "--currency", "eur",
      "--json",
    ])
    #expect(result.status == 0, "\(result.err)")
    #expect(stub.lastRequest?.currency == "EUR")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let offer = try #require((json["offers"] as? [[String: Any]])?.first)
    #expect((offer["price"] as? [String: String]) == ["amount": "702.00", "currency": "EUR"])
    #expect((offer["id"] as? String)?.hasSuffix(".EUR70200.\(OfferSignature.example)") == true)
    let human = run([
      "search", "--from", "SFO", "--to", "JFK", "--date", StubFlights.day(30).description, "--currency", "JPY",
    ])
    #expect(human.out.contains("¥702 (¥351 per adult)"), "\(human.out)")
    let help = run(["search", "--help"])
    #expect(help.out.contains("--currency CODE"))
    #expect(help.out.contains("your preferred currency when signed in, else USD"))
  }

  @Test(arguments: [("XYZ", "unknown_currency"), ("eu", "unknown_currency"), ("ALL", "unsupported_currency")])
  func search_badCurrencyExitsTwo_namingWhatIsAccepted(currency: String, code: String) throws {
    let result = run([
      "search", "--json", "--from", "SFO", "--to", "JFK", "--date", StubFlights.day(30).description, "--currency",
      currency,
    ])
    #expect(result.status == 2, "\(result.err)")
    #expect(result.err.contains(currency) && result.err.contains("--currency"), "\(result.err)")
    #expect(result.err.contains("EUR, GBP") && result.err.contains("JPY"), "\(result.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect((json["error"] as? [String: Any])?["code"] as? String == code)
    #expect(stub.lastRequest == nil, "nothing searched")
  }

  /// Every bad input of the issue exits 2 with a message naming it and what is accepted.
  @Test(arguments: [
    (["--from", "XXQ", "--to", "JFK"], "unknown_place", "XXQ"),
    (["--from", "Springfield", "--to", "JFK"], "ambiguous_place", "Springfield"),
    (["--from", "SFO", "--to", "sfo"], "same_place", "same place"),
    (["--from", "SFO", "--to", "JFK", "--date", "2026-02-30"], "invalid_date", "2026-02-30"),
    (["--from", "SFO", "--to", "JFK", "--date", "2020-01-01"], "date_in_past", "in the past"),
    (["--from", "SFO", "--to", "JFK", "--date", "FAR"], "date_too_far", "330 days"),
    (["--from", "SFO", "--to", "JFK", "--return", "BEFORE"], "return_before_departure", "before"),
    (["--from", "SFO", "--to", "JFK", "--adults", "0"], "invalid_adults", "1 to 9"),
    (["--from", "SFO", "--to", "JFK", "--adults", "10"], "invalid_adults", "1 to 9"),
    (["--from", "SFO", "--to", "JFK", "--cabin", "coach"], "invalid_cabin", "economy, premium, business, first"),
    (["--from", "SFO", "--to", "JFK", "--max-stops", "3"], "invalid_max_stops", "0 to 2"),
    (["--from", "SFO", "--to", "JFK", "--sort", "cheapest"], "invalid_sort", "price, duration, departure"),
    (["--from", "SFO", "--to", "JFK", "--limit", "0"], "invalid_limit", "1 to 1000"),
  ])
  func search_badInputExitsTwo(arguments: [String], code: String, mention: String) throws {
    var words = ["search", "--json"] + arguments
    if !arguments.contains("--date") { words += ["--date", StubFlights.day(30).description] }
    words = words.map {
      $0 == "FAR" ? StubFlights.day(340).description : $0 == "BEFORE" ? StubFlights.day(29).description : $0
    }
    let result = run(words)
    #expect(result.status == 2, "\(arguments): \(result.err)")
    #expect(result.err.contains(mention), "\(result.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect((json["error"] as? [String: Any])?["code"] as? String == code)
  }

  @Test func airports_listsMatches() throws {
    let result = run(["airports", "zur", "--json"])
    #expect(result.status == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let airports = try #require(json["airports"] as? [[String: String]])
    #expect(
      airports.first == [
        "iata": "ZRH", "name": "Zurich Airport", "city": "Zurich", "country": "CH", "timeZone": "Europe/Zurich",
      ])
    #expect(run(["airports", "zur"]).out.contains("ZRH  Zurich Airport"))
    #expect(run(["airports"]).status == 2)
  }

  @Test(arguments: [
    ["book", "garbage", "--passenger", "Ada Lovelace"],
    ["book", "FL1.Y.2.20261220UA1478.USD35162.\(OfferSignature.example)", "--passenger", "Ada Lovelace"],
    ["book", "FL1.Y.1.20261220UA1478.USD35162.\(OfferSignature.example)", "--passenger", "Ada 2"],
    ["book", "FL1.Y.1.20261220UA1478.USD35162.\(OfferSignature.example)"],
    ["book", "FL1.Q.1.20261220UA1478.USD35162.\(OfferSignature.example)", "--passenger", "Ada Lovelace"],
    ["book", "FL1.Y.1.20260230UA1478.USD35162.\(OfferSignature.example)", "--passenger", "Ada Lovelace"],
  ])
  func book_badInputExitsTwo(arguments: [String]) {
    let result = run(arguments)
    #expect(result.status == 2, "\(arguments): \(result.err)")
    #expect(!result.err.isEmpty)
  }
}

/// A flight service double: one fixed nonstop offer, and the validation rules of the real one.
final class StubFlights: FlightSearching, @unchecked Sendable {
  private let lock = NSLock()
  private var requests: [FlightSearchRequest] = []
  var lastRequest: FlightSearchRequest? { lock.withLock { requests.last } }

  static let today = LocalDate(Date(), in: TimeZone(identifier: "America/Los_Angeles")!)
  static func day(_ offset: Int) -> LocalDate { today.adding(days: offset) }

  static func offer(on date: LocalDate, adults: Int = 1) -> FlightOffer {
    let departure = date.instant(hour: 8, minute: 5, in: TimeZone(identifier: "America/Los_Angeles")!)
    let segment = FlightSegment(
      flight: Flight(carrier: "UA", number: 1478), from: "SFO", to: "JFK",
      departure: AirportTime(instant: departure, timeZone: TimeZone(identifier: "America/Los_Angeles")!),
      arrival: AirportTime(
        instant: departure.addingTimeInterval(335 * 60), timeZone: TimeZone(identifier: "America/New_York")!),
      aircraft: "757")
    let perPassenger = FareBreakdown(
      fare: Money(amount: 320, currency: "USD"), taxesAndFees: Money(amount: 31, currency: "USD"))
    let id = FlightOfferID(
      cabin: .economy, adults: adults, directions: [[DatedFlight(flight: segment.flight, date: date)]],
      quotedTotal: perPassenger.times(adults).total, signature: OfferSignature.example)
    return FlightOffer(
      id: id, cabin: .economy, adults: adults, itineraries: [Itinerary(segments: [segment])],
      perPassenger: perPassenger,
      seatsAvailable: 120)
  }

  func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    [AirportSummary(iata: "ZRH", name: "Zurich Airport", city: "Zurich", country: "CH", timeZone: "Europe/Zurich")]
  }

  func search(_ request: FlightSearchRequest) throws -> [FlightOffer] {
    lock.withLock { requests.append(request) }
    if request.origin == "XXQ" {
      throw ServiceError.invalid(
        "unknown_place", "unknown airport \"XXQ\": expected an IATA code like SFO or a city name")
    }
    if request.origin == "Springfield" {
      throw ServiceError.invalid(
        "ambiguous_place", "\"Springfield\" is ambiguous: Springfield, US-IL; Springfield, US-MO")
    }
    if request.origin.lowercased() == request.destination.lowercased() {
      throw ServiceError.invalid("same_place", "--from and --to are the same place: expected two different places")
    }
    try request.validate(today: Self.today)
    let offer = Self.offer(on: request.departureDate, adults: 2)
    guard let currency = request.currency else { return [offer] }
    // The same figures in the currency asked.
    return [
      try offer.priced(fare: Money(amount: 320, currency: currency), taxes: Money(amount: 31, currency: currency))
    ]
  }

  func offer(_ id: FlightOfferID) throws -> FlightOffer { Self.offer(on: id.flights[0].date, adults: id.adults) }
}
