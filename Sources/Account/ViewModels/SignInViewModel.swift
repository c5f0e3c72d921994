import Common
import Foundation
import Reactive

/// The sign-in screen.
///
/// Inputs: ``emailChanged(_:)``, ``passwordChanged(_:)``, ``signInTapped()``.
/// Outputs: ``isSignInEnabled`` (an email and a password typed, no request running),
/// ``isSigningIn``, ``errorMessage`` (in the app's words), and ``signedIn``, which sends the new
/// session once and finishes. In an app the sign-in goes through the app's ``AccountSession``
/// (``init(client:signIn:)``), which keeps the token in the ``SessionFile`` and shows the traveller
/// signed in everywhere.
public final class SignInViewModel {
  /// Signs in: email, password → the session (on the client's scheduler).
  public typealias SignIn = (_ email: String, _ password: String) -> AnyPublisher<Session, ServiceError>

  private let client: AccountClient
  private let signInCall: SignIn
  private let signedInSubject = PassthroughSubject<Session, Never>()
  private var request: AnyCancellable?
  private var email = ""
  private var password = ""

  @Published public private(set) var isSignInEnabled = false
  @Published public private(set) var isSigningIn = false
  /// Why the last attempt failed (the service's message: the same for an unknown email and a
  /// wrong password), or nil.
  @Published public private(set) var errorMessage: String?
  /// The session of a successful sign-in, then `.finished`.
  public let signedIn: AnyPublisher<Session, Never>

  /// - Parameter signIn: how to sign in (the app's session's ``AccountSession/signIn(email:password:)``);
  ///   nil asks the client's account service directly.
  public init(client: AccountClient, signIn: SignIn? = nil) {
    self.client = client
    signInCall =
      signIn ?? { email, password in client.perform { try $0.accounts.signIn(email: email, password: password) } }
    signedIn = signedInSubject.eraseToAnyPublisher()
  }

  public func emailChanged(_ text: String) {
    email = text
    updateEnabled()
  }

  public func passwordChanged(_ text: String) {
    password = text
    updateEnabled()
  }

  public func signInTapped() {
    guard isSignInEnabled else { return }
    let email: String
    do {
      email = try SignUpRules.email(self.email)
    } catch {
      errorMessage = ScreenText.message(for: AccountClient.serviceError(error))
      return
    }
    let password = password
    isSigningIn = true
    errorMessage = nil
    updateEnabled()
    request = signInCall(email, password)
      .sink(
        receiveCompletion: { [weak self] completion in
          guard let self else { return }
          self.isSigningIn = false
          if case .failure(let error) = completion { self.errorMessage = ScreenText.message(for: error) }
          self.updateEnabled()
        },
        receiveValue: { [weak self] session in
          self?.signedInSubject.send(session)
          self?.signedInSubject.send(completion: .finished)
        })
  }

  private func updateEnabled() {
    isSignInEnabled = !isSigningIn && !email.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty
  }
}

/// The sign-up screen.
///
/// Inputs: ``emailChanged(_:)``, ``firstNameChanged(_:)``, ``lastNameChanged(_:)``,
/// ``passwordChanged(_:)``, ``passwordRepeatChanged(_:)``, ``signUpTapped()``.
/// Outputs: ``isSignUpEnabled``, ``isSigningUp``, ``errorMessage`` (the first problem, in the
/// user's language for missing names), ``problems`` (each field checked as it is typed: when it is
/// left — ``editingEnded(_:)`` —, and the repeated password as soon as it is as long as the first),
/// and ``signedUp`` (the new profile once, then `.finished`).
public final class SignUpViewModel {
  /// A field of the form.
  public enum Field: Hashable, Sendable, CaseIterable {
    case email, firstName, lastName, password, passwordRepeat
  }

  private let client: AccountClient
  private let strings: Strings
  private let signedUpSubject = PassthroughSubject<UserProfile, Never>()
  private var request: AnyCancellable?
  private var email = ""
  private var firstName = ""
  private var lastName = ""
  private var password = ""
  private var passwordRepeat = ""

  @Published public private(set) var isSignUpEnabled = false
  @Published public private(set) var isSigningUp = false
  @Published public private(set) var errorMessage: String?
  /// What is wrong with each field as typed (see the type's documentation).
  @Published public private(set) var problems: [Field: String] = [:]
  public let signedUp: AnyPublisher<UserProfile, Never>

  public init(client: AccountClient, strings: Strings = Strings(Localization.current)) {
    self.client = client
    self.strings = strings
    signedUp = signedUpSubject.eraseToAnyPublisher()
  }

  public func emailChanged(_ text: String) {
    email = text
    updateEnabled()
  }

  public func firstNameChanged(_ text: String) {
    firstName = text
    updateEnabled()
  }

  public func lastNameChanged(_ text: String) {
    lastName = text
    updateEnabled()
  }

  public func passwordChanged(_ text: String) {
    password = text
    if problems[.password] != nil { check(.password) }
    if problems[.passwordRepeat] != nil { check(.passwordRepeat) }
    updateEnabled()
  }

  public func passwordRepeatChanged(_ text: String) {
    passwordRepeat = text
    if passwordRepeat.count >= password.count || problems[.passwordRepeat] != nil { check(.passwordRepeat) }
    updateEnabled()
  }

  /// The traveller left `field`: its value is judged as it is (an empty one is not, until Sign up).
  public func editingEnded(_ field: Field) {
    check(field)
  }

  /// Judges `field` as typed (an empty field says nothing).
  private func check(_ field: Field) {
    let text: String
    switch field {
    case .email: text = email
    case .firstName: text = firstName
    case .lastName: text = lastName
    case .password: text = password
    case .passwordRepeat: text = passwordRepeat
    }
    var problem: String?
    if !text.isEmpty {
      do {
        switch field {
        case .email: _ = try SignUpRules.email(email)
        case .firstName:
          if let error = AccountInputRules.nameProblem(firstName, field: L("First name")) { throw error }
        case .lastName:
          if let error = AccountInputRules.nameProblem(lastName, field: L("Last name")) { throw error }
        case .password: try SignUpRules.checkPassword(password)
        case .passwordRepeat:
          if passwordRepeat != password {
            throw ServiceError.invalid("password_mismatch", L("the two passwords do not match"))
          }
        }
      } catch {
        problem = ScreenText.message(for: AccountClient.serviceError(error))
      }
    }
    if problems[field] != problem { problems[field] = problem }
  }

  public func signUpTapped() {
    guard isSignUpEnabled else { return }
    let email: String
    let names: UserProfile
    do {
      email = try SignUpRules.email(self.email)
      names = try ProfileRules.validated(UserProfile(firstName: firstName, lastName: lastName, email: email))
      try SignUpRules.checkPassword(password)
      guard password == passwordRepeat else {
        throw ServiceError.invalid("password_mismatch", L("the two passwords do not match"))
      }
    } catch let error as UserProfileError {
      errorMessage = error.message(in: strings)
      return
    } catch {
      errorMessage = ScreenText.message(for: AccountClient.serviceError(error))
      return
    }
    let password = password
    isSigningUp = true
    errorMessage = nil
    updateEnabled()
    request = client.perform {
      try $0.accounts.signUp(email: email, password: password, firstName: names.firstName, lastName: names.lastName)
    }
    .sink(
      receiveCompletion: { [weak self] completion in
        guard let self else { return }
        self.isSigningUp = false
        if case .failure(let error) = completion { self.errorMessage = ScreenText.message(for: error) }
        self.updateEnabled()
      },
      receiveValue: { [weak self] profile in
        self?.signedUpSubject.send(profile)
        self?.signedUpSubject.send(completion: .finished)
      })
  }

  private func updateEnabled() {
    isSignUpEnabled = !isSigningUp && !email.isEmpty && !password.isEmpty && !passwordRepeat.isEmpty
  }
}
