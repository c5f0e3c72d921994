import Foundation
import Reactive
import ReactiveNetworking
import Testing
import Transport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct Echo: Codable, Equatable {
  var path: String
}

@Suite(.timeLimit(.minutes(1)))
struct DataTaskPublisherTests {
  /// The classic chain: dataTaskPublisher → map(\.data) → decode → eraseToAnyPublisher().
  @Test func mapDecodeChainDeliversOneValueThenFinishes() throws {
    let server = try HTTPServer(
      configuration: .init(port: 0),
      routes: .init(http: { request in
        HTTPResponse(status: 200, body: Data(#"{"path":"\#(request.path)"}"#.utf8))
      }))
    defer { server.shutdown(timeout: 2) }
    let publisher: AnyPublisher<Echo, any Error> = URLSession.shared
      .dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(server.port)/v1/echo")!)
      .map(\.data)
      .decode(type: Echo.self, decoder: JSONDecoder())
      .eraseToAnyPublisher()
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var values: [Echo] = []
    nonisolated(unsafe) var finished = false
    let cancellable = publisher.sink(
      receiveCompletion: { completion in
        if case .finished = completion { finished = true }
        done.signal()
      }, receiveValue: { values.append($0) })
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(values == [Echo(path: "/v1/echo")])
    #expect(finished)
    cancellable.cancel()
  }

  @Test func unreachableServerFailsWithURLError() throws {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var failure: URLError?
    let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!)
      .sink(
        receiveCompletion: { completion in
          if case .failure(let error) = completion { failure = error }
          done.signal()
        }, receiveValue: { _ in })
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(failure != nil)
    cancellable.cancel()
  }

  @Test func nothingIsRequestedBeforeSubscription() throws {
    let counter = Counter()
    let server = try HTTPServer(
      configuration: .init(port: 0),
      routes: .init(http: { _ in
        counter.increment()
        return HTTPResponse(status: 200)
      }))
    defer { server.shutdown(timeout: 2) }
    _ = URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(server.port)/")!)
    Thread.sleep(forTimeInterval: 0.2)
    #expect(counter.value == 0)
  }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
