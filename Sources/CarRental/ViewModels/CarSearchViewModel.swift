import Common
import Foundation
import Reactive

/// The car search form and its results.
///
/// Inputs (UI events): ``pickupTextChanged(_:)``, ``suggestionSelected(_:)``,
/// ``pickupDateTimeChanged(_:)``, ``dropoffDateTimeChanged(_:)``, ``dropoffPlaceChanged(_:)``
/// (one-way: where the car is returned; empty returns it where it was picked up),
/// ``classPatternChanged(_:)``,
/// ``promoCodeChanged(_:)``, ``searchTapped()``; the company comes from ``companySelector``.
///
/// Outputs: ``placeSuggestions`` (autocomplete, 300 ms after the last key) and
/// ``placeSuggestionsQuery`` (the text they answer), ``validationMessage``
/// and ``isSearchEnabled`` (the form as typed: the first thing to fix; an empty pick-up or drop-off
/// asks for it, a typed one that does not parse says what is accepted), ``isSearching``,
/// ``groups`` (results grouped by category, the ACRISS code in words), ``notices``,
/// ``errorMessage`` (the service's message).
public final class CarSearchViewModel {
  /// How long typing must pause before places are suggested.
  public static let autocompleteDelay = DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)

  @Published public private(set) var placeSuggestions: [CarPlaceSuggestion] = []
  /// The text (trimmed of spaces) that ``placeSuggestions`` answer; nil before the first answer.
  /// Set just before ``placeSuggestions`` changes, so a field never takes a list meant for an
  /// older text.
  @Published public private(set) var placeSuggestionsQuery: String?
  @Published public private(set) var validationMessage: String?
  @Published public private(set) var isSearchEnabled = false
  @Published public private(set) var isSearching = false
  @Published public private(set) var groups: [CarCategoryGroup] = []
  @Published public private(set) var notices: [String] = []
  @Published public private(set) var errorMessage: String?

  /// The company selector of this form.
  public let companySelector: CarCompanySelectorViewModel

  /// The last query searched (for the rates view and booking).
  public private(set) var lastQuery: CarSearchQuery?

  private struct Form {
    var place = ""
    var from = ""
    var to = ""
    var returnPlace = ""
    var pattern = ""
    var promo = ""
  }

  private var form = Form()
  private let typedPlaces = PassthroughSubject<String, Never>()
  private let queries = PassthroughSubject<CarSearchQuery, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(environment: CarRentalViewEnvironment) {
    let service = environment.service
    companySelector = CarCompanySelectorViewModel(environment: environment)
    typedPlaces
      .debounce(for: Self.autocompleteDelay, scheduler: environment.mainQueue)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      // Text whose suggestions are on show is not asked again; after a pick (the list is
      // cleared) the same text asks anew.
      .filter { [weak self] text in !(text == self?.placeSuggestionsQuery && self?.placeSuggestions.isEmpty == false) }
      .map { text in environment.call { service.suggestPlaces(text, limit: 8) }.map { (text, $0) } }
      .switchToLatest()
      .sink { [weak self] text, result in
        self?.placeSuggestionsQuery = text
        self?.placeSuggestions = (try? result.get()) ?? []
      }
      .store(in: &cancellables)
    queries
      .map { query in environment.call { try service.search(query) } }
      .switchToLatest()
      .sink { [weak self] result in
        guard let self else { return }
        isSearching = false
        switch result {
        case .success(let found):
          errorMessage = nil
          groups = CarCategoryGroup.grouping(found.offers, money: environment.money)
          notices = found.notices + (found.offers.isEmpty ? ["No cars are free for that period."] : [])
        case .failure(let error):
          groups = []
          notices = []
          errorMessage = error.message
        }
      }
      .store(in: &cancellables)
    validate()
  }

  // MARK: Inputs

  public func pickupTextChanged(_ text: String) {
    form.place = text
    typedPlaces.send(text)
    validate()
  }

  public func suggestionSelected(_ suggestion: CarPlaceSuggestion) {
    form.place = suggestion.code
    placeSuggestions = []
    companySelector.placeChanged(suggestion.code)
    validate()
  }

  /// `YYYY-MM-DDTHH:MM`, local time at the desk.
  public func pickupDateTimeChanged(_ text: String) {
    form.from = text
    validate()
  }

  public func dropoffDateTimeChanged(_ text: String) {
    form.to = text
    validate()
  }

  /// Where the car is returned, for a one-way rental (an airport code, a city or a desk id, as
  /// `car-rental search --dropoff` takes); empty returns it at the pick-up desk.
  public func dropoffPlaceChanged(_ text: String) {
    form.returnPlace = text
    validate()
  }

  /// An ACRISS pattern with `*` (`C***`), or empty for every class.
  public func classPatternChanged(_ text: String) {
    form.pattern = text
    validate()
  }

  public func promoCodeChanged(_ text: String) {
    form.promo = text
    validate()
  }

  public func searchTapped() {
    guard case .success(let query) = makeQuery() else { return }
    lastQuery = query
    isSearching = true
    queries.send(query)
  }

  // MARK: Form

  private func validate() {
    switch makeQuery() {
    case .success:
      validationMessage = nil
      isSearchEnabled = true
    case .failure(let error):
      validationMessage = error.message
      isSearchEnabled = false
    }
  }

  private func makeQuery() -> Result<CarSearchQuery, ServiceError> {
    let place = form.place.trimmingCharacters(in: .whitespaces)
    guard !place.isEmpty else { return .failure(.invalid("missing_place", "enter a pick-up airport or city")) }
    do {
      guard !form.from.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ServiceError.invalid(
          "missing_pickup", "enter the pick-up date and time (YYYY-MM-DDTHH:MM, local time at the desk)")
      }
      let from = try LocalDateTime(parsing: form.from, field: "pick-up")
      guard !form.to.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ServiceError.invalid(
          "missing_dropoff", "enter the drop-off date and time (YYYY-MM-DDTHH:MM, local time at the desk)")
      }
      let to = try LocalDateTime(parsing: form.to, field: "drop-off")
      guard to > from else {
        return .failure(.invalid("dropoff_not_after_pickup", "the drop-off must be after the pick-up"))
      }
      let pattern: ACRISSPattern?
      do {
        pattern = form.pattern.isEmpty ? nil : try ACRISSPattern(form.pattern)
      } catch var error as ServiceError {
        // The pattern's message names the command-line option; the form's field is "Class".
        error.message = error.message.replacingOccurrences(of: "invalid --class", with: "invalid class")
        throw error
      }
      let promo = form.promo.trimmingCharacters(in: .whitespaces)
      let returnPlace = form.returnPlace.trimmingCharacters(in: .whitespaces)
      return .success(
        CarSearchQuery(
          pickupPlace: place, dropoffPlace: returnPlace.isEmpty ? nil : returnPlace, pickup: from, dropoff: to,
          classPattern: pattern,
          company: companySelector.selectedCompanyID, promoCode: promo.isEmpty ? nil : promo))
    } catch let error as ServiceError {
      return .failure(error)
    } catch {
      return .failure(.invalid("invalid_input", ErrorText.reason(of: error)))
    }
  }
}
