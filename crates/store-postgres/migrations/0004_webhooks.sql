-- Issue 18 §3: webhooks, the durable outbox of their notifications, and the
-- log of delivery attempts. On Citus (citus.sql), `webhook_outbox` is
-- distributed by competition and colocated with `events` (the trigger
-- writes the event's own shard), `webhooks` and `webhook_deliveries` are
-- reference tables (small, read by the trigger on every shard).
--
-- A webhook is a competition's; `disabled_reason` NULL means active.
CREATE TABLE webhooks (
    id              TEXT COLLATE "C" PRIMARY KEY,
    competition     TEXT COLLATE "C" NOT NULL,
    kind            TEXT COLLATE "C" NOT NULL CHECK (kind IN ('generic', 'discord')),
    url             TEXT NOT NULL,
    secret          TEXT NOT NULL,
    label           TEXT NOT NULL,
    created_by      TEXT COLLATE "C" NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    disabled_reason TEXT,
    failures        BIGINT NOT NULL DEFAULT 0 CHECK (failures >= 0)
);

CREATE INDEX webhooks_by_competition ON webhooks (competition);

-- One row per (event, active webhook) still to deliver, written by the
-- trigger below inside the append's own transaction: an append that is
-- refused or rolled back writes none, one that commits cannot lose them.
-- `next_at` (unix seconds) is when it is due: 0 when new, later after a
-- failed attempt or while a worker holds it (its lease).
CREATE TABLE webhook_outbox (
    competition TEXT COLLATE "C" NOT NULL,
    seq         BIGINT NOT NULL,
    webhook     TEXT COLLATE "C" NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (competition, seq, webhook)
);

CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at, competition, seq, webhook);
CREATE INDEX webhook_outbox_by_webhook ON webhook_outbox (webhook);

CREATE FUNCTION arbiter_events_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_outbox (competition, seq, webhook, attempts, next_at)
    SELECT NEW.competition, NEW.seq, w.id, 0, 0 FROM webhooks AS w
    WHERE w.competition = NEW.competition AND w.disabled_reason IS NULL;
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify_webhooks AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION arbiter_events_notify_webhooks();

-- Each attempt, the newest few per webhook.
CREATE TABLE webhook_deliveries (
    n           BIGSERIAL PRIMARY KEY,
    webhook     TEXT COLLATE "C" NOT NULL,
    competition TEXT COLLATE "C" NOT NULL,
    seq         BIGINT NOT NULL,
    attempt     BIGINT NOT NULL,
    at          TEXT COLLATE "C" NOT NULL,
    status      BIGINT,
    ok          BOOLEAN NOT NULL,
    detail      TEXT NOT NULL
);

CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook, n);
