/// Random, unguessable, stable ids for stored rows, and record locators.
public enum Identifiers {
  /// Lowercase letters and digits without the look-alikes (no `0 o 1 l i`).
  static let idAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
  /// Uppercase letters and digits without the ambiguous `0 O 1 I` (as airlines avoid them).
  public static let locatorAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

  /// `<prefix>_` and 12 random characters (about 59 bits): `res_k3m9x2…`, `card_…`, `pay_…`.
  public static func make(_ prefix: String) throws -> String {
    "\(prefix)_" + (try Crypto.randomString(length: 12, alphabet: idAlphabet))
  }

  /// A six-character record locator (PNR style): uppercase letters and digits without `0 O 1 I`,
  /// e.g. `K7Q2ZD`. Uniqueness is the caller's: the ledger retries on a collision.
  public static func locator() throws -> String {
    try Crypto.randomString(length: 6, alphabet: locatorAlphabet)
  }
}
