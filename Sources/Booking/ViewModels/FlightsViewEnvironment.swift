import Common
import Foundation
import Reactive

/// What the flight view models need: the services, the user's currency and exchange rates, and two
/// schedulers (main queue for outputs, background queue for service calls). Tests pass
/// `DispatchQueue.test` for both.
public struct FlightsViewEnvironment {
  public var flights: any FlightSearching
  public var booking: (any FlightBooking)?
  /// The signed-in user's session token (nil: not signed in).
  public var token: @Sendable () -> String?
  /// The currency prices are shown in (the user's preference), and the rates to convert to it.
  public var displayCurrency: String
  public var exchangeRates: ExchangeRates?
  public var mainQueue: AnySchedulerOf<DispatchQueue>
  public var backgroundQueue: AnySchedulerOf<DispatchQueue>

  public init(
    flights: any FlightSearching, booking: (any FlightBooking)? = nil,
    token: @escaping @Sendable () -> String? = { nil },
    displayCurrency: String = "USD", exchangeRates: ExchangeRates? = nil,
    mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.flights = flights
    self.booking = booking
    self.token = token
    self.displayCurrency = displayCurrency
    self.exchangeRates = exchangeRates
    self.mainQueue = mainQueue
    self.backgroundQueue = backgroundQueue
  }

  /// Runs `body` on the background queue and delivers its result on the main queue, never failing
  /// (a failure travels in the `Result` as a ``ServiceError``, so a stream survives it).
  func call<T>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<Result<T, ServiceError>, Never> {
    Deferred {
      Future<Result<T, ServiceError>, Never> { promise in
        do {
          promise(.success(.success(try body())))
        } catch let error as ServiceError {
          promise(.success(.failure(error)))
        } catch {
          promise(.success(.failure(ServiceError(.unavailable, code: "failed", message: error.localizedDescription))))
        }
      }
    }
    .subscribe(on: backgroundQueue)
    .receive(on: mainQueue)
    .eraseToAnyPublisher()
  }

  /// `money` in the display currency (unchanged when no rate is known), formatted for people.
  func display(_ money: Money) -> String { converted(money).formatted() }

  /// `money` in the display currency (unchanged when no rate is known).
  func converted(_ money: Money) -> Money {
    guard money.currencyCode != displayCurrency, let rates = exchangeRates,
      let converted = try? rates.convert(money, to: displayCurrency)
    else { return money }
    return converted
  }
}
