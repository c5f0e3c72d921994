import Foundation
import Reactive
import Testing

/// Re-entrancy without deadlock, for every operator: cancelling while a completion is being
/// delivered, completing while a cancel is in progress, sending (and requesting, and cancelling)
/// from inside `receive(_:)`. Each scenario runs on its own thread with a deadline, so a deadlock
/// fails in seconds; each checks that nothing is delivered twice.
@Suite(.timeLimit(.minutes(1)))
struct ReentrancyTests {
  @Test(arguments: OperatorCatalog.names)
  func cancelWhileTheCompletionIsDelivered(_ name: String) throws {
    let entry = try #require(OperatorCatalog.entries[name])
    finishesInTime(3, "\(name): cancel during completion") {
      entry.run(CancelDuringCompletion())
    }
  }

  @Test(arguments: OperatorCatalog.names)
  func completeWhileACancelIsInProgress(_ name: String) throws {
    let entry = try #require(OperatorCatalog.entries[name])
    finishesInTime(3, "\(name): complete during cancel") {
      entry.run(CompleteDuringCancel())
    }
  }

  @Test(arguments: OperatorCatalog.names)
  func sendFromInsideReceive(_ name: String) throws {
    let entry = try #require(OperatorCatalog.entries[name])
    finishesInTime(3, "\(name): send from inside receive") {
      entry.run(SendFromInsideReceive())
    }
  }

  @Test(arguments: OperatorCatalog.names)
  func requestAndCancelFromInsideReceive(_ name: String) throws {
    let entry = try #require(OperatorCatalog.entries[name])
    finishesInTime(3, "\(name): request and cancel from inside receive") {
      entry.run(RequestAndCancelFromInsideReceive())
    }
  }

  // MARK: Assign, in the two orders that used to hang

  /// An object that owns the cancellable of the assignment to itself, and completes the
  /// assignment's publisher when it is released.
  final class SelfCompletingModel: @unchecked Sendable {
    let source = TestPublisher<Int, Never>()
    var value = 0
    var cancellable: AnyCancellable?
    deinit { source.send(completion: .finished) }
  }

  @Test func assign_cancelReleasingTheObjectWhoseDeinitCompletes_doesNotDeadlock() {
    finishesInTime(3, "Assign: complete during cancel") {
      let cancellable: AnyCancellable
      do {
        let model = SelfCompletingModel()
        cancellable = model.source.assign(to: \.value, on: model)
        model.source.send(5)
        #expect(model.value == 5)
      }
      // The model lives on in the Assign only; cancelling releases it, and its deinit completes.
      cancellable.cancel()
    }
  }

  @Test func assign_completionReleasingTheObjectWhoseDeinitCancels_doesNotDeadlock() {
    finishesInTime(3, "Assign: cancel during completion") {
      weak var weakModel: SelfCompletingModel?
      let source: TestPublisher<Int, Never>
      do {
        let model = SelfCompletingModel()
        weakModel = model
        source = model.source
        // The model owns the cancellable: releasing it (on completion) cancels the Assign.
        model.cancellable = model.source.assign(to: \.value, on: model)
      }
      source.send(completion: .finished)
      #expect(weakModel == nil, "the object is released on completion")
    }
  }

  @Test func assign_cancelFromInsideTheSetter_andSendFromInsideIt() {
    final class Model: @unchecked Sendable {
      var cancellable: AnyCancellable?
      var received: [Int] = []
      var subject: PassthroughSubject<Int, Never>?
      var value = 0 {
        didSet {
          received.append(value)
          if value == 1 { subject?.send(2) }
          if value == 2 { cancellable?.cancel() }
        }
      }
    }
    finishesInTime(3, "Assign: re-entrant send and cancel") {
      let model = Model()
      let subject = PassthroughSubject<Int, Never>()
      model.subject = subject
      model.cancellable = subject.assign(to: \.value, on: model)
      subject.send(1)
      subject.send(3)
      #expect(model.received == [1, 2])
    }
  }

  @Test func sink_cancelReleasingAClosureThatCompletes_doesNotDeadlockOrCallTheClosures() {
    final class CompletesOnRelease: @unchecked Sendable {
      let source = TestPublisher<Int, Never>()
      deinit { source.send(completion: .finished) }
    }
    finishesInTime(3, "Sink: complete during cancel") {
      let calls = Collector<String>()
      let cancellable: AnyCancellable
      do {
        let owner = CompletesOnRelease()
        cancellable = owner.source.sink(
          receiveCompletion: { _ in calls.append("completion") },
          receiveValue: { _ in
            _ = owner
            calls.append("value")
          })
      }
      cancellable.cancel()
      #expect(calls.values.isEmpty)
    }
  }
}

// MARK: - Scenarios

/// One way of driving an operator: given how to build it on top of a source, runs the scenario
/// and checks its outcome.
protocol ReentrancyScenario {
  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P)
}

/// The subscriber cancels its subscription from inside `receive(completion:)`.
struct CancelDuringCompletion: ReentrancyScenario {
  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
    for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
      let source = PassthroughSubject<Int, TestError>()
      let subscriber = RecordingSubscriber<P.Output, P.Failure>()
      subscriber.onCompletion = { [unowned subscriber] _ in subscriber.cancel() }
      make(source.eraseToAnyPublisher()).subscribe(subscriber)
      source.send(1)
      source.send(2)
      source.send(completion: completion)
      subscriber.cancel()
      #expect(subscriber.completionCount <= 1)
      #expect(subscriber.values.count <= 2 + 1)
    }
  }
}

/// The upstream sends a completion from inside the cancel that the subscriber makes.
struct CompleteDuringCancel: ReentrancyScenario {
  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
    let source = TestPublisher<Int, TestError>()
    let once = OnceFlag()
    source.subscription?.onCancel = { [unowned source] in
      if once.claim() { source.send(completion: .finished) }
    }
    let subscriber = RecordingSubscriber<P.Output, P.Failure>()
    make(source.eraseToAnyPublisher()).subscribe(subscriber)
    source.send(1)
    subscriber.cancel()
    subscriber.cancel()
    #expect(subscriber.completionCount <= 1)
  }
}

/// The subscriber makes the upstream send the next value from inside `receive(_:)`.
struct SendFromInsideReceive: ReentrancyScenario {
  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
    let source = PassthroughSubject<Int, TestError>()
    let sent = Collector<Int>()
    let subscriber = RecordingSubscriber<P.Output, P.Failure>()
    subscriber.onValue = { _ in
      let next = sent.values.count
      guard next < 5 else { return }
      sent.append(next)
      source.send(next)
    }
    make(source.eraseToAnyPublisher()).subscribe(subscriber)
    sent.append(-1)
    source.send(-1)
    source.send(completion: .finished)
    #expect(subscriber.values.count <= sent.values.count + 1, "no value delivered twice")
    #expect(subscriber.completionCount <= 1)
  }
}

/// The subscriber requests more and then cancels from inside `receive(_:)`.
struct RequestAndCancelFromInsideReceive: ReentrancyScenario {
  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
    let source = PassthroughSubject<Int, TestError>()
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(initialDemand: .max(1))
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.request(.max(1))
      if subscriber.values.count == 2 { subscriber.cancel() }
    }
    make(source.eraseToAnyPublisher()).subscribe(subscriber)
    for value in 0..<5 { source.send(value) }
    source.send(completion: .finished)
    #expect(subscriber.values.count <= 3)
    #expect(subscriber.completionCount <= 1)
  }
}

// MARK: - Every operator

/// Every operator of the package, built on a source publisher of `Int` failing with
/// `TestError`; time-based ones on the immediate scheduler.
enum OperatorCatalog {
  struct Entry {
    let run: (ReentrancyScenario) -> Void

    init<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
      run = { $0.run(make) }
    }
  }

  typealias Source = AnyPublisher<Int, TestError>
  static let immediate = ImmediateScheduler.shared
  static let other = Just(7).setFailureType(to: TestError.self)

  nonisolated(unsafe) static let entries: [String: Entry] = [
    "map": Entry { $0.map { $0 + 1 } },
    "tryMap": Entry { $0.tryMap { $0 + 1 } },
    "map(keyPath)": Entry { $0.map(\.description) },
    "compactMap": Entry { $0.compactMap { $0 } },
    "tryCompactMap": Entry { $0.tryCompactMap { $0 } },
    "filter": Entry { $0.filter { _ in true } },
    "tryFilter": Entry { $0.tryFilter { _ in true } },
    "removeDuplicates": Entry { $0.removeDuplicates() },
    "tryRemoveDuplicates": Entry { $0.tryRemoveDuplicates(by: ==) },
    "mapError": Entry { $0.mapError { _ in TestError(2) } },
    "replaceNil": Entry { $0.map { Optional($0) }.replaceNil(with: 0) },
    "scan": Entry { $0.scan(0, +) },
    "tryScan": Entry { $0.tryScan(0, +) },
    "reduce": Entry { $0.reduce(0, +) },
    "tryReduce": Entry { $0.tryReduce(0, +) },
    "collect": Entry { $0.collect() },
    "collect(2)": Entry { $0.collect(2) },
    "count": Entry { $0.count() },
    "ignoreOutput": Entry { $0.ignoreOutput() },
    "first": Entry { $0.first() },
    "first(where:)": Entry { $0.first { $0 > 0 } },
    "tryFirst(where:)": Entry { $0.tryFirst { $0 > 0 } },
    "last": Entry { $0.last() },
    "last(where:)": Entry { $0.last { $0 > 0 } },
    "tryLast(where:)": Entry { $0.tryLast { $0 > 0 } },
    "contains": Entry { $0.contains(2) },
    "contains(where:)": Entry { $0.contains { $0 > 5 } },
    "tryContains(where:)": Entry { $0.tryContains { $0 > 5 } },
    "allSatisfy": Entry { $0.allSatisfy { $0 < 5 } },
    "tryAllSatisfy": Entry { $0.tryAllSatisfy { $0 < 5 } },
    "min": Entry { $0.min() },
    "max": Entry { $0.max() },
    "tryMin(by:)": Entry { $0.tryMin(by: <) },
    "replaceEmpty": Entry { $0.replaceEmpty(with: 0) },
    "replaceError": Entry { $0.replaceError(with: 0) },
    "prefix": Entry { $0.prefix(3) },
    "output(at:)": Entry { $0.output(at: 1) },
    "prefix(while:)": Entry { $0.prefix { $0 < 5 } },
    "tryPrefix(while:)": Entry { $0.tryPrefix { $0 < 5 } },
    "dropFirst": Entry { $0.dropFirst() },
    "drop(while:)": Entry { $0.drop { $0 < 0 } },
    "tryDrop(while:)": Entry { $0.tryDrop { $0 < 0 } },
    "flatMap": Entry { $0.flatMap { Just($0).setFailureType(to: TestError.self) } },
    "flatMap(maxPublishers: 1)": Entry {
      $0.flatMap(maxPublishers: .max(1)) { Just($0).setFailureType(to: TestError.self) }
    },
    "switchToLatest": Entry { $0.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest() },
    "merge": Entry { $0.merge(with: Empty()) },
    "MergeMany": Entry { Publishers.MergeMany([$0, Empty().eraseToAnyPublisher()]) },
    "combineLatest": Entry { $0.combineLatest(other) },
    "zip": Entry { $0.zip([7, 8, 9, 10, 11, 12].publisher.setFailureType(to: TestError.self)) },
    "catch": Entry { $0.catch { _ in Just(0) } },
    "tryCatch": Entry { $0.tryCatch { _ in Just(0).setFailureType(to: TestError.self) } },
    "retry": Entry { $0.retry(1) },
    "append": Entry { $0.append(9) },
    "prepend": Entry { $0.prepend(9) },
    "handleEvents": Entry { $0.handleEvents(receiveOutput: { _ in }) },
    "share": Entry { $0.share() },
    "multicast": Entry { source in
      let multicast = source.multicast { PassthroughSubject<Int, TestError>() }
      return multicast.autoconnect()
    },
    "encode": Entry { $0.encode(encoder: JSONEncoder()) },
    "decode": Entry { $0.map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder()) },
    "receive(on:)": Entry { $0.receive(on: immediate) },
    "subscribe(on:)": Entry { $0.subscribe(on: immediate) },
    "delay": Entry { $0.delay(for: 0, scheduler: immediate) },
    "debounce": Entry { $0.debounce(for: 0, scheduler: immediate) },
    "throttle": Entry { $0.throttle(for: 0, scheduler: immediate, latest: true) },
    "timeout": Entry { $0.timeout(5, scheduler: immediate) },
    "eraseToAnyPublisher": Entry { $0.eraseToAnyPublisher() },
    "setFailureType": Entry { source in source.replaceError(with: 0).setFailureType(to: TestError.self) },
  ]

  static let names = entries.keys.sorted()
}
