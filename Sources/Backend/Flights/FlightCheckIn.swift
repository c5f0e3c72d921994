import Common
import Foundation
import Synchronization

/// When check-in for one direction of a trip is open: from 24 hours (elapsed) before its first
/// departure until 60 minutes before it when the direction crosses a border (travel documents are
/// checked for the whole journey), 45 minutes when it is domestic (standards.md §5: "check-in
/// opens 24 hours before departure online at most carriers and closes 45–60 minutes before").
///
/// Elapsed time, not the wall clock: on a day with a daylight-saving change, the opening is 23 or
/// 25 hours earlier on the departure airport's clock.
public struct CheckInWindow: Hashable, Sendable {
  public static let opensBefore: TimeInterval = 24 * 3600
  public static let closesBeforeInternational: TimeInterval = 60 * 60
  public static let closesBeforeDomestic: TimeInterval = 45 * 60

  public var departure: Date
  public var international: Bool
  /// The departure airport's time zone, for messages.
  public var zone: TimeZone

  public init(departure: Date, international: Bool, zone: TimeZone) {
    self.departure = departure
    self.international = international
    self.zone = zone
  }

  public var opens: Date { departure.addingTimeInterval(-Self.opensBefore) }
  public var closes: Date {
    departure.addingTimeInterval(-(international ? Self.closesBeforeInternational : Self.closesBeforeDomestic))
  }

  public func isOpen(at instant: Date) -> Bool { instant >= opens && instant < closes }

  /// `2026-12-19 08:05 America/Los_Angeles (UTC-08:00)`.
  public static func local(_ instant: Date, _ zone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
    let offset = zone.secondsFromGMT(for: instant) / 60
    let sign = offset < 0 ? "-" : "+"
    return String(
      format: "%04d-%02d-%02d %02d:%02d %@ (UTC%@%02d:%02d)", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
      parts.hour ?? 0, parts.minute ?? 0, zone.identifier, sign, abs(offset) / 60, abs(offset) % 60)
  }
}

/// Online check-in, seats and boarding passes over the store (``CheckInSchema``), for the embedded
/// backend. Implements ``CheckInService``; see its documentation for the rules, and
/// ``CheckInWindow``, ``SeatMapLayouts``, ``SeatPicker`` and ``BoardingPassSigner``.
///
/// Every change (seats, check-in with its sequence numbers, tickets and passes) is one
/// `BEGIN IMMEDIATE` transaction, the discipline of the reservations ledger: concurrent processes
/// are serialised by SQLite's write lock and see each other's seats.
///
/// Boarding passes (BCBP version 8): item 253 `E`; per leg the reservation's record locator,
/// airports, carrier, four-digit flight number, day of the year of the local departure date,
/// compartment (cabin letter), seat, four-digit sequence number, status `1` (checked in); the
/// passenger description `0` (adult), check-in and issuance source `W` (web), the issue date (the
/// first departure airport's date at issue), document type `B`, issuer the first flight's
/// carrier; per leg the ticket number (items 142 + 143), international documentation `1` across
/// a border (checked at the airport), else `0`, marketing carrier = operating carrier, blank
/// frequent-flyer items, the free baggage allowance of the cabin (`1PC` economy, `2PC` premium
/// economy and business, `3PC` first) and fast track `Y` in business and first; then the
/// backend's ECDSA P-256 signature.
///
/// Ticket numbers: a three-digit prefix of the carrier, then `2` and a nine-digit serial taken in
/// order. The prefix is this backend's own (derived from the designator by FNV-1a): the reference
/// data does not carry IATA's airline accounting codes.
public final class FlightCheckIn: CheckInService, @unchecked Sendable {
  let db: Database
  let accounts: Accounts
  let signer: BoardingPassSigner
  let environment: BackendEnvironment
  private let world: @Sendable () throws -> World
  private let loaded = Mutex<World?>(nil)

  /// What check-in needs of the reference data: aircraft type names (seat maps) and airports'
  /// countries (domestic or international departures).
  public struct World: Sendable {
    public var aircraftNames: [String: String]
    public var country: @Sendable (String) -> String?

    public init(aircraftNames: [String: String], country: @escaping @Sendable (String) -> String?) {
      self.aircraftNames = aircraftNames
      self.country = country
    }
  }

  /// - Parameter world: the reference data check-in needs, asked once, on first use (so that
  ///   commands that never check in do not load it).
  public init(
    database: Database, accounts: Accounts, signer: BoardingPassSigner, environment: BackendEnvironment = .live,
    world: @escaping @Sendable () throws -> World
  ) {
    self.db = database
    self.accounts = accounts
    self.signer = signer
    self.environment = environment
    self.world = world
  }

  private func reference() throws -> World {
    if let world = loaded.withLock({ $0 }) { return world }
    let world = try world()
    loaded.withLock { $0 = world }
    return world
  }

  private func country(_ airport: String) -> String? { (try? reference())?.country(airport) }

  /// The seat map of aircraft type `code`.
  public func seatMap(aircraft code: String) -> SeatMap {
    SeatMapLayouts.map(for: AircraftCatalog.model(code: code, names: (try? reference())?.aircraftNames ?? [:]))
  }

  // MARK: CheckInService

  public func seatMaps(_ request: SeatMapRequest, token: String) throws -> SeatMapResponse {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let booked = try Self.booked(request.reservationID, userID: userID, db)
      return SeatMapResponse(
        reservationID: booked.reservation.id, passengers: booked.passengers,
        legs: try booked.legs.map { try seatMap(of: $0, booked, db) })
    }
  }

  public func assignSeats(_ request: SeatAssignmentRequest, token: String) throws -> SeatAssignmentResponse {
    try serviceCall {
      // Reference data is read before the write lock is taken, never while holding it.
      _ = try reference()
      let userID = try accounts.userID(token: token)
      return try db.write { db in
        let booked = try Self.booked(request.reservationID, userID: userID, db)
        let now = environment.now()
        try apply(request.choices, booked, now: now, db)
        if request.assignRest {
          for direction in booked.directions.indices where now < window(direction, booked).closes {
            for leg in booked.directions[direction] {
              try seatRest(leg: booked.legs[leg], passengers: Array(booked.passengers.indices), booked, db)
            }
          }
        }
        return SeatAssignmentResponse(
          reservationID: booked.reservation.id, assignments: try assignments(booked, legs: nil, db))
      }
    }
  }

  public func checkIn(_ request: CheckInRequest, token: String) throws -> CheckInResponse {
    try serviceCall {
      // Reference data and the signing key are read before the write lock is taken.
      _ = try reference()
      try signer.prepare()
      let userID = try accounts.userID(token: token)
      return try db.write { db in
        let booked = try Self.booked(request.reservationID, userID: userID, db)
        let now = environment.now()
        let direction = try openDirection(booked, now: now)
        let legs = booked.directions[direction]
        let who =
          try request.passengers.map { try $0.map(booked.passenger(named:)) } ?? Array(booked.passengers.indices)
        var seen = Set<Int>()
        for passenger in who where !seen.insert(passenger).inserted {
          throw ServiceError.invalid(
            "duplicate_passenger", "passenger \(booked.passengers[passenger]) is named twice: name each once")
        }
        var choices: [SeatChoice] = []
        for wanted in request.seats {
          guard wanted.seats.count <= legs.count else {
            throw ServiceError.invalid(
              "invalid_leg",
              "\(wanted.seats.count) seats given for \(wanted.passenger), but \(legs.count) flight(s) are checked in now"
            )
          }
          for (position, seat) in wanted.seats.enumerated() {
            if let seat { choices.append(SeatChoice(passenger: wanted.passenger, leg: legs[position], seat: seat)) }
          }
        }
        try apply(choices, booked, now: now, db)
        var issued: [IssuedBoardingPass] = []
        for leg in legs { try seatRest(leg: booked.legs[leg], passengers: who, booked, db) }
        for passenger in who {
          var fresh = false
          for leg in legs where try sequence(booked, passenger: passenger, leg: leg, db) == nil {
            let flight = booked.legs[leg]
            let next: Int64 =
              try db.queryOne(
                "SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM check_ins WHERE flight = ? AND date = ?",
                flight.flight.code, flight.date.description)?.get("next") ?? 1
            try db.run(
              """
              INSERT INTO check_ins (flight, date, sequence, reservation_id, passenger, leg, checked_in_at)
              VALUES (?, ?, ?, ?, ?, ?, ?)
              """, flight.flight.code, flight.date.description, next, booked.reservation.id, Int64(passenger),
              Int64(leg), now)
            fresh = true
          }
          let existing = try storedPass(booked, passenger: passenger, direction: direction, db)
          if fresh || existing == nil {
            try issuePass(booked, passenger: passenger, direction: direction, now: now, db)
          }
          if let pass = try storedPass(booked, passenger: passenger, direction: direction, db) { issued.append(pass) }
        }
        return CheckInResponse(
          reservationID: booked.reservation.id, direction: direction,
          assignments: try assignments(booked, legs: Set(legs), db), boardingPasses: issued)
      }
    }
  }

  public func boardingPasses(_ request: BoardingPassesRequest, token: String) throws -> BoardingPassesResponse {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let booked = try Self.booked(request.reservationID, userID: userID, db, allowCancelled: true)
      let rows = try db.query(
        "SELECT * FROM boarding_passes WHERE reservation_id = ? ORDER BY direction, passenger", booked.reservation.id)
      return BoardingPassesResponse(
        reservationID: booked.reservation.id, boardingPasses: try rows.map { try Self.pass($0, booked) })
    }
  }

  public func verify(_ request: PassVerificationRequest) throws -> PassVerificationResponse {
    let pass: BoardingPass
    do {
      pass = try BCBPParser.parse(request.bcbp, mode: .lenient).pass
    } catch let error as BCBPError {
      throw ServiceError.invalid("invalid_boarding_pass", "not a boarding pass: \(error.message)")
    }
    guard pass.securityType != nil else {
      return PassVerificationResponse(signature: .absent, reason: "the pass has no security data")
    }
    let status = try signer.verify(text: request.bcbp, pass: pass)
    return PassVerificationResponse(
      signature: status,
      reason: status == .valid
        ? "ECDSA P-256 signature by this backend's key"
        : "the security data (type \(pass.securityType ?? "")) does not verify with this backend's key: another issuer's, or the pass was altered"
    )
  }

  public func matchTrip(_ request: TripMatchRequest, token: String) throws -> TripMatchResponse {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let pass = request.pass
      let rows = try db.query(
        "SELECT * FROM reservations WHERE user_id = ? AND kind = 'flight' AND locator = ? ORDER BY created_at DESC",
        userID, pass.legs.first?.pnr ?? "")
      for reservation in try rows.map(ReservationLedger.reservation) {
        guard let booked = try? BookedFlight(reservation) else { continue }
        let matches: [Int?] = pass.legs.map { leg in
          booked.legs.first { candidate in
            candidate.from == leg.from && candidate.to == leg.to && candidate.flight.carrier == leg.carrier
              && Int(leg.flightNumber.prefix { $0.isNumber }) == candidate.flight.number
              && BCBPDates.dayOfYear(candidate.date) == leg.dayOfYear
          }?.index
        }
        guard matches.contains(where: { $0 != nil }) else { continue }
        return TripMatchResponse(
          reservation: reservation, legs: matches, flightDates: matches.map { $0.map { booked.legs[$0].date } })
      }
      return TripMatchResponse(
        reservation: nil, legs: pass.legs.map { _ in nil }, flightDates: pass.legs.map { _ in nil })
    }
  }

  // MARK: Reading

  static func booked(_ id: String, userID: Int64, _ db: Database, allowCancelled: Bool = false) throws -> BookedFlight {
    let reservation = try ReservationLedger.owned(id, userID: userID, db)
    let booked = try BookedFlight(reservation)
    guard allowCancelled || reservation.status == .confirmed else {
      throw ServiceError.refused("already_cancelled", "reservation \(id) is cancelled")
    }
    return booked
  }

  func window(_ direction: Int, _ booked: BookedFlight) -> CheckInWindow {
    let legs = booked.directions[direction].map { booked.legs[$0] }
    let first = legs[0]
    let international = legs.contains { leg in
      guard let from = country(leg.from), let to = country(leg.to) else { return true }
      return from != to
    }
    return CheckInWindow(departure: first.departure, international: international, zone: first.zone)
  }

  /// The direction whose check-in is open now.
  /// - Throws: `check_in_not_open` with when the next one opens, or `check_in_closed` with when
  ///   the last one closed, in the airport's local time.
  func openDirection(_ booked: BookedFlight, now: Date) throws -> Int {
    let windows = booked.directions.indices.map { self.window($0, booked) }
    if let open = windows.firstIndex(where: { $0.isOpen(at: now) }) { return open }
    func describe(_ direction: Int) -> String {
      let legs = booked.directions[direction].map { booked.legs[$0] }
      return "\(legs[0].flight) \(legs[0].from) → \(legs[legs.count - 1].to)"
    }
    if let next = windows.indices.first(where: { now < windows[$0].opens }) {
      let opening = windows[next]
      throw ServiceError.refused(
        "check_in_not_open",
        "check-in for \(describe(next)) opens at \(CheckInWindow.local(opening.opens, opening.zone)), 24 hours before its departure at \(CheckInWindow.local(opening.departure, opening.zone))",
        details: ["opensAt": ISO8601DateFormatter().string(from: opening.opens)])
    }
    let last = windows.count - 1
    let closed = windows[last]
    throw ServiceError.refused(
      "check_in_closed",
      "check-in for \(describe(last)) closed at \(CheckInWindow.local(closed.closes, closed.zone)), \(closed.international ? 60 : 45) minutes before its \(closed.international ? "international" : "domestic") departure at \(CheckInWindow.local(closed.departure, closed.zone)): see the airline at the airport",
      details: ["closedAt": ISO8601DateFormatter().string(from: closed.closes)])
  }

  private func seatMap(of leg: BookedFlight.Leg, _ booked: BookedFlight, _ db: Database) throws -> FlightSeatMap {
    let rows = try db.query(
      "SELECT seat, reservation_id FROM seat_assignments WHERE flight = ? AND date = ?", leg.flight.code,
      leg.date.description)
    var taken: [SeatNumber] = []
    for row in rows where (try row.get("reservation_id", as: String.self)) != booked.reservation.id {
      if let seat = try? SeatNumber(parsing: try row.get("seat")) { taken.append(seat) }
    }
    return FlightSeatMap(
      leg: leg.index, flight: leg.flight, date: leg.date, from: leg.from, to: leg.to, cabin: booked.cabin,
      map: seatMap(aircraft: leg.aircraft), taken: taken.sorted(),
      assignments: try assignments(booked, legs: [leg.index], db))
  }

  private func assignments(_ booked: BookedFlight, legs: Set<Int>?, _ db: Database) throws -> [SeatAssignment] {
    var seats: [String: SeatNumber] = [:]
    for row in try db.query(
      "SELECT passenger, leg, seat FROM seat_assignments WHERE reservation_id = ?", booked.reservation.id)
    {
      let key = "\(try row.get("passenger", as: Int64.self)).\(try row.get("leg", as: Int64.self))"
      seats[key] = try? SeatNumber(parsing: try row.get("seat"))
    }
    var sequences: [String: Int] = [:]
    for row in try db.query(
      "SELECT passenger, leg, sequence FROM check_ins WHERE reservation_id = ? AND cancelled = 0", booked.reservation.id
    ) {
      let key = "\(try row.get("passenger", as: Int64.self)).\(try row.get("leg", as: Int64.self))"
      sequences[key] = Int(try row.get("sequence", as: Int64.self))
    }
    var result: [SeatAssignment] = []
    for leg in booked.legs where legs?.contains(leg.index) ?? true {
      for (passenger, name) in booked.passengers.enumerated() {
        let key = "\(passenger).\(leg.index)"
        result.append(
          SeatAssignment(
            passenger: name, leg: leg.index, flight: leg.flight, date: leg.date, from: leg.from, to: leg.to,
            seat: seats[key], checkedIn: sequences[key] != nil, sequence: sequences[key]))
      }
    }
    return result
  }

  private func sequence(_ booked: BookedFlight, passenger: Int, leg: Int, _ db: Database) throws -> Int? {
    let row = try db.queryOne(
      "SELECT sequence FROM check_ins WHERE reservation_id = ? AND passenger = ? AND leg = ? AND cancelled = 0",
      booked.reservation.id, Int64(passenger), Int64(leg))
    return try row.map { Int(try $0.get("sequence", as: Int64.self)) }
  }

  private func seat(_ booked: BookedFlight, passenger: Int, leg: Int, _ db: Database) throws -> SeatNumber? {
    let row = try db.queryOne(
      "SELECT seat FROM seat_assignments WHERE reservation_id = ? AND passenger = ? AND leg = ?",
      booked.reservation.id, Int64(passenger), Int64(leg))
    return row.flatMap { try? SeatNumber(parsing: try $0.get("seat")) }
  }

  // MARK: Seats

  /// Gives the chosen seats (checked against the map, the cabin, the blocked and taken seats,
  /// the window and check-in), in the open transaction.
  private func apply(_ choices: [SeatChoice], _ booked: BookedFlight, now: Date, _ db: Database) throws {
    var chosen = Set<String>()
    for choice in choices {
      guard booked.legs.indices.contains(choice.leg) else {
        throw ServiceError.invalid(
          "invalid_leg",
          "leg \(choice.leg + 1) does not exist: reservation \(booked.reservation.id) has \(booked.legs.count) leg(s)")
      }
      let leg = booked.legs[choice.leg]
      let passenger = try booked.passenger(named: choice.passenger)
      let name = booked.passengers[passenger]
      guard chosen.insert("\(choice.leg).\(choice.seat)").inserted else {
        throw ServiceError.invalid("duplicate_seat", "seat \(choice.seat) is chosen twice on \(leg.flight)")
      }
      let window = window(leg.direction, booked)
      guard now < leg.departure else {
        throw ServiceError.refused("flight_departed", "\(leg.flight) \(leg.from) → \(leg.to) has departed")
      }
      guard now < window.closes else {
        throw ServiceError.refused(
          "seat_selection_closed",
          "seats on \(leg.flight) can no longer be chosen online: check-in closed at \(CheckInWindow.local(window.closes, window.zone))"
        )
      }
      if try sequence(booked, passenger: passenger, leg: choice.leg, db) != nil {
        if try seat(booked, passenger: passenger, leg: choice.leg, db) == choice.seat { continue }
        throw ServiceError.refused(
          "already_checked_in",
          "\(name) is checked in on \(leg.flight): seats of checked-in passengers are changed at the airport")
      }
      let map = seatMap(aircraft: leg.aircraft)
      guard let layout = map.cabinLayout(of: choice.seat) else {
        let rows = map.cabins.flatMap(\.rows)
        throw ServiceError.invalid(
          "invalid_seat",
          "\(choice.seat) is not a seat of the \(map.aircraftName ?? map.aircraft) on \(leg.flight): rows \(rows.first ?? 1)–\(rows.last ?? 1), see 'booking seats \(booked.reservation.id)'"
        )
      }
      guard layout.cabin == booked.cabin else {
        throw ServiceError.refused(
          "seat_in_other_cabin",
          "\(choice.seat) is in \(layout.cabin.displayName.lowercased()); this booking is in \(booked.cabin.displayName.lowercased())"
        )
      }
      guard !map.blocked.contains(choice.seat) else {
        throw ServiceError.refused("seat_blocked", "\(choice.seat) on \(leg.flight) is blocked: it is not sold")
      }
      if let holder = try db.queryOne(
        "SELECT reservation_id, passenger FROM seat_assignments WHERE flight = ? AND date = ? AND seat = ?",
        leg.flight.code, leg.date.description, choice.seat.description)
      {
        let holderReservation: String = try holder.get("reservation_id")
        let holderPassenger = Int(try holder.get("passenger", as: Int64.self))
        if holderReservation == booked.reservation.id && holderPassenger == passenger { continue }
        let whose =
          holderReservation == booked.reservation.id ? " by \(booked.passengers[holderPassenger]) of this booking" : ""
        throw ServiceError.refused(
          "seat_taken", "seat \(choice.seat) on \(leg.flight) is taken\(whose): choose another one",
          details: ["seat": choice.seat.description])
      }
      try db.run(
        "DELETE FROM seat_assignments WHERE reservation_id = ? AND passenger = ? AND leg = ?", booked.reservation.id,
        Int64(passenger), Int64(choice.leg))
      try db.run(
        "INSERT INTO seat_assignments (flight, date, seat, reservation_id, passenger, leg) VALUES (?, ?, ?, ?, ?, ?)",
        leg.flight.code, leg.date.description, choice.seat.description, booked.reservation.id, Int64(passenger),
        Int64(choice.leg))
    }
  }

  /// Seats `passengers` of `leg` who have none, together when the map allows.
  private func seatRest(leg: BookedFlight.Leg, passengers: [Int], _ booked: BookedFlight, _ db: Database) throws {
    let unseated = try passengers.filter { try seat(booked, passenger: $0, leg: leg.index, db) == nil }
    guard !unseated.isEmpty else { return }
    let map = seatMap(aircraft: leg.aircraft)
    var held = Set<SeatNumber>()
    var companions: [SeatNumber] = []
    for row in try db.query(
      "SELECT seat, reservation_id FROM seat_assignments WHERE flight = ? AND date = ?", leg.flight.code,
      leg.date.description)
    {
      guard let seat = try? SeatNumber(parsing: try row.get("seat")) else { continue }
      held.insert(seat)
      if try row.get("reservation_id", as: String.self) == booked.reservation.id { companions.append(seat) }
    }
    // Next to a companion already seated when there is room there.
    guard
      let seats = SeatPicker.pick(
        unseated.count, cabin: booked.cabin, map: map, near: companions.sorted(), free: { !held.contains($0) })
    else {
      throw ServiceError.refused(
        "no_seat_free", "\(leg.flight) has no free seat left in \(booked.cabin.displayName.lowercased())")
    }
    for (passenger, seat) in zip(unseated, seats) {
      try db.run(
        "INSERT INTO seat_assignments (flight, date, seat, reservation_id, passenger, leg) VALUES (?, ?, ?, ?, ?, ?)",
        leg.flight.code, leg.date.description, seat.description, booked.reservation.id, Int64(passenger),
        Int64(leg.index))
    }
  }

  // MARK: Boarding passes

  private func storedPass(_ booked: BookedFlight, passenger: Int, direction: Int, _ db: Database) throws
    -> IssuedBoardingPass?
  {
    try db.queryOne(
      "SELECT * FROM boarding_passes WHERE reservation_id = ? AND passenger = ? AND direction = ?",
      booked.reservation.id, Int64(passenger), Int64(direction)
    ).map { try Self.pass($0, booked) }
  }

  private static func pass(_ row: Row, _ booked: BookedFlight) throws -> IssuedBoardingPass {
    let passenger = Int(try row.get("passenger", as: Int64.self))
    let legs = (try row.get("legs", as: String.self)).split(separator: ",").compactMap { Int($0) }
    return IssuedBoardingPass(
      passenger: booked.passengers.indices.contains(passenger) ? booked.passengers[passenger] : "",
      direction: Int(try row.get("direction", as: Int64.self)), legs: legs, bcbp: try row.get("bcbp"),
      issuedAt: try row.get("issued_at"))
  }

  private func ticket(_ booked: BookedFlight, passenger: Int, _ db: Database) throws -> String {
    if let row = try db.queryOne(
      "SELECT number FROM tickets WHERE reservation_id = ? AND passenger = ?", booked.reservation.id, Int64(passenger))
    {
      return try row.get("number")
    }
    let count: Int64 = try db.queryOne("SELECT COUNT(*) AS n FROM tickets")?.get("n") ?? 0
    let prefix = 100 + Int(fnv1a(booked.legs[0].flight.carrier) % 900)
    let number = "\(prefix)2" + String(format: "%09lld", count + 1)
    try db.run(
      "INSERT INTO tickets (reservation_id, passenger, number) VALUES (?, ?, ?)", booked.reservation.id,
      Int64(passenger), number)
    return number
  }

  private func issuePass(_ booked: BookedFlight, passenger: Int, direction: Int, now: Date, _ db: Database) throws {
    let legs = booked.directions[direction].map { booked.legs[$0] }
    let name = booked.passengers[passenger]
    let person =
      (try? PassengerName(parsing: name))
      ?? PassengerName(given: "", family: name)
    let ticket = try ticket(booked, passenger: passenger, db)
    let allowance =
      switch booked.cabin {
      case .economy: "1PC"
      case .premium, .business: "2PC"
      case .first: "3PC"
      }
    var bcbpLegs: [BoardingPass.Leg] = []
    for leg in legs {
      guard let seat = try seat(booked, passenger: passenger, leg: leg.index, db),
        let sequence = try sequence(booked, passenger: passenger, leg: leg.index, db)
      else { continue }
      let crossesBorder = country(leg.from) != country(leg.to) || country(leg.from) == nil
      bcbpLegs.append(
        BoardingPass.Leg(
          pnr: booked.reservation.locator ?? "", from: leg.from, to: leg.to, carrier: leg.flight.carrier,
          flightNumber: String(format: "%04d", leg.flight.number), dayOfYear: BCBPDates.dayOfYear(leg.date),
          compartment: String(booked.cabin.letter), seat: seat.bcbpField,
          checkInSequence: String(format: "%04d", sequence), passengerStatus: "1",
          airlineNumericCode: String(ticket.prefix(3)), documentSerialNumber: String(ticket.suffix(10)),
          internationalDocumentationVerification: crossesBorder ? "1" : "0", marketingCarrier: leg.flight.carrier,
          freeBaggageAllowance: allowance, fastTrack: booked.cabin >= .business ? "Y" : "N"))
    }
    guard !bcbpLegs.isEmpty else { return }
    let pass = BoardingPass(
      passengerName: BCBPName.field(given: person.given, family: person.family), electronicTicketIndicator: "E",
      version: BoardingPass.currentVersion, passengerDescription: "0", checkInSource: "W", issuanceSource: "W",
      issueDate: BCBPDates.issueDateField(LocalDate(now, in: legs[0].zone)), documentType: "B",
      issuer: legs[0].flight.carrier, legs: bcbpLegs)
    let signed = try signer.sign(pass)
    try db.run(
      """
      INSERT INTO boarding_passes (reservation_id, passenger, direction, legs, bcbp, issued_at)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (reservation_id, passenger, direction) DO UPDATE
        SET legs = excluded.legs, bcbp = excluded.bcbp, issued_at = excluded.issued_at
      """, booked.reservation.id, Int64(passenger), Int64(direction), legs.map { "\($0.index)" }.joined(separator: ","),
      try signed.encoded(), now)
  }
}
