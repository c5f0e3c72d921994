import Foundation
import Testing

@testable import Reactive

@Suite struct DemandTests {
  @Test func arithmetic_saturatesAndKeepsUnlimited() {
    #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
    #expect(Subscribers.Demand.max(2) + 3 == .max(5))
    #expect(Subscribers.Demand.max(2) + .unlimited == .unlimited)
    #expect(Subscribers.Demand.unlimited + 1 == .unlimited)
    #expect(Subscribers.Demand.max(Int.max) + 1 == .unlimited)
    #expect(Subscribers.Demand.max(5) - .max(2) == .max(3))
    #expect(Subscribers.Demand.unlimited - .max(5) == .unlimited)
    #expect(Subscribers.Demand.max(5) - .unlimited == .none)
    #expect(Subscribers.Demand.max(3) * 4 == .max(12))
    #expect(Subscribers.Demand.unlimited * 4 == .unlimited)
    #expect(Subscribers.Demand.max(Int.max) * 2 == .unlimited)
    var demand = Subscribers.Demand.max(1)
    demand += 1
    demand -= .max(1)
    demand *= 3
    #expect(demand == .max(3))
  }

  @Test func comparison_unlimitedIsGreatest() {
    #expect(Subscribers.Demand.unlimited > .max(Int.max))
    #expect(Subscribers.Demand.max(1) < .max(2))
    #expect(Subscribers.Demand.none < .max(1))
    #expect(Subscribers.Demand.unlimited > 1_000_000)
    #expect(Subscribers.Demand.max(3) == 3)
    #expect(3 == Subscribers.Demand.max(3))
    #expect(Subscribers.Demand.unlimited != 3)
    #expect(Subscribers.Demand.max(3) >= 3 && Subscribers.Demand.max(3) <= 3)
    #expect(0 < Subscribers.Demand.max(1))
    #expect(Subscribers.Demand.max(2).max == 2)
    #expect(Subscribers.Demand.unlimited.max == nil)
  }

  @Test func description_matchesCombine() {
    #expect(Subscribers.Demand.unlimited.description == "unlimited")
    #expect(Subscribers.Demand.max(3).description == "max(3)")
    #expect(Subscribers.Demand.none.description == "max(0)")
  }

  @Test func codable_roundTripsAsOneNumber() throws {
    let data = try JSONEncoder().encode([Subscribers.Demand.max(7), .unlimited, .none])
    #expect(String(decoding: data, as: UTF8.self) == "[7,9223372036854775808,0]")
    #expect(try JSONDecoder().decode([Subscribers.Demand].self, from: data) == [.max(7), .unlimited, .none])
  }

  @Test func negativeDemand_traps() async {
    await #expect(processExitsWith: .failure) {
      _ = Subscribers.Demand.max(-1)
    }
  }

  @Test func requestingNone_traps() async {
    await #expect(processExitsWith: .failure) {
      let subscriber = ManualSubscriber<Int, Never>()
      PassthroughSubject<Int, Never>().subscribe(subscriber)
      subscriber.subscription?.request(.none)
    }
  }

  @Test func requestingNoneFromAnOperator_traps() async {
    await #expect(processExitsWith: .failure) {
      let subscriber = ManualSubscriber<Int, Never>()
      Just(1).map { $0 }.subscribe(subscriber)
      subscriber.subscription?.request(.none)
    }
  }
}

@Suite struct CompletionTests {
  @Test func codable_whenFailureIs() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let finished = Subscribers.Completion<TestError>.finished
    let failure = Subscribers.Completion<TestError>.failure(TestError(4))
    #expect(String(decoding: try encoder.encode(finished), as: UTF8.self) == #"{"success":true}"#)
    #expect(String(decoding: try encoder.encode(failure), as: UTF8.self) == #"{"error":{"code":4},"success":false}"#)
    let decoded = try JSONDecoder().decode(
      [Subscribers.Completion<TestError>].self, from: try encoder.encode([finished, failure]))
    #expect(decoded == [finished, failure])
  }
}

@Suite struct CancellableTests {
  @Test func anyCancellable_cancelsWhenReleased() {
    let cancelled = Collector<Int>()
    var cancellable: AnyCancellable? = AnyCancellable { cancelled.append(1) }
    #expect(cancelled.values.isEmpty)
    _ = cancellable
    cancellable = nil
    #expect(cancelled.values == [1])
  }

  @Test func anyCancellable_cancelsOnce() {
    let cancelled = Collector<Int>()
    let cancellable = AnyCancellable { cancelled.append(1) }
    cancellable.cancel()
    cancellable.cancel()
    #expect(cancelled.values == [1])
  }

  @Test func store_inSetAndArray() {
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    AnyCancellable {}.store(in: &set)
    AnyCancellable {}.store(in: &array)
    #expect(set.count == 1)
    #expect(array.count == 1)
  }

  @Test func combineIdentifier_uniqueOrByObject() {
    #expect(CombineIdentifier() != CombineIdentifier())
    let object = NSObject()
    #expect(CombineIdentifier(object) == CombineIdentifier(object))
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.combineIdentifier == CombineIdentifier(sink))
    #expect(AnySubscriber(sink).combineIdentifier == sink.combineIdentifier)
  }
}
