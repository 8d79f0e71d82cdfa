-- Issue 18 §3: notifications that are not an event's own. An outbox row
-- gains a `topic`: empty for the event's own notification (what the
-- trigger writes, unchanged), `standings` for "standings changed at the
-- top" (derived from a result by the worker), `deadline:G12:<unix>` for
-- "deadline approaching" (made by the worker from the competition's open
-- deadlines). `webhook_notices` records each notice that no event makes
-- (competition, topic) once, ever: a second worker, a restart or a scan
-- after delivery finds it and writes nothing.
--
-- SQLite cannot change a primary key: the outbox is copied into a table
-- with the new key. The trigger is dropped first (a rename checks every
-- trigger that names the table) and made again, the same.
DROP TRIGGER events_notify_webhooks;

CREATE TABLE webhook_outbox_topics (
    competition TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    webhook     TEXT NOT NULL,
    topic       TEXT NOT NULL DEFAULT '',
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (competition, seq, webhook, topic)
) WITHOUT ROWID;

INSERT INTO webhook_outbox_topics (competition, seq, webhook, topic, attempts, next_at)
SELECT competition, seq, webhook, '', attempts, next_at FROM webhook_outbox;

DROP TABLE webhook_outbox;
ALTER TABLE webhook_outbox_topics RENAME TO webhook_outbox;

CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at, competition, seq, webhook, topic);
CREATE INDEX webhook_outbox_by_webhook ON webhook_outbox (webhook);

CREATE TRIGGER events_notify_webhooks AFTER INSERT ON events
BEGIN
    INSERT INTO webhook_outbox (competition, seq, webhook, attempts, next_at)
    SELECT NEW.competition, NEW.seq, w.id, 0, 0 FROM webhooks AS w
    WHERE w.competition = NEW.competition AND w.disabled_reason IS NULL;
END;

CREATE TABLE webhook_notices (
    competition TEXT NOT NULL,
    topic       TEXT NOT NULL,
    -- The competition's version when the notice was made.
    seq         INTEGER NOT NULL,
    PRIMARY KEY (competition, topic)
) WITHOUT ROWID;
