import Common
import CommonTesting
import Foundation
import Testing

/// Several `travel-server` instances on one PostgreSQL (#19), under races and faults: a cluster of
/// the suite's own (``PostgresCluster``), three servers sharing one key directory, and 30 client
/// processes (``StormClient``), each a traveller booking with an `Idempotency-Key` and failing
/// over to the next server on a dropped connection or a 5xx.
@Suite(.timeLimit(.minutes(8)))
struct ScaleAndFaultEndToEndTests {
  static let clients = 30

  /// The cluster, the servers and the travellers, made once for the suite.
  final class Fleet: @unchecked Sendable {
    let postgres: PostgresCluster
    let keys = TemporaryDirectory(prefix: "fleet-keys")
    let scripts = TemporaryDirectory(prefix: "fleet-clients")
    var servers: [ServerProcess]
    var ports: [Int]
    /// The racers' and stormers' tokens (``clients``), then the filler's.
    var tokens: [String] = []
    let date = LocalDate(Date().addingTimeInterval(40 * 86400), in: TimeZone(identifier: "UTC")!)

    var arguments: [String] {
      ["--database", postgres.url, "--sign-ins-per-address", "1000", "--sign-ins-per-email", "100"]
    }
    var urls: [String] { servers.map(\.url.absoluteString) }

    init() throws {
      postgres = try PostgresCluster()
      try StormClient.source.write(
        to: scripts.url.appendingPathComponent("client.py"), atomically: true, encoding: .utf8)
      let made = Box<[Int: Result<ServerProcess, any Error>]>([:])
      let postgres = postgres
      let keys = keys
      let arguments = ["--database", postgres.url, "--sign-ins-per-address", "1000", "--sign-ins-per-email", "100"]
      let started = DispatchGroup()
      for index in 0..<3 {
        started.enter()
        Thread {
          let result = Result { try ServerProcess(arguments: arguments, directory: keys) }
          made.withLock { $0[index] = result }
          started.leave()
        }.start()
      }
      started.wait()
      servers = try (0..<3).map { index in try made.withLock { $0[index]! }.get() }
      ports = servers.map { $0.url.port ?? 0 }
      let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3
      let card: [String: Any] = ["number": "4242424242424242", "expiryMonth": 12, "expiryYear": year, "cvc": "123"]
      let answers = try runAll(
        (0...ScaleAndFaultEndToEndTests.clients).map { index in
          [
            "action": "traveller", "server": urls[index % 3], "email": "client\(index)@storm.example",
            "password": "correct horse battery", "card": card,
          ]
        })
      tokens = try answers.map { answer in
        guard let token = answer["token"] as? String else { throw Failure("traveller: \(answer)") }
        return token
      }
    }

    var filler: String { tokens[ScaleAndFaultEndToEndTests.clients] }

    /// Runs the client script once per spec, all at once; returns their documents in order.
    func runAll(_ specs: [[String: Any]]) throws -> [[String: Any]] {
      try collect(try launch(specs))
    }

    /// Starts the client script once per spec.
    func launch(_ specs: [[String: Any]]) throws -> [(Process, Pipe)] {
      let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
      var running: [(Process, Pipe)] = []
      for (index, spec) in specs.enumerated() {
        let file = scripts.url.appendingPathComponent("spec-\(UUID().uuidString)-\(index).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, scripts.url.appendingPathComponent("client.py").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        running.append((process, output))
      }
      return running
    }

    /// Waits for the clients; their documents in order.
    func collect(_ running: [(Process, Pipe)]) throws -> [[String: Any]] {
      try running.map { process, output in
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
          throw Failure("client exited \(process.terminationStatus): \(String(decoding: data, as: UTF8.self))")
        }
        return document
      }
    }

    /// One request through the client script.
    func call(_ method: String, _ path: String, body: [String: Any]? = nil, token: String? = nil, server: Int = 0)
      throws -> (status: Int, body: [String: Any])
    {
      var spec: [String: Any] = ["action": "call", "server": urls[server], "method": method, "path": path]
      if let body { spec["body"] = body }
      if let token { spec["token"] = token }
      let answer = try runAll([spec])[0]
      return (answer["status"] as? Int ?? 0, answer["body"] as? [String: Any] ?? [:])
    }

    /// Books with `bookings` per client, all clients starting together (client `i` on server
    /// `i % 3`); `fault` runs `faultAfter` seconds into the storm.
    func storm(
      bookings: (Int) -> [[String: Any]], faultAfter: TimeInterval = 0, fault: (() throws -> Void)? = nil
    ) throws -> [[String: Any]] {
      let startAt = Date().addingTimeInterval(1.5)
      let specs: [[String: Any]] = (0..<ScaleAndFaultEndToEndTests.clients).map { index in
        [
          "action": "book", "servers": urls, "first": index % 3, "token": tokens[index],
          "startAt": startAt.timeIntervalSince1970, "deadline": 120, "bookings": bookings(index),
        ]
      }
      let running = try launch(specs)
      if let fault {
        Thread.sleep(until: startAt.addingTimeInterval(faultAfter))
        try fault()
      }
      return try collect(running)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A name PassengerName takes for client `index` ("Racer Bcd").
  static func name(_ prefix: String, _ index: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return
      "\(prefix) \(String(letters[index / 26 % 26]).uppercased())\(letters[index % 26])\(letters[(index * 7) % 26])"
  }

  static func outcomes(_ documents: [[String: Any]]) -> [[String: Any]] {
    documents.flatMap { $0["outcomes"] as? [[String: Any]] ?? [] }
  }

  static func serverErrors(_ documents: [[String: Any]]) -> [String] {
    documents.flatMap { $0["serverErrors"] as? [String] ?? [] }
  }

  static func dropped(_ documents: [[String: Any]]) -> Int {
    documents.reduce(0) { $0 + ($1["dropped"] as? Int ?? 0) }
  }

  /// Races 30 clients for one offer with 5 units left: exactly 5 win, 25 get `sold_out`, no 5xx.
  func race(_ fleet: Fleet, path: String, label: String, body: @escaping (Int) -> [String: Any]) throws {
    let documents = try fleet.storm { index in [["path": path, "key": "race-\(label)-\(index)", "body": body(index)]] }
    let outcomes = Self.outcomes(documents)
    let won = outcomes.filter { $0["status"] as? Int == 201 }
    let lost = outcomes.filter { $0["status"] as? Int == 409 && $0["code"] as? String == "sold_out" }
    #expect(outcomes.count == Self.clients)
    #expect(won.count == 5, "\(label): \(won.count) sold: \(outcomes)")
    #expect(lost.count == Self.clients - 5, "\(label): \(outcomes.filter { $0["status"] as? Int != 201 })")
    #expect(Self.serverErrors(documents).isEmpty, "\(label): \(Self.serverErrors(documents))")
    let stored = try fleet.postgres.sql(
      "SELECT count(*) FROM reservations WHERE status = 'confirmed' AND idempotency_key LIKE 'race-\(label)-%'")
    #expect(stored == "5", "\(label): \(stored) reservations stored")
  }

  /// One fleet for all three (starting three servers costs most of the time): the races, then the
  /// SIGKILL storm, then the PostgreSQL restart storm. The fleet (servers, cluster) goes at the end.
  @Test func threeInstancesOnOnePostgres_thirtyClients_racesSIGKILLAndRestart() throws {
    let fleet = try Fleet()
    try thirtyClientsRaceForTheLastFiveSeatsRoomsAndCars(fleet)
    try sigkillOfAnInstanceMidStorm_clientsFailOver_nothingLostOrChargedTwice(fleet)
    try postgresRestartMidStorm_instancesRecover_noConfirmedBookingLost(fleet)
  }

  func thirtyClientsRaceForTheLastFiveSeatsRoomsAndCars(_ fleet: Fleet) throws {
    let day = fleet.date.description
    let next = LocalDate(Date().addingTimeInterval(41 * 86400), in: TimeZone(identifier: "UTC")!).description

    // Seats: the fullest nonstop's seats taken but 5 (one booked, the rest counted in the store).
    let search: [String: Any] = [
      "origin": "SFO", "destination": "JFK", "departureDate": day, "adults": 1, "cabin": "economy",
      "maxStops": 0, "sort": "price", "limit": 10,
    ]
    let offers = try #require(fleet.call("POST", "/v1/flights/search", body: search).body["offers"] as? [[String: Any]])
    let flight = try #require(offers.max { ($0["seatsAvailable"] as? Int ?? 0) < ($1["seatsAvailable"] as? Int ?? 0) })
    let flightID = try #require(flight["id"] as? String)
    let seats = try #require(flight["seatsAvailable"] as? Int)
    try fill(fleet, path: "/v1/flights/bookings", body: ["offerId": flightID, "passengers": ["Filler Person"]])
    try fleet.postgres.sql("UPDATE flight_seats SET booked = booked + \(seats - 6)")
    let again = try #require(fleet.call("POST", "/v1/flights/search", body: search).body["offers"] as? [[String: Any]])
    let flightKey = flightID.split(separator: ".")[3]
    let lastSeats = try #require(again.first { ($0["id"] as? String)?.split(separator: ".")[3] == flightKey })
    #expect(lastSeats["seatsAvailable"] as? Int == 5)
    try race(fleet, path: "/v1/flights/bookings", label: "seats") { index in
      ["offerId": lastSeats["id"] as? String ?? "", "passengers": [Self.name("Racer", index)]]
    }

    // Rooms: the hotel room with the most rooms free, one night, all taken but 5.
    let stay: [String: Any] = [
      "place": "Lisbon", "checkIn": day, "checkOut": next, "guests": 1, "rooms": 1, "radiusKm": 10,
      "amenities": [String](), "sort": "price", "limit": 50,
    ]
    let hotels = try #require(fleet.call("POST", "/v1/hotels/search", body: stay).body["offers"] as? [[String: Any]])
    let room = try #require(hotels.max { ($0["roomsAvailable"] as? Int ?? 0) < ($1["roomsAvailable"] as? Int ?? 0) })
    let rooms = try #require(room["roomsAvailable"] as? Int)
    #expect(rooms >= 6)
    try fill(
      fleet, path: "/v1/hotels/bookings", body: ["offerId": room["id"] as? String ?? "", "guest": "Filler Person"])
    try fleet.postgres.sql("UPDATE hotel_room_nights SET booked = booked + \(rooms - 6)")
    let query: [String: Any] = [
      "hotelId": room["hotelId"] as? String ?? "", "checkIn": day, "checkOut": next, "guests": 1, "rooms": 1,
    ]
    let roomOffers = try #require(
      fleet.call("POST", "/v1/hotels/rooms", body: query).body["offers"] as? [[String: Any]])
    let lastRooms = try #require(roomOffers.first { $0["roomType"] as? String == room["roomType"] as? String })
    #expect(lastRooms["roomsAvailable"] as? Int == 5)
    try race(fleet, path: "/v1/hotels/bookings", label: "rooms") { index in
      ["offerId": lastRooms["id"] as? String ?? "", "guest": Self.name("Racer", index)]
    }

    // Cars: the smallest fleet of at least 6, booked by the filler but 5.
    let rental: [String: Any] = [
      "pickupPlace": "LAX", "pickup": "\(day)T10:00", "dropoff": "\(next)T10:00", "limit": 50,
    ]
    let cars = try #require(fleet.call("POST", "/v1/cars/search", body: rental).body["offers"] as? [[String: Any]])
    let car = try #require(
      cars.filter { ($0["carsAvailable"] as? Int ?? 0) >= 6 }.min {
        ($0["carsAvailable"] as? Int ?? 0) < ($1["carsAvailable"] as? Int ?? 0)
      })
    let available = try #require(car["carsAvailable"] as? Int)
    for copy in 0..<(available - 5) {
      try fill(
        fleet, path: "/v1/cars/bookings", key: "fill-car-\(copy)",
        body: ["offerId": car["id"] as? String ?? "", "driver": "Filler Person", "allowDuplicate": true])
    }
    let carsAgain = try #require(fleet.call("POST", "/v1/cars/search", body: rental).body["offers"] as? [[String: Any]])
    let lastCars = try #require(
      carsAgain.first {
        $0["acriss"] as? String == car["acriss"] as? String && $0["company"] as? String == car["company"] as? String
      })
    #expect(lastCars["carsAvailable"] as? Int == 5)
    try race(fleet, path: "/v1/cars/bookings", label: "cars") { index in
      ["offerId": lastCars["id"] as? String ?? "", "driver": Self.name("Racer", index)]
    }
  }

  /// One booking by the filler traveller (following a price change), which must succeed.
  func fill(_ fleet: Fleet, path: String, key: String? = nil, body: [String: Any]) throws {
    let spec: [String: Any] = [
      "action": "book", "servers": fleet.urls, "token": fleet.filler, "deadline": 60,
      "bookings": [["path": path, "key": key ?? "fill-\(UUID().uuidString)", "body": body]],
    ]
    let outcome = try #require(Self.outcomes(try fleet.runAll([spec])).first)
    #expect(outcome["status"] as? Int == 201, "filler: \(outcome)")
  }

  /// Every client books three seats (one on each of three flights); `fault` strikes mid-storm.
  /// Afterwards the store holds exactly the reservations confirmed to the clients, one per
  /// idempotency key, each with one payment, captured once.
  func stormSurvives(
    _ fleet: Fleet, label: String, allowServerErrors: Bool, faultAfter: TimeInterval, fault: @escaping () throws -> Void
  ) throws {
    let search: [String: Any] = [
      "origin": "LAX", "destination": "ORD", "departureDate": fleet.date.description, "adults": 1,
      "cabin": "economy", "maxStops": 0, "sort": "price", "limit": 10,
    ]
    let offers = try #require(fleet.call("POST", "/v1/flights/search", body: search).body["offers"] as? [[String: Any]])
    let ids = offers.sorted { ($0["seatsAvailable"] as? Int ?? 0) > ($1["seatsAvailable"] as? Int ?? 0) }
      .prefix(3).compactMap { $0["id"] as? String }
    #expect(ids.count == 3)
    let documents = try fleet.storm(
      bookings: { index in
        ids.enumerated().map { leg, id in
          [
            "path": "/v1/flights/bookings", "key": "storm-\(label)-\(index)-\(leg)",
            "body": ["offerId": id, "passengers": [Self.name("Storm", index)], "allowDuplicate": true],
          ]
        }
      }, faultAfter: faultAfter, fault: fault)
    let outcomes = Self.outcomes(documents)
    #expect(outcomes.count == Self.clients * 3)
    let confirmed = outcomes.filter { $0["status"] as? Int == 201 }
    #expect(confirmed.count == outcomes.count, "\(label): \(outcomes.filter { $0["status"] as? Int != 201 })")
    if !allowServerErrors {
      #expect(Self.serverErrors(documents).isEmpty, "\(label): \(Self.serverErrors(documents))")
    }
    #expect(
      Self.dropped(documents) + Self.serverErrors(documents).count > 0, "\(label): the fault struck no request")
    let stored = try fleet.postgres.sql(
      "SELECT id FROM reservations WHERE idempotency_key LIKE 'storm-\(label)-%' ORDER BY id")
    let storedIDs = stored.split(separator: "\n").map(String.init)
    let confirmedIDs = confirmed.compactMap { $0["reservation"] as? String }.sorted()
    #expect(storedIDs == confirmedIDs, "\(label): stored \(storedIDs.count), confirmed \(confirmedIDs.count)")
    let keys = try fleet.postgres.sql(
      "SELECT count(DISTINCT (user_id, idempotency_key)) FROM reservations WHERE idempotency_key LIKE 'storm-\(label)-%'"
    )
    #expect(keys == "\(storedIDs.count)", "\(label): a key booked twice")
    let payments = try fleet.postgres.sql(
      """
      SELECT count(*) || ' ' || count(*) FILTER (WHERE p.status = 'captured' AND p.captured_minor = r.total_minor)
      FROM payments p JOIN reservations r ON r.payment_id = p.id WHERE r.idempotency_key LIKE 'storm-\(label)-%'
      """)
    #expect(payments == "\(storedIDs.count) \(storedIDs.count)", "\(label): payments \(payments)")
    let orphans = try fleet.postgres.sql(
      "SELECT count(*) FROM payments p WHERE NOT EXISTS (SELECT 1 FROM reservations r WHERE r.payment_id = p.id)")
    #expect(orphans == "0", "\(label): \(orphans) payments without a reservation")
  }

  func sigkillOfAnInstanceMidStorm_clientsFailOver_nothingLostOrChargedTwice(_ fleet: Fleet) throws {
    try stormSurvives(fleet, label: "kill", allowServerErrors: false, faultAfter: 0.5) {
      fleet.servers[1].kill()
    }
    // The killed instance starts again on its port and serves.
    fleet.servers[1] = try ServerProcess(arguments: fleet.arguments, directory: fleet.keys, port: fleet.ports[1])
    #expect(try fleet.call("GET", "/readyz", server: 1).status == 200)
  }

  func postgresRestartMidStorm_instancesRecover_noConfirmedBookingLost(_ fleet: Fleet) throws {
    try stormSurvives(fleet, label: "restart", allowServerErrors: true, faultAfter: 0.5) {
      try fleet.postgres.stop(mode: "immediate")
      Thread.sleep(forTimeInterval: 0.5)
      try fleet.postgres.start()
    }
    for server in 0..<3 {
      #expect(try fleet.call("GET", "/readyz", server: server).status == 200, "server \(server)")
    }
  }
}

/// A value behind a lock.
private final class Box<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try lock.withLock { try body(&value) } }
}
