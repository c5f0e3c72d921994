import Foundation
import Reactive
import Testing

/// What each operator, subscriber and subject releases on completion or cancel, observed with
/// weak references that must become `nil`.
@Suite(.timeLimit(.minutes(1)))
struct LifecycleTests {
  // MARK: Future

  enum Termination: CaseIterable {
    case cancelled, finished, failed
  }

  @Test(arguments: Termination.allCases)
  func future_releasesSubscriberSubscriptionAndItselfOnTermination(_ termination: Termination) {
    weak var weakSubscriber: RecordingSubscriber<Int, TestError>?
    weak var weakSubscription: AnyObject?
    weak var weakFuture: Future<Int, TestError>?
    do {
      nonisolated(unsafe) var promise: Future<Int, TestError>.Promise?
      let future = Future<Int, TestError> { promise = $0 }
      weakFuture = future
      do {
        let subscriber = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        weakSubscriber = subscriber
        future.subscribe(subscriber)
        weakSubscription = subscriber.subscription as AnyObject?
      }
      switch termination {
      case .cancelled: (weakSubscription as? Subscription)?.cancel()
      case .finished: promise?(.success(1))
      case .failed: promise?(.failure(TestError()))
      }
      #expect(weakSubscriber == nil, "subscriber kept after \(termination)")
      #expect(weakSubscription == nil, "subscription kept after \(termination)")
    }
    #expect(weakFuture == nil, "future kept after \(termination)")
  }

  @Test func future_cancelledSubscriptionIsDroppedBeforeTheFutureIsFulfilled() {
    weak var weakSubscriber: RecordingSubscriber<Int, Never>?
    let future = Future<Int, Never> { _ in }
    do {
      let subscriber = RecordingSubscriber<Int, Never>()
      weakSubscriber = subscriber
      future.subscribe(subscriber)
      subscriber.cancel()
    }
    #expect(weakSubscriber == nil, "a never-fulfilled future must not keep a cancelled subscriber")
  }

  // MARK: Subjects

  @Test(arguments: Termination.allCases)
  func passthroughSubject_releasesEverythingOnTermination(_ termination: Termination) {
    weak var weakSubscriber: RecordingSubscriber<Int, TestError>?
    weak var weakSubject: PassthroughSubject<Int, TestError>?
    weak var weakSubscription: AnyObject?
    do {
      let subject = PassthroughSubject<Int, TestError>()
      weakSubject = subject
      do {
        let subscriber = RecordingSubscriber<Int, TestError>()
        weakSubscriber = subscriber
        subject.subscribe(subscriber)
        weakSubscription = subscriber.subscription as AnyObject?
      }
      switch termination {
      case .cancelled: (weakSubscription as? Subscription)?.cancel()
      case .finished: subject.send(completion: .finished)
      case .failed: subject.send(completion: .failure(TestError()))
      }
      #expect(weakSubscriber == nil)
      #expect(weakSubscription == nil)
    }
    #expect(weakSubject == nil)
  }

  @Test func subjects_cancelTheirUpstreamSubscriptionsWhenReleased() {
    let upstream = TestSubscription()
    do {
      let passthrough = PassthroughSubject<Int, Never>()
      let current = CurrentValueSubject<Int, Never>(0)
      passthrough.send(subscription: upstream)
      current.send(subscription: upstream)
    }
    #expect(upstream.events == [.requested(.unlimited), .cancelled, .cancelled])
  }

  // MARK: Sink, Assign

  @Test(arguments: [true, false])
  func sink_releasesItsClosuresOnCompletionAndOnCancel(_ complete: Bool) {
    weak var weakValueCapture: Tracked?
    weak var weakCompletionCapture: Tracked?
    let subject = PassthroughSubject<Int, Never>()
    let sink: Subscribers.Sink<Int, Never>
    do {
      let forValue = Tracked()
      let forCompletion = Tracked()
      weakValueCapture = forValue
      weakCompletionCapture = forCompletion
      sink = Subscribers.Sink(receiveCompletion: { _ in _ = forCompletion }, receiveValue: { _ in _ = forValue })
      subject.subscribe(sink)
    }
    #expect(weakValueCapture != nil)
    if complete { subject.send(completion: .finished) } else { sink.cancel() }
    withExtendedLifetime(sink) {
      #expect(weakValueCapture == nil)
      #expect(weakCompletionCapture == nil)
    }
  }

  @Test func sink_keepsItsClosuresWhenCancelledBeforeASubscription() {
    weak var weakCapture: Tracked?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let tracked = Tracked()
      weakCapture = tracked
      sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in _ = tracked })
    }
    sink.cancel()
    withExtendedLifetime(sink) { #expect(weakCapture != nil, "as Combine: a cancel before subscription does nothing") }
  }

  @Test(arguments: [true, false])
  func assign_releasesTheObjectOnCompletionAndOnCancel(_ complete: Bool) {
    final class Model { var value = 0 }
    weak var weakModel: Model?
    let subject = PassthroughSubject<Int, Never>()
    let assign: Subscribers.Assign<Model, Int>
    do {
      let model = Model()
      weakModel = model
      assign = Subscribers.Assign(object: model, keyPath: \.value)
      subject.subscribe(assign)
      subject.send(3)
      #expect(model.value == 3)
    }
    if complete { subject.send(completion: .finished) } else { assign.cancel() }
    withExtendedLifetime(assign) {
      #expect(weakModel == nil)
      #expect(assign.object == nil)
    }
  }

  // MARK: Every operator, as apps use them

  /// Through a `sink` kept in an `AnyCancellable`: after the upstream completes (or the
  /// cancellable is cancelled), the operator chain lets go of the subscriber's closures and of
  /// the upstream subject, though the cancellable is still held.
  @Test(arguments: OperatorCatalog.names)
  func everyOperator_releasesTheChainOnCompletionAndOnCancel(_ name: String) throws {
    let entry = try #require(OperatorCatalog.entries[name])
    entry.run(ReleasesOnTermination(name: name, cancel: false))
    entry.run(ReleasesOnTermination(name: name, cancel: true))
  }

  @Test func tryFilter_encode_decode_releaseTheirClosuresOnceFinished() {
    weak var weakCapture: Tracked?
    weak var weakEncoder: JSONEncoder?
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, Error>()
    do {
      let tracked = Tracked()
      let encoder = JSONEncoder()
      weakCapture = tracked
      weakEncoder = encoder
      subject.tryFilter { _ in
        _ = tracked
        return true
      }
      .encode(encoder: encoder).decode(type: Int.self, decoder: JSONDecoder())
      .subscribe(recorder)
    }
    subject.send(1)
    subject.send(completion: .finished)
    withExtendedLifetime(subject) {
      #expect(recorder.values == [1])
      #expect(weakCapture == nil, "tryFilter's predicate released")
      #expect(weakEncoder == nil, "encode's encoder released")
    }
  }
}

/// Subscribes a sink capturing a tracked object to the operator over a subject, completes or
/// cancels, and checks that neither the closure's capture nor the subject is kept.
struct ReleasesOnTermination: ReentrancyScenario {
  let name: String
  let cancel: Bool

  func run<P: Publisher>(_ make: @escaping (AnyPublisher<Int, TestError>) -> P) {
    weak var weakCapture: Tracked?
    weak var weakSubject: PassthroughSubject<Int, TestError>?
    var cancellable: AnyCancellable?
    do {
      let subject = PassthroughSubject<Int, TestError>()
      weakSubject = subject
      let tracked = Tracked()
      weakCapture = tracked
      cancellable = make(subject.eraseToAnyPublisher()).sink(
        receiveCompletion: { _ in _ = tracked }, receiveValue: { _ in _ = tracked })
      subject.send(1)
      if cancel {
        cancellable?.cancel()
      } else {
        subject.send(completion: .finished)
      }
    }
    withExtendedLifetime(cancellable) {
      #expect(
        weakCapture == nil, "\(name): the subscriber's closures are kept after \(cancel ? "cancel" : "completion")")
      #expect(weakSubject == nil, "\(name): the upstream is kept after \(cancel ? "cancel" : "completion")")
    }
  }
}
