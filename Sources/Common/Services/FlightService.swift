import Foundation
import Reactive

/// Flight search: airports, offers, re-pricing. Implemented by the embedded backend
/// (`Backend.FlightEngine`), wired by the apps; view models wrap the calls in publishers.
///
/// Every method is synchronous and fails with ``ServiceError`` only: `.invalidInput` for what the
/// caller must change (unknown place, bad date, malformed offer id), `.refused` for `sold_out`,
/// `.unavailable` when storage fails.
public protocol FlightSearching: Sendable {
  /// Airports whose IATA code, name or city matches `query` (diacritics-insensitive), best
  /// first, at most `limit`.
  /// - Throws: ``ServiceError`` `invalid_query` for an empty query.
  func airports(matching query: String, limit: Int) throws -> [AirportSummary]

  /// Offers for `request`: every nonstop itinerary plus the connecting ones no other itinerary
  /// leaving within the same hour beats on price, duration and stops together; sorted by
  /// `request.sort`, at most `request.limit`. Priced in `request.currency` (nil: the service's
  /// default, the signed-in user's preferred currency in the apps, else USD): fare and taxes and
  /// fees each in the currency's minor units, adding up to the total; the offer id quotes it.
  /// - Throws: ``ServiceError`` (invalid input): `unknown_place`, `ambiguous_place`, `same_place`,
  ///   `date_in_past`, `date_too_far`, `return_before_departure`, `invalid_adults`,
  ///   `unknown_currency` (not ISO 4217), `unsupported_currency` (no exchange rate), …;
  ///   `exchange_rates_unavailable` (`.unavailable`) when the rates cannot be read.
  func search(_ request: FlightSearchRequest) throws -> [FlightOffer]

  /// The offer of `id` at today's price and seats (which may differ from the quoted price), in
  /// the currency of its quote (``FlightOfferID/quotedTotal``).
  /// - Throws: ``ServiceError`` `invalid_offer_id` (malformed), `offer_expired` (a flight has left
  ///   or does not exist on that date), `unsupported_currency` (a quote currency without an
  ///   exchange rate), `sold_out` (refused) when fewer seats than passengers remain.
  func offer(_ id: FlightOfferID) throws -> FlightOffer

  /// ``search(_:)`` as a publisher: one value then `.finished`, or the ``ServiceError``; nothing
  /// is asked before subscription. A server client answers with its HTTP chain
  /// (`dataTaskPublisher` → `map(\.data)` → `decode` → `eraseToAnyPublisher()`), so no thread
  /// waits for the network; the default runs ``search(_:)`` on the subscribing thread (subscribe
  /// on a background queue).
  func searchPublisher(_ request: FlightSearchRequest) -> AnyPublisher<[FlightOffer], ServiceError>
}

extension FlightSearching {
  public func searchPublisher(_ request: FlightSearchRequest) -> AnyPublisher<[FlightOffer], ServiceError> {
    ServiceCall.publisher { try search(request) }
  }
}

/// A traveller on a flight booking: given and family names as on the passport.
public struct PassengerName: Hashable, Sendable, Codable, CustomStringConvertible {
  public var given: String
  public var family: String

  public init(given: String, family: String) {
    self.given = given
    self.family = family
  }

  /// Parses `"Given Family"`: the last word is the family name, the rest the given names; a
  /// single name is the family name (see ``init(parsing:option:code:)``).
  /// - Throws: ``ServiceError`` `invalid_passenger` when the name rule refuses it.
  public init(parsing text: String) throws {
    try self.init(parsing: text, option: "passenger", code: "invalid_passenger")
  }

  /// The most characters of a traveller's whole name: 80.
  public static let maximumLength = 80

  /// Why the name rule refuses a traveller's name.
  public enum Problem: Hashable, Sendable {
    /// Nothing but spaces.
    case missing
    /// More than ``PassengerName/maximumLength`` characters (how many it has).
    case tooLong(Int)
    /// An invisible character: a control (tab, escape) or a bidirectional control (U+202E
    /// right-to-left override …) that would show the name other than it is stored.
    case invisible(Unicode.Scalar)
    /// A character that is neither a letter nor `-` `'` `.` (a digit, `@`, an emoji).
    case notALetter(Character)

    /// The problem in words, for a message: `is 100 characters long: use at most 80`.
    public var reason: String {
      switch self {
      case .missing: "is missing"
      case .tooLong(let count): "is \(count) characters long: use at most \(PassengerName.maximumLength)"
      case .invisible(let scalar):
        "contains an invisible control character (U+\(String(format: "%04X", scalar.value))): type the name as on the passport"
      case .notALetter(let character):
        "contains \(EchoedInput.quoted(String(character))), which is not a letter: use letters, spaces, hyphens, apostrophes and full stops"
      }
    }
  }

  /// The name rule of every booking kind (flight passengers, hotel guests, car drivers), as
  /// airlines apply it to the name on the passport: words of letters (any script, with `-` `'`
  /// `.`), at most ``maximumLength`` characters, no control or bidirectional control character
  /// (Unicode Cc, and the Bidi_Control characters U+061C, U+200E–U+200F, U+202A–U+202E,
  /// U+2066–U+2069). A single name (mononym) is accepted as airlines book it: it is the family
  /// name and the given name is empty (ICAO Doc 9303 puts a single name in the primary
  /// identifier, the surname); it prints as the name alone.
  /// - Returns: nil when `text` follows the rule.
  public static func problem(in text: String) -> Problem? {
    if let scalar = text.unicodeScalars.first(where: {
      $0.properties.generalCategory == .control || $0.properties.isBidiControl
    }) {
      return .invisible(scalar)
    }
    let words = text.split(whereSeparator: { $0.isWhitespace })
    guard !words.isEmpty else { return .missing }
    let count = words.joined(separator: " ").count
    if count > maximumLength { return .tooLong(count) }
    for word in words {
      if let character = word.first(where: { !($0.isLetter || $0 == "-" || $0 == "'" || $0 == ".") }) {
        return .notALetter(character)
      }
    }
    return nil
  }

  /// Parses a traveller's `"Given Family"` (or a single name) with the one name rule
  /// (``problem(in:)``). The last word is the family name, the words before it the given names.
  /// - Parameters:
  ///   - option: the option named by the error (`passenger`, `guest`, `driver`).
  ///   - code: the error's code (`invalid_passenger`, …).
  /// - Throws: ``ServiceError`` (`.invalidInput`) `code`, naming what is wrong (the length limit,
  ///   the character refused) and echoing at most a short prefix of `text` with its control
  ///   characters escaped (``EchoedInput``).
  public init(parsing text: String, option: String, code: String) throws {
    if let problem = Self.problem(in: text) {
      throw ServiceError.invalid(
        code,
        "invalid --\(option) \(EchoedInput.quoted(text)): the name \(problem.reason); expected \"Given Family\" as on "
          + "the passport, or a single name")
    }
    let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    self.init(given: words.dropLast().joined(separator: " "), family: words[words.count - 1])
  }

  /// What is wrong with `text` as a traveller's name, in a form's words (never an option name):
  /// `"The guest's name is missing: enter it as "Given Family" (or a single name), as on the
  /// passport."`; nil when the name rule (``problem(in:)``) accepts it.
  /// - Parameters:
  ///   - whose: how the form names the person, possessive (`the guest's`, `passenger 2's`).
  ///   - document: where the name is written as typed (`the passport`, `the licence`), or nil.
  public static func formProblem(_ text: String, whose: String, asOn document: String? = nil) -> String? {
    guard let problem = problem(in: text) else { return nil }
    let name = whose.prefix(1).uppercased() + whose.dropFirst() + " name"
    let rule = "enter it as \"Given Family\" (or a single name)" + (document.map { ", as on \($0)" } ?? "")
    switch problem {
    case .missing: return "\(name) is missing: \(rule)."
    case .tooLong, .invisible, .notALetter:
      let shown = text.trimmingCharacters(in: .whitespaces)
      return "\(name) \(EchoedInput.quoted(shown)) \(problem.reason)."
    }
  }

  /// `Given Family`, or the single name of a mononymous traveller.
  public var description: String { given.isEmpty ? family : "\(given) \(family)" }
}

/// What `book` asks for: an offer, one passenger per adult, a card, an idempotency key.
public struct FlightBookingRequest: Hashable, Sendable, Codable {
  public var offerID: FlightOfferID
  /// One per adult of the offer, in order.
  public var passengers: [PassengerName]
  /// The card to charge (`card_…`); nil charges the default card.
  public var cardID: String?
  /// A retry with the same key and the same request returns the first reservation, charged once;
  /// the same key with any other request is refused (`idempotency_key_reused`).
  public var idempotencyKey: String?
  /// Book even when a passenger already holds a seat on one of the offer's flights
  /// (`--allow-duplicate`; otherwise `duplicate_booking`).
  public var allowDuplicate: Bool

  public init(
    offerID: FlightOfferID, passengers: [PassengerName], cardID: String? = nil, idempotencyKey: String? = nil,
    allowDuplicate: Bool = false
  ) {
    self.offerID = offerID
    self.passengers = passengers
    self.cardID = cardID
    self.idempotencyKey = idempotencyKey
    self.allowDuplicate = allowDuplicate
  }
}

/// Booking flights for the signed-in user. Implemented by the embedded backend over the
/// reservations ledger.
public protocol FlightBooking: Sendable {
  /// Checks the offer id's signature, re-prices the offer in the currency of its quote and, in one
  /// transaction, takes `adults` seats on every segment, charges the card exactly the quoted total
  /// and records the reservation with a six-character record locator (PNR). A price that moved
  /// either way since the search is never charged: it is `price_changed` with the new offer.
  /// - Throws: ``ServiceError``: `not_signed_in` (`.unauthenticated`); `invalid_offer_id` (an id
  ///   altered or signed elsewhere), `offer_expired`, `passenger_count`, `idempotency_key_reused`
  ///   (invalid input); `price_changed` (`.refused`, with the new `price` and `offerId` in
  ///   `details`), `sold_out`, `duplicate_booking` (a passenger already holds a seat on one of the
  ///   flights; details `reservationId`), `card_declined`, `card_not_found` (`.refused`). Nothing
  ///   is taken when it throws.
  func book(_ request: FlightBookingRequest, token: String) throws -> Reservation
}
