import CommonTesting
import Foundation
import Testing

/// The chat with a travel agent end to end, embedded on one data directory: `travel-server agents
/// add`, `travel chat send|show|follow`, `travel-agent login|queue|take|reply|close`.
@Suite(.timeLimit(.minutes(2)))
struct ChatEndToEndTests {
  let directory = TemporaryDirectory(prefix: "chat-e2e")

  @discardableResult
  func run(_ product: String, _ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
    try ProductRunner().run(product, arguments + ["--data-dir", directory.path], stdin: stdin)
  }

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// Ada signed in with a card-less account; Grace an agent.
  func setUp() throws {
    let password = "correct horse battery"
    #expect(
      try run(
        "travel",
        ["account", "signup", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace"],
        stdin: password + "\n"
      ).status == 0)
    #expect(try run("travel", ["account", "login", "--email", "ada@example.com"], stdin: password + "\n").status == 0)
    let added = try run(
      "travel-server", ["agents", "add", "--email", "grace@agency.example", "--name", "Grace Hopper"],
      stdin: "agent password 1\n")
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("Agent Grace Hopper <grace@agency.example> added"))
  }

  @Test func aTravellerAndAnAgentConverse() throws {
    try setUp()
    // Bad text is refused with exit 2, nothing sent.
    let bad = try run("travel", ["chat", "send", "tab\there", "--json"])
    #expect(bad.status == 2)
    #expect(bad.stdout.contains("invalid_message"))
    let sent = try run("travel", ["chat", "send", "Can I change my flight?", "--json"])
    #expect(sent.status == 0, "\(sent.stderr)")
    let message = try #require(try json(sent.stdout)["message"] as? [String: Any])
    #expect(message["text"] as? String == "Can I change my flight?")
    #expect(message["state"] as? String == "sent")
    let id = try #require(message["conversationId"] as? Int)

    // The agent: not signed in, then in; a traveller's password is no agent's.
    #expect(try run("travel-agent", ["queue"]).status == 1)
    #expect(
      try run("travel-agent", ["login", "--email", "ada@example.com"], stdin: "correct horse battery\n").status == 1)
    let login = try run("travel-agent", ["login", "--email", "grace@agency.example"], stdin: "agent password 1\n")
    #expect(login.status == 0, "\(login.stderr)")
    let queue = try run("travel-agent", ["queue", "--json"])
    let conversations = try #require(try json(queue.stdout)["queue"] as? [[String: Any]])
    #expect(conversations.count == 1)
    #expect(conversations.first?["unread"] as? Int == 1)
    #expect(try run("travel-agent", ["queue"]).stdout.contains("Ada Lovelace"))
    #expect(try run("travel-agent", ["reply", "\(id)", "Hi"]).status == 1)  // not taken yet
    #expect(try run("travel-agent", ["take", "\(id)"]).status == 0)
    let shown = try run("travel-agent", ["show", "\(id)", "--json"])
    #expect(shown.stdout.replacingOccurrences(of: " ", with: "").contains("\"state\":\"read\""))
    #expect(try run("travel-agent", ["reply", "\(id)", "Yes: which day?"]).status == 0)

    // The traveller sees the reply, and their message read.
    let show = try run("travel", ["chat", "show"])
    #expect(show.status == 0)
    #expect(show.stdout.contains("Grace Hopper is with you"))
    #expect(show.stdout.contains("Grace Hopper (agent): Yes: which day?"))
    #expect(show.stdout.contains("You: Can I change my flight?  ✓✓ read"))
    let agentView = try run("travel-agent", ["show", "\(id)"])
    #expect(agentView.stdout.contains("Yes: which day?  ✓✓ read"))
    #expect(try run("travel-agent", ["trips", "\(id)"]).stdout.contains("no trips"))
    #expect(try run("travel-agent", ["close", "\(id)"]).status == 0)
    #expect(try run("travel-agent", ["queue"]).stdout.contains("The queue is empty"))
  }

  /// `chat follow --json` prints the agent's reply as it comes (another process, the same data directory).
  @Test func followPrintsNewMessagesAsTheyCome() throws {
    try setUp()
    let sent = try run("travel", ["chat", "send", "Anyone?", "--json"])
    let id = try #require((try json(sent.stdout)["message"] as? [String: Any])?["conversationId"] as? Int)
    #expect(
      try run("travel-agent", ["login", "--email", "grace@agency.example"], stdin: "agent password 1\n").status == 0)
    #expect(try run("travel-agent", ["take", "\(id)"]).status == 0)

    let process = Process()
    process.executableURL = try ProductRunner().executable("travel")
    process.arguments = ["chat", "follow", "--json", "--data-dir", directory.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let lines = LinesBox()
    output.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
    try process.run()
    defer {
      // SIGTERM, then SIGKILL: a blocked SIGTERM inherited from the runner must not hang the test.
      process.terminate()
      let deadline = Date().addingTimeInterval(2)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    #expect(lines.wait { $0.contains { $0.contains("Anyone?") } })
    #expect(try run("travel-agent", ["reply", "\(id)", "Here I am"]).status == 0)
    #expect(lines.wait { $0.contains { $0.hasPrefix("{\"message\"") && $0.contains("Here I am") } })
    // Its own message's receipt: read by the agent (take + show), printed as a receipt line.
    #expect(try run("travel-agent", ["show", "\(id)"]).status == 0)
    #expect(lines.wait { $0.contains { $0.hasPrefix("{\"receipt\"") && $0.contains("\"read\"") } })
  }
}

/// Lines written by a child process, collected as they come.
final class LinesBox: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }

  var lines: [String] {
    lock.withLock { String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init) }
  }

  func wait(_ timeout: TimeInterval = 5, until condition: ([String]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(lines) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return condition(lines)
  }
}
