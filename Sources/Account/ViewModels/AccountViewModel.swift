import Common
import Foundation
import Reactive

/// The account screen of a signed-in user, and the presenter of the profile editor.
///
/// Inputs: ``viewAppeared()``, ``editProfileTapped()``, ``editorCancelled()``, ``alertDismissed()``.
/// Outputs: ``greeting`` ("Welcome, Ada Lovelace"), ``profile``, ``editor`` (the presented
/// editor, nil when none), ``alert``, ``isSaving``, ``saved`` (each profile the service saved).
///
/// It subscribes to the editor's ``ProfileEditorViewModel/result``: on a value it updates the
/// greeting and persists the profile through the account service; on completion it dismisses the
/// editor; on a failure it shows the error (title "Missing Data") and presents a fresh editor with
/// what the user typed, so they can correct it. No delegate.
public final class AccountViewModel {
  private let client: AccountClient
  private let token: String
  private let strings: Strings
  private var editorSubscription: AnyCancellable?
  private var requests = Set<AnyCancellable>()
  private let savedSubject = PassthroughSubject<UserProfile, Never>()

  /// "Welcome, <first> <last>"; empty until the profile is known.
  @Published public private(set) var greeting = ""
  /// The profile as last saved or loaded.
  @Published public private(set) var profile: UserProfile?
  /// The presented profile editor, or nil.
  @Published public private(set) var editor: ProfileEditorViewModel?
  /// The alert to show, or nil.
  @Published public private(set) var alert: AlertState?
  /// Whether a save is on its way to the service.
  @Published public private(set) var isSaving = false
  /// Each profile the service saved (so the app's session can read it again).
  public var saved: AnyPublisher<UserProfile, Never> { savedSubject.eraseToAnyPublisher() }

  /// - Parameters:
  ///   - token: the signed-in user's session token.
  ///   - strings: the user's language.
  public init(client: AccountClient, token: String, strings: Strings = Strings(Localization.current)) {
    self.client = client
    self.token = token
    self.strings = strings
  }

  // MARK: Inputs

  /// The screen appeared: load the profile.
  public func viewAppeared() {
    let token = token
    client.perform { try $0.accounts.profile(token: token) }
      .sink(
        receiveCompletion: { [weak self] completion in
          if case .failure(let error) = completion { self?.show(error) }
        },
        receiveValue: { [weak self] profile in self?.showProfile(profile) }
      )
      .store(in: &requests)
  }

  /// The user tapped "Edit profile": present an editor with the current profile.
  public func editProfileTapped() {
    guard let profile else { return }
    present(ProfileEditorViewModel(profile: profile))
  }

  /// The user closed the editor without saving.
  public func editorCancelled() {
    editorSubscription = nil
    editor = nil
  }

  /// The user dismissed the alert.
  public func alertDismissed() {
    alert = nil
  }

  // MARK: Presenting the editor

  private func present(_ editor: ProfileEditorViewModel) {
    editorSubscription = editor.result.sink(
      receiveCompletion: { [weak self, weak editor] completion in
        guard let self else { return }
        switch completion {
        case .finished:
          self.editorSubscription = nil
          self.editor = nil
        case .failure(let error):
          self.alert = AlertState(title: self.strings[.profileMissingData], message: error.message(in: self.strings))
          if let editor {
            // The failed editor is spent; offer a fresh one with what the user typed.
            let retry = ProfileEditorViewModel(
              profile: UserProfile(
                firstName: editor.firstName, lastName: editor.lastName, email: self.profile?.email ?? ""))
            self.present(retry)
          }
        }
      },
      receiveValue: { [weak self] profile in
        self?.showProfile(profile)
        self?.persist(profile)
      })
    self.editor = editor
  }

  private func persist(_ profile: UserProfile) {
    let token = token
    isSaving = true
    client.perform { try $0.accounts.updateProfile(profile, token: token) }
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isSaving = false
          if case .failure(let error) = completion { self?.show(error) }
        },
        receiveValue: { [weak self] saved in
          self?.showProfile(saved)
          self?.savedSubject.send(saved)
        }
      )
      .store(in: &requests)
  }

  private func showProfile(_ profile: UserProfile) {
    self.profile = profile
    greeting = strings.welcome(firstName: profile.firstName, lastName: profile.lastName)
  }

  private func show(_ error: ServiceError) {
    alert = AlertState(title: strings[.accountTitle], message: ScreenText.message(for: error))
  }
}
