-- Issue 18 §4: private calendar feed URLs, by the hex SHA-256 of the token
-- in the URL. A feed is an account's (`owner_kind` 'account', `owner` its
-- username) or a competition's ('competition', its id); revoking deletes
-- the row, and the URL answers 404 from then on.
CREATE TABLE calendar_feeds (
    hash       TEXT COLLATE "C" PRIMARY KEY,
    owner_kind TEXT COLLATE "C" NOT NULL CHECK (owner_kind IN ('account', 'competition')),
    owner      TEXT COLLATE "C" NOT NULL,
    label      TEXT COLLATE "C" NOT NULL,
    created_by TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX calendar_feeds_by_owner ON calendar_feeds (owner_kind, owner);
