import Common
import Foundation
import Reactive

/// The rates-and-discounts breakdown of one offer, with promo code entry.
///
/// Inputs: ``promoCodeChanged(_:)``, ``applyPromoTapped()``, ``removePromoTapped()``.
/// Outputs: ``lines`` (every line of the price, in the user's currency), ``total`` (the sum,
/// rounded once), ``promoMessage`` (applied, or the clear reason it does not apply),
/// ``isApplyEnabled``, ``isWorking``, ``offer`` (the offer as priced now, to book).
public final class CarRatesViewModel {
  /// One line as the breakdown shows it.
  public struct Line: Hashable, Sendable {
    public var name: String
    /// `-14.86 USD`.
    public var amount: String
    public var isDiscount: Bool
  }

  @Published public private(set) var offer: CarOffer
  @Published public private(set) var lines: [Line] = []
  @Published public private(set) var total = ""
  @Published public private(set) var promoMessage: String?
  @Published public private(set) var isApplyEnabled = false
  @Published public private(set) var isWorking = false

  private let query: CarSearchQuery
  private var promoText = ""
  private let requests = PassthroughSubject<(CarSearchQuery, String?), Never>()
  private var cancellables = Set<AnyCancellable>()
  /// How amounts are written (the traveller's language).
  private let money: MoneyFormat

  /// - Parameters:
  ///   - offer: the offer chosen in the results.
  ///   - query: the search that found it (place, times).
  public init(offer: CarOffer, query: CarSearchQuery, environment: CarRentalViewEnvironment) {
    self.offer = offer
    self.query = query
    money = environment.money
    let service = environment.service
    requests
      .map { request, code in environment.call { (code, try service.search(request)) } }
      .switchToLatest()
      .sink { [weak self] result in self?.received(result) }
      .store(in: &cancellables)
    show(offer)
  }

  public func promoCodeChanged(_ text: String) {
    promoText = text.trimmingCharacters(in: .whitespaces)
    isApplyEnabled = !promoText.isEmpty
  }

  public func applyPromoTapped() {
    guard !promoText.isEmpty else { return }
    reprice(promo: promoText)
  }

  public func removePromoTapped() {
    promoText = ""
    isApplyEnabled = false
    reprice(promo: nil)
  }

  private func reprice(promo: String?) {
    var request = query
    request.company = offer.company.id
    request.classPattern = try? ACRISSPattern(offer.acriss.rawValue)
    request.dropoffPlace = offer.dropoffLocation.id == offer.pickupLocation.id ? nil : offer.dropoffLocation.id
    request.promoCode = promo
    request.limit = 1000
    isWorking = true
    requests.send((request, promo))
  }

  private func received(_ result: Result<(String?, CarSearchResult), ServiceError>) {
    isWorking = false
    switch result {
    case .failure(let error):
      promoMessage = ScreenText.message(for: error, fields: CarSearchViewModel.fieldNames)
    case .success(let (code, found)):
      guard
        let same = found.offers.first(where: {
          $0.pickupLocation.id == offer.pickupLocation.id && $0.dropoffLocation.id == offer.dropoffLocation.id
            && $0.acriss == offer.acriss && $0.company.id == offer.company.id
        })
      else {
        promoMessage = L("This car is no longer available for that period.")
        return
      }
      show(same)
      guard let code = code?.uppercased() else {
        promoMessage = nil
        return
      }
      if let reason = same.promoNote {
        promoMessage = L("\(code) does not apply: \(reason)")
      } else if let discount = same.discounts.first {
        promoMessage = L("\(code) applied: \(money.string(discount.amount))")
      }
    }
  }

  private func show(_ offer: CarOffer) {
    self.offer = offer
    lines = offer.lines.map { Line(name: $0.name, amount: money.string($0.amount), isDiscount: $0.isDiscount) }
    total = money.string(offer.total)
  }
}
