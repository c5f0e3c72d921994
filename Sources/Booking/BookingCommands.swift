import Common
import Foundation

/// The services the Booking feature runs on, made on demand for each command (so `--help` builds
/// nothing) from the command's context (its data directory). The apps wire the embedded backend.
public struct BookingServices: Sendable {
  /// Flight search: airports, offers, re-pricing.
  public var flights: @Sendable (CLIContext) throws -> any FlightSearching
  /// Booking (needs a signed-in user); nil when the app has no booking backend.
  public var booking: (@Sendable (CLIContext) throws -> any FlightBooking)?
  /// Live flight status (`status`, `board`, the Status and Board screens); nil when the app has none.
  public var status: (@Sendable (CLIContext) throws -> any FlightStatusService)?
  /// Every flight in the air (`radar`, the Radar screen); nil when the app has none.
  public var radar: (@Sendable (CLIContext) throws -> any FlightRadarService)?
  /// Seats, check-in and boarding passes (and verifying their signatures); nil when the app has none.
  public var checkIn: (@Sendable (CLIContext) throws -> any CheckInService)?
  /// Reads barcodes from images (`boarding-pass scan`); nil when the app has no scanner.
  public var barcodeScanner: (any BarcodeScanning)?
  /// The signed-in traveller's home airport (Account preferences, an IATA code) for `context`, or
  /// nil (nobody signed in, none set): `search`'s default `--from`. Nil: no default.
  public var homeAirport: (@Sendable (CLIContext) -> String?)?

  public init(
    flights: @escaping @Sendable (CLIContext) throws -> any FlightSearching,
    booking: (@Sendable (CLIContext) throws -> any FlightBooking)? = nil,
    status: (@Sendable (CLIContext) throws -> any FlightStatusService)? = nil,
    checkIn: (@Sendable (CLIContext) throws -> any CheckInService)? = nil,
    barcodeScanner: (any BarcodeScanning)? = nil,
    homeAirport: (@Sendable (CLIContext) -> String?)? = nil,
    radar: (@Sendable (CLIContext) throws -> any FlightRadarService)? = nil
  ) {
    self.radar = radar
    self.flights = flights
    self.booking = booking
    self.status = status
    self.checkIn = checkIn
    self.barcodeScanner = barcodeScanner
    self.homeAirport = homeAirport
  }

  /// The status service for `context`, or `flight_status_unavailable` (exit 1).
  func statusService(_ context: CLIContext) throws -> any FlightStatusService {
    guard let status else {
      throw ServiceError(
        .unavailable, code: "flight_status_unavailable", message: L("flight status is not available in this app"))
    }
    return try status(context)
  }

  /// The radar for `context`, or `flight_radar_unavailable` (exit 1).
  func radarService(_ context: CLIContext) throws -> any FlightRadarService {
    guard let radar else {
      throw ServiceError(
        .unavailable, code: "flight_radar_unavailable", message: L("the flight radar is not available in this app"))
    }
    return try radar(context)
  }

  /// No backend: every command that needs one fails with `flights_unavailable` (exit 1).
  public static let unavailable = BookingServices(flights: { _ in
    throw ServiceError(
      .unavailable, code: "flights_unavailable", message: L("flight search is not available in this app"))
  })
}

/// The command tree of the Booking feature: the root of the standalone `booking` executable, mounted
/// as `travel flights` in the assembled app. Contract: CLI.md, "Flights".
public enum BookingCommands {
  /// `booking search|airports|book|status|board|seats|boarding-pass|radar` over `services`.
  public static func root(name: String = "booking", services: BookingServices = .unavailable) -> Command {
    Command(
      name: name,
      summary: L("Flights: search real routes between real airports and book seats."),
      discussion: """
        Airports, airlines and routes are real (airportsdata, OpenFlights.org); schedules and fares are
        generated from them. Times are local to each airport.
        """,
      subcommands: [
        search(services), airports(services), book(services), FlightStatusCommands.status(services),
        FlightStatusCommands.board(services), SeatAndPassCommands.seats(services),
        SeatAndPassCommands.boardingPass(services), RadarCommands.radar(services),
      ]
    )
  }

  // MARK: search

  static func search(_ services: BookingServices) -> Command {
    Command(
      name: "search",
      summary: L("Search flights between two places on a date (one-way or round trip)."),
      discussion: """
        Places: an IATA airport or metropolitan code (SFO, NYC), a city name (Zurich) or lat,lon.
        Results: every nonstop flight, plus the connecting itineraries that no other itinerary leaving within
        the same hour beats on price, duration and stops together. Connections: at least 45 minutes
        (domestic) or 60 minutes (international), at most 10 hours, always at the same airport.
        Prices are per passenger and in total (taxes and fees included), in --currency: fares are made in USD
        and converted at the ECB reference rates, fare and taxes each rounded to the currency's minor units.
        The offer id carries the currency and total, so 'book' charges that amount in that currency.
        """,
      options: [
        .option(
          "from", "PLACE", help: L("Where the trip starts."),
          default: L("your home airport when signed in and set (account preferences --home-airport)")),
        .option("to", "PLACE", help: L("Where it goes."), required: true),
        .option(
          "date", "YYYY-MM-DD", help: L("Departure date, local to the origin (today … today + 330 days)."),
          required: true),
        .option("return", "YYYY-MM-DD", help: L("Return date, for a round trip (on or after --date).")),
        .option("adults", "N", help: L("Adult passengers, 1–9."), default: "1"),
        .option("cabin", "CABIN", help: L("economy, premium, business or first."), default: "economy"),
        .option("max-stops", "N", help: L("Most connections per direction: 0, 1 or 2."), default: "1"),
        .option("carrier", "CODE", help: L("Only offers flown (at least in part) by this airline, e.g. LH.")),
        .option("sort", "ORDER", help: L("price, duration or departure."), default: "price"),
        .option("limit", "N", help: L("Most offers shown, 1–1000."), default: "50"),
        .option(
          "currency", "CODE", help: "ISO 4217 currency of the prices (e.g. EUR, JPY; one with an ECB rate).",
          default: L("your preferred currency when signed in, else USD")),
      ],
      examples: [
        "--from SFO --to JFK --date 2026-12-20",
        "--from SFO --to JFK --date 2026-12-20 --currency EUR",
        "--from FRA --to SYD --date 2026-12-20 --cabin business --sort duration",
        "--from NYC --to London --date 2026-12-20 --return 2027-01-03 --adults 2 --json",
      ],
      action: { invocation in
        let request = try parseSearch(invocation, homeAirport: services.homeAirport)
        let flights = try services.flights(invocation.context)
        let offers = try flights.search(request)
        // An empty result says which condition emptied it (asked of the service, not guessed).
        let empty =
          offers.isEmpty && !invocation.context.json
          ? try EmptyFlightSearch(request: request, search: flights.search) : nil
        try invocation.context.emit(json: ["offers": offers]) {
          empty?.commandLineText ?? FlightText.offers(offers, request: request, money: invocation.context.money)
        }
      }
    )
  }

  /// The request of `search`'s options (every error exits 2 with what is accepted); without
  /// `--from`, the traveller's `homeAirport` (else `missing_option`, naming how to set one).
  static func parseSearch(
    _ invocation: Invocation, homeAirport: (@Sendable (CLIContext) -> String?)? = nil
  ) throws -> FlightSearchRequest {
    let origin: String
    if let from = invocation.value("from"), !from.isEmpty {
      origin = from
    } else if let home = homeAirport?(invocation.context) {
      origin = home
    } else {
      throw CLIError.usage(
        L(
          "missing --from for '\(invocation.commandName)': give the place the trip starts (SFO, London), "
            + "or set a home airport (account preferences --home-airport SFO) and sign in"),
        code: "missing_option")
    }
    let destination = try invocation.required("to")
    let date = try FlightSearchRequest.parseDate(try invocation.required("date"), option: "--date")
    let returnDate = try invocation.value("return").map { try FlightSearchRequest.parseDate($0, option: "--return") }
    let adults = try wholeNumber(invocation, "adults", in: 1...9, default: 1, code: "invalid_adults")
    let cabin = try invocation.value("cabin").map(Cabin.parse) ?? .economy
    let maxStops = try wholeNumber(invocation, "max-stops", in: 0...2, default: 1, code: "invalid_max_stops")
    let carrier = invocation.value("carrier").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
    let sort = try invocation.value("sort").map(FlightSortOrder.parse) ?? .price
    let limit = try wholeNumber(invocation, "limit", in: 1...1000, default: 50, code: "invalid_limit")
    let currency = try invocation.value("currency").map {
      try FlightSearchRequest.parseCurrency($0, option: "--currency")
    }
    return FlightSearchRequest(
      origin: origin, destination: destination, departureDate: date, returnDate: returnDate, adults: adults,
      cabin: cabin, maxStops: maxStops, carrier: carrier, sort: sort, limit: limit, currency: currency)
  }

  static func wholeNumber(
    _ invocation: Invocation, _ name: String, in range: ClosedRange<Int>, default defaultValue: Int, code: String
  ) throws -> Int {
    guard let text = invocation.value(name) else { return defaultValue }
    guard let number = Int(text), range.contains(number) else {
      throw ServiceError.invalid(
        code,
        L("invalid --\(name) \"\(text)\": expected a whole number from \(range.lowerBound) to \(range.upperBound)"))
    }
    return number
  }

  // MARK: airports

  static func airports(_ services: BookingServices) -> Command {
    Command(
      name: "airports",
      summary:
        L("Find airports and city codes (LON: all of London's) by IATA code, name or city (diacritics-insensitive)."),
      arguments: [ArgumentSpec("QUERY", help: L("Part of a code, name or city: sfo, Zurich, Heathrow."))],
      options: [.option("limit", "N", help: L("Most airports shown, 1–1000."), default: "50")],
      examples: ["zurich", "\"san fran\" --limit 5 --json"],
      action: { invocation in
        let query = try invocation.argument(0, name: "QUERY")
        let limit = try wholeNumber(invocation, "limit", in: 1...1000, default: 50, code: "invalid_limit")
        let airports = try services.flights(invocation.context).airports(matching: query, limit: limit)
        try invocation.context.emit(json: ["airports": airports]) {
          airports.isEmpty
            ? L("No airport matches \"\(query)\".")
            : airports.map { airport in
              // A metropolitan code lists its airports: `LON  London, all airports: LHR LGW …, GB`.
              if let codes = airport.airports {
                return
                  L(
                    "\(airport.iata)  \(airport.city), all airports: \(codes.joined(separator: " ")), \(airport.country)"
                  )
                  + " (\(airport.timeZone))"
              }
              return "\(airport.iata)  \(airport.name), \(airport.city), \(airport.country) (\(airport.timeZone))"
            }
            .joined(separator: "\n")
        }
      }
    )
  }

  // MARK: book

  static func book(_ services: BookingServices) -> Command {
    Command(
      name: "book",
      summary: L("Book an offer from 'search' for the signed-in user."),
      discussion: """
        The offer id is signed by the search: an id edited by hand exits 2 with invalid_offer_id. The offer is
        re-priced first: if its price moved (up or down) or its seats are gone, nothing is taken and the command
        exits 1 with price_changed (and the new price and offer id) or sold_out: a price is never charged unseen.
        A passenger who already holds a seat on one of the flights is refused (duplicate_booking) unless
        --allow-duplicate. A retry with the same --idempotency-key and the same request returns the first
        reservation; the same key with another request exits 2 (idempotency_key_reused). Give one --passenger per
        adult of the offer. Without --card the default card is charged.
        """,
      arguments: [ArgumentSpec("OFFER_ID", help: L("The id of an offer from 'search'."))],
      options: [
        .option("passenger", L("\"GIVEN FAMILY\""), help: L("A passenger's names, once per adult."), repeatable: true),
        .option("card", "CARD_ID", help: L("The card to charge."), default: L("the default card")),
        .option("idempotency-key", "KEY", help: L("A retry with the same key returns the first reservation.")),
        .flag("allow-duplicate", help: L("Book even if a passenger already holds a seat on one of these flights.")),
      ],
      examples: ["FL1.Y.1.20261220UA1478.USD35162.\(OfferSignature.example) --passenger \"Ada Lovelace\""],
      action: { invocation in
        let id = try FlightOfferID(parsing: try invocation.argument(0, name: "OFFER_ID"))
        let names = invocation.values("passenger")
        guard names.count == id.adults else {
          throw ServiceError.invalid(
            "passenger_count",
            "the offer is for \(id.adults) adult\(id.adults == 1 ? "" : "s") but \(names.count) --passenger given: expected one --passenger \"Given Family\" per adult"
          )
        }
        let passengers = try names.map(PassengerName.init(parsing:))
        guard let makeBooking = services.booking else {
          throw ServiceError(
            .unavailable, code: "booking_unavailable", message: L("booking is not available in this app"))
        }
        let request = FlightBookingRequest(
          offerID: id, passengers: passengers, cardID: invocation.value("card"),
          idempotencyKey: invocation.value("idempotency-key"), allowDuplicate: invocation.flag("allow-duplicate"))
        // An expired or unknown offer is bad input (exit 2), whoever is signed in.
        do {
          _ = try services.flights(invocation.context).offer(id)
        } catch let error as ServiceError where error.kind == .invalidInput {
          throw error
        } catch {}
        guard let token = try SessionFile(dataDirectory: invocation.context.dataDirectory).read() else {
          throw ServiceError.notSignedIn
        }
        let booked = try makeBooking(invocation.context).book(request, token: token)
        try invocation.context.emit(json: ["reservation": booked]) {
          FlightText.booked(booked, money: invocation.context.money)
        }
      }
    )
  }
}
