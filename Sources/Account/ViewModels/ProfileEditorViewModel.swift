import Common
import Foundation
import Reactive

/// The profile editor: the pattern every screen of the app follows.
///
/// It owns a private `PassthroughSubject<UserProfile, UserProfileError>` and hands out only
/// ``result`` (`AnyPublisher`), so nobody outside can make it publish. ``save()`` trims the
/// names, then either sends the profile followed by `.finished`, or fails with
/// ``UserProfileError/firstNameMissing`` ("First Name is missing") or
/// ``UserProfileError/lastNameMissing`` ("Last Name is missing"). Either way the conversation is
/// over: later inputs change nothing. Whoever presents the editor subscribes to ``result``; there
/// is no delegate.
public final class ProfileEditorViewModel {
  private let subject = PassthroughSubject<UserProfile, UserProfileError>()
  private let original: UserProfile
  private var isFinished = false

  /// The edited profile, once: a value and `.finished`, or a ``UserProfileError``.
  public let result: AnyPublisher<UserProfile, UserProfileError>

  /// The text of the first-name field.
  @Published public private(set) var firstName: String
  /// The text of the last-name field.
  @Published public private(set) var lastName: String

  /// An editor showing `profile`.
  public init(profile: UserProfile) {
    original = profile
    firstName = profile.firstName
    lastName = profile.lastName
    result = subject.eraseToAnyPublisher()
  }

  // MARK: Inputs

  /// The user typed in the first-name field.
  public func firstNameChanged(_ text: String) {
    guard !isFinished else { return }
    firstName = text
  }

  /// The user typed in the last-name field.
  public func lastNameChanged(_ text: String) {
    guard !isFinished else { return }
    lastName = text
  }

  /// The user tapped Save: publish the trimmed profile and finish, or fail with what is missing.
  public func save() {
    guard !isFinished else { return }
    isFinished = true
    var draft = original
    draft.firstName = firstName
    draft.lastName = lastName
    do throws(UserProfileError) {
      let profile = try ProfileRules.validated(draft)
      subject.send(profile)
      subject.send(completion: .finished)
    } catch {
      subject.send(completion: .failure(error))
    }
  }
}
