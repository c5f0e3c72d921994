import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

/// A signed-in traveller with a card, booking real flights of the world network into the test
/// backend's store, and the check-in service over that store; one clock for all of it.
final class CheckInFixture: @unchecked Sendable {
  let backend: TestBackend
  let token: String
  let engine: FlightEngine
  let booking: FlightBookingEngine
  let checkIn: any CheckInService

  init(now: Date = TestBackend.fixedStart) throws {
    backend = try TestBackend(now: now)
    token = try backend.signedIn()
    try backend.addCard(token: token)
    let clock = backend.clock
    engine = FlightEngine(
      network: FlightsFixtures.world, seats: SQLiteFlightSeats(database: backend.services.database),
      resolvePlace: FlightsWiring.resolver(try ReferenceData.shared()),
      suggestAirports: FlightsWiring.suggester(try ReferenceData.shared()), now: { clock.withLock { $0 } })
    booking = FlightBookingEngine(engine: engine, ledger: backend.services.ledger)
    checkIn = backend.services.checkInService
  }

  /// The first nonstop offer from `from` to `to` on `date` leaving after `earliestHour` local.
  func offer(
    _ from: String, _ to: String, _ date: LocalDate, adults: Int = 1, cabin: Cabin = .economy, earliestHour: Int = 0
  ) throws -> FlightOffer {
    let offers = try engine.search(
      FlightSearchRequest(
        origin: from, destination: to, departureDate: date, adults: adults, cabin: cabin, maxStops: 0,
        sort: .departure, limit: 100))
    return try #require(offers.first { $0.outbound.departure.localMinuteOfDay >= earliestHour * 60 })
  }

  /// Books the flights of `offer` at today's price (each seat sold raises it).
  func book(_ offer: FlightOffer, _ passengers: [String]) throws -> Reservation {
    let current = try engine.offer(offer.id)
    return try booking.book(
      FlightBookingRequest(offerID: current.id, passengers: try passengers.map(PassengerName.init(parsing:))),
      token: token)
  }

  func set(_ instant: Date) { backend.clock.withLock { $0 = instant } }
}

@Suite(.serialized) struct CheckInWindowTests {
  @Test func domestic_opens24HoursBefore_closes45MinutesBefore() throws {
    let fixture = try CheckInFixture()
    let date = LocalDate("2026-10-20")!
    let offer = try fixture.offer("SFO", "JFK", date)
    let departure = offer.outbound.departure.instant
    let first = try fixture.book(offer, ["Ada Lovelace"])
    let second = try fixture.book(offer, ["Grace Hopper"])
    let zone = TimeZone(identifier: "America/Los_Angeles")!

    fixture.set(departure.addingTimeInterval(-24 * 3600 - 60))
    do {
      _ = try fixture.checkIn.checkIn(CheckInRequest(reservationID: first.id), token: fixture.token)
      Issue.record("check-in before the window opened")
    } catch let error as ServiceError {
      #expect(error.code == "check_in_not_open" && error.kind == .refused)
      let opens = CheckInWindow.local(departure.addingTimeInterval(-24 * 3600), zone)
      #expect(error.message.contains("opens at \(opens)"), "\(error.message)")
      #expect(error.message.contains("America/Los_Angeles (UTC-07:00)"))
    }
    fixture.set(departure.addingTimeInterval(-24 * 3600 + 60))
    let done = try fixture.checkIn.checkIn(CheckInRequest(reservationID: first.id), token: fixture.token)
    #expect(done.boardingPasses.count == 1 && done.assignments.allSatisfy(\.checkedIn))

    fixture.set(departure.addingTimeInterval(-44 * 60))
    #expect(
      errorCode { _ = try fixture.checkIn.checkIn(CheckInRequest(reservationID: second.id), token: fixture.token) }
        == "check_in_closed")
    do {
      _ = try fixture.checkIn.checkIn(CheckInRequest(reservationID: second.id), token: fixture.token)
    } catch let error as ServiceError {
      #expect(error.message.contains("45 minutes before its domestic departure"), "\(error.message)")
      #expect(error.message.contains(CheckInWindow.local(departure.addingTimeInterval(-45 * 60), zone)))
    }
    fixture.set(departure.addingTimeInterval(-46 * 60))
    #expect(try fixture.checkIn.checkIn(CheckInRequest(reservationID: second.id), token: fixture.token).direction == 0)
  }

  @Test func international_closes60MinutesBefore() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "LHR", LocalDate("2026-10-20")!)
    let departure = offer.outbound.departure.instant
    let reservation = try fixture.book(offer, ["Ada Lovelace"])
    fixture.set(departure.addingTimeInterval(-59 * 60))
    #expect(
      errorCode { _ = try fixture.checkIn.checkIn(CheckInRequest(reservationID: reservation.id), token: fixture.token) }
        == "check_in_closed")
    fixture.set(departure.addingTimeInterval(-61 * 60))
    let done = try fixture.checkIn.checkIn(CheckInRequest(reservationID: reservation.id), token: fixture.token)
    let pass = try BCBPParser.parse(try #require(done.boardingPasses.first).bcbp).pass
    #expect(pass.legs[0].internationalDocumentationVerification == "1")
  }

  /// 2026-11-01 is 25 hours long in California: 24 elapsed hours before an 08:05 departure that
  /// day is 09:05 (PDT) the day before.
  @Test func daylightSavingDay_opensOnElapsedTime() throws {
    let fixture = try CheckInFixture(now: Date(timeIntervalSince1970: 1_791_600_000))  // 2026-10-10
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-11-01")!, earliestHour: 4)
    let departure = offer.outbound.departure
    let reservation = try fixture.book(offer, ["Ada Lovelace"])
    fixture.set(departure.instant.addingTimeInterval(-25 * 3600))
    do {
      _ = try fixture.checkIn.checkIn(CheckInRequest(reservationID: reservation.id), token: fixture.token)
      Issue.record("check-in 25 hours before departure")
    } catch let error as ServiceError {
      let minute = departure.localMinuteOfDay
      let expected = String(format: "2026-10-31 %02d:%02d", minute / 60 + 1, minute % 60)
      #expect(error.message.contains("opens at \(expected) America/Los_Angeles (UTC-07:00)"), "\(error.message)")
      #expect(
        error.message.contains("departure at 2026-11-01 \(departure.localTimeText) America/Los_Angeles (UTC-08:00)"))
    }
  }
}

@Suite(.serialized) struct CheckInSeatTests {
  @Test func everyAircraftTypeOfTheSchedule_hasASeatMapOfItsCapacity() {
    #expect(FlightsFixtures.world.aircraft.count > 50)
    var blockedSomewhere = false
    for model in FlightsFixtures.world.aircraft {
      let map = SeatMapLayouts.map(for: model)
      for cabin in Cabin.allCases {
        #expect(map.capacity(of: cabin) == Int(model.seats[cabin.index]), "\(model.code) \(cabin)")
      }
      #expect(map.cabins.allSatisfy { !$0.letters.contains("I") && !$0.rows.contains(13) })
      #expect(!map.exitRows.isEmpty && map.exitRows.allSatisfy { row in map.cabins.contains { $0.rows.contains(row) } })
      blockedSomewhere = blockedSomewhere || !map.blocked.isEmpty
      #expect(Set(map.seats).count == map.seats.count)
    }
    #expect(blockedSomewhere)
    let a320 = SeatMapLayouts.map(for: AircraftCatalog.model(code: "320", names: [:]))
    #expect(a320.cabins.map(\.cabin) == [.business, .economy])
    #expect(a320.cabins.last?.groups == [["A", "B", "C"], ["D", "E", "F"]])
  }

  @Test func automaticSeats_keepABookingTogether() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!, adults: 3)
    let reservation = try fixture.book(offer, ["Ada Lovelace", "Charles Babbage", "Grace Hopper"])
    let response = try fixture.checkIn.assignSeats(
      SeatAssignmentRequest(reservationID: reservation.id, assignRest: true), token: fixture.token)
    let seats = response.assignments.compactMap(\.seat)
    #expect(seats.count == 3 && Set(seats.map(\.row)).count == 1, "\(seats)")
    let maps = try fixture.checkIn.seatMaps(SeatMapRequest(reservationID: reservation.id), token: fixture.token)
    let group = try #require(
      maps.legs[0].map.cabinLayout(of: seats[0])?.groups.first { $0.contains(String(seats[0].letter)) })
    #expect(seats.allSatisfy { group.contains(String($0.letter)) }, "\(seats)")
  }

  /// One passenger chose a seat; `--auto` seats the others beside them (not at the front of the
  /// cabin, where a QA run found the second passenger of a booking).
  @Test func automaticSeats_sitBesideACompanionWhoChose() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!, adults: 3)
    let reservation = try fixture.book(offer, ["Ada Lovelace", "Charles Babbage", "Grace Hopper"])
    let maps = try fixture.checkIn.seatMaps(SeatMapRequest(reservationID: reservation.id), token: fixture.token)
    let economy = try #require(maps.legs[0].map.cabins.last)
    let row = economy.rows[economy.rows.count / 2]
    let first = try #require(economy.groups.first)
    let chosen = SeatNumber(row: row, letter: Character(first[0]))
    _ = try fixture.checkIn.assignSeats(
      SeatAssignmentRequest(
        reservationID: reservation.id, choices: [SeatChoice(passenger: "Ada Lovelace", leg: 0, seat: chosen)]),
      token: fixture.token)
    let response = try fixture.checkIn.assignSeats(
      SeatAssignmentRequest(reservationID: reservation.id, assignRest: true), token: fixture.token)
    let seats = Set(response.assignments.compactMap(\.seat))
    #expect(seats == Set(first.prefix(3).map { SeatNumber(row: row, letter: Character($0)) }), "\(seats)")
  }

  /// With the seats beside the companion taken by others, the next nearest: across the aisle in
  /// the same row before another row.
  @Test func automaticSeats_crossTheAisleBeforeLeavingTheRow() throws {
    let map = SeatMapLayouts.map(for: AircraftCatalog.model(code: "320", names: [:]))
    let economy = try #require(map.cabins.last)
    let row = economy.rows[4]
    let taken: Set<SeatNumber> = [SeatNumber(row: row, letter: "A"), SeatNumber(row: row, letter: "B")]
    let companion = SeatNumber(row: row, letter: "C")
    let seats = SeatPicker.pick(
      1, cabin: .economy, map: map, near: [companion], free: { !taken.contains($0) && $0 != companion })
    #expect(seats == [SeatNumber(row: row, letter: "D")])
    let full = SeatPicker.pick(
      1, cabin: .economy, map: map, near: [companion],
      free: { $0.row != row && !taken.contains($0) })
    #expect(full?.first.map { abs($0.row - row) <= 2 } == true, "\(String(describing: full))")
  }

  @Test func chosenSeats_areCheckedAgainstTheMap() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!, adults: 2)
    let reservation = try fixture.book(offer, ["Ada Lovelace", "Charles Babbage"])
    let maps = try fixture.checkIn.seatMaps(SeatMapRequest(reservationID: reservation.id), token: fixture.token)
    let map = maps.legs[0].map
    let economy = try #require(map.cabins.last)
    let business = try #require(map.cabins.first { $0.cabin == .business })
    let free = SeatNumber(row: economy.rows[2], letter: "A")
    func choose(_ passenger: String, _ seat: SeatNumber) -> String? {
      errorCode {
        _ = try fixture.checkIn.assignSeats(
          SeatAssignmentRequest(
            reservationID: reservation.id, choices: [SeatChoice(passenger: passenger, leg: 0, seat: seat)]),
          token: fixture.token)
      }
    }
    #expect(choose("ada lovelace", free) == nil)
    #expect(choose("Charles Babbage", free) == "seat_taken")
    #expect(choose("Charles Babbage", SeatNumber(row: 99, letter: "Z")) == "invalid_seat")
    #expect(choose("Charles Babbage", SeatNumber(row: business.rows[0], letter: "A")) == "seat_in_other_cabin")
    #expect(choose("Alan Turing", free) == "unknown_passenger")
    if let blocked = map.blocked.first(where: { economy.rows.contains($0.row) }) {
      #expect(choose("Charles Babbage", blocked) == "seat_blocked")
    }
  }

  /// Eight connections race for one seat on the same flight, each for its own booking: one gets
  /// it, seven are told it is taken; the store holds it once.
  @Test(.timeLimit(.minutes(2))) func raceForOneSeat_oneWinner() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!)
    let reservations = try (0..<8).map { try fixture.book(offer, ["Racer Number\(String(repeating: "x", count: $0))"]) }
    let layout = try #require(
      try fixture.checkIn.seatMaps(SeatMapRequest(reservationID: reservations[0].id), token: fixture.token).legs[0].map
        .cabins.last)
    let seat = SeatNumber(row: layout.rows[5], letter: Character(layout.letters[1]))
    let outcomes = Locked<[String]>([])
    let group = DispatchGroup()
    for reservation in reservations {
      let connection = try fixture.backend.secondConnection()
      let token = fixture.token
      group.enter()
      DispatchQueue.global().async {
        let code = errorCode {
          _ = try connection.checkInService.assignSeats(
            SeatAssignmentRequest(
              reservationID: reservation.id,
              choices: [
                SeatChoice(
                  passenger: reservation.details["passengers"]!.arrayValue![0].stringValue!, leg: 0, seat: seat)
              ]),
            token: token)
        }
        outcomes.withLock { $0.append(code ?? "ok") }
        group.leave()
      }
    }
    group.wait()
    let codes = outcomes.withLock { $0 }
    #expect(codes.filter { $0 == "ok" }.count == 1, "\(codes)")
    #expect(codes.filter { $0 == "seat_taken" }.count == 7, "\(codes)")
    let held = try fixture.backend.services.database.query(
      "SELECT * FROM seat_assignments WHERE seat = ?", seat.description)
    #expect(held.count == 1)
  }

  /// Four bookings of two passengers check in at once on the same flight: sequence numbers
  /// 1 … 8, each once.
  @Test(.timeLimit(.minutes(2))) func concurrentCheckIns_sequenceNumbersAreGaplessAndUnique() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!, adults: 2)
    let reservations = try (0..<4).map { index in
      try fixture.book(
        offer,
        [
          "First Traveller\(String(repeating: "a", count: index))",
          "Second Traveller\(String(repeating: "b", count: index))",
        ])
    }
    fixture.set(offer.outbound.departure.instant.addingTimeInterval(-3 * 3600))
    let group = DispatchGroup()
    let failures = Locked<[String]>([])
    for reservation in reservations {
      let connection = try fixture.backend.secondConnection()
      let token = fixture.token
      group.enter()
      DispatchQueue.global().async {
        if let code = errorCode({
          _ = try connection.checkInService.checkIn(CheckInRequest(reservationID: reservation.id), token: token)
        }) {
          failures.withLock { $0.append(code) }
        }
        group.leave()
      }
    }
    group.wait()
    #expect(failures.withLock { $0 }.isEmpty)
    let rows = try fixture.backend.services.database.query(
      "SELECT sequence FROM check_ins WHERE flight = ? ORDER BY sequence", offer.segments[0].flight.code)
    #expect(try rows.map { try $0.get("sequence", as: Int64.self) } == Array(1...8))
    let seats = try fixture.backend.services.database.query("SELECT seat FROM seat_assignments")
    #expect(Set(try seats.map { try $0.get("seat", as: String.self) }).count == 8)
  }
}

@Suite(.serialized) struct BoardingPassIssueTests {
  @Test func pass_holdsTheBookingSeatSequenceAndASignature() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!, adults: 2, cabin: .business)
    let reservation = try fixture.book(offer, ["Jürgen Strauß", "Ada Lovelace"])
    let departure = offer.outbound.departure.instant
    fixture.set(departure.addingTimeInterval(-5 * 3600))
    let response = try fixture.checkIn.checkIn(
      CheckInRequest(
        reservationID: reservation.id, passengers: ["Jürgen Strauß"],
        seats: [CheckInSeats(passenger: "Jürgen Strauß", seats: [SeatNumber(row: 2, letter: "A")])]),
      token: fixture.token)
    #expect(response.boardingPasses.count == 1)
    let issued = try #require(response.boardingPasses.first)
    let pass = try BCBPParser.parse(issued.bcbp).pass
    #expect(pass.passengerName == "STRAUSS/JUERGEN" && pass.version == "8" && pass.electronicTicketIndicator == "E")
    #expect(pass.documentType == "B" && pass.checkInSource == "W" && pass.issuer == offer.segments[0].flight.carrier)
    let leg = pass.legs[0]
    #expect(leg.pnr == reservation.locator && leg.from == "SFO" && leg.to == "JFK")
    #expect(leg.seat == "002A" && leg.checkInSequence == "0001" && leg.passengerStatus == "1" && leg.compartment == "J")
    #expect(leg.flightDisplay == offer.segments[0].flight.description)
    #expect(leg.ticketNumber?.count == 13 && leg.freeBaggageAllowance == "2PC" && leg.fastTrack == "Y")
    #expect(leg.internationalDocumentationVerification == "0")
    #expect(pass.flightDates(reference: LocalDate("2030-01-01")!) == [LocalDate("2026-10-20")])
    #expect(pass.securityType == "4" && pass.securityData.count == 96)

    let verify = { (text: String) in try fixture.checkIn.verify(PassVerificationRequest(bcbp: text)).signature }
    #expect(try verify(issued.bcbp) == .valid)
    #expect(try verify(issued.bcbp.replacingOccurrences(of: "002A", with: "003A")) == .unknown)
    #expect(try verify(String(issued.bcbp[..<issued.bcbp.firstIndex(of: "^")!])) == .absent)
    let stranger = try BoardingPassSigner.ephemeral().sign(pass)
    #expect(try verify(try stranger.encoded()) == .unknown)
    #expect(try BoardingPassSigner.ephemeral().verify(pass) == .unknown)

    // The key is owner-only; checking in again gives the same pass; the pass matches the trip.
    let key = fixture.backend.directory.url.appendingPathComponent(BoardingPassSigner.keyFileName).path
    let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let again = try fixture.checkIn.checkIn(
      CheckInRequest(reservationID: reservation.id, passengers: ["jürgen strauß"]), token: fixture.token)
    #expect(again.boardingPasses == response.boardingPasses)
    let match = try fixture.checkIn.matchTrip(TripMatchRequest(pass: pass), token: fixture.token)
    #expect(
      match.reservation?.id == reservation.id && match.legs == [0] && match.flightDates == [LocalDate("2026-10-20")])
    // A checked-in passenger's seat is changed at the airport.
    #expect(
      errorCode {
        _ = try fixture.checkIn.assignSeats(
          SeatAssignmentRequest(
            reservationID: reservation.id,
            choices: [SeatChoice(passenger: "Jürgen Strauß", leg: 0, seat: SeatNumber(row: 3, letter: "A"))]),
          token: fixture.token)
      } == "already_checked_in")
  }

  /// Reading another issuer's pass on a fresh data directory: unknown, and no key is made.
  @Test func verifying_neverMakesAKey() throws {
    let backend = try TestBackend()
    let pass = BoardingPass(
      passengerName: "DESMARAIS/LUC",
      legs: [
        BoardingPass.Leg(
          pnr: "ABC123", from: "YUL", to: "FRA", carrier: "AC", flightNumber: "0834", dayOfYear: 326,
          compartment: "J", seat: "001A", checkInSequence: "0025", passengerStatus: "1")
      ])
    let signed = try BoardingPassSigner.ephemeral().sign(pass)
    let status = try backend.services.checkInService.verify(PassVerificationRequest(bcbp: try signed.encoded()))
    #expect(status.signature == .unknown)
    let key = backend.directory.url.appendingPathComponent(BoardingPassSigner.keyFileName).path
    #expect(!FileManager.default.fileExists(atPath: key))
  }

  @Test func cancelling_freesTheSeats_andNeverReusesASequenceNumber() throws {
    let fixture = try CheckInFixture()
    let offer = try fixture.offer("SFO", "JFK", LocalDate("2026-10-20")!)
    let first = try fixture.book(offer, ["Ada Lovelace"])
    let second = try fixture.book(offer, ["Grace Hopper"])
    fixture.set(offer.outbound.departure.instant.addingTimeInterval(-3 * 3600))
    let layout = try #require(
      try fixture.checkIn.seatMaps(SeatMapRequest(reservationID: first.id), token: fixture.token).legs[0].map.cabins
        .last)
    let seat = SeatNumber(row: layout.rows[3], letter: Character(layout.letters[0]))
    _ = try fixture.checkIn.checkIn(
      CheckInRequest(reservationID: first.id, seats: [CheckInSeats(passenger: "Ada Lovelace", seats: [seat])]),
      token: fixture.token)
    _ = try fixture.backend.services.ledger.cancelReservation(id: first.id, token: fixture.token)
    #expect(
      try fixture.checkIn.boardingPasses(BoardingPassesRequest(reservationID: first.id), token: fixture.token)
        .boardingPasses.isEmpty)
    let later = try fixture.checkIn.checkIn(
      CheckInRequest(reservationID: second.id, seats: [CheckInSeats(passenger: "Grace Hopper", seats: [seat])]),
      token: fixture.token)
    #expect(later.assignments.first?.seat == seat && later.assignments.first?.sequence == 2)
  }
}
