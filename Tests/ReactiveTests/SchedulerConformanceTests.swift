import Foundation
import Reactive
import Testing

/// Every time-based operator on a virtual-time scheduler written outside the package
/// (``ManualClockScheduler``), which sees only the `Scheduler` protocol: the operators must work
/// with it, and call it as Combine does.
@Suite(.timeLimit(.minutes(1)))
struct SchedulerConformanceTests {
  typealias Time = ManualClockScheduler.Time
  typealias Call = ManualClockScheduler.Call

  private func t(_ nanoseconds: Int) -> Time { Time(nanoseconds: nanoseconds) }

  @Test func debounce_deliversTheLastValueOfABurst_withARepeatingTimerAsCombineDoes() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = RecordingSubscriber<Int, TestError>()
    subject.debounce(for: .nanoseconds(13), scheduler: scheduler, options: .tagged).subscribe(subscriber)
    subject.send(1)
    #expect(
      scheduler.calls == [
        .now, .minimumTolerance,
        .scheduleRepeating(t(13), interval: .nanoseconds(13), tolerance: .nanoseconds(7), .tagged),
      ])
    scheduler.advance(to: t(4))
    subject.send(2)
    scheduler.advance(to: t(9))
    subject.send(3)
    scheduler.advance(to: t(21))
    #expect(subscriber.values == [])
    scheduler.advance(to: t(22))
    #expect(subscriber.values == [3])
    scheduler.advance(to: t(200))
    #expect(subscriber.values == [3], "the timer is cancelled once it has delivered")
    subject.send(4)
    subject.send(completion: .finished)
    #expect(scheduler.calls.last == .schedule(nil), "the completion is scheduled without the options, as in Combine")
    scheduler.advance(to: t(300))
    #expect(subscriber.events.suffix(2) == ["value(3)", "finished"], "a value still waiting is dropped")
    #expect(scheduler.pendingCount == 0)
  }

  @Test func debounce_withoutDemand_dropsTheValue() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>(initialDemand: nil)
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
    subject.send(1)
    scheduler.advance(by: .seconds(2))
    subscriber.request(.max(1))
    subject.send(2)
    scheduler.advance(by: .seconds(2))
    #expect(subscriber.values == [2])
  }

  @Test func throttle_latest_sendsTheLatestOfEachInterval() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>()
    subject.throttle(for: .seconds(10), scheduler: scheduler, latest: true).subscribe(subscriber)
    #expect(scheduler.calls == [.now, .now], "the time when created, then when subscribed")
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(scheduler.calls.suffix(4) == [.now, .schedule(nil), .now, .now])
    scheduler.advance(by: .nanoseconds(0))
    #expect(subscriber.values == [3])
    subject.send(4)
    #expect(
      scheduler.calls.suffix(3) == [
        .now, .minimumTolerance, .scheduleAfter(t(10_000_000_000), tolerance: .nanoseconds(7), nil),
      ])
    subject.send(5)
    scheduler.advance(by: .seconds(10))
    #expect(subscriber.values == [3, 5])
    subject.send(completion: .finished)
    scheduler.advance(by: .seconds(1))
    #expect(subscriber.events.last == "finished")
  }

  @Test func throttle_first_sendsTheFirstOfEachInterval() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>()
    subject.throttle(for: .seconds(10), scheduler: scheduler, latest: false).subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    subject.send(4)
    scheduler.advance(by: .seconds(10))
    #expect(subscriber.values == [1, 3])
  }

  @Test func delay_shiftsValuesAndTheCompletion_andPassesDemandThrough() {
    let scheduler = ManualClockScheduler()
    let upstream = TestPublisher<Int, TestError>()
    let subscriber = RecordingSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1))
    upstream.delay(for: .seconds(2), tolerance: .nanoseconds(3), scheduler: scheduler, options: .tagged)
      .subscribe(subscriber)
    #expect(upstream.subscription?.events == [.requested(.max(2))], "delay requests nothing on its own")
    #expect(upstream.send(1) == .none)
    #expect(scheduler.calls == [.now, .scheduleAfter(t(2_000_000_000), tolerance: .nanoseconds(3), .tagged)])
    upstream.send(completion: .finished)
    scheduler.advance(by: .seconds(1))
    #expect(subscriber.values == [])
    scheduler.advance(by: .seconds(1))
    #expect(subscriber.events.dropFirst() == ["value(1)", "finished"])
    #expect(upstream.subscription?.events == [.requested(.max(2)), .requested(.max(1))])
  }

  @Test func timeout_finishesOrFailsWhenUpstreamIsQuietTooLong_andValuesReArmIt() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = RecordingSubscriber<Int, TestError>()
    subject.timeout(.seconds(5), scheduler: scheduler, customError: { TestError(9) }).subscribe(subscriber)
    #expect(
      scheduler.calls.prefix(3) == [
        .now, .minimumTolerance,
        .scheduleRepeating(t(5_000_000_000), interval: .seconds(5), tolerance: .nanoseconds(7), nil),
      ])
    scheduler.advance(by: .seconds(4))
    subject.send(1)
    scheduler.advance(by: .seconds(4))
    #expect(subscriber.values == [1])
    #expect(subscriber.completionCount == 0, "the value re-armed the timer")
    scheduler.advance(by: .seconds(1))
    #expect(subscriber.events.last == "failure(TestError(code: 9))")
    subject.send(2)
    scheduler.advance(by: .seconds(10))
    #expect(subscriber.values == [1])
  }

  @Test func receiveOn_deliversOnTheScheduler_withTheOptions() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>()
    subject.receive(on: scheduler, options: .tagged).subscribe(subscriber)
    subject.send(1)
    subject.send(completion: .finished)
    #expect(subscriber.values == [])
    #expect(scheduler.calls == [.schedule(.tagged), .schedule(.tagged)])
    scheduler.advance(by: .nanoseconds(0))
    #expect(subscriber.events.dropFirst() == ["value(1)", "finished"])
  }

  @Test func subscribeOn_subscribesRequestsAndCancelsOnTheScheduler() {
    let scheduler = ManualClockScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    #expect(upstream.subscriber == nil, "the subscription waits for the scheduler")
    #expect(scheduler.calls == [.schedule(nil)])
    scheduler.advance(by: .nanoseconds(0))
    #expect(scheduler.calls == [.schedule(nil), .schedule(nil)], "the request went through the scheduler too")
    #expect(upstream.subscription?.events == [.requested(.max(3))])
    subscriber.cancel()
    #expect(upstream.subscription?.events == [.requested(.max(3))], "the cancel waits for the scheduler")
    scheduler.advance(by: .nanoseconds(0))
    #expect(upstream.subscription?.events == [.requested(.max(3)), .cancelled])
  }

  @Test func collectByCount_andTimeOperatorsTogether_onTheThirdPartyScheduler() {
    let scheduler = ManualClockScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<[Int], Never>()
    subject.delay(for: .milliseconds(5), scheduler: scheduler).collect(2).receive(on: scheduler).subscribe(recorder)
    (1...5).forEach(subject.send)
    subject.send(completion: .finished)
    scheduler.advance(by: .milliseconds(10))
    #expect(recorder.values == [[1, 2], [3, 4], [5]])
    #expect(recorder.events.last == "finished")
  }

  // MARK: ImmediateScheduler, DispatchQueue strides

  @Test func immediateSchedulerStride_isCombines() throws {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    let now = ImmediateScheduler.shared.now
    #expect(now == now.advanced(by: 100))
    #expect(now.distance(to: now.advanced(by: -1)) == 0)
    #expect(Stride(14) == 14)
    #expect(Stride(14) == 14.6, "a floating-point literal keeps its whole part, as Combine's does")
    #expect(Stride(-4) == -4.1)
    #expect(Stride(-4) * Stride(5) == Stride(-20))
    #expect(Stride(10) - Stride(3) == Stride(7))
    var stride = Stride(-4)
    stride += Stride(5)
    stride -= Stride(-10)
    stride *= 2
    #expect(stride == 22)
    #expect(Stride.seconds(1.2) == 0 && Stride.seconds(1100) == 0 && Stride.milliseconds(123) == 0)
    #expect(Stride.microseconds(51) == 0 && Stride.nanoseconds(23) == 0)
    let encoded = try JSONEncoder().encode(["value": Stride(-42)])
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"magnitude":-42}}"#)
    #expect(try JSONDecoder().decode([String: Stride].self, from: encoded)["value"] == -42)
    #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    let cancellable = ImmediateScheduler.shared.schedule(after: now, interval: 10) {}
    #expect(String(describing: cancellable) == "Empty")
  }

  @Test func dispatchQueueStride_nanoseconds_literalsInSeconds_clamping() {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride
    #expect(Stride.seconds(1.5).magnitude == 1_500_000_000)
    #expect(Stride(floatLiteral: 0.25).magnitude == 250_000_000)
    #expect(Stride(integerLiteral: 2).magnitude == 2_000_000_000)
    #expect(Stride(.milliseconds(3)) == .milliseconds(3))
    #expect(Stride(.never).magnitude == .max)
    #expect(Stride.seconds(Int.max).magnitude == .max)
    #expect(Stride.seconds(Double.infinity).magnitude == .max)
    #expect((Stride.seconds(2) * Stride.seconds(3)).magnitude == 0, "a product of strides is zero, as in Combine")
  }

  // MARK: CurrentValueSubject after completion

  @Test func currentValueSubject_valueIsSettableAfterCompletion_withoutSending() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let subscriber = RecordingSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    subject.send(completion: .finished)
    subject.value = 5
    #expect(subject.value == 5, "setting value after completion changes it")
    subject.send(6)
    #expect(subject.value == 5, "send after completion is ignored")
    #expect(subscriber.values == [1])
  }
}
