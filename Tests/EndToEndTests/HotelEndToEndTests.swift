import CommonTesting
import Foundation
import Testing

/// Runs the `hotel` product (and `travel hotels`) as a user would, embedded and against the
/// suite's `travel-server` (``BackendMode``, ``SharedServer``).
@Suite(.sharedServer) struct HotelEndToEndTests {
  /// A date `days` from today (UTC), `YYYY-MM-DD`.
  static func day(_ days: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }

  let stay = ["--check-in", day(30), "--check-out", day(33)]

  func run(_ arguments: [String], product: String = "hotel", backend: TestBackend? = nil) throws
    -> ProductRunner.Result
  {
    let directory = TemporaryDirectory()
    return try (backend ?? TestBackend(.embedded)).run(product, arguments + ["--data-dir", directory.path])
  }

  @Test(arguments: BackendMode.allCases)
  func search_nearParis_listsHotelsInParis_withNightsAndTotals(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    let result = try run(["search", "--near", "Paris"] + stay + ["--guests", "2", "--json"], backend: backend)
    #expect(result.status == 0, "\(result.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let offers = try #require(document?["offers"] as? [[String: Any]])
    #expect(offers.count == 50)
    for offer in offers {
      #expect(offer["nights"] as? Int == 3)
      #expect((offer["distanceKm"] as? Double ?? 99) <= 10)
      let nightly = Decimal(string: (offer["nightlyRate"] as? [String: String])?["amount"] ?? "") ?? 0
      let total = Decimal(string: (offer["total"] as? [String: String])?["amount"] ?? "") ?? 0
      #expect((offer["total"] as? [String: String])?["currency"] == "EUR")
      #expect(total > nightly * 3)  // taxes on top of three nights
    }
  }

  @Test(arguments: BackendMode.allCases)
  func travelHotels_isTheSameCommand(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    let result = try run(
      ["hotels", "search", "--near", "48.8566,2.3522"] + stay + ["--limit", "3"], product: "travel", backend: backend)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("showing 3 of"))
  }

  static let badSearches: [([String], String)] = [
    (["--near", "Atlantisville"], "unknown_place"),
    (["--near", "Springfield"], "ambiguous_place"),
    (["--near", "91,2.35"], "invalid_coordinate"),
    (["--near", "48.85,181"], "invalid_coordinate"),
    (["--near", "Paris", "--guests", "0"], "invalid_guests"),
    (["--near", "Paris", "--guests", "21"], "invalid_guests"),
    (["--near", "Paris", "--rooms", "0"], "invalid_rooms"),
    (["--near", "Paris", "--guests", "2", "--rooms", "10"], "invalid_rooms"),
    (["--near", "Paris", "--radius-km", "-5"], "invalid_radius"),
    (["--near", "Paris", "--max-price", "-10"], "invalid_price"),
    (["--near", "Paris", "--amenities", "wifi,helipad"], "unknown_amenity"),
  ]

  @Test(arguments: badSearches)
  func search_badInput_exitsTwo(arguments: [String], code: String) throws {
    try expectBadSearch(arguments, code: code, backend: TestBackend(.embedded))
  }

  /// The same bad searches against one server: the same exit and code whichever side judges them.
  @Test func search_badInput_exitsTwo_againstTheServer() throws {
    let backend = try TestBackend(.server)
    for (arguments, code) in Self.badSearches { try expectBadSearch(arguments, code: code, backend: backend) }
    backend.expectNoServerErrors()
  }

  func expectBadSearch(_ arguments: [String], code: String, backend: TestBackend) throws {
    let result = try run(["search"] + arguments + stay + ["--json"], backend: backend)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stdout.contains("\"code\" : \"\(code)\""), "\(arguments): \(result.stdout)")
    #expect(result.stderr.hasPrefix("error: "))
    #expect(!result.stderr.contains("Fatal"))
  }

  @Test(arguments: [
    ([day(30), day(30)], "invalid_dates"),
    ([day(33), day(30)], "invalid_dates"),
    ([day(30), day(61)], "too_many_nights"),
    ([day(-3), day(2)], "date_in_past"),
  ])
  func search_badStay_exitsTwo(dates: [String], code: String) throws {
    let result = try run(["search", "--near", "Paris", "--check-in", dates[0], "--check-out", dates[1], "--json"])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stdout.contains("\"code\" : \"\(code)\""), "\(result.stdout)")
  }

  @Test(arguments: BackendMode.allCases)
  func show_malformedId_exitsTwo_unknownId_exitsOne(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    let malformed = try run(["show", "nope", "--json"], backend: backend)
    #expect(malformed.status == 2, "\(malformed.stderr)")
    #expect(malformed.stdout.contains("\"code\" : \"invalid_hotel_id\""), "\(malformed.stdout)")
    #expect(malformed.stderr.contains("h2988507-17"), "\(malformed.stderr)")
    let unknown = try run(["show", "h1-1", "--json"], backend: backend)
    #expect(unknown.status == 1, "\(unknown.stderr)")
    #expect(unknown.stdout.contains("\"code\" : \"hotel_not_found\""), "\(unknown.stdout)")
  }

  @Test(arguments: BackendMode.allCases)
  func map_writesAnSVG(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent("tokyo.svg").path
    let result = try backend.run(
      "hotel", ["map", "--near", "Tokyo", "--svg", path, "--radius-km", "5", "--data-dir", directory.path])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.contains("<circle"))
    #expect(svg.contains("JPY"))
  }
}
