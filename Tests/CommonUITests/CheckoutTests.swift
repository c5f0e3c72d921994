import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import CommonUI

/// ``CheckoutModel`` headless: virtual time for both queues, one recorder per output.
@Suite struct CheckoutModelTests {
  let scheduler = DispatchQueue.test

  func model(_ memory: MemoryBookingAccount) -> CheckoutModel {
    CheckoutModel(
      account: memory.account, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
  }

  @Test func signedOut_thenSignIn_loadsCardsWithTheDefaultSelected() {
    let memory = MemoryBookingAccount()
    let model = model(memory)
    let payer = model.$payer.record()
    let cards = model.$cards.record()
    let selected = model.$selectedCardId.record()
    let signingIn = model.$isSigningIn.record()
    let signedIn = model.signedIn.record()
    model.refresh()
    #expect(payer.values == [.checking])  // nothing read before the background queue runs
    scheduler.run()
    #expect(payer.values == [.checking, .signedOut])
    #expect(!model.isReadyToPay)

    model.signIn(email: " ada@example.com ", password: MemoryBookingAccount.password)
    scheduler.run()
    #expect(signingIn.values == [false, true, false])
    #expect(payer.values.last == .signedIn(name: "Ada Lovelace"))
    #expect(cards.values.last == [.visa, .mastercard])
    #expect(selected.values == [nil, "card_visa"])
    #expect(signedIn.values.count == 1)
    #expect(model.isReadyToPay)
    #expect(model.message == nil)
    #expect(memory.signIns == 1)
  }

  @Test func signIn_wrongPassword_saysSo_andStaysSignedOut() {
    let model = model(MemoryBookingAccount())
    let messages = model.$signInMessage.record()
    let signedIn = model.signedIn.record()
    model.refresh()
    scheduler.run()
    model.signIn(email: "ada@example.com", password: "wrong")
    scheduler.run()
    #expect(messages.values == [nil, nil, "Email or password is wrong: check both and try again."])
    #expect(model.payer == .signedOut)
    #expect(signedIn.values.isEmpty)
    model.signIn(email: "  ", password: "x")
    #expect(messages.values.last == "Type your email and your password.")
    model.signIn(email: "ada@example.com", password: MemoryBookingAccount.password)
    scheduler.run()
    #expect(messages.values.last == .some(nil))
    #expect(signedIn.values.count == 1)
  }

  @Test func signedIn_withoutCards_saysHowToAddOne() {
    let memory = MemoryBookingAccount(signedIn: true, cards: [])
    let model = model(memory)
    let messages = model.$message.record()
    model.refresh()
    scheduler.run()
    #expect(model.payer == .signedIn(name: "Ada Lovelace"))
    #expect(model.selectedCardId == nil)
    #expect(!model.isReadyToPay)
    #expect(messages.values == [nil, CheckoutModel.noCardMessage])
    // #14: the app's words, never a shell command.
    #expect(CheckoutModel.noCardMessage.contains("press a"))
    #expect(!CheckoutModel.noCardMessage.contains("shell") && !CheckoutModel.noCardMessage.contains("'"))
    memory.setCards([.visa])
    model.refresh()
    scheduler.run()
    #expect(messages.values.last == .some(nil))
    #expect(model.selectedCardId == "card_visa")
  }

  @Test func cards_cycleBothWays_andAChoiceSurvivesARefresh() {
    let memory = MemoryBookingAccount(signedIn: true)
    let model = model(memory)
    let selected = model.$selectedCardId.record()
    model.refresh()
    scheduler.run()
    model.nextCardTapped()
    model.nextCardTapped()
    model.previousCardTapped()
    #expect(selected.values == [nil, "card_visa", "card_mc", "card_visa", "card_mc"])
    model.refresh()
    scheduler.run()
    #expect(model.selectedCardId == "card_mc")
    model.cardSelected("card_visa")
    model.cardSelected("card_unknown")
    #expect(model.selectedCardId == "card_visa")
  }

  @Test func endedSession_isSignedOut_withAMessage() {
    let memory = MemoryBookingAccount(signedIn: true)
    let model = model(memory)
    model.refresh()
    scheduler.run()
    memory.endSession()
    model.refresh()
    scheduler.run()
    #expect(model.payer == .signedOut)
    #expect(model.cards.isEmpty)
    #expect(model.selectedCardId == nil)
    #expect(model.message == "Your session has ended: sign in again.")
  }

  @Test func unavailableAccount_isSignedOut_andSignInSaysWhy() {
    let model = CheckoutModel(
      account: .unavailable, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
    model.refresh()
    scheduler.run()
    #expect(model.payer == .signedOut)
    model.signIn(email: "ada@example.com", password: "x")
    scheduler.run()
    #expect(model.signInMessage == "Signing in is not available here")
  }
}

/// The checkout widget and the sign-in sheet, as text.
@MainActor
@Suite struct CheckoutSnapshotTests {
  let scheduler = DispatchQueue.test
  let backend = TestBackend(width: 80, height: 24)

  func section(_ memory: MemoryBookingAccount) -> CheckoutSection {
    let section = CheckoutSection(
      account: memory.account, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
    scheduler.run()
    return section
  }

  @Test func widget_signedInWithTwoCards_signedOut_noCard() throws {
    let two = CheckoutView(
      payer: .signedIn(name: "Ada Lovelace"), cards: [.visa, .mastercard], selectedCardId: "card_visa", message: nil,
      focused: true)
    try assertSnapshot(of: two, width: 64, height: 3, named: "checkout-two-cards")
    let out = CheckoutView(payer: .signedOut, cards: [], selectedCardId: nil, message: nil, focused: true)
    try assertSnapshot(of: out, width: 64, height: 3, named: "checkout-signed-out")
    let none = CheckoutView(
      payer: .signedIn(name: nil), cards: [], selectedCardId: nil, message: CheckoutModel.noCardMessage)
    try assertSnapshot(of: none, width: 64, height: 3, named: "checkout-no-card")
  }

  @Test func section_keysCycleCards_andSignedOutBookPushesTheSheet() {
    let signedIn = section(MemoryBookingAccount(signedIn: true))
    #expect(signedIn.isReadyToBook())
    #expect(signedIn.handle(.right) == .handled)
    #expect(signedIn.selectedCardId == "card_mc")
    #expect(signedIn.handle(.character("s")) == .ignored)
    #expect(signedIn.handle(.enter) == .ignored)

    let signedOut = section(MemoryBookingAccount())
    let pushes = signedOut.navigation.record()
    #expect(!signedOut.isReadyToBook())
    #expect(signedOut.handle(.character("s")) == .handled)
    #expect(pushes.values.count == 2)
    if case .push(let screen) = pushes.values.first {
      #expect(screen is SignInSheetScreen)
    } else {
      Issue.record("expected the sign-in sheet")
    }
  }

  /// A booking failure stays until its cause is gone — not until the next Book.
  @Test func bookingFailure_clearedWithItsCause() {
    // A session failure: gone once signed in again (not by a refresh that finds nobody).
    let memory = MemoryBookingAccount(signedIn: true)
    let session = section(memory)
    let changes = session.changes.record()
    memory.signOut()
    session.bookingFailed(.notSignedIn)
    #expect(session.bookingFailureCode == "not_signed_in")
    #expect(session.bookingFailure?.hasPrefix("You are signed out") == true)
    session.model.refresh()
    scheduler.run()
    #expect(session.model.payer == .signedOut)
    #expect(session.bookingFailure != nil)
    session.model.signIn(email: MemoryBookingAccount.email, password: MemoryBookingAccount.password)
    scheduler.run()
    #expect(session.bookingFailure == nil)
    #expect(changes.values.count >= 3)  // failure shown, … , cleared: each redraws

    // A card failure: gone when another card is chosen (→), kept by other keys and refreshes.
    let cards = section(MemoryBookingAccount(signedIn: true))
    cards.bookingFailed(.refused("card_declined", "the card Visa •••• 4242 was declined"))
    _ = cards.handle(.character("r"))
    scheduler.run()
    #expect(cards.bookingFailure?.hasPrefix("The card Visa •••• 4242 was declined") == true)
    cards.bookingFailed(.notSignedIn)  // a session failure is not cleared by a card
    _ = cards.handle(.right)
    #expect(cards.bookingFailure != nil)
    cards.bookingFailed(.refused("card_expired", "the card Mastercard •••• 4444 has expired"))
    _ = cards.handle(.left)
    #expect(cards.selectedCardId == "card_visa")
    #expect(cards.bookingFailure == nil)

    // No card: gone when a card turns up (`r` after adding one); other failures stay.
    let empty = MemoryBookingAccount(signedIn: true, cards: [])
    let none = section(empty)
    none.bookingFailed(.refused("no_payment_card", "no payment card"))
    empty.setCards([.visa])
    _ = none.handle(.character("r"))
    scheduler.run()
    #expect(none.bookingFailure == nil)
    none.bookingFailed(.refused("sold_out", "sold out"))
    _ = none.handle(.character("r"))
    scheduler.run()
    #expect(none.bookingFailure == "Sold out")
    none.bookingFailed(nil)  // a new attempt
    #expect(none.bookingFailure == nil)
  }

  /// The QA bug: the default card •••• 0002 declined, 4242 added and made the default, `r`: the
  /// new default is selected, not the declined card (which still exists, no longer the default).
  @Test func declinedCard_refreshSelectsTheNewDefault() {
    func card(_ last4: String, isDefault: Bool) -> PaymentCard {
      PaymentCard(
        id: "card_\(last4)", brand: "visa", last4: last4, expiryMonth: 3, expiryYear: 2029, isDefault: isDefault)
    }
    let memory = MemoryBookingAccount(signedIn: true, cards: [card("0002", isDefault: true)])
    let checkout = section(memory)
    scheduler.run()
    #expect(checkout.selectedCardId == "card_0002")
    checkout.bookingFailed(.refused("card_declined", "the card Visa •••• 0002 was declined"))
    memory.setCards([card("4242", isDefault: true), card("0002", isDefault: false)])
    _ = checkout.handle(.character("r"))
    scheduler.run()
    #expect(checkout.selectedCardId == "card_4242")

    // #14 (QA 8): chosen with ← → and then declined: the traveller's choice stays (the failure
    // says to choose another card; nothing switches it behind their back), through a refresh too.
    _ = checkout.handle(.right)
    #expect(checkout.selectedCardId == "card_0002")
    checkout.bookingFailed(.refused("card_declined", "the card Visa •••• 0002 was declined"))
    _ = checkout.handle(.character("r"))
    scheduler.run()
    #expect(checkout.selectedCardId == "card_0002")
    #expect(checkout.bookingFailure?.contains("declined") == true)

    // Chosen with ← →, not declined: kept by a refresh.
    _ = checkout.handle(.character("r"))
    scheduler.run()
    #expect(checkout.selectedCardId == "card_0002")

    // Not chosen (the default a load picked): a new default is picked up by the next refresh.
    let other = MemoryBookingAccount(signedIn: true)
    let plain = section(other)
    scheduler.run()
    #expect(plain.selectedCardId == "card_visa")
    other.setCards([card("4444", isDefault: true), card("4242", isDefault: false)])
    _ = plain.handle(.character("r"))
    scheduler.run()
    #expect(plain.selectedCardId == "card_4444")
  }

  /// Over a booking screen in the shell: Book signed out → the sheet; a wrong password → the
  /// message; the right one → the sheet pops and the booking shows the card.
  @Test func signInSheet_wrongPasswordThenSignedIn_backToTheBooking() throws {
    let memory = MemoryBookingAccount()
    let booking = FakeBookingScreen(section: section(memory))
    let app = InteractiveApp(
      name: "hotel", tabs: [AppTab("Hotels", root: booking)], backend: backend, schedule: { $0() })
    app.handle(.enter)  // Book
    #expect(app.currentScreen is SignInSheetScreen)
    for character in MemoryBookingAccount.email { app.handle(.character(character)) }
    app.handle(.enter)
    for character in "wrong" { app.handle(.character(character)) }
    app.handle(.enter)
    scheduler.run()
    app.displayNow()
    try assertSnapshot(backend.text, named: "sign-in-sheet-wrong-password")
    for _ in 0..<5 { app.handle(.backspace) }
    for character in MemoryBookingAccount.password { app.handle(.character(character)) }
    app.handle(.enter)
    scheduler.run()
    #expect(app.currentScreen === booking)
    app.displayNow()
    try assertSnapshot(backend.text, named: "booking-after-sign-in")
  }
}

extension CheckoutSnapshotTests {
  /// #14: a first-time traveller books without leaving the booking: Book → the sign-in sheet,
  /// Ctrl-N → a new account (made and signed in), Book → the add-card sheet (a typo caught as typed),
  /// the card added and chosen → Book charges it. No message sends them to a shell.
  @Test func newTraveller_createsAnAccountAndAddsACard_inTheBooking() throws {
    let memory = MemoryBookingAccount()
    let booking = FakeBookingScreen(section: section(memory))
    let app = InteractiveApp(
      name: "hotel", tabs: [AppTab("Hotels", root: booking)], backend: backend, schedule: { $0() })
    func type(_ text: String) { for character in text { app.handle(.character(character)) } }
    app.handle(.enter)  // Book, signed out
    let sheet = try #require(app.currentScreen as? SignInSheetScreen)
    app.displayNow()
    #expect(!backend.text.contains("shell"))
    #expect(backend.text.contains("Ctrl-N"))
    app.handle(.control("n"))
    #expect(sheet.newAccount != nil)
    type("Grace")
    app.handle(.enter)
    type("Hopper")
    app.handle(.enter)
    type("grace@example.com")
    app.handle(.enter)
    type("short")
    app.handle(.enter)  // the service refuses a short password; the sheet stays
    scheduler.run()
    app.displayNow()
    #expect(app.currentScreen === sheet)
    #expect(backend.text.contains("at least 10 characters"))
    for _ in 0..<5 { app.handle(.backspace) }
    type("a long passphrase")
    app.displayNow()
    try assertSnapshot(backend.text, named: "sign-in-sheet-new-account")
    app.handle(.enter)
    scheduler.run()
    #expect(memory.signUps == 1)
    #expect(app.currentScreen === booking)
    #expect(booking.section.model.payer == .signedIn(name: "Ada Lovelace"))
    #expect(booking.section.keyHints.contains(KeyHint("a", "add card")))

    app.handle(.enter)  // Book, no card yet: the add-card sheet
    #expect(booking.booked.isEmpty)
    #expect(app.currentScreen is AddCardSheetScreen)
    type("4242424242424241")  // one digit wrong: judged as soon as it is complete
    app.displayNow()
    #expect(backend.text.contains("4242 4242 4242 4241"))
    #expect(backend.text.contains("Card number is not valid"))
    try assertSnapshot(backend.text, named: "add-card-sheet-typo")
    app.handle(.backspace)
    type("2")
    app.handle(.enter)
    type("12/30")
    app.handle(.enter)
    type("123")
    app.handle(.enter)
    scheduler.run()
    #expect(app.currentScreen === booking)
    #expect(booking.section.selectedCardId == "card_1")
    app.handle(.enter)  // Book
    #expect(booking.booked == ["card_1"])
  }

  /// #14: "The card was declined" is about the card charged then: signing out and in (maybe as
  /// someone else, with other cards) does not keep it under Book.
  @Test func declinedMessage_goesWithSigningOutAndIn() {
    let memory = MemoryBookingAccount(signedIn: true)
    let checkout = section(memory)
    checkout.bookingFailed(.refused("card_declined", "the card Visa •••• 4242 was declined"))
    #expect(checkout.bookingFailure != nil)
    memory.signOut()
    checkout.model.refresh()
    scheduler.run()
    #expect(checkout.model.payer == .signedOut)
    #expect(checkout.bookingFailure == nil)
    checkout.bookingFailed(.refused("card_declined", "the card Visa •••• 4242 was declined"))
    checkout.model.signIn(email: MemoryBookingAccount.email, password: MemoryBookingAccount.password)
    scheduler.run()
    #expect(checkout.bookingFailure == nil)
  }

  /// Signed in elsewhere while the booking showed "Not signed in": Book opens the sheet, which
  /// closes itself as soon as the session is read, back to the booking with the cards.
  @Test func signedInElsewhere_theSheetClosesByItself() {
    let memory = MemoryBookingAccount()
    let booking = FakeBookingScreen(section: section(memory))
    let app = InteractiveApp(
      name: "hotel", tabs: [AppTab("Hotels", root: booking)], backend: backend, schedule: { $0() })
    #expect(booking.section.model.payer == .signedOut)
    memory.signInElsewhere()
    app.handle(.enter)
    #expect(app.currentScreen is SignInSheetScreen)
    scheduler.run()
    #expect(app.currentScreen === booking)
    #expect(app.currentStack.count == 1)
    #expect(booking.section.selectedCardId == "card_visa")
    app.handle(.enter)
    #expect(booking.booked == ["card_visa"])
  }
}

/// The smallest booking screen: a title, the checkout, Enter books when ready.
@MainActor
final class FakeBookingScreen: Screen {
  let title = "Book"
  let section: CheckoutSection
  private(set) var booked: [String] = []

  init(section: CheckoutSection) {
    self.section = section
    section.host = self
  }

  var changes: AnyPublisher<Void, Never> { section.changes }
  var navigation: AnyPublisher<Navigation, Never> { section.navigation }

  func render(in area: Rect, into buffer: inout Buffer) {
    Label("Hôtel Lumière · Double · 2026-12-20 → 2026-12-23").render(in: area.row(0), into: &buffer)
    section.render(
      in: Rect(x: area.x, y: area.y + 2, width: area.width, height: CheckoutView.height), focused: true, into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    if section.handle(key) == .handled { return .handled }
    guard key == .enter else { return .ignored }
    if section.isReadyToBook(), let card = section.selectedCardId { booked.append(card) }
    return .handled
  }
}

/// The checkout observes the app's one session (#14 "one truth"): nothing is re-read by hand.
@MainActor
@Suite struct CheckoutObservesTheSessionTests {
  let scheduler = DispatchQueue.test
  let watch = DispatchQueue.test

  func session(_ memory: MemoryBookingAccount) -> AccountSession {
    AccountSession(
      account: memory.account, mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler(),
      watchQueue: watch.eraseToAnyScheduler())
  }

  func poll() {
    watch.advance(by: AccountSession.pollInterval)
    scheduler.run()
  }

  /// Two booking screens open on one session: a card added elsewhere (the Account tab, a shell) is
  /// offered by both after one poll, without `r`; removing the chosen one falls back to the default.
  @Test func cardAddedElsewhere_isOfferedAtOnceByEveryOpenCheckout() throws {
    let memory = MemoryBookingAccount(signedIn: true, cards: [])
    let session = session(memory)
    let hotel = CheckoutSection(session: session)
    let car = CheckoutSection(session: session)
    scheduler.run()
    #expect(hotel.model.message == CheckoutModel.noCardMessage)
    #expect(!hotel.model.message!.contains("press r"))
    #expect(!hotel.keyHints.contains { $0.keys == "r" })
    memory.setCards([.visa])
    poll()
    for section in [hotel, car] {
      #expect(section.selectedCardId == "card_visa")
      #expect(section.model.message == nil)
      #expect(section.isReadyToBook())
    }
    memory.setCards([.visa, .mastercard])
    poll()
    _ = car.handle(.right)
    #expect(car.selectedCardId == "card_mc")
    #expect(hotel.selectedCardId == "card_visa")  // each screen keeps its own choice
    memory.setCards([.visa])  // the chosen card removed elsewhere
    poll()
    #expect(car.selectedCardId == "card_visa")
    // #14: the traveller is told which card is charged now; the other screen had not chosen.
    let visa = try #require(car.model.cards.first)
    #expect(car.model.message == CheckoutModel.defaultCardMessage(visa))
    #expect(car.model.message?.contains("Visa •••• 4242") == true)
    #expect(hotel.model.message == nil)
    poll()  // an unchanged answer keeps the note
    #expect(car.model.message == CheckoutModel.defaultCardMessage(visa))
    memory.setCards([.visa, .mastercard])
    poll()
    _ = car.handle(.right)  // a choice again: the note goes
    #expect(car.model.message == nil)
  }

  /// Signed in from one booking's sheet: every other checkout of the session is signed in too,
  /// and a sign-out in another process signs them all out within one poll.
  @Test func signInFromOneSheet_showsEverywhere_andSignOutElsewhereToo() {
    let memory = MemoryBookingAccount(signedIn: false)
    let session = session(memory)
    let flight = CheckoutModel(session: session)
    let hotel = CheckoutModel(session: session)
    scheduler.run()
    #expect(hotel.payer == .signedOut)
    flight.signIn(email: MemoryBookingAccount.email, password: MemoryBookingAccount.password)
    scheduler.run()
    #expect(hotel.payer == .signedIn(name: "Ada Lovelace"))
    #expect(hotel.selectedCardId == "card_visa")
    memory.signOut()
    poll()
    #expect(flight.payer == .signedOut)
    #expect(hotel.payer == .signedOut)
  }
}
