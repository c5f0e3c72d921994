import Common
import Foundation
import Reactive

/// `booking status` and `booking board` (`travel flights status|board`): live flight status on
/// the app's clock (`--clock-speed`, `--clock-start`).
enum FlightStatusCommands {
  // MARK: status

  static func status(_ services: BookingServices) -> Command {
    Command(
      name: "status",
      summary: L("Live status of one flight: gates, times, delay and its reason."),
      discussion: """
        FLIGHT is the airline code and number (LH400, or "LH 400"). Without --date, today's flight at its origin
        (else its next one this week). Every time is local to its airport, with the time zone named; a delay gives
        its IATA delay codes (AHM 730) and their minutes. --follow prints each change as it happens until the
        flight is at its arrival gate (or cancelled); with --json, one JSON document per line: first
        {"flightStatus": …}, then {"update": {"flightStatus": …, "changes": […]}} per change.
        The clock is real time; --clock-speed 600 --clock-start 2026-12-20T06:00 watches a whole day in minutes.
        """,
      arguments: [ArgumentSpec("FLIGHT", help: L("Airline code and flight number, like LH400."))],
      options: [
        .option("date", "YYYY-MM-DD", help: L("Departure date, local to the origin."), default: L("today there")),
        .flag("follow", help: L("Print each change as it happens, until the flight is at the gate.")),
      ],
      examples: ["LH400", "LH400 --date 2026-12-20 --json", "LH400 --follow --clock-speed 600"],
      action: { invocation in
        let flight = try parseFlight(try invocation.argument(0, name: "FLIGHT"))
        let date = try invocation.value("date").map { try FlightSearchRequest.parseDate($0, option: "--date") }
        let service = try services.statusService(invocation.context)
        let key = try service.operation(of: flight, date: date)
        let context = invocation.context
        guard invocation.flag("follow") else {
          let status = try service.status(key)
          try context.emit(json: ["flightStatus": status]) { FlightStatusText.status(status) }
          return
        }
        try follow(service.statusEvents(key, after: nil)) { event in
          switch event {
          case .snapshot(let status):
            if context.json {
              context.console.print(try JSONOutput.line(["flightStatus": status]))
            } else {
              context.console.print(FlightStatusText.status(status))
              if !status.isFinal { context.console.print(L("Following \(status.flight): each change as it happens.")) }
            }
            return !status.isFinal
          case .update(let update):
            context.console.print(
              context.json ? try JSONOutput.line(["update": update]) : FlightStatusText.change(update))
            return !update.flightStatus.isFinal
          }
        }
      }
    )
  }

  /// `LH400`, `lh 400`, `LH0400` → `LH 400`.
  /// - Throws: ``ServiceError`` `invalid_flight_number` (exit 2).
  static func parseFlight(_ text: String) throws -> Flight {
    let compact = text.filter { !$0.isWhitespace }
    guard let flight = Flight(code: compact) else {
      throw ServiceError.invalid(
        "invalid_flight_number",
        L("invalid flight \(EchoedInput.quoted(text)): expected an airline code and a number 1–9999, like LH400"))
    }
    return flight
  }

  // MARK: board

  static func board(_ services: BookingServices) -> Command {
    Command(
      name: "board",
      summary: L("An airport's departures (or arrivals) board for a local date, live."),
      discussion: """
        AIRPORT is an IATA airport code (FRA). The board lists every flight leaving on the date (local to the
        airport), or with --arrivals every flight due at its gate on it, by scheduled time: expected time,
        terminal, gate and state. --follow prints each change as it happens until every flight on the board is
        done; with --json, one JSON document per line: first {"board": …}, then {"boardUpdate": {"sequence", "update"}}
        per change (the board's sequence numbers count its changes).
        """,
      arguments: [ArgumentSpec("AIRPORT", help: "IATA airport code, like FRA.")],
      options: [
        .option("date", "YYYY-MM-DD", help: L("The local date at the airport."), default: L("today there")),
        .flag("arrivals", help: L("The arrivals board instead of departures.")),
        .flag("follow", help: L("Print each change as it happens.")),
      ],
      examples: ["FRA", "JFK --arrivals --json", "FRA --follow --clock-speed 600"],
      action: { invocation in
        let airport = try invocation.argument(0, name: "AIRPORT")
        let date = try invocation.value("date").map { try FlightSearchRequest.parseDate($0, option: "--date") }
        let direction: BoardDirection = invocation.flag("arrivals") ? .arrivals : .departures
        let service = try services.statusService(invocation.context)
        let context = invocation.context
        guard invocation.flag("follow") else {
          let board = try service.board(airport: airport, date: date, direction: direction)
          try context.emit(json: ["board": board]) { FlightStatusText.board(board) }
          return
        }
        // The date is fixed once (today's board stays today's while following past midnight).
        let day = try service.board(airport: airport, date: date, direction: direction).date
        var open: Set<FlightStatusKey> = []
        try follow(service.boardEvents(airport: airport, date: day, direction: direction, after: nil)) { event in
          switch event {
          case .snapshot(let board):
            open = Set(board.flights.filter { !$0.isFinal }.map(\.key))
            context.console.print(
              context.json ? try JSONOutput.line(["board": board]) : FlightStatusText.board(board))
          case .update(let update):
            let status = update.update.flightStatus
            if status.isFinal { open.remove(status.key) }
            context.console.print(
              context.json
                ? try JSONOutput.line(["boardUpdate": update])
                : "#\(update.sequence)  " + FlightStatusText.change(update.update))
          }
          return !open.isEmpty
        }
      }
    )
  }

  // MARK: Following

  /// Subscribes to `publisher` and waits, handing each value to `handle` (one at a time, in
  /// order) until it returns false, or the feed fails (thrown).
  static func follow<Event>(
    _ publisher: AnyPublisher<Event, ServiceError>, handle: @escaping (Event) throws -> Bool
  ) throws {
    let state = FollowState()
    let done = DispatchSemaphore(value: 0)
    let handler = UncheckedHandler(handle)
    let subscription = publisher.sink(
      receiveCompletion: { completion in
        if case .failure(let error) = completion { state.finish(error) }
        done.signal()
      },
      receiveValue: { value in
        guard state.isRunning else { return }
        do {
          if try !handler.value(value) {
            state.finish(nil)
            done.signal()
          }
        } catch {
          state.finish(error)
          done.signal()
        }
      })
    done.wait()
    subscription.cancel()
    if let error = state.error { throw error }
  }
}

/// Whether a follow loop still runs, and how it ended. `@unchecked Sendable`: guarded by `lock`.
private final class FollowState: @unchecked Sendable {
  private let lock = NSLock()
  private var running = true
  private var failure: (any Error)?

  var isRunning: Bool { lock.withLock { running } }
  var error: (any Error)? { lock.withLock { failure } }

  func finish(_ error: (any Error)?) {
    lock.withLock {
      if running { failure = error }
      running = false
    }
  }
}

/// A follow loop's handler: called by one thread at a time (the feed serialises its values).
private struct UncheckedHandler<Event>: @unchecked Sendable {
  let value: (Event) throws -> Bool
  init(_ value: @escaping (Event) throws -> Bool) { self.value = value }
}
