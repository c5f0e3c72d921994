import Common
import Foundation
import Reactive

/// One line of a price breakdown.
public struct PriceLine: Hashable, Sendable {
  public var label: String
  public var amount: Money
}

/// The price of a stay, line by line: each night's rate (× rooms), the subtotal, taxes and fees,
/// and the total charged. The lines add up exactly to the total.
public struct PriceBreakdown: Hashable, Sendable {
  public var nights: [PriceLine]
  public var subtotal: Money
  public var taxes: Money
  public var total: Money

  public init(offer: HotelOffer) {
    let rooms = Decimal(offer.rooms)
    let suffix = offer.rooms == 1 ? "" : " × \(offer.rooms) rooms"
    nights = offer.nightlyRates.map { PriceLine(label: L("Night of \($0.date)\(suffix)"), amount: $0.rate * rooms) }
    subtotal = offer.subtotal
    taxes = offer.taxes
    total = offer.total
  }
}

/// The booking flow of one offer: the price breakdown, the guest's name, and the booking.
///
/// Inputs: ``guestNameChanged(_:)``, ``cardSelected(_:)``, ``bookTapped()``. Outputs: ``breakdown``,
/// ``isBookEnabled`` (a valid name — Common's ``PassengerName`` rule —, not while booking or once
/// booked), ``isBooking``, ``validationMessage`` (what is wrong with the guest's name, set when
/// Book is tapped with a name the rule refuses — an empty one too — and updated as the name is
/// typed until it is valid), ``reservation``, ``failure`` and ``errorMessage`` (the service's error
/// and its message in the screen's words),
/// ``newOfferId`` (set when the price changed: the offer to
/// book instead). One idempotency key per flow, so a repeated tap never books twice.
public final class HotelBookingViewModel {
  public let breakdown: PriceBreakdown
  public let cancellationPolicy: String
  @Published public private(set) var isBookEnabled = false
  @Published public private(set) var isBooking = false
  @Published public private(set) var reservation: Reservation?
  @Published public private(set) var errorMessage: String?
  /// The error of the last failed booking (its ``ServiceError/code`` lets a screen word it for the
  /// interactive app: card declined, signed out, …); nil while booking and after a success. Set
  /// just before ``errorMessage``.
  @Published public private(set) var failure: ServiceError?
  @Published public private(set) var newOfferId: String?
  /// What is wrong with the guest's name (see the type's documentation); nothing is sent while set.
  @Published public private(set) var validationMessage: String?

  private let offer: HotelOffer
  private let client: HotelClient
  private let scheduler: AnySchedulerOf<DispatchQueue>
  private let idempotencyKey: String
  @Published private var guestName = ""
  private var cardId: String?
  private var cancellables: Set<AnyCancellable> = []

  /// - Parameter now: the clock: ``cancellationPolicy`` is the rule as it applies when the
  ///   screen opens (after the free-cancellation deadline it says the first night is charged).
  public init(
    offer: HotelOffer, client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>,
    idempotencyKey: String = UUID().uuidString, now: Date = Date()
  ) {
    self.offer = offer
    self.client = client
    self.scheduler = scheduler
    self.idempotencyKey = idempotencyKey
    breakdown = PriceBreakdown(offer: offer)
    let firstNight = offer.nightlyRates.first.map {
      ($0.rate * Decimal(offer.rooms) * (1 + offer.taxRate)).rounded()
    }
    cancellationPolicy = HotelCancellation.summary(
      checkIn: offer.checkIn, timeZone: TimeZone(identifier: offer.timeZone) ?? .gmt, at: now, firstNight: firstNight)
    update()
  }

  public func guestNameChanged(_ name: String) {
    guestName = name
    if validationMessage != nil { validationMessage = guestProblem() }
    update()
  }

  /// The stored card to charge (`card_…`, from the checkout), or nil for the default card.
  public func cardSelected(_ id: String?) { cardId = id }

  public func bookTapped() {
    if let problem = guestProblem() {
      validationMessage = problem
      return
    }
    guard isBookEnabled else { return }
    isBooking = true
    failure = nil
    errorMessage = nil
    update()
    let name = guestName.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    client.book(offer.id, name, cardId, idempotencyKey)
      .receive(on: scheduler)
      .sink(
        receiveCompletion: { [weak self] completion in
          guard let self else { return }
          self.isBooking = false
          if case .failure(let error) = completion {
            self.failure = error
            self.errorMessage = ScreenText.message(for: error)
            if error.code == "price_changed" { self.newOfferId = error.details["offerId"] }
          }
          self.update()
        },
        receiveValue: { [weak self] value in self?.reservation = value }
      )
      .store(in: &cancellables)
  }

  private func update() {
    let enabled = guestProblem() == nil && !isBooking && reservation == nil && newOfferId == nil
    if enabled != isBookEnabled { isBookEnabled = enabled }
  }

  private func guestProblem() -> String? { PassengerName.formProblem(guestName, whose: L("the guest's")) }
}
