-- Issue 14 item 2: a token can carry an expiry, and its list shows when it
-- was last used. Both RFC 3339, NULL for "never". Old tokens keep no
-- expiry and count as never used.
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT COLLATE "C";
ALTER TABLE api_tokens ADD COLUMN last_used TEXT COLLATE "C";
