import Common
import Foundation

/// The tables of the chat with the agency (module `chat`): agents and their sessions,
/// conversations and their messages.
///
/// - `agents`, `agent_sessions`: a role of its own, apart from `users` and `sessions`, so an
///   agent's token is never a traveller's (it cannot book, pay or read an account) and a
///   traveller's never an agent's. Passwords as scrypt hashes, tokens as their SHA-256, as for
///   travellers (``Accounts``).
/// - `conversations`: one traveller, `open` (waiting while `agent_id` is null, else held by that
///   agent) or `closed`; at most one open per traveller (a partial unique index).
/// - `chat_messages`: per conversation a sequence 1, 2, 3 … (unique), the sender (`traveller` or
///   `agent`), the text, an optional attached reservation, `sent_at`, `delivered_at` and
///   `read_at` (REAL seconds since 1970, UTC); `client_id` is the writer's idempotency key, unique
///   per writer (`sender_key`: `u<id>` or `a<id>`).
public enum ChatSchema {
  public static let migrations: [Migration] = [
    Migration(
      id: "chat.001",
      sql: """
        CREATE TABLE agents (
          id INTEGER PRIMARY KEY,
          email TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at REAL NOT NULL
        ) STRICT;
        CREATE TABLE agent_sessions (
          token_hash BLOB PRIMARY KEY,
          agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
          created_at REAL NOT NULL,
          expires_at REAL NOT NULL
        ) STRICT;
        CREATE TABLE conversations (
          id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id),
          status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
          agent_id INTEGER REFERENCES agents(id),
          reservation_id TEXT REFERENCES reservations(id),
          created_at REAL NOT NULL,
          updated_at REAL NOT NULL,
          taken_at REAL,
          closed_at REAL
        ) STRICT;
        CREATE UNIQUE INDEX conversations_one_open ON conversations(user_id) WHERE status = 'open';
        CREATE INDEX conversations_by_user ON conversations(user_id, id);
        CREATE INDEX conversations_open ON conversations(status) WHERE status = 'open';
        CREATE TABLE chat_messages (
          id INTEGER PRIMARY KEY,
          conversation_id INTEGER NOT NULL REFERENCES conversations(id),
          sequence INTEGER NOT NULL,
          sender TEXT NOT NULL CHECK (sender IN ('traveller', 'agent')),
          agent_id INTEGER REFERENCES agents(id),
          sender_key TEXT NOT NULL,
          body TEXT NOT NULL,
          reservation_id TEXT,
          client_id TEXT,
          sent_at REAL NOT NULL,
          delivered_at REAL,
          read_at REAL,
          UNIQUE (conversation_id, sequence)
        ) STRICT;
        CREATE UNIQUE INDEX chat_messages_client ON chat_messages(sender_key, client_id) WHERE client_id IS NOT NULL;
        """)
  ]

  /// The feed topic of one conversation (messages, marks, taken, closed).
  public static func conversationTopic(_ id: Int64) -> String { "chat:\(id)" }
  /// The feed topic of one traveller's conversations (every event of each of them).
  public static func travellerTopic(userID: Int64) -> String { "chat-user:\(userID)" }
  /// The feed topic of the agents' queue (every event of every conversation).
  public static let queueTopic = "chat-queue"
}
