-- Accounts, roles, sessions and API tokens. Beside the event logs, not in
-- them, and not append-only: passwords change, grants are revoked, sessions
-- expire. Secrets are stored hashed by the caller (argon2 PHC strings for
-- passwords, hex SHA-256 for session ids and API tokens).
-- No foreign keys to `accounts`: the store checks nothing the trait does not
-- document; the caller creates the account before granting it anything.

CREATE TABLE accounts (
    username      TEXT    PRIMARY KEY,
    display_name  TEXT    NOT NULL,
    email         TEXT,
    password_hash TEXT    NOT NULL,
    organizer     INTEGER NOT NULL CHECK (organizer IN (0, 1)),
    created_at    TEXT    NOT NULL
) WITHOUT ROWID;

-- One account's role in one competition; `player` is the player's name in
-- it (for the role 'player').
CREATE TABLE grants (
    competition TEXT NOT NULL,
    username    TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('owner', 'moderator', 'player')),
    player      TEXT,
    PRIMARY KEY (competition, username, role)
) WITHOUT ROWID;

-- For `grants_of`.
CREATE INDEX grants_by_username ON grants (username, competition);

-- Logged-in browsers, by the hex SHA-256 of the cookie's value. Times are
-- Unix seconds.
CREATE TABLE sessions (
    id_hash    TEXT    PRIMARY KEY,
    username   TEXT    NOT NULL,
    csrf       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX sessions_by_username ON sessions (username);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

-- Tokens of the JSON API, by the hex SHA-256 of the token.
CREATE TABLE api_tokens (
    hash       TEXT PRIMARY KEY,
    username   TEXT NOT NULL,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX api_tokens_by_username ON api_tokens (username);
