import Common
import Foundation
import Reactive

/// The slower parts of one result row: description, reviews and the hotel's room list.
public struct HotelRowDetails: Hashable, Sendable {
  public var details: HotelDetails
  public var rooms: [HotelOffer]
}

/// Where a row's details are: loading, loaded, or failed with a message.
public enum HotelRowState: Hashable, Sendable {
  case loading
  case loaded(HotelRowDetails)
  case failed(String)
}

/// Local filters of the results list.
public struct HotelResultFilter: Hashable, Sendable {
  public var minStars: Int?
  /// Highest average nightly rate of one room, in each offer's currency.
  public var maxNightlyRate: Decimal?
  public var amenities: Set<Amenity>

  public init(minStars: Int? = nil, maxNightlyRate: Decimal? = nil, amenities: Set<Amenity> = []) {
    self.minStars = minStars
    self.maxNightlyRate = maxNightlyRate
    self.amenities = amenities
  }
}

/// The hotel results list: runs searches, sorts and filters the offers, and loads each row's
/// slow details lazily — the pattern of a list of remote images:
/// - a row's details are asked for only when the row is shown (``rowShown(_:)``);
/// - an answer is cached per hotel for the current search, so showing the row again asks nothing;
/// - a row that goes away before its answer (``rowHidden(_:)``) cancels its request;
/// - a new search clears the cache and cancels every request still running.
///
/// Sorting and filtering work on every offer of the search: a search asks for the most offers the
/// service returns (``maximumLimit``); when the place has more (``matched`` over the offers
/// received), a new sort or filter asks the service again with the sort and filters in the request,
/// so the list is the best of all that match, never a part of a part.
///
/// Inputs: ``search(_:)``, ``sortChanged(_:)``, ``filterChanged(_:)``, ``rowShown(_:)``,
/// ``rowHidden(_:)``. Outputs: ``offers``, ``matched`` (how many offers match the search and its
/// filters at the service), ``isLoading``, ``errorMessage``, ``rows`` (hotel id → state, for the
/// rows that are loading or loaded).
public final class HotelResultsViewModel {
  @Published public private(set) var offers: [HotelOffer] = []
  @Published public private(set) var isLoading = false
  @Published public private(set) var errorMessage: String?
  /// Which condition emptied the last search when it found nothing (``EmptyHotelSearch``: no
  /// hotel in the area, hotels full, or too many guests or rooms), asked of the service after the
  /// empty answer; nil meanwhile, after a failure to find out, and while there are offers.
  @Published public private(set) var emptySearch: EmptyHotelSearch?
  @Published public private(set) var rows: [String: HotelRowState] = [:]
  @Published public private(set) var sort: HotelSortOrder = .price
  @Published public private(set) var filter = HotelResultFilter()
  /// How many offers match at the service (more than ``received`` when it returned its most).
  @Published public private(set) var matched = 0
  /// How many offers the last answer held (``offers`` are those of them the filters keep).
  public var received: Int { all.count }

  /// Why there is no offer to show, naming the condition that emptied the list: the filters (how
  /// many offers of the search they hide: `None of the 12 offers of this search has 5★ or more:
  /// press f to change the filter.`), or the search itself (the place, radius, stay, guests and
  /// rooms searched); nil while there are offers, while loading, or after an error.
  public var emptyMessage: String? {
    guard offers.isEmpty, !isLoading, errorMessage == nil, let request else { return nil }
    if searchedMatched > 0 {
      var conditions: [String] = []
      if let stars = filter.minStars { conditions.append(L("has \(stars)★ or more")) }
      if let cap = filter.maxNightlyRate { conditions.append(L("costs at most \(cap) a night")) }
      if !filter.amenities.isEmpty {
        conditions.append("has \(Amenity.displayList(Amenity.allCases.filter(filter.amenities.contains)))")
      }
      let offers = searchedMatched == 1 ? "the 1 offer" : "the \(searchedMatched) offers"
      return L(
        "None of \(offers) of this search \(conditions.joined(separator: " and ")): press f to change the filter.")
    }
    if let emptySearch { return emptySearch.screenText }
    let rooms = request.rooms == 1 ? "a room" : "\(request.rooms) rooms"
    let guests = request.guests == 1 ? "1 guest" : "\(request.guests) guests"
    let radius = request.radiusKm.rounded() == request.radiusKm ? "\(Int(request.radiusKm))" : "\(request.radiusKm)"
    return L(
      "No hotel within \(radius) km of \(request.place) has \(rooms) for \(guests) free on every night from "
        + "\(request.checkIn) to \(request.checkOut): try other dates or another place.")
  }

  /// The most offers one search asks for (``HotelSearchRequest/limit``'s highest).
  public static let maximumLimit = 1000

  private let client: HotelClient
  private let scheduler: AnySchedulerOf<DispatchQueue>
  private let requests = PassthroughSubject<HotelSearchRequest, Never>()
  private var all: [HotelOffer] = []
  /// How many offers the search matched before any filter (its first answer).
  private var searchedMatched = 0
  private var request: HotelSearchRequest?
  private var cache: [String: HotelRowDetails] = [:]
  private var inFlight: [String: AnyCancellable] = [:]
  private var cancellables: Set<AnyCancellable> = []

  public init(client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>) {
    self.client = client
    self.scheduler = scheduler
    requests
      .map { request -> AnyPublisher<Result<HotelSearchResult, ServiceError>, Never> in
        client.search(request).map { Result.success($0) }.catch { Just(Result.failure($0)) }.eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] result in self?.receive(result) }
      .store(in: &cancellables)
  }

  /// Runs a search for the most offers the service returns (a newer one replaces an older one
  /// still running; its answer is dropped).
  public func search(_ request: HotelSearchRequest) {
    var request = request
    request.limit = Self.maximumLimit
    sort = request.sort
    // A new search starts with every offer: the filters of the last one do not carry over.
    filter = HotelResultFilter()
    isFilteredAtTheService = false
    self.request = request
    for (_, cancellable) in inFlight { cancellable.cancel() }
    inFlight = [:]
    cache = [:]
    rows = [:]
    errorMessage = nil
    emptySearch = nil
    explaining = nil
    searchedMatched = 0
    isLoading = true
    requests.send(request)
  }

  public func sortChanged(_ order: HotelSortOrder) {
    sort = order
    arrange()
    askAgainIfCut()
  }

  public func filterChanged(_ filter: HotelResultFilter) {
    self.filter = filter
    arrange()
    askAgainIfCut()
  }

  /// The service returned its most: the sort or filter asks it again, so they see every offer.
  private func askAgainIfCut() {
    guard var request, matched > all.count || isFilteredAtTheService else { return }
    request.sort = sort
    request.minStars = filter.minStars
    request.maxPrice = filter.maxNightlyRate
    request.currency = nil  // the cap is in each offer's currency, as the local filter reads it
    request.amenities = filter.amenities.sorted { $0.rawValue < $1.rawValue }
    isFilteredAtTheService = true
    isLoading = true
    requests.send(request)
  }

  /// Whether the offers shown came from a search with the sort and filters in the request.
  private var isFilteredAtTheService = false

  /// A row of hotel `hotelId` became visible: show its cached details or load them.
  public func rowShown(_ hotelId: String) {
    if let cached = cache[hotelId] {
      rows[hotelId] = .loaded(cached)
      return
    }
    guard inFlight[hotelId] == nil, let request else { return }
    rows[hotelId] = .loading
    var details: HotelDetails?
    var rooms: [HotelOffer]?
    let both = client.details(hotelId).map { HotelRowPart.details($0) }
      .merging(
        client.rooms(hotelId, request.checkIn, request.checkOut, request.guests, request.rooms).map {
          HotelRowPart.rooms($0)
        })
    inFlight[hotelId] = both.receive(on: scheduler).sink(
      receiveCompletion: { [weak self] completion in
        guard let self, case .failure(let error) = completion else { return }
        self.inFlight[hotelId] = nil
        self.rows[hotelId] = .failed(ScreenText.message(for: error))
      },
      receiveValue: { [weak self] part in
        switch part {
        case .details(let value): details = value
        case .rooms(let value): rooms = value
        }
        guard let self, let details, let rooms else { return }
        let loaded = HotelRowDetails(details: details, rooms: rooms)
        self.cache[hotelId] = loaded
        self.inFlight[hotelId] = nil
        self.rows[hotelId] = .loaded(loaded)
      })
  }

  /// A row went away: cancel its request if it is still running (a loaded row stays cached).
  public func rowHidden(_ hotelId: String) {
    guard let cancellable = inFlight.removeValue(forKey: hotelId) else { return }
    cancellable.cancel()
    rows[hotelId] = nil
  }

  private func receive(_ result: Result<HotelSearchResult, ServiceError>) {
    isLoading = false
    switch result {
    case .success(let value):
      all = value.offers
      matched = value.matched
      if !isFilteredAtTheService {
        searchedMatched = value.matched
        if value.offers.isEmpty, let request { explain(request, center: value.center) }
      }
      arrange()
    case .failure(let error):
      all = []
      offers = []
      errorMessage = ScreenText.message(for: error)
    }
  }

  /// The search that is finding out why the last search was empty.
  private var explaining: AnyCancellable?

  /// Asks the service why `request` found nothing: the search with 1 guest in 1 room (the form's
  /// only conditions; stars, price and amenities are this model's filters), and the hotels on the
  /// map within the radius.
  private func explain(_ request: HotelSearchRequest, center: HotelSearchCenter) {
    let area = EmptyHotelSearch.area(around: center, radiusKm: request.radiusKm)
    explaining = client.search(EmptyHotelSearch.relaxed(request)).zip(client.mapMarkers(area, 50))
      .map { relaxed, markers -> EmptyHotelSearch? in
        if !relaxed.offers.isEmpty {
          guard request.guests > 1 || request.rooms > 1 else { return nil }  // not the form's to explain
          return EmptyHotelSearch(request: request, cause: .conditions([.party]))
        }
        let hotels = markers.reduce(0) { $0 + $1.count }
        return EmptyHotelSearch(request: request, cause: hotels == 0 ? .noHotels : .fullyBooked)
      }
      .replaceError(with: nil)
      .receive(on: scheduler)
      .sink { [weak self] explanation in self?.emptySearch = explanation }
  }

  private func arrange() {
    let filter = filter
    let kept = all.filter { offer in
      offer.stars >= (filter.minStars ?? 1)
        && (filter.maxNightlyRate.map { offer.nightlyRate.amount <= $0 } ?? true)
        && filter.amenities.isSubset(of: offer.amenities)
    }
    offers = kept.sorted(by: Self.order(sort))
  }

  static func order(_ sort: HotelSortOrder) -> (HotelOffer, HotelOffer) -> Bool {
    func tie(_ a: HotelOffer, _ b: HotelOffer) -> Bool { (a.hotelId, a.roomType) < (b.hotelId, b.roomType) }
    func cheaper(_ a: HotelOffer, _ b: HotelOffer) -> Bool {
      a.total.amount != b.total.amount ? a.total.amount < b.total.amount : tie(a, b)
    }
    switch sort {
    case .price: return cheaper
    case .distance: return { $0.distanceKm != $1.distanceKm ? $0.distanceKm < $1.distanceKm : cheaper($0, $1) }
    case .stars: return { $0.stars != $1.stars ? $0.stars > $1.stars : cheaper($0, $1) }
    case .rating: return { $0.guestRating != $1.guestRating ? $0.guestRating > $1.guestRating : cheaper($0, $1) }
    }
  }
}

/// One of the two answers a row waits for.
enum HotelRowPart {
  case details(HotelDetails)
  case rooms([HotelOffer])
}

extension Publisher where Failure == ServiceError {
  /// Both publishers' values, as they come (a small merge: subscribe to both, finish when both
  /// finished, fail on the first failure).
  func merging<Other: Publisher>(_ other: Other) -> AnyPublisher<Output, ServiceError>
  where Other.Output == Output, Other.Failure == ServiceError {
    [eraseToAnyPublisher(), other.eraseToAnyPublisher()].publisher.setFailureType(to: ServiceError.self)
      .flatMap { $0 }.eraseToAnyPublisher()
  }
}
