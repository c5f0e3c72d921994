import Common
import CommonUI
import Foundation
import Reactive

/// The Status screen: type a flight (and a date, or none for today) and Enter; its status is
/// followed live, each change highlighted for a moment and listed under it, newest first.
///
/// Keys: Tab / Shift-Tab between Flight and Date; Enter shows the flight; Esc leaves a field
/// (then goes back).
@MainActor
final class FlightStatusScreen: Screen {
  let title = L("Status")
  let model: FlightStatusViewModel
  private enum Focus { case flight, date }
  private var focus = Focus.flight
  private var leftField = false
  var flight = TextFieldState(maxLength: 8)
  var date = TextFieldState(maxLength: 10)

  init(model: FlightStatusViewModel, following key: FlightStatusKey? = nil) {
    self.model = model
    if let key {
      flight.text = key.flight.code
      flight.moveCursor(to: flight.text.count)
      date.text = key.date.description
      leftField = true
      model.follow(key)
    }
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([model.$status.void, model.$errorMessage.void, model.$isLoading.void])
  }
  var isEditingText: Bool { !leftField }
  var isAnimating: Bool { model.isLoading || model.hasHighlight }
  var keyHints: [KeyHint] {
    leftField ? [KeyHint("Enter", "edit")] : [KeyHint("Tab", "next field"), KeyHint("Enter", "show")]
  }

  func handle(_ key: Key) -> KeyResult {
    if leftField {
      if key == .enter || key == .tab {
        leftField = false
        return .handled
      }
      return .ignored
    }
    switch key {
    case .escape:
      leftField = true
      return .handled
    case .tab, .backTab:
      focus = focus == .flight ? .date : .flight
      return .handled
    case .enter:
      model.show(flight: flight.text, date: date.text)
      leftField = true
      return .handled
    default:
      let used = focus == .flight ? flight.handle(key) : date.handle(key)
      return used ? .handled : .ignored
    }
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    TextField("Flight", state: flight).labelWidth(8).placeholder("LH400").focused(!leftField && focus == .flight)
      .render(in: Rect(x: area.x, y: area.y, width: min(24, area.width), height: 1), into: &buffer)
    TextField("Date", state: date).labelWidth(6).placeholder("today").focused(!leftField && focus == .date)
      .render(in: Rect(x: area.x + 26, y: area.y, width: min(18, max(0, area.width - 26)), height: 1), into: &buffer)
    let body = Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2))
    if model.isLoading {
      Spinner(L("Looking up the flight…")).render(in: body.row(0), into: &buffer)
      return
    }
    if let message = model.errorMessage {
      Paragraph(message, style: theme.error).render(in: body.rows([.length(2)])[0], into: &buffer)
      return
    }
    guard let status = model.status else {
      Paragraph(
        L("Type a flight number (LH400) and press Enter: its gates, times and delay, live."), style: theme.muted
      ).render(in: body.rows([.length(2)])[0], into: &buffer)
      return
    }
    let lines = FlightStatusText.status(status).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    for (index, line) in lines.enumerated() where index < body.height {
      let y = body.y + index
      let style: Style
      if index == 0 {
        style = theme.accent
      } else if Self.fields(ofLine: line).contains(where: model.isHighlighted) {
        style = theme.selection
      } else {
        style = theme.base
      }
      buffer.write(line, x: body.x, y: y, maxWidth: body.width, style: style)
    }
    var y = body.y + lines.count + 1
    guard y < body.bottom else { return }
    buffer.write(
      model.changes.isEmpty ? L("No change yet: the timetable.") : L("Changes, newest first"), x: body.x, y: y,
      maxWidth: body.width, style: theme.muted)
    y += 1
    for update in model.changes where y < body.bottom {
      buffer.write(FlightStatusText.change(update), x: body.x + 1, y: y, maxWidth: body.width - 1, style: theme.base)
      y += 1
    }
  }

  /// The status fields a line of ``FlightStatusText/status(_:)`` shows.
  static func fields(ofLine line: String) -> [FlightStatusChange.Field] {
    if line.hasPrefix("Status") { return [.status, .divertedTo] }
    if line.hasPrefix("Departure") { return [.departureGate, .departureTerminal] }
    if line.hasPrefix("Arrival") { return [.arrivalGate, .arrivalTerminal, .baggageBelt] }
    if line.hasPrefix("  gate out") { return [.estimatedGateDeparture, .actualGateDeparture] }
    if line.hasPrefix("  takeoff") { return [.estimatedRunwayDeparture, .actualRunwayDeparture] }
    if line.hasPrefix("  landing") { return [.estimatedRunwayArrival, .actualRunwayArrival] }
    if line.hasPrefix("  gate in") { return [.estimatedGateArrival, .actualGateArrival] }
    if line.hasPrefix("Delay") { return [.delays] }
    return []
  }
}

/// The live Board screen: an airport's departures (or arrivals) for today there, every flight
/// with its expected time, terminal, gate and state, changing as the day goes; a changed cell is
/// highlighted for a moment. Filters: carrier, the other airport, the state; a search over flight,
/// airport, gate and state.
///
/// Keys: in the list ↑ ↓ PgUp PgDn Home End scroll, Enter opens the flight's status, `a` switches
/// departures and arrivals, `/` searches, Tab walks the fields (Airport, Carrier, To/From,
/// State, Search) and back to the list; in a field Enter applies (Airport: loads the board), Esc
/// returns to the list; ← → change the State filter.
@MainActor
final class FlightBoardScreen: Screen {
  let title = L("Board")
  let model: FlightBoardViewModel
  private let makeStatus: @MainActor (FlightStatusKey) -> FlightStatusScreen
  private let intents = PassthroughSubject<Navigation, Never>()
  enum Focus: CaseIterable { case airport, carrier, place, state, search, list }
  var focus = Focus.airport
  var airport = TextFieldState(maxLength: 3)
  var carrier = TextFieldState(maxLength: 3)
  var place = TextFieldState(maxLength: 3)
  var search = TextFieldState(maxLength: 20)
  var state: FlightStatusCode?
  var direction = BoardDirection.departures
  var selection = SelectionState(count: 0)
  private var visibleRows = 10
  /// Whether the list still has to open at the next flight (set for each board loaded).
  private var opensAtNext = true

  init(
    model: FlightBoardViewModel, airport code: String? = nil,
    makeStatus: @escaping @MainActor (FlightStatusKey) -> FlightStatusScreen
  ) {
    self.model = model
    self.makeStatus = makeStatus
    if let code {
      airport.text = code
      airport.moveCursor(to: code.count)
      focus = .list
      model.load(airport: code, direction: direction)
    }
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([model.$revision.void, model.$errorMessage.void, model.$isLoading.void])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { [.airport, .carrier, .place, .search].contains(focus) }
  var isAnimating: Bool { model.isLoading || model.hasHighlight }
  var keyHints: [KeyHint] {
    switch focus {
    case .list:
      [
        KeyHint("↑↓", "scroll"), KeyHint("Enter", "flight"), KeyHint("a", "arrivals/departures"),
        KeyHint("/", "search"), KeyHint("Tab", "filters"),
      ]
    case .airport: [KeyHint("Enter", "load board"), KeyHint("Tab", "next")]
    case .state: [KeyHint("← →", "state"), KeyHint("Tab", "next")]
    default: [KeyHint("Enter", "apply"), KeyHint("Tab", "next")]
    }
  }

  // MARK: Keys

  func handle(_ key: Key) -> KeyResult {
    switch key {
    case .tab:
      move(1)
      return .handled
    case .backTab:
      move(-1)
      return .handled
    default: break
    }
    if focus == .list { return handleList(key) }
    switch key {
    case .escape:
      guard model.header != nil else { return .ignored }
      focus = .list
      return .handled
    case .enter:
      if focus == .airport {
        load()
      } else {
        applyFilter()
      }
      if model.header != nil || focus != .airport { focus = .list }
      return .handled
    default: break
    }
    if focus == .state {
      let all: [FlightStatusCode?] = [nil] + FlightStatusCode.allCases
      let position = all.firstIndex(of: state) ?? 0
      switch key {
      case .right, .character("+"):
        state = all[(position + 1) % all.count]
      case .left, .character("-"):
        state = all[(position + all.count - 1) % all.count]
      default: return .ignored
      }
      applyFilter()
      return .handled
    }
    let before = text(focus)
    guard edit(key) else { return .ignored }
    if focus != .airport, text(focus) != before { applyFilter() }
    return .handled
  }

  private func handleList(_ key: Key) -> KeyResult {
    switch key {
    case .character("a"):
      direction = direction == .departures ? .arrivals : .departures
      load()
      return .handled
    case .character("/"):
      focus = .search
      return .handled
    case .enter:
      guard let row = selection.selected, row < model.rowCount else { return .handled }
      intents.send(.push(makeStatus(model.row(row).key)))
      return .handled
    default:
      selection.count = model.rowCount
      return selection.handle(key, visibleRows: visibleRows) ? .handled : .ignored
    }
  }

  private func text(_ focus: Focus) -> String {
    switch focus {
    case .airport: airport.text
    case .carrier: carrier.text
    case .place: place.text
    case .search: search.text
    default: ""
    }
  }

  private func edit(_ key: Key) -> Bool {
    switch focus {
    case .airport: airport.handle(key)
    case .carrier: carrier.handle(key)
    case .place: place.handle(key)
    case .search: search.handle(key)
    default: false
    }
  }

  private func move(_ step: Int) {
    let all = Focus.allCases
    focus = all[(all.firstIndex(of: focus)! + step + all.count) % all.count]
  }

  private func load() {
    selection = SelectionState(count: 0)
    opensAtNext = true
    model.load(airport: airport.text, direction: direction)
  }

  private func applyFilter() {
    model.setFilter(
      FlightBoardViewModel.Filter(carrier: carrier.text, place: place.text, status: state, search: search.text))
    selection.count = model.rowCount
    selection.select(0)
    selection.scroll(visibleRows: visibleRows)
  }

  // MARK: Drawing

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    var x = area.x
    func field(_ label: String, _ state: TextFieldState, _ part: Focus, width: Int, placeholder: String = "") {
      let total = DisplayWidth.of(label) + 1 + width
      TextField(label, state: state).placeholder(placeholder).focused(focus == part)
        .render(in: Rect(x: x, y: area.y, width: min(total, max(0, area.right - x)), height: 1), into: &buffer)
      x += total + 2
    }
    field(L("Airport"), airport, .airport, width: 4, placeholder: "FRA")
    let directionText = direction == .departures ? "Departures" : "Arrivals"
    x += buffer.write(directionText, x: x, y: area.y, maxWidth: max(0, area.right - x), style: theme.accent) + 2
    field(L("Carrier"), carrier, .carrier, width: 3)
    field(direction == .departures ? "To" : "From", place, .place, width: 4)
    let stateText = "‹ \(state?.displayName ?? "All") ›"
    x += buffer.write(
      "State ", x: x, y: area.y, maxWidth: max(0, area.right - x), style: focus == .state ? theme.accent : theme.base)
    x +=
      buffer.write(
        stateText, x: x, y: area.y, maxWidth: max(0, area.right - x),
        style: focus == .state ? theme.selection : theme.base) + 2
    field(L("Search"), search, .search, width: max(6, min(12, area.right - x - 7)))

    let body = Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2))
    if model.isLoading {
      Spinner(L("Loading the board…")).render(in: body.row(0), into: &buffer)
      return
    }
    if let message = model.errorMessage {
      Paragraph(message, style: theme.error).render(in: body.rows([.length(2)])[0], into: &buffer)
      return
    }
    guard let header = model.header else {
      Paragraph(
        L(
          "Type an airport code (FRA, JFK, CDG) and press Enter: its departures today, live. "
            + "`a` switches to arrivals."), style: theme.muted
      ).render(in: body.rows([.length(3)])[0], into: &buffer)
      return
    }
    let shown =
      model.rowCount == model.totalCount
      ? L("\(model.totalCount) flights") : L("\(model.rowCount) of \(model.totalCount) flights")
    let asOf = localTime(header.asOf, zoneOf: header)
    Label(
      "\(header.airport) \(header.airportName) · \(header.direction.rawValue) · \(header.date) · \(header.timeZone)"
        + (asOf.map { " · \($0)" } ?? "") + " · \(shown)", style: theme.muted
    ).render(in: body.row(0), into: &buffer)
    let table = Rect(x: body.x, y: body.y + 1, width: body.width, height: max(0, body.height - 1))
    visibleRows = max(1, table.height - 1)
    selection.count = model.rowCount
    if opensAtNext {
      // As a departures board does: from the next flight to leave (or arrive), a few past ones above.
      opensAtNext = false
      let next = (0..<model.rowCount).first { row in
        let status = model.row(row)
        let times = header.direction == .departures ? status.gateDeparture : status.gateArrival
        return times.actual == nil && status.status != .cancelled && status.status != .diverted
      }
      if let next {
        selection.select(min(model.rowCount - 1, next + visibleRows - 3))
        selection.scroll(visibleRows: visibleRows)
        selection.select(next)
      }
    }
    selection.scroll(visibleRows: visibleRows)
    renderTable(in: table, direction: header.direction, into: &buffer)
  }

  /// `12:04` at the board's airport.
  private func localTime(_ instant: Date, zoneOf board: FlightBoard) -> String? {
    guard let zone = TimeZone(identifier: board.timeZone) else { return nil }
    return AirportTime(instant: instant, timeZone: zone).localTimeText
  }

  /// The columns: title, width (the last fills), the fields whose change highlights the cell.
  private static func columns(_ direction: BoardDirection) -> [(String, Int, [FlightStatusChange.Field])] {
    let departures = direction == .departures
    return [
      (L("Time"), 6, []),
      (
        L("Expected"), 9,
        departures ? [.estimatedGateDeparture, .actualGateDeparture] : [.estimatedGateArrival, .actualGateArrival]
      ),
      (L("Flight"), 9, []),
      (departures ? L("To") : L("From"), 5, []),
      (L("Term"), 5, departures ? [.departureTerminal] : [.arrivalTerminal]),
      (L("Gate"), 5, departures ? [.departureGate] : [.arrivalGate]),
      (L("Status"), 0, [.status, .divertedTo, .actualRunwayArrival, .baggageBelt]),
    ]
  }

  private func renderTable(in area: Rect, direction: BoardDirection, into buffer: inout Buffer) {
    guard area.height > 0 else { return }
    let theme = buffer.theme
    let columns = Self.columns(direction)
    let overflow = model.rowCount > area.height - 1
    let width = overflow ? area.width - 1 : area.width
    var x = area.x
    var positions: [(x: Int, width: Int)] = []
    for (title, size, _) in columns {
      let cell = size == 0 ? max(0, area.x + width - x) : size
      positions.append((x, cell))
      buffer.write(title, x: x, y: area.y, maxWidth: cell, style: theme.accent.adding(.underline))
      x += cell
    }
    let offset = selection.offset
    for line in 0..<(area.height - 1) {
      let row = offset + line
      guard row < model.rowCount else { break }
      let y = area.y + 1 + line
      let status = model.row(row)
      let selected = row == selection.selected && focus == .list
      let rowStyle = selected ? theme.selection : theme.base
      if selected { buffer.fill(Rect(x: area.x, y: y, width: width, height: 1), style: rowStyle) }
      let departures = direction == .departures
      let times = departures ? status.gateDeparture : status.gateArrival
      let end = departures ? status.departure : status.arrival
      let cells = [
        times.scheduled.localTimeText, status.status == .cancelled ? "–" : times.best.localTimeText,
        status.flight.description, departures ? status.destination : status.key.origin, end.terminal ?? "",
        end.gate ?? "", FlightStatusText.boardState(status, direction: direction),
      ]
      for (column, text) in cells.enumerated() {
        let (cellX, cellWidth) = positions[column]
        let highlighted = columns[column].2.contains { model.isHighlighted(row, $0) }
        var style = highlighted && !selected ? theme.selection.adding(.bold) : rowStyle
        if column == 6, !selected, !highlighted {
          switch status.status {
          case .cancelled, .diverted: style = theme.error
          case .delayed: style = theme.warning
          case .boarding, .gateClosed: style = theme.accent
          default: break
          }
        }
        buffer.write(text, x: cellX, y: y, maxWidth: max(0, cellWidth - 1), style: style)
      }
    }
    if overflow {
      ScrollBar(total: model.rowCount, offset: offset, visible: area.height - 1)
        .render(in: Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1), into: &buffer)
    }
  }
}
