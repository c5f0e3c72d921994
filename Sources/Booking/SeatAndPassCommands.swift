import Common
import CommonUI
import Foundation

/// `booking seats RES_ID …` and `booking boarding-pass scan …`.
enum SeatAndPassCommands {
  // MARK: seats

  static func seats(_ services: BookingServices) -> Command {
    Command(
      name: "seats",
      summary: L("Draw the seat map of a flight booking, choose seats, or seat everyone together."),
      discussion: """
        Without --seat, draws the seat map of each leg (or of --leg N): '.' free, 'x' taken, '#' blocked,
        '-' another cabin, 1, 2, … your passengers; EXIT marks exit rows. --passenger NAME --seat 23A (once per
        passenger, in pairs) takes seats on --leg N (default 1); --auto seats every passenger still without a
        seat, side by side when the map allows. Seats can be chosen until check-in closes.
        """,
      arguments: [ArgumentSpec("RES_ID", help: L("A flight reservation's id, from 'trips list'."))],
      options: [
        .option(
          "leg", "N", help: L("The flight of the trip, 1 for the first."), default: L("every leg (1 for --seat)")),
        .option("passenger", L("\"GIVEN FAMILY\""), help: L("The passenger of the next --seat."), repeatable: true),
        .option("seat", "SEAT", help: L("A seat like 23A, for the --passenger before it."), repeatable: true),
        .flag("auto", help: L("Seat every passenger without a seat, together when possible.")),
      ],
      examples: ["res_…", "res_… --passenger \"Ada Lovelace\" --seat 23A", "res_… --auto --json"],
      action: { invocation in
        let id = try invocation.argument(0, name: "RES_ID")
        let legOption = try invocation.value("leg").map { text -> Int in
          guard let number = Int(text), (1...12).contains(number) else {
            throw ServiceError.invalid("invalid_leg", L("invalid --leg \(EchoedInput.quoted(text)): expected 1, 2, …"))
          }
          return number - 1
        }
        let names = invocation.values("passenger")
        let seatTexts = invocation.values("seat")
        guard names.count == seatTexts.count || (names.isEmpty && seatTexts.count == 1) else {
          throw ServiceError.invalid(
            "seat_without_passenger",
            L(
              "\(seatTexts.count) --seat for \(names.count) --passenger: give them in pairs, --passenger \"Ada Lovelace\" --seat 23A"
            )
          )
        }
        let seats = try seatTexts.map(SeatNumber.init(parsing:))
        let service = try checkIn(services, invocation.context)
        let token = try signedIn(invocation.context)
        var chosen: [SeatChoice] = []
        if !seats.isEmpty {
          let passengers = names.isEmpty ? try onlyPassenger(service, id: id, token: token) : names
          chosen = zip(passengers, seats).map { SeatChoice(passenger: $0, leg: legOption ?? 0, seat: $1) }
        }
        if !chosen.isEmpty || invocation.flag("auto") {
          _ = try service.assignSeats(
            SeatAssignmentRequest(reservationID: id, choices: chosen, assignRest: invocation.flag("auto")), token: token
          )
        }
        let maps = try service.seatMaps(SeatMapRequest(reservationID: id), token: token)
        let legs = maps.legs.filter { legOption == nil || $0.leg == legOption }
        guard !legs.isEmpty else {
          throw ServiceError.invalid(
            "invalid_leg",
            "reservation \(id) has \(maps.legs.count) leg\(maps.legs.count == 1 ? "" : "s"): expected --leg 1 to \(maps.legs.count)"
          )
        }
        struct Document: Encodable {
          var reservationId: String
          var passengers: [String]
          var legs: [FlightSeatMap]
        }
        try invocation.context.emit(
          json: Document(reservationId: maps.reservationID, passengers: maps.passengers, legs: legs)
        ) {
          legs.map { text($0, passengers: maps.passengers, useColor: invocation.context.useColor) }
            .joined(separator: "\n\n")
        }
      })
  }

  /// The seat map of `leg` and who sits where, as terminal text.
  static func text(_ leg: FlightSeatMap, passengers: [String], useColor: Bool) -> String {
    let height = SeatMapView.lines(leg, passengers: passengers)
    let view = SeatMapView(leg, passengers: passengers)
    let theme = (try? Theme.named(.dark, useColor: useColor)) ?? .monochrome
    let widest = leg.map.cabins.map { $0.letters.count * 2 + $0.aislesAfter.count * 2 }.max() ?? 20
    var buffer = Buffer(width: max(80, widest + 12), height: height, theme: theme)
    view.render(in: buffer.area, into: &buffer)
    var lines = [buffer.styledText(useColor: useColor)]
    for assignment in leg.assignments {
      let seat = assignment.seat.map { L("seat \($0)") } ?? L("no seat yet")
      let checked = assignment.sequence.map { L(", checked in (sequence \($0))") } ?? ""
      lines.append("\(assignment.passenger): \(seat)\(checked)")
    }
    return lines.joined(separator: "\n")
  }

  static func onlyPassenger(_ service: any CheckInService, id: String, token: String) throws -> [String] {
    let passengers = try service.seatMaps(SeatMapRequest(reservationID: id), token: token).passengers
    guard passengers.count == 1 else {
      throw ServiceError.invalid(
        "seat_without_passenger",
        L(
          "reservation \(id) has \(passengers.count) passengers: say whose seat it is with --passenger \"Given Family\" before each --seat"
        )
      )
    }
    return passengers
  }

  static func checkIn(_ services: BookingServices, _ context: CLIContext) throws -> any CheckInService {
    guard let make = services.checkIn else {
      throw ServiceError(
        .unavailable, code: "check_in_unavailable", message: L("check-in is not available in this app"))
    }
    return try make(context)
  }

  static func signedIn(_ context: CLIContext) throws -> String {
    guard let token = try SessionFile(dataDirectory: context.dataDirectory).read() else {
      throw ServiceError.notSignedIn
    }
    return token
  }

  // MARK: boarding-pass scan

  static func boardingPass(_ services: BookingServices) -> Command {
    Command(
      name: "boarding-pass",
      summary: L("Read IATA bar-coded boarding passes."),
      subcommands: [scan(services)])
  }

  static func scan(_ services: BookingServices) -> Command {
    Command(
      name: "scan",
      summary: L("Read a boarding pass from a photo or image (PDF417, Aztec, QR, Data Matrix) or from its text."),
      discussion: """
        Decodes the barcode of a PNG or JPEG image, reads it as an IATA BCBP (Resolution 792, format M) and
        prints every field with its meaning. Lenient by default: quirks real passes have (a blank e-ticket
        flag, a field one character short, a pass cut short, a size that disagrees with its data, an empty
        leg) are accepted and listed; --strict refuses them, naming the field and character position.
        The flight dates' year comes from the pass's issue date, else from --reference-date (or your
        matching trip): never from this computer's clock. The signature is checked with this backend's key
        (valid, unknown or absent); signed in, the pass is matched against your trips.
        """,
      arguments: [ArgumentSpec("IMAGE", help: L("A PNG or JPEG file with the barcode."), optional: true)],
      options: [
        .option("text", "BCBP", help: L("The pass's text (M1…) instead of an image.")),
        .flag("strict", help: L("Read by the standard alone, refusing every deviation.")),
        .option("reference-date", "YYYY-MM-DD", help: L("A date near the flight, to give dates their year.")),
      ],
      examples: [
        "pass.png", "photo.jpg --json", "--text \"M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100\"",
      ],
      action: { invocation in
        let mode: BCBPParser.Mode = invocation.flag("strict") ? .strict : .lenient
        let reference = try invocation.value("reference-date").map {
          try FlightSearchRequest.parseDate($0, option: "--reference-date")
        }
        let (text, barcode) = try passText(invocation, services)
        let parsed: BCBPParseResult
        do {
          parsed = try BCBPParser.parse(text, mode: mode)
        } catch let error as BCBPError {
          throw ServiceError.invalid(
            "invalid_boarding_pass",
            "not a valid boarding pass (\(mode.rawValue) reading): \(error.message)")
        }
        let service = try? services.checkIn?(invocation.context)
        // Offline the pass still reads; a server named but not reachable is said, not glossed over.
        let verified: PassVerificationResponse?
        do {
          verified = try service?.verify(PassVerificationRequest(bcbp: text))
        } catch let error as ServiceError where error.code == "server_unreachable" {
          throw error
        } catch {
          verified = nil
        }
        let verification =
          verified
          ?? PassVerificationResponse(
            signature: parsed.pass.securityType == nil ? .absent : .unknown,
            reason: parsed.pass.securityType == nil ? "the pass has no security data" : "no key to check it with")
        var match: TripMatchResponse?
        if let service, let token = try? SessionFile(dataDirectory: invocation.context.dataDirectory).read() {
          match = try? service.matchTrip(TripMatchRequest(pass: parsed.pass), token: token)
          if match?.reservation == nil { match = nil }
        }
        let dates: [LocalDate?] = parsed.pass.legs.indices.map { index in
          if let date = match?.flightDates[index] { return date }
          guard let reference else { return nil }
          return parsed.pass.flightDates(reference: reference)[index]
        }
        let report = ScanReport(
          barcode: barcode, bcbp: text, mode: mode, result: parsed, dates: dates, reference: reference,
          verification: verification, match: match)
        try invocation.context.emit(json: report.document) { report.text }
      })
  }

  /// The pass's text and the barcode it came from (nil for `--text`).
  static func passText(_ invocation: Invocation, _ services: BookingServices) throws -> (String, ScannedBarcode?) {
    if let text = invocation.value("text") {
      guard invocation.arguments.isEmpty else {
        throw CLIError.usage(L("give either IMAGE or --text, not both"), code: "invalid_argument")
      }
      return (text, nil)
    }
    guard let path = invocation.arguments.first else {
      throw CLIError.usage(
        L("missing IMAGE (or --text) for '\(invocation.commandName)': see '\(invocation.commandName) --help'"),
        code: "missing_argument")
    }
    guard let scanner = services.barcodeScanner else {
      throw ServiceError(
        .unavailable, code: "scanner_unavailable", message: L("barcode scanning is not available in this app"))
    }
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let data = FileManager.default.contents(atPath: url.path)
    else {
      throw ServiceError.invalid("file_not_found", L("cannot read \(EchoedInput.quoted(path)): no such file"))
    }
    let found: [ScannedBarcode]
    do {
      found = try scanner.scan(imageData: data, symbologies: Set(BarcodeSymbology.allCases))
    } catch let error as ServiceError where error.code == "unreadable_image" {
      throw ServiceError.invalid("unreadable_image", L("cannot read \(path): \(error.message)"))
    }
    guard let first = found.first else {
      throw ServiceError.refused(
        "no_barcode", L("no PDF417, Aztec, QR or Data Matrix code was found in \(path): try a sharper, closer image"))
    }
    return (first.text, first)
  }
}

/// What `scan` found, for people and for `--json`.
struct ScanReport {
  var barcode: ScannedBarcode?
  var bcbp: String
  var mode: BCBPParser.Mode
  var result: BCBPParseResult
  var dates: [LocalDate?]
  var reference: LocalDate?
  var verification: PassVerificationResponse
  var match: TripMatchResponse?

  struct Document: Encodable {
    struct Barcode: Encodable {
      var symbology: String
      var corners: [Int]
    }
    struct Leg: Encodable {
      var flight: String
      var date: LocalDate?
      var fields: [BCBPFieldDescription]
    }
    struct Signature: Encodable {
      var status: SignatureStatus
      var reason: String
    }
    struct Trip: Encodable {
      var reservationId: String
      var summary: String
      var legs: [Int?]
    }
    var barcode: Barcode?
    var text: String
    var mode: BCBPParser.Mode
    var pass: BoardingPass
    var fields: [BCBPFieldDescription]
    var legs: [Leg]
    var security: [BCBPFieldDescription]
    var quirks: [BCBPQuirk]
    var signature: Signature
    var trip: Trip?
  }

  var issueReference: LocalDate? { reference ?? dates.compactMap { $0 }.first }

  var document: Document {
    let pass = result.pass
    return Document(
      barcode: barcode.map { Document.Barcode(symbology: $0.symbology.rawValue, corners: $0.corners) }, text: bcbp,
      mode: mode, pass: pass, fields: pass.uniqueFieldDescriptions(reference: issueReference),
      legs: pass.legs.indices.map { index in
        Document.Leg(
          flight: pass.legs[index].flightDisplay, date: dates[index],
          fields: pass.legFieldDescriptions(index, date: dates[index]))
      },
      security: pass.securityFieldDescriptions, quirks: result.quirks,
      signature: Document.Signature(status: verification.signature, reason: verification.reason),
      trip: match.flatMap { match in
        match.reservation.map { Document.Trip(reservationId: $0.id, summary: $0.summary, legs: match.legs) }
      })
  }

  var text: String {
    let pass = result.pass
    var lines: [String] = []
    if let barcode {
      lines.append("\(barcode.symbology) code read: IATA boarding pass (\(mode.rawValue) reading)")
    } else {
      lines.append("IATA boarding pass (\(mode.rawValue) reading)")
    }
    func table(_ fields: [BCBPFieldDescription]) {
      for field in fields {
        let value = field.value.isEmpty ? "(blank)" : field.value
        let item = L("item \(field.item)").padding(toLength: 9, withPad: " ", startingAt: 0)
        let name = field.name.padding(toLength: 44, withPad: " ", startingAt: 0)
        lines.append("  \(item) \(name) \(value)" + (field.meaning.isEmpty ? "" : "  — \(field.meaning)"))
      }
    }
    lines.append(L("Passenger and pass:"))
    table(pass.uniqueFieldDescriptions(reference: issueReference))
    for index in pass.legs.indices {
      let leg = pass.legs[index]
      lines.append(L("Leg \(index + 1): \(leg.flightDisplay) \(leg.from) → \(leg.to)"))
      table(pass.legFieldDescriptions(index, date: dates[index]))
    }
    if pass.securityType != nil {
      lines.append(L("Security data:"))
      table(pass.securityFieldDescriptions)
    }
    lines.append("Signature: \(verification.signature.rawValue) (\(verification.reason))")
    if let match, let reservation = match.reservation {
      lines.append(L("Your trip: \(reservation.id)  \(reservation.summary)"))
    } else {
      lines.append(L("Your trip: none of your trips matches this pass"))
    }
    if dates.contains(where: { $0 == nil }) {
      lines.append(
        L("The year of the flight date is unknown: give --reference-date YYYY-MM-DD (a date near the flight)."))
    }
    if !result.quirks.isEmpty {
      lines.append(L("Deviations from the standard accepted:"))
      for quirk in result.quirks { lines.append("  \(quirk)") }
    }
    return lines.joined(separator: "\n")
  }
}
