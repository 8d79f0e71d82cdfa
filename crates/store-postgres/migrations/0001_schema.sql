-- Arbiter's store on PostgreSQL: the event logs, their idempotency keys and
-- secrets, and the accounts.
--
-- Every table of a competition's data has `competition` as the first column
-- of its primary key, so that on Citus each is distributed by `competition`
-- and colocated with `events`: one competition's log, keys, secrets and
-- stream row live on one shard, and an append touches that shard only (plus
-- the shard of its key's claim, see `idempotency_keys`). The accounts tables
-- are small and read on every request: reference tables. `citus.sql` beside
-- this folder holds the calls; ARCHITECTURE.md ("PostgreSQL and Citus") says
-- why.
--
-- Identifiers are `COLLATE "C"`: compared and sorted by bytes of their UTF-8,
-- the order of Rust's `String`, whatever the database's default collation.

-- One row per competition that was ever appended to: its version (the
-- sequence of its last event). Appends lock this row (`SELECT … FOR UPDATE`)
-- and so queue per competition, in any number of processes; the lock is a
-- row lock on the competition's own shard, so it works on Citus too, where
-- an advisory lock would only be held on the coordinator.
CREATE TABLE streams (
    competition TEXT COLLATE "C" PRIMARY KEY,
    version     BIGINT NOT NULL CHECK (version >= 0)
);

-- The permanent record: one append-only log per competition.
CREATE TABLE events (
    competition     TEXT COLLATE "C" NOT NULL,
    seq             BIGINT NOT NULL CHECK (seq >= 1),
    kind            TEXT NOT NULL,
    payload         TEXT NOT NULL,
    actor           TEXT NOT NULL,
    recorded_at     TEXT NOT NULL,
    idempotency_key TEXT COLLATE "C",
    PRIMARY KEY (competition, seq)
);

-- Events are never changed nor removed: corrections are new events. The
-- insert trigger keeps each log gapless (1, 2, 3 …); it reads only the rows
-- of the same competition, so on Citus it is safe on the shards.
CREATE FUNCTION arbiter_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seq <> 1 + COALESCE(
        (SELECT e.seq FROM events AS e WHERE e.competition = NEW.competition
         ORDER BY e.seq DESC LIMIT 1), 0) THEN
        RAISE EXCEPTION 'events are append-only: a new event must take the next sequence number'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE FUNCTION arbiter_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER events_gapless BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION arbiter_events_gapless();
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION arbiter_events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_events_append_only();

-- Idempotency keys are unique across the whole store (the trait refuses a
-- key used in another competition), but a unique constraint on Citus must
-- contain the distribution column. So a key is kept twice, in one
-- transaction:
-- * `idempotency`, keyed (competition, key), distributed by competition and
--   colocated with `events`: what the command appended and its request's
--   fingerprint, read for replays and exports beside the log;
-- * `idempotency_keys`, keyed by the key alone and distributed by `key` (its
--   own colocation group): the claim that makes a key global. Its primary key
--   is enforced on the key's shard, and a keyed append is a two-shard
--   transaction that Citus commits atomically (two-phase commit).
-- A reference table would also do, but it grows by one row per command and
-- every write to it goes to every node; a table distributed by key costs one
-- shard per claim.
CREATE TABLE idempotency (
    competition TEXT COLLATE "C" NOT NULL,
    key         TEXT COLLATE "C" NOT NULL,
    first_seq   BIGINT NOT NULL,
    last_seq    BIGINT NOT NULL,
    -- '' when unknown (kept for parity with SQLite; matches any request).
    fingerprint TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (competition, key)
);

CREATE TABLE idempotency_keys (
    key         TEXT COLLATE "C" PRIMARY KEY,
    competition TEXT COLLATE "C" NOT NULL
);

-- Small per-competition secrets (draw seeds committed by hash, revealed
-- later); kept apart from the event log on purpose.
CREATE TABLE secrets (
    competition TEXT COLLATE "C" NOT NULL,
    name        TEXT COLLATE "C" NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (competition, name)
);

-- The answer to a key already claimed by `owner` (NULL: not claimed): the
-- original range when it was claimed in this competition by the same request
-- (or one of unknown fingerprint), 'reused' otherwise, and 'retry' when the
-- claim is seen before the range it goes with (on Citus, whose reads of two
-- shards are not one snapshot).
CREATE FUNCTION arbiter_key_outcome(
    p_competition TEXT, p_key TEXT, p_fingerprint TEXT, p_owner TEXT,
    OUT o_outcome TEXT, OUT o_actual BIGINT, OUT o_first BIGINT, OUT o_last BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    fp TEXT;
BEGIN
    o_actual := 0;
    IF p_owner IS DISTINCT FROM p_competition THEN
        o_outcome := 'reused';
        RETURN;
    END IF;
    SELECT i.first_seq, i.last_seq, i.fingerprint INTO o_first, o_last, fp
        FROM idempotency AS i WHERE i.competition = p_competition AND i.key = p_key;
    IF NOT FOUND THEN
        o_outcome := 'retry';
    ELSIF fp = '' OR fp = p_fingerprint THEN
        o_outcome := 'replayed';
    ELSE
        o_outcome := 'reused';
    END IF;
END;
$$;

-- One append, in one call (one round trip, one transaction when called
-- outside one): the key, then the version under the stream's row lock, then
-- every event in one INSERT from arrays, the stream's version and the key.
-- `p_expected` is -1 for a version PostgreSQL cannot hold (a conflict).
-- Returns one row: 'appended' (o_first..o_last), 'conflict' (o_actual),
-- 'replayed' (o_first..o_last), 'reused' or 'retry' (call again).
CREATE FUNCTION arbiter_append(
    p_competition TEXT, p_expected BIGINT, p_key TEXT, p_fingerprint TEXT,
    p_kinds TEXT[], p_payloads TEXT[], p_actors TEXT[], p_recorded_ats TEXT[],
    OUT o_outcome TEXT, OUT o_actual BIGINT, OUT o_first BIGINT, OUT o_last BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    n BIGINT := COALESCE(array_length(p_kinds, 1), 0);
    v BIGINT;
    owner TEXT;
BEGIN
    -- The key first: a retry is answered whatever the version.
    IF p_key IS NOT NULL THEN
        SELECT k.competition INTO owner FROM idempotency_keys AS k WHERE k.key = p_key;
        IF FOUND THEN
            SELECT * INTO o_outcome, o_actual, o_first, o_last
                FROM arbiter_key_outcome(p_competition, p_key, p_fingerprint, owner);
            RETURN;
        END IF;
    END IF;

    -- The version as last committed, without a lock: a stale one is answered
    -- at once, having written nothing (so with no commit to flush to disk),
    -- and so is an append of no events, which records no key.
    SELECT s.version INTO v FROM streams AS s WHERE s.competition = p_competition;
    v := COALESCE(v, 0);
    IF v <> p_expected THEN
        -- The key again: a request with it may have committed since the
        -- look above (each statement reads what is committed when it
        -- starts), and then its answer is this one's, not a conflict.
        IF p_key IS NOT NULL THEN
            SELECT k.competition INTO owner FROM idempotency_keys AS k WHERE k.key = p_key;
            IF FOUND THEN
                SELECT * INTO o_outcome, o_actual, o_first, o_last
                    FROM arbiter_key_outcome(p_competition, p_key, p_fingerprint, owner);
                RETURN;
            END IF;
        END IF;
        o_outcome := 'conflict';
        o_actual := v;
        RETURN;
    END IF;
    IF n = 0 THEN
        o_outcome := 'appended';
        o_actual := v;
        o_first := v + 1;
        o_last := v;
        RETURN;
    END IF;

    -- Claim the key. A concurrent append holding it makes this wait for its
    -- end; if it committed, its answer is this one's.
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (key, competition) VALUES (p_key, p_competition)
            ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            SELECT k.competition INTO owner FROM idempotency_keys AS k WHERE k.key = p_key;
            SELECT * INTO o_outcome, o_actual, o_first, o_last
                FROM arbiter_key_outcome(p_competition, p_key, p_fingerprint, owner);
            RETURN;
        END IF;
    END IF;

    -- Lock the competition's stream (made at its first append), and check
    -- the version again under the lock.
    SELECT s.version INTO v FROM streams AS s WHERE s.competition = p_competition FOR UPDATE;
    IF NOT FOUND AND p_expected = 0 THEN
        INSERT INTO streams (competition, version) VALUES (p_competition, 0)
            ON CONFLICT DO NOTHING;
        SELECT s.version INTO v FROM streams AS s WHERE s.competition = p_competition FOR UPDATE;
    END IF;
    v := COALESCE(v, 0);
    IF v <> p_expected THEN
        -- Nothing written: give the key back.
        IF p_key IS NOT NULL THEN
            DELETE FROM idempotency_keys AS k WHERE k.key = p_key;
        END IF;
        o_outcome := 'conflict';
        o_actual := v;
        RETURN;
    END IF;

    INSERT INTO events (competition, seq, kind, payload, actor, recorded_at, idempotency_key)
        SELECT p_competition, v + t.ord, t.kind, t.payload, t.actor, t.recorded_at, p_key
        FROM unnest(p_kinds, p_payloads, p_actors, p_recorded_ats)
            WITH ORDINALITY AS t(kind, payload, actor, recorded_at, ord)
        ORDER BY t.ord;
    UPDATE streams AS s SET version = v + n WHERE s.competition = p_competition;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency (competition, key, first_seq, last_seq, fingerprint)
            VALUES (p_competition, p_key, v + 1, v + n, COALESCE(p_fingerprint, ''));
    END IF;
    o_outcome := 'appended';
    o_actual := v + n;
    o_first := v + 1;
    o_last := v + n;
END;
$$;

-- Accounts, roles, sessions and API tokens: beside the event logs, not in
-- them, and not append-only. Secrets are stored hashed by the caller. No
-- foreign keys to `accounts`: the store checks nothing the trait does not
-- document. Small tables read on every request: reference tables on Citus.
CREATE TABLE accounts (
    username      TEXT COLLATE "C" PRIMARY KEY,
    display_name  TEXT NOT NULL,
    email         TEXT,
    password_hash TEXT NOT NULL,
    organizer     BOOLEAN NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE TABLE grants (
    competition TEXT COLLATE "C" NOT NULL,
    username    TEXT COLLATE "C" NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('owner', 'moderator', 'player')),
    player      TEXT,
    PRIMARY KEY (competition, username, role)
);

CREATE INDEX grants_by_username ON grants (username, competition);

CREATE TABLE sessions (
    id_hash    TEXT COLLATE "C" PRIMARY KEY,
    username   TEXT COLLATE "C" NOT NULL,
    csrf       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX sessions_by_username ON sessions (username);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

CREATE TABLE api_tokens (
    hash       TEXT COLLATE "C" PRIMARY KEY,
    username   TEXT COLLATE "C" NOT NULL,
    label      TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX api_tokens_by_username ON api_tokens (username);
