import Common
import Foundation
import Synchronization

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
  /// The exchange rates prices are converted at (the ECB reference rates per euro).
  public typealias RatesProvider = @Sendable () throws -> ExchangeRates

  public let inventory: CarInventory
  public let promotions: CarPromotions
  let resolvePlace: PlaceResolver
  let rentals: CarRentalsStore
  let now: @Sendable () -> Date
  let isMember: @Sendable () -> Bool
  let currency: @Sendable () -> String
  let rates: RatesProvider
  /// ``CarInventory/memberDiscountPercent`` and ``CarInventory/airportConcessionFeePercent``, exact.
  let memberPercent: OfferPricing.Percent
  let airportFeePercent: OfferPricing.Percent
  /// The names of the member-discount and airport-fee lines (the same on every offer).
  let memberLineName: String
  let airportFeeLineName: String
  let ledger: ReservationLedger?
  /// A Gregorian calendar per desk time zone, made on first use and kept (creating zones and
  /// calendars is slow; hundreds of zones have desks, a search meets one or two).
  private let calendars = Mutex<[String: Calendar]>([:])
  /// Each location's folded code, name and city for ``suggestPlaces(_:limit:)``, made on first use.
  private let suggestionKeys = Mutex<[(code: String, name: String, city: String)]?>(nil)
  let token: @Sendable () -> String?
  /// Signs offer ids and checks those given back (``OfferSigner``).
  let signer: OfferSigner

  /// - Parameters:
  ///   - resolvePlace: nil = ``defaultResolver(for:)`` (codes and city names of the desks).
  ///   - isMember: whether the caller is a signed-in user (member discount).
  ///   - currency: the user's ISO 4217 currency; prices are shown in it.
  ///   - rates: the exchange rates from the rate currency (USD) into `currency` (read only when
  ///     they differ); nil = only the rate currency is supported (`no_exchange_rate`, exit 1).
  ///   - ledger: books through the reservations ledger (nil: `book` fails with `no_backend`).
  ///   - token: the signed-in user's session token, if any.
  ///   - signer: signs and checks offer ids (the data directory's in the apps; by default a key of
  ///     this process alone, ``OfferSigner/processLocal``).
  public init(
    inventory: CarInventory, promotions: CarPromotions, rentals: CarRentalsStore = NoCarRentals(),
    resolvePlace: PlaceResolver? = nil, now: @escaping @Sendable () -> Date = { Date() },
    isMember: @escaping @Sendable () -> Bool = { false }, currency: @escaping @Sendable () -> String = { "USD" },
    rates: RatesProvider? = nil, ledger: ReservationLedger? = nil, token: @escaping @Sendable () -> String? = { nil },
    signer: OfferSigner = .processLocal
  ) {
    self.signer = signer
    self.ledger = ledger
    self.token = token
    self.inventory = inventory
    self.promotions = promotions
    self.rentals = rentals
    self.resolvePlace = resolvePlace ?? Self.defaultResolver(for: inventory)
    self.now = now
    self.isMember = isMember
    self.currency = currency
    self.rates =
      rates ?? {
        throw ServiceError(
          .unavailable, code: "no_exchange_rate",
          message: "no exchange rate from \(inventory.rateCurrency): prices are only in \(inventory.rateCurrency)")
      }
    memberPercent = OfferPricing.Percent(inventory.memberDiscountPercent)
    airportFeePercent = OfferPricing.Percent(inventory.airportConcessionFeePercent)
    memberLineName = "Member discount (\(inventory.memberDiscountPercent)% off the rental)"
    airportFeeLineName = "Airport concession fee (\(inventory.airportConcessionFeePercent)%)"
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
    inventory.desks(airportCodes: match.airportCodes, cityCentreAirportCodes: match.cityCentreAirportCodes)
  }

  // MARK: CarRentalService

  public func companies(at place: String) throws -> [CompanyAtPlace] {
    let desks = desks(for: try resolvePlace(place))
    let pricing = try? OfferPricing(currency: currency(), from: inventory.rateCurrency, rates: rates)
    return inventory.companies.compactMap { company in
      let own = desks.filter { $0.company.id == company.id }
      guard !own.isEmpty else { return nil }
      return CompanyAtPlace(
        company: pricing.map { travellersCurrency(company, in: $0) } ?? company,
        desks: own.map { CompanyAtPlace.Desk(location: $0.location, hours: $0.hours, fleet: $0.fleet) })
    }
  }

  public func promoCodes() throws -> [PromoCode] {
    promotions.codes.values.sorted { $0.code < $1.code }
  }

  /// `company` with its one-way fee in `pricing`'s currency, converted as an offer's fee line is
  /// (the fee a traveller sees before searching is the one charged).
  func travellersCurrency(_ company: RentalCompany, in pricing: OfferPricing) -> RentalCompany {
    guard let fee = try? minorUnits(of: company.oneWay.fee, in: pricing) else { return company }
    var converted = company
    converted.oneWay.fee = pricing.money(minorUnits: fee)
    return converted
  }

  public func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion] {
    let key = Self.fold(prefix.trimmingCharacters(in: .whitespaces))
    guard !key.isEmpty else { return [] }
    var suggestions: [CarPlaceSuggestion] = []
    var seenCities = Set<String>()
    let keys = suggestionKeys.withLock { keys in
      if let keys { return keys }
      let made = inventory.locations.map { (Self.fold($0.iata), Self.fold($0.name), Self.fold($0.city)) }
      keys = made
      return made
    }
    for (location, folded) in zip(inventory.locations, keys) where suggestions.count < limit {
      if location.kind == .airport, folded.code.hasPrefix(key) || folded.name.hasPrefix(key) {
        suggestions.append(
          CarPlaceSuggestion(code: location.iata, label: "\(location.iata) — \(location.name), \(location.city)"))
      }
      if folded.city.hasPrefix(key), seenCities.insert(location.city).inserted, suggestions.count < limit {
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
    // Every car is priced (integers) and sorted; only the offers returned are built (ids, lines).
    var quotes: [CarQuote] = []
    if !candidates.isEmpty {
      let terms = try pricingTerms(currency: currency, promo: promo, member: member, days: days)
      var taxPercents: [String: OfferPricing.Percent] = [:]
      for candidate in candidates {
        let country = candidate.desk.location.countryCode
        let tax =
          taxPercents[country]
          ?? {
            let percent = OfferPricing.Percent(inventory.taxPercent(countryCode: country))
            taxPercents[country] = percent
            return percent
          }()
        for (code, count) in candidate.desk.fleet.sorted(by: { $0.key < $1.key }) {
          if let pattern = query.classPattern, !pattern.matches(code) { continue }
          let taken =
            booked.isEmpty
            ? 0
            : booked[
              CarFleetKey(
                companyID: candidate.desk.company.id, locationID: candidate.desk.location.id, acriss: code.rawValue)]
              ?? 0
          let free = count - taken
          guard free > 0 else { continue }
          let quote = try self.quote(
            code, desk: candidate.desk, dropoff: candidate.dropoff, terms: terms, tax: tax, carsAvailable: free)
          if let note = quote.promoNote { promoReasons.insert(note) }
          quotes.append(quote)
        }
      }
      quotes.sort {
        ($0.total, $0.desk.company.id, $0.code) < ($1.total, $1.desk.company.id, $1.code)
      }
      // Each company's one-way fee in the traveller's currency, converted once per search.
      var companies: [String: RentalCompany] = [:]
      offers = try quotes.prefix(query.limit).map { quote in
        let id = quote.desk.company.id
        let company = companies[id] ?? travellersCurrency(quote.desk.company, in: terms.pricing)
        companies[id] = company
        return try offer(quote, terms: terms, pickup: query.pickup, dropoffTime: query.dropoff, company: company)
      }
    }
    notices += promoReasons.sorted()
    return CarSearchResult(offers: offers, notices: notices, currency: currency)
  }

  /// Books an offer: checks the id's signature and the driver's name, answers a retried request
  /// with its first reservation (``ReservationLedger/idempotent(key:fingerprint:token:_:)``),
  /// applies the same rules as search, re-prices the car for whoever is signed in now and refuses
  /// any other price than the quoted one (`price_changed`), then books in one ledger transaction
  /// (duplicate rule, the car, the charge, the reservation).
  public func book(_ request: CarBookingRequest) throws -> Reservation {
    let id = try CarOfferID(parsing: request.offerID)
    // The name rule of every booking kind (Common's PassengerName): letters, two words at least.
    let driver = try PassengerName(parsing: request.driverName, option: "driver", code: "invalid_driver").description
    guard let ledger else {
      throw ServiceError(.unavailable, code: "no_backend", message: "booking needs the reservations store")
    }
    // Signed out first (as hotels): the key of a data directory without one is made at sign-up.
    guard let token = token() else { throw ServiceError.notSignedIn }
    try signer.verify(id.signature, for: id.payload, id: request.offerID, search: "car-rental search")
    let fields = [
      "offerId": request.offerID, "driver": driver, "allowDuplicate": String(request.allowDuplicate),
    ]
    return try ledger.idempotent(
      key: request.idempotencyKey, fingerprint: BookingFingerprint(kind: .car, cardID: request.cardID, fields: fields),
      token: token
    ) {
      try book(id, request: request, driver: driver, fields: fields, ledger: ledger, token: token)
    }
  }

  private func book(
    _ id: CarOfferID, request: CarBookingRequest, driver: String, fields: [String: String], ledger: ReservationLedger,
    token: String
  ) throws -> Reservation {
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
    let promo = try id.promoCode.map { try promotions.validate($0, pickup: id.pickup) }
    let days = CarPricing.chargedDays(from: id.pickup, to: id.dropoff)
    let offer = try price(
      id.acriss, desk: desk, dropoff: dropoffDesk, pickup: id.pickup, dropoffTime: id.dropoff, days: days, promo: promo,
      member: isMember(), currency: currency(), carsAvailable: 0)
    // Any other price (a sign-in since the quote: member discount, the member's currency) is
    // shown to accept first: nobody is charged a price they did not see.
    if offer.total.currencyCode != id.currency || offer.total.minorUnits != id.quotedMinorUnits {
      let quoted = Money(minorUnitsOrZero: id.quotedMinorUnits, currency: id.currency)
      let direction =
        offer.total.currencyCode != id.currency
        ? "changed" : offer.total.minorUnits > id.quotedMinorUnits ? "rose" : "fell"
      throw ServiceError.refused(
        "price_changed",
        "the price of this car \(direction) from \(MoneyFormat.english.string(quoted)) to "
          + "\(MoneyFormat.english.string(offer.total)) since the search: nothing was booked; book the new offer "
          + "\(offer.id) to accept it",
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
      summary: summary, startsAt: from, endsAt: until, details: details, requestFields: fields)
    return try ledger.book(booking) { context in
      if !request.allowDuplicate {
        try Self.refuseDuplicate(driver: driver, from: from, until: until, context: context)
      }
      try SQLiteCarRentals.take(
        context.db, reservationID: context.reservationID, desk: desk, dropoffLocationID: dropoffDesk.location.id,
        acriss: id.acriss, from: from, until: until)
    }
  }

  /// The duplicate rule for cars (``DuplicateBookings``): refuses a rental when `driver` already
  /// holds a confirmed rental of this user, with any company, whose period overlaps
  /// `[from, until)` (one person drives one car at a time). Runs in the booking transaction.
  /// - Throws: `duplicate_booking` (`.refused`), naming the reservation; nothing is taken.
  static func refuseDuplicate(driver: String, from: Date, until: Date, context: BookingContext) throws {
    let person = DuplicateBookings.personKey(driver)
    for held in try DuplicateBookings.confirmed(.car, from: from, until: until, context: context) {
      guard let name = held.details["driver"]?.stringValue, DuplicateBookings.personKey(name) == person,
        let start = held.startsAt, let end = held.endsAt, start < until, from < end
      else { continue }
      let period = [held.details["pickup"], held.details["dropoff"]].compactMap {
        $0?.stringValue.map(DuplicateBookings.readableLocalTime)
      }
      throw DuplicateBookings.refusal(
        "\(name) already holds a rental for an overlapping period"
          + (period.count == 2 ? " (\(period[0]) → \(period[1]) local time)" : ""),
        existing: held)
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
    let calendar = calendars.withLock { cache in
      if let known = cache[location.timeZoneIdentifier] { return known }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = location.timeZone
      cache[location.timeZoneIdentifier] = calendar
      return calendar
    }
    return time.instant(using: calendar)
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

  /// What a search prices every car with: the currency conversion, the promo (and its fixed
  /// amount converted), the member flag and the charged days.
  struct PricingTerms {
    var pricing: OfferPricing
    var promo: PromoCode?
    /// A fixed promo's amount in minor units of the currency (nil for a percent promo or none).
    var promoFixedOff: Int64?
    var member: Bool
    var days: Int
  }

  /// One car priced in integer minor units of the search currency, before its offer is built.
  struct CarQuote {
    var code: ACRISSCode
    var desk: CarDesk
    var dropoff: CarDesk
    var carsAvailable: Int
    /// The daily and weekly rates converted and rounded, as shown in the rental line.
    var daily: Int64
    var weekly: Int64
    var restAtWeeklyRate: Bool
    var rental: Int64
    /// The promo's discount (positive; nil: no promo line).
    var promoOff: Int64?
    var promoNote: String?
    /// The member discount (positive; nil: not a member).
    var memberOff: Int64?
    var oneWayFee: Int64?
    var airportFee: Int64?
    var tax: Int64
    var taxPercent: OfferPricing.Percent
    /// The sum of the lines.
    var total: Int64
  }

  /// The terms of a search in `currency`.
  /// - Throws: ``ServiceError`` `unknown_currency`, `unsupported_currency` or `no_exchange_rate`.
  func pricingTerms(currency: String, promo: PromoCode?, member: Bool, days: Int) throws -> PricingTerms {
    let pricing = try OfferPricing(currency: currency, from: inventory.rateCurrency, rates: rates)
    var fixedOff: Int64?
    if let promo, case .fixed(let amount) = promo.discount { fixedOff = try minorUnits(of: amount, in: pricing) }
    return PricingTerms(pricing: pricing, promo: promo, promoFixedOff: fixedOff, member: member, days: days)
  }

  /// `money` (any currency with a rate) in minor units of `pricing`'s currency, rounded half away
  /// from zero.
  func minorUnits(of money: Money, in pricing: OfferPricing) throws -> Int64 {
    let conversion =
      money.currencyCode.uppercased() == pricing.source
      ? pricing : try OfferPricing(currency: pricing.currency, from: money.currencyCode, rates: rates)
    guard let minor = OfferPricing.exactMinorUnits(money.amount, digits: conversion.sourceDigits) else {
      throw ServiceError(
        .unavailable, code: "malformed_data",
        message: "\(money.amount) \(money.currencyCode) has more decimals than the currency's minor units")
    }
    return conversion.minorUnits(cents: minor)
  }

  /// Prices one car (see ``CarPricing`` for the rules) in integer minor units.
  func quote(
    _ code: ACRISSCode, desk: CarDesk, dropoff: CarDesk, terms: PricingTerms, tax: OfferPricing.Percent,
    carsAvailable: Int
  ) throws -> CarQuote {
    let pricing = terms.pricing
    guard let rates = inventory.rateMinorUnits(code, at: desk, digits: pricing.sourceDigits) else {
      throw ServiceError(
        .unavailable, code: "malformed_data", message: "the rates of \(code) at \(desk.location.id) are not in cents")
    }
    // The daily and weekly rates are converted and rounded first, as the rental line shows them,
    // and the rental is those shown rates times the days and weeks: "3 days at €23.75 a day" is
    // €71.25, never a separately converted €71.24. Each later line is rounded to minor units as it
    // is made and computed from the rounded ones: the lines a person reads add up to the total
    // charged, to the minor unit.
    let daily = pricing.minorUnits(cents: rates.daily)
    let weekly = pricing.minorUnits(cents: rates.weekly)
    let charge = CarPricing.rentalChargeMinorUnits(days: terms.days, daily: daily, weekly: weekly)
    let rental = charge.amount
    var quote = CarQuote(
      code: code, desk: desk, dropoff: dropoff, carsAvailable: carsAvailable, daily: daily, weekly: weekly,
      restAtWeeklyRate: terms.days % 7 >= 5 && weekly < Int64(terms.days % 7) * daily, rental: rental,
      tax: 0, taxPercent: tax, total: 0)
    var discounted = rental
    if let promo = terms.promo {
      if let reason = CarPromotions.reasonNotApplying(promo, company: desk.company, days: terms.days) {
        quote.promoNote = reason
      } else {
        var off: Int64
        switch promo.discount {
        case .percent(let percent): off = OfferPricing.Percent(percent).of(rental)
        case .fixed: off = terms.promoFixedOff ?? 0
        }
        if off > rental { off = rental }
        quote.promoOff = off
        discounted -= off
      }
    }
    if terms.member {
      let off = memberPercent.of(rental)
      quote.memberOff = off
      discounted -= off
    }
    var taxable = discounted
    if dropoff.location.id != desk.location.id {
      let fee = try minorUnits(of: desk.company.oneWay.fee, in: pricing)
      quote.oneWayFee = fee
      taxable += fee
    }
    if desk.location.kind == .airport {
      let fee = airportFeePercent.of(discounted)
      quote.airportFee = fee
      taxable += fee
    }
    quote.tax = tax.of(taxable)
    quote.total = taxable + quote.tax
    return quote
  }

  /// The offer of a priced car: its lines (named as on an invoice) and its signed id. `company` is
  /// the desk's company with its fee in the traveller's currency (``travellersCurrency(_:in:)``),
  /// when the caller has it already.
  func offer(
    _ quote: CarQuote, terms: PricingTerms, pickup: LocalDateTime, dropoffTime: LocalDateTime,
    company: RentalCompany? = nil
  ) throws -> CarOffer {
    let pricing = terms.pricing
    let currency = pricing.currency
    let desk = quote.desk
    let dropoff = quote.dropoff
    var lines = [
      PriceLine(
        kind: .rental,
        name: CarPricing.rentalDescription(
          days: terms.days, daily: MoneyFormat.english.string(pricing.money(minorUnits: quote.daily)),
          weekly: MoneyFormat.english.string(pricing.money(minorUnits: quote.weekly)),
          restAtWeeklyRate: quote.restAtWeeklyRate),
        amount: pricing.money(minorUnits: quote.rental))
    ]
    if let promo = terms.promo, let off = quote.promoOff {
      lines.append(
        PriceLine(
          kind: .promo, name: "Promo \(promo.code) (\(promo.summary))", amount: pricing.money(minorUnits: -off)))
    }
    if let off = quote.memberOff {
      lines.append(
        PriceLine(
          kind: .member, name: memberLineName, amount: pricing.money(minorUnits: -off)))
    }
    if let fee = quote.oneWayFee {
      lines.append(
        PriceLine(
          kind: .oneWayFee, name: "One-way fee (drop-off at \(dropoff.location.id))",
          amount: pricing.money(minorUnits: fee)))
    }
    if let fee = quote.airportFee {
      lines.append(
        PriceLine(
          kind: .fee, name: airportFeeLineName, amount: pricing.money(minorUnits: fee)))
    }
    let taxPercent = inventory.taxPercent(countryCode: desk.location.countryCode)
    lines.append(
      PriceLine(
        kind: .tax, name: "Tax (\(taxPercent)%, \(desk.location.countryCode))",
        amount: pricing.money(minorUnits: quote.tax)))
    let id = CarOfferID(
      companyID: desk.company.id, pickupLocationID: desk.location.id, dropoffLocationID: dropoff.location.id,
      acriss: quote.code, pickup: pickup, dropoff: dropoffTime, promoCode: terms.promo?.code,
      quotedMinorUnits: quote.total, currency: currency)
    // The payload once: the signature covers it and the text form is it, `_` and the signature.
    let payload = id.payload
    let signature = try signer.signature(of: payload)
    return CarOffer(
      id: payload + "_" + signature, company: company ?? travellersCurrency(desk.company, in: pricing),
      pickupLocation: desk.location,
      dropoffLocation: dropoff.location,
      pickup: pickup, dropoff: dropoffTime, acriss: quote.code, days: terms.days, carsAvailable: quote.carsAvailable,
      lines: lines, total: pricing.money(minorUnits: quote.total), promoNote: quote.promoNote)
  }

  /// Prices one car (see ``CarPricing`` for the rules) and builds its offer.
  func price(
    _ code: ACRISSCode, desk: CarDesk, dropoff: CarDesk, pickup: LocalDateTime, dropoffTime: LocalDateTime, days: Int,
    promo: PromoCode?, member: Bool, currency: String, carsAvailable: Int
  ) throws -> CarOffer {
    let terms = try pricingTerms(currency: currency, promo: promo, member: member, days: days)
    let tax = OfferPricing.Percent(inventory.taxPercent(countryCode: desk.location.countryCode))
    let quote = try quote(code, desk: desk, dropoff: dropoff, terms: terms, tax: tax, carsAvailable: carsAvailable)
    return try offer(quote, terms: terms, pickup: pickup, dropoffTime: dropoffTime)
  }
}
