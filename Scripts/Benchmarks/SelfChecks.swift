import Foundation

/// Checks of the benchmark's own logic, run at the start of every run (quick ones included, so
/// `Scripts/test` fails when they break): nearest-rank percentiles, the contention verifier on
/// hand-made correct and broken ledgers, and the hard-pair selection on a small graph. The
/// benchmark target has no test target of its own; this is its test.
enum SelfChecks {
  /// The failed checks, in words (empty when all pass), and how many ran.
  static func run() -> (failures: [String], count: Int) {
    var failures: [String] = []
    var count = 0
    func check(_ condition: Bool, _ what: String) {
      count += 1
      if !condition { failures.append(what) }
    }

    // Percentiles (nearest rank).
    let hundred = (1...100).map(Double.init)
    check(Figure.percentile(hundred, 0.5) == 50, "median of 1…100 is 50")
    check(Figure.percentile(hundred, 0.95) == 95, "p95 of 1…100 is 95")
    check(Figure.percentile(hundred, 0.99) == 99, "p99 of 1…100 is 99")
    check(Figure.percentile([7], 0.99) == 7, "p99 of one value is that value")
    check(Figure.percentile([], 0.5) == 0, "percentile of nothing is 0")
    check(Figure.percentile([1, 2, 3], 0.5) == 2, "median of 1, 2, 3 is 2")
    let figure = Figure(name: "x", unit: "ms", target: 10, values: hundred.reversed())
    check(
      figure.median == 50 && figure.p95 == 95 && figure.p99 == 99 && figure.samples == 100, "Figure sorts its samples")
    check(!figure.passes, "p95 95 misses a target of 10")
    let rate = Figure(name: "r", unit: "1/s", goal: .atLeast, target: 500, values: [400, 600, 700])
    check(rate.passes && rate.checkedValue == 600, "a throughput is checked on its median")

    // The contention verifier: a correct ledger passes, each kind of damage is caught.
    let good = sampleLedger()
    check(good.violations().isEmpty, "a correct ledger verifies (got \(good.violations()))")
    var damaged: [(String, ContentionLedger)] = []
    var lost = good
    lost.reservations.removeLast()
    damaged.append(("a reported reservation missing from the store", lost))
    var doubled = good
    doubled.reported[1].append(good.reported[0][0])
    damaged.append(("a reservation reported by two workers", doubled))
    var unreported = good
    unreported.reported[1].removeLast()
    damaged.append(("a stored reservation no worker was given", unreported))
    var oversold = good
    oversold.booked["2026-12-01"] = 3
    oversold.holds.append(.init(reservationID: "r2", nights: ["2026-12-01"], rooms: 1))
    damaged.append(("a night oversold", oversold))
    var untaken = good
    untaken.booked["2026-12-02"] = 1
    damaged.append(("inventory taken below the reservations", untaken))
    var extraCharge = good
    extraCharge.payments.append(.init(id: "p9", reservationID: nil, status: "captured", capturedMinor: 100))
    damaged.append(("a charge without a reservation", extraCharge))
    var wrongCharge = good
    wrongCharge.payments[0].status = "authorized"
    damaged.append(("a charge never captured", wrongCharge))
    var unsold = good
    unsold.reservations.removeLast()
    unsold.reported[1].removeLast()
    unsold.holds.removeLast()
    unsold.payments.removeLast()
    unsold.booked["2026-12-02"] = 1
    damaged.append(("a room left unsold though demand exceeded supply", unsold))
    for (what, ledger) in damaged {
      check(!ledger.violations().isEmpty, "the verifier catches \(what)")
    }

    // Hard pairs: S1 → H1 → H2 → S2 needs two stops; T1 → H1 → S3 needs one (not hard).
    let airports: [HardPairSelector.Airport] = [
      .init(iata: "SA1", latitude: 48, longitude: 2, continent: "EU"),
      .init(iata: "HB1", latitude: 49, longitude: 3, continent: "EU"),
      .init(iata: "HB2", latitude: 40, longitude: -74, continent: "NA"),
      .init(iata: "SA2", latitude: 41, longitude: -75, continent: "NA"),
      .init(iata: "SA3", latitude: 39, longitude: -76, continent: "NA"),
    ]
    let routes = [
      ("SA1", "HB1"), ("HB1", "SA1"), ("HB1", "HB2"), ("HB2", "HB1"), ("HB2", "SA2"), ("SA2", "HB2"),
      ("HB1", "SA3"), ("SA3", "HB1"),
    ].map { (origin: $0.0, destination: $0.1) }
    let pairs = Array(
      HardPairSelector(airports: airports, routes: routes).candidates(neighbours: HardPairSelector.regional))
    let codes = Set(pairs.map { [$0.origin, $0.destination] })
    check(codes == [["SA1", "SA2"]] || codes == [["SA2", "SA1"]], "the only hard pair is SA1–SA2 (got \(pairs))")
    let again = Array(
      HardPairSelector(airports: airports, routes: routes).candidates(neighbours: HardPairSelector.regional))
    check(again == pairs, "the selection is deterministic")
    let shortcut = routes + [(origin: "HB1", destination: "SA2"), (origin: "SA2", destination: "HB1")]
    check(
      Array(HardPairSelector(airports: airports, routes: shortcut).candidates(neighbours: HardPairSelector.regional))
        .allSatisfy {
          !([$0.origin, $0.destination] == ["SA1", "SA2"] || [$0.origin, $0.destination] == ["SA2", "SA1"])
        }, "a one-stop path makes a pair not hard")
    check(
      Array(HardPairSelector(airports: airports, routes: routes).candidates(neighbours: HardPairSelector.busy)).isEmpty,
      "no busy pairs in a graph of small airports")
    return (failures, count)
  }

  /// Two workers, two nights of two rooms, all four sold: a correct ledger.
  static func sampleLedger() -> ContentionLedger {
    let nights = ["2026-12-01", "2026-12-02"]
    let ids = ["r1", "r2", "r3", "r4"]
    return ContentionLedger(
      reported: [["r1", "r3"], ["r2", "r4"]],
      reservations: ids.enumerated().map { .init(id: $1, status: "confirmed", totalMinor: 100, paymentID: "p\($0)") },
      payments: ids.enumerated().map { .init(id: "p\($0)", reservationID: $1, status: "captured", capturedMinor: 100) },
      holds: ids.enumerated().map { .init(reservationID: $1, nights: [nights[$0 / 2]], rooms: 1) },
      booked: ["2026-12-01": 2, "2026-12-02": 2], nights: nights, capacity: 2)
  }
}
