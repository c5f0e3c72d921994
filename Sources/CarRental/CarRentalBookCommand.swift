import Common
import Foundation

extension CarRentalCommands {
  static func book(_ environment: CarRentalEnvironment) -> Command {
    Command(
      name: "book",
      summary: L("Book a car offer for the signed-in user (charges the card; free cancellation until pick-up)."),
      discussion: """
        The offer id is signed by the search: an id edited by hand exits 2 with invalid_offer_id. The offer is
        priced again for whoever is signed in now: if the price moved (up or down) it exits 1 with price_changed (and
        the new offer id); if every car of the class is taken it exits 1 with sold_out; nothing is taken or charged
        then. A driver who already holds a rental for overlapping times is refused (duplicate_booking) unless
        --allow-duplicate. A retry with the same --idempotency-key and the same request returns the first
        reservation; the same key with another request exits 2 (idempotency_key_reused). Cancel with
        'account trips cancel ID' (free until pick-up).
        """,
      arguments: [ArgumentSpec("OFFER_ID", help: L("An id printed by 'search'."))],
      options: [
        .option("driver", "NAME", help: L("The driver, \"Given Family\"."), required: true),
        .option("card", "ID", help: L("The card to charge."), default: L("the default card")),
        .option("idempotency-key", "K", help: L("A retry with the same key returns the first reservation.")),
        .flag("allow-duplicate", help: L("Book even if the driver already holds a rental for overlapping times.")),
      ],
      examples: [
        "car_zephyr_LAX_LAX_CDAR_202612201000_202612271000_-_41234USD_\(OfferSignature.example) --driver \"Ada Lovelace\""
      ],
      action: { invocation in
        let request = CarBookingRequest(
          offerID: try invocation.argument(0, name: "OFFER_ID"), driverName: try invocation.required("driver"),
          cardID: invocation.value("card"), idempotencyKey: invocation.value("idempotency-key"),
          allowDuplicate: invocation.flag("allow-duplicate"))
        let reservation = try environment.service(invocation.context).book(request)
        try invocation.context.emit(json: ReservationDocument(reservation)) {
          CarRentalText.reservation(reservation, money: invocation.context.money)
        }
      })
  }
}

/// `{"reservation": {"id", "kind": "car", "status", "total", …}}` (docs/CLI.md, Reservations);
/// instants in the pick-up desk's zone (`details.timeZone`).
struct ReservationDocument: Encodable {
  struct Body: Encodable {
    var id: String
    var kind: String
    var status: String
    var total: Money
    var summary: String
    var locator: String?
    var startsAt: String?
    var endsAt: String?
    var details: [String: JSONValue]
  }

  var reservation: Body

  init(_ reservation: Reservation) {
    let zone = reservation.details["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? .gmt
    func iso(_ date: Date?) -> String? {
      date.map { LocalDateTime($0, in: zone).iso8601(in: zone) }
    }
    self.reservation = Body(
      id: reservation.id, kind: reservation.kind.rawValue, status: reservation.status.rawValue,
      total: reservation.total, summary: reservation.summary, locator: reservation.locator,
      startsAt: iso(reservation.startsAt), endsAt: iso(reservation.endsAt), details: reservation.details)
  }
}

extension CarRentalText {
  static func reservation(_ reservation: Reservation, money: MoneyFormat) -> String {
    var lines = [
      "\(reservation.status == .confirmed ? "Booked" : "Reservation") \(reservation.id): \(reservation.summary)"
    ]
    if let locator = reservation.locator { lines.append(L("Confirmation \(locator)")) }
    if let driver = reservation.details["driver"]?.stringValue { lines.append(L("Driver \(driver)")) }
    lines.append(
      L(
        "Charged \(money.string(reservation.total)) · free cancellation until pick-up (account trips cancel \(reservation.id))"
      )
    )
    return lines.joined(separator: "\n")
  }
}
