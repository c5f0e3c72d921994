import Common
import Foundation

/// Plain-text renderings of flights for the command line and the views: times local to each
/// airport, durations as `5h 45m`, `+1` when the arrival is on a later local date.
public enum FlightText {
  /// `5h 45m` (minutes ≥ 0).
  public static func duration(_ minutes: Int) -> String {
    minutes >= 60 ? "\(minutes / 60)h \(String(format: "%02d", minutes % 60))m" : "\(minutes)m"
  }

  /// `nonstop`, `1 stop`, `2 stops`.
  public static func stops(_ count: Int) -> String {
    count == 0 ? L("nonstop") : count == 1 ? L("1 stop") : L("\(count) stops")
  }

  /// `08:35 SFO → 17:40 JFK` with `+1` (or `-1`) when the arrival's local date differs.
  public static func times(_ itinerary: Itinerary) -> String {
    let days = itinerary.departure.localDate.days(to: itinerary.arrival.localDate)
    let mark = days == 0 ? "" : days > 0 ? " +\(days)" : " \(days)"
    return
      "\(itinerary.departure.localTimeText) \(itinerary.origin) → \(itinerary.arrival.localTimeText)\(mark) \(itinerary.destination)"
  }

  /// One line per direction: date, times, stops (via), duration, flights — each the operating
  /// flight with its aircraft and the codeshare designators it is also sold under
  /// (`LX 14 (333; also UA 2110)`).
  public static func itinerary(_ itinerary: Itinerary) -> String {
    let via =
      itinerary.connectionAirports.isEmpty ? "" : L(" via \(itinerary.connectionAirports.joined(separator: ", "))")
    let flights = itinerary.segments.map { segment in
      let also =
        segment.codeshares.isEmpty ? "" : L("; also \(segment.codeshares.map(\.description).joined(separator: ", "))")
      return "\(segment.flight) (\(segment.aircraft)\(also))"
    }.joined(separator: ", ")
    return
      "\(itinerary.departure.localDate)  \(times(itinerary))  \(stops(itinerary.stops))\(via)  \(duration(itinerary.durationMinutes))  \(flights)"
  }

  /// The result list of `search`, amounts written by `money`.
  public static func offers(
    _ offers: [FlightOffer], request: FlightSearchRequest, money: MoneyFormat = MoneyFormat(Localization.current)
  )
    -> String
  {
    guard !offers.isEmpty else {
      // Which condition emptied it takes more searches: `EmptyFlightSearch` (what `search` prints).
      return EmptyFlightSearch(request: request, conditions: []).commandLineText
    }
    var lines: [String] = []
    for (number, offer) in offers.enumerated() {
      let each = offer.adults > 1 ? L(" (\(money.string(offer.perPassenger.total)) per adult)") : ""
      lines.append(
        L(
          "\(number + 1). \(money.string(offer.price))\(each)  \(offer.cabin.displayName), \(offer.seatsAvailable) seats left"
        )
      )
      for itinerary in offer.itineraries { lines.append("   " + Self.itinerary(itinerary)) }
      lines.append(L("   id: \(offer.id)"))
    }
    return lines.joined(separator: "\n")
  }

  /// The confirmation of `book`, amounts written by `money`.
  public static func booked(_ reservation: Reservation, money: MoneyFormat = MoneyFormat(Localization.current))
    -> String
  {
    var lines = [L("Booked: \(reservation.summary)")]
    if let locator = reservation.locator { lines.append(L("Record locator (PNR): \(locator)")) }
    lines.append(L("Total charged: \(money.string(reservation.total))"))
    lines.append("Reservation: \(reservation.id) (status \(reservation.status.rawValue))")
    return lines.joined(separator: "\n")
  }
}
