import Foundation
import Reactive
import Testing

/// `publisher.values` never hangs: it finishes with the publisher, throws its failure, stops
/// when the consuming task is cancelled, and keeps demand at one value per waiting `next()` —
/// in every order these events can come in. Each case runs under a deadline.
@Suite(.timeLimit(.minutes(1)))
struct AsyncBridgeConformanceTests {
  /// Shares one iterator between tasks (an iterator is a value; the actor serialises access).
  actor SharedIterator<Base: AsyncIteratorProtocol & Sendable> where Base.Element: Sendable {
    var base: Base
    init(_ base: Base) { self.base = base }
    func next() async throws -> Base.Element? {
      var copy = base
      defer { base = copy }
      return try await copy.next()
    }
  }

  typealias Upstream = TestPublisher<Int, TestError>

  @Test func values_ofASequence_nonThrowingAndThrowing() async throws {
    let plain = await finishesInTime {
      var collected: [Int] = []
      for await value in (1...5).publisher.values { collected.append(value) }
      return collected
    }
    #expect(try plain?.get() == [1, 2, 3, 4, 5])
    let throwing = await finishesInTime {
      var collected: [Int] = []
      for try await value in (1...5).publisher.setFailureType(to: TestError.self).values { collected.append(value) }
      return collected
    }
    #expect(try throwing?.get() == [1, 2, 3, 4, 5])
  }

  @Test func demandIsOneValuePerNext() async throws {
    let upstream = Upstream()
    let values = upstream.values
    let outcome = await finishesInTime {
      var iterator = values.makeAsyncIterator()
      let feeder = Task {
        for value in 1...3 {
          while upstream.subscription?.events.count ?? 0 < value { await Task.yield() }
          upstream.send(value)
        }
        upstream.send(completion: .finished)
      }
      var collected: [Int] = []
      while let value = try await iterator.next() { collected.append(value) }
      await feeder.value
      return collected
    }
    #expect(try outcome?.get() == [1, 2, 3])
    let events = upstream.subscription?.events ?? []
    #expect((3...4).contains(events.count), "one request per next(), the last one racing the completion")
    #expect(events.allSatisfy { $0 == .requested(.max(1)) })
  }

  @Test func nextBeforeTheSubscriptionArrives_requestsTheSumOnceSubscribed() async throws {
    let upstream = Upstream(subscription: nil)
    let subscription = TestSubscription()
    let shared = SharedIterator(upstream.values.makeAsyncIterator())
    let outcome = await finishesInTime {
      try await withThrowingTaskGroup(of: Int?.self) { group in
        for _ in 0..<3 { group.addTask { try await shared.next() } }
        while upstream.subscriber == nil { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        upstream.send(subscription: subscription)
        for value in 1...3 { upstream.send(value) }
        var collected: [Int] = []
        for try await value in group { if let value { collected.append(value) } }
        return collected.sorted()
      }
    }
    #expect(try outcome?.get() == [1, 2, 3])
    #expect(subscription.events == [.requested(.max(3))])
  }

  @Test func aSecondSubscriptionIsCancelled() {
    let upstream = Upstream()
    let iterator = upstream.values.makeAsyncIterator()
    let second = TestSubscription()
    upstream.send(subscription: second)
    #expect(second.events == [.cancelled])
    withExtendedLifetime(iterator) {}
  }

  @Test func finishWhileSeveralWait_resumesAllWithNil() async throws {
    let upstream = Upstream()
    let shared = SharedIterator(upstream.values.makeAsyncIterator())
    let outcome = await finishesInTime {
      try await withThrowingTaskGroup(of: Int?.self) { group in
        for _ in 0..<3 { group.addTask { try await shared.next() } }
        while upstream.subscription?.events.count ?? 0 < 3 { await Task.yield() }
        upstream.send(completion: .finished)
        var results: [Int?] = []
        for try await result in group { results.append(result) }
        return results.compactMap { $0 }.count
      }
    }
    #expect(try outcome?.get() == 0)
  }

  @Test func failureWhileWaiting_isThrownOnce_thenNil() async throws {
    let upstream = Upstream()
    let values = upstream.values
    let outcome = await finishesInTime { () -> [String] in
      var iterator = values.makeAsyncIterator()
      let failer = Task {
        while upstream.subscription?.events.isEmpty ?? true { await Task.yield() }
        upstream.send(completion: .failure(TestError(4)))
      }
      var log: [String] = []
      do {
        _ = try await iterator.next()
        log.append("value")
      } catch {
        log.append("threw \(error)")
      }
      await failer.value
      log.append("then \(String(describing: try await iterator.next()))")
      return log
    }
    #expect(try outcome?.get() == ["threw TestError(code: 4)", "then nil"])
  }

  @Test func failureBeforeAnyNext_isThrownByTheFirstNext() async {
    let upstream = Upstream()
    let values = upstream.values
    var iterator = values.makeAsyncIterator()
    upstream.send(completion: .failure(TestError(5)))
    await #expect(throws: TestError(5)) { _ = try await iterator.next() }
    let after = try? await iterator.next()
    #expect(after == .some(nil))
  }

  @Test func finishBeforeAnyNext_thenNextReturnsNil() async {
    let upstream = TestPublisher<Int, Never>()
    var iterator = upstream.values.makeAsyncIterator()
    upstream.send(completion: .finished)
    let value = await iterator.next()
    #expect(value == nil)
    #expect(upstream.subscription?.events == [], "nothing requested after completion")
  }

  @Test func cancellingTheConsumingTask_endsTheSequence_andCancelsTheSubscription() async {
    let upstream = TestPublisher<Int, Never>()
    let values = upstream.values
    let outcome = await finishesInTime {
      let consumer = Task { () -> Int? in
        var iterator = values.makeAsyncIterator()
        return await iterator.next()
      }
      while upstream.subscription?.events.isEmpty ?? true { await Task.yield() }
      consumer.cancel()
      return await consumer.value
    }
    #expect(outcome.flatMap { try? $0.get() } == .some(nil))
    #expect(upstream.subscription?.events == [.requested(.max(1)), .cancelled])
  }

  @Test func aTaskCancelledBeforeItsFirstNext_returnsNilAtOnce() async {
    let subject = PassthroughSubject<Int, Never>()
    let values = subject.values
    let outcome = await finishesInTime {
      let consumer = Task { () -> Int? in
        withUnsafeCurrentTask { $0?.cancel() }
        var iterator = values.makeAsyncIterator()
        return await iterator.next()
      }
      return await consumer.value
    }
    #expect(outcome.flatMap { try? $0.get() } == .some(nil))
  }

  @Test func cancelBeforeTheSubscriptionArrives_cancelsTheLateSubscription() async {
    let upstream = Upstream(subscription: nil)
    let values = upstream.values
    let outcome = await finishesInTime {
      let consumer = Task { () -> Int? in
        var iterator = values.makeAsyncIterator()
        return try await iterator.next()
      }
      while upstream.subscriber == nil { await Task.yield() }
      try await Task.sleep(for: .milliseconds(20))
      consumer.cancel()
      return try await consumer.value
    }
    #expect(outcome.flatMap { try? $0.get() } == .some(nil))
    let late = TestSubscription()
    upstream.send(subscription: late)
    #expect(late.events == [.cancelled])
  }

  @Test func cancellingOneWaiter_resumesEveryWaiterWithNil() async throws {
    let upstream = Upstream()
    let shared = SharedIterator(upstream.values.makeAsyncIterator())
    let outcome = await finishesInTime {
      let cancelled = Task { try await shared.next() }
      let others = Task { try await shared.next() }
      while upstream.subscription?.events.count ?? 0 < 2 { await Task.yield() }
      cancelled.cancel()
      return [try await cancelled.value, try await others.value]
    }
    #expect(try outcome?.get() == [nil, nil])
    #expect(upstream.subscription?.events.last == .cancelled)
  }

  @Test func completionThenCancel_cancelsNothing() async {
    let upstream = Upstream()
    let values = upstream.values
    let outcome = await finishesInTime {
      let consumer = Task { () -> Int? in
        var iterator = values.makeAsyncIterator()
        return try await iterator.next()
      }
      while upstream.subscription?.events.isEmpty ?? true { await Task.yield() }
      upstream.send(completion: .finished)
      consumer.cancel()
      return try await consumer.value
    }
    #expect(outcome.flatMap { try? $0.get() } == .some(nil))
    #expect(upstream.subscription?.events == [.requested(.max(1))])
  }

  @Test func valuesAndTheCompletionSentFromAnotherThread() async throws {
    let upstream = TestPublisher<Int, Never>()
    let values = upstream.values
    let outcome = await finishesInTime {
      let feeder = Thread {
        for value in 0..<50 {
          // Each value once its next() has asked for it.
          while upstream.subscription?.events.count ?? 0 <= value { usleep(50) }
          upstream.send(value)
        }
        upstream.send(completion: .finished)
      }
      feeder.start()
      var collected: [Int] = []
      for await value in values { collected.append(value) }
      return collected
    }
    #expect(try outcome?.get() == Array(0..<50))
  }

  @Test func orderingsOfFinishCancelAndNext_neverHang() async {
    // Every order of: next() waits, the publisher finishes, the consuming task is cancelled,
    // another next() — with the subscription arriving first or last.
    enum Step: CaseIterable { case next, finish, cancel, fail }
    let orders: [[Step]] = [
      [.next, .finish, .cancel], [.next, .cancel, .finish], [.finish, .next, .cancel], [.cancel, .next, .finish],
      [.next, .fail, .next], [.fail, .next, .next], [.next, .next, .cancel], [.cancel, .cancel, .next],
      [.finish, .finish, .next], [.next, .finish, .next], [.fail, .cancel, .next], [.next, .cancel, .next],
    ]
    for order in orders {
      for subscribeFirst in [true, false] {
        let upstream = Upstream(subscription: subscribeFirst ? TestSubscription() : nil)
        let values = upstream.values
        let shared = SharedIterator(values.makeAsyncIterator())
        let outcome = await finishesInTime(3, "\(order), subscribed first: \(subscribeFirst)") { () -> Int in
          var waiters: [Task<Int?, Error>] = []
          for step in order {
            switch step {
            case .next:
              waiters.append(Task { try await shared.next() })
              try await Task.sleep(for: .milliseconds(2))
            case .finish: upstream.send(completion: .finished)
            case .fail: upstream.send(completion: .failure(TestError()))
            case .cancel: waiters.last?.cancel()
            }
          }
          if !subscribeFirst { upstream.send(subscription: TestSubscription()) }
          upstream.send(completion: .finished)
          for waiter in waiters { _ = try? await waiter.value }
          return waiters.count
        }
        #expect(outcome != nil)
      }
    }
  }

  @Test func futureValue_awaitsTheResult() async throws {
    let future = Future<Int, Never> { promise in
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { promise(.success(7)) }
    }
    let value = await finishesInTime { await future.value }
    #expect(try value?.get() == 7)
    let failing = Future<Int, TestError> { promise in promise(.failure(TestError(3))) }
    await #expect(throws: TestError(3)) { _ = try await failing.value }
  }
}
