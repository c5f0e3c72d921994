import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

/// Issue #13, "Offers and idempotency": tamper-evident offer ids, idempotency keys bound to one
/// request, and the duplicate-booking rule — for flights, hotels and cars, on a real store whose
/// data directory holds the signing key.
@Suite struct OfferTrustTests {
  let backend: TestBackend
  let token: String

  init() throws {
    backend = try TestBackend()
    token = try backend.signedIn()
    try backend.addCard(token: token)
  }

  static let carSites = [
    CarSite(
      iata: "LAX", airportName: "Los Angeles International Airport", city: "Los Angeles", countryCode: "US",
      timeZoneIdentifier: "America/Los_Angeles")
  ]
  static let flightClock = Date(timeIntervalSince1970: 1_795_000_000)

  // MARK: Engines on a data directory's services (its signing key)

  func hotels(_ services: BackendServices? = nil) throws -> HotelEngine {
    let services = services ?? backend.services
    let clock = backend.clock
    return try HotelEngine(
      world: HotelWorld(cities: HotelFixtures.cities), inventory: StoredHotelInventory(database: services.database),
      eurRates: HotelFixtures.rates, resolvePlace: HotelFixtures.resolver(HotelFixtures.cities),
      booker: HotelBookings.booker(ledger: services.ledger), now: { clock.withLock { $0 } },
      ledger: services.ledger, signer: services.offerSigner)
  }

  func cars(_ services: BackendServices? = nil) throws -> CarRentalEngine {
    let services = services ?? backend.services
    let clock = backend.clock
    let session = token
    return CarRentalEngine(
      inventory: try CarInventory(sites: Self.carSites), promotions: try CarPromotions(),
      rentals: SQLiteCarRentals(database: services.database), now: { clock.withLock { $0 } },
      ledger: services.ledger, token: { session }, signer: services.offerSigner)
  }

  func flights(_ services: BackendServices? = nil) throws -> (FlightEngine, FlightBookingEngine) {
    let services = services ?? backend.services
    let engine = FlightEngine(
      network: FlightsFixtures.world, seats: SQLiteFlightSeats(database: services.database),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()), now: { Self.flightClock },
      signer: services.offerSigner)
    return (engine, FlightBookingEngine(engine: engine, ledger: services.ledger))
  }

  func hotelOffers(_ checkIn: String = "2026-12-20", _ checkOut: String = "2026-12-23", engine: HotelEngine? = nil)
    throws -> [HotelOffer]
  {
    try (engine ?? hotels()).search(
      HotelSearchRequest(place: "Paris", checkIn: .of(checkIn), checkOut: .of(checkOut), guests: 2, limit: 20)
    ).offers
  }

  func carOffers(from: String = "2026-10-05T10:00", to: String = "2026-10-12T10:00", engine: CarRentalEngine? = nil)
    throws -> [CarOffer]
  {
    try (engine ?? cars()).search(
      CarSearchQuery(
        pickupPlace: "LAX", pickup: try LocalDateTime(parsing: from), dropoff: try LocalDateTime(parsing: to),
        limit: 50)
    ).offers
  }

  func flightOffers(engine: FlightEngine? = nil) throws -> [FlightOffer] {
    try (engine ?? flights().0).search(
      FlightSearchRequest(origin: "SFO", destination: "JFK", departureDate: FlightsFixtures.date(30), maxStops: 0))
  }

  func error(_ body: () throws -> Void) -> ServiceError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ServiceError
    }
  }

  var payments: Int64 {
    get throws { try backend.services.database.queryOne("SELECT count(*) FROM payments")?.get(at: 0) ?? -1 }
  }

  let ada = PassengerName(given: "Ada", family: "Lovelace")

  // MARK: Tamper-evident offer ids

  @Test func editedOfferIDs_areRefusedAsInvalidOfferID_forFlightsHotelsAndCars_chargingNothing() throws {
    // Flights: another flight number (another city), a raised total, a signature moved from another id.
    let (flightEngine, flightBooking) = try flights()
    let offers = try flightOffers(engine: flightEngine)
    let offer = try #require(offers.first)
    let other = try #require(offers.first { $0.segments[0].flight != offer.segments[0].flight })
    var otherFlight = offer.id
    otherFlight.directions[0][0].flight = other.segments[0].flight
    var raised = offer.id
    raised.quotedTotal = offer.id.quotedTotal + Money(amount: 100, currency: offer.id.quotedTotal.currencyCode)
    var swapped = other.id
    swapped.signature = offer.id.signature
    for edited in [otherFlight, raised, swapped] {
      let refusal = try #require(
        error { _ = try flightBooking.book(FlightBookingRequest(offerID: edited, passengers: [ada]), token: token) })
      #expect(refusal.code == "invalid_offer_id")
      #expect(refusal.cliError.exitStatus == 2)
      #expect(error { _ = try flightEngine.offer(edited) }?.code == "invalid_offer_id")
    }

    // Hotels: another room type, other dates, a lowered total.
    let hotelEngine = try hotels()
    let room = try #require(try hotelOffers(engine: hotelEngine).first)
    let id = try #require(HotelOfferID(room.id))
    var roomType = id
    roomType.roomType = id.roomType == .double ? .suite : .double
    var dates = id
    dates.stay = try #require(DateRange(start: .of("2026-12-21"), end: .of("2026-12-24")))
    var lowered = id
    lowered.quotedMinorUnits -= 1
    for edited in [roomType, dates, lowered] {
      let refusal = try #require(
        error {
          _ = try hotelEngine.book(
            HotelBookingRequest(offerId: edited.description, guestName: "Ada Lovelace"), token: token)
        })
      #expect(refusal.code == "invalid_offer_id")
      #expect(refusal.kind == .invalidInput)
      #expect(error { _ = try hotelEngine.quote(offerId: edited.description) }?.code == "invalid_offer_id")
    }

    // Cars: another class, another company, a lowered total.
    let carEngine = try cars()
    let car = try #require(try carOffers(engine: carEngine).first)
    let carID = try CarOfferID(parsing: car.id)
    var company = carID
    company.companyID = "zephyr" == carID.companyID ? "luxelane" : "zephyr"
    var acriss = carID
    acriss.acriss = try ACRISSCode(carID.acriss.rawValue == "WDAR" ? "CDAR" : "WDAR")
    var cheaper = carID
    cheaper.quotedMinorUnits -= 500
    for edited in [company, acriss, cheaper] {
      let refusal = try #require(
        error { _ = try carEngine.book(CarBookingRequest(offerID: edited.description, driverName: "Ada Lovelace")) })
      #expect(refusal.code == "invalid_offer_id")
      #expect(refusal.kind == .invalidInput)
    }
    // An id without its signature says so.
    #expect(
      error { _ = try carEngine.book(CarBookingRequest(offerID: carID.payload, driverName: "Ada Lovelace")) }?
        .message.contains("no signature") == true)
    #expect(try payments == 0)
    #expect(try backend.services.ledger.reservations(token: token).isEmpty)
    // The ids as printed still book.
    _ = try hotelEngine.book(HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace"), token: token)
    _ = try carEngine.book(CarBookingRequest(offerID: car.id, driverName: "Ada Lovelace"))
    _ = try flightBooking.book(FlightBookingRequest(offerID: offer.id, passengers: [ada]), token: token)
    #expect(try payments == 3)
  }

  @Test func offerIDs_areSignedPerDataDirectory_sharedByItsProcesses_refusedByAnother() throws {
    let room = try #require(try hotelOffers().first)
    // Another connection on the same data directory (another process) reads the same key.
    let sameDirectory = try backend.secondConnection()
    #expect(try hotels(sameDirectory).quote(offerId: room.id).id == room.id)
    // Another data directory (another server) has its own key: the id is not its own.
    let elsewhere = try TestBackend()
    let foreign = error { _ = try self.hotels(elsewhere.services).quote(offerId: room.id) }
    #expect(foreign?.code == "invalid_offer_id")
    #expect(foreign?.message.contains("made elsewhere") == true)
    // Every kind signs with the same key, the data directory's.
    let car = try #require(try carOffers().first)
    let carID = try CarOfferID(parsing: car.id)
    #expect(try sameDirectory.offerSigner.isValid(carID.signature, for: carID.payload))
    #expect(try !elsewhere.services.offerSigner.isValid(carID.signature, for: carID.payload))
  }

  @Test func signingKey_isOwnerOnly_32RandomBytes_madeOnFirstUse() throws {
    let path = backend.directory.url.appendingPathComponent(OfferSigner.keyFileName).path
    #expect(!FileManager.default.fileExists(atPath: path))
    _ = try hotelOffers()
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(FileManager.default.contents(atPath: path)?.count == 32)
    // Two data directories never share a key.
    let other = try TestBackend()
    _ = try other.services.offerSigner.signature(of: "x")
    #expect(
      FileManager.default.contents(atPath: other.directory.url.appendingPathComponent(OfferSigner.keyFileName).path)
        != FileManager.default.contents(atPath: path))
  }

  /// #14 (QA 9): a search before the first sign-up, on a data directory that does not exist yet,
  /// makes the directory (owner-only) with the key file alone, so its ids book after the sign-up
  /// in another process; where the directory cannot be made, the key stays in memory and is
  /// saved once it can be.
  @Test func signingKey_missingDirectory_isMadeForTheKey_readOnlyGetsNothing() throws {
    let parent = TemporaryDirectory()
    let data = parent.url.appendingPathComponent("data")
    let payload = "FL1.Y.1.20261220UA1478.USD35162"
    let signature = try OfferSigner(dataDirectory: data).signature(of: payload)
    #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == [OfferSigner.keyFileName])
    #expect(
      (try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    let key = data.appendingPathComponent(OfferSigner.keyFileName).path
    #expect((try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    // What a later process reads: the saved key, which signed the id.
    let saved = try #require(FileManager.default.contents(atPath: key))
    #expect(try OfferSigner(key: saved).isValid(signature, for: payload))
    // A directory that cannot be made (a file where its parent should be): in memory, shared by
    // this process, saved as the directory's once it exists.
    let blocked = parent.url.appendingPathComponent("blocked")
    #expect(FileManager.default.createFile(atPath: blocked.path, contents: Data("x".utf8)))
    let inside = blocked.appendingPathComponent("data")
    let early = try OfferSigner(dataDirectory: inside).signature(of: payload)
    #expect(try OfferSigner(dataDirectory: inside).isValid(early, for: payload))
    try FileManager.default.removeItem(at: blocked)
    try DataDirectory.prepare(inside)
    #expect(try OfferSigner(dataDirectory: inside).isValid(early, for: payload))
    #expect(FileManager.default.fileExists(atPath: inside.appendingPathComponent(OfferSigner.keyFileName).path))
    // A directory its owner made read-only gets nothing written, even for root.
    let readOnly = parent.url.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
    #expect(chmod(readOnly.path, 0o500) == 0)
    defer { chmod(readOnly.path, 0o700) }
    _ = try OfferSigner(dataDirectory: readOnly).signature(of: "x")
    #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly.path).isEmpty)
  }

  @Test func signingKey_othersCanRead_orOfAnotherSize_isReported_neverChanged() throws {
    let path = backend.directory.url.appendingPathComponent(OfferSigner.keyFileName).path
    _ = try backend.services.offerSigner.signature(of: "x")
    #expect(chmod(path, 0o644) == 0)
    let insecure = error { _ = try OfferSigner(dataDirectory: backend.directory.url).signature(of: "x") }
    #expect(insecure?.code == "offer_key_insecure")
    #expect(insecure?.message.contains("chmod 600 \(path)") == true)
    #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue == 0o644)
    #expect(chmod(path, 0o600) == 0)
    try Data("short".utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o600) == 0)
    let short = error { _ = try OfferSigner(dataDirectory: backend.directory.url).signature(of: "x") }
    #expect(short?.code == "offer_key_unusable")
    #expect(short?.message.contains(path) == true)
    #expect(FileManager.default.contents(atPath: path) == Data("short".utf8))
  }

  // MARK: Idempotency keys

  @Test func idempotencyKey_hotels_sameRequestGetsTheFirst_anyOtherFieldIsRefusedNamingIt() throws {
    let engine = try hotels()
    let offers = try hotelOffers(engine: engine)
    let room = try #require(offers.first)
    let otherRoom = try #require(offers.first { $0.id != room.id })
    let second = try backend.addCard("5555555555554444", token: token)
    let first = try engine.book(
      HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace", idempotencyKey: "trip-1"), token: token)
    #expect(
      try engine.book(
        HotelBookingRequest(offerId: room.id, guestName: "Ada  Lovelace", idempotencyKey: "trip-1"), token: token
      ).id == first.id)
    let cases: [(HotelBookingRequest, String, String)] = [
      (HotelBookingRequest(offerId: room.id, guestName: "Alan Turing", idempotencyKey: "trip-1"), "guest", "the guest"),
      (
        HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace", cardId: second.id, idempotencyKey: "trip-1"),
        "card", "the card"
      ),
      (
        HotelBookingRequest(offerId: otherRoom.id, guestName: "Ada Lovelace", idempotencyKey: "trip-1"), "offerId",
        "the offer"
      ),
      (
        HotelBookingRequest(
          offerId: room.id, guestName: "Ada Lovelace", idempotencyKey: "trip-1", allowDuplicate: true),
        "allowDuplicate", "--allow-duplicate"
      ),
    ]
    for (request, field, words) in cases {
      let refusal = try #require(error { _ = try engine.book(request, token: token) })
      #expect(refusal.code == "idempotency_key_reused")
      #expect(refusal.cliError.exitStatus == 2)
      #expect(refusal.details["differs"] == field)
      #expect(refusal.details["reservationId"] == first.id)
      #expect(refusal.message.contains("\(words) differs"), "\(refusal.message)")
    }
    let guest = error {
      _ = try engine.book(
        HotelBookingRequest(offerId: room.id, guestName: "Alan Turing", idempotencyKey: "trip-1"), token: token)
    }
    #expect(guest?.message.contains("first \"Ada Lovelace\", now \"Alan Turing\"") == true, "\(guest?.message ?? "")")
    #expect(try payments == 1)
  }

  @Test func idempotencyKey_flightsAndCars_passengerDriverOrCardDiffers_isRefused() throws {
    let (_, booking) = try flights()
    let offer = try #require(try flightOffers().first)
    let second = try backend.addCard("5555555555554444", token: token)
    let first = try booking.book(
      FlightBookingRequest(offerID: offer.id, passengers: [ada], idempotencyKey: "f-1"), token: token)
    #expect(
      try booking.book(FlightBookingRequest(offerID: offer.id, passengers: [ada], idempotencyKey: "f-1"), token: token)
        .id == first.id)
    let otherPassenger = error {
      _ = try booking.book(
        FlightBookingRequest(
          offerID: offer.id, passengers: [PassengerName(given: "Alan", family: "Turing")], idempotencyKey: "f-1"),
        token: token)
    }
    #expect(otherPassenger?.code == "idempotency_key_reused")
    #expect(otherPassenger?.details["differs"] == "passengers")
    let otherCard = error {
      _ = try booking.book(
        FlightBookingRequest(offerID: offer.id, passengers: [ada], cardID: second.id, idempotencyKey: "f-1"),
        token: token)
    }
    #expect(otherCard?.details["differs"] == "card")

    let engine = try cars()
    let offers = try carOffers(engine: engine)
    let car = try #require(offers.first)
    let otherCar = try #require(offers.first { $0.id != car.id })
    let rental = try engine.book(CarBookingRequest(offerID: car.id, driverName: "Ada Lovelace", idempotencyKey: "c-1"))
    #expect(
      try engine.book(CarBookingRequest(offerID: car.id, driverName: "Ada Lovelace", idempotencyKey: "c-1")).id
        == rental.id)
    let driver = error {
      _ = try engine.book(CarBookingRequest(offerID: car.id, driverName: "Alan Turing", idempotencyKey: "c-1"))
    }
    #expect(driver?.code == "idempotency_key_reused")
    #expect(driver?.details["differs"] == "driver")
    let both = error {
      _ = try engine.book(
        CarBookingRequest(offerID: otherCar.id, driverName: "Ada Lovelace", cardID: second.id, idempotencyKey: "c-1"))
    }
    #expect(both?.details["differs"] == "card,offerId")
    // A key is the user's: a flight key reused for a car is another request too.
    let kind = error {
      _ = try engine.book(CarBookingRequest(offerID: car.id, driverName: "Ada Lovelace", idempotencyKey: "f-1"))
    }
    #expect(kind?.details["differs"] == "kind")
    #expect(try payments == 2)
  }

  @Test func idempotencyKey_retryAfterTheFirstTookTheLastRoom_getsTheFirst_notSoldOut() throws {
    let engine = try hotels()
    let room = try #require(try hotelOffers("2027-02-01", "2027-02-03", engine: engine).first)
    let capacity = try #require(try engine.hotel(id: room.hotelId).rooms.first { $0.roomType == room.roomType }?.count)
    for night in ["2027-02-01", "2027-02-02"] {
      try backend.services.database.run(
        "INSERT INTO hotel_room_nights (hotel_id, room_type, night, booked) VALUES (?, ?, ?, ?)", room.hotelId,
        room.roomType.rawValue, night, capacity - 1)
    }
    let request = HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace", idempotencyKey: "last-room")
    let first = try engine.book(request, token: token)
    #expect(try engine.book(request, token: token).id == first.id)
    #expect(
      error { _ = try engine.book(HotelBookingRequest(offerId: room.id, guestName: "Alan Turing"), token: token) }?
        .code == "sold_out")
    #expect(try payments == 1)
  }

  @Test func bookingFingerprint_isCanonicalJSON_andNamesTheFieldsThatDiffer() throws {
    let a = BookingFingerprint(kind: .hotel, cardID: nil, fields: ["offerId": "hof_1", "guest": "Ada Lovelace"])
    #expect(a.canonical == #"{"card":"default","guest":"Ada Lovelace","kind":"hotel","offerId":"hof_1"}"#)
    #expect(BookingFingerprint(canonical: a.canonical) == a)
    let b = BookingFingerprint(kind: .hotel, cardID: "card_2", fields: ["offerId": "hof_1", "guest": "Alan Turing"])
    #expect(b.differences(from: a) == ["card", "guest"])
    #expect(BookingFingerprint(kind: .car, cardID: nil, fields: a.fields).differences(from: a) == ["kind"])
    #expect(BookingFingerprint(canonical: "hotel|Hotel Test, Paris") == nil)
  }

  // MARK: Duplicate bookings

  @Test func duplicate_hotels_sameGuestSameRoomTypeOverlappingNights_isRefused_unlessAllowed() throws {
    let engine = try hotels()
    let room = try #require(try hotelOffers(engine: engine).first)
    func stay(_ checkIn: String, _ checkOut: String, type: RoomType? = nil) throws -> HotelOffer {
      try #require(
        try engine.rooms(hotelId: room.hotelId, checkIn: .of(checkIn), checkOut: .of(checkOut), guests: 2, rooms: 1)
          .first { $0.roomType == (type ?? room.roomType) })
    }
    let first = try engine.book(HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace"), token: token)
    // The same stay again, an overlapping one, the same person written otherwise: refused.
    for (offer, guest) in [
      (room, "Ada Lovelace"), (try stay("2026-12-22", "2026-12-25"), "Ada Lovelace"),
      (try stay("2026-12-18", "2026-12-21"), "ADA  lovelace"),
    ] {
      let refusal = try #require(
        error { _ = try engine.book(HotelBookingRequest(offerId: offer.id, guestName: guest), token: token) })
      #expect(refusal.code == "duplicate_booking")
      #expect(refusal.kind == .refused)
      #expect(refusal.details["reservationId"] == first.id)
      #expect(refusal.message.contains(first.id) && refusal.message.contains("--allow-duplicate"))
      // Dates as a traveller reads them, never ISO 8601 (#14).
      #expect(refusal.message.contains("check-in 20 Dec 2026"), "\(refusal.message)")
      #expect(refusal.message.range(of: #"\d{4}-\d{2}-\d{2}T"#, options: .regularExpression) == nil)
    }
    #expect(try payments == 1)
    // Adjacent nights, another guest, another room type, or --allow-duplicate: booked.
    _ = try engine.book(
      HotelBookingRequest(offerId: try stay("2026-12-23", "2026-12-25").id, guestName: "Ada Lovelace"), token: token)
    _ = try engine.book(HotelBookingRequest(offerId: room.id, guestName: "Alan Turing"), token: token)
    let types = try engine.rooms(
      hotelId: room.hotelId, checkIn: room.checkIn, checkOut: room.checkOut, guests: 2, rooms: 1)
    if let otherType = types.first(where: { $0.roomType != room.roomType }) {
      _ = try engine.book(HotelBookingRequest(offerId: otherType.id, guestName: "Ada Lovelace"), token: token)
    }
    _ = try engine.book(
      HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace", allowDuplicate: true), token: token)
    // Once the first is cancelled (and the second it allowed), the stay books again.
    for reservation in try backend.services.ledger.reservations(token: token)
    where reservation.details["roomType"]?.stringValue == room.roomType.rawValue
      && reservation.details["checkIn"]?.stringValue == "2026-12-20"
      && reservation.details["guestName"]?.stringValue == "Ada Lovelace"
    {
      _ = try backend.services.ledger.cancelReservation(id: reservation.id, token: token)
    }
    _ = try engine.book(HotelBookingRequest(offerId: room.id, guestName: "Ada Lovelace"), token: token)
  }

  @Test func duplicate_cars_sameDriverOverlappingTimes_anyCompany_isRefused_unlessAllowed() throws {
    let engine = try cars()
    let offers = try carOffers(engine: engine)
    let car = try #require(offers.first)
    let otherCompany = try #require(offers.first { $0.company.id != car.company.id })
    let first = try engine.book(CarBookingRequest(offerID: car.id, driverName: "Ada Lovelace"))
    let overlapping = try #require(
      try carOffers(from: "2026-10-11T09:00", to: "2026-10-14T10:00", engine: engine).first)
    for (id, driver) in [(car.id, "Ada Lovelace"), (otherCompany.id, "ada lovelace"), (overlapping.id, "Ada Lovelace")]
    {
      let refusal = try #require(error { _ = try engine.book(CarBookingRequest(offerID: id, driverName: driver)) })
      #expect(refusal.code == "duplicate_booking")
      #expect(refusal.details["reservationId"] == first.id)
      // The period held, as a traveller reads it (the reservation's own summary follows it).
      let period = refusal.message.components(separatedBy: " (reservation").first ?? ""
      #expect(period.range(of: #"\d{4}-\d{2}-\d{2}T"#, options: .regularExpression) == nil, "\(refusal.message)")
      #expect(refusal.message.contains("Oct 2026, ") && refusal.message.contains("local time)"), "\(refusal.message)")
    }
    #expect(try payments == 1)
    // From the drop-off on, another driver, or --allow-duplicate: booked.
    let after = try #require(try carOffers(from: "2026-10-12T10:00", to: "2026-10-14T10:00", engine: engine).first)
    _ = try engine.book(CarBookingRequest(offerID: after.id, driverName: "Ada Lovelace"))
    _ = try engine.book(CarBookingRequest(offerID: otherCompany.id, driverName: "Alan Turing"))
    _ = try engine.book(CarBookingRequest(offerID: otherCompany.id, driverName: "Ada Lovelace", allowDuplicate: true))
    #expect(try payments == 4)
  }

  @Test func duplicate_flights_allowDuplicate_booksASecondSeatForTheSameName() throws {
    let (_, booking) = try flights()
    let offer = try #require(try flightOffers().first)
    let first = try booking.book(FlightBookingRequest(offerID: offer.id, passengers: [ada]), token: token)
    // Today's offer (its price may have moved with the seat taken).
    let current = try flights().0.offer(offer.id)
    let refusal = error {
      _ = try booking.book(
        FlightBookingRequest(offerID: current.id, passengers: [PassengerName(given: "ADA", family: "lovelace")]),
        token: token)
    }
    #expect(refusal?.code == "duplicate_booking")
    #expect(refusal?.details["reservationId"] == first.id)
    #expect(refusal?.message.contains("local time") == true, "\(refusal?.message ?? "")")
    #expect(refusal?.message.range(of: #"\d{4}-\d{2}-\d{2}T"#, options: .regularExpression) == nil)
    let again = try? booking.book(
      FlightBookingRequest(offerID: current.id, passengers: [ada], allowDuplicate: true), token: token)
    #expect(again != nil)
    #expect(try payments == 2)
  }
}
