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
  /// "Today" (the earliest departure in the calendar) is the device's local date.
  public static func feature(
    title: String = "Flights", services: BookingServices, session: AccountSession, context: CLIContext
  ) throws -> InteractiveFeature {
    let account = session.account
    let flights = LazyFlightSearching { try services.flights(context) }
    // Start opening now, off the main thread, so the first airport suggestions come quickly.
    DispatchQueue.global(qos: .utility).async { flights.warmUp() }
    let booking = services.booking.map { make in LazyFlightBooking { try make(context) } }
    let views = FlightsViewEnvironment(
      flights: flights, booking: booking, token: { (try? account.token()) ?? nil },
      currency: { account.preferredCurrency() },
      mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
      backgroundQueue: DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler(),
      money: MoneyFormat(context.travellerLanguage()))
    let today = LocalDate(Date(), in: .current)
    return InteractiveFeature(
      tab: AppTab(title, root: root(environment: views, session: session, today: today)), session: session)
  }
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

  func offer(_ id: FlightOfferID) throws -> FlightOffer { try service.get().offer(id) }
}

/// Flight booking opened on first use (see ``OnFirstUse``).
final class LazyFlightBooking: FlightBooking {
  private let service: OnFirstUse<any FlightBooking>

  init(_ make: @escaping @Sendable () throws -> any FlightBooking) { service = OnFirstUse(make) }

  func book(_ request: FlightBookingRequest, token: String) throws -> Reservation {
    try service.get().book(request, token: token)
  }
}
