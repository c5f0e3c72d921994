import Common
import Foundation
import Reactive

/// One line of a price breakdown: `Fare (2 adults)`, `$640.00`.
public struct PriceLine: Hashable, Sendable {
  public var label: String
  /// ``money`` formatted for people.
  public var amount: String
  /// The amount, in the currency the offer is priced and charged in, for the shared price
  /// calculator.
  public var money: Money
}

/// An offer's details and the booking flow: passengers, price breakdown, book.
///
/// Inputs: ``passengerNameChanged(_:at:)``, ``cardSelected(_:)``, ``bookTapped()``,
/// ``acceptNewPriceTapped()``.
/// Outputs: ``segmentLines`` (each flight with local times and layovers), ``breakdown`` (fare,
/// taxes and fees, total, in the offer's currency: what booking charges), ``isBookEnabled``,
/// ``validationMessage`` (what is wrong with the first passenger name the name rule refuses, set
/// when Book is tapped with it — an empty one too — and updated as the names are typed until all
/// are valid), ``isBooking``,
/// ``reservation`` (once booked), ``priceChange`` (the new offer when the price rose),
/// ``failure`` and ``errorMessage`` (the service's error and its message: sold out, card declined,
/// not signed in …).
public final class FlightBookingViewModel {
  @Published public private(set) var offer: FlightOffer
  @Published public private(set) var segmentLines: [String] = []
  @Published public private(set) var breakdown: [PriceLine] = []
  @Published public private(set) var isBookEnabled = false
  @Published public private(set) var isBooking = false
  @Published public private(set) var reservation: Reservation?
  @Published public private(set) var priceChange: FlightOffer?
  @Published public private(set) var errorMessage: String?
  /// What is wrong with a passenger's name (see the type's documentation); nothing is sent while set.
  @Published public private(set) var validationMessage: String?
  /// The error of the last failed booking (its ``ServiceError/code`` lets a screen word it for the
  /// interactive app: card declined, signed out, …); nil while booking, after a success and for a price change. Set
  /// just before ``errorMessage``.
  @Published public private(set) var failure: ServiceError?

  private enum Outcome {
    case booked(Reservation)
    case priceChanged(FlightOffer, String)
  }

  private var names: [String]
  /// The card chosen (`card_…`); nil charges the default card.
  private var cardID: String?
  /// One key per booking attempt of this offer, so a retry never books twice.
  private var idempotencyKey = UUID().uuidString
  private let environment: FlightsViewEnvironment
  private let attempts = PassthroughSubject<FlightBookingRequest, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(offer: FlightOffer, environment: FlightsViewEnvironment) {
    self.offer = offer
    self.environment = environment
    names = Array(repeating: "", count: offer.adults)
    let booking = environment.booking
    let flights = environment.flights
    let token = environment.token
    attempts
      .map { request in
        environment.call { () throws -> Outcome in
          guard let booking else {
            throw ServiceError(.unavailable, code: "booking_unavailable", message: L("booking is not available here"))
          }
          guard let token = token() else { throw ServiceError.notSignedIn }
          do {
            return .booked(try booking.book(request, token: token))
          } catch let error as ServiceError where error.code == "price_changed" {
            // The same flights at the new price, with its exact breakdown.
            guard let text = error.details["offerId"], let id = try? FlightOfferID(parsing: text) else { throw error }
            return .priceChanged(try flights.offer(id), ScreenText.message(for: error))
          }
        }
      }
      .switchToLatest()
      .sink { [weak self] result in
        guard let self else { return }
        isBooking = false
        switch result {
        case .success(.booked(let booked)):
          reservation = booked
          errorMessage = nil
        case .success(.priceChanged(let changed, let message)):
          priceChange = changed
          errorMessage = message
        case .failure(let error):
          failure = error
          errorMessage = ScreenText.message(for: error)
        }
        validate()
      }
      .store(in: &cancellables)
    show(offer)
  }

  // MARK: Inputs

  /// `"Given Family"` of passenger `index` (0-based).
  public func passengerNameChanged(_ text: String, at index: Int) {
    guard names.indices.contains(index) else { return }
    names[index] = text
    if validationMessage != nil { validationMessage = namesProblem() }
    validate()
  }

  /// The card to charge (`card_…` from the account's cards); nil charges the default card.
  public func cardSelected(_ id: String?) {
    cardID = id
  }

  public func bookTapped() {
    if let problem = namesProblem() {
      validationMessage = problem
      return
    }
    guard isBookEnabled, let passengers = try? names.map(PassengerName.init(parsing:)) else { return }
    isBooking = true
    failure = nil
    errorMessage = nil
    validate()
    attempts.send(
      FlightBookingRequest(offerID: offer.id, passengers: passengers, cardID: cardID, idempotencyKey: idempotencyKey))
  }

  /// Takes the new price of a `price_changed` answer; the next ``bookTapped()`` books it.
  public func acceptNewPriceTapped() {
    guard let changed = priceChange else { return }
    priceChange = nil
    idempotencyKey = UUID().uuidString
    show(changed)
  }

  // MARK: Outputs

  private func show(_ offer: FlightOffer) {
    self.offer = offer
    var lines: [String] = []
    for itinerary in offer.itineraries {
      for (index, segment) in itinerary.segments.enumerated() {
        let days = segment.arrivalDayOffset
        let mark = days == 0 ? "" : days > 0 ? " +\(days)" : " \(days)"
        lines.append(
          "\(segment.flight)  \(segment.departure.localDate) \(segment.departure.localTimeText) \(segment.from) → "
            + "\(segment.arrival.localTimeText)\(mark) \(segment.to)  \(FlightText.duration(segment.durationMinutes))  "
            + "\(segment.aircraftName ?? segment.aircraft)")
        if index < itinerary.layoverMinutes.count {
          lines.append(L("  connection in \(segment.to): \(FlightText.duration(itinerary.layoverMinutes[index]))"))
        }
      }
    }
    segmentLines = lines
    let fare = offer.fare
    let adults = offer.adults == 1 ? "1 adult" : "\(offer.adults) adults"
    func line(_ label: String, _ money: Money) -> PriceLine {
      PriceLine(label: label, amount: environment.display(money), money: money)
    }
    breakdown = [
      line(L("Fare (\(adults), \(offer.cabin.displayName.lowercased()))"), fare.fare),
      line(L("Taxes and fees"), fare.taxesAndFees),
      line(L("Total"), fare.total),
    ]
    validate()
  }

  /// The first passenger whose name the rule refuses, and why (nil: every name is valid).
  public var firstInvalidPassenger: Int? { names.indices.first { (try? PassengerName(parsing: names[$0])) == nil } }

  private func namesProblem() -> String? {
    guard let index = firstInvalidPassenger else { return nil }
    let whose = names.count == 1 ? "the passenger's" : "passenger \(index + 1)'s"
    return PassengerName.formProblem(names[index], whose: whose, asOn: L("the passport"))
  }

  private func validate() {
    let namesValid = names.allSatisfy { (try? PassengerName(parsing: $0)) != nil }
    isBookEnabled = namesValid && !isBooking && reservation == nil && priceChange == nil
  }
}
