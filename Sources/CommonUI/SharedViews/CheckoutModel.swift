import Common
import Foundation
import Reactive

/// Who pays for a booking, as the checkout knows it.
public enum CheckoutPayer: Hashable, Sendable {
  /// The session and the cards have not been read yet (until the session's first read answers).
  case checking
  /// Nobody is signed in, or the session ended: booking asks to sign in first.
  case signedOut
  /// Signed in; `name` is "Ada Lovelace" (nil when the profile could not be read).
  case signedIn(name: String?)
}

/// The checkout part of a booking screen (hotel, car, flight alike): who is signed in, the cards
/// that can be charged and which one is chosen, and signing in without leaving the booking.
///
/// It observes the app's one ``AccountSession``: a sign-in or sign-out anywhere (the sheet, the
/// Account tab, another process on the same data directory) and a card added or removed anywhere
/// show here as soon as the session publishes them — nothing is re-read by hand.
///
/// Inputs: ``refresh()`` (asks the session to read the account again now; never needed, kept for
/// the `r` key), ``cardSelected(_:)``, ``nextCardTapped()`` / ``previousCardTapped()`` (cycle
/// through the cards, wrapping), ``signIn(email:password:)``, ``signUp(email:password:firstName:lastName:)``
/// (an account made without leaving the booking), and the add-card form's
/// ``cardFieldChanged(_:to:)``, ``cardFieldEnded(_:)``, ``addCard(number:expiry:cvc:)``.
/// Outputs: ``payer``, ``cards`` (the default first), ``selectedCardId`` (after each change of the
/// cards: the card the person chose with ``cardSelected(_:)`` or ← → while it is still there —
/// also after a booking charged it and it was refused: the traveller's choice is theirs to change;
/// otherwise the default, so a default changed meanwhile is picked up; nil without cards),
/// ``message`` (no card yet and how to add one; the card chosen is gone and which default card is
/// charged instead; a session that ended; a store that failed), ``isSigningIn``, ``signInMessage`` (why the last sign-in failed, e.g. "Email or
/// password is wrong"), and ``signedIn``, which emits once per successful sign-in made here, after
/// the cards are loaded; for the add-card form ``cardProblems`` (each field as typed, the rules of
/// ``PaymentCardEntry``), ``isAddingCard``, ``addCardMessage`` and ``cardAdded`` (the card is on the
/// account and chosen).
///
/// ```swift
/// let checkout = CheckoutModel(session: session)
/// // … later, book with checkout.selectedCardId
/// ```
public final class CheckoutModel {
  /// Who pays: not read yet, signed out, or signed in (with the name).
  @Published public private(set) var payer = CheckoutPayer.checking
  /// The signed-in user's cards, the default first; empty when signed out.
  @Published public private(set) var cards: [PaymentCard] = []
  /// The card to charge (`card_…`): the default after a change of the cards, the person's choice
  /// after that (kept while it exists, refused or not); nil when signed out or without cards.
  @Published public private(set) var selectedCardId: String?
  /// What the checkout has to say: no card yet and how to add one, the chosen card gone and the
  /// default charged instead (``defaultCardMessage(_:)``), a session that ended, a store that
  /// failed; nil when all is well.
  @Published public private(set) var message: String?
  /// Whether a sign-in is running (the sheet's button reads "Signing in…").
  @Published public private(set) var isSigningIn = false
  /// Why the last sign-in failed (in the app's words, e.g. "Email or password is wrong"), or nil.
  @Published public private(set) var signInMessage: String?
  /// Emits after each successful sign-in made here (the cards already loaded); never fails or
  /// finishes.
  public let signedIn: AnyPublisher<Void, Never>
  /// What is wrong with each field of the add-card form as typed (``PaymentCardEntry``).
  @Published public private(set) var cardProblems: [PaymentCardEntry.Field: String] = [:]
  /// Whether a card is being added (the sheet's button reads "Adding…").
  @Published public private(set) var isAddingCard = false
  /// Why the last card could not be added (the first field to fix, or the service's answer).
  @Published public private(set) var addCardMessage: String?
  /// Emits the card after each card added here, once the account shows it (it is then the card
  /// chosen); never fails or finishes.
  public var cardAdded: AnyPublisher<PaymentCard, Never> { cardAddedSubject.eraseToAnyPublisher() }

  /// The message shown when the signed-in user has no card.
  public static let noCardMessage = "No payment card yet: press a (or Book) to add one; it is saved to your account."

  /// The message shown when the card the person chose is no longer on the account (removed in the
  /// Account tab or a shell) and `card`, the default, is charged instead.
  public static func defaultCardMessage(_ card: PaymentCard) -> String {
    let name = PaymentCardValidation.masked(
      brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4)
    return L(
      "The card you chose is no longer on your account: your default card, \(name), will be charged "
        + "(← → another card).")
  }

  /// The session observed.
  public let session: AccountSession
  private let signedInSubject = PassthroughSubject<Void, Never>()
  private var stateSubscription: AnyCancellable?
  private var signInRequest: AnyCancellable?
  private var addCardRequest: AnyCancellable?
  private let cardAddedSubject = PassthroughSubject<PaymentCard, Never>()
  private var cardEntry = PaymentCardEntry() {
    didSet { if cardEntry.problems != cardProblems { cardProblems = cardEntry.problems } }
  }
  /// The clock and calendar that judge a card's expiry.
  private let now: @Sendable () -> Date
  private let calendar: Calendar
  /// Whether ``selectedCardId`` is the person's own choice (``cardSelected(_:)``, ← →), not the
  /// default a load picked.
  private var isChosenByPerson = false
  /// The last ``defaultCardMessage(_:)`` shown (kept while the default it names stays charged).
  private var fallbackMessage: String?

  /// A checkout observing `session` (its state shows at once); `now` and `calendar` judge the
  /// expiry of a card added here (the app's clock and the traveller's calendar).
  public init(session: AccountSession, now: @escaping @Sendable () -> Date = Date.init, calendar: Calendar = .current) {
    self.session = session
    self.now = now
    self.calendar = calendar
    signedIn = signedInSubject.eraseToAnyPublisher()
    stateSubscription = session.state.sink { [weak self] state in self?.show(state) }
  }

  /// A checkout over a session of its own on `account` (tests and previews; an app shares one
  /// session between every screen). The session's first read runs on `backgroundQueue`.
  public convenience init(
    account: BookingAccount, mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.init(session: AccountSession(account: account, mainQueue: mainQueue, workQueue: backgroundQueue))
  }

  /// The chosen card, if any.
  public var selectedCard: PaymentCard? { cards.first { $0.id == selectedCardId } }

  /// Whether a booking can be charged now: signed in with a card chosen.
  public var isReadyToPay: Bool {
    if case .signedIn = payer { selectedCardId != nil } else { false }
  }

  // MARK: Inputs

  /// Asks the session to read the session and the cards again now (``payer`` keeps its value
  /// until the answer; an unchanged answer changes nothing).
  public func refresh() {
    session.refresh()
  }

  /// Chooses the card `id` (ignored when it is not one of ``cards``).
  public func cardSelected(_ id: String) {
    guard cards.contains(where: { $0.id == id }), id != selectedCardId else { return }
    selectedCardId = id
    choseByPerson()
  }

  /// Chooses the next card (after the last, the first).
  public func nextCardTapped() { step(1) }

  /// Chooses the previous card (before the first, the last).
  public func previousCardTapped() { step(-1) }

  /// Signs in with an email and password through the session (kept in the session file, so the
  /// command line and every tab are signed in too). A blank email or password is refused here,
  /// without asking.
  public func signIn(email: String, password: String) {
    guard !isSigningIn else { return }
    let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !email.isEmpty, !password.isEmpty else {
      signInMessage = L("Type your email and your password.")
      return
    }
    authenticate(session.signIn(email: email, password: password))
  }

  /// Creates an account and signs in to it through the session, without leaving the booking (the
  /// session file is written, so every tab and the command line are signed in too). Blank fields
  /// are refused here, naming the first; the service checks the rest (`invalid_email`,
  /// `password_too_short`, `email_taken`, in ``signInMessage``). Uses ``isSigningIn`` and
  /// ``signedIn`` as a sign-in does.
  public func signUp(email: String, password: String, firstName: String, lastName: String) {
    guard !isSigningIn else { return }
    let trimmed = [firstName, lastName, email].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    let blank = zip(["your first name", "your last name", "your email", "a password"], trimmed + [password])
      .first { $0.1.isEmpty }
    if let blank {
      signInMessage = "Type \(blank.0)."
      return
    }
    authenticate(session.signUp(email: trimmed[2], password: password, firstName: trimmed[0], lastName: trimmed[1]))
  }

  /// The add-card form's `field` now reads `text` (judged as ``PaymentCardEntry`` does).
  public func cardFieldChanged(_ field: PaymentCardEntry.Field, to text: String) {
    cardEntry.changed(field, to: text, today: now(), calendar: calendar)
  }

  /// The traveller left the add-card form's `field`.
  public func cardFieldEnded(_ field: PaymentCardEntry.Field) {
    cardEntry.ended(field, today: now(), calendar: calendar)
  }

  /// The add-card form opened or closed: nothing typed, nothing to say.
  public func cardFormReset() {
    cardEntry.reset()
    addCardMessage = nil
  }

  /// Adds the card typed in the form to the signed-in account through the session: every field is
  /// judged first (``cardProblems``, the first in ``addCardMessage``, nothing sent); the service's
  /// refusal shows in ``addCardMessage``. Once the account shows the card it is chosen and
  /// ``cardAdded`` emits.
  public func addCard(number: String, expiry: String, cvc: String) {
    guard !isAddingCard else { return }
    guard let card = cardEntry.submitted(number: number, expiry: expiry, cvc: cvc, today: now(), calendar: calendar)
    else {
      addCardMessage = cardEntry.firstProblem
      return
    }
    isAddingCard = true
    addCardMessage = nil
    addCardRequest = session.addCard(card.newPaymentCard)
      .sink(
        receiveCompletion: { [weak self] completion in
          guard let self else { return }
          self.isAddingCard = false
          if case .failure(let error) = completion { self.addCardMessage = ScreenText.message(for: error) }
        },
        receiveValue: { [weak self] added in
          guard let self else { return }
          self.cardSelected(added.id)
          self.cardEntry.reset()
          self.cardAddedSubject.send(added)
        })
  }

  /// Runs a sign-in or sign-up: ``isSigningIn`` while it runs, ``signInMessage`` if it fails,
  /// ``signedIn`` once the account is read.
  private func authenticate(_ call: AnyPublisher<Session, ServiceError>) {
    isSigningIn = true
    signInMessage = nil
    signInRequest =
      call
      .sink(
        receiveCompletion: { [weak self] completion in
          guard let self else { return }
          self.isSigningIn = false
          if case .failure(let error) = completion { self.signInMessage = ScreenText.message(for: error) }
        },
        receiveValue: { [weak self] _ in self?.signedInSubject.send() })
  }

  // MARK: State

  private func show(_ state: AccountState) {
    switch state {
    case .checking:
      if payer != .checking { payer = .checking }
    case .signedOut(let reason):
      if payer != .signedOut { payer = .signedOut }
      if !cards.isEmpty { cards = [] }
      if selectedCardId != nil { selectedCardId = nil }
      isChosenByPerson = false
      fallbackMessage = nil
      if message != reason { message = reason }
    case .signedIn(let traveller):
      let payer = CheckoutPayer.signedIn(name: traveller.name)
      if self.payer != payer { self.payer = payer }
      if cards != traveller.cards { cards = traveller.cards }
      let cards = traveller.cards
      var message = cards.isEmpty ? Self.noCardMessage : nil
      if isChosenByPerson, let selectedCardId, cards.contains(where: { $0.id == selectedCardId }) {
        // The person's choice stays, even after it was refused: theirs to change.
        if self.message == fallbackMessage { message = fallbackMessage }
      } else {
        let defaultCard = cards.first { $0.isDefault } ?? cards.first
        if isChosenByPerson, let defaultCard {
          // The card chosen is gone: say which card is charged now.
          fallbackMessage = Self.defaultCardMessage(defaultCard)
          message = fallbackMessage
        } else if self.message == fallbackMessage, fallbackMessage != nil, let defaultCard,
          defaultCard.id == selectedCardId
        {
          message = fallbackMessage
        }
        isChosenByPerson = false
        if selectedCardId != defaultCard?.id { selectedCardId = defaultCard?.id }
      }
      if self.message != message { self.message = message }
    }
  }

  private func step(_ offset: Int) {
    guard !cards.isEmpty else { return }
    let index = cards.firstIndex { $0.id == selectedCardId } ?? 0
    let next = cards[(index + offset + cards.count) % cards.count].id
    if next != selectedCardId { selectedCardId = next }
    choseByPerson()
  }

  /// The person chose a card: a note about the default charged instead no longer applies.
  private func choseByPerson() {
    isChosenByPerson = true
    if message != nil, message == fallbackMessage { message = nil }
    fallbackMessage = nil
  }
}
