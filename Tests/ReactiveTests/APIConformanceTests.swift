import Foundation
import Reactive
import Testing

/// API that Combine code uses: `store(in:)` on any `Cancellable`, `Result.Publisher.result`,
/// the `Equatable` conformances of value publishers, and Combine's operator specialisations.
@Suite(.timeLimit(.minutes(1)))
struct APIConformanceTests {
  // MARK: Cancellable, AnyCancellable

  @Test func storeIn_onTheCancellableProtocol_wrapsInANewAnyCancellable() {
    final class Counter: Cancellable {
      var cancels = 0
      func cancel() { cancels += 1 }
    }
    let counter = Counter()
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    counter.store(in: &set)
    counter.store(in: &array)
    #expect(set.count == 1 && array.count == 1)
    set.removeAll()
    #expect(counter.cancels == 1, "the wrapper cancels when released")
    let any = AnyCancellable {}
    any.store(in: &array)
    (any as Cancellable).store(in: &array)
    #expect(array.count == 3)
    #expect(array[1] === any)
    #expect(array[2] !== any, "through the protocol it is wrapped again, as in Combine")
  }

  @Test func anyCancellable_cancelsOnce_onCancelOrRelease_andChains() {
    let subscription = TestSubscription()
    let first = AnyCancellable(subscription)
    let second = AnyCancellable(first)
    second.cancel()
    first.cancel()
    #expect(subscription.events == [.cancelled])
    var fired = 0
    do { _ = AnyCancellable { fired += 1 } }
    #expect(fired == 1)
  }

  @Test func anyCancellable_cancelFromInsideItsOwnAction_runsOnce() {
    nonisolated(unsafe) var cancellable: AnyCancellable?
    let runs = Collector<Int>()
    cancellable = AnyCancellable {
      runs.append(1)
      cancellable?.cancel()
    }
    cancellable?.cancel()
    #expect(runs.values == [1])
  }

  // MARK: Result.Publisher, Optional.Publisher, Just

  @Test func resultPublisher_exposesItsResult_andSendsIt() throws {
    let success = Result<Int, TestError>.success(4).publisher
    #expect(try success.result.get() == 4)
    let failure = Result<Int, TestError>.Publisher(TestError(2))
    #expect(throws: TestError(2)) { try failure.result.get() }
    let subscriber = RecordingSubscriber<Int, TestError>()
    success.subscribe(subscriber)
    failure.subscribe(subscriber)
    #expect(
      subscriber.events == [
        "subscription(Once)", "value(4)", "finished", "subscription(Empty)", "failure(TestError(code: 2))",
      ])
  }

  @Test func optionalPublisher_sendsItsValueOrFinishes() {
    let subscriber = RecordingSubscriber<Int, Never>()
    Optional(3).publisher.subscribe(subscriber)
    Optional<Int>.none.publisher.subscribe(subscriber)
    #expect(subscriber.events == ["subscription(Optional)", "value(3)", "finished", "subscription(Empty)", "finished"])
  }

  @Test func just_sendsOnTheFirstRequestOnly_andNothingAfterACancel() {
    let subscriber = RecordingSubscriber<Int, Never>(initialDemand: nil)
    Just(1).subscribe(subscriber)
    #expect(subscriber.events == ["subscription(Just)"])
    subscriber.request(.max(1))
    subscriber.request(.max(1))
    #expect(subscriber.events == ["subscription(Just)", "value(1)", "finished"])
    let cancelled = RecordingSubscriber<Int, Never>(initialDemand: nil)
    Just(1).subscribe(cancelled)
    cancelled.cancel()
    cancelled.request(.max(1))
    #expect(cancelled.values.isEmpty)
  }

  // MARK: Equatable

  @Test func valuePublishers_areEquatableWhereCombinesAre() {
    #expect(Just(1) == Just(1) && Just(1) != Just(2))
    #expect(Fail<Int, TestError>(error: TestError(1)) == Fail(error: TestError(1)))
    #expect(Fail<Int, TestError>(error: TestError(1)) != Fail(error: TestError(2)))
    #expect(Empty<Int, TestError>() == Empty() && Empty<Int, TestError>() != Empty(completeImmediately: false))
    #expect(Result<Int, TestError>.success(1).publisher == Result<Int, TestError>.success(1).publisher)
    #expect(Result<Int, TestError>.success(1).publisher != Result<Int, TestError>.failure(TestError()).publisher)
    #expect(Optional(1).publisher == Optional(1).publisher && Optional(1).publisher != Optional<Int>.none.publisher)
    #expect([1, 2].publisher == [1, 2].publisher && [1, 2].publisher != [2, 1].publisher)
    #expect(Just(1).setFailureType(to: TestError.self) == Just(1).setFailureType(to: TestError.self))
  }

  @Test func operatorPublishers_areEquatableWhenTheirUpstreamsAre() {
    let sequence = [1, 2, 3].publisher
    #expect(sequence.collect() == sequence.collect())
    #expect(sequence.count() == sequence.count())
    #expect(sequence.ignoreOutput() == sequence.ignoreOutput())
    #expect(sequence.first() == sequence.first() && sequence.last() == sequence.last())
    #expect(sequence.contains(2) == sequence.contains(2) && sequence.contains(2) != sequence.contains(5))
    #expect(sequence.dropFirst(1) == sequence.dropFirst(1) && sequence.dropFirst(1) != sequence.dropFirst(2))
    #expect(sequence.prefix(2) == sequence.prefix(2) && sequence.output(at: 1) != sequence.output(at: 2))
    #expect(sequence.collect(2) == sequence.collect(2))
    #expect(sequence.retry(1) == sequence.retry(1))
    #expect(sequence.replaceEmpty(with: 0) == sequence.replaceEmpty(with: 0))
    let failing = Fail<Int, TestError>(error: TestError())
    #expect(failing.replaceError(with: 0) == failing.replaceError(with: 0))
    #expect(sequence.append(4) == sequence.append(4))
    #expect(sequence.merge(with: sequence) == sequence.merge(with: sequence))
    #expect(Publishers.MergeMany(sequence, sequence) == Publishers.MergeMany(sequence, sequence))
    #expect(sequence.combineLatest(sequence) == sequence.combineLatest(sequence))
    #expect(sequence.zip(sequence) == sequence.zip(sequence))
    let share = sequence.share()
    #expect(share == share && share != sequence.share(), "Share compares by identity")
  }

  // MARK: Specialisations (fusions)

  @Test func filterOnFilter_isOneFilterRequiringBoth() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.filter { $0 > 1 }.filter { $0 < 4 }
    #expect(type(of: fused) == Publishers.Filter<PassthroughSubject<Int, Never>>.self)
    #expect(fused.upstream === subject)
    #expect([1, 2, 3, 4].filter(fused.isIncluded) == [2, 3])
    let tryFused = subject.filter { $0 > 1 }.tryFilter { $0 < 4 }
    #expect(type(of: tryFused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
    #expect(type(of: tryFused.filter { _ in true }) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
    #expect(type(of: tryFused.tryFilter { _ in true }) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
  }

  @Test func mapOnMap_isOneMapComposingBoth_andTheTryVariants() throws {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.map { $0 + 1 }.map { $0 * 10 }
    #expect(type(of: fused) == Publishers.Map<PassthroughSubject<Int, Never>, Int>.self)
    #expect(fused.transform(1) == 20)
    let tryFused = subject.map { $0 + 1 }.tryMap { "\($0)" }
    #expect(type(of: tryFused) == Publishers.TryMap<PassthroughSubject<Int, Never>, String>.self)
    #expect(try tryFused.transform(1) == "2")
    #expect(type(of: tryFused.map { $0.count }) == Publishers.TryMap<PassthroughSubject<Int, Never>, Int>.self)
    #expect(type(of: tryFused.tryMap { $0.count }) == Publishers.TryMap<PassthroughSubject<Int, Never>, Int>.self)
  }

  @Test func compactMapOnCompactMap_andMapOnCompactMap_areOneCompactMap() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.compactMap { $0 > 0 ? $0 : nil }.compactMap { $0 < 5 ? "\($0)" : nil }
    #expect(type(of: fused) == Publishers.CompactMap<PassthroughSubject<Int, Never>, String>.self)
    #expect([0, 3, 6].compactMap(fused.transform) == ["3"])
    let mapped = subject.compactMap { $0 > 0 ? $0 : nil }.map { $0 * 2 }
    #expect(type(of: mapped) == Publishers.CompactMap<PassthroughSubject<Int, Never>, Int>.self)
    let tryFused = subject.tryCompactMap { $0 }.compactMap { $0 + 1 }
    #expect(type(of: tryFused) == Publishers.TryCompactMap<PassthroughSubject<Int, Never>, Int>.self)
  }

  @Test func setFailureTypeOnSetFailureType_andMergeOnMerge() {
    let just = Just(1)
    let twice = just.setFailureType(to: TestError.self).setFailureType(to: CancellationError.self)
    #expect(type(of: twice) == Publishers.SetFailureType<Just<Int>, CancellationError>.self)
    let empty = Empty<Int, Never>()
    typealias J = Just<Int>
    typealias E = Empty<Int, Never>
    let three = just.merge(with: empty).merge(with: just)
    #expect(type(of: three) == Publishers.Merge3<J, E, J>.self)
    let eight = just.merge(with: empty, just, empty).merge(with: just, empty, just, empty)
    #expect(type(of: eight) == Publishers.Merge8<J, E, J, E, J, E, J, E>.self)
    let many = Publishers.MergeMany(just, just).merge(with: just)
    #expect(many.publishers.count == 3)
  }

  @Test func justSpecialisations_computeAtOnce() throws {
    #expect(Just(3).map { $0 * 2 } == Just(6))
    #expect(Just(3).filter { $0 > 5 } == Optional<Int>.none.publisher)
    #expect(Just(3).collect() == Just([3]))
    #expect(Just(3).count() == Just(1))
    #expect(Just(3).contains(3) == Just(true))
    #expect(Just(3).dropFirst() == Optional<Int>.none.publisher)
    #expect(Just(3).prefix(1) == Optional(3).publisher)
    #expect(Just(3).reduce(1, +) == Result<Int, Never>.Publisher(4))
    #expect(Just(3).scan(1, +) == Result<Int, Never>.Publisher(4))
    #expect(try Just(3).setFailureType(to: TestError.self).result.get() == 3)
    #expect(Just(3).append(4, 5) == Publishers.Sequence(sequence: [3, 4, 5]))
    #expect(Just(3).prepend([1, 2]) == Publishers.Sequence(sequence: [1, 2, 3]))
    #expect(throws: TestError.self) { try Just(3).tryMap { _ -> Int in throw TestError() }.result.get() }
  }

  @Test func sequenceSpecialisations_computeAtOnce() throws {
    let sequence = [3, 1, 2, 2].publisher
    #expect(sequence.map { $0 * 2 } == Publishers.Sequence(sequence: [6, 2, 4, 4]))
    #expect(sequence.filter { $0 > 1 } == Publishers.Sequence(sequence: [3, 2, 2]))
    #expect(sequence.removeDuplicates() == Publishers.Sequence(sequence: [3, 1, 2]))
    #expect(sequence.min() == Optional(1).publisher && sequence.max() == Optional(3).publisher)
    #expect(sequence.first() == Optional(3).publisher && sequence.last() == Optional(2).publisher)
    #expect(sequence.count() == Just(4))
    #expect(sequence.collect().result.get() == [3, 1, 2, 2])
    #expect(sequence.reduce(0, +).result.get() == 8)
    #expect(sequence.output(at: 1) == Optional(1).publisher)
    #expect(sequence.output(in: 1..<3) == Publishers.Sequence(sequence: [1, 2]))
    #expect(sequence.append(9) == Publishers.Sequence(sequence: [3, 1, 2, 2, 9]))
    #expect(sequence.prepend(0) == Publishers.Sequence(sequence: [0, 3, 1, 2, 2]))
    #expect(Array(sequence.dropFirst(2).sequence) == [2, 2])
    #expect(Array(sequence.prefix(2).sequence) == [3, 1])
  }

  @Test func optionalAndResultSpecialisations_computeAtOnce() throws {
    #expect(Optional(2).publisher.map { $0 + 1 } == Optional(3).publisher)
    #expect(Optional(2).publisher.filter { $0 > 5 } == Optional<Int>.none.publisher)
    #expect(Optional(2).publisher.count() == Optional(1).publisher)
    #expect(Optional<Int>.none.publisher.replaceEmpty(with: 9) == Just(9))
    let result = Result<Int, TestError>.success(2).publisher
    #expect(result.map { $0 + 1 } == Result<Int, TestError>.success(3).publisher)
    #expect(try result.count().result.get() == 1)
    #expect(result.replaceError(with: 0) == Result<Int, Never>.success(2).publisher)
    #expect(
      Result<Int, TestError>.failure(TestError()).publisher.replaceError(with: 0)
        == Result<Int, Never>.success(0).publisher)
  }

  // MARK: Subjects

  @Test func subjects_handTheCompletionToLateSubscribers_withTheEmptySubscription() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .failure(TestError(3)))
    let subscriber = RecordingSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    #expect(subscriber.events == ["subscription(Empty)", "failure(TestError(code: 3))"])
  }

  @Test func passthroughSubject_asksItsUpstreamForUnlimitedOnceASubscriberHasDemand() {
    let upstream = TestSubscription()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(subscription: upstream)
    #expect(upstream.events == [])
    subject.subscribe(RecordingSubscriber<Int, Never>(initialDemand: .max(1)))
    #expect(upstream.events == [.requested(.unlimited)])
    let late = TestSubscription()
    subject.send(subscription: late)
    #expect(late.events == [.requested(.unlimited)])
  }

  @Test func subjectSubscription_isDescribedAndReflectedAsCombines() throws {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(12))
    subject.subscribe(subscriber)
    subject.send(1)
    let subscription = try #require(subscriber.subscription)
    #expect(String(describing: subscription) == "PassthroughSubject")
    let labels = Mirror(reflecting: subscription).children.map(\.label)
    #expect(labels == ["parent", "downstream", "demand", "subject"])
    let demand = Mirror(reflecting: subscription).children.first { $0.label == "demand" }?.value
    #expect("\(demand ?? "")" == "max(11)")
  }

  @Test func subjects_aSubscriberSubscribingAgainFromInsideReceiveSubscription_getsEveryValueOncePerSubscription() {
    final class Resubscriber: Subscriber, @unchecked Sendable {
      typealias Input = Int
      typealias Failure = Never
      let subject: PassthroughSubject<Int, Never>
      var subscriptions: [Subscription] = []
      var inputs: [Int] = []
      init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
      func receive(subscription: Subscription) {
        subscription.request(.unlimited)
        subscriptions.append(subscription)
        if subscriptions.count < 4 { subject.subscribe(self) }
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        inputs.append(input)
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = Resubscriber(subject)
    finishesInTime {
      subject.subscribe(subscriber)
      subject.send(0)
      subscriber.subscriptions[0].cancel()
      subject.send(1)
    }
    #expect(subscriber.inputs == [0, 0, 0, 0, 1, 1, 1])
  }

  @Test func currentValueSubject_sendsTheLatestValueOnTheNextRequestAfterMissingOne() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    subscriber.request(.max(1))
    #expect(subscriber.values == [0, 2])
  }

  // MARK: Sink, Assign

  @Test func sink_cancelsASecondSubscription_andTakesValuesWithoutOne() {
    let values = Collector<Int>()
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    #expect(sink.receive(12) == .none)
    let first = TestSubscription()
    let second = TestSubscription()
    sink.receive(subscription: first)
    sink.receive(subscription: second)
    #expect(first.events == [.requested(.unlimited)])
    #expect(second.events == [.cancelled])
    sink.receive(completion: .finished)
    #expect(sink.receive(13) == .none)
    #expect(values.values == [12])
    let third = TestSubscription()
    sink.receive(subscription: third)
    #expect(third.events == [.cancelled])
    #expect(sink.description == "Sink" && sink.customMirror.children.isEmpty)
  }

  @Test func sink_completionFromInsideTheCompletionClosure_runsItOnce() {
    nonisolated(unsafe) var sink: Subscribers.Sink<Int, Never>?
    let completions = Collector<Int>()
    sink = Subscribers.Sink(
      receiveCompletion: { completion in
        completions.append(1)
        sink?.receive(completion: completion)
      }, receiveValue: { _ in })
    sink?.receive(subscription: TestSubscription())
    sink?.receive(completion: .finished)
    #expect(completions.values == [1])
  }

  @Test func assign_describesItself_assignsOnlyWhileSubscribed() {
    final class Model { var value = 0 }
    let model = Model()
    let assign = Subscribers.Assign(object: model, keyPath: \Model.value)
    #expect(assign.description == "Assign Model.")
    #expect(Mirror(reflecting: assign).children.map(\.label) == ["object", "keyPath", "status"])
    #expect(assign.receive(5) == .none)
    #expect(model.value == 0, "nothing is assigned before a subscription")
    let subscription = TestSubscription()
    assign.receive(subscription: subscription)
    _ = assign.receive(6)
    #expect(model.value == 6)
    assign.receive(completion: .finished)
    _ = assign.receive(7)
    assign.cancel()
    #expect(model.value == 6)
    #expect(subscription.events == [.requested(.unlimited)], "a cancel after completion does nothing")
  }
}
