import Common
import Foundation
import Reactive

/// The payment cards screen: list, add, remove, set the default.
///
/// Inputs: ``viewAppeared()``, ``cardsObserved(_:)`` (the cards as the app's session now shows
/// them: a card added or removed anywhere, in another process too), ``addCardSubmitted(number:expiry:cvc:)``,
/// ``removeTapped(id:)``, ``makeDefaultTapped(id:)``.
/// Outputs: ``rows`` (what the list shows: `Visa •••• 4242`, expiry, default mark; the default
/// first), ``errorMessage`` (e.g. "card number fails the Luhn check", "card expired 09/24",
/// "CVC must be 3 digits for Visa"; nothing is sent to the service then), ``isBusy``, and
/// ``cardsChanged``, which emits after each change the service accepted (so the app's session
/// reads the cards again and every booking screen offers them at once).
///
/// The add form is checked as it is typed (``numberChanged(_:)``, ``expiryChanged(_:)``,
/// ``cvcChanged(_:)``, ``editingEnded(_:)``): ``problems`` says what is wrong with a field once it
/// can be judged — the number when it has as many digits as its brand takes, the expiry at five
/// characters, any field when it is left.
public final class PaymentCardsViewModel {
  /// A field of the add form.
  public enum Field: Hashable, Sendable, CaseIterable {
    case number, expiry, cvc
  }

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
  private var typed: [Field: String] = [:]
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
  public func numberChanged(_ text: String) {
    typed[.number] = text
    let digits = text.filter(\.isNumber)
    // Judged at the brand's longest length, or at 16 when the brand issues 16 digits (Visa takes
    // 13 too: a 16-digit Visa is not judged at 13).
    let lengths = PaymentCardValidation.brand(of: digits).lengths
    check(
      .number, complete: digits.count >= (lengths.max() ?? 19) || digits.count >= 16 && lengths.contains(digits.count))
    if typed[.cvc] != nil, problems[.cvc] != nil { check(.cvc, complete: true) }
  }

  /// The expiry as typed so far (`MM/YY`).
  public func expiryChanged(_ text: String) {
    typed[.expiry] = text
    check(.expiry, complete: text.trimmingCharacters(in: .whitespaces).count >= 5)
  }

  /// The CVC as typed so far.
  public func cvcChanged(_ text: String) {
    typed[.cvc] = text
    if problems[.cvc] != nil { check(.cvc, complete: true) }
  }

  /// The traveller left `field`: its value is judged as it is (an empty one is not).
  public func editingEnded(_ field: Field) {
    guard let text = typed[field], !text.isEmpty else { return }
    check(field, complete: true)
  }

  /// The add form was opened or closed: nothing typed, nothing to say (also no message left from
  /// the form before).
  public func formReset() {
    typed = [:]
    problems = [:]
    errorMessage = nil
  }

  /// The first thing to fix in the add form, in the form's order (number, expiry, CVC), with how
  /// many more there are: `Card number fails the Luhn check … (2 more problems: see each field)`;
  /// nil when no field has a problem.
  public var firstProblem: String? {
    let found = [Field.number, .expiry, .cvc].compactMap { problems[$0] }
    guard let first = found.first else { return nil }
    let more = found.count - 1
    return more == 0 ? first : "\(first) (\(more) more problem\(more == 1 ? "" : "s"): see each field)"
  }

  /// Judges `field`: a problem when invalid and `complete`; none when valid; an incomplete
  /// invalid value keeps what was said.
  private func check(_ field: Field, complete: Bool) {
    let problem: String?
    do {
      switch field {
      case .number: _ = try PaymentCardValidation.validateNumber(typed[.number] ?? "")
      case .expiry:
        let expiry = try CardExpiry(parsing: typed[.expiry] ?? "")
        try expiry.checkNotExpired(today: client.environment.now(), calendar: client.environment.calendar)
        try expiry.checkNotTooFarAhead(today: client.environment.now(), calendar: client.environment.calendar)
      case .cvc:
        let digits = (typed[.number] ?? "").filter(\.isNumber)
        try PaymentCardValidation.validateCVC(typed[.cvc] ?? "", brand: PaymentCardValidation.brand(of: digits))
      }
      problem = nil
    } catch {
      guard complete else { return }
      problem = ScreenText.message(for: AccountClient.serviceError(error))
    }
    if problems[field] != problem { problems[field] = problem }
  }

  /// The cards as the app's session shows them now (the default first or not: they are ordered here).
  public func cardsObserved(_ cards: [PaymentCard]) {
    show(cards)
  }

  /// The user filled in the add-card form. The fields are checked here first (brand, length,
  /// Luhn, expiry through the end of its month in the user's calendar, CVC length).
  public func addCardSubmitted(number: String, expiry: String, cvc: String) {
    // Every field judged as it is, so each says what is wrong with it, not only the first.
    typed = [.number: number, .expiry: expiry, .cvc: cvc]
    for field in [Field.number, .expiry, .cvc] { check(field, complete: true) }
    if let firstProblem {
      errorMessage = firstProblem
      return
    }
    let card: PaymentCardValidation.ValidatedCard
    do {
      card = try PaymentCardValidation.validate(
        number: number, expiry: expiry, cvc: cvc, today: client.environment.now(),
        calendar: client.environment.calendar)
    } catch {
      errorMessage = ScreenText.message(for: AccountClient.serviceError(error))
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
