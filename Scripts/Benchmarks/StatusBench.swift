import Backend
import Booking
import Common
import CommonUI
import Foundation
import Reactive

/// Live flight status (`Scripts/bench --only status`):
/// - `status.simulate-world-day`: one whole world day of operations simulated from scratch (every
///   fleet's rotations, delays, gates and events), and `status.simulation-speed`, that day's 86,400
///   seconds divided by the time it took (target: faster than 1,000× real time). The note gives
///   the model's statistics over the days simulated (on time, cancelled, diverted, code 93).
/// - `status.board-frame`: the busiest airport's departures board (every row loaded in the view
///   model) drawn at 120×40 while its feed, on a clock sped up to about 200 updates a second,
///   streams changes in real time; every 16 ms the changes received are applied and a frame is
///   drawn. Target: frame p99 ≤ 4 ms. The run fails when an update is lost (the board's sequence
///   numbers are checked by the view model: applied = last sequence − first) or, in a full run,
///   when fewer than 180 updates a second arrived.
extension BenchmarkSuite {
  func statusFigures() -> [Figure] {
    let network: FlightNetwork
    do {
      network = try FlightsWiring.world().0
    } catch {
      return [Figure.failed("status.simulate-world-day", target: 86_400, "cannot load the world: \(error)")]
    }
    return simulationFigures(network) + boardFrameFigures(network)
  }

  /// The fixed day of the figures: a Wednesday in March.
  static let statusDate = LocalDate("2027-03-10")!

  private func simulationFigures(_ network: FlightNetwork) -> [Figure] {
    let days = quick ? 1 : 3
    var times: [Double] = []
    var totals = (flights: 0, onTime: 0, cancelled: 0, diverted: 0, delayMinutes: 0, reactionary: 0)
    for offset in 0..<days {
      let date = Self.statusDate.adding(days: offset)
      let operations = FlightOperations(network: network)
      var figures: FlightOperations.DayFigures?
      times.append(milliseconds { figures = operations.figures(of: date) })
      if let figures {
        totals.flights += figures.flights
        totals.onTime += figures.onTime
        totals.cancelled += figures.cancelled
        totals.diverted += figures.diverted
        totals.delayMinutes += figures.delayMinutes
        totals.reactionary += figures.reactionaryMinutes
      }
    }
    func percent(_ part: Int) -> String {
      String(format: "%.1f %%", 100 * Double(part) / Double(max(1, totals.flights)))
    }
    let statistics =
      "\(totals.flights / days) flights a day; on time (gate arrival < 15 min late) \(percent(totals.onTime)), "
      + "cancelled \(percent(totals.cancelled)), diverted \(totals.diverted) in \(days) day(s), code 93 "
      + String(format: "%.0f %%", 100 * Double(totals.reactionary) / Double(max(1, totals.delayMinutes)))
      + " of delay minutes"
    return [
      Figure(
        name: "status.simulate-world-day", unit: "ms", target: 86_400, values: times,
        note: "a fresh simulation of one operating date of the world (\(Self.statusDate) on): \(statistics)"),
      Figure(
        name: "status.simulation-speed", unit: "× real time", goal: .atLeast, target: 1000,
        values: times.map { 86_400_000 / $0 }, note: "86,400 s of operations ÷ the time to simulate them"),
    ]
  }

  private func boardFrameFigures(_ network: FlightNetwork) -> [Figure] {
    let name = "status.board-frame"
    let operations = FlightOperations(network: network)
    let busiest = operations.busiestAirport
    let date = Self.statusDate
    // The board's changes between 06:00 and 22:00 local set the clock's speed for ~200 a second.
    let zone = TimeZone(identifier: operations.timeZone(of: busiest)) ?? .gmt
    let (start, end) = (date.instant(hour: 6, in: zone), date.instant(hour: 22, in: zone))
    let changes = operations.boardChanges(airport: busiest, date: date, from: start, to: end)
    let speed = min(TravelClock.maximumSpeed, 200 * end.timeIntervalSince(start) / Double(max(1, changes)))
    let feedQueue = DispatchQueue(label: "status-bench.feed")
    let clock = TravelClock(start: start, speed: speed, scheduler: feedQueue.eraseToAnyScheduler())
    let service = FlightStatusFeed(operations: operations, clock: clock)
    let ui = DispatchQueue.test
    let seconds = quick ? 3.0 : 20.0
    return MainActor.assumeIsolated { () -> [Figure] in
      let model = FlightBoardViewModel(
        service: service, mainQueue: ui.eraseToAnyScheduler(), backgroundQueue: ui.eraseToAnyScheduler())
      let environment = FlightsViewEnvironment(
        flights: UnavailableFlights(), mainQueue: ui.eraseToAnyScheduler(), backgroundQueue: ui.eraseToAnyScheduler())
      let screen = BookingScreens.board(model: model, airport: nil, service: service, environment: environment)
      model.load(airport: busiest, direction: .departures, date: date)
      ui.advance()
      guard let first = model.header?.sequence else {
        return [Figure.failed(name, goal: .p99AtMost, target: 4, model.errorMessage ?? "the board did not load")]
      }
      // Changes that arrived with the snapshot (applied in the same advance) are in `first` already.
      let appliedBefore = model.applied
      let theme = (try? Theme.named(.dark, useColor: true)) ?? .monochrome
      var frames: [Double] = []
      var frame = 0
      let began = DispatchTime.now().uptimeNanoseconds
      var next = began
      while Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 < seconds {
        while DispatchTime.now().uptimeNanoseconds < next { usleep(200) }
        next += 16_000_000
        ui.advance()  // the changes received since the last frame
        // Scroll through the board meanwhile: every row is drawn at some point.
        if frame % 10 == 0 { _ = screen.handle(frame % 400 < 200 ? .pageDown : .pageUp) }
        frames.append(
          milliseconds {
            var buffer = Buffer(width: 120, height: 40, theme: theme)
            screen.render(in: buffer.area, into: &buffer)
          })
        frame += 1
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
      ui.advance()
      let last = model.header?.sequence ?? first
      let applied = model.applied - appliedBefore
      let rate = Double(applied) / elapsed
      let lost = (last - first) - applied
      var violation: String?
      if lost != 0 || model.gapsRecovered != 0 {
        violation = "\(lost) update(s) lost, \(model.gapsRecovered) gap(s) in the board's sequence"
      } else if !quick, rate < 180 {
        violation = String(format: "only %.0f updates a second arrived (wanted about 200)", rate)
      }
      return [
        Figure(
          name: name, unit: "ms", goal: .p99AtMost, target: 4, values: frames,
          note: "\(busiest) departures, \(model.totalCount) rows loaded, 120×40; "
            + String(
              format: "%.0f updates/s (clock %.0f×) for %.0f s: %d applied, sequence %d → %d, %d lost", rate, speed,
              elapsed, applied, first, last, lost),
          violation: violation)
      ]
    }
  }
}

/// Flight search is not part of the board benchmark.
private struct UnavailableFlights: FlightSearching {
  func airports(matching query: String, limit: Int) throws -> [AirportSummary] { [] }
  func search(_ request: FlightSearchRequest) throws -> [FlightOffer] { [] }
  func offer(_ id: FlightOfferID) throws -> FlightOffer {
    throw ServiceError(.unavailable, code: "flights_unavailable", message: "not in this benchmark")
  }
}
