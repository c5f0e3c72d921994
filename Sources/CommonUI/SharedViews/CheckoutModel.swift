import Common
import Foundation
import Reactive

/// Who pays for a booking, as the checkout knows it.
public enum CheckoutPayer: Hashable, Sendable {
  /// The session and the cards have not been read yet (until the first
  /// ``CheckoutModel/refresh()`` answers).
  case checking
  /// Nobody is signed in, or the session ended: booking asks to sign in first.
  case signedOut
  /// Signed in; `name` is "Ada Lovelace" (nil when the profile could not be read).
  case signedIn(name: String?)
}

/// The checkout part of a booking screen (hotel, car, flight alike): who is signed in, the cards
/// that can be charged and which one is chosen, and signing in without leaving the booking.
///
/// Inputs: ``refresh()`` (read the session and the cards again), ``cardSelected(_:)``,
/// ``nextCardTapped()`` / ``previousCardTapped()`` (cycle through the cards, wrapping),
/// ``cardFailed(_:)`` (a booking charged this card and it was refused), ``signIn(email:password:)``.
/// Outputs: ``payer``, ``cards`` (the default first), ``selectedCardId`` (after each load: the
/// card the person chose with ``cardSelected(_:)`` or ← → if it is still there and was not just
/// refused, otherwise the default — so a default changed meanwhile is picked up; nil without
/// cards), ``message`` (no card yet
/// and how to add one, a session that ended, a store that failed), ``isSigningIn``,
/// ``signInMessage`` (why the last sign-in failed, e.g. "email or password is wrong"), and
/// ``signedIn``, which emits once per successful sign-in, after the cards are loaded.
///
/// Every ``BookingAccount`` call runs on `backgroundQueue` and its answer is delivered on
/// `mainQueue` (the main queue in an app; one `DispatchQueue.test` for both in tests). A newer
/// refresh drops the answer of an older one.
///
/// ```swift
/// let checkout = CheckoutModel(account: account, mainQueue: .main, backgroundQueue: .global())
/// checkout.refresh()
/// // … later, book with checkout.selectedCardId
/// ```
public final class CheckoutModel {
  /// Who pays: not read yet, signed out, or signed in (with the name).
  @Published public private(set) var payer = CheckoutPayer.checking
  /// The signed-in user's cards, the default first; empty when signed out.
  @Published public private(set) var cards: [PaymentCard] = []
  /// The card to charge (`card_…`): the default after a load, the person's choice after that
  /// (kept by loads while it exists and was not refused since); nil when signed out or without cards.
  @Published public private(set) var selectedCardId: String?
  /// What the checkout has to say: no card yet and how to add one, a session that ended, a store
  /// that failed; nil when all is well.
  @Published public private(set) var message: String?
  /// Whether a sign-in is running (the sheet's button reads "Signing in…").
  @Published public private(set) var isSigningIn = false
  /// Why the last sign-in failed (the service's message, e.g. "email or password is wrong"), or nil.
  @Published public private(set) var signInMessage: String?
  /// Emits after each successful sign-in (the cards already loaded); never fails or finishes.
  public let signedIn: AnyPublisher<Void, Never>

  /// The message shown when the signed-in user has no card.
  public static let noCardMessage =
    "No payment card yet: add one with 'account cards add' (or in travel's Account tab), then press r."

  private let account: BookingAccount
  private let mainQueue: AnySchedulerOf<DispatchQueue>
  private let backgroundQueue: AnySchedulerOf<DispatchQueue>
  private let signedInSubject = PassthroughSubject<Void, Never>()
  private var refreshRequest: AnyCancellable?
  private var signInRequest: AnyCancellable?
  /// Whether ``selectedCardId`` is the person's own choice (``cardSelected(_:)``, ← →), not the
  /// default a load picked.
  private var isChosenByPerson = false
  /// The card a booking just charged and had refused (``cardFailed(_:)``): the next load does not
  /// keep it selected.
  private var failedCardId: String?

  /// A checkout over `account`; nothing is read until ``refresh()``.
  public init(
    account: BookingAccount, mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.account = account
    self.mainQueue = mainQueue
    self.backgroundQueue = backgroundQueue
    signedIn = signedInSubject.eraseToAnyPublisher()
  }

  /// The chosen card, if any.
  public var selectedCard: PaymentCard? { cards.first { $0.id == selectedCardId } }

  /// Whether a booking can be charged now: signed in with a card chosen.
  public var isReadyToPay: Bool {
    if case .signedIn = payer { selectedCardId != nil } else { false }
  }

  // MARK: Inputs

  /// Reads the session and, when signed in, the profile and the cards again (``payer`` keeps its
  /// value until the answer).
  public func refresh() {
    let account = account
    refreshRequest = run { try Self.load(account) }
      .sink { [weak self] result in self?.loaded(result) }
  }

  /// Chooses the card `id` (ignored when it is not one of ``cards``).
  public func cardSelected(_ id: String) {
    guard cards.contains(where: { $0.id == id }), id != selectedCardId else { return }
    selectedCardId = id
    isChosenByPerson = true
  }

  /// A booking charged the card `id` and it was refused (declined, no funds, expired, unknown):
  /// the next load selects the default card instead of keeping this one, even if the person chose
  /// it (the default may have changed meanwhile, e.g. a card added and made the default).
  public func cardFailed(_ id: String) {
    failedCardId = id
  }

  /// Chooses the next card (after the last, the first).
  public func nextCardTapped() { step(1) }

  /// Chooses the previous card (before the first, the last).
  public func previousCardTapped() { step(-1) }

  /// Signs in with an email and password (kept in the session file, so the command line is signed
  /// in too), then loads the cards. A blank email or password is refused here, without asking.
  public func signIn(email: String, password: String) {
    guard !isSigningIn else { return }
    let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !email.isEmpty, !password.isEmpty else {
      signInMessage = "Type your email and your password."
      return
    }
    isSigningIn = true
    signInMessage = nil
    let account = account
    signInRequest = run { () -> Loaded in
      let session = try account.signIn(email, password)
      return try Self.signedIn(account, token: session.token)
    }
    .sink { [weak self] result in
      guard let self else { return }
      self.isSigningIn = false
      switch result {
      case .success(let loaded):
        self.refreshRequest = nil
        self.loaded(.success(loaded))
        self.signedInSubject.send()
      case .failure(let error):
        self.signInMessage = error.message
      }
    }
  }

  // MARK: Work

  /// What one read found.
  enum Loaded {
    case signedOut(message: String?)
    case signedIn(name: String?, cards: [PaymentCard])
  }

  private static func load(_ account: BookingAccount) throws -> Loaded {
    guard let token = try account.token() else { return .signedOut(message: nil) }
    do {
      return try signedIn(account, token: token)
    } catch let error as ServiceError where error.kind == .unauthenticated {
      return .signedOut(message: "Your session has ended: sign in again.")
    }
  }

  private static func signedIn(_ account: BookingAccount, token: String) throws -> Loaded {
    let cards = try account.cards(token)
    let name = (try? account.profile(token)).map { "\($0.firstName) \($0.lastName)" }
    return .signedIn(name: name, cards: cards)
  }

  private func loaded(_ result: Result<Loaded, ServiceError>) {
    switch result {
    case .success(.signedOut(let message)):
      payer = .signedOut
      cards = []
      selectedCardId = nil
      isChosenByPerson = false
      self.message = message
    case .success(.signedIn(let name, let cards)):
      payer = .signedIn(name: name)
      self.cards = cards
      if isChosenByPerson, let selectedCardId, selectedCardId != failedCardId,
        cards.contains(where: { $0.id == selectedCardId })
      {
        // The person's choice stays.
      } else {
        isChosenByPerson = false
        let defaultId = (cards.first { $0.isDefault } ?? cards.first)?.id
        if selectedCardId != defaultId { selectedCardId = defaultId }
      }
      failedCardId = nil
      message = cards.isEmpty ? Self.noCardMessage : nil
    case .failure(let error):
      payer = .signedOut
      cards = []
      selectedCardId = nil
      isChosenByPerson = false
      message = error.message
    }
  }

  private func step(_ offset: Int) {
    guard !cards.isEmpty else { return }
    let index = cards.firstIndex { $0.id == selectedCardId } ?? 0
    let next = cards[(index + offset + cards.count) % cards.count].id
    if next != selectedCardId { selectedCardId = next }
    isChosenByPerson = true
  }

  /// `body` on the background queue, its result (never a failure) on the main queue.
  private func run<T>(_ body: @escaping @Sendable () throws -> T) -> AnyPublisher<Result<T, ServiceError>, Never> {
    ServiceCall.result(on: backgroundQueue, deliverOn: mainQueue, body)
  }
}
