import Foundation
import Reactive
import Testing

/// `Subscribers.Demand` exactly as Combine's public interface defines it (its operators are
/// inlined into Combine's clients, so Combine code observes precisely this arithmetic).
@Suite(.timeLimit(.minutes(1)))
struct DemandConformanceTests {
  typealias Demand = Subscribers.Demand

  @Test func addition_unlimitedAbsorbs_andOverflowIsUnlimited() {
    #expect(Demand.max(42) + .unlimited == .unlimited)
    #expect(Demand.unlimited + .max(42) == .unlimited)
    #expect(Demand.unlimited + .unlimited == .unlimited)
    #expect(Demand.max(100) + .max(42) == .max(142))
    #expect(Demand.max(81) + 42 == .max(123))
    #expect(Demand.unlimited + 42 == .unlimited)
    #expect(Demand.max(Int.max) + 1 == .unlimited)
    #expect(Demand.max(Int.max) + .max(1) == .unlimited)
    #expect(Demand.max(5) + (-3) == .max(2))
    var demand = Demand.unlimited
    demand += Int.min
    #expect(demand == .unlimited, "adding to .unlimited leaves it unlimited, whatever is added")
    demand += .max(3)
    #expect(demand == .unlimited)
    demand = .none
    demand += .max(1)
    demand += 21
    #expect(demand == .max(22))
  }

  @Test func subtraction_unlimitedStays_finiteMinusUnlimitedIsNone_overflowIsNone() {
    #expect(Demand.max(42) - .unlimited == .none)
    #expect(Demand.unlimited - .unlimited == .unlimited)
    #expect(Demand.unlimited - .max(42) == .unlimited)
    #expect(Demand.max(100) - .max(42) == .max(58))
    #expect(Demand.max(81) - 42 == .max(39))
    #expect(Demand.unlimited - 42 == .unlimited)
    #expect(Demand.max(3) - (-2) == .max(5))
    #expect(Demand.max(Int.max) - (-1) == .none, "an overflowing subtraction gives .max(0), as in Combine")
    var demand = Demand.max(Int.max)
    demand -= -1
    #expect(demand == .none)
    demand = .unlimited
    demand -= Int.max
    demand -= .unlimited
    #expect(demand == .unlimited)
    demand = .max(100)
    demand -= .max(1)
    demand -= 21
    demand -= .unlimited
    #expect(demand == .none)
  }

  @Test func multiplication() {
    #expect(Demand.max(42) * 2 == .max(84))
    #expect(Demand.unlimited * Int.max == .unlimited)
    #expect(Demand.max(Int.max) * 2 == .unlimited)
    #expect(Demand.max(0) * -1 == .none, "a zero product is valid whatever the sign of the factor")
    var demand = Demand.max(20)
    demand *= 2
    #expect(demand == .max(40))
    demand = .unlimited
    demand *= 0
    #expect(demand == .unlimited)
  }

  @Test func comparisons_withDemandsAndInts() {
    #expect(!(Demand.unlimited < .unlimited) && Demand.unlimited <= .unlimited && Demand.unlimited >= .unlimited)
    #expect(Demand.unlimited > .max(Int.max) && !(Demand.unlimited <= .max(42)))
    #expect(Demand.max(42) < .unlimited && !(Demand.max(42) >= .unlimited))
    #expect(Demand.unlimited > 42 && Demand.unlimited >= 42 && !(Demand.unlimited <= 42) && !(Demand.unlimited < 42))
    #expect(Demand.unlimited != 42 && !(Demand.unlimited == 42))
    #expect(42 < Demand.unlimited && 42 <= Demand.unlimited && !(42 > Demand.unlimited) && !(42 >= Demand.unlimited))
    #expect(!(42 == Demand.unlimited) && 42 != Demand.unlimited)
    #expect(Demand.max(42) < 100 && Demand.max(42) <= 100 && !(Demand.max(42) > 100) && !(Demand.max(42) >= 100))
    #expect(Demand.max(100) == 100 && 100 == Demand.max(100) && !(Demand.max(100) != 100))
    #expect(142 > Demand.max(100) && 142 >= Demand.max(100) && !(142 < Demand.max(100)))
    #expect(Demand.none == 0 && Demand.max(0) == .none && Demand.none < 1 && !(Demand.none < 0))
    #expect(Demand.max(1) > -5 && !(Demand.max(1) == -1))
  }

  @Test func maxAndDescription() {
    #expect(Demand.none.max == 0)
    #expect(Demand.max(42).max == 42)
    #expect(Demand.unlimited.max == nil)
    #expect(Demand.none.description == "max(0)")
    #expect(Demand.max(42).description == "max(42)")
    #expect(Demand.unlimited.description == "unlimited")
  }

  @Test func codable_asOneNumber_tooBigIsUnlimited_negativeThrows() throws {
    struct Wrapper: Codable, Equatable { var value: Subscribers.Demand }
    let encoded = try JSONEncoder().encode(Wrapper(value: .max(42)))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":42}"#)
    let unlimited = try JSONEncoder().encode(Wrapper(value: .unlimited))
    #expect(String(decoding: unlimited, as: UTF8.self) == #"{"value":\#(UInt(Int.max) + 1)}"#)
    #expect(try JSONDecoder().decode(Wrapper.self, from: unlimited) == Wrapper(value: .unlimited))
    let tooBig = Data(#"{"value":\#(UInt(Int.max) + 2)}"#.utf8)
    #expect(try JSONDecoder().decode(Wrapper.self, from: tooBig) == Wrapper(value: .unlimited))
    #expect(throws: (any Error).self) { try JSONDecoder().decode(Wrapper.self, from: Data(#"{"value":-1}"#.utf8)) }
  }

  @Test func hashable_equalDemandsHashEqually() {
    #expect(Set([Demand.max(1), .max(1), .unlimited, .none]).count == 3)
  }

  // A result below zero is a programming error in Combine's implementation (its documentation
  // claims `.max(0)`, its inlined code traps): code written against Combine sees the trap.

  @Test func negativeMax_traps() async {
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(-1) }
  }

  @Test func subtractionBelowZero_traps() async {
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(1) - .max(2) }
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(1) - 2 }
  }

  @Test func additionBelowZero_traps() async {
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(1) + (-2) }
  }

  @Test func negativeProduct_traps() async {
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(2) * -1 }
  }
}
