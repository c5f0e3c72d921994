import Common
import Foundation

/// Why a hotel search found nothing: which of its conditions emptied it.
///
/// Found by asking the service (never guessed): the same search with every condition relaxed
/// (no stars, price cap or amenities, 1 guest in 1 room) and the hotels on the map within the
/// radius tell apart a place with no hotel at all (``Cause/noHotels``; the open sea), hotels full
/// on some night of the stay (``Cause/fullyBooked``), and conditions that each, relaxed alone,
/// find offers (``Cause/conditions(_:)``).
///
/// Used by `hotel search` (``commandLineText``: may name options) and the Hotels tab
/// (``screenText``: never an option).
public struct EmptyHotelSearch: Hashable, Sendable {
  /// A condition of the search that emptied it.
  public enum Condition: Hashable, Sendable {
    /// The stars asked (`--min-stars`).
    case stars
    /// The price cap (`--max-price`).
    case price
    /// The amenities asked (`--amenities`).
    case amenities
    /// The guests and rooms: no hotel has that many free together.
    case party
  }

  /// What emptied the search.
  public enum Cause: Hashable, Sendable {
    /// No hotel stands within the radius.
    case noHotels
    /// Hotels stand within the radius, but none has a room free on every night of the stay.
    case fullyBooked
    /// These conditions, each relaxed alone, find offers (all of them when only together they
    /// empty it).
    case conditions([Condition])
  }

  /// The search that found nothing.
  public var request: HotelSearchRequest
  public var cause: Cause

  public init(request: HotelSearchRequest, cause: Cause) {
    self.request = request
    self.cause = cause
  }

  /// The search relaxed in every condition that can empty it (1 guest, 1 room, no stars, price
  /// cap or amenities), for one offer.
  public static func relaxed(_ request: HotelSearchRequest) -> HotelSearchRequest {
    var relaxed = request
    relaxed.minStars = nil
    relaxed.maxPrice = nil
    relaxed.amenities = []
    relaxed.guests = 1
    relaxed.rooms = 1
    relaxed.limit = 1
    return relaxed
  }

  /// The map's rectangle around `center` that holds the circle of `radiusKm` kilometres
  /// (a degree of latitude is 111.32 km; of longitude, that times the cosine of the latitude).
  public static func area(around center: HotelSearchCenter, radiusKm: Double) -> GeoRect {
    let latitudeDegrees = radiusKm / 111.32
    let cosine = max(0.01, cos(center.latitude * .pi / 180))
    let longitudeDegrees = min(180, radiusKm / (111.32 * cosine))
    var west = center.longitude - longitudeDegrees
    var east = center.longitude + longitudeDegrees
    if west < -180 { west += 360 }
    if east > 180 { east -= 360 }
    return GeoRect(
      south: max(-90, center.latitude - latitudeDegrees), west: west, north: min(90, center.latitude + latitudeDegrees),
      east: east)
  }

  /// Asks `search` and `markers` which condition emptied `request` (searched around `center`):
  /// the relaxed search (``relaxed(_:)``), then, when it finds offers, each condition present
  /// relaxed alone; when it finds none, the hotels on the map within the radius.
  /// - Throws: what `search` or `markers` throw.
  public init(
    request: HotelSearchRequest, center: HotelSearchCenter,
    search: (HotelSearchRequest) throws -> HotelSearchResult,
    markers: (GeoRect, Int) throws -> [HotelMapMarker]
  ) throws {
    self.request = request
    guard try search(Self.relaxed(request)).offers.isEmpty else {
      var probe = request
      probe.limit = 1
      func finds(_ change: (inout HotelSearchRequest) -> Void) throws -> Bool {
        var relaxed = probe
        change(&relaxed)
        return try !search(relaxed).offers.isEmpty
      }
      var present: [Condition] = []
      var found: [Condition] = []
      if request.minStars != nil {
        present.append(.stars)
        if try finds({ $0.minStars = nil }) { found.append(.stars) }
      }
      if request.maxPrice != nil {
        present.append(.price)
        if try finds({ $0.maxPrice = nil }) { found.append(.price) }
      }
      if !request.amenities.isEmpty {
        present.append(.amenities)
        if try finds({ $0.amenities = [] }) { found.append(.amenities) }
      }
      if request.guests > 1 || request.rooms > 1 {
        present.append(.party)
        if try finds({
          $0.guests = 1
          $0.rooms = 1
        }) {
          found.append(.party)
        }
      }
      cause = .conditions(found.isEmpty ? present : found)
      return
    }
    let hotels = try markers(Self.area(around: center, radiusKm: request.radiusKm), 50).reduce(0) { $0 + $1.count }
    cause = hotels == 0 ? .noHotels : .fullyBooked
  }

  /// `hotel search`'s explanation: `There is no hotel within 10 km of 0,0: try another place or a
  /// larger --radius-km.`
  public var commandLineText: String { text(screen: false) }

  /// The Hotels tab's explanation: the same facts, with the form's words for what to change.
  public var screenText: String { text(screen: true) }

  private func text(screen: Bool) -> String {
    let radius = request.radiusKm.rounded() == request.radiusKm ? "\(Int(request.radiusKm))" : "\(request.radiusKm)"
    let area = L("within \(radius) km of \(request.place)")
    let rooms = request.rooms == 1 ? "a room" : "\(request.rooms) rooms"
    let guests = request.guests == 1 ? "1 guest" : "\(request.guests) guests"
    let stay = L("free on every night from \(request.checkIn) to \(request.checkOut)")
    switch cause {
    case .noHotels:
      return L("There is no hotel \(area): try another place or a larger ")
        + (screen ? "radius." : "--radius-km.")
    case .fullyBooked:
      return L(
        "The hotels \(area) are full on at least one night from \(request.checkIn) to \(request.checkOut): "
          + "try other dates") + (screen ? L(" or another place.") : L(" or a larger --radius-km."))
    case .conditions(let conditions):
      let reasons = conditions.map { condition -> String in
        switch condition {
        case .stars:
          let stars = request.minStars ?? 1
          return L("none with \(stars)★ or more has room")
            + (screen ? L(" (lower the stars)") : L(" (try a lower --min-stars)"))
        case .price:
          let cap = request.maxPrice.map { "\($0)" } ?? ""
          let currency = request.currency.map { " \($0)" } ?? ""
          return L("no room costs at most \(cap)\(currency) a night")
            + (screen ? L(" (raise the price cap)") : L(" (try a higher --max-price)"))
        case .amenities:
          // The screen names them as its filter does (Wi-Fi); the command line as --amenities takes them.
          let names =
            screen ? Amenity.displayList(request.amenities) : request.amenities.map(\.rawValue).joined(separator: ", ")
          return "none with \(names) has room" + (screen ? " (choose fewer amenities)" : " (try fewer --amenities)")
        case .party:
          return L("none has \(rooms) for \(guests) free together")
            + (screen ? L(" (fewer guests or rooms)") : L(" (try fewer --guests or --rooms)"))
        }
      }
      return L("No hotel \(area) has \(rooms) for \(guests) \(stay) as asked: ") + reasons.joined(separator: "; ") + "."
    }
  }
}
