import Backend
import Common
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Bookings per second with four processes contending for the same scarce inventory.
///
/// One temporary data directory (one SQLite store, WAL, `synchronous=NORMAL`), four users with a
/// card each, and one room type of one hotel (a few rooms) over a run of one-night stays. Four OS
/// processes (this binary again, `--child book-worker`) each build the hotel service over that
/// store and, after a common start signal, go through the same nights in the same order as a user
/// would: list the hotel's rooms for the night, book the room type's offer through
/// ``HotelEngine/book(offerId:guestName:cardId:idempotencyKey:token:)`` (one ledger transaction:
/// take the room, charge the card, record the reservation), again until the night is sold out.
/// Demand exceeds supply, so every room of every night must end up sold.
///
/// Afterwards the store is checked against what the workers reported (``ContentionLedger``): no
/// booking lost or doubled, inventory taken equal to the reservations, no night oversold, one
/// captured charge per reservation and no other. A violation fails the run.
extension BenchmarkSuite {
  static let contentionWorkers = 4
  /// `TRAVEL_BENCH_FAULT=double-report` or `=drop-report` makes each worker misreport its bookings
  /// (one reported twice, or one left out), to see the verifier fail the run end to end.
  static let faultVariable = "TRAVEL_BENCH_FAULT"

  func contentionFigures() -> [Figure] {
    let rounds = quick ? 1 : 5
    var rates: [Double] = []
    var latencies: [Double] = []
    var notes: [String] = []
    var violations: [String] = []
    for round in 0..<rounds {
      switch contentionRound(round) {
      case .success(let outcome):
        rates.append(outcome.perSecond)
        latencies += outcome.latencies
        notes.append(outcome.summary)
        violations += outcome.violations
      case .failure(let failure):
        violations.append(failure.message)
      }
    }
    let verdict =
      violations.isEmpty
      ? "verified: 0 lost, 0 doubled, 0 oversold, charges = reservations"
      : "VERIFICATION FAILED: " + violations.prefix(6).joined(separator: "; ")
    return [
      Figure(
        name: "backend.contention.bookings-per-second", unit: "1/s", goal: .atLeast, target: 500, values: rates,
        note: "\(Self.contentionWorkers) processes, one store (WAL, synchronous=NORMAL), one round per sample: "
          + (notes.first ?? "no round completed") + "; " + verdict,
        violation: violations.isEmpty ? nil : verdict),
      Figure(
        name: "backend.contention.book", unit: "ms", target: 20, values: latencies,
        note: "one HotelEngine.book call (re-quote + ledger transaction) while 3 other processes book the same rooms"),
    ]
  }

  struct ContentionFailure: Error { var message: String }

  struct ContentionOutcome {
    var perSecond: Double
    var latencies: [Double]
    var summary: String
    var violations: [String]
  }

  /// One round: prepare the store, run the workers, verify.
  private func contentionRound(_ round: Int) -> Result<ContentionOutcome, ContentionFailure> {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-contention-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let dataDirectory = directory.appendingPathComponent("data")
      let services = try BackendServices(dataDirectory: dataDirectory)
      let engine = try HotelBackend.service(services: services)
      let reference = try ReferenceData.shared()
      // The hotel: the first (by id) near the busiest airport with a room type of 2–8 rooms (the
      // closest to 4).
      let busiest = reference.busiestAirports(limit: 1)[0].iata
      let today = LocalDate(Date(), in: .gmt)
      let found = try engine.search(
        HotelSearchRequest(
          place: busiest, checkIn: today.adding(days: 20), checkOut: today.adding(days: 21), limit: 200))
      var choice: (hotel: Hotel, room: RoomInventory)?
      for id in Set(found.offers.map(\.hotelId)).sorted() {
        let hotel = try engine.hotel(id: id)
        if let room = hotel.rooms.filter({ (2...8).contains($0.count) }).min(by: {
          abs($0.count - 4) < abs($1.count - 4)
        }) {
          choice = (hotel, room)
          break
        }
      }
      guard let choice else {
        return .failure(ContentionFailure(message: "no hotel near \(busiest) with a room type of 2–8 rooms"))
      }
      let nightCount = quick ? 2 : min(300, 1200 / choice.room.count)
      let nights = (0..<nightCount).map { today.adding(days: 20 + $0).description }

      // One user per worker (quick mode: one user for all, to save the password hashing).
      var tokens: [String] = []
      for worker in 0..<(quick ? 1 : Self.contentionWorkers) {
        let email = "contention\(worker)@example.com"
        _ = try services.accounts.signUp(
          email: email, password: "benchmark password", firstName: "Worker", lastName: "Number \(worker)")
        let token = try services.accounts.signIn(email: email, password: "benchmark password").token
        _ = try services.cards.addCard(
          NewPaymentCard(
            number: "4242424242424242", expiryMonth: 12,
            expiryYear: Calendar(identifier: .gregorian).component(.year, from: Date()) + 3, cvc: "123"), token: token)
        tokens.append(token)
      }
      while tokens.count < Self.contentionWorkers { tokens.append(tokens[0]) }
      let plan = ContentionPlan(
        dataDirectory: dataDirectory.path, signalDirectory: directory.path, hotelId: choice.hotel.id,
        roomType: choice.room.roomType.rawValue, nights: nights, tokens: tokens)
      let planPath = directory.appendingPathComponent("plan.json").path
      try JSONEncoder().encode(plan).write(to: URL(fileURLWithPath: planPath))

      // Start the workers, wait until each is ready (services built), then give the signal.
      var children = Children()
      var workerEnvironment = environment()
      workerEnvironment[Self.faultVariable] = ProcessInfo.processInfo.environment[Self.faultVariable]
      for worker in 0..<Self.contentionWorkers {
        guard
          let pid = launch(
            benchBinary, ["--child", "book-worker", planPath, String(worker)], environment: workerEnvironment,
            stderrPath: directory.appendingPathComponent("worker-\(worker).err").path)
        else {
          _ = children.killAll()
          return .failure(ContentionFailure(message: "cannot start worker \(worker)"))
        }
        children.add(pid)
      }
      // Ready within two minutes (services built), then the signal; done within five more.
      let ready = monotonicNanoseconds() + 120_000_000_000
      while (0..<Self.contentionWorkers).contains(where: { !FileManager.default.fileExists(atPath: plan.readyPath($0)) }
      ) {
        children.poll()
        if monotonicNanoseconds() > ready || children.anyEnded {
          let statuses = children.killAll()
          return .failure(
            ContentionFailure(message: "workers not ready (exit statuses \(statuses)): \(workerErrors(directory))"))
        }
        usleep(2000)
      }
      guard FileManager.default.createFile(atPath: plan.goPath, contents: Data()) else {
        _ = children.killAll()
        return .failure(ContentionFailure(message: "cannot write the start signal \(plan.goPath)"))
      }
      let (statuses, inTime) = children.waitAll(until: monotonicNanoseconds() + 300_000_000_000)
      guard inTime, statuses.allSatisfy({ $0 == 0 }) else {
        return .failure(
          ContentionFailure(
            message: (inTime ? "" : "workers still running after 5 minutes, killed; ")
              + "worker exit statuses \(statuses): \(workerErrors(directory))"))
      }
      let reports = try (0..<Self.contentionWorkers).map {
        try JSONDecoder().decode(
          ContentionReport.self, from: Data(contentsOf: URL(fileURLWithPath: plan.reportPath($0))))
      }

      let ledger = try ContentionLedger.read(
        services.database, reported: reports.map(\.reservations), hotelId: plan.hotelId, roomType: plan.roomType,
        nights: nights, capacity: choice.room.count)
      var violations = ledger.violations()
      let errors = reports.flatMap(\.errors)
      if !errors.isEmpty {
        violations.append("\(errors.count) booking attempt(s) failed with an error: \(errors[0])")
      }
      let start = reports.map(\.startNanoseconds).min() ?? 0
      let end = reports.map(\.endNanoseconds).max() ?? 0
      let seconds = Double(end &- start) / 1e9
      let booked = reports.reduce(0) { $0 + $1.reservations.count }
      let refusals = reports.reduce(0) { $0 + $1.soldOut }
      let perWorker = reports.map { String($0.reservations.count) }.joined(separator: "/")
      return .success(
        ContentionOutcome(
          perSecond: seconds > 0 ? Double(booked) / seconds : 0,
          latencies: reports.flatMap(\.latencies),
          summary: "\(booked) bookings (\(perWorker) per process) of \(nights.count) nights × \(choice.room.count) "
            + "\(choice.room.roomType.rawValue) rooms at \(choice.hotel.id) in \(String(format: "%.2f", seconds)) s, "
            + "\(refusals) sold-out refusals",
          violations: violations))
    } catch {
      return .failure(ContentionFailure(message: "contention round \(round) failed: \(error)"))
    }
  }

  private func workerErrors(_ directory: URL) -> String {
    (0..<Self.contentionWorkers).compactMap { worker in
      let text =
        (try? String(
          contentsOf: directory.appendingPathComponent("worker-\(worker).err"), encoding: .utf8)) ?? ""
      return text.isEmpty ? nil : "worker \(worker): \(text.prefix(300))"
    }.joined(separator: "; ")
  }
}

/// What the parent tells each booking worker (written as JSON next to the store).
struct ContentionPlan: Codable {
  var dataDirectory: String
  /// Where the workers write `ready-N` and their reports, and the parent writes `go`.
  var signalDirectory: String
  var hotelId: String
  var roomType: String
  /// Check-in dates (`YYYY-MM-DD`) of the one-night stays, in booking order.
  var nights: [String]
  /// One session token per worker.
  var tokens: [String]

  func readyPath(_ worker: Int) -> String { "\(signalDirectory)/ready-\(worker)" }
  var goPath: String { "\(signalDirectory)/go" }
  func reportPath(_ worker: Int) -> String { "\(signalDirectory)/report-\(worker).json" }
}

/// What a booking worker reports: the reservations it was given, the time of each successful
/// booking call, refusals, errors, and its start and end on the machine's monotonic clock.
struct ContentionReport: Codable {
  var reservations: [String] = []
  var latencies: [Double] = []
  var soldOut = 0
  var errors: [String] = []
  var startNanoseconds: UInt64 = 0
  var endNanoseconds: UInt64 = 0
}

/// The guests the workers book for (the one name rule of every booking: two words of letters).
/// A worker books every room it can get, several a night under one name: `allowDuplicate`.
let contentionGuests = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"]

/// `--child book-worker PLAN INDEX`: one contending process (see ``BenchmarkSuite/contentionFigures()``).
func runBookingWorker(_ arguments: [String]) -> Int32 {
  guard arguments.count == 2, let worker = Int(arguments[1]) else { return 2 }
  do {
    let plan = try JSONDecoder().decode(ContentionPlan.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[0])))
    guard plan.tokens.indices.contains(worker), let roomType = RoomType(rawValue: plan.roomType) else { return 2 }
    let services = try BackendServices(dataDirectory: URL(fileURLWithPath: plan.dataDirectory))
    let engine = try HotelBackend.service(services: services)
    let nights = plan.nights.compactMap(LocalDate.init)
    _ = try engine.hotel(id: plan.hotelId)
    guard FileManager.default.createFile(atPath: plan.readyPath(worker), contents: Data()) else { return 1 }
    while !FileManager.default.fileExists(atPath: plan.goPath) { usleep(500) }

    var report = ContentionReport()
    report.startNanoseconds = monotonicNanoseconds()
    var attempt = 0
    nightLoop: for night in nights {
      while true {
        let offers = try engine.rooms(
          hotelId: plan.hotelId, checkIn: night, checkOut: night.adding(days: 1), guests: 1, rooms: 1)
        guard let offer = offers.first(where: { $0.roomType == roomType }) else { continue nightLoop }
        attempt += 1
        let start = monotonicNanoseconds()
        do {
          let reservation = try engine.book(
            HotelBookingRequest(
              offerId: offer.id, guestName: contentionGuests[worker % contentionGuests.count],
              idempotencyKey: "w\(worker)-\(attempt)", allowDuplicate: true),
            token: plan.tokens[worker])
          report.latencies.append(Double(monotonicNanoseconds() - start) / 1e6)
          report.reservations.append(reservation.id)
        } catch let error as ServiceError where error.code == "sold_out" {
          report.soldOut += 1
        } catch {
          report.errors.append("\(error)")
          if report.errors.count >= 20 { break nightLoop }
        }
      }
    }
    report.endNanoseconds = monotonicNanoseconds()
    if let first = report.reservations.first {
      switch ProcessInfo.processInfo.environment[BenchmarkSuite.faultVariable] {
      case "double-report": report.reservations.append(first)
      case "drop-report": report.reservations.removeFirst()
      default: break
      }
    }
    try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: plan.reportPath(worker)))
    return 0
  } catch {
    FileHandle.standardError.write(Data("book-worker \(worker): \(error)\n".utf8))
    return 1
  }
}

/// The store after a contention run, next to what the workers reported, and the rules that make
/// it correct. Pure data, so the checks can be exercised on hand-made ledgers (see ``SelfChecks``).
struct ContentionLedger {
  struct Reservation {
    var id: String
    var status: String
    var totalMinor: Int64
    var paymentID: String?
  }

  struct Payment {
    var id: String
    var reservationID: String?
    var status: String
    var capturedMinor: Int64
  }

  /// Rooms held by a reservation (`hotel_bookings`), on each night of its stay.
  struct Hold {
    var reservationID: String
    var nights: [String]
    var rooms: Int
  }

  /// Reservation ids each worker was given back, per worker.
  var reported: [[String]]
  var reservations: [Reservation]
  var payments: [Payment]
  var holds: [Hold]
  /// `hotel_room_nights.booked` of the contended room type, per night.
  var booked: [String: Int]
  var nights: [String]
  var capacity: Int

  /// Every rule broken, in words (empty when the run was correct):
  /// - each reported reservation is reported once (not doubled) and is in the store, confirmed
  ///   (not lost); the store has no reservation that no worker was given;
  /// - each reservation holds rooms exactly once, and every hold belongs to a reservation;
  /// - per night, the rooms taken (`booked`) equal the rooms the holds cover, never exceed the
  ///   capacity (no oversell) and reach it (demand exceeded supply: an unsold room was lost);
  /// - each reservation has exactly one payment, captured for its total; no other payment exists.
  func violations() -> [String] {
    var problems: [String] = []
    var reportCount: [String: Int] = [:]
    for id in reported.joined() { reportCount[id, default: 0] += 1 }
    for (id, count) in reportCount.sorted(by: { $0.key < $1.key }) where count > 1 {
      problems.append("doubled: \(id) reported \(count) times")
    }
    var byID: [String: Reservation] = [:]
    for reservation in reservations {
      if byID[reservation.id] != nil { problems.append("doubled: reservation \(reservation.id) stored twice") }
      byID[reservation.id] = reservation
    }
    for id in reportCount.keys.sorted() {
      guard let reservation = byID[id] else {
        problems.append("lost: \(id) was reported booked but is not in the store")
        continue
      }
      if reservation.status != "confirmed" { problems.append("lost: \(id) is \(reservation.status)") }
    }
    for reservation in reservations where reportCount[reservation.id] == nil {
      problems.append("doubled: \(reservation.id) is in the store but no worker was given it")
    }

    var holdCount: [String: Int] = [:]
    var covered: [String: Int] = [:]
    for hold in holds {
      holdCount[hold.reservationID, default: 0] += 1
      if byID[hold.reservationID] == nil { problems.append("orphan hold: \(hold.reservationID) has no reservation") }
      for night in hold.nights { covered[night, default: 0] += hold.rooms }
    }
    for reservation in reservations where holdCount[reservation.id] != 1 {
      problems.append("inventory: \(reservation.id) holds rooms \(holdCount[reservation.id] ?? 0) times, expected once")
    }
    for night in nights {
      let taken = booked[night] ?? 0
      let held = covered[night] ?? 0
      if taken != held {
        problems.append("inventory: \(night) has \(taken) rooms taken but \(held) held by reservations")
      }
      if taken > capacity { problems.append("oversold: \(night) has \(taken) rooms taken of \(capacity)") }
      if taken < capacity {
        problems.append("lost: \(night) sold \(taken) of \(capacity) rooms though demand exceeded supply")
      }
    }

    var charges: [String: [Payment]] = [:]
    for payment in payments {
      guard let reservationID = payment.reservationID, byID[reservationID] != nil else {
        problems.append("charge without a reservation: payment \(payment.id) (\(payment.status))")
        continue
      }
      charges[reservationID, default: []].append(payment)
    }
    for reservation in reservations {
      let paid = charges[reservation.id] ?? []
      if paid.count != 1 {
        problems.append("charges: \(reservation.id) has \(paid.count) payments, expected 1")
      } else if paid[0].status != "captured" || paid[0].capturedMinor != reservation.totalMinor
        || reservation.paymentID != paid[0].id
      {
        problems.append(
          "charges: \(reservation.id) payment \(paid[0].id) is \(paid[0].status) for \(paid[0].capturedMinor), "
            + "expected captured for \(reservation.totalMinor)")
      }
    }
    return problems
  }

  /// Reads the ledger of `hotelId`'s `roomType` from the store.
  static func read(
    _ db: Database, reported: [[String]], hotelId: String, roomType: String, nights: [String], capacity: Int
  ) throws -> ContentionLedger {
    let reservations = try db.query("SELECT id, status, total_minor, payment_id FROM reservations").map {
      Reservation(
        id: try $0.get("id"), status: try $0.get("status"), totalMinor: try $0.get("total_minor"),
        paymentID: try $0.get("payment_id"))
    }
    let payments = try db.query("SELECT id, reservation_id, status, captured_minor FROM payments").map {
      Payment(
        id: try $0.get("id"), reservationID: try $0.get("reservation_id"), status: try $0.get("status"),
        capturedMinor: try $0.get("captured_minor"))
    }
    let holds = try db.query("SELECT reservation_id, check_in, check_out, rooms FROM hotel_bookings").map { row in
      let start = LocalDate(try row.get("check_in", as: String.self))
      let end = LocalDate(try row.get("check_out", as: String.self))
      let stay = start.flatMap { start in end.flatMap { DateRange(start: start, end: $0) } }
      return Hold(
        reservationID: try row.get("reservation_id"), nights: stay?.dates.map(\.description) ?? [],
        rooms: try row.get("rooms"))
    }
    var booked: [String: Int] = [:]
    for row in try db.query(
      "SELECT night, booked FROM hotel_room_nights WHERE hotel_id = ? AND room_type = ?", hotelId, roomType)
    {
      booked[try row.get("night")] = try row.get("booked")
    }
    return ContentionLedger(
      reported: reported, reservations: reservations, payments: payments, holds: holds, booked: booked,
      nights: nights, capacity: capacity)
  }
}
