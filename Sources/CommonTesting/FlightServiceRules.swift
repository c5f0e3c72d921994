import Common
import Foundation

extension Array where Element == FlightOffer {
  /// These offers as a flight search service answers `request` (for fakes of `FlightSearching`):
  /// those with at most `maxStops` per direction and flown (in part) by `carrier`, in `sort`
  /// order (price, then duration; duration, then price; departure, then price), at most `limit`.
  public func served(for request: FlightSearchRequest) -> [FlightOffer] {
    let kept = filter { offer in
      offer.maxStopsPerDirection <= request.maxStops && (request.carrier.map { offer.carriers.contains($0) } ?? true)
    }
    let sorted: [FlightOffer]
    switch request.sort {
    case .price:
      sorted = kept.sorted { ($0.price.amount, $0.durationMinutes) < ($1.price.amount, $1.durationMinutes) }
    case .duration:
      sorted = kept.sorted { ($0.durationMinutes, $0.price.amount) < ($1.durationMinutes, $1.price.amount) }
    case .departure:
      sorted = kept.sorted {
        ($0.outbound.departure.instant, $0.price.amount) < ($1.outbound.departure.instant, $1.price.amount)
      }
    }
    return Array(sorted.prefix(request.limit))
  }
}
