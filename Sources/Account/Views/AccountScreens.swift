import Common
import CommonUI
import Foundation
import Reactive

/// The Account feature in the interactive app: the tab's screens, thin views over the view models
/// (``SignInViewModel``, ``SignUpViewModel``, ``AccountViewModel`` with its
/// ``ProfileEditorViewModel``, ``PreferencesViewModel``, ``PaymentCardsViewModel``,
/// ``TripsViewModel``). The apps only call ``feature(context:environment:)``.
public enum AccountScreens {
  /// The Account tab for the app run with `context`: the home when `session` shows someone signed
  /// in, else the sign-in form; it follows the session wherever it changes (the sign-in sheet of a
  /// booking, another process). Its status is the session's greeting ("Welcome, Ada Lovelace"),
  /// its appearance the user's preference (system shows dark).
  /// - Throws: what `environment` throws (a store that cannot be opened).
  @MainActor
  public static func feature(context: CLIContext, environment: AccountEnvironment.Factory, session: AccountSession)
    throws -> InteractiveFeature
  {
    let client = AccountClient(
      environment: try environment(context), scheduler: DispatchQueue.main.eraseToAnyScheduler())
    let screen = AccountScreen(
      client: client, session: session, exportDirectory: DataDirectory.exports(in: context.dataDirectory))
    return InteractiveFeature(tab: AppTab(L("Account"), root: screen), session: session)
  }
}

/// The Account tab's first screen: the sign-in form when nobody is signed in (Ctrl-N opens
/// sign-up), else the account home — the greeting, the email, and a menu: Edit profile (a sheet
/// over the home), Preferences, Payment cards, Trips, Sign out.
///
/// It shows the app's one ``AccountSession``: signing in here, in a booking's sign-in sheet or in
/// another process shows the home; signing out anywhere shows the form ("Signed out."). What it
/// changes (a sign-in, a sign-out, the profile, the preferences, the cards) goes through the
/// session or tells it, so the header and every tab follow at once.
///
/// The profile sheet follows the ``AccountViewModel``: Enter on Save calls
/// ``ProfileEditorViewModel/save()``; a valid save closes the sheet and the greeting (in the
/// header) changes; a blank name closes the sheet and shows the view model's alert ("Missing
/// Data" / "First Name is missing").
@MainActor
public final class AccountScreen: Screen {
  public let title = L("Account")
  private let client: AccountClient
  private let exportDirectory: URL
  /// The app's one session.
  public let session: AccountSession
  private let changed = PassthroughSubject<Void, Never>()
  private let intents = PassthroughSubject<Navigation, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var sessionSubscription: AnyCancellable?

  // Signed out.
  private var form = SignInFormState()
  private var signIn: SignInViewModel?
  /// Whether the session is still being read (until its first answer).
  private var isChecking = true

  // Signed in.
  private(set) var token: String?
  private(set) var account: AccountViewModel?
  private(set) var preferences: PreferencesViewModel?
  /// The signed-in traveller as the session shows them (the home's greeting and email).
  private var traveller: SignedInTraveller?
  private var menu = SelectionState(count: MenuItem.allCases.count)
  private var sheet: ProfileSheetState?

  enum MenuItem: String, CaseIterable {
    case profile = "Edit profile"
    case preferences = "Preferences"
    case cards = "Payment cards"
    case trips = "Trips"
    case signOut = "Sign out"
  }

  /// The fields of the open profile sheet.
  struct ProfileSheetState {
    var firstName: TextFieldState
    var lastName: TextFieldState
    /// 0 first name, 1 last name, 2 Save.
    var focus = 0
  }

  /// - Parameter exportDirectory: where the Trips screen saves a trip's `.ics` (an app passes its
  ///   data directory's ``DataDirectory/exports(in:)``; created on the first export).
  public init(client: AccountClient, session: AccountSession, exportDirectory: URL) {
    self.exportDirectory = exportDirectory
    self.client = client
    self.session = session
    signedOut(message: nil)
    sessionSubscription = session.state.sink { [weak self] state in
      MainActor.assumeIsolated { self?.show(state) }
    }
  }

  /// The greeting for the header (the session's), nil when signed out.
  public var status: AnyPublisher<String?, Never> { session.greeting }
  /// The user's appearance preference (the session's), each time it changes.
  public var appearance: AnyPublisher<CommonUI.Appearance, Never> {
    session.appearance.compactMap { $0.map { $0 == .light ? CommonUI.Appearance.light : .dark } }
      .eraseToAnyPublisher()
  }
  public var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }

  public var isEditingText: Bool {
    if token == nil { return !isChecking && form.isEditingText }
    if let sheet { return sheet.focus < 2 }
    return false
  }

  public var keyHints: [KeyHint] {
    if token == nil {
      if isChecking { return [] }
      if form.hasLeftField {
        return [KeyHint("Enter", "edit"), KeyHint("Tab", "next field"), KeyHint("Ctrl-N", "sign up")]
      }
      let enter = form.focus == .email ? KeyHint("Enter", "next field") : KeyHint("Enter", "sign in")
      return [KeyHint("Tab", "next field"), enter, KeyHint("Ctrl-N", "sign up")]
    }
    if let sheet {
      let enter = sheet.focus == 0 ? KeyHint("Enter", "next field") : KeyHint("Enter", "save")
      return [KeyHint("Tab", "next"), enter, KeyHint("Esc", "cancel")]
    }
    return [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("e", "edit profile")]
  }

  // MARK: States

  /// A new state of the session: the home for a new session, the form when it ended.
  private func show(_ state: AccountState) {
    switch state {
    case .checking:
      return
    case .signedOut(let reason):
      let wasChecking = isChecking
      isChecking = false
      if token != nil {
        signedOut(message: reason ?? L("Signed out."))
        intents.send(.popToRoot)  // from the cards, trips or preferences of the session that ended
      } else if wasChecking || reason != nil {
        form.message = reason
      }
    case .signedIn(let traveller):
      isChecking = false
      self.traveller = traveller
      if token != traveller.token {
        signedIn(token: traveller.token)
        intents.send(.popToRoot)  // from sign-up, or from a screen of an older session
      }
    }
    changed.send()
  }

  private func signedOut(message: String?) {
    subscriptions.removeAll()
    token = nil
    traveller = nil
    account = nil
    preferences = nil
    sheet = nil
    form = SignInFormState()
    form.message = message
    let model = SignInViewModel(client: client, signIn: session.signIn(email:password:))
    signIn = model
    model.$isSigningIn.sink { [weak self] in
      self?.form.isSubmitting = $0
      self?.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] message in
      // The cursor back in the password after a failure: typed keys stay in the form.
      if let message { self?.form.signInFailed(message) }
      self?.changed.send()
    }.store(in: &subscriptions)
  }

  private func signedIn(token: String) {
    subscriptions.removeAll()
    signIn = nil
    self.token = token
    menu = SelectionState(count: MenuItem.allCases.count)
    let account = AccountViewModel(client: client, token: token)
    let preferences = PreferencesViewModel(client: client, token: token)
    self.account = account
    self.preferences = preferences
    account.$profile.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    account.$isSaving.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    account.$editor.sink { [weak self] editor in
      if editor == nil { self?.sheet = nil }
      self?.changed.send()
    }.store(in: &subscriptions)
    account.$alert.sink { [weak self] alert in
      guard let self, let alert else { return }
      // The sheet closes; the alert shows over everything.
      self.sheet = nil
      self.intents.send(.alert(AlertContent(title: alert.title, message: alert.message)))
    }.store(in: &subscriptions)
    // A saved profile or preferences: the session reads them again, so the header's greeting,
    // the appearance and every tab follow.
    account.saved.sink { [weak self] _ in self?.session.refresh() }.store(in: &subscriptions)
    preferences.saved.sink { [weak self] _ in self?.session.refresh() }.store(in: &subscriptions)
    account.viewAppeared()
    preferences.viewAppeared()
  }

  // MARK: Keys

  public func handle(_ key: Key) -> KeyResult {
    if token == nil { return handleSignedOut(key) }
    if sheet != nil { return handleSheet(key) }
    switch key {
    case .enter: open(MenuItem.allCases[menu.selected ?? 0])
    case .character("e"): open(.profile)
    default: return menu.handle(key, visibleRows: MenuItem.allCases.count) ? .handled : .ignored
    }
    return .handled
  }

  private func handleSignedOut(_ key: Key) -> KeyResult {
    if isChecking { return .ignored }
    if key == .control("n") {
      intents.send(.push(SignUpScreen(client: client, signIn: session.signIn(email:password:))))
      return .handled
    }
    guard let event = form.handle(key) else { return .ignored }
    if case .submit(let email, let password) = event, let signIn {
      form.message = nil
      signIn.emailChanged(email)
      signIn.passwordChanged(password)
      signIn.signInTapped()
    }
    return .handled
  }

  private func open(_ item: MenuItem) {
    guard let token else { return }
    switch item {
    case .profile:
      guard let account, let profile = account.profile else { return }
      account.editProfileTapped()
      sheet = ProfileSheetState(
        firstName: TextFieldState(text: profile.firstName, maxLength: 100),
        lastName: TextFieldState(text: profile.lastName, maxLength: 100))
    case .preferences:
      if let preferences { intents.send(.push(PreferencesScreen(model: preferences))) }
    case .cards:
      intents.send(
        .push(PaymentCardsScreen(model: PaymentCardsViewModel(client: client, token: token), session: session)))
    case .trips:
      intents.send(
        .push(TripsScreen(model: TripsViewModel(client: client, token: token), exportDirectory: exportDirectory)))
    case .signOut:
      session.signOut()
    }
  }

  private func handleSheet(_ key: Key) -> KeyResult {
    guard var sheet, let editor = account?.editor else { return .ignored }
    switch key {
    case .escape:
      self.sheet = nil
      account?.editorCancelled()
      return .handled
    case .tab, .down:
      sheet.focus = (sheet.focus + 1) % 3
    case .backTab, .up:
      sheet.focus = (sheet.focus + 2) % 3
    case .enter where sheet.focus == 0:
      sheet.focus = 1
    case .enter,
      .character(" ") where sheet.focus == 2:
      self.sheet = sheet
      editor.firstNameChanged(sheet.firstName.text)
      editor.lastNameChanged(sheet.lastName.text)
      editor.save()
      return .handled
    default:
      let used = sheet.focus == 0 ? sheet.firstName.handle(key) : sheet.focus == 1 ? sheet.lastName.handle(key) : false
      guard used else { return .handled }  // A modal sheet keeps its keys.
      editor.firstNameChanged(sheet.firstName.text)
      editor.lastNameChanged(sheet.lastName.text)
    }
    self.sheet = sheet
    return .handled
  }

  // MARK: Drawing

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard let account else {
      if isChecking {
        Label(L("Checking your account…"), style: buffer.theme.muted).render(
          in: area.row(1).inset(left: 1), into: &buffer)
        return
      }
      SignInForm(state: form).render(
        in: Rect(x: area.x + 1, y: area.y + 1, width: min(60, area.width - 1), height: 7), into: &buffer)
      buffer.write(
        L("No account yet? Ctrl-N signs up."), x: area.x + 1, y: area.y + 9, maxWidth: area.width - 1,
        style: buffer.theme.muted)
      return
    }
    let profile = traveller?.profile ?? account.profile
    let greeting =
      profile.map { Strings(Localization.current).welcome(firstName: $0.firstName, lastName: $0.lastName) }
      ?? L("Loading your account…")
    Label(greeting, style: buffer.theme.accent).render(in: area.row(1).inset(left: 1), into: &buffer)
    if let email = profile?.email {
      Label(email, style: buffer.theme.muted).render(in: area.row(2).inset(left: 1), into: &buffer)
    }
    let items = MenuItem.allCases.map(\.rawValue)
    List(items, state: menu).focused(sheet == nil)
      .render(
        in: Rect(x: area.x + 1, y: area.y + 4, width: min(40, area.width - 1), height: items.count), into: &buffer)
    if account.isSaving {
      Label(L("Saving…"), style: buffer.theme.muted).render(
        in: area.row(4 + items.count + 1).inset(left: 1), into: &buffer)
    }
    if let sheet { renderSheet(sheet, in: area, into: &buffer) }
  }

  private func renderSheet(_ sheet: ProfileSheetState, in area: Rect, into buffer: inout Buffer) {
    let frame = Sheet(title: L("Edit profile"), width: 52, height: 6)
    frame.render(in: area, into: &buffer)
    let inner = frame.contentArea(in: area)
    TextField("First name", state: sheet.firstName).labelWidth(12).focused(sheet.focus == 0)
      .render(in: inner.row(0), into: &buffer)
    TextField("Last name", state: sheet.lastName).labelWidth(12).focused(sheet.focus == 1)
      .render(in: inner.row(1), into: &buffer)
    Button("Save", focused: sheet.focus == 2).render(in: inner.row(3).inset(left: 12), into: &buffer)
    Label(L("Esc cancels"), style: buffer.theme.muted).alignment(.trailing).render(in: inner.row(3), into: &buffer)
  }
}
