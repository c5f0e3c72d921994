import Backend
import Common
import CommonTesting
import Foundation
import Testing

/// Issue #20's race with real processes: eight agents take the same 100 waiting conversations
/// through one `travel-server` process (a free port, its own data directory).
///
/// The agents are `travel-agent` processes: each agent signs in with `travel-agent login` on a
/// client data directory of its own, then runs `travel-agent take ID --json` for every one of the
/// 100 conversations in its own random order (the command takes one conversation per run), the
/// eight agents at once. Taking is a transaction on the server: each conversation is taken exactly
/// once, every other attempt is refused with `conversation_taken` (exit 1) naming the holder,
/// the queue then shows each conversation held by its winner, and the server answered no 5xx.
/// (The in-process version, eight connections in one process, is BackendTests'
/// `eightAgentsRacingTakeEachConversationOnce`.)
@Suite(.serialized, .timeLimit(.minutes(6)))
struct AgentRaceTests {
  static let agents = 8
  static let conversations = 100
  static let password = "agent password 1"

  /// One `take` attempt as an agent process saw it.
  struct Attempt: Sendable {
    var agent: Int
    var conversation: Int64
    var status: Int32
    var stdout: String
    var stderr: String
    /// The error code of a refusal (`--json` prints `{"error":{"code",…}}`).
    var code: String? {
      guard let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
        return nil
      }
      return (object["error"] as? [String: Any])?["code"] as? String
    }
  }

  /// The store before the server starts: 100 travellers with a waiting conversation each and the
  /// eight agents (cheap password hashing: the seeding is not what is tested).
  static func seed(_ directory: TemporaryDirectory) throws -> [Int64] {
    let services = try BackendServices(
      dataDirectory: directory.url, environment: BackendEnvironment(passwordParameters: .fastForTests))
    var ids: [Int64] = []
    for index in 0..<conversations {
      let email = "traveller\(index)@example.com"
      _ = try services.accounts.signUp(
        email: email, password: "correct horse battery", firstName: "Traveller", lastName: "Number\(index)")
      let token = try services.accounts.signIn(email: email, password: "correct horse battery").token
      ids.append(
        try services.chat.send("Help with trip \(index)", trip: nil, clientID: nil, token: token).conversationID)
    }
    for agent in 0..<agents {
      try services.agents.add(email: "agent\(agent)@agency.example", name: "Agent \(name(agent))", password: password)
    }
    return ids
  }

  /// A name made of letters (names refuse digits): Agent Aa, Agent Bb, …
  static func name(_ agent: Int) -> String {
    let letter = String(UnicodeScalar(UInt8(65 + agent)))
    return letter + letter.lowercased()
  }

  /// What the race left: the attempts, the queue afterwards (as agent 0 sees it), the server's log.
  struct Race: Sendable {
    var ids: [Int64]
    var logins: [ProductRunner.Result]
    var finished: Bool
    var attempts: [Attempt]
    var queue: ProductRunner.Result?
    var serverLog: String
    var serverRunning: Bool
  }

  /// Seeds the store, starts the server, signs the agents in and runs the race (all blocking: on
  /// a thread of its own, so the waits never hold a thread of the test runner's pool).
  static func race() throws -> Race {
    let directory = TemporaryDirectory(prefix: "agent-race")
    let ids = try seed(directory)
    // A store of 100 travellers on a loaded machine can take its time to open: up to 180 s.
    let server = try ServerProcess(timeout: 180, directory: directory)
    defer { server.stop() }
    let environment = ["TRAVEL_SERVER": server.url.absoluteString]

    // Each agent signs in on a client data directory of its own (the session lives there).
    let clients = (0..<agents).map { _ in TemporaryDirectory(prefix: "agent-client") }
    var logins: [ProductRunner.Result] = []
    for agent in 0..<agents {
      logins.append(
        try ProductRunner().run(
          "travel-agent", ["login", "--email", "agent\(agent)@agency.example", "--data-dir", clients[agent].path],
          stdin: password + "\n", environment: environment))
    }
    var race = Race(
      ids: ids, logins: logins, finished: false, attempts: [], queue: nil, serverLog: "", serverRunning: true)
    guard logins.allSatisfy({ $0.status == 0 }) else { return race }

    // The race: the eight agents at once, each through all 100 conversations in its own order.
    let attempts = AttemptLog()
    let group = DispatchGroup()
    for agent in 0..<agents {
      group.enter()
      let client = clients[agent]
      Thread {
        defer { group.leave() }
        for id in ids.shuffled() {
          do {
            let result = try ProductRunner().run(
              "travel-agent", ["take", "\(id)", "--json", "--data-dir", client.path], environment: environment)
            attempts.append(
              Attempt(
                agent: agent, conversation: id, status: result.status, stdout: result.stdout, stderr: result.stderr))
          } catch {
            attempts.append(Attempt(agent: agent, conversation: id, status: -1, stdout: "", stderr: "\(error)"))
          }
        }
      }.start()
    }
    // Our own deadline, well inside the time limit: a hung process fails the test, not the run.
    race.finished = group.wait(timeout: .now() + 300) == .success
    race.attempts = attempts.all
    if race.finished {
      race.queue = try ProductRunner().run(
        "travel-agent", ["queue", "--json", "--data-dir", clients[0].path], environment: environment)
    }
    race.serverRunning = server.process.isRunning
    race.serverLog = server.output
    return race
  }

  @Test func eightAgentProcessesRacingTakeEachConversationExactlyOnce() async throws {
    let race = try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try Self.race() }) }.start()
    }
    #expect(Set(race.ids).count == Self.conversations)
    for (agent, login) in race.logins.enumerated() {
      try #require(login.status == 0, "agent \(agent): \(login.stderr)")
    }
    try #require(race.finished, "the agents were still taking after 300 s (\(race.attempts.count) attempts)")

    let all = race.attempts
    #expect(all.count == Self.agents * Self.conversations)
    let wins = all.filter { $0.status == 0 }
    let refusals = all.filter { $0.status == 1 && $0.code == "conversation_taken" }
    let other = all.filter { $0.status != 0 && !($0.status == 1 && $0.code == "conversation_taken") }
    #expect(
      other.isEmpty,
      "neither a win nor conversation_taken: \(other.prefix(3).map { "\($0.status) \($0.stdout) \($0.stderr)" })")
    // Each conversation taken exactly once; every other attempt refused.
    let winners = Dictionary(grouping: wins, by: \.conversation)
    #expect(winners.count == Self.conversations)
    #expect(winners.values.allSatisfy { $0.count == 1 }, "\(winners.filter { $0.value.count > 1 }.keys.sorted())")
    #expect(refusals.count == Self.agents * Self.conversations - Self.conversations)
    // A refusal names the agent who holds it (the human text, on stderr).
    for refusal in refusals.prefix(20) {
      let holder = winners[refusal.conversation]?.first.map { "Agent \(Self.name($0.agent))" } ?? "?"
      #expect(refusal.stderr.contains(holder), "\(refusal.stderr)")
    }

    // The queue, as any agent sees it: every conversation held, by its winner.
    let queue = try #require(race.queue)
    #expect(queue.status == 0, "\(queue.stderr)")
    let listed =
      (try JSONSerialization.jsonObject(with: Data(queue.stdout.utf8)) as? [String: Any])?["queue"] as? [[String: Any]]
      ?? []
    #expect(listed.count == Self.conversations)
    for entry in listed {
      guard let id = (entry["id"] as? Int).map(Int64.init), let winner = winners[id]?.first else {
        Issue.record("queue entry without a winner: \(entry)")
        continue
      }
      #expect(entry["agentName"] as? String == "Agent \(Self.name(winner.agent))", "#\(id)")
    }

    // No 5xx in the access log, and the server still ran.
    let errors = race.serverLog.split(separator: "\n").filter {
      $0.range(of: #""status":5[0-9][0-9]"#, options: .regularExpression) != nil
    }
    #expect(errors.isEmpty, "\(errors.prefix(3))")
    #expect(race.serverRunning)
  }
}

/// The attempts of the racing agents, appended from their threads.
final class AttemptLog: @unchecked Sendable {
  private let lock = NSLock()
  private var attempts: [AgentRaceTests.Attempt] = []
  func append(_ attempt: AgentRaceTests.Attempt) { lock.withLock { attempts.append(attempt) } }
  var all: [AgentRaceTests.Attempt] { lock.withLock { attempts } }
}
