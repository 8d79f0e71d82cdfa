-- The fingerprint of the request an idempotency key was used for, so that
-- the key reused for a different request is refused instead of replayed.
-- Keys recorded before this migration get '' ("unknown"), which the store
-- treats as matching any request (replayed, as they were before).
ALTER TABLE idempotency ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
