import CommonTesting
import Foundation
import Testing

@testable import Reactive

@Suite struct ReducingOperatorTests {
  @Test func reduce_collect_count_ignoreOutput() {
    #expect([1, 2, 3].publisher.reduce(0, +).record().events == [.value(6), .completion(.finished)])
    #expect([1, 2, 3].publisher.collect().record().values == [[1, 2, 3]])
    #expect([1, 2, 3].publisher.count().record().values == [3])
    #expect([1, 2, 3].publisher.ignoreOutput().record().isFinished)
    #expect([Int]().publisher.collect().record().values == [[]])
  }

  @Test func reduce_waitsForDemand_andFailsWithUpstream() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.reduce(0, +).record(demand: .none)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.events.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.events == [.value(2), .completion(.finished)])
    let failing = Fail<Int, TestError>(error: TestError()).collect().record()
    #expect(failing.events == [.completion(.failure(TestError()))])
  }

  @Test func tryReduce_failsOnThrow() {
    let recorder = [1, 2, 3].publisher.tryReduce(0) { sum, value in
      if value == 2 { throw TestError(2) }
      return sum + value
    }.record()
    #expect((recorder.failure as? TestError) == TestError(2))
  }

  @Test func first_last_contains_allSatisfy_minMax() {
    let subject = PassthroughSubject<Int, Never>()
    let first = subject.first().record()
    let firstEven = subject.first { $0.isMultiple(of: 2) }.record()
    let last = subject.last().record()
    let lastOdd = subject.last { !$0.isMultiple(of: 2) }.record()
    let containsThree = subject.contains(3).record()
    let allPositive = subject.allSatisfy { $0 > 0 }.record()
    let allSmall = subject.allSatisfy { $0 < 3 }.record()
    let minimum = subject.min().record()
    let maximum = subject.max().record()
    for value in [3, 1, 4, 1, 5] { subject.send(value) }
    #expect(first.events == [.value(3), .completion(.finished)])
    #expect(firstEven.events == [.value(4), .completion(.finished)])
    #expect(containsThree.events == [.value(true), .completion(.finished)])
    #expect(allSmall.events == [.value(false), .completion(.finished)])
    #expect(last.events.isEmpty)
    subject.send(completion: .finished)
    #expect(last.values == [5])
    #expect(lastOdd.values == [5])
    #expect(allPositive.values == [true])
    #expect(minimum.values == [1])
    #expect(maximum.values == [5])
  }

  @Test func tryVariants() {
    let values = [1, 2, 3].publisher
    #expect(values.tryFirst { $0 > 1 }.record().values == [2])
    #expect(values.tryLast { $0 < 3 }.record().values == [2])
    #expect(values.tryContains { $0 == 3 }.record().values == [true])
    #expect(values.tryAllSatisfy { $0 < 9 }.record().values == [true])
    let failing = values.tryFirst { _ in throw TestError(7) }.record()
    #expect((failing.failure as? TestError) == TestError(7))
  }

  @Test func replaceEmpty() {
    #expect(Empty<Int, Never>().replaceEmpty(with: 9).record().events == [.value(9), .completion(.finished)])
    #expect(Just(1).replaceEmpty(with: 9).record().values == [1])
  }
}

@Suite struct SlicingOperatorTests {
  @Test func prefix_dropFirst_output() {
    let numbers = (1...6).publisher
    #expect(numbers.prefix(2).record().events == [.value(1), .value(2), .completion(.finished)])
    #expect(numbers.dropFirst(4).record().values == [5, 6])
    #expect(numbers.dropFirst().record().values == [2, 3, 4, 5, 6])
    #expect(numbers.output(at: 2).record().values == [3])
    #expect(numbers.output(in: 1..<3).record().values == [2, 3])
    #expect(numbers.prefix(while: { $0 < 3 }).record().values == [1, 2])
    #expect(numbers.drop(while: { $0 < 5 }).record().values == [5, 6])
    #expect(numbers.tryPrefix(while: { $0 < 2 }).record().values == [1])
    #expect(numbers.tryDrop(while: { $0 < 6 }).record().values == [6])
  }

  @Test func prefix_cancelsUpstreamWhenDone() {
    let subject = PassthroughSubject<Int, Never>()
    let cancelled = Collector<Bool>()
    let recorder = subject.handleEvents(receiveCancel: { cancelled.append(true) }).prefix(1).record()
    subject.send(1)
    #expect(recorder.isFinished)
    #expect(cancelled.values == [true])
  }

  @Test func collectByCount_sendsTheRemainderAtTheEnd() {
    #expect((1...5).publisher.collect(2).record().values == [[1, 2], [3, 4], [5]])
    #expect((1...4).publisher.collect(2).record().values == [[1, 2], [3, 4]])
  }

  @Test func appendAndPrepend() {
    #expect(Just(2).append(3, 4).prepend(1).record().values == [1, 2, 3, 4])
    let failing = Fail<Int, TestError>(error: TestError()).append(Just(1).setFailureType(to: TestError.self)).record()
    #expect(failing.events == [.completion(.failure(TestError()))])
  }
}

@Suite struct CombiningOperatorTests {
  @Test func combineLatest_sendsOnceAllHaveAValue() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let recorder = a.combineLatest(b) { "\($0)\($1)" }.record()
    a.send(1)
    #expect(recorder.values.isEmpty)
    b.send("x")
    a.send(2)
    b.send("y")
    #expect(recorder.values == ["1x", "2x", "2y"])
    a.send(completion: .finished)
    #expect(!recorder.isFinished)
    b.send(completion: .finished)
    #expect(recorder.isFinished)
  }

  @Test func combineLatest3And4_andFailure() {
    let a = CurrentValueSubject<Int, TestError>(1)
    let b = CurrentValueSubject<Int, TestError>(2)
    let c = CurrentValueSubject<Int, TestError>(3)
    let d = CurrentValueSubject<Int, TestError>(4)
    let three = a.combineLatest(b, c) { $0 + $1 + $2 }.record()
    let four = a.combineLatest(b, c, d).map { $0 + $1 + $2 + $3 }.record()
    c.send(10)
    b.send(completion: .failure(TestError(8)))
    #expect(three.events == [.value(6), .value(13), .completion(.failure(TestError(8)))])
    #expect(four.events == [.value(10), .value(17), .completion(.failure(TestError(8)))])
  }

  @Test func zip_pairsTheNthValues() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let recorder = a.zip(b).map { "\($0)\($1)" }.record()
    a.send(1)
    a.send(2)
    b.send("x")
    #expect(recorder.values == ["1x"])
    b.send("y")
    b.send("z")
    #expect(recorder.values == ["1x", "2y"])
    a.send(completion: .finished)  // nothing left to pair "z" with
    #expect(recorder.events == [.value("1x"), .value("2y"), .completion(.finished)])
    let three = (1...3).publisher.zip((4...6).publisher, (7...9).publisher) { $0 + $1 + $2 }.record()
    #expect(three.events == [.value(12), .value(15), .value(18), .completion(.finished)])
    let four = Just(1).zip(Just(2), Just(3), Just(4)).map { $0 + $1 + $2 + $3 }.record()
    #expect(four.values == [10])
  }

  @Test func zip_finishesWhenAnUpstreamIsExhausted() {
    let recorder = (1...3).publisher.zip((1...2).publisher).map { $0 * $1 }.record()
    #expect(recorder.events == [.value(1), .value(4), .completion(.finished)])
  }

  @Test func merge_interleavesAndFinishesWhenAllFinish() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let c = PassthroughSubject<Int, Never>()
    let recorder = a.merge(with: b).record()
    let three = a.merge(with: b, c).record()
    a.send(1)
    b.send(2)
    c.send(3)
    a.send(completion: .finished)
    b.send(completion: .finished)
    #expect(recorder.events == [.value(1), .value(2), .completion(.finished)])
    #expect(three.values == [1, 2, 3])
    #expect(!three.isFinished)
    let many = Publishers.MergeMany([Just(1), Just(2), Just(3)]).collect().record()
    #expect(many.values == [[1, 2, 3]])
    let four = Just(1).merge(with: Just(2), Just(3), Just(4)).count().record()
    #expect(four.values == [4])
  }
}

@Suite struct SharingAndRetryTests {
  @Test func share_subscribesUpstreamOnce() {
    let subscriptions = Collector<Int>()
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.handleEvents(receiveSubscription: { _ in subscriptions.append(1) }).map { $0 * 10 }.share()
    let first = shared.record()
    let second = shared.record()
    subject.send(1)
    #expect(first.values == [10])
    #expect(second.values == [10])
    #expect(subscriptions.values.count == 1)
  }

  @Test func share_cancelsUpstreamWhenTheLastSubscriberCancels() {
    let cancelled = Collector<Bool>()
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.handleEvents(receiveCancel: { cancelled.append(true) }).share()
    let first = shared.record()
    let second = shared.record()
    first.cancel()
    #expect(cancelled.values.isEmpty)
    second.cancel()
    #expect(cancelled.values == [true])
  }

  @Test func makeConnectable_waitsForConnect_andAutoconnect() {
    let connectable = [1, 2].publisher.makeConnectable()
    let recorder = connectable.record()
    #expect(recorder.events.isEmpty)
    let connection = connectable.connect()
    #expect(recorder.events == [.value(1), .value(2), .completion(.finished)])
    _ = connection
    let subject = PassthroughSubject<Int, Never>()
    let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
    let viaMulticast = multicast.autoconnect().record()
    subject.send(5)
    #expect(viaMulticast.values == [5])
    let explicit = subject.multicast(subject: PassthroughSubject<Int, Never>())
    let explicitRecorder = explicit.record()
    subject.send(6)
    #expect(explicitRecorder.values.isEmpty)
    let explicitConnection = explicit.connect()
    subject.send(7)
    #expect(explicitRecorder.values == [7])
    explicitConnection.cancel()
    subject.send(8)
    #expect(explicitRecorder.values == [7])
  }

  @Test func retry_resubscribesAfterFailure() {
    let attempts = Collector<Int>()
    let publisher = Deferred { () -> AnyPublisher<Int, TestError> in
      attempts.append(1)
      return attempts.values.count < 3
        ? Fail(error: TestError(attempts.values.count)).eraseToAnyPublisher()
        : Just(42).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }
    #expect(publisher.retry(2).record().events == [.value(42), .completion(.finished)])
    #expect(attempts.values.count == 3)
    let exhausted = Fail<Int, TestError>(error: TestError(1)).retry(2).record()
    #expect(exhausted.events == [.completion(.failure(TestError(1)))])
  }
}

@Suite struct TimeOperatorTests {
  @Test func delay_shiftsValuesAndCompletion() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.delay(for: .seconds(1), scheduler: scheduler).record()
    subject.send(1)
    scheduler.advance(by: .milliseconds(500))
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.events.isEmpty)
    scheduler.advance(by: .milliseconds(500))
    #expect(recorder.events == [.value(1)])
    scheduler.advance(by: .milliseconds(500))
    #expect(recorder.events == [.value(1), .value(2), .completion(.finished)])
  }

  @Test func throttle_latestAndFirst() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let latest = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).record()
    let first = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).record()
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(latest.values == [1, 3])
    #expect(first.values == [1, 2])
    scheduler.advance(by: .seconds(5))
    subject.send(4)
    scheduler.advance()
    #expect(latest.values == [1, 3, 4])
  }

  @Test func timeout_finishesOrFails() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, TestError>()
    let finishing = subject.timeout(.seconds(2), scheduler: scheduler).record()
    let failing = subject.timeout(.seconds(2), scheduler: scheduler, customError: { TestError(408) }).record()
    scheduler.advance(by: .seconds(1))
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(finishing.events == [.value(1)])
    scheduler.advance(by: .seconds(1))
    #expect(finishing.events == [.value(1), .completion(.finished)])
    #expect(failing.events == [.value(1), .completion(.failure(TestError(408)))])
  }
}

@Suite struct CodingAndResultTests {
  struct Flight: Codable, Equatable {
    var number: String
  }

  @Test func decodeAndEncode_withJSONAndPropertyLists() throws {
    let json = Just(Data(#"{"number":"LH400"}"#.utf8)).decode(type: Flight.self, decoder: JSONDecoder()).record()
    #expect(json.values == [Flight(number: "LH400")])
    let encoded = Just(Flight(number: "BA1")).encode(encoder: PropertyListEncoder())
      .decode(type: Flight.self, decoder: PropertyListDecoder()).record()
    #expect(encoded.values == [Flight(number: "BA1")])
    let bad = Just(Data("nope".utf8)).decode(type: Flight.self, decoder: JSONDecoder()).record()
    #expect(bad.failure is DecodingError)
  }

  @Test func resultPublisher() {
    let success: Result<Int, TestError> = .success(3)
    let failure: Result<Int, TestError> = .failure(TestError(4))
    #expect(success.publisher.record().events == [.value(3), .completion(.finished)])
    #expect(failure.publisher.record().events == [.completion(.failure(TestError(4)))])
  }
}

@Suite struct AsyncBridgeTests {
  @Test func values_iteratesAndEnds() async {
    var collected: [Int] = []
    for await value in (1...3).publisher.values { collected.append(value) }
    #expect(collected == [1, 2, 3])
  }

  @Test func values_requestsOneElementPerNext() async {
    let requests = Collector<Subscribers.Demand>()
    let publisher = (1...100).publisher.handleEvents(receiveRequest: { requests.append($0) })
    var iterator = publisher.values.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
    #expect(requests.values == [.max(1), .max(1)])
  }

  @Test func values_throwsTheFailure() async {
    let publisher = (1...2).publisher.setFailureType(to: TestError.self).append(Fail(error: TestError(5)))
    var collected: [Int] = []
    do {
      for try await value in publisher.values { collected.append(value) }
      Issue.record("expected a failure")
    } catch {
      #expect(error as? TestError == TestError(5))
    }
    #expect(collected == [1, 2])
  }

  @Test func values_fromASubjectSentOnAnotherThread() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    var iterator = subject.values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { subject.send(completion: .finished) }
    #expect(await iterator.next() == nil)
  }

  @Test func future_asyncValue() async throws {
    let future = Future<Int, Never> { promise in DispatchQueue.global().async { promise(.success(4)) } }
    #expect(await future.value == 4)
    let failing = Future<Int, TestError> { $0(.failure(TestError(6))) }
    await #expect(throws: TestError(6)) { try await failing.value }
  }

  @Test func asyncFunctionToPublisher() async throws {
    @Sendable func fetch() async throws -> String { "LHR" }
    @Sendable func fail() async throws -> String { throw TestError(9) }
    let recorder = Future(operation: fetch).record()
    // Polls without blocking a thread of the cooperative pool (the operation's task needs one).
    for _ in 0..<500 where recorder.completion == nil { try await Task.sleep(for: .milliseconds(10)) }
    #expect(recorder.isFinished)
    #expect(recorder.values == ["LHR"])
    #expect(try await Future(operation: fetch).value == "LHR")
    await #expect(throws: TestError(9)) { try await Future(operation: fail).value }
    let lazy = Deferred {
      Future<Int, Never> {
        await Task.yield()
        return 1
      }
    }
    #expect(await lazy.values.first { _ in true } == 1)
  }
}

@Suite struct DebugDescriptionTests {
  private func subscription<P: Publisher>(of publisher: P) -> Subscription? {
    let subscriber = ManualSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.subscription
  }

  @Test func subscriptions_areDescribedReflectedAndPlaygroundDisplayable() {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = DispatchQueue.test
    let subscriptions: [Subscription?] = [
      subscription(of: subject), subscription(of: CurrentValueSubject<Int, Never>(0)), subscription(of: Just(1)),
      subscription(of: [1].publisher), subscription(of: subject.map { $0 }), subscription(of: subject.collect()),
      subscription(of: subject.flatMap { Just($0) }), subscription(of: subject.merge(with: subject)),
      subscription(of: subject.combineLatest(subject)), subscription(of: subject.zip(subject)),
      subscription(of: subject.replaceError(with: 0)), subscription(of: subject.handleEvents()),
      subscription(of: subject.receive(on: scheduler)),
      subscription(of: subject.debounce(for: 1, scheduler: scheduler)),
      subscription(of: subject.delay(for: 1, scheduler: scheduler)), subscription(of: subject.retry(1)),
      subscription(of: subject.share()), subscription(of: Empty<Int, Never>()),
    ]
    for (index, subscription) in subscriptions.enumerated() {
      guard let subscription else {
        Issue.record("no subscription for publisher \(index)")
        continue
      }
      #expect(!String(describing: subscription).isEmpty)
      #expect(subscription is CustomStringConvertible)
      // `share` hands the upstream subscription through (as Combine's Autoconnect does), with
      // that subscription's description and no mirror of its own.
      if index != 16 { #expect(subscription is CustomReflectable) }
      #expect(subscription is CustomPlaygroundDisplayConvertible)
    }
  }
}
