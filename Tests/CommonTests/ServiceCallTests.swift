import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@Suite struct ServiceCallTests {
  struct Plain: Error, LocalizedError {
    var errorDescription: String? { "disk on fire" }
  }

  @Test func wrapping_keepsServiceErrors_mapsCLIErrorsByExitStatus_andWrapsTheRest() {
    let sold = ServiceError.refused("sold_out", "sold out")
    #expect(ServiceError(wrapping: sold) == sold)
    let usage = ServiceError(wrapping: CLIError(code: "invalid_date", message: "bad date", exitStatus: 2))
    #expect(usage.kind == .invalidInput && usage.code == "invalid_date")
    let refused = ServiceError(wrapping: CLIError(code: "not_cancellable", message: "too late", exitStatus: 1))
    #expect(refused.kind == .refused)
    let other = ServiceError(wrapping: Plain())
    #expect(other.kind == .unavailable && other.code == "failed" && other.message == "disk on fire")
  }

  @Test func result_runsOnTheBackground_deliversOnMain_andNeverFailsTheStream() {
    let background = DispatchQueue.test
    let main = DispatchQueue.test
    let calls = Counter()
    let values = ServiceCall.result(on: background, deliverOn: main) { () throws -> Int in
      calls.increment()
      throw ServiceError.refused("sold_out", "sold out")
    }
    .record()
    #expect(calls.value == 0)  // nothing runs before the background scheduler does
    background.run()
    #expect(calls.value == 1 && values.values.isEmpty)  // not yet delivered on main
    main.run()
    #expect(values.values == [.failure(.refused("sold_out", "sold out"))])
    #expect(values.completion == .finished)
  }

  @Test func publisher_runsOncePerSubscription() {
    let calls = Counter()
    let publisher = ServiceCall.publisher { () -> Int in
      calls.increment()
      return 42
    }
    #expect(publisher.record().values == [42])
    #expect(publisher.record().values == [42])
    #expect(calls.value == 2)
  }
}

/// A thread-safe call counter.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}
