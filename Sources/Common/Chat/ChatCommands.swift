import Foundation
import Reactive

/// The traveller's `chat` commands (`travel chat send|show|follow`), over ``ChatService``:
/// shared by every app that mounts them, known to no feature (like the chat sheet of `CommonUI`).
///
/// The traveller is the one signed in (``SessionFile``, as for `account`). Messages go through the
/// ``ChatOutbox``: a message written while the agency's system cannot be reached is queued (exit 0,
/// said so) and sent, in order and once, by the next `chat` command or by the app.
public enum ChatCommands {
  /// Builds the chat service of one command run (the store, or a travel-server's client).
  public typealias Factory = @Sendable (CLIContext) throws -> any ChatService

  /// The `chat` group.
  public static func group(name: String = "chat", service: @escaping Factory) -> Command {
    Command(
      name: name,
      summary: "Chat with a travel agent: send, show, follow.",
      discussion: """
        One conversation with the agency at a time: your first message starts it and puts it in the agents' queue; \
        an agent takes it and replies; once the agent closes it, your next message starts a new one. Your own \
        messages show ✓ sent, ✓✓ delivered (the agent's console has it), ✓✓ read. In the interactive app, Ctrl-T \
        opens the same chat on every tab.
        """,
      examples: ["send \"Can I change my flight to the 21st?\" --trip res_…", "show", "follow --json"],
      subcommands: [send(service), show(service), follow(service)])
  }

  struct Run {
    let context: CLIContext
    let chat: any ChatService
    let token: String
    let outbox: ChatOutbox

    init(_ invocation: Invocation, _ factory: Factory) throws {
      context = invocation.context
      guard let token = try SessionFile(dataDirectory: context.dataDirectory).read() else {
        throw ServiceError.notSignedIn
      }
      self.token = token
      chat = try factory(context)
      outbox = ChatOutbox(dataDirectory: context.dataDirectory)
    }
  }

  static func send(_ factory: @escaping Factory) -> Command {
    Command(
      name: "send",
      summary: "Send a message to the agency (queued while the server cannot be reached).",
      arguments: [
        ArgumentSpec("TEXT", help: "The message (one line, at most \(ChatRules.maximumMessageLength) characters).")
      ],
      options: [.option("trip", "RES_ID", help: "Attach one of your trips (trips list): the agent sees it.")],
      examples: ["\"Can I bring my bike?\"", "\"Can I change this flight?\" --trip res_…"],
      action: { invocation in
        let text = invocation.arguments.joined(separator: " ")
        guard !invocation.arguments.isEmpty else {
          throw CLIError.usage("missing TEXT: chat send \"your message\"", code: "missing_argument")
        }
        let run = try Run(invocation, factory)
        let queued = try run.outbox.append(text, trip: invocation.value("trip"))
        let (sent, failure) = run.outbox.flush(chat: run.chat, token: run.token)
        if let mine = sent.first(where: { $0.clientID == queued.clientID }) {
          struct Document: Encodable { var message: ChatMessage }
          try run.context.emit(json: Document(message: mine)) {
            "Sent (conversation #\(mine.conversationID), message \(mine.sequence)) ✓"
          }
          return
        }
        guard let failure else { return }
        if failure.kind != .unavailable { throw failure }
        struct Queued: Encodable { var queued: [PendingChatMessage] }
        let pending = run.outbox.pending()
        try run.context.emit(json: Queued(queued: pending)) {
          "Queued, not sent yet: \(failure.message). \(pending.count) message(s) wait and are sent, in order, by the "
            + "next chat command or the app."
        }
      })
  }

  static func show(_ factory: @escaping Factory) -> Command {
    Command(
      name: "show",
      summary: "Show your conversation with the agency (marks the agent's messages read).",
      action: { invocation in
        let run = try Run(invocation, factory)
        _ = run.outbox.flush(chat: run.chat, token: run.token)
        var thread = try run.chat.currentThread(token: run.token)
        if let current = thread, let last = current.messages.last(where: { $0.sender == .agent }),
          current.messages.contains(where: { $0.sender == .agent && $0.readAt == nil })
        {
          try run.chat.acknowledge(
            conversationID: current.conversation.id, through: last.sequence, read: true, token: run.token)
          thread = try run.chat.currentThread(token: run.token)
        }
        struct Document: Encodable {
          var thread: ChatThread?
          var queued: [PendingChatMessage]
        }
        let pending = run.outbox.pending()
        try run.context.emit(json: Document(thread: thread, queued: pending)) {
          guard let thread else {
            return pending.isEmpty
              ? "No conversation yet: chat send \"your message\" starts one." : ChatText.queued(pending)
          }
          return
            ([ChatText.heading(thread.conversation)] + thread.messages.map(ChatText.line)
            + (pending.isEmpty ? [] : [ChatText.queued(pending)]))
            .joined(separator: "\n")
        }
      })
  }

  static func follow(_ factory: @escaping Factory) -> Command {
    Command(
      name: "follow",
      summary: "Print messages as they come, and the marks of yours (Ctrl-C stops).",
      discussion: """
        Prints the conversation so far, then each new message, each change of your messages' marks (delivered, \
        read) and of the conversation (taken by an agent, closed), as it happens; the agent's messages printed are \
        marked read. With --json one document per line: {"message": …}, {"receipt": {"conversationId", \
        "sequence", "state"}}, {"conversation": …}.
        """,
      action: { invocation in
        let run = try Run(invocation, factory)
        let follower = ChatFollower(run: run)
        let subscription = run.chat.changes(token: run.token).sink { _ in follower.update() }
        follower.update()
        while true {
          Thread.sleep(forTimeInterval: 2)
          if !run.outbox.pending().isEmpty {
            _ = run.outbox.flush(chat: run.chat, token: run.token)
            follower.update()
          }
          withExtendedLifetime(subscription) {}
        }
      })
  }
}

/// The state `chat follow` printed so far; updates print only what is new.
final class ChatFollower: @unchecked Sendable {
  /// One document on one line with `--json` (JSON Lines), else the human text.
  private func emitLine<T: Encodable>(json value: T, human: () -> String) throws {
    if run.context.json {
      run.context.console.print(try JSONOutput.line(value))
    } else {
      run.context.console.print(human())
    }
  }

  let run: ChatCommands.Run
  private let lock = NSLock()
  private var conversation: Conversation?
  private var states: [Int64: ChatMessageState] = [:]

  init(run: ChatCommands.Run) { self.run = run }

  func update() {
    lock.withLock {
      guard var thread = try? run.chat.currentThread(token: run.token) else { return }
      if let last = thread.messages.last(where: { $0.sender == .agent }),
        thread.messages.contains(where: { $0.sender == .agent && $0.readAt == nil }),
        (try? run.chat.acknowledge(
          conversationID: thread.conversation.id, through: last.sequence, read: true, token: run.token)) != nil,
        let again = try? run.chat.currentThread(token: run.token)
      {
        thread = again
      }
      let changed =
        conversation.map {
          $0.id != thread.conversation.id || $0.status != thread.conversation.status
            || $0.agentName != thread.conversation.agentName
        } ?? true
      if changed {
        if conversation?.id != thread.conversation.id { states = [:] }
        conversation = thread.conversation
        struct Document: Encodable { var conversation: Conversation }
        try? emitLine(json: Document(conversation: thread.conversation)) { ChatText.heading(thread.conversation) }
      }
      for message in thread.messages {
        if let known = states[message.id] {
          guard message.sender == .traveller, message.state != known else { continue }
          states[message.id] = message.state
          struct Receipt: Encodable {
            var conversationId: Int64
            var sequence: Int64
            var state: ChatMessageState
          }
          struct Document: Encodable { var receipt: Receipt }
          try? emitLine(
            json: Document(
              receipt: Receipt(conversationId: message.conversationID, sequence: message.sequence, state: message.state)
            )
          ) {
            "  your message \(message.sequence) \(message.state == .read ? "was read" : "was delivered") \(message.state.mark)"
          }
        } else {
          states[message.id] = message.state
          struct Document: Encodable { var message: ChatMessage }
          try? emitLine(json: Document(message: message)) { ChatText.line(message) }
        }
      }
    }
  }
}

/// How the chat commands print a conversation.
public enum ChatText {
  /// `Conversation #3 · open · Grace Hopper is with you · about SFO → JFK … (ABC123)`.
  public static func heading(_ conversation: Conversation) -> String {
    var parts = ["Conversation #\(conversation.id)", conversation.status.rawValue]
    if conversation.status == .open {
      parts.append(conversation.agentName.map { "\($0) is with you" } ?? "waiting for an agent")
    }
    if let trip = conversation.trip { parts.append("about \(trip.summary)" + (trip.locator.map { " (\($0))" } ?? "")) }
    return parts.joined(separator: " · ")
  }

  /// `2026-12-01 14:02  You: Can I change my flight?  ✓✓ read`.
  public static func line(_ message: ChatMessage) -> String {
    let who = message.sender == .traveller ? "You" : "\(message.senderName) (agent)"
    let mark = message.sender == .traveller ? "  \(message.state.mark)" : ""
    let trip = message.trip.map { " [trip: \($0.summary)]" } ?? ""
    return "\(time(message.sentAt))  \(who): \(message.text)\(trip)\(mark)"
  }

  /// `2026-12-01 14:02` in the machine's time zone.
  public static func time(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  static func queued(_ pending: [PendingChatMessage]) -> String {
    pending.map { "(queued)  You: \($0.text)  ⌛" }.joined(separator: "\n")
  }
}
