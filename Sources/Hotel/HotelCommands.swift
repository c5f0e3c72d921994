import Common
import Foundation

/// What the hotel commands need from the app that mounts them (wired in `Apps/*/main.swift`).
public struct HotelEnvironment: Sendable {
  /// The hotel service for a command's context (its data directory). Called once per command.
  public var service: @Sendable (CLIContext) throws -> any HotelService
  /// The clock (default dates of `map`).
  public var now: @Sendable () -> Date

  public init(
    service: @escaping @Sendable (CLIContext) throws -> any HotelService,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.service = service
    self.now = now
  }

  /// No backend: every command that needs one fails with exit 1.
  public static let unavailable = HotelEnvironment(service: { _ in
    throw CLIError.refused(L("hotels are not available in this build (no backend wired)"), code: "unavailable")
  })
}

/// The command tree of the Hotel feature: the root of the standalone `hotel` executable, mounted
/// as `travel hotels` in the assembled app. Commands: `search`, `show`, `book`, `map`
/// (contract: the project's CLI.md, "Hotels").
public enum HotelCommands {
  public static func root(name: String = "hotel", environment: HotelEnvironment = .unavailable) -> Command {
    Command(
      name: name,
      summary: L("Hotels: search hotels around real cities and book rooms."),
      discussion: """
        Hotels are generated around every city of at least 100,000 people (city data: GeoNames, CC BY 4.0).
        Dates are local dates at the hotel; a stay is [check-in, check-out), 1 to 30 nights.
        \(HotelCancellation.rule)
        """,
      subcommands: [search(environment), show(environment), book(environment), map(environment)]
    )
  }

  // MARK: search

  static var stayOptions: [OptionSpec] {
    [
      .option("check-in", "DATE", help: L("First night, YYYY-MM-DD, local date at the hotel.")),
      .option("check-out", "DATE", help: L("Departure day, YYYY-MM-DD (after check-in, at most 30 nights).")),
      .option("guests", "N", help: L("Guests (1–20)."), default: "1"),
      .option("rooms", "N", help: L("Rooms of the same type (1–9, not more than guests)."), default: "1"),
    ]
  }

  static func search(_ environment: HotelEnvironment) -> Command {
    Command(
      name: "search",
      summary: L("Find hotel offers near a place for a stay."),
      discussion: """
        PLACE is a city name, an IATA airport or metro code, or lat,lon. Distances are great-circle kilometres.
        An offer is one room type of one hotel with enough rooms free on every night of the stay.
        nightlyRate: average nightly rate of one room before taxes; total: whole stay, all rooms, with taxes.
        """,
      options: [
        .option("near", "PLACE", help: L("City, IATA code or lat,lon."), required: true),
        .option("check-in", "DATE", help: L("First night, YYYY-MM-DD, local date at the hotel."), required: true),
        .option(
          "check-out", "DATE", help: L("Departure day, YYYY-MM-DD (after check-in, at most 30 nights)."), required: true
        ),
        stayOptions[2], stayOptions[3],
        .option("radius-km", "R", help: L("Search radius in km (over 0, at most 500)."), default: "10"),
        .option("min-stars", "N", help: L("Only hotels with at least N stars (1–5).")),
        .option(
          "max-price", "AMOUNT", help: L("Highest average nightly rate of one room (in --currency, else the hotel's).")),
        .option(
          "currency", "CODE",
          help: "ISO 4217 currency of --max-price (e.g. EUR, USD).",
          default: L("your preferred currency when signed in, else each hotel's own")),
        .option(
          "amenities", "LIST",
          help: L("Required amenities, comma-separated: \(Amenity.allCases.map(\.rawValue).joined(separator: ",")).")),
        .option("sort", "ORDER", help: L("price, distance, stars or rating."), default: "price"),
        .option("limit", "N", help: L("At most N offers (1–1000)."), default: "50"),
      ],
      examples: [
        "--near Paris --check-in 2026-12-20 --check-out 2026-12-23 --guests 2",
        "--near 48.8584,2.2945 --check-in 2026-12-20 --check-out 2026-12-21 --radius-km 2 --sort distance",
        "--near CDG --check-in 2026-12-20 --check-out 2026-12-22 --min-stars 4 --amenities wifi,spa --json",
      ],
      action: { invocation in
        let request = try searchRequest(invocation)
        let service = try environment.service(invocation.context)
        let result = try service.search(request)
        // An empty result says which condition emptied it (asked of the service, not guessed).
        let empty =
          result.offers.isEmpty && !invocation.context.json
          ? try EmptyHotelSearch(
            request: request, center: result.center, search: service.search, markers: service.mapMarkers) : nil
        try invocation.context.emit(json: SearchDocument(offers: result.offers.map(SearchOffer.init))) {
          HotelText.searchResult(result, request: request, money: invocation.context.money, empty: empty)
        }
      }
    )
  }

  static func searchRequest(_ invocation: Invocation) throws -> HotelSearchRequest {
    let checkIn = try date(invocation, "check-in", required: true)!
    let checkOut = try date(invocation, "check-out", required: true)!
    var request = HotelSearchRequest(
      place: try invocation.required("near"), checkIn: checkIn, checkOut: checkOut,
      guests: try whole(invocation, "guests") ?? 1, rooms: try whole(invocation, "rooms") ?? 1,
      radiusKm: try decimalNumber(invocation, "radius-km").map { NSDecimalNumber(decimal: $0).doubleValue } ?? 10,
      minStars: try whole(invocation, "min-stars"), maxPrice: try decimalNumber(invocation, "max-price"),
      currency: invocation.value("currency")?.uppercased(),
      amenities: try invocation.value("amenities").map(Amenity.parseList) ?? [],
      limit: try invocation.limit())
    if let sort = invocation.value("sort") {
      guard let order = HotelSortOrder(rawValue: sort.lowercased()) else {
        throw CLIError.usage(
          "invalid --sort \"\(sort)\": expected one of \(HotelSortOrder.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      request.sort = order
    }
    return request
  }

  // MARK: show

  static func show(_ environment: HotelEnvironment) -> Command {
    Command(
      name: "show",
      summary: L("Show a hotel: rooms, amenities, description, reviews; with dates, its offers."),
      discussion: HotelCancellation.rule,
      arguments: [ArgumentSpec("HOTEL_ID", help: L("A hotel id from a search (h2988507-17)."))],
      options: stayOptions,
      examples: ["h2988507-17", "h2988507-17 --check-in 2026-12-20 --check-out 2026-12-23 --guests 2"],
      action: { invocation in
        let service = try environment.service(invocation.context)
        let id = try invocation.argument(0, name: "HOTEL_ID")
        let hotel = try service.hotel(id: id)
        let details = try service.details(hotelId: id)
        let checkIn = try date(invocation, "check-in", required: false)
        let checkOut = try date(invocation, "check-out", required: false)
        var offers: [HotelOffer]?
        var policy = HotelCancellation.rule
        if checkIn != nil || checkOut != nil {
          guard let checkIn, let checkOut else {
            throw CLIError.usage(
              L("give both --check-in and --check-out (or neither) for '\(invocation.commandName)'"),
              code: "missing_option")
          }
          offers = try service.rooms(
            hotelId: id, checkIn: checkIn, checkOut: checkOut, guests: try whole(invocation, "guests") ?? 1,
            rooms: try whole(invocation, "rooms") ?? 1)
          policy = HotelCancellation.summary(
            checkIn: checkIn, timeZone: TimeZone(identifier: hotel.timeZone) ?? .gmt, at: environment.now(),
            firstNight: nil)
        }
        let document = ShowDocument(hotel: hotel, details: details, offers: offers, cancellationPolicy: policy)
        try invocation.context.emit(json: document) { HotelText.show(document, money: invocation.context.money) }
      }
    )
  }

  // MARK: book

  static func book(_ environment: HotelEnvironment) -> Command {
    Command(
      name: "book",
      summary: L("Book an offer for the signed-in user (one transaction: rooms, charge, reservation)."),
      discussion: """
        The offer id is signed by the search: an id edited by hand exits 2 with invalid_offer_id. The offer is
        re-checked: if its price moved (up or down) or it sold out since the search, exits 1 (price_changed with the
        new offer id, or sold_out) and takes nothing: a price is never charged unseen. The same guest holding the same
        room type at this hotel for overlapping nights is refused (duplicate_booking) unless --allow-duplicate.
        A retry with the same --idempotency-key and the same request returns the first reservation; the same key
        with another request exits 2 (idempotency_key_reused). Without --card the default card is charged.
        \(HotelCancellation.rule)
        """,
      arguments: [ArgumentSpec("OFFER_ID", help: L("An offer id from 'search' or 'show'."))],
      options: [
        .option("guest", "NAME", help: L("The guest's name, \"Given Family\"."), required: true),
        .option("card", "ID", help: L("The card to charge (default: your default card).")),
        .option("idempotency-key", "K", help: L("A retry with the same key returns the first reservation.")),
        .flag("allow-duplicate", help: L("Book even if the guest already holds this room type here for those nights.")),
      ],
      examples: [
        "hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR_\(OfferSignature.example) --guest \"Ada Lovelace\""
      ],
      action: { invocation in
        let offerId = try invocation.argument(0, name: "OFFER_ID")
        let guest = try guestName(try invocation.required("guest"))
        guard HotelOfferID(offerId) != nil else {
          let parts = offerId.split(separator: "_", omittingEmptySubsequences: false)
          if parts.count == 7, parts[0] == "hof" { throw OfferSignature.missing(offerId, search: "hotel search") }
          throw CLIError.usage(
            L("invalid offer id \(EchoedInput.quoted(offerId)): expected an id from 'hotel search', like ")
              + "hof_h2988507-17_double_20261220_20261223_2g1r_45678EUR_\(OfferSignature.example)",
            code: "invalid_offer_id")
        }
        guard let token = try SessionFile(dataDirectory: invocation.context.dataDirectory).read() else {
          throw ServiceError.notSignedIn
        }
        let service = try environment.service(invocation.context)
        let reservation = try service.book(
          HotelBookingRequest(
            offerId: offerId, guestName: guest, cardId: invocation.value("card"),
            idempotencyKey: invocation.value("idempotency-key"), allowDuplicate: invocation.flag("allow-duplicate")),
          token: token)
        try invocation.context.emit(json: ["reservation": reservation]) {
          HotelText.booked(reservation, money: invocation.context.money)
        }
      }
    )
  }

  // MARK: map

  static func map(_ environment: HotelEnvironment) -> Command {
    Command(
      name: "map",
      summary: L("Write an SVG map of the hotels around a place, coloured by price."),
      discussion: """
        Each hotel within the radius is a dot coloured by its cheapest nightly rate for the stay (grey: full);
        the centre and the radius are marked, with a scale bar and a legend, over the ground: water, land,
        lakes, shores and country borders (GSHHG), the biggest cities and busiest airports named. Without
        dates the stay is one night four weeks from today.
        """,
      options: [
        .option("near", "PLACE", help: L("City, IATA code or lat,lon."), required: true),
        .option("svg", "FILE", help: L("Where to write the SVG."), required: true),
        .option("check-in", "DATE", help: L("First night, YYYY-MM-DD."), default: L("in 28 days")),
        .option("check-out", "DATE", help: L("Departure day, YYYY-MM-DD."), default: L("check-in + 1")),
        .option("radius-km", "R", help: L("Radius in km (over 0, at most 500)."), default: "10"),
        stayOptions[2],
      ],
      examples: [
        "--near Paris --svg paris.svg", "--near Tokyo --check-in 2026-12-20 --check-out 2026-12-23 --svg tokyo.svg",
      ],
      action: { invocation in
        let path = try invocation.required("svg")
        var checkIn = try date(invocation, "check-in", required: false)
        var checkOut = try date(invocation, "check-out", required: false)
        if checkIn == nil && checkOut != nil {
          throw CLIError.usage(L("give --check-in with --check-out"), code: "missing_option")
        }
        if checkIn == nil { checkIn = LocalDate(environment.now(), in: .gmt).adding(days: 28) }
        if checkOut == nil { checkOut = checkIn!.adding(days: 1) }
        let radius = try decimalNumber(invocation, "radius-km").map { NSDecimalNumber(decimal: $0).doubleValue } ?? 10
        let service = try environment.service(invocation.context)
        let request = HotelSearchRequest(
          place: try invocation.required("near"), checkIn: checkIn!, checkOut: checkOut!,
          guests: try whole(invocation, "guests") ?? 1, radiusKm: radius, sort: .price, limit: 1000)
        let map = try HotelMapData.build(service: service, request: request)
        let ground = try Basemap.sharedFinest()
        let svg = HotelMapSVG(
          title: L("Hotels near \(map.center.name), \(checkIn!) → \(checkOut!)"), center: map.center, radiusKm: radius,
          dots: map.dots, ground: ground, places: try? MapPlaces.shared(), money: invocation.context.money)
        let slug = map.center.name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let url = try ExportFile.write(
          Data(svg.render().utf8), to: path, defaultName: "hotels-\(slug)-\(checkIn!).svg")
        let priced = map.dots.filter { $0.price != nil }.count
        try invocation.context.emit(
          json: ["map": MapDocument(svg: url.path, hotels: map.dots.count, withFreeRooms: priced, center: map.center)]
        ) {
          L(
            "Wrote \(url.path): \(map.dots.count) hotels within \(HotelMapSVG.number(radius)) km of \(map.center.name) (\(priced) with free rooms)."
          )
        }
      }
    )
  }

  // MARK: Parsing

  static func date(_ invocation: Invocation, _ name: String, required: Bool) throws -> LocalDate? {
    guard let text = required ? try invocation.required(name) : invocation.value(name) else { return nil }
    guard let date = LocalDate(text) else {
      throw CLIError.usage(
        L("invalid --\(name) \"\(text)\": expected a date YYYY-MM-DD such as 2026-12-20"), code: "invalid_date")
    }
    return date
  }

  static func whole(_ invocation: Invocation, _ name: String) throws -> Int? {
    guard let text = invocation.value(name) else { return nil }
    guard let value = Int(text) else {
      throw CLIError.usage(L("invalid --\(name) \"\(text)\": expected a whole number"))
    }
    return value
  }

  static func decimalNumber(_ invocation: Invocation, _ name: String) throws -> Decimal? {
    guard let text = invocation.value(name) else { return nil }
    let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard !body.isEmpty, parts.count <= 2,
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    else {
      throw CLIError.usage(L("invalid --\(name) \"\(text)\": expected a number such as 10 or 12.5"))
    }
    return value
  }

  /// The guest's name by the one name rule of every booking (``PassengerName``), words joined by
  /// single spaces. - Throws: `invalid_guest` (exit 2) naming what is wrong.
  static func guestName(_ text: String) throws -> String {
    do {
      return try PassengerName(parsing: text, option: "guest", code: "invalid_guest").description
    } catch let error as ServiceError {
      throw CLIError.usage(error.message, code: error.code)
    }
  }
}

/// `{"offers": [...]}` of `search`, with exactly the keys of the CLI contract.
struct SearchDocument: Encodable {
  var offers: [SearchOffer]
}

struct SearchOffer: Encodable {
  var id: String
  var hotelId: String
  var name: String
  var stars: Int
  var latitude: Double
  var longitude: Double
  var distanceKm: Double
  var roomType: RoomType
  var nights: Int
  var roomsAvailable: Int
  var nightlyRate: Money
  var total: Money

  init(_ offer: HotelOffer) {
    id = offer.id
    hotelId = offer.hotelId
    name = offer.name
    stars = offer.stars
    latitude = offer.latitude
    longitude = offer.longitude
    distanceKm = offer.distanceKm
    roomType = offer.roomType
    nights = offer.nights
    roomsAvailable = offer.roomsAvailable
    nightlyRate = offer.nightlyRate
    total = offer.total
  }
}

/// `show`'s document.
struct ShowDocument: Encodable {
  var hotel: Hotel
  var details: HotelDetails
  var offers: [HotelOffer]?
  var cancellationPolicy: String
}

struct MapDocument: Encodable {
  var svg: String
  var hotels: Int
  var withFreeRooms: Int
  var center: HotelSearchCenter
}

/// Turns a search into map dots: every hotel of the area once, at its cheapest offer.
enum HotelMapData {
  static func build(service: any HotelService, request: HotelSearchRequest) throws -> (
    center: HotelSearchCenter, dots: [HotelMapSVG.Dot]
  ) {
    let result = try service.search(request)
    var cheapest: [String: HotelOffer] = [:]
    for offer in result.offers
    where cheapest[offer.hotelId].map({ offer.nightlyRate.amount < $0.nightlyRate.amount }) ?? true {
      cheapest[offer.hotelId] = offer
    }
    // Hotels without a free room: from the map index (every hotel of the area, one by one).
    let center = result.center
    let latSpan = request.radiusKm / 111.195
    let lonSpan = min(180, latSpan / max(0.01, cos(center.latitude * .pi / 180)))
    let viewport = GeoRect(
      south: max(-90, center.latitude - latSpan), west: max(-180, center.longitude - lonSpan),
      north: min(90, center.latitude + latSpan), east: min(180, center.longitude + lonSpan))
    var dots: [HotelMapSVG.Dot] = []
    var seen = Set<String>()
    for marker in try service.mapMarkers(in: viewport, maxMarkers: 10_000) {
      guard let id = marker.hotelId, !seen.contains(id) else { continue }
      guard let point = try? Coordinate(latitude: marker.latitude, longitude: marker.longitude),
        let origin = try? Coordinate(latitude: center.latitude, longitude: center.longitude),
        Geography.distanceKm(origin, point) <= request.radiusKm
      else { continue }
      seen.insert(id)
      let offer = cheapest[id]
      dots.append(
        HotelMapSVG.Dot(
          latitude: marker.latitude, longitude: marker.longitude, price: offer?.nightlyRate, name: offer?.name ?? id))
    }
    for offer in cheapest.values where !seen.contains(offer.hotelId) {
      dots.append(
        HotelMapSVG.Dot(
          latitude: offer.latitude, longitude: offer.longitude, price: offer.nightlyRate, name: offer.name))
    }
    return (center, dots)
  }
}
