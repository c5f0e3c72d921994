import Common
import CommonUI
import Foundation
import Reactive

/// Preferences over ``PreferencesViewModel``: currency, language and home airport are text
/// fields saved with Save; the appearance (light, dark, system) switches with ← → or Space and is
/// saved and applied at once (the app's theme follows the saved preference).
@MainActor
final class PreferencesScreen: Screen {
  let title = "Preferences"
  private let model: PreferencesViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var form = AccountForm(
    [
      .init(label: "Currency", state: TextFieldState(maxLength: 3)),
      .init(label: "Language", state: TextFieldState(maxLength: 20)),
      .init(label: "Home airport", state: TextFieldState(maxLength: 3)),
    ], button: "Save")
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
    model.$isSaving.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.saved.sink { [weak self] _ in
      self?.notice = "Saved."
      self?.changed.send()
    }.store(in: &subscriptions)
    if model.preferences == nil { model.viewAppeared() }
  }

  var isEditingText: Bool { !appearanceFocused && form.isEditingText }
  var keyHints: [KeyHint] {
    [KeyHint("Tab", "next"), KeyHint("← → Space", "appearance"), KeyHint("Enter", "save")]
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
      case .tab, .down:
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
    if (key == .tab || key == .down || key == .enter) && form.focus == 1
      || (key == .backTab || key == .up) && form.focus == 2
    {
      appearanceFocused = true
      return .handled
    }
    switch form.handle(key) {
    case .unused: return .ignored
    case .edited: break
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
      Label(model.errorMessage ?? "Loading…", style: buffer.theme.muted).render(in: area.row(1), into: &buffer)
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
      "Appearance", x: appearanceRow.x, y: appearanceRow.y, maxWidth: labelWidth,
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
    Label("Currency: ISO 4217 code (USD, EUR). Home airport: IATA code, empty for none.", style: buffer.theme.muted)
      .render(in: area.row(8).inset(left: 1), into: &buffer)
    if let error = model.errorMessage {
      Label(error, style: buffer.theme.error).render(in: area.row(9).inset(left: 1), into: &buffer)
    } else if let notice {
      Label(notice, style: buffer.theme.success).render(in: area.row(9).inset(left: 1), into: &buffer)
    }
  }
}
