import Foundation

/// The order of search results.
public enum FlightSortOrder: String, CaseIterable, Hashable, Sendable, Codable {
  /// Cheapest total first (then shorter, then earlier).
  case price
  /// Shortest total travel time first (then cheaper, then earlier).
  case duration
  /// Earliest outbound departure first (then cheaper).
  case departure

  /// Parses the command-line word (any case).
  /// - Throws: ``ServiceError`` `invalid_sort` naming the accepted words.
  public static func parse(_ text: String) throws -> FlightSortOrder {
    guard let order = FlightSortOrder(rawValue: text.lowercased()) else {
      throw ServiceError.invalid("invalid_sort", "unknown sort \"\(text)\": expected one of price, duration, departure")
    }
    return order
  }
}

/// A flight search: from where, to where, when, for whom.
///
/// Places are what the user typed (an IATA airport or metropolitan code, a city name, or
/// `lat,lon`); the service resolves them and fails with `unknown_place`/`ambiguous_place`.
/// Dates are local to the departure airport of each direction. Prices come in ``currency``.
public struct FlightSearchRequest: Hashable, Sendable, Codable {
  /// The furthest date a search may ask for, in days after today (airlines sell about 330 days out).
  public static let maximumDaysAhead = 330
  /// The most offers one search returns (``limit``).
  public static let maximumLimit = 1000

  public var origin: String
  public var destination: String
  public var departureDate: LocalDate
  /// The return date of a round trip (on or after `departureDate`), nil for one-way.
  public var returnDate: LocalDate?
  /// Adult passengers, 1–9.
  public var adults: Int
  public var cabin: Cabin
  /// The most connections per direction, 0–2.
  public var maxStops: Int
  /// Only offers flown at least in part by this airline (IATA code, `LH`); nil: every airline.
  /// The search applies it before ``sort`` and ``limit``, so the offers returned are the best of
  /// every offer of that airline, not a part of the best overall.
  public var carrier: String?
  public var sort: FlightSortOrder
  /// The most offers returned, 1–1000.
  public var limit: Int
  /// The ISO 4217 code the offers are priced in (`EUR`); nil asks for the service's default: the
  /// signed-in user's preferred currency (Account preferences), else USD. Fares are made in USD
  /// and converted at the ECB reference rates (``ExchangeRates``); a currency without a rate is
  /// refused by the service (`unknown_currency`, `unsupported_currency`), never priced in USD.
  public var currency: String?

  public init(
    origin: String, destination: String, departureDate: LocalDate, returnDate: LocalDate? = nil, adults: Int = 1,
    cabin: Cabin = .economy, maxStops: Int = 1, carrier: String? = nil, sort: FlightSortOrder = .price,
    limit: Int = 50, currency: String? = nil
  ) {
    self.origin = origin
    self.destination = destination
    self.departureDate = departureDate
    self.returnDate = returnDate
    self.adults = adults
    self.cabin = cabin
    self.maxStops = maxStops
    self.carrier = carrier
    self.sort = sort
    self.limit = limit
    self.currency = currency
  }

  /// Parses the currency of option `name` (`--currency`): an ISO 4217 alphabetic code with minor
  /// units, any case, from `Shared/currencies/iso4217_currencies.csv`, that has an ECB reference
  /// rate or an official fixed peg (``ExchangeRates``), so that prices can be converted to it.
  /// - Returns: the upper-case code (`EUR`).
  /// - Throws: ``ServiceError`` (invalid input, exit 2): `unknown_currency` for a code that is not
  ///   ISO 4217, `unsupported_currency` for one without a rate; both list the codes accepted.
  ///   `exchange_rates_unavailable` (exit 1) when the shipped rates cannot be read.
  public static func parseCurrency(_ text: String, option name: String) throws -> String {
    let rates = try ExchangeRates.reference()
    let accepted = rates.currencyCodes.joined(separator: ", ")
    let code = text.trimmingCharacters(in: .whitespaces).uppercased()
    guard (try? Currency.named(code)) != nil else {
      throw ServiceError.invalid(
        "unknown_currency",
        "unknown currency \"\(text)\" for \(name): expected an ISO 4217 code with an exchange rate, one of \(accepted)")
    }
    guard rates.ratesPerEuro[code] != nil else {
      throw ServiceError.invalid(
        "unsupported_currency",
        "no exchange rate for \(code) (\(name)): expected one of \(accepted) (ECB reference rates of \(rates.date) and official fixed pegs)"
      )
    }
    return code
  }

  /// Parses a date `YYYY-MM-DD` of option `name`.
  /// - Throws: ``ServiceError`` `invalid_date` for anything else, including impossible dates
  ///   such as `2026-02-30`.
  public static func parseDate(_ text: String, option name: String) throws -> LocalDate {
    guard let date = LocalDate(text) else {
      throw ServiceError.invalid(
        "invalid_date", "invalid \(name) \"\(text)\": expected a real date YYYY-MM-DD, like 2026-12-20")
    }
    return date
  }

  /// Checks the parts that need no reference data: passengers, stops, carrier, limit, the return
  /// date after the departure, and both dates within today … today + 330 days.
  ///
  /// `today` is the current date at the origin (the service passes it once the place is known).
  /// - Throws: ``ServiceError`` (invalid input): `invalid_adults`, `invalid_max_stops`,
  ///   `invalid_carrier`, `invalid_limit`, `date_in_past`, `date_too_far`, `return_before_departure`.
  public func validate(today: LocalDate) throws {
    guard (1...9).contains(adults) else {
      throw ServiceError.invalid("invalid_adults", "invalid --adults \(adults): expected a whole number from 1 to 9")
    }
    guard (0...2).contains(maxStops) else {
      throw ServiceError.invalid("invalid_max_stops", "invalid --max-stops \(maxStops): expected 0, 1 or 2")
    }
    if let carrier {
      let alphanumeric = carrier.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
      guard carrier.utf8.count == 2, alphanumeric else {
        throw ServiceError.invalid(
          "invalid_carrier",
          "invalid --carrier \(EchoedInput.quoted(carrier)): expected an airline's two-character IATA code, like LH")
      }
    }
    guard (1...Self.maximumLimit).contains(limit) else {
      throw ServiceError.invalid("invalid_limit", "invalid --limit \(limit): expected a whole number from 1 to 1000")
    }
    for (name, date) in [("--date", departureDate), ("--return", returnDate)] {
      guard let date else { continue }
      if date < today {
        throw ServiceError.invalid(
          "date_in_past", "\(name) \(date) is in the past: expected today (\(today)) or later")
      }
      let last = today.adding(days: Self.maximumDaysAhead)
      if date > last {
        throw ServiceError.invalid(
          "date_too_far",
          "\(name) \(date) is more than \(Self.maximumDaysAhead) days ahead: expected a date up to \(last)")
      }
    }
    if let returnDate, returnDate < departureDate {
      throw ServiceError.invalid(
        "return_before_departure",
        "--return \(returnDate) is before --date \(departureDate): expected a return on or after the departure")
    }
  }
}

/// An airport as the `airports` command and autocomplete show it.
///
/// JSON: `{"iata", "name", "city", "country", "timeZone"}` (country: ISO 3166-1 alpha-2;
/// timeZone: IANA).
public struct AirportSummary: Hashable, Sendable, Codable, Identifiable {
  public var iata: String
  public var name: String
  public var city: String
  public var country: String
  public var timeZone: String
  /// For a metropolitan area's code (`LON`: every airport of the city), the IATA codes of its
  /// airports, busiest first; nil (absent from JSON) for an airport.
  public var airports: [String]?

  public init(
    iata: String, name: String, city: String, country: String, timeZone: String, airports: [String]? = nil
  ) {
    self.iata = iata
    self.name = name
    self.city = city
    self.country = country
    self.timeZone = timeZone
    self.airports = airports
  }

  /// Whether this is a metropolitan area (all the airports of a city), not an airport.
  public var isMetroArea: Bool { airports != nil }

  public var id: String { iata }
}
