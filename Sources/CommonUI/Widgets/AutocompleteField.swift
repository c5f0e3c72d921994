import Common
import Foundation

/// The suggestions a view model offers for an autocomplete field, as the field shows them: one
/// label per suggestion (in the view model's order), the text they answer, and whether an answer
/// is on its way.
///
/// `query` is what makes a stale list harmless: suggestions arrive after a pause in typing (a
/// debounce) and a lookup, so for a moment the list on screen answers an older text. Only a list
/// whose `query` is the field's current text (both trimmed of spaces) can be highlighted and
/// taken; see ``AutocompleteState/isCurrent(_:)``.
public struct AutocompleteList: Hashable, Sendable {
  /// One line per suggestion (cut with `…` when wider than the dropdown, never wrapped).
  public var labels: [String]
  /// The text the suggestions answer (nil: no answer yet).
  public var query: String?
  /// Whether an answer for a newer text is being looked up (shown as a spinner while there are no
  /// rows to show).
  public var isLoading: Bool

  /// A list of `labels` answering `query`.
  public init(_ labels: [String], answering query: String?, isLoading: Bool = false) {
    self.labels = labels
    self.query = query
    self.isLoading = isLoading
  }

  /// No suggestions, no answer.
  public static let empty = AutocompleteList([], answering: nil)

  /// Number of suggestions.
  public var count: Int { labels.count }
}

/// What a key did to an autocomplete field (``AutocompleteState/handle(_:suggestions:)``).
public enum AutocompleteEvent: Hashable, Sendable {
  /// The text changed (typed, deleted, pasted): tell the view model, which looks up suggestions.
  case edited(String)
  /// Enter or Tab took the suggestion at this index of the list (the one highlighted): tell the
  /// view model, put its value in the field (``AutocompleteState/accept(_:)``) and move on.
  case picked(Int)
  /// Esc closed the dropdown (and cancelled a pending accept); the typed text stays.
  case closed
  /// The highlight or the cursor moved: redraw, nothing else.
  case moved
  /// Not the field's key: the screen applies its own meaning (Enter keeps the typed text and moves
  /// on, Tab / Shift-Tab move, Esc leaves the field, ↑ ↓ move between the form's parts). Enter or
  /// Tab before the answer for the text also start a pending accept
  /// (``AutocompleteState/isAwaitingAnswer``): the screen moves on at once all the same, and
  /// ``AutocompleteState/answerArrived(_:)`` says how to fill the field it left.
  case ignored
}

/// An autocomplete field's state, kept by the screen between frames: the text being typed
/// (``field``), whether the dropdown is open, and which suggestion is highlighted. The
/// suggestions themselves stay the view model's; each call gets them as an ``AutocompleteList``.
///
/// The keys (``handle(_:suggestions:)``), as in Google Flights or Kayak — what a person sees
/// highlighted is what Enter takes:
/// - Typing edits the text and opens the dropdown; when suggestions answering the text arrive, the
///   first one is highlighted.
/// - ↓ ↑ move the highlight (stopping at the ends); ↓ also reopens a closed dropdown. While the
///   dropdown shows a stale list or a spinner they do nothing (they never jump to another field
///   under a list that is about to change); with no dropdown they are the screen's.
/// - Enter or Tab take the highlighted suggestion (``AutocompleteEvent/picked(_:)``). With no
///   suggestions for the text (an answer that is empty), or with the dropdown closed, nothing is
///   highlighted and both are ``AutocompleteEvent/ignored``: the screen keeps the typed text (a
///   city name the service accepts, `37.62,-122.38`) and moves on.
/// - Enter or Tab pressed after typing but before the answer for the text arrived (only a stale
///   list, or nothing yet: the view model's pause and lookup) start a *pending accept*: the field
///   waits for the answer to exactly this text (``isAwaitingAnswer``; the field shows a spinner).
///   Both are ``AutocompleteEvent/ignored``: the screen moves the focus on at once, so keys typed
///   ahead (`SFO` Enter `JFK`) land in the next field, and the field it left is filled later. The
///   screen passes every new list to ``answerArrived(_:)``: the answer's first suggestion is taken
///   (``PendingAcceptOutcome/take(_:)``, as if Enter had been pressed on it), or, if the answer is
///   empty, the typed text is kept (``PendingAcceptOutcome/keepText``); a list for another text
///   changes nothing. The focus does not move when the answer arrives. Typing in the field (or Esc,
///   once the person came back to it) cancels the pending accept.
/// - Esc closes the dropdown and keeps the typed text (``AutocompleteEvent/closed``); with the
///   dropdown closed, Esc is ``AutocompleteEvent/ignored`` (the screen leaves the field).
/// - Shift-Tab is ``AutocompleteEvent/ignored`` (the screen moves back; the typed text stays).
///
/// ```swift
/// var from = AutocompleteState(maxLength: 60)
/// let list = AutocompleteList(model.suggestions.map(\.label), answering: model.suggestionsQuery)
/// switch from.handle(key, suggestions: list) {
/// case .edited(let text): model.textChanged(text)
/// case .picked(let index): model.suggestionSelected(at: index); from.accept(model.text); moveToNextField()
/// case .closed, .moved: break
/// case .ignored: return handleFormKey(key)  // Enter, Tab: move on (even with a pending accept)
/// }
/// // When the view model publishes suggestions (after they are stored); the focus stays where it is:
/// if case .take(let index)? = from.answerArrived(list) { model.suggestionSelected(at: index); from.accept(model.text) }
/// ```
public struct AutocompleteState: Hashable, Sendable {
  /// The text and its cursor.
  public var field: TextFieldState
  /// Whether the dropdown may show (Esc closes it; typing and ↓ open it).
  public private(set) var isOpen = true
  /// The highlighted row of a current list, 0-based (the first row until ↓ moves it).
  public private(set) var highlighted = 0
  /// The text (trimmed of spaces) whose answer a pending accept waits for; nil: none pending.
  public private(set) var awaitedText: String?
  /// Whether the text was typed since the last answer, so an answer for it is on its way (false
  /// once a list answers it, or after ``accept(_:)``: then Enter never waits).
  public private(set) var expectsAnswer = false

  /// An empty field accepting at most `maxLength` characters (nil: no limit).
  public init(text: String = "", maxLength: Int? = nil) {
    field = TextFieldState(text: text, maxLength: maxLength)
  }

  /// The field's text (setting it keeps the dropdown as it is, cancels a pending accept and
  /// expects no answer; see ``accept(_:)``).
  public var text: String {
    get { field.text }
    set {
      field.text = newValue
      awaitedText = nil
      expectsAnswer = false
    }
  }

  /// Whether Enter or Tab asked for the first suggestion of an answer still on its way (a pending
  /// accept): the field shows a spinner until ``answerArrived(_:)`` resolves it.
  public var isAwaitingAnswer: Bool { awaitedText != nil }

  /// Whether `list` answers the text as it is now (both trimmed of spaces), so its rows can be
  /// highlighted and taken.
  public func isCurrent(_ list: AutocompleteList) -> Bool {
    list.query?.trimmingCharacters(in: .whitespaces) == field.text.trimmingCharacters(in: .whitespaces)
  }

  /// Whether the dropdown shows something for `list`: rows (current or stale), a lookup, or the
  /// spinner of a pending accept.
  public func isShowingDropdown(_ list: AutocompleteList) -> Bool {
    isAwaitingAnswer || (isOpen && (list.count > 0 || list.isLoading))
  }

  /// The row Enter or Tab would take now: the highlight on an open, current, non-empty list; nil
  /// otherwise (then they keep the typed text).
  public func highlightedIndex(in list: AutocompleteList) -> Int? {
    guard isOpen, list.count > 0, isCurrent(list) else { return nil }
    return min(highlighted, list.count - 1)
  }

  /// Applies a key, given the suggestions shown now. See the type's documentation for the keys.
  public mutating func handle(_ key: Key, suggestions list: AutocompleteList) -> AutocompleteEvent {
    if isCurrent(list) { expectsAnswer = false }
    let index = highlightedIndex(in: list)
    switch key {
    case .enter, .tab:
      if let index { return .picked(index) }
      let trimmed = field.text.trimmingCharacters(in: .whitespaces)
      guard isAwaitingAnswer || (isOpen && expectsAnswer && !trimmed.isEmpty && !isCurrent(list)) else {
        return .ignored
      }
      awaitedText = awaitedText ?? trimmed
      return .ignored  // the screen moves on at once; answerArrived(_:) fills the field later
    case .down:
      if let index {
        highlighted = min(index + 1, list.count - 1)
        return .moved
      }
      if isShowingDropdown(list) { return .moved }  // a list on its way: wait for it
      guard list.count > 0, isCurrent(list) else { return .ignored }
      isOpen = true
      highlighted = 0
      return .moved
    case .up:
      if let index {
        highlighted = max(0, index - 1)
        return .moved
      }
      return isShowingDropdown(list) ? .moved : .ignored
    case .escape:
      guard isShowingDropdown(list) || isAwaitingAnswer else { return .ignored }
      isOpen = false
      awaitedText = nil
      return .closed
    case .backTab:
      return .ignored
    default:
      let before = field.text
      guard field.handle(key) else { return .ignored }
      guard field.text != before else { return .moved }
      isOpen = true
      highlighted = 0
      awaitedText = nil
      expectsAnswer = true
      return .edited(field.text)
    }
  }

  /// Resolves a pending accept with a list the view model just published (call it for every new
  /// list, after the view model stored it): nil when nothing is pending or `list` answers another
  /// text (a stale answer changes nothing); otherwise the pending accept ends with
  /// ``PendingAcceptOutcome/take(_:)`` of the first suggestion, or ``PendingAcceptOutcome/keepText``
  /// when the answer is empty. The screen then takes the suggestion (``accept(_:)``) in the field,
  /// wherever the focus is now (it moved on when Enter or Tab was pressed); it does not move it.
  public mutating func answerArrived(_ list: AutocompleteList) -> PendingAcceptOutcome? {
    guard let awaitedText, let query = list.query, query.trimmingCharacters(in: .whitespaces) == awaitedText,
      isCurrent(list)
    else { return nil }
    self.awaitedText = nil
    expectsAnswer = false
    return list.count > 0 ? .take(0) : .keepText
  }

  /// Puts a taken suggestion's value in the field (`SFO`, `Paris, FR`), closes the dropdown and
  /// ends a pending accept.
  public mutating func accept(_ text: String) {
    field.text = text
    awaitedText = nil
    expectsAnswer = false
    close()
  }

  /// Closes the dropdown (e.g. when the focus leaves the field); typing or ↓ opens it again.
  public mutating func close() {
    isOpen = false
    highlighted = 0
  }
}

/// How a pending accept ended (``AutocompleteState/answerArrived(_:)``).
public enum PendingAcceptOutcome: Hashable, Sendable {
  /// Take the suggestion at this index of the answer (the first), as Enter on it would.
  case take(Int)
  /// The answer was empty: keep the typed text (free text the service may accept).
  case keepText
}

/// An autocomplete field: a ``TextField`` on the first row of its area and, while it is focused,
/// the dropdown of suggestions under it, drawn over whatever is there (draw it after the rest of
/// the form).
///
/// The dropdown starts under the field's text (after the label) and runs to the area's right edge;
/// it shows at most ``maxRows`` rows (a scroll bar when there are more) and never more than the
/// area has. Each row is one line: a suggestion wider than the dropdown is cut with `…` (by display
/// width, so `東京` and emoji count two columns), never wrapped. The highlighted row has the `▸`
/// marker and the selection colour; a stale list (answering an older text) is dimmed without a
/// marker; while the first answer is loading, a spinner with ``loadingText``. While a pending accept
/// waits (``AutocompleteState/isAwaitingAnswer``) the dropdown is only that spinner, and an
/// unfocused field (Tab moved on) shows a spinner after its text.
///
/// ```swift
/// AutocompleteField("From", state: from, suggestions: list).labelWidth(11).fieldWidth(46)
///   .placeholder("City or airport").focused(focus == .from)
///   .render(in: Rect(x: x, y: y, width: area.right - x, height: area.bottom - y), into: &buffer)
/// ```
public struct AutocompleteField: Widget {
  /// The label before the field.
  public var label: String
  /// The text, dropdown and highlight.
  public var state: AutocompleteState
  /// The suggestions to show.
  public var suggestions: AutocompleteList
  /// Shown dimmed in an empty unfocused field.
  public var placeholder = ""
  /// Columns given to the label (nil: its own width plus one).
  public var labelWidth: Int?
  /// Columns of the label and field together (nil: the area's width); the dropdown may be wider.
  public var fieldWidth: Int?
  /// Whether the field has the keys (only a focused field shows its dropdown).
  public var isFocused = false
  /// Most rows of suggestions shown at once.
  public var maxRows = 6
  /// The spinner's text while the first answer is loading.
  public var loadingText = L("Looking up…")

  /// A field labelled `label` showing `state` and, focused, `suggestions`.
  public init(_ label: String, state: AutocompleteState, suggestions: AutocompleteList) {
    self.label = label
    self.state = state
    self.suggestions = suggestions
  }

  /// The same field with `text` dimmed in it while empty and unfocused.
  public func placeholder(_ text: String) -> AutocompleteField { with { $0.placeholder = text } }
  /// The same field with the label given `width` columns (aligns a form's fields).
  public func labelWidth(_ width: Int) -> AutocompleteField { with { $0.labelWidth = width } }
  /// The same field `width` columns wide (label included); the dropdown still runs to the area's edge.
  public func fieldWidth(_ width: Int) -> AutocompleteField { with { $0.fieldWidth = width } }
  /// The same field, focused or not.
  public func focused(_ focused: Bool) -> AutocompleteField { with { $0.isFocused = focused } }
  /// The same field showing at most `rows` suggestions at once.
  public func maxRows(_ rows: Int) -> AutocompleteField { with { $0.maxRows = max(1, rows) } }
  /// The same field with `text` beside the spinner while loading.
  public func loadingText(_ text: String) -> AutocompleteField { with { $0.loadingText = text } }

  private func with(_ change: (inout AutocompleteField) -> Void) -> AutocompleteField {
    var copy = self
    change(&copy)
    return copy
  }

  /// The columns before the field's text.
  private var labelColumns: Int { labelWidth ?? DisplayWidth.of(label) + 1 }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let row = Rect(x: area.x, y: area.y, width: min(area.width, fieldWidth ?? area.width), height: 1)
    TextField(label, state: state.field).labelWidth(labelColumns).placeholder(placeholder).focused(isFocused)
      .render(in: row, into: &buffer)
    let x = min(area.right, area.x + labelColumns)
    if state.isAwaitingAnswer, !isFocused {
      let after = x + DisplayWidth.of(state.text) + 1
      if after < row.right {
        let symbol = Spinner.frames[Spinner.clockFrame() % Spinner.frames.count]
        buffer.write(String(symbol), x: after, y: row.y, maxWidth: 1, style: buffer.theme.accent)
      }
    }
    guard isFocused, state.isShowingDropdown(suggestions) else { return }
    let available = max(0, area.height - 1)
    if suggestions.count == 0 || state.isAwaitingAnswer {
      guard available > 0 else { return }
      let line = Rect(x: x, y: area.y + 1, width: area.right - x, height: 1)
      buffer.clear(line)
      Spinner(loadingText).render(in: line, into: &buffer)
      return
    }
    let box = Rect(x: x, y: area.y + 1, width: area.right - x, height: min(suggestions.count, maxRows, available))
    guard !box.isEmpty else { return }
    buffer.clear(box)
    if let index = state.highlightedIndex(in: suggestions) {
      var selection = SelectionState(count: suggestions.count)
      selection.select(index)
      List(suggestions.labels, state: selection).focused(true).render(in: box, into: &buffer)
    } else {
      // A stale list: dimmed, no marker, nothing Enter would take.
      for (row, label) in suggestions.labels.prefix(box.height).enumerated() {
        buffer.write(Line(label, style: buffer.theme.muted), x: box.x + 2, y: box.y + row, maxWidth: box.width - 2)
      }
    }
  }
}
