import Common
import CommonUI
import Foundation
import Reactive

/// Payment cards over ``PaymentCardsViewModel``: the list (default first), `a` opens the add form
/// (number, expiry MM/YY, CVC; number and CVC masked), `d` makes the selected card the default,
/// `x` removes it (pressed twice, to confirm).
@MainActor
final class PaymentCardsScreen: Screen {
  let title = "Payment cards"
  private let model: PaymentCardsViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var selection = SelectionState()
  private var addForm: AccountForm?
  private var confirmRemove: String?
  private var awaitingAdd = false

  /// The cards of `model`, kept in step with `session` (the app's one session): a card added or
  /// removed elsewhere shows here, and a change made here is read by the session at once.
  init(model: PaymentCardsViewModel, session: AccountSession) {
    self.model = model
    model.$rows.sink { [weak self] rows in
      guard let self else { return }
      self.selection.count = rows.count
      self.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$isBusy.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.cardsChanged.sink { [weak self, weak session] in
      session?.refresh()
      // The card was accepted: the form closes.
      if self?.awaitingAdd == true {
        self?.awaitingAdd = false
        self?.addForm = nil
        self?.changed.send()
      }
    }.store(in: &subscriptions)
    session.state.dropFirst().compactMap { $0.traveller?.cards }.sink { [weak model] cards in
      model?.cardsObserved(cards)
    }
    .store(in: &subscriptions)
    model.viewAppeared()
  }

  var isEditingText: Bool { addForm?.isEditingText ?? false }
  var keyHints: [KeyHint] {
    addForm != nil
      ? [KeyHint("Tab", "next"), KeyHint("Enter", "add"), KeyHint("Esc", "cancel")]
      : [KeyHint("↑↓", "move"), KeyHint("a", "add"), KeyHint("d", "default"), KeyHint("x", "remove")]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  private var selectedRow: PaymentCardsViewModel.Row? {
    selection.selected.flatMap { model.rows.indices.contains($0) ? model.rows[$0] : nil }
  }

  func handle(_ key: Key) -> KeyResult {
    if var form = addForm {
      if key == .escape {
        addForm = nil
        return .handled
      }
      let outcome = form.handle(key)
      addForm = form
      switch outcome {
      case .unused: return .handled
      case .edited: return .handled
      case .submit:
        awaitingAdd = true
        model.addCardSubmitted(number: form[0], expiry: form[1], cvc: form[2])
        return .handled
      }
    }
    let pendingRemove = confirmRemove
    confirmRemove = nil
    switch key {
    case .character("a"):
      addForm = AccountForm(
        [
          .init(label: "Card number", state: TextFieldState(maxLength: 23), isSecure: true),
          .init(label: "Expiry MM/YY", state: TextFieldState(maxLength: 5)),
          .init(label: "CVC", state: TextFieldState(maxLength: 4), isSecure: true),
        ], button: "Add card")
    case .character("d"):
      if let row = selectedRow { model.makeDefaultTapped(id: row.id) }
    case .character("x"), .delete:
      guard let row = selectedRow else { return .handled }
      if pendingRemove == row.id { model.removeTapped(id: row.id) } else { confirmRemove = row.id }
    default:
      return selection.handle(key, visibleRows: 10) ? .handled : .ignored
    }
    return .handled
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let rows = model.rows
    if rows.isEmpty {
      Label(model.isBusy ? "Loading…" : "No cards yet. Press a to add one.", style: buffer.theme.muted)
        .render(in: area.row(1).inset(left: 1), into: &buffer)
    } else {
      let lines = rows.map { row in
        Line([
          Span(DisplayWidth.truncate(row.title, to: 22).padding(toLength: 24, withPad: " ", startingAt: 0)),
          Span("expires \(row.expiry)", style: buffer.theme.muted),
          Span(row.isDefault ? "  default" : "", style: buffer.theme.accent),
        ])
      }
      List(lines, state: selection).focused(addForm == nil)
        .render(
          in: Rect(x: area.x + 1, y: area.y + 1, width: min(60, area.width - 1), height: min(10, rows.count)),
          into: &buffer)
    }
    var y = area.y + 2 + min(10, max(1, rows.count))
    if let id = confirmRemove, let row = rows.first(where: { $0.id == id }) {
      buffer.write("Press x again to remove \(row.title).", x: area.x + 1, y: y, style: buffer.theme.warning)
      y += 1
    }
    if let error = model.errorMessage {
      buffer.write(error, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.error)
      y += 1
    }
    if let addForm {
      Label("Add a card", style: buffer.theme.accent).render(
        in: Rect(x: area.x + 1, y: y + 1, width: area.width - 1, height: 1), into: &buffer)
      addForm.render(in: Rect(x: area.x + 1, y: y + 3, width: area.width - 1, height: 5), into: &buffer)
    }
  }
}
