import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import CommonUI

/// The shared chat sheet: its view model headless (virtual time), the sheet as text, and the
/// shell opening it over any tab with the unread count in the header.
@MainActor
@Suite struct ChatSheetTests {
  let scheduler = DispatchQueue.test
  let directory = TemporaryDirectory()

  func model(_ chat: MemoryChat, signedIn: Bool = true) -> (ChatSheetModel, AccountSession) {
    let account = MemoryBookingAccount(signedIn: signedIn)
    let session = AccountSession(
      account: account.account, mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler())
    let model = ChatSheetModel(
      chat: chat, outbox: ChatOutbox(dataDirectory: directory.url), session: session,
      mainQueue: scheduler.eraseToAnyScheduler(), workQueue: scheduler.eraseToAnyScheduler(), retryInterval: .seconds(2)
    )
    scheduler.run()
    return (model, session)
  }

  @Test func sendingStartsAConversation_andAgentRepliesAreDeliveredThenReadWhenOpen() throws {
    let chat = MemoryChat()
    let (model, _) = model(chat)
    let unread = model.$unread.record()
    #expect(model.isSignedIn)
    #expect(model.thread == nil)
    model.send("Can I change my flight?")
    scheduler.run()
    #expect(model.pending.isEmpty)
    #expect(model.thread?.messages.map(\.text) == ["Can I change my flight?"])
    let id = try #require(model.thread?.conversation.id)
    _ = try chat.console.take(conversationID: id, token: MemoryChat.agentToken)
    _ = try chat.console.reply(conversationID: id, text: "Yes: which day?", clientID: nil, token: MemoryChat.agentToken)
    scheduler.run()
    // Closed sheet: the reply is delivered (the app has it), not read; the header counts it.
    #expect(model.thread?.messages.last?.state == .delivered)
    #expect(model.unread == 1)
    model.opened()
    scheduler.run()
    #expect(model.thread?.messages.last?.state == .read)
    #expect(unread.values.last == 0)
    #expect(unread.values.contains(1))
  }

  @Test func badgeShowsUnreadCount() throws {
    let chat = MemoryChat()
    let (model, _) = model(chat)
    let badge = model.badge.record()
    model.send("Hello")
    scheduler.run()
    let id = try #require(model.thread?.conversation.id)
    _ = try chat.console.take(conversationID: id, token: MemoryChat.agentToken)
    _ = try chat.console.reply(conversationID: id, text: "Hi", clientID: nil, token: MemoryChat.agentToken)
    _ = try chat.console.reply(conversationID: id, text: "How can I help?", clientID: nil, token: MemoryChat.agentToken)
    scheduler.run()
    #expect(badge.values.last == "Chat: 2 unread")
    model.opened()
    scheduler.run()
    #expect(badge.values.last == .some(nil))
  }

  /// Written while the server is unreachable: queued, then sent on reconnect in order, once.
  @Test func offlineMessagesAreQueuedThenSentInOrderOnce() throws {
    let chat = MemoryChat()
    let (model, _) = model(chat)
    chat.isReachable = false
    model.send("first")
    scheduler.advance()
    model.send("second")
    scheduler.advance(by: .milliseconds(500))
    #expect(model.pending.map(\.text) == ["first", "second"])
    #expect(model.problem?.contains("cannot be reached") == true)
    #expect(chat.sent.isEmpty)
    scheduler.advance(by: .seconds(4))
    #expect(chat.sent.isEmpty)
    chat.isReachable = true
    scheduler.advance(by: .seconds(2))
    scheduler.run()
    #expect(model.pending.isEmpty)
    #expect(model.thread?.messages.map(\.text) == ["first", "second"])
    #expect(chat.sent.count == 2)
    #expect(Set(chat.sent).count == 2)
    #expect(model.problem == nil)
  }

  @Test func signedOut_saysToSignIn() {
    let chat = MemoryChat()
    let (model, _) = model(chat, signedIn: false)
    model.send("Hello?")
    #expect(model.problem?.hasPrefix("Sign in first") == true)
    #expect(model.pending.isEmpty)
  }

  @Test func badText_isRefusedNotQueued() {
    let (model, _) = model(MemoryChat())
    model.send("bell\u{07}")
    #expect(model.problem?.contains("control character") == true)
    #expect(model.pending.isEmpty)
  }

  @Test func snapshot_sheetOverATab() throws {
    let chat = MemoryChat()
    let (model, _) = model(chat)
    model.send("Can I bring my bike on UA 123 tomorrow?")
    scheduler.run()
    let id = try #require(model.thread?.conversation.id)
    _ = try chat.console.take(conversationID: id, token: MemoryChat.agentToken)
    try chat.console.acknowledge(conversationID: id, through: 1, read: true, token: MemoryChat.agentToken)
    _ = try chat.console.reply(
      conversationID: id, text: "Yes, bikes travel as checked baggage, boxed, for a fee of 75 USD each way.",
      clientID: nil, token: MemoryChat.agentToken)
    scheduler.run()
    let backend = TestBackend(width: 80, height: 24)
    let manual = ManualScheduler()
    let app = InteractiveApp(
      name: "travel", tabs: [AppTab("Flights", root: FakeScreen("Flights"))], backend: backend,
      schedule: { manual.schedule($0) })
    let sheet = ChatSheet(model: model, timeZone: TimeZone(identifier: "UTC")!)
    app.attach(sheet)
    scheduler.run()
    manual.runAll()
    app.displayNow()
    #expect(backend.text.contains("Chat: 1 unread"))
    #expect(app.footerHints.contains(KeyHint("Ctrl-T", "chat")))
    try assertSnapshot(backend.text, named: "tab-with-chat-key")
    app.handle(.control("t"))
    scheduler.run()
    manual.runAll()
    #expect(model.unread == 0)  // open: the reply is read, the header's count is gone
    for character in "Thanks!" { app.handle(.character(character)) }
    app.displayNow()
    try assertSnapshot(backend.text, named: "chat-sheet-open")
    app.handle(.enter)
    scheduler.run()
    manual.runAll()
    app.displayNow()
    #expect(!backend.text.contains("unread"))
    #expect(model.thread?.messages.last?.text == "Thanks!")
    app.handle(.escape)
    #expect(app.openOverlay == nil)
    app.handle(.character("q"))
    #expect(app.exitStatus == 0)
  }
}
