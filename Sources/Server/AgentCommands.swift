import Backend
import Common
import Foundation

/// `travel-server [--data-dir D] agents add|list`: the operator's commands for travel agents, on
/// the store of the data directory — the one a travel-server serves, and the one the embedded
/// apps (`travel`, `travel-agent` without --server) use, so one command serves both.
public enum AgentCommands {
  /// The `agents` group.
  public static let group = Command(
    name: "agents",
    summary: "Travel agents: add one, list them (on the data directory's store).",
    discussion: """
      Agents are a role apart from travellers: they sign in with travel-agent login, answer the travellers' chat, and \
      can never book or pay. The password is asked as at a traveller's sign-up: twice without echo on a terminal, \
      once (one line) from stdin otherwise; it is never an option.
      """,
    subcommands: [add, list])

  static let add = Command(
    name: "add",
    summary: "Add a travel agent.",
    options: [
      .option("email", "EMAIL", help: "The agent's email; it is how they sign in.", required: true),
      .option("name", "NAME", help: "The name travellers see (default: the email's name, capitalised)."),
      ServerCommandLine.databaseOption,
    ],
    examples: ["--email grace@agency.example --name \"Grace Hopper\" < password.txt"],
    action: { invocation in
      ServerCommandLine.releaseTerminationSignals()  // Ctrl-C interrupts an operator's command
      let context = invocation.context
      let email = try Accounts.normalizedEmail(try invocation.required("email"))
      guard let password = try SecretInput.read(prompt: "Agent's password: ", console: context.console) else {
        throw CLIError.usage(
          "password is missing: type it at the prompt, or give it as one line on stdin (never as an option)",
          code: "password_missing")
      }
      try AccountInputRules.checkPassword(password)
      if SecretInput.readsFromTerminal(console: context.console) {
        let again = try SecretInput.read(prompt: "Again: ", console: context.console)
        guard again == password else {
          throw CLIError.usage("the two passwords differ: type the same password twice", code: "password_mismatch")
        }
      }
      let services = try BackendServices(
        dataDirectory: context.dataDirectory, database: try ServerCommandLine.database(invocation))
      let agent = try services.agents.add(email: email, name: invocation.value("name"), password: password)
      struct Document: Encodable { var agent: AgentProfile }
      try context.emit(json: Document(agent: agent)) {
        "Agent \(agent.name) <\(agent.email)> added: travel-agent login --email \(agent.email)"
      }
    })

  static let list = Command(
    name: "list",
    summary: "List the travel agents.",
    options: [ServerCommandLine.databaseOption],
    action: { invocation in
      ServerCommandLine.releaseTerminationSignals()  // Ctrl-C interrupts an operator's command
      let context = invocation.context
      let database = try ServerCommandLine.database(invocation)
      let agents = try BackendServices(dataDirectory: context.dataDirectory, database: database).agents.list()
      struct Document: Encodable { var agents: [AgentProfile] }
      try context.emit(json: Document(agents: agents)) {
        agents.isEmpty
          ? "No agents yet: travel-server agents add --email E"
          : agents.map { "\($0.name) <\($0.email)>" }.joined(separator: "\n")
      }
    })
}
