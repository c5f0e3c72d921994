import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Booking

/// A morning at Frankfurt for the status screens: six departures (one delayed with a gate change,
/// one cancelled), on a clock that starts at 06:00 local (05:00 UTC) and runs 60 times faster than
/// the service's test scheduler (one second, one simulated minute).
@MainActor
struct FrankfurtMorning {
  static let date = LocalDate("2026-12-20")!
  let service = MemoryFlightStatus(start: ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z")!, speed: 60)
  let ui = DispatchQueue.test
  /// Real time for highlights, moved by hand.
  var now = Date(timeIntervalSince1970: 1_800_000_000)

  static func flight(
    _ code: String, _ to: String, _ time: String, block: Int, toZone: String = "Europe/London", aircraft: String = "320"
  ) -> FlightStatus {
    .fixture(
      code, from: "FRA", to: to, date: date, departure: time, blockMinutes: block, fromZone: "Europe/Berlin",
      toZone: toZone, aircraft: aircraft)
  }

  init() {
    service.nameAirport("FRA", name: "Frankfurt am Main Airport", city: "Frankfurt", timeZone: "Europe/Berlin")
    service.add(Self.flight("LH900", "LHR", "07:40", block: 100).day(gate: "A12"))
    service.add(Self.flight("BA903", "LHR", "08:05", block: 95).day(gate: "B3", terminal: "2", arrivalGate: "22"))
    var lh400 = Self.flight("LH400", "JFK", "08:30", block: 530, toZone: "America/New_York", aircraft: "744")
    lh400.codeshares = [Flight(code: "UA9070")!]
    service.add(lh400.day(gate: "B40", changedGate: "B44", delay: 25, delayCode: 93, arrivalGate: "7", belt: "5"))
    service.add(Self.flight("LH1020", "MAD", "08:45", block: 160, toZone: "Europe/Madrid").day(gate: "A20"))
    var cancelled = Self.flight("X3205", "PMI", "09:00", block: 130, toZone: "Europe/Madrid").day(gate: "C7")
    cancelled = Array(cancelled.prefix(2))
    var last = cancelled[1]
    last.status = .cancelled
    last.sequence = 3
    last.updatedAt = last.updatedAt!.addingTimeInterval(600)
    cancelled.append(last)
    service.add(cancelled)
    service.add(Self.flight("LH98", "MUC", "09:15", block: 55, toZone: "Europe/Berlin").day(gate: "A3"))
  }

  func statusModel() -> FlightStatusViewModel {
    let clock = Clock(self)
    return FlightStatusViewModel(
      service: service, mainQueue: ui.eraseToAnyScheduler(), backgroundQueue: ui.eraseToAnyScheduler(),
      now: { clock.now })
  }

  func boardModel() -> FlightBoardViewModel {
    let clock = Clock(self)
    return FlightBoardViewModel(
      service: service, mainQueue: ui.eraseToAnyScheduler(), backgroundQueue: ui.eraseToAnyScheduler(),
      now: { clock.now })
  }

  /// Moves the simulated clock by `minutes` (the service's scheduler at 60×) and delivers on the UI.
  func pass(minutes: Int) {
    for _ in 0..<minutes { service.scheduler.advance(by: .seconds(1)) }
    ui.advance()
  }

  /// The highlight clock (real time), shared by reference.
  final class Clock: @unchecked Sendable {
    var now: Date
    init(_ morning: FrankfurtMorning) { now = morning.now }
  }
}

@MainActor
@Suite struct FlightStatusViewModelTests {
  @Test func show_snapshotThenChanges_newestFirst_lastChangeHighlighted() {
    let morning = FrankfurtMorning()
    let model = morning.statusModel()
    model.show(flight: "lh 400", date: "")
    #expect(model.isLoading)
    morning.ui.advance()
    #expect(model.status?.flight == Flight(code: "LH400"))
    #expect(model.status?.status == .scheduled)
    #expect(model.changes.isEmpty)
    // 06:00 → 07:00 local: the gate (05:30 UTC), then the delay (06:00 UTC).
    morning.pass(minutes: 30)
    #expect(model.status?.departure.gate == "B40")
    #expect(model.isHighlighted(.departureGate))
    morning.pass(minutes: 30)
    #expect(model.status?.status == .delayed)
    #expect(model.status?.delays.first?.code == DelayCode(93))
    #expect(model.changes.count == 2)
    #expect(model.changes.first?.changed(.estimatedGateDeparture) == true)
    #expect(!model.isHighlighted(.departureGate))
  }

  @Test func show_badInput_saysWhatIsAccepted_andAsksNothing() {
    let morning = FrankfurtMorning()
    let model = morning.statusModel()
    model.show(flight: "L4", date: "")
    #expect(model.errorMessage == "Type an airline code and a flight number, like LH400.")
    model.show(flight: "LH400", date: "20/12")
    #expect(model.errorMessage == "Type the date as YYYY-MM-DD, or leave it empty for today.")
    model.show(flight: "LH401", date: "")
    morning.ui.advance()
    #expect(model.errorMessage == "no flight LH 401 in the schedule")
    #expect(model.status == nil)
  }

  @Test func codeshare_showsTheOperatingFlight() {
    let morning = FrankfurtMorning()
    let model = morning.statusModel()
    model.show(flight: "UA9070", date: "2026-12-20")
    morning.ui.advance()
    #expect(model.status?.flight == Flight(code: "LH400"))
  }
}

@MainActor
@Suite struct FlightBoardViewModelTests {
  @Test func load_rowsByScheduledTime_filtersAndSearch() {
    let morning = FrankfurtMorning()
    let model = morning.boardModel()
    model.load(airport: "fra", direction: .departures)
    morning.ui.advance()
    #expect(model.header?.airport == "FRA")
    #expect(model.rowCount == 6)
    #expect(
      (0..<model.rowCount).map { model.row($0).flight.code } == [
        "LH900", "BA903", "LH400", "LH1020", "X3205", "LH98",
      ])
    model.setFilter(.init(carrier: "lh"))
    #expect(model.rowCount == 4)
    model.setFilter(.init(carrier: "UA"))
    #expect(model.rowCount == 1, "a codeshare's carrier finds the operating flight")
    model.setFilter(.init(place: "LH"))
    #expect(model.rowCount == 2)
    model.setFilter(.init(search: "mad"))
    #expect(model.rowCount == 1)
    model.setFilter(.init())
    #expect(model.rowCount == 6)
  }

  @Test func updates_replaceTheirFlight_keepTheFilter_andHighlightTheCell() {
    let morning = FrankfurtMorning()
    let model = morning.boardModel()
    model.load(airport: "FRA", direction: .departures)
    morning.ui.advance()
    model.setFilter(.init(status: .delayed))
    #expect(model.rowCount == 0)
    morning.pass(minutes: 60)  // 07:00 local: LH 400's delay is announced
    #expect(model.rowCount == 1)
    #expect(model.row(0).flight.code == "LH400")
    #expect(model.isHighlighted(0, .status))
    #expect(model.applied > 3)
    #expect(model.gapsRecovered == 0)
    morning.pass(minutes: 80)
    #expect(model.rowCount == 0, "boarding now: no longer delayed")
  }

  @Test func aMissingChange_isFetchedAgain_nothingLostNothingTwice() throws {
    let morning = FrankfurtMorning()
    let model = morning.boardModel()
    model.load(airport: "FRA", direction: .departures)
    morning.ui.advance()
    let start = try #require(model.header?.sequence)
    morning.pass(minutes: 90)
    let sequence = try #require(model.header?.sequence)
    #expect(sequence > start + 2)
    // A change numbered two ahead arrives (as after a lost message): the model asks again from
    // the last one it applied, and the feed fills the gap in order.
    let board = try morning.service.board(airport: "FRA", date: nil, direction: .departures)
    let stray = FlightStatusUpdate(from: board.flights[0], to: board.flights[0])
    model.apply(FlightBoardUpdate(sequence: sequence + 2, update: stray))
    #expect(model.gapsRecovered == 1)
    #expect(model.header?.sequence == sequence)
    morning.ui.advance()
    morning.pass(minutes: 30)
    let caughtUp = try morning.service.board(airport: "FRA", date: nil, direction: .departures)
    #expect(model.header?.sequence == caughtUp.sequence)
    #expect((0..<model.rowCount).map(model.row) == caughtUp.flights)
  }
}

/// The Status and Board screens, drawn through the shell and the test backend.
@MainActor
@Suite struct FlightStatusScreenSnapshotTests {
  let morning = FrankfurtMorning()

  func app(_ screen: any Screen, width: Int = 80, height: Int = 24) -> (InteractiveApp, TestBackend) {
    let backend = TestBackend(width: width, height: height)
    return (
      InteractiveApp(name: "booking", tabs: [AppTab("Flights", root: screen)], backend: backend, schedule: { $0() }),
      backend
    )
  }

  @Test func statusScreen_delayedFlight_withItsChanges() throws {
    let screen = FlightStatusScreen(model: morning.statusModel())
    let (app, backend) = app(screen)
    for character in "LH400" { app.handle(.character(character)) }
    app.handle(.enter)
    morning.ui.advance()
    morning.pass(minutes: 130)  // 08:10 local: delayed, gate changed, not yet boarding
    app.displayNow()
    try assertSnapshot(backend.text, named: "status-delayed")
    #expect(backend.text.contains("gate changed to B44 (was B40)"))
  }

  @Test func boardScreen_departures_scrollsAndShowsStates() throws {
    let model = morning.boardModel()
    let screen = FlightBoardScreen(model: model, airport: "FRA") { _ in
      FlightStatusScreen(model: morning.statusModel())
    }
    let (app, backend) = app(screen, width: 100, height: 24)
    morning.ui.advance()
    morning.pass(minutes: 150)  // 08:30 local
    app.displayNow()
    try assertSnapshot(backend.text, named: "board-departures")
    // The changed cell is highlighted for a moment.
    #expect(model.hasHighlight)
  }

  @Test func boardScreen_enterOpensTheFlightsStatus_filterByState() throws {
    let model = morning.boardModel()
    let screen = FlightBoardScreen(model: model, airport: "FRA") { key in
      FlightStatusScreen(model: morning.statusModel(), following: key)
    }
    let (app, backend) = app(screen, width: 100, height: 24)
    morning.ui.advance()
    morning.pass(minutes: 100)
    app.handle(.down)
    app.handle(.down)
    app.handle(.enter)
    morning.ui.advance()
    #expect(app.currentScreen.title == "Status")
    app.displayNow()
    #expect(backend.text.contains("LH 400  FRA → JFK"))
    app.handle(.escape)
    #expect(app.currentScreen.title == "Board")
    // Tab to the State filter (Airport, Carrier, To, State), → twice: All, Scheduled, Delayed.
    for _ in 0..<4 { app.handle(.tab) }
    app.handle(.right)
    app.handle(.right)
    app.displayNow()
    try assertSnapshot(backend.text, named: "board-delayed-only")
  }
}
