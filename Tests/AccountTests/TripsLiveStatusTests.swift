import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Account

/// Trips with the booked flights' live status.
@MainActor
@Suite struct TripsLiveStatusTests {
  let services = InMemoryServices()
  let ui = DispatchQueue.test
  let status = MemoryFlightStatus(start: ISO8601DateFormatter().date(from: "2026-12-20T05:00:00Z")!, speed: 60)

  /// Ada with a flight reservation (LH 400 FRA → JFK, booked as UA 9070) and a hotel; the model.
  func adaWithAFlight() throws -> (TripsViewModel, Reservation) {
    let token = try services.signedInAda()
    let flight = services.addReservation(
      email: "ada@example.com", summary: "FRA → JFK, UA 9070, 2026-12-20",
      createdAt: Date(timeIntervalSince1970: 1_795_000_000))
    services.addReservation(
      email: "ada@example.com", kind: .hotel, summary: "Hotel", createdAt: Date(timeIntervalSince1970: 1_794_000_000))
    var lh400 = FlightStatus.fixture(
      "LH400", from: "FRA", to: "JFK", date: LocalDate("2026-12-20")!, departure: "08:30", blockMinutes: 530,
      fromZone: "Europe/Berlin", toZone: "America/New_York", aircraft: "744")
    lh400.codeshares = [Flight(code: "UA9070")!]
    status.add(lh400.day(gate: "B40", changedGate: "B44", delay: 25))
    status.book(lh400.key, as: Flight(code: "UA9070")!, reservation: flight.id, token: token)
    var environment = services.accountEnvironment()
    environment.flightStatus = status
    let client = AccountClient(environment: environment, scheduler: ui.eraseToAnyScheduler())
    return (TripsViewModel(client: client, token: token), flight)
  }

  @Test func liveFlights_followTheBookedFlight_asBooked() throws {
    let (model, reservation) = try adaWithAFlight()
    model.viewAppeared()
    ui.advance()
    #expect(model.liveFlights.count == 1)
    #expect(model.liveFlights.first?.reservationID == reservation.id)
    #expect(model.liveFlights.first?.booked == Flight(code: "UA9070"))
    #expect(model.liveFlights.first?.status.status == .scheduled)
    for _ in 0..<130 { status.scheduler.advance(by: .seconds(1)) }  // 08:10 local
    ui.advance()
    let live = try #require(model.liveFlights.first?.status)
    #expect(live.status == .delayed)
    #expect(live.departure.gate == "B44")
    // Cancelled: it leaves the live list.
    model.cancelTapped(id: reservation.id)
    ui.advance()
    model.cancelConfirmed()
    ui.advance()
    #expect(model.liveFlights.isEmpty)
  }

  @Test func tripsScreen_showsTheFlightsLive() throws {
    let (model, _) = try adaWithAFlight()
    let screen = TripsScreen(
      model: model, exportDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"))
    ui.advance()
    for _ in 0..<130 { status.scheduler.advance(by: .seconds(1)) }
    ui.advance()
    let backend = TestBackend(width: 100, height: 20)
    let app = InteractiveApp(
      name: "account", tabs: [AppTab("Account", root: screen)], backend: backend, schedule: { $0() })
    app.displayNow()
    try assertSnapshot(backend.text, named: "trips-live")
    #expect(backend.text.contains("UA 9070 (LH 400) FRA→JFK 2026-12-20 08:30  Delayed 25 min · terminal 1 gate B44"))
  }
}
