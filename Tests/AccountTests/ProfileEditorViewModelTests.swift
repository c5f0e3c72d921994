import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Account

@Suite struct ProfileEditorViewModelTests {
  static let ada = UserProfile(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com")

  @Test func result_save_sendsTheTrimmedProfileThenFinishes() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let result = editor.result.record()
    editor.firstNameChanged("  Augusta Ada\n")
    editor.lastNameChanged(" King ")
    #expect(result.events.isEmpty)
    editor.save()
    #expect(result.values == [UserProfile(firstName: "Augusta Ada", lastName: "King", email: "ada@example.com")])
    #expect(result.isFinished)
  }

  @Test func result_blankFirstName_failsWithFirstNameMissing() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let result = editor.result.record()
    editor.firstNameChanged("   ")
    editor.lastNameChanged("")
    editor.save()
    #expect(result.values.isEmpty)
    #expect(result.failure == .firstNameMissing)
    #expect(result.failure?.localizedDescription == "First Name is missing")
  }

  @Test func result_controlCharacterInName_failsWithInvalidName() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let result = editor.result.record()
    editor.lastNameChanged(" King\u{1B}[0m ")
    editor.save()
    #expect(result.values.isEmpty)
    #expect(result.failure?.code == "invalid_name")
  }

  @Test func result_blankLastName_failsWithLastNameMissing() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let result = editor.result.record()
    editor.lastNameChanged(" \t ")
    editor.save()
    #expect(result.failure == .lastNameMissing)
    #expect(result.failure?.errorDescription == "Last Name is missing")
  }

  @Test func result_afterCompletion_nothingMoreIsPublished() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let result = editor.result.record()
    editor.save()
    editor.firstNameChanged("Other")
    editor.save()
    #expect(result.events.count == 2)  // one value, one completion
    #expect(editor.firstName == "Ada")
  }

  @Test func result_cannotBeMadeToPublishFromOutside() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    // The only public publisher is type-erased: it is not a subject, so there is no send().
    let publisher: Any = editor.result
    #expect(publisher is AnyPublisher<UserProfile, UserProfileError>)
    #expect(!(publisher is PassthroughSubject<UserProfile, UserProfileError>))
    #expect(!(publisher is any Subject))
    // No stored property exposes a subject either (the subject is private).
    let subjects = Mirror(reflecting: editor).children.filter { $0.value is any Subject }
    #expect(subjects.count == 1)
    #expect(subjects.allSatisfy { $0.label == "subject" })
    let result = editor.result.record()
    #expect(result.events.isEmpty)
  }

  @Test func fields_arePublished() {
    let editor = ProfileEditorViewModel(profile: Self.ada)
    let firstNames = editor.$firstName.record()
    editor.firstNameChanged("Augusta")
    #expect(firstNames.values == ["Ada", "Augusta"])
  }
}

@Suite struct AccountViewModelTests {
  /// Ada signed up and signed in, with her view model on a test scheduler.
  struct Fixture {
    let services = InMemoryServices()
    let scheduler = DispatchQueue.test
    let token: String
    let viewModel: AccountViewModel

    init(strings: Strings = .english) throws {
      token = try services.signedInAda()
      viewModel = AccountViewModel(client: services.client(scheduler), token: token, strings: strings)
    }
  }

  @Test func greeting_appearsWhenTheProfileLoads() throws {
    let fixture = try Fixture()
    let greeting = fixture.viewModel.$greeting.record()
    fixture.viewModel.viewAppeared()
    #expect(greeting.values == [""])  // delivered on the scheduler, not yet
    fixture.scheduler.advance()
    #expect(greeting.values == ["", "Welcome, Ada Lovelace"])
  }

  @Test func save_updatesTheGreetingPersistsAndDismissesTheEditor() throws {
    let fixture = try Fixture()
    let viewModel = fixture.viewModel
    viewModel.viewAppeared()
    fixture.scheduler.advance()
    let greeting = viewModel.$greeting.record()
    let editors = viewModel.$editor.map { $0 != nil }.record()
    let saving = viewModel.$isSaving.record()

    viewModel.editProfileTapped()
    let editor = try #require(viewModel.editor)
    editor.firstNameChanged(" Augusta Ada ")
    editor.lastNameChanged("King")
    editor.save()

    #expect(greeting.values == ["Welcome, Ada Lovelace", "Welcome, Augusta Ada King"])
    #expect(editors.values == [false, true, false])
    #expect(saving.values == [false, true])
    #expect(viewModel.alert == nil)
    fixture.scheduler.advance()
    #expect(saving.values == [false, true, false])
    #expect(fixture.services.profileUpdates.map(\.firstName) == ["Augusta Ada"])
    #expect(try fixture.services.profile(token: fixture.token).lastName == "King")
  }

  @Test func save_blankName_showsMissingDataAndKeepsAnEditorWithTheDraft() throws {
    let fixture = try Fixture()
    let viewModel = fixture.viewModel
    viewModel.viewAppeared()
    fixture.scheduler.advance()
    let alerts = viewModel.$alert.record()
    viewModel.editProfileTapped()
    let editor = try #require(viewModel.editor)
    editor.firstNameChanged("  ")
    editor.lastNameChanged("King")
    editor.save()

    #expect(alerts.values == [nil, AlertState(title: "Missing Data", message: "First Name is missing")])
    #expect(viewModel.greeting == "Welcome, Ada Lovelace")
    #expect(fixture.services.profileUpdates.isEmpty)
    let retry = try #require(viewModel.editor)
    #expect(retry !== editor)
    #expect(retry.lastName == "King")

    viewModel.alertDismissed()
    retry.firstNameChanged("Augusta")
    retry.save()
    #expect(viewModel.greeting == "Welcome, Augusta King")
    #expect(viewModel.editor == nil)
  }

  @Test func save_inGerman_localisesTheAlertAndGreeting() throws {
    let fixture = try Fixture(strings: Strings(.german))
    let viewModel = fixture.viewModel
    viewModel.viewAppeared()
    fixture.scheduler.advance()
    #expect(viewModel.greeting == "Willkommen, Ada Lovelace")
    viewModel.editProfileTapped()
    viewModel.editor?.lastNameChanged("")
    viewModel.editor?.save()
    #expect(viewModel.alert == AlertState(title: "Fehlende Angaben", message: "Nachname fehlt"))
  }

  @Test func cancel_dismissesWithoutSaving() throws {
    let fixture = try Fixture()
    fixture.viewModel.viewAppeared()
    fixture.scheduler.advance()
    fixture.viewModel.editProfileTapped()
    let editor = try #require(fixture.viewModel.editor)
    fixture.viewModel.editorCancelled()
    editor.save()
    #expect(fixture.viewModel.editor == nil)
    #expect(fixture.services.profileUpdates.isEmpty)
  }

  @Test func serviceFailure_isShown() throws {
    let fixture = try Fixture()
    try fixture.services.signOut(token: fixture.token)
    fixture.viewModel.viewAppeared()
    fixture.scheduler.advance()
    #expect(
      fixture.viewModel.alert?.message
        == "You are not signed in: sign in (the Account tab, or the sign-in sheet of a booking).")
  }
}
