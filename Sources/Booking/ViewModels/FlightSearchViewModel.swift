import Common
import Foundation
import Reactive

/// One offer as a results row shows it.
public struct FlightOfferRow: Hashable, Sendable {
  public var offer: FlightOffer
  /// `$702.00` (all passengers, in the currency the offer was priced in: the user's).
  public var price: String
  /// `08:05 SFO → 16:40 JFK` per direction.
  public var times: [String]
  /// Per direction, outbound first: `nonstop`, `1 stop via FRA`. A round trip's directions each
  /// keep their own connections (never `2 stops via BOS, BOS` for the two together).
  public var stops: [String]
  /// Per direction, outbound first, from departure to arrival: `5h 35m` (never a round trip's two
  /// added into one).
  public var duration: [String]
  /// `UA, LH`.
  public var carriers: String

  init(_ offer: FlightOffer, environment: FlightsViewEnvironment) {
    self.offer = offer
    price = environment.display(offer.price)
    times = offer.itineraries.map(FlightText.times)
    stops = offer.itineraries.map { itinerary in
      let via = itinerary.connectionAirports
      return FlightText.stops(itinerary.stops) + (via.isEmpty ? "" : L(" via \(via.joined(separator: ", "))"))
    }
    duration = offer.itineraries.map { FlightText.duration($0.durationMinutes) }
    carriers = offer.carriers.joined(separator: ", ")
  }
}

/// A part of the flight search form, for its messages.
public enum FlightFormField: Hashable, Sendable, CaseIterable {
  case from, to, depart, back, adults
}

/// The flight search form and its results list.
///
/// Inputs (UI events): the two autocompletes (``origin``, ``destination``),
/// ``departureDateChanged(_:)``, ``returnDateChanged(_:)``, ``adultsChanged(_:)``,
/// ``cabinChanged(_:)``, ``maxStopsChanged(_:)``, ``searchTapped()``; on the results:
/// ``sortChanged(_:)``, ``stopsFilterChanged(_:)``, ``carrierFilterChanged(_:)``.
///
/// Outputs: ``problems`` (each part of the form with what is wrong with it as typed, checked as
/// the traveller types — a past or too far date included, against `today` —, worded for the
/// screen: never an option name), ``validationMessage`` (the first of them) and
/// ``isSearchEnabled``, ``isSearching``, ``rows``, ``carriers`` (the carriers of the search's
/// offers, for the filter), ``sort``, ``stopsFilter`` and ``carrierFilter`` (exactly what the rows
/// show), ``isCapped`` (the service returned its most, ``FlightSearchRequest/maximumLimit``),
/// ``errorMessage`` (the service's message in the screen's words).
///
/// Sorting and filtering ask the service again with the sort, the stops and the carrier in the
/// request, so they work on every offer of the search (the service sorts and filters before it
/// keeps the best ``FlightSearchRequest/maximumLimit``), not on the part of it shown. A new search
/// starts without filters, sorted by price.
public final class FlightSearchViewModel {
  @Published public private(set) var validationMessage: String?
  @Published public private(set) var problems: [FlightFormField: String] = [:]
  @Published public private(set) var isSearchEnabled = false
  @Published public private(set) var isSearching = false
  @Published public private(set) var rows: [FlightOfferRow] = []
  @Published public private(set) var carriers: [String] = []
  @Published public private(set) var errorMessage: String?
  /// The order of ``rows``.
  @Published public private(set) var sort = FlightSortOrder.price
  /// The most stops per direction the rows are filtered to (nil: as searched).
  @Published public private(set) var stopsFilter: Int?
  /// The airline the rows are filtered to (nil: every airline).
  @Published public private(set) var carrierFilter: String?
  /// Whether the service returned as many offers as it returns at most: there are more, of which
  /// these are the best for the sort and filters.
  @Published public private(set) var isCapped = false
  /// Why a filtered search shows no offer: how many offers of the search the filters hide, and
  /// which filters (`None of the 256 offers of this search is nonstop and flown by LH: press f or c
  /// to change the filters.`); nil when there are rows, or the search itself found none (then
  /// ``errorMessage`` names the route, the date and the stops searched).
  @Published public private(set) var emptyMessage: String?

  public let origin: AirportAutocompleteViewModel
  public let destination: AirportAutocompleteViewModel

  /// The option names of the flight search and what the form calls them (``ScreenText``).
  public static var fieldNames: [String: String] {
    [
      "--from": L("From"), "--to": L("To"), "--date": L("the departure date"), "--return": L("the return date"),
    ]
  }

  private struct Form {
    var origin = ""
    var destination = ""
    var date = ""
    var returnDate = ""
    var adults = 1
    var cabin = Cabin.economy
    var maxStops = 1
  }

  private var form = Form()
  /// The search as the form asked for it (no filters); filters and sorts re-ask it.
  private var searched: FlightSearchRequest?
  /// How many offers the search found without filters (at most ``FlightSearchRequest/maximumLimit``).
  private var searchedCount = 0
  private let today: TravelToday?
  private let environment: FlightsViewEnvironment
  private var cancellables = Set<AnyCancellable>()
  /// The search in flight; a new one replaces (cancels) it.
  private var search: AnyCancellable?

  /// What one search answered: the offers, or the service's error; and whether it was filtered.
  struct SearchOutcome {
    var result: Result<[FlightOffer], ServiceError>
    var isFiltered: Bool
    /// Which condition emptied an empty unfiltered search (nil: not empty, or not found out).
    var empty: EmptyFlightSearch?
  }

  /// The last search's answer, set by the search pipeline's `assign(to:on:)`.
  private var outcome: SearchOutcome? {
    didSet { if let outcome { received(outcome.result, isFiltered: outcome.isFiltered, empty: outcome.empty) } }
  }

  /// - Parameter today: today from the app's clock (``TravelToday``): a departure past at every
  ///   place, or further ahead than any place allows, is refused as typed (the service judges the
  ///   rest at the origin, in its time zone); nil leaves the dates to the service.
  public init(environment: FlightsViewEnvironment, today: TravelToday? = nil) {
    self.environment = environment
    self.today = today
    origin = AirportAutocompleteViewModel(environment: environment)
    destination = AirportAutocompleteViewModel(environment: environment)
    // @Published sends before the property changes: keep the values sent.
    origin.$text.sink { [weak self] text in
      self?.form.origin = text
      self?.validate()
    }.store(in: &cancellables)
    destination.$text.sink { [weak self] text in
      self?.form.destination = text
      self?.validate()
    }.store(in: &cancellables)
  }

  // MARK: Inputs

  public func departureDateChanged(_ text: String) {
    form.date = text
    validate()
  }

  /// Empty for one-way.
  public func returnDateChanged(_ text: String) {
    form.returnDate = text
    validate()
  }

  public func adultsChanged(_ count: Int) {
    form.adults = count
    validate()
  }

  public func cabinChanged(_ cabin: Cabin) {
    form.cabin = cabin
    validate()
  }

  public func maxStopsChanged(_ count: Int) {
    form.maxStops = count
    validate()
  }

  /// Searches the form as it is (when valid), without filters, sorted by price.
  public func searchTapped() {
    guard case .success(let request) = makeRequest() else { return }
    searched = request
    sort = .price
    stopsFilter = nil
    carrierFilter = nil
    carriers = []
    ask()
  }

  public func sortChanged(_ sort: FlightSortOrder) {
    guard sort != self.sort else { return }
    self.sort = sort
    ask()
  }

  /// Show only offers with at most `count` stops per direction (nil: as searched).
  public func stopsFilterChanged(_ count: Int?) {
    guard count != stopsFilter else { return }
    stopsFilter = count
    ask()
  }

  /// Show only offers flown (in part) by `carrier` (nil: all).
  public func carrierFilterChanged(_ carrier: String?) {
    guard carrier != carrierFilter else { return }
    carrierFilter = carrier
    ask()
  }

  // MARK: Form and results

  /// Asks the service for the search with the sort and filters now chosen.
  private func ask() {
    guard var request = searched else { return }
    request.sort = sort
    if let stopsFilter { request.maxStops = min(request.maxStops, stopsFilter) }
    request.carrier = carrierFilter
    isSearching = true
    let isFiltered = stopsFilter != nil || carrierFilter != nil
    let flights = environment.flights
    let currency = environment.currency
    // The classic service chain: the service's publisher (over a server: dataTaskPublisher →
    // map(\.data) → decode), mapped to what the screen shows, its failure caught as a value, and
    // assigned on the main queue. The assignment holds `self` only while the search is in flight;
    // a new search cancels the one before (the last asked is the one shown).
    search = Deferred { () -> AnyPublisher<[FlightOffer], ServiceError> in
      // The traveller's currency as of now (read off the main thread): a sign-in counts at once.
      var priced = request
      if priced.currency == nil { priced.currency = currency() }
      return flights.searchPublisher(priced)
    }
    .subscribe(on: environment.backgroundQueue)
    .flatMap { [background = environment.backgroundQueue] offers -> AnyPublisher<SearchOutcome, ServiceError> in
      let found = SearchOutcome(result: .success(offers), isFiltered: isFiltered)
      guard offers.isEmpty, !isFiltered else {
        return Just(found).setFailureType(to: ServiceError.self).eraseToAnyPublisher()
      }
      // An empty search asks the service which condition emptied it (a few more searches, on the
      // background queue); if that fails, the message stays general.
      return Deferred {
        Future<SearchOutcome, ServiceError> { promise in
          var outcome = found
          var asked = request
          if asked.currency == nil { asked.currency = currency() }
          outcome.empty = try? EmptyFlightSearch(request: asked, search: flights.search)
          promise(.success(outcome))
        }
      }
      .subscribe(on: background)
      .eraseToAnyPublisher()
    }
    .catch { Just(SearchOutcome(result: .failure($0), isFiltered: isFiltered)) }
    .receive(on: environment.mainQueue)
    .map(Optional.some)
    .assign(to: \.outcome, on: self)
  }

  private func received(
    _ result: Result<[FlightOffer], ServiceError>, isFiltered: Bool, empty: EmptyFlightSearch? = nil
  ) {
    isSearching = false
    let offers: [FlightOffer]
    switch result {
    case .success(let found):
      offers = found
      errorMessage = found.isEmpty && !isFiltered ? empty?.screenText ?? searched.map(Self.noFlightsMessage) : nil
      if !isFiltered { searchedCount = found.count }
    case .failure(let error):
      offers = []
      errorMessage = ScreenText.message(for: error, fields: Self.fieldNames)
    }
    if !isFiltered {
      var seen: [String] = []
      for carrier in offers.flatMap(\.carriers) where !seen.contains(carrier) { seen.append(carrier) }
      carriers = seen.sorted()
    }
    isCapped = offers.count >= FlightSearchRequest.maximumLimit
    emptyMessage = offers.isEmpty && isFiltered && result.isSuccess ? filteredOutMessage() : nil
    rows = offers.map { FlightOfferRow($0, environment: environment) }
  }

  /// `No flights from SFO to JFK on 2026-12-20 (round trip back 2026-12-27) with at most 1 stop:
  /// try more stops or another date.`
  static func noFlightsMessage(_ request: FlightSearchRequest) -> String {
    let back = request.returnDate.map { L(" (back \($0))") } ?? ""
    let stops = request.maxStops == 0 ? "nonstop" : "with at most \(FlightText.stops(request.maxStops))"
    let more = request.maxStops < 2 ? L("more stops or another date") : L("another date or nearby airports")
    return L(
      "No flights from \(request.origin) to \(request.destination) on \(request.departureDate)\(back) \(stops): "
        + "try \(more).")
  }

  /// What the filters hid, when they hid every offer.
  private func filteredOutMessage() -> String {
    var conditions: [String] = []
    if let stopsFilter {
      conditions.append(stopsFilter == 0 ? "nonstop" : "with at most \(FlightText.stops(stopsFilter))")
    }
    if let carrierFilter { conditions.append(L("flown by \(carrierFilter)")) }
    let offers = searchedCount == 1 ? "the 1 offer" : "the \(searchedCount) offers"
    return L(
      "None of \(offers) of this search is \(conditions.joined(separator: " and ")): press f or c to change the ")
      + "filters."
  }

  private func validate() {
    let found = Self.problems(of: form, today: today)
    problems = found
    let first = FlightFormField.allCases.lazy.compactMap { found[$0] }.first
    validationMessage = first
    isSearchEnabled = first == nil && makeRequest().isSuccess
  }

  /// What is wrong with each part of `form` (screen words).
  private static func problems(of form: Form, today: TravelToday?) -> [FlightFormField: String] {
    var problems: [FlightFormField: String] = [:]
    let from = form.origin.trimmingCharacters(in: .whitespaces)
    let to = form.destination.trimmingCharacters(in: .whitespaces)
    if from.isEmpty { problems[.from] = L("Enter where you fly from: a city, an airport, or a city code (LON).") }
    if to.isEmpty { problems[.to] = L("Enter where you fly to: a city, an airport, or a city code (NYC).") }
    if !from.isEmpty, from.lowercased() == to.lowercased() {
      problems[.to] = L("From and To are the same place: choose two different places.")
    }
    let last = today?.lastAllowed(daysAhead: FlightSearchRequest.maximumDaysAhead)
    func check(_ text: String, _ name: String) -> (LocalDate?, String?) {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard let date = LocalDate(trimmed) else {
        return (
          nil,
          L(
            "\(name) \(EchoedInput.quoted(trimmed)) is not a date: type YYYY-MM-DD, like 2026-12-20, or press Enter "
              + "for the calendar.")
        )
      }
      if let today, today.isPastEverywhere(date) {
        return (date, today.pastMessage(name, "\(date)"))
      }
      if let last, date > last {
        return (
          date,
          L(
            "\(name) \(date) is more than \(FlightSearchRequest.maximumDaysAhead) days ahead: choose a date up to \(last)."
          )
        )
      }
      return (date, nil)
    }
    var departure: LocalDate?
    if form.date.trimmingCharacters(in: .whitespaces).isEmpty {
      problems[.depart] = L("Enter a departure date (YYYY-MM-DD, or Enter for the calendar).")
    } else {
      let (date, problem) = check(form.date, L("The departure date"))
      departure = date
      if let problem { problems[.depart] = problem }
    }
    if !form.returnDate.trimmingCharacters(in: .whitespaces).isEmpty {
      let (date, problem) = check(form.returnDate, L("The return date"))
      if let problem {
        problems[.back] = problem
      } else if let date, let departure, date < departure {
        problems[.back] =
          L(
            "The return date \(date) is before the departure (\(departure)): choose a later return, or none for one-way."
          )
      }
    }
    if !(1...9).contains(form.adults) { problems[.adults] = "Choose from 1 to 9 adults." }
    return problems
  }

  private func makeRequest() -> Result<FlightSearchRequest, ServiceError> {
    let from = form.origin.trimmingCharacters(in: .whitespaces)
    let to = form.destination.trimmingCharacters(in: .whitespaces)
    guard !from.isEmpty, !to.isEmpty, from.lowercased() != to.lowercased(),
      let date = LocalDate(form.date.trimmingCharacters(in: .whitespaces))
    else { return .failure(.invalid("invalid_form", L("the form is not complete"))) }
    let returnText = form.returnDate.trimmingCharacters(in: .whitespaces)
    let back = returnText.isEmpty ? nil : LocalDate(returnText)
    guard returnText.isEmpty || back != nil else { return .failure(.invalid("invalid_form", "the return date")) }
    return .success(
      FlightSearchRequest(
        origin: from, destination: to, departureDate: date, returnDate: back, adults: form.adults, cabin: form.cabin,
        maxStops: form.maxStops, sort: .price, limit: FlightSearchRequest.maximumLimit))
  }
}

extension Result {
  fileprivate var isSuccess: Bool { if case .success = self { true } else { false } }
}
