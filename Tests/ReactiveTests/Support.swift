import Foundation
import Reactive

/// A thread-safe list for collecting values from closures in tests.
final class Collector<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []

  func append(_ value: Value) {
    lock.lock()
    storage.append(value)
    lock.unlock()
  }

  var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}

struct TestError: Error, Equatable, Codable {
  var code: Int
  init(_ code: Int = 1) { self.code = code }
}

/// A subscriber whose demand per value and initial demand are set by the test, and which keeps its
/// subscription for the test to use.
final class ManualSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  private let lock = NSLock()
  private var storedSubscription: Subscription?
  private var storedValues: [Input] = []
  private var storedCompletions: [Subscribers.Completion<Failure>] = []
  let initialDemand: Subscribers.Demand
  var demandPerValue: Subscribers.Demand
  var onValue: ((Input) -> Void)?

  init(initialDemand: Subscribers.Demand = .none, demandPerValue: Subscribers.Demand = .none) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
  }

  var subscription: Subscription? { lock.withLock { storedSubscription } }
  var values: [Input] { lock.withLock { storedValues } }
  var completions: [Subscribers.Completion<Failure>] { lock.withLock { storedCompletions } }

  func receive(subscription: Subscription) {
    lock.withLock { storedSubscription = subscription }
    if initialDemand > .none { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { storedValues.append(input) }
    onValue?(input)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock { storedCompletions.append(completion) }
  }
}
