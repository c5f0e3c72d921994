import Common
import Foundation
import Testing

@testable import CarRental

/// The commands against a stub service: parsing, exit statuses and the JSON shape.
@Suite struct CarRentalCommandsTests {
  func run(_ arguments: [String], service: CarRentalService = StubCarService()) -> (Int32, Console) {
    let console = Console.capturing()
    let root = CarRentalCommands.root(environment: CarRentalEnvironment { _ in service })
    let status = CommandLineTool(root: root).run(arguments: arguments, environment: [:], console: console)
    return (status, console)
  }

  let week = ["--pickup", "LAX", "--from", "2026-12-20T10:00", "--to", "2026-12-27T10:00"]

  @Test func help_listsTheCommands() {
    let (status, console) = run(["--help"])
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: car-rental"))
    #expect(console.output.contains("search") && console.output.contains("companies"))
  }

  /// Issue #13: `car-rental promotions` lists every promo code — discount, pick-up dates, minimum
  /// days, companies — in text and JSON (a fixed discount as money: `{"amount","currency"}`).
  @Test func promotions_listsEveryCode_inTextAndJSON() throws {
    let (status, console) = run(["promotions"])
    #expect(status == 0, "\(console.errorOutput)")
    #expect(console.output.contains("WINTER10  10% off the rental · pick-ups 2026-11-01 → 2027-02-28 · 3+ days"))
    #expect(console.output.contains("every company"))
    #expect(console.output.contains("ZEPHYR25  $25.00 off the rental"))
    #expect(console.output.contains("any length · zephyr"))
    let (jsonStatus, json) = run(["promotions", "--json"])
    #expect(jsonStatus == 0)
    let document = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    let promotions = try #require(document?["promotions"] as? [[String: Any]])
    #expect(promotions.compactMap { $0["code"] as? String } == ["WINTER10", "ZEPHYR25"])
    let fixed = try #require(promotions.last?["discount"] as? [String: Any])
    #expect((fixed["amount"] as? [String: String]) == ["amount": "25.00", "currency": "USD"])
    #expect((promotions.first?["discount"] as? [String: Any])?["percent"] as? String == "10")
    #expect(promotions.first?["minimumDays"] as? Int == 3)
  }

  @Test func unknownCommand_exitsTwo() {
    let (status, console) = run(["nonsense"])
    #expect(status == 2)
    #expect(console.errorOutput.contains("nonsense"))
  }

  @Test func search_json_hasTheContractShape() throws {
    let (status, console) = run(["search"] + week + ["--json"])
    #expect(status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any]
    let offers = document?["offers"] as? [[String: Any]]
    let offer = try #require(offers?.first)
    #expect(
      Set(offer.keys)
        == ["id", "company", "acriss", "category", "pickup", "dropoff", "days", "carsAvailable", "total", "discounts"])
    #expect(offer["pickup"] as? String == "2026-12-20T10:00:00-08:00")
    #expect((offer["total"] as? [String: String])?["amount"] == "123.45")
  }

  @Test func search_human_showsEveryLineAndTheCodeInWords() {
    let (status, console) = run(["search"] + week)
    #expect(status == 0)
    #expect(console.output.contains("Compact, 4-5 door, automatic, air conditioning"))
    #expect(console.output.contains("Tax"))
    #expect(console.output.contains("$123.45"))
  }

  @Test func malformedDateTime_exitsTwo() {
    let (status, console) = run(["search", "--pickup", "LAX", "--from", "2026-12-20", "--to", "2026-12-27T10:00"])
    #expect(status == 2)
    #expect(console.errorOutput.contains("YYYY-MM-DDTHH:MM"))
  }

  @Test func malformedClassPattern_exitsTwo() {
    let (status, console) = run(["search"] + week + ["--class", "C**"])
    #expect(status == 2)
    #expect(console.errorOutput.contains("invalid --class \"C**\""))
    let (status2, console2) = run(["search"] + week + ["--class", "Y***", "--json"])
    #expect(status2 == 2)
    #expect(console2.output.contains("invalid_class_pattern"))
  }

  @Test func serviceInvalidInput_exitsTwo_refusalExitsOne() {
    let invalid = StubCarService(error: .invalid("unknown_place", "unknown place \"XXQ\""))
    #expect(run(["search"] + week, service: invalid).0 == 2)
    let refused = StubCarService(error: .refused("outside_opening_hours", "closed"))
    #expect(run(["search"] + week, service: refused).0 == 1)
  }

  @Test func book_json_isAReservationOfKindCar() throws {
    let id = "car_stub_LAX_LAX_CDAR_202612201000_202612271000_-_12345USD"
    let (status, console) = run(["book", id, "--driver", "Ada Lovelace", "--json"])
    #expect(status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any]
    let reservation = try #require(document?["reservation"] as? [String: Any])
    #expect(reservation["kind"] as? String == "car")
    #expect(reservation["status"] as? String == "confirmed")
    #expect(reservation["startsAt"] == nil || reservation["startsAt"] is String)
  }

  @Test func book_withoutDriver_exitsTwo() {
    #expect(run(["book", "car_x"]).0 == 2)
  }

  @Test func companies_listsDesks() {
    let (status, console) = run(["companies", "--pickup", "LAX"])
    #expect(status == 0)
    #expect(console.output.contains("Stub Cars"))
    #expect(console.output.contains("CDAR×3"))
  }
}

/// A service with one fixed offer, or one fixed error.
struct StubCarService: CarRentalService {
  var error: ServiceError?

  static let company = RentalCompany(
    id: "stub", name: "Stub Cars", oneWay: OneWayPolicy(allowed: false, sameCountryOnly: true, fee: .zero("USD")))
  static let location = RentalLocation(
    id: "LAX", kind: .airport, name: "Los Angeles International Airport", iata: "LAX", city: "Los Angeles",
    countryCode: "US", timeZoneIdentifier: "America/Los_Angeles")

  static func offer(_ query: CarSearchQuery) -> CarOffer {
    let code = try! ACRISSCode("CDAR")
    return CarOffer(
      id: "car_stub_LAX_LAX_CDAR_\(query.pickup.compact)_\(query.dropoff.compact)_-_12345USD", company: company,
      pickupLocation: location, dropoffLocation: location, pickup: query.pickup, dropoff: query.dropoff, acriss: code,
      days: 7, carsAvailable: 3,
      lines: [
        PriceLine(kind: .rental, name: "7 days", amount: Money(amount: 110, currency: "USD")),
        PriceLine(kind: .tax, name: "Tax", amount: Money(amount: Decimal(string: "13.45")!, currency: "USD")),
      ], total: Money(amount: Decimal(string: "123.45")!, currency: "USD"))
  }

  func search(_ query: CarSearchQuery) throws -> CarSearchResult {
    if let error { throw error }
    return CarSearchResult(offers: [Self.offer(query)], notices: [], currency: "USD")
  }

  func promoCodes() throws -> [PromoCode] {
    [
      PromoCode(
        code: "WINTER10", discount: .percent(10), validFrom: "2026-11-01", validUntil: "2027-02-28", minimumDays: 3,
        companies: []),
      PromoCode(
        code: "ZEPHYR25", discount: .fixed(Money(amount: 25, currency: "USD")), validFrom: "2026-01-01",
        validUntil: "2027-12-31", minimumDays: 1, companies: ["zephyr"]),
    ]
  }

  func companies(at place: String) throws -> [CompanyAtPlace] {
    if let error { throw error }
    return [
      CompanyAtPlace(
        company: Self.company,
        desks: [CompanyAtPlace.Desk(location: Self.location, hours: .allDay, fleet: [try ACRISSCode("CDAR"): 3])])
    ]
  }

  func book(_ request: CarBookingRequest) throws -> Reservation {
    if let error { throw error }
    return Reservation(
      id: "res_1", kind: .car, status: .confirmed, total: Money(amount: Decimal(string: "123.45")!, currency: "USD"),
      createdAt: Date(timeIntervalSince1970: 0), summary: "Stub Cars CDAR", locator: "ABC123",
      details: ["driver": .string(request.driverName), "timeZone": .string("America/Los_Angeles")])
  }

  func suggestPlaces(_ prefix: String, limit: Int) -> [CarPlaceSuggestion] {
    [CarPlaceSuggestion(code: "LAX", label: "LAX — Los Angeles International Airport")]
      .filter { $0.code.hasPrefix(prefix.uppercased()) }
  }
}
