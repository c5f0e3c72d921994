import Common
import Foundation

/// Where a place text leads among the desks: the airports whose airport desks count, and the
/// airports whose city-centre desks (`<IATA>-CITY`) count too (for a city name or metropolitan
/// code; empty for a bare airport code).
public struct CarPlaceMatch: Hashable, Sendable {
  public var airportCodes: [String]
  public var cityCentreAirportCodes: [String]
  /// How the place is named in messages (`Los Angeles International Airport (LAX)`).
  public var displayName: String

  public init(airportCodes: [String], cityCentreAirportCodes: [String], displayName: String) {
    self.airportCodes = airportCodes
    self.cityCentreAirportCodes = cityCentreAirportCodes
    self.displayName = displayName
  }
}

/// The rentals already taken, for availability. Implemented over SQLite (``SQLiteCarRentals``)
/// and in memory for tests.
public protocol CarRentalsStore: Sendable {
  /// Per (company, location, ACRISS) at `locationIDs`: the most cars rented at the same moment
  /// during `[from, until)` (UTC instants; periods `[a, b)` and `[c, d)` overlap iff a < d && c < b).
  /// A car of a fleet is free for the whole period iff this is below the fleet's count.
  func busyCounts(locationIDs: [String], from: Date, until: Date) throws -> [CarFleetKey: Int]
}

/// One fleet of a desk: company, location, ACRISS code.
public struct CarFleetKey: Hashable, Sendable {
  public var companyID: String
  public var locationID: String
  public var acriss: String
  public init(companyID: String, locationID: String, acriss: String) {
    self.companyID = companyID
    self.locationID = locationID
    self.acriss = acriss
  }
}

/// A store with no rentals at all (searches only).
public struct NoCarRentals: CarRentalsStore {
  public init() {}
  public func busyCounts(locationIDs: [String], from: Date, until: Date) throws -> [CarFleetKey: Int] { [:] }
}

/// The embedded car rental service: inventory + pricing + availability.
public final class CarRentalEngine: CarRentalService, @unchecked Sendable {
  /// Resolves a place text, or throws ``ServiceError`` `unknown_place`.
  public typealias PlaceResolver = @Sendable (String) throws -> CarPlaceMatch
  /// Converts money into a currency at full precision; throws for an unknown rate.
  public typealias Converter = @Sendable (Money, String) throws -> Money

  public let inventory: CarInventory
  public let promotions: CarPromotions
  let resolvePlace: PlaceResolver
  let rentals: CarRentalsStore
  let now: @Sendable () -> Date
  let isMember: @Sendable () -> Bool
  let currency: @Sendable () -> String
  let convert: Converter
  let ledger: ReservationLedger?
  /// A Gregorian calendar per desk time zone, made once (creating zones and calendars is slow).
  let calendars: [String: Calendar]
  let token: @Sendable () -> String?

  /// - Parameters:
  ///   - resolvePlace: nil = ``defaultResolver(for:)`` (codes and city names of the desks).
  ///   - isMember: whether the caller is a signed-in user (member discount).
  ///   - currency: the user's ISO 4217 currency; prices are shown in it.
  ///   - convert: nil = only the rate currency is supported (identity).
  ///   - ledger: books through the reservations ledger (nil: `book` fails with `no_backend`).
  ///   - token: the signed-in user's session token, if any.
  public init(
    inventory: CarInventory, promotions: CarPromotions, rentals: CarRentalsStore = NoCarRentals(),
    resolvePlace: PlaceResolver? = nil, now: @escaping @Sendable () -> Date = { Date() },
    isMember: @escaping @Sendable () -> Bool = { false }, currency: @escaping @Sendable () -> String = { "USD" },
    convert: Converter? = nil, ledger: ReservationLedger? = nil, token: @escaping @Sendable () -> String? = { nil }
  ) {
    self.ledger = ledger
    var calendars: [String: Calendar] = [:]
    for location in inventory.locations where calendars[location.timeZoneIdentifier] == nil {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = location.timeZone
      calendars[location.timeZoneIdentifier] = calendar
    }
    self.calendars = calendars
    self.token = token
    self.inventory = inventory
    self.promotions = promotions
    self.rentals = rentals
    self.resolvePlace = resolvePlace ?? Self.defaultResolver(for: inventory)
    self.now = now
    self.isMember = isMember
    self.currency = currency
    self.convert =
      convert ?? { money, code in
        guard money.currencyCode == code else {
          throw ServiceError(
            .unavailable, code: "no_exchange_rate", message: "no exchange rate from \(money.currencyCode) to \(code)")
        }
        return money
      }
  }

  /// A resolver over the desks alone: an airport code of a desk (airport desks), else a city of
  /// a desk (case- and diacritic-insensitive; airport and city-centre desks of that city).
  public static func defaultResolver(for inventory: CarInventory) -> PlaceResolver {
    let locations = inventory.locations
    return { text in
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let upper = trimmed.uppercased()
      if let airport = locations.first(where: { $0.kind == .airport && $0.iata == upper }) {
        return CarPlaceMatch(
          airportCodes: [upper], cityCentreAirportCodes: [], displayName: "\(airport.name) (\(upper))")
      }
      let key = Self.fold(trimmed)
      let matches = locations.filter { Self.fold($0.city) == key }
      guard let first = matches.first else { throw Self.unknownPlace(text) }
      let codes = matches.map(\.iata)
      return CarPlaceMatch(airportCodes: codes, cityCentreAirportCodes: codes, displayName: first.city)
    }
  }

  static func unknownPlace(_ text: String) -> ServiceError {
    ServiceError.invalid(
      "unknown_place", "unknown place \"\(text)\": expected an IATA code like LAX or a city name like Los Angeles")
  }

  static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
      .lowercased()
  }

  /// The desks a place match covers, in inventory order.
  func desks(for match: CarPlaceMatch) -> [CarDesk] {
    let codes = Set(match.airportCodes)
    let centres = Set(match.cityCentreAirportCodes)
    return inventory.desks.filter { desk in
      switch desk.location.kind {
      case .airport: codes.contains(desk.location.iata)
      case .cityCentre: centres.contains(desk.location.iata)
      }
    }
  }

  // MARK: CarRentalService

  public func companies(at place: String) throws -> [CompanyAtPlace] {
    let desks = desks(for: try resolvePlace(place))
    return inventory.companies.compactMap { company in
      let own = desks.filter { $0.company.id == company.id }
      guard !own.isEmpty else { return nil }
      return CompanyAtPlace(
        company: company,
        desks: own.map { CompanyAtPlace.Desk(location: $0.location, hours: $0.hours, fleet: $0.fleet) })
    }
  }

  public func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion] {
    let key = Self.fold(prefix.trimmingCharacters(in: .whitespaces))
    guard !key.isEmpty else { return [] }
    var suggestions: [CarPlaceSuggestion] = []
    var seenCities = Set<String>()
    for location in inventory.locations where suggestions.count < limit {
      if location.kind == .airport,
        Self.fold(location.iata).hasPrefix(key) || Self.fold(location.name).hasPrefix(key)
      {
        suggestions.append(
          CarPlaceSuggestion(code: location.iata, label: "\(location.iata) — \(location.name), \(location.city)"))
      }
      if Self.fold(location.city).hasPrefix(key), seenCities.insert(location.city).inserted, suggestions.count < limit {
        suggestions.append(
          CarPlaceSuggestion(code: location.city, label: "\(location.city), \(location.countryCode) — every desk"))
      }
    }
    return suggestions
  }

  public func search(_ query: CarSearchQuery) throws -> CarSearchResult {
    let pickupMatch = try resolvePlace(query.pickupPlace)
    let dropoffMatch = try query.dropoffPlace.map { try resolvePlace($0) }
    try Self.validatePeriod(query.pickup, query.dropoff)
    let company = try query.company.map { text in
      guard let company = inventory.company(named: text) else {
        throw ServiceError.invalid(
          "unknown_company",
          "unknown company \"\(text)\": expected one of \(inventory.companies.map(\.id).joined(separator: ", "))")
      }
      return company
    }
    let promo = try query.promoCode.map { try promotions.validate($0, pickup: query.pickup) }
    let currency = currency()
    let member = isMember()
    var desks = desks(for: pickupMatch)
    if let company { desks = desks.filter { $0.company.id == company.id } }
    var notices: [String] = []
    if desks.isEmpty {
      let who = company.map { "\($0.name) has" } ?? "there are"
      notices.append("\(who) no rental desks at \(pickupMatch.displayName)")
      return CarSearchResult(offers: [], notices: notices, currency: currency)
    }
    let dropoffDesks = dropoffMatch.map { self.desks(for: $0) }
    let now = now()
    // Pick-up in the past: checked at each desk's zone (all desks of a place share one in practice).
    var closed: [String] = []
    var candidates: [(desk: CarDesk, dropoff: CarDesk, from: Date, until: Date)] = []
    for desk in desks {
      let from = try pickupInstant(query.pickup, at: desk, now: now)
      var dropoffDesk = desk
      if let dropoffDesks {
        let own = dropoffDesks.filter { $0.company.id == desk.company.id }
        guard let chosen = own.first(where: { $0.location.id == desk.location.id }) ?? own.first else {
          notices.append("\(desk.company.name) has no desk at \(dropoffMatch?.displayName ?? "the drop-off place")")
          continue
        }
        dropoffDesk = chosen
      }
      if let rejection = rejection(desk: desk, dropoffDesk: dropoffDesk, pickup: query.pickup, dropoff: query.dropoff) {
        if rejection.code == Self.outsideOpeningHours {
          closed.append(rejection.message)
        } else {
          notices.append(rejection.message)
        }
        continue
      }
      let until = try dropoffInstant(query.dropoff, at: dropoffDesk)
      candidates.append((desk, dropoffDesk, from, until))
    }
    if candidates.isEmpty && !closed.isEmpty {
      throw ServiceError.refused(
        Self.outsideOpeningHours, "no desk is open at those times: " + closed.joined(separator: "; "))
    }
    notices += closed
    let days = CarPricing.chargedDays(from: query.pickup, to: query.dropoff)
    var offers: [CarOffer] = []
    var promoReasons = Set<String>()
    // One availability query for the whole period (the widest window of the candidates).
    let booked: [CarFleetKey: Int]
    if let from = candidates.map(\.from).min(), let until = candidates.map(\.until).max() {
      booked = try rentals.busyCounts(
        locationIDs: Array(Set(candidates.map(\.desk.location.id))), from: from, until: until)
    } else {
      booked = [:]
    }
    for candidate in candidates {
      for (code, count) in candidate.desk.fleet.sorted(by: { $0.key < $1.key }) {
        if let pattern = query.classPattern, !pattern.matches(code) { continue }
        let key = CarFleetKey(
          companyID: candidate.desk.company.id, locationID: candidate.desk.location.id, acriss: code.rawValue)
        let free = count - (booked[key] ?? 0)
        guard free > 0 else { continue }
        let offer = try price(
          code, desk: candidate.desk, dropoff: candidate.dropoff, pickup: query.pickup, dropoffTime: query.dropoff,
          days: days, promo: promo, member: member, currency: currency, carsAvailable: free)
        if let note = offer.promoNote { promoReasons.insert(note) }
        offers.append(offer)
      }
    }
    notices += promoReasons.sorted()
    offers.sort { ($0.total.amount, $0.company.id, $0.acriss) < ($1.total.amount, $1.company.id, $1.acriss) }
    return CarSearchResult(offers: Array(offers.prefix(query.limit)), notices: notices, currency: currency)
  }

  public func book(_ request: CarBookingRequest) throws -> Reservation {
    let id = try CarOfferID(parsing: request.offerID)
    let driver = request.driverName.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard driver.split(separator: " ").count >= 2, driver.count <= 100 else {
      throw ServiceError.invalid(
        "invalid_driver", "invalid --driver \"\(request.driverName)\": expected \"Given Family\" as on the licence")
    }
    let unknown = ServiceError.invalid(
      "invalid_offer_id", "no such car offer \"\(request.offerID)\": use an id printed by 'car-rental search'")
    guard let desk = inventory.desks(at: id.pickupLocationID).first(where: { $0.company.id == id.companyID }),
      desk.fleet[id.acriss] != nil,
      let dropoffDesk = inventory.desks(at: id.dropoffLocationID).first(where: { $0.company.id == id.companyID })
    else { throw unknown }
    try Self.validatePeriod(id.pickup, id.dropoff)
    // The same rules as `search` (horizon, opening hours, one-way policy), so a hand-made id books
    // nothing search would not offer.
    guard let from = instant(id.pickup, at: desk.location) else { throw unknown }
    guard from > now() else {
      throw ServiceError.refused("offer_expired", "the pick-up time of \(request.offerID) has passed: search again")
    }
    _ = try pickupInstant(id.pickup, at: desk, now: now())
    if let rejection = rejection(desk: desk, dropoffDesk: dropoffDesk, pickup: id.pickup, dropoff: id.dropoff) {
      throw ServiceError.refused(rejection.code, "cannot book \(request.offerID): \(rejection.message)")
    }
    guard let until = instant(id.dropoff, at: dropoffDesk.location) else { throw unknown }
    guard let ledger else {
      throw ServiceError(.unavailable, code: "no_backend", message: "booking needs the reservations store")
    }
    guard let token = token() else { throw ServiceError.notSignedIn }
    let promo = try id.promoCode.map { try promotions.validate($0, pickup: id.pickup) }
    let days = CarPricing.chargedDays(from: id.pickup, to: id.dropoff)
    let offer = try price(
      id.acriss, desk: desk, dropoff: dropoffDesk, pickup: id.pickup, dropoffTime: id.dropoff, days: days, promo: promo,
      member: isMember(), currency: currency(), carsAvailable: 0)
    if offer.total.currencyCode != id.currency || offer.total.minorUnits > id.quotedMinorUnits {
      throw ServiceError.refused(
        "price_changed",
        "the price of this car is now \(offer.total) (offer \(offer.id)): book that offer to accept it",
        details: ["offerId": offer.id, "price": offer.total.amountString, "currency": offer.total.currencyCode])
    }
    let zoneFrom = desk.location.timeZone
    let zoneUntil = dropoffDesk.location.timeZone
    var details: [String: JSONValue] = [
      "offerId": .string(offer.id), "company": .string(desk.company.name), "companyId": .string(desk.company.id),
      "acriss": .string(id.acriss.rawValue), "description": .string(id.acriss.words),
      "pickupLocation": .string(desk.location.id), "dropoffLocation": .string(dropoffDesk.location.id),
      "pickup": .string(id.pickup.iso8601(in: zoneFrom)), "dropoff": .string(id.dropoff.iso8601(in: zoneUntil)),
      "days": .integer(Int64(days)), "driver": .string(driver),
      "timeZone": .string(desk.location.timeZoneIdentifier),
      "endTimeZone": .string(dropoffDesk.location.timeZoneIdentifier),
    ]
    details["lines"] = .array(
      offer.lines.map {
        .object(["name": .string($0.name), "amount": .string($0.amount.rounded().amountString)])
      })
    let summary =
      "\(desk.company.name) \(id.acriss) (\(id.acriss.category)), \(desk.location.id) \(id.pickup) → "
      + "\(dropoffDesk.location.id) \(id.dropoff)"
    let booking = BookingRequest(
      token: token, kind: .car, cardID: request.cardID, idempotencyKey: request.idempotencyKey, total: offer.total,
      summary: summary, startsAt: from, endsAt: until, details: details)
    return try ledger.book(booking) { context in
      try SQLiteCarRentals.take(
        context.db, reservationID: context.reservationID, desk: desk, dropoffLocationID: dropoffDesk.location.id,
        acriss: id.acriss, from: from, until: until)
    }
  }

  /// The code of a refusal because a desk is closed at the pick-up or drop-off time.
  static let outsideOpeningHours = "outside_opening_hours"

  /// Why a company cannot rent from `desk` to `dropoffDesk` for the period: `code` (snake_case,
  /// for `book`'s refusal) and `message` (search's notice). Nil when it can.
  ///
  /// Checks, in order: the pick-up desk open at `pickup`, the company's one-way policy when the
  /// desks differ (`one_way_not_allowed`), the drop-off desk open at `dropoff`
  /// (`outside_opening_hours`). Times are local to each desk.
  func rejection(desk: CarDesk, dropoffDesk: CarDesk, pickup: LocalDateTime, dropoff: LocalDateTime) -> (
    code: String, message: String
  )? {
    guard desk.hours.isOpen(at: pickup) else {
      return (
        Self.outsideOpeningHours,
        "\(desk.company.name) at \(desk.location.id) is \(desk.hours.describeDay(of: pickup)) (pick-up \(pickup))"
      )
    }
    if dropoffDesk.location.id != desk.location.id {
      let policy = desk.company.oneWay
      if !policy.allowed {
        return ("one_way_not_allowed", "\(desk.company.name) does not rent one-way")
      }
      if policy.sameCountryOnly && dropoffDesk.location.countryCode != desk.location.countryCode {
        return ("one_way_not_allowed", "\(desk.company.name) rents one-way only within \(desk.location.countryCode)")
      }
    }
    guard dropoffDesk.hours.isOpen(at: dropoff) else {
      return (
        Self.outsideOpeningHours,
        "\(desk.company.name) at \(dropoffDesk.location.id) is \(dropoffDesk.hours.describeDay(of: dropoff)) "
          + "(drop-off \(dropoff))"
      )
    }
    return nil
  }

  /// The pick-up instant at `desk`.
  /// - Throws: ``ServiceError`` (invalid input) `invalid_date_time` in a daylight-saving gap,
  ///   `pickup_in_past` before `now`, `pickup_too_far` on a local date more than
  ///   ``CarPricing/maximumDaysAhead`` days after today at the desk.
  func pickupInstant(_ pickup: LocalDateTime, at desk: CarDesk, now: Date) throws -> Date {
    guard let from = instant(pickup, at: desk.location) else {
      throw ServiceError.invalid(
        "invalid_date_time",
        "pick-up \(pickup) does not exist at \(desk.location.id) (clocks change for daylight saving): "
          + "choose another time")
    }
    guard from >= now else {
      throw ServiceError.invalid(
        "pickup_in_past",
        "pick-up \(pickup) is in the past at \(desk.location.id) (now \(LocalDateTime(now, in: desk.location.timeZone)) there): "
          + "expected a future local date-time")
    }
    let last = LocalDate(now, in: desk.location.timeZone).adding(days: CarPricing.maximumDaysAhead)
    guard
      pickup
        < LocalDateTime(year: last.year, month: last.month, day: last.day, hour: 0, minute: 0).adding(minutes: 1440)
    else {
      throw ServiceError.invalid(
        "pickup_too_far",
        "pick-up \(pickup) is more than \(CarPricing.maximumDaysAhead) days ahead: "
          + "expected a pick-up date up to \(last) (local time at \(desk.location.id))")
    }
    return from
  }

  /// The drop-off instant at `desk`; throws ``ServiceError`` `invalid_date_time` in a daylight-saving gap.
  func dropoffInstant(_ dropoff: LocalDateTime, at desk: CarDesk) throws -> Date {
    guard let until = instant(dropoff, at: desk.location) else {
      throw ServiceError.invalid(
        "invalid_date_time",
        "drop-off \(dropoff) does not exist at \(desk.location.id) (clocks change for daylight saving): "
          + "choose another time")
    }
    return until
  }

  /// The instant of a wall-clock time at `location` (nil in a daylight-saving gap).
  func instant(_ time: LocalDateTime, at location: RentalLocation) -> Date? {
    calendars[location.timeZoneIdentifier].map { time.instant(using: $0) } ?? time.instant(in: location.timeZone)
  }

  /// Drop-off after pick-up, at most ``CarPricing/maximumDays`` charged days.
  static func validatePeriod(_ pickup: LocalDateTime, _ dropoff: LocalDateTime) throws {
    guard dropoff > pickup else {
      throw ServiceError.invalid(
        "dropoff_not_after_pickup",
        "drop-off \(dropoff) is not after pick-up \(pickup): expected a later local date-time for --to")
    }
    let days = CarPricing.chargedDays(from: pickup, to: dropoff)
    guard days <= CarPricing.maximumDays else {
      throw ServiceError.invalid(
        "rental_too_long",
        "a rental from \(pickup) to \(dropoff) is \(days) days: at most \(CarPricing.maximumDays) days are accepted")
    }
  }

  /// Prices one car (see ``CarPricing`` for the rules) and builds its offer.
  func price(
    _ code: ACRISSCode, desk: CarDesk, dropoff: CarDesk, pickup: LocalDateTime, dropoffTime: LocalDateTime, days: Int,
    promo: PromoCode?, member: Bool, currency: String, carsAvailable: Int
  ) throws -> CarOffer {
    let rateCurrency = inventory.rateCurrency
    let daily = try convert(Money(amount: inventory.dailyRate(code, at: desk), currency: rateCurrency), currency)
    let weekly = try convert(Money(amount: inventory.weeklyRate(code, at: desk), currency: rateCurrency), currency)
    let charge = CarPricing.rentalCharge(days: days, daily: daily.amount, weekly: weekly.amount)
    // Each line is rounded to minor units as it is made, and later lines are computed from the
    // rounded ones: the lines a person reads add up to the total charged, to the cent.
    let rental = Money(amount: charge.amount, currency: currency).rounded()
    var lines = [
      PriceLine(
        kind: .rental, name: CarPricing.rentalDescription(days: days, daily: daily, weekly: weekly), amount: rental)
    ]
    var discounted = rental
    var promoNote: String?
    if let promo {
      if let reason = CarPromotions.reasonNotApplying(promo, company: desk.company, days: days) {
        promoNote = reason
      } else {
        var off: Money
        switch promo.discount {
        case .percent(let percent): off = (rental * percent / 100).rounded()
        case .fixed(let amount): off = try convert(amount, currency).rounded()
        }
        if off.amount > rental.amount { off = rental }
        lines.append(PriceLine(kind: .promo, name: "Promo \(promo.code) (\(promo.summary))", amount: -off))
        discounted = discounted - off
      }
    }
    if member {
      let percent = inventory.memberDiscountPercent
      let off = (rental * percent / 100).rounded()
      lines.append(PriceLine(kind: .member, name: "Member discount (\(percent)% off the rental)", amount: -off))
      discounted = discounted - off
    }
    var taxable = discounted
    if dropoff.location.id != desk.location.id {
      let fee = try convert(desk.company.oneWay.fee, currency).rounded()
      lines.append(PriceLine(kind: .oneWayFee, name: "One-way fee (drop-off at \(dropoff.location.id))", amount: fee))
      taxable = taxable + fee
    }
    if desk.location.kind == .airport {
      let percent = inventory.airportConcessionFeePercent
      let fee = (discounted * percent / 100).rounded()
      lines.append(PriceLine(kind: .fee, name: "Airport concession fee (\(percent)%)", amount: fee))
      taxable = taxable + fee
    }
    let taxPercent = inventory.taxPercent(countryCode: desk.location.countryCode)
    lines.append(
      PriceLine(
        kind: .tax, name: "Tax (\(taxPercent)%, \(desk.location.countryCode))",
        amount: (taxable * taxPercent / 100).rounded()))
    let total = lines.map(\.amount).sum(in: currency)
    let id = CarOfferID(
      companyID: desk.company.id, pickupLocationID: desk.location.id, dropoffLocationID: dropoff.location.id,
      acriss: code, pickup: pickup, dropoff: dropoffTime, promoCode: promo?.code, quotedMinorUnits: total.minorUnits,
      currency: currency)
    return CarOffer(
      id: id.description, company: desk.company, pickupLocation: desk.location, dropoffLocation: dropoff.location,
      pickup: pickup, dropoff: dropoffTime, acriss: code, days: days, carsAvailable: carsAvailable, lines: lines,
      total: total, promoNote: promoNote)
  }
}

extension Money {
  fileprivate static func / (lhs: Money, rhs: Decimal) -> Money {
    Money(amount: lhs.amount / rhs, currency: lhs.currencyCode)
  }
}
