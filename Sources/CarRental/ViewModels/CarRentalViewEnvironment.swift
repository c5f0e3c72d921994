import Common
import Foundation
import Reactive

/// What the car view models need: the service, who pays (the app's one session, observed by the
/// booking screen's checkout), and two schedulers (the main queue for outputs, a background queue
/// for service calls). Tests pass `DispatchQueue.test` for both.
public struct CarRentalViewEnvironment {
  public var service: CarRentalService
  /// Who pays: signing in from the booking screen and the cards to charge.
  public var session: AccountSession
  public var mainQueue: AnySchedulerOf<DispatchQueue>
  public var backgroundQueue: AnySchedulerOf<DispatchQueue>
  /// How amounts are written (``MoneyFormat`` in the traveller's language).
  public var money: MoneyFormat
  /// Today from the app's clock (``TravelToday``): the calendar opens on the traveller's date and
  /// the form refuses a pick-up on a day past at every place.
  public var today: TravelToday

  /// `session` nil: nobody signed in, and signing in is not available; `today` nil: today on the
  /// real clock (an app passes its invocation's clock, `--clock-start`).
  public init(
    service: CarRentalService, session: AccountSession? = nil, mainQueue: AnySchedulerOf<DispatchQueue>,
    backgroundQueue: AnySchedulerOf<DispatchQueue>, money: MoneyFormat = MoneyFormat(Localization.current),
    today: TravelToday? = nil
  ) {
    self.money = money
    self.service = service
    self.session = session ?? .unavailable(mainQueue: mainQueue)
    self.mainQueue = mainQueue
    self.backgroundQueue = backgroundQueue
    self.today = today ?? TravelToday(at: Date())
  }

  /// Runs `body` on the background queue and delivers its result on the main queue, never failing
  /// (the failure is in the `Result`, as a ``ServiceError``).
  func call<T>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<Result<T, ServiceError>, Never> {
    ServiceCall.result(on: backgroundQueue, deliverOn: mainQueue, body)
  }
}

/// One offer as a results row shows it.
public struct CarOfferRow: Hashable, Sendable {
  public var offer: CarOffer
  public var company: String
  /// `CDAR`.
  public var acriss: String
  /// `Compact, 4-5 door, automatic, air conditioning`.
  public var description: String
  /// `7 days`.
  public var duration: String
  /// `$179.34`.
  public var total: String
  /// `3 available`.
  public var availability: String

  public init(_ offer: CarOffer, money: MoneyFormat = MoneyFormat(Localization.current)) {
    self.offer = offer
    company = offer.company.name
    acriss = offer.acriss.rawValue
    description = offer.acriss.words
    duration = "\(offer.days) day\(offer.days == 1 ? "" : "s")"
    total = money.string(offer.total)
    availability = L("\(offer.carsAvailable) available")
  }
}

/// Offers of one ACRISS category (`Compact`), cheapest first; groups are ordered by their cheapest offer.
public struct CarCategoryGroup: Hashable, Sendable {
  public var category: String
  public var rows: [CarOfferRow]

  public init(category: String, rows: [CarOfferRow]) {
    self.category = category
    self.rows = rows
  }

  /// Groups offers (already sorted by total) by category, keeping that order; totals written by `money`.
  public static func grouping(_ offers: [CarOffer], money: MoneyFormat = MoneyFormat(Localization.current))
    -> [CarCategoryGroup]
  {
    var groups: [CarCategoryGroup] = []
    var index: [String: Int] = [:]
    for offer in offers {
      if let position = index[offer.category] {
        groups[position].rows.append(CarOfferRow(offer, money: money))
      } else {
        index[offer.category] = groups.count
        groups.append(CarCategoryGroup(category: offer.category, rows: [CarOfferRow(offer, money: money)]))
      }
    }
    return groups
  }
}
