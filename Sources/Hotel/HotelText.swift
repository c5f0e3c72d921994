import Common
import Foundation

/// The human text of the hotel commands (stdout without `--json`).
enum HotelText {
  static func stars(_ n: Int) -> String { String(repeating: "*", count: n) + String(repeating: " ", count: 5 - n) }

  /// The offers found; when there are none, `empty`'s explanation of which condition emptied the
  /// search (``EmptyHotelSearch``), else a general one.
  static func searchResult(
    _ result: HotelSearchResult, request: HotelSearchRequest, money: MoneyFormat, empty: EmptyHotelSearch? = nil
  ) -> String {
    let nights = request.checkIn.days(to: request.checkOut)
    var lines = [
      L(
        "Hotels within \(HotelMapSVG.number(result.radiusKm)) km of \(result.center.name), \(request.checkIn) → \(request.checkOut) "
      )
        + "(\(nights) night\(nights == 1 ? "" : "s"), \(request.guests) guest\(request.guests == 1 ? "" : "s"), "
        + "\(request.rooms) room\(request.rooms == 1 ? "" : "s")): showing \(result.offers.count) of \(result.matched) offers"
    ]
    if result.offers.isEmpty {
      lines.append(
        empty?.commandLineText
          ?? L(
            "No hotel in the area has a room free on every night of the stay as asked: try other dates, a larger "
              + "--radius-km or fewer conditions."))
    }
    for offer in result.offers {
      lines.append(
        "\(stars(offer.stars))  \(String(format: "%4.1f", locale: Localization.current.locale, offer.guestRating))  \(offer.name) — \(offer.roomType.rawValue), "
          + L(
            "\(String(format: "%.1f", locale: Localization.current.locale, offer.distanceKm)) km, \(money.string(offer.nightlyRate, per: L("night"))), "
              + "total \(money.string(offer.total)) (\(offer.roomsAvailable) left)"))
      lines.append("      \(offer.id)")
    }
    return lines.joined(separator: "\n")
  }

  static func show(_ document: ShowDocument, money: MoneyFormat) -> String {
    let hotel = document.hotel
    var lines = [
      "\(hotel.name)  \(String(repeating: "*", count: hotel.stars))  rating \(hotel.guestRating)/10",
      "\(hotel.address), \(hotel.countryCode) · \(hotel.latitude), \(hotel.longitude) · time zone \(hotel.timeZone) · id \(hotel.id)",
      "Amenities: \(Amenity.displayList(hotel.amenities))",
      "Rooms: "
        + hotel.rooms.map { "\($0.count) \($0.roomType.rawValue) (sleeps \($0.roomType.capacity))" }.joined(
          separator: ", "),
      "",
      document.details.description,
      "",
      L("Cancellation: \(document.cancellationPolicy)"),
    ]
    if let offers = document.offers {
      lines.append("")
      lines.append(offers.isEmpty ? L("No room type is free on every night of the stay.") : L("Offers:"))
      for offer in offers {
        let nightly = offer.nightlyRates.map { "\($0.date) \(money.string($0.rate))" }.joined(separator: ", ")
        lines.append(
          "  \(offer.roomType.rawValue): \(money.string(offer.nightlyRate, per: L("night"))) avg, "
            + L("taxes \(money.string(offer.taxes)), total \(money.string(offer.total)) (\(offer.roomsAvailable) left)")
        )
        lines.append(L("    nights: \(nightly)"))
        lines.append("    \(offer.id)")
      }
    }
    lines.append("")
    lines.append(L("Reviews:"))
    for review in document.details.reviews {
      lines.append("  \(review.score)/10 \(review.author), \(review.date): \(review.text)")
    }
    return lines.joined(separator: "\n")
  }

  /// The confirmation, with the cancellation policy as it applied when the booking was made (a
  /// booking after the free-cancellation deadline says at once that the first night is due).
  static func booked(_ reservation: Reservation, money: MoneyFormat) -> String {
    let policy = reservation.details["cancellationPolicy"]?.stringValue ?? HotelCancellation.rule
    return L("Booked \(reservation.id): \(reservation.summary), total \(money.string(reservation.total))")
      + (reservation.locator.map { L(", confirmation \($0)") } ?? "") + L(".\nCancellation: \(policy)")
  }
}
