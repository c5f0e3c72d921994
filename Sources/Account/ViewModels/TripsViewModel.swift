import Common
import Foundation
import Reactive

/// The trips screen: every reservation of the user (flights, hotels, cars), newest first.
///
/// Inputs: ``viewAppeared()``, ``tripSelected(id:)``, ``cancelTapped(id:)`` (asks for the terms),
/// ``cancelConfirmed()`` / ``cancelDismissed()``, ``exportTapped(id:)``, ``checkInTapped(id:)``.
/// Outputs: ``trips`` (newest booking first), ``selected``, ``pendingCancellation`` (the terms of a
/// cancellation, shown before it acts: fee, refund, deadline), ``cancelled`` (the last one done,
/// with its fee and refund), ``strings`` (the user's language, for words and money),
/// ``errorMessage``, ``isBusy``, ``exported``: the iCalendar document (RFC 5545) of an exported
/// trip, for the view to save, and ``checkedIn``: a flight checked in, with its boarding passes,
/// for the view to show.
/// ``liveFlights``: the booked flights (of trips still confirmed) with their live status, by
/// scheduled departure, when the environment has a ``AccountEnvironment/flightStatus``.
///
/// Live: from ``viewAppeared()`` on, the model follows the environment's ``LiveUpdates`` topic
/// `trips`, so a booking or cancellation made elsewhere on the same account (another terminal,
/// another machine through the server) shows in ``trips`` as its event arrives — the event's
/// reservation is put in place, or the list is read again when the event has none.
public final class TripsViewModel {
  /// A booked flight and its status now.
  public struct LiveFlight: Hashable, Sendable {
    public var reservationID: String
    /// As booked (the operating flight or a codeshare).
    public var booked: Flight
    public var status: FlightStatus
  }

  /// An exported trip: its id and the `.ics` text.
  public struct Export: Hashable, Sendable {
    public var reservationID: String
    public var calendar: String
  }

  private let client: AccountClient
  private let token: String
  private let exportedSubject = PassthroughSubject<Export, Never>()
  private let checkedInSubject = PassthroughSubject<CheckInResponse, Never>()
  private var requests = Set<AnyCancellable>()
  private var liveEvents: AnyCancellable?

  @Published public private(set) var trips: [Reservation] = []
  @Published public private(set) var selected: Reservation?
  /// The terms of the cancellation asked for, waiting for ``cancelConfirmed()``.
  @Published public private(set) var pendingCancellation: CancellationQuote?
  /// The reservation cancelled last (its ``Reservation/cancellationFee`` and refund).
  @Published public private(set) var cancelled: Reservation?
  /// The user's language (English until the preferences are read).
  @Published public private(set) var strings: Strings = Strings(Localization.current)
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var isBusy = false
  @Published public private(set) var liveFlights: [LiveFlight] = []
  public let exported: AnyPublisher<Export, Never>
  public let checkedIn: AnyPublisher<CheckInResponse, Never>
  private var live: [String: LiveFlight] = [:]
  private var liveSubscription: AnyCancellable?

  public init(client: AccountClient, token: String) {
    self.client = client
    self.token = token
    exported = exportedSubject.eraseToAnyPublisher()
    checkedIn = checkedInSubject.eraseToAnyPublisher()
  }

  /// Checks in every passenger of flight reservation `id` on the flights whose check-in is open
  /// (seating those without a seat); ``checkedIn`` then sends the passes, or ``errorMessage``
  /// says why not (when check-in opens, in the airport's local time).
  public func checkInTapped(id: String) {
    let token = token
    load { environment in
      try SeatMapViewModel.service(environment).checkIn(CheckInRequest(reservationID: id), token: token)
    } then: { [weak self] in
      self?.checkedInSubject.send($0)
    }
  }

  /// The view model of the seat map of reservation `id`.
  public func seatMapModel(id: String) -> SeatMapViewModel {
    SeatMapViewModel(client: client, token: token, reservationID: id)
  }

  /// The view model of the boarding passes of reservation `id` (`passes` when already known).
  public func boardingPassesModel(id: String, passes: [IssuedBoardingPass] = []) -> BoardingPassesViewModel {
    BoardingPassesViewModel(client: client, token: token, reservationID: id, passes: passes)
  }

  /// Newest booking first; ties by id, so the order is stable.
  public static func newestFirst(_ reservations: [Reservation]) -> [Reservation] {
    reservations.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
  }

  public func viewAppeared() {
    followTrips()
    let token = token
    load { environment in
      let language = (try? environment.accounts.preferences(token: token)).flatMap {
        Strings.Language(tag: $0.language)
      }
      return (try environment.reservations.reservations(token: token), language)
    } then: { [weak self] (trips, language) in
      self?.trips = Self.newestFirst(trips)
      if let language { self?.strings = Strings(language) }
      self?.publishLive()
    }
    followFlights()
  }

  /// Follows the booked flights' live status (once; the feed itself follows new bookings).
  private func followFlights() {
    guard liveSubscription == nil, let service = client.environment.flightStatus else { return }
    liveSubscription = service.tripEvents(token: token)
      .receive(on: client.scheduler)
      .sink(
        receiveCompletion: { _ in },
        receiveValue: { [weak self] event in
          let status = event.event.flightStatus
          self?.live["\(event.reservationID)|\(status.key.id)"] = LiveFlight(
            reservationID: event.reservationID, booked: event.booked, status: status)
          self?.publishLive()
        })
  }

  /// The live flights of trips still confirmed, by scheduled departure.
  private func publishLive() {
    let confirmed = Set(trips.filter { $0.status == .confirmed }.map(\.id))
    liveFlights = live.values.filter { confirmed.contains($0.reservationID) }.sorted {
      ($0.status.gateDeparture.scheduled.instant, $0.booked) < ($1.status.gateDeparture.scheduled.instant, $1.booked)
    }
  }

  /// Subscribes once to the `trips` topic; each event updates ``trips`` (and ``selected`` when it
  /// is the reservation shown) on the client's scheduler.
  private func followTrips() {
    guard liveEvents == nil else { return }
    liveEvents = client.environment.live.events(topic: "trips", token: token)
      .receive(on: client.scheduler)
      .sink { [weak self] event in self?.apply(event) }
  }

  /// A trips event: its reservation replaces the one with its id (or is added), newest first;
  /// an event without a readable reservation reads the list again.
  private func apply(_ event: TopicEvent) {
    guard let reservation = Self.reservation(in: event) else {
      reloadTrips()
      return
    }
    var all = trips.filter { $0.id != reservation.id }
    all.append(reservation)
    trips = Self.newestFirst(all)
    if selected?.id == reservation.id { selected = reservation }
    publishLive()
  }

  /// The list read again, quietly (no busy state; a failure keeps what is shown).
  private func reloadTrips() {
    let token = token
    client.perform { try $0.reservations.reservations(token: token) }
      .sink(
        receiveCompletion: { _ in },
        receiveValue: { [weak self] in
          self?.trips = Self.newestFirst($0)
          self?.publishLive()
        }
      )
      .store(in: &requests)
  }

  /// The `{"reservation": …}` of a trips event (``API`` JSON), nil when it has none.
  static func reservation(in event: TopicEvent) -> Reservation? {
    guard let document = event.data["reservation"], let data = try? JSONEncoder().encode(document) else { return nil }
    return try? API.makeDecoder().decode(Reservation.self, from: data)
  }

  /// How amounts are written for this user (``MoneyFormat`` in their language).
  public var money: MoneyFormat { MoneyFormat(strings.language) }

  public func tripSelected(id: String) {
    let token = token
    load {
      try $0.reservations.reservation(id: id, token: token)
    } then: { [weak self] in
      self?.selected = $0
    }
  }

  /// Asks for the terms of cancelling `id` (``pendingCancellation``); nothing is cancelled yet.
  public func cancelTapped(id: String) {
    let token = token
    pendingCancellation = nil
    load { environment in
      try environment.reservations.cancellationQuote(id: id, token: token)
    } then: { [weak self] in
      self?.pendingCancellation = $0
    }
  }

  /// Cancels at the terms shown (``pendingCancellation``): a refund that changed meanwhile (a
  /// deadline passed) is refused (`cancellation_terms_changed`) and the new terms are shown.
  public func cancelConfirmed() {
    guard let quote = pendingCancellation else { return }
    let token = token
    pendingCancellation = nil
    load { environment in
      let cancelled = try environment.reservations.cancelReservation(
        id: quote.reservationId, token: token, accepting: quote)
      return (cancelled, try environment.reservations.reservations(token: token))
    } then: { [weak self] (cancelled, all) in
      self?.selected = cancelled
      self?.cancelled = cancelled
      self?.trips = Self.newestFirst(all)
      self?.publishLive()
    }
  }

  /// Keeps the reservation: the terms shown are dropped.
  public func cancelDismissed() {
    pendingCancellation = nil
  }

  public func exportTapped(id: String) {
    let token = token
    load { environment -> Export in
      let reservation = try environment.reservations.reservation(id: id, token: token)
      guard let event = reservation.calendarEvent() else {
        throw ServiceError.refused("not_exportable", L("reservation \(id) has no dates to put in a calendar"))
      }
      return Export(reservationID: id, calendar: ICalendar.document(events: [event], stamp: environment.now()))
    } then: { [weak self] in
      self?.exportedSubject.send($0)
    }
  }

  private func load<T>(
    _ work: @escaping @Sendable (AccountEnvironment) throws -> T, then show: @escaping (T) -> Void
  ) {
    errorMessage = nil
    isBusy = true
    client.perform(work)
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isBusy = false
          if case .failure(let error) = completion { self?.errorMessage = ScreenText.message(for: error) }
        },
        receiveValue: show
      )
      .store(in: &requests)
  }
}
