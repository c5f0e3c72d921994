import Foundation
import Reactive
import Testing

/// Back-pressure as Combine does it, observed through a hand-written upstream that sends values
/// directly and reports the demand each operator's subscriber returns from `receive(_:)`.
@Suite(.timeLimit(.minutes(1)))
struct BackPressureTests {
  typealias Upstream = TestPublisher<Int, TestError>

  /// Subscribes a recording subscriber (initial demand, demand per value) to `make(upstream)`.
  private func attach<P: Publisher>(
    initial: Subscribers.Demand? = .max(2), perValue: Subscribers.Demand = .max(4),
    _ make: (Upstream) -> P
  ) -> (Upstream, RecordingSubscriber<P.Output, P.Failure>) {
    let upstream = Upstream()
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(initialDemand: initial, demandPerValue: perValue)
    make(upstream).subscribe(subscriber)
    return (upstream, subscriber)
  }

  // MARK: Demand returned from receive(_:)

  @Test func filter_returnsMaxOneForADroppedValue_andTheDownstreamsAnswerOtherwise() {
    let (upstream, subscriber) = attach { $0.filter { $0.isMultiple(of: 2) } }
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .max(4))
    #expect(upstream.send(3) == .max(1))
    #expect(upstream.subscription?.events == [.requested(.max(2))], "requests go straight upstream")
    #expect(subscriber.events.first == "subscription(TestSubscription)", "filter passes the subscription through")
    #expect(subscriber.values == [2])
  }

  @Test func compactMap_returnsMaxOneForNil_andTheDownstreamsAnswerOtherwise() {
    let (upstream, subscriber) = attach { $0.compactMap { $0 > 1 ? "\($0)" : nil } }
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .max(4))
    #expect(subscriber.values == ["2"])
  }

  @Test func removeDuplicates_returnsMaxOneForADuplicate_andTheDownstreamsAnswerOtherwise() {
    let (upstream, subscriber) = attach { $0.removeDuplicates() }
    #expect(upstream.send(1) == .max(4))
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .max(4))
    #expect(subscriber.values == [1, 2])
    #expect(upstream.subscription?.events == [.requested(.max(2))])
  }

  @Test func tryFilter_tryCompactMap_tryRemoveDuplicates_returnMaxOneForDrops() {
    let (first, _) = attach { $0.tryFilter { $0 > 1 } }
    #expect(first.send(1) == .max(1))
    #expect(first.send(2) == .max(4))
    let (second, _) = attach { $0.tryCompactMap { $0 > 1 ? $0 : nil } }
    #expect(second.send(1) == .max(1))
    #expect(second.send(2) == .max(4))
    let (third, _) = attach { $0.tryRemoveDuplicates(by: ==) }
    #expect(third.send(1) == .max(4))
    #expect(third.send(1) == .max(1))
  }

  @Test func map_tryMap_scan_mapError_passTheDownstreamsAnswerThrough() {
    let (map, mapSubscriber) = attach(perValue: .max(3)) { $0.map { $0 * 10 } }
    #expect(map.send(1) == .max(3))
    #expect(mapSubscriber.values == [10])
    #expect(mapSubscriber.events.first == "subscription(TestSubscription)", "map passes the subscription through")
    let (tryMap, tryMapSubscriber) = attach(perValue: .max(3)) { $0.tryMap { $0 * 10 } }
    #expect(tryMap.send(1) == .max(3))
    #expect(tryMapSubscriber.events.first == "subscription(TryMap)")
    let (scan, _) = attach(perValue: .none) { $0.scan(0, +) }
    #expect(scan.send(1) == .none)
    let (mapError, _) = attach(perValue: .max(7)) { $0.mapError { _ in TestError(2) } }
    #expect(mapError.send(1) == .max(7))
  }

  @Test func valuesBeforeTheRange_returnMaxOne_dropFirstRequestsWhatItDrops() {
    let (output, _) = attach(perValue: .max(5)) { $0.output(in: 2..<4) }
    #expect(output.send(0) == .max(1))
    #expect(output.send(1) == .max(1))
    #expect(output.send(2) == .max(5))
    let (drop, _) = attach(initial: .max(2), perValue: .max(5)) { $0.dropFirst(3) }
    #expect(drop.subscription?.events == [.requested(.max(5))], "the 3 to drop plus the 2 requested")
    #expect(drop.send(0) == .none)
  }

  // MARK: catch

  @Test func catch_requestsTheOutstandingDemandFromTheReplacement() {
    let replacement = Upstream()
    let (upstream, subscriber) = attach(initial: .max(5), perValue: .none) { source in
      source.catch { _ in replacement }
    }
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .failure(TestError()))
    #expect(replacement.subscription?.events == [.requested(.max(3))], "5 requested, 2 delivered")
    replacement.send(3)
    #expect(subscriber.values == [1, 2, 3])
  }

  @Test func catch_countsTheDemandReturnedFromReceive() {
    let replacement = Upstream()
    let (upstream, _) = attach(initial: .max(1), perValue: .max(2)) { source in source.catch { _ in replacement } }
    #expect(upstream.send(1) == .max(2), "the downstream's answer goes upstream")
    upstream.send(completion: .failure(TestError()))
    #expect(replacement.subscription?.events == [.requested(.max(2))], "1 requested, 1 delivered, 2 returned")
  }

  @Test func catch_asksNothingWhenNoDemandIsLeft_andUnlimitedStaysUnlimited() {
    let exhausted = Upstream()
    let (first, _) = attach(initial: .max(1), perValue: .none) { source in source.catch { _ in exhausted } }
    first.send(1)
    first.send(completion: .failure(TestError()))
    #expect(exhausted.subscription?.events == [])
    let unlimited = Upstream()
    let (second, _) = attach(initial: .unlimited, perValue: .none) { source in source.catch { _ in unlimited } }
    second.send(1)
    second.send(completion: .failure(TestError()))
    #expect(unlimited.subscription?.events == [.requested(.unlimited)])
  }

  // MARK: flatMap

  @Test func flatMap_asksEachChildForUnlimitedWhenTheDownstreamIsUnlimited() {
    var children: [Upstream] = []
    let (outer, subscriber) = attach(initial: .unlimited, perValue: .none) { source in
      source.flatMap { _ -> Upstream in
        let child = Upstream()
        children.append(child)
        return child
      }
    }
    #expect(outer.subscription?.events == [.requested(.unlimited)], "maxPublishers defaults to unlimited")
    outer.send(1)
    outer.send(2)
    #expect(children.map { $0.subscription?.events ?? [] } == [[.requested(.unlimited)], [.requested(.unlimited)]])
    #expect(children[0].send(10) == .none)
    #expect(children[1].send(20) == .none)
    #expect(subscriber.values == [10, 20])
  }

  @Test func flatMap_asksForOneAtATimeWhenLimited_andSwitchesWhenDemandBecomesUnlimited() {
    var children: [Upstream] = []
    let (outer, subscriber) = attach(initial: .max(1), perValue: .none) { source in
      source.flatMap { _ -> Upstream in
        let child = Upstream()
        children.append(child)
        return child
      }
    }
    outer.send(1)
    outer.send(2)
    #expect(children.map { $0.subscription?.events ?? [] } == [[.requested(.max(1))], [.requested(.max(1))]])
    #expect(children[0].send(10) == .max(1), "delivered with finite demand: one more from that child")
    #expect(children[1].send(20) == .none, "no demand left: buffered, nothing more asked")
    #expect(subscriber.values == [10])
    subscriber.request(.max(1))
    #expect(subscriber.values == [10, 20], "the buffered value goes out on the next request")
    #expect(children[1].subscription?.events == [.requested(.max(1)), .requested(.max(1))])
    subscriber.request(.unlimited)
    #expect(children[0].subscription?.events.last == .requested(.unlimited))
    #expect(children[1].subscription?.events.last == .requested(.unlimited))
    #expect(children[0].send(11) == .none)
  }

  @Test func flatMap_maxPublishers_requestsThatManyThenOneMorePerFinishedChild() {
    var children: [Upstream] = []
    let (outer, _) = attach(initial: .unlimited, perValue: .none) { source in
      source.flatMap(maxPublishers: .max(2)) { _ -> Upstream in
        let child = Upstream()
        children.append(child)
        return child
      }
    }
    #expect(outer.subscription?.events == [.requested(.max(2))])
    outer.send(1)
    outer.send(2)
    children[0].send(completion: .finished)
    #expect(outer.subscription?.events == [.requested(.max(2)), .requested(.max(1))])
  }

  // MARK: Nothing beyond the demand

  /// Operators over an upstream that honours demand: none may deliver more than requested.
  /// (`replaceEmpty` is left out: as Combine's, it asks its upstream for `.unlimited` and passes
  /// values on; see the README.)
  @Test(arguments: OperatorSweep.names)
  func noOperatorSendsMoreThanDemanded(_ name: String) throws {
    let operation = try #require(OperatorSweep.operators[name])
    for demand in [0, 1, 3] {
      let delivered = operation(demand)
      #expect(delivered <= demand, "\(name) delivered \(delivered) values for a demand of \(demand)")
    }
  }

  /// Operators that only pass demand on ask upstream for exactly what the subscriber asked.
  @Test func passThroughOperators_requestNoMoreThanTheSubscriberDid() {
    let scheduler = ManualClockScheduler()
    let cases: [(String, (Upstream) -> AnyPublisher<Int, TestError>)] = [
      ("map", { $0.map { $0 }.eraseToAnyPublisher() }),
      ("filter", { $0.filter { _ in true }.eraseToAnyPublisher() }),
      ("scan", { $0.scan(0, +).eraseToAnyPublisher() }),
      ("prefix(while:)", { $0.prefix { _ in true }.eraseToAnyPublisher() }),
      ("handleEvents", { $0.handleEvents().eraseToAnyPublisher() }),
      ("catch", { $0.catch { _ in Empty() }.eraseToAnyPublisher() }),
      ("retry", { $0.retry(2).eraseToAnyPublisher() }),
      ("delay", { $0.delay(for: 1, scheduler: scheduler).eraseToAnyPublisher() }),
      ("receive(on:)", { $0.receive(on: scheduler).eraseToAnyPublisher() }),
      ("append", { $0.append(9).eraseToAnyPublisher() }),
      ("output(in:)", { $0.output(in: 0..<10).eraseToAnyPublisher() }),
      ("combineLatest", { $0.combineLatest(Upstream()) { $0 + $1 }.eraseToAnyPublisher() }),
      ("zip", { $0.zip(Upstream()) { $0 + $1 }.eraseToAnyPublisher() }),
    ]
    for (name, make) in cases {
      let (upstream, _) = attach(initial: .max(3), perValue: .none, make)
      #expect(upstream.subscription?.events == [.requested(.max(3))], "\(name)")
    }
  }
}

/// A sweep of operators over `Publishers.Sequence` (which sends only what is requested): each
/// entry subscribes with an initial demand and `.none` per value, and returns how many values
/// arrived.
enum OperatorSweep {
  typealias Run = (Int) -> Int

  static func count<P: Publisher>(_ publisher: P, demand: Int) -> Int {
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(
      initialDemand: demand > 0 ? .max(demand) : nil, demandPerValue: .none)
    publisher.subscribe(subscriber)
    return subscriber.values.count
  }

  static let source = (0..<20).publisher.setFailureType(to: TestError.self)

  nonisolated(unsafe) static let operators: [String: Run] = [
    "map": { count(source.map { $0 + 1 }, demand: $0) },
    "tryMap": { count(source.tryMap { $0 + 1 }, demand: $0) },
    "filter": { count(source.filter { $0 > 2 }, demand: $0) },
    "compactMap": { count(source.compactMap { $0 > 2 ? $0 : nil }, demand: $0) },
    "removeDuplicates": { count(source.map { $0 / 2 }.removeDuplicates(), demand: $0) },
    "scan": { count(source.scan(0, +), demand: $0) },
    "prefix": { count(source.prefix(10), demand: $0) },
    "dropFirst": { count(source.dropFirst(2), demand: $0) },
    "drop(while:)": { count(source.drop { $0 < 3 }, demand: $0) },
    "collect(2)": { count(source.collect(2), demand: $0) },
    "flatMap": { count(source.flatMap { Just($0).setFailureType(to: TestError.self) }, demand: $0) },
    "flatMap(maxPublishers:)": {
      count(
        source.flatMap(maxPublishers: .max(2)) { [$0, $0].publisher.setFailureType(to: TestError.self) }, demand: $0)
    },
    "switchToLatest": {
      count(source.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest(), demand: $0)
    },
    "merge": { count(source.merge(with: source), demand: $0) },
    "merge3": { count(source.merge(with: source, source), demand: $0) },
    "combineLatest": { count(source.combineLatest(source), demand: $0) },
    "zip": { count(source.zip(source), demand: $0) },
    "catch": { count(source.catch { _ in source }, demand: $0) },
    "append": { count(source.append(source), demand: $0) },
    "prepend": { count(source.prepend(source), demand: $0) },
    "retry": { count(source.retry(1), demand: $0) },
    "handleEvents": { count(source.handleEvents(), demand: $0) },
    "receive(on: immediate)": { count(source.receive(on: ImmediateScheduler.shared), demand: $0) },
    "subscribe(on: immediate)": { count(source.subscribe(on: ImmediateScheduler.shared), demand: $0) },
    "delay(immediate)": { count(source.delay(for: 0, scheduler: ImmediateScheduler.shared), demand: $0) },
    "throttle(immediate)": {
      count(source.throttle(for: 1, scheduler: ImmediateScheduler.shared, latest: true), demand: $0)
    },
    "share": { count(source.share(), demand: $0) },
    "replaceError": { count(source.replaceError(with: 0), demand: $0) },
    "encode/decode": {
      count(source.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder()), demand: $0)
    },
  ]

  static let names = operators.keys.sorted()
}
