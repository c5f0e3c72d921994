import Common
import Foundation

/// What the Account feature needs from the outside world: the services (implemented by
/// `Backend`, or by test doubles) and the clock.
///
/// The apps build one per command run from the ``CLIContext`` (its data directory), through an
/// ``AccountEnvironment/Factory``, so `--help` and bad usage never open the store.
public struct AccountEnvironment: Sendable {
  /// Builds the environment of one command run; throws when the store cannot be opened.
  public typealias Factory = @Sendable (CLIContext) throws -> AccountEnvironment

  public var accounts: any AccountService
  public var cards: any PaymentCardService
  public var reservations: any ReservationService
  /// Check-in, seats and boarding passes; nil when the app has none (`check_in_unavailable`).
  public var checkIn: (any CheckInService)?
  /// Draws boarding-pass barcodes (terminal, PNG, SVG); nil when the app has none.
  public var barcodes: (any BarcodeRendering)?
  /// Live events of the traveller's topics (the open Trips screen follows `trips`): the store's
  /// change feed embedded, the server's `/v1/stream` remote; ``NoLiveUpdates`` when the app has none.
  public var live: any LiveUpdates
  /// The current instant (card expiry checks, export stamps).
  public var now: @Sendable () -> Date
  /// The user's calendar and time zone: "today" for card expiry is a local date.
  public var calendar: Calendar
  /// Live status of the booked flights (Trips); nil shows none.
  public var flightStatus: (any FlightStatusService)?

  public init(
    accounts: any AccountService, cards: any PaymentCardService, reservations: any ReservationService,
    checkIn: (any CheckInService)? = nil, barcodes: (any BarcodeRendering)? = nil,
    live: any LiveUpdates = NoLiveUpdates(), now: @escaping @Sendable () -> Date = { Date() },
    calendar: Calendar = .current, flightStatus: (any FlightStatusService)? = nil
  ) {
    self.accounts = accounts
    self.cards = cards
    self.reservations = reservations
    self.checkIn = checkIn
    self.barcodes = barcodes
    self.live = live
    self.now = now
    self.calendar = calendar
    self.flightStatus = flightStatus
  }

  /// A factory for a build without services: every command that needs them fails with exit 1
  /// and says so (used by the feature's unit tests of help and usage).
  public static let unavailable: Factory = { _ in
    throw ServiceError(
      .unavailable, code: "service_unavailable", message: L("this build has no account service wired in"))
  }
}
