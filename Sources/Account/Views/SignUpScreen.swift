import Common
import CommonUI
import Foundation
import Reactive

/// Sign-up: email, first and last name, password twice, over ``SignUpViewModel``. When the
/// account is made it signs in with the same credentials through `signIn` (the app's session,
/// whose new state shows the home); a failure of either step shows its message, focus on the form.
/// Each field is checked as it is typed (when it is left; the repeated password as soon as it is
/// as long as the first); the line under the form says what the focused field takes or what is
/// wrong with it. Enter moves to the next field, and signs up from the last one or the button.
@MainActor
final class SignUpScreen: Screen {
  let title = L("Sign up")
  private let model: SignUpViewModel
  private let client: AccountClient
  private let signInCall: SignInViewModel.SignIn?
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var form = FieldForm(
    [
      .init(label: L("Email"), state: TextFieldState(maxLength: 254), hint: L("The email you will sign in with.")),
      .init(
        label: L("First name"), state: TextFieldState(maxLength: 100), hint: L("Your given names, as on your passport.")
      ),
      .init(
        label: L("Last name"), state: TextFieldState(maxLength: 100), hint: L("Your family name, as on your passport.")),
      .init(
        label: L("Password"), state: TextFieldState(maxLength: 128), isSecure: true,
        hint: L("At least \(SignUpRules.minimumPasswordLength) characters.")),
      .init(
        label: L("Repeat"), state: TextFieldState(maxLength: 128), isSecure: true, hint: L("The same password again.")),
    ], button: L("Sign up"), buttonHint: L("Enter creates the account and signs you in."))
  private static let fields: [SignUpViewModel.Field] = [.email, .firstName, .lastName, .password, .passwordRepeat]
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
    model.$problems.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.signedUp.sink { [weak self] _ in self?.signInAfterSignUp() }.store(in: &subscriptions)
  }

  var isEditingText: Bool { form.isEditingText }
  var keyHints: [KeyHint] {
    if form.hasLeftField { return [KeyHint("Enter", "edit"), KeyHint("Tab", "next field")] }
    return [KeyHint("Tab", "next field"), KeyHint("Enter", form.enterSubmits ? "sign up" : "next field")]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  func handle(_ key: Key) -> KeyResult {
    let before = form
    switch form.handle(key) {
    case .unused: return .ignored
    case .edited:
      // Each field goes to the view model as it is typed, and is judged when it is left.
      if form[0] != before[0] { model.emailChanged(form[0]) }
      if form[1] != before[1] { model.firstNameChanged(form[1]) }
      if form[2] != before[2] { model.lastNameChanged(form[2]) }
      if form[3] != before[3] { model.passwordChanged(form[3]) }
      if form[4] != before[4] { model.passwordRepeatChanged(form[4]) }
      if form.focus != before.focus, Self.fields.indices.contains(before.focus) {
        model.editingEnded(Self.fields[before.focus])
      }
    case .submit:
      model.emailChanged(form[0])
      model.firstNameChanged(form[1])
      model.lastNameChanged(form[2])
      model.passwordChanged(form[3])
      model.passwordRepeatChanged(form[4])
      if !model.isSignUpEnabled { message = L("Fill in the email and both passwords.") }
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
    Label(L("Create an account"), style: buffer.theme.accent).render(in: area.row(1).inset(left: 1), into: &buffer)
    form.render(
      in: Rect(x: area.x + 1, y: area.y + 3, width: area.width - 1, height: 7), into: &buffer,
      buttonTitle: model.isSigningUp ? L("Signing up…") : nil)
    // What the focused field takes, or what is wrong with it; on the button, the first thing to fix.
    let problem =
      Self.fields.indices.contains(form.focus)
      ? model.problems[Self.fields[form.focus]] : Self.fields.lazy.compactMap { self.model.problems[$0] }.first
    Label(problem ?? form.focusedHint, style: problem == nil ? buffer.theme.muted : buffer.theme.warning)
      .render(in: area.row(11).inset(left: 1), into: &buffer)
    if let message {
      Label(message, style: buffer.theme.error).render(in: area.row(12).inset(left: 1), into: &buffer)
    }
  }
}
