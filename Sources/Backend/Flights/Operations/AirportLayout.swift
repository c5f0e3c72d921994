import Foundation

/// The terminals, gates and baggage belts of one airport, generated from its traffic (same
/// traffic → same layout), for the simulated day's gate and belt assignments.
///
/// ## The model
/// From `daily`, the airport's departures on an average day of the schedule:
/// - **Gates**: ⌈daily ÷ 6⌉ + 2, between 2 and 240 (a gate turns about six departures a day).
/// - **Terminals**: one below 150 daily departures, two below 700, else three; named `1`, `2`, `3`.
/// - **Concourses**: with fewer than 12 gates, none: gates are numbered `1`…`n`. Otherwise
///   ⌈gates ÷ 36⌉ concourses (at least one per terminal), lettered `A`, `B`, … across the
///   terminals in order, the gates split evenly among them and numbered from 1 in each (`A1`,
///   `B44`); concourse `c` of `C` belongs to terminal ⌊c × terminals ÷ C⌋.
/// - **Baggage belts**: per terminal, one per eight of its gates (at least one), numbered from 1
///   across the airport in terminal order.
///
/// Every gate and belt a flight status names comes from its airport's layout.
struct AirportLayout: Sendable {
  let terminals: [String]
  let gateNames: [String]
  /// Terminal index of each gate.
  let gateTerminal: [Int16]
  /// Gates of terminal `t`: `terminalGates[t]`, adjacent.
  let terminalGates: [Range<Int>]
  let beltNames: [String]
  /// Belts of terminal `t`.
  let terminalBelts: [Range<Int>]

  init(dailyDepartures daily: Double) {
    let gates = min(240, max(2, Int((daily / 6).rounded(.up)) + 2))
    let terminalCount = daily < 150 ? 1 : daily < 700 ? 2 : 3
    terminals = (1...terminalCount).map(String.init)
    var names: [String] = []
    var gateTerminal: [Int16] = []
    var terminalGates: [Range<Int>] = []
    if gates < 12 {
      names = (1...gates).map(String.init)
      gateTerminal = [Int16](repeating: 0, count: gates)
      // A small airport with several terminals (not generated today) would share its gates.
      terminalGates = Array(repeating: 0..<gates, count: terminalCount)
    } else {
      let concourses = max(terminalCount, (gates + 35) / 36)
      let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
      var starts = [Int](repeating: -1, count: terminalCount)
      var ends = [Int](repeating: 0, count: terminalCount)
      for concourse in 0..<concourses {
        let terminal = concourse * terminalCount / concourses
        let count = gates / concourses + (concourse < gates % concourses ? 1 : 0)
        if starts[terminal] < 0 { starts[terminal] = names.count }
        for number in 1...max(1, count) {
          names.append("\(letters[concourse % letters.count])\(number)")
          gateTerminal.append(Int16(terminal))
        }
        ends[terminal] = names.count
      }
      terminalGates = (0..<terminalCount).map { starts[$0] >= 0 ? starts[$0]..<ends[$0] : 0..<names.count }
    }
    gateNames = names
    self.gateTerminal = gateTerminal
    self.terminalGates = terminalGates
    var belts: [String] = []
    var terminalBelts: [Range<Int>] = []
    for gatesOfTerminal in terminalGates {
      let start = belts.count
      for _ in 0..<max(1, gatesOfTerminal.count / 8) { belts.append(String(belts.count + 1)) }
      terminalBelts.append(start..<belts.count)
    }
    beltNames = belts
    self.terminalBelts = terminalBelts
  }

  /// The terminal of gate `gate`.
  func terminal(ofGate gate: Int) -> String { terminals[Int(gateTerminal[gate])] }
}
