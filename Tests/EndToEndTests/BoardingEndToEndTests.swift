import CommonTesting
import Foundation
import Testing

/// Check-in, seats, boarding passes and the scanner, through the real `booking`, `account` and
/// `travel` executables on a temporary data directory; processes race for seats and check-in.
@Suite(.serialized, .timeLimit(.minutes(5))) struct BoardingEndToEndTests {
  let runner = ProductRunner()
  let directory = TemporaryDirectory(prefix: "boarding-e2e")

  var environment: [String: String] { ["TRAVEL_DATA_DIR": directory.path] }

  func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
    try runner.run(product, arguments, stdin: stdin, environment: environment)
  }

  func json(_ result: ProductRunner.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
  }

  func signIn() throws {
    let password = "correct horse battery staple\n"
    let signup = try run(
      "account", ["signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: password + password)
    #expect(signup.status == 0, "\(signup.stderr)")
    #expect(try run("account", ["login", "--email", "ada@example.com"], stdin: password).status == 0)
    #expect(try run("account", ["cards", "add"], stdin: "4242424242424242\n12/30\n123\n").status == 0)
  }

  /// `YYYY-MM-DD` in `zone`, `days` from now.
  static func date(_ days: Int, zone: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zone)
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
  }

  /// An offer from `from` to `to` whose departure is `hours` from now (today or tomorrow, local).
  func offer(_ from: String, _ to: String, zone: String, adults: Int = 1, hours: ClosedRange<Double>) throws -> String {
    try departingOffer(from, to, zone: zone, adults: adults, hours: hours).id
  }

  /// ``offer(_:_:zone:adults:hours:)`` with its first departure instant.
  func departingOffer(_ from: String, _ to: String, zone: String, adults: Int = 1, hours: ClosedRange<Double>) throws
    -> (id: String, departure: Date)
  {
    let parser = ISO8601DateFormatter()
    for day in 0...2 {
      let found =
        try json(
          try run(
            "booking",
            [
              "search", "--from", from, "--to", to, "--date", Self.date(day, zone: zone), "--max-stops", "0",
              "--adults",
              "\(adults)", "--sort", "departure", "--limit", "1000", "--json",
            ]))["offers"] as? [[String: Any]] ?? []
      for offer in found {
        guard let segment = (offer["segments"] as? [[String: Any]])?.first,
          let text = segment["departure"] as? String, let departure = parser.date(from: text)
        else { continue }
        let ahead = departure.timeIntervalSinceNow / 3600
        if hours.contains(ahead), let id = offer["id"] as? String { return (id, departure) }
      }
    }
    Issue.record("no \(from)–\(to) flight \(hours) hours from now")
    throw CancellationError()
  }

  func book(_ offer: String, _ passengers: [String]) throws -> String {
    let result = try run("booking", ["book", offer, "--json"] + passengers.flatMap { ["--passenger", $0] })
    #expect(result.status == 0, "\(result.stderr)")
    return try #require((try json(result)["reservation"] as? [String: Any])?["id"] as? String)
  }

  /// An economy seat of `reservation`'s first flight: row `row` (0 the first economy row) and the
  /// cabin's letter `letter` (0 the left window), from `booking seats --json`.
  func economySeat(_ reservation: String, row: Int, letter: Int) throws -> String {
    let maps = try json(try run("booking", ["seats", reservation, "--json"]))
    let leg = try #require((maps["legs"] as? [[String: Any]])?.first)
    let cabins = try #require((leg["map"] as? [String: Any])?["cabins"] as? [[String: Any]])
    let economy = try #require(cabins.first { $0["cabin"] as? String == "economy" })
    let rows = try #require(economy["rows"] as? [Int])
    let letters = try #require(economy["letters"] as? [String])
    return "\(rows[min(row, rows.count - 1)])\(letters[min(letter, letters.count - 1)])"
  }

  /// Books the flights of `offer` at their current price: each seat sold raises the price, and a
  /// signed offer id cannot be edited, so a `price_changed` answer's new offer is booked instead.
  func bookAtCurrentPrice(_ offer: String, _ passengers: [String]) throws -> String {
    var id = offer
    for _ in 0..<5 {
      let result = try run("booking", ["book", id, "--json"] + passengers.flatMap { ["--passenger", $0] })
      if result.status == 0 {
        return try #require((try json(result)["reservation"] as? [String: Any])?["id"] as? String)
      }
      let error = (try? json(result))?["error"] as? [String: Any]
      guard error?["code"] as? String == "price_changed", let next = error?["offerId"] as? String else {
        Issue.record("booking \(id) failed: \(result.stderr)")
        throw CancellationError()
      }
      id = next
    }
    Issue.record("the price of \(offer) kept changing")
    throw CancellationError()
  }

  @Test func checkIn_boardingPassFiles_andTheScannerReadsThemBack() throws {
    try signIn()
    let offer = try offer("LAX", "SFO", zone: "America/Los_Angeles", adults: 2, hours: 3...22)
    let reservation = try book(offer, ["Ada Lovelace", "Charles Babbage"])

    // The seat map, then a seat chosen.
    let map = try run("booking", ["seats", reservation])
    #expect(map.status == 0, "\(map.stderr)")
    #expect(map.stdout.contains("LAX → SFO") && map.stdout.contains("EXIT") && map.stdout.contains(". free"))
    #expect(map.stdout.contains("Ada Lovelace: no seat yet"), "\(map.stdout)")

    let seat = try economySeat(reservation, row: 6, letter: 0)
    let checked = try run(
      "travel", ["trips", "checkin", reservation, "--passenger", "Ada Lovelace", "--seat", seat, "--json"])
    #expect(checked.status == 0, "\(checked.stderr)")
    let document = try #require(try json(checked)["checkIn"] as? [String: Any])
    let assignments = try #require(document["assignments"] as? [[String: Any]])
    let ada = try #require(assignments.first { $0["passenger"] as? String == "Ada Lovelace" })
    #expect(ada["seat"] as? String == seat && ada["checkedIn"] as? Bool == true && ada["sequence"] as? Int == 1)
    let babbage = try #require(assignments.first { $0["passenger"] as? String == "Charles Babbage" })
    #expect(babbage["checkedIn"] as? Bool == false)

    // PNG in each symbology, SVG; the scanner reads the PNGs back.
    for symbology in ["pdf417", "aztec", "qr"] {
      let file = directory.url.appendingPathComponent("pass-\(symbology).png").path
      let written = try run(
        "account", ["trips", "boarding-pass", reservation, "--png", file, "--symbology", symbology])
      #expect(written.status == 0, "\(written.stderr)")
      let scanned = try run("booking", ["boarding-pass", "scan", file, "--json"])
      #expect(scanned.status == 0, "\(scanned.stderr)")
      let report = try json(scanned)
      #expect((report["barcode"] as? [String: Any])?["symbology"] as? String == symbology)
      #expect((report["signature"] as? [String: Any])?["status"] as? String == "valid")
      #expect((report["trip"] as? [String: Any])?["reservationId"] as? String == reservation)
      let pass = try #require(report["pass"] as? [String: Any])
      #expect(pass["passengerName"] as? String == "LOVELACE/ADA")
      #expect(
        ((pass["legs"] as? [[String: Any]])?.first?["seat"]) as? String == String(repeating: "0", count: 4 - seat.count)
          + seat)
    }
    let svg = directory.url.appendingPathComponent("pass.svg").path
    let svgRun = try run("travel", ["trips", "boarding-pass", reservation, "--svg", svg, "--symbology", "qr"])
    #expect(svgRun.status == 0, "\(svgRun.stderr)")
    #expect(String(decoding: FileManager.default.contents(atPath: svg) ?? Data(), as: UTF8.self).contains("<svg"))

    // On screen: the pass's lines and the half-block code.
    let shown = try run("account", ["trips", "boarding-pass", reservation])
    #expect(shown.status == 0 && shown.stdout.contains("BOARDING PASS  ADA LOVELACE"), "\(shown.stdout)\(shown.stderr)")
    #expect(shown.stdout.contains("▀") || shown.stdout.contains("▄"))

    // The scanner in words, its text form, strict refusals with positions.
    let words = try run("booking", ["boarding-pass", "scan", directory.url.appendingPathComponent("pass-qr.png").path])
    #expect(words.stdout.contains("item 117") && words.stdout.contains("checked in"), "\(words.stdout)")
    #expect(words.stdout.contains("Signature: valid"))
    let example = try run(
      "booking",
      ["boarding-pass", "scan", "--text", "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100", "--json"])
    #expect(example.status == 0, "\(example.stderr)")
    #expect((try json(example)["signature"] as? [String: Any])?["status"] as? String == "absent")
    let bad = try run(
      "booking",
      ["boarding-pass", "scan", "--strict", "--text", "M1DESMARAIS/LUC        ABC123 YULFRAAC 0834 326J001A0025 100"])
    #expect(
      bad.status == 2 && bad.stderr.contains("item 253 (electronic ticket indicator) at character 23"), "\(bad.stderr)")
    let lenient = try run(
      "booking", ["boarding-pass", "scan", "--text", "M1DESMARAIS/LUC        ABC123 YULFRAAC 0834 326J001A0025 100"])
    #expect(lenient.status == 0 && lenient.stdout.contains("Deviations from the standard accepted"))
  }

  @Test func scanner_badInput_isAClearError() throws {
    let notImage = directory.url.appendingPathComponent("notes.txt")
    try Data("hello".utf8).write(to: notImage)
    let blank = directory.url.appendingPathComponent("blank.png")
    try Self.whitePNG(width: 64, height: 64).write(to: blank)
    let damaged = directory.url.appendingPathComponent("damaged.png")
    var bytes = [UInt8](Self.whitePNG(width: 64, height: 64))
    bytes[bytes.count - 20] ^= 0xFF
    try Data(bytes).write(to: damaged)
    let cases: [([String], Int32, String)] = [
      (["boarding-pass", "scan", directory.url.appendingPathComponent("missing.png").path], 2, "no such file"),
      (["boarding-pass", "scan", notImage.path], 2, "not a PNG or JPEG image"),
      (["boarding-pass", "scan", blank.path], 1, "no PDF417, Aztec, QR or Data Matrix code"),
      (["boarding-pass", "scan", damaged.path], 2, "the image is damaged"),
      (["boarding-pass", "scan", "--text", "M5DESMARAIS/LUC"], 2, "character"),
      (["boarding-pass", "scan"], 2, "missing IMAGE"),
      (["seats", "res_nothing"], 1, "sign in first"),
    ]
    for (arguments, status, text) in cases {
      let result = try run("booking", arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"))
    }
  }

  /// Ten processes try to take the same seat, each for its own booking of the same flight: one
  /// gets it, nine are told it is taken (exit 1), and the seat map shows it once.
  @Test func tenProcesses_raceForOneSeat() throws {
    try signIn()
    let offer = try offer("LAX", "SFO", zone: "America/Los_Angeles", hours: 30...200)
    let reservations = try (0..<10).map {
      try bookAtCurrentPrice(offer, ["Racer Number\(String(repeating: "x", count: $0))"])
    }
    let seat = try economySeat(reservations[0], row: 4, letter: 1)
    let results = Locked<[ProductRunner.Result]>([])
    let group = DispatchGroup()
    for reservation in reservations {
      group.enter()
      Thread.detachNewThread { [runner, environment] in
        if let result = try? runner.run(
          "booking", ["seats", reservation, "--seat", seat, "--leg", "1"], environment: environment)
        {
          results.withLock { $0.append(result) }
        }
        group.leave()
      }
    }
    group.wait()
    let all = results.withLock { $0 }
    #expect(all.count == 10)
    #expect(all.filter { $0.status == 0 }.count == 1, "\(all.map(\.stderr))")
    for loser in all where loser.status != 0 {
      #expect(
        loser.status == 1 && loser.stderr.contains("seat \(seat) on") && loser.stderr.contains("is taken"),
        "\(loser.stderr)")
    }
    // Everyone else seated automatically, at the same time: all different seats.
    let autos = Locked<[ProductRunner.Result]>([])
    for reservation in reservations {
      group.enter()
      Thread.detachNewThread { [runner, environment] in
        if let result = try? runner.run(
          "booking", ["seats", reservation, "--auto", "--json"], environment: environment)
        {
          autos.withLock { $0.append(result) }
        }
        group.leave()
      }
    }
    group.wait()
    var seats: [String] = []
    for result in autos.withLock({ $0 }) {
      #expect(result.status == 0, "\(result.stderr)")
      let legs = try json(result)["legs"] as? [[String: Any]] ?? []
      seats += legs.flatMap { ($0["assignments"] as? [[String: Any]] ?? []).compactMap { $0["seat"] as? String } }
    }
    #expect(seats.count == 10 && Set(seats).count == 10 && seats.contains(seat), "\(seats)")
  }

  /// Eight processes check in eight bookings of one flight at once: sequence numbers 1 … 8.
  @Test func eightProcesses_checkIn_sequenceNumbersGapless() throws {
    try signIn()
    let offer = try offer("LAX", "SFO", zone: "America/Los_Angeles", hours: 3...22)
    let reservations = try (0..<8).map {
      try bookAtCurrentPrice(offer, ["Passenger Number\(String(repeating: "y", count: $0))"])
    }
    let results = Locked<[ProductRunner.Result]>([])
    let group = DispatchGroup()
    for reservation in reservations {
      group.enter()
      Thread.detachNewThread { [runner, environment] in
        if let result = try? runner.run(
          "travel", ["trips", "checkin", reservation, "--json"], environment: environment)
        {
          results.withLock { $0.append(result) }
        }
        group.leave()
      }
    }
    group.wait()
    var sequences: [Int] = []
    for result in results.withLock({ $0 }) {
      #expect(result.status == 0, "\(result.stderr)")
      let document = try json(result)["checkIn"] as? [String: Any]
      sequences += (document?["assignments"] as? [[String: Any]] ?? []).compactMap { $0["sequence"] as? Int }
    }
    #expect(sequences.sorted() == Array(1...8), "\(sequences)")
  }

  @Test func checkIn_outsideTheWindow_saysWhenItOpens() throws {
    try signIn()
    let offer = try departingOffer("LAX", "SFO", zone: "America/Los_Angeles", hours: 30...200)
    let reservation = try book(offer.id, ["Ada Lovelace"])
    let result = try run("account", ["trips", "checkin", reservation, "--json"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("opens at") && result.stderr.contains("America/Los_Angeles (UTC-"), "\(result.stderr)")
    #expect(result.stdout.contains("\"check_in_not_open\""))
    let none = try run("account", ["trips", "boarding-pass", reservation])
    #expect(none.status == 1 && none.stderr.contains("check in first"), "\(none.stderr)")

    // On the app's clock (--clock-start) three hours before departure, check-in is open, in
    // every executable that checks in.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm'Z'"
    let start = formatter.string(from: offer.departure.addingTimeInterval(-3 * 3600))
    let seats = try run("booking", ["seats", reservation, "--auto", "--clock-start", start])
    #expect(seats.status == 0, "\(seats.stderr)")
    let checked = try run("travel", ["trips", "checkin", reservation, "--clock-start", start])
    #expect(checked.status == 0 && checked.stdout.contains("Checked in for reservation"), "\(checked.stderr)")
    let pass = try run("account", ["trips", "boarding-pass", reservation, "--clock-start", start])
    #expect(pass.status == 0, "\(pass.stderr)")
  }
}

extension BoardingEndToEndTests {
  /// A white grey-scale PNG written by hand (stored deflate blocks), so that no image library
  /// is needed to make it.
  static func whitePNG(width: Int, height: Int) -> Data {
    func crc32(_ bytes: [UInt8]) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      }
      return ~crc
    }
    func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be(UInt32(data.count)) + body + be(crc32(body))
    }
    var raw: [UInt8] = []
    for _ in 0..<height { raw += [0] + [UInt8](repeating: 255, count: width) }
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    let length = UInt16(raw.count)
    let zlib: [UInt8] =
      [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + raw
      + be(b << 16 | a)
    let header = be(UInt32(width)) + be(UInt32(height)) + [8, 0, 0, 0, 0]
    return Data(
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    )
  }
}

/// A value behind a lock, shareable by reference.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
