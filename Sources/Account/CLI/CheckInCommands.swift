import Common
import CommonUI
import Foundation

/// `trips checkin ID` and `trips boarding-pass ID`.
enum CheckInCommands {
  static func service(_ run: AccountRun) throws -> any CheckInService {
    guard let service = run.environment.checkIn else {
      throw ServiceError(
        .unavailable, code: "check_in_unavailable", message: L("check-in is not available in this app"))
    }
    return service
  }

  // MARK: checkin

  static func checkIn(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "checkin",
      summary: L("Check in online for a flight and get boarding passes."),
      discussion: """
        Checks in every passenger (or those named with --passenger) on every flight of the part of the trip
        whose check-in is open: from 24 hours before its first departure until 60 minutes before it (45 for a
        domestic trip). Give a --seat after a --passenger to choose it (23A, or 23A,14C for two flights);
        passengers without a seat are seated automatically, side by side when possible. Then show the
        boarding passes with 'trips boarding-pass ID'.
        """,
      arguments: [ArgumentSpec("ID", help: L("A flight reservation's id, from 'trips list'."))],
      options: [
        .option(
          "passenger", L("\"GIVEN FAMILY\""), help: L("Check in this passenger (default: all)."), repeatable: true),
        .option(
          "seat", "SEAT[,SEAT…]", help: L("The seat(s) of the --passenger before it, one per flight."), repeatable: true
        ),
      ],
      examples: ["res_…", "res_… --passenger \"Ada Lovelace\" --seat 23A", "res_… --json"],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let names = invocation.values("passenger")
        let seatTexts = invocation.values("seat")
        guard seatTexts.isEmpty || seatTexts.count == names.count else {
          throw ServiceError.invalid(
            "seat_without_passenger",
            L("\(seatTexts.count) --seat for \(names.count) --passenger: give a --passenger before each --seat"))
        }
        let seats = try zip(names, seatTexts).map { name, text in
          CheckInSeats(
            passenger: name,
            seats: try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
              let trimmed = part.trimmingCharacters(in: .whitespaces)
              return trimmed.isEmpty || trimmed == "-" ? nil : try SeatNumber(parsing: trimmed)
            })
        }
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let response = try service(run).checkIn(
          CheckInRequest(reservationID: id, passengers: names.isEmpty ? nil : names, seats: seats), token: token)
        try run.context.emit(json: ["checkIn": response]) { text(response, command: invocation.path) }
      })
  }

  /// `Checked in …`, one line per passenger and flight, and how to see the passes.
  static func text(_ response: CheckInResponse, command path: [String]) -> String {
    var lines = [L("Checked in for reservation \(response.reservationID):")]
    let width = (response.assignments.map(\.passenger.count).max() ?? 0) + 2
    for assignment in response.assignments where assignment.checkedIn {
      lines.append(
        "  " + assignment.passenger.padding(toLength: width, withPad: " ", startingAt: 0)
          + L(
            "\(assignment.flight) \(assignment.from) → \(assignment.to) \(assignment.date)  seat \(assignment.seat?.description ?? "—")  sequence \(assignment.sequence ?? 0)"
          )
      )
    }
    let trips = path.dropLast().joined(separator: " ")
    lines.append(
      L("Boarding passes: \(trips) boarding-pass \(response.reservationID) (add --png pass.png for a file)"))
    return lines.joined(separator: "\n")
  }

  // MARK: boarding-pass

  static func boardingPass(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "boarding-pass",
      summary: L("Show your boarding passes as barcodes in the terminal, or write them as PNG or SVG files."),
      discussion: """
        A pass is an IATA bar-coded boarding pass (Resolution 792, format M, version 8) signed by the issuing
        backend. In the terminal the code is drawn with half-block characters, quiet zone included, large
        enough for a phone camera (Aztec unless --symbology says otherwise). --png F or --svg F writes the
        image instead (PDF417, the paper symbology, unless --symbology says otherwise); with several passes
        the files are F-1, F-2, … (before the extension).
        """,
      arguments: [ArgumentSpec("ID", help: L("A flight reservation's id, from 'trips list'."))],
      options: [
        .option("passenger", L("\"GIVEN FAMILY\""), help: L("Only this passenger's pass.")),
        .option("symbology", "KIND", help: L("pdf417, aztec or qr."), default: L("aztec on screen, pdf417 in files")),
        .option("png", "FILE", help: L("Write the pass as a PNG image.")),
        .option("svg", "FILE", help: L("Write the pass as an SVG image.")),
        .option("module-size", "PIXELS", help: L("Pixels per module in images, 1–20."), default: "4"),
      ],
      examples: ["res_…", "res_… --png pass.png", "res_… --svg pass.svg --symbology qr", "res_… --json"],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let png = invocation.value("png")
        let svg = invocation.value("svg")
        guard png == nil || svg == nil else {
          throw CLIError.usage(L("give --png or --svg, not both"), code: "invalid_argument")
        }
        let file = png ?? svg
        let symbology =
          try invocation.value("symbology").map(BarcodeSymbology.parseDrawable) ?? (file == nil ? .aztec : .pdf417)
        let moduleSize = try invocation.integer("module-size", in: 1...20, default: 4)
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        var passes = try service(run).boardingPasses(BoardingPassesRequest(reservationID: id), token: token)
          .boardingPasses
        if let name = invocation.value("passenger") {
          let wanted = name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
          passes = passes.filter { $0.passenger.lowercased() == wanted }
          guard !passes.isEmpty else {
            throw ServiceError.invalid(
              "unknown_passenger", L("no boarding pass of \(EchoedInput.quoted(name)) on reservation \(id)"))
          }
        }
        guard !passes.isEmpty else {
          throw ServiceError.refused(
            "no_boarding_pass",
            L(
              "reservation \(id) has no boarding pass yet: check in first with '\(invocation.path.dropLast().joined(separator: " ")) checkin \(id)'"
            )
          )
        }
        guard let barcodes = run.environment.barcodes else {
          throw ServiceError(
            .unavailable, code: "barcodes_unavailable", message: L("barcodes are not available in this app"))
        }
        struct Entry: Encodable {
          var passenger: String
          var direction: Int
          var legs: [Int]
          var bcbp: String
          var issuedAt: Date
          var file: String?
        }
        var entries: [Entry] = []
        var human: [String] = []
        for (index, issued) in passes.enumerated() {
          var entry = Entry(
            passenger: issued.passenger, direction: issued.direction, legs: issued.legs, bcbp: issued.bcbp,
            issuedAt: issued.issuedAt)
          if let file {
            let format: BarcodeImageFormat = png != nil ? .png : .svg
            let path = passes.count == 1 ? file : numbered(file, index + 1)
            let data = try barcodes.image(
              for: issued.bcbp, symbology: symbology, format: format, moduleSize: moduleSize)
            do {
              try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
              throw CLIError.refused(L("cannot write \(path): \(error.localizedDescription)"), code: "export_failed")
            }
            entry.file = path
            human.append(L("\(issued.passenger): \(symbology) boarding pass written to \(path)"))
          } else {
            human.append(
              try terminalPass(issued, barcodes: barcodes, symbology: symbology, useColor: run.context.useColor))
          }
          entries.append(entry)
        }
        try run.context.emit(json: ["boardingPasses": entries]) { human.joined(separator: "\n\n") }
      })
  }

  /// `pass.png` → `pass-2.png`.
  static func numbered(_ path: String, _ number: Int) -> String {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension
    let base = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
    return ext.isEmpty ? "\(base)-\(number)" : "\(base)-\(number).\(ext)"
  }

  /// The pass's lines and its barcode drawn with half blocks.
  static func terminalPass(
    _ issued: IssuedBoardingPass, barcodes: any BarcodeRendering, symbology: BarcodeSymbology, useColor: Bool
  ) throws -> String {
    let pass = try BCBPParser.parse(issued.bcbp).pass
    let dates = pass.flightDates(reference: LocalDate(issued.issuedAt, in: TimeZone(identifier: "UTC")!))
    let symbol = try barcodes.symbol(for: issued.bcbp, symbology: symbology, maximumWidth: 160)
    let view = BoardingPassView(pass: pass, symbol: nil, dates: dates, caption: "\(symbology)")
    let size = BarcodeView.size(of: symbol)
    let theme = (try? Theme.named(.light, useColor: useColor)) ?? .monochrome
    var text = Buffer(width: max(80, size.width), height: view.textLines.count, theme: theme)
    view.render(in: text.area, into: &text)
    var code = Buffer(width: size.width, height: size.height, theme: theme)
    BarcodeView(symbol).render(in: code.area, into: &code)
    return text.styledText(useColor: useColor) + "\n" + code.styledText(useColor: useColor)
  }
}
