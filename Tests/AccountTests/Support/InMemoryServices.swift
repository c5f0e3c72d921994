import Common
import Foundation
import Reactive

@testable import Account

/// Where a test keeps the session token (the session file of an app).
final class TokenBox: @unchecked Sendable {
  var token: String?
}

/// In-memory account, card and reservation services with the behaviour the protocols document
/// (errors, isolation between users, first card default), for the feature's tests.
final class InMemoryServices: AccountService, PaymentCardService, ReservationService, @unchecked Sendable {
  struct User {
    var profile: UserProfile
    var password: String
    var preferences = Preferences.standard
    var cards: [PaymentCard] = []
    var reservations: [Reservation] = []
  }

  private let lock = NSLock()
  private var users: [String: User] = [:]  // by email
  private var sessions: [String: (email: String, expiresAt: Date)] = [:]
  private var nextID = 1
  /// Every card number the service was given (to check the CLI passes the digits only).
  private(set) var receivedNumbers: [String] = []
  /// Calls of ``updateProfile(_:token:)``.
  private(set) var profileUpdates: [UserProfile] = []
  var now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30

  func environment() -> AccountEnvironment.Factory {
    let environment = accountEnvironment()
    return { _ in environment }
  }

  /// These services, the clock at ``now`` and a UTC calendar.
  func accountEnvironment() -> AccountEnvironment {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return AccountEnvironment(
      accounts: self, cards: self, reservations: self, now: { [unowned self] in self.now }, calendar: calendar)
  }

  /// A client delivering on `scheduler`.
  func client(_ scheduler: TestSchedulerOf<DispatchQueue>) -> AccountClient {
    AccountClient(environment: accountEnvironment(), scheduler: scheduler.eraseToAnyScheduler())
  }

  /// The session's calls over these services, the token kept in `box` (as the session file keeps
  /// it); each change bumps the revision.
  func bookingAccount(_ box: TokenBox) -> BookingAccount {
    BookingAccount(
      token: { box.token },
      signIn: { [unowned self] email, password in
        let session = try signIn(email: email, password: password)
        box.token = session.token
        return session
      },
      cards: { [unowned self] token in try cards(token: token) },
      profile: { [unowned self] token in try profile(token: token) },
      preferences: { [unowned self] token in try preferences(token: token) },
      signOut: { [unowned self] token in
        try? signOut(token: token)
        box.token = nil
      },
      revision: { nil })
  }

  /// Signs up and signs in Ada; returns her token.
  func signedInAda() throws -> String {
    _ = try signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "Lovelace")
    return try signIn(email: "ada@example.com", password: "correct horse").token
  }

  private func user(_ token: String) throws -> String {
    guard let session = sessions[token] else { throw ServiceError.notSignedIn }
    guard session.expiresAt > now else {
      throw ServiceError(.unauthenticated, code: "session_expired", message: "session expired: sign in again")
    }
    return session.email
  }

  private func makeID(_ prefix: String) -> String {
    defer { nextID += 1 }
    return "\(prefix)_\(nextID)"
  }

  // MARK: AccountService

  func signUp(email: String, password: String, firstName: String, lastName: String) throws -> UserProfile {
    try lock.withLock {
      let email = try SignUpRules.email(email)
      try SignUpRules.checkPassword(password)
      guard users[email] == nil else { throw ServiceError.refused("email_taken", "an account already uses \(email)") }
      let profile = UserProfile(firstName: firstName, lastName: lastName, email: email)
      users[email] = User(profile: profile, password: password)
      return profile
    }
  }

  func signIn(email: String, password: String) throws -> Session {
    try lock.withLock {
      guard let user = users[email.lowercased()], user.password == password else {
        throw ServiceError(.unauthenticated, code: "invalid_credentials", message: "email or password is wrong")
      }
      let token = makeID("token")
      let session = Session(token: token, expiresAt: now.addingTimeInterval(30 * 86_400))
      sessions[token] = (user.profile.email, session.expiresAt)
      return session
    }
  }

  func signOut(token: String) throws {
    lock.withLock { _ = sessions.removeValue(forKey: token) }
  }

  func session(token: String) throws -> Session {
    try lock.withLock {
      _ = try user(token)
      return Session(token: token, expiresAt: sessions[token]!.expiresAt)
    }
  }

  /// Makes the session of `token` expire.
  func expire(token: String) {
    lock.withLock { sessions[token]?.expiresAt = now.addingTimeInterval(-1) }
  }

  func profile(token: String) throws -> UserProfile {
    try lock.withLock { users[try user(token)]!.profile }
  }

  func updateProfile(_ profile: UserProfile, token: String) throws -> UserProfile {
    try lock.withLock {
      let email = try user(token)
      profileUpdates.append(profile)
      users[email]!.profile.firstName = profile.firstName
      users[email]!.profile.lastName = profile.lastName
      return users[email]!.profile
    }
  }

  func preferences(token: String) throws -> Preferences {
    try lock.withLock { users[try user(token)]!.preferences }
  }

  func updatePreferences(_ preferences: Preferences, token: String) throws -> Preferences {
    try lock.withLock {
      let email = try user(token)
      users[email]!.preferences = preferences
      return preferences
    }
  }

  // MARK: PaymentCardService

  func cards(token: String) throws -> [PaymentCard] {
    try lock.withLock { users[try user(token)]!.cards.sorted { $0.isDefault && !$1.isDefault } }
  }

  func addCard(_ card: NewPaymentCard, token: String) throws -> PaymentCard {
    try lock.withLock {
      let email = try user(token)
      receivedNumbers.append(card.number)
      let brand = PaymentCardValidation.brand(of: card.number)
      let stored = PaymentCard(
        id: makeID("card"), brand: brand.rawValue, last4: String(card.number.suffix(4)),
        expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, isDefault: users[email]!.cards.isEmpty)
      users[email]!.cards.append(stored)
      return stored
    }
  }

  func removeCard(id: String, token: String) throws {
    try lock.withLock {
      let email = try user(token)
      guard let index = users[email]!.cards.firstIndex(where: { $0.id == id }) else { throw Self.cardNotFound(id) }
      let removed = users[email]!.cards.remove(at: index)
      if removed.isDefault, !users[email]!.cards.isEmpty {
        users[email]!.cards[users[email]!.cards.count - 1].isDefault = true
      }
    }
  }

  func setDefaultCard(id: String, token: String) throws -> PaymentCard {
    try lock.withLock {
      let email = try user(token)
      guard users[email]!.cards.contains(where: { $0.id == id }) else { throw Self.cardNotFound(id) }
      for index in users[email]!.cards.indices {
        users[email]!.cards[index].isDefault = users[email]!.cards[index].id == id
      }
      return users[email]!.cards.first { $0.id == id }!
    }
  }

  static func cardNotFound(_ id: String) -> ServiceError {
    ServiceError(.notFound, code: "card_not_found", message: "no card \"\(id)\": see 'account cards list'")
  }

  // MARK: ReservationService

  /// Adds a reservation for the user of `email` (what a booking feature would do).
  @discardableResult
  func addReservation(
    email: String, kind: ReservationKind = .flight, summary: String, createdAt: Date, startsAt: Date? = nil,
    endsAt: Date? = nil, total: Money = Money(amount: 100, currency: "USD")
  ) -> Reservation {
    lock.withLock {
      let reservation = Reservation(
        id: makeID("res"), kind: kind, status: .confirmed, total: total, createdAt: createdAt, summary: summary,
        locator: "ABC123", startsAt: startsAt, endsAt: endsAt)
      users[email]!.reservations.append(reservation)
      return reservation
    }
  }

  /// Adds `details` to reservation `id` (any user's); returns it.
  @discardableResult
  func setDetails(_ id: String, _ details: [String: JSONValue]) -> Reservation {
    lock.withLock {
      for email in users.keys {
        guard let index = users[email]!.reservations.firstIndex(where: { $0.id == id }) else { continue }
        users[email]!.reservations[index].details.merge(details) { _, new in new }
        return users[email]!.reservations[index]
      }
      preconditionFailure("no reservation \(id)")
    }
  }

  func reservations(token: String) throws -> [Reservation] {
    try lock.withLock { users[try user(token)]!.reservations }
  }

  func reservation(id: String, token: String) throws -> Reservation {
    try lock.withLock {
      guard let found = users[try user(token)]!.reservations.first(where: { $0.id == id }) else {
        throw Self.reservationNotFound(id)
      }
      return found
    }
  }

  /// What cancelling refunds (the kind's rule in a real backend): a fee taken from a reservation
  /// whose `"testFee"` detail names one (an amount string), else the whole total; the deadline is
  /// its start.
  private func quote(_ reservation: Reservation) -> CancellationQuote {
    let fee =
      reservation.details["testFee"]?.stringValue.flatMap { Decimal(string: $0) }.map {
        Money(amount: $0, currency: reservation.total.currencyCode)
      } ?? Money.zero(reservation.total.currencyCode)
    var card: String?
    if case .object(let payment)? = reservation.details["payment"] { card = payment["card"]?.stringValue }
    return CancellationQuote(
      reservationId: reservation.id, total: reservation.total, fee: fee, refund: reservation.total - fee,
      deadline: reservation.startsAt, timeZone: reservation.startTimeZone?.identifier,
      rule: fee.amount > 0 ? .hotelFirstNightCharged : .hotelFree, policy: "test rule", card: card, quotedAt: now)
  }

  func cancellationQuote(id: String, token: String) throws -> CancellationQuote {
    let reservation = try self.reservation(id: id, token: token)
    guard reservation.status == .confirmed else {
      throw ServiceError.refused("already_cancelled", "reservation \(id) is already cancelled")
    }
    return lock.withLock { quote(reservation) }
  }

  func cancelReservation(id: String, token: String, accepting accepted: CancellationQuote?) throws -> Reservation {
    try lock.withLock {
      let email = try user(token)
      guard let index = users[email]!.reservations.firstIndex(where: { $0.id == id }) else {
        throw Self.reservationNotFound(id)
      }
      guard users[email]!.reservations[index].status == .confirmed else {
        throw ServiceError.refused("already_cancelled", "reservation \(id) is already cancelled")
      }
      let terms = quote(users[email]!.reservations[index])
      if let accepted, accepted.refund != terms.refund {
        throw ServiceError.refused("cancellation_terms_changed", "the terms changed")
      }
      users[email]!.reservations[index].status = .cancelled
      users[email]!.reservations[index].cancelledAt = now
      users[email]!.reservations[index].refunded = terms.refund
      return users[email]!.reservations[index]
    }
  }

  static func reservationNotFound(_ id: String) -> ServiceError {
    ServiceError(
      .notFound, code: "reservation_not_found", message: "no reservation \"\(id)\": see 'account trips list'")
  }
}
