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
  ///   - account: who pays: the booking screen's checkout (sign-in sheet, card choice) reads it.
  ///   - scheduler: where view-model outputs are delivered (the main queue in an app).
  ///   - backgroundScheduler: where the checkout calls `account` (a global queue in an app).
  ///   - today: the earliest check-in (the user's local date).
  public static func root(
    client: HotelClient, account: BookingAccount = .unavailable, scheduler: AnySchedulerOf<DispatchQueue>,
    backgroundScheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global(qos: .userInitiated)
      .eraseToAnyScheduler(),
    today: LocalDate
  ) -> some Screen {
    HotelSearchScreen(
      environment: HotelScreenEnvironment(
        client: client, account: account, scheduler: scheduler, backgroundScheduler: backgroundScheduler, today: today))
  }
}

/// What the hotel screens need to make their view models.
struct HotelScreenEnvironment {
  var client: HotelClient
  var account: BookingAccount = .unavailable
  var scheduler: AnySchedulerOf<DispatchQueue>
  /// Where the checkout's account calls run.
  var backgroundScheduler: AnySchedulerOf<DispatchQueue>
  var today: LocalDate
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
/// Keys: Tab / Shift-Tab move between the parts; in the place field ↑ ↓ pick a suggestion and
/// Enter takes it; in the calendar the picker's keys (Enter twice: check-in then check-out);
/// ← → or - + change guests and rooms; Enter on Search runs the search.
@MainActor
final class HotelSearchScreen: Screen {
  enum Focus: CaseIterable { case place, dates, guests, rooms, search }

  let title = "Hotels"
  let form: HotelSearchFormViewModel
  let autocomplete: PlaceAutocompleteViewModel
  private let environment: HotelScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var focus = Focus.place
  var place = TextFieldState(maxLength: 80)
  /// The highlighted suggestion (nil: the field has the keys).
  var suggestionIndex: Int?
  var calendar: CalendarPickerState
  var guests = 2
  var rooms = 1

  init(environment: HotelScreenEnvironment) {
    self.environment = environment
    form = HotelSearchFormViewModel(today: environment.today)
    autocomplete = PlaceAutocompleteViewModel(client: environment.client, scheduler: environment.scheduler)
    calendar = CalendarPickerState(cursor: environment.today, selectsRange: true, earliest: environment.today)
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([
      autocomplete.$suggestions.void, autocomplete.$isLoading.void, form.$validationMessage.void, form.$nights.void,
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isEditingText: Bool { focus == .place }
  var keyHints: [KeyHint] {
    switch focus {
    case .place: [KeyHint("Tab", "next"), KeyHint("↑↓ Enter", "suggestion")]
    case .dates: [KeyHint("Tab", "next"), KeyHint("←↑→↓", "day"), KeyHint("Enter", "check-in, check-out")]
    case .guests, .rooms: [KeyHint("Tab", "next"), KeyHint("- +", "change")]
    case .search: [KeyHint("Tab", "next"), KeyHint("Enter", "search")]
    }
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let columns = area.columns([.fill, .length(28)], spacing: 2)
    let left = columns[0]
    Label("Find a hotel", style: theme.accent).render(in: left.row(0), into: &buffer)
    TextField("Place", state: place).labelWidth(11).placeholder("City or airport").focused(focus == .place)
      .render(in: left.row(2), into: &buffer)
    let stay = calendar.range
    let start = calendar.start
    Label(Line([Span("Check-in   "), Span(start.map { "\($0)" } ?? "—", style: style(.dates, theme))]))
      .render(in: left.row(4), into: &buffer)
    let nights = form.nights.map { "  (\($0) night\($0 == 1 ? "" : "s"))" } ?? ""
    Label(
      Line([Span("Check-out  "), Span(stay.map { "\($0.end)" } ?? "—", style: style(.dates, theme)), Span(nights)])
    )
    .render(in: left.row(5), into: &buffer)
    Label(Line([Span("Guests     "), Span("‹ \(guests) ›", style: style(.guests, theme))]))
      .render(in: left.row(7), into: &buffer)
    Label(Line([Span("Rooms      "), Span("‹ \(rooms) ›", style: style(.rooms, theme))]))
      .render(in: left.row(8), into: &buffer)
    Button("Search", focused: focus == .search).render(in: left.row(10), into: &buffer)
    if let message = form.validationMessage {
      Label(message, style: theme.warning).render(in: left.row(12), into: &buffer)
    }
    CalendarPicker(state: calendar, focused: focus == .dates).render(
      in: Rect(x: columns[1].x, y: area.y, width: columns[1].width, height: min(10, area.height)), into: &buffer)
    // Suggestions drop down over the form, under the place field.
    if focus == .place {
      let list = Rect(x: left.x + 11, y: left.y + 3, width: max(0, left.width - 11), height: 0)
      if autocomplete.isLoading && autocomplete.suggestions.isEmpty {
        Spinner("Looking up places…").render(
          in: Rect(x: list.x, y: list.y, width: list.width, height: 1), into: &buffer)
      } else if !autocomplete.suggestions.isEmpty {
        let rows = min(autocomplete.suggestions.count, 6)
        let box = Rect(x: list.x, y: list.y, width: list.width, height: rows)
        buffer.clear(box)
        List(autocomplete.suggestions.map(\.label), state: syncedSuggestion())
          .focused(suggestionIndex != nil).render(in: box, into: &buffer)
      }
    }
  }

  var isAnimating: Bool { focus == .place && autocomplete.isLoading }

  private func style(_ part: Focus, _ theme: Theme) -> Style { focus == part ? theme.selection : theme.base }

  private func syncedSuggestion() -> SelectionState {
    var state = SelectionState(count: autocomplete.suggestions.count)
    if let suggestionIndex { state.select(suggestionIndex) }
    return state
  }

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
    switch focus {
    case .place: return handlePlace(key)
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

  private func handlePlace(_ key: Key) -> KeyResult {
    let count = autocomplete.suggestions.count
    switch key {
    case .down where count > 0:
      suggestionIndex = min(count - 1, suggestionIndex.map { $0 + 1 } ?? 0)
      return .handled
    case .up where count > 0 && suggestionIndex != nil:
      suggestionIndex = suggestionIndex! > 0 ? suggestionIndex! - 1 : nil
      return .handled
    case .enter:
      if let index = suggestionIndex, index < count {
        autocomplete.suggestionSelected(at: index)
        place.text = autocomplete.selectedQuery
        form.placeChanged(autocomplete.selectedQuery)
        suggestionIndex = nil
      }
      move(1)
      return .handled
    default:
      let before = place.text
      guard place.handle(key) else { return .ignored }
      if place.text != before {
        suggestionIndex = nil
        autocomplete.queryChanged(place.text)
        form.placeChanged(place.text)
      }
      return .handled
    }
  }

  private func move(_ step: Int) {
    let all = Focus.allCases
    let index = all.firstIndex(of: focus)!
    focus = all[(index + step + all.count) % all.count]
  }

  /// Runs the form's search and opens the results.
  func search() {
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
