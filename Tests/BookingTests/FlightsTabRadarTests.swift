import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Booking

/// Issue #21: the Radar in the Flights tab. The search form has a Radar button when the app has a
/// radar (none otherwise); Enter on it opens the map of every flight in the air: the whole world,
/// or around the airport typed in From; the traveller's booked flights are highlighted there.
/// Driven by keys through the shell (80 × 24) over ``StubRadar`` with `DispatchQueue.test` queues.
@MainActor
@Suite struct FlightsTabRadarTests {
  let scheduler = DispatchQueue.test
  let clockScheduler = DispatchQueue.test
  let backend = TestBackend(width: 80, height: 24)
  let session: AccountSession
  static let today = TravelToday(LocalDate("2026-12-01")!)

  init() {
    session = AccountSession(
      account: MemoryBookingAccount(signedIn: true).account, mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
  }

  /// The form over a radar of the stub's flights at noon on 20 December (TK 1590 booked), or none.
  func form(radar: Bool = true) -> (InteractiveApp, FlightSearchScreen) {
    let stub = StubRadar(scheduler: clockScheduler, booked: [RadarTests.tk1590])
    let environment = FlightScreenEnvironment(
      views: FlightsViewEnvironment(
        flights: ScreenFlights(), booking: ScriptedBooking(), token: { "token" },
        mainQueue: scheduler.eraseToAnyScheduler(), backgroundQueue: scheduler.eraseToAnyScheduler(),
        radar: radar ? stub : nil),
      session: session, today: Self.today)
    let screen = FlightSearchScreen(environment: environment)
    let app = InteractiveApp(
      name: "booking", tabs: [AppTab("Flights", root: screen)], backend: backend, schedule: { $0() })
    return (app, screen)
  }

  func press(_ app: InteractiveApp, _ keys: [Key]) {
    for key in keys { app.handle(key) }
    scheduler.advance()
  }

  func frame(_ app: InteractiveApp) -> String {
    app.displayNow()
    return backend.text
  }

  /// The parts Tab visits from From, once round.
  func tabRound(_ app: InteractiveApp, _ screen: FlightSearchScreen) -> [FlightSearchScreen.Focus] {
    var seen: [FlightSearchScreen.Focus] = [screen.focus]
    for _ in 0..<20 {
      press(app, [.tab])
      if screen.focus == seen[0] { break }
      seen.append(screen.focus)
    }
    return seen
  }

  @Test func tabReachesTheRadarButton_afterSearch_andOnlyWhenTheAppHasARadar() throws {
    let (app, screen) = form()
    #expect(tabRound(app, screen) == [.from, .to, .depart, .back, .adults, .cabin, .stops, .search, .radar])
    let (plain, plainScreen) = form(radar: false)
    #expect(!tabRound(plain, plainScreen).contains(.radar))
    #expect(!frame(plain).contains("Radar"))
  }

  @Test func enterOnRadar_opensTheWorld_readsTheFlightsInTheBackground_andHighlightsTheBookedOnes() throws {
    let (app, screen) = form()
    press(app, Array(repeating: .tab, count: 8))
    #expect(screen.focus == .radar)
    try assertSnapshot(frame(app), named: "search-radar-button")
    press(app, [.enter])
    let radar = try #require(app.currentScreen as? RadarScreen)
    #expect(radar.model.viewport == MapViewport())
    scheduler.advance()
    #expect(radar.model.flights.map(\.key.flight.code) == ["LH400", "TK1590", "SK4035", "AF1234", "LH1114"])
    #expect(radar.model.booked == [RadarTests.tk1590])
    // b selects the booked flight in the air and follows it; its line is on the panel.
    press(app, [.character("b")])
    #expect(radar.model.selected == RadarTests.tk1590 && radar.model.following)
    let text = frame(app)
    #expect(text.contains("TK 1590 IST → LHR · your flight"))
    #expect(text.contains("TK1590"))
    // Esc clears the selection, then goes back to the form.
    press(app, [.escape])
    #expect(radar.model.selected == nil)
    press(app, [.escape])
    #expect(app.currentScreen is FlightSearchScreen)
  }

  @Test func fromAirport_centresTheRadarThere() throws {
    let (app, screen) = form()
    screen.from.text = "FRA"
    press(app, Array(repeating: .tab, count: 8))
    #expect(screen.focus == .radar)
    press(app, [.enter])
    let radar = try #require(app.currentScreen as? RadarScreen)
    // FRA's reference coordinate (OurAirports: 50.0264° N, 8.54313° E), at the --near zoom.
    #expect(abs(radar.model.viewport.latitude - 50.0264) < 1e-3)
    #expect(abs(radar.model.viewport.longitude - 8.54313) < 1e-3)
    #expect(radar.model.viewport.zoom == RadarCommands.nearZoom)
    scheduler.advance()
    try assertSnapshot(frame(app), named: "radar-tab-frankfurt")
  }
}
