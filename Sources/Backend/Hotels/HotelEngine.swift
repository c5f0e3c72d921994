import Common
import Foundation

/// The embedded hotel system: the generated ``HotelWorld``, its prices (``HotelPricing``),
/// availability from a ``HotelInventory``, and place resolution from the reference data.
///
/// Search cost: the index visits the few grid cells around the centre, then each hotel's room
/// types are priced in integer minor units; `Money` is built only for the offers returned.
public final class HotelEngine: HotelService, Sendable {
  /// Resolves a place text (city, IATA code, `lat,lon`) to a centre, or throws `.invalidInput`.
  public typealias PlaceResolver = @Sendable (String) throws -> HotelSearchCenter
  /// Books an offer re-priced at exactly its quote (the reservations ledger; see `HotelBookings`);
  /// the request's guest name is already normalised (``PassengerName``).
  public typealias Booker =
    @Sendable (_ offer: HotelOffer, _ hotel: Hotel, _ request: HotelBookingRequest, _ token: String) throws
    -> Reservation

  public let world: HotelWorld
  let words: HotelWords
  let inventory: any HotelInventory
  let resolvePlace: PlaceResolver
  /// Units of each currency per euro (ECB reference rates and fixed pegs, ``ExchangeRates``; `EUR` is 1).
  let eurRates: [String: Decimal]
  private let eurRatesDouble: [String: Double]
  /// Per city (index of ``HotelWorld/cities``): the quote currency, its minor digits, its rate per
  /// euro and the tax rate in basis points.
  let cityQuotes: [Quote]

  struct Quote {
    var currency: String
    var digits: Int
    var perEUR: Double
    var basisPoints: Int64
    /// ``HotelPricing/cityLevelEUR(_:)``.
    var cityLevelEUR: Double
  }
  let now: @Sendable () -> Date
  let booker: Booker?
  /// Answers a retried booking with its first reservation (idempotency keys); nil: no replay
  /// before re-pricing (the booker's ledger still checks keys in its transaction).
  let ledger: ReservationLedger?
  /// Signs offer ids and checks those given back (``OfferSigner``).
  let signer: OfferSigner
  /// The currency of `--max-price` when a request names none: the signed-in user's preferred
  /// currency (set by ``HotelBackend/service(dataDirectory:)``), else each hotel's own currency.
  public let defaultCurrency: String?

  /// - Parameters:
  ///   - booker: books a re-priced offer (nil: `book` fails with `booking_unavailable`).
  ///   - ledger: the reservations ledger the booker books through, for idempotent retries.
  ///   - signer: signs and checks offer ids (the data directory's in the apps; by default a key of
  ///     this process alone, ``OfferSigner/processLocal``).
  public init(
    world: HotelWorld, inventory: any HotelInventory, eurRates: [String: Decimal],
    resolvePlace: @escaping PlaceResolver,
    booker: Booker? = nil, now: @escaping @Sendable () -> Date = { Date() }, defaultCurrency: String? = nil,
    ledger: ReservationLedger? = nil, signer: OfferSigner = .processLocal
  ) throws {
    self.ledger = ledger
    self.signer = signer
    self.defaultCurrency = defaultCurrency
    self.world = world
    self.words = try HotelWords.load()
    self.inventory = inventory
    var rates = eurRates
    rates["EUR"] = 1
    self.eurRates = rates
    let doubles = rates.mapValues { NSDecimalNumber(decimal: $0).doubleValue }
    self.eurRatesDouble = doubles
    var digits: [String: Int] = [:]
    self.cityQuotes = world.cities.map { city in
      let currency = rates[city.currencyCode] != nil ? city.currencyCode : "USD"
      if digits[currency] == nil { digits[currency] = Self.minorDigits(currency) }
      return Quote(
        currency: currency, digits: digits[currency] ?? 2, perEUR: doubles[currency] ?? 1,
        basisPoints: HotelPricing.taxBasisPoints(continent: city.continent),
        cityLevelEUR: HotelPricing.cityLevelEUR(city))
    }
    self.resolvePlace = resolvePlace
    self.booker = booker
    self.now = now
  }

  // MARK: Hotels

  /// The currency hotel `i` quotes in: its country's when ``ExchangeRates`` has a rate for it (ECB
  /// reference rate or fixed peg), else USD.
  func quoteCurrency(at i: Int) -> String { cityQuotes[Int(world.cityIndexes[i])].currency }

  func hotel(at i: Int) -> Hotel {
    let city = world.city(at: i)
    return Hotel(
      id: world.hotelId(at: i), name: words.name(world: world, at: i), stars: Int(world.stars[i]),
      guestRating: Double(world.ratings[i]) / 10, latitude: world.latitudes[i], longitude: world.longitudes[i],
      city: city.name, countryCode: city.countryCode, timeZone: city.timeZone, currency: quoteCurrency(at: i),
      amenities: Amenity.members(of: world.amenityMasks[i]), rooms: HotelPricing.rooms(world: world, at: i),
      address: words.address(world: world, at: i))
  }

  /// The Morton position of hotel `hotelId`.
  /// - Throws: `invalid_hotel_id` (`.invalidInput`) when the id is not shaped `h<digits>-<digits>`;
  ///   `hotel_not_found` (`.notFound`) when it is well-formed but names no hotel.
  func position(of hotelId: String) throws -> Int {
    guard Self.isWellFormedHotelId(hotelId) else {
      throw ServiceError.invalid(
        "invalid_hotel_id",
        "invalid hotel id \"\(hotelId)\": expected h<geonames id>-<number>, like h2988507-17 (see the ids of a search)")
    }
    guard let i = world.position(of: hotelId) else {
      throw ServiceError(
        .notFound, code: "hotel_not_found",
        message: "no hotel \"\(hotelId)\": hotel ids look like h2988507-17 (see the ids of a search)")
    }
    return i
  }

  /// Whether `id` has the shape of a hotel id: `h`, digits, `-`, digits (ASCII).
  static func isWellFormedHotelId(_ id: String) -> Bool {
    let parts = id.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].first == UInt8(ascii: "h") else { return false }
    let digits = [parts[0].dropFirst(), parts[1]]
    return digits.allSatisfy { !$0.isEmpty && $0.count <= 12 && $0.allSatisfy { (48...57).contains($0) } }
  }

  public func hotel(id: String) throws -> Hotel { hotel(at: try position(of: id)) }

  public func details(hotelId: String) throws -> HotelDetails {
    let i = try position(of: hotelId)
    return words.details(world: world, at: i, hotelId: hotelId)
  }

  // MARK: Prices

  /// The night multipliers (weekday × season) of a stay for the three climate bands.
  struct NightFactors {
    var tropics: [Double]
    var north: [Double]
    var south: [Double]

    init(_ stay: DateRange) {
      let dates = stay.dates
      tropics = dates.map { HotelPricing.nightFactor($0, latitude: 0) }
      north = dates.map { HotelPricing.nightFactor($0, latitude: 45) }
      south = dates.map { HotelPricing.nightFactor($0, latitude: -45) }
    }

    func band(_ latitude: Double) -> [Double] { abs(latitude) < 15 ? tropics : latitude >= 0 ? north : south }
  }

  /// Nightly rates of one room of `type` at hotel `i`, in minor units of its quote currency.
  func nightlyMinorUnits(at i: Int, type: RoomType, factors: NightFactors, base: Double? = nil) -> [Int64] {
    let quote = cityQuotes[Int(world.cityIndexes[i])]
    let hotelBase = base ?? HotelPricing.baseEUR(world: world, at: i, cityLevel: quote.cityLevelEUR)
    let roomBase = hotelBase * HotelPricing.roomFactor(type) * quote.perEUR
    let scale = Self.powerOfTen(quote.digits)
    return factors.band(world.latitudes[i]).map { Int64(max(1, (roomBase * $0).rounded())) * scale }
  }

  static func powerOfTen(_ digits: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<max(0, digits) { result *= 10 }
    return result
  }

  static func minorDigits(_ currency: String) -> Int { (try? Currency.named(currency).minorUnits) ?? 2 }

  /// Total with taxes, rounded half up to a minor unit: `round(sum × rooms × (1 + bp/10,000))`.
  static func total(subtotal: Int64, basisPoints: Int64) -> Int64 {
    (subtotal * (10_000 + basisPoints) + 5_000) / 10_000
  }

  /// `minor` minor units as Money (built from the decimal exponent: no division).
  private func money(_ minor: Int64, _ currency: String, digits: Int) -> Money {
    Money(minorUnitsOrZero: minor, currency: currency, digits: digits)
  }

  /// A candidate offer before it is turned into a value (integer amounts).
  struct Candidate {
    var index: Int
    var km: Double
    var type: RoomType
    var free: Int
    var subtotal: Int64
    var total: Int64
    /// The total in euros, for sorting offers of several currencies.
    var totalEUR: Double
  }

  /// The offer of a candidate, its id signed.
  func makeOffer(_ c: Candidate, stay: DateRange, guests: Int, rooms: Int) throws -> HotelOffer {
    let quote = cityQuotes[Int(world.cityIndexes[c.index])]
    let currency = quote.currency
    let hotelId = world.hotelId(at: c.index)
    var id = HotelOfferID(
      hotelId: hotelId, roomType: c.type, stay: stay, guests: guests, rooms: rooms, quotedMinorUnits: c.total,
      currency: currency)
    id.signature = try signer.signature(of: id.payload)
    let nightly = nightlyMinorUnits(at: c.index, type: c.type, factors: NightFactors(stay))
    let nights = stay.count
    // The average nightly rate, rounded half up to a minor unit.
    let sum = nightly.reduce(0, +)
    let average = (2 * sum + Int64(nights)) / (2 * Int64(nights))
    let city = world.city(at: c.index)
    return HotelOffer(
      id: id.description, hotelId: hotelId, name: words.name(world: world, at: c.index),
      stars: Int(world.stars[c.index]), guestRating: Double(world.ratings[c.index]) / 10,
      latitude: world.latitudes[c.index], longitude: world.longitudes[c.index],
      distanceKm: (c.km * 100).rounded() / 100,
      roomType: c.type, checkIn: stay.start, checkOut: stay.end, nights: nights, guests: guests, rooms: rooms,
      roomsAvailable: c.free, nightlyRate: money(average, currency, digits: quote.digits),
      nightlyRates: zip(stay.dates, nightly).map {
        NightlyRate(date: $0, rate: money($1, currency, digits: quote.digits))
      },
      taxes: money(c.total - c.subtotal, currency, digits: quote.digits),
      taxRate: Decimal(sign: .plus, exponent: -4, significand: Decimal(quote.basisPoints)),
      total: money(c.total, currency, digits: quote.digits),
      amenities: Amenity.members(of: world.amenityMasks[c.index]), timeZone: city.timeZone)
  }

  /// The offers of hotel `i` for the stay (room types with enough free rooms for `rooms` rooms and
  /// `guests` guests), given the booked counts, appended to `result`.
  func candidates(
    at i: Int, km: Double, factors: NightFactors, guests: Int, rooms: Int, booked: [HotelRoomKey: Int],
    into result: inout [Candidate]
  ) {
    let perRoom = (guests + rooms - 1) / rooms
    let quote = cityQuotes[Int(world.cityIndexes[i])]
    let id = booked.isEmpty ? "" : world.hotelId(at: i)
    let scale = Double(Self.powerOfTen(quote.digits)) * quote.perEUR
    let base = HotelPricing.baseEUR(world: world, at: i, cityLevel: quote.cityLevelEUR)
    for inventory in HotelPricing.rooms(world: world, at: i) where inventory.roomType.capacity >= perRoom {
      let taken = booked.isEmpty ? 0 : booked[HotelRoomKey(hotelId: id, roomType: inventory.roomType)] ?? 0
      let free = inventory.count - taken
      guard free >= rooms else { continue }
      let nightly = nightlyMinorUnits(at: i, type: inventory.roomType, factors: factors, base: base)
      let subtotal = nightly.reduce(0, +) * Int64(rooms)
      let total = Self.total(subtotal: subtotal, basisPoints: quote.basisPoints)
      result.append(
        Candidate(
          index: i, km: km, type: inventory.roomType, free: free, subtotal: subtotal, total: total,
          totalEUR: Double(total) / scale))
    }
  }

  func candidates(at i: Int, stay: DateRange, guests: Int, rooms: Int, booked: [HotelRoomKey: Int]) -> [Candidate] {
    var result: [Candidate] = []
    candidates(at: i, km: 0, factors: NightFactors(stay), guests: guests, rooms: rooms, booked: booked, into: &result)
    return result
  }

  // MARK: Validation

  /// The earliest time zone on Earth (UTC−12): a date before today there is past everywhere.
  static let earliestZone = TimeZone(secondsFromGMT: -12 * 3600) ?? .gmt

  /// The time zone of hotel `i` (its city's IANA zone; UTC−12, the most lenient, if unknown).
  func timeZone(at i: Int) -> TimeZone {
    TimeZone(identifier: world.city(at: i).timeZone) ?? Self.earliestZone
  }

  /// The `date_in_past` error: check-in `checkIn` is before `today` in `zone`.
  func pastError(_ checkIn: LocalDate, today: LocalDate, zone: TimeZone, place: String) -> ServiceError {
    ServiceError.invalid(
      "date_in_past",
      "check-in \(checkIn) is in the past \(place): today there (\(zone.identifier)) is \(today); "
        + "expected \(today) or a later date")
  }

  /// Checks a stay and occupancy (the rules of ``HotelSearchRequest``).
  ///
  /// The check-in must not be before today in `timeZone` (the hotel's own zone; a search passes
  /// nil to pre-check against UTC−12 and then drops the hotels where the date is past locally).
  /// - Throws: `invalid_dates`, `date_in_past`, `date_too_far`, `too_many_nights`,
  ///   `invalid_guests`, `invalid_rooms` (all `.invalidInput`).
  func validate(
    checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int, timeZone: TimeZone? = nil
  ) throws -> DateRange {
    guard let stay = DateRange(start: checkIn, end: checkOut) else {
      throw ServiceError.invalid(
        "invalid_dates", "check-out \(checkOut) is not after check-in \(checkIn): a stay has at least one night")
    }
    let earliestToday = LocalDate(now(), in: Self.earliestZone)
    let zone = timeZone ?? Self.earliestZone
    let today = timeZone.map { LocalDate(now(), in: $0) } ?? earliestToday
    guard checkIn >= today else {
      throw pastError(checkIn, today: today, zone: zone, place: timeZone == nil ? "everywhere" : "at the hotel")
    }
    let latest = earliestToday.adding(days: HotelSearchRequest.maxDaysAhead + 1)
    guard checkIn <= latest else {
      throw ServiceError.invalid(
        "date_too_far",
        "check-in \(checkIn) is too far ahead: expected a date at most \(HotelSearchRequest.maxDaysAhead) days from today"
      )
    }
    guard stay.count <= HotelSearchRequest.maxNights else {
      throw ServiceError.invalid(
        "too_many_nights",
        "a stay of \(stay.count) nights is too long: at most \(HotelSearchRequest.maxNights) nights (check-out − check-in)"
      )
    }
    guard (1...HotelSearchRequest.maxGuests).contains(guests) else {
      throw ServiceError.invalid(
        "invalid_guests", "invalid number of guests \(guests): expected 1 to \(HotelSearchRequest.maxGuests)")
    }
    guard (1...HotelSearchRequest.maxRooms).contains(rooms) else {
      throw ServiceError.invalid(
        "invalid_rooms", "invalid number of rooms \(rooms): expected 1 to \(HotelSearchRequest.maxRooms)")
    }
    guard rooms <= guests else {
      throw ServiceError.invalid(
        "invalid_rooms", "\(rooms) rooms for \(guests) guests: every room needs at least one guest")
    }
    let largest = RoomType.allCases.map(\.capacity).max() ?? 4
    guard guests <= rooms * largest else {
      throw ServiceError.invalid(
        "invalid_guests",
        "\(guests) guests do not fit in \(rooms) room(s): a room sleeps at most \(largest); ask for more rooms")
    }
    return stay
  }

  // MARK: HotelService

  public func search(_ request: HotelSearchRequest) throws -> HotelSearchResult {
    guard request.radiusKm.isFinite, request.radiusKm > 0, request.radiusKm <= HotelSearchRequest.maxRadiusKm else {
      throw ServiceError.invalid(
        "invalid_radius",
        "invalid radius \(request.radiusKm) km: expected more than 0 and at most \(Int(HotelSearchRequest.maxRadiusKm)) km"
      )
    }
    if let maxPrice = request.maxPrice, maxPrice < 0 {
      throw ServiceError.invalid("invalid_price", "invalid maximum price \(maxPrice): expected 0 or more")
    }
    if let minStars = request.minStars, !(1...5).contains(minStars) {
      throw ServiceError.invalid("invalid_stars", "invalid minimum stars \(minStars): expected 1 to 5")
    }
    guard (1...1000).contains(request.limit) else {
      throw ServiceError.invalid("invalid_limit", "invalid limit \(request.limit): expected 1 to 1000")
    }
    var userRate: Double?
    if let code = request.currency ?? (request.maxPrice == nil ? nil : defaultCurrency) {
      guard let rate = eurRatesDouble[code.uppercased()] else {
        throw ServiceError.invalid(
          "unknown_currency",
          "no exchange rate for currency \"\(code)\": expected one of \(eurRates.keys.sorted().joined(separator: ", "))"
        )
      }
      userRate = rate
    }
    let stay = try validate(
      checkIn: request.checkIn, checkOut: request.checkOut, guests: request.guests, rooms: request.rooms)
    let center = try resolvePlace(request.place)

    let near = world.hotels(nearLatitude: center.latitude, longitude: center.longitude, radiusKm: request.radiusKm)
    let mask = Amenity.mask(of: request.amenities)
    let minStars = UInt8(request.minStars ?? 1)
    let booked = try inventory.maxBooked(during: stay)
    // Today at each city of the area (hotels where the check-in is already past are dropped).
    var todayByCity: [Int: (today: LocalDate, zone: TimeZone)] = [:]
    var earliestPast: (today: LocalDate, zone: TimeZone)?
    func isPast(_ i: Int) -> Bool {
      let city = Int(world.cityIndexes[i])
      let local: (today: LocalDate, zone: TimeZone)
      if let known = todayByCity[city] {
        local = known
      } else {
        let zone = timeZone(at: i)
        local = (LocalDate(now(), in: zone), zone)
        todayByCity[city] = local
      }
      guard local.today > request.checkIn else { return false }
      if earliestPast.map({ local.today < $0.today }) ?? true { earliestPast = local }
      return true
    }
    var eligible = 0
    var found: [Candidate] = []
    found.reserveCapacity(near.count * 3)
    let factors = NightFactors(stay)
    let perNight = Double(request.rooms * stay.count)
    let limit = request.maxPrice.map { NSDecimalNumber(decimal: $0).doubleValue + 1e-9 }
    for (i, km) in near where world.stars[i] >= minStars && world.amenityMasks[i] & mask == mask {
      if isPast(i) { continue }
      eligible += 1
      let start = found.count
      candidates(
        at: i, km: km, factors: factors, guests: request.guests, rooms: request.rooms, booked: booked, into: &found)
      guard let limit else { continue }
      let quote = cityQuotes[Int(world.cityIndexes[i])]
      // Average nightly rate of one room, in the user's currency (or the hotel's).
      let kept = found[start...].filter {
        let average = Double($0.subtotal) / perNight / Double(Self.powerOfTen(quote.digits))
        return (userRate.map { average / quote.perEUR * $0 } ?? average) <= limit
      }
      found.replaceSubrange(start..., with: kept)
    }
    // Every hotel of the area is past the check-in date locally: refuse, naming the
    // earliest of the local todays (the date that would be accepted there first).
    if eligible == 0, let past = earliestPast {
      throw pastError(request.checkIn, today: past.today, zone: past.zone, place: "near \(center.name)")
    }
    let order: (Candidate, Candidate) -> Bool
    func tie(_ a: Candidate, _ b: Candidate) -> Bool {
      a.index != b.index ? a.index < b.index : a.type < b.type
    }
    // Prices compare in euros so that mixed currencies near a border sort sensibly.
    func cheaper(_ a: Candidate, _ b: Candidate) -> Bool {
      a.totalEUR != b.totalEUR ? a.totalEUR < b.totalEUR : tie(a, b)
    }
    switch request.sort {
    case .price: order = cheaper
    case .distance: order = { $0.km != $1.km ? $0.km < $1.km : cheaper($0, $1) }
    case .stars:
      order = {
        let (a, b) = (self.world.stars[$0.index], self.world.stars[$1.index])
        return a != b ? a > b : cheaper($0, $1)
      }
    case .rating:
      order = {
        let (a, b) = (self.world.ratings[$0.index], self.world.ratings[$1.index])
        return a != b ? a > b : cheaper($0, $1)
      }
    }
    let top = Self.smallest(request.limit, of: found, by: order)
    return HotelSearchResult(
      center: center, radiusKm: request.radiusKm,
      offers: try top.map { try makeOffer($0, stay: stay, guests: request.guests, rooms: request.rooms) },
      matched: found.count)
  }

  /// The `k` first elements of `items` in `order`, sorted (a full sort when `k` is large).
  static func smallest<T>(_ k: Int, of items: [T], by order: (T, T) -> Bool) -> [T] {
    if items.count <= k * 4 { return Array(items.sorted(by: order).prefix(k)) }
    var best: [T] = []
    best.reserveCapacity(k + 1)
    for item in items {
      if best.count == k, let last = best.last, !order(item, last) { continue }
      var low = 0
      var high = best.count
      while low < high {
        let mid = (low + high) / 2
        if order(best[mid], item) || !order(item, best[mid]) { low = mid + 1 } else { high = mid }
      }
      best.insert(item, at: low)
      if best.count > k { best.removeLast() }
    }
    return best
  }

  public func rooms(hotelId: String, checkIn: LocalDate, checkOut: LocalDate, guests: Int, rooms: Int) throws
    -> [HotelOffer]
  {
    let i = try position(of: hotelId)
    let stay = try validate(
      checkIn: checkIn, checkOut: checkOut, guests: guests, rooms: rooms, timeZone: timeZone(at: i))
    let booked = try inventory.maxBooked(during: stay)
    return try candidates(at: i, stay: stay, guests: guests, rooms: rooms, booked: booked)
      .sorted { $0.total != $1.total ? $0.total < $1.total : $0.type < $1.type }
      .map { try makeOffer($0, stay: stay, guests: guests, rooms: rooms) }
  }

  /// Parses an offer id and checks its signature.
  /// - Throws: `invalid_offer_id` (`.invalidInput`): malformed, unsigned, or a signature that does
  ///   not match (an id edited by hand, or made by another data directory).
  func parseOffer(_ offerId: String) throws -> HotelOfferID {
    guard let id = HotelOfferID(offerId) else {
      let parts = offerId.split(separator: "_", omittingEmptySubsequences: false)
      if parts.count == 7, parts[0] == "hof" { throw OfferSignature.missing(offerId, search: "hotel search") }
      throw ServiceError.invalid(
        "invalid_offer_id",
        "invalid offer id \(EchoedInput.quoted(offerId)): expected an id from 'hotel search', like "
          + "hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR_\(OfferSignature.example)")
    }
    try signer.verify(id.signature, for: id.payload, id: offerId, search: "hotel search")
    return id
  }

  public func quote(offerId: String) throws -> HotelOffer {
    try quote(try parseOffer(offerId))
  }

  /// The offer of a checked id re-priced now.
  func quote(_ id: HotelOfferID) throws -> HotelOffer {
    let i = try position(of: id.hotelId)
    // Re-checked against today at the hotel (a booking goes through here before any charge).
    let stay = try validate(
      checkIn: id.stay.start, checkOut: id.stay.end, guests: id.guests, rooms: id.rooms, timeZone: timeZone(at: i))
    let booked = try inventory.maxBooked(during: stay)
    let all = candidates(at: i, stay: stay, guests: id.guests, rooms: id.rooms, booked: booked)
    guard let candidate = all.first(where: { $0.type == id.roomType }) else {
      throw ServiceError.refused(
        "sold_out", "no \(id.roomType.rawValue) room is free on every night from \(stay.start) to \(stay.end) any more")
    }
    return try makeOffer(candidate, stay: stay, guests: id.guests, rooms: id.rooms)
  }

  /// Books an offer: checks the id's signature and the guest's name, answers a retried request
  /// with its first reservation (``ReservationLedger/idempotent(key:fingerprint:token:_:)``),
  /// re-prices the offer, refuses any price other than the quoted one (`price_changed`, up or
  /// down), then hands it to the booker (one ledger transaction: duplicate rule, rooms, charge,
  /// reservation).
  public func book(_ request: HotelBookingRequest, token: String) throws -> Reservation {
    guard let booker else {
      throw ServiceError(.unavailable, code: "booking_unavailable", message: "booking is not available in this build")
    }
    let id = try parseOffer(request.offerId)
    var request = request
    request.guestName = try PassengerName(parsing: request.guestName, option: "guest", code: "invalid_guest")
      .description
    let attempt = { [request] () throws -> Reservation in
      let offer = try self.quote(id)
      guard offer.total.currencyCode == id.currency, offer.total.minorUnits == id.quotedMinorUnits else {
        let quoted = Money(minorUnitsOrZero: id.quotedMinorUnits, currency: id.currency)
        let direction =
          offer.total.currencyCode != id.currency
          ? "changed" : offer.total.minorUnits > id.quotedMinorUnits ? "rose" : "fell"
        throw ServiceError.refused(
          "price_changed",
          "the price of this offer \(direction) from \(MoneyFormat.english.string(quoted)) to "
            + "\(MoneyFormat.english.string(offer.total)) since the search: nothing was booked; book the new offer "
            + "\(offer.id) to accept it",
          details: ["offerId": offer.id, "price": offer.total.amountString, "currency": offer.total.currencyCode])
      }
      return try booker(offer, try self.hotel(id: id.hotelId), request, token)
    }
    guard let ledger else { return try attempt() }
    return try ledger.idempotent(
      key: request.idempotencyKey,
      fingerprint: BookingFingerprint(
        kind: .hotel, cardID: request.cardId, fields: HotelBookings.requestFields(request)),
      token: token, attempt)
  }

  /// Markers of `viewport`. A viewport past the world's edges is normalised
  /// (``normalized(_:)``): latitudes clamp to ±85°, longitudes wrap around the antimeridian, and
  /// one 360° or wider shows the whole world.
  /// - Throws: `invalid_coordinate` (`.invalidInput`) for a coordinate that is not a finite number.
  public func mapMarkers(in viewport: GeoRect, maxMarkers: Int) throws -> [HotelMapMarker] {
    for (name, value) in [
      ("south", viewport.south), ("west", viewport.west), ("north", viewport.north), ("east", viewport.east),
    ] where !value.isFinite {
      throw ServiceError.invalid("invalid_coordinate", "\(name) edge \(value) is not a number: expected degrees")
    }
    return world.markers(in: Self.normalized(viewport), maxMarkers: max(1, min(maxMarkers, 10_000)))
  }

  /// The map's latitude limit in degrees (the map viewport's own clamp).
  static let mapLatitudeLimit = 85.0

  /// `viewport` within the world: south ≤ north clamped to ±85°; west and east wrapped into
  /// −180…180 (west > east then means the view crosses the antimeridian); a view 360° wide or
  /// more becomes −180…180.
  static func normalized(_ viewport: GeoRect) -> GeoRect {
    let limit = mapLatitudeLimit
    let south = min(limit, max(-limit, min(viewport.south, viewport.north)))
    let north = min(limit, max(-limit, max(viewport.south, viewport.north)))
    guard viewport.east - viewport.west < 360 else { return GeoRect(south: south, west: -180, north: north, east: 180) }
    func wrap(_ longitude: Double) -> Double {
      let shifted = (longitude + 180).truncatingRemainder(dividingBy: 360)
      return (shifted < 0 ? shifted + 360 : shifted) - 180
    }
    var west = wrap(viewport.west)
    var east = wrap(viewport.east)
    // An edge exactly on the antimeridian: keep 180 as an east edge.
    if east == -180, viewport.east > viewport.west { east = 180 }
    if west == 180 { west = -180 }
    return GeoRect(south: south, west: west, north: north, east: east)
  }

}

extension Money {
  /// `minor` minor units of `currency` with `digits` decimals (looked up when nil; 2 for an
  /// unknown currency).
  init(minorUnitsOrZero minor: Int64, currency: String, digits: Int? = nil) {
    let places = digits ?? HotelEngine.minorDigits(currency)
    let magnitude = Decimal(minor.magnitude)
    self.init(
      amount: Decimal(sign: minor < 0 ? .minus : .plus, exponent: -places, significand: magnitude), currency: currency)
  }
}
