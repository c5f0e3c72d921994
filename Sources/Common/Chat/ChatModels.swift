import Foundation

/// Who wrote a chat message: the traveller or a travel agent of the agency.
public enum ChatSender: String, Hashable, Sendable, Codable {
  case traveller
  case agent
}

/// Where a message stands for the person who wrote it, as chat apps show it:
/// `sent` (stored by the agency's system), `delivered` (the other side's app has received it),
/// `read` (the other side has had it on screen). Each state implies the ones before it.
public enum ChatMessageState: String, Hashable, Sendable, Codable, Comparable {
  case sent
  case delivered
  case read

  private var rank: Int {
    switch self {
    case .sent: 0
    case .delivered: 1
    case .read: 2
    }
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

  /// The mark a transcript shows after a message of one's own: `✓` sent, `✓✓` delivered, `✓✓ read`.
  public var mark: String {
    switch self {
    case .sent: "✓"
    case .delivered: "✓✓"
    case .read: "✓✓ read"
    }
  }
}

/// A trip a conversation (or one message) is about: the traveller's reservation, as the agent
/// sees it attached (JSON: `{"reservationId", "kind", "summary", "locator"}`).
public struct AttachedTrip: Hashable, Sendable, Codable {
  /// The reservation's id (`res_…`).
  public var reservationID: String
  public var kind: ReservationKind
  /// The reservation's one-line summary (`SFO → JFK, UA 123, 2026-12-20`).
  public var summary: String
  /// The record locator (PNR) or confirmation code, when it has one.
  public var locator: String?

  public init(reservationID: String, kind: ReservationKind, summary: String, locator: String? = nil) {
    self.reservationID = reservationID
    self.kind = kind
    self.summary = summary
    self.locator = locator
  }

  enum CodingKeys: String, CodingKey {
    case reservationID = "reservationId"
    case kind, summary, locator
  }
}

/// One message of a conversation (JSON: `{"id", "conversationId", "sequence", "sender",
/// "senderName", "text", "trip", "sentAt", "deliveredAt", "readAt", "state", "clientId"}`;
/// instants ISO 8601 UTC).
public struct ChatMessage: Hashable, Sendable, Codable, Identifiable {
  /// The message's id in the store.
  public var id: Int64
  public var conversationID: Int64
  /// Its place in the conversation: 1, 2, 3, … without gaps.
  public var sequence: Int64
  public var sender: ChatSender
  /// "Ada Lovelace" for the traveller, the agent's name ("Grace Hopper") for an agent.
  public var senderName: String
  /// The text, as checked by ``ChatRules/checkedText(_:)``.
  public var text: String
  /// The trip attached to this message, if any.
  public var trip: AttachedTrip?
  /// When the agency's system stored it (UTC).
  public var sentAt: Date
  /// When the other side's app received it; nil until then.
  public var deliveredAt: Date?
  /// When the other side had it on screen; nil until then.
  public var readAt: Date?
  /// The writer's own id for it (the offline queue's idempotency key), if any.
  public var clientID: String?

  public init(
    id: Int64, conversationID: Int64, sequence: Int64, sender: ChatSender, senderName: String, text: String,
    trip: AttachedTrip? = nil, sentAt: Date, deliveredAt: Date? = nil, readAt: Date? = nil, clientID: String? = nil
  ) {
    self.id = id
    self.conversationID = conversationID
    self.sequence = sequence
    self.sender = sender
    self.senderName = senderName
    self.text = text
    self.trip = trip
    self.sentAt = sentAt
    self.deliveredAt = deliveredAt
    self.readAt = readAt
    self.clientID = clientID
  }

  /// Sent, delivered or read, from the two instants.
  public var state: ChatMessageState {
    if readAt != nil { return .read }
    if deliveredAt != nil { return .delivered }
    return .sent
  }

  enum CodingKeys: String, CodingKey {
    case id, sequence, sender, senderName, text, trip, sentAt, deliveredAt, readAt, state
    case conversationID = "conversationId"
    case clientID = "clientId"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    conversationID = try container.decode(Int64.self, forKey: .conversationID)
    sequence = try container.decode(Int64.self, forKey: .sequence)
    sender = try container.decode(ChatSender.self, forKey: .sender)
    senderName = try container.decode(String.self, forKey: .senderName)
    text = try container.decode(String.self, forKey: .text)
    trip = try container.decodeIfPresent(AttachedTrip.self, forKey: .trip)
    sentAt = try container.decode(Date.self, forKey: .sentAt)
    deliveredAt = try container.decodeIfPresent(Date.self, forKey: .deliveredAt)
    readAt = try container.decodeIfPresent(Date.self, forKey: .readAt)
    clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(conversationID, forKey: .conversationID)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(sender, forKey: .sender)
    try container.encode(senderName, forKey: .senderName)
    try container.encode(text, forKey: .text)
    try container.encodeIfPresent(trip, forKey: .trip)
    try container.encode(sentAt, forKey: .sentAt)
    try container.encodeIfPresent(deliveredAt, forKey: .deliveredAt)
    try container.encodeIfPresent(readAt, forKey: .readAt)
    try container.encode(state, forKey: .state)
    try container.encodeIfPresent(clientID, forKey: .clientID)
  }
}

/// Whether a conversation is still going on.
public enum ConversationStatus: String, Hashable, Sendable, Codable {
  /// Waiting in the agents' queue or held by one agent.
  case open
  /// Closed by its agent; the traveller's next message starts a new conversation.
  case closed
}

/// A conversation between one traveller and the agency (JSON: `{"id", "status", "travellerName",
/// "travellerEmail", "agentName", "trip", "createdAt", "lastMessageAt", "waitingSince",
/// "unread", "messageCount"}`).
///
/// A traveller has at most one open conversation. It waits in the agents' queue until one agent
/// takes it (``AgentConsoleService/take(conversationID:token:)``); from then on only that agent
/// replies, until they close it.
public struct Conversation: Hashable, Sendable, Codable, Identifiable {
  public var id: Int64
  public var status: ConversationStatus
  /// The traveller's name ("Ada Lovelace") and email.
  public var travellerName: String
  public var travellerEmail: String
  /// The agent holding it, nil while it waits in the queue.
  public var agentName: String?
  /// Whether the agent asking holds it (always false for the traveller's view).
  public var heldByMe: Bool
  /// The trip the conversation is about (the last one attached), if any.
  public var trip: AttachedTrip?
  public var createdAt: Date
  /// The last message's instant (the creation while it has none).
  public var lastMessageAt: Date
  /// Since when the traveller has been waiting for an answer: their oldest message after the
  /// last agent reply; nil when the agency has answered everything.
  public var waitingSince: Date?
  /// Messages from the other side that the viewer has not read.
  public var unread: Int
  public var messageCount: Int
  public var closedAt: Date?

  public init(
    id: Int64, status: ConversationStatus, travellerName: String, travellerEmail: String, agentName: String? = nil,
    heldByMe: Bool = false, trip: AttachedTrip? = nil, createdAt: Date, lastMessageAt: Date,
    waitingSince: Date? = nil, unread: Int = 0, messageCount: Int = 0, closedAt: Date? = nil
  ) {
    self.id = id
    self.status = status
    self.travellerName = travellerName
    self.travellerEmail = travellerEmail
    self.agentName = agentName
    self.heldByMe = heldByMe
    self.trip = trip
    self.createdAt = createdAt
    self.lastMessageAt = lastMessageAt
    self.waitingSince = waitingSince
    self.unread = unread
    self.messageCount = messageCount
    self.closedAt = closedAt
  }
}

/// A conversation with its messages, oldest first (JSON: `{"conversation", "messages"}`).
public struct ChatThread: Hashable, Sendable, Codable {
  public var conversation: Conversation
  public var messages: [ChatMessage]

  public init(conversation: Conversation, messages: [ChatMessage]) {
    self.conversation = conversation
    self.messages = messages
  }

  /// The last message's sequence (0 when there is none).
  public var lastSequence: Int64 { messages.last?.sequence ?? 0 }
}

/// A travel agent as the console shows them (JSON: `{"email", "name"}`).
public struct AgentProfile: Hashable, Sendable, Codable {
  public var email: String
  public var name: String

  public init(email: String, name: String) {
    self.email = email
    self.name = name
  }
}

/// Something changed in a chat the subscriber can see: a message, a delivery or read mark, a
/// conversation taken, closed or started. Carries what changed, not the new state: the
/// subscriber reads what it shows again.
public struct ChatChange: Hashable, Sendable, Codable {
  /// The conversation that changed.
  public var conversationID: Int64
  /// `message`, `receipt`, `started`, `taken`, `closed`, `trip`.
  public var kind: String

  public init(conversationID: Int64, kind: String) {
    self.conversationID = conversationID
    self.kind = kind
  }

  enum CodingKeys: String, CodingKey {
    case conversationID = "conversationId"
    case kind
  }
}
