import CommonTesting
import Foundation
import Testing

@testable import Reactive

@Suite struct SchedulerTests {
  @Test func testScheduler_runsActionsInTimeOrderWhenAdvanced() {
    let scheduler = DispatchQueue.test
    let log = Collector<String>()
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("2s") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("1s") }
    scheduler.schedule { log.append("now") }
    #expect(log.values.isEmpty)
    scheduler.advance()
    #expect(log.values == ["now"])
    scheduler.advance(by: .milliseconds(1500))
    #expect(log.values == ["now", "1s"])
    scheduler.advance(by: .seconds(1))
    #expect(log.values == ["now", "1s", "2s"])
    #expect(scheduler.now == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 2_500_000_001)))
  }

  @Test func testScheduler_runRunsEverything_andNestedSchedules() {
    let scheduler = DispatchQueue.test
    let log = Collector<Int>()
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {
      log.append(5)
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append(6) }
    }
    scheduler.run()
    #expect(log.values == [5, 6])
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func testScheduler_repeatingIntervalUntilCancelled() {
    let scheduler = DispatchQueue.test
    let ticks = Collector<Int>()
    let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks.append(1) }
    scheduler.advance(by: .seconds(3))
    #expect(ticks.values.count == 4)
    cancellable.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(ticks.values.count == 4)
  }

  @Test func immediateScheduler_runsAtOnce() {
    let log = Collector<Int>()
    ImmediateScheduler.shared.schedule { log.append(1) }
    ImmediateScheduler.shared.schedule(after: ImmediateScheduler.shared.now.advanced(by: .seconds(10))) {
      log.append(2)
    }
    #expect(log.values == [1, 2])
  }

  @Test func strides_convertUnits() {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride
    #expect(Stride.seconds(2).magnitude == 2_000_000_000)
    #expect(Stride.seconds(0.5).magnitude == 500_000_000)
    #expect(Stride.milliseconds(3).magnitude == 3_000_000)
    #expect(Stride.microseconds(3).magnitude == 3_000)
    #expect(Stride.nanoseconds(3).magnitude == 3)
    let literal: Stride = 2
    #expect(literal == .seconds(2))
    #expect(Stride.seconds(1) < Stride.seconds(2))
  }

  @Test func receiveOn_deliversOnTheScheduler() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: scheduler).record()
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.value(1), .completion(.finished)])
  }

  @Test func receiveOn_cancelledBeforeDelivery_deliversNothing() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: scheduler).record()
    subject.send(1)
    recorder.cancel()
    scheduler.advance()
    #expect(recorder.events.isEmpty)
  }

  @Test func receiveOn_dispatchQueue_hopsToTheQueue() {
    let queue = DispatchQueue(label: "reactive.tests.receive-on")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 42)
    let onQueue = Collector<Int?>()
    let recorder = Just(1).receive(on: queue)
      .handleEvents(receiveOutput: { _ in onQueue.append(DispatchQueue.getSpecific(key: key)) })
      .record()
    #expect(recorder.waitForCompletion())
    #expect(recorder.values == [1])
    #expect(onQueue.values == [42])
  }

  @Test func subscribeOn_subscribesOnTheScheduler() {
    let scheduler = DispatchQueue.test
    let recorder = Just(1).subscribe(on: scheduler).record()
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.value(1), .completion(.finished)])
  }

  @Test func debounce_sendsTheLatestValueAfterAQuietPeriod() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<String, Never>()
    let recorder = subject.debounce(for: .milliseconds(300), scheduler: scheduler).record()
    subject.send("L")
    scheduler.advance(by: .milliseconds(100))
    subject.send("LH")
    scheduler.advance(by: .milliseconds(100))
    subject.send("LHR")
    scheduler.advance(by: .milliseconds(299))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == ["LHR"])
    subject.send("LGW")
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == ["LHR", "LGW"])
  }

  @Test func debounce_completionDropsAPendingValue() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler).record()
    subject.send(1)
    subject.send(completion: .finished)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.events == [.completion(.finished)])
  }

  @Test func debounce_withoutDemandDropsTheValue() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler).record(demand: .none)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    recorder.request(.max(1))
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [2])
  }

  @Test func anyScheduler_wrapsTestAndImmediateSchedulers() {
    let test = DispatchQueue.test
    let erased: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: erased).record()
    subject.send(1)
    test.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    #expect(erased.now == test.now)
    let immediate = Just(2).receive(on: AnyScheduler.immediate).record()
    #expect(immediate.values == [2])
    _ = AnySchedulerOf<DispatchQueue>.main
  }
}
