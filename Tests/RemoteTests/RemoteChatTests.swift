import Backend
import Common
import CommonTesting
import Foundation
import Reactive
import Server
import Testing

@testable import Remote

/// The chat through a real travel-server: a traveller and an agent converse over HTTP with live
/// changes over the stream, and the offline queue survives a server restart (sent once, in order).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteChatTests {
  static let environment = BackendEnvironment(passwordParameters: .fastForTests)

  static func server(_ directory: TemporaryDirectory, port: Int = 0) throws -> TravelServer {
    try TravelServer(
      configuration: TravelServer.Configuration(
        port: port, dataDirectory: directory.url, backendEnvironment: environment, accessLog: { _ in }))
  }

  /// Ada (traveller) and Grace (agent) on the store of `directory`.
  static func people(_ directory: TemporaryDirectory) throws -> (traveller: String, agentEmail: String) {
    let services = try BackendServices(dataDirectory: directory.url, environment: environment)
    _ = try services.accounts.signUp(
      email: "ada@example.com", password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")
    try services.agents.add(email: "grace@agency.example", name: "Grace Hopper", password: "agent password 1")
    return (
      try services.accounts.signIn(email: "ada@example.com", password: "correct horse battery").token,
      "grace@agency.example"
    )
  }

  static func waitUntil(_ timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
  }

  @Test func aTravellerAndAnAgentConverseLive() throws {
    let directory = TemporaryDirectory(prefix: "remote-chat")
    let (token, agentEmail) = try Self.people(directory)
    let server = try Self.server(directory)
    defer { server.shutdown(timeout: 3) }
    let wiring = RemoteWiring(server: server.baseURL, dataDirectory: directory.url)
    let chat = wiring.chat
    let console = wiring.agentConsole
    let agent = try console.signIn(email: agentEmail, password: "agent password 1").token
    let queueChanges = Box<[ChatChange]>([])
    let travellerChanges = Box<[ChatChange]>([])
    let a = console.changes(token: agent).sink { change in queueChanges.withLock { $0.append(change) } }
    let b = chat.changes(token: token).sink { change in travellerChanges.withLock { $0.append(change) } }
    defer {
      a.cancel()
      b.cancel()
    }
    Thread.sleep(forTimeInterval: 0.5)  // both subscribed
    let message = try chat.send("Hello from the plane", trip: nil, clientID: "c-1", token: token)
    #expect(try chat.send("Hello from the plane", trip: nil, clientID: "c-1", token: token) == message)
    #expect(Self.waitUntil { queueChanges.withLock { $0.map(\.kind) } == ["started", "message"] })
    let queue = try console.queue(token: agent)
    #expect(queue.map(\.id) == [message.conversationID])
    _ = try console.take(conversationID: message.conversationID, token: agent)
    let reply = try console.reply(
      conversationID: message.conversationID, text: "Welcome aboard", clientID: nil, token: agent)
    #expect(Self.waitUntil { travellerChanges.withLock { $0.map(\.kind) }.suffix(2) == ["taken", "message"] })
    #expect(try chat.unreadCount(token: token) == 1)
    try chat.acknowledge(conversationID: reply.conversationID, through: reply.sequence, read: true, token: token)
    #expect(try console.thread(conversationID: reply.conversationID, token: agent).messages.last?.state == .read)
    #expect(try chat.currentThread(token: token)?.messages.map(\.text) == ["Hello from the plane", "Welcome aboard"])
    // Roles apart over the wire too.
    #expect(throws: ServiceError.self) { try console.queue(token: token) }
    #expect(throws: ServiceError.self) { try chat.currentThread(token: agent) }
  }

  /// Messages written while the server restarts are queued, then sent on reconnect, in order, once.
  @Test func theOfflineQueueSurvivesAServerRestart() throws {
    let directory = TemporaryDirectory(prefix: "remote-chat-restart")
    let (token, _) = try Self.people(directory)
    let first = try Self.server(directory)
    let port = first.port
    let wiring = RemoteWiring(server: first.baseURL, dataDirectory: directory.url)
    let chat = wiring.chat
    let outbox = ChatOutbox(dataDirectory: directory.url)
    try outbox.append("before the restart", trip: nil)
    #expect(outbox.flush(chat: chat, token: token).failure == nil)
    first.shutdown(timeout: 3)

    try outbox.append("during the restart 1", trip: nil)
    #expect(outbox.flush(chat: chat, token: token).failure?.code == "server_unreachable")
    try outbox.append("during the restart 2", trip: nil)
    #expect(outbox.flush(chat: chat, token: token).failure?.code == "server_unreachable")
    #expect(outbox.pending().map(\.text) == ["during the restart 1", "during the restart 2"])

    let second = try Self.server(directory, port: port)
    defer { second.shutdown(timeout: 3) }
    let (sent, failure) = outbox.flush(chat: chat, token: token)
    #expect(failure == nil)
    #expect(sent.map(\.text) == ["during the restart 1", "during the restart 2"])
    #expect(outbox.pending().isEmpty)
    // A flush again (say, by another process that read the queue before) sends nothing twice.
    #expect(outbox.flush(chat: chat, token: token).sent.isEmpty)
    let texts = try chat.currentThread(token: token)?.messages.map(\.text)
    #expect(texts == ["before the restart", "during the restart 1", "during the restart 2"])
  }
}

/// A value behind a lock, shared with the sinks.
final class Box<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
