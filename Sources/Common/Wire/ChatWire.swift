import Foundation

/// The documents of the chat routes of `/v1` (`/v1/chat/…` for travellers, `/v1/agent/…` for
/// agents), shared by `Server` (which encodes them) and `Remote` (which decodes them): the models
/// of ``ChatService`` and ``AgentConsoleService`` in envelopes, as the commands print with `--json`.
extension API {
  /// `{"thread": ChatThread | null}`.
  public struct ChatThreadDocument: Codable, Sendable {
    public var thread: ChatThread?
    public init(thread: ChatThread?) { self.thread = thread }
  }

  /// `{"message": ChatMessage}`.
  public struct ChatMessageDocument: Codable, Sendable {
    public var message: ChatMessage
    public init(message: ChatMessage) { self.message = message }
  }

  /// The body of a new message: `{"text", "trip"?, "clientId"?}` (`trip`: a reservation id, for
  /// travellers only).
  public struct NewChatMessage: Codable, Sendable {
    public var text: String
    public var trip: String?
    public var clientID: String?
    public init(text: String, trip: String? = nil, clientID: String? = nil) {
      self.text = text
      self.trip = trip
      self.clientID = clientID
    }
    enum CodingKeys: String, CodingKey {
      case text, trip
      case clientID = "clientId"
    }
  }

  /// The body of a receipt: the other side's messages through `through` are delivered, or read:
  /// `{"through", "read"}`.
  public struct ChatReceipt: Codable, Sendable {
    public var through: Int64
    public var read: Bool
    public init(through: Int64, read: Bool) {
      self.through = through
      self.read = read
    }
  }

  /// `{"acknowledged": true}`.
  public struct Acknowledged: Codable, Sendable {
    public var acknowledged: Bool
    public init(acknowledged: Bool = true) { self.acknowledged = acknowledged }
  }

  /// `{"unread": 2}`.
  public struct UnreadDocument: Codable, Sendable {
    public var unread: Int
    public init(unread: Int) { self.unread = unread }
  }

  /// An agent's sign-in: `{"session": {"token", "expiresAt"}, "agent": AgentProfile}`.
  public struct AgentSignedIn: Codable, Sendable {
    public struct SessionPart: Codable, Sendable {
      public var token: String
      public var expiresAt: Date
    }
    public var session: SessionPart
    public var agent: AgentProfile
    public init(session: Session, agent: AgentProfile) {
      self.session = SessionPart(token: session.token, expiresAt: session.expiresAt)
      self.agent = agent
    }
    public var model: Session { Session(token: session.token, expiresAt: session.expiresAt) }
  }

  /// `{"agent": AgentProfile}`.
  public struct AgentDocument: Codable, Sendable {
    public var agent: AgentProfile
    public init(agent: AgentProfile) { self.agent = agent }
  }

  /// `{"queue": [Conversation]}`, the longest waiting first.
  public struct QueueDocument: Codable, Sendable {
    public var queue: [Conversation]
    public init(queue: [Conversation]) { self.queue = queue }
  }

  /// `{"conversation": Conversation}`.
  public struct ConversationDocument: Codable, Sendable {
    public var conversation: Conversation
    public init(conversation: Conversation) { self.conversation = conversation }
  }
}
