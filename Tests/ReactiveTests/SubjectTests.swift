import CommonTesting
import Foundation
import Testing

@testable import Reactive

@Suite struct SubjectSemanticsTests {
  @Test func demandIsHonoured_subjectDropsValuesWithoutDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(demand: .max(1))
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    subject.send(4)
    subject.send(5)
    subject.send(6)
    #expect(recorder.values == [1, 4, 5])
  }

  @Test func demandIsHonoured_noDemandNoValues() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(demand: .none)
    subject.send(1)
    #expect(recorder.values.isEmpty)
  }

  @Test func demandReturnedFromReceive_isAdded() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = ManualSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(subscriber)
    for value in 1...5 { subject.send(value) }
    #expect(subscriber.values == [1, 2, 3, 4, 5])
  }

  @Test func nothingIsDeliveredAfterCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.record()
    subject.send(1)
    subject.send(completion: .finished)
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.events.count == 2)
    #expect(recorder.isFinished)
  }

  @Test func lateSubscriber_getsTheCompletionAtOnce() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .failure(TestError(3)))
    let recorder = subject.record()
    #expect(recorder.events == [.completion(.failure(TestError(3)))])
  }

  @Test func nothingIsDeliveredAfterCancellation() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    subject.send(1)
    recorder.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.events == [.value(1)])
  }

  @Test func secondCompletionIsIgnored() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.record()
    subject.send(completion: .finished)
    subject.send(completion: .failure(TestError()))
    subject.send(completion: .finished)
    #expect(recorder.events == [.completion(.finished)])
  }

  @Test func subscriberThatCancelsDuringReceive_getsNothingMore() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = ManualSubscriber<Int, Never>(initialDemand: .unlimited)
    subscriber.onValue = { value in
      if value == 2 { subscriber.subscription?.cancel() }
    }
    subject.subscribe(subscriber)
    for value in 1...5 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(subscriber.values == [1, 2])
    #expect(subscriber.completions.isEmpty)
  }

  @Test func sinkCancellingItselfDuringReceive_getsNothingMore() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    nonisolated(unsafe) var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received.values == [1])
  }

  @Test func currentValueSubject_replaysItsValueToEachNewSubscriber() {
    let subject = CurrentValueSubject<String, Never>("a")
    let first = subject.record()
    subject.send("b")
    let second = subject.record()
    subject.value = "c"
    let third = subject.record()
    #expect(first.values == ["a", "b", "c"])
    #expect(second.values == ["b", "c"])
    #expect(third.values == ["c"])
    #expect(subject.value == "c")
  }

  @Test func currentValueSubject_replaysOnFirstDemand_latestValue() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record(demand: .none)
    subject.send(2)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    subject.send(3)
    #expect(recorder.values == [2])
  }

  @Test func anyCancellableFromSink_cancelsWhenReleased() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    var cancellable: AnyCancellable? = subject.sink { received.append($0) }
    subject.send(1)
    _ = cancellable
    cancellable = nil
    subject.send(2)
    #expect(received.values == [1])
  }

  @Test func sinkHoldsItsSubscriptionOnlyWhileItsCancellableLives() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
      weakSink = sink
      subject.subscribe(sink)
      let cancellable = AnyCancellable(sink)
      subject.send(1)
      #expect(weakSink != nil)
      _ = cancellable
    }
    // The cancellable is gone: the subscription was cancelled, the subject released the sink.
    subject.send(2)
    #expect(received.values == [1])
    #expect(weakSink == nil)
  }

  @Test func unstoredSinkIsCancelledAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    _ = subject.sink { received.append($0) }
    subject.send(1)
    #expect(received.values.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func concurrentSends_deliverEveryValueExactlyOnce() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    let cancellable = subject.sink { received.append($0) }
    let threads = 8
    let perThread = 10_000
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread { subject.send(thread * perThread + index) }
    }
    cancellable.cancel()
    let values = received.values
    #expect(values.count == threads * perThread)
    #expect(Set(values).count == threads * perThread)
    #expect(Set(values) == Set(0..<(threads * perThread)))
  }

  @Test(.timeLimit(.minutes(1)))
  func concurrentSendsToCurrentValueSubject_deliverEveryValueExactlyOnce() {
    let subject = CurrentValueSubject<Int, Never>(-1)
    let received = Collector<Int>()
    let cancellable = subject.sink { received.append($0) }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<10_000 { subject.send(thread * 10_000 + index) }
    }
    cancellable.cancel()
    #expect(received.values.count == 80_001)
    #expect(Set(received.values) == Set(-1..<80_000))
  }

  @Test(.timeLimit(.minutes(1)))
  func concurrentSubscribeSendAndCancel_doesNotCrashOrDeadlock() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<500 {
        let cancellable = subject.sink { received.append($0) }
        subject.send(thread * 1000 + index)
        cancellable.cancel()
      }
    }
    #expect(received.values.count >= 8 * 500)
  }

  @Test(.timeLimit(.minutes(1)))
  func reentrantSendFromInsideASubscriber_doesNotDeadlock() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Collector<Int>()
    let cancellable = subject.sink { value in
      received.append(value)
      if value < 5 { subject.send(value + 1) }
    }
    subject.send(0)
    #expect(received.values == [0, 1, 2, 3, 4, 5])
    _ = cancellable
  }

  @Test(.timeLimit(.minutes(1)))
  func reentrantCompletionAndSubscribeFromInsideASubscriber_doNotDeadlock() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let inner = Collector<Int>()
    var cancellables = Set<AnyCancellable>()
    nonisolated(unsafe) var nested: AnyCancellable?
    subject.sink { value in
      if value == 1 {
        nested = subject.sink { inner.append($0) }
        subject.send(completion: .finished)
      }
    }.store(in: &cancellables)
    subject.send(1)
    subject.send(2)
    #expect(inner.values == [1])
    _ = nested
  }

  @Test func noRetainCycle_ownerCapturedWeaklyDeinitialises() {
    final class Owner {
      let subject = PassthroughSubject<Int, Never>()
      let deinitialised: Collector<Bool>
      var received: [Int] = []
      var cancellables = Set<AnyCancellable>()

      init(deinitialised: Collector<Bool>) {
        self.deinitialised = deinitialised
        subject.sink { [weak self] in self?.received.append($0) }.store(in: &cancellables)
      }

      deinit { deinitialised.append(true) }
    }
    let deinitialised = Collector<Bool>()
    weak var weakOwner: Owner?
    weak var weakSubject: PassthroughSubject<Int, Never>?
    do {
      let owner = Owner(deinitialised: deinitialised)
      weakOwner = owner
      weakSubject = owner.subject
      owner.subject.send(1)
      #expect(owner.received == [1])
    }
    #expect(weakOwner == nil)
    #expect(weakSubject == nil)
    #expect(deinitialised.values == [true])
  }

  @Test func noRetainCycle_ownerSubscribedToAnExternalSubject() {
    final class Owner {
      var received: [Int] = []
      var cancellables = Set<AnyCancellable>()
      init(_ source: AnyPublisher<Int, Never>) {
        source.sink { [weak self] in self?.received.append($0) }.store(in: &cancellables)
      }
    }
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: Owner?
    do {
      let owner = Owner(subject.eraseToAnyPublisher())
      weakOwner = owner
      subject.send(1)
      #expect(owner.received == [1])
    }
    #expect(weakOwner == nil)
    subject.send(2)  // nobody left to receive it; must not crash
  }

  @Test func sendVoid() {
    let subject = PassthroughSubject<Void, Never>()
    let count = Collector<Int>()
    let cancellable = subject.sink { count.append(1) }
    subject.send()
    subject.send()
    #expect(count.values.count == 2)
    _ = cancellable
  }

  @Test func subscribeSubjectToPublisher_forwardsValuesAndCompletion() {
    let source = PassthroughSubject<Int, Never>()
    let target = PassthroughSubject<Int, Never>()
    let recorder = target.record()
    let cancellable = source.subscribe(target)
    source.send(1)
    source.send(2)
    source.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.isFinished)
    _ = cancellable
  }

  @Test func subscriptionDescription_namesTheSubject() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = ManualSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    let subscription = subscriber.subscription
    #expect(subscription.map { String(describing: $0) } == "PassthroughSubject")
    #expect(
      (subscription as? CustomPlaygroundDisplayConvertible).map { "\($0.playgroundDescription)" }
        == "PassthroughSubject")
    #expect((subscription as? CustomReflectable)?.customMirror.children.isEmpty == false)
  }
}

@Suite struct PublishedTests {
  final class ViewModel {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    var seenBySubscriber: [String] = []
    var cancellables = Set<AnyCancellable>()

    func bindResults(to publisher: some Publisher<[String], Never>) { publisher.assign(to: &$results) }
  }

  @Test func projectedPublisher_sendsCurrentThenNewValues() {
    let model = ViewModel()
    model.query = "a"
    let recorder = model.$query.record()
    model.query = "b"
    model.query = "c"
    #expect(recorder.values == ["a", "b", "c"])
    #expect(model.query == "c")
  }

  @Test func publishesBeforeStoring_likeWillSet() {
    let model = ViewModel()
    model.$query.sink { [weak model] _ in
      model?.seenBySubscriber.append(model?.query ?? "?")
    }.store(in: &model.cancellables)
    model.query = "new"
    #expect(model.seenBySubscriber == ["", ""])
    #expect(model.query == "new")
  }

  @Test func assignToPublished_republishesForTheLifeOfTheProperty() {
    let model = ViewModel()
    let subject = PassthroughSubject<[String], Never>()
    model.bindResults(to: subject)
    let recorder = model.$results.record()
    subject.send(["LHR"])
    subject.send(["LHR", "LGW"])
    #expect(model.results == ["LHR", "LGW"])
    #expect(recorder.values == [[], ["LHR"], ["LHR", "LGW"]])
  }

  @Test func assignToPublished_ownerStillDeinitialises() {
    let subject = PassthroughSubject<[String], Never>()
    weak var weakModel: ViewModel?
    do {
      let model = ViewModel()
      weakModel = model
      model.bindResults(to: subject.map { $0 })
      subject.send(["X"])
      #expect(model.results == ["X"])
    }
    #expect(weakModel == nil)
    subject.send(["Y"])
  }

  @Test func assignToOn_setsTheProperty() {
    let model = ViewModel()
    let cancellable = Just("JFK").assign(to: \.query, on: model)
    #expect(model.query == "JFK")
    _ = cancellable
  }
}
