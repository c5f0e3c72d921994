import Backend
import Common
import Foundation
import Transport

/// The chat routes: the traveller's (`/v1/chat…`, a traveller's token) and the agents'
/// (`/v1/agent…`, an agent's token, from `POST /v1/agent/sessions`). A token of the other role is
/// `not_signed_in` (401); another traveller's conversation is `conversation_not_found` (404).
enum ChatEndpoints {
  /// The agents' routes: an authenticated one here needs an agent's token (``TravelServer`` checks it).
  static let agentPrefix = "/v1/agent/"

  static func add(_ router: inout Router, _ backend: ServerBackend, _ signIns: SignInLimiter) {
    let chat = backend.services.chat
    let console = backend.services.agentConsoleService
    @Sendable func id(_ call: Call) throws -> Int64 { try ChatRules.conversationID(call.parameters["id"] ?? "") }

    router.add("GET", "/v1/chat", auth: true, "The traveller's current conversation (open, else the last closed).") {
      call in
      try .json(API.ChatThreadDocument(thread: try chat.currentThread(token: try call.token())))
    }
    router.add(
      "POST", "/v1/chat/messages", auth: true,
      "Sends a message (starts a conversation in the agents' queue when none is open); clientId makes it idempotent."
    ) { call in
      let token = try call.token()
      let body = try call.body(API.NewChatMessage.self)
      let message = try chat.send(body.text, trip: body.trip, clientID: body.clientID, token: token)
      return try .json(API.ChatMessageDocument(message: message), status: 201)
    }
    router.add(
      "POST", "/v1/chat/conversations/{id}/receipts", auth: true,
      "Marks the agents' messages through a sequence delivered, or read."
    ) { call in
      let token = try call.token()
      let body = try call.body(API.ChatReceipt.self)
      try chat.acknowledge(conversationID: try id(call), through: body.through, read: body.read, token: token)
      return try .json(API.Acknowledged())
    }
    router.add("GET", "/v1/chat/unread", auth: true, "How many agents' messages the traveller has not read.") { call in
      try .json(API.UnreadDocument(unread: try chat.unreadCount(token: try call.token())))
    }

    router.add("POST", "/v1/agent/sessions", auth: false, "An agent signs in: a token for the /v1/agent routes.") {
      call in
      let body = try call.body(API.SignIn.self)
      try signIns.admit(address: call.request.remoteAddress, email: "agent:" + body.email)
      let session = try console.signIn(email: body.email, password: body.password)
      return try .json(API.AgentSignedIn(session: session, agent: try console.agent(token: session.token)), status: 201)
    }
    router.add("GET", "/v1/agent/session", auth: true, "Which agent is signed in.") { call in
      try .json(API.AgentDocument(agent: try console.agent(token: try call.token())))
    }
    router.add("DELETE", "/v1/agent/session", auth: true, "The agent signs out.") { call in
      try console.signOut(token: try call.token())
      return try .json(API.SignedOut(signedOut: true))
    }
    router.add("GET", "/v1/agent/queue", auth: true, "The open conversations, the longest waiting first.") { call in
      try .json(API.QueueDocument(queue: try console.queue(token: try call.token())))
    }
    router.add("GET", "/v1/agent/conversations/{id}", auth: true, "One conversation with its messages.") { call in
      let token = try call.token()
      return try .json(API.ChatThreadDocument(thread: try console.thread(conversationID: try id(call), token: token)))
    }
    router.add(
      "POST", "/v1/agent/conversations/{id}/take", auth: true,
      "Takes a waiting conversation (one transaction: two agents never hold the same)."
    ) { call in
      let token = try call.token()
      return try .json(
        API.ConversationDocument(conversation: try console.take(conversationID: try id(call), token: token)))
    }
    router.add(
      "POST", "/v1/agent/conversations/{id}/messages", auth: true, "Replies in a conversation the agent holds."
    ) {
      call in
      let token = try call.token()
      let body = try call.body(API.NewChatMessage.self)
      guard body.trip == nil else {
        throw ServiceError.invalid("invalid_trip", "agents do not attach trips: send {\"text\"} (and \"clientId\")")
      }
      let message = try console.reply(
        conversationID: try id(call), text: body.text, clientID: body.clientID, token: token)
      return try .json(API.ChatMessageDocument(message: message), status: 201)
    }
    router.add("POST", "/v1/agent/conversations/{id}/close", auth: true, "Closes a conversation the agent holds.") {
      call in
      let token = try call.token()
      return try .json(
        API.ConversationDocument(conversation: try console.close(conversationID: try id(call), token: token)))
    }
    router.add(
      "POST", "/v1/agent/conversations/{id}/receipts", auth: true,
      "Marks the traveller's messages through a sequence delivered, or read (the holder only)."
    ) { call in
      let token = try call.token()
      let body = try call.body(API.ChatReceipt.self)
      try console.acknowledge(conversationID: try id(call), through: body.through, read: body.read, token: token)
      return try .json(API.Acknowledged())
    }
    router.add(
      "GET", "/v1/agent/conversations/{id}/trips", auth: true,
      "The traveller's trips, read only (while the agent holds the conversation)."
    ) { call in
      let token = try call.token()
      return try .json(API.ReservationsDocument(try console.trips(conversationID: try id(call), token: token)))
    }
  }

  /// The request and answer shapes of the chat routes, for the OpenAPI document.
  static let shapes: [String: (request: String?, status: Int, response: String)] = [
    "GET /v1/chat": (nil, 200, "ChatThreadDocument"),
    "POST /v1/chat/messages": ("NewChatMessage", 201, "ChatMessageDocument"),
    "POST /v1/chat/conversations/{id}/receipts": ("ChatReceipt", 200, "Acknowledged"),
    "GET /v1/chat/unread": (nil, 200, "UnreadDocument"),
    "POST /v1/agent/sessions": ("SignIn", 201, "AgentSignedIn"),
    "GET /v1/agent/session": (nil, 200, "AgentDocument"),
    "DELETE /v1/agent/session": (nil, 200, "SignedOut"),
    "GET /v1/agent/queue": (nil, 200, "QueueDocument"),
    "GET /v1/agent/conversations/{id}": (nil, 200, "ChatThreadDocument"),
    "POST /v1/agent/conversations/{id}/take": (nil, 200, "ConversationDocument"),
    "POST /v1/agent/conversations/{id}/messages": ("NewChatMessage", 201, "ChatMessageDocument"),
    "POST /v1/agent/conversations/{id}/close": (nil, 200, "ConversationDocument"),
    "POST /v1/agent/conversations/{id}/receipts": ("ChatReceipt", 200, "Acknowledged"),
    "GET /v1/agent/conversations/{id}/trips": (nil, 200, "ReservationsDocument"),
  ]

  /// The JSON Schemas of the chat documents.
  static var schemas: [String: Any] {
    typealias S = OpenAPISchemas
    let trip = S.object(
      ["reservationId": S.string, "kind": S.string, "summary": S.string, "locator": S.nullableString],
      required: ["reservationId", "kind", "summary"])
    let state: [String: Any] = ["type": "string", "enum": ["sent", "delivered", "read"]]
    return [
      "AttachedTrip": trip,
      "ChatMessage": S.object(
        [
          "id": S.integer, "conversationId": S.integer, "sequence": S.integer,
          "sender": ["type": "string", "enum": ["traveller", "agent"]], "senderName": S.string,
          "text": ["type": "string", "minLength": 1, "maxLength": ChatRules.maximumMessageLength],
          "trip": S.ref("AttachedTrip"), "sentAt": S.dateTime, "deliveredAt": S.dateTime, "readAt": S.dateTime,
          "state": state, "clientId": S.string,
        ], required: ["id", "conversationId", "sequence", "sender", "senderName", "text", "sentAt", "state"]),
      "Conversation": S.object(
        [
          "id": S.integer, "status": ["type": "string", "enum": ["open", "closed"]], "travellerName": S.string,
          "travellerEmail": S.string, "agentName": S.nullableString, "heldByMe": S.boolean,
          "trip": S.ref("AttachedTrip"), "createdAt": S.dateTime, "lastMessageAt": S.dateTime,
          "waitingSince": S.dateTime, "unread": S.integer, "messageCount": S.integer, "closedAt": S.dateTime,
        ],
        required: [
          "id", "status", "travellerName", "travellerEmail", "heldByMe", "createdAt", "lastMessageAt", "unread",
          "messageCount",
        ]),
      "ChatThread": S.object(
        ["conversation": S.ref("Conversation"), "messages": S.array(S.ref("ChatMessage"))],
        required: ["conversation", "messages"]),
      "ChatThreadDocument": S.object(
        ["thread": ["oneOf": [S.ref("ChatThread"), ["type": "null"] as [String: Any]]]], required: []),
      "ChatMessageDocument": S.object(["message": S.ref("ChatMessage")], required: ["message"]),
      "NewChatMessage": S.object(
        [
          "text": ["type": "string", "minLength": 1, "maxLength": ChatRules.maximumMessageLength], "trip": S.string,
          "clientId": ["type": "string", "minLength": 1, "maxLength": ChatRules.maximumClientIDLength],
        ], required: ["text"]),
      "ChatReceipt": S.object(["through": S.integer, "read": S.boolean], required: ["through", "read"]),
      "Acknowledged": S.object(["acknowledged": S.boolean], required: ["acknowledged"]),
      "UnreadDocument": S.object(["unread": S.integer], required: ["unread"]),
      "AgentProfile": S.object(["email": S.string, "name": S.string], required: ["email", "name"]),
      "AgentSignedIn": S.object(
        [
          "session": S.object(["token": S.string, "expiresAt": S.dateTime], required: ["token", "expiresAt"]),
          "agent": S.ref("AgentProfile"),
        ], required: ["session", "agent"]),
      "AgentDocument": S.object(["agent": S.ref("AgentProfile")], required: ["agent"]),
      "QueueDocument": S.object(["queue": S.array(S.ref("Conversation"))], required: ["queue"]),
      "ConversationDocument": S.object(["conversation": S.ref("Conversation")], required: ["conversation"]),
    ]
  }

  /// The topics of `/v1/stream` for the chat: `chat` (the traveller's conversations), `chat:<id>`
  /// (one conversation: its traveller, or any agent) and `chat-queue` (agents only). Events:
  /// `chat.started`, `chat.message` (data `{"conversationId", "kind", "message"}`), `chat.receipt`,
  /// `chat.taken`, `chat.closed` (data `{"conversationId", "kind"}`).
  static func topics(_ backend: ServerBackend) -> [TopicDefinition] {
    let store = backend.services.chat
    let agentsOnly = ServiceError(
      .unauthenticated, code: "not_signed_in", message: "chat-queue is the agents' topic: sign in as an agent")
    let travellersOnly = ServiceError(
      .unauthenticated, code: "not_signed_in", message: "chat is a traveller's topic: agents follow chat-queue")
    return [
      TopicDefinition(
        name: "chat", requiresAuthentication: true,
        feedTopic: { _, userID in
          guard let userID else { throw ServiceError.notSignedIn }
          return ChatSchema.travellerTopic(userID: userID)
        }, agentFeedTopic: { _, _ in throw travellersOnly }),
      TopicDefinition(
        name: "chat:", requiresAuthentication: true,
        feedTopic: { name, userID in
          guard let userID else { throw ServiceError.notSignedIn }
          let id = try ChatRules.conversationID(String(name.dropFirst(5)))
          guard try store.owner(of: id) == userID else { throw ChatRules.notFound(id) }
          return ChatSchema.conversationTopic(id)
        },
        agentFeedTopic: { name, _ in
          let id = try ChatRules.conversationID(String(name.dropFirst(5)))
          guard try store.owner(of: id) != nil else { throw ChatRules.notFound(id) }
          return ChatSchema.conversationTopic(id)
        }),
      TopicDefinition(
        name: "chat-queue", requiresAuthentication: true, feedTopic: { _, _ in throw agentsOnly },
        agentFeedTopic: { _, _ in ChatSchema.queueTopic }),
    ]
  }
}
