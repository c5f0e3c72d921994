import Common
import CommonUI
import Foundation
import Reactive

/// The interactive hotel screens, for an app to mount (as a tab or alone).
///
/// The flow: search form → results (sort, filter) → map of the results, or details of a hotel
/// (loaded lazily, a spinner until then) → booking with the price breakdown. The screens are thin:
/// the rules are the view models' (``HotelSearchFormViewModel``, ``HotelResultsViewModel``, …).
@MainActor
public enum HotelScreens {
  /// The first screen: the search form.
  /// - Parameters:
  ///   - client: the hotel services (``HotelClient/live(service:suggest:token:queue:)`` in an app).
  ///   - session: the app's one session: who pays (the booking screen's checkout observes it: the
  ///     sign-in sheet, the cards); nil: nobody, and signing in is not available.
  ///   - scheduler: where view-model outputs are delivered (the main queue in an app).
  ///   - backgroundScheduler: where background work runs (a global queue in an app).
  ///   - today: today from the app's clock: the calendar opens on `today.here` and offers every day
  ///     that is today somewhere (the service judges a check-in at the hotel), ``TravelToday``.
  ///   - money: how amounts are written (``MoneyFormat`` in the traveller's language).
  public static func root(
    client: HotelClient, session: AccountSession? = nil, scheduler: AnySchedulerOf<DispatchQueue>,
    backgroundScheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global(qos: .userInitiated)
      .eraseToAnyScheduler(),
    today: TravelToday, money: MoneyFormat = MoneyFormat(Localization.current)
  ) -> some Screen {
    HotelSearchScreen(
      environment: HotelScreenEnvironment(
        client: client, session: session ?? .unavailable(mainQueue: scheduler), scheduler: scheduler,
        backgroundScheduler: backgroundScheduler, today: today, money: money))
  }
}

/// What the hotel screens need to make their view models.
struct HotelScreenEnvironment {
  var client: HotelClient
  /// The app's one session: who pays, observed by the booking screen's checkout.
  var session: AccountSession
  var scheduler: AnySchedulerOf<DispatchQueue>
  /// Where background work runs.
  var backgroundScheduler: AnySchedulerOf<DispatchQueue>
  var today: TravelToday
  /// How amounts are written (the traveller's language).
  var money: MoneyFormat = MoneyFormat(Localization.current)
}

/// Void publishers of a screen's view-model outputs, merged for ``Screen/changes``.
func anyChange(_ publishers: [AnyPublisher<Void, Never>]) -> AnyPublisher<Void, Never> {
  Publishers.MergeMany(publishers).eraseToAnyPublisher()
}

extension Published.Publisher {
  /// Each change as `Void`.
  var void: AnyPublisher<Void, Never> { map { _ in () }.eraseToAnyPublisher() }
}

/// The search form: place (suggestions as you type), stay (calendar picker), guests and rooms.
///
/// Keys: Tab / Shift-Tab move between the parts. In the place field, places are suggested as you
/// type (CommonUI's ``AutocompleteState``): the first suggestion is highlighted as soon as the list
/// answers the text, ↓ ↑ move the highlight, Enter or Tab take the highlighted place and move on.
/// Enter or Tab pressed before the suggestions for the typed text arrived wait for them (a pending
/// accept, with a spinner): the first place is then taken as Enter on it would (after Tab, the
/// field is filled behind the focus); an empty answer keeps the typed text; typing or Esc cancels.
/// Search pressed while the field waits runs once it has its answer (any other key cancels that).
/// With no suggestions Enter keeps the typed text (a city name, `48.85,2.35`); Esc closes the
/// list, a second Esc leaves the field (then `q`
/// quits and digits switch tabs; Enter goes back into it). In the calendar the picker's keys
/// (Enter twice: check-in then check-out); ← → or - + change guests and rooms; Enter on Search
/// runs the search. The line under the form follows the focus: what is wrong with the focused
/// part, else how to fill it in; on Search, the first thing to fix.
@MainActor
final class HotelSearchScreen: Screen {
  enum Focus: CaseIterable { case place, dates, guests, rooms, search }

  let title = L("Hotels")
  let form: HotelSearchFormViewModel
  let autocomplete: PlaceAutocompleteViewModel
  private let environment: HotelScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var focus = Focus.place
  var place = AutocompleteState(maxLength: 80)
  /// Esc left the place field: keys go to the shell until Enter.
  var leftField = false
  var calendar: CalendarPickerState
  var guests = 2
  var rooms = 1
  /// Search was pressed while the place waited for its suggestions: it runs once they arrive.
  var searchRequested = false
  /// Redraws after a pending accept is resolved (the answer itself was already a change).
  private let resolved = PassthroughSubject<Void, Never>()
  private var subscriptions: [AnyCancellable] = []

  init(environment: HotelScreenEnvironment) {
    self.environment = environment
    form = HotelSearchFormViewModel(today: environment.today)
    autocomplete = PlaceAutocompleteViewModel(client: environment.client, scheduler: environment.scheduler)
    calendar = CalendarPickerState(
      cursor: environment.today.here, selectsRange: true, earliest: environment.today.earliest)
    // `@Published` emits before storing: look at the answer on the scheduler's next turn.
    autocomplete.$suggestions.receive(on: environment.scheduler)
      .sink { [weak self] _ in MainActor.assumeIsolated { self?.answerArrived() } }
      .store(in: &subscriptions)
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      autocomplete.$suggestions.void, autocomplete.$suggestionsQuery.void, autocomplete.$isLoading.void,
      form.$validationMessage.void, form.$problems.void, form.$nights.void, resolved.eraseToAnyPublisher(),
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { focus == .place && !leftField }
  var keyHints: [KeyHint] {
    switch focus {
    case .place where leftField: [KeyHint("Tab", "next"), KeyHint("Enter", "edit")]
    case .place where place.isAwaitingAnswer: [KeyHint("Tab Enter", "next"), KeyHint("Esc", "keep text")]
    case .place where place.highlightedIndex(in: suggestions) != nil:
      [KeyHint("↓↑", "choose"), KeyHint("Enter Tab", "take place"), KeyHint("Esc", "close list")]
    case .place: [KeyHint("Tab", "next"), KeyHint("Enter", "next")]
    case .dates:
      [
        KeyHint("Tab", "next"), KeyHint("←↑→↓", "day"),
        KeyHint("Enter", calendar.start == nil || calendar.range != nil ? "check-in" : "check-out"),
      ]
    case .guests, .rooms: [KeyHint("Tab", "next"), KeyHint("- +", "change"), KeyHint("Enter", "next")]
    case .search: [KeyHint("Tab", "next"), KeyHint("Enter", "search")]
    }
  }

  /// The line under the form, for the focused part: what is wrong with it (a problem: `true`),
  /// else how to fill it in; on Search, the first thing to fix in the form.
  var hintLine: (String, Bool) {
    if searchRequested { return (L("Searching as soon as the place suggestions arrive…"), false) }
    switch focus {
    case .place:
      return (L("A city or an airport (Paris, CDG), or lat,lon (48.85,2.35)."), false)
    case .dates:
      // Nothing chosen yet: how; a day chosen: the rest or what is wrong.
      if calendar.start != nil, let problem = form.problems[.dates] { return (problem, true) }
      return (
        L(
          "In the calendar: Enter on the check-in day, then on the check-out day (at most "
            + "\(HotelSearchRequest.maxNights) nights)."), false
      )
    case .guests, .rooms:
      if let problem = form.problems[.guests] { return (problem, true) }
      return (L("← → or - + change it: at most 4 guests a room, \(HotelSearchRequest.maxRooms) rooms."), false)
    case .search:
      return form.validationMessage.map { ($0, true) } ?? (L("Enter searches."), false)
    }
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let columns = area.columns([.fill, .length(28)], spacing: 2)
    let left = columns[0]
    Label(L("Find a hotel"), style: theme.accent).render(in: left.row(0), into: &buffer)
    let stay = calendar.range
    let start = calendar.start
    Label(Line([Span(L("Check-in   ")), Span(start.map { "\($0)" } ?? "—", style: style(.dates, theme))]))
      .render(in: left.row(4), into: &buffer)
    let nights = form.nights.map { "  (\($0) night\($0 == 1 ? "" : "s"))" } ?? ""
    Label(
      Line([Span(L("Check-out  ")), Span(stay.map { "\($0.end)" } ?? "—", style: style(.dates, theme)), Span(nights)])
    )
    .render(in: left.row(5), into: &buffer)
    Label(Line([Span(L("Guests     ")), Span("‹ \(guests) ›", style: style(.guests, theme))]))
      .render(in: left.row(7), into: &buffer)
    Label(Line([Span(L("Rooms      ")), Span("‹ \(rooms) ›", style: style(.rooms, theme))]))
      .render(in: left.row(8), into: &buffer)
    Button("Search", focused: focus == .search).render(in: left.row(10), into: &buffer)
    let (message, isProblem) = hintLine
    Paragraph(message, style: isProblem ? theme.warning : theme.muted).render(
      in: Rect(x: left.x, y: left.y + 12, width: left.width, height: max(0, min(2, left.height - 12))), into: &buffer)
    CalendarPicker(state: calendar, focused: focus == .dates).render(
      in: Rect(x: columns[1].x, y: area.y, width: columns[1].width, height: min(10, area.height)), into: &buffer)
    // The place field last: its suggestions drop down over the form.
    AutocompleteField(L("Place"), state: place, suggestions: suggestions).labelWidth(11).placeholder(
      L("City or airport")
    )
    .loadingText(L("Looking up places…")).focused(isEditingText)
    .render(in: left.inset(top: 2), into: &buffer)
  }

  /// The place suggestions as the field shows them.
  private var suggestions: AutocompleteList {
    AutocompleteList(
      autocomplete.suggestions.map(\.label), answering: autocomplete.suggestionsQuery,
      isLoading: autocomplete.isLoading)
  }

  var isAnimating: Bool { (isEditingText && autocomplete.isLoading) || place.isAwaitingAnswer }

  private func style(_ part: Focus, _ theme: Theme) -> Style { focus == part ? theme.selection : theme.base }

  func handle(_ key: Key) -> KeyResult {
    searchRequested = false  // any key after Search cancels a search waiting for suggestions
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
    switch focus {
    case .place:
      switch key {
      case .escape where !leftField:
        leftField = true
      case .enter:
        if leftField { leftField = false } else { move(1) }
      case .down where leftField: move(1)
      case .up where leftField: move(-1)
      default: return .ignored
      }
      return .handled
    case .dates:
      guard let event = calendar.handle(key) else { return .ignored }
      switch event {
      case .rangeChosen(let range):
        form.checkInChanged(range.start)
        form.checkOutChanged(range.end)
      case .rangeStarted(let day):
        form.checkInChanged(day)
      case .moved, .dateChosen: break
      }
      return .handled
    case .guests, .rooms:
      let delta: Int
      switch key {
      case .right, .character("+"), .character("="): delta = 1
      case .left, .character("-"): delta = -1
      case .enter:
        move(1)
        return .handled
      default: return .ignored
      }
      if focus == .guests {
        guests = max(1, guests + delta)
        form.guestsChanged(guests)
      } else {
        rooms = max(1, rooms + delta)
        form.roomsChanged(rooms)
      }
      return .handled
    case .search:
      guard key == .enter else { return .ignored }
      search()
      return .handled
    }
  }

  /// A key in the place field, for the shared autocomplete; nil when the key is the form's (Tab
  /// without a suggestion to take, Enter keeping the typed text, Esc leaving the field).
  private func handlePlace(_ key: Key) -> KeyResult? {
    switch place.handle(key, suggestions: suggestions) {
    case .edited(let text):
      autocomplete.queryChanged(text)
      form.placeChanged(text)
    case .picked(let index):
      take(index)
      move(1)
    case .closed, .moved: break
    case .ignored: return nil
    }
    return .handled
  }

  /// Takes suggestion `index`: the field and the form get its query (`Paris, FR`).
  private func take(_ index: Int) {
    autocomplete.suggestionSelected(at: index)
    place.accept(autocomplete.selectedQuery)
    form.placeChanged(autocomplete.selectedQuery)
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

  /// Runs the form's search and opens the results; while the place waits for its suggestions, the
  /// search waits too (it never goes out with the unresolved typed text).
  func search() {
    if place.isAwaitingAnswer {
      searchRequested = true
      return
    }
    var request: HotelSearchRequest?
    let subscription = form.searches.sink { request = $0 }
    form.searchTapped()
    subscription.cancel()
    guard let request else { return }
    let results = HotelResultsViewModel(client: environment.client, scheduler: environment.scheduler)
    results.search(request)
    intents.send(.push(HotelResultsScreen(model: results, request: request, environment: environment)))
  }
}
