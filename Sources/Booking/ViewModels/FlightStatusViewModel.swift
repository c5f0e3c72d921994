import Common
import Foundation
import Reactive

/// The Status screen: one flight followed live.
///
/// Inputs: ``show(flight:date:)`` (what the person typed) or ``follow(_:)`` (a flight picked on a
/// board). Outputs: ``status`` (the latest), ``changes`` (newest first, at most
/// ``changeLimit``), ``highlighted`` (the fields of the last change, for a moment), ``errorMessage``,
/// ``isLoading``. Asking for another flight drops the previous feed (`switchToLatest`).
public final class FlightStatusViewModel {
  /// How many changes ``changes`` keeps.
  public static let changeLimit = 50
  /// How long the fields of a change stay highlighted (real time).
  public static let highlightSeconds: TimeInterval = 3

  @Published public private(set) var status: FlightStatus?
  @Published public private(set) var changes: [FlightStatusUpdate] = []
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var isLoading = false
  /// The fields of the last change and when it arrived (real time).
  public private(set) var highlighted: (fields: Set<FlightStatusChange.Field>, at: Date)?

  private let requests = PassthroughSubject<Request?, Never>()
  private var subscription: AnyCancellable?
  private let now: () -> Date

  enum Request {
    case lookUp(Flight, LocalDate?)
    case key(FlightStatusKey)
  }

  /// - Parameters:
  ///   - service: the live status.
  ///   - mainQueue: where outputs change; `backgroundQueue`: where the service is asked.
  ///   - now: the real clock of highlights.
  public init(
    service: any FlightStatusService, mainQueue: AnySchedulerOf<DispatchQueue>,
    backgroundQueue: AnySchedulerOf<DispatchQueue>, now: @escaping () -> Date = { Date() }
  ) {
    self.now = now
    subscription = requests.map { request -> AnyPublisher<Result<FlightStatusEvent, ServiceError>, Never> in
      guard let request else { return Empty().eraseToAnyPublisher() }
      return Deferred { () -> AnyPublisher<FlightStatusEvent, ServiceError> in
        do {
          let key: FlightStatusKey
          switch request {
          case .lookUp(let flight, let date): key = try service.operation(of: flight, date: date)
          case .key(let known): key = known
          }
          return service.statusEvents(key, after: nil)
        } catch let error as ServiceError {
          return Fail(error: error).eraseToAnyPublisher()
        } catch {
          return Fail(error: ServiceError(.unavailable, code: "flight_status_unavailable", message: "\(error)"))
            .eraseToAnyPublisher()
        }
      }
      .subscribe(on: backgroundQueue)
      .map { Result<FlightStatusEvent, ServiceError>.success($0) }
      .catch { Just(Result<FlightStatusEvent, ServiceError>.failure($0)) }
      .eraseToAnyPublisher()
    }
    .switchToLatest()
    .receive(on: mainQueue)
    .sink { [weak self] result in self?.receive(result) }
  }

  /// Follows the flight typed (`LH400`, `lh 400`) on the date typed (`YYYY-MM-DD`; empty: today).
  /// Bad input shows a message and asks nothing.
  public func show(flight flightText: String, date dateText: String) {
    let compact = flightText.filter { !$0.isWhitespace }
    guard let flight = Flight(code: compact) else {
      stop(message: L("Type an airline code and a flight number, like LH400."))
      return
    }
    let trimmed = dateText.trimmingCharacters(in: .whitespaces)
    var date: LocalDate?
    if !trimmed.isEmpty {
      guard let parsed = LocalDate(trimmed) else {
        stop(message: L("Type the date as YYYY-MM-DD, or leave it empty for today."))
        return
      }
      date = parsed
    }
    start(.lookUp(flight, date))
  }

  /// Follows `key` (picked on a board).
  public func follow(_ key: FlightStatusKey) { start(.key(key)) }

  /// Whether `field` changed less than ``highlightSeconds`` ago.
  public func isHighlighted(_ field: FlightStatusChange.Field) -> Bool {
    guard let highlighted, highlighted.fields.contains(field) else { return false }
    return now().timeIntervalSince(highlighted.at) < Self.highlightSeconds
  }

  /// Whether something is highlighted now (the view redraws until it is not).
  public var hasHighlight: Bool {
    guard let highlighted else { return false }
    return now().timeIntervalSince(highlighted.at) < Self.highlightSeconds
  }

  private func start(_ request: Request) {
    errorMessage = nil
    isLoading = true
    status = nil
    changes = []
    highlighted = nil
    requests.send(request)
  }

  private func stop(message: String) {
    requests.send(nil)
    isLoading = false
    status = nil
    changes = []
    errorMessage = message
  }

  private func receive(_ result: Result<FlightStatusEvent, ServiceError>) {
    isLoading = false
    switch result {
    case .failure(let error):
      errorMessage = error.message
    case .success(.snapshot(let snapshot)):
      errorMessage = nil
      status = snapshot
    case .success(.update(let update)):
      highlighted = (Set(update.changes.map(\.field)), now())
      changes = Array(([update] + changes).prefix(Self.changeLimit))
      status = update.flightStatus
    }
  }
}
