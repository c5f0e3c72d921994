import Common
import Foundation

/// How a seat is priced, in US cents per passenger and segment (integers: no float money).
///
/// - **Base economy fare** = 39 USD + 0.095 USD/km for the first 1,000 km + 0.07 USD/km beyond
///   (great-circle distance of the segment).
/// - **Airline price level** on the route: × 0.88–1.12 (see ``FlightNetwork``).
/// - **Cabin**: × 1 economy, × 1.7 premium economy, × 3.5 business, × 5.5 first.
/// - **Days before departure** (local departure date − today): 60 or more × 0.80; 30–59 × 0.90;
///   14–29 × 1.00; 7–13 × 1.20; 3–6 × 1.40; 0–2 × 1.60.
/// - **Load** of the cabin (booked ÷ seats, before this sale): × (1 + load²), so the last seats cost
///   up to twice the first; every seat booked can only raise the price.
/// - **Connections**: an itinerary with stops gets 10% off the sum of its segment fares.
/// - **Taxes and fees** per segment: 7.5% of the segment fare + 8.50 USD.
///
/// Fares round to whole cents at each segment, so the same inputs always give the same price.
///
/// **Refund rule** (on cancel): 100% when cancelled 7 or more days before the first departure;
/// 50% of the fare (taxes and fees always refunded in full) from 1 to 6 days before; nothing of
/// the fare on the day of departure or later.
public enum FarePolicy {
  /// The currency fares are generated in.
  public static let currency = "USD"

  /// The fare of one segment for one passenger, in cents.
  @inline(__always)
  static func segmentFareCents(
    distanceKm: Int32, level: Int32 = 1000, cabin: Int, daysAhead: Int32, booked: Int32, capacity: Int32
  ) -> Int64 {
    let km = Int64(distanceKm)
    // Base in hundredths of cents to keep the per-km rates exact.
    let base = (390_000 + min(km, 1000) * 950 + max(0, km - 1000) * 700) * Int64(level) / 1000
    let cabinPermille: Int64 = [1000, 1700, 3500, 5500][cabin]
    let advancePermille: Int64 =
      daysAhead >= 60
      ? 800 : daysAhead >= 30 ? 900 : daysAhead >= 14 ? 1000 : daysAhead >= 7 ? 1200 : daysAhead >= 3 ? 1400 : 1600
    let load = capacity > 0 ? Int64(min(booked, capacity)) * 1000 / Int64(capacity) : 0
    let loadPermille = 1000 + load * load / 1000
    // hundredths of cents × 3 permille factors → divide by 100 × 10^9.
    let scaled = base * cabinPermille / 1000 * advancePermille / 1000 * loadPermille / 1000
    return (scaled + 50) / 100
  }

  /// Taxes and fees on a segment fare, in cents.
  @inline(__always)
  static func segmentTaxCents(fareCents: Int64) -> Int64 {
    (fareCents * 75 + 500) / 1000 + 850
  }

  /// The fare after the connection discount (10% off when `segments > 1`), in cents.
  @inline(__always)
  static func itineraryFareCents(sumOfSegments: Int64, segments: Int) -> Int64 {
    segments > 1 ? (sumOfSegments * 9 + 5) / 10 : sumOfSegments
  }

  /// The part of `paid` refunded when cancelling `daysBeforeDeparture` days before the first
  /// departure (see the refund rule above).
  public static func refund(of paid: FareBreakdown, daysBeforeDeparture: Int) -> Money {
    let fareShare: Decimal = daysBeforeDeparture >= 7 ? 1 : daysBeforeDeparture >= 1 ? 0.5 : 0
    return (paid.fare * fareShare + paid.taxesAndFees).rounded()
  }
}
