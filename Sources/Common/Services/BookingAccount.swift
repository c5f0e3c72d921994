import Foundation

/// The traveller as a booking screen needs them: who is signed in, a way to sign in without
/// leaving the booking, and the payment cards that can be charged.
///
/// Every feature's booking screen takes one (features never import `Account` or `Backend`); the
/// apps build it with ``live(accounts:cards:dataDirectory:)`` over the same store and session file
/// the command line uses, so signing in here signs in `account whoami` too, and the other way round.
/// Every call may block (a store read, ~100 ms of scrypt for a sign-in): call them off the main
/// thread (CommonUI's `CheckoutModel` does).
public struct BookingAccount: Sendable {
  /// The signed-in user's session token, nil when nobody is signed in.
  /// - Throws: `session_file_unreadable` when the session file is there but unusable.
  public var token: @Sendable () throws -> String?
  /// Signs in with an email and password and keeps the session (the data directory's session
  /// file), returning it.
  /// - Throws: ``ServiceError``: `invalid_credentials` (`.unauthenticated`, "wrong email or
  ///   password"), `too_many_attempts` (`.refused`, with the seconds to wait), `invalid_email`.
  public var signIn: @Sendable (_ email: String, _ password: String) throws -> Session
  /// The cards of the signed-in user, the default one first.
  /// - Throws: `not_signed_in` / `session_expired` (`.unauthenticated`) for a dead token.
  public var cards: @Sendable (_ token: String) throws -> [PaymentCard]
  /// The signed-in user's name and email, to say who is paying.
  /// - Throws: as ``cards``; by default (an account built without it) `profile_unavailable`
  ///   (`.unavailable`), and the checkout then says only "Signed in".
  public var profile: @Sendable (_ token: String) throws -> UserProfile
  /// The signed-in user's preferences (currency prices are shown and charged in, language, …).
  /// - Throws: as ``cards``; by default (an account built without it) `preferences_unavailable`
  ///   (`.unavailable`), and ``preferredCurrency()`` is then nil.
  public var preferences: @Sendable (_ token: String) throws -> Preferences
  /// Ends the session `token` and forgets it (the data directory's session file), so nobody is
  /// signed in. By default (an account built without it) only nothing is done: the caller then
  /// just shows nobody signed in.
  /// - Throws: `session_file_unwritable` when the session file cannot be removed.
  public var signOut: @Sendable (_ token: String) throws -> Void
  /// A stamp that changes whenever who is signed in, or what the account holds (cards, profile,
  /// preferences), may have changed — by this process or another one on the same data directory:
  /// the live account combines the session file's identity (inode, modification time, size) and
  /// the store's change counters (SQLite's `PRAGMA data_version` and this connection's total
  /// changes). Cheap (a `stat` and a pragma): ``AccountSession`` asks it twice a second and reads
  /// the account again only when it changed. Nil means "cannot tell" (read again at every poll).
  public var revision: @Sendable () -> String?
  /// Creates an account (email, password, first and last name) and signs in to it, keeping the
  /// session as ``signIn`` does, so a traveller can book without leaving the booking.
  /// - Throws: ``ServiceError``: `invalid_email`, `password_too_short`, `first_name_missing`,
  ///   `last_name_missing` (`.invalidInput`), `email_taken` (`.refused`); by default (an account
  ///   built without it) `sign_up_unavailable` (`.unavailable`).
  public var signUp:
    @Sendable (_ email: String, _ password: String, _ firstName: String, _ lastName: String) throws -> Session
  /// Adds a card to the signed-in user's account (the user's first card becomes the default).
  /// - Throws: ``ServiceError``: `invalid_card_number`, `card_expired`, `invalid_expiry`,
  ///   `invalid_cvc` (`.invalidInput`); as ``cards`` for a dead token; by default
  ///   `add_card_unavailable` (`.unavailable`).
  public var addCard: @Sendable (_ card: NewPaymentCard, _ token: String) throws -> PaymentCard

  /// An account of these calls; `profile`, `preferences`, `signOut`, `revision`, `signUp` and
  /// `addCard` are optional (see each).
  public init(
    token: @escaping @Sendable () throws -> String?,
    signIn: @escaping @Sendable (_ email: String, _ password: String) throws -> Session,
    cards: @escaping @Sendable (_ token: String) throws -> [PaymentCard],
    profile: @escaping @Sendable (_ token: String) throws -> UserProfile = { _ in
      throw ServiceError(.unavailable, code: "profile_unavailable", message: "the profile is not available here")
    },
    preferences: @escaping @Sendable (_ token: String) throws -> Preferences = { _ in
      throw ServiceError(
        .unavailable, code: "preferences_unavailable", message: "the preferences are not available here")
    },
    signOut: @escaping @Sendable (_ token: String) throws -> Void = { _ in },
    revision: @escaping @Sendable () -> String? = { nil },
    signUp:
      @escaping @Sendable (_ email: String, _ password: String, _ firstName: String, _ lastName: String) throws
      -> Session = { _, _, _, _ in
        throw ServiceError(
          .unavailable, code: "sign_up_unavailable", message: "creating an account is not available here")
      },
    addCard: @escaping @Sendable (_ card: NewPaymentCard, _ token: String) throws -> PaymentCard = { _, _ in
      throw ServiceError(.unavailable, code: "add_card_unavailable", message: "adding a card is not available here")
    }
  ) {
    self.token = token
    self.signIn = signIn
    self.cards = cards
    self.profile = profile
    self.preferences = preferences
    self.signOut = signOut
    self.revision = revision
    self.signUp = signUp
    self.addCard = addCard
  }

  /// The ISO 4217 code of the signed-in user's preferred currency (`EUR`), read now (so a sign-in
  /// or a preference changed meanwhile counts); nil when nobody is signed in or the preferences
  /// cannot be read (the caller then uses its own default, USD for flights). Blocks on a store
  /// read: call it off the main thread.
  public func preferredCurrency() -> String? {
    guard let token = (try? token()) ?? nil else { return nil }
    return try? preferences(token).currencyCode
  }

  /// The account of the data directory `dataDirectory`: the token from its ``SessionFile``, a
  /// sign-in (and a sign-up, which signs in) that writes that file and a sign-out that ends the session and deletes it, the cards
  /// from `cards` with the default one first, the profile and the preferences from `accounts`.
  /// Its ``revision`` is the session file's ``SessionFile/stamp()`` followed by `storeRevision()`
  /// (the store's change counters; nil when the caller has none: then the revision is nil too,
  /// "cannot tell").
  public static func live(
    accounts: any AccountService, cards: any PaymentCardService, dataDirectory: URL,
    storeRevision: (@Sendable () -> String?)? = nil
  ) -> BookingAccount {
    let file = SessionFile(dataDirectory: dataDirectory)
    return BookingAccount(
      token: { try file.read() },
      signIn: { email, password in
        let session = try accounts.signIn(email: email, password: password)
        try file.write(session.token)
        return session
      },
      cards: { token in
        try cards.cards(token: token).sorted { $0.isDefault && !$1.isDefault }
      },
      profile: { token in try accounts.profile(token: token) },
      preferences: { token in try accounts.preferences(token: token) },
      signOut: { token in
        // The session ends on this machine even when the store cannot record it.
        try? accounts.signOut(token: token)
        try file.delete()
      },
      revision: {
        guard let storeRevision, let store = storeRevision() else { return nil }
        return "\(file.stamp()) \(store)"
      },
      signUp: { email, password, firstName, lastName in
        _ = try accounts.signUp(email: email, password: password, firstName: firstName, lastName: lastName)
        let session = try accounts.signIn(email: email, password: password)
        try file.write(session.token)
        return session
      },
      addCard: { card, token in try cards.addCard(card, token: token) })
  }

  /// Nobody signed in, and signing in refused (`sign_in_unavailable`): for previews and for
  /// apps without a store.
  public static let unavailable = BookingAccount(
    token: { nil },
    signIn: { _, _ in
      throw ServiceError(.unavailable, code: "sign_in_unavailable", message: "signing in is not available here")
    },
    cards: { _ in throw ServiceError.notSignedIn })
}

extension PaymentCard {
  /// How a card is named to the person choosing it: `Visa •••• 4242  12/29`, with `(default)`
  /// after the default card.
  public var displayName: String {
    let masked = PaymentCardValidation.masked(brand: PaymentCardValidation.Brand(storedName: brand), last4: last4)
    let expiry = String(format: "%02d/%02d", expiryMonth, expiryYear % 100)
    return "\(masked)  \(expiry)" + (isDefault ? " (default)" : "")
  }
}
