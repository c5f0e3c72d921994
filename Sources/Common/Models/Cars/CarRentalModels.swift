import Foundation

/// The weekly opening hours of a rental location, in its local wall-clock time.
///
/// `days[0]` is Monday … `days[6]` Sunday (ISO 8601 weekdays); each is nil when closed, else the
/// opening and closing minute after local midnight (`0..<1440`, closing `1440` = midnight). A
/// pick-up or drop-off at exactly the closing minute is accepted (the desk takes the last car back).
public struct OpeningHours: Hashable, Sendable, Codable {
  /// One day's hours, in minutes after local midnight.
  public struct Span: Hashable, Sendable, Codable {
    public var opens: Int
    public var closes: Int
    public init(opens: Int, closes: Int) {
      self.opens = opens
      self.closes = closes
    }
  }

  /// Monday first; nil = closed that day.
  public var days: [Span?]

  public init(days: [Span?]) { self.days = days }

  /// Open round the clock, every day.
  public static let allDay = OpeningHours(days: Array(repeating: Span(opens: 0, closes: 1440), count: 7))

  /// Parses 7 entries, Monday first, each `"HH:MM-HH:MM"`, `"24h"` or `"closed"`.
  /// - Throws: ``ServiceError`` `.unavailable` / `malformed_hours` naming the bad entry.
  public init(parsing entries: [String]) throws {
    guard entries.count == 7 else {
      throw ServiceError(
        .unavailable, code: "malformed_hours", message: "opening hours need 7 days, got \(entries.count)")
    }
    days = try entries.map { entry in
      if entry == "closed" { return nil }
      if entry == "24h" { return Span(opens: 0, closes: 1440) }
      let parts = entry.split(separator: "-").map(String.init)
      func minutes(_ text: String) -> Int? {
        let hm = text.split(separator: ":").compactMap { Int($0) }
        guard hm.count == 2, (0...24).contains(hm[0]), (0..<60).contains(hm[1]) else { return nil }
        return hm[0] * 60 + hm[1]
      }
      guard parts.count == 2, let opens = minutes(parts[0]), let closes = minutes(parts[1]), opens < closes,
        closes <= 1440
      else {
        throw ServiceError(.unavailable, code: "malformed_hours", message: "malformed opening hours \"\(entry)\"")
      }
      return Span(opens: opens, closes: closes)
    }
  }

  /// Whether the desk is open at `time` (local wall clock).
  public func isOpen(at time: LocalDateTime) -> Bool {
    guard let span = days[time.isoWeekday - 1] else { return false }
    return time.minuteOfDay >= span.opens && time.minuteOfDay <= span.closes
  }

  /// `"Sun closed"`, `"Mon 08:00–18:00"`, `"Tue open 24 hours"` for the day of `time`.
  public func describeDay(of time: LocalDateTime) -> String {
    let name = Self.weekdayNames[time.isoWeekday - 1]
    guard let span = days[time.isoWeekday - 1] else { return "closed on \(name)" }
    if span.opens == 0 && span.closes == 1440 { return "open 24 hours on \(name)" }
    return "open \(Self.clock(span.opens))–\(Self.clock(span.closes)) on \(name)"
  }

  /// A one-line summary of the week (`Mon–Fri 08:00–18:00, Sat 09:00–13:00, Sun closed`).
  public var summary: String {
    var groups: [(Int, Int, Span?)] = []
    for (index, span) in days.enumerated() {
      if let last = groups.last, last.2 == span {
        groups[groups.count - 1].1 = index
      } else {
        groups.append((index, index, span))
      }
    }
    return groups.map { first, last, span in
      let name =
        first == last ? Self.weekdayNames[first] : "\(Self.weekdayNames[first])–\(Self.weekdayNames[last])"
      guard let span else { return "\(name) closed" }
      if span.opens == 0 && span.closes == 1440 { return "\(name) 24h" }
      return "\(name) \(Self.clock(span.opens))–\(Self.clock(span.closes))"
    }.joined(separator: ", ")
  }

  static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

  static func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
}

/// Where a car is picked up or dropped off: a desk at an airport or in a city centre.
public struct RentalLocation: Hashable, Sendable, Codable, Identifiable {
  public enum Kind: String, Hashable, Sendable, Codable {
    case airport
    case cityCentre
  }

  /// `LAX` for the airport desk, `LAX-CITY` for the city centre served by that airport.
  public var id: String
  public var kind: Kind
  /// `Los Angeles International Airport` or `Los Angeles city centre`.
  public var name: String
  /// The IATA code of the airport (for a city centre: of the city's busiest airport).
  public var iata: String
  public var city: String
  /// ISO 3166-1 alpha-2.
  public var countryCode: String
  /// IANA time zone of the desk (`America/Los_Angeles`); every local time there is in it.
  public var timeZoneIdentifier: String

  public init(
    id: String, kind: Kind, name: String, iata: String, city: String, countryCode: String, timeZoneIdentifier: String
  ) {
    self.id = id
    self.kind = kind
    self.name = name
    self.iata = iata
    self.city = city
    self.countryCode = countryCode
    self.timeZoneIdentifier = timeZoneIdentifier
  }

  /// The desk's time zone (UTC when the identifier is unknown, which the inventory never builds).
  public var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(secondsFromGMT: 0)! }
}

/// Whether and at what price a company lets a car be returned elsewhere.
public struct OneWayPolicy: Hashable, Sendable, Codable {
  /// `false`: the car must come back to its pick-up location.
  public var allowed: Bool
  /// Only within the pick-up location's country.
  public var sameCountryOnly: Bool
  /// Flat fee charged once per one-way rental (in the company's rate currency).
  public var fee: Money

  public init(allowed: Bool, sameCountryOnly: Bool, fee: Money) {
    self.allowed = allowed
    self.sameCountryOnly = sameCountryOnly
    self.fee = fee
  }

  /// `"one-way within the country, fee $95.00"`: the fee as the service gave it (the car
  /// service converts it into the traveller's currency), written by `money`.
  public func summary(money: MoneyFormat = .english) -> String {
    guard allowed else { return "no one-way rentals" }
    return "one-way \(sameCountryOnly ? "within the country" : "allowed"), fee \(money.string(fee))"
  }

  /// ``summary(money:)`` in English.
  public var summary: String { summary() }
}

/// A car rental company (invented names, `Shared/cars/companies.json`).
public struct RentalCompany: Hashable, Sendable, Codable, Identifiable {
  /// Lower-case slug without `_` (`zephyr`), used in offer ids and `--company`.
  public var id: String
  public var name: String
  public var oneWay: OneWayPolicy

  public init(id: String, name: String, oneWay: OneWayPolicy) {
    self.id = id
    self.name = name
    self.oneWay = oneWay
  }
}

/// One line of a car's price, in the user's currency at full precision (never rounded alone;
/// the total is the sum of the lines rounded once).
public struct PriceLine: Hashable, Sendable, Codable {
  public enum Kind: String, Hashable, Sendable, Codable {
    /// Days at the daily rate, or a week at the weekly rate.
    case rental
    /// A promo code (negative).
    case promo
    /// The member discount of a signed-in user (negative).
    case member
    /// Drop-off at another location.
    case oneWayFee
    /// Airport concession fee.
    case fee
    /// Sales tax / VAT.
    case tax
  }

  public var kind: Kind
  /// What a person reads: `"7 days at the weekly rate"`, `"Promo WINTER10 (10% off rental)"`.
  public var name: String
  /// Negative for discounts.
  public var amount: Money

  public init(kind: Kind, name: String, amount: Money) {
    self.kind = kind
    self.name = name
    self.amount = amount
  }

  /// Whether the line lowers the price (promo or member discount).
  public var isDiscount: Bool { kind == .promo || kind == .member }
}

/// A discount of a car offer as the JSON contract shows it (`{"name", "amount"}`), the amount
/// negative and rounded to the currency's minor units.
public struct CarDiscount: Hashable, Sendable, Codable {
  public var name: String
  public var amount: Money
  public init(name: String, amount: Money) {
    self.name = name
    self.amount = amount
  }
}

/// A promo code from `Shared/cars/promotions.json`.
public struct PromoCode: Hashable, Sendable, Codable {
  public enum Discount: Hashable, Sendable, Codable {
    /// Percent off the rental line (10 = 10 %).
    case percent(Decimal)
    /// A fixed amount off the rental, in its own currency (converted into the user's).
    case fixed(Money)
  }

  /// Upper case (`WINTER10`).
  public var code: String
  public var discount: Discount
  /// The first and last local date (inclusive) on which the code may be used, checked against
  /// the pick-up date at the pick-up location.
  public var validFrom: String
  public var validUntil: String
  /// The rental must last at least this many charged days.
  public var minimumDays: Int
  /// Company ids it applies to; empty = every company.
  public var companies: [String]

  public init(
    code: String, discount: Discount, validFrom: String, validUntil: String, minimumDays: Int, companies: [String]
  ) {
    self.code = code
    self.discount = discount
    self.validFrom = validFrom
    self.validUntil = validUntil
    self.minimumDays = minimumDays
    self.companies = companies
  }

  /// `"10% off the rental"`, `"$25.00 off the rental"` (English; a fixed amount in the promo's
  /// own currency, the discount line converts it).
  public var summary: String {
    switch discount {
    case .percent(let value): "\(value)% off the rental"
    case .fixed(let money): "\(MoneyFormat.english.string(money)) off the rental"
    }
  }
}

/// The parts of a car offer id: everything needed to price the same car again.
///
/// Shape: `car_<company>_<pickupLocation>_<dropoffLocation>_<ACRISS>_<from>_<to>_<promo>_<quote>_<signature>`,
/// e.g. `car_zephyr_LAX_LAX_CDAR_202612201000_202612271000_WINTER10_41234USD_5d1e0c9b7a3f42e8b6d09a1c7e4f2b38`:
/// times as local `YYYYMMDDHHMM`, promo `-` when none, quote the total in minor units followed by
/// its ISO 4217 code; the signature (``OfferSignature``) covers ``payload``, everything before it.
public struct CarOfferID: Hashable, Sendable, CustomStringConvertible {
  public var companyID: String
  public var pickupLocationID: String
  public var dropoffLocationID: String
  public var acriss: ACRISSCode
  public var pickup: LocalDateTime
  public var dropoff: LocalDateTime
  public var promoCode: String?
  /// The quoted total in minor units of `currency`.
  public var quotedMinorUnits: Int64
  public var currency: String
  /// The signature of ``payload`` (``OfferSignature``); empty until the backend signs the id.
  public var signature: String

  public init(
    companyID: String, pickupLocationID: String, dropoffLocationID: String, acriss: ACRISSCode,
    pickup: LocalDateTime, dropoff: LocalDateTime, promoCode: String?, quotedMinorUnits: Int64, currency: String,
    signature: String = ""
  ) {
    self.signature = signature
    self.companyID = companyID
    self.pickupLocationID = pickupLocationID
    self.dropoffLocationID = dropoffLocationID
    self.acriss = acriss
    self.pickup = pickup
    self.dropoff = dropoff
    self.promoCode = promoCode
    self.quotedMinorUnits = quotedMinorUnits
    self.currency = currency
  }

  /// Parses an id (the signature is checked for its shape only; the backend checks it matches).
  /// - Throws: ``ServiceError`` `.invalidInput` / `invalid_offer_id`, showing the expected shape.
  public init(parsing text: String) throws {
    let invalid = ServiceError.invalid(
      "invalid_offer_id",
      "invalid car offer id \(EchoedInput.quoted(text)): expected an id from 'car-rental search' like "
        + "car_zephyr_LAX_LAX_CDAR_202612201000_202612271000_-_41234USD_\(OfferSignature.example)")
    var parts = text.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 2, OfferSignature.isWellFormed(parts[parts.count - 1]) else {
      throw parts[0] == "car" && parts.count == 9 ? OfferSignature.missing(text, search: "car-rental search") : invalid
    }
    let signature = parts.removeLast()
    guard parts.count == 9, parts[0] == "car", !parts[1].isEmpty, !parts[2].isEmpty, !parts[3].isEmpty,
      let acriss = try? ACRISSCode(parts[4]), let pickup = LocalDateTime(compact: parts[5]),
      let dropoff = LocalDateTime(compact: parts[6]), !parts[7].isEmpty, parts[8].count > 3
    else { throw invalid }
    let quote = parts[8]
    let currency = String(quote.suffix(3))
    guard currency.allSatisfy({ $0.isASCII && $0.isUppercase }), let minor = Int64(quote.dropLast(3)) else {
      throw invalid
    }
    self.init(
      companyID: parts[1], pickupLocationID: parts[2], dropoffLocationID: parts[3], acriss: acriss, pickup: pickup,
      dropoff: dropoff, promoCode: parts[7] == "-" ? nil : parts[7], quotedMinorUnits: minor, currency: currency,
      signature: signature)
  }

  /// The text form: ``payload``, then `_` and the signature.
  public var description: String { signature.isEmpty ? payload : payload + "_" + signature }

  /// What the signature covers: the text form without its signature.
  public var payload: String {
    [
      "car", companyID, pickupLocationID, dropoffLocationID, acriss.rawValue, pickup.compact, dropoff.compact,
      promoCode ?? "-", "\(quotedMinorUnits)\(currency)",
    ].joined(separator: "_")
  }
}

/// A car the user can book: one ACRISS class of one company for one period, fully priced.
public struct CarOffer: Hashable, Sendable, Identifiable {
  /// See ``CarOfferID``.
  public var id: String
  public var company: RentalCompany
  public var pickupLocation: RentalLocation
  public var dropoffLocation: RentalLocation
  /// Local wall-clock times at each location.
  public var pickup: LocalDateTime
  public var dropoff: LocalDateTime
  public var acriss: ACRISSCode
  /// Charged 24-hour periods (local wall clock, 29-minute grace).
  public var days: Int
  /// Cars of this code at the pick-up location free for the whole period.
  public var carsAvailable: Int
  /// Every line of the price, in the user's currency at full precision.
  public var lines: [PriceLine]
  /// The sum of ``lines``, rounded once to the currency's minor units.
  public var total: Money
  /// Why the requested promo code does not apply to this offer, when it does not.
  public var promoNote: String?

  public init(
    id: String, company: RentalCompany, pickupLocation: RentalLocation, dropoffLocation: RentalLocation,
    pickup: LocalDateTime, dropoff: LocalDateTime, acriss: ACRISSCode, days: Int, carsAvailable: Int,
    lines: [PriceLine], total: Money, promoNote: String? = nil
  ) {
    self.id = id
    self.company = company
    self.pickupLocation = pickupLocation
    self.dropoffLocation = dropoffLocation
    self.pickup = pickup
    self.dropoff = dropoff
    self.acriss = acriss
    self.days = days
    self.carsAvailable = carsAvailable
    self.lines = lines
    self.total = total
    self.promoNote = promoNote
  }

  /// The discount lines, each rounded for display.
  public var discounts: [CarDiscount] {
    lines.filter(\.isDiscount).map { CarDiscount(name: $0.name, amount: $0.amount.rounded()) }
  }

  /// The category in words (`Compact`).
  public var category: String { acriss.category }
}
