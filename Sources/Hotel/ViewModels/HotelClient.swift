import Common
import Foundation
import Reactive

/// The hotel services as the view models see them: each call a publisher that does its work
/// when subscribed and can be cancelled (a cancelled call's answer is dropped).
public struct HotelClient: Sendable {
  public var suggestPlaces: @Sendable (String) -> AnyPublisher<[PlaceSuggestion], ServiceError>
  public var search: @Sendable (HotelSearchRequest) -> AnyPublisher<HotelSearchResult, ServiceError>
  public var details: @Sendable (String) -> AnyPublisher<HotelDetails, ServiceError>
  /// The offers of one hotel for the current stay (hotel id, check-in, check-out, guests, rooms).
  public var rooms: @Sendable (String, LocalDate, LocalDate, Int, Int) -> AnyPublisher<[HotelOffer], ServiceError>
  /// Books an offer for the signed-in user: offer id, guest name ("Given Family"), the stored card
  /// to charge (`card_…`; nil charges the default card), idempotency key.
  public var book: @Sendable (String, String, String?, String) -> AnyPublisher<Reservation, ServiceError>
  public var mapMarkers: @Sendable (GeoRect, Int) -> AnyPublisher<[HotelMapMarker], ServiceError>

  public init(
    suggestPlaces: @escaping @Sendable (String) -> AnyPublisher<[PlaceSuggestion], ServiceError>,
    search: @escaping @Sendable (HotelSearchRequest) -> AnyPublisher<HotelSearchResult, ServiceError>,
    details: @escaping @Sendable (String) -> AnyPublisher<HotelDetails, ServiceError>,
    rooms: @escaping @Sendable (String, LocalDate, LocalDate, Int, Int) -> AnyPublisher<[HotelOffer], ServiceError>,
    book: @escaping @Sendable (String, String, String?, String) -> AnyPublisher<Reservation, ServiceError>,
    mapMarkers: @escaping @Sendable (GeoRect, Int) -> AnyPublisher<[HotelMapMarker], ServiceError>
  ) {
    self.suggestPlaces = suggestPlaces
    self.search = search
    self.details = details
    self.rooms = rooms
    self.book = book
    self.mapMarkers = mapMarkers
  }

  /// A client over the synchronous `service`: each call runs on `queue` when subscribed.
  /// `suggest` gives place suggestions (the reference data's autocomplete); `token` the session.
  public static func live(
    service: any HotelService, suggest: @escaping @Sendable (String) -> [PlaceSuggestion],
    token: @escaping @Sendable () throws -> String?, queue: DispatchQueue = .global(qos: .userInitiated)
  ) -> HotelClient {
    let call = Caller(queue: queue)
    return HotelClient(
      suggestPlaces: { text in call.run { suggest(text) } },
      search: { request in call.run { try service.search(request) } },
      details: { id in call.run { try service.details(hotelId: id) } },
      rooms: { id, checkIn, checkOut, guests, rooms in
        call.run { try service.rooms(hotelId: id, checkIn: checkIn, checkOut: checkOut, guests: guests, rooms: rooms) }
      },
      book: { offer, guest, card, key in
        call.run {
          guard let session = try token() else { throw ServiceError.notSignedIn }
          return try service.book(
            HotelBookingRequest(offerId: offer, guestName: guest, cardId: card, idempotencyKey: key), token: session)
        }
      },
      mapMarkers: { viewport, count in call.run { try service.mapMarkers(in: viewport, maxMarkers: count) } })
  }

  /// Runs a synchronous call on a queue when subscribed, as a one-value publisher.
  struct Caller: Sendable {
    let queue: DispatchQueue

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<T, ServiceError> {
      ServiceCall.publisher(body).subscribe(on: queue).eraseToAnyPublisher()
    }
  }
}
