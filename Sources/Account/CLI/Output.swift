import Common
import Foundation

/// ISO 8601 text of instants for JSON and human output.
enum InstantText {
  /// `2026-12-20T08:05:00-08:00` in `zone`, or `…Z` in UTC.
  static func iso(_ date: Date, zone: TimeZone? = nil) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = zone ?? TimeZone(identifier: "UTC")!
    return formatter.string(from: date)
  }

  /// `2026-12-20 08:05` in `zone` (UTC when nil, then with a trailing ` UTC`).
  static func human(_ date: Date, zone: TimeZone? = nil) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone ?? TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let text = String(
      format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0)
    return zone == nil ? text + " UTC" : text
  }
}

/// `{"profile": {...}}`.
struct ProfileDocument: Encodable {
  var profile: UserProfile
}

/// A session without its token: `{"email", "expiresAt"}`.
struct SessionSummary: Encodable {
  var email: String
  var expiresAt: String
}

/// `{"session": …, "profile": …}`, for login and whoami.
struct SignedInDocument: Encodable {
  var session: SessionSummary
  var profile: UserProfile?
}

/// `{"preferences": {"currency", "language", "appearance", "homeAirport"}}`.
struct PreferencesDocument: Encodable {
  struct Body: Encodable {
    var currency: String
    var language: String
    var appearance: String
    var homeAirport: String?

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(currency, forKey: .currency)
      try container.encode(language, forKey: .language)
      try container.encode(appearance, forKey: .appearance)
      try container.encode(homeAirport, forKey: .homeAirport)  // null when unset
    }

    enum CodingKeys: String, CodingKey { case currency, language, appearance, homeAirport }
  }

  var preferences: Body

  init(_ preferences: Preferences) {
    self.preferences = Body(
      currency: preferences.currencyCode, language: preferences.language,
      appearance: preferences.appearance.rawValue, homeAirport: preferences.homeAirport)
  }
}

/// A card for output: `{"id", "brand", "last4", "expiry": "MM/YY", "expiryMonth", "expiryYear", "isDefault", "display"}`.
struct CardSummary: Encodable {
  var id: String
  var brand: String
  var last4: String
  var expiry: String
  var expiryMonth: Int
  var expiryYear: Int
  var isDefault: Bool
  var display: String

  init(_ card: PaymentCard) {
    id = card.id
    brand = card.brand
    last4 = card.last4
    expiryMonth = card.expiryMonth
    expiryYear = card.expiryYear
    expiry = String(format: "%02d/%02d", card.expiryMonth, card.expiryYear % 100)
    isDefault = card.isDefault
    display = PaymentCardValidation.masked(
      brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4)
  }
}

/// A reservation for output, instants as ISO 8601 text (`CLI.md`: `{"id", "kind", "status", "total", …}`).
struct ReservationSummary: Encodable {
  var id: String
  var kind: String
  var status: String
  var total: Money
  var summary: String
  var locator: String?
  var createdAt: String
  var startsAt: String?
  var endsAt: String?
  var cancelledAt: String?
  var refunded: Money?
  /// What the cancellation kept (`total − refunded`), once cancelled.
  var cancellationFee: Money?
  var details: [String: JSONValue]

  init(_ reservation: Reservation) {
    id = reservation.id
    kind = reservation.kind.rawValue
    status = reservation.status.rawValue
    total = reservation.total
    summary = reservation.summary
    locator = reservation.locator
    createdAt = InstantText.iso(reservation.createdAt)
    startsAt = reservation.startsAt.map { InstantText.iso($0, zone: reservation.startTimeZone) }
    endsAt = reservation.endsAt.map { InstantText.iso($0, zone: reservation.endTimeZone) }
    cancelledAt = reservation.cancelledAt.map { InstantText.iso($0) }
    refunded = reservation.refunded
    cancellationFee = reservation.cancellationFee
    details = reservation.details
  }
}
