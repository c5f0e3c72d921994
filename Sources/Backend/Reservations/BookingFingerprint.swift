import Common
import Foundation

/// What a booking request asked for, kept with its idempotency key so that the key means one
/// request only (as Stripe's idempotent requests do): the same key with the same request returns
/// the first result; the same key with any other request is refused with
/// `idempotency_key_reused` (invalid input, exit 2), naming the fields that differ.
///
/// The fields are the request as the caller gave it, before anything is looked up: the kind, the
/// card (`default` when none was named: naming the default card explicitly is another request),
/// and the kind's own fields — the offer id (which, signed, carries the product, dates,
/// occupancy, quoted total and currency), the traveller names (normalised as
/// ``PassengerName``, letter case kept) and `allowDuplicate`. Stored as canonical JSON: one object,
/// keys sorted, string values (`{"allowDuplicate":"false","card":"default","guest":"Ada Lovelace",
/// "kind":"hotel","offerId":"hof_…"}`).
public struct BookingFingerprint: Hashable, Sendable {
  public var kind: ReservationKind
  /// Field name → value as given (`card` included).
  public var fields: [String: String]

  /// The value of `card` when the request named none (the default card is charged).
  public static let defaultCard = "default"

  /// A request of `kind` charging `cardID` (nil: the default card) with the kind's `fields`.
  public init(kind: ReservationKind, cardID: String?, fields: [String: String]) {
    self.kind = kind
    var all = fields
    all["card"] = cardID ?? Self.defaultCard
    self.fields = all
  }

  /// Parses the stored form; nil for anything else (a fingerprint of an older form).
  init?(canonical: String) {
    guard let object = try? JSONDecoder().decode([String: String].self, from: Data(canonical.utf8)),
      let kind = object["kind"].flatMap(ReservationKind.init(rawValue:))
    else { return nil }
    self.kind = kind
    self.fields = object.filter { $0.key != "kind" }
  }

  /// The stored form: a JSON object of the fields and `kind`, keys sorted.
  public var canonical: String {
    var object = fields
    object["kind"] = kind.rawValue
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// The names of the fields whose values differ from `earlier`'s (a field missing on one side
  /// differs), sorted; `kind` first when the kinds differ.
  public func differences(from earlier: BookingFingerprint) -> [String] {
    let names = Set(fields.keys).union(earlier.fields.keys).sorted()
    let fieldDifferences = names.filter { fields[$0] != earlier.fields[$0] }
    return (kind == earlier.kind ? [] : ["kind"]) + fieldDifferences
  }

  /// The words for a field in messages.
  static func word(_ field: String) -> String {
    switch field {
    case "offerId": "the offer"
    case "passengers": "the passengers"
    case "guest": "the guest"
    case "driver": "the driver"
    case "card": "the card"
    case "allowDuplicate": "--allow-duplicate"
    case "kind": "the kind of booking"
    case "summary", "total": "what is booked"
    default: "the request"
    }
  }

  /// `the guest differs (first "Ada Lovelace", now "Alan Turing")`, one clause per field.
  static func describe(_ differences: [String], was earlier: BookingFingerprint?, now: BookingFingerprint) -> String {
    differences.map { field in
      let clause = "\(word(field)) differs"
      guard let earlier else { return clause }
      func shown(_ fingerprint: BookingFingerprint) -> String {
        if field == "kind" { return fingerprint.kind.rawValue }
        return fingerprint.fields[field].map(EchoedInput.quoted) ?? "none"
      }
      return "\(clause) (first \(shown(earlier)), now \(shown(now)))"
    }.joined(separator: "; ")
  }
}
