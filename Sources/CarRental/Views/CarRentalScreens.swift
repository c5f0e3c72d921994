import Common
import CommonUI
import Foundation
import Reactive

/// The interactive car-rental screens, for an app to mount (as a tab or alone).
///
/// The flow: search form (pick-up place with suggestions, times, class, promo, company selector)
/// → results grouped by category → rates and discounts (promo code entry) → booking. The screens
/// are thin: the rules are the view models' (``CarSearchViewModel``, ``CarRatesViewModel``, …).
@MainActor
public enum CarRentalScreens {
  /// The first screen: the search form. `environment`: the service and the queues (the main
  /// queue for outputs in an app).
  public static func root(environment: CarRentalViewEnvironment) -> some Screen {
    CarSearchScreen(environment: environment)
  }
}

/// Void publishers of a screen's view-model outputs, merged for ``Screen/changes``.
func anyChange(_ publishers: [AnyPublisher<Void, Never>]) -> AnyPublisher<Void, Never> {
  Publishers.MergeMany(publishers).eraseToAnyPublisher()
}

extension Published.Publisher {
  /// Each change as `Void`.
  var void: AnyPublisher<Void, Never> { map { _ in () }.eraseToAnyPublisher() }
}

/// The car search form.
///
/// Keys: Tab / Shift-Tab (or Enter in a field) move between the parts. In the place field, desks
/// are suggested as you type (CommonUI's ``AutocompleteState``): the first suggestion is
/// highlighted as soon as the list answers the text, ↓ ↑ move the highlight, Enter or Tab take
/// the highlighted place and move on. Enter or Tab pressed before the suggestions for the typed
/// text arrived wait for them (a pending accept, with a spinner): the first place is then taken as
/// Enter on it would (after Tab, the field is filled behind the focus); an empty answer keeps the
/// typed text; typing or Esc cancels. Search pressed while the field waits runs once it has its
/// answer (any other key cancels that). With no suggestions Enter keeps the typed text; Esc
/// closes the list. Esc in a field leaves it (then
/// `q` quits and digits switch tabs; Enter goes back into it). Enter on Company opens the company
/// selector; Enter on Search runs the search and opens the results.
///
/// Pick-up and Drop-off take `YYYY-MM-DD HH:MM` (local time at the desk), or Enter opens the
/// calendar (the calendar's keys; Enter chooses the day) and then the time picker (↑ ↓ half an
/// hour, PgUp PgDn an hour, digits type a time, Enter chooses): the field is filled and the focus
/// moves on. Esc closes them without a change. The line under the form follows the focus: what is
/// wrong with the focused part as typed, else how to fill it in; on Search, the first thing to fix.
@MainActor
final class CarSearchScreen: Screen {
  enum Focus: CaseIterable { case place, pickup, dropoff, returnPlace, pattern, promo, company, search }

  let title = L("Cars")
  let model: CarSearchViewModel
  private let environment: CarRentalViewEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var focus = Focus.place
  var place = AutocompleteState(maxLength: 60)
  var pickup = TextFieldState(maxLength: 16)
  var dropoff = TextFieldState(maxLength: 16)
  /// Where the car goes back, for a one-way rental (empty: the pick-up desk).
  var returnPlace = TextFieldState(maxLength: 60)
  var pattern = TextFieldState(maxLength: 4)
  var promo = TextFieldState(maxLength: 20)
  /// Esc left the focused text field: keys go to the shell until Enter.
  var leftField = false
  /// Search was pressed while the place waited for its suggestions: it runs once they arrive.
  var searchRequested = false
  /// The calendar of Pick-up or Drop-off, while open.
  var calendar: CalendarPickerState?
  /// The time picker that follows the calendar, and the day chosen in it.
  var timePicker: TimePickerState?
  var chosenDay: LocalDate?
  /// Redraws after a pending accept is resolved (the answer itself was already a change).
  private let resolved = PassthroughSubject<Void, Never>()
  private var subscriptions: [AnyCancellable] = []

  init(environment: CarRentalViewEnvironment) {
    self.environment = environment
    model = CarSearchViewModel(environment: environment, today: environment.today)
    // `@Published` emits before storing: look at the answer on the main queue's next turn.
    model.$placeSuggestions.receive(on: environment.mainQueue)
      .sink { [weak self] _ in MainActor.assumeIsolated { self?.answerArrived() } }
      .store(in: &subscriptions)
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.$placeSuggestions.void, model.$placeSuggestionsQuery.void, model.$validationMessage.void,
      model.$isSearchEnabled.void,
      model.companySelector.$selectedCompanyID.void, model.companySelector.$companies.void,
      resolved.eraseToAnyPublisher(),
    ])
  }
  var isAnimating: Bool { place.isAwaitingAnswer }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { field(focus) != nil && !leftField && calendar == nil && timePicker == nil }
  var keyHints: [KeyHint] {
    if timePicker != nil {
      return [
        KeyHint("↑↓ PgUp PgDn", "time"), KeyHint("0-9", "type"), KeyHint("Enter", "choose"), KeyHint("Esc", "close"),
      ]
    }
    if calendar != nil {
      return [KeyHint("←↑→↓ PgUp PgDn", "day"), KeyHint("Enter", "choose"), KeyHint("Esc", "close")]
    }
    if leftField { return [KeyHint("Tab", "next"), KeyHint("Enter", "edit")] }
    switch focus {
    case .place where place.isAwaitingAnswer: return [KeyHint("Tab Enter", "next"), KeyHint("Esc", "keep text")]
    case .place where place.highlightedIndex(in: suggestions) != nil:
      return [KeyHint("↓↑", "choose"), KeyHint("Enter Tab", "take place"), KeyHint("Esc", "close list")]
    case .pickup, .dropoff: return [KeyHint("Tab", "next"), KeyHint("Enter", "calendar")]
    case .company: return [KeyHint("Tab", "next"), KeyHint("Enter", "choose company")]
    case .search: return [KeyHint("Tab", "next"), KeyHint("Enter", "search")]
    default: return [KeyHint("Tab", "next"), KeyHint("Enter", "next")]
    }
  }

  /// The line under the form, for the focused part: what is wrong with it as typed (a problem:
  /// `true`), else how to fill it in; on Search, the first thing to fix in the form.
  var hintLine: (String, Bool) {
    if searchRequested { return (L("Searching as soon as the place suggestions arrive…"), false) }
    let what = focus == .pickup ? "pick-up" : "drop-off"
    if timePicker != nil, let day = chosenDay {
      return (
        L("The \(what) time on \(day), at the desk: ↑ ↓ half an hour, or type it (0930); Enter chooses it."), false
      )
    }
    if calendar != nil {
      return (L("The \(what) day: ←↑→↓ a day, PgUp PgDn a month, Enter chooses it; the time comes next."), false)
    }
    let part: CarSearchViewModel.Field?
    switch focus {
    case .place: part = .place
    case .pickup: part = .pickup
    case .dropoff: part = .dropoff
    case .returnPlace: part = .returnPlace
    case .pattern: part = .pattern
    case .promo, .company: part = nil
    case .search: return model.validationMessage.map { ($0, true) } ?? (L("Enter searches."), false)
    }
    if let part, let path = field(focus), !self[keyPath: path].text.trimmingCharacters(in: .whitespaces).isEmpty,
      let problem = model.problems[part]
    {
      return (problem, true)
    }
    if focus == .dropoff, let problem = model.problems[.dropoff], !pickup.text.isEmpty, !dropoff.text.isEmpty {
      return (problem, true)
    }
    return (Self.hints[focus] ?? "", false)
  }

  /// How to fill in each part.
  static var hints: [Focus: String] {
    [
      .place: L("An airport code or a city (LAX, Paris): the desks there."),
      .pickup: "YYYY-MM-DD HH:MM, local time at the desk; or Enter: the calendar, then the time.",
      .dropoff: "YYYY-MM-DD HH:MM, local time at the desk; or Enter: the calendar, then the time.",
      .returnPlace: L("One-way: the airport or city where the car goes back; empty: the pick-up desk."),
      .pattern: L("An ACRISS pattern: C*** compact, S*** standard, **A* automatic; empty: every class."),
      .promo: L("A promo code such as WINTER10; empty: none."),
      .company: L("Enter: choose a company, or all of them."),
    ]
  }

  /// The place suggestions as the field shows them.
  private var suggestions: AutocompleteList {
    AutocompleteList(model.placeSuggestions.map(\.label), answering: model.placeSuggestionsQuery)
  }

  private func field(_ focus: Focus) -> ReferenceWritableKeyPath<CarSearchScreen, TextFieldState>? {
    switch focus {
    case .place: \.place.field
    case .pickup: \.pickup
    case .dropoff: \.dropoff
    case .returnPlace: \.returnPlace
    case .pattern: \.pattern
    case .promo: \.promo
    case .company, .search: nil
    }
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let width = min(area.width, 64)
    func row(_ y: Int) -> Rect { Rect(x: area.x, y: area.y + y, width: width, height: y < area.height ? 1 : 0) }
    Label(L("Rent a car"), style: theme.accent).render(in: row(0), into: &buffer)
    let fields: [(String, TextFieldState, String, Focus)] = [
      (L("Pick-up"), pickup, "YYYY-MM-DD HH:MM (Enter: calendar)", .pickup),
      (L("Drop-off"), dropoff, "YYYY-MM-DD HH:MM (Enter: calendar)", .dropoff),
      (L("Return at"), returnPlace, L("one-way: airport or city (empty: same desk)"), .returnPlace),
      (L("Class"), pattern, L("ACRISS, e.g. C*** (empty: all)"), .pattern),
      (L("Promo code"), promo, "optional", .promo),
    ]
    for (index, (label, state, placeholder, part)) in fields.enumerated() {
      let picking = calendar != nil || timePicker != nil
      TextField(label, state: state).labelWidth(12).placeholder(placeholder)
        .focused(focus == part && (!leftField || picking))
        .render(in: row(3 + index), into: &buffer)
    }
    let selector = model.companySelector
    let company = selector.selectedCompanyID.map { id in selector.companies.first { $0.id == id }?.name ?? id }
    Label(
      Line([
        Span(L("Company     ")),
        Span(company ?? "All companies", style: focus == .company ? theme.selection : theme.base),
        Span(L("  (Enter to choose)"), style: theme.muted),
      ])
    ).render(in: row(9), into: &buffer)
    Button("Search", focused: focus == .search).render(in: row(11), into: &buffer)
    let (message, isProblem) = hintLine
    Paragraph(message, style: isProblem ? theme.warning : theme.muted).render(
      in: Rect(x: area.x, y: area.y + 13, width: width, height: max(0, min(2, area.height - 13))), into: &buffer)
    // The place field next: its suggestions drop down over the form, as wide as the screen.
    AutocompleteField(L("Pick-up at"), state: place, suggestions: suggestions).labelWidth(12).fieldWidth(width)
      .placeholder("Airport code or city").loadingText("Looking up places…").focused(focus == .place && !leftField)
      .render(in: Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2)), into: &buffer)
    // A picker last (the place has no focus then, so no suggestions): over the right of the form.
    renderPicker(in: area, into: &buffer)
  }

  /// The calendar or the time picker, right of the form (over its right part when narrow).
  private func renderPicker(in area: Rect, into buffer: inout Buffer) {
    guard calendar != nil || timePicker != nil else { return }
    let theme = buffer.theme
    let x = max(area.x, min(area.x + 66, area.right - 28))
    let box = Rect(x: x, y: area.y + 3, width: min(28, area.right - x), height: min(10, max(0, area.height - 3)))
    buffer.clear(Rect(x: box.x, y: area.y + 2, width: box.width, height: box.height + 1))
    let what = focus == .pickup ? "Pick-up" : "Drop-off"
    if let timePicker {
      Label(L("\(what) time · \(chosenDay.map { "\($0)" } ?? "")"), style: theme.accent).alignment(.center)
        .render(in: Rect(x: box.x, y: area.y + 2, width: box.width, height: 1), into: &buffer)
      TimePicker(state: timePicker).render(
        in: Rect(x: box.x + box.width / 2 - 5, y: box.y, width: 10, height: min(9, box.height)), into: &buffer)
    } else if let calendar {
      Label(L("\(what) date"), style: theme.accent).alignment(.center)
        .render(in: Rect(x: box.x, y: area.y + 2, width: box.width, height: 1), into: &buffer)
      CalendarPicker(state: calendar, focused: true).render(in: box, into: &buffer)
    }
  }

  /// Opens the calendar of Pick-up or Drop-off at the field's date (a drop-off: else three days
  /// after the pick-up, else today), offering every day that is today somewhere (a drop-off: not
  /// before the pick-up's day).
  private func openCalendar() {
    let today = environment.today
    let pickupDay = (try? LocalDateTime(parsing: pickup.text.trimmingCharacters(in: .whitespaces)))
      .flatMap { LocalDate(year: $0.year, month: $0.month, day: $0.day) }
    let own =
      (try? LocalDateTime(parsing: (focus == .pickup ? pickup : dropoff).text.trimmingCharacters(in: .whitespaces)))
      .flatMap { LocalDate(year: $0.year, month: $0.month, day: $0.day) }
    let earliest = focus == .dropoff ? max(pickupDay ?? today.earliest, today.earliest) : today.earliest
    let cursor = own ?? (focus == .dropoff ? pickupDay.map { $0.adding(days: 3) } : nil) ?? today.here
    calendar = CalendarPickerState(cursor: cursor, earliest: earliest)
  }

  private func handleCalendar(_ key: Key) -> KeyResult {
    if key == .escape || key == .tab || key == .backTab {
      calendar = nil
      if key != .escape { move(key == .tab ? 1 : -1) }
      return .handled
    }
    guard var state = calendar, let event = state.handle(key) else { return .handled }
    calendar = state
    if case .dateChosen(let day) = event {
      calendar = nil
      chosenDay = day
      // The field's time, else the pick-up's (a drop-off), else 10:00.
      func minutes(_ text: String) -> Int? {
        (try? LocalDateTime(parsing: text.trimmingCharacters(in: .whitespaces))).map { $0.hour * 60 + $0.minute }
      }
      let own = minutes((focus == .pickup ? pickup : dropoff).text)
      timePicker = TimePickerState(minutes: own ?? minutes(pickup.text) ?? 10 * 60)
    }
    return .handled
  }

  private func handleTime(_ key: Key) -> KeyResult {
    if key == .escape || key == .tab || key == .backTab {
      timePicker = nil
      chosenDay = nil
      if key != .escape { move(key == .tab ? 1 : -1) }
      return .handled
    }
    guard var state = timePicker, let event = state.handle(key) else { return .handled }
    timePicker = state
    if case .chosen(let minutes) = event, let day = chosenDay {
      timePicker = nil
      chosenDay = nil
      let text = "\(day) \(TimePickerState.text(minutes))"
      if focus == .pickup {
        pickup.text = text
        model.pickupDateTimeChanged(text)
      } else {
        dropoff.text = text
        model.dropoffDateTimeChanged(text)
      }
      move(1)
    }
    return .handled
  }

  func handle(_ key: Key) -> KeyResult {
    searchRequested = false  // any key after Search cancels a search waiting for suggestions
    if timePicker != nil { return handleTime(key) }
    if calendar != nil { return handleCalendar(key) }
    if focus == .place, !leftField, let result = handlePlace(key) { return result }
    switch key {
    case .tab:
      move(1)
      return .handled
    case .backTab:
      move(-1)
      return .handled
    default: break
    }
    if field(focus) != nil {
      switch key {
      case .escape where !leftField:
        leftField = true
        return .handled
      case .enter where leftField:
        leftField = false
        return .handled
      case .down where leftField:
        move(1)
        return .handled
      case .up where leftField:
        move(-1)
        return .handled
      default:
        if leftField { return .ignored }
      }
    }
    switch focus {
    case .company:
      guard key == .enter else { return .ignored }
      model.companySelector.placeChanged(place.text.trimmingCharacters(in: .whitespaces))
      intents.send(.push(CarCompanyScreen(model: model.companySelector)))
      return .handled
    case .search:
      guard key == .enter else { return .ignored }
      search()
      return .handled
    default:
      guard let path = field(focus) else { return .ignored }
      if key == .enter {
        if focus == .pickup || focus == .dropoff { openCalendar() } else { move(1) }
        return .handled
      }
      let before = self[keyPath: path].text
      guard self[keyPath: path].handle(key) else { return .ignored }
      let text = self[keyPath: path].text
      guard text != before else { return .handled }
      switch focus {
      case .place: model.pickupTextChanged(text)
      case .pickup: model.pickupDateTimeChanged(text)
      case .dropoff: model.dropoffDateTimeChanged(text)
      case .returnPlace: model.dropoffPlaceChanged(text)
      case .pattern: model.classPatternChanged(text.uppercased())
      case .promo: model.promoCodeChanged(text)
      case .company, .search: break
      }
      return .handled
    }
  }

  /// A key in the place field, for the shared autocomplete; nil when the key is the form's (Tab
  /// without a suggestion to take, Enter keeping the typed text, Esc leaving the field).
  private func handlePlace(_ key: Key) -> KeyResult? {
    switch place.handle(key, suggestions: suggestions) {
    case .edited(let text):
      model.pickupTextChanged(text)
    case .picked(let index):
      take(index)
      move(1)
    case .closed, .moved: break
    case .ignored: return nil
    }
    return .handled
  }

  /// Takes suggestion `index`: the field gets the place's code.
  private func take(_ index: Int) {
    guard model.placeSuggestions.indices.contains(index) else { return }
    let chosen = model.placeSuggestions[index]
    model.suggestionSelected(chosen)
    place.accept(chosen.code)
  }

  /// New suggestions (stored by now): ends a pending accept when they answer the field's text —
  /// the first place taken (or the typed text kept; the focus moved on already, when Enter or
  /// Tab started it), and a search that waited for it run.
  private func answerArrived() {
    guard let outcome = place.answerArrived(suggestions) else { return }
    if case .take(let index) = outcome { take(index) }
    if searchRequested {
      searchRequested = false
      search()
    }
    resolved.send()
  }

  private func move(_ step: Int) {
    let all = Focus.allCases
    let index = all.firstIndex(of: focus)!
    focus = all[(index + step + all.count) % all.count]
    leftField = false
    place.close()
  }

  /// Runs the search (when the form is valid) and opens the results; while the place waits for its
  /// suggestions, the search waits too (it never goes out with the unresolved typed text).
  func search() {
    if place.isAwaitingAnswer {
      searchRequested = true
      return
    }
    guard model.isSearchEnabled else { return }
    model.searchTapped()
    intents.send(.push(CarResultsScreen(model: model, environment: environment)))
  }
}

/// The companies with a desk at the pick-up place.
///
/// Keys: ↑ ↓ select; Enter limits the search to the company (or to none: "All companies") and
/// goes back to the form.
@MainActor
final class CarCompanyScreen: Screen {
  let title = L("Company")
  let model: CarCompanySelectorViewModel
  private let intents = PassthroughSubject<Navigation, Never>()
  var selection = SelectionState()
  private var visibleRows = 10

  init(model: CarCompanySelectorViewModel) {
    self.model = model
    if let id = model.selectedCompanyID, let index = model.companies.firstIndex(where: { $0.id == id }) {
      selection = SelectionState(count: model.companies.count + 1, selected: index + 1)
    }
  }

  var changes: AnyPublisher<Void, Never> { anyChange([model.$companies.void, model.$errorMessage.void]) }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var keyHints: [KeyHint] { [KeyHint("↑↓", "move"), KeyHint("Enter", "choose")] }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    Label(L("Rent from"), style: theme.accent).render(in: area.row(0), into: &buffer)
    if let message = model.errorMessage {
      Label(message, style: theme.error).render(in: area.row(1), into: &buffer)
    }
    let body = area.inset(top: 2)
    visibleRows = body.height
    let items: [Line] =
      [Line(L("All companies"))]
      + model.companies.map { option in
        Line([
          Span(option.id == model.selectedCompanyID ? "✓ " : "  "), Span(option.name),
          Span("  \(option.detail)", style: theme.muted),
        ])
      }
    selection.count = items.count
    List(items, state: selection).render(in: body, into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    selection.count = model.companies.count + 1
    guard key == .enter else { return selection.handle(key, visibleRows: visibleRows) ? .handled : .ignored }
    switch selection.selected {
    case .some(let index) where index > 0 && index <= model.companies.count:
      if model.selectedCompanyID != model.companies[index - 1].id {
        model.companyTapped(model.companies[index - 1].id)
      }
    default: model.allCompaniesTapped()
    }
    intents.send(.pop)
    return .handled
  }
}

/// The offers grouped by category (the ACRISS code in words), cheapest group first.
///
/// Keys: ↑ ↓ PgUp PgDn select; Enter opens the offer's rates and discounts.
@MainActor
final class CarResultsScreen: Screen {
  let title = L("Results")
  let model: CarSearchViewModel
  private let environment: CarRentalViewEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var selection = SelectionState()
  private var visibleRows = 10

  init(model: CarSearchViewModel, environment: CarRentalViewEnvironment) {
    self.model = model
    self.environment = environment
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([model.$groups.void, model.$isSearching.void, model.$errorMessage.void, model.$notices.void])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isAnimating: Bool { model.isSearching }
  var keyHints: [KeyHint] { [KeyHint("↑↓", "move"), KeyHint("Enter", "rates")] }
  private var rows: [CarOfferRow] { model.groups.flatMap(\.rows) }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    if model.isSearching {
      Spinner(L("Searching cars…")).render(in: area.row(0), into: &buffer)
      return
    }
    if let message = model.errorMessage {
      Label(message, style: theme.error).render(in: area.row(0), into: &buffer)
      return
    }
    let rows = rows
    Label(L("\(rows.count) offers in \(model.groups.count) categories"), style: theme.accent)
      .render(in: area.row(0), into: &buffer)
    for (index, notice) in model.notices.prefix(2).enumerated() {
      Label(notice, style: theme.muted).render(in: area.row(1 + index), into: &buffer)
    }
    let body = area.inset(top: 1 + min(2, model.notices.count) + 1)
    visibleRows = Table.visibleRows(in: body)
    selection.count = rows.count
    selection.scroll(visibleRows: visibleRows)
    var cells: [[String]] = []
    for group in model.groups {
      for (index, row) in group.rows.enumerated() {
        cells.append([
          index == 0 ? group.category : "", row.acriss, row.description, row.company, row.duration, row.total,
          row.availability,
        ])
      }
    }
    // Company, days, price and availability are never cut: each column is as wide as its widest
    // cell (a long currency, `NOK 12,470.00`); the car's description gives way.
    func widest(_ column: Int, _ header: String, atLeast minimum: Int) -> Int {
      cells.reduce(max(minimum, DisplayWidth.of(header))) { max($0, DisplayWidth.of($1[column])) }
    }
    Table(
      columns: [
        .init(L("Category"), .length(10)), .init(L("Code"), .length(4)), .init(L("Car"), .fill),
        .init(L("Company"), .length(widest(3, L("Company"), atLeast: 10))),
        .init(L("Days"), .length(widest(4, L("Days"), atLeast: 7))),
        .init(L("Total"), .length(widest(5, L("Total"), atLeast: 10)), alignment: .trailing),
        .init(L("Left"), .length(widest(6, L("Left"), atLeast: 11))),
      ], rows: cells, state: selection
    ).render(in: body, into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    let rows = rows
    selection.count = rows.count
    if key == .enter {
      guard let index = selection.selected, rows.indices.contains(index), let query = model.lastQuery else {
        return .handled
      }
      let rates = CarRatesViewModel(offer: rows[index].offer, query: query, environment: environment)
      intents.send(.push(CarRatesScreen(model: rates, environment: environment)))
      return .handled
    }
    return selection.handle(key, visibleRows: visibleRows) ? .handled : .ignored
  }
}

/// The price of one offer line by line (rates, fees, discounts) with the total, and the promo
/// code field.
///
/// Keys: type a promo code, Enter applies it; Ctrl-R removes the promo; Tab to Book, Enter
/// there opens the booking. Esc leaves the promo field (then `q` quits; Enter comes back), a
/// second Esc goes back.
@MainActor
final class CarRatesScreen: Screen {
  enum Focus { case promo, book }

  let title = L("Rates")
  let model: CarRatesViewModel
  private let environment: CarRentalViewEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var promo = TextFieldState(maxLength: 20)
  var focus = Focus.promo
  /// Esc left the promo field: keys go to the shell until Enter.
  var leftField = false

  init(model: CarRatesViewModel, environment: CarRentalViewEnvironment) {
    self.model = model
    self.environment = environment
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([model.$lines.void, model.$promoMessage.void, model.$isWorking.void, model.$isApplyEnabled.void])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { focus == .promo && !leftField }
  var isAnimating: Bool { model.isWorking }
  var keyHints: [KeyHint] {
    [
      KeyHint("Tab", "promo / book"), KeyHint("Enter", focus == .promo ? "apply" : "book"),
      KeyHint("Ctrl-R", "no promo"),
    ]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let offer = model.offer
    let width = min(area.width, 64)
    func row(_ y: Int) -> Rect { Rect(x: area.x, y: area.y + y, width: width, height: y < area.height ? 1 : 0) }
    Label(
      Line([
        Span("\(offer.company.name) \(offer.acriss.rawValue)", style: theme.accent),
        Span("  \(offer.acriss.words)", style: theme.muted),
      ])
    ).render(in: row(0), into: &buffer)
    Label("\(offer.pickupLocation.name) \(offer.pickup) → \(offer.dropoffLocation.name) \(offer.dropoff)")
      .render(in: area.row(1), into: &buffer)
    var y = 3
    for line in model.lines {
      let amountWidth = DisplayWidth.of(line.amount)
      let name = Rect(x: area.x, y: area.y + y, width: max(0, width - amountWidth - 1), height: 1)
      Label(line.name, style: line.isDiscount ? theme.success : theme.base).render(in: name, into: &buffer)
      Label(line.amount, style: line.isDiscount ? theme.success : theme.base).alignment(.trailing)
        .render(in: row(y), into: &buffer)
      y += 1
    }
    Label(String(repeating: "─", count: width), style: theme.border).render(in: row(y), into: &buffer)
    Label(L("Total"), style: .bold).render(in: row(y + 1), into: &buffer)
    Label(model.total, style: .bold).alignment(.trailing).render(in: row(y + 1), into: &buffer)
    y += 3
    TextField("Promo code", state: promo).labelWidth(12).placeholder("e.g. SPRING10").focused(focus == .promo)
      .render(in: row(y), into: &buffer)
    if model.isWorking {
      Spinner(L("Repricing…")).render(in: row(y + 1), into: &buffer)
    } else if let message = model.promoMessage {
      Label(message, style: theme.muted).render(in: row(y + 1), into: &buffer)
    }
    Button("Book this car", focused: focus == .book).render(in: row(y + 3), into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    if leftField {
      switch key {
      case .enter: leftField = false
      case .tab, .backTab:
        leftField = false
        focus = .book
      default: return .ignored
      }
      return .handled
    }
    switch key {
    case .escape where focus == .promo:
      leftField = true
      return .handled
    case .tab, .backTab:
      focus = focus == .promo ? .book : .promo
      return .handled
    case .control("r"):
      promo.text = ""
      model.removePromoTapped()
      return .handled
    case .enter:
      if focus == .promo {
        model.applyPromoTapped()
      } else {
        let booking = CarBookingViewModel(offerID: model.offer.id, environment: environment)
        let checkout = CheckoutSection(session: environment.session)
        intents.send(
          .push(
            CarBookingScreen(
              offer: model.offer, total: model.total, model: booking, checkout: checkout, money: environment.money)))
      }
      return .handled
    default:
      guard focus == .promo else { return .ignored }
      let before = promo.text
      guard promo.handle(key) else { return .ignored }
      if promo.text != before { model.promoCodeChanged(promo.text) }
      return .handled
    }
  }
}

/// Booking one offer: the driver's name, who pays and with which card (the shared
/// ``CheckoutSection``) and Book; a price change is offered to accept; then the confirmation.
///
/// Keys: type the driver's name; Tab / ↑ ↓ move between the name and the card; on the card ← →
/// choose another, `s` signs in; Enter books (or accepts the new price after a price change). Not
/// signed in, Enter opens the sign-in sheet first and comes back here. Esc leaves the name field
/// (then `q` quits; Enter comes back), a second Esc goes back.
@MainActor
final class CarBookingScreen: Screen {
  enum Focus { case driver, payment }

  let title = L("Book")
  let offer: CarOffer
  let total: String
  let model: CarBookingViewModel
  let checkout: CheckoutSection
  var driver = TextFieldState(maxLength: 80)
  var focus = Focus.driver
  /// Esc left the driver field: keys go to the shell until Enter.
  var leftField = false
  private var subscriptions = Set<AnyCancellable>()
  /// The booking failure under Book, in the app's words (CommonUI's `CheckoutSection`: gone once
  /// its cause is, e.g. after signing in or choosing another card).
  var failureText: String? { checkout.bookingFailure }

  /// How amounts are written (the traveller's language).
  let money: MoneyFormat

  init(
    offer: CarOffer, total: String, model: CarBookingViewModel, checkout: CheckoutSection,
    money: MoneyFormat = MoneyFormat(Localization.current)
  ) {
    self.money = money
    self.offer = offer
    self.total = total
    self.model = model
    self.checkout = checkout
    checkout.host = self
    // A failed booking (a session that ended, a card removed meanwhile): read the account again.
    model.$errorMessage.compactMap { $0 }.sink { [weak checkout] _ in checkout?.model.refresh() }
      .store(in: &subscriptions)
    // A failure in the app's words (CommonUI's CheckoutMessages), naming the card it charged.
    // Kept by the section until its cause is gone (a sign-in, another card).
    model.$failure.sink { [weak checkout] failure in checkout?.bookingFailed(failure) }.store(in: &subscriptions)
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.$isBookEnabled.void, model.$isBooking.void, model.$reservation.void, model.$errorMessage.void,
      model.$newPrice.void, model.$validationMessage.void, model.$acceptedPrice.void, checkout.changes,
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { checkout.navigation }
  var isEditingText: Bool { model.reservation == nil && focus == .driver && !leftField }
  var isAnimating: Bool { model.isBooking }
  var keyHints: [KeyHint] {
    guard model.reservation == nil else { return [] }
    let move = KeyHint("Tab", focus == .driver ? "card" : "driver")
    let enter = KeyHint("Enter", model.newPrice == nil ? "book" : "accept new price")
    return (focus == .payment ? checkout.keyHints : []) + [move, enter]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let width = min(area.width, 64)
    func row(_ y: Int) -> Rect { Rect(x: area.x, y: area.y + y, width: width, height: y < area.height ? 1 : 0) }
    Label(
      Line([
        Span("\(offer.company.name) \(offer.acriss.rawValue)", style: theme.accent),
        // After a price change, the accepted price: the one Book charges.
        Span(L("  total \(model.acceptedPrice.map(money.string) ?? total)")),
      ])
    ).render(in: row(0), into: &buffer)
    Label("\(offer.pickupLocation.name) \(offer.pickup) → \(offer.dropoffLocation.name) \(offer.dropoff)")
      .render(in: area.row(1), into: &buffer)
    if let reservation = model.reservation {
      // The summary (places and times) wraps onto more rows rather than being cut.
      let booked = Paragraph(L("Booked: \(reservation.summary)"), style: theme.success)
      let bookedRows = min(3, booked.height(forWidth: width))
      booked.render(
        in: Rect(x: area.x, y: area.y + 3, width: width, height: max(0, min(bookedRows, area.height - 3))),
        into: &buffer)
      Label(L("Confirmation \(reservation.locator ?? reservation.id) · \(money.string(reservation.total))"))
        .render(in: row(3 + bookedRows), into: &buffer)
      if let card = checkout.model.selectedCard {
        Label(L("Charged to \(card.displayName)"), style: theme.muted).render(in: row(4 + bookedRows), into: &buffer)
      }
      return
    }
    TextField(L("Driver"), state: driver).labelWidth(CheckoutView.labelWidth).placeholder(L("Given Family"))
      .focused(focus == .driver).render(in: row(3), into: &buffer)
    checkout.render(
      in: Rect(x: area.x, y: area.y + 4, width: width, height: min(CheckoutView.height, max(0, area.height - 4))),
      focused: focus == .payment, into: &buffer)
    let buttonRow = 5 + CheckoutView.height
    if model.isBooking {
      Spinner(L("Booking…")).render(in: row(buttonRow), into: &buffer)
    } else if let price = model.newPrice {
      Button(L("Accept \(money.string(price))"), focused: true).render(in: row(buttonRow), into: &buffer)
    } else {
      Button(L("Book"), focused: model.isBookEnabled).render(in: row(buttonRow), into: &buffer)
    }
    if let message = model.validationMessage ?? (model.failure == nil ? model.errorMessage : failureText) {
      Paragraph(message, style: theme.error).render(
        in: Rect(
          x: area.x, y: area.y + buttonRow + 2, width: width, height: max(0, min(3, area.height - buttonRow - 2))),
        into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult {
    guard model.reservation == nil else { return .ignored }
    switch key {
    case .tab, .backTab, .up, .down:
      focus = focus == .driver ? .payment : .driver
      leftField = false
      return .handled
    case .escape where focus == .driver && !leftField:
      leftField = true
      return .handled
    case .enter where leftField:
      leftField = false
      return .handled
    default:
      if leftField { return .ignored }
    }
    if focus == .payment, checkout.handle(key) == .handled { return .handled }
    if key == .enter {
      if model.newPrice != nil { model.acceptNewPriceTapped() } else { book() }
      return .handled
    }
    guard focus == .driver else { return .ignored }
    let before = driver.text
    guard driver.handle(key) else { return .ignored }
    if driver.text != before { model.driverNameChanged(driver.text) }
    return .handled
  }

  /// Books with the chosen card, once signed in with a card (else the checkout says what is missing).
  private func book() {
    guard model.isBookEnabled else {
      // Says what is wrong with the driver's name (the model's validation message) and goes there.
      model.bookTapped()
      focus = .driver
      return
    }
    guard checkout.isReadyToBook() else { return }
    model.cardSelected(checkout.selectedCardId)
    model.bookTapped()
  }
}
