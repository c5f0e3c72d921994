import CommonTesting
import Foundation
import Testing

@testable import Reactive

@Suite struct BasicPublisherTests {
  @Test func just_sendsOnDemandThenFinishes() {
    let recorder = Just(5).record(demand: .none)
    #expect(recorder.events.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.events == [.value(5), .completion(.finished)])
  }

  @Test func fail_failsAtOnce() {
    let recorder = Fail<Int, TestError>(error: TestError(2)).record(demand: .none)
    #expect(recorder.events == [.completion(.failure(TestError(2)))])
    #expect(Fail(outputType: Int.self, failure: TestError()).error == TestError())
  }

  @Test func empty_finishesOrNever() {
    #expect(Empty<Int, Never>().record().events == [.completion(.finished)])
    #expect(Empty<Int, Never>(completeImmediately: false).record().events.isEmpty)
  }

  @Test func future_deliversItsResultToEverySubscriber() {
    nonisolated(unsafe) var promise: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { promise = $0 }
    let early = future.record()
    #expect(early.events.isEmpty)
    promise?(.success(7))
    promise?(.success(8))
    let late = future.record()
    #expect(early.events == [.value(7), .completion(.finished)])
    #expect(late.events == [.value(7), .completion(.finished)])
  }

  @Test func future_runsItsClosureOnceAtCreation() {
    let runs = Collector<Int>()
    let future = Future<Int, Never> { promise in
      runs.append(1)
      promise(.success(1))
    }
    #expect(runs.values.count == 1)
    _ = future.record()
    _ = future.record()
    #expect(runs.values.count == 1)
  }

  @Test func future_failure() {
    let future = Future<Int, TestError> { $0(.failure(TestError(9))) }
    #expect(future.record().events == [.completion(.failure(TestError(9)))])
  }

  @Test func future_waitsForDemand() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let recorder = future.record(demand: .none)
    #expect(recorder.events.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
  }

  @Test func future_fulfilledFromAnotherThread() {
    let future = Future<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(3)) }
    }
    let recorder = future.record()
    #expect(recorder.waitForCompletion())
    #expect(recorder.values == [3])
  }

  @Test func deferred_createsAPublisherPerSubscriber() {
    let created = Collector<Int>()
    let deferred = Deferred { () -> Just<Int> in
      created.append(1)
      return Just(created.values.count)
    }
    #expect(created.values.isEmpty)
    #expect(deferred.record().values == [1])
    #expect(deferred.record().values == [2])
  }

  @Test func anyPublisher_erasesAndForwards() {
    let subject = PassthroughSubject<Int, Never>()
    let erased = subject.eraseToAnyPublisher()
    let recorder = erased.record()
    subject.send(1)
    #expect(recorder.values == [1])
    #expect(erased.eraseToAnyPublisher().record().values.isEmpty)
  }
}

@Suite struct OperatorTests {
  struct Airport: Equatable {
    var code: String
    var name: String
  }

  @Test func map_andKeyPaths() {
    let subject = PassthroughSubject<Airport, Never>()
    let codes = subject.map(\.code).record()
    let pairs = subject.map(\.code, \.name).map { "\($0)=\($1)" }.record()
    let lengths = subject.map { $0.name.count }.record()
    subject.send(Airport(code: "LHR", name: "Heathrow"))
    #expect(codes.values == ["LHR"])
    #expect(pairs.values == ["LHR=Heathrow"])
    #expect(lengths.values == [8])
  }

  @Test func map_exposesUpstreamAndPassesDemandThrough() {
    let subject = PassthroughSubject<Int, Never>()
    let mapped = subject.map { $0 * 2 }
    #expect(mapped.upstream === subject)
    let recorder = mapped.record(demand: .max(1))
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [2])
  }

  @Test func tryMap_failsAndCancelsUpstreamOnThrow() {
    let subject = PassthroughSubject<Int, Never>()
    let cancelled = Collector<Bool>()
    let recorder = subject.handleEvents(receiveCancel: { cancelled.append(true) })
      .tryMap { value -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    #expect((recorder.failure as? TestError) == TestError(2))
    #expect(cancelled.values == [true])
  }

  @Test func compactMap_filter_removeDuplicates_scan() {
    let subject = PassthroughSubject<String, Never>()
    let numbers = subject.compactMap { Int($0) }.record()
    let long = subject.filter { $0.count > 1 }.record()
    let distinct = subject.removeDuplicates().record()
    let joined = subject.scan("") { $0 + $1 }.record()
    for value in ["1", "1", "x", "22", "22", "3"] { subject.send(value) }
    #expect(numbers.values == [1, 1, 22, 22, 3])
    #expect(long.values == ["22", "22"])
    #expect(distinct.values == ["1", "x", "22", "3"])
    #expect(joined.values == ["1", "11", "11x", "11x22", "11x2222", "11x22223"])
  }

  @Test func filter_asksUpstreamForMoreWhenItDrops() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.filter { $0.isMultiple(of: 2) }.record(demand: .max(2))
    for value in 1...10 { subject.send(value) }
    #expect(recorder.values == [2, 4])
  }

  @Test func tryFilter_tryRemoveDuplicates_tryCompactMap_tryScan() {
    let values = [1, 1, 2, 3]
    let subject = PassthroughSubject<Int, Never>()
    let filtered = subject.tryFilter { $0 < 3 }.record()
    let distinct = subject.tryRemoveDuplicates { $0 == $1 }.record()
    let compact = subject.tryCompactMap { $0 == 2 ? nil : $0 }.record()
    let scanned = subject.tryScan(0) { accumulated, value in
      if value == 3 { throw TestError(3) }
      return accumulated + value
    }.record()
    for value in values { subject.send(value) }
    #expect(filtered.values == [1, 1, 2])
    #expect(distinct.values == [1, 2, 3])
    #expect(compact.values == [1, 1, 3])
    #expect(scanned.values == [1, 2, 4])
    #expect((scanned.failure as? TestError) == TestError(3))
  }

  @Test func mapError_setFailureType_replaceNil() {
    let subject = PassthroughSubject<Int?, TestError>()
    let recorder = subject.replaceNil(with: 0).mapError { TestError($0.code + 100) }.record()
    subject.send(nil)
    subject.send(4)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.events == [.value(0), .value(4), .completion(.failure(TestError(101)))])
    let typed: AnyPublisher<Int, TestError> = Just(1).setFailureType(to: TestError.self).eraseToAnyPublisher()
    #expect(typed.record().events == [.value(1), .completion(.finished)])
  }

  @Test func flatMap_mergesInnerPublishers() {
    let outer = PassthroughSubject<Int, Never>()
    let inners = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
    let recorder = outer.flatMap { inners[$0] }.record()
    outer.send(0)
    inners[0].send("a")
    outer.send(1)
    inners[1].send("b")
    inners[0].send("c")
    outer.send(completion: .finished)
    inners[0].send(completion: .finished)
    #expect(!recorder.isFinished)
    inners[1].send(completion: .finished)
    #expect(recorder.events == [.value("a"), .value("b"), .value("c"), .completion(.finished)])
  }

  @Test func flatMap_maxPublishersSerialises() {
    let outer = PassthroughSubject<Int, Never>()
    let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
    let recorder = outer.flatMap(maxPublishers: .max(1)) { inners[$0] }.record()
    outer.send(0)
    outer.send(1)  // dropped: the flatMap asked for one inner publisher only
    inners[1].send(99)
    inners[0].send(1)
    inners[0].send(completion: .finished)
    outer.send(1)
    inners[1].send(2)
    #expect(recorder.values == [1, 2])
  }

  @Test func flatMap_honoursDownstreamDemand_andFailure() {
    let recorder = [1, 2, 3].publisher.flatMap { Just($0 * 10) }.record(demand: .max(2))
    #expect(recorder.values == [10, 20])
    recorder.request(.max(5))
    #expect(recorder.events == [.value(10), .value(20), .value(30), .completion(.finished)])
    let failing = Just(1).setFailureType(to: TestError.self)
      .flatMap { _ in Fail<Int, TestError>(error: TestError(5)) }.record()
    #expect(failing.events == [.completion(.failure(TestError(5)))])
  }

  @Test func switchToLatest_cancelsThePreviousInner() {
    let outer = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
    let first = PassthroughSubject<String, Never>()
    let second = PassthroughSubject<String, Never>()
    let cancelled = Collector<String>()
    let recorder = outer.map { inner in
      inner.handleEvents(receiveCancel: { cancelled.append(inner === first ? "first" : "second") })
    }.switchToLatest().record()
    outer.send(first)
    first.send("a")
    outer.send(second)
    first.send("stale")
    second.send("b")
    #expect(recorder.values == ["a", "b"])
    #expect(cancelled.values == ["first"])
    outer.send(completion: .finished)
    #expect(!recorder.isFinished)
    second.send(completion: .finished)
    #expect(recorder.isFinished)
  }

  @Test func catch_replacesTheFailedPublisher() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.catch { error in Just(error.code * -1) }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(4)))
    #expect(recorder.events == [.value(1), .value(-4), .completion(.finished)])
  }

  @Test func catch_requestsOutstandingDemandFromTheReplacement() {
    let subject = PassthroughSubject<Int, TestError>()
    let replacement = PassthroughSubject<Int, Never>()
    let recorder = subject.catch { _ in replacement }.record(demand: .max(3))
    subject.send(1)
    subject.send(completion: .failure(TestError()))
    for value in 2...9 { replacement.send(value) }
    #expect(recorder.values == [1, 2, 3])
  }

  @Test func tryCatch_failsWithTheThrownError() {
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .tryCatch { error -> Just<Int> in throw TestError(error.code + 1) }
      .record()
    #expect((recorder.failure as? TestError) == TestError(2))
    let recovered = Fail<Int, TestError>(error: TestError(1)).tryCatch { _ in Just(3) }.record()
    #expect(recovered.values == [3])
  }

  @Test func replaceError_sendsTheValueWhenThereIsDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.replaceError(with: 0).record(demand: .none)
    subject.send(completion: .failure(TestError()))
    #expect(recorder.events.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.events == [.value(0), .completion(.finished)])
  }

  @Test func handleEvents_callsEachClosureInOrder() {
    let log = Collector<String>()
    let subject = PassthroughSubject<Int, Never>()
    let publisher = subject.handleEvents(
      receiveSubscription: { _ in log.append("subscription") }, receiveOutput: { log.append("output \($0)") },
      receiveCompletion: { _ in log.append("completion") }, receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") })
    let recorder = publisher.record(demand: .max(2))
    subject.send(1)
    subject.send(completion: .finished)
    #expect(log.values == ["subscription", "request max(2)", "output 1", "completion"])
    #expect(recorder.isFinished)
    let other = PassthroughSubject<Int, Never>().handleEvents(receiveCancel: { log.append("cancel") }).record()
    other.cancel()
    other.cancel()
    #expect(log.values.last == "cancel")
    #expect(log.values.count == 5)
  }

  @Test func sink_receivesCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    let log = Collector<String>()
    let cancellable = subject.sink(
      receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(log.values == ["1", "failure(ReactiveTests.TestError(code: 2))"])
    _ = cancellable
  }

  @Test func sinkAndAssign_describeThemselves() {
    final class Box {
      var value = 0
    }
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.description == "Sink")
    #expect("\(sink.playgroundDescription)" == "Sink")
    #expect(sink.customMirror.children.isEmpty)
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    #expect(assign.description == "Assign Box.")
    #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath", "status"])
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(assign)
    assign.cancel()
    #expect(assign.object == nil)
  }
}
