import CommonUI

/// The fields of a small form (labels, texts, which are secret) and which one has focus; the
/// last focus position is the form's button. Tab / ↓ and Shift-Tab / ↑ move; Enter on a field
/// moves to the next, on the last field or the button submits. Esc leaves the field
/// (``hasLeftField``: no text field has focus, so `q` quits); Enter, Tab or ↑ ↓ come back, and a
/// second Esc is the screen's (it goes back).
struct AccountForm {
  struct Field {
    var label: String
    var state: TextFieldState
    var isSecure = false
  }

  var fields: [Field]
  var button: String
  /// `0..<fields.count` a field, `fields.count` the button.
  var focus = 0
  /// Esc left the focused field: keys go to the screen and the shell until Enter.
  private(set) var hasLeftField = false

  init(_ fields: [Field], button: String) {
    self.fields = fields
    self.button = button
  }

  var isEditingText: Bool { focus < fields.count && !hasLeftField }

  /// Whether Enter submits now (on the last field or the button), rather than moving on.
  var enterSubmits: Bool { focus >= fields.count - 1 }

  subscript(_ index: Int) -> String { fields[index].state.text }

  /// What a key did.
  enum Outcome {
    case unused, edited, submit
  }

  mutating func handle(_ key: Key) -> Outcome {
    let count = fields.count + 1
    if hasLeftField {
      switch key {
      case .enter:
        hasLeftField = false
        return .edited
      case .tab, .down, .backTab, .up: hasLeftField = false
      default: return .unused
      }
    }
    switch key {
    case .escape:
      guard focus < fields.count else { return .unused }
      hasLeftField = true
    case .tab, .down: focus = (focus + 1) % count
    case .backTab, .up: focus = (focus + count - 1) % count
    case .enter: if focus < fields.count - 1 { focus += 1 } else { return .submit }
    case .character(" ") where focus == fields.count: return .submit
    default:
      guard focus < fields.count, fields[focus].state.handle(key) else { return .unused }
    }
    return .edited
  }

  /// Draws the fields one per row from the top of `area`, then the button; needs
  /// `fields.count + 2` rows.
  func render(in area: Rect, into buffer: inout Buffer, buttonTitle: String? = nil) {
    let labelWidth = (fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
    for (index, field) in fields.enumerated() {
      TextField(field.label, state: field.state).labelWidth(labelWidth).secure(field.isSecure)
        .focused(focus == index).render(
          in: area.row(index).inset(right: max(0, area.width - labelWidth - 40)), into: &buffer)
    }
    Button(buttonTitle ?? button, focused: focus == fields.count)
      .render(in: area.row(fields.count + 1).inset(left: labelWidth), into: &buffer)
  }
}
