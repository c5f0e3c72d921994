import Common
import Foundation
import Hotel
import Reactive

/// A ``HotelClient`` whose answers the test sends by hand: every call gets its own subject,
/// and calls and cancellations are recorded.
final class ControlledHotelClient: @unchecked Sendable {
  private let lock = NSLock()
  private var subjects: [String: [Any]] = [:]
  private var log: [String] = []

  var calls: [String] { lock.withLock { log.filter { !$0.hasPrefix("cancel ") } } }
  var cancellations: [String] { lock.withLock { log.filter { $0.hasPrefix("cancel ") } } }
  /// Every search request, in order.
  var searchRequests: [HotelSearchRequest] { lock.withLock { searches } }
  private var searches: [HotelSearchRequest] = []

  private func publisher<T>(_ key: String) -> AnyPublisher<T, ServiceError> {
    let subject = PassthroughSubject<T, ServiceError>()
    lock.withLock {
      subjects[key, default: []].append(subject)
      log.append(key)
    }
    return subject.handleEvents(receiveCancel: { [weak self] in
      self?.lock.withLock { self?.log.append("cancel \(key)") }
    }).eraseToAnyPublisher()
  }

  /// Answers the latest call `key` with `value` and finishes it.
  func answer<T>(_ key: String, _ value: T, index: Int? = nil) {
    let list = lock.withLock { subjects[key] ?? [] }
    guard let subject = (index.map { list[$0] } ?? list.last) as? PassthroughSubject<T, ServiceError> else {
      fatalError("no pending call \(key) of type \(T.self)")
    }
    subject.send(value)
    subject.send(completion: .finished)
  }

  /// Fails the latest call `key`.
  func fail<T>(_ key: String, _ error: ServiceError, as type: T.Type) {
    let list = lock.withLock { subjects[key] ?? [] }
    guard let subject = list.last as? PassthroughSubject<T, ServiceError> else { fatalError("no pending call \(key)") }
    subject.send(completion: .failure(error))
  }

  var client: HotelClient {
    HotelClient(
      suggestPlaces: { self.publisher("suggest \($0)") },
      search: { request in
        self.lock.withLock { self.searches.append(request) }
        return self.publisher("search \(request.place)")
      },
      details: { self.publisher("details \($0)") },
      rooms: { id, _, _, _, _ in self.publisher("rooms \(id)") },
      book: { offer, guest, card, key in
        self.publisher("book \(offer) \(guest) \(key)" + (card.map { " card \($0)" } ?? ""))
      },
      mapMarkers: { viewport, _ in self.publisher("map \(viewport.south)") })
  }
}

enum HotelTestData {
  static func city(_ name: String, population: Int = 1_000_000) -> PlaceSuggestion {
    .city(
      City(
        geonameID: population, name: name, countryCode: "FR", admin1: "11", latitude: 48.85, longitude: 2.35,
        population: population, timeZoneIdentifier: "Europe/Paris"))
  }

  static let request = HotelSearchRequest(
    place: "Paris", checkIn: LocalDate("2026-12-20")!, checkOut: LocalDate("2026-12-23")!, guests: 2)

  static let result = HotelSearchResult(
    center: FakeHotelService.center, radiusKm: 10,
    offers: [
      located(
        FakeHotelService.offer(hotelId: "h1-1", name: "A", nightly: 100, km: 3, stars: 3, rating: 8.0), 48.87, 2.33),
      located(
        FakeHotelService.offer(hotelId: "h1-2", name: "B", nightly: 80, km: 5, stars: 2, rating: 9.1), 48.84, 2.39),
      located(
        FakeHotelService.offer(hotelId: "h1-3", name: "C", nightly: 250, km: 1, stars: 5, rating: 8.7), 48.86, 2.28),
    ], matched: 3)

  /// `offer` at another place (the map draws the results where they are).
  static func located(_ offer: HotelOffer, _ latitude: Double, _ longitude: Double) -> HotelOffer {
    var moved = offer
    moved.latitude = latitude
    moved.longitude = longitude
    return moved
  }

  static let details = HotelDetails(hotelId: "h1-1", description: "Near the river.", reviews: [])
}
