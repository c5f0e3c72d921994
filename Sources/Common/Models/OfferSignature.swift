import Foundation

/// The signature part of every offer id (flights ``FlightOfferID``, hotels ``HotelOfferID``, cars
/// ``CarOfferID``): 32 lowercase hexadecimal digits, the first 128 bits of HMAC-SHA256 over the
/// id's text without its signature, keyed by the data directory that searched (`Backend`'s
/// `OfferSigner`). Ids are tamper-evident: change any field and the signature no longer matches,
/// and `book` refuses the id with `invalid_offer_id` (exit 2).
///
/// Here only the shape is checked; whether a signature matches is the backend's check (only the
/// backend holds the key).
public enum OfferSignature {
  /// Hexadecimal digits of a signature.
  public static let length = 32

  /// An example signature for messages and help texts.
  public static let example = "5d1e0c9b7a3f42e8b6d09a1c7e4f2b38"

  /// Whether `text` has the shape of a signature (32 lowercase hex digits).
  public static func isWellFormed<S: StringProtocol>(_ text: S) -> Bool {
    text.utf8.count == length && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// The `invalid_offer_id` error (invalid input) for an id without a signature.
  /// - Parameter search: the command that prints such ids (`search`, `hotel search`).
  public static func missing(_ id: String, search: String) -> ServiceError {
    ServiceError.invalid(
      "invalid_offer_id",
      "offer id \(EchoedInput.quoted(id)) has no signature: offer ids end with a 32-digit signature; "
        + "use an id printed by '\(search)'")
  }
}
