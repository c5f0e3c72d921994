import Foundation
import Reactive

extension ServiceError {
  /// `error` as a service error: itself when it is one; a ``CLIError`` with its code (exit 2 as
  /// ``Kind/invalidInput``, else ``Kind/refused``); anything else ``Kind/unavailable`` with the
  /// code `failed` and the error's reason in words (``ErrorText``).
  public init(wrapping error: any Error) {
    if let error = error as? ServiceError {
      self = error
    } else if let error = error as? CLIError {
      self.init(error.exitStatus == 2 ? .invalidInput : .refused, code: error.code, message: error.message)
    } else {
      self.init(.unavailable, code: "failed", message: ErrorText.reason(of: error))
    }
  }
}

/// How view models call the synchronous service protocols of `Common/Services` (a store read, a
/// search, ~100 ms of scrypt) without blocking the thread that draws: as publishers that run the
/// call when subscribed, on a background scheduler, and deliver on the main one. Tests pass a
/// virtual-time `TestScheduler` for both, so every call is deterministic and instant.
public enum ServiceCall {
  /// One value, `body`'s result, then `.finished`; or a ``ServiceError`` (any other error is
  /// wrapped with ``ServiceError/init(wrapping:)``). `body` runs on the subscribing thread, each
  /// time the publisher is subscribed to; add `subscribe(on:)` to move it.
  public static func publisher<T>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<T, ServiceError> {
    Deferred {
      Future<T, ServiceError> { promise in
        do {
          promise(.success(try body()))
        } catch {
          promise(.failure(ServiceError(wrapping: error)))
        }
      }
    }
    .eraseToAnyPublisher()
  }

  /// `body` run on `background` when subscribed, its outcome delivered on `main` as a `Result`
  /// that never fails the stream: a failed search inside `switchToLatest` leaves the stream alive
  /// for the next one.
  public static func result<T, Background: Scheduler, Main: Scheduler>(
    on background: Background, deliverOn main: Main, _ body: @escaping @Sendable () throws -> T
  ) -> AnyPublisher<Result<T, ServiceError>, Never> {
    publisher(body)
      .map { Result<T, ServiceError>.success($0) }
      .catch { Just(Result<T, ServiceError>.failure($0)) }
      .subscribe(on: background)
      .receive(on: main)
      .eraseToAnyPublisher()
  }
}
