import CommonUI

/// The fields of a small form (labels, texts, which are secret) and which one has focus; the
/// last focus position is the form's button. Tab / ↓ and Shift-Tab / ↑ move; Enter on a field
/// moves to the next, on the last field or the button submits.
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

  init(_ fields: [Field], button: String) {
    self.fields = fields
    self.button = button
  }

  var isEditingText: Bool { focus < fields.count }

  subscript(_ index: Int) -> String { fields[index].state.text }

  /// What a key did.
  enum Outcome {
    case unused, edited, submit
  }

  mutating func handle(_ key: Key) -> Outcome {
    let count = fields.count + 1
    switch key {
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
