import Common
import Foundation
import Synchronization

/// What a feature asks the ledger to book. The inventory part (seats, rooms, cars) is the
/// `take` closure given to ``ReservationLedger/book(_:take:)``.
public struct BookingRequest: Sendable {
  /// The signed-in user's session token.
  public var token: String
  public var kind: ReservationKind
  /// The card to charge; `nil` charges the user's default card.
  public var cardID: String?
  /// A retry with the same key (for the same user) returns the first reservation, charged once.
  public var idempotencyKey: String?
  /// The amount charged (rounded to the currency's minor units), in a known ISO 4217 currency.
  public var total: Money
  /// One line for trip lists.
  public var summary: String
  /// When the trip begins and ends (UTC instants), if the kind has them.
  public var startsAt: Date?
  public var endsAt: Date?
  /// The kind's own fields, stored as JSON and given back in ``Reservation/details``.
  public var details: [String: JSONValue]
  /// What the caller asked for, field by field as given (the offer id, the traveller names,
  /// `--allow-duplicate`, …): with the kind and the card it makes the request's
  /// ``fingerprint``, kept with the idempotency key. `nil` uses the summary and the total.
  public var requestFields: [String: String]?

  /// What identifies the request for its idempotency key (``BookingFingerprint``): a retry whose
  /// fingerprint differs is refused (`idempotency_key_reused`, naming the fields that differ).
  public var fingerprint: BookingFingerprint {
    BookingFingerprint(kind: kind, cardID: cardID, fields: requestFields ?? ["summary": summary, "total": "\(total)"])
  }

  public init(
    token: String, kind: ReservationKind, cardID: String? = nil, idempotencyKey: String? = nil, total: Money,
    summary: String, startsAt: Date? = nil, endsAt: Date? = nil, details: [String: JSONValue] = [:],
    requestFields: [String: String]? = nil
  ) {
    self.requestFields = requestFields
    self.token = token
    self.kind = kind
    self.cardID = cardID
    self.idempotencyKey = idempotencyKey
    self.total = total
    self.summary = summary
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.details = details
  }
}

/// The open booking transaction, as the inventory's `take` closure sees it.
public struct BookingContext {
  /// The connection, inside `BEGIN IMMEDIATE`: run the inventory's SQL on it.
  public let db: Database
  /// The id the reservation will have (to record holds against it).
  public let reservationID: String
  /// Its six-character record locator (the PNR of a flight).
  public let locator: String
  /// The booking user.
  public let userID: Int64
  /// The request being booked.
  public let request: BookingRequest
  /// The transaction's clock reading.
  public let now: Date
}

/// The open cancellation transaction, as a kind's ``CancellationPolicy/release`` sees it.
public struct CancellationContext {
  /// The connection, inside `BEGIN IMMEDIATE`.
  public let db: Database
  /// The reservation being cancelled (still `.confirmed`).
  public let reservation: Reservation
  public let userID: Int64
  public let now: Date
}

/// How a kind's reservations are cancelled: its refund rule and how its inventory comes back.
public struct CancellationPolicy: Sendable {
  /// The amount refunded, from zero to the reservation's total, in its currency; throw
  /// `not_cancellable` (`.refused`) to forbid the cancellation.
  public var refund: @Sendable (_ reservation: Reservation, _ now: Date) throws -> Money
  /// Gives the inventory back, in the cancellation's transaction.
  public var release: @Sendable (_ context: CancellationContext) throws -> Void
  /// The terms at a moment, for a ``CancellationQuote``: the deadline (the instant the terms next
  /// change for the worse, or the one that has passed), which rule applies, and the rule in words
  /// with the deadline in local time.
  public var terms: @Sendable (_ reservation: Reservation, _ now: Date) -> Terms

  /// See ``terms``.
  public struct Terms: Sendable {
    public var deadline: Date?
    public var rule: CancellationQuote.Rule
    public var policy: String
    public init(deadline: Date?, rule: CancellationQuote.Rule, policy: String) {
      self.deadline = deadline
      self.rule = rule
      self.policy = policy
    }
  }

  public init(
    refund: @escaping @Sendable (Reservation, Date) throws -> Money,
    release: @escaping @Sendable (CancellationContext) throws -> Void,
    terms: @escaping @Sendable (Reservation, Date) -> Terms = { _, _ in
      Terms(deadline: nil, rule: .fullRefund, policy: "Cancelling refunds the whole total.")
    }
  ) {
    self.refund = refund
    self.release = release
    self.terms = terms
  }

  /// Refunds the whole total and releases nothing (the default for a kind that registered none).
  public static let fullRefund = CancellationPolicy(refund: { reservation, _ in reservation.total }, release: { _ in })
}

/// The reservations ledger: the one place every kind of booking goes through, so that "check the
/// inventory, take it, charge the card, record the reservation" is a single `BEGIN IMMEDIATE`
/// transaction. A throw anywhere (`sold_out` or `price_changed` from the inventory, a decline
/// from the gateway, a storage failure) rolls all of it back.
public final class ReservationLedger: ReservationService, @unchecked Sendable {
  let db: Database
  let accounts: Accounts
  let gateway: PaymentGateway
  let environment: BackendEnvironment
  private let policies = Mutex<[ReservationKind: CancellationPolicy]>([:])

  public init(database: Database, accounts: Accounts, gateway: PaymentGateway, environment: BackendEnvironment = .live)
  {
    self.db = database
    self.accounts = accounts
    self.gateway = gateway
    self.environment = environment
  }

  /// Sets how `kind`'s reservations are cancelled by ``cancelReservation(id:token:)``
  /// (`trips cancel`). Kinds without a policy use ``CancellationPolicy/fullRefund``.
  public func register(_ kind: ReservationKind, cancellation policy: CancellationPolicy) {
    policies.withLock { $0[kind] = policy }
  }

  /// Books in one transaction: resolves the user, returns the earlier reservation if the
  /// idempotency key was used before (without running `take` or charging), else runs `take` (the
  /// inventory's check-and-take), authorises and captures `request.total` on the card and records
  /// the reservation.
  ///
  /// Concurrent calls (threads or processes) are serialised by the write lock, so two retries with
  /// the same key charge once, and two buyers of the last unit see each other's take.
  /// - Throws: `not_signed_in`/`session_expired`; what `take` throws (`sold_out`,
  ///   `price_changed`); `no_payment_card`, `card_not_found`, `card_declined`,
  ///   `insufficient_funds`, `card_expired`; `invalid_total` for an unknown currency or a negative
  ///   total; `idempotency_key_reused` (`.invalidInput`) when the key was used for another
  ///   request (another ``BookingRequest/fingerprint``).
  public func book(_ request: BookingRequest, take: (BookingContext) throws -> Void) throws -> Reservation {
    try serviceCall {
      let userID = try accounts.userID(token: request.token)
      guard (try? Currency.named(request.total.currencyCode)) != nil, request.total.amount >= 0 else {
        throw ServiceError.invalid(
          "invalid_total", "cannot charge \(request.total): expected a non-negative ISO 4217 amount")
      }
      let total = request.total.rounded()
      return try db.write(isolation: .readCommitted) { db in
        // One booking or cancellation per user at a time (the user's row lock, to commit): the
        // idempotency check, the duplicate rule, the card and the trips topic's sequence read
        // what the user's previous booking committed. Inventory is taken by conditional statements.
        _ = try db.query("SELECT id FROM users WHERE id = ? FOR UPDATE", userID)
        if let key = request.idempotencyKey,
          let row = try db.queryOne("SELECT * FROM reservations WHERE user_id = ? AND idempotency_key = ?", userID, key)
        {
          return try Self.earlier(row, key: key, for: request.fingerprint)
        }
        let now = environment.now()
        let id = try Identifiers.make("res")
        let locator = try Self.freshLocator(db)
        try take(
          BookingContext(db: db, reservationID: id, locator: locator, userID: userID, request: request, now: now))
        let card = try gateway.chargeableCard(request.cardID, userID: userID, in: db)
        let paymentID = try gateway.authorize(total, card: card, userID: userID, in: db)
        try gateway.capture(paymentID, in: db)
        // Which card paid, as the person knows it (never more of the number than its last four).
        var kept = request.details
        kept["payment"] = .object([
          "cardId": .string(card.id),
          "card": .string(
            PaymentCardValidation.masked(brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4)),
        ])
        let details = String(decoding: try Self.encoder.encode(kept), as: UTF8.self)
        try db.run("UPDATE payments SET reservation_id = ? WHERE id = ?", id, paymentID)
        try db.run(
          """
          INSERT INTO reservations (id, user_id, kind, status, total_minor, currency, created_at, summary, locator,
            starts_at, ends_at, details, payment_id, idempotency_key, idempotency_fingerprint)
          VALUES (?, ?, ?, 'confirmed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          id, userID, request.kind.rawValue, total.minorUnits, total.currencyCode, now, request.summary, locator,
          request.startsAt, request.endsAt, details, paymentID, request.idempotencyKey,
          request.idempotencyKey == nil ? nil : request.fingerprint.canonical)
        let reservation = Reservation(
          id: id, kind: request.kind, status: .confirmed, total: total, createdAt: now, summary: request.summary,
          locator: locator, startsAt: request.startsAt, endsAt: request.endsAt, details: kept)
        // The trips topic's change feed, in the same transaction (see EventLog).
        try EventLog.appendReservation(
          reservation, topic: EventLog.tripsTopic(userID: userID), type: "reservation.booked", in: db, now: now)
        return reservation
      }
    }
  }

  /// Cancels one of the user's reservations in one transaction: `refund` decides the amount (zero
  /// to the total; it may throw `not_cancellable`), `release` gives the inventory back, the
  /// gateway refunds the card, the status becomes `.cancelled`. With `expected` (the refund the
  /// traveller was shown), any other amount refuses instead.
  /// - Throws: `reservation_not_found` (also for another user's), `already_cancelled`,
  ///   `invalid_refund` when `refund` returns an amount outside zero…total or in another currency;
  ///   `cancellation_terms_changed` (`.refused`, details `refund`, `fee`, `currency`) when the
  ///   refund differs from `expected`; nothing changes then.
  public func cancel(
    id: String, token: String, refund: (Reservation, Date) throws -> Money,
    release: (CancellationContext) throws -> Void, expected: Money? = nil
  ) throws -> Reservation {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.write(isolation: .readCommitted) { db in
        _ = try db.query("SELECT id FROM users WHERE id = ? FOR UPDATE", userID)
        var reservation = try Self.owned(id, userID: userID, db)
        guard reservation.status == .confirmed else {
          throw ServiceError.refused("already_cancelled", "reservation \(id) is already cancelled")
        }
        let now = environment.now()
        let amount = try Self.checkedRefund(try refund(reservation, now), of: reservation)
        if let expected, expected.currencyCode != amount.currencyCode || expected.minorUnits != amount.minorUnits {
          let fee = reservation.total - amount
          throw ServiceError.refused(
            "cancellation_terms_changed",
            "the terms of cancelling \(id) changed since they were shown: the refund is now "
              + "\(MoneyFormat.english.string(amount)) (fee \(MoneyFormat.english.string(fee))), not "
              + "\(MoneyFormat.english.string(expected)); nothing was cancelled: look at the new terms and cancel again",
            details: ["refund": amount.amountString, "fee": fee.amountString, "currency": amount.currencyCode])
        }
        try release(CancellationContext(db: db, reservation: reservation, userID: userID, now: now))
        if let paymentID: String = try db.queryOne("SELECT payment_id FROM reservations WHERE id = ?", id)?.get(
          "payment_id")
        {
          try gateway.refund(paymentID, minorUnits: amount.minorUnits, in: db)
        }
        try db.run(
          "UPDATE reservations SET status = 'cancelled', cancelled_at = ?, refunded_minor = ? WHERE id = ?", now,
          amount.minorUnits, id)
        reservation.status = .cancelled
        reservation.cancelledAt = now
        reservation.refunded = amount
        try EventLog.appendReservation(
          reservation, topic: EventLog.tripsTopic(userID: userID), type: "reservation.cancelled", in: db, now: now)
        return reservation
      }
    }
  }

  // MARK: ReservationService

  public func reservations(token: String) throws -> [Reservation] {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.query(
        "SELECT * FROM reservations WHERE user_id = ? ORDER BY created_at DESC, rowid DESC", userID
      ).map(Self.reservation)
    }
  }

  public func reservation(id: String, token: String) throws -> Reservation {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try Self.owned(id, userID: userID, db)
    }
  }

  public func cancellationQuote(id: String, token: String) throws -> CancellationQuote {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let reservation = try Self.owned(id, userID: userID, db)
      guard reservation.status == .confirmed else {
        throw ServiceError.refused("already_cancelled", "reservation \(id) is already cancelled")
      }
      let policy = policies.withLock { $0[reservation.kind] } ?? .fullRefund
      let now = environment.now()
      let refund = try Self.checkedRefund(try policy.refund(reservation, now), of: reservation)
      let terms = policy.terms(reservation, now)
      var card: String?
      if case .object(let payment)? = reservation.details["payment"] { card = payment["card"]?.stringValue }
      return CancellationQuote(
        reservationId: id, total: reservation.total, fee: reservation.total - refund, refund: refund,
        deadline: terms.deadline, timeZone: reservation.startTimeZone?.identifier, rule: terms.rule,
        policy: terms.policy, card: card, quotedAt: now)
    }
  }

  public func cancelReservation(id: String, token: String, accepting quote: CancellationQuote?) throws -> Reservation {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let kind = try Self.owned(id, userID: userID, db).kind
      let policy = policies.withLock { $0[kind] } ?? .fullRefund
      return try cancel(id: id, token: token, refund: policy.refund, release: policy.release, expected: quote?.refund)
    }
  }

  /// `amount` rounded, checked to be between zero and the reservation's total, in its currency.
  /// - Throws: `invalid_refund` (`.unavailable`) otherwise (a kind's rule gone wrong).
  static func checkedRefund(_ amount: Money, of reservation: Reservation) throws -> Money {
    let amount = amount.rounded()
    guard amount.currencyCode == reservation.total.currencyCode, amount.amount >= 0,
      amount.minorUnits <= reservation.total.minorUnits
    else {
      throw ServiceError(
        .unavailable, code: "invalid_refund",
        message: "the refund \(amount) for \(reservation.id) is not between 0 and \(reservation.total)")
    }
    return amount
  }

  /// The reservation an earlier booking made with `key` for the same request (`fingerprint`), if
  /// any: what a retry gets back, before anything is re-priced or checked (a retry must not be
  /// told `sold_out` or `price_changed` by its own first booking). Read outside a transaction;
  /// ``book(_:take:)`` checks again inside its own.
  /// - Throws: `idempotency_key_reused` (invalid input, exit 2) naming the fields that differ
  ///   when `key` was used for another request; `not_signed_in`/`session_expired`.
  public func replay(key: String?, fingerprint: BookingFingerprint, token: String) throws -> Reservation? {
    guard let key else { return nil }
    return try serviceCall {
      let userID = try accounts.userID(token: token)
      guard
        let row = try db.queryOne("SELECT * FROM reservations WHERE user_id = ? AND idempotency_key = ?", userID, key)
      else { return nil }
      return try Self.earlier(row, key: key, for: fingerprint)
    }
  }

  /// Runs `attempt` (a kind's re-price, checks and ``book(_:take:)``) as an idempotent booking:
  /// the earlier reservation of `key` for the same request is returned without running it, and
  /// when `attempt` is refused (`sold_out`, `price_changed`, …) a reservation that a concurrent
  /// retry with the same key made meanwhile is returned instead of the refusal.
  public func idempotent(
    key: String?, fingerprint: BookingFingerprint, token: String, _ attempt: () throws -> Reservation
  ) throws -> Reservation {
    if let first = try replay(key: key, fingerprint: fingerprint, token: token) { return first }
    do {
      return try attempt()
    } catch let error as ServiceError where error.kind == .refused && key != nil {
      if let first = try replay(key: key, fingerprint: fingerprint, token: token) { return first }
      throw error
    }
  }

  // MARK: Helpers

  /// The reservation `row` (found by `key`) if it was made for the same request, else
  /// `idempotency_key_reused` naming what differs. Rows from before fingerprints were stored
  /// compare by kind only; rows with a fingerprint of the older text form compare as a whole.
  static func earlier(_ row: Row, key: String, for fingerprint: BookingFingerprint) throws -> Reservation {
    let first = try reservation(row)
    let stored: String? = try row.get("idempotency_fingerprint")
    var differences: [String] = []
    if first.kind != fingerprint.kind {
      differences = ["kind"]
    } else if let stored, stored != fingerprint.canonical {
      differences = BookingFingerprint(canonical: stored).map { fingerprint.differences(from: $0) } ?? ["request"]
      if differences.isEmpty { differences = ["request"] }
    }
    guard differences.isEmpty else {
      let what = BookingFingerprint.describe(
        differences, was: BookingFingerprint(canonical: stored ?? ""), now: fingerprint)
      throw ServiceError(
        .invalidInput, code: "idempotency_key_reused",
        message:
          "idempotency key \(EchoedInput.quoted(key)) was already used for another booking (reservation \(first.id): "
          + "\(first.summary)), and \(what); nothing was booked. Use a new key for a new booking, or repeat the first "
          + "request exactly to get its reservation",
        details: ["reservationId": first.id, "differs": differences.joined(separator: ",")])
    }
    return first
  }

  /// A locator no reservation has yet (checked in the open transaction).
  static func freshLocator(_ db: Database) throws -> String {
    while true {
      let locator = try Identifiers.locator()
      if try db.queryOne("SELECT 1 FROM reservations WHERE locator = ?", locator) == nil { return locator }
    }
  }

  static func owned(_ id: String, userID: Int64, _ db: Database) throws -> Reservation {
    guard let row = try db.queryOne("SELECT * FROM reservations WHERE id = ? AND user_id = ?", id, userID) else {
      throw ServiceError(
        .notFound, code: "reservation_not_found",
        message: "no reservation \(id) on your account: see account trips list")
    }
    return try reservation(row)
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }()

  static func reservation(_ row: Row) throws -> Reservation {
    let currency: String = try row.get("currency")
    let details = try JSONDecoder().decode(
      [String: JSONValue].self, from: Data(try row.get("details", as: String.self).utf8))
    let refunded: Int64? = try row.get("refunded_minor")
    return Reservation(
      id: try row.get("id"),
      kind: ReservationKind(rawValue: try row.get("kind")) ?? .flight,
      status: ReservationStatus(rawValue: try row.get("status")) ?? .confirmed,
      total: try Money(minorUnits: try row.get("total_minor"), currency: currency),
      createdAt: try row.get("created_at"), summary: try row.get("summary"), locator: try row.get("locator"),
      startsAt: try row.get("starts_at"), endsAt: try row.get("ends_at"), details: details,
      cancelledAt: try row.get("cancelled_at"),
      refunded: try refunded.map { try Money(minorUnits: $0, currency: currency) })
  }
}
