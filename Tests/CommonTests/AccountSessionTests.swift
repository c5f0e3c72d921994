import Common
import CommonTesting
import Foundation
import Reactive
import Testing

/// ``AccountSession`` headless: one `DispatchQueue.test` for the main and work queues, another for
/// the polls (so `run()` on the first ends), one recorder on the state.
@Suite struct AccountSessionTests {
  let scheduler = DispatchQueue.test
  let watch = DispatchQueue.test

  func session(_ memory: MemoryBookingAccount, polling: Bool = true) -> AccountSession {
    AccountSession(
      account: memory.account, mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler(),
      watchQueue: polling ? watch.eraseToAnyScheduler() : nil)
  }

  /// One poll: the watch ticks, then the state it read reaches the main queue.
  func poll() {
    watch.advance(by: AccountSession.pollInterval)
    scheduler.run()
  }

  @Test func firstRead_signedInWithProfilePreferencesAndCards_defaultFirst() {
    let memory = MemoryBookingAccount(
      signedIn: true, cards: [.mastercard, .visa], currency: "EUR", homeAirport: "FRA")
    let session = session(memory)
    let states = session.state.record()
    #expect(states.values == [.checking])
    scheduler.run()
    let traveller = session.current.traveller
    #expect(traveller?.token == MemoryBookingAccount.token)
    #expect(traveller?.name == "Ada Lovelace")
    #expect(traveller?.preferences?.currencyCode == "EUR")
    #expect(traveller?.preferences?.homeAirport == "FRA")
    #expect(traveller?.cards == [.visa, .mastercard])
    #expect(states.values.count == 2)
  }

  /// Another process signs in, adds a card, signs out: each shows within one poll, and a poll
  /// that finds nothing changed reads nothing and sends nothing.
  @Test func changesMadeElsewhere_showWithinOnePoll_andOnlyThen() {
    let memory = MemoryBookingAccount(signedIn: false)
    let session = session(memory)
    let states = session.state.record()
    let greetings = session.greeting.record()
    scheduler.run()
    #expect(session.current == .signedOut(reason: nil))

    memory.signInElsewhere()  // `account login` in another shell
    poll()
    #expect(session.current.token == MemoryBookingAccount.token)
    #expect(greetings.values == [nil, "Welcome, Ada Lovelace"])

    let before = states.values.count
    poll()
    poll()
    #expect(states.values.count == before)  // nothing changed: nothing read, nothing sent

    let amex = PaymentCard(
      id: "card_amex", brand: "amex", last4: "0005", expiryMonth: 1, expiryYear: 2031, isDefault: false)
    memory.setCards([.visa, .mastercard, amex])  // `account cards add` in another shell
    poll()
    #expect(session.current.traveller?.cards.map(\.id) == ["card_visa", "card_mc", "card_amex"])

    memory.signOut()  // `account logout` in another shell
    poll()
    #expect(session.current == .signedOut(reason: nil))
    #expect(greetings.values.last == .some(nil))
  }

  @Test func signIn_showsTheStateBeforeItsValue_andSignOutEndsTheSessionThroughTheAccount() {
    let memory = MemoryBookingAccount(signedIn: false)
    let session = session(memory, polling: false)
    scheduler.run()
    var stateWhenSignedIn: AccountState?
    let signedIn = session.signIn(email: MemoryBookingAccount.email, password: MemoryBookingAccount.password)
      .sink(receiveCompletion: { _ in }, receiveValue: { _ in stateWhenSignedIn = session.current })
    scheduler.run()
    #expect(stateWhenSignedIn?.token == MemoryBookingAccount.token)
    signedIn.cancel()

    var failure: ServiceError?
    let wrong = session.signIn(email: MemoryBookingAccount.email, password: "wrong")
      .sink(
        receiveCompletion: { if case .failure(let error) = $0 { failure = error } }, receiveValue: { _ in })
    scheduler.run()
    #expect(failure?.code == "invalid_credentials")
    #expect(session.current.token == MemoryBookingAccount.token)  // a failed sign-in changes nothing
    wrong.cancel()

    session.signOut()
    scheduler.run()
    #expect(session.current == .signedOut(reason: nil))
    #expect(memory.signOuts == 1)
  }

  @Test func endedSession_isSignedOutWithTheReason() {
    let memory = MemoryBookingAccount(signedIn: true)
    let session = session(memory)
    scheduler.run()
    memory.endSession()
    poll()
    #expect(session.current == .signedOut(reason: AccountSession.endedReason))
  }

  /// Two reads in flight: the older answer never replaces the newer one.
  @Test func anOlderAnswerNeverReplacesANewerOne() {
    let memory = MemoryBookingAccount(signedIn: true)
    let session = session(memory, polling: false)
    scheduler.run()
    session.refresh()  // reads: signed in
    memory.signOut()
    session.refresh()  // reads: signed out
    scheduler.run()
    #expect(session.current == .signedOut(reason: nil))
  }
}

/// The live account's revision: the session file's stamp changes with each write and removal.
@Suite struct SessionFileStampTests {
  @Test func stamp_changesWithEveryWriteAndRemoval() throws {
    let directory = TemporaryDirectory(prefix: "session-stamp")
    let file = SessionFile(dataDirectory: directory.url)
    #expect(file.stamp() == "absent")
    try file.write("token-1")
    let first = file.stamp()
    try file.write("token-1")  // the same token again, within the same clock tick: a new file
    let second = file.stamp()
    #expect(first != "absent" && second != first)
    try file.delete()
    #expect(file.stamp() == "absent")
  }
}
