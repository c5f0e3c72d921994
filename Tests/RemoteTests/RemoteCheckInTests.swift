import Backend
import Common
import CommonTesting
import Foundation
import Testing

@testable import Remote
@testable import Server

/// A settable clock shared by the server's backend (check-in windows, session expiry).
final class ServerClock: @unchecked Sendable {
  private let lock = NSLock()
  private var offset: TimeInterval = 0
  func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
  func set(_ instant: Date) { lock.withLock { offset = instant.timeIntervalSinceNow } }
}

/// An in-process `travel-server` on a free loopback port with a fresh store and a settable clock,
/// and the Remote clients of it (real HTTP through URLSession).
final class RemoteFixture: @unchecked Sendable {
  let directory = TemporaryDirectory(prefix: "remote-test")
  let clock = ServerClock()
  let server: TravelServer

  /// - Parameter flightStatus: the server's live flight status (none by default).
  init(flightStatus: (any FlightStatusService)? = nil) throws {
    let clock = clock
    server = try TravelServer(
      configuration: TravelServer.Configuration(
        port: 0, dataDirectory: directory.url,
        backendEnvironment: BackendEnvironment(
          now: { clock.now() }, sleep: { _ in }, passwordParameters: .fastForTests, sessionLifetime: 400 * 86400),
        accessLog: { _ in }, flightStatus: flightStatus))
  }

  deinit { server.shutdown(timeout: 3) }

  func api(token: String? = nil) -> APIClient { APIClient(server: server.baseURL, timeout: 20, token: { token }) }

  /// Signs `email` up and in over the API, with a card; returns the token.
  func traveller(_ email: String, first: String = "Ada", last: String = "Lovelace") throws -> String {
    let accounts = RemoteAccounts(api: api())
    _ = try accounts.signUp(email: email, password: "correct horse battery", firstName: first, lastName: last)
    let token = try accounts.signIn(email: email, password: "correct horse battery").token
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
    _ = try accounts.addCard(
      NewPaymentCard(number: "4242424242424242", expiryMonth: 12, expiryYear: year, cvc: "123"), token: token)
    return token
  }

  /// Books the first nonstop SFO→JFK flight 40 days ahead for `passengers`; returns the reservation
  /// and its departure.
  func bookFlight(_ token: String, passengers: [String]) throws -> (Reservation, Date) {
    let flights = RemoteFlights(api: api(token: token))
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "America/Los_Angeles")!)
    let offers = try flights.search(
      FlightSearchRequest(
        origin: "SFO", destination: "JFK", departureDate: date, adults: passengers.count, maxStops: 0, limit: 5))
    let offer = try #require(offers.first)
    let reservation = try flights.book(
      FlightBookingRequest(offerID: offer.id, passengers: try passengers.map(PassengerName.init(parsing:))),
      token: token)
    return (reservation, offer.outbound.departure.instant)
  }
}

@Suite(.serialized, .timeLimit(.minutes(2))) struct RemoteCheckInTests {
  @Test func seatsCheckInAndBoardingPassesGoThroughTheServer() throws {
    let fixture = try RemoteFixture()
    let token = try fixture.traveller("ada@example.com")
    let (reservation, departure) = try fixture.bookFlight(token, passengers: ["Ada Lovelace", "Charles Babbage"])
    let checkIn = RemoteCheckIn(api: fixture.api())

    // The seat map comes from the server's store, with the booking's passengers.
    let maps = try checkIn.seatMaps(SeatMapRequest(reservationID: reservation.id), token: token)
    #expect(maps.reservationID == reservation.id)
    #expect(maps.passengers == ["Ada Lovelace", "Charles Babbage"])
    let leg = try #require(maps.legs.first)
    let free = try #require(
      leg.map.cabins.first { $0.cabin == leg.cabin }.flatMap { cabin in
        cabin.rows.lazy.flatMap { row in cabin.letters.map { "\(row)\($0)" } }
          .compactMap { try? SeatNumber(parsing: $0) }
          .first { leg.state(of: $0) == .available }
      })

    // Choosing a seat, then refusals keep their code and kind across the wire.
    let chosen = try checkIn.assignSeats(
      SeatAssignmentRequest(
        reservationID: reservation.id, choices: [SeatChoice(passenger: "Ada Lovelace", leg: 0, seat: free)]),
      token: token)
    #expect(chosen.assignments.first { $0.passenger == "Ada Lovelace" }?.seat == free)
    do {
      _ = try checkIn.checkIn(CheckInRequest(reservationID: reservation.id), token: token)
      Issue.record("checked in 40 days before the flight")
    } catch let error as ServiceError {
      #expect(error.code == "check_in_not_open" && error.kind == .refused, "\(error)")
      #expect(error.message.contains("opens at"), "\(error.message)")
    }

    // Inside the window (the server's clock): checked in, passes signed by the server.
    fixture.clock.set(departure.addingTimeInterval(-20 * 3600))
    let done = try checkIn.checkIn(CheckInRequest(reservationID: reservation.id), token: token)
    #expect(done.reservationID == reservation.id)
    #expect(done.assignments.count == 2 && done.assignments.allSatisfy { $0.checkedIn && $0.seat != nil })
    #expect(done.assignments.first { $0.passenger == "Ada Lovelace" }?.seat == free)
    #expect(Set(done.assignments.compactMap(\.sequence)) == [1, 2])
    #expect(done.boardingPasses.count == 2)

    let passes = try checkIn.boardingPasses(BoardingPassesRequest(reservationID: reservation.id), token: token)
    #expect(passes.reservationID == reservation.id)
    #expect(passes.boardingPasses == done.boardingPasses)
    let bcbp = try #require(passes.boardingPasses.first?.bcbp)
    #expect(try checkIn.verify(PassVerificationRequest(bcbp: bcbp)).signature == .valid)

    let pass = try BCBPParser.parse(bcbp).pass
    let match = try checkIn.matchTrip(TripMatchRequest(pass: pass), token: token)
    #expect(match.reservation?.id == reservation.id)
    #expect(match.legs == [0])
  }

  @Test func anotherTravellersTripIsNotFoundAndNoTokenIsRefused() throws {
    let fixture = try RemoteFixture()
    let ada = try fixture.traveller("ada@example.com")
    let grace = try fixture.traveller("grace@example.com", first: "Grace", last: "Hopper")
    let (reservation, _) = try fixture.bookFlight(ada, passengers: ["Ada Lovelace"])
    let checkIn = RemoteCheckIn(api: fixture.api())
    do {
      _ = try checkIn.seatMaps(SeatMapRequest(reservationID: reservation.id), token: grace)
      Issue.record("Grace read Ada's seat map")
    } catch let error as ServiceError {
      #expect(error.kind == .notFound, "\(error)")
    }
    do {
      _ = try checkIn.boardingPasses(BoardingPassesRequest(reservationID: reservation.id), token: "not-a-token")
      Issue.record("a wrong token read boarding passes")
    } catch let error as ServiceError {
      #expect(error.kind == .unauthenticated, "\(error)")
    }
  }
}
