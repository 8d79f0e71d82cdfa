-- Issue 18 §3: notifications that are not an event's own. An outbox row
-- gains a `topic`: empty for the event's own notification (what the
-- trigger writes, unchanged), `standings` for "standings changed at the
-- top" (derived from a result by the worker), `deadline:G12:<unix>` for
-- "deadline approaching" (made by the worker from the competition's open
-- deadlines). `webhook_notices` records each notice that no event makes
-- (competition, topic) once, ever: a second worker, a restart or a scan
-- after delivery finds it and writes nothing. On Citus (citus.sql) it is
-- distributed by competition, colocated with `webhook_outbox`.
ALTER TABLE webhook_outbox ADD COLUMN topic TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE webhook_outbox DROP CONSTRAINT webhook_outbox_pkey;
ALTER TABLE webhook_outbox ADD PRIMARY KEY (competition, seq, webhook, topic);

DROP INDEX webhook_outbox_due;
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at, competition, seq, webhook, topic);

CREATE TABLE webhook_notices (
    competition TEXT COLLATE "C" NOT NULL,
    topic       TEXT COLLATE "C" NOT NULL,
    -- The competition's version when the notice was made.
    seq         BIGINT NOT NULL,
    PRIMARY KEY (competition, topic)
);
