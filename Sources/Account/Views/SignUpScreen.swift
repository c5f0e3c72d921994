import Common
import CommonUI
import Foundation
import Reactive

/// Sign-up: email, first and last name, password twice, over ``SignUpViewModel``. When the
/// account is made it signs in with the same credentials through `signIn` (the app's session,
/// whose new state shows the home); a failure of either step shows its message, focus on the form.
@MainActor
final class SignUpScreen: Screen {
  let title = "Sign up"
  private let model: SignUpViewModel
  private let client: AccountClient
  private let signInCall: SignInViewModel.SignIn?
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var form = AccountForm(
    [
      .init(label: "Email", state: TextFieldState(maxLength: 254)),
      .init(label: "First name", state: TextFieldState(maxLength: 100)),
      .init(label: "Last name", state: TextFieldState(maxLength: 100)),
      .init(label: "Password", state: TextFieldState(maxLength: 128), isSecure: true),
      .init(label: "Repeat", state: TextFieldState(maxLength: 128), isSecure: true),
    ], button: "Sign up")
  private var message: String?
  /// The sign-in that follows a successful sign-up; kept here so its request lives until it answers.
  private var signIn: SignInViewModel?

  init(client: AccountClient, signIn: SignInViewModel.SignIn? = nil) {
    self.client = client
    self.model = SignUpViewModel(client: client)
    self.signInCall = signIn
    model.$errorMessage.sink { [weak self] in
      self?.message = $0
      if $0 != nil { self?.focusForm() }
      self?.changed.send()
    }.store(in: &subscriptions)
    model.$isSigningUp.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.signedUp.sink { [weak self] _ in self?.signInAfterSignUp() }.store(in: &subscriptions)
  }

  var isEditingText: Bool { form.isEditingText }
  var keyHints: [KeyHint] { [KeyHint("Tab", "next field"), KeyHint("Enter", "sign up")] }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  func handle(_ key: Key) -> KeyResult {
    switch form.handle(key) {
    case .unused: return .ignored
    case .edited: break
    case .submit:
      model.emailChanged(form[0])
      model.firstNameChanged(form[1])
      model.lastNameChanged(form[2])
      model.passwordChanged(form[3])
      model.passwordRepeatChanged(form[4])
      if !model.isSignUpEnabled { message = "Fill in the email and both passwords." }
      model.signUpTapped()
    }
    return .handled
  }

  private func signInAfterSignUp() {
    let signIn = SignInViewModel(client: client, signIn: signInCall)
    self.signIn = signIn
    signIn.$errorMessage.sink { [weak self] in
      if let text = $0 {
        self?.message = text
        self?.focusForm()
      }
      self?.changed.send()
    }.store(in: &subscriptions)
    signIn.emailChanged(form[0])
    signIn.passwordChanged(form[3])
    signIn.signInTapped()
  }

  /// After a failure the focus goes back to the first field, so the form can be corrected at once.
  private func focusForm() {
    form.focus = 0
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    Label("Create an account", style: buffer.theme.accent).render(in: area.row(1).inset(left: 1), into: &buffer)
    form.render(
      in: Rect(x: area.x + 1, y: area.y + 3, width: area.width - 1, height: 7), into: &buffer,
      buttonTitle: model.isSigningUp ? "Signing up…" : nil)
    Label("Passwords: at least \(SignUpRules.minimumPasswordLength) characters.", style: buffer.theme.muted)
      .render(in: area.row(11).inset(left: 1), into: &buffer)
    if let message {
      Label(message, style: buffer.theme.error).render(in: area.row(12).inset(left: 1), into: &buffer)
    }
  }
}
