-- Issue 18 §3: webhooks, the durable outbox of their notifications, and the
-- log of delivery attempts.
--
-- A webhook is a competition's; `disabled_reason` NULL means active.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    competition     TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('generic', 'discord')),
    url             TEXT NOT NULL,
    secret          TEXT NOT NULL,
    label           TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    disabled_reason TEXT,
    failures        INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0)
) WITHOUT ROWID;

CREATE INDEX webhooks_by_competition ON webhooks (competition, disabled_reason);

-- One row per (event, active webhook) still to deliver, written by the
-- trigger below inside the append's own transaction: an append that is
-- refused or rolled back writes none, one that commits cannot lose them.
-- `next_at` (unix seconds) is when it is due: 0 when new, later after a
-- failed attempt or while a worker holds it (its lease).
CREATE TABLE webhook_outbox (
    competition TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    webhook     TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (competition, seq, webhook)
) WITHOUT ROWID;

CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at, competition, seq, webhook);
CREATE INDEX webhook_outbox_by_webhook ON webhook_outbox (webhook);

CREATE TRIGGER events_notify_webhooks AFTER INSERT ON events
BEGIN
    INSERT INTO webhook_outbox (competition, seq, webhook, attempts, next_at)
    SELECT NEW.competition, NEW.seq, w.id, 0, 0 FROM webhooks AS w
    WHERE w.competition = NEW.competition AND w.disabled_reason IS NULL;
END;

-- Each attempt, the newest few per webhook.
CREATE TABLE webhook_deliveries (
    n           INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook     TEXT NOT NULL,
    competition TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    attempt     INTEGER NOT NULL,
    at          TEXT NOT NULL,
    status      INTEGER,
    ok          INTEGER NOT NULL,
    detail      TEXT NOT NULL
);

CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook, n);
