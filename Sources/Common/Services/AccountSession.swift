import Foundation
import Reactive

/// The signed-in traveller as ``AccountSession`` read them: the session token, the profile and
/// preferences (nil when they could not be read), and the payment cards, the default one first.
public struct SignedInTraveller: Hashable, Sendable {
  /// The session token (kept in the data directory's ``SessionFile``).
  public var token: String
  public var profile: UserProfile?
  public var preferences: Preferences?
  /// The cards that can be charged, the default first.
  public var cards: [PaymentCard]

  public init(token: String, profile: UserProfile?, preferences: Preferences?, cards: [PaymentCard]) {
    self.token = token
    self.profile = profile
    self.preferences = preferences
    self.cards = cards
  }

  /// "Ada Lovelace", nil when the profile could not be read.
  public var name: String? { profile.map { "\($0.firstName) \($0.lastName)" } }
}

/// Who is signed in, as every part of the interactive app shows it (``AccountSession/state``).
public enum AccountState: Hashable, Sendable {
  /// Not read yet.
  case checking
  /// Nobody is signed in. `reason` says why when it is news to the traveller ("Your session has
  /// ended: sign in again.", a store that cannot be read); nil after a sign-out or when nobody was.
  case signedOut(reason: String?)
  /// Signed in.
  case signedIn(SignedInTraveller)

  /// The traveller when signed in.
  public var traveller: SignedInTraveller? {
    if case .signedIn(let traveller) = self { traveller } else { nil }
  }

  /// The session token when signed in.
  public var token: String? { traveller?.token }
}

/// The one session of an interactive app: who is signed in, their profile, preferences and cards,
/// as one publisher (``state``) that every tab and the header subscribe to — the lesson of the
/// design: one publisher, many subscribers, no part re-reading by hand.
///
/// Everything that changes the account goes through it or tells it: ``signIn(email:password:)``
/// and ``signOut()`` publish the new state as soon as they are done, and a part that changed the
/// cards, profile or preferences itself calls ``refresh()``. Changes made elsewhere (another
/// process on the same data directory: `account login`, `account cards add` in a shell) are
/// noticed by polling the account's ``BookingAccount/revision`` (a `stat` and a pragma) every
/// ``pollInterval`` on `watchQueue`; the account is read again only when the revision changed, so
/// a sign-in in another shell shows within about half a second.
///
/// Reads run on `workQueue` (serial: reads, sign-ins and sign-outs run one after the other, in the
/// order asked), and ``state`` changes on `mainQueue`. An answer older than one already shown is
/// dropped. A value equal to the one shown is not sent again.
///
/// ```swift
/// let session = AccountSession(account: account, mainQueue: .main, workQueue: serialQueue, watchQueue: serialQueue)
/// session.state.sink { state in header.greeting = state.traveller?.name }.store(in: &subscriptions)
/// ```
public final class AccountSession: @unchecked Sendable {
  /// How often the revision is polled for changes made by other processes.
  public static let pollInterval = DispatchQueue.SchedulerTimeType.Stride.milliseconds(500)
  /// The reason shown when a stored session no longer works.
  public static let endedReason = "Your session has ended: sign in again."

  /// The calls the session makes (the live account of the data directory in an app).
  public let account: BookingAccount
  private let subject = CurrentValueSubject<AccountState, Never>(.checking)
  private let mainQueue: AnySchedulerOf<DispatchQueue>
  private let workQueue: AnySchedulerOf<DispatchQueue>
  private let lock = NSLock()
  /// Loads started so far; the number of the last one shown.
  private var started = 0
  private var shown = 0
  /// The revision read before the last load started (nil: none yet).
  private var loadedRevision: String??
  private var poll: Cancellable?
  private var connectionWatch: AnyCancellable?
  /// The connection to the backend, for the header (``ConnectionStatus/embedded`` when the app
  /// opens its own store).
  public let connection: AnyPublisher<ConnectionStatus, Never>

  /// A session over `account`; the first read starts now.
  /// - Parameters:
  ///   - mainQueue: where ``state`` changes (the main queue in an app).
  ///   - workQueue: where the account is called; must be serial (a serial `DispatchQueue` in an
  ///     app; tests pass one `DispatchQueue.test` for both).
  ///   - watchQueue: where the revision is polled every `pollInterval` (nil: no polling — tests
  ///     that drive time by hand pass a scheduler of their own, so `run()` on the others ends).
  ///     Polls run the reads they need on this queue: pass the work queue (or another serial one).
  ///   - connection: the state of the connection to a server (a remote app's ``LiveUpdates/status``);
  ///     each time it is `connected` again after being unreachable, the account is read again (what
  ///     could not be read meanwhile shows). Nil: the embedded backend.
  public init(
    account: BookingAccount, mainQueue: AnySchedulerOf<DispatchQueue>, workQueue: AnySchedulerOf<DispatchQueue>,
    watchQueue: AnySchedulerOf<DispatchQueue>? = nil,
    pollInterval: DispatchQueue.SchedulerTimeType.Stride = pollInterval,
    connection: AnyPublisher<ConnectionStatus, Never>? = nil
  ) {
    self.account = account
    self.mainQueue = mainQueue
    self.workQueue = workQueue
    self.connection = connection ?? Just(.embedded).eraseToAnyPublisher()
    refresh()
    if let connection {
      connectionWatch = connection.scan((wasDown: false, isBack: false)) { last, status in
        switch status {
        case .unreachable: (true, false)
        case .connected: (false, last.wasDown)
        case .connecting, .embedded: (last.wasDown, false)
        }
      }
      .filter(\.isBack)
      .sink { [weak self] _ in self?.refresh() }
    }
    if let watchQueue {
      poll = watchQueue.schedule(
        after: watchQueue.now.advanced(by: pollInterval), interval: pollInterval, tolerance: .milliseconds(50),
        options: nil
      ) { [weak self] in self?.pollOnce() }
    }
  }

  deinit {
    poll?.cancel()
    connectionWatch?.cancel()
  }

  /// A session of nobody that cannot sign in (``BookingAccount/unavailable``), for previews and
  /// tests of screens that do not book.
  public static func unavailable(mainQueue: AnySchedulerOf<DispatchQueue>) -> AccountSession {
    AccountSession(account: .unavailable, mainQueue: mainQueue, workQueue: mainQueue)
  }

  // MARK: Outputs

  /// Who is signed in: the current state at once on subscription, then each change, on the main
  /// queue. Never fails or finishes.
  public var state: AnyPublisher<AccountState, Never> { subject.eraseToAnyPublisher() }

  /// The state now (read it on the main queue).
  public var current: AccountState { subject.value }

  /// The header's greeting: "Welcome, Ada Lovelace" while signed in (nil signed out or before the
  /// profile is known), in the traveller's language when its strings are there.
  public var greeting: AnyPublisher<String?, Never> {
    subject.map { state -> String? in
      guard let profile = state.traveller?.profile else { return nil }
      let language = state.traveller?.preferences.flatMap { Strings.Language(tag: $0.language) } ?? .english
      return Strings(language).welcome(firstName: profile.firstName, lastName: profile.lastName)
    }
    .removeDuplicates()
    .eraseToAnyPublisher()
  }

  /// The signed-in traveller's appearance preference (nil while nobody is signed in).
  public var appearance: AnyPublisher<Appearance?, Never> {
    subject.map { $0.traveller?.preferences?.appearance }.removeDuplicates().eraseToAnyPublisher()
  }

  // MARK: Inputs

  /// Reads the session and the account again now (someone in this process changed the cards,
  /// the profile or the preferences; or the traveller asked).
  public func refresh() {
    let number = begin()
    workQueue.schedule { [weak self] in
      guard let self else { return }
      let revision = account.revision()
      let state = Self.load(account)
      deliver(state, number: number, revision: revision)
    }
  }

  /// Signs in with an email and password (the live account keeps the session in the data
  /// directory's session file, so the command line is signed in too), reads the account, shows it
  /// on ``state``, then sends the new session and finishes.
  /// - Returns: the session, or the sign-in's ``ServiceError`` (`invalid_credentials`,
  ///   `too_many_attempts`, …), on the main queue.
  public func signIn(email: String, password: String) -> AnyPublisher<Session, ServiceError> {
    let account = account
    return changing { try account.signIn(email, password) }
  }

  /// Creates an account and signs in to it (``BookingAccount/signUp``), reads the account, shows
  /// it on ``state``, then sends the new session and finishes.
  /// - Returns: the session, or the sign-up's ``ServiceError`` (`invalid_email`,
  ///   `password_too_short`, `first_name_missing`, `last_name_missing`, `email_taken`, …), on the
  ///   main queue.
  public func signUp(email: String, password: String, firstName: String, lastName: String)
    -> AnyPublisher<Session, ServiceError>
  {
    let account = account
    return changing { try account.signUp(email, password, firstName, lastName) }
  }

  /// Adds `card` to the signed-in traveller's account (``BookingAccount/addCard``), reads the
  /// account again and shows it on ``state`` (every booking screen offers the card at once), then
  /// sends the card and finishes.
  /// - Returns: the card as stored, or a ``ServiceError``: `not_signed_in` when nobody is signed
  ///   in, else the service's (`invalid_card_number`, `card_expired`, …), on the main queue.
  public func addCard(_ card: NewPaymentCard) -> AnyPublisher<PaymentCard, ServiceError> {
    let account = account
    guard let token = current.token else { return Fail(error: ServiceError.notSignedIn).eraseToAnyPublisher() }
    return changing { try account.addCard(card, token) }
  }

  /// Runs `change` on the work queue, then reads the account and shows it on ``state`` before the
  /// change's result is sent (on the main queue).
  private func changing<Output>(_ change: @escaping @Sendable () throws -> Output)
    -> AnyPublisher<Output, ServiceError>
  {
    let account = account
    let number = begin()
    return ServiceCall.publisher { () -> (Output, AccountState, String?) in
      let output = try change()
      let revision = account.revision()
      return (output, Self.load(account), revision)
    }
    .subscribe(on: workQueue)
    .receive(on: mainQueue)
    .handleEvents(receiveOutput: { [weak self] _, state, revision in
      self?.show(state, number: number, revision: revision)
    })
    .map(\.0)
    .eraseToAnyPublisher()
  }

  /// Signs out: ends the session and forgets it, then shows nobody signed in.
  public func signOut() {
    let number = begin()
    let token = current.token
    workQueue.schedule { [weak self] in
      guard let self else { return }
      if let token { try? account.signOut(token) }
      let revision = account.revision()
      deliver(.signedOut(reason: nil), number: number, revision: revision)
    }
  }

  // MARK: Work

  /// What the account says now.
  static func load(_ account: BookingAccount) -> AccountState {
    do {
      guard let token = try account.token() else { return .signedOut(reason: nil) }
      let cards: [PaymentCard]
      do {
        cards = try account.cards(token)
      } catch let error as ServiceError where error.kind == .unauthenticated {
        return .signedOut(reason: endedReason)
      }
      let ordered = cards.filter(\.isDefault) + cards.filter { !$0.isDefault }
      return .signedIn(
        SignedInTraveller(
          token: token, profile: try? account.profile(token), preferences: try? account.preferences(token),
          cards: ordered))
    } catch {
      return .signedOut(reason: ServiceError(wrapping: error).message)
    }
  }

  private func begin() -> Int {
    lock.withLock {
      started += 1
      return started
    }
  }

  /// On the watch queue: reads the account again when its revision changed since the last read.
  private func pollOnce() {
    let revision = account.revision()
    let unchanged = lock.withLock { revision != nil && loadedRevision == .some(revision) }
    guard !unchanged else { return }
    let number = begin()
    deliver(Self.load(account), number: number, revision: revision)
  }

  /// Records the revision the load read and shows its state on the main queue.
  private func deliver(_ state: AccountState, number: Int, revision: String?) {
    lock.withLock { loadedRevision = .some(revision) }
    mainQueue.schedule { [weak self] in self?.show(state, number: number, revision: revision) }
  }

  /// On the main queue: shows `state` unless a newer load was shown already.
  private func show(_ state: AccountState, number: Int, revision: String?) {
    let isNewest = lock.withLock { () -> Bool in
      guard number > shown else { return false }
      shown = number
      loadedRevision = .some(revision)
      return true
    }
    guard isNewest, state != subject.value else { return }
    subject.send(state)
  }
}
