import Common
import Foundation
import Reactive

/// Airport autocomplete as the user types (search-as-you-type).
///
/// Inputs: ``textChanged(_:)``, ``suggestionSelected(_:)``.
/// Outputs: ``suggestions`` (300 ms after the last key; text whose suggestions are showing is not
/// asked again, but after a pick the same text asks anew; an answer to an older text never
/// replaces a newer one), ``suggestionsQuery`` (the text they answer, so a
/// field never takes a list meant for an older text), ``errorMessage`` (the service's message,
/// shown, not swallowed), ``selection`` (the airport picked, nil while typing).
public final class AirportAutocompleteViewModel {
  /// How long typing must pause before airports are suggested.
  public static let delay = DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)

  @Published public private(set) var suggestions: [AirportSummary] = []
  /// The text (trimmed of spaces) that ``suggestions`` answer; nil before the first answer. Set
  /// just before ``suggestions`` changes.
  @Published public private(set) var suggestionsQuery: String?
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var selection: AirportSummary?
  /// The text of the field (the IATA code once a suggestion is picked).
  @Published public private(set) var text = ""

  private let typed = PassthroughSubject<String, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(environment: FlightsViewEnvironment, limit: Int = 8) {
    let flights = environment.flights
    typed
      .debounce(for: Self.delay, scheduler: environment.mainQueue)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { [weak self] query in self?.isShowing(query) != true }
      .map { query -> AnyPublisher<(String, Result<[AirportSummary], ServiceError>), Never> in
        guard !query.isEmpty else { return Just((query, .success([]))).eraseToAnyPublisher() }
        return environment.call { try flights.airports(matching: query, limit: limit) }.map { (query, $0) }
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .sink { [weak self] query, result in
        self?.suggestionsQuery = query
        switch result {
        case .success(let airports):
          self?.suggestions = airports
          self?.errorMessage = nil
        case .failure(let error):
          self?.suggestions = []
          self?.errorMessage = ScreenText.message(for: error)
        }
      }
      .store(in: &cancellables)
  }

  /// The user typed: the field's whole text.
  public func textChanged(_ text: String) {
    self.text = text
    selection = nil
    typed.send(text)
  }

  /// The app filled the field for the traveller (From with their home airport): its text, no
  /// suggestions asked.
  public func textFilled(_ text: String) {
    self.text = text
    selection = nil
    suggestions = []
  }

  /// Whether the list on show already answers `query` (then asking again would change nothing).
  private func isShowing(_ query: String) -> Bool { query == suggestionsQuery && !suggestions.isEmpty }

  /// The user took `airport` from the suggestions: the field's text becomes its IATA code.
  public func suggestionSelected(_ airport: AirportSummary) {
    selection = airport
    text = airport.iata
    suggestions = []
  }
}
