import Common
import Foundation
import Reactive

/// The chat with the agency on a `travel-server`: the traveller's side (``ChatService``) over
/// `/v1/chat…`, live through `/v1/stream` (topic `chat`: every event of the traveller's
/// conversations, resumed after the last sequence on reconnect). Errors are the server's
/// ``ServiceError``s, or `server_unreachable` — which the ``ChatOutbox`` of the apps turns into
/// a queued message, sent on reconnect.
public struct RemoteChat: ChatService {
  let api: APIClient
  let live: RemoteLiveUpdates

  public init(api: APIClient, live: RemoteLiveUpdates) {
    self.api = api
    self.live = live
  }

  public func currentThread(token: String) throws -> ChatThread? {
    try api.call("GET", "/v1/chat", token: token, as: API.ChatThreadDocument.self).thread
  }

  public func send(_ text: String, trip: String?, clientID: String?, token: String) throws -> ChatMessage {
    try api.call(
      "POST", "/v1/chat/messages", body: .encode(API.NewChatMessage(text: text, trip: trip, clientID: clientID)),
      token: token, as: API.ChatMessageDocument.self
    ).message
  }

  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    _ = try api.call(
      "POST", "/v1/chat/conversations/\(conversationID)/receipts",
      body: .encode(API.ChatReceipt(through: sequence, read: read)), token: token, as: API.Acknowledged.self)
  }

  public func unreadCount(token: String) throws -> Int {
    try api.call("GET", "/v1/chat/unread", token: token, as: API.UnreadDocument.self).unread
  }

  public func changes(token: String) -> AnyPublisher<ChatChange, Never> {
    live.events(topic: "chat", token: token).map(RemoteChat.change).eraseToAnyPublisher()
  }

  static func change(_ event: TopicEvent) -> ChatChange {
    ChatChange(
      conversationID: event.data["conversationId"]?.integerValue ?? 0,
      kind: event.data["kind"]?.stringValue ?? event.type)
  }
}

/// The agents' console on a `travel-server` (``AgentConsoleService`` over `/v1/agent…`), live
/// through `/v1/stream` (topic `chat-queue`).
public struct RemoteAgentConsole: AgentConsoleService {
  let api: APIClient
  let live: RemoteLiveUpdates

  public init(api: APIClient, live: RemoteLiveUpdates) {
    self.api = api
    self.live = live
  }

  public func signIn(email: String, password: String) throws -> Session {
    try api.call(
      "POST", "/v1/agent/sessions", body: .encode(API.SignIn(email: email, password: password)),
      as: API.AgentSignedIn.self
    ).model
  }

  public func signOut(token: String) throws {
    _ = try api.call("DELETE", "/v1/agent/session", token: token, as: API.SignedOut.self)
  }

  public func agent(token: String) throws -> AgentProfile {
    try api.call("GET", "/v1/agent/session", token: token, as: API.AgentDocument.self).agent
  }

  public func queue(token: String) throws -> [Conversation] {
    try api.call("GET", "/v1/agent/queue", token: token, as: API.QueueDocument.self).queue
  }

  public func thread(conversationID: Int64, token: String) throws -> ChatThread {
    guard
      let thread = try api.call(
        "GET", "/v1/agent/conversations/\(conversationID)", token: token, as: API.ChatThreadDocument.self
      ).thread
    else { throw ChatRules.notFound(conversationID) }
    return thread
  }

  public func take(conversationID: Int64, token: String) throws -> Conversation {
    try api.call(
      "POST", "/v1/agent/conversations/\(conversationID)/take", token: token, as: API.ConversationDocument.self
    ).conversation
  }

  public func reply(conversationID: Int64, text: String, clientID: String?, token: String) throws -> ChatMessage {
    try api.call(
      "POST", "/v1/agent/conversations/\(conversationID)/messages",
      body: .encode(API.NewChatMessage(text: text, clientID: clientID)), token: token, as: API.ChatMessageDocument.self
    ).message
  }

  public func close(conversationID: Int64, token: String) throws -> Conversation {
    try api.call(
      "POST", "/v1/agent/conversations/\(conversationID)/close", token: token, as: API.ConversationDocument.self
    ).conversation
  }

  public func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws {
    _ = try api.call(
      "POST", "/v1/agent/conversations/\(conversationID)/receipts",
      body: .encode(API.ChatReceipt(through: sequence, read: read)), token: token, as: API.Acknowledged.self)
  }

  public func trips(conversationID: Int64, token: String) throws -> [Reservation] {
    try api.call(
      "GET", "/v1/agent/conversations/\(conversationID)/trips", token: token, as: API.ReservationsDocument.self
    ).reservations
  }

  public func changes(token: String) -> AnyPublisher<ChatChange, Never> {
    live.events(topic: "chat-queue", token: token).map(RemoteChat.change).eraseToAnyPublisher()
  }
}
