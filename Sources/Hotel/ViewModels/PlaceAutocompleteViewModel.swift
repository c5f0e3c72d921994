import Common
import Foundation
import Reactive

/// The place field of the hotel search: suggestions as the user types.
///
/// Inputs: ``queryChanged(_:)``, ``suggestionSelected(at:)``. Outputs: ``suggestions``,
/// ``suggestionsQuery`` (the text they answer), ``isLoading``, ``selectedQuery``. Typing is debounced (``debounce``), a repeated text is asked
/// once, and an answer to an older text is dropped when a newer one was typed (`switchToLatest`).
/// Fewer than two characters clear the list without asking. Cities come first (in the service's
/// order), then airports and areas: Enter takes the first suggestion, and a stay is near a city —
/// "Paris" should take Paris, not Charles de Gaulle, 23 km out.
public final class PlaceAutocompleteViewModel {
  public static let debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(250)

  @Published public private(set) var suggestions: [PlaceSuggestion] = []
  /// The text (trimmed of spaces) that ``suggestions`` answer; nil before the first answer. Set
  /// just before ``suggestions`` changes, so a field never takes a list meant for an older text.
  @Published public private(set) var suggestionsQuery: String?
  @Published public private(set) var isLoading = false
  /// What the search will use: the chosen suggestion's query, else the typed text.
  @Published public private(set) var selectedQuery = ""

  private let queries = PassthroughSubject<String, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>) {
    let loading = CurrentValueSubject<Bool, Never>(false)
    queries
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .debounce(for: Self.debounce, scheduler: scheduler)
      // Text whose suggestions are on show is not asked again; after a pick (the list is
      // cleared) the same text asks anew.
      .filter { [weak self] text in !(text == self?.suggestionsQuery && self?.suggestions.isEmpty == false) }
      .map { text -> AnyPublisher<(String, [PlaceSuggestion]), Never> in
        guard text.count >= 2 else { return Just((text, [])).eraseToAnyPublisher() }
        loading.send(true)
        return client.suggestPlaces(text).replaceError(with: [])
          .handleEvents(receiveOutput: { _ in loading.send(false) }).map { (text, Self.citiesFirst($0)) }
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] text, suggestions in
        self?.suggestionsQuery = text
        self?.suggestions = suggestions
      }
      .store(in: &cancellables)
    loading.removeDuplicates().receive(on: scheduler).assign(to: &$isLoading)
    queries.assign(to: &$selectedQuery)
  }

  /// `suggestions` with the cities first, each group in its given order.
  static func citiesFirst(_ suggestions: [PlaceSuggestion]) -> [PlaceSuggestion] {
    func isCity(_ suggestion: PlaceSuggestion) -> Bool { if case .city = suggestion { true } else { false } }
    return suggestions.filter(isCity) + suggestions.filter { !isCity($0) }
  }

  /// The user typed: the field's whole text.
  public func queryChanged(_ text: String) { queries.send(text) }

  /// The user picked a suggestion of the current list.
  public func suggestionSelected(at index: Int) {
    guard suggestions.indices.contains(index) else { return }
    selectedQuery = suggestions[index].query
    suggestions = []
  }
}
