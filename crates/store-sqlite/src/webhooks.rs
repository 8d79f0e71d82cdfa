//! [`WebhookStore`] on SQLite: the tables of `migrations/0006_webhooks.sql`
//! and `0007_webhook_topics.sql`. An event's outbox rows are written by the
//! trigger on `events`, inside the append's transaction; here are the
//! registrations, the claims, the log, and the rows the worker adds (a
//! derived row, a notice once per competition and topic). Writes go through
//! the writer connection.

use arbiter_store::webhooks::check_topic;
use arbiter_store::webhooks::rows::{
    DeliveryRow, OUTBOX_COLUMNS, OutboxRow, WEBHOOK_COLUMNS, WebhookRow, delivery_from_row,
    outbox_from_row, webhook_from_row,
};
use arbiter_store::{Delivery, OutboxItem, OutboxKey, Seq, StoreError, Webhook, WebhookStore};
use async_trait::async_trait;

use crate::{SqliteStore, backend, seq_to_db};

#[async_trait]
impl WebhookStore for SqliteStore {
    async fn add_webhook(&self, hook: &Webhook) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query(
            "INSERT INTO webhooks (id, competition, kind, url, secret, label, created_by, \
             created_at, disabled_reason, failures) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&hook.id)
        .bind(&hook.competition)
        .bind(hook.kind.as_str())
        .bind(&hook.url)
        .bind(&hook.secret)
        .bind(&hook.label)
        .bind(&hook.created_by)
        .bind(&hook.created_at)
        .bind(&hook.disabled)
        .bind(i64::from(hook.failures))
        .execute(conn)
        .await
        .map_err(backend("cannot register the webhook"))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Exists(format!("webhook {:?}", hook.id)));
        }
        Ok(())
    }

    async fn webhook(&self, id: &str) -> Result<Option<Webhook>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<WebhookRow> = sqlx::query_as(&format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?1"
        ))
        .bind(id)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read the webhook"))?;
        row.map(webhook_from_row).transpose()
    }

    async fn webhooks(&self, competition: &str) -> Result<Vec<Webhook>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<WebhookRow> = sqlx::query_as(&format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE competition = ?1 \
             ORDER BY created_at, id"
        ))
        .bind(competition)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list the webhooks"))?;
        rows.into_iter().map(webhook_from_row).collect()
    }

    async fn set_webhook_state(
        &self,
        id: &str,
        failures: u32,
        disabled: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done =
            sqlx::query("UPDATE webhooks SET failures = ?2, disabled_reason = ?3 WHERE id = ?1")
                .bind(id)
                .bind(i64::from(failures))
                .bind(disabled)
                .execute(conn)
                .await
                .map_err(backend("cannot change the webhook"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn delete_webhook(&self, id: &str) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        // Its rows and log first: a failure half way leaves a registration
        // that a second call deletes, never rows without one.
        sqlx::query(
            "DELETE FROM webhook_outbox WHERE webhook = ?1; \
             DELETE FROM webhook_deliveries WHERE webhook = ?1",
        )
        .bind(id)
        .execute(&mut *conn)
        .await
        .map_err(backend("cannot delete the webhook's notifications"))?;
        let done = sqlx::query("DELETE FROM webhooks WHERE id = ?1")
            .bind(id)
            .execute(conn)
            .await
            .map_err(backend("cannot delete the webhook"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn claim_outbox(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<OutboxRow> = sqlx::query_as(&format!(
            "UPDATE webhook_outbox SET next_at = ?2 \
             WHERE (competition, seq, webhook, topic) IN ( \
               SELECT o.competition, o.seq, o.webhook, o.topic FROM webhook_outbox AS o \
               JOIN webhooks AS w ON w.id = o.webhook \
               WHERE o.next_at <= ?1 AND w.disabled_reason IS NULL \
               ORDER BY o.next_at, o.competition, o.seq, o.webhook, o.topic LIMIT ?3) \
             RETURNING {OUTBOX_COLUMNS}"
        ))
        .bind(now)
        .bind(lease_until)
        .bind(i64::from(limit))
        .fetch_all(conn)
        .await
        .map_err(backend("cannot claim the webhook outbox"))?;
        let mut items = rows
            .into_iter()
            .map(outbox_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        // RETURNING has no order: by key (every claimed row was due).
        items.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(items)
    }

    async fn finish_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query(
            "DELETE FROM webhook_outbox \
             WHERE competition = ?1 AND seq = ?2 AND webhook = ?3 AND topic = ?4",
        )
        .bind(&key.competition)
        .bind(seq_to_db(key.seq)?)
        .bind(&key.webhook)
        .bind(&key.topic)
        .execute(conn)
        .await
        .map_err(backend("cannot finish the notification"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn retry_outbox(
        &self,
        key: &OutboxKey,
        attempts: u32,
        next_at: i64,
    ) -> Result<bool, StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query(
            "UPDATE webhook_outbox SET attempts = ?4, next_at = ?5 \
             WHERE competition = ?1 AND seq = ?2 AND webhook = ?3 AND topic = ?6",
        )
        .bind(&key.competition)
        .bind(seq_to_db(key.seq)?)
        .bind(&key.webhook)
        .bind(i64::from(attempts))
        .bind(next_at)
        .bind(&key.topic)
        .execute(conn)
        .await
        .map_err(backend("cannot reschedule the notification"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn outbox(&self, competition: &str) -> Result<Vec<OutboxItem>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<OutboxRow> = sqlx::query_as(&format!(
            "SELECT {OUTBOX_COLUMNS} FROM webhook_outbox \
             WHERE competition = ?1 ORDER BY seq, webhook, topic"
        ))
        .bind(competition)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot read the webhook outbox"))?;
        rows.into_iter().map(outbox_from_row).collect()
    }

    async fn enqueue_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        check_topic(&key.topic)?;
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        let done = sqlx::query(
            "INSERT INTO webhook_outbox (competition, seq, webhook, topic, attempts, next_at) \
             SELECT ?1, ?2, w.id, ?4, 0, 0 FROM webhooks AS w \
             WHERE w.id = ?3 AND w.disabled_reason IS NULL \
             ON CONFLICT (competition, seq, webhook, topic) DO NOTHING",
        )
        .bind(&key.competition)
        .bind(seq_to_db(key.seq)?)
        .bind(&key.webhook)
        .bind(&key.topic)
        .execute(conn)
        .await
        .map_err(backend("cannot add the notification"))?;
        Ok(done.rows_affected() > 0)
    }

    async fn enqueue_notice(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
    ) -> Result<bool, StoreError> {
        check_topic(topic)?;
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        // One transaction: the notice and its rows, or neither. The
        // notice's key makes a second call (another process's too: the
        // writer's lock is the database's) write nothing.
        let mut tx = sqlx::Connection::begin(conn)
            .await
            .map_err(backend("cannot begin the notice"))?;
        let made = sqlx::query(
            "INSERT INTO webhook_notices (competition, topic, seq) VALUES (?1, ?2, ?3) \
             ON CONFLICT (competition, topic) DO NOTHING",
        )
        .bind(competition)
        .bind(topic)
        .bind(seq_to_db(seq)?)
        .execute(&mut *tx)
        .await
        .map_err(backend("cannot record the notice"))?
        .rows_affected()
            > 0;
        if made {
            sqlx::query(
                "INSERT INTO webhook_outbox (competition, seq, webhook, topic, attempts, next_at) \
                 SELECT ?1, ?2, w.id, ?3, 0, 0 FROM webhooks AS w \
                 WHERE w.competition = ?1 AND w.disabled_reason IS NULL \
                 ON CONFLICT (competition, seq, webhook, topic) DO NOTHING",
            )
            .bind(competition)
            .bind(seq_to_db(seq)?)
            .bind(topic)
            .execute(&mut *tx)
            .await
            .map_err(backend("cannot add the notice's notifications"))?;
        }
        tx.commit()
            .await
            .map_err(backend("cannot commit the notice"))?;
        Ok(made)
    }

    async fn log_delivery(&self, d: &Delivery, keep: u32) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query(
            "INSERT INTO webhook_deliveries \
             (webhook, competition, seq, attempt, at, status, ok, detail, topic) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10); \
             DELETE FROM webhook_deliveries WHERE webhook = ?1 AND n NOT IN \
             (SELECT n FROM webhook_deliveries WHERE webhook = ?1 ORDER BY n DESC LIMIT ?9)",
        )
        .bind(&d.webhook)
        .bind(&d.competition)
        .bind(seq_to_db(d.seq)?)
        .bind(i64::from(d.attempt))
        .bind(&d.at)
        .bind(d.status.map(i64::from))
        .bind(d.ok)
        .bind(&d.detail)
        .bind(i64::from(keep))
        .bind(&d.topic)
        .execute(conn)
        .await
        .map_err(backend("cannot log the delivery"))?;
        Ok(())
    }

    async fn deliveries(&self, webhook: &str, limit: u32) -> Result<Vec<Delivery>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<DeliveryRow> = sqlx::query_as(
            "SELECT webhook, competition, seq, attempt, at, status, ok, detail, topic \
             FROM webhook_deliveries WHERE webhook = ?1 ORDER BY n DESC LIMIT ?2",
        )
        .bind(webhook)
        .bind(i64::from(limit))
        .fetch_all(conn)
        .await
        .map_err(backend("cannot read the delivery log"))?;
        Ok(rows.into_iter().map(delivery_from_row).collect())
    }
}
