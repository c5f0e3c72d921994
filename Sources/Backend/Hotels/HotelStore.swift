import Common
import Foundation

/// Hotel rooms in the store: booked rooms per hotel, room type and night, and which reservation
/// holds which rooms (module `hotels`).
///
/// A booking adds its rooms to `hotel_room_nights` for every night of `[check-in, check-out)`
/// inside the ledger's `BEGIN IMMEDIATE` transaction, after checking that the hotel has that many
/// rooms of the type free on each of those nights; a cancellation gives them back in the
/// cancellation's transaction. Nights are stored as `YYYY-MM-DD` text (local dates at the hotel),
/// which sort and compare as dates.
public enum HotelStore {
  public static let migrations: [Migration] = [
    Migration(
      id: "hotels.001",
      sql: """
        CREATE TABLE hotel_room_nights (
          hotel_id TEXT NOT NULL,
          room_type TEXT NOT NULL,
          night TEXT NOT NULL,
          booked INTEGER NOT NULL CHECK (booked >= 0),
          PRIMARY KEY (hotel_id, room_type, night)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX hotel_room_nights_by_night ON hotel_room_nights(night);
        CREATE TABLE hotel_bookings (
          reservation_id TEXT PRIMARY KEY,
          hotel_id TEXT NOT NULL,
          room_type TEXT NOT NULL,
          check_in TEXT NOT NULL,
          check_out TEXT NOT NULL,
          rooms INTEGER NOT NULL CHECK (rooms > 0),
          released INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        """)
  ]

  /// Takes `rooms` rooms of `roomType` at `hotelId` on every night of `stay`, of `capacity` rooms
  /// in all, for reservation `reservationId`. Run inside the booking transaction.
  ///
  /// Each night is taken by one conditional statement (the night's `booked` grows only while it
  /// stays within `capacity`, checked on the row as it is when the statement runs), so concurrent
  /// bookings on any number of servers never give more rooms than the hotel has.
  /// - Throws: `sold_out` (`.refused`) when any night has fewer than `rooms` free; the
  ///   transaction rolls back the nights taken before it.
  static func take(
    _ rooms: Int, of roomType: RoomType, at hotelId: String, capacity: Int, stay: DateRange, reservationId: String,
    in db: Database
  ) throws {
    for night in stay.dates {
      let taken = try db.takeWithinCapacity(
        "hotel_room_nights",
        key: [("hotel_id", hotelId), ("room_type", roomType.rawValue), ("night", night.description)],
        amount: rooms, capacity: capacity)
      guard taken else {
        throw ServiceError.refused(
          "sold_out",
          "sold out: no \(rooms == 1 ? "" : "\(rooms) ")\(roomType.rawValue) room\(rooms == 1 ? " is" : "s are") free on \(night) at this hotel any more; search again"
        )
      }
    }
    try db.run(
      """
      INSERT INTO hotel_bookings (reservation_id, hotel_id, room_type, check_in, check_out, rooms)
      VALUES (?, ?, ?, ?, ?, ?)
      """, reservationId, hotelId, roomType.rawValue, stay.start.description, stay.end.description, rooms)
  }

  /// Gives back the rooms of reservation `reservationId` (once). Run inside the cancellation transaction.
  static func release(reservationId: String, in db: Database) throws {
    guard
      let row = try db.queryOne(
        "SELECT * FROM hotel_bookings WHERE reservation_id = ? AND released = 0", reservationId)
    else { return }
    let hotelId: String = try row.get("hotel_id")
    let roomType: String = try row.get("room_type")
    let rooms: Int = try row.get("rooms")
    guard let start = LocalDate(try row.get("check_in", as: String.self)),
      let end = LocalDate(try row.get("check_out", as: String.self)), let stay = DateRange(start: start, end: end)
    else { return }
    for night in stay.dates {
      try db.run(
        "UPDATE hotel_room_nights SET booked = MAX(0, booked - ?) WHERE hotel_id = ? AND room_type = ? AND night = ?",
        rooms, hotelId, roomType, night.description)
    }
    try db.run("UPDATE hotel_bookings SET released = 1 WHERE reservation_id = ?", reservationId)
  }

  /// How hotel reservations are cancelled (``HotelCancellation``): free until 15:00 hotel time
  /// the day before check-in, the first night charged after; the rooms come back either way.
  public static let cancellationPolicy = CancellationPolicy(
    refund: { reservation, now in
      guard let (checkIn, zone, firstNight) = terms(of: reservation) else { return reservation.total }
      return HotelCancellation.refund(
        total: reservation.total, firstNight: firstNight, at: now, checkIn: checkIn, timeZone: zone)
    },
    release: { context in try release(reservationId: context.reservation.id, in: context.db) },
    terms: { reservation, now in
      guard let (checkIn, zone, firstNight) = terms(of: reservation) else {
        return CancellationPolicy.Terms(deadline: nil, rule: .fullRefund, policy: "Cancelling refunds the whole total.")
      }
      return CancellationPolicy.Terms(
        deadline: HotelCancellation.freeUntil(checkIn: checkIn, timeZone: zone),
        rule: HotelCancellation.isFree(at: now, checkIn: checkIn, timeZone: zone)
          ? .hotelFree : .hotelFirstNightCharged,
        policy: HotelCancellation.summary(checkIn: checkIn, timeZone: zone, at: now, firstNight: firstNight))
    })

  /// The check-in, the hotel's zone and the first night's charge a hotel reservation keeps.
  static func terms(of reservation: Reservation) -> (LocalDate, TimeZone, Money)? {
    guard let checkIn = reservation.details["checkIn"]?.stringValue.flatMap(LocalDate.init),
      let zone = reservation.details["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)),
      let firstNight = reservation.details["firstNightCharge"]?.stringValue.flatMap({
        Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))
      })
    else { return nil }
    return (checkIn, zone, Money(amount: firstNight, currency: reservation.total.currencyCode))
  }
}

/// Availability read from the store (``HotelStore``).
public final class StoredHotelInventory: HotelInventory, Sendable {
  let database: Database

  public init(database: Database) {
    self.database = database
  }

  public func maxBooked(during stay: DateRange) throws -> [HotelRoomKey: Int] {
    var result: [HotelRoomKey: Int] = [:]
    let rows = try database.query(
      """
      SELECT hotel_id, room_type, MAX(booked) AS booked FROM hotel_room_nights
      WHERE night >= ? AND night < ? AND booked > 0 GROUP BY hotel_id, room_type
      """, stay.start.description, stay.end.description)
    for row in rows {
      guard let type = RoomType(rawValue: try row.get("room_type")) else { continue }
      result[HotelRoomKey(hotelId: try row.get("hotel_id"), roomType: type)] = try row.get("booked")
    }
    return result
  }
}

/// Books hotel offers through the reservations ledger.
public enum HotelBookings {
  /// The booker of ``HotelEngine``: one ledger transaction that takes the rooms (or throws
  /// `sold_out`), charges the total and records the reservation. The offer was re-priced by the
  /// engine just before; `quotedMinorUnits` is the price the user saw.
  public static func booker(ledger: ReservationLedger) -> HotelEngine.Booker {
    { offer, hotel, booking, token in
      guard let stay = DateRange(start: offer.checkIn, end: offer.checkOut),
        let capacity = hotel.rooms.first(where: { $0.roomType == offer.roomType })?.count
      else { throw ServiceError.invalid("invalid_offer_id", "offer \(offer.id) does not match hotel \(hotel.id)") }
      let zone = TimeZone(identifier: hotel.timeZone) ?? .gmt
      let firstNight = firstNightCharge(offer)
      let guestName = booking.guestName
      let request = BookingRequest(
        token: token, kind: .hotel, cardID: booking.cardId, idempotencyKey: booking.idempotencyKey, total: offer.total,
        summary:
          "\(hotel.name), \(hotel.city): \(offer.rooms) \(offer.roomType.rawValue) room\(offer.rooms == 1 ? "" : "s"), "
          + "\(offer.checkIn) → \(offer.checkOut) (\(offer.nights) night\(offer.nights == 1 ? "" : "s"))",
        startsAt: offer.checkIn.instant(hour: HotelCancellation.checkInHour, in: zone),
        endsAt: offer.checkOut.instant(hour: HotelCancellation.checkOutHour, in: zone),
        details: details(
          offer, hotel: hotel, guestName: guestName, firstNight: firstNight, zone: zone,
          bookedAt: ledger.environment.now()),
        requestFields: requestFields(booking))
      return try ledger.book(request) { context in
        if !booking.allowDuplicate {
          try refuseDuplicate(
            hotelId: hotel.id, roomType: offer.roomType, stay: stay, guest: guestName, context: context)
        }
        try HotelStore.take(
          offer.rooms, of: offer.roomType, at: hotel.id, capacity: capacity, stay: stay,
          reservationId: context.reservationID, in: context.db)
      }
    }
  }

  /// What the caller asked for, for the idempotency key (with the kind and card: ``BookingFingerprint``).
  static func requestFields(_ request: HotelBookingRequest) -> [String: String] {
    ["offerId": request.offerId, "guest": request.guestName, "allowDuplicate": String(request.allowDuplicate)]
  }

  /// The duplicate rule for hotels (``DuplicateBookings``): refuses a booking when `guest` already
  /// holds a confirmed reservation of this user for `roomType` at `hotelId` whose stay shares a
  /// night with `stay` (`[check-in, check-out)` ranges overlap). Runs in the booking transaction.
  /// - Throws: `duplicate_booking` (`.refused`), naming the reservation; nothing is taken.
  static func refuseDuplicate(
    hotelId: String, roomType: RoomType, stay: DateRange, guest: String, context: BookingContext
  ) throws {
    let person = DuplicateBookings.personKey(guest)
    // Stays are [15:00 on check-in, 11:00 on check-out] (starts_at, ends_at) at the same hotel, so
    // overlapping nights overlap in time; the nights themselves are compared below.
    let held = try DuplicateBookings.confirmed(
      .hotel, from: Date(timeIntervalSince1970: TimeInterval((stay.start.daysSinceEpoch - 2) * 86_400)),
      until: Date(timeIntervalSince1970: TimeInterval((stay.end.daysSinceEpoch + 2) * 86_400)),
      extra: " AND json_extract(details, '$.hotelId') = ? AND json_extract(details, '$.roomType') = ?",
      bindings: [hotelId, roomType.rawValue], context: context)
    for held in held {
      guard held.details["hotelId"]?.stringValue == hotelId, held.details["roomType"]?.stringValue == roomType.rawValue,
        let name = held.details["guestName"]?.stringValue, DuplicateBookings.personKey(name) == person,
        let start = held.details["checkIn"]?.stringValue.flatMap(LocalDate.init),
        let end = held.details["checkOut"]?.stringValue.flatMap(LocalDate.init),
        start < stay.end, stay.start < end
      else { continue }
      throw DuplicateBookings.refusal(
        "\(name) already holds a \(roomType.rawValue) room at this hotel for overlapping nights (check-in "
          + "\(DuplicateBookings.readableDate(start)), check-out \(DuplicateBookings.readableDate(end)))",
        existing: held)
    }
  }

  /// The first night's rate for every room, with taxes: what a late cancellation costs.
  static func firstNightCharge(_ offer: HotelOffer) -> Money {
    guard let first = offer.nightlyRates.first else { return Money.zero(offer.total.currencyCode) }
    return (first.rate * Decimal(offer.rooms) * (1 + offer.taxRate)).rounded()
  }

  /// What a hotel reservation keeps; the cancellation policy as it applies at `bookedAt` (a
  /// booking made after the free-cancellation deadline says at once that the first night is due).
  static func details(
    _ offer: HotelOffer, hotel: Hotel, guestName: String, firstNight: Money, zone: TimeZone, bookedAt: Date
  ) -> [String: JSONValue] {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = zone
    let deadline = HotelCancellation.freeUntil(checkIn: offer.checkIn, timeZone: zone)
    return [
      "offerId": .string(offer.id),
      "hotelId": .string(hotel.id),
      "hotelName": .string(hotel.name),
      "address": .string(hotel.address),
      "city": .string(hotel.city),
      "countryCode": .string(hotel.countryCode),
      "timeZone": .string(hotel.timeZone),
      "roomType": .string(offer.roomType.rawValue),
      "rooms": .integer(Int64(offer.rooms)),
      "guests": .integer(Int64(offer.guests)),
      "guestName": .string(guestName),
      "checkIn": .string(offer.checkIn.description),
      "checkOut": .string(offer.checkOut.description),
      "nights": .integer(Int64(offer.nights)),
      "nightlyRates": .array(
        offer.nightlyRates.map {
          .object(["date": .string($0.date.description), "amount": .string($0.rate.amountString)])
        }
      ),
      "currency": .string(offer.total.currencyCode),
      "taxes": .string(offer.taxes.amountString),
      "firstNightCharge": .string(firstNight.amountString),
      "freeCancellationUntil": .string(formatter.string(from: deadline)),
      "freeCancellation": .bool(HotelCancellation.isFree(at: bookedAt, checkIn: offer.checkIn, timeZone: zone)),
      "cancellationPolicy": .string(
        HotelCancellation.summary(checkIn: offer.checkIn, timeZone: zone, at: bookedAt, firstNight: firstNight)),
    ]
  }
}
