import CommonTesting
import Testing

@testable import CommonUI

/// The shared autocomplete field: its state's keys (``AutocompleteState``) and its drawing
/// (``AutocompleteField``, snapshots in `__Snapshots__/AutocompleteTests/`).
@Suite struct AutocompleteTests {
  static let airports = AutocompleteList(
    ["SFO  San Francisco International", "SJC  Norman Y. Mineta San Jose International", "OAK  Oakland International"],
    answering: "san fra")

  /// A state with `text` typed (the dropdown open, the first row highlighted).
  func typed(_ text: String) -> AutocompleteState {
    var state = AutocompleteState(maxLength: 60)
    for character in text { _ = state.handle(.character(character), suggestions: .empty) }
    return state
  }

  // MARK: Keys

  @Test func typing_editsTheText_andReportsEachChange() {
    var state = AutocompleteState()
    #expect(state.handle(.character("s"), suggestions: .empty) == .edited("s"))
    #expect(state.handle(.character("f"), suggestions: .empty) == .edited("sf"))
    #expect(state.handle(.left, suggestions: .empty) == .moved)  // the cursor, not the text
    #expect(state.handle(.backspace, suggestions: .empty) == .edited("f"))
    #expect(state.text == "f")
  }

  @Test func highlight_firstSuggestionAsSoonAsTheListAnswersTheText() {
    let state = typed("san fra")
    #expect(state.highlightedIndex(in: Self.airports) == 0)
    #expect(state.isShowingDropdown(Self.airports))
  }

  @Test func enter_picksTheHighlightedSuggestion() {
    var state = typed("san fra")
    #expect(state.handle(.enter, suggestions: Self.airports) == .picked(0))
    state.accept("SFO")
    #expect(state.text == "SFO")
    #expect(!state.isOpen)
  }

  @Test func downUp_moveTheHighlight_stoppingAtTheEnds() {
    var state = typed("san fra")
    #expect(state.handle(.up, suggestions: Self.airports) == .moved)
    #expect(state.highlightedIndex(in: Self.airports) == 0)
    for _ in 0..<5 { #expect(state.handle(.down, suggestions: Self.airports) == .moved) }
    #expect(state.highlightedIndex(in: Self.airports) == 2)
    #expect(state.handle(.up, suggestions: Self.airports) == .moved)
    #expect(state.handle(.enter, suggestions: Self.airports) == .picked(1))
  }

  @Test func tab_takesTheHighlightedSuggestion_shiftTabDoesNot() {
    var state = typed("san fra")
    _ = state.handle(.down, suggestions: Self.airports)
    #expect(state.handle(.tab, suggestions: Self.airports) == .picked(1))
    #expect(state.handle(.backTab, suggestions: Self.airports) == .ignored)
  }

  @Test func escape_closesTheDropdownKeepingTheText_thenIsTheScreens() {
    var state = typed("san fra")
    #expect(state.handle(.escape, suggestions: Self.airports) == .closed)
    #expect(state.text == "san fra")
    #expect(!state.isShowingDropdown(Self.airports))
    #expect(state.highlightedIndex(in: Self.airports) == nil)
    // Closed, Enter keeps the typed text (the screen's Enter) and a second Esc leaves the field.
    #expect(state.handle(.enter, suggestions: Self.airports) == .ignored)
    #expect(state.handle(.escape, suggestions: Self.airports) == .ignored)
    // ↓ opens it again, with the first row highlighted.
    #expect(state.handle(.down, suggestions: Self.airports) == .moved)
    #expect(state.highlightedIndex(in: Self.airports) == 0)
  }

  @Test func typing_reopensAClosedDropdown_andHighlightsTheFirstRowAgain() {
    var state = typed("san fr")
    let list = AutocompleteList(Self.airports.labels, answering: "san fr")
    _ = state.handle(.down, suggestions: list)
    _ = state.handle(.escape, suggestions: list)
    #expect(state.handle(.character("a"), suggestions: list) == .edited("san fra"))
    #expect(state.isOpen)
    #expect(state.highlightedIndex(in: Self.airports) == 0)
  }

  @Test func staleList_forAnOlderText_isNeitherHighlightedNorTaken() {
    var state = typed("san fra")
    _ = state.handle(.character("n"), suggestions: Self.airports)  // "san fran": the list answers "san fra"
    #expect(!state.isCurrent(Self.airports))
    #expect(state.highlightedIndex(in: Self.airports) == nil)
    #expect(state.isShowingDropdown(Self.airports))  // shown, dimmed
    // Enter waits for the answer to "san fran" (a pending accept); Tab too; both let the screen move.
    #expect(state.handle(.enter, suggestions: Self.airports) == .ignored)
    #expect(state.handle(.tab, suggestions: Self.airports) == .ignored)
    #expect(state.isAwaitingAnswer)
    #expect(state.handle(.down, suggestions: Self.airports) == .moved)  // waits, moves nothing
    #expect(state.highlightedIndex(in: Self.airports) == nil)
    // The answer for the new text arrives: its first row is highlighted.
    let fresh = AutocompleteList(["SFO  San Francisco International"], answering: "san fran")
    #expect(state.handle(.enter, suggestions: fresh) == .picked(0))
  }

  @Test func loading_withNoAnswerYet_enterWaits_escCancels() {
    var state = typed("SFO")
    let loading = AutocompleteList([], answering: nil, isLoading: true)
    #expect(state.isShowingDropdown(loading))
    #expect(state.handle(.enter, suggestions: loading) == .ignored)
    #expect(state.handle(.escape, suggestions: loading) == .closed)
    #expect(!state.isAwaitingAnswer)
    #expect(state.answerArrived(AutocompleteList(["SFO  San Francisco"], answering: "SFO")) == nil)
    #expect(state.text == "SFO")
  }

  // MARK: Pending accept (Enter before the suggestions)

  @Test func pending_enterBeforeTheAnswer_thenTheAnswerTakesItsFirstSuggestion() {
    var state = typed("san fra")
    #expect(state.handle(.enter, suggestions: .empty) == .ignored)
    #expect(state.isAwaitingAnswer)
    #expect(state.awaitedText == "san fra")
    #expect(state.isShowingDropdown(.empty))  // the spinner
    #expect(state.handle(.enter, suggestions: .empty) == .ignored)  // again: still waiting, nothing new
    #expect(state.answerArrived(Self.airports) == .take(0))
    #expect(!state.isAwaitingAnswer)
    state.accept("SFO")
    #expect(state.text == "SFO")
    #expect(state.answerArrived(Self.airports) == nil)  // resolved once
  }

  @Test func pending_emptyAnswer_keepsTheTypedText() {
    var state = typed("37.62,-122.38")
    #expect(state.handle(.enter, suggestions: .empty) == .ignored)
    #expect(state.answerArrived(AutocompleteList([], answering: "37.62,-122.38")) == .keepText)
    #expect(!state.isAwaitingAnswer)
    #expect(state.text == "37.62,-122.38")
    #expect(state.handle(.enter, suggestions: AutocompleteList([], answering: "37.62,-122.38")) == .ignored)
  }

  @Test func pending_typingCancelsIt() {
    var state = typed("san fr")
    #expect(state.handle(.enter, suggestions: .empty) == .ignored)
    #expect(state.handle(.character("a"), suggestions: .empty) == .edited("san fra"))
    #expect(!state.isAwaitingAnswer)
    #expect(state.answerArrived(Self.airports) == nil)  // the answer only shows, nothing is taken
    #expect(state.text == "san fra")
  }

  @Test func pending_staleAnswerForAnOlderText_isIgnored() {
    var state = typed("san fra")
    let older = AutocompleteList(["SAN  San Diego International"], answering: "san")
    #expect(state.handle(.enter, suggestions: older) == .ignored)  // the list answers "san"
    #expect(state.answerArrived(older) == nil)
    #expect(state.answerArrived(AutocompleteList(["SFO  San Francisco"], answering: "san fr")) == nil)
    #expect(state.isAwaitingAnswer)
    #expect(state.answerArrived(Self.airports) == .take(0))
  }

  @Test func pending_enterAndTab_bothLetTheScreenMoveOnAtOnce() {
    for key in [Key.enter, .tab] {
      var state = typed("san fra")
      #expect(state.handle(key, suggestions: .empty) == .ignored)  // the screen moves on now
      #expect(state.isAwaitingAnswer)
      state.close()  // the focus left the field: still waiting
      #expect(state.answerArrived(Self.airports) == .take(0))  // fills the field left behind
    }
    // Enter, then Shift-Tab back to the field: still waiting.
    var back = typed("san fra")
    #expect(back.handle(.enter, suggestions: .empty) == .ignored)
    #expect(back.handle(.backTab, suggestions: .empty) == .ignored)
    #expect(back.isAwaitingAnswer)
  }

  @Test func pending_neverWithoutTyping_closedList_orEmptyText() {
    var accepted = AutocompleteState()
    accepted.accept("SFO")  // a taken suggestion: no answer is due
    #expect(accepted.handle(.enter, suggestions: Self.airports) == .ignored)
    var closed = typed("san fr")
    _ = closed.handle(.escape, suggestions: AutocompleteList([], answering: nil, isLoading: true))
    #expect(closed.handle(.enter, suggestions: .empty) == .ignored)  // Esc closed the list: keep the text
    var blank = typed("  ")
    #expect(blank.handle(.enter, suggestions: .empty) == .ignored)
    #expect(!blank.isAwaitingAnswer)
  }

  @Test func noSuggestions_enterAndEscapeAreTheScreens() {
    var state = typed("37.62,-122.38")
    let none = AutocompleteList([], answering: "37.62,-122.38")
    #expect(!state.isShowingDropdown(none))
    #expect(state.handle(.enter, suggestions: none) == .ignored)  // the typed text is kept
    #expect(state.handle(.tab, suggestions: none) == .ignored)
    #expect(state.handle(.escape, suggestions: none) == .ignored)  // leaves the field
    #expect(state.handle(.down, suggestions: none) == .ignored)  // the form's next part
    #expect(state.text == "37.62,-122.38")
  }

  @Test func currentList_ignoresSpacesAroundTheText() {
    let state = typed("san fra ")
    #expect(state.isCurrent(Self.airports))
    #expect(state.highlightedIndex(in: Self.airports) == 0)
  }

  @Test func aShorterList_clampsTheHighlight() {
    var state = typed("san fra")
    _ = state.handle(.down, suggestions: Self.airports)
    _ = state.handle(.down, suggestions: Self.airports)
    let shorter = AutocompleteList(["SFO  San Francisco International"], answering: "san fra")
    #expect(state.handle(.enter, suggestions: shorter) == .picked(0))
  }

  @Test func close_hidesTheDropdown_untilTypingOrDown() {
    var state = typed("san fra")
    state.close()
    #expect(!state.isShowingDropdown(Self.airports))
    #expect(state.handle(.enter, suggestions: Self.airports) == .ignored)
  }

  // MARK: Drawing

  /// The field on the first row of a form, with two rows under it that the dropdown covers.
  struct Form: Widget {
    var field: AutocompleteField
    func render(in area: Rect, into buffer: inout Buffer) {
      Label("Depart     2026-12-20").render(in: area.row(1), into: &buffer)
      Label("Return     —").render(in: area.row(2), into: &buffer)
      field.render(in: area, into: &buffer)
    }
  }

  @Test func field_dropdownHighlightsTheFirstRow_cutsLongRows() throws {
    let field = AutocompleteField("From", state: typed("san fra"), suggestions: Self.airports).labelWidth(11)
      .fieldWidth(24).focused(true)
    try assertSnapshot(of: Form(field: field), width: 40, height: 5, named: "autocomplete-highlighted")
  }

  @Test func field_wideCharactersAreCutByDisplayWidth() throws {
    let list = AutocompleteList(["HND  東京国際空港 (羽田) Tokyo Haneda", "NRT  成田国際空港 Narita"], answering: "tok")
    let field = AutocompleteField("To", state: typed("tok"), suggestions: list).labelWidth(11).focused(true)
    try assertSnapshot(of: Form(field: field), width: 31, height: 4, named: "autocomplete-wide")
  }

  @Test func field_staleListIsDimmedWithoutMarker_loadingShowsASpinner() throws {
    var state = typed("san fra")
    _ = state.handle(.character("n"), suggestions: Self.airports)
    let stale = AutocompleteField("From", state: state, suggestions: Self.airports).labelWidth(11).focused(true)
    try assertSnapshot(of: Form(field: stale), width: 40, height: 5, named: "autocomplete-stale")
    let loading = AutocompleteField(
      "From", state: state, suggestions: AutocompleteList([], answering: nil, isLoading: true)
    )
    .labelWidth(6).loadingText("Looking up airports…").focused(true)
    #expect(loading.rendered(width: 40, height: 3).plainText.contains("Looking up airports…"))
  }

  @Test func field_pendingAccept_showsTheSpinner_focusedOrNot() {
    var state = typed("san fran")
    #expect(state.handle(.enter, suggestions: Self.airports) == .ignored)
    let focused = AutocompleteField("From", state: state, suggestions: Self.airports).labelWidth(6)
      .loadingText("Looking up airports…").focused(true).rendered(width: 40, height: 4).plainText
    #expect(focused.contains("Looking up airports…"))
    #expect(!focused.contains("SFO"))  // the stale rows give way to the spinner
    let unfocused = AutocompleteField("From", state: state, suggestions: Self.airports).labelWidth(6)
      .rendered(width: 40, height: 4).plainText
    let row = unfocused.split(separator: "\n").first.map(String.init) ?? ""
    #expect(row.contains { Spinner.frames.contains($0) })
  }

  @Test func field_unfocusedOrClosed_showsNoDropdown() throws {
    var state = typed("san fra")
    let unfocused = AutocompleteField("From", state: state, suggestions: Self.airports).labelWidth(6)
    #expect(!unfocused.rendered(width: 40, height: 4).plainText.contains("SFO"))
    _ = state.handle(.escape, suggestions: Self.airports)
    let closed = AutocompleteField("From", state: state, suggestions: Self.airports).labelWidth(6).focused(true)
    #expect(!closed.rendered(width: 40, height: 4).plainText.contains("SFO"))
    let many = AutocompleteList((1...9).map { "ROW\($0)" }, answering: "san fra")
    let open = AutocompleteField("From", state: typed("san fra"), suggestions: many).labelWidth(6).maxRows(3)
      .focused(true)
    try assertSnapshot(of: open, width: 20, height: 6, named: "autocomplete-scroll")
  }
}
