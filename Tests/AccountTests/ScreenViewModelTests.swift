import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Account

@Suite struct SignInViewModelTests {
  @Test func signIn_enabledOnlyWithBothFields_thenPublishesTheSessionOnce() throws {
    let services = InMemoryServices()
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "L")
    let scheduler = DispatchQueue.test
    let viewModel = SignInViewModel(client: services.client(scheduler))
    let enabled = viewModel.$isSignInEnabled.record()
    let signedIn = viewModel.signedIn.record()
    viewModel.emailChanged("ADA@example.com")
    viewModel.passwordChanged("correct horse")
    viewModel.signInTapped()
    #expect(viewModel.isSigningIn)
    scheduler.advance()
    #expect(enabled.values == [false, false, true, false, true])
    #expect(signedIn.values.count == 1)
    #expect(signedIn.isFinished)
    #expect(viewModel.errorMessage == nil)
  }

  @Test func signIn_wrongPassword_showsTheServiceMessage() throws {
    let services = InMemoryServices()
    _ = try services.signUp(email: "ada@example.com", password: "correct horse", firstName: "Ada", lastName: "L")
    let scheduler = DispatchQueue.test
    let viewModel = SignInViewModel(client: services.client(scheduler))
    let signedIn = viewModel.signedIn.record()
    viewModel.emailChanged("ada@example.com")
    viewModel.passwordChanged("wrong password")
    viewModel.signInTapped()
    scheduler.advance()
    // In the app's words (ScreenText), never the command-line advice.
    #expect(viewModel.errorMessage == "Email or password is wrong: check both and try again.")
    #expect(signedIn.events.isEmpty)
    #expect(viewModel.isSignInEnabled)
  }
}

@Suite struct SignUpViewModelTests {
  func filled(_ viewModel: SignUpViewModel, first: String = "Ada", password: String = "correct horse") {
    viewModel.emailChanged("ada@example.com")
    viewModel.firstNameChanged(first)
    viewModel.lastNameChanged("Lovelace")
    viewModel.passwordChanged(password)
    viewModel.passwordRepeatChanged("correct horse")
  }

  @Test func signUp_publishesTheProfile() {
    let services = InMemoryServices()
    let scheduler = DispatchQueue.test
    let viewModel = SignUpViewModel(client: services.client(scheduler))
    let signedUp = viewModel.signedUp.record()
    filled(viewModel)
    viewModel.signUpTapped()
    scheduler.advance()
    #expect(signedUp.values.map(\.email) == ["ada@example.com"])
    #expect(signedUp.isFinished)
  }

  @Test func signUp_badInput_isExplainedAndNothingIsSent() {
    let services = InMemoryServices()
    let scheduler = DispatchQueue.test
    let viewModel = SignUpViewModel(client: services.client(scheduler), strings: Strings(.german))
    let signedUp = viewModel.signedUp.record()
    filled(viewModel, first: " ")
    viewModel.signUpTapped()
    #expect(viewModel.errorMessage == "Vorname fehlt")
    filled(viewModel, password: "short")
    viewModel.signUpTapped()
    #expect(viewModel.errorMessage?.hasPrefix("Password is too short") == true)
    filled(viewModel, password: "correct horse!")
    viewModel.signUpTapped()
    #expect(viewModel.errorMessage == "The two passwords do not match")
    scheduler.advance()
    #expect(signedUp.events.isEmpty)
    #expect(throws: ServiceError.self) { try services.signIn(email: "ada@example.com", password: "correct horse") }
  }
}

/// #14 Forms: each field is judged as it is typed (when it is left), in the form's words.
@Suite struct SignUpFormAsTypedTests {
  @Test func eachFieldSaysWhatIsWrongWhenLeft_andClearsWhenFixed() {
    let services = InMemoryServices()
    let viewModel = SignUpViewModel(client: services.client(DispatchQueue.test))
    viewModel.emailChanged("ada@")
    #expect(viewModel.problems.isEmpty)  // still typing
    viewModel.editingEnded(.email)
    #expect(viewModel.problems[.email] == "Invalid email \"ada@\": expected an address like name@example.com")
    viewModel.emailChanged("ada@example.com")
    viewModel.editingEnded(.email)
    #expect(viewModel.problems[.email] == nil)
    viewModel.editingEnded(.firstName)  // empty: nothing said until Sign up
    #expect(viewModel.problems[.firstName] == nil)
    viewModel.lastNameChanged(String(repeating: "a", count: 101))
    viewModel.editingEnded(.lastName)
    #expect(viewModel.problems[.lastName] == "Last name is 101 characters long: use at most 100 characters")
    viewModel.passwordChanged("short")
    viewModel.editingEnded(.password)
    #expect(viewModel.problems[.password]?.hasPrefix("Password is too short (5 characters)") == true)
    viewModel.passwordChanged("correct horse")  // fixed as it is typed
    #expect(viewModel.problems[.password] == nil)
    viewModel.passwordRepeatChanged("correct")  // shorter than the first: not judged yet
    #expect(viewModel.problems[.passwordRepeat] == nil)
    viewModel.passwordRepeatChanged("correct hors!")  // as long as the first: judged
    #expect(viewModel.problems[.passwordRepeat] == "The two passwords do not match")
    viewModel.passwordRepeatChanged("correct horse")
    #expect(viewModel.problems[.passwordRepeat] == nil)
    for problem in viewModel.problems.values { #expect(!problem.contains("--")) }
  }
}

@Suite struct PreferencesViewModelTests {
  @Test func save_checksEveryValueThenSavesAllOrNothing() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let scheduler = DispatchQueue.test
    let viewModel = PreferencesViewModel(client: services.client(scheduler), token: token)
    let saved = viewModel.saved.record()
    viewModel.viewAppeared()
    scheduler.advance()
    #expect(viewModel.preferences == .standard)

    viewModel.currencyChanged("eur")
    viewModel.languageChanged("xx")
    viewModel.saveTapped()
    #expect(viewModel.errorMessage == "Unknown language \"xx\": expected one of en (English), de (German)")
    scheduler.advance()
    #expect(try services.preferences(token: token) == .standard)

    viewModel.languageChanged("de")
    viewModel.appearanceChanged("dark")
    viewModel.homeAirportChanged("fra")
    viewModel.saveTapped()
    scheduler.advance()
    let expected = Preferences(currencyCode: "EUR", language: "de", appearance: .dark, homeAirport: "FRA")
    #expect(viewModel.errorMessage == nil)
    #expect(saved.values == [expected])
    #expect(try services.preferences(token: token) == expected)

    viewModel.homeAirportChanged("")
    viewModel.saveTapped()
    scheduler.advance()
    #expect(viewModel.preferences?.homeAirport == nil)
  }
}

/// #14 Forms: an invalid currency was reported only at Save.
@Suite struct PreferencesFormAsTypedTests {
  @Test func currencyAndAirportJudgedAtThreeLetters_languageWhenLeft() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let viewModel = PreferencesViewModel(client: services.client(DispatchQueue.test), token: token)
    viewModel.currencyChanged("EU")
    #expect(viewModel.problems[.currency] == nil)
    viewModel.currencyChanged("EUX")
    #expect(viewModel.problems[.currency]?.hasPrefix("Unknown currency \"EUX\"") == true)
    viewModel.currencyChanged("EUR")
    #expect(viewModel.problems[.currency] == nil)
    viewModel.homeAirportChanged("QQQ")
    #expect(viewModel.problems[.homeAirport] != nil)
    viewModel.homeAirportChanged("")  // empty: no home airport, which is valid
    #expect(viewModel.problems[.homeAirport] == nil)
    viewModel.languageChanged("x")
    #expect(viewModel.problems[.language] == nil)
    viewModel.editingEnded(.language)
    #expect(viewModel.problems[.language] == "Unknown language \"x\": expected one of en (English), de (German)")
    viewModel.languageChanged("de")
    #expect(viewModel.problems[.language] == nil)
  }
}

@Suite struct PaymentCardsViewModelTests {
  @Test func rows_addDefaultRemove() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let scheduler = DispatchQueue.test
    let viewModel = PaymentCardsViewModel(client: services.client(scheduler), token: token)
    let rows = viewModel.$rows.record()
    viewModel.viewAppeared()
    scheduler.advance()
    viewModel.addCardSubmitted(number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123")
    scheduler.advance()
    viewModel.addCardSubmitted(number: "378282246310005", expiry: "01/31", cvc: "1234")
    scheduler.advance()
    #expect(rows.values.count == 3)  // [], then one card, then two (an unchanged list is not sent again)
    #expect(
      viewModel.rows.map(\.title) == ["Visa •••• 4242", "American Express •••• 0005"])
    #expect(viewModel.rows.map(\.isDefault) == [true, false])
    let amex = viewModel.rows[1].id
    viewModel.makeDefaultTapped(id: amex)
    scheduler.advance()
    #expect(viewModel.rows.first?.id == amex)
    viewModel.removeTapped(id: amex)
    scheduler.advance()
    #expect(viewModel.rows.map(\.title) == ["Visa •••• 4242"])
    #expect(viewModel.rows.first?.isDefault == true)
  }

  @Test(arguments: [
    (
      "4242424242424241", "12/30", "123",
      "Card number is not valid (its last digit does not match the others): check the digits for a typo"
    ),
    ("4242424242424242", "09/24", "123", "Card expired 09/24: use a card that is still valid"),
    ("4242424242424242", "12/30", "1234", "CVC must be 3 digits for Visa"),
  ])
  func addCard_badInput_isExplainedAndNothingIsSent(number: String, expiry: String, cvc: String, message: String)
    throws
  {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let scheduler = DispatchQueue.test
    let viewModel = PaymentCardsViewModel(client: services.client(scheduler), token: token)
    viewModel.addCardSubmitted(number: number, expiry: expiry, cvc: cvc)
    scheduler.advance()
    #expect(viewModel.errorMessage == message)
    #expect(services.receivedNumbers.isEmpty)
  }

  /// QA: a card wrong in every field says so for each field, the message names the first thing to
  /// fix and how many more there are, and a new form starts without the old message.
  @Test func addCard_everyBadFieldIsJudged_andTheMessageDoesNotOutliveTheForm() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let scheduler = DispatchQueue.test
    let viewModel = PaymentCardsViewModel(client: services.client(scheduler), token: token)
    viewModel.addCardSubmitted(number: "4242424242424241", expiry: "13/24", cvc: "12a")
    scheduler.advance()
    #expect(Set(viewModel.problems.keys) == [.number, .expiry, .cvc])
    #expect(
      viewModel.errorMessage
        == "Card number is not valid (its last digit does not match the others): check the digits for a typo (2 more problems: see each field)"
    )
    #expect(viewModel.firstProblem == viewModel.errorMessage)
    #expect(services.receivedNumbers.isEmpty)
    viewModel.formReset()
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.firstProblem == nil)
  }

  /// #14 Forms: the add form is judged as typed — the number once it has its brand's digits, the
  /// expiry at five characters, any field when left.
  @Test func addForm_judgedAsTyped() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let viewModel = PaymentCardsViewModel(client: services.client(DispatchQueue.test), token: token)
    viewModel.numberChanged("424242424242424")
    #expect(viewModel.problems[.number] == nil)  // 15 digits of a Visa: still typing
    viewModel.numberChanged("4242424242424241")
    #expect(
      viewModel.problems[.number]
        == "Card number is not valid (its last digit does not match the others): check the digits for a typo")
    viewModel.numberChanged("4242424242424242")
    #expect(viewModel.problems[.number] == nil)
    viewModel.expiryChanged("09/2")
    #expect(viewModel.problems[.expiry] == nil)
    viewModel.expiryChanged("09/24")
    #expect(viewModel.problems[.expiry] == "Card expired 09/24: use a card that is still valid")
    viewModel.expiryChanged("12/30")
    viewModel.cvcChanged("12")
    viewModel.editingEnded(.cvc)
    #expect(viewModel.problems[.cvc] == "CVC must be 3 digits for Visa")
    viewModel.cvcChanged("123")
    #expect(viewModel.problems[.cvc] == nil)
    viewModel.cvcChanged("1")
    viewModel.editingEnded(.cvc)
    viewModel.formReset()
    #expect(viewModel.problems.isEmpty)
    #expect(services.receivedNumbers.isEmpty)  // nothing sent while typing
  }
}

@Suite struct TripsViewModelTests {
  @Test func trips_newestFirst_cancel_export_andIsolation() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    _ = try services.signUp(email: "bob@example.com", password: "battery staple", firstName: "Bob", lastName: "B")
    let bobs = services.addReservation(
      email: "bob@example.com", summary: "Bob's car", createdAt: Date(timeIntervalSince1970: 1_795_500_000))
    let older = services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
      startsAt: Date(timeIntervalSince1970: 1_797_000_000), endsAt: Date(timeIntervalSince1970: 1_797_020_000))
    let newer = services.addReservation(
      email: "ada@example.com", kind: .hotel, summary: "Hotel", createdAt: Date(timeIntervalSince1970: 1_795_000_000))
    let scheduler = DispatchQueue.test
    let viewModel = TripsViewModel(client: services.client(scheduler), token: token)
    let exports = viewModel.exported.record()

    viewModel.viewAppeared()
    #expect(viewModel.isBusy)
    scheduler.advance()
    #expect(viewModel.trips.map(\.id) == [newer.id, older.id])

    viewModel.tripSelected(id: bobs.id)
    scheduler.advance()
    #expect(viewModel.selected == nil)
    #expect(viewModel.errorMessage?.contains("No reservation") == true)

    viewModel.exportTapped(id: older.id)
    scheduler.advance()
    #expect(exports.values.count == 1)
    #expect(exports.values.first?.calendar.contains("UID:\(older.id)@travel.app\r\n") == true)

    // Cancelling shows the terms first; nothing is cancelled until they are confirmed.
    viewModel.cancelTapped(id: older.id)
    scheduler.advance()
    #expect(viewModel.pendingCancellation?.reservationId == older.id)
    #expect(viewModel.pendingCancellation?.refund == older.total)
    #expect(viewModel.trips.map(\.status) == [.confirmed, .confirmed])
    viewModel.cancelDismissed()
    #expect(viewModel.pendingCancellation == nil)
    viewModel.cancelTapped(id: older.id)
    scheduler.advance()
    viewModel.cancelConfirmed()
    scheduler.advance()
    #expect(viewModel.selected?.status == .cancelled)
    #expect(viewModel.cancelled?.cancellationFee == Money.zero("USD"))
    #expect(viewModel.trips.map(\.status) == [.confirmed, .cancelled])
  }
}

/// A ``LiveUpdates`` the test drives: one subject per topic, and who subscribed with which token.
final class ControlledLiveUpdates: LiveUpdates, @unchecked Sendable {
  private let lock = NSLock()
  private var subjects: [String: PassthroughSubject<TopicEvent, Never>] = [:]
  private(set) var subscriptions: [(topic: String, token: String)] = []
  private(set) var cancellations = 0
  private var sequence: Int64 = 0

  func events(topic: String, token: String) -> AnyPublisher<TopicEvent, Never> {
    let subject = lock.withLock { () -> PassthroughSubject<TopicEvent, Never> in
      subscriptions.append((topic, token))
      if let subject = subjects[topic] { return subject }
      let subject = PassthroughSubject<TopicEvent, Never>()
      subjects[topic] = subject
      return subject
    }
    return subject.handleEvents(receiveCancel: { [weak self] in self?.lock.withLock { self?.cancellations += 1 } })
      .eraseToAnyPublisher()
  }

  var status: AnyPublisher<ConnectionStatus, Never> { Just(.embedded).eraseToAnyPublisher() }

  /// Sends `type` with `{"reservation": reservation}` (or no data) on `topic`, as the store or the server would.
  func send(_ type: String, _ reservation: Reservation?, topic: String = "trips") throws {
    let data: JSONValue =
      try reservation.map {
        try JSONDecoder().decode(JSONValue.self, from: API.makeEncoder().encode(["reservation": $0]))
      } ?? .null
    let (subject, number) = lock.withLock { () -> (PassthroughSubject<TopicEvent, Never>?, Int64) in
      sequence += 1
      return (subjects[topic], sequence)
    }
    subject?.send(TopicEvent(topic: topic, sequence: number, type: type, data: data))
  }
}

@Suite struct TripsLiveTests {
  @Test func bookingsAndCancellationsMadeElsewhere_showWithoutReopening() throws {
    let services = InMemoryServices()
    let token = try services.signedInAda()
    let live = ControlledLiveUpdates()
    var environment = services.accountEnvironment()
    environment.live = live
    let scheduler = DispatchQueue.test
    var viewModel: TripsViewModel? = TripsViewModel(
      client: AccountClient(environment: environment, scheduler: scheduler.eraseToAnyScheduler()), token: token)
    let older = services.addReservation(
      email: "ada@example.com", summary: "SFO → JFK", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    viewModel?.viewAppeared()
    scheduler.advance()
    #expect(viewModel?.trips.map(\.id) == [older.id])
    #expect(live.subscriptions.map(\.topic) == ["trips"] && live.subscriptions.map(\.token) == [token])

    // Another terminal books: its event puts the trip first, no reload asked for.
    let booked = services.addReservation(
      email: "ada@example.com", kind: .hotel, summary: "Hotel Nord",
      createdAt: Date(timeIntervalSince1970: 1_795_000_000))
    try live.send("reservation.booked", booked)
    #expect(viewModel?.trips.map(\.id) == [older.id], "delivered on the client's scheduler")
    scheduler.advance()
    #expect(viewModel?.trips.map(\.id) == [booked.id, older.id])
    #expect(viewModel?.isBusy == false)

    // Another terminal cancels the trip shown: the list and the selection follow.
    viewModel?.tripSelected(id: older.id)
    scheduler.advance()
    let cancelled = try services.cancelReservation(id: older.id, token: token, accepting: nil)
    try live.send("reservation.cancelled", cancelled)
    scheduler.advance()
    #expect(viewModel?.trips.map(\.status) == [.confirmed, .cancelled])
    #expect(viewModel?.selected?.status == .cancelled)

    // An event without a reservation reads the list again.
    let third = services.addReservation(
      email: "ada@example.com", kind: .car, summary: "Car", createdAt: Date(timeIntervalSince1970: 1_796_000_000))
    try live.send("reservation.booked", nil)
    scheduler.advance()
    #expect(viewModel?.trips.map(\.id) == [third.id, booked.id, older.id])

    // Appearing again does not subscribe twice; the screen gone, the subscription ends.
    viewModel?.viewAppeared()
    scheduler.advance()
    #expect(live.subscriptions.count == 1)
    viewModel = nil
    #expect(live.cancellations == 1)
  }
}
