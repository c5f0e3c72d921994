import Common
import CommonUI
import Foundation
import Reactive

/// Preferences over ``PreferencesViewModel``: currency, language and home airport are text
/// fields saved with Save (Enter on the home airport, the last field, saves too; in the others it
/// moves on); the appearance (light, dark, system) switches with ← → or Space and is saved and
/// applied at once (the app's theme follows the saved preference). Each value is checked as it is
/// typed; the line under the form follows the focus: what is wrong with the focused field, else
/// what it takes.
@MainActor
final class PreferencesScreen: Screen {
  let title = L("Preferences")
  private let model: PreferencesViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var form = FieldForm(
    [
      .init(label: L("Currency"), state: TextFieldState(maxLength: 3)),
      .init(label: L("Language"), state: TextFieldState(maxLength: 20)),
      .init(label: L("Home airport"), state: TextFieldState(maxLength: 3)),
    ], button: L("Save"))
  /// Focus on the appearance row instead of the form.
  private var appearanceFocused = false
  private var loaded = false
  private var notice: String?

  init(model: PreferencesViewModel) {
    self.model = model
    model.$preferences.sink { [weak self] value in
      guard let self, let value else { return }
      if !self.loaded {
        self.loaded = true
        self.form.fields[0].state.text = value.currencyCode
        self.form.fields[1].state.text = value.language
        self.form.fields[2].state.text = value.homeAirport ?? ""
      }
      self.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$problems.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$isSaving.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.saved.sink { [weak self] _ in
      self?.notice = L("Saved.")
      self?.changed.send()
    }.store(in: &subscriptions)
    if model.preferences == nil { model.viewAppeared() }
  }

  var isEditingText: Bool { !appearanceFocused && form.isEditingText }
  var keyHints: [KeyHint] {
    if appearanceFocused { return [KeyHint("← → Space", "change (saved at once)"), KeyHint("Tab", "next")] }
    if form.hasLeftField { return [KeyHint("Enter", "edit"), KeyHint("Tab", "next")] }
    return [KeyHint("Tab", "next"), KeyHint("Enter", form.enterSubmits ? "save" : "next field")]
  }

  /// The field of focus position `index` of the form.
  private static func field(_ index: Int) -> PreferencesViewModel.Field? {
    switch index {
    case 0: .currency
    case 1: .language
    case 2: .homeAirport
    default: nil
    }
  }

  /// The line under the form, for the focused part: what is wrong with it (a problem: `true`),
  /// else what it takes.
  var hintLine: (String, Bool) {
    if appearanceFocused { return (L("Light, dark or system (the terminal's): saved and applied at once."), false) }
    if let field = Self.field(form.focus), let problem = model.problems[field] { return (problem, true) }
    // On the button: the first thing to fix in the form.
    if Self.field(form.focus) == nil, !appearanceFocused,
      let first = (0..<3).lazy.compactMap({ Self.field($0) }).compactMap({ self.model.problems[$0] }).first
    {
      return (first, true)
    }
    switch form.focus {
    case 0: return (L("An ISO 4217 code: prices are shown and charged in it (USD, EUR, GBP, JPY, …)."), false)
    case 1: return (L("en (English) or de (Deutsch)."), false)
    case 2: return (L("Your usual airport's IATA code (FRA): Flights starts From there. Empty: none."), false)
    default: return (L("Enter saves the currency, the language and the home airport."), false)
    }
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  private static let appearances: [Common.Appearance] = [.light, .dark, .system]

  func handle(_ key: Key) -> KeyResult {
    notice = nil
    if appearanceFocused {
      switch key {
      case .left, .right, .character(" "):
        guard let current = model.preferences?.appearance,
          let index = Self.appearances.firstIndex(of: current)
        else { return .handled }
        let step = key == .left ? Self.appearances.count - 1 : 1
        model.appearanceChanged(Self.appearances[(index + step) % Self.appearances.count].rawValue)
        model.saveTapped()
      case .tab, .down, .enter:
        appearanceFocused = false
        form.focus = 2
      case .backTab, .up:
        appearanceFocused = false
        form.focus = 1
      default: return .ignored
      }
      return .handled
    }
    // The appearance row sits between Language (1) and Home airport (2).
    if !form.hasLeftField,
      (key == .tab || key == .down || key == .enter) && form.focus == 1
        || (key == .backTab || key == .up) && form.focus == 2
    {
      if let field = Self.field(form.focus) { model.editingEnded(field) }
      appearanceFocused = true
      return .handled
    }
    let before = form
    switch form.handle(key) {
    case .unused: return .ignored
    case .edited:
      // Each value is checked as it is typed, and when its field is left.
      if form[0] != before[0] { model.currencyChanged(form[0]) }
      if form[1] != before[1] { model.languageChanged(form[1]) }
      if form[2] != before[2] { model.homeAirportChanged(form[2]) }
      if form.focus != before.focus, let field = Self.field(before.focus) { model.editingEnded(field) }
    case .submit:
      model.currencyChanged(form[0])
      model.languageChanged(form[1])
      model.homeAirportChanged(form[2])
      model.saveTapped()
    }
    return .handled
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    guard let preferences = model.preferences else {
      Label(model.errorMessage ?? L("Loading…"), style: buffer.theme.muted).render(in: area.row(1), into: &buffer)
      return
    }
    let labelWidth = 14
    var shown = form
    if appearanceFocused { shown.focus = -1 }
    let top = Rect(x: area.x + 1, y: area.y + 1, width: area.width - 1, height: 2)
    var firstTwo = shown
    firstTwo.fields = Array(shown.fields.prefix(2))
    for (index, field) in firstTwo.fields.enumerated() {
      TextField(field.label, state: field.state).labelWidth(labelWidth).focused(shown.focus == index)
        .render(in: top.row(index).inset(right: max(0, top.width - labelWidth - 30)), into: &buffer)
    }
    let appearanceRow = Rect(x: area.x + 1, y: area.y + 3, width: area.width - 1, height: 1)
    buffer.write(
      L("Appearance"), x: appearanceRow.x, y: appearanceRow.y, maxWidth: labelWidth,
      style: appearanceFocused ? buffer.theme.accent : buffer.theme.base)
    var x = appearanceRow.x + labelWidth
    for value in Self.appearances {
      let selected = value == preferences.appearance
      let style = selected ? (appearanceFocused ? buffer.theme.selection : buffer.theme.accent) : buffer.theme.muted
      x += buffer.write(
        selected ? "(•) \(value.rawValue)" : "( ) \(value.rawValue)", x: x, y: appearanceRow.y, style: style)
      x += 2
    }
    let airport = shown.fields[2]
    TextField(airport.label, state: airport.state).labelWidth(labelWidth).focused(shown.focus == 2)
      .render(in: area.row(4).inset(left: 1, right: max(0, area.width - 1 - labelWidth - 30)), into: &buffer)
    Button(model.isSaving ? "Saving…" : "Save", focused: shown.focus == 3)
      .render(in: area.row(6).inset(left: 1 + labelWidth), into: &buffer)
    let (hint, isProblem) = hintLine
    Label(hint, style: isProblem ? buffer.theme.warning : buffer.theme.muted)
      .render(in: area.row(8).inset(left: 1), into: &buffer)
    if let error = model.errorMessage {
      Label(error, style: buffer.theme.error).render(in: area.row(9).inset(left: 1), into: &buffer)
    } else if let notice {
      Label(notice, style: buffer.theme.success).render(in: area.row(9).inset(left: 1), into: &buffer)
    }
  }
}
