-- Issue 18 §3: a delivery attempt names the topic of its outbox row (empty
-- for the event's own notification, `standings`, `deadline:G12:<unix>`), so
-- that the desk's log tells a result from the new leader it made.
ALTER TABLE webhook_deliveries ADD COLUMN topic TEXT NOT NULL DEFAULT '';
