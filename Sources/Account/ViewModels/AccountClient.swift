import Common
import Foundation
import Reactive

/// The account services as publishers, for view models: each call runs the (synchronous)
/// service when subscribed and delivers its one value, or its ``ServiceError``, on `scheduler`
/// (the main queue in the app, a `TestScheduler` in tests).
public struct AccountClient: Sendable {
  public let environment: AccountEnvironment
  public let scheduler: AnySchedulerOf<DispatchQueue>

  public init(environment: AccountEnvironment, scheduler: AnySchedulerOf<DispatchQueue>) {
    self.environment = environment
    self.scheduler = scheduler
  }

  /// A publisher of `work`'s result: one value then `.finished`, or a failure. Any error that is
  /// not a ``ServiceError`` becomes one of kind ``ServiceError/Kind/unavailable``.
  public func perform<T>(_ work: @escaping @Sendable (AccountEnvironment) throws -> T) -> AnyPublisher<T, ServiceError>
  {
    let environment = environment
    return Deferred {
      Future<T, ServiceError> { promise in
        do {
          promise(.success(try work(environment)))
        } catch {
          promise(.failure(AccountClient.serviceError(error)))
        }
      }
    }
    .receive(on: scheduler)
    .eraseToAnyPublisher()
  }
}

extension AccountClient {
  /// `error` as a service error (itself when it is one).
  static func serviceError(_ error: any Error) -> ServiceError {
    if let error = error as? ServiceError { return error }
    if let error = error as? CLIError {
      return ServiceError(
        error.exitStatus == 2 ? .invalidInput : .refused, code: error.code, message: error.message)
    }
    return ServiceError(.unavailable, code: "failed", message: error.localizedDescription)
  }
}

/// An alert a view shows: a title and a message, dismissed by the user.
public struct AlertState: Hashable, Sendable {
  public var title: String
  public var message: String

  public init(title: String, message: String) {
    self.title = title
    self.message = message
  }
}
