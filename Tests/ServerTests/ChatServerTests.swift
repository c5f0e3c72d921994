import Backend
import BackendTesting
import Common
import CommonTesting
import Foundation
import Reactive
import Testing
import Transport

@testable import Server

/// The chat over the server: every chat route tried with another traveller's and with an agent's
/// token (and the agents' routes with a traveller's), the stream's chat topics with their
/// sequence and resume rules, and the OpenAPI shapes.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ChatServerTests {
  let fixture: ServerFixture

  init() throws { fixture = try ServerFixture() }

  /// An agent added on the server's store, signed in over HTTP; returns the token.
  func agent(_ email: String = "grace@agency.example", on fixture: ServerFixture) async throws -> String {
    let services = try BackendServices(
      dataDirectory: fixture.directory.url, database: fixture.database,
      environment: BackendEnvironment(passwordParameters: .fastForTests))
    defer { services.database.close() }
    try services.agents.add(email: email, name: "Grace Hopper", password: "agent password 1")
    let signIn = try await fixture.call(
      "POST", "/v1/agent/sessions", body: API.SignIn(email: email, password: "agent password 1"))
    #expect(signIn.status == 201)
    return try #require(signIn.json["session"]?["token"]?.stringValue)
  }

  @Test(arguments: StoreDriver.allCases) func everyChatRouteWithAnotherUsersAndAnAgentsToken(store: StoreDriver)
    async throws
  {
    let fixture = try store == .sqlite ? self.fixture : ServerFixture(store: .postgres)
    let ada = try await fixture.traveller("ada@example.com")
    let bob = try await fixture.traveller("bob@example.com", first: "Bob", last: "Builder")
    let grace = try await agent(on: fixture)
    let sent = try await fixture.call("POST", "/v1/chat/messages", token: ada, body: API.NewChatMessage(text: "Hello"))
    #expect(sent.status == 201)
    let id = try #require(sent.json["message"]?["conversationId"]?.integerValue)

    // Bob sees nothing of Ada's: his own (empty) chat, and her conversation is not found.
    #expect(try await fixture.call("GET", "/v1/chat", token: bob).json["thread"]?.objectValue == nil)
    #expect(try await fixture.call("GET", "/v1/chat/unread", token: bob).json["unread"]?.integerValue == 0)
    let bobReceipt = try await fixture.call(
      "POST", "/v1/chat/conversations/\(id)/receipts", token: bob, body: API.ChatReceipt(through: 1, read: true))
    #expect(bobReceipt.status == 404)
    #expect(bobReceipt.errorCode == "conversation_not_found")

    // An agent's token is no traveller's: every traveller route is 401.
    for (method, path, body) in [
      ("GET", "/v1/chat", nil), ("GET", "/v1/chat/unread", nil),
      ("POST", "/v1/chat/messages", API.NewChatMessage(text: "x") as (any Encodable)?),
      ("POST", "/v1/chat/conversations/\(id)/receipts", API.ChatReceipt(through: 1, read: true)),
      ("GET", "/v1/trips", nil), ("GET", "/v1/cards", nil), ("GET", "/v1/profile", nil),
    ] {
      let answer = try await fixture.call(method, path, token: grace, body: body)
      #expect(answer.status == 401, "\(method) \(path)")
    }
    // An agent token never books or pays.
    let booking = try await fixture.call(
      "POST", "/v1/cars/bookings", token: grace, body: API.Acknowledged())
    #expect(booking.status == 401 || booking.status == 400)

    // A traveller's token is no agent's: every agent route is 401.
    for traveller in [ada, bob] {
      for (method, path, body) in [
        ("GET", "/v1/agent/session", nil), ("GET", "/v1/agent/queue", nil),
        ("GET", "/v1/agent/conversations/\(id)", nil), ("POST", "/v1/agent/conversations/\(id)/take", nil),
        ("POST", "/v1/agent/conversations/\(id)/messages", API.NewChatMessage(text: "x") as (any Encodable)?),
        ("POST", "/v1/agent/conversations/\(id)/close", nil),
        ("POST", "/v1/agent/conversations/\(id)/receipts", API.ChatReceipt(through: 1, read: true)),
        ("GET", "/v1/agent/conversations/\(id)/trips", nil), ("DELETE", "/v1/agent/session", nil),
      ] {
        let answer = try await fixture.call(method, path, token: traveller, body: body)
        #expect(answer.status == 401, "\(method) \(path)")
      }
    }
    // Without a token: 401 everywhere.
    #expect(try await fixture.call("GET", "/v1/chat").status == 401)
    #expect(try await fixture.call("GET", "/v1/agent/queue").status == 401)

    // The agent's side works with the agent's token.
    #expect(
      try await fixture.call("GET", "/v1/agent/queue", token: grace).json["queue"]?[0]?["unread"]?.integerValue == 1)
    #expect(
      try await fixture.call("GET", "/v1/agent/conversations/\(id)/trips", token: grace).errorCode
        == "not_your_conversation")
    #expect(try await fixture.call("POST", "/v1/agent/conversations/\(id)/take", token: grace).status == 200)
    let reply = try await fixture.call(
      "POST", "/v1/agent/conversations/\(id)/messages", token: grace, body: API.NewChatMessage(text: "Hi Ada"))
    #expect(reply.status == 201)
    #expect(try await fixture.call("GET", "/v1/chat/unread", token: ada).json["unread"]?.integerValue == 1)
    #expect(try await fixture.call("GET", "/v1/chat/unread", token: bob).json["unread"]?.integerValue == 0)
    let bad = try await fixture.call(
      "POST", "/v1/chat/messages", token: ada, body: API.NewChatMessage(text: "a\u{1B}b"))
    #expect(bad.status == 400)
    #expect(bad.errorCode == "invalid_message")
    let long = try await fixture.call(
      "POST", "/v1/chat/messages", token: ada,
      body: API.NewChatMessage(text: String(repeating: "x", count: ChatRules.maximumMessageLength + 1)))
    #expect(long.errorCode == "message_too_long")
    let bogus = try await fixture.call("GET", "/v1/agent/conversations/abc", token: grace)
    #expect(bogus.status == 400)
  }

  @Test func openAPIDescribesTheChatRoutes() async throws {
    let document = try await fixture.call("GET", "/v1/openapi.json")
    let paths = try #require(document.json["paths"]?.objectValue)
    for path in ["/v1/chat", "/v1/chat/messages", "/v1/agent/queue", "/v1/agent/conversations/{id}/take"] {
      #expect(paths[path] != nil, "\(path)")
    }
    let schema = paths["/v1/chat/messages"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]?[
      "$ref"]
    #expect(schema?.stringValue == "#/components/schemas/NewChatMessage")
    #expect(document.json["components"]?["schemas"]?["ChatMessage"] != nil)
  }

  @Test(arguments: StoreDriver.allCases) func streamTopicsPerConversationAndTheQueue_withResume(store: StoreDriver)
    async throws
  {
    let fixture = try store == .sqlite ? self.fixture : ServerFixture(store: .postgres)
    let client = try WebSocketClient()
    defer { client.shutdown() }
    let ada = try await fixture.traveller("ada2@example.com")
    let bob = try await fixture.traveller("bob2@example.com", first: "Bob", last: "Builder")
    let grace = try await agent("grace2@agency.example", on: fixture)
    let first = try await fixture.call("POST", "/v1/chat/messages", token: ada, body: API.NewChatMessage(text: "One"))
    let id = try #require(first.json["message"]?["conversationId"]?.integerValue)

    let agentProbe = StreamProbe(client: client, base: fixture.base)
    agentProbe.send(StreamMessage(type: "auth", token: grace))
    agentProbe.send(StreamMessage(type: "subscribe", topic: "chat-queue"))
    agentProbe.send(StreamMessage(type: "subscribe", topic: "chat:\(id)"))
    agentProbe.send(StreamMessage(type: "subscribe", topic: "chat"))
    #expect(agentProbe.wait { $0.filter { $0.type == "subscribed" }.count == 2 && $0.contains { $0.type == "error" } })
    #expect(agentProbe.messages.first { $0.type == "error" }?.topic == "chat")

    let bobProbe = StreamProbe(client: client, base: fixture.base)
    bobProbe.send(StreamMessage(type: "auth", token: bob))
    bobProbe.send(StreamMessage(type: "subscribe", topic: "chat:\(id)"))
    bobProbe.send(StreamMessage(type: "subscribe", topic: "chat-queue"))
    #expect(bobProbe.wait { $0.filter { $0.type == "error" }.count == 2 })
    #expect(bobProbe.messages.filter { $0.type == "error" }.map(\.code).contains("conversation_not_found"))

    let adaProbe = StreamProbe(client: client, base: fixture.base)
    adaProbe.send(StreamMessage(type: "auth", token: ada))
    adaProbe.send(StreamMessage(type: "subscribe", topic: "chat:\(id)", after: 0))
    #expect(adaProbe.wait { $0.filter { $0.type == "event" }.count == 2 })  // started, message (resumed from 0)
    #expect(adaProbe.events.map(\.sequence) == [1, 2])

    _ = try await fixture.call("POST", "/v1/chat/messages", token: ada, body: API.NewChatMessage(text: "Two"))
    #expect(agentProbe.wait { $0.filter { $0.type == "event" && $0.topic == "chat:\(id)" }.count == 1 })
    #expect(agentProbe.events.first { $0.topic == "chat:\(id)" }?.event == "chat.message")
    #expect(agentProbe.events.first { $0.topic == "chat:\(id)" }?.data?["message"]?["text"]?.stringValue == "Two")
    #expect(agentProbe.wait { $0.contains { $0.type == "event" && $0.topic == "chat-queue" } })
    #expect(adaProbe.wait { $0.filter { $0.type == "event" }.count == 3 })
    #expect(adaProbe.events.map(\.sequence) == [1, 2, 3])
    #expect(bobProbe.events.isEmpty)
  }
}
