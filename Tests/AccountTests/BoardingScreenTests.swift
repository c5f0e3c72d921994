import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Account

/// Check-in with the documented behaviour on one small aircraft (business rows 1–2 `AC DF`,
/// economy rows 3–8 `ABC DEF`, exit row 5, 8F blocked, 3A held by another booking), for the
/// Trips screens' tests.
final class FakeCheckIn: CheckInService, @unchecked Sendable {
  private let lock = NSLock()
  var passengers = ["Ada Lovelace", "Charles Babbage"]
  private var seats: [String: SeatNumber] = [:]
  private(set) var choices: [SeatChoice] = []
  /// What `checkIn` answers (nil: a pass per passenger).
  var refusal: ServiceError?

  let map = SeatMap(
    aircraft: "320", aircraftName: "Airbus A320",
    cabins: [
      SeatMap.CabinLayout(cabin: .business, rows: [1, 2], letters: ["A", "C", "D", "F"], aislesAfter: [1]),
      SeatMap.CabinLayout(
        cabin: .economy, rows: [3, 4, 5, 6, 7, 8], letters: ["A", "B", "C", "D", "E", "F"], aislesAfter: [2]),
    ],
    exitRows: [5], blocked: [SeatNumber(row: 8, letter: "F")])

  func legMap(_ id: String) -> FlightSeatMap {
    let assignments = passengers.map { name in
      SeatAssignment(
        passenger: name, leg: 0, flight: Flight(carrier: "UA", number: 1478), date: LocalDate("2026-12-20")!,
        from: "SFO", to: "JFK", seat: seats[name], checkedIn: false, sequence: nil)
    }
    return FlightSeatMap(
      leg: 0, flight: Flight(carrier: "UA", number: 1478), date: LocalDate("2026-12-20")!, from: "SFO", to: "JFK",
      cabin: .economy, map: map, taken: [SeatNumber(row: 3, letter: "A")], assignments: assignments)
  }

  func seatMaps(_ request: SeatMapRequest, token: String) throws -> SeatMapResponse {
    lock.withLock {
      SeatMapResponse(
        reservationID: request.reservationID, passengers: passengers, legs: [legMap(request.reservationID)])
    }
  }

  func assignSeats(_ request: SeatAssignmentRequest, token: String) throws -> SeatAssignmentResponse {
    try lock.withLock {
      for choice in request.choices {
        if choice.seat == SeatNumber(row: 3, letter: "A") || seats.values.contains(choice.seat) {
          throw ServiceError.refused("seat_taken", "seat \(choice.seat) on UA 1478 is taken: choose another one")
        }
        choices.append(choice)
        seats[choice.passenger] = choice.seat
      }
      return SeatAssignmentResponse(
        reservationID: request.reservationID, assignments: legMap(request.reservationID).assignments)
    }
  }

  static func bcbp(_ name: String, seat: String) -> String {
    (try? BoardingPass(
      passengerName: name, version: "8", issueDate: "6350",
      legs: [
        BoardingPass.Leg(
          pnr: "ABC123", from: "SFO", to: "JFK", carrier: "UA", flightNumber: "1478", dayOfYear: 354, compartment: "Y",
          seat: seat, checkInSequence: "0001", passengerStatus: "1")
      ]
    ).encoded()) ?? ""
  }

  func checkIn(_ request: CheckInRequest, token: String) throws -> CheckInResponse {
    if let refusal { throw refusal }
    let passes = passengers.enumerated().map { index, name in
      IssuedBoardingPass(
        passenger: name, direction: 0, legs: [0],
        bcbp: Self.bcbp(
          name.uppercased().split(separator: " ").reversed().joined(separator: "/"), seat: "00\(5 + index)C"),
        issuedAt: Date(timeIntervalSince1970: 1_797_000_000))
    }
    return CheckInResponse(reservationID: request.reservationID, direction: 0, assignments: [], boardingPasses: passes)
  }

  func boardingPasses(_ request: BoardingPassesRequest, token: String) throws -> BoardingPassesResponse {
    BoardingPassesResponse(
      reservationID: request.reservationID,
      boardingPasses: try checkIn(CheckInRequest(reservationID: request.reservationID), token: token).boardingPasses)
  }

  func verify(_ request: PassVerificationRequest) throws -> PassVerificationResponse {
    PassVerificationResponse(signature: .absent, reason: "no security data")
  }

  func matchTrip(_ request: TripMatchRequest, token: String) throws -> TripMatchResponse {
    TripMatchResponse(reservation: nil, legs: [], flightDates: [])
  }
}

/// A stand-in barcode: a 21 × 21 checkerboard with a 2-module quiet zone, any text.
struct FakeBarcodes: BarcodeRendering {
  func symbol(for text: String, symbology: BarcodeSymbology, maximumWidth: Int?) throws -> BarcodeSymbol {
    let size = 25
    let modules = (0..<(size * size)).map { index in
      let x = index % size
      let y = index / size
      return x >= 2 && y >= 2 && x < size - 2 && y < size - 2 && (x + y) % 2 == 0
    }
    return BarcodeSymbol(symbology: symbology, width: size, height: size, quietZone: 2, modules: modules)
  }

  func image(for text: String, symbology: BarcodeSymbology, format: BarcodeImageFormat, moduleSize: Int) throws -> Data
  {
    Data()
  }
}

@MainActor
@Suite struct BoardingScreenTests {
  let services = InMemoryServices()
  let checkIn = FakeCheckIn()
  let scheduler = DispatchQueue.test
  let backend = TestBackend(width: 80, height: 24)
  let queue = AccountScreenTests.ManualQueue()

  func client() -> AccountClient {
    var environment = services.accountEnvironment()
    environment.checkIn = checkIn
    environment.barcodes = FakeBarcodes()
    return AccountClient(environment: environment, scheduler: scheduler.eraseToAnyScheduler())
  }

  func settle() {
    for _ in 0..<10 {
      scheduler.advance()
      let work = queue.take()
      if work.isEmpty { return }
      for item in work { item() }
    }
  }

  func frame(_ app: InteractiveApp) -> String {
    settle()
    app.displayNow()
    return backend.text
  }

  /// The app on the Trips screen, with one flight booked.
  func tripsApp(
    exportDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"),
    backend: TestBackend? = nil
  ) throws -> InteractiveApp {
    let token = try services.signedInAda()
    services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK, UA 1478, 2026-12-20", createdAt: services.now,
      startsAt: Date(timeIntervalSince1970: 1_797_780_000))
    let screen = TripsScreen(model: TripsViewModel(client: client(), token: token), exportDirectory: exportDirectory)
    let app = InteractiveApp(
      name: "account", tabs: [AppTab("Account", root: screen)], backend: backend ?? self.backend,
      schedule: { [queue] in queue.add($0) })
    settle()
    return app
  }

  /// #14 (QA 5): at 80×24 the status column showed "…" on every row. The kind, the price and the
  /// status show whole at every size (the summary gives way), and the footer's hints are whole.
  @Test(arguments: [(80, 24), (100, 30), (132, 43)])
  func trips_statusAndPriceWhole_atEverySize(width: Int, height: Int) throws {
    let sized = TestBackend(width: width, height: height)
    let app = try tripsApp(backend: sized)
    settle()
    app.displayNow()
    let text = sized.text
    try assertSnapshot(text, named: "trips-\(width)x\(height)")
    let row = try #require(text.split(separator: "\n").first { $0.contains("flight") && $0.contains("SFO") })
    #expect(row.contains("confirmed"), "\(row)")
    #expect(row.contains("$"), "\(row)")
    let footer = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).last)
    #expect(footer.trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"), "\(footer)")
  }

  @Test func seats_arrowsMove_enterTakesTheSeat() throws {
    let app = try tripsApp()
    app.handle(.character("s"))
    settle()
    #expect(app.currentScreen.title == "Seats")
    try assertSnapshot(frame(app), named: "seat-map")
    // The cursor starts on the first free economy seat (3B: 3A is taken); → → is 3D, ↓ 4D.
    app.handle(.right)
    app.handle(.right)
    app.handle(.down)
    app.handle(.enter)
    settle()
    #expect(checkIn.choices == [SeatChoice(passenger: "Ada Lovelace", leg: 0, seat: SeatNumber(row: 4, letter: "D"))])
    // Tab: Charles Babbage; Enter on the same seat is refused, and says so.
    app.handle(.tab)
    app.handle(.down)
    app.handle(.up)
    app.handle(.enter)
    try assertSnapshot(frame(app), named: "seat-taken")
    #expect(frame(app).contains("is taken"))
  }

  @Test func checkIn_fromTrips_showsTheBoardingPass() throws {
    let app = try tripsApp()
    app.handle(.character("k"))
    settle()
    #expect(app.currentScreen.title == "Boarding pass")
    try assertSnapshot(frame(app), named: "boarding-pass")
    app.handle(.right)
    #expect(frame(app).contains("pass 2 of 2"))
    app.handle(.character("s"))
    #expect(frame(app).contains("QR · pass 2 of 2"))
  }

  /// #14 (QA 6): `e` saved the `.ics` into the working directory (a git checkout); it goes to the
  /// data directory's exports folder (made on the first export), and the screen says where.
  @Test func export_savesInTheExportsFolder_andSaysWhere() throws {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("trips-export-\(UUID())")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: data) }
    let exports = DataDirectory.exports(in: data)
    let app = try tripsApp(exportDirectory: exports)
    app.handle(.character("e"))
    settle()
    let files = try FileManager.default.contentsOfDirectory(atPath: exports.path).filter { $0.hasSuffix(".ics") }
    #expect(files.count == 1)
    let name = try #require(files.first)
    let text = try String(contentsOf: exports.appendingPathComponent(name), encoding: .utf8)
    #expect(text.hasPrefix("BEGIN:VCALENDAR"))
    #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/" + name))
    #expect(frame(app).contains("Saved \(name) in"))
    #expect(frame(app).contains("exports"))
  }

  @Test func checkIn_refused_saysWhenItOpens() throws {
    checkIn.refusal = ServiceError.refused(
      "check_in_not_open", "check-in for UA 1478 SFO → JFK opens at 2026-12-19 08:05 America/Los_Angeles (UTC-08:00)")
    let app = try tripsApp()
    app.handle(.character("k"))
    settle()
    #expect(app.currentScreen.title == "Trips")
    #expect(frame(app).contains("opens at 2026-12-19 08:05"))
  }
}
