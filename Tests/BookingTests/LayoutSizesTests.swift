import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Booking

/// #14 (QA 5, 11): nothing that tells things apart is cut at the sizes people use. The Flights
/// form with Flight status, Airport board and Radar, at 80×24, 100×30 and 132×43: every button
/// whole, and the footer ends with the shell's keys (`? help`, `q quit`), never a hint cut in the
/// middle (the screen's last hints give way first; `?` lists them all).
@MainActor
@Suite struct LayoutSizesTests {
  let scheduler = DispatchQueue.test
  let session: AccountSession

  init() {
    session = AccountSession(
      account: MemoryBookingAccount(signedIn: true).account, mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
  }

  func form(width: Int, height: Int) -> (InteractiveApp, TestBackend) {
    let backend = TestBackend(width: width, height: height)
    let status = MemoryFlightStatus(start: Date(timeIntervalSince1970: 1_797_760_800))
    let environment = FlightScreenEnvironment(
      views: FlightsViewEnvironment(
        flights: ScreenFlights(), booking: ScriptedBooking(), token: { "token" },
        mainQueue: scheduler.eraseToAnyScheduler(), backgroundQueue: scheduler.eraseToAnyScheduler(), status: status,
        radar: StubRadar(scheduler: DispatchQueue.test, booked: [])),
      session: session, today: TravelToday(LocalDate("2026-12-01")!))
    let screen = FlightSearchScreen(environment: environment)
    let app = InteractiveApp(
      name: "booking", tabs: [AppTab("Flights", root: screen)], backend: backend, schedule: { $0() })
    return (app, backend)
  }

  @Test(arguments: [(80, 24), (100, 30), (132, 43)])
  func flightsForm_buttonsAndFooterWhole(width: Int, height: Int) throws {
    let (app, backend) = form(width: width, height: height)
    app.handle(.escape)  // leave the From field: the footer of the form, not of a text field
    scheduler.advance()
    app.displayNow()
    let text = backend.text
    try assertSnapshot(text, named: "flights-form-\(width)x\(height)")
    for button in ["[ Flight status ]", "[ Airport board ]", "[ Radar ]"] {
      #expect(text.contains(button), "\(button) cut at \(width)×\(height)")
    }
    let footer = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).last)
    #expect(footer.trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"), "\(footer)")
    #expect(!footer.contains("…"))
  }
}
