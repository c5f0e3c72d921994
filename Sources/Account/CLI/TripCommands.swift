import Common
import Foundation

/// `trips list | show ID | cancel ID | export ID --ics FILE | checkin ID | boarding-pass ID`.
enum TripCommands {
  static func group(name: String, environment factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: name,
      summary: L("Your trips: every reservation (flights, hotels, cars), newest first."),
      examples: [
        "list", "show res_…", "cancel res_…", "export res_… --ics trip.ics", "checkin res_…",
        "boarding-pass res_… --png pass.png",
      ],
      subcommands: [
        list(factory), show(factory), cancel(factory), export(factory), CheckInCommands.checkIn(factory),
        CheckInCommands.boardingPass(factory),
      ],
      action: list(factory).action)
  }

  static func list(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "list",
      summary: L("List your reservations of every kind, newest first."),
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let reservations = TripsViewModel.newestFirst(try run.environment.reservations.reservations(token: token))
        let display = run.display(token: token)
        struct Document: Encodable { var reservations: [ReservationSummary] }
        try run.context.emit(json: Document(reservations: reservations.map(ReservationSummary.init))) {
          guard !reservations.isEmpty else { return display.strings[.tripsEmpty] }
          return reservations.map { line($0, display: display) }.joined(separator: "\n")
        }
      })
  }

  /// `res_…  Flight  confirmed  SFO → JFK, UA 123  1,234.00 USD`.
  static func line(_ reservation: Reservation, display: Display) -> String {
    let strings = display.strings
    return [
      reservation.id, kindName(reservation.kind, strings), statusName(reservation.status, strings),
      reservation.summary, display.price(reservation.total),
    ].joined(separator: "  ")
  }

  static func kindName(_ kind: ReservationKind, _ strings: Strings) -> String {
    switch kind {
    case .flight: strings[.tripsKindFlight]
    case .hotel: strings[.tripsKindHotel]
    case .car: strings[.tripsKindCar]
    }
  }

  static func statusName(_ status: ReservationStatus, _ strings: Strings) -> String {
    switch status {
    case .confirmed: strings[.tripsStatusConfirmed]
    case .cancelled: strings[.tripsStatusCancelled]
    }
  }

  /// The reservation on several lines, for `show` and `cancel`.
  static func details(_ reservation: Reservation, display: Display) -> String {
    let strings = display.strings
    var lines = [line(reservation, display: display)]
    if let locator = reservation.locator { lines.append(strings.format(.tripsLocator, ["locator": locator])) }
    if let start = reservation.startsAt {
      let end = reservation.endsAt ?? start
      lines.append(
        strings.format(
          .tripsWhen,
          [
            "start": InstantText.human(start, zone: reservation.startTimeZone),
            "end": InstantText.human(end, zone: reservation.endTimeZone),
          ]))
    }
    lines.append(strings.format(.tripsBooked, ["date": InstantText.human(reservation.createdAt)]))
    lines.append(strings.format(.tripsTotal, ["amount": display.price(reservation.total)]))
    if case .object(let payment)? = reservation.details["payment"], let card = payment["card"]?.stringValue {
      lines.append(strings.format(.tripsChargedTo, ["card": card]))
    }
    if let fee = reservation.cancellationFee {
      lines.append(strings.format(.tripsFee, ["amount": display.price(fee)]))
    }
    if let refunded = reservation.refunded {
      lines.append(strings.format(.tripsRefunded, ["amount": display.price(refunded)]))
    }
    return lines.joined(separator: "\n")
  }

  struct ReservationDocument: Encodable { var reservation: ReservationSummary }

  static func show(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "show",
      summary: L("Show one of your reservations."),
      arguments: [ArgumentSpec("ID", help: L("The reservation's id, from 'trips list'."))],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let reservation = try run.environment.reservations.reservation(id: id, token: token)
        let display = run.display(token: token)
        try run.context.emit(json: ReservationDocument(reservation: ReservationSummary(reservation))) {
          details(reservation, display: display)
        }
      })
  }

  /// `{"cancellation": quote, "reservation": …}`: the terms applied and the cancelled reservation.
  struct CancelledDocument: Encodable {
    var cancellation: CancellationQuote
    var reservation: ReservationSummary
  }

  static func cancel(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "cancel",
      summary: L("Cancel one of your reservations: shows the fee, the refund and the deadline first, then asks."),
      discussion: """
        The terms come first: the cancellation fee, the refund to the card charged and the deadline of the rule
        (hotels: free until 15:00 hotel time the day before check-in, then the first night; cars: free until pick-up;
        flights: the fare in full until 7 days before departure, then half, none on the day; taxes always), in the
        local time of the place. On a terminal the command then asks; scripts pass --yes. Without a terminal and
        without --yes nothing is cancelled and it exits 2 (confirmation_required) with the terms (with --json, in
        the error's fields). The cancellation goes through only at the refund shown: if a deadline passed
        meanwhile it exits 1 (cancellation_terms_changed) and nothing changes.
        """,
      arguments: [ArgumentSpec("ID", help: L("The reservation's id, from 'trips list'."))],
      options: [.flag("yes", help: L("Cancel at the terms shown without asking (for scripts)."))],
      examples: ["res_…", "res_… --yes --json"],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let reservations = run.environment.reservations
        let quote = try reservations.cancellationQuote(id: id, token: token)
        let reservation = try reservations.reservation(id: id, token: token)
        let display = run.display(token: token)
        let strings = display.strings
        let terms =
          ([strings.format(.tripsCancelQuote, ["id": id, "summary": reservation.summary])]
          + CancellationText.lines(quote, strings: strings, money: display.money).map { "  " + $0 })
          .joined(separator: "\n")
        if !invocation.flag("yes") {
          let console = run.console
          guard !run.context.json, console.canAskQuestions else {
            throw CLIError(
              code: "confirmation_required",
              message: L("cancelling \(id) needs your confirmation, and there is no terminal to ask on: ")
                + CancellationText.english(quote)
                + L(
                  " Nothing was cancelled; to cancel at these terms run "
                    + "'trips cancel \(id) --yes'"),
              exitStatus: 2, details: CancellationText.fields(quote))
          }
          console.print(terms)
          console.writeError(strings.format(.tripsCancelConfirm, ["id": id]))
          let answer = (console.readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
          guard ["y", "yes", "j", "ja"].contains(answer) else {
            throw CLIError.refused(strings.format(.tripsCancelKept, ["id": id]), code: "not_confirmed")
          }
        } else if !run.context.json {
          run.console.print(terms)
        }
        let cancelled = try reservations.cancelReservation(id: id, token: token, accepting: quote)
        try run.context.emit(
          json: CancelledDocument(cancellation: quote, reservation: ReservationSummary(cancelled))
        ) {
          let refunded = cancelled.refunded ?? Money.zero(cancelled.total.currencyCode)
          var lines = [strings.format(.tripsCancelled, ["id": cancelled.id, "amount": display.price(refunded)])]
          if let fee = cancelled.cancellationFee, fee.amount > 0 {
            lines.append(strings.format(.tripsFee, ["amount": display.price(fee)]))
          }
          return lines.joined(separator: "\n")
        }
      })
  }

  static func export(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "export",
      summary: L("Export one reservation as an iCalendar file (RFC 5545) that calendar apps import."),
      arguments: [ArgumentSpec("ID", help: L("The reservation's id, from 'trips list'."))],
      options: [
        .option(
          "ics", "FILE",
          help: L("Where to write the .ics file: a file, or a directory (then DIR/<ID>.ics); - writes it to stdout."),
          required: true)
      ],
      examples: ["res_… --ics trip.ics"],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let path = try invocation.required("ics")
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let reservation = try run.environment.reservations.reservation(id: id, token: token)
        guard let event = reservation.calendarEvent() else {
          throw CLIError.refused(
            L("reservation \(id) has no dates to put in a calendar: nothing was written"), code: "not_exportable")
        }
        let text = ICalendar.document(events: [event], stamp: run.environment.now())
        if path == "-" {
          run.console.write(text)
          return
        }
        let url = try ExportFile.write(Data(text.utf8), to: path, defaultName: "\(reservation.id).ics")
        let strings = run.strings(token: token)
        struct Document: Encodable {
          var exported: String
          var file: String
        }
        try run.context.emit(json: Document(exported: id, file: url.path)) {
          strings.format(.tripsExported, ["file": url.path])
        }
      })
  }
}
