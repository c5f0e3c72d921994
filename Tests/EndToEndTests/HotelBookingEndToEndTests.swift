import CommonTesting
import Foundation
import Testing

/// Booking hotels end to end: a user made with the `account` product books with `hotel`, sees the
/// stay under trips, cancels it, and real processes race for the last room; embedded and against the
/// suite's `travel-server` (``BackendMode``, ``SharedServer``: each test sets ``backend`` first).
/// Serialized: on the shared server, tests count the free rooms of the same hotels.
@Suite(.sharedServer, .serialized) final class HotelBookingEndToEndTests: @unchecked Sendable {
  static let password = "correct horse battery"

  let directory = TemporaryDirectory(prefix: "hotel-e2e")
  /// Set once at the start of each test (a new suite instance runs each test).
  var backend = TestBackend()

  @discardableResult
  func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
    try backend.run(product, arguments + ["--data-dir", directory.path], stdin: stdin)
  }

  func json(_ result: ProductRunner.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
  }

  func signUpWithCard() throws {
    let signup = try run(
      "account", ["signup", "--email", backend.email("ada"), "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: Self.password + "\n" + Self.password + "\n")
    #expect(signup.status == 0, "\(signup.stderr)")
    #expect(try run("account", ["login", "--email", backend.email("ada")], stdin: Self.password + "\n").status == 0)
    #expect(try run("account", ["cards", "add"], stdin: "4242424242424242\n12/30\n123\n").status == 0)
  }

  let stay = ["--check-in", HotelEndToEndTests.day(40), "--check-out", HotelEndToEndTests.day(42)]

  /// Free rooms of `roomType` at `hotelId` for the stay (0 when none is offered).
  func freeRooms(_ hotelId: String, _ roomType: String) throws -> Int {
    let show = try json(try run("hotel", ["show", hotelId] + stay + ["--json"]))
    let offers = show["offers"] as? [[String: Any]] ?? []
    return offers.first { $0["roomType"] as? String == roomType }?["roomsAvailable"] as? Int ?? 0
  }

  @Test(arguments: BackendMode.allCases)
  func book_showsUnderTrips_cancel_freesTheRoom(mode: BackendMode) throws {
    backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    try signUpWithCard()
    let search = try json(
      try run("hotel", ["search", "--near", "Paris"] + stay + ["--guests", "2", "--limit", "1", "--json"]))
    let offer = try #require((search["offers"] as? [[String: Any]])?.first)
    let offerId = try #require(offer["id"] as? String)
    let hotelId = try #require(offer["hotelId"] as? String)
    let roomType = try #require(offer["roomType"] as? String)
    let before = try freeRooms(hotelId, roomType)

    let booked = try run(
      "hotel", ["book", offerId, "--guest", "Ada Lovelace", "--idempotency-key", "trip-1", "--json"])
    #expect(booked.status == 0, "\(booked.stderr)")
    let reservation = try #require(try json(booked)["reservation"] as? [String: Any])
    let id = try #require(reservation["id"] as? String)
    #expect(reservation["kind"] as? String == "hotel")
    #expect((reservation["total"] as? [String: String]) == (offer["total"] as? [String: String]))
    #expect(try freeRooms(hotelId, roomType) == before - 1)
    // The same key again: the same reservation, nothing more taken.
    let again = try run("hotel", ["book", offerId, "--guest", "Ada Lovelace", "--idempotency-key", "trip-1", "--json"])
    #expect(again.stdout.contains("\"id\" : \"\(id)\""))
    #expect(try freeRooms(hotelId, roomType) == before - 1)

    let trips = try run("account", ["trips", "list", "--json"])
    #expect(trips.stdout.contains(id))
    let cancel = try run("account", ["trips", "cancel", id, "--json", "--yes"])
    #expect(cancel.status == 0, "\(cancel.stderr)")
    #expect(cancel.stdout.contains("\"status\" : \"cancelled\""))
    #expect(try freeRooms(hotelId, roomType) == before)
  }

  @Test(arguments: BackendMode.allCases)
  func book_withoutSession_exitsOne(mode: BackendMode) throws {
    backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    let search = try json(try run("hotel", ["search", "--near", "Paris"] + stay + ["--limit", "1", "--json"]))
    let offerId = try #require((search["offers"] as? [[String: Any]])?.first?["id"] as? String)
    let result = try run("hotel", ["book", offerId, "--guest", "Ada Lovelace"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("sign in"))
  }

  @Test(arguments: BackendMode.allCases)
  func twentyProcesses_racingForTheLastRoom_neverDoubleBook(mode: BackendMode) throws {
    backend = try TestBackend(mode)
    defer { backend.expectNoServerErrors() }
    try signUpWithCard()
    // A room type with few rooms: fill all but one with one booking of several rooms.
    let search = try json(try run("hotel", ["search", "--near", "Paris"] + stay + ["--limit", "1000", "--json"]))
    let offers = try #require(search["offers"] as? [[String: Any]])
    let small = try #require(
      offers.filter { ($0["roomsAvailable"] as? Int ?? 0) <= 10 }.min {
        ($0["roomsAvailable"] as? Int ?? 0) < ($1["roomsAvailable"] as? Int ?? 0)
      })
    let hotelId = try #require(small["hotelId"] as? String)
    let roomType = try #require(small["roomType"] as? String)
    let lastOfferId = try #require(small["id"] as? String)
    let free = try #require(small["roomsAvailable"] as? Int)
    if free > 1 {
      let fill = try json(
        try run("hotel", ["show", hotelId] + stay + ["--guests", "\(free - 1)", "--rooms", "\(free - 1)", "--json"]))
      let fillOffer = try #require(
        (fill["offers"] as? [[String: Any]])?.first { $0["roomType"] as? String == roomType }?["id"] as? String)
      let filled = try run("hotel", ["book", fillOffer, "--guest", "Ada Lovelace"])
      #expect(filled.status == 0, "\(filled.stderr)")
    }
    #expect(try freeRooms(hotelId, roomType) == 1)

    let results = HotelRaceResults()
    DispatchQueue.concurrentPerform(iterations: 20) { index in
      let guest = "Guest Number" + String(repeating: "x", count: index)
      results.append(try? run("hotel", ["book", lastOfferId, "--guest", guest, "--json"]))
    }
    let runs = results.all
    let all = runs.compactMap { $0 }
    #expect(all.count == 20)
    #expect(all.filter { $0.status == 0 }.count == 1, "\(all.map(\.stderr))")
    #expect(all.filter { $0.status == 1 && $0.stdout.contains("\"code\" : \"sold_out\"") }.count == 19)
    #expect(try freeRooms(hotelId, roomType) == 0)
  }
}

/// The outcomes of the racing processes (nil: a process that could not be started).
final class HotelRaceResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [ProductRunner.Result?] = []

  func append(_ result: ProductRunner.Result?) { lock.withLock { results.append(result) } }
  var all: [ProductRunner.Result?] { lock.withLock { results } }
}
