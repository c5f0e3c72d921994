import Common
import Foundation
import Reactive

/// The live Board screen: an airport's departures or arrivals for a date, kept current by the
/// board's feed, filtered by carrier, the other airport and the state, and searched.
///
/// Built for a hub's board (over 600 flights) taking hundreds of changes a second: the flights
/// are kept in an array with an index by flight, a change replaces one element and re-checks that
/// flight against the filters, and one ``revision`` counter tells the view to draw again (the
/// shell coalesces frames). No change is dropped: each board change carries the board's sequence
/// number; a gap (a change not received) resubscribes after the last one applied, so the missing
/// changes arrive in order (``gapsRecovered`` counts them; ``applied`` counts the changes applied).
///
/// Inputs: ``load(airport:direction:date:)``, ``setFilter(_:)``. Outputs: ``revision`` (any
/// change), ``header`` (the board without its flights), ``rowCount`` / ``row(_:)`` (the
/// filtered flights, by scheduled time), ``totalCount``, ``isHighlighted(_:_:)``,
/// ``errorMessage``, ``isLoading``.
public final class FlightBoardViewModel {
  /// What the rows are filtered by; an empty text filters nothing.
  public struct Filter: Hashable, Sendable {
    /// An airline code: flights of that carrier (operating, or a codeshare of it).
    public var carrier: String
    /// An IATA code, or its start: flights to (arrivals: from) there.
    public var place: String
    /// Flights in that state only.
    public var status: FlightStatusCode?
    /// Any part of the flight (`LH 400`, `LH400`), the other airport, the gate or the state.
    public var search: String

    public init(carrier: String = "", place: String = "", status: FlightStatusCode? = nil, search: String = "") {
      self.carrier = carrier
      self.place = place
      self.status = status
      self.search = search
    }

    var isEmpty: Bool { carrier.isEmpty && place.isEmpty && status == nil && search.isEmpty }
  }

  /// How long a changed cell stays highlighted (real time).
  public static let highlightSeconds: TimeInterval = 3

  @Published public private(set) var revision = 0
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var isLoading = false
  /// The board's airport, date, direction and sequence (its flights are in the rows).
  public private(set) var header: FlightBoard?
  public private(set) var filter = Filter()
  /// Changes applied, and gaps found and filled by resubscribing.
  public private(set) var applied = 0
  public private(set) var gapsRecovered = 0

  private var flights: [FlightStatus] = []
  private var index: [FlightStatusKey: Int] = [:]
  /// Indices into `flights` of the rows shown, ascending.
  private var visible: [Int] = []
  private var changed: [Int: (fields: Set<FlightStatusChange.Field>, at: Date)] = [:]
  private var request: (airport: String, date: LocalDate, direction: BoardDirection)?
  private let requests = PassthroughSubject<FeedRequest?, Never>()
  private var subscription: AnyCancellable?
  private let now: () -> Date

  struct FeedRequest {
    var airport: String
    var date: LocalDate?
    var direction: BoardDirection
    var after: Int?
    var generation: Int
  }
  private var generation = 0

  /// - Parameters:
  ///   - service: the live status.
  ///   - mainQueue: where outputs change; `backgroundQueue`: where the service is asked.
  ///   - now: the real clock of highlights.
  public init(
    service: any FlightStatusService, mainQueue: AnySchedulerOf<DispatchQueue>,
    backgroundQueue: AnySchedulerOf<DispatchQueue>, now: @escaping () -> Date = { Date() }
  ) {
    self.now = now
    subscription = requests.map { request -> AnyPublisher<(Int, Result<FlightBoardEvent, ServiceError>), Never> in
      guard let request else { return Empty().eraseToAnyPublisher() }
      let generation = request.generation
      return Deferred { () -> AnyPublisher<FlightBoardEvent, ServiceError> in
        do {
          // Today's board at the airport, fixed once (it stays that date's board past midnight).
          let date =
            try request.date ?? service.board(airport: request.airport, date: nil, direction: request.direction).date
          return service.boardEvents(
            airport: request.airport, date: date, direction: request.direction, after: request.after)
        } catch let error as ServiceError {
          return Fail(error: error).eraseToAnyPublisher()
        } catch {
          return Fail(error: ServiceError(.unavailable, code: "flight_status_unavailable", message: "\(error)"))
            .eraseToAnyPublisher()
        }
      }
      .subscribe(on: backgroundQueue)
      .map { (generation, Result<FlightBoardEvent, ServiceError>.success($0)) }
      .catch { Just((generation, Result<FlightBoardEvent, ServiceError>.failure($0))) }
      .eraseToAnyPublisher()
    }
    .switchToLatest()
    .receive(on: mainQueue)
    .sink { [weak self] generation, result in self?.receive(result, generation: generation) }
  }

  // MARK: Inputs

  /// Loads the board of `airport` (an IATA code) for `date` (nil: today there) and follows it.
  public func load(airport: String, direction: BoardDirection, date: LocalDate? = nil) {
    let code = airport.trimmingCharacters(in: .whitespaces).uppercased()
    guard code.count == 3, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      requests.send(nil)
      errorMessage = L("Type an airport's three-letter IATA code, like FRA.")
      return
    }
    errorMessage = nil
    isLoading = true
    header = nil
    flights = []
    index = [:]
    visible = []
    changed = [:]
    applied = 0
    generation += 1
    requests.send(FeedRequest(airport: code, date: date, direction: direction, after: nil, generation: generation))
    revision += 1
  }

  /// Filters (and searches) the rows.
  public func setFilter(_ filter: Filter) {
    guard filter != self.filter else { return }
    self.filter = filter
    refilter()
    revision += 1
  }

  // MARK: Outputs

  /// The rows shown (after the filter).
  public var rowCount: Int { visible.count }
  /// Every flight of the board.
  public var totalCount: Int { flights.count }
  /// Row `row` (0 ≤ row < ``rowCount``).
  public func row(_ row: Int) -> FlightStatus { flights[visible[row]] }

  /// Whether `field` of row `row` changed less than ``highlightSeconds`` ago.
  public func isHighlighted(_ row: Int, _ field: FlightStatusChange.Field) -> Bool {
    guard let change = changed[visible[row]], change.fields.contains(field) else { return false }
    return now().timeIntervalSince(change.at) < Self.highlightSeconds
  }

  /// Whether any cell is highlighted now (the view redraws until none is).
  public var hasHighlight: Bool {
    let moment = now()
    changed = changed.filter { moment.timeIntervalSince($0.value.at) < Self.highlightSeconds }
    return !changed.isEmpty
  }

  // MARK: Feed

  private func receive(_ result: Result<FlightBoardEvent, ServiceError>, generation: Int) {
    guard generation == self.generation else { return }
    isLoading = false
    switch result {
    case .failure(let error):
      errorMessage = error.message
    case .success(.snapshot(let board)):
      var head = board
      head.flights = []
      header = head
      request = (board.airport, board.date, board.direction)
      flights = board.flights
      index = Dictionary(uniqueKeysWithValues: flights.enumerated().map { ($1.key, $0) })
      changed = [:]
      refilter()
    case .success(.update(let update)):
      apply(update)
    }
    revision += 1
  }

  /// Applies one board change, or resubscribes after the last applied one if changes are missing.
  func apply(_ update: FlightBoardUpdate) {
    guard var head = header else { return }
    if update.sequence <= head.sequence { return }  // already applied (after a resubscription)
    if update.sequence > head.sequence + 1, let request {
      gapsRecovered += 1
      generation += 1
      requests.send(
        FeedRequest(
          airport: request.airport, date: request.date, direction: request.direction, after: head.sequence,
          generation: generation))
      return
    }
    head.sequence = update.sequence
    head.asOf = update.update.flightStatus.updatedAt ?? head.asOf
    header = head
    applied += 1
    let status = update.update.flightStatus
    guard let position = index[status.key] else { return }
    flights[position] = status
    changed[position] = (Set(update.update.changes.map(\.field)), now())
    guard !filter.isEmpty else { return }
    // Re-check this flight only.
    let shown = Self.binarySearch(visible, position)
    let matches = Self.matches(status, filter, direction: head.direction)
    if matches, !shown.found {
      visible.insert(position, at: shown.index)
    } else if !matches, shown.found {
      visible.remove(at: shown.index)
    }
  }

  private func refilter() {
    guard !filter.isEmpty, let direction = header?.direction else {
      visible = Array(flights.indices)
      return
    }
    visible = flights.indices.filter { Self.matches(flights[$0], filter, direction: direction) }
  }

  static func matches(_ status: FlightStatus, _ filter: Filter, direction: BoardDirection) -> Bool {
    if !filter.carrier.isEmpty {
      let carrier = filter.carrier.uppercased()
      guard status.flight.carrier == carrier || status.codeshares.contains(where: { $0.carrier == carrier }) else {
        return false
      }
    }
    let other = direction == .departures ? status.destination : status.key.origin
    if !filter.place.isEmpty, !other.hasPrefix(filter.place.uppercased()) { return false }
    if let wanted = filter.status, status.status != wanted { return false }
    if !filter.search.isEmpty {
      let needle = filter.search.uppercased().filter { !$0.isWhitespace }
      let end = direction == .departures ? status.departure : status.arrival
      let haystack =
        ([status.flight.code, other, end.gate ?? "", status.status.displayName.uppercased()]
        + status.codeshares.map(\.code)).joined(separator: " ")
      guard haystack.contains(needle) || status.status.displayName.uppercased().contains(filter.search.uppercased())
      else { return false }
    }
    return true
  }

  /// Where `value` is (or would go) in ascending `list`.
  static func binarySearch(_ list: [Int], _ value: Int) -> (found: Bool, index: Int) {
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle] < value { low = middle + 1 } else { high = middle }
    }
    return (low < list.count && list[low] == value, low)
  }
}
