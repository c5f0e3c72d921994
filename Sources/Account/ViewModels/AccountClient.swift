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

  /// A publisher of `work`'s result: one value then `.finished`, or a failure (any error as a
  /// ``ServiceError``, see ``ServiceError/init(wrapping:)``), delivered on the scheduler.
  public func perform<T>(_ work: @escaping @Sendable (AccountEnvironment) throws -> T) -> AnyPublisher<T, ServiceError>
  {
    let environment = environment
    return ServiceCall.publisher { try work(environment) }
      .receive(on: scheduler)
      .eraseToAnyPublisher()
  }
}

extension AccountClient {
  /// `error` as a service error (see ``ServiceError/init(wrapping:)``).
  static func serviceError(_ error: any Error) -> ServiceError { ServiceError(wrapping: error) }
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
