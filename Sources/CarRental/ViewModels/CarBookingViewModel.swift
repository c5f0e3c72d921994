import Common
import Foundation
import Reactive

/// Booking one offer: the driver's name, an optional card, then "Book".
///
/// Inputs: ``driverNameChanged(_:)``, ``cardSelected(_:)``, ``bookTapped()``,
/// ``acceptNewPriceTapped()`` (after a price change).
/// Outputs: ``isBookEnabled``, ``isBooking``, ``reservation`` (when booked), ``failure`` and
/// ``errorMessage`` (the service's error and its message), ``validationMessage`` (what is wrong
/// with the driver's name, once Book was tapped with it),
/// ``newPrice`` (when the price rose since the search: book again to accept it).
///
/// One idempotency key per view model: a repeated tap or a retry after a lost answer books once.
public final class CarBookingViewModel {
  @Published public private(set) var isBookEnabled = false
  @Published public private(set) var isBooking = false
  @Published public private(set) var reservation: Reservation?
  @Published public private(set) var errorMessage: String?
  /// The error of the last failed booking (its ``ServiceError/code`` lets a screen word it for the
  /// interactive app: card declined, signed out, …); nil while booking and after a success. Set
  /// just before ``errorMessage``.
  @Published public private(set) var failure: ServiceError?
  @Published public private(set) var newPrice: Money?
  /// What is wrong with the driver's name (the name rule of every booking kind, Common's
  /// ``PassengerName``), set when Book is tapped with a name it refuses and updated as the name is
  /// typed until it is valid (nil). Nothing is sent while it is set.
  @Published public private(set) var validationMessage: String?
  /// The price of the offer now booked once a new price was accepted (nil: the searched one).
  @Published public private(set) var acceptedPrice: Money?

  /// The offer that will be booked (replaced by the new one after a price change is accepted).
  public private(set) var offerID: String
  private var pendingOfferID: String?
  private var driver = ""
  private var cardID: String?
  private let idempotencyKey: String
  private let requests = PassthroughSubject<CarBookingRequest, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(offerID: String, environment: CarRentalViewEnvironment, idempotencyKey: String = UUID().uuidString) {
    self.offerID = offerID
    self.idempotencyKey = idempotencyKey
    let service = environment.service
    requests
      .map { request in environment.call { try service.book(request) } }
      .switchToLatest()
      .sink { [weak self] result in self?.received(result) }
      .store(in: &cancellables)
  }

  /// "Given Family".
  public func driverNameChanged(_ name: String) {
    driver = name.trimmingCharacters(in: .whitespaces)
    if validationMessage != nil { validationMessage = driverProblem() }
    updateEnabled()
  }

  /// A stored card id, or nil for the default card.
  public func cardSelected(_ id: String?) { cardID = id }

  /// Books the offer; with a driver's name the rule refuses, only says why (``validationMessage``).
  public func bookTapped() {
    if let problem = driverProblem() {
      validationMessage = problem
      return
    }
    guard isBookEnabled else { return }
    isBooking = true
    updateEnabled()
    failure = nil
    errorMessage = nil
    requests.send(
      CarBookingRequest(offerID: offerID, driverName: driver, cardID: cardID, idempotencyKey: idempotencyKey))
  }

  /// Takes the new price offered after `price_changed`; the next ``bookTapped()`` books it.
  public func acceptNewPriceTapped() {
    guard let pending = pendingOfferID else { return }
    offerID = pending
    pendingOfferID = nil
    acceptedPrice = newPrice
    newPrice = nil
    failure = nil
    errorMessage = nil
    updateEnabled()
  }

  private func updateEnabled() {
    isBookEnabled = !isBooking && reservation == nil && driverProblem() == nil
  }

  /// The message of the name rule for the driver's name as typed; nil when it is valid.
  /// The rule's verdict in the form's words (the service's message names the command-line option).
  private func driverProblem() -> String? {
    PassengerName.formProblem(driver, whose: L("the driver's"), asOn: L("the licence"))
  }

  private func received(_ result: Result<Reservation, ServiceError>) {
    isBooking = false
    switch result {
    case .success(let booked):
      reservation = booked
    case .failure(let error):
      failure = error
      errorMessage = ScreenText.message(for: error, fields: CarSearchViewModel.fieldNames)
      if error.code == "price_changed", let id = error.details["offerId"], let amount = error.details["price"],
        let currency = error.details["currency"],
        let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
      {
        pendingOfferID = id
        newPrice = Money(amount: value, currency: currency)
      }
    }
    updateEnabled()
  }
}
