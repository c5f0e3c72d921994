import Common
import Foundation
import Reactive

/// The place field of the hotel search: suggestions as the user types.
///
/// Inputs: ``queryChanged(_:)``, ``suggestionSelected(at:)``. Outputs: ``suggestions``,
/// ``isLoading``, ``selectedQuery``. Typing is debounced (``debounce``), a repeated text is asked
/// once, and an answer to an older text is dropped when a newer one was typed (`switchToLatest`).
/// Fewer than two characters clear the list without asking.
public final class PlaceAutocompleteViewModel {
  public static let debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(250)

  @Published public private(set) var suggestions: [PlaceSuggestion] = []
  @Published public private(set) var isLoading = false
  /// What the search will use: the chosen suggestion's query, else the typed text.
  @Published public private(set) var selectedQuery = ""

  private let queries = PassthroughSubject<String, Never>()

  public init(client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>) {
    let loading = CurrentValueSubject<Bool, Never>(false)
    queries
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .debounce(for: Self.debounce, scheduler: scheduler)
      .removeDuplicates()
      .map { text -> AnyPublisher<[PlaceSuggestion], Never> in
        guard text.count >= 2 else { return Just([]).eraseToAnyPublisher() }
        loading.send(true)
        return client.suggestPlaces(text).replaceError(with: [])
          .handleEvents(receiveOutput: { _ in loading.send(false) }).eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .assign(to: &$suggestions)
    loading.removeDuplicates().receive(on: scheduler).assign(to: &$isLoading)
    queries.assign(to: &$selectedQuery)
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
