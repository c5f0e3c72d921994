import Common
import CommonUI
import Foundation
import Reactive

extension BookingScreens {
  /// The Flights tab of an interactive app, over the same services the commands use: outputs on
  /// the main queue, service calls on a background queue.
  ///
  /// The services are opened off the main thread (the world's flight network takes a moment to
  /// build; search starts opening at once, in the background), so the app opens at once; a failure
  /// to open them is shown on the form like any service error.
  ///
  /// - Parameters:
  ///   - title: the tab's title.
  ///   - services: the commands' services (``BookingServices``), opened for `context`.
  ///   - session: the app's one session (``AccountSession``, over the context's store in an app):
  ///     the session a booking uses, the cards, signing in, the header's greeting, the home airport
  ///     (the form's From), and the preferred currency each search is priced in (read at each
  ///     search, so signing in mid-session prices the next search in the traveller's currency).
  ///   - context: the invocation's context: data directory (the store).
  /// - Throws: nothing today; reserved for services that must open before the app does.
  ///
  /// "Today" is read from the invocation's clock (`--clock-start`): the calendar opens on the
  /// traveller's date (the device's zone) and the form refuses only dates past at every place
  /// (``TravelToday``).
  public static func feature(
    title: String = L("Flights"), services: BookingServices, session: AccountSession, context: CLIContext
  ) throws -> InteractiveFeature {
    let account = session.account
    let flights = LazyFlightSearching { try services.flights(context) }
    // Start opening now, off the main thread, so the first airport suggestions come quickly.
    DispatchQueue.global(qos: .utility).async { flights.warmUp() }
    let booking = services.booking.map { make in LazyFlightBooking { try make(context) } }
    let status = services.status.map { make in LazyFlightStatus(clock: context.clock) { try make(context) } }
    let background = DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler()
    let views = FlightsViewEnvironment(
      flights: flights, booking: booking, token: { (try? account.token()) ?? nil },
      currency: { account.preferredCurrency() },
      mainQueue: DispatchQueue.main.eraseToAnyScheduler(), backgroundQueue: background,
      money: MoneyFormat(context.travellerLanguage()), status: status,
      radar: services.radar.map { make in LazyFlightRadar(clock: context.clock) { try make(context) } })
    let today = TravelToday(clock: context.clock)
    let notices = status.map { service in
      TripNotices.publisher(service: service, token: { (try? account.token()) ?? nil }, queue: background)
    }
    return InteractiveFeature(
      tab: AppTab(title, root: root(environment: views, session: session, today: today)), session: session,
      notices: notices)
  }
}

/// The header's notices of the traveller's booked flights: whoever is signed in (read again every
/// few seconds, so a sign-in or sign-out counts), their trips' feed
/// (``FlightStatusService/tripEvents(token:)``), and a notice for each change a traveller acts on
/// (``FlightStatusUpdate/notice(for:)``: gate, time, boarding, departure, landing, cancellation,
/// diversion), named as they booked it ("LH 400 to JFK: gate changed to B44").
enum TripNotices {
  static func publisher(
    service: any FlightStatusService, token: @escaping @Sendable () -> String?, queue: AnySchedulerOf<DispatchQueue>,
    interval: DispatchQueue.SchedulerTimeType.Stride = .seconds(3)
  ) -> AnyPublisher<Notice, Never> {
    Deferred { () -> AnyPublisher<Notice, Never> in
      let ticks = PassthroughSubject<Void, Never>()
      let timer = TimerHolder()
      return ticks.prepend(())
        .receive(on: queue)
        .map { token() }
        .removeDuplicates()
        .map { token -> AnyPublisher<TripFlightEvent, Never> in
          guard let token else { return Empty().eraseToAnyPublisher() }
          return service.tripEvents(token: token).catch { _ in Empty<TripFlightEvent, Never>() }.eraseToAnyPublisher()
        }
        .switchToLatest()
        .compactMap { event -> Notice? in
          guard case .update(let update) = event.event, let text = update.notice(for: event.booked) else { return nil }
          return Notice(text)
        }
        .handleEvents(
          receiveSubscription: { _ in
            timer.set(queue.schedule(after: queue.now.advanced(by: interval), interval: interval) { ticks.send() })
          },
          receiveCancel: { timer.cancel() }
        )
        .eraseToAnyPublisher()
    }.eraseToAnyPublisher()
  }
}

/// The polling timer of a publisher. `@unchecked Sendable`: guarded by `lock`.
private final class TimerHolder: @unchecked Sendable {
  private let lock = NSLock()
  private var timer: Cancellable?

  func set(_ timer: Cancellable) { lock.withLock { self.timer = timer } }
  func cancel() { lock.withLock { timer }?.cancel() }
}

/// A value made on first use, once, thread-safely; a failure is kept and thrown again.
final class OnFirstUse<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var make: (@Sendable () throws -> Value)?
  private var result: Result<Value, any Error>?

  init(_ make: @escaping @Sendable () throws -> Value) { self.make = make }

  func get() throws -> Value {
    try lock.withLock {
      if let result { return try result.get() }
      let made = Result { try make!() }
      result = made
      make = nil
      return try made.get()
    }
  }
}

/// Flight search opened on first use (see ``OnFirstUse``).
final class LazyFlightSearching: FlightSearching {
  private let service: OnFirstUse<any FlightSearching>

  init(_ make: @escaping @Sendable () throws -> any FlightSearching) { service = OnFirstUse(make) }

  /// Opens the service now (a failure is kept for the first real call to report).
  func warmUp() { _ = try? service.get() }

  func airports(matching query: String, limit: Int) throws -> [AirportSummary] {
    try service.get().airports(matching: query, limit: limit)
  }

  func search(_ request: FlightSearchRequest) throws -> [FlightOffer] { try service.get().search(request) }

  /// The service's own publisher (a server client's HTTP chain), opened when subscribed.
  func searchPublisher(_ request: FlightSearchRequest) -> AnyPublisher<[FlightOffer], ServiceError> {
    let service = service
    return Deferred { () -> AnyPublisher<[FlightOffer], ServiceError> in
      do {
        return try service.get().searchPublisher(request)
      } catch {
        return Fail(error: ServiceError(wrapping: error)).eraseToAnyPublisher()
      }
    }
    .eraseToAnyPublisher()
  }

  func offer(_ id: FlightOfferID) throws -> FlightOffer { try service.get().offer(id) }
}

/// The radar opened on first use (see ``OnFirstUse``): the simulation loads off the main thread,
/// when the Radar screen first asks (its view model reads in the background).
final class LazyFlightRadar: FlightRadarService {
  let clock: TravelClock
  private let service: OnFirstUse<any FlightRadarService>

  init(clock: TravelClock, _ make: @escaping @Sendable () throws -> any FlightRadarService) {
    self.clock = clock
    service = OnFirstUse(make)
  }

  func airborne(at instant: Date) throws -> [RadarFlight] { try service.get().airborne(at: instant) }

  func bookedOperations(token: String) throws -> Set<FlightStatusKey> {
    try service.get().bookedOperations(token: token)
  }
}

/// Live flight status opened on first use (see ``OnFirstUse``): the world's schedule and the
/// simulation load off the main thread, when a Status or Board screen first asks.
final class LazyFlightStatus: FlightStatusService {
  let clock: TravelClock
  private let service: OnFirstUse<any FlightStatusService>

  init(clock: TravelClock, _ make: @escaping @Sendable () throws -> any FlightStatusService) {
    self.clock = clock
    service = OnFirstUse(make)
  }

  func operation(of flight: Flight, date: LocalDate?) throws -> FlightStatusKey {
    try service.get().operation(of: flight, date: date)
  }

  func status(_ key: FlightStatusKey) throws -> FlightStatus { try service.get().status(key) }

  func board(airport: String, date: LocalDate?, direction: BoardDirection) throws -> FlightBoard {
    try service.get().board(airport: airport, date: date, direction: direction)
  }

  func statusEvents(_ key: FlightStatusKey, after sequence: Int?) -> AnyPublisher<FlightStatusEvent, ServiceError> {
    Deferred { [service] () -> AnyPublisher<FlightStatusEvent, ServiceError> in
      do { return try service.get().statusEvents(key, after: sequence) } catch {
        return Fail(error: ServiceError(wrapping: error)).eraseToAnyPublisher()
      }
    }.eraseToAnyPublisher()
  }

  func boardEvents(airport: String, date: LocalDate, direction: BoardDirection, after sequence: Int?)
    -> AnyPublisher<FlightBoardEvent, ServiceError>
  {
    Deferred { [service] () -> AnyPublisher<FlightBoardEvent, ServiceError> in
      do {
        return try service.get().boardEvents(airport: airport, date: date, direction: direction, after: sequence)
      } catch { return Fail(error: ServiceError(wrapping: error)).eraseToAnyPublisher() }
    }.eraseToAnyPublisher()
  }

  func tripEvents(token: String) -> AnyPublisher<TripFlightEvent, ServiceError> {
    Deferred { [service] () -> AnyPublisher<TripFlightEvent, ServiceError> in
      do { return try service.get().tripEvents(token: token) } catch {
        return Fail(error: ServiceError(wrapping: error)).eraseToAnyPublisher()
      }
    }.eraseToAnyPublisher()
  }
}

/// Flight booking opened on first use (see ``OnFirstUse``).
final class LazyFlightBooking: FlightBooking {
  private let service: OnFirstUse<any FlightBooking>

  init(_ make: @escaping @Sendable () throws -> any FlightBooking) { service = OnFirstUse(make) }

  func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    try service.get().book(request, token: token)
  }
}
