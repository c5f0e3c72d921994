import Common
import CommonUI
import Foundation
import Reactive

/// The offers of a search as a table: times per direction, stops (via), duration, carriers, price;
/// under it every direction of the selected offer in full. The line above the table says exactly
/// what the rows show: how many, the order, the stops and carrier filters (the view model's, so a
/// new search, which starts without filters, says so).
///
/// Keys: ↑ ↓ PgUp PgDn select; `s` next sort order (price, duration, departure); `f` next stops
/// filter (any, nonstop, at most 1, at most 2); `c` next carrier filter (all, then each carrier
/// of the search); Enter opens the offer's details and booking. Sorting and filtering ask the
/// service again, so they work on every offer of the search.
@MainActor
final class FlightResultsScreen: Screen {
  let title = L("Results")
  let model: FlightSearchViewModel
  /// The search in one line (places, dates, passengers, cabin).
  let summary: String
  private let environment: FlightScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var selection = SelectionState()
  private var visibleRows = 10

  init(model: FlightSearchViewModel, summary: String, environment: FlightScreenEnvironment) {
    self.model = model
    self.summary = summary
    self.environment = environment
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.$rows.void, model.$isSearching.void, model.$errorMessage.void, model.$emptyMessage.void, model.$sort.void,
      model.$stopsFilter.void,
      model.$carrierFilter.void,
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isAnimating: Bool { model.isSearching }
  var keyHints: [KeyHint] {
    [
      KeyHint("↑↓", "move"), KeyHint("Enter", "details"), KeyHint("s", "sort"), KeyHint("f", "stops"),
      KeyHint("c", "carrier"),
    ]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    Label(summary, style: theme.accent).render(in: area.row(0), into: &buffer)
    if model.isSearching {
      Spinner(L("Searching flights…")).render(in: area.row(2), into: &buffer)
      return
    }
    if let message = model.errorMessage {
      Paragraph(message, style: theme.error).render(
        in: Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, min(3, area.height - 2))), into: &buffer)
      return
    }
    let stops = model.stopsFilter.map { $0 == 0 ? "nonstop" : "≤ \(FlightText.stops($0))" } ?? "any stops"
    let count = model.isCapped ? L("the best \(model.rows.count) offers") : L("\(model.rows.count) offers")
    Label(
      "\(count) · by \(model.sort.rawValue) · \(stops) · \(model.carrierFilter ?? "all carriers")",
      style: theme.muted
    ).render(in: area.row(1), into: &buffer)
    let rows = model.rows
    if rows.isEmpty {
      Paragraph(
        model.emptyMessage ?? L("No offer matches the filters: press f or c to change them."), style: theme.muted
      )
      .render(
        in: Rect(x: area.x, y: area.y + 3, width: area.width, height: max(0, min(2, area.height - 3))), into: &buffer)
      return
    }
    selection.count = rows.count
    let directions = rows.map(\.times.count).max() ?? 1
    let body = area.inset(top: 3, bottom: directions + 1)
    visibleRows = Table.visibleRows(in: body, rowHeight: directions)
    selection.scroll(visibleRows: visibleRows)
    Table(
      columns: [
        .init(L("Times"), .fill(3)), .init(L("Stops"), .fill(2)),
        .init(L("Duration"), .length(8), alignment: .trailing),
        .init(L("Carriers"), .fill(1)), .init(L("Price"), .length(11), alignment: .trailing),
      ],
      rows: rows.map { row in
        // A round trip's row takes a line per direction: its times, stops and duration.
        [
          row.times.joined(separator: "\n"), row.stops.joined(separator: "\n"), row.duration.joined(separator: "\n"),
          row.carriers, row.price,
        ]
      }, state: selection
    ).rowHeight(directions).render(in: body, into: &buffer)
    guard let index = selection.selected, rows.indices.contains(index) else { return }
    let offer = rows[index].offer
    for (number, itinerary) in offer.itineraries.enumerated() {
      let via =
        itinerary.connectionAirports.isEmpty ? "" : L(" via \(itinerary.connectionAirports.joined(separator: ", "))")
      let flights = itinerary.segments.map { "\($0.flight)" }.joined(separator: ", ")
      let text =
        "\(itinerary.departure.localDate)  \(FlightText.times(itinerary))  \(FlightText.stops(itinerary.stops))\(via)  "
        + "\(FlightText.duration(itinerary.durationMinutes))  \(flights)"
      Label(Line([Span(number == 0 ? "Out   " : "Back  ", style: theme.muted), Span(text)]))
        .render(in: area.row(area.height - directions + number), into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult {
    let rows = model.rows
    selection.count = rows.count
    switch key {
    case .character("s"):
      let all = FlightSortOrder.allCases
      model.sortChanged(all[(all.firstIndex(of: model.sort)! + 1) % all.count])
      selection.select(0)
      return .handled
    case .character("f"):
      let steps: [Int?] = [nil, 0, 1, 2]
      model.stopsFilterChanged(steps[((steps.firstIndex(of: model.stopsFilter) ?? 0) + 1) % steps.count])
      selection.select(0)
      return .handled
    case .character("c"):
      let steps: [String?] = [nil] + model.carriers.map { Optional($0) }
      model.carrierFilterChanged(steps[((steps.firstIndex(of: model.carrierFilter) ?? 0) + 1) % steps.count])
      selection.select(0)
      return .handled
    case .enter:
      guard !model.isSearching, let index = selection.selected, rows.indices.contains(index) else { return .handled }
      let booking = FlightBookingViewModel(offer: rows[index].offer, environment: environment.views)
      intents.send(.push(FlightBookingScreen(model: booking, environment: environment)))
      return .handled
    default:
      return selection.handle(key, visibleRows: visibleRows) ? .handled : .ignored
    }
  }
}

/// One offer in detail, and its booking: each flight (local times, layovers, aircraft), the price
/// breakdown (the shared price calculator), one name per adult, who pays and with which card (the
/// shared ``CheckoutSection``: sign in without leaving, ← → another card), the Book button; a price
/// change is offered to accept. Once booked, the confirmation replaces it.
///
/// Keys: type each passenger's name ("Given Family"); Tab / ↑ ↓ move; on "Pay with" the checkout's
/// keys; Enter books (when every name is valid; signed out, it opens the sign-in sheet first) or
/// accepts a new price; Esc leaves a field, then goes back.
@MainActor
final class FlightBookingScreen: Screen {
  enum Focus: Hashable {
    case passenger(Int)
    case payment
    case book
  }

  let model: FlightBookingViewModel
  let checkout: CheckoutSection
  private let environment: FlightScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  private var subscriptions: [AnyCancellable] = []
  /// The booking failure under Book, in the app's words (CommonUI's `CheckoutSection`: gone once
  /// its cause is, e.g. after signing in or choosing another card).
  var failureText: String? { checkout.bookingFailure }
  var names: [TextFieldState]
  var focus = Focus.passenger(0)
  /// Esc left the focused name field: keys go to the shell until Enter.
  var leftField = false

  init(model: FlightBookingViewModel, environment: FlightScreenEnvironment) {
    self.model = model
    self.environment = environment
    checkout = CheckoutSection(session: environment.session)
    names = Array(repeating: TextFieldState(maxLength: 80), count: max(1, model.offer.adults))
    checkout.host = self
    model.$reservation.compactMap { $0 }.sink { [weak self] reservation in
      guard let self else { return }
      let confirmation = FlightConfirmationScreen(
        reservation: reservation, offer: model.offer, segmentLines: model.segmentLines,
        card: checkout.model.selectedCard?.displayName, money: environment.views.money)
      intents.send(.replace(confirmation))
    }.store(in: &subscriptions)
    // A failed booking (a session that ended, a card removed meanwhile): read the account again.
    model.$errorMessage.compactMap { $0 }.sink { [weak checkout] _ in checkout?.model.refresh() }
      .store(in: &subscriptions)
    // A failure in the app's words (CommonUI's CheckoutMessages), naming the card it charged.
    // Kept by the section until its cause is gone (a sign-in, another card).
    model.$failure.sink { [weak checkout] failure in checkout?.bookingFailed(failure) }.store(in: &subscriptions)
  }

  var title: String { "\(model.offer.outbound.origin) → \(model.offer.outbound.destination)" }
  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.$isBookEnabled.void, model.$isBooking.void, model.$errorMessage.void, model.$priceChange.void,
      model.$breakdown.void, model.$segmentLines.void, model.$validationMessage.void, checkout.changes,
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.merge(with: checkout.navigation).eraseToAnyPublisher() }
  var isEditingText: Bool {
    if case .passenger = focus { return !leftField }
    return false
  }
  var isAnimating: Bool { model.isBooking }
  var keyHints: [KeyHint] {
    if model.priceChange != nil { return [KeyHint("Enter", "accept new price")] }
    if leftField { return [KeyHint("Enter", "edit"), KeyHint("Tab", "next")] }
    if focus == .payment { return [KeyHint("Tab", "next")] + checkout.keyHints }
    // Enter books once every name is valid; before that, in a name it moves on.
    if case .passenger = focus, !model.isBookEnabled {
      return [KeyHint("Tab", "next"), KeyHint("Enter", "next field")]
    }
    return [KeyHint("Tab", "next"), KeyHint("Enter", "book")]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let offer = model.offer
    let people = offer.adults == 1 ? "1 adult" : "\(offer.adults) adults"
    let trip = offer.inbound == nil ? "one-way" : "round trip"
    Label(
      Line([
        Span(title, style: theme.accent), Span("  \(trip) · \(offer.cabin.displayName) · \(people)"),
        Span(L("  \(offer.seatsAvailable) seats left"), style: theme.muted),
      ])
    ).render(in: area.row(0), into: &buffer)
    var y = 2
    for line in directionLines(model.segmentLines, offer: offer) {
      Label(line, style: line.hasPrefix(" ") || line.hasSuffix(":") ? theme.muted : theme.base)
        .render(in: area.row(y), into: &buffer)
      y += 1
    }
    y += 1
    let columns = Rect(x: area.x, y: area.y + y, width: area.width, height: max(0, area.height - y))
      .columns([.fill, .length(34)], spacing: 2)
    // The price breakdown at the right: fare and taxes, then the total.
    var calculatorHeight = 0
    if let total = model.breakdown.last {
      let calculator = PriceCalculatorView(
        lines: model.breakdown.dropLast().map { ($0.label, $0.money) }, total: total.money,
        money: environment.views.money)
      calculatorHeight = calculator.height
      calculator.render(
        in: Rect(x: columns[1].x, y: columns[1].y, width: columns[1].width, height: calculator.height), into: &buffer)
    }
    let left = columns[0]
    func row(_ index: Int, width: Int? = nil) -> Rect {
      Rect(
        x: left.x + 2, y: left.y + index, width: max(0, (width ?? left.width) - 2),
        height: index < left.height ? 1 : 0)
    }
    func marker(_ part: Focus, _ index: Int) {
      guard focus == part else { return }
      Label("▸", style: theme.accent).render(in: Rect(x: left.x, y: left.y + index, width: 1, height: 1), into: &buffer)
    }
    var line = 0
    for index in names.indices {
      let label = names.count == 1 ? "Passenger" : "Passenger \(index + 1)"
      TextField(label, state: names[index]).labelWidth(13).placeholder(L("Given Family"))
        .focused(focus == .passenger(index) && !leftField).render(in: row(line), into: &buffer)
      marker(.passenger(index), line)
      line += 1
    }
    Label(L("Names as on the passport: Given Family"), style: theme.muted).render(in: row(line), into: &buffer)
    line = max(line + 1, calculatorHeight) + 1
    // Who pays, across the whole width (a card's name is long).
    marker(.payment, line)
    let payment = row(line, width: area.width)
    checkout.render(
      in: Rect(x: payment.x, y: payment.y, width: payment.width, height: min(CheckoutView.height, left.height - line)),
      focused: focus == .payment, labelWidth: 13, into: &buffer)
    line += CheckoutView.height
    marker(.book, line)
    if model.isBooking {
      Spinner(L("Booking…")).render(in: row(line), into: &buffer)
    } else if let changed = model.priceChange {
      Button(L("Accept \(environment.views.display(changed.price))"), focused: true).render(
        in: row(line), into: &buffer)
    } else if model.isBookEnabled {
      Button("Book", focused: focus == .book).render(in: row(line), into: &buffer)
    } else {
      Label("[ Book ]", style: focus == .book ? theme.selection : theme.muted).render(in: row(line), into: &buffer)
    }
    line += 2
    if let message = model.validationMessage ?? (model.failure == nil ? model.errorMessage : failureText) {
      Paragraph(message, style: theme.error).render(
        in: Rect(x: area.x, y: left.y + line, width: area.width, height: max(0, min(3, left.height - line))),
        into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult {
    guard model.reservation == nil else { return .ignored }
    if model.priceChange != nil, key == .enter {
      model.acceptNewPriceTapped()
      return .handled
    }
    if focus == .payment, key != .enter || checkout.model.payer == .signedOut, checkout.handle(key) == .handled {
      return .handled
    }
    switch key {
    case .tab, .down:
      move(1)
      return .handled
    case .backTab, .up:
      move(-1)
      return .handled
    case .escape:
      guard isEditingText else { return .ignored }
      leftField = true
      return .handled
    case .enter:
      if leftField {
        leftField = false
      } else if model.isBookEnabled {
        book()
      } else if focus == .book {
        // Says what is wrong with a name and goes there.
        model.bookTapped()
        if let index = model.firstInvalidPassenger { focus = .passenger(index) }
      } else {
        move(1)
      }
      return .handled
    default:
      guard case .passenger(let index) = focus, !leftField else { return .ignored }
      let before = names[index].text
      guard names[index].handle(key) else { return .ignored }
      if names[index].text != before { model.passengerNameChanged(names[index].text, at: index) }
      return .handled
    }
  }

  /// Books with the card chosen, once the checkout is ready (signed out: the sign-in sheet first).
  private func book() {
    guard model.isBookEnabled else { return }
    guard checkout.isReadyToBook() else { return }
    model.cardSelected(checkout.selectedCardId)
    model.bookTapped()
  }

  private func move(_ step: Int) {
    let all = names.indices.map(Focus.passenger) + [.payment, .book]
    let index = all.firstIndex(of: focus) ?? 0
    focus = all[(index + step + all.count) % all.count]
    leftField = false
  }
}

/// The segment lines of a round trip under `Outbound:` and `Return:` (one line per flight and
/// one per connection, as ``FlightBookingViewModel/segmentLines`` has them); one-way as they are.
func directionLines(_ lines: [String], offer: FlightOffer) -> [String] {
  guard offer.itineraries.count > 1 else { return lines }
  var result: [String] = []
  var rest = lines[...]
  for (index, itinerary) in offer.itineraries.enumerated() {
    result.append(index == 0 ? "Outbound:" : "Return:")
    let count = itinerary.segments.count * 2 - 1
    result += rest.prefix(count)
    rest = rest.dropFirst(count)
  }
  return result + rest
}

/// The booking's confirmation: the record locator (PNR), the flights, the total charged. It
/// replaces the booking form, so Esc goes back to the results, never to the form.
///
/// Keys: Enter starts a new search (back to the form).
@MainActor
final class FlightConfirmationScreen: Screen {
  let title = L("Booked")
  let reservation: Reservation
  let offer: FlightOffer
  let segmentLines: [String]
  /// The card charged (`Visa •••• 4242  12/30`), when known.
  let card: String?
  /// How amounts are written (the traveller's language).
  let money: MoneyFormat
  private let intents = PassthroughSubject<Navigation, Never>()

  init(
    reservation: Reservation, offer: FlightOffer, segmentLines: [String], card: String? = nil,
    money: MoneyFormat = MoneyFormat(Localization.current)
  ) {
    self.money = money
    self.reservation = reservation
    self.offer = offer
    self.segmentLines = segmentLines
    self.card = card
  }

  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var keyHints: [KeyHint] { [KeyHint("Enter", "new search")] }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    Label(Line([Span(L("✓ Booked  "), style: theme.success), Span(reservation.summary)]))
      .render(in: area.row(0), into: &buffer)
    Label(
      Line([
        Span(L("Record locator (PNR)  ")),
        Span(reservation.locator ?? reservation.id, style: theme.accent.adding(.bold)),
      ])
    ).render(in: area.row(2), into: &buffer)
    var y = 4
    for line in directionLines(segmentLines, offer: offer) {
      Label(line, style: line.hasPrefix(" ") ? theme.muted : theme.base).render(in: area.row(y), into: &buffer)
      y += 1
    }
    y += 1
    Label(
      Line([
        Span(L("Total charged  ")), Span(money.string(reservation.total), style: .bold),
        Span(card.map { L("  to \($0)") } ?? "", style: theme.muted),
      ])
    ).render(in: area.row(y), into: &buffer)
    Label(L("Reservation \(reservation.id) · \(reservation.status.rawValue)"), style: theme.muted)
      .render(in: area.row(y + 1), into: &buffer)
    Label(L("Your trips: the Account tab, or `travel trips list`."), style: theme.muted)
      .render(in: area.row(y + 3), into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    guard key == .enter else { return .ignored }
    intents.send(.popToRoot)
    return .handled
  }
}
