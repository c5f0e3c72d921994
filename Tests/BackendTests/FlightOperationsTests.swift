import Common
import Foundation
import Synchronization
import Testing

@testable import Backend

/// The simulation of the world's flight operations, checked over a simulated week of the whole
/// world (the figures the README quotes) and flight by flight.
@Suite(.serialized) struct FlightOperationsStatisticsTests {
  /// The week the statistics are taken over: Monday 2027-03-08 … Sunday 2027-03-14.
  static let week = (0..<7).map { LocalDate("2027-03-08")!.adding(days: $0) }
  static let operations = FlightOperations(network: FlightsFixtures.world)

  /// Counts over the week.
  struct Figures {
    var flights = 0
    var onTime = 0
    var cancelled = 0
    var diverted = 0
    var delayedFlights = 0
    var delayMinutes = 0
    var reactionaryMinutes = 0
    var weatherEvents = 0
    var weatherDelay = (flights: 0, minutes: 0)
    var otherDelay = (flights: 0, minutes: 0)

    var onTimeShare: Double { Double(onTime) / Double(flights) }
    var cancelledShare: Double { Double(cancelled) / Double(flights) }
    var divertedShare: Double { Double(diverted) / Double(flights) }
  }

  /// Every flight of `date`, simulated once per test process.
  static func flights(_ date: LocalDate) -> [SimulatedFlight] {
    cache.withLock { days in
      if let known = days[date] { return known }
      let made = operations.allFlights(day: Int32(date.daysSinceEpoch))
      days[date] = made
      return made
    }
  }
  static let cache = Mutex<[LocalDate: [SimulatedFlight]]>([:])

  static let figures: Figures = {
    var figures = Figures()
    let network = operations.network
    for date in week {
      let day = Int32(date.daysSinceEpoch)
      for airport in 0..<network.airports.count where operations.weather(airport: Int32(airport), day: day) != nil {
        figures.weatherEvents += 1
      }
      for flight in flights(date).map(\.flight) {
        figures.flights += 1
        if flight.cancelled {
          figures.cancelled += 1
          continue
        }
        if flight.divertedTo >= 0 {
          figures.diverted += 1
        } else if flight.actualIn - flight.scheduledIn < 15 {
          figures.onTime += 1
        }
        if flight.departureDelay >= 5 {
          figures.delayedFlights += 1
          figures.delayMinutes += Int(flight.departureDelay)
          figures.reactionaryMinutes += flight.delays.filter { $0.code == 93 }.reduce(0) { $0 + Int($1.minutes) }
        }
        let origin = network.patterns[Int(flight.pattern)].origin
        if let storm = operations.weather(airport: origin, day: day), flight.scheduledOut >= storm.start,
          flight.scheduledOut < storm.end
        {
          figures.weatherDelay.flights += 1
          figures.weatherDelay.minutes += Int(max(0, flight.departureDelay))
        } else {
          figures.otherDelay.flights += 1
          figures.otherDelay.minutes += Int(max(0, flight.departureDelay))
        }
      }
    }
    return figures
  }()

  @Test(.timeLimit(.minutes(3))) func week_onTimeCancelledDivertedShares_matchPublishedStatistics() {
    let figures = Self.figures
    #expect(figures.flights > 400_000, "a week of the world's flights")
    #expect((0.75...0.80).contains(figures.onTimeShare), "on time: \(figures.onTimeShare)")
    #expect((0.01...0.02).contains(figures.cancelledShare), "cancelled: \(figures.cancelledShare)")
    #expect(figures.diverted > 0 && figures.divertedShare < 0.003, "diverted: \(figures.divertedShare)")
  }

  @Test(.timeLimit(.minutes(3))) func week_reactionaryDelays_areALargeShareOfDelayMinutes() {
    let figures = Self.figures
    let share = Double(figures.reactionaryMinutes) / Double(figures.delayMinutes)
    #expect((0.1...0.5).contains(share), "code 93 share of delay minutes: \(share)")
  }

  @Test(.timeLimit(.minutes(3))) func week_badWeatherAtAHub_delaysItsBanks() {
    let figures = Self.figures
    #expect(figures.weatherEvents >= 5, "hub-days with bad weather: \(figures.weatherEvents)")
    let inStorm = Double(figures.weatherDelay.minutes) / Double(max(1, figures.weatherDelay.flights))
    let otherwise = Double(figures.otherDelay.minutes) / Double(max(1, figures.otherDelay.flights))
    #expect(figures.weatherDelay.flights > 500)
    #expect(inStorm > 3 * otherwise, "mean departure delay in a storm \(inStorm) min, otherwise \(otherwise) min")
  }

  @Test(.timeLimit(.minutes(3))) func everyFlight_departsBeforeItArrives_inOOOIOrder() {
    // Counted, then checked once: an expectation per flight would take longer than the simulation.
    var wrong: [String] = []
    for date in Self.week {
      for flight in Self.flights(date).map(\.flight) where !flight.cancelled {
        let ordered =
          flight.actualOut < flight.actualOff && flight.actualOff < flight.actualOn && flight.actualOn < flight.actualIn
          && flight.scheduledOut < flight.scheduledOff && flight.scheduledOn < flight.scheduledIn
          && flight.boardingAt < flight.gateClosedAt && flight.gateClosedAt < flight.actualOut
        if !ordered { wrong.append("\(date) pattern \(flight.pattern)") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) flights out of order, first: \(wrong.prefix(5))")
  }

  @Test(.timeLimit(.minutes(3))) func everyGate_existsAtItsAirportsTerminals_andBoardingLeadFollowsAircraftSize() {
    let operations = Self.operations
    let network = operations.network
    var wrong: [String] = []
    var changes = 0
    var flights = 0
    for date in Self.week {
      for simulated in Self.flights(date) {
        flights += 1
        let flight = simulated.flight
        let pattern = network.patterns[Int(flight.pattern)]
        let origin = operations.layouts[Int(pattern.origin)]
        let terminal = operations.terminal(carrier: pattern.carrier, airport: pattern.origin)
        var problems: [String] = []
        if !origin.terminalGates[terminal].contains(Int(simulated.gate)) { problems.append("gate") }
        if !origin.terminalGates[terminal].contains(Int(simulated.plannedGate)) { problems.append("planned gate") }
        if simulated.gate != simulated.plannedGate { changes += 1 }
        if !flight.cancelled && flight.divertedTo < 0 {
          let destination = operations.layouts[Int(pattern.destination)]
          if !destination.gateNames.indices.contains(Int(simulated.arrivalGate)) {
            problems.append("arrival gate")
          } else {
            let arrivalTerminal = Int(destination.gateTerminal[Int(simulated.arrivalGate)])
            if !destination.terminalBelts[arrivalTerminal].contains(Int(simulated.belt)) { problems.append("belt") }
          }
          let lead = flight.actualOut - flight.boardingAt
          if lead > 50 { problems.append("boarding \(lead) min before") }
          if flight.departureDelay <= 0, flight.inbound < 0, lead != FlightOperations.boardingLead(flight.kind) {
            problems.append("boarding lead \(lead) for \(flight.kind)")
          }
        }
        let events = simulated.events
        if !zip(events, events.dropFirst()).allSatisfy({ $0.minute <= $1.minute }) { problems.append("event order") }
        if !problems.isEmpty { wrong.append("\(date) \(network.flight(of: flight.pattern)): \(problems)") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) flights wrong, first: \(wrong.prefix(5))")
    let share = Double(changes) / Double(flights)
    #expect((0.03...0.15).contains(share), "gate changes: \(share)")
  }

  @Test(.timeLimit(.minutes(3))) func lateInboundAircraft_delaysItsNextFlight_withCode93() {
    var carried = 0
    var wrong: [String] = []
    for date in Self.week {
      for simulated in Self.flights(date) where !simulated.flight.cancelled && simulated.flight.inbound >= 0 {
        let flight = simulated.flight
        let fleet = simulated.fleetDay.flights
        let inbound = fleet[Int(flight.inbound)]
        let ready = inbound.actualIn + FlightOperations.minimumTurn(flight.kind)
        if inbound.next < 0 || fleet[Int(inbound.next)].pattern != flight.pattern { wrong.append("chain") }
        if inbound.actualIn > flight.actualOut { wrong.append("leaves before its aircraft is in") }
        guard ready - flight.scheduledOut >= 5 else { continue }
        carried += 1
        if flight.actualOut < ready { wrong.append("leaves before its aircraft is ready") }
        if !flight.delays.contains(where: { $0.code == 93 }) { wrong.append("no code 93") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5))")
    #expect(carried > 10_000, "reactionary delays in a week: \(carried)")
  }

  @Test(.timeLimit(.minutes(3))) func sameSeedAndDay_giveTheSameEvents_anotherSeedOthers() {
    let date = LocalDate("2027-03-10")!
    func digest(_ flights: [SimulatedFlight]) -> [Int64] {
      flights.sorted { $0.pattern < $1.pattern }.flatMap { flight in
        [Int64(flight.pattern) << 32 | Int64(flight.events.count)]
          + flight.events.map { Int64($0.minute) << 16 | Int64($0.kind.rawValue) << 8 ^ Int64($0.value) }
      }
    }
    // The week's operations (simulated fleet by fleet) and a fresh one asked for a board first:
    // the same day, event for event.
    let expected = digest(Self.flights(date))
    let second = FlightOperations(network: FlightsFixtures.world)
    let fra = FlightsFixtures.world.airportIndex["FRA"]!
    let board = second.board(airport: fra, date: date, direction: .arrivals)
    #expect(board.count > 300)
    #expect(digest(second.allFlights(day: Int32(date.daysSinceEpoch))) == expected)
    let other = FlightOperations(network: FlightsFixtures.world, seed: 42)
    #expect(digest(other.board(airport: fra, date: date, direction: .arrivals)) != digest(board))
  }
}
