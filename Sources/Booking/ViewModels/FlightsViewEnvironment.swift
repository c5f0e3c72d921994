import Common
import Foundation
import Reactive

/// What the flight view models need: the services, the traveller's currency, and two schedulers
/// (main queue for outputs, background queue for service calls). Tests pass `DispatchQueue.test`
/// for both.
///
/// Prices are shown as the service priced them: a search asks for the traveller's currency, so
/// what a screen shows is what booking charges (no conversion for display).
public struct FlightsViewEnvironment {
  public var flights: any FlightSearching
  public var booking: (any FlightBooking)?
  /// The signed-in user's session token (nil: not signed in).
  public var token: @Sendable () -> String?
  /// The ISO 4217 currency a search asks prices in (the signed-in user's preference), asked on
  /// the background queue at each search, so a sign-in mid-session counts from the next search;
  /// nil leaves it to the service (USD for nobody signed in).
  public var currency: @Sendable () -> String?
  public var mainQueue: AnySchedulerOf<DispatchQueue>
  public var backgroundQueue: AnySchedulerOf<DispatchQueue>
  /// How amounts are written (``MoneyFormat`` in the traveller's language).
  public var money: MoneyFormat
  /// Live flight status (the Status and Board screens); nil hides them.
  public var status: (any FlightStatusService)?
  /// Every flight in the air (the Radar screen); nil hides it.
  public var radar: (any FlightRadarService)?

  public init(
    flights: any FlightSearching, booking: (any FlightBooking)? = nil,
    token: @escaping @Sendable () -> String? = { nil }, currency: @escaping @Sendable () -> String? = { nil },
    mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>,
    money: MoneyFormat = MoneyFormat(Localization.current), status: (any FlightStatusService)? = nil,
    radar: (any FlightRadarService)? = nil
  ) {
    self.radar = radar
    self.money = money
    self.flights = flights
    self.booking = booking
    self.status = status
    self.token = token
    self.currency = currency
    self.mainQueue = mainQueue
    self.backgroundQueue = backgroundQueue
  }

  /// Runs `body` on the background queue and delivers its result on the main queue, never failing
  /// (a failure travels in the `Result` as a ``ServiceError``, so a stream survives it).
  func call<T>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<Result<T, ServiceError>, Never> {
    ServiceCall.result(on: backgroundQueue, deliverOn: mainQueue, body)
  }

  /// `money` formatted for people, in its own currency, the traveller's way (`$702.00`,
  /// `€628.22`, `¥108,100`; German `628,22 €`).
  func display(_ money: Money) -> String { self.money.string(money) }
}
