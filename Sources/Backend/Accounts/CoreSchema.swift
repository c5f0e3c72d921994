/// The tables of accounts, sessions, cards, payments and reservations (module `core`).
///
/// Money is stored as an integer count of minor units plus its ISO 4217 code; instants as REAL
/// seconds since 1970 (UTC). Features add their own lists (`flights.001`, …) in
/// ``BackendServices``; never edit a migration that has shipped, append a new one.
public enum CoreSchema {
  public static let migrations: [Migration] = [
    Migration(
      id: "core.001",
      sql: """
        CREATE TABLE users (
          id INTEGER PRIMARY KEY,
          email TEXT NOT NULL UNIQUE,
          first_name TEXT NOT NULL,
          last_name TEXT NOT NULL,
          password_hash TEXT NOT NULL,
          created_at REAL NOT NULL,
          currency TEXT NOT NULL DEFAULT 'USD',
          language TEXT NOT NULL DEFAULT 'en',
          appearance TEXT NOT NULL DEFAULT 'system' CHECK (appearance IN ('light', 'dark', 'system')),
          home_airport TEXT
        ) STRICT;
        CREATE TABLE sign_in_failures (
          email TEXT PRIMARY KEY,
          count INTEGER NOT NULL,
          last_at REAL NOT NULL
        ) STRICT;
        CREATE TABLE sessions (
          token_hash BLOB PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          created_at REAL NOT NULL,
          expires_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX sessions_by_user ON sessions(user_id);
        CREATE TABLE cards (
          id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          brand TEXT NOT NULL,
          last4 TEXT NOT NULL,
          expiry_month INTEGER NOT NULL,
          expiry_year INTEGER NOT NULL,
          pan_sealed BLOB NOT NULL,
          is_default INTEGER NOT NULL DEFAULT 0,
          created_at REAL NOT NULL,
          removed_at REAL
        ) STRICT;
        CREATE UNIQUE INDEX cards_one_default ON cards(user_id) WHERE is_default = 1 AND removed_at IS NULL;
        CREATE TABLE payments (
          id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id),
          card_id TEXT NOT NULL REFERENCES cards(id),
          reservation_id TEXT,
          amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
          currency TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('authorized', 'captured', 'voided', 'refunded', 'partially_refunded')),
          captured_minor INTEGER NOT NULL DEFAULT 0,
          refunded_minor INTEGER NOT NULL DEFAULT 0,
          created_at REAL NOT NULL,
          updated_at REAL NOT NULL
        ) STRICT;
        CREATE TABLE payment_events (
          id INTEGER PRIMARY KEY,
          payment_id TEXT NOT NULL REFERENCES payments(id),
          type TEXT NOT NULL CHECK (type IN ('authorize', 'capture', 'void', 'refund')),
          amount_minor INTEGER NOT NULL,
          at REAL NOT NULL
        ) STRICT;
        CREATE TABLE reservations (
          id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id),
          kind TEXT NOT NULL CHECK (kind IN ('flight', 'hotel', 'car')),
          status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
          total_minor INTEGER NOT NULL,
          currency TEXT NOT NULL,
          created_at REAL NOT NULL,
          summary TEXT NOT NULL,
          locator TEXT NOT NULL UNIQUE,
          starts_at REAL,
          ends_at REAL,
          details TEXT NOT NULL,
          payment_id TEXT REFERENCES payments(id),
          idempotency_key TEXT,
          cancelled_at REAL,
          refunded_minor INTEGER
        ) STRICT;
        CREATE UNIQUE INDEX reservations_idempotency ON reservations(user_id, idempotency_key)
          WHERE idempotency_key IS NOT NULL;
        CREATE INDEX reservations_by_user ON reservations(user_id, created_at);
        """),
    // What an idempotency key was used for (``BookingRequest/fingerprint``), so that a key reused
    // for another request is refused instead of answering with the first reservation.
    Migration(id: "core.002", sql: "ALTER TABLE reservations ADD COLUMN idempotency_fingerprint TEXT;"),
    // State several server instances on one database share (#19): the sign-in attempts the rate
    // limit counts (``SignInAttempts``), and each key's check value, so an instance started with
    // other key files than the first one is refused (``SharedKeys``).
    Migration(
      id: "core.003",
      sql: """
        CREATE TABLE sign_in_attempts (
          id INTEGER PRIMARY KEY,
          bucket TEXT NOT NULL,
          at REAL NOT NULL
        ) STRICT;
        CREATE INDEX sign_in_attempts_by_bucket ON sign_in_attempts(bucket, at);
        CREATE TABLE key_checks (
          name TEXT PRIMARY KEY,
          check_value TEXT NOT NULL,
          created_at REAL NOT NULL
        ) STRICT;
        """),
  ]
}
