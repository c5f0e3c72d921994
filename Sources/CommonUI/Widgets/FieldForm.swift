import Common

/// The fields of a small form (labels, texts, which are secret) and which one has focus; the
/// last focus position is the form's button. Tab / ↓ and Shift-Tab / ↑ move; Enter on a field
/// moves to the next, on the last field or the button submits. Esc leaves the field
/// (``hasLeftField``: no text field has focus, so `q` quits); Enter, Tab or ↑ ↓ come back, and a
/// second Esc is the screen's (it goes back).
///
/// A card-number field takes digits only (typed or pasted; spaces and dashes are dropped) and
/// shows them in the card's groups while it has focus (`4242 4242 4242 42`), hidden but the last
/// four afterwards (`•••• •••• •••• 4242`).
public struct FieldForm {
  /// One labelled text field of the form.
  public struct Field {
    public var label: String
    public var state: TextFieldState
    public var isSecure = false
    public var isCardNumber = false
    /// What the field takes, for the line under the form while it has focus.
    public var hint = ""

    public init(
      label: String, state: TextFieldState, isSecure: Bool = false, isCardNumber: Bool = false, hint: String = ""
    ) {
      self.label = label
      self.state = state
      self.isSecure = isSecure
      self.isCardNumber = isCardNumber
      self.hint = hint
    }
  }

  public var fields: [Field]
  public var button: String
  /// What the button does, for the line under the form while it has focus.
  public var buttonHint = ""
  /// `0..<fields.count` a field, `fields.count` the button.
  public var focus = 0
  /// Esc left the focused field: keys go to the screen and the shell until Enter.
  public private(set) var hasLeftField = false

  public init(_ fields: [Field], button: String, buttonHint: String = "") {
    self.fields = fields
    self.button = button
    self.buttonHint = buttonHint
  }

  public var isEditingText: Bool { focus < fields.count && !hasLeftField }

  /// Whether Enter submits now (on the last field or the button), rather than moving on.
  public var enterSubmits: Bool { focus >= fields.count - 1 }

  /// The hint of the focused field or button.
  public var focusedHint: String { focus < fields.count ? fields[focus].hint : buttonHint }

  public subscript(_ index: Int) -> String { fields[index].state.text }

  /// What a key did.
  public enum Outcome {
    case unused, edited, submit
  }

  public mutating func handle(_ key: Key) -> Outcome {
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
    case .character(let c) where focus < fields.count && fields[focus].isCardNumber && !c.isNumber:
      return .edited  // a card number is digits only: spaces and dashes are the display's
    case .paste(let text) where focus < fields.count && fields[focus].isCardNumber:
      fields[focus].state.insert(String(text.filter { $0.isASCII && $0.isNumber }))
    default:
      guard focus < fields.count, fields[focus].state.handle(key) else { return .unused }
    }
    return .edited
  }

  /// Draws the fields one per row from the top of `area`, then the button; needs
  /// `fields.count + 2` rows.
  public func render(in area: Rect, into buffer: inout Buffer, buttonTitle: String? = nil) {
    let labelWidth = (fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
    for (index, field) in fields.enumerated() {
      let focused = focus == index && !hasLeftField
      var state = field.state
      if field.isCardNumber, !state.text.isEmpty {
        state = Self.cardNumberShown(field.state, focused: focused)
      }
      TextField(field.label, state: state).labelWidth(labelWidth).secure(field.isSecure)
        .focused(focused).render(
          in: area.row(index).inset(right: max(0, area.width - labelWidth - 40)), into: &buffer)
    }
    Button(buttonTitle ?? button, focused: focus == fields.count)
      .render(in: area.row(fields.count + 1).inset(left: labelWidth), into: &buffer)
  }

  /// A card number as its field shows it: grouped with the cursor in the same place among the
  /// digits while focused, masked but the last four otherwise.
  public static func cardNumberShown(_ state: TextFieldState, focused: Bool) -> TextFieldState {
    let digits = state.text
    guard focused else { return TextFieldState(text: PaymentCardValidation.maskedNumber(digits)) }
    var shown = TextFieldState(text: PaymentCardValidation.grouped(digits))
    // One space before the cursor for each group that ends before it.
    var boundaries: [Int] = []
    var total = 0
    for size in PaymentCardValidation.groupSizes(of: digits) {
      total += size
      boundaries.append(total)
    }
    shown.moveCursor(to: state.cursor + boundaries.filter { $0 < state.cursor && $0 < digits.count }.count)
    return shown
  }

  /// The card form every screen that takes a card shows (the Account tab's cards, the checkout's
  /// "add a card" sheet): number (grouped while typed, masked after), expiry `MM/YY`, CVC (masked),
  /// each with its hint, and the button `button`. Its fields are ``PaymentCardEntry/Field``'s, in
  /// that order.
  public static func paymentCard(button: String = "Add card", buttonHint: String = "Enter checks the card and adds it.")
    -> FieldForm
  {
    FieldForm(
      [
        Field(
          label: "Card number", state: TextFieldState(maxLength: 19), isCardNumber: true,
          hint: "The 12 to 19 digits on the card: in groups while you type, hidden but the last four after."),
        Field(
          label: "Expiry MM/YY", state: TextFieldState(maxLength: 5), hint: "The month and year on the card: 12/30."),
        Field(
          label: "CVC", state: TextFieldState(maxLength: 4), isSecure: true,
          hint: "The 3 digits on the back (4 on the front of American Express); never stored."),
      ], button: button, buttonHint: buttonHint)
  }
}
