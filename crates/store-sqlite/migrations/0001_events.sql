-- The permanent record: one append-only log per competition.
CREATE TABLE events (
    competition     TEXT    NOT NULL,
    seq             INTEGER NOT NULL CHECK (seq >= 1),
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    actor           TEXT    NOT NULL,
    recorded_at     TEXT    NOT NULL,
    idempotency_key TEXT,
    PRIMARY KEY (competition, seq)
) WITHOUT ROWID;

-- Events are never changed nor removed: corrections are new events.
-- The insert trigger keeps each log gapless (1, 2, 3 …) and also stops
-- `INSERT OR REPLACE`, whose implicit delete fires no delete trigger.
CREATE TRIGGER events_gapless BEFORE INSERT ON events
WHEN NEW.seq <> 1 + (SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = NEW.competition)
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: a new event must take the next sequence number');
END;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: UPDATE is refused');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: DELETE is refused');
END;

-- Which command (by idempotency key) appended which events.
CREATE TABLE idempotency (
    key         TEXT    PRIMARY KEY,
    competition TEXT    NOT NULL,
    first_seq   INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL
) WITHOUT ROWID; -- one b-tree, so one page less to write per append

-- Small per-competition secrets (draw seeds committed by hash, revealed later);
-- kept apart from the event log on purpose.
CREATE TABLE secrets (
    competition TEXT NOT NULL,
    name        TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (competition, name)
) WITHOUT ROWID;
