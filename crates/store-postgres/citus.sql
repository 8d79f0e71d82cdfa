-- Distributing Arbiter's PostgreSQL schema on Citus.
--
-- Run once on the coordinator, after the store has created its schema (open
-- it once: `arbiter --db postgres://…/arbiter competition list`) and before
-- any data is written. The migrations themselves stay plain PostgreSQL, so
-- one schema serves both. Untested in CI (no Citus there): see
-- ARCHITECTURE.md, "PostgreSQL and Citus".

-- The append-only triggers read only the rows of their own competition
-- (the same shard): safe on the shards.
SET citus.enable_unsafe_triggers TO on;

-- A competition's data, together on one shard: distributed by `competition`
-- and colocated with `events`.
SELECT create_distributed_table('events', 'competition');
SELECT create_distributed_table('streams', 'competition', colocate_with => 'events');
SELECT create_distributed_table('idempotency', 'competition', colocate_with => 'events');
SELECT create_distributed_table('secrets', 'competition', colocate_with => 'events');

-- The claims that make an idempotency key unique across competitions: by key,
-- a colocation group of their own (a unique constraint on Citus must contain
-- the distribution column). A keyed append writes the competition's shard and
-- the key's, in one two-phase-committed transaction.
SELECT create_distributed_table('idempotency_keys', 'key', colocate_with => 'none');

-- Small tables read on every request: copied to every node.
SELECT create_reference_table('accounts');
SELECT create_reference_table('grants');
SELECT create_reference_table('sessions');
SELECT create_reference_table('api_tokens');
SELECT create_reference_table('calendar_feeds');

-- Webhooks (issue 18 §3, migration 0004): the outbox row is written by the
-- trigger on `events` on the event's shard, so the outbox is colocated with
-- `events`; the registrations the trigger reads and the delivery log are
-- small reference tables. (Not yet run against a Citus cluster.)
SELECT create_distributed_table('webhook_outbox', 'competition', colocate_with => 'events');
SELECT create_reference_table('webhooks');
SELECT create_reference_table('webhook_deliveries');
-- Migration 0005: the notices made once per competition and topic, beside
-- the outbox rows they write.
SELECT create_distributed_table('webhook_notices', 'competition', colocate_with => 'webhook_outbox');
