import Common

/// The sign-in form's fields, focus and message, edited by keys. Kept by the screen; the
/// screen passes ``SignInFormEvent/submit(email:password:)`` to its view model.
///
/// Keys: typing edits the focused field; Tab / ↓ next, Shift-Tab / ↑ previous; Enter in Email
/// goes to Password, Enter in Password or on the button submits. Esc leaves the field
/// (``hasLeftField``): then no text field has focus, so `q` quits and digits switch tabs; Enter
/// (or Tab, ↑ ↓) comes back, and a second Esc is the screen's (it goes back).
public struct SignInFormState: Hashable, Sendable {
  /// The focusable parts, in Tab order.
  public enum Field: Hashable, Sendable, CaseIterable {
    case email, password, submit
  }

  public var email = TextFieldState(maxLength: 254)
  public var password = TextFieldState(maxLength: 128)
  public var focus: Field = .email
  /// An error to show under the fields (e.g. the view model's "wrong email or password").
  public var message: String?
  /// While true the button reads "Signing in…" and Enter does not submit again.
  public var isSubmitting = false
  /// Esc left the focused field: keys go to the screen and the shell until Enter.
  public private(set) var hasLeftField = false

  public init(email: String = "") {
    self.email.text = email
  }

  /// A sign-in that failed with `message` (nil: no message): the message shown, the password
  /// cleared and focused (the email when it is empty), so that retyping goes into the field, never
  /// to the screen or the shell as keys (on the button, a digit would switch tabs and `q` quit).
  public mutating func signInFailed(_ message: String?) {
    self.message = message
    isSubmitting = false
    password.text = ""
    focus = email.text.isEmpty ? .email : .password
    hasLeftField = false
  }

  /// Whether a text field has focus (then `q` is typed, not a quit).
  public var isEditingText: Bool { focus != .submit && !hasLeftField }

  /// Applies a key. - Returns: nil when the key is not the form's.
  public mutating func handle(_ key: Key) -> SignInFormEvent? {
    if hasLeftField {
      switch key {
      case .enter:
        hasLeftField = false
        return .edited
      case .tab, .down, .backTab, .up:
        hasLeftField = false
      default:
        return nil
      }
    }
    switch key {
    case .escape:
      guard focus != .submit else { return nil }
      hasLeftField = true
      return .edited
    case .tab, .down:
      focus = Field.allCases[(Field.allCases.firstIndex(of: focus)! + 1) % Field.allCases.count]
      return .edited
    case .backTab, .up:
      focus = Field.allCases[(Field.allCases.firstIndex(of: focus)! + Field.allCases.count - 1) % Field.allCases.count]
      return .edited
    case .enter:
      if focus == .email {
        focus = .password
        return .edited
      }
      guard !isSubmitting else { return .edited }
      return .submit(email: email.text, password: password.text)
    default:
      switch focus {
      case .email: return email.handle(key) ? .edited : nil
      case .password: return password.handle(key) ? .edited : nil
      case .submit: return key == .character(" ") ? .submit(email: email.text, password: password.text) : nil
      }
    }
  }
}

/// What a key did in the sign-in form.
public enum SignInFormEvent: Hashable, Sendable {
  /// A field changed or the focus moved.
  case edited
  /// The person asked to sign in with these credentials.
  case submit(email: String, password: String)
}

/// The shared sign-in form: title, Email, Password (masked with `•`), the button and a message
/// line. Needs 7 rows.
public struct SignInForm: Widget {
  public var state: SignInFormState
  public var title: String

  public init(state: SignInFormState, title: String = L("Sign in")) {
    self.state = state
    self.title = title
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let rows = area.rows([.length(1), .length(1), .length(1), .length(1), .length(1), .length(1), .length(1)])
    guard rows.count == 7, area.height >= 1 else { return }
    Label(title, style: buffer.theme.accent).render(in: rows[0], into: &buffer)
    TextField(L("Email"), state: state.email).labelWidth(10).placeholder("you@example.com")
      .focused(state.focus == .email).render(in: rows[2], into: &buffer)
    TextField(L("Password"), state: state.password).labelWidth(10).secure()
      .focused(state.focus == .password).render(in: rows[3], into: &buffer)
    let button = Button(state.isSubmitting ? "Signing in…" : "Sign in", focused: state.focus == .submit)
    button.render(in: rows[5].inset(left: 10), into: &buffer)
    if let message = state.message {
      Label(message, style: buffer.theme.error).render(in: rows[6], into: &buffer)
    }
  }
}
