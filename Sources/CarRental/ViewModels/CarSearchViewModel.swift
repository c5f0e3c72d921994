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
/// ``placeSuggestionsQuery`` (the text they answer), ``problems`` (each part of the form with what
/// is wrong with it as typed, in the form's words: an empty pick-up or drop-off asks for it, a
/// typed one that does not parse says what is accepted, a pick-up before `today` is refused),
/// ``validationMessage`` (the first of them) and ``isSearchEnabled``, ``isSearching``,
/// ``groups`` (results grouped by category, the ACRISS code in words), ``notices``,
/// ``errorMessage`` (the service's message in the screen's words).
public final class CarSearchViewModel {
  /// A part of the form, for its messages.
  public enum Field: Hashable, Sendable, CaseIterable {
    case place, pickup, dropoff, returnPlace, pattern
  }

  /// The option names of the car search and what the form calls them (``ScreenText``).
  public static var fieldNames: [String: String] {
    [
      "--from": L("the pick-up"), "--to": L("the drop-off"), "--pickup": L("Pick-up at"), "--dropoff": L("Return at"),
      "--class": "class", "--promo": L("the promo code"), "--company": L("Company"),
    ]
  }

  /// How long typing must pause before places are suggested.
  public static let autocompleteDelay = DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)

  @Published public private(set) var placeSuggestions: [CarPlaceSuggestion] = []
  /// The text (trimmed of spaces) that ``placeSuggestions`` answer; nil before the first answer.
  /// Set just before ``placeSuggestions`` changes, so a field never takes a list meant for an
  /// older text.
  @Published public private(set) var placeSuggestionsQuery: String?
  @Published public private(set) var validationMessage: String?
  /// What is wrong with each part of the form as typed (see the type's documentation).
  @Published public private(set) var problems: [Field: String] = [:]
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
  private let today: TravelToday?
  private let typedPlaces = PassthroughSubject<String, Never>()
  private let queries = PassthroughSubject<CarSearchQuery, Never>()
  private var cancellables = Set<AnyCancellable>()

  /// - Parameter today: today from the app's clock (``TravelToday``): a pick-up on a day past at
  ///   every place is refused as typed (the service judges the rest at the desk, in its time
  ///   zone); nil leaves it to the service.
  public init(environment: CarRentalViewEnvironment, today: TravelToday? = nil) {
    self.today = today
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
          let none = found.offers.isEmpty ? self.lastQuery.map(Self.noCarsMessage) : nil
          notices = found.notices + (none.map { [$0] } ?? [])
        case .failure(let error):
          groups = []
          notices = []
          errorMessage = ScreenText.message(for: error, fields: Self.fieldNames)
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
    guard validationMessage == nil, let query = try? makeQuery() else { return }
    lastQuery = query
    isSearching = true
    queries.send(query)
  }

  // MARK: Form

  private func validate() {
    let found = problemsOfForm()
    problems = found
    let first = Field.allCases.lazy.compactMap { found[$0] }.first
    validationMessage = first
    isSearchEnabled = first == nil && (try? makeQuery()) != nil
  }

  /// What is wrong with each part of the form (the form's words).
  private func problemsOfForm() -> [Field: String] {
    var problems: [Field: String] = [:]
    if form.place.trimmingCharacters(in: .whitespaces).isEmpty {
      problems[.place] = L("Enter a pick-up airport or city (LAX, Paris).")
    }
    func check(_ text: String, _ name: String) -> (LocalDateTime?, String?) {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else {
        return (nil, L("Choose the \(name) date and time: Enter opens the calendar (local time at the desk)."))
      }
      guard let value = try? LocalDateTime(parsing: trimmed) else {
        return (
          nil,
          L(
            "The \(name) \(EchoedInput.quoted(trimmed)) is not a date and time: type YYYY-MM-DD HH:MM, or press Enter "
              + "for the calendar.")
        )
      }
      if let today, let day = LocalDate(year: value.year, month: value.month, day: value.day),
        today.isPastEverywhere(day)
      {
        return (value, today.pastMessage(L("The \(name)"), Self.text(value)))
      }
      return (value, nil)
    }
    let (from, pickupProblem) = check(form.from, "pick-up")
    let (to, dropoffProblem) = check(form.to, "drop-off")
    problems[.pickup] = pickupProblem
    problems[.dropoff] = dropoffProblem
    if let from, let to, dropoffProblem == nil, to <= from {
      problems[.dropoff] = L("The drop-off (\(Self.text(to))) must be after the pick-up (\(Self.text(from))).")
    }
    if !form.pattern.isEmpty {
      do {
        _ = try ACRISSPattern(form.pattern)
      } catch {
        problems[.pattern] = ScreenText.message(for: ServiceError(wrapping: error), fields: Self.fieldNames)
      }
    }
    return problems
  }

  /// Why a search found no car, naming what it asked (`No car is free at LAX from 2026-12-20 10:00
  /// to 2026-12-23 10:00 in class C*** with Hertz: try other times, another class or another
  /// company.`).
  static func noCarsMessage(_ query: CarSearchQuery) -> String {
    var conditions = ""
    if let pattern = query.classPattern { conditions += L(" in class \(pattern)") }
    if let company = query.company { conditions += L(" with \(company)") }
    if let promo = query.promoCode { conditions += L(" (promo code \(promo))") }
    let back = query.dropoffPlace.map { L(", returned at \($0),") } ?? ""
    var tries = [L("other times")]
    if query.classPattern != nil { tries.append("another class") }
    if query.company != nil { tries.append("another company") }
    if query.dropoffPlace != nil { tries.append("returning it where you pick it up") }
    if tries.count == 1 { tries.append("another place") }
    let joined = tries.dropLast().joined(separator: ", ") + L(" or ") + (tries.last ?? "")
    return L(
      "No car is free at \(query.pickupPlace)\(back) from \(text(query.pickup)) to \(text(query.dropoff))"
        + "\(conditions): try \(joined).")
  }

  /// `2026-12-20 10:00`: how the form writes a date and time.
  public static func text(_ value: LocalDateTime) -> String {
    String(format: "%04d-%02d-%02d %02d:%02d", value.year, value.month, value.day, value.hour, value.minute)
  }

  private func makeQuery() throws -> CarSearchQuery {
    let place = form.place.trimmingCharacters(in: .whitespaces)
    guard !place.isEmpty else { throw ServiceError.invalid("missing_place", L("enter a pick-up airport or city")) }
    let from = try LocalDateTime(parsing: form.from.trimmingCharacters(in: .whitespaces), field: "pick-up")
    let to = try LocalDateTime(parsing: form.to.trimmingCharacters(in: .whitespaces), field: "drop-off")
    guard to > from else {
      throw ServiceError.invalid("dropoff_not_after_pickup", L("the drop-off is not after the pick-up"))
    }
    let pattern = form.pattern.isEmpty ? nil : try ACRISSPattern(form.pattern)
    let promo = form.promo.trimmingCharacters(in: .whitespaces)
    let returnPlace = form.returnPlace.trimmingCharacters(in: .whitespaces)
    return CarSearchQuery(
      pickupPlace: place, dropoffPlace: returnPlace.isEmpty ? nil : returnPlace, pickup: from, dropoff: to,
      classPattern: pattern, company: companySelector.selectedCompanyID, promoCode: promo.isEmpty ? nil : promo)
  }
}
