import Foundation

/// OperationsRandom (Steele, Lea and Flood, 2014): a small, fast generator whose whole state is one
/// integer, so every flight of the simulation gets its own stream from its key and the day's
/// seed, and the results never depend on the order flights are processed in.
struct OperationsRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// A stream for `parts` (each mixed in turn).
  init(_ parts: UInt64...) {
    var state: UInt64 = 0x243F_6A88_85A3_08D3
    for part in parts { state = OperationsRandom.mix(state ^ part &+ 0x9E37_79B9_7F4A_7C15) }
    self.state = state
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func next() -> UInt64 {
    state = state &+ 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

  /// Uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }

  /// Whether an event of probability `p` happens.
  mutating func chance(_ p: Double) -> Bool { unit() < p }

  /// Exponentially distributed with mean `mean`.
  mutating func exponential(mean: Double) -> Double { -mean * log(1 - unit()) }
}
