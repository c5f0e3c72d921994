import Common
import Foundation

/// The signed-in user's payment cards. The number is checked with Common's
/// ``PaymentCardValidation`` (Luhn, brand by IIN, length, expiry, CVC length), then kept only as
/// brand, last four digits, expiry and an AES-256-GCM box in the ``Vault`` (bound to the card id).
/// The CVC is checked and dropped.
public final class PaymentCards: PaymentCardService, @unchecked Sendable {
  let db: Database
  let accounts: Accounts
  let vault: Vault
  let environment: BackendEnvironment

  public init(database: Database, accounts: Accounts, vault: Vault, environment: BackendEnvironment = .live) {
    self.db = database
    self.accounts = accounts
    self.vault = vault
    self.environment = environment
  }

  public func cards(token: String) throws -> [PaymentCard] {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.query(
        "SELECT * FROM cards WHERE user_id = ? AND removed_at IS NULL ORDER BY is_default DESC, created_at, rowid",
        userID
      ).map(Self.card)
    }
  }

  public func addCard(_ card: NewPaymentCard, token: String) throws -> PaymentCard {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      let (number, brand) = try PaymentCardValidation.validateNumber(card.number)
      guard let expiry = CardExpiry(month: card.expiryMonth, year: card.expiryYear) else {
        throw ServiceError.invalid(
          "invalid_expiry",
          "invalid expiry \(card.expiryMonth)/\(card.expiryYear): expected MM/YY like 09/27 (month 01 to 12)")
      }
      var utc = Calendar(identifier: .gregorian)
      utc.timeZone = TimeZone(identifier: "UTC")!
      try expiry.checkNotExpired(today: environment.now(), calendar: utc)
      try expiry.checkNotTooFarAhead(today: environment.now(), calendar: utc)
      try PaymentCardValidation.validateCVC(card.cvc, brand: brand)
      let id = try Identifiers.make("card")
      let sealed = try vault.seal(Data(number.utf8), context: id)
      return try db.write { db in
        try checkNotAdded(number, brand: brand, userID: userID, db)
        let existing: Int64 =
          try db.queryOne(
            "SELECT count(*) FROM cards WHERE user_id = ? AND removed_at IS NULL", userID)?.get(at: 0) ?? 0
        try db.run(
          "INSERT INTO cards (id, user_id, brand, last4, expiry_month, expiry_year, pan_sealed, is_default, created_at) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          id, userID, brand.rawValue, String(number.suffix(4)), expiry.month, expiry.year, sealed, existing == 0,
          environment.now())
        return PaymentCard(
          id: id, brand: brand.rawValue, last4: String(number.suffix(4)), expiryMonth: expiry.month,
          expiryYear: expiry.year, isDefault: existing == 0)
      }
    }
  }

  public func removeCard(id: String, token: String) throws {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      try db.write { db in
        let card = try Self.activeCard(id, userID: userID, db)
        // The sealed number is wiped; the row stays for the payments that reference it.
        try db.run(
          "UPDATE cards SET removed_at = ?, is_default = 0, pan_sealed = X'' WHERE id = ?", environment.now(), id)
        if card.isDefault {
          try db.run(
            "UPDATE cards SET is_default = 1 WHERE id = (SELECT id FROM cards WHERE user_id = ? AND removed_at IS NULL "
              + "ORDER BY created_at DESC, rowid DESC LIMIT 1)", userID)
        }
      }
    }
  }

  public func setDefaultCard(id: String, token: String) throws -> PaymentCard {
    try serviceCall {
      let userID = try accounts.userID(token: token)
      return try db.write { db in
        var card = try Self.activeCard(id, userID: userID, db)
        try db.run("UPDATE cards SET is_default = 0 WHERE user_id = ? AND is_default = 1", userID)
        try db.run("UPDATE cards SET is_default = 1 WHERE id = ?", id)
        card.isDefault = true
        return card
      }
    }
  }

  // MARK: Helpers

  /// Throws `card_already_added` (`.refused`) when the user has an active card with `number`:
  /// only the cards of the same brand and last four digits are unsealed and compared.
  func checkNotAdded(_ number: String, brand: PaymentCardValidation.Brand, userID: Int64, _ db: Database) throws {
    let last4 = String(number.suffix(4))
    let candidates = try db.query(
      "SELECT id, pan_sealed FROM cards WHERE user_id = ? AND brand = ? AND last4 = ? AND removed_at IS NULL", userID,
      brand.rawValue, last4)
    for row in candidates {
      let id: String = try row.get("id")
      let pan = try vault.unseal(try row.get("pan_sealed"), context: id)
      if Crypto.constantTimeEqual(pan, Data(number.utf8)) {
        throw ServiceError.refused(
          "card_already_added",
          "\(PaymentCardValidation.masked(brand: brand, last4: last4)) is already on your account as \(id): "
            + "see account cards list")
      }
    }
  }

  static func activeCard(_ id: String, userID: Int64, _ db: Database) throws -> PaymentCard {
    guard
      let row = try db.queryOne("SELECT * FROM cards WHERE id = ? AND user_id = ? AND removed_at IS NULL", id, userID)
    else {
      throw ServiceError(
        .notFound, code: "card_not_found", message: "no card \(id) on your account: see account cards list")
    }
    return try card(row)
  }

  static func card(_ row: Row) throws -> PaymentCard {
    PaymentCard(
      id: try row.get("id"), brand: try row.get("brand"), last4: try row.get("last4"),
      expiryMonth: try row.get("expiry_month"), expiryYear: try row.get("expiry_year"),
      isDefault: try row.get("is_default"))
  }
}
