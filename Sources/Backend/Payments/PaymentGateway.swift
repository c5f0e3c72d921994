import Common
import Foundation

/// A simulated card processor: authorises, captures, voids and refunds charges against the cards
/// in the vault, recording each payment in `payments` and each step in `payment_events`.
///
/// It follows the well-known test-card convention: `4000 0000 0000 0002` is declined
/// (`card_declined`), `4000 0000 0000 9995` fails for insufficient funds (`insufficient_funds`);
/// `4242 4242 4242 4242` and every other valid card succeed. Every method runs inside the
/// caller's transaction (the ledger's), so a decline or any later failure leaves no trace.
public final class PaymentGateway: Sendable {
  let vault: Vault
  let environment: BackendEnvironment

  /// The test card that is always declined.
  public static let declinedCard = "4000000000000002"
  /// The test card that always lacks funds.
  public static let insufficientFundsCard = "4000000000009995"

  public init(vault: Vault, environment: BackendEnvironment = .live) {
    self.vault = vault
    self.environment = environment
  }

  /// The card a charge goes to: `cardID` if given (it must be the user's), else the user's default.
  /// - Throws: `card_not_found` (`.notFound`), `no_payment_card` (`.refused`) when the user has none.
  public func chargeableCard(_ cardID: String?, userID: Int64, in db: Database) throws -> PaymentCard {
    if let cardID { return try PaymentCards.activeCard(cardID, userID: userID, db) }
    guard
      let row = try db.queryOne(
        "SELECT * FROM cards WHERE user_id = ? AND removed_at IS NULL ORDER BY is_default DESC, created_at LIMIT 1",
        userID)
    else {
      throw ServiceError.refused("no_payment_card", "no payment card on your account: add one with account cards add")
    }
    return try PaymentCards.card(row)
  }

  /// Authorises `amount` on `card` and returns the payment id.
  /// - Throws: `card_declined`, `insufficient_funds`, `card_expired` (all `.refused`).
  public func authorize(_ amount: Money, card: PaymentCard, userID: Int64, in db: Database) throws -> String {
    let row = try db.queryOne("SELECT pan_sealed FROM cards WHERE id = ?", card.id)
    let sealed: Data = try row?.get("pan_sealed") ?? Data()
    let number = String(decoding: try vault.unseal(sealed, context: card.id), as: UTF8.self)
    let name = "\(PaymentCardValidation.Brand(storedName: card.brand).displayName) •••• \(card.last4)"
    if number == Self.declinedCard {
      throw ServiceError.refused(
        "card_declined", "the card \(name) was declined: nothing was booked; use another card with --card ID")
    }
    if number == Self.insufficientFundsCard {
      throw ServiceError.refused(
        "insufficient_funds",
        "the card \(name) has insufficient funds: nothing was booked; use another card with --card ID")
    }
    let now = environment.now()
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    if let expiry = CardExpiry(month: card.expiryMonth, year: card.expiryYear), !expiry.isValid(on: now, calendar: utc)
    {
      throw ServiceError.refused("card_expired", "the card \(name) has expired: nothing was booked; add a valid card")
    }
    let id = try Identifiers.make("pay")
    try db.run(
      "INSERT INTO payments (id, user_id, card_id, amount_minor, currency, status, created_at, updated_at) "
        + "VALUES (?, ?, ?, ?, ?, 'authorized', ?, ?)",
      id, userID, card.id, amount.minorUnits, amount.currencyCode, now, now)
    try event(id, "authorize", amount.minorUnits, db)
    return id
  }

  /// Captures the whole authorised amount.
  public func capture(_ paymentID: String, in db: Database) throws {
    let payment = try load(paymentID, db)
    guard payment.status == "authorized" else {
      throw ServiceError.refused("payment_not_capturable", "payment \(paymentID) is \(payment.status), not authorized")
    }
    try db.run(
      "UPDATE payments SET status = 'captured', captured_minor = amount_minor, updated_at = ? WHERE id = ?",
      environment.now(), paymentID)
    try event(paymentID, "capture", payment.amount, db)
  }

  /// Refunds `minorUnits` of a captured payment (partially or fully; never more than captured).
  public func refund(_ paymentID: String, minorUnits: Int64, in db: Database) throws {
    let payment = try load(paymentID, db)
    guard minorUnits > 0 else { return }
    guard payment.status == "captured" || payment.status == "partially_refunded",
      payment.refunded + minorUnits <= payment.captured
    else {
      throw ServiceError.refused(
        "refund_exceeds_charge",
        "cannot refund \(minorUnits) minor units of payment \(paymentID): not captured or already refunded")
    }
    let refunded = payment.refunded + minorUnits
    try db.run(
      "UPDATE payments SET refunded_minor = ?, status = ?, updated_at = ? WHERE id = ?", refunded,
      refunded == payment.captured ? "refunded" : "partially_refunded", environment.now(), paymentID)
    try event(paymentID, "refund", minorUnits, db)
  }

  /// Voids an authorisation that was not captured.
  public func void(_ paymentID: String, in db: Database) throws {
    let payment = try load(paymentID, db)
    guard payment.status == "authorized" else { return }
    try db.run("UPDATE payments SET status = 'voided', updated_at = ? WHERE id = ?", environment.now(), paymentID)
    try event(paymentID, "void", payment.amount, db)
  }

  private func load(_ id: String, _ db: Database) throws -> (
    status: String, amount: Int64, captured: Int64, refunded: Int64
  ) {
    guard let row = try db.queryOne("SELECT * FROM payments WHERE id = ?", id) else {
      throw ServiceError(.notFound, code: "payment_not_found", message: "no payment \(id)")
    }
    return (
      try row.get("status"), try row.get("amount_minor"), try row.get("captured_minor"), try row.get("refunded_minor")
    )
  }

  private func event(_ id: String, _ type: String, _ amount: Int64, _ db: Database) throws {
    try db.run(
      "INSERT INTO payment_events (payment_id, type, amount_minor, at) VALUES (?, ?, ?, ?)", id, type, amount,
      environment.now())
  }
}
