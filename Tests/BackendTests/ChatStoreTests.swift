import CommonTesting
import Foundation
import Reactive
import Testing

@testable import Backend
@testable import Common

/// The chat with the agency in the store: the traveller's and the agents' operations, the role
/// apart, isolation, taking as a transaction, and changes seen by other connections.
@Suite struct ChatStoreTests {
  static let agentPassword = "agent password 1"

  /// A backend with one traveller (Ada) and one agent (Grace), both signed in.
  struct Fixture {
    let backend: TestBackend
    let traveller: String
    let agent: String
    var chat: ChatStore { backend.services.chat }
    var console: any AgentConsoleService { backend.services.agentConsoleService }

    init() throws {
      backend = try TestBackend()
      traveller = try backend.signedIn()
      try backend.services.agents.add(
        email: "grace@agency.example", name: "Grace Hopper", password: ChatStoreTests.agentPassword)
      agent = try backend.services.agents.signIn(email: "grace@agency.example", password: ChatStoreTests.agentPassword)
        .token
    }

    func secondAgent(_ email: String = "alan@agency.example") throws -> String {
      try backend.services.agents.add(email: email, name: nil, password: ChatStoreTests.agentPassword)
      return try backend.services.agents.signIn(email: email, password: ChatStoreTests.agentPassword).token
    }
  }

  @Test func aFirstMessageStartsAConversationInTheQueue() throws {
    let f = try Fixture()
    #expect(try f.chat.currentThread(token: f.traveller) == nil)
    let message = try f.chat.send("  Can I change my flight?  ", trip: nil, clientID: nil, token: f.traveller)
    #expect(message.text == "Can I change my flight?")
    #expect(message.sequence == 1)
    #expect(message.sender == .traveller)
    #expect(message.senderName == "Ada Lovelace")
    #expect(message.state == .sent)
    let queue = try f.console.queue(token: f.agent)
    #expect(queue.map(\.id) == [message.conversationID])
    #expect(queue[0].unread == 1)
    #expect(queue[0].agentName == nil)
    #expect(queue[0].waitingSince == message.sentAt)
    #expect(queue[0].travellerName == "Ada Lovelace")
    let second = try f.chat.send("Thanks", trip: nil, clientID: nil, token: f.traveller)
    #expect(second.conversationID == message.conversationID)
    #expect(second.sequence == 2)
  }

  @Test func textIsCheckedLikeNames() throws {
    let f = try Fixture()
    #expect(
      errorCode { _ = try f.chat.send("hello\u{1B}[2J", trip: nil, clientID: nil, token: f.traveller) }
        == "invalid_message")
    #expect(
      errorCode { _ = try f.chat.send("two\nlines", trip: nil, clientID: nil, token: f.traveller) } == "invalid_message"
    )
    #expect(errorCode { _ = try f.chat.send("   ", trip: nil, clientID: nil, token: f.traveller) } == "message_empty")
    let long = String(repeating: "é", count: ChatRules.maximumMessageLength + 1)
    #expect(errorCode { _ = try f.chat.send(long, trip: nil, clientID: nil, token: f.traveller) } == "message_too_long")
    let longest = String(repeating: "é", count: ChatRules.maximumMessageLength)
    #expect(try f.chat.send(longest, trip: nil, clientID: nil, token: f.traveller).text == longest)
    #expect(
      errorCode { _ = try f.chat.send("hi", trip: nil, clientID: "has space", token: f.traveller) }
        == "invalid_client_id")
    // Nothing half-written: only the valid message is there.
    #expect(try f.chat.currentThread(token: f.traveller)?.messages.count == 1)
  }

  @Test func aClientIDMakesSendingIdempotent() throws {
    let f = try Fixture()
    let first = try f.chat.send("Once", trip: nil, clientID: "q-1", token: f.traveller)
    let again = try f.chat.send("Once", trip: nil, clientID: "q-1", token: f.traveller)
    #expect(first == again)
    #expect(try f.chat.currentThread(token: f.traveller)?.messages.count == 1)
  }

  @Test func aTripIsAttachedOnlyWhenItIsTheTravellers() throws {
    let f = try Fixture()
    try f.backend.addCard(token: f.traveller)
    try ToyInventory.install(f.backend.services, units: 2)
    let reservation = try f.backend.services.ledger.book(
      BookingRequest(token: f.traveller, kind: .car, total: Money(amount: 42, currency: "USD"), summary: "Toy car"),
      take: ToyInventory.take())
    let message = try f.chat.send("About this car", trip: reservation.id, clientID: nil, token: f.traveller)
    #expect(message.trip?.reservationID == reservation.id)
    #expect(message.trip?.summary == "Toy car")
    #expect(try f.console.queue(token: f.agent).first?.trip?.reservationID == reservation.id)

    let other = try f.backend.signedIn("bob@example.com")
    #expect(
      errorCode { _ = try f.chat.send("Mine?", trip: reservation.id, clientID: nil, token: other) }
        == "reservation_not_found")
    #expect(try f.chat.currentThread(token: other) == nil)
  }

  @Test func agentsAreARoleApart() throws {
    let f = try Fixture()
    // An agent's token is nobody's account: it cannot book, pay, list cards or trips, or chat as a traveller.
    #expect(errorCode { _ = try f.backend.services.accounts.profile(token: f.agent) } == "not_signed_in")
    #expect(errorCode { _ = try f.backend.services.cards.cards(token: f.agent) } == "not_signed_in")
    #expect(errorCode { try f.backend.addCard(token: f.agent) } == "not_signed_in")
    #expect(errorCode { _ = try f.backend.services.ledger.reservations(token: f.agent) } == "not_signed_in")
    try ToyInventory.install(f.backend.services, units: 1)
    #expect(
      errorCode {
        _ = try f.backend.services.ledger.book(
          BookingRequest(token: f.agent, kind: .car, total: Money(amount: 1, currency: "USD"), summary: "x"),
          take: ToyInventory.take())
      } == "not_signed_in")
    #expect(errorCode { _ = try f.chat.send("hi", trip: nil, clientID: nil, token: f.agent) } == "not_signed_in")
    // A traveller's token is never an agent's.
    #expect(errorCode { _ = try f.console.queue(token: f.traveller) } == "not_signed_in")
    #expect(errorCode { _ = try f.console.take(conversationID: 1, token: f.traveller) } == "not_signed_in")
    // Agents sign in with their own password only.
    #expect(
      errorCode { _ = try f.console.signIn(email: "grace@agency.example", password: "wrong password") }
        == "invalid_credentials")
    #expect(
      errorCode { _ = try f.console.signIn(email: "ada@example.com", password: "correct horse battery") }
        == "invalid_credentials")
    #expect(
      errorCode { try f.backend.services.agents.add(email: "grace@agency.example", name: nil, password: "0123456789") }
        == "agent_exists")
    #expect(
      errorCode { try f.backend.services.agents.add(email: "x@agency.example", name: nil, password: "short") }
        == "password_too_short")
    #expect(try f.console.agent(token: f.agent) == AgentProfile(email: "grace@agency.example", name: "Grace Hopper"))
    try f.console.signOut(token: f.agent)
    #expect(errorCode { _ = try f.console.queue(token: f.agent) } == "not_signed_in")
  }

  @Test func takeReplyCloseAndTheMarks() throws {
    let f = try Fixture()
    let first = try f.chat.send("Hello", trip: nil, clientID: nil, token: f.traveller)
    let id = first.conversationID
    #expect(
      errorCode { _ = try f.console.reply(conversationID: id, text: "Hi", clientID: nil, token: f.agent) }
        == "not_your_conversation")
    let taken = try f.console.take(conversationID: id, token: f.agent)
    #expect(taken.heldByMe)
    #expect(taken.agentName == "Grace Hopper")
    #expect(try f.console.take(conversationID: id, token: f.agent).heldByMe)
    let other = try f.secondAgent()
    #expect(errorCode { _ = try f.console.take(conversationID: id, token: other) } == "conversation_taken")
    #expect(
      errorCode { _ = try f.console.reply(conversationID: id, text: "Me too", clientID: nil, token: other) }
        == "conversation_taken")
    #expect(errorCode { _ = try f.console.trips(conversationID: id, token: other) } == "conversation_taken")

    // The agent reads: the traveller's message becomes read.
    try f.console.acknowledge(conversationID: id, through: 1, read: true, token: f.agent)
    #expect(try f.chat.currentThread(token: f.traveller)?.messages[0].state == .read)
    let reply = try f.console.reply(
      conversationID: id, text: "Hello Ada, how can I help?", clientID: nil, token: f.agent)
    #expect(reply.senderName == "Grace Hopper")
    #expect(try f.chat.unreadCount(token: f.traveller) == 1)
    try f.chat.acknowledge(conversationID: id, through: reply.sequence, read: false, token: f.traveller)
    #expect(try f.console.thread(conversationID: id, token: f.agent).messages.last?.state == .delivered)
    try f.chat.acknowledge(conversationID: id, through: reply.sequence, read: true, token: f.traveller)
    #expect(try f.console.thread(conversationID: id, token: f.agent).messages.last?.state == .read)
    #expect(try f.chat.unreadCount(token: f.traveller) == 0)
    #expect(try f.console.queue(token: f.agent).first?.waitingSince == nil)

    #expect(errorCode { _ = try f.console.close(conversationID: id, token: other) } == "conversation_taken")
    let closed = try f.console.close(conversationID: id, token: f.agent)
    #expect(closed.status == .closed)
    #expect(try f.console.queue(token: f.agent).isEmpty)
    #expect(
      errorCode { _ = try f.console.reply(conversationID: id, text: "Bye", clientID: nil, token: f.agent) }
        == "conversation_closed")
    #expect(try f.chat.currentThread(token: f.traveller)?.conversation.status == .closed)
    let next = try f.chat.send("One more thing", trip: nil, clientID: nil, token: f.traveller)
    #expect(next.conversationID != id)
    #expect(next.sequence == 1)
  }

  @Test func travellersSeeOnlyTheirOwnConversations() throws {
    let f = try Fixture()
    let ada = try f.chat.send("Ada's question", trip: nil, clientID: nil, token: f.traveller)
    let bob = try f.backend.signedIn("bob@example.com")
    #expect(try f.chat.currentThread(token: bob) == nil)
    #expect(
      errorCode { try f.chat.acknowledge(conversationID: ada.conversationID, through: 1, read: true, token: bob) }
        == "conversation_not_found")
    #expect(
      errorCode { try f.chat.acknowledge(conversationID: 999, through: 1, read: true, token: bob) }
        == "conversation_not_found")
    let bobs = try f.chat.send("Bob's question", trip: nil, clientID: nil, token: bob)
    #expect(bobs.conversationID != ada.conversationID)
    #expect(try f.chat.currentThread(token: f.traveller)?.messages.map(\.text) == ["Ada's question"])
  }

  @Test func theQueueShowsTheLongestWaitingFirst() throws {
    let f = try Fixture()
    let ada = try f.chat.send("First", trip: nil, clientID: nil, token: f.traveller)
    f.backend.advance(60)
    let bob = try f.backend.signedIn("bob@example.com")
    let bobs = try f.chat.send("Second", trip: nil, clientID: nil, token: bob)
    f.backend.advance(60)
    _ = try f.chat.send("Third", trip: nil, clientID: nil, token: bob)
    #expect(try f.console.queue(token: f.agent).map(\.id) == [ada.conversationID, bobs.conversationID])
    #expect(try f.console.queue(token: f.agent).map(\.unread) == [1, 2])
    // Once Ada is answered, Bob waits longest.
    _ = try f.console.take(conversationID: ada.conversationID, token: f.agent)
    _ = try f.console.reply(conversationID: ada.conversationID, text: "Hi", clientID: nil, token: f.agent)
    #expect(try f.console.queue(token: f.agent).map(\.id) == [bobs.conversationID, ada.conversationID])
  }

  @Test func theAgentReadsTheTravellersTripsWhileHoldingTheConversation() throws {
    let f = try Fixture()
    try f.backend.addCard(token: f.traveller)
    try ToyInventory.install(f.backend.services, units: 1)
    let reservation = try f.backend.services.ledger.book(
      BookingRequest(token: f.traveller, kind: .car, total: Money(amount: 42, currency: "USD"), summary: "Toy car"),
      take: ToyInventory.take())
    let id = try f.chat.send("Help", trip: nil, clientID: nil, token: f.traveller).conversationID
    #expect(errorCode { _ = try f.console.trips(conversationID: id, token: f.agent) } == "not_your_conversation")
    _ = try f.console.take(conversationID: id, token: f.agent)
    #expect(try f.console.trips(conversationID: id, token: f.agent).map(\.id) == [reservation.id])
  }

  /// 8 agents, each on its own connection (as separate processes would be), race to take 100
  /// conversations, each trying all of them in its own order: each is taken exactly once.
  @Test(.timeLimit(.minutes(1))) func eightAgentsRacingTakeEachConversationOnce() throws {
    let f = try Fixture()
    var ids: [Int64] = []
    for index in 0..<100 {
      let email = "t\(index)@example.com"
      _ = try f.backend.services.accounts.signUp(
        email: email, password: "correct horse battery", firstName: "T", lastName: "\(index)")
      let token = try f.backend.services.accounts.signIn(email: email, password: "correct horse battery").token
      ids.append(try f.chat.send("Need help \(index)", trip: nil, clientID: nil, token: token).conversationID)
    }
    var agents: [(BackendServices, String)] = []
    for index in 0..<8 {
      let token = try f.secondAgent("agent\(index)@agency.example")
      agents.append((try f.backend.secondConnection(), token))
    }
    let wins = Locked<[Int64: [Int]]>([:])
    let failures = Locked<[String]>([])
    let racers = agents
    let conversationIDs = ids
    DispatchQueue.concurrentPerform(iterations: racers.count) { index in
      let (services, token) = racers[index]
      var generator = SystemRandomNumberGenerator()
      for id in conversationIDs.shuffled(using: &generator) {
        do {
          let conversation = try services.agentConsoleService.take(conversationID: id, token: token)
          if conversation.heldByMe { wins.withLock { $0[id, default: []].append(index) } }
        } catch let error as ServiceError where error.code == "conversation_taken" {
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let taken = wins.withLock { $0 }
    #expect(taken.count == 100)
    #expect(taken.values.allSatisfy { $0.count == 1 })
    let held = try f.console.queue(token: f.agent)
    #expect(held.count == 100)
    #expect(held.allSatisfy { $0.agentName != nil })
  }

  /// Another connection (another process on the data directory) notices a message within a second.
  @Test(.timeLimit(.minutes(1))) func changesAreNoticedByAnotherConnectionWithinASecond() throws {
    let f = try Fixture()
    let other = try f.backend.secondConnection()
    let received = Locked<[ChatChange]>([])
    let agentChanges = other.agentConsoleService.changes(token: f.agent).sink { change in
      received.withLock { $0.append(change) }
    }
    let travellerReceived = Locked<[ChatChange]>([])
    let travellerChanges = other.chatService.changes(token: f.traveller).sink { change in
      travellerReceived.withLock { $0.append(change) }
    }
    defer {
      agentChanges.cancel()
      travellerChanges.cancel()
    }
    let message = try f.chat.send("Anyone there?", trip: nil, clientID: nil, token: f.traveller)
    let deadline = Date().addingTimeInterval(1)
    while Date() < deadline, received.withLock({ $0.count }) < 2 || travellerReceived.withLock({ $0.count }) < 2 {
      Thread.sleep(forTimeInterval: 0.02)
    }
    #expect(received.withLock { $0 }.map(\.kind) == ["started", "message"])
    #expect(received.withLock { $0 }.allSatisfy { $0.conversationID == message.conversationID })
    #expect(travellerReceived.withLock { $0 }.map(\.kind) == ["started", "message"])
  }
}
