import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Booking

/// A radar over a few flights of 20 December 2026 around Europe (times UTC).
final class StubRadar: FlightRadarService {
  let clock: TravelClock
  let flights: [RadarFlight]
  let booked: Set<FlightStatusKey>
  let reads = Counter()

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
  }

  static let noon = ISO8601DateFormatter().date(from: "2026-12-20T12:00:00Z")!

  static func flight(
    _ code: String, _ from: (String, Double, Double), _ to: (String, Double, Double), off: Double, on: Double
  ) -> RadarFlight {
    RadarFlight(
      key: FlightStatusKey(flight: Flight(code: code)!, date: LocalDate("2026-12-20")!, origin: from.0),
      origin: from.0, destination: to.0, originLatitude: from.1, originLongitude: from.2, destinationLatitude: to.1,
      destinationLongitude: to.2, takeoff: noon.addingTimeInterval(off * 60), landing: noon.addingTimeInterval(on * 60))
  }

  static let fra = ("FRA", 50.033, 8.571)
  static let jfk = ("JFK", 40.640, -73.779)
  static let lhr = ("LHR", 51.470, -0.454)
  static let mad = ("MAD", 40.472, -3.561)
  static let ist = ("IST", 41.262, 28.742)
  static let osl = ("OSL", 60.194, 11.100)
  static let ath = ("ATH", 37.936, 23.947)
  static let cdg = ("CDG", 49.010, 2.548)

  /// Minutes from noon: LH400 half way to New York at noon; LH1114 lands at 12:00:30;
  /// BA478 takes off at 12:01.
  static let schedule = [
    flight("LH400", fra, jfk, off: -240, on: 240), flight("BA478", lhr, mad, off: 1, on: 121),
    flight("TK1590", ist, lhr, off: -60, on: 150), flight("SK4035", osl, ath, off: -30, on: 180),
    flight("AF1234", cdg, ist, off: -100, on: 80), flight("LH1114", fra, mad, off: -140, on: 0.5),
  ]

  init(scheduler: TestSchedulerOf<DispatchQueue>, speed: Double = 60, booked: Set<FlightStatusKey> = []) {
    clock = TravelClock(start: Self.noon, speed: speed, scheduler: scheduler.eraseToAnyScheduler())
    flights = Self.schedule
    self.booked = booked
  }

  func airborne(at instant: Date) throws -> [RadarFlight] {
    reads.increment()
    return flights.filter { $0.takeoff <= instant && instant < $0.landing }
  }

  func bookedOperations(token: String) throws -> Set<FlightStatusKey> {
    guard token == "token" else { throw ServiceError.notSignedIn }
    return booked
  }
}

/// Issue #21: the radar's view model headless (loading, moving, refreshing, keys, selection,
/// booked flights), a text snapshot of a frame, and the arrows.
@Suite struct RadarTests {
  let main = DispatchQueue.test
  let background = DispatchQueue.test
  let clockScheduler = DispatchQueue.test

  func settle() {
    for _ in 0..<3 {
      background.run()
      main.run()
    }
  }

  static let europe = MapViewport(latitude: 48, longitude: 10, zoom: 3)
  static var tk1590: FlightStatusKey { StubRadar.schedule[2].key }

  func makeModel(booked: Set<FlightStatusKey> = [], token: String? = "token", viewport: MapViewport = europe) -> (
    RadarViewModel, StubRadar
  ) {
    let radar = StubRadar(scheduler: clockScheduler, booked: booked)
    let model = RadarViewModel(
      radar: radar, token: { token }, viewport: viewport, mainQueue: main.eraseToAnyScheduler(),
      backgroundQueue: background.eraseToAnyScheduler())
    return (model, radar)
  }

  @Test func reload_readsTheAirborneSet_offTheMainQueue_andFramesMoveEveryAircraft() throws {
    let (model, radar) = makeModel(booked: [Self.tk1590])
    #expect(model.message == "Loading the flights in the air…")
    model.reload()
    #expect(model.flights.isEmpty)
    settle()
    #expect(radar.reads.count == 1)
    #expect(model.flights.map(\.key.flight.code) == ["LH400", "TK1590", "SK4035", "AF1234", "LH1114"])
    #expect(model.booked == [Self.tk1590])
    #expect(model.message == nil)
    let first = model.frame()
    #expect(first.count == 5)
    #expect(first.booked == [1])
    let lh400 = model.flights[0]
    let expected = lh400.position(at: StubRadar.noon)
    #expect(first.latitudes[0] == expected.latitude && first.longitudes[0] == expected.longitude)
    #expect(first.headings[0] == expected.heading)
    // Ten real seconds at 60×: ten simulated minutes further along the great circle.
    clockScheduler.advance(by: .seconds(10))
    let later = model.frame()
    #expect(later.instant == StubRadar.noon.addingTimeInterval(600))
    #expect(later.longitudes[0] < first.longitudes[0])
    #expect(later.latitudes[0] == lh400.position(at: later.instant).latitude)
  }

  @Test func theAirborneSet_isReadAgainEachSimulatedMinute_takeoffsAppear_landingsGo() {
    let (model, radar) = makeModel()
    model.reload()
    settle()
    _ = model.frame()
    #expect(radar.reads.count == 1)
    clockScheduler.advance(by: .milliseconds(500))
    _ = model.frame()
    settle()
    #expect(radar.reads.count == 1, "30 simulated seconds: no new read")
    clockScheduler.advance(by: .milliseconds(600))
    _ = model.frame()
    settle()
    #expect(radar.reads.count == 2)
    #expect(model.flights.map(\.key.flight.code) == ["LH400", "BA478", "TK1590", "SK4035", "AF1234"])
  }

  @Test func keys_panZoom_tabSelects_bJumpsToBookedFlights_fFollows() throws {
    let (model, _) = makeModel(booked: [Self.tk1590])
    model.reload()
    settle()
    #expect(model.handle(.character("+"), columns: 78, rows: 20))
    #expect(model.viewport.zoom == 4)
    #expect(model.handle(.left, columns: 78, rows: 20))
    let quarterOfTheView: Double = 360.0 / 16 / 4
    #expect(model.viewport.longitude == 10 - quarterOfTheView)
    #expect(model.handle(.character("0"), columns: 78, rows: 20))
    #expect(model.viewport == MapViewport())
    #expect(!model.handle(.character("x"), columns: 78, rows: 20))

    // The whole world: Tab goes through every aircraft in view by flight key, and wraps.
    var picked: [String] = []
    for _ in 0..<6 {
      #expect(model.handle(.tab, columns: 78, rows: 20))
      picked.append(model.selected?.flight.code ?? "-")
    }
    #expect(picked == ["AF1234", "LH400", "LH1114", "SK4035", "TK1590", "AF1234"])
    #expect(model.handle(.backTab, columns: 78, rows: 20))
    #expect(model.selected?.flight.code == "TK1590")
    #expect(model.selectedFlight?.destination == "LHR")

    // b: the booked flight in the air, followed: the map centres on it each frame.
    #expect(model.handle(.character("c"), columns: 78, rows: 20))
    #expect(model.selected == nil)
    #expect(model.handle(.character("b"), columns: 78, rows: 20))
    #expect(model.selected == Self.tk1590)
    #expect(model.following)
    let frame = model.frame()
    #expect(model.viewport.latitude == frame.latitudes[1] && model.viewport.longitude == frame.longitudes[1])
    #expect(frame.selected == 1)
    // Panning stops following; f follows again.
    #expect(model.handle(.down, columns: 78, rows: 20))
    #expect(!model.following)
    #expect(model.handle(.character("f"), columns: 78, rows: 20))
    #expect(model.following)
  }

  @Test func noBookedFlight_saysSo_andAStrangerSeesNone() {
    let (model, _) = makeModel(token: nil)
    model.reload()
    settle()
    #expect(model.booked.isEmpty)
    #expect(model.handle(.character("b"), columns: 78, rows: 20))
    #expect(model.selected == nil)
    #expect(model.message == "No booked flight: book one, then watch it here.")
  }

  @Test func aFailingRadar_showsItsMessage() {
    final class Broken: FlightRadarService {
      let clock: TravelClock
      init(_ scheduler: TestSchedulerOf<DispatchQueue>) {
        clock = TravelClock(start: StubRadar.noon, scheduler: scheduler.eraseToAnyScheduler())
      }
      func airborne(at instant: Date) throws -> [RadarFlight] {
        throw ServiceError.invalid("date_out_of_range", "no radar for that instant")
      }
      func bookedOperations(token: String) throws -> Set<FlightStatusKey> { [] }
    }
    let model = RadarViewModel(
      radar: Broken(clockScheduler), mainQueue: main.eraseToAnyScheduler(),
      backgroundQueue: background.eraseToAnyScheduler())
    model.reload()
    settle()
    #expect(model.message == "no radar for that instant")
    #expect(model.frame().count == 0)
  }

  @Test func arrows_pointAlongTheCourse() {
    #expect(RadarView.arrow(heading: 0) == "↑")
    #expect(RadarView.arrow(heading: 359) == "↑")
    #expect(RadarView.arrow(heading: 44) == "↗")
    #expect(RadarView.arrow(heading: 90) == "→")
    #expect(RadarView.arrow(heading: 181) == "↓")
    #expect(RadarView.arrow(heading: 292) == "←")
    #expect(RadarView.arrow(heading: 315) == "↖")
  }

  /// Europe at zoom 3 at noon: five aircraft in the air, those in view as arrows along their
  /// courses over the ground (shores, borders, capitals), the booked TK 1590 with its flight
  /// number, the selected AF 1234 too, and its line on the panel.
  @MainActor @Test func snapshot_ofARadarFrame() throws {
    let (model, _) = makeModel(booked: [Self.tk1590])
    model.reload()
    settle()
    model.select(StubRadar.schedule[4].key)
    let screen = RadarScreen(model: model, ticker: nil)
    settle()
    struct ScreenWidget: Widget {
      let screen: RadarScreen
      func render(in area: Rect, into buffer: inout Buffer) {
        MainActor.assumeIsolated { screen.render(in: area, into: &buffer) }
      }
    }
    try assertSnapshot(of: ScreenWidget(screen: screen), width: 90, height: 28, named: "radar-europe")
  }
}
