import Foundation
import Reactive
import Testing

@testable import CommonTesting

@Suite struct PublisherRecorderTests {
  struct Failure: Error, Equatable {}

  @Test func recordsValuesAndCompletionInOrder() {
    let subject = PassthroughSubject<Int, Failure>()
    let recorder = subject.record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(Failure()))
    #expect(recorder.events == [.value(1), .value(2), .completion(.failure(Failure()))])
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .failure(Failure()))
    #expect(recorder.failure == Failure())
    #expect(!recorder.isFinished)
    #expect(recorder.subscriptionsReceived == 1)
  }

  @Test func recordsFinished() {
    let recorder = Just("a").record()
    #expect(recorder.isFinished)
    #expect(recorder.failure == nil)
    #expect(recorder.values == ["a"])
  }

  @Test func boundedDemand_andRequestingMore() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(demand: .max(1))
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    subject.send(3)
    #expect(recorder.values == [1, 3])
  }

  @Test func cancel_stopsRecording() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    subject.send(1)
    recorder.cancel()
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
  }

  @Test func waitsForValuesFromAnotherThread() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    DispatchQueue.global().async {
      for value in 1...3 { subject.send(value) }
    }
    #expect(recorder.waitForValues(count: 3))
    #expect(recorder.values == [1, 2, 3])
  }

  @Test func waitStopsAtCompletion() {
    let recorder = Empty<Int, Never>().record()
    #expect(!recorder.waitForValues(count: 1, timeout: 5))
    #expect(recorder.waitForCompletion(timeout: 0))
  }

  @Test func recordsAPublishedProperty() {
    final class Model {
      @Published var count = 0
    }
    let model = Model()
    let recorder = model.$count.record()
    model.count = 1
    #expect(recorder.values == [0, 1])
  }
}
