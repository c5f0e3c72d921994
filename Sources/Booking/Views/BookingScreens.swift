import Common
import CommonUI
import Foundation
import Reactive

/// The interactive flight screens, for an app to mount (as a tab or alone).
///
/// The flow: search form (airport autocomplete, calendar, passengers, cabin, stops) → results
/// (sort, filters) → details and booking (segments, price breakdown, passengers) → confirmation
/// (record locator). The screens are thin: the rules are the view models'
/// (``FlightSearchViewModel``, ``AirportAutocompleteViewModel``, ``FlightBookingViewModel``).
@MainActor
public enum BookingScreens {
  /// The first screen: the search form, with the cursor in the From field.
  /// - Parameters:
  ///   - environment: the services, the display currency and the queues (the main queue for
  ///     outputs in an app).
  ///   - session: the app's one session: who pays for a booking, signing in without leaving it
  ///     (CommonUI's checkout), and the home airport the From field starts with.
  ///   - today: today from the app's clock: the calendar opens on `today.here` and offers every date
  ///     that is today somewhere; the form refuses dates past everywhere (``TravelToday``).
  public static func root(environment: FlightsViewEnvironment, session: AccountSession, today: TravelToday)
    -> some Screen
  {
    FlightSearchScreen(environment: FlightScreenEnvironment(views: environment, session: session, today: today))
  }

  /// The live Board of `airport` over `model` (Enter on a flight opens its Status over `service`,
  /// on the environment's queues): for an app to open directly, and for the benchmark.
  public static func board(
    model: FlightBoardViewModel, airport: String?, service: any FlightStatusService,
    environment: FlightsViewEnvironment
  ) -> some Screen {
    FlightBoardScreen(model: model, airport: airport) { key in
      FlightStatusScreen(
        model: FlightStatusViewModel(
          service: service, mainQueue: environment.mainQueue, backgroundQueue: environment.backgroundQueue),
        following: key)
    }
  }
}

/// What the flight screens need to make their view models.
struct FlightScreenEnvironment {
  var views: FlightsViewEnvironment
  var session: AccountSession
  /// Today from the app's clock: the calendar opens on the traveller's date and offers every date
  /// that is today somewhere (the service judges a departure at its origin).
  var today: TravelToday
}

/// Void publishers of a screen's view-model outputs, merged for ``Screen/changes``.
func anyChange(_ publishers: [AnyPublisher<Void, Never>]) -> AnyPublisher<Void, Never> {
  Publishers.MergeMany(publishers).eraseToAnyPublisher()
}

extension Published.Publisher {
  /// Each change as `Void`.
  var void: AnyPublisher<Void, Never> { map { _ in () }.eraseToAnyPublisher() }
}

/// `SFO  San Francisco International · San Francisco, US`: an airport as a suggestion shows it.
func suggestionLabel(_ airport: AirportSummary) -> String {
  let city = airport.city.isEmpty || airport.name.contains(airport.city) ? "" : " · \(airport.city)"
  return "\(airport.iata)  \(airport.name)\(city), \(airport.country)"
}

/// The flight search form.
///
/// Keys: Tab / Shift-Tab (or ↑ ↓ outside a suggestion list) move between the parts. In From and
/// To, airports are suggested as you type (CommonUI's ``AutocompleteState``): the first suggestion
/// is highlighted as soon as the list answers the text, ↓ ↑ move the highlight, Enter or Tab take
/// the highlighted airport's IATA code and move on. Enter or Tab pressed before the suggestions
/// for the typed text arrived (the 300 ms pause and the lookup) wait for them (a pending accept,
/// with a spinner): the first suggestion is then taken, as Enter on it would (Tab already moved
/// on: the field it left is filled); an empty answer keeps the typed text; typing or Esc cancels.
/// With no suggestions Enter keeps the typed text; Esc closes the list, keeping the text. Search
/// pressed while a field waits runs once the field has its answer (any other key cancels that).
/// In Depart and Return type `YYYY-MM-DD` or press Enter for the calendar (its keys; Enter
/// chooses, Esc closes it, Delete in Return's makes the trip one-way); ← → or - + change adults,
/// cabin and stops; Enter on Search runs the search. Esc leaves a field (then `q` quits and digits
/// switch tabs; Enter goes back into the field).
///
/// The line under the form follows the focus: what is wrong with the focused part as typed (a
/// date in the past, From and To the same), else how to fill it in; on Search, the first thing to
/// fix. From starts with the signed-in traveller's home airport (Account preferences) while it is
/// empty and untouched; the cursor then starts in To.
@MainActor
final class FlightSearchScreen: Screen {
  enum Focus: CaseIterable {
    case from, to, depart, back, adults, cabin, stops, search, status, board, radar

    var isText: Bool { [.from, .to, .depart, .back].contains(self) }
  }

  static let labelWidth = 11
  static let formWidth = 48

  let title = L("Flights")
  let model: FlightSearchViewModel
  private let environment: FlightScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var focus = Focus.from
  /// Esc left the focused text field: keys go to the shell until Enter.
  var leftField = false
  var from = AutocompleteState(maxLength: 60)
  var to = AutocompleteState(maxLength: 60)
  var depart = TextFieldState(maxLength: 10)
  var back = TextFieldState(maxLength: 10)
  /// The calendar, while open for Depart or Return.
  var calendar: CalendarPickerState?
  var adults = 1
  var cabin = Cabin.economy
  var maxStops = 1
  /// Search was pressed while From or To waited for its suggestions: it runs once they arrive.
  var searchRequested = false
  /// Whether the traveller typed in From (then the home airport never replaces it).
  private var fromTouched = false
  /// Redraws after a pending accept is resolved (the answer itself was already a change).
  private let resolved = PassthroughSubject<Void, Never>()
  private var subscriptions: [AnyCancellable] = []

  init(environment: FlightScreenEnvironment) {
    self.environment = environment
    model = FlightSearchViewModel(environment: environment.views, today: environment.today)
    model.maxStopsChanged(maxStops)
    // `@Published` emits before storing: look at the answer on the next turn of the main queue.
    for part in [Focus.from, .to] {
      autocomplete(part)?.$suggestions.receive(on: environment.views.mainQueue)
        .sink { [weak self] _ in MainActor.assumeIsolated { self?.answerArrived(part) } }
        .store(in: &subscriptions)
    }
    // The home airport is the default origin (Account preferences), read from the app's session.
    environment.session.state.compactMap { $0.traveller?.preferences?.homeAirport }
      .sink { [weak self] home in MainActor.assumeIsolated { self?.homeAirportArrived(home) } }
      .store(in: &subscriptions)
  }

  /// Fills From with the home airport while From is empty and untouched; the cursor then moves on
  /// to To, unless the traveller is already elsewhere.
  private func homeAirportArrived(_ code: String) {
    guard !fromTouched, from.text.isEmpty, !code.isEmpty else { return }
    from.accept(code)
    model.origin.textFilled(code)
    if focus == .from { focus = .to }
    resolved.send()
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.origin.$suggestions.void, model.destination.$suggestions.void, model.origin.$suggestionsQuery.void,
      model.destination.$suggestionsQuery.void, model.origin.$errorMessage.void,
      model.destination.$errorMessage.void, model.$validationMessage.void, model.$isSearchEnabled.void,
      resolved.eraseToAnyPublisher(),
    ])
  }
  var isAnimating: Bool { from.isAwaitingAnswer || to.isAwaitingAnswer }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { calendar == nil && focus.isText && !leftField }
  var keyHints: [KeyHint] {
    if calendar != nil {
      let oneWay = focus == .back ? [KeyHint("Del", "one-way")] : []
      return [KeyHint("←↑→↓ PgUp PgDn", "day"), KeyHint("Enter", "choose")] + oneWay + [KeyHint("Esc", "close")]
    }
    if leftField { return [KeyHint("Tab", "next"), KeyHint("Enter", "edit")] }
    switch focus {
    case .from, .to:
      if autocompleteState(focus)?.isAwaitingAnswer == true {
        return [KeyHint("Tab Enter", "next"), KeyHint("Esc", "keep text")]
      }
      guard let autocomplete = autocomplete(focus), let state = autocompleteState(focus),
        state.highlightedIndex(in: suggestions(autocomplete)) != nil
      else { return [KeyHint("Tab", "next"), KeyHint("Enter", "next")] }
      return [KeyHint("↓↑", "choose"), KeyHint("Enter Tab", "take airport"), KeyHint("Esc", "close list")]
    case .depart, .back: return [KeyHint("Tab", "next"), KeyHint("Enter", "calendar")]
    case .adults, .cabin, .stops: return [KeyHint("Tab", "next"), KeyHint("← →", "change")]
    case .search: return [KeyHint("Tab", "next"), KeyHint("Enter", "search")]
    case .status: return [KeyHint("Tab", "next"), KeyHint("Enter", "a flight's live status")]
    case .board: return [KeyHint("Tab", "next"), KeyHint("Enter", "an airport's live board")]
    case .radar: return [KeyHint("Tab", "next"), KeyHint("Enter", "every flight in the air")]
    }
  }

  /// The autocomplete of a From or To focus.
  private func autocomplete(_ focus: Focus) -> AirportAutocompleteViewModel? {
    switch focus {
    case .from: model.origin
    case .to: model.destination
    default: nil
    }
  }

  /// The dropdown state of a From or To focus.
  private func autocompleteState(_ focus: Focus) -> AutocompleteState? {
    switch focus {
    case .from: from
    case .to: to
    default: nil
    }
  }

  /// An airport autocomplete's suggestions as its field shows them.
  private func suggestions(_ autocomplete: AirportAutocompleteViewModel) -> AutocompleteList {
    AutocompleteList(autocomplete.suggestions.map(suggestionLabel), answering: autocomplete.suggestionsQuery)
  }

  /// Stores the dropdown state of a From or To focus.
  private func setAutocompleteState(_ state: AutocompleteState, for focus: Focus) {
    if focus == .from { from = state } else if focus == .to { to = state }
  }

  private func field(_ focus: Focus) -> ReferenceWritableKeyPath<FlightSearchScreen, TextFieldState>? {
    switch focus {
    case .from: \.from.field
    case .to: \.to.field
    case .depart: \.depart
    case .back: \.back
    default: nil
    }
  }

  private static func row(of focus: Focus) -> Int {
    switch focus {
    case .from: 2
    case .to: 3
    case .depart: 5
    case .back: 6
    case .adults: 8
    case .cabin: 9
    case .stops: 10
    case .search: 12
    case .status, .board, .radar: 13
    }
  }

  // MARK: Drawing

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let width = min(area.width, Self.formWidth)
    func row(_ y: Int) -> Rect {
      Rect(x: area.x + 2, y: area.y + y, width: max(0, width - 2), height: y < area.height ? 1 : 0)
    }
    Label(L("Find a flight"), style: theme.accent).render(in: area.row(0), into: &buffer)
    let editing = isEditingText
    let fields: [(String, Focus, String)] = [
      (L("Depart"), .depart, "YYYY-MM-DD (Enter: calendar)"), (L("Return"), .back, L("empty: one-way")),
    ]
    // From and To under the calendar (a narrow terminal draws it over the form's right part).
    func drawAirport(
      _ airport: (label: String, part: Focus, model: AirportAutocompleteViewModel, state: AutocompleteState)
    ) {
      let y = area.y + Self.row(of: airport.part)
      guard y < area.bottom else { return }
      AutocompleteField(airport.label, state: airport.state, suggestions: suggestions(airport.model))
        .labelWidth(Self.labelWidth).fieldWidth(max(0, width - 2)).placeholder(L("City or airport"))
        .loadingText("Looking up airports…").focused(focus == airport.part && editing)
        .render(
          in: Rect(x: area.x + 2, y: y, width: max(0, area.right - area.x - 2), height: area.bottom - y), into: &buffer)
    }
    for airport in airportFields where airport.part != focus { drawAirport(airport) }
    for (label, part, placeholder) in fields {
      guard let path = field(part) else { continue }
      TextField(label, state: self[keyPath: path]).labelWidth(Self.labelWidth).placeholder(placeholder)
        .focused(focus == part && (editing || calendar != nil))
        .render(in: row(Self.row(of: part)), into: &buffer)
    }
    func stepper(_ label: String, _ value: String, _ part: Focus) {
      let label = label.padding(toLength: Self.labelWidth, withPad: " ", startingAt: 0)
      Label(Line([Span(label), Span("‹ \(value) ›", style: focus == part ? theme.selection : theme.base)]))
        .render(in: row(Self.row(of: part)), into: &buffer)
    }
    stepper(L("Adults"), "\(adults)", .adults)
    stepper(L("Cabin"), cabin.displayName, .cabin)
    stepper("Max stops", maxStops == 0 ? "0 (nonstop)" : "\(maxStops)", .stops)
    let searchRow = row(Self.row(of: .search))
    if model.isSearchEnabled {
      Button("Search", focused: focus == .search).render(in: searchRow, into: &buffer)
    } else {
      Label("[ Search ]", style: focus == .search ? theme.selection : theme.muted).render(in: searchRow, into: &buffer)
    }
    // The buttons under Search take the screen's width, not the form's: the three of them are
    // wider than the form (the Radar button was cut at every width).
    func buttonRow(_ y: Int) -> Rect {
      Rect(x: area.x + 2, y: area.y + y, width: max(0, area.width - 2), height: y < area.height ? 1 : 0)
    }
    if environment.views.status != nil {
      let statusRow = buttonRow(Self.row(of: .status))
      Button("Flight status", focused: focus == .status).render(in: statusRow, into: &buffer)
      let boardX = statusRow.x + Button(L("Flight status")).width + 2
      Button("Airport board", focused: focus == .board).render(
        in: Rect(x: boardX, y: statusRow.y, width: max(0, statusRow.right - boardX), height: statusRow.height),
        into: &buffer)
    }
    if environment.views.radar != nil {
      let radarRow = buttonRow(Self.row(of: .radar))
      var radarX = radarRow.x
      if environment.views.status != nil {
        radarX += Button(L("Flight status")).width + 2 + Button(L("Airport board")).width + 2
      }
      Button("Radar", focused: focus == .radar).render(
        in: Rect(x: radarX, y: radarRow.y, width: max(0, radarRow.right - radarX), height: radarRow.height),
        into: &buffer)
    }
    // The focus marker.
    Label("▸", style: theme.accent).render(
      in: Rect(x: area.x, y: area.y + Self.row(of: focus), width: 1, height: 1), into: &buffer)
    let (message, isProblem) = hintLine
    Paragraph(message, style: isProblem ? theme.warning : theme.muted).render(
      in: Rect(x: area.x, y: area.y + 14, width: area.width, height: max(0, min(2, area.height - 14))),
      into: &buffer)
    if let calendar {
      // Right of the form; over its right part when the terminal is narrow.
      let x = max(area.x, min(area.x + Self.formWidth + 2, area.right - 28))
      let box = Rect(x: x, y: area.y + 2, width: min(28, area.right - x), height: min(10, max(0, area.height - 2)))
      buffer.clear(Rect(x: box.x, y: area.y + 1, width: box.width, height: box.height + 1))
      Label(focus == .depart ? "Departure date" : "Return date", style: theme.accent).alignment(.center)
        .render(in: Rect(x: box.x, y: area.y + 1, width: box.width, height: 1), into: &buffer)
      CalendarPicker(state: calendar, focused: true).render(in: box, into: &buffer)
    }
    // The focused airport field last: its suggestions drop down over the form.
    if let focused = airportFields.first(where: { $0.part == focus }) { drawAirport(focused) }
  }

  /// The line under the form, for the focused part: what is wrong with it as typed (a problem:
  /// `true`), else how to fill it in; on Search, the first thing to fix in the form.
  var hintLine: (String, Bool) {
    if searchRequested { return (L("Searching as soon as the airport suggestions arrive…"), false) }
    let field: FlightFormField?
    let text: String
    switch focus {
    case .from:
      if let error = model.origin.errorMessage { return (error, true) }
      (field, text) = (.from, from.text)
    case .to:
      if let error = model.destination.errorMessage { return (error, true) }
      (field, text) = (.to, to.text)
    case .depart: (field, text) = (.depart, depart.text)
    case .back: (field, text) = (.back, back.text)
    case .adults: (field, text) = (.adults, "\(adults)")
    case .cabin, .stops, .status, .board, .radar: (field, text) = (nil, "")
    case .search:
      if let first = model.origin.errorMessage ?? model.destination.errorMessage ?? model.validationMessage {
        return (first, true)
      }
      return (L("Enter searches."), false)
    }
    // A part not filled in yet gets its hint, not a complaint.
    if let field, !text.trimmingCharacters(in: .whitespaces).isEmpty, let problem = model.problems[field] {
      return (problem, true)
    }
    return (Self.hints[focus] ?? "", false)
  }

  /// How to fill in each part.
  static var hints: [Focus: String] {
    [
      .from: L("A city, an airport, or a city code (LON: all its airports)."),
      .to: L("A city, an airport, or a city code (NYC: all its airports)."),
      .depart: L(
        "YYYY-MM-DD, or Enter for the calendar (today to \(FlightSearchRequest.maximumDaysAhead) days ahead)."),
      .back: L("Empty for one-way; YYYY-MM-DD, or Enter for the calendar."),
      .adults: L("1 to 9 adults: ← → or - + change it."),
      .cabin: L("Economy, premium economy, business or first: ← → change it."),
      .stops: L("The most connections per direction, 0 (nonstop) to 2: ← → change it."),
      .status: L("Enter: a flight's live status (type LH400, and a date or none for today)."),
      .board: L("Enter: an airport's live departures and arrivals (the airport in From, or type one)."),
      .radar: L(
        "Enter: every flight in the air on the map (around the airport in From, if any), your flights highlighted."),
    ]
  }

  /// From and To, with their autocompletes and states.
  private var airportFields:
    [(label: String, part: Focus, model: AirportAutocompleteViewModel, state: AutocompleteState)]
  {
    [(L("From"), .from, model.origin, from), (L("To"), .to, model.destination, to)]
  }

  // MARK: Keys

  func handle(_ key: Key) -> KeyResult {
    searchRequested = false  // any key after Search cancels a search waiting for suggestions
    if calendar != nil { return handleCalendar(key) }
    if !leftField, let result = handleAutocomplete(key) { return result }
    switch key {
    case .tab:
      move(1)
      return .handled
    case .backTab:
      move(-1)
      return .handled
    case .escape:
      guard focus.isText, !leftField else { return .ignored }
      leftField = true
      return .handled
    default: break
    }
    if leftField {
      switch key {
      case .enter:
        leftField = false
        if focus == .depart || focus == .back { openCalendar() }
        return .handled
      case .down:
        move(1)
        return .handled
      case .up:
        move(-1)
        return .handled
      default: return .ignored
      }
    }
    switch focus {
    case .from, .to, .depart, .back: return handleField(key)
    case .adults, .cabin, .stops: return handleStepper(key)
    case .status, .board, .radar:
      switch key {
      case .enter where focus == .radar:
        openRadar()
        return .handled
      case .enter:
        openStatus(board: focus == .board)
        return .handled
      case .up:
        move(-1)
        return .handled
      case .down:
        move(1)
        return .handled
      case .left where focus != .status:
        move(-1)
        return .handled
      case .right where focus != .radar:
        move(1)
        return .handled
      default: return .ignored
      }
    case .search:
      switch key {
      case .enter:
        search()
        return .handled
      case .up:
        move(-1)
        return .handled
      case .down:
        move(1)
        return .handled
      default: return .ignored
      }
    }
  }

  /// A key in From or To, for the shared autocomplete; nil when the key is the form's (Tab
  /// without a suggestion to take, Enter keeping the typed text, Esc leaving the field, ↑ ↓
  /// outside a list).
  private func handleAutocomplete(_ key: Key) -> KeyResult? {
    guard let autocomplete = autocomplete(focus), var state = autocompleteState(focus) else { return nil }
    let event = state.handle(key, suggestions: suggestions(autocomplete))
    setAutocompleteState(state, for: focus)
    switch event {
    case .edited(let text):
      if focus == .from { fromTouched = true }
      autocomplete.textChanged(text)
    case .picked(let index):
      if focus == .from { fromTouched = true }
      take(index, in: focus)
      move(1)
    case .closed, .moved: break
    case .ignored: return nil
    }
    return .handled
  }

  /// Takes suggestion `index` of From's or To's list: the field gets the airport's IATA code.
  private func take(_ index: Int, in part: Focus) {
    guard let autocomplete = autocomplete(part), var state = autocompleteState(part),
      autocomplete.suggestions.indices.contains(index)
    else { return }
    let chosen = autocomplete.suggestions[index]
    autocomplete.suggestionSelected(chosen)
    state.accept(chosen.iata)
    setAutocompleteState(state, for: part)
  }

  /// New suggestions for From or To (stored by now): ends the field's pending accept when they
  /// answer its text — the first airport taken (or the typed text kept; the focus moved on already, when
  /// Enter or Tab started it), and a search that waited for it run.
  private func answerArrived(_ part: Focus) {
    guard let autocomplete = autocomplete(part), var state = autocompleteState(part) else { return }
    let outcome = state.answerArrived(suggestions(autocomplete))
    setAutocompleteState(state, for: part)
    guard let outcome else { return }
    if case .take(let index) = outcome { take(index, in: part) }
    if searchRequested, !from.isAwaitingAnswer, !to.isAwaitingAnswer {
      searchRequested = false
      search()
    }
    resolved.send()
  }

  private func handleField(_ key: Key) -> KeyResult {
    guard let path = field(focus) else { return .ignored }
    switch key {
    case .enter:
      if focus == .depart || focus == .back {
        openCalendar()
      } else {
        move(1)
      }
      return .handled
    case .up:
      move(-1)
      return .handled
    case .down:
      move(1)
      return .handled
    default:
      let before = self[keyPath: path].text
      guard self[keyPath: path].handle(key) else { return .ignored }
      let text = self[keyPath: path].text
      guard text != before else { return .handled }
      switch focus {
      case .depart: model.departureDateChanged(text)
      case .back: model.returnDateChanged(text)
      default: break
      }
      return .handled
    }
  }

  private func handleStepper(_ key: Key) -> KeyResult {
    let delta: Int
    switch key {
    case .right, .character("+"), .character("="): delta = 1
    case .left, .character("-"): delta = -1
    case .enter, .down:
      move(1)
      return .handled
    case .up:
      move(-1)
      return .handled
    default: return .ignored
    }
    switch focus {
    case .adults:
      adults = min(9, max(1, adults + delta))
      model.adultsChanged(adults)
    case .cabin:
      let all = Cabin.allCases
      cabin = all[min(all.count - 1, max(0, all.firstIndex(of: cabin)! + delta))]
      model.cabinChanged(cabin)
    case .stops:
      maxStops = min(2, max(0, maxStops + delta))
      model.maxStopsChanged(maxStops)
    default: break
    }
    return .handled
  }

  /// Opens the calendar for Depart or Return at the field's date (else the departure, else today).
  private func openCalendar() {
    let today = environment.today
    let departure = LocalDate(depart.text).map { max($0, today.earliest) }
    let earliest = focus == .back ? departure ?? today.earliest : today.earliest
    let own = LocalDate((focus == .back ? back : depart).text)
    calendar = CalendarPickerState(cursor: own ?? departure ?? today.here, earliest: earliest)
  }

  private func handleCalendar(_ key: Key) -> KeyResult {
    if key == .escape || key == .tab || key == .backTab {
      calendar = nil
      if key != .escape { move(key == .tab ? 1 : -1) }
      return .handled
    }
    if focus == .back, key == .delete || key == .backspace {
      // No return date: one-way.
      calendar = nil
      back.text = ""
      model.returnDateChanged("")
      move(1)
      return .handled
    }
    guard var state = calendar, let event = state.handle(key) else { return .ignored }
    calendar = state
    if case .dateChosen(let date) = event {
      calendar = nil
      if focus == .depart {
        depart.text = "\(date)"
        model.departureDateChanged(depart.text)
      } else {
        back.text = "\(date)"
        model.returnDateChanged(back.text)
      }
      move(1)
    }
    return .handled
  }

  private func move(_ step: Int) {
    let all = Focus.allCases.filter {
      ($0 != .status && $0 != .board || environment.views.status != nil)
        && ($0 != .radar || environment.views.radar != nil)
    }
    let index = all.firstIndex(of: focus) ?? 0
    focus = all[(index + step + all.count) % all.count]
    leftField = false
    from.close()
    to.close()
  }

  /// `SFO → JFK · 2026-12-30 · one-way · 1 adult · Economy · at most 1 stop`: the search as the
  /// results show it.
  var summary: String {
    let trip = back.text.isEmpty ? "one-way" : L("return \(back.text)")
    let people = adults == 1 ? "1 adult" : "\(adults) adults"
    let stops = maxStops == 0 ? "nonstop" : "≤ \(FlightText.stops(maxStops))"
    return "\(from.text) → \(to.text) · \(depart.text) · \(trip) · \(people) · \(cabin.displayName) · \(stops)"
  }

  /// Opens the Radar: the whole world, or around the airport or city typed in From (zoom 5).
  private func openRadar() {
    guard let radar = environment.views.radar else { return }
    let views = environment.views
    var viewport = MapViewport()
    let typed = from.text.trimmingCharacters(in: .whitespaces)
    if !typed.isEmpty, let place = try? RadarCommands.resolve(typed) {
      viewport = MapViewport(latitude: place.latitude, longitude: place.longitude, zoom: RadarCommands.nearZoom)
    }
    let model = RadarViewModel(
      radar: radar, status: views.status, token: views.token, viewport: viewport, mainQueue: views.mainQueue,
      backgroundQueue: views.backgroundQueue)
    intents.send(.push(RadarScreen(model: model)))
  }

  /// Opens the Status screen (or the Board, for the airport typed in From when it is a code).
  private func openStatus(board: Bool) {
    guard let service = environment.views.status else { return }
    let views = environment.views
    let makeStatus: @MainActor (FlightStatusKey?) -> FlightStatusScreen = { key in
      FlightStatusScreen(
        model: FlightStatusViewModel(
          service: service, mainQueue: views.mainQueue, backgroundQueue: views.backgroundQueue),
        following: key)
    }
    if board {
      let code = from.text.trimmingCharacters(in: .whitespaces).uppercased()
      let model = FlightBoardViewModel(
        service: service, mainQueue: views.mainQueue, backgroundQueue: views.backgroundQueue)
      intents.send(
        .push(
          FlightBoardScreen(
            model: model, airport: code.count == 3 && code.allSatisfy(\.isLetter) ? code : nil,
            makeStatus: { makeStatus($0) })))
    } else {
      intents.send(.push(makeStatus(nil)))
    }
  }

  /// Runs the search (when the form is valid) and opens the results; while From or To waits for
  /// its suggestions, the search waits too (it never goes out with the unresolved typed text).
  func search() {
    if from.isAwaitingAnswer || to.isAwaitingAnswer {
      searchRequested = true
      return
    }
    guard model.isSearchEnabled else { return }
    model.searchTapped()
    intents.send(.push(FlightResultsScreen(model: model, summary: summary, environment: environment)))
  }
}
