import Common
import Foundation
import Reactive

/// The payment cards screen: list, add, remove, set the default.
///
/// Inputs: ``viewAppeared()``, ``cardsObserved(_:)`` (the cards as the app's session now shows
/// them: a card added or removed anywhere, in another process too), ``addCardSubmitted(number:expiry:cvc:)``,
/// ``removeTapped(id:)``, ``makeDefaultTapped(id:)``.
/// Outputs: ``rows`` (what the list shows: `Visa •••• 4242`, expiry, default mark; the default
/// first), ``errorMessage`` (e.g. "card number is not valid (its last digit does not match the others)", "card expired 09/24",
/// "CVC must be 3 digits for Visa"; nothing is sent to the service then), ``isBusy``, and
/// ``cardsChanged``, which emits after each change the service accepted (so the app's session
/// reads the cards again and every booking screen offers them at once).
///
/// The add form is checked as it is typed (``numberChanged(_:)``, ``expiryChanged(_:)``,
/// ``cvcChanged(_:)``, ``editingEnded(_:)``): ``problems`` says what is wrong with a field once it
/// can be judged — the number when it has as many digits as its brand takes, the expiry at five
/// characters, any field when it is left.
public final class PaymentCardsViewModel {
  /// A field of the add form (the shared card form's: number, expiry, CVC).
  public typealias Field = PaymentCardEntry.Field

  /// One row of the list.
  public struct Row: Hashable, Sendable, Identifiable {
    public var id: String
    /// `Visa •••• 4242`.
    public var title: String
    /// `12/30`.
    public var expiry: String
    public var isDefault: Bool
  }

  private let client: AccountClient
  private let token: String
  private var requests = Set<AnyCancellable>()
  private let changedSubject = PassthroughSubject<Void, Never>()

  @Published public private(set) var rows: [Row] = []
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var isBusy = false
  /// What is wrong with each field of the add form as typed (see the type's documentation).
  @Published public private(set) var problems: [Field: String] = [:]
  /// The add form as typed and judged (the rules every card form shares).
  private var entry = PaymentCardEntry() {
    didSet { if entry.problems != problems { problems = entry.problems } }
  }
  /// Emits after each add, removal or default change the service accepted.
  public var cardsChanged: AnyPublisher<Void, Never> { changedSubject.eraseToAnyPublisher() }

  public init(client: AccountClient, token: String) {
    self.client = client
    self.token = token
  }

  public func viewAppeared() {
    reload()
  }

  /// The card number as typed so far (digits).
  public func numberChanged(_ text: String) { entry.changed(.number, to: text, today: today, calendar: calendar) }

  /// The expiry as typed so far (`MM/YY`).
  public func expiryChanged(_ text: String) { entry.changed(.expiry, to: text, today: today, calendar: calendar) }

  /// The CVC as typed so far.
  public func cvcChanged(_ text: String) { entry.changed(.cvc, to: text, today: today, calendar: calendar) }

  /// The traveller left `field`: its value is judged as it is (an empty one is not).
  public func editingEnded(_ field: Field) { entry.ended(field, today: today, calendar: calendar) }

  /// The add form was opened or closed: nothing typed, nothing to say (also no message left from
  /// the form before).
  public func formReset() {
    entry.reset()
    errorMessage = nil
  }

  /// The first thing to fix in the add form, in the form's order (number, expiry, CVC), with how
  /// many more there are: `Card expired 09/24 (2 more problems: see each field)`; nil when no
  /// field has a problem.
  public var firstProblem: String? { entry.firstProblem }

  private var today: Date { client.environment.now() }
  private var calendar: Calendar { client.environment.calendar }

  /// The cards as the app's session shows them now (the default first or not: they are ordered here).
  public func cardsObserved(_ cards: [PaymentCard]) {
    show(cards)
  }

  /// The user filled in the add-card form. The fields are checked here first (brand, length,
  /// Luhn, expiry through the end of its month in the user's calendar, CVC length).
  public func addCardSubmitted(number: String, expiry: String, cvc: String) {
    // Every field judged as it is, so each says what is wrong with it, not only the first.
    guard let card = entry.submitted(number: number, expiry: expiry, cvc: cvc, today: today, calendar: calendar)
    else {
      errorMessage = entry.firstProblem
      return
    }
    let token = token
    let newCard = card.newPaymentCard
    run { try $0.cards.addCard(newCard, token: token) }
  }

  public func removeTapped(id: String) {
    let token = token
    run { try $0.cards.removeCard(id: id, token: token) }
  }

  public func makeDefaultTapped(id: String) {
    let token = token
    run { try $0.cards.setDefaultCard(id: id, token: token) }
  }

  /// Runs a change, then reloads the list.
  private func run<T>(_ change: @escaping @Sendable (AccountEnvironment) throws -> T) {
    let token = token
    errorMessage = nil
    isBusy = true
    client.perform { environment in
      _ = try change(environment)
      return try environment.cards.cards(token: token)
    }
    .sink(
      receiveCompletion: { [weak self] completion in
        self?.isBusy = false
        if case .failure(let error) = completion { self?.errorMessage = ScreenText.message(for: error) }
      },
      receiveValue: { [weak self] cards in
        self?.show(cards)
        self?.changedSubject.send()
      }
    )
    .store(in: &requests)
  }

  private func reload() {
    let token = token
    isBusy = true
    client.perform { try $0.cards.cards(token: token) }
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isBusy = false
          if case .failure(let error) = completion { self?.errorMessage = ScreenText.message(for: error) }
        },
        receiveValue: { [weak self] cards in self?.show(cards) }
      )
      .store(in: &requests)
  }

  private func show(_ cards: [PaymentCard]) {
    let ordered = cards.filter(\.isDefault) + cards.filter { !$0.isDefault }
    let rows = ordered.map { card in
      Row(
        id: card.id,
        title: PaymentCardValidation.masked(
          brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4),
        expiry: String(format: "%02d/%02d", card.expiryMonth, card.expiryYear % 100), isDefault: card.isDefault)
    }
    if rows != self.rows { self.rows = rows }
  }
}
