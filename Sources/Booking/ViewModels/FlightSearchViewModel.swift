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
  /// `nonstop`, `1 stop via FRA`.
  public var stops: String
  /// `5h 35m` (all directions).
  public var duration: String
  /// `UA, LH`.
  public var carriers: String

  init(_ offer: FlightOffer, environment: FlightsViewEnvironment) {
    self.offer = offer
    price = environment.display(offer.price)
    times = offer.itineraries.map(FlightText.times)
    let via = offer.itineraries.flatMap(\.connectionAirports)
    stops = FlightText.stops(offer.stops) + (via.isEmpty ? "" : " via \(via.joined(separator: ", "))")
    duration = FlightText.duration(offer.durationMinutes)
    carriers = offer.carriers.joined(separator: ", ")
  }
}

/// The flight search form and its results list.
///
/// Inputs (UI events): the two autocompletes (``origin``, ``destination``),
/// ``departureDateChanged(_:)``, ``returnDateChanged(_:)``, ``adultsChanged(_:)``,
/// ``cabinChanged(_:)``, ``maxStopsChanged(_:)``, ``searchTapped()``; on the results:
/// ``sortChanged(_:)``, ``stopsFilterChanged(_:)``, ``carrierFilterChanged(_:)``.
///
/// Outputs: ``validationMessage`` and ``isSearchEnabled`` (the form as typed: the first thing to
/// fix, e.g. "enter where you fly from", "enter a departure date (YYYY-MM-DD, or Enter for the
/// calendar)" for an empty Depart, the date rules for a typed one), ``isSearching``,
/// ``rows`` (sorted and filtered), ``carriers`` (the carriers of the results, for the filter),
/// ``errorMessage`` (the service's message).
public final class FlightSearchViewModel {
  @Published public private(set) var validationMessage: String?
  @Published public private(set) var isSearchEnabled = false
  @Published public private(set) var isSearching = false
  @Published public private(set) var rows: [FlightOfferRow] = []
  @Published public private(set) var carriers: [String] = []
  @Published public private(set) var errorMessage: String?

  public let origin: AirportAutocompleteViewModel
  public let destination: AirportAutocompleteViewModel

  private struct Form {
    var origin = ""
    var destination = ""
    var date = ""
    var returnDate = ""
    var adults = 1
    var cabin = Cabin.economy
    var maxStops = 1
  }

  private struct Filter {
    var sort = FlightSortOrder.price
    var maxStops: Int?
    var carrier: String?
  }

  private var form = Form()
  private var filter = Filter()
  private var offers: [FlightOffer] = []
  private let environment: FlightsViewEnvironment
  private let requests = PassthroughSubject<FlightSearchRequest, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(environment: FlightsViewEnvironment) {
    self.environment = environment
    origin = AirportAutocompleteViewModel(environment: environment)
    destination = AirportAutocompleteViewModel(environment: environment)
    let flights = environment.flights
    let currency = environment.currency
    requests
      .map { request in
        environment.call {
          // The traveller's currency as of now (read off the main thread): a sign-in counts at once.
          var priced = request
          if priced.currency == nil { priced.currency = currency() }
          return try flights.search(priced)
        }
      }
      .switchToLatest()
      .sink { [weak self] result in
        guard let self else { return }
        isSearching = false
        switch result {
        case .success(let found):
          errorMessage = found.isEmpty ? "No flights for that search: try more stops or another date." : nil
          offers = found
        case .failure(let error):
          errorMessage = error.message
          offers = []
        }
        var seen: [String] = []
        for carrier in offers.flatMap(\.carriers) where !seen.contains(carrier) { seen.append(carrier) }
        carriers = seen.sorted()
        refreshRows()
      }
      .store(in: &cancellables)
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

  public func searchTapped() {
    guard case .success(let request) = makeRequest() else { return }
    isSearching = true
    requests.send(request)
  }

  public func sortChanged(_ sort: FlightSortOrder) {
    filter.sort = sort
    refreshRows()
  }

  /// Show only offers with at most `count` stops per direction (nil: all).
  public func stopsFilterChanged(_ count: Int?) {
    filter.maxStops = count
    refreshRows()
  }

  /// Show only offers flown (in part) by `carrier` (nil: all).
  public func carrierFilterChanged(_ carrier: String?) {
    filter.carrier = carrier
    refreshRows()
  }

  // MARK: Form and results

  private func validate() {
    switch makeRequest() {
    case .success:
      validationMessage = nil
      isSearchEnabled = true
    case .failure(let error):
      validationMessage = error.message
      isSearchEnabled = false
    }
  }

  private func makeRequest() -> Result<FlightSearchRequest, ServiceError> {
    let from = form.origin.trimmingCharacters(in: .whitespaces)
    let to = form.destination.trimmingCharacters(in: .whitespaces)
    guard !from.isEmpty else { return .failure(.invalid("missing_origin", "enter where you fly from")) }
    guard !to.isEmpty else { return .failure(.invalid("missing_destination", "enter where you fly to")) }
    guard from.lowercased() != to.lowercased() else {
      return .failure(.invalid("same_place", "the origin and destination are the same place: choose two places"))
    }
    guard !form.date.trimmingCharacters(in: .whitespaces).isEmpty else {
      return .failure(
        .invalid("missing_departure_date", "enter a departure date (YYYY-MM-DD, or Enter for the calendar)"))
    }
    do {
      let date = try FlightSearchRequest.parseDate(form.date, option: "departure date")
      let back =
        form.returnDate.isEmpty ? nil : try FlightSearchRequest.parseDate(form.returnDate, option: "return date")
      if let back, back < date {
        return .failure(
          .invalid(
            "return_before_departure", "the return \(back) is before the departure \(date): choose a later return"))
      }
      guard (1...9).contains(form.adults) else {
        return .failure(.invalid("invalid_adults", "choose from 1 to 9 adults"))
      }
      // Past and far dates are checked by the service, against today at the origin.
      return .success(
        FlightSearchRequest(
          origin: from, destination: to, departureDate: date, returnDate: back, adults: form.adults,
          cabin: form.cabin, maxStops: form.maxStops, sort: filter.sort, limit: 200))
    } catch let error as ServiceError {
      return .failure(error)
    } catch {
      return .failure(ServiceError(.invalidInput, code: "invalid", message: ErrorText.reason(of: error)))
    }
  }

  private func refreshRows() {
    let visible = offers.filter { offer in
      (filter.maxStops.map { offer.maxStopsPerDirection <= $0 } ?? true)
        && (filter.carrier.map { offer.carriers.contains($0) } ?? true)
    }
    let sorted: [FlightOffer]
    switch filter.sort {
    case .price:
      sorted = visible.sorted { ($0.price.amount, $0.durationMinutes) < ($1.price.amount, $1.durationMinutes) }
    case .duration:
      sorted = visible.sorted { ($0.durationMinutes, $0.price.amount) < ($1.durationMinutes, $1.price.amount) }
    case .departure:
      sorted = visible.sorted {
        ($0.outbound.departure.instant, $0.price.amount) < ($1.outbound.departure.instant, $1.price.amount)
      }
    }
    rows = sorted.map { FlightOfferRow($0, environment: environment) }
  }
}
