import CommonTesting
import Foundation
import Testing

/// The `booking` product, run as real processes on a temporary data directory; the key paths run
/// embedded and against the suite's `travel-server` (``BackendMode``, ``SharedServer``).
@Suite(.sharedServer, .serialized) struct FlightsEndToEndTests {
  /// A date `days` from today (UTC), `YYYY-MM-DD`.
  static func date(_ days: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
  }

  /// The apps of one test: a client data directory (`TRAVEL_DATA_DIR`) and the backend of `mode`.
  struct App: Sendable {
    let backend: TestBackend
    let directory = TemporaryDirectory(prefix: "flights-e2e")

    init(_ mode: BackendMode = .embedded) throws { backend = try TestBackend(mode) }

    func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
      try backend.run(product, arguments, stdin: stdin, environment: ["TRAVEL_DATA_DIR": directory.path])
    }

    func booking(_ arguments: [String]) throws -> ProductRunner.Result {
      try run("booking", arguments)
    }

    func offers(_ arguments: [String]) throws -> [[String: Any]] {
      let result = try booking(["search", "--json"] + arguments)
      #expect(result.status == 0, "\(result.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      return json?["offers"] as? [[String: Any]] ?? []
    }

    func signIn() throws {
      let password = "correct horse battery staple\n"
      let signup = try run(
        "account", ["signup", "--email", backend.email("ada"), "--first-name", "Ada", "--last-name", "Lovelace"],
        stdin: password + password)
      #expect(signup.status == 0, "\(signup.stderr)")
      let login = try run("account", ["login", "--email", backend.email("ada")], stdin: password)
      #expect(login.status == 0, "\(login.stderr)")
      let card = try run("account", ["cards", "add"], stdin: "4242424242424242\n12/30\n123\n")
      #expect(card.status == 0, "\(card.stderr)")
    }
  }

  /// #14 Places: `booking airports LON` ranked a Chinese airport above Luton and offered no "all
  /// airports" choice; an ambiguous place suggested a text that was ambiguous again.
  @Test(arguments: BackendMode.allCases)
  func airports_metroCodeFirstWithItsAirports_ambiguousPlacesSuggestTextsThatResolve(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    let result = try app.booking(["airports", "LON", "--limit", "7", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let airports = json?["airports"] as? [[String: Any]] ?? []
    #expect(airports.map { $0["iata"] as? String } == ["LON", "LHR", "LGW", "STN", "LTN", "LCY", "SEN"])
    #expect(airports.first?["airports"] as? [String] == ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"])
    #expect(airports[1]["airports"] == nil)  // an airport has no such key
    let text = try app.booking(["airports", "tokyo"])
    #expect(text.stdout.hasPrefix("TYO  Tokyo, all airports: NRT HND, JP"))
    let ambiguous = try app.booking(["search", "--from", "Springfield", "--to", "LAX", "--date", Self.date(20)])
    #expect(ambiguous.status == 2)
    #expect(ambiguous.stderr.contains("\"Springfield, MO\""))
    let chosen = try app.booking(["search", "--from", "Springfield, MO", "--to", "LAX", "--date", Self.date(20)])
    #expect(chosen.status == 0, "\(chosen.stderr)")
  }

  /// #14 Places: the home airport, documented as "the default origin of flight searches", was
  /// used nowhere.
  @Test(arguments: BackendMode.allCases)
  func homeAirport_isTheDefaultFrom(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    let missing = try app.booking(["search", "--to", "JFK", "--date", Self.date(20)])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("set a home airport (account preferences --home-airport SFO)"))
    try app.signIn()
    let set = try app.run("account", ["preferences", "--home-airport", "SFO"])
    #expect(set.status == 0, "\(set.stderr)")
    let found = try app.offers(["--to", "JFK", "--date", Self.date(20), "--max-stops", "0"])
    #expect(!found.isEmpty)
    let origins = found.compactMap { ($0["itineraries"] as? [[String: Any]])?.first?["from"] as? String }
    #expect(!origins.isEmpty && origins.allSatisfy { $0 == "SFO" }, "\(origins)")
    // --from still wins.
    let fromLAX = try app.offers(["--from", "LAX", "--to", "JFK", "--date", Self.date(20), "--max-stops", "0"])
    #expect(!fromLAX.isEmpty)
  }

  @Test(arguments: BackendMode.allCases)
  func search_sfoToJFK_nonstopOnRealCarriers(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    let found = try app.offers(["--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--max-stops", "0"])
    #expect(found.count >= 5)
    let carriers = Set(found.compactMap { (($0["segments"] as? [[String: Any]])?.first?["carrier"]) as? String })
    // The carriers of today: US Airways and Virgin America fly as American and Alaska.
    #expect(carriers.isSubset(of: ["AA", "AS", "B6", "DL", "UA"]))
    let segments = found.compactMap { ($0["segments"] as? [[String: Any]])?.first }
    #expect(segments.allSatisfy { $0["operatingCarrier"] as? String == $0["carrier"] as? String })
    #expect(segments.allSatisfy { $0["codeshares"] is [[String: String]] })
    let departure = (found.first?["segments"] as? [[String: Any]])?.first?["departure"] as? String
    #expect(departure?.hasSuffix("-08:00") == true)
  }

  @Test(arguments: BackendMode.allCases)
  func bookedFlight_tripTimesAreLocalAtDepartureAndArrival(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    try app.signIn()
    let found = try app.offers(["--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--max-stops", "0"])
    let id = try #require(found.first?["id"] as? String)
    let booked = try app.booking(["book", id, "--passenger", "Ada Lovelace", "--json"])
    #expect(booked.status == 0, "\(booked.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(booked.stdout.utf8)) as? [String: Any]
    let reservation = try #require(
      ((document?["reservation"] as? [String: Any])?["id"] ?? document?["id"]) as? String, "\(booked.stdout)")
    let shown = try app.run("account", ["trips", "show", reservation, "--json"])
    #expect(shown.status == 0, "\(shown.stderr)")
    let trip = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
    let fields = trip?["reservation"] as? [String: Any]
    // December: San Francisco is UTC-8, New York UTC-5.
    #expect((fields?["startsAt"] as? String)?.hasSuffix("-08:00") == true, "\(shown.stdout)")
    #expect((fields?["endsAt"] as? String)?.hasSuffix("-05:00") == true, "\(shown.stdout)")
    let text = try app.run("account", ["trips", "show", reservation])
    // The when line is in local times (only the booking instant is in UTC).
    let when = text.stdout.split(separator: "\n").first { $0.contains(" to ") }
    #expect(text.status == 0 && when != nil && when?.contains("UTC") == false, "\(text.stdout)")
    #expect(text.stdout.contains("Charged to Visa •••• 4242"), "\(text.stdout)")
  }

  static let badInputs: [[String]] = [
    ["search", "--from", "XXQ", "--to", "JFK", "--date", date(30)],
    ["search", "--from", "SFO", "--to", "SFO", "--date", date(30)],
    ["search", "--from", "SFO", "--to", "JFK", "--date", "2026-02-30"],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(-3)],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(345)],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(30), "--return", date(20)],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(30), "--adults", "10"],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(30), "--cabin", "coach"],
    ["search", "--from", "SFO", "--to", "JFK", "--date", date(30), "--currency", "XYZ"],
    ["book", "not-an-offer", "--passenger", "Ada Lovelace"],
    ["book", "FL1.Y.1.20200101UA1478.USD35162", "--passenger", "Ada Lovelace"],
  ]

  @Test(arguments: badInputs)
  func badInput_exitsTwo(arguments: [String]) throws {
    try Self.expectBadInput(arguments, app: try App())
  }

  /// The same bad input against one server: refused with exit 2 whichever side judges it.
  @Test func badInput_exitsTwo_againstTheServer() throws {
    let app = try App(.server)
    for arguments in Self.badInputs { try Self.expectBadInput(arguments, app: app) }
    app.backend.expectNoServerErrors()
  }

  static func expectBadInput(_ arguments: [String], app: App) throws {
    let result = try app.booking(arguments)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("error: "))
    #expect(!result.stderr.contains("Fatal error"))
  }

  /// A traveller who prefers EUR sees flights in EUR, books at the EUR total shown, and finds the
  /// trip charged in EUR; `--currency` overrides the preference; an unknown code exits 2.
  @Test(arguments: BackendMode.allCases)
  func preferredCurrency_pricesSearchBookingAndTrip(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    try app.signIn()
    let preferences = try app.run("account", ["preferences", "--currency", "EUR"])
    #expect(preferences.status == 0, "\(preferences.stderr)")
    let found = try app.offers(["--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--adults", "2"])
    #expect(!found.isEmpty)
    for offer in found {
      let price = try #require(offer["price"] as? [String: String])
      #expect(price["currency"] == "EUR")
      #expect(price["amount"]?.split(separator: ".").last?.count == 2, "\(price)")
      let fare = try #require(offer["fare"] as? [String: [String: String]])
      let parts = ["fare", "taxesAndFees", "total"].compactMap { fare[$0]?["amount"].flatMap { Decimal(string: $0) } }
      #expect(parts.count == 3 && parts[0] + parts[1] == parts[2], "\(fare)")
      #expect(fare["total"] == price)
      // The id quotes the total (then its signature).
      let idParts = (offer["id"] as? String)?.split(separator: ".").map(String.init) ?? []
      #expect(idParts.dropLast().last == "EUR" + (price["amount"] ?? "").replacingOccurrences(of: ".", with: ""))
    }
    let offer = try #require(found.first)
    let price = try #require(offer["price"] as? [String: String])
    let id = try #require(offer["id"] as? String)

    let passengers = ["--passenger", "Ada Lovelace", "--passenger", "Charles Babbage", "--idempotency-key", "eur-1"]
    let booked = try app.booking(["book", id, "--json"] + passengers)
    #expect(booked.status == 0, "\(booked.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(booked.stdout.utf8)) as? [String: Any]
    let reservation = try #require(document?["reservation"] as? [String: Any])
    #expect(reservation["total"] as? [String: String] == price)
    // The same key again: the first reservation, said in words.
    let text = try app.booking(["book", id] + passengers)
    #expect(text.stdout.contains("Total charged: €"), "\(text.stdout)\(text.stderr)")

    let trips = try app.run("account", ["trips", "list", "--json"])
    #expect(trips.status == 0, "\(trips.stderr)")
    let listed = try JSONSerialization.jsonObject(with: Data(trips.stdout.utf8)) as? [String: Any]
    let first = try #require(
      (listed?["reservations"] as? [[String: Any]])?.first { $0["id"] as? String == reservation["id"] as? String })
    #expect(first["total"] as? [String: String] == price)

    // --currency overrides the preference; an unknown code is refused, naming what is accepted.
    let inYen = try app.offers(["--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--currency", "JPY"])
    #expect(inYen.allSatisfy { ($0["price"] as? [String: String])?["currency"] == "JPY" })
    #expect(inYen.allSatisfy { ($0["price"] as? [String: String])?["amount"]?.contains(".") == false })
    let unknown = try app.booking([
      "search", "--from", "SFO", "--to", "JFK", "--date", Self.date(30), "--currency", "XYZ", "--json",
    ])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("unknown currency \"XYZ\"") && unknown.stderr.contains("EUR"), "\(unknown.stderr)")
    #expect(unknown.stdout.contains("\"unknown_currency\""))
  }

  /// Twenty processes race for the seats of one business cabin with the same signed offer: a
  /// seat sold moves the price, and nobody is charged a price they were not shown, so the winners
  /// are those who booked before the price moved (at least one, never more than the seats) and
  /// every loser gets `price_changed` (with the new offer) or `sold_out`, never a storage error; the
  /// seats sold are exactly the winners'; the original quote is then refused the same way.
  @Test(arguments: BackendMode.allCases)
  func twentyProcesses_neverOversell_norChargeAnUnseenPrice(mode: BackendMode) throws {
    let app = try App(mode)
    defer { app.backend.expectNoServerErrors() }
    try app.signIn()
    let found = try app.offers([
      "--from", "SFO", "--to", "JFK", "--date", Self.date(40), "--max-stops", "0", "--cabin", "business",
      "--sort", "departure",
    ])
    let offer = try #require(found.first { ($0["seatsAvailable"] as? Int ?? 0) < 20 })
    let id = try #require(offer["id"] as? String)
    let seats = try #require(offer["seatsAvailable"] as? Int)
    let price = try #require(offer["price"] as? [String: String])
    let flights = id.split(separator: ".").dropLast(2).joined(separator: ".")

    let lock = NSLock()
    nonisolated(unsafe) var runs: [ProductRunner.Result?] = []
    let threads = (0..<20).map { index in
      Thread {
        let result = try? app.run(
          "booking", ["book", id, "--passenger", "Buyer Number\(String(repeating: "x", count: index))", "--json"])
        lock.withLock { runs.append(result) }
      }
    }
    threads.forEach { $0.start() }
    let deadline = Date().addingTimeInterval(120)
    while lock.withLock({ runs.count }) < 20 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    let results = lock.withLock { runs }.compactMap { $0 }
    #expect(results.count == 20)

    let winners = results.filter { $0.status == 0 }
    #expect((1...min(seats, 20)).contains(winners.count), "\(winners.count) of \(seats) seats")
    for winner in winners {
      let document = try JSONSerialization.jsonObject(with: Data(winner.stdout.utf8)) as? [String: Any]
      #expect((document?["reservation"] as? [String: Any])?["total"] as? [String: String] == price)
    }
    for loser in results where loser.status != 0 {
      #expect(loser.status == 1, "\(loser.stderr)")
      #expect(
        loser.stdout.contains("\"price_changed\"") || loser.stdout.contains("\"sold_out\""), "\(loser.stderr)")
    }
    let after = try app.offers([
      "--from", "SFO", "--to", "JFK", "--date", Self.date(40), "--max-stops", "0", "--cabin", "business",
      "--sort", "departure", "--limit", "1000",
    ])
    let same = after.first { ($0["id"] as? String)?.hasPrefix(flights + ".") == true }
    #expect((same?["seatsAvailable"] as? Int ?? 0) == max(0, seats - winners.count))

    let stale = try app.booking(["book", id, "--passenger", "Late Comer", "--json"])
    if winners.count < seats && (same?["price"] as? [String: String]) == price {
      #expect(stale.status == 0, "the price did not move: the quote still books")
    } else {
      #expect(stale.status == 1)
      #expect(stale.stdout.contains("\"price_changed\"") || stale.stdout.contains("\"sold_out\""))
    }
  }
}
