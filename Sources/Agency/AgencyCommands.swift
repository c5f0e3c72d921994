import Common
import Foundation

/// What the Agency feature needs from outside: the agents' console service (the store, or a
/// travel-server's client), built per command run so `--help` never opens the store.
public struct AgencyEnvironment: Sendable {
  public typealias Factory = @Sendable (CLIContext) throws -> any AgentConsoleService
  public var console: Factory

  public init(console: @escaping Factory) { self.console = console }
}

/// The commands of `travel-agent`: `login`, `logout`, `whoami`, `queue`, `show`, `take`,
/// `reply`, `close`, `trips`, each with `--json`. The agent's session is kept in the data
/// directory's `agent-session` file (owner-only), apart from the traveller's `session`.
public enum AgencyCommands {
  public static func root(name: String = "travel-agent", environment: AgencyEnvironment) -> Command {
    Command(
      name: name,
      summary: L("The travel agents' console: the queue of conversations, take one, reply, close."),
      discussion: """
        Agents are added by an operator (travel-server agents add --email E); they sign in here. Travellers write \
        with travel chat send (or Ctrl-T in the apps); their conversations wait in the queue, the longest waiting \
        first. Take one (two agents never hold the same), read the traveller's trips, reply, close. Without a \
        command on a terminal, the interactive console opens.
        """,
      examples: [
        "login --email grace@agency.example", "queue", "take 42", "reply 42 \"Done: you fly on the 21st.\"", "close 42",
      ],
      subcommands: [
        login(environment), logout(environment), whoami(environment), queue(environment), show(environment),
        take(environment), reply(environment), close(environment), trips(environment),
      ])
  }

  /// One command run: the console service and the agent's session file.
  struct Run {
    let context: CLIContext
    let console: any AgentConsoleService
    let session: SessionFile

    init(_ invocation: Invocation, _ environment: AgencyEnvironment) throws {
      context = invocation.context
      console = try environment.console(context)
      session = SessionFile(dataDirectory: context.dataDirectory, fileName: SessionFile.agentFileName)
    }

    func token() throws -> String {
      guard let token = try session.read() else {
        throw ServiceError(
          .unauthenticated, code: "not_signed_in", message: L("sign in as an agent first: travel-agent login --email …")
        )
      }
      return token
    }
  }

  static func conversationID(_ invocation: Invocation) throws -> Int64 {
    try ChatRules.conversationID(try invocation.argument(0, name: "ID"))
  }

  static let idArgument = ArgumentSpec("ID", help: "The conversation's number (see queue).")

  static func login(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "login",
      summary: L("Sign in as an agent (the password is read without echo, or one line from stdin)."),
      options: [.option("email", "EMAIL", help: L("The agent's email."), required: true)],
      examples: ["--email grace@agency.example"],
      action: { invocation in
        let run = try Run(invocation, environment)
        guard let password = try SecretInput.read(prompt: L("Password: "), console: run.context.console),
          !password.isEmpty
        else {
          throw CLIError.usage(
            L("password is missing: type it at the prompt, or give it as one line on stdin (never as an option)"),
            code: "password_missing")
        }
        let session = try run.console.signIn(email: try invocation.required("email"), password: password)
        try run.session.write(session.token)
        let agent = try run.console.agent(token: session.token)
        struct Document: Encodable { var agent: AgentProfile }
        try run.context.emit(json: Document(agent: agent)) { L("Signed in as \(agent.name) <\(agent.email)>, agent.") }
      })
  }

  static func logout(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "logout", summary: L("Sign out: the agent's session ends and its file is deleted."),
      action: { invocation in
        let run = try Run(invocation, environment)
        let token = try run.session.read()
        if let token { try? run.console.signOut(token: token) }
        try run.session.delete()
        struct Document: Encodable { var signedOut: Bool }
        try run.context.emit(json: Document(signedOut: token != nil)) {
          token == nil ? "No agent was signed in." : "Signed out."
        }
      })
  }

  static func whoami(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "whoami", summary: L("Show which agent is signed in (exit 1 when none)."),
      action: { invocation in
        let run = try Run(invocation, environment)
        let agent = try run.console.agent(token: try run.token())
        struct Document: Encodable { var agent: AgentProfile }
        try run.context.emit(json: Document(agent: agent)) { L("\(agent.name) <\(agent.email)>, agent") }
      })
  }

  static func queue(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "queue", summary: L("The open conversations, the longest waiting first, with unread counts."),
      action: { invocation in
        let run = try Run(invocation, environment)
        let queue = try run.console.queue(token: try run.token())
        struct Document: Encodable { var queue: [Conversation] }
        try run.context.emit(json: Document(queue: queue)) { AgencyText.queue(queue, now: Date()) }
      })
  }

  static func show(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "show", summary: L("One conversation with its messages (marks them read when you hold it)."),
      arguments: [idArgument],
      action: { invocation in
        let run = try Run(invocation, environment)
        let token = try run.token()
        let id = try conversationID(invocation)
        var thread = try run.console.thread(conversationID: id, token: token)
        if thread.conversation.heldByMe, let last = thread.messages.last(where: { $0.sender == .traveller }),
          thread.messages.contains(where: { $0.sender == .traveller && $0.readAt == nil })
        {
          try run.console.acknowledge(conversationID: id, through: last.sequence, read: true, token: token)
          thread = try run.console.thread(conversationID: id, token: token)
        }
        struct Document: Encodable { var thread: ChatThread }
        try run.context.emit(json: Document(thread: thread)) { AgencyText.thread(thread) }
      })
  }

  static func take(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "take", summary: L("Take a waiting conversation (refused when another agent holds it)."),
      arguments: [idArgument],
      action: { invocation in
        let run = try Run(invocation, environment)
        let conversation = try run.console.take(conversationID: try conversationID(invocation), token: try run.token())
        struct Document: Encodable { var conversation: Conversation }
        try run.context.emit(json: Document(conversation: conversation)) {
          L(
            "You hold conversation #\(conversation.id) with \(conversation.travellerName): show \(conversation.id), "
              + "reply \(conversation.id) TEXT, trips \(conversation.id), close \(conversation.id).")
        }
      })
  }

  static func reply(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "reply", summary: L("Reply in a conversation you hold."),
      arguments: [idArgument, ArgumentSpec("TEXT", help: L("The reply (one line)."))],
      examples: ["42 \"Done: you fly on the 21st.\""],
      action: { invocation in
        let run = try Run(invocation, environment)
        let id = try conversationID(invocation)
        guard invocation.arguments.count >= 2 else {
          throw CLIError.usage(L("missing TEXT: reply \(id) \"your reply\""), code: "missing_argument")
        }
        let text = invocation.arguments.dropFirst().joined(separator: " ")
        let message = try run.console.reply(conversationID: id, text: text, clientID: nil, token: try run.token())
        struct Document: Encodable { var message: ChatMessage }
        try run.context.emit(json: Document(message: message)) { L("Sent to conversation #\(id) ✓") }
      })
  }

  static func close(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "close", summary: L("Close a conversation you hold."), arguments: [idArgument],
      action: { invocation in
        let run = try Run(invocation, environment)
        let conversation = try run.console.close(conversationID: try conversationID(invocation), token: try run.token())
        struct Document: Encodable { var conversation: Conversation }
        try run.context.emit(json: Document(conversation: conversation)) {
          L("Conversation #\(conversation.id) closed.")
        }
      })
  }

  static func trips(_ environment: AgencyEnvironment) -> Command {
    Command(
      name: "trips", summary: L("The traveller's trips, read only (while you hold the conversation)."),
      arguments: [idArgument],
      action: { invocation in
        let run = try Run(invocation, environment)
        let trips = try run.console.trips(conversationID: try conversationID(invocation), token: try run.token())
        struct Document: Encodable { var reservations: [Reservation] }
        try run.context.emit(json: Document(reservations: trips)) { AgencyText.trips(trips) }
      })
  }
}
