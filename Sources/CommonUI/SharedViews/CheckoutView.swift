import Common
import Foundation
import Reactive

/// The checkout line of a booking screen, drawn from a ``CheckoutModel``'s outputs. Three rows:
///
/// ```text
/// Pay with  Visa •••• 4242  03/29 (default)  ◂ ▸
///           Signed in as Ada Lovelace · ←→ another card
/// ```
///
/// Signed out, the first row reads "Not signed in — press s to sign in" when focused ("— you sign
/// in when you book" otherwise); the rows under it show the model's message (no card yet and how to
/// add one, a session that ended) in the warning colour, word-wrapped. `◂ ▸` appear when there is more than one
/// card.
public struct CheckoutView: Widget {
  /// Rows the view needs.
  public static let height = 3
  /// Columns of the "Pay with" label by default (see ``labelWidth(_:)``).
  public static let labelWidth = 10

  /// Who pays.
  public var payer: CheckoutPayer
  /// The cards to choose from, the default first.
  public var cards: [PaymentCard]
  /// The chosen card's id (`card_…`).
  public var selectedCardId: String?
  /// A message for the rows under the card (warning colour), or nil.
  public var message: String?
  /// Whether the section has the keys: highlighted, with its key words.
  public var isFocused: Bool
  /// Columns before the card: the "Pay with" label and its padding.
  public var labelColumns = CheckoutView.labelWidth

  /// A view of these values (see ``init(_:focused:)`` for a model's).
  public init(
    payer: CheckoutPayer, cards: [PaymentCard], selectedCardId: String?, message: String?, focused: Bool = false
  ) {
    self.payer = payer
    self.cards = cards
    self.selectedCardId = selectedCardId
    self.message = message
    self.isFocused = focused
  }

  /// The view of `model`'s current outputs.
  public init(_ model: CheckoutModel, focused: Bool = false) {
    self.init(
      payer: model.payer, cards: model.cards, selectedCardId: model.selectedCardId, message: model.message,
      focused: focused)
  }

  /// The same view with the card starting `width` columns in (to line up with the form's fields).
  public func labelWidth(_ width: Int) -> CheckoutView {
    var copy = self
    copy.labelColumns = max(DisplayWidth.of(L("Pay with")) + 1, width)
    return copy
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    guard area.height >= 1 else { return }
    buffer.write(
      L("Pay with"), x: area.x, y: area.y, maxWidth: area.width, style: isFocused ? theme.accent : theme.base)
    let value = area.row(0).inset(left: labelColumns)
    let highlight = isFocused ? theme.selection : theme.base
    var note: (String, Style)?
    switch payer {
    case .checking:
      Label(L("Checking your account…"), style: theme.muted).render(in: value, into: &buffer)
    case .signedOut:
      let text = isFocused ? L("Not signed in — press s to sign in") : L("Not signed in — you sign in when you book")
      Label(text, style: highlight).render(in: value, into: &buffer)
    case .signedIn(let name):
      if let card = cards.first(where: { $0.id == selectedCardId }) {
        var spans = [Span(card.displayName, style: highlight)]
        if cards.count > 1 { spans.append(Span("  ◂ ▸", style: isFocused ? theme.accent : theme.muted)) }
        Label(Line(spans)).render(in: value, into: &buffer)
      } else {
        Label(L("No payment card"), style: highlight).render(in: value, into: &buffer)
      }
      let who = name.map { L("Signed in as \($0)") } ?? L("Signed in")
      let keys = isFocused && cards.count > 1 ? L(" · ←→ another card") : ""
      note = (who + keys, theme.muted)
    }
    if let message { note = (message, theme.warning) }
    if let note, area.height >= 2 {
      Paragraph(note.0, style: note.1).render(in: area.inset(top: 1, left: labelColumns), into: &buffer)
    }
  }
}

/// The checkout of a booking screen, ready to embed: a ``CheckoutModel``, its ``CheckoutView``,
/// its keys, and the ``SignInSheetScreen`` it pushes. The hotel, car and flight booking screens use
/// it the same way:
///
/// ```swift
/// let checkout = CheckoutSection(account: account, mainQueue: .main, backgroundQueue: background)
/// checkout.host = self  // optional: the sign-in sheet is drawn over this screen
/// var navigation: AnyPublisher<Navigation, Never> { intents.merge(with: checkout.navigation).eraseToAnyPublisher() }
/// // render: checkout.render(in: Rect(x: x, y: y, width: w, height: CheckoutView.height), focused: …, into: &buffer)
/// // keys, when the payment row has focus: if checkout.handle(key) == .handled { return .handled }
/// // Book: guard checkout.isReadyToBook() else { return }; model.cardSelected(checkout.selectedCardId)
/// // Failed: model.$failure.sink { checkout.bookingFailed($0) }; show checkout.bookingFailure under Book
/// ```
///
/// A booking failure (``bookingFailed(_:)``) is kept in the app's words (``CheckoutMessages``)
/// until its cause is gone, not until the next Book: a session failure (`not_signed_in`,
/// `session_expired`) goes once the session shows someone signed in (from the sheet, the Account
/// tab or another process); a card failure (`card_declined`, `insufficient_funds`, `card_expired`,
/// `card_not_found`) goes when the person chooses another card (← →); `no_payment_card` goes when
/// a card turns up (added in the Account tab or in a shell: the session publishes it). Any other
/// failure stays until the next booking attempt.
///
/// Keys while focused: ← → (or `-` `+`) another card, `s` or Enter signs in when signed out. (`r`
/// still asks the session to read the account again, harmlessly; it is never needed, so it is not
/// listed.)
@MainActor
public final class CheckoutSection {
  /// The view model (for its outputs; the section calls its inputs).
  public let model: CheckoutModel
  /// The booking screen the section is on (optional, kept weakly): the sign-in sheet draws it,
  /// dimmed, under the sheet.
  public weak var host: (any Screen)?
  /// The last booking failure in the app's words, shown under Book; nil when there is none or its
  /// cause is gone (see the type's documentation).
  public private(set) var bookingFailure: String?
  /// The ``ServiceError/code`` of ``bookingFailure``.
  public private(set) var bookingFailureCode: String?
  private let intents = PassthroughSubject<Navigation, Never>()
  private let failureChanged = PassthroughSubject<Void, Never>()
  private var subscriptions: [AnyCancellable] = []

  /// Failure codes that a session found (signed in) makes obsolete.
  static let sessionCodes: Set<String> = ["not_signed_in", "session_expired"]
  /// Failure codes that choosing another card makes obsolete.
  static let cardCodes: Set<String> = ["card_declined", "insufficient_funds", "card_expired", "card_not_found"]

  /// A section over `model` (which observes the app's session).
  public init(model: CheckoutModel) {
    self.model = model
    var wasSignedIn = false
    // `@Published` emits the new value before storing it: judge by the value given.
    model.$payer.sink { [weak self] payer in
      let isSignedIn = if case .signedIn = payer { true } else { false }
      defer { wasSignedIn = isSignedIn }
      // Signing in ends a "sign in first"; signing out or in (maybe as someone else, with other
      // cards) ends what was said about the card charged before.
      if isSignedIn, !wasSignedIn {
        MainActor.assumeIsolated { self?.clearBookingFailure(if: Self.sessionCodes.union(Self.cardCodes)) }
      } else if payer == .signedOut, wasSignedIn {
        MainActor.assumeIsolated { self?.clearBookingFailure(if: Self.cardCodes) }
      }
    }.store(in: &subscriptions)
    model.$cards.sink { [weak self] cards in
      guard !cards.isEmpty else { return }
      MainActor.assumeIsolated { self?.clearBookingFailure(if: ["no_payment_card"]) }
    }.store(in: &subscriptions)
  }

  /// A section over a new ``CheckoutModel`` observing `session` (the app's one session).
  public convenience init(session: AccountSession) {
    self.init(model: CheckoutModel(session: session))
  }

  /// A section over a new ``CheckoutModel`` with a session of its own on `account` (tests and
  /// previews), reading the session and cards now.
  public convenience init(
    account: BookingAccount, mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.init(model: CheckoutModel(account: account, mainQueue: mainQueue, backgroundQueue: backgroundQueue))
  }

  /// The card to charge (nil: not signed in or no card yet).
  public var selectedCardId: String? { model.selectedCardId }

  /// Emits when anything the section shows changed (merge it into the screen's ``Screen/changes``).
  public var changes: AnyPublisher<Void, Never> {
    Publishers.MergeMany([
      model.$payer.map { _ in () }.eraseToAnyPublisher(), model.$cards.map { _ in () }.eraseToAnyPublisher(),
      model.$selectedCardId.map { _ in () }.eraseToAnyPublisher(), model.$message.map { _ in () }.eraseToAnyPublisher(),
      failureChanged.eraseToAnyPublisher(),
    ]).eraseToAnyPublisher()
  }

  /// Records the booking view model's failure (nil: a new attempt began, or it succeeded), worded
  /// when it arrives (``message(forBookingFailure:)``, naming the card it charged). The card
  /// chosen stays chosen after a card failure (the traveller changes it with ← →; nothing switches
  /// it behind their back). Feed it the view model's `failure` output; show ``bookingFailure``
  /// under Book.
  public func bookingFailed(_ error: ServiceError?) {
    bookingFailure = error.map { message(forBookingFailure: $0) }
    bookingFailureCode = error?.code
    failureChanged.send()
  }

  /// Forgets the booking failure when its code is one of `codes` (its cause is gone).
  private func clearBookingFailure(if codes: Set<String>) {
    guard let code = bookingFailureCode, codes.contains(code) else { return }
    bookingFailure = nil
    bookingFailureCode = nil
    failureChanged.send()
  }

  /// The sign-in sheet to push (merge it into the screen's ``Screen/navigation``).
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }

  /// The keys the section takes while focused, for the footer.
  public var keyHints: [KeyHint] {
    switch model.payer {
    case .signedOut: [KeyHint("s", "sign in")]
    case .signedIn where model.cards.count > 1: [KeyHint("←→", "card"), KeyHint("a", "add card")]
    case .signedIn: [KeyHint("a", "add card")]
    case .checking: []
    }
  }

  /// Draws the ``CheckoutView`` (``CheckoutView/height`` rows), the card `labelWidth` columns in.
  public func render(
    in area: Rect, focused: Bool, labelWidth: Int = CheckoutView.labelWidth, into buffer: inout Buffer
  ) {
    CheckoutView(model, focused: focused).labelWidth(labelWidth).render(in: area, into: &buffer)
  }

  /// Handles a key while the section has focus; ``KeyResult/ignored`` for keys it does not use.
  public func handle(_ key: Key) -> KeyResult {
    let card = model.selectedCardId
    defer {
      // The person chose another card: a failure of the card before it no longer applies.
      if model.selectedCardId != card, model.selectedCardId != nil { clearBookingFailure(if: Self.cardCodes) }
    }
    switch key {
    case .right, .character("+"), .character("="):
      model.nextCardTapped()
    case .left, .character("-"):
      model.previousCardTapped()
    case .character("r"):
      model.refresh()
    case .character("s"), .enter:
      guard model.payer == .signedOut else { return .ignored }
      showSignIn()
    case .character("a"):
      guard case .signedIn = model.payer else { return .ignored }
      showAddCard()
    default:
      return .ignored
    }
    return .handled
  }

  /// Whether a booking can go ahead now (signed in, a card chosen). Otherwise it says why: signed
  /// out, it pushes the sign-in sheet (which closes itself when the session shows someone signed
  /// in); signed in without a card, the add-card sheet (a card added anywhere shows at once, and
  /// closes it too). Call it when Book is pressed.
  public func isReadyToBook() -> Bool {
    if model.isReadyToPay { return true }
    switch model.payer {
    case .signedOut: showSignIn()
    case .signedIn where model.cards.isEmpty: showAddCard()
    case .signedIn, .checking: break
    }
    return false
  }

  /// Pushes the add-card sheet over the booking screen (``host``); it closes itself once the card
  /// is on the account.
  public func showAddCard() {
    intents.send(.push(AddCardSheetScreen(model: model, over: host)))
  }

  /// Pushes the sign-in sheet over the booking screen (``host``) and asks the session to read the
  /// account once more; signed in meanwhile (another tab, another shell), the sheet closes by
  /// itself when the session shows it.
  public func showSignIn() {
    intents.send(.push(SignInSheetScreen(model: model, over: host)))
    model.refresh()
  }
}

/// Signing in — or creating an account — without leaving a booking: the shared ``SignInForm`` in a
/// sheet, pushed by a ``CheckoutSection``. Enter signs in through
/// ``CheckoutModel/signIn(email:password:)`` (on the background queue); Ctrl-N turns the sheet into
/// a new-account form (first name, last name, email, password: ``CheckoutModel/signUp(email:password:firstName:lastName:)``,
/// which signs in too), and Ctrl-N again back. A failure shows the service's message ("email or
/// password is wrong", "an account with this email already exists") under the fields; once the
/// model is signed in (by this sheet, or by a refresh that finds a session) the sheet pops
/// itself, back to the booking with the cards loaded. Esc goes back without signing in.
@MainActor
public final class SignInSheetScreen: Screen {
  public var title: String { newAccount == nil ? "Sign in" : "Create an account" }
  /// The form's fields, focus and message.
  public private(set) var form = SignInFormState()
  /// The new-account form while the sheet creates an account (Ctrl-N); nil while it signs in.
  public private(set) var newAccount: FieldForm?
  private let model: CheckoutModel
  private weak var background: (any Screen)?
  private let intents = PassthroughSubject<Navigation, Never>()
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()

  /// The new-account form: first name, last name, email, password.
  static func newAccountForm(email: String) -> FieldForm {
    var form = FieldForm(
      [
        FieldForm.Field(
          label: "First name", state: TextFieldState(maxLength: 100), hint: "Your given names, as on your passport."),
        FieldForm.Field(
          label: "Last name", state: TextFieldState(maxLength: 100), hint: "Your family name, as on your passport."),
        FieldForm.Field(
          label: "Email", state: TextFieldState(maxLength: 254), hint: "The email you will sign in with."),
        FieldForm.Field(
          label: "Password", state: TextFieldState(maxLength: 128), isSecure: true, hint: "At least 10 characters."),
      ], button: "Create account", buttonHint: "Enter creates the account and signs you in.")
    form.fields[2].state.text = email
    return form
  }

  /// The sheet for `model`, drawn over `background` (dimmed; nil: over nothing); its messages are
  /// the ones of sign-ins made from this sheet.
  public init(model: CheckoutModel, over background: (any Screen)? = nil) {
    self.model = model
    self.background = background
    model.$isSigningIn.dropFirst().sink { [weak self] busy in
      self?.form.isSubmitting = busy
      self?.changed.send()
    }.store(in: &subscriptions)
    model.$signInMessage.dropFirst().sink { [weak self] message in
      // A failed sign-in puts the cursor back in the password (typed keys stay in the form).
      guard let self else { return }
      if self.newAccount != nil {
        self.form.message = message
      } else if let message {
        self.form.signInFailed(message)
      } else {
        self.form.message = nil
      }
      self.changed.send()
    }.store(in: &subscriptions)
    // Signed in here, or found signed in by a refresh (e.g. in another tab or shell): back to the
    // booking, once.
    model.$payer.dropFirst().first { if case .signedIn = $0 { true } else { false } }
      .sink { [weak self] _ in self?.intents.send(.pop) }.store(in: &subscriptions)
  }

  public var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  public var isEditingText: Bool { newAccount?.isEditingText ?? form.isEditingText }
  public var keyHints: [KeyHint] {
    if let newAccount {
      if newAccount.hasLeftField { return [KeyHint("Enter", "edit"), KeyHint("Esc", "back to the booking")] }
      return [
        KeyHint("Tab", "next field"), KeyHint("Enter", newAccount.enterSubmits ? "create account" : "next field"),
        KeyHint("Ctrl-N", "I have an account"),
      ]
    }
    if form.hasLeftField { return [KeyHint("Enter", "edit"), KeyHint("Esc", "back to the booking")] }
    let enter = form.focus == .email ? KeyHint("Enter", "next field") : KeyHint("Enter", "sign in")
    return [KeyHint("Tab", "next field"), enter, KeyHint("Ctrl-N", "new account")]
  }

  public func handle(_ key: Key) -> KeyResult {
    if key == .control("n") {
      // Between signing in and creating an account; the email typed so far comes along.
      if let newAccount {
        form = SignInFormState(email: newAccount[2])
        self.newAccount = nil
      } else {
        newAccount = Self.newAccountForm(email: form.email.text)
        form.message = nil
      }
      return .handled
    }
    if var newAccount {
      let outcome = newAccount.handle(key)
      self.newAccount = newAccount
      switch outcome {
      case .unused: return .ignored
      case .edited: form.message = nil
      case .submit:
        model.signUp(
          email: newAccount[2], password: newAccount[3], firstName: newAccount[0], lastName: newAccount[1])
      }
      return .handled
    }
    guard let event = form.handle(key) else { return .ignored }
    if case .submit(let email, let password) = event {
      form.message = nil
      model.signIn(email: email, password: password)
    }
    return .handled
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    background?.render(in: area, into: &buffer)
    if let newAccount {
      let sheet = Sheet(title: "Create an account to book", width: min(66, area.width), height: 14)
      sheet.render(in: area, into: &buffer)
      let inner = sheet.contentArea(in: area)
      Label("Your account pays for this booking", style: buffer.theme.accent).render(
        in: Rect(x: inner.x, y: inner.y, width: inner.width, height: 1), into: &buffer)
      newAccount.render(
        in: Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: 6), into: &buffer,
        buttonTitle: form.isSubmitting ? "Creating…" : nil)
      let line = Rect(x: inner.x, y: inner.y + 9, width: inner.width, height: 2)
      if let message = form.message {
        Paragraph(message, style: buffer.theme.error).render(in: line, into: &buffer)
      } else {
        Paragraph(newAccount.focusedHint, style: buffer.theme.muted).render(in: line, into: &buffer)
      }
      return
    }
    let sheet = Sheet(title: "Sign in to book", width: min(66, area.width), height: 13)
    sheet.render(in: area, into: &buffer)
    let inner = sheet.contentArea(in: area)
    SignInForm(state: form, title: L("Your account pays for this booking")).render(
      in: Rect(x: inner.x, y: inner.y, width: inner.width, height: 7), into: &buffer)
    Paragraph("No account yet? Press Ctrl-N to create one here.", style: buffer.theme.muted)
      .render(in: Rect(x: inner.x, y: inner.y + 9, width: inner.width, height: 2), into: &buffer)
  }
}

/// Adding a payment card without leaving a booking: the shared card form (``FieldForm/paymentCard(button:buttonHint:)``:
/// number grouped while typed, expiry, CVC) in a sheet pushed by a ``CheckoutSection``. Each field
/// is judged as it is typed and when it is left (``CheckoutModel/cardProblems``); Enter on the
/// last field or the button adds the card through ``CheckoutModel/addCard(number:expiry:cvc:)``;
/// once the account shows it, it is the card chosen and the sheet pops itself. Esc goes back.
@MainActor
public final class AddCardSheetScreen: Screen {
  public let title = "Add a card"
  /// The form's fields and focus.
  public private(set) var form = FieldForm.paymentCard(
    button: "Add card", buttonHint: "Enter checks the card and adds it to your account.")
  private let model: CheckoutModel
  private weak var background: (any Screen)?
  private let intents = PassthroughSubject<Navigation, Never>()
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()

  /// The sheet for `model`, drawn over `background` (dimmed; nil: over nothing).
  public init(model: CheckoutModel, over background: (any Screen)? = nil) {
    self.model = model
    self.background = background
    model.cardFormReset()
    Publishers.MergeMany([
      model.$cardProblems.map { _ in () }.eraseToAnyPublisher(),
      model.$isAddingCard.map { _ in () }.eraseToAnyPublisher(),
      model.$addCardMessage.map { _ in () }.eraseToAnyPublisher(),
    ]).dropFirst(3).sink { [weak self] in self?.changed.send() }.store(in: &subscriptions)
    model.cardAdded.sink { [weak self] _ in self?.close() }.store(in: &subscriptions)
    // Opened without a card: a card added meanwhile elsewhere (the Account tab, another shell)
    // is one to book with too.
    if model.cards.isEmpty {
      model.$cards.dropFirst().first { !$0.isEmpty }.sink { [weak self] _ in self?.close() }
        .store(in: &subscriptions)
    }
  }

  private var isClosed = false

  /// Back to the booking, once.
  private func close() {
    guard !isClosed else { return }
    isClosed = true
    intents.send(.pop)
  }

  public var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
  public var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  public var isEditingText: Bool { form.isEditingText }
  public var keyHints: [KeyHint] {
    if form.hasLeftField { return [KeyHint("Enter", "edit"), KeyHint("Esc", "back to the booking")] }
    return [KeyHint("Tab", "next field"), KeyHint("Enter", form.enterSubmits ? "add card" : "next field")]
  }

  public func handle(_ key: Key) -> KeyResult {
    let before = form
    let outcome = form.handle(key)
    let fields = PaymentCardEntry.Field.allCases
    switch outcome {
    case .unused: return .ignored
    case .edited:
      for (index, field) in fields.enumerated() where form[index] != before[index] {
        model.cardFieldChanged(field, to: form[index])
      }
      if form.focus != before.focus, fields.indices.contains(before.focus) {
        model.cardFieldEnded(fields[before.focus])
      }
    case .submit:
      model.addCard(number: form[0], expiry: form[1], cvc: form[2])
    }
    return .handled
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    background?.render(in: area, into: &buffer)
    let sheet = Sheet(title: "Add a card to book", width: min(70, area.width), height: 12)
    sheet.render(in: area, into: &buffer)
    let inner = sheet.contentArea(in: area)
    Label("It is saved to your account; the CVC never is.", style: buffer.theme.accent).render(
      in: Rect(x: inner.x, y: inner.y, width: inner.width, height: 1), into: &buffer)
    form.render(
      in: Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: 5), into: &buffer,
      buttonTitle: model.isAddingCard ? "Adding…" : nil)
    // What the focused field takes, or what is wrong with it; on the button the first problem.
    let fields = PaymentCardEntry.Field.allCases
    let problem =
      fields.indices.contains(form.focus) ? model.cardProblems[fields[form.focus]] : (model.addCardMessage ?? nil)
    let text = problem ?? model.addCardMessage ?? form.focusedHint
    let isProblem = problem != nil || model.addCardMessage != nil
    Paragraph(text, style: isProblem ? buffer.theme.error : buffer.theme.muted)
      .render(in: Rect(x: inner.x, y: inner.y + 8, width: inner.width, height: 2), into: &buffer)
  }
}
