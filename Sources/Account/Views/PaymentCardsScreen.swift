import Common
import CommonUI
import Foundation
import Reactive

/// Payment cards over ``PaymentCardsViewModel``: the list (default first), `a` opens the add form
/// (number, expiry MM/YY, CVC: the number shown in its groups while typed and masked but the last
/// four afterwards, the CVC masked; each field checked as it is typed, the line under the form
/// says what the focused field takes or what is wrong with it), `d` makes the selected card the
/// default, `x` removes it (pressed twice, to confirm).
@MainActor
final class PaymentCardsScreen: Screen {
  let title = L("Payment cards")
  private let model: PaymentCardsViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var selection = SelectionState()
  private var addForm: FieldForm?
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
    model.$problems.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
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
    guard let addForm else {
      return [KeyHint("↑↓", "move"), KeyHint("a", "add"), KeyHint("d", "default"), KeyHint("x", "remove")]
    }
    return [
      KeyHint("Tab", "next"), KeyHint("Enter", addForm.enterSubmits ? "add" : "next field"), KeyHint("Esc", "cancel"),
    ]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  private var selectedRow: PaymentCardsViewModel.Row? {
    selection.selected.flatMap { model.rows.indices.contains($0) ? model.rows[$0] : nil }
  }

  func handle(_ key: Key) -> KeyResult {
    if var form = addForm {
      if key == .escape {
        addForm = nil
        model.formReset()
        return .handled
      }
      let before = form
      let outcome = form.handle(key)
      addForm = form
      switch outcome {
      case .unused: return .handled
      case .edited:
        // Each field is checked as it is typed, and when it is left.
        if form[0] != before[0] { model.numberChanged(form[0]) }
        if form[1] != before[1] { model.expiryChanged(form[1]) }
        if form[2] != before[2] { model.cvcChanged(form[2]) }
        let fields: [PaymentCardsViewModel.Field] = [.number, .expiry, .cvc]
        if form.focus != before.focus, fields.indices.contains(before.focus) {
          model.editingEnded(fields[before.focus])
        }
        return .handled
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
      addForm = FieldForm.paymentCard()
      model.formReset()
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
      Label(model.isBusy ? L("Loading…") : L("No cards yet. Press a to add one."), style: buffer.theme.muted)
        .render(in: area.row(1).inset(left: 1), into: &buffer)
    } else {
      let lines = rows.map { row in
        Line([
          Span(DisplayWidth.truncate(row.title, to: 22).padding(toLength: 24, withPad: " ", startingAt: 0)),
          Span(L("expires \(row.expiry)"), style: buffer.theme.muted),
          Span(row.isDefault ? L("  default") : "", style: buffer.theme.accent),
        ])
      }
      List(lines, state: selection).focused(addForm == nil)
        .render(
          in: Rect(x: area.x + 1, y: area.y + 1, width: min(60, area.width - 1), height: min(10, rows.count)),
          into: &buffer)
    }
    var y = area.y + 2 + min(10, max(1, rows.count))
    if let id = confirmRemove, let row = rows.first(where: { $0.id == id }) {
      buffer.write(L("Press x again to remove \(row.title)."), x: area.x + 1, y: y, style: buffer.theme.warning)
      y += 1
    }
    if let error = model.errorMessage {
      buffer.write(error, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.error)
      y += 1
    }
    if let addForm {
      Label(L("Add a card"), style: buffer.theme.accent).render(
        in: Rect(x: area.x + 1, y: y + 1, width: area.width - 1, height: 1), into: &buffer)
      addForm.render(in: Rect(x: area.x + 1, y: y + 3, width: area.width - 1, height: 5), into: &buffer)
      // What the focused field takes, or what is wrong with it.
      let fields: [PaymentCardsViewModel.Field] = [.number, .expiry, .cvc]
      // On the button: the first thing to fix in the form.
      let problem = fields.indices.contains(addForm.focus) ? model.problems[fields[addForm.focus]] : model.firstProblem
      Paragraph(problem ?? addForm.focusedHint, style: problem == nil ? buffer.theme.muted : buffer.theme.warning)
        .render(in: Rect(x: area.x + 1, y: y + 8, width: area.width - 1, height: 2), into: &buffer)
    }
  }
}
