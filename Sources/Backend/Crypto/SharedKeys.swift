import Common
import Foundation

/// The keys of several server instances on one database (#19): one set of key files, shared.
///
/// Every instance must hold the same three keys, or a card sealed by one cannot be charged by
/// another, an offer id signed by one is refused by another, and a boarding pass signed by one
/// reads as forged at another's gate. The keys stay files in the data directory (`vault.key`,
/// `offer-signing.key`, `boarding-pass-key.pem`; owner-only, made from OpenSSL's CSPRNG), and the
/// instances share that directory: the same path on one machine, or the same files copied to each
/// machine (`install -m 600`) or mounted from a secret store. They are never kept in the
/// database: a dump, a replica or a backup of the database would then hold the card vault's key
/// next to the card numbers it protects (PCI DSS requirement 3.5 keeps keys apart from the data
/// they protect).
///
/// What the database keeps is each key's check value (table `key_checks`, migration `core.003`):
/// HMAC-SHA256 of ``checkLabel`` under a secret key, SHA-256 of the public key for the signing key
/// pair. The first instance to start records them (an insert that does nothing when a row exists);
/// every later one compares its own and refuses to start on a difference (`key_mismatch`, exit 1),
/// instead of serving with keys the others do not have.
public enum SharedKeys {
  /// The text whose keyed MAC is a secret key's check value.
  static let checkLabel = "travel key check value v1"

  /// Makes (if missing) and checks this data directory's keys against those recorded in `database`,
  /// recording them when none are.
  /// - Throws: ``ServiceError`` `key_mismatch` (`.unavailable`) naming the key file that differs and
  ///   what to do; the keys' own errors (`vault_unreadable`, `offer_key_unusable`,
  ///   `offer_key_insecure`, `signing_key_unreadable`); the store's.
  static func check(
    database: Database, dataDirectory: URL, vault: Vault, offerSigner: OfferSigner,
    boardingPassSigner: BoardingPassSigner, now: Date
  ) throws {
    let keys: [(name: String, file: String, what: String, value: String)] = [
      (Vault.keyFileName, Vault.keyFileName, "card vault key", try vault.keyCheckValue()),
      (OfferSigner.keyFileName, OfferSigner.keyFileName, "offer signing key", try offerSigner.keyCheckValue()),
      (
        BoardingPassSigner.keyFileName, BoardingPassSigner.keyFileName, "boarding-pass signing key",
        try boardingPassSigner.keyCheckValue()
      ),
    ]
    let recorded = try database.write(isolation: .readCommitted) { db -> [String: String] in
      var recorded: [String: String] = [:]
      for key in keys {
        try db.run(
          "INSERT INTO key_checks (name, check_value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
          key.name, key.value, now)
        recorded[key.name] = try db.queryOne("SELECT check_value FROM key_checks WHERE name = ?", key.name)?.get(
          "check_value")
      }
      return recorded
    }
    for key in keys where recorded[key.name] != key.value {
      let path = dataDirectory.appendingPathComponent(key.file).path
      throw ServiceError(
        .unavailable, code: "key_mismatch",
        message: "the \(key.what) \(path) is not the one the other servers on this database use: every server "
          + "on one database needs the same key files. Give this server the data directory of the others "
          + "(--data-dir), or copy \(Vault.keyFileName), \(OfferSigner.keyFileName) and "
          + "\(BoardingPassSigner.keyFileName) from it into \(dataDirectory.path) (owner-only, mode 600)")
    }
  }
}
