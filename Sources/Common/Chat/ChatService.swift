import Foundation
import Reactive

/// The rules of a chat message's text, checked the same way by the store, the server and the apps
/// (the names' rules of ``AccountInputRules``, with a longer limit).
public enum ChatRules {
  /// The most characters (extended grapheme clusters) of one message.
  public static let maximumMessageLength = 2_000
  /// The longest client id (the offline queue's idempotency key) of a message.
  public static let maximumClientIDLength = 64

  /// `text` trimmed of surrounding whitespace, ready to store.
  /// - Throws: ``ServiceError`` (`.invalidInput`): `message_empty` when nothing is left;
  ///   `invalid_message` for a control character (escape, tab, newline, …; Unicode general
  ///   category Cc), as for names; `message_too_long` beyond ``maximumMessageLength`` characters.
  public static func checkedText(_ text: String) throws -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw ServiceError.invalid(
        "invalid_message",
        "the message contains a control character (such as an escape, tab or newline): write it on one line, "
          + "with letters, digits, spaces and punctuation")
    }
    guard !trimmed.isEmpty else {
      throw ServiceError.invalid("message_empty", "the message is empty: write something to send")
    }
    guard trimmed.count <= maximumMessageLength else {
      throw ServiceError.invalid(
        "message_too_long",
        "the message is \(trimmed.count) characters long: use at most \(maximumMessageLength) characters")
    }
    return trimmed
  }

  /// `clientID` when it is printable ASCII without spaces, 1–``maximumClientIDLength`` characters.
  /// - Throws: `invalid_client_id` (`.invalidInput`) otherwise.
  public static func checkedClientID(_ clientID: String?) throws -> String? {
    guard let clientID else { return nil }
    guard !clientID.isEmpty, clientID.utf8.count <= maximumClientIDLength,
      clientID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else {
      throw ServiceError.invalid(
        "invalid_client_id",
        "a client id is printable ASCII without spaces, 1–\(maximumClientIDLength) characters")
    }
    return clientID
  }

  /// A conversation id typed on a command line (`42`).
  /// - Throws: `invalid_conversation_id` (`.invalidInput`) unless it is a positive whole number.
  public static func conversationID(_ text: String) throws -> Int64 {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let id = Int64(trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed), id > 0 else {
      throw ServiceError.invalid(
        "invalid_conversation_id", "invalid conversation id \"\(text)\": expected a number such as 42 (see queue)")
    }
    return id
  }

  /// The error of a conversation that does not exist or is not the caller's (the same for both,
  /// so an id reveals nothing).
  public static func notFound(_ id: Int64) -> ServiceError {
    ServiceError(.notFound, code: "conversation_not_found", message: "no conversation #\(id) is yours to see")
  }
}

/// The traveller's side of the chat with the agency. Implemented by `Backend` (the store) and
/// `Remote` (a travel-server); the shared chat sheet of `CommonUI` and the `chat` commands use it.
///
/// Synchronous (a store read or an HTTP round trip): call it off the main thread. Fails with
/// ``ServiceError``: `not_signed_in` / `session_expired` (`.unauthenticated`) for a dead token —
/// an agent's token is not a traveller's and gets `not_signed_in` too. A traveller sees only their
/// own conversations: another's id is `conversation_not_found`, exactly like an unknown one.
public protocol ChatService: Sendable {
  /// The traveller's current conversation with every message, oldest first: the open one, else
  /// the most recently closed; nil when they never wrote.
  func currentThread(token: String) throws -> ChatThread?

  /// Sends `text` in the traveller's open conversation, starting one (in the agents' queue) when
  /// none is open. `trip` (a reservation id of theirs) attaches that trip to the message and the
  /// conversation. `clientID` makes the call idempotent: sending again with the same client id
  /// returns the message stored the first time (the offline queue relies on it).
  /// - Throws: what ``ChatRules/checkedText(_:)`` throws; `reservation_not_found` (`.notFound`)
  ///   for a trip that is not theirs; `invalid_client_id`.
  func send(_ text: String, trip: String?, clientID: String?, token: String) throws -> ChatMessage

  /// Marks the agents' messages of `conversationID` up to `sequence` as delivered (the app has
  /// them) or, with `read`, as read (they were on screen). Marks only move forward.
  /// - Throws: `conversation_not_found`.
  func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws

  /// How many agents' messages, in all the traveller's conversations, are not read yet.
  func unreadCount(token: String) throws -> Int

  /// Emits whenever the traveller's chat changed — by this process or another (the embedded
  /// store is polled; a server pushes) — within a second. Never fails; cancel to stop.
  func changes(token: String) -> AnyPublisher<ChatChange, Never>
}

/// The agents' side: sign-in, the queue of open conversations, taking one, replying, closing,
/// and the traveller's trips (read only). Implemented by `Backend` and `Remote`; the `Agency`
/// feature (`travel-agent`) uses it.
///
/// Agents are a role of their own (`travel-server agents add`): an agent's token is never a
/// traveller's (it cannot book, pay or read a traveller's account) and a traveller's token is
/// never an agent's (`not_signed_in`). Fails with ``ServiceError``.
public protocol AgentConsoleService: Sendable {
  /// Signs an agent in.
  /// - Throws: `invalid_credentials` (`.unauthenticated`), `invalid_email`.
  func signIn(email: String, password: String) throws -> Session
  /// Ends the agent's session.
  func signOut(token: String) throws
  /// The signed-in agent.
  /// - Throws: `not_signed_in`, `session_expired`.
  func agent(token: String) throws -> AgentProfile

  /// The open conversations, the longest waiting first (then those answered, the least recently
  /// active first), each with its count of traveller messages not read by an agent.
  func queue(token: String) throws -> [Conversation]
  /// One conversation, open or closed, with every message (reading does not mark anything).
  /// - Throws: `conversation_not_found`.
  func thread(conversationID: Int64, token: String) throws -> ChatThread
  /// Takes a waiting conversation for this agent, in one transaction: of several agents taking
  /// the same one at once exactly one gets it. Taking one's own again is harmless.
  /// - Throws: `conversation_taken` (`.refused`, naming the agent) when another agent holds it;
  ///   `conversation_closed` (`.refused`); `conversation_not_found`.
  func take(conversationID: Int64, token: String) throws -> Conversation
  /// Replies in a conversation this agent holds (`clientID` as in ``ChatService/send(_:trip:clientID:token:)``).
  /// - Throws: `not_your_conversation` (`.refused`) unless this agent holds it;
  ///   `conversation_closed`; what ``ChatRules/checkedText(_:)`` throws.
  func reply(conversationID: Int64, text: String, clientID: String?, token: String) throws -> ChatMessage
  /// Closes a conversation this agent holds.
  /// - Throws: `not_your_conversation`, `conversation_closed`.
  func close(conversationID: Int64, token: String) throws -> Conversation
  /// Marks the traveller's messages up to `sequence` delivered, or read (only the holder marks).
  /// - Throws: `not_your_conversation`.
  func acknowledge(conversationID: Int64, through sequence: Int64, read: Bool, token: String) throws
  /// The traveller's reservations, newest first, read only, while this agent holds the
  /// conversation.
  /// - Throws: `not_your_conversation`.
  func trips(conversationID: Int64, token: String) throws -> [Reservation]

  /// Emits whenever the queue or any conversation changed (by any process), within a second.
  func changes(token: String) -> AnyPublisher<ChatChange, Never>
}
