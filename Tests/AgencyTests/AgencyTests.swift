import Common
import CommonTesting
import CommonUI
import Foundation
import Reactive
import Testing

@testable import Agency

/// The agents' console: the view model headless (virtual time), the screens as text, the
/// commands in process (over the in-memory chat of CommonTesting).
@MainActor
@Suite struct AgencyTests {
  let scheduler = DispatchQueue.test
  let directory = TemporaryDirectory()

  var sessionFile: SessionFile { SessionFile(dataDirectory: directory.url, fileName: SessionFile.agentFileName) }

  /// A chat where Ada wrote twice (two minutes apart) and nobody answered yet.
  func waitingChat() throws -> MemoryChat {
    let chat = MemoryChat()
    _ = try chat.send(
      "My flight UA 123 was cancelled. Can you rebook me?", trip: nil, clientID: nil, token: MemoryBookingAccount.token)
    chat.now += 120
    _ = try chat.send("Tomorrow morning would be best.", trip: nil, clientID: nil, token: MemoryBookingAccount.token)
    return chat
  }

  func model(_ chat: MemoryChat, signedIn: Bool = true) throws -> AgentConsoleModel {
    if signedIn { try sessionFile.write(MemoryChat.agentToken) }
    let model = AgentConsoleModel(
      console: chat.console, session: sessionFile, mainQueue: scheduler.eraseToAnyScheduler(),
      workQueue: scheduler.eraseToAnyScheduler())
    model.start()
    scheduler.run()
    return model
  }

  @Test func signedOut_signInShowsTheQueue() throws {
    let chat = try waitingChat()
    let model = try model(chat, signedIn: false)
    #expect(model.state == .signedOut(message: nil))
    model.signIn(email: "grace@agency.example", password: "wrong")
    scheduler.run()
    #expect(model.state == .signedOut(message: "email or password is wrong"))
    model.signIn(email: "grace@agency.example", password: "agent password 1")
    scheduler.run()
    #expect(model.state == .signedIn(AgentProfile(email: "grace@agency.example", name: "Grace Hopper")))
    #expect(try sessionFile.read() == MemoryChat.agentToken)
    #expect(model.queue.count == 1)
    #expect(model.queue[0].unread == 2)
  }

  @Test func takeReplyClose_andTheTravellersMessagesBecomeRead() throws {
    let chat = try waitingChat()
    let model = try model(chat)
    let id = try #require(model.queue.first?.id)
    model.open(id)
    scheduler.run()
    // Not held: reading marks nothing.
    #expect(model.thread?.messages.allSatisfy { $0.readAt == nil } == true)
    model.take(id)
    scheduler.run()
    #expect(model.thread?.conversation.heldByMe == true)
    #expect(model.thread?.messages.allSatisfy { $0.state == .read } == true)
    #expect(model.queue.first?.unread == 0)
    model.reply("Done: UA 123 tomorrow at 08:05, seat 23A.")
    scheduler.run()
    #expect(model.thread?.messages.last?.sender == .agent)
    // A traveller's new message shows without a key press, and is read since it is on screen.
    _ = try chat.send("Perfect, thanks!", trip: nil, clientID: nil, token: MemoryBookingAccount.token)
    scheduler.run()
    #expect(model.thread?.messages.last?.text == "Perfect, thanks!")
    #expect(model.thread?.messages.last?.state == .read)
    model.loadTrips()
    scheduler.run()
    #expect(model.trips == [])
    model.closeConversation()
    scheduler.run()
    #expect(model.thread?.conversation.status == .closed)
    #expect(model.queue.isEmpty)
  }

  @Test func anotherAgentsConversationIsRefusedInWords() throws {
    let chat = try waitingChat()
    let model = try model(chat)
    let id = try #require(model.queue.first?.id)
    _ = try chat.console.take(conversationID: id, token: MemoryChat.otherAgentToken)
    scheduler.run()
    #expect(model.queue.first?.agentName == "Alan Turing")
    model.open(id)
    model.take(id)
    scheduler.run()
    #expect(model.problem == "conversation #\(id) is held by Alan Turing")
    model.reply("Hello")
    scheduler.run()
    #expect(model.thread?.messages.count == 2)
  }

  @Test func snapshots_queueAndConversation() throws {
    let chat = try waitingChat()
    let model = try model(chat)
    let backend = TestBackend(width: 80, height: 24)
    let queue = AgentQueueScreen(model: model)
    queue.now = { chat.now.addingTimeInterval(600) }
    let pending = PendingWork()
    let app = InteractiveApp(
      name: "travel-agent", tabs: [AppTab("Console", root: queue)], backend: backend,
      schedule: { pending.add($0) })
    app.displayNow()
    try assertSnapshot(backend.text, named: "console-queue")
    app.handle(.enter)
    scheduler.run()
    pending.run()
    guard let screen = app.currentScreen as? AgentConversationScreen else {
      Issue.record("Enter did not open the conversation")
      return
    }
    screen.timeZone = TimeZone(identifier: "UTC")!
    app.displayNow()
    try assertSnapshot(backend.text, named: "console-conversation-waiting")
    app.handle(.character("t"))
    scheduler.run()
    for character in "On it, Ada." { app.handle(.character(character)) }
    app.handle(.enter)
    scheduler.run()
    app.displayNow()
    try assertSnapshot(backend.text, named: "console-conversation-held")
  }

  // MARK: Commands

  func run(_ arguments: [String], chat: MemoryChat, input: [String] = []) -> (Int32, Console) {
    let console = Console.capturing(input: input)
    let root = AgencyCommands.root(environment: AgencyEnvironment(console: { _ in chat.console }))
    let status = CommandLineTool(root: root).run(
      arguments: arguments + ["--data-dir", directory.path], environment: [:], console: console)
    return (status, console)
  }

  @Test func commands_loginQueueTakeReplyClose() throws {
    let chat = try waitingChat()
    var (status, console) = run(["queue"], chat: chat)
    #expect(status == 1)
    #expect(console.errorOutput.contains("travel-agent login"))
    (status, console) = run(["login", "--email", "grace@agency.example"], chat: chat, input: ["agent password 1"])
    #expect(status == 0)
    #expect(console.output.contains("Signed in as Grace Hopper"))
    (status, console) = run(["queue", "--json"], chat: chat)
    #expect(status == 0)
    let queue = try JSONDecoder.iso.decode([String: [Conversation]].self, from: Data(console.output.utf8))["queue"]
    #expect(queue?.count == 1)
    #expect(queue?.first?.unread == 2)
    (status, console) = run(["take", "x1"], chat: chat)
    #expect(status == 2)
    #expect(console.errorOutput.contains("invalid conversation id"))
    (status, console) = run(["take", "1", "--json"], chat: chat)
    #expect(status == 0)
    #expect(console.output.replacingOccurrences(of: " ", with: "").contains("\"heldByMe\":true"))
    (status, console) = run(["reply", "1", "On it."], chat: chat)
    #expect(status == 0)
    #expect(try chat.currentThread(token: MemoryBookingAccount.token)?.messages.last?.text == "On it.")
    (status, console) = run(["reply", "1", "bad\u{1B}text"], chat: chat)
    #expect(status == 2)
    (status, console) = run(["close", "1", "--json"], chat: chat)
    #expect(status == 0)
    #expect(console.output.replacingOccurrences(of: " ", with: "").contains("\"status\":\"closed\""))
    (status, console) = run(["close", "1"], chat: chat)
    #expect(status == 1)
    #expect(console.errorOutput.contains("closed"))
    (status, console) = run(["logout"], chat: chat)
    #expect(status == 0)
    #expect(try sessionFile.read() == nil)
  }
}

extension JSONDecoder {
  static var iso: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

/// The shell's work (frames, navigation from publishers), run when the test says.
final class PendingWork: @unchecked Sendable {
  private let lock = NSLock()
  private var work: [@Sendable () -> Void] = []
  func add(_ item: @escaping @Sendable () -> Void) { lock.withLock { work.append(item) } }
  func run() {
    while true {
      let items = lock.withLock {
        defer { work.removeAll() }
        return work
      }
      if items.isEmpty { return }
      for item in items { item() }
    }
  }
}
