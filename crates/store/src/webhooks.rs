//! Webhooks (issue 18 §3): the registrations of a competition's webhooks,
//! the durable outbox of notifications still to deliver, and the log of
//! delivery attempts.
//!
//! The outbox invariant: every backend writes one outbox row per event and
//! per *active* webhook of the event's competition **inside the transaction
//! that appends the event** (SQLite and PostgreSQL by a trigger on
//! `events`, the memory store in its append), so an append that fails or
//! conflicts writes none, and an append that commits cannot lose its
//! notifications to a crash. A row is deleted only once its delivery
//! succeeded (or was given up): delivery is at least once, and the row's
//! [`OutboxKey::id`] is the idempotency id receivers deduplicate by.
//!
//! Besides an event's own row (topic empty), a row may carry a *topic*: a
//! notification derived from the event by the worker
//! ([`WebhookStore::enqueue_outbox`], "standings changed at the top"), or
//! one that no event makes ([`WebhookStore::enqueue_notice`], "deadline
//! approaching"), written at most once per competition and topic ever,
//! whoever asks and however often.

use async_trait::async_trait;

use crate::{Seq, StoreError};

/// What a webhook's body looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WebhookKind {
    /// A JSON document signed with HMAC-SHA256 (see `docs/webhooks.md`).
    Generic,
    /// Discord's execute-webhook body (`content` and `embeds`).
    Discord,
}

impl WebhookKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WebhookKind::Generic => "generic",
            WebhookKind::Discord => "discord",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "generic" => Some(WebhookKind::Generic),
            "discord" => Some(WebhookKind::Discord),
            _ => None,
        }
    }
}

/// A webhook registered for a competition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Unique across the store (random, made by the caller).
    pub id: String,
    pub competition: String,
    pub kind: WebhookKind,
    pub url: String,
    /// The HMAC key of a generic webhook (kept in clear: signing needs it),
    /// empty for Discord.
    pub secret: String,
    /// What the organizer called it ("results channel").
    pub label: String,
    /// The account that registered it.
    pub created_by: String,
    /// RFC 3339.
    pub created_at: String,
    /// Why it no longer receives notifications (`None`: active).
    pub disabled: Option<String>,
    /// Failed deliveries since the last one that succeeded.
    pub failures: u32,
}

/// Which notification an outbox row is: an event of a competition (or a
/// notice made at that version, named by its topic), for one webhook.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutboxKey {
    pub competition: String,
    pub seq: Seq,
    pub webhook: String,
    /// Empty for the event's own notification; else what the row is about
    /// (`standings`, `deadline:G12:1797724740`), at most [`MAX_TOPIC`]
    /// bytes.
    pub topic: String,
}

/// The longest topic, in bytes.
pub const MAX_TOPIC: usize = 200;

/// A topic a derived row or a notice may have: not empty, at most
/// [`MAX_TOPIC`] bytes (a caller's mistake, refused before anything is
/// written).
pub fn check_topic(topic: &str) -> Result<(), StoreError> {
    if topic.is_empty() || topic.len() > MAX_TOPIC {
        return Err(StoreError::Backend(format!(
            "refused: a notification's topic has 1 to {MAX_TOPIC} bytes; this one has {}",
            topic.len()
        )));
    }
    Ok(())
}

impl OutboxKey {
    /// The event's own notification for `webhook`.
    pub fn event(competition: &str, seq: Seq, webhook: &str) -> Self {
        Self {
            competition: competition.to_owned(),
            seq,
            webhook: webhook.to_owned(),
            topic: String::new(),
        }
    }

    /// The idempotency id a receiver deduplicates by: the same for every
    /// attempt of this notification, different for every other one
    /// (`competition:seq:webhook`, then `:topic` when there is one).
    pub fn id(&self) -> String {
        if self.topic.is_empty() {
            format!("{}:{}:{}", self.competition, self.seq, self.webhook)
        } else {
            format!(
                "{}:{}:{}:{}",
                self.competition, self.seq, self.webhook, self.topic
            )
        }
    }
}

/// A notification still to deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxItem {
    pub key: OutboxKey,
    /// Failed attempts so far.
    pub attempts: u32,
    /// Unix seconds before which it is not tried (again); 0 when new.
    pub next_at: i64,
}

/// One attempt to deliver a notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub webhook: String,
    pub competition: String,
    pub seq: Seq,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// RFC 3339.
    pub at: String,
    /// The receiver's HTTP status, if it answered.
    pub status: Option<u16>,
    pub ok: bool,
    /// What happened, in words ("HTTP 500", "connection refused").
    pub detail: String,
    /// The topic of the notification's outbox row ([`OutboxKey::topic`]).
    pub topic: String,
}

/// The storage of webhooks, their outbox and delivery log. Invariants (see
/// the module and [`crate::conformance::webhooks`]):
/// - an appended event gets one outbox row per active webhook of its
///   competition, in the append's transaction, and nothing else does;
/// - a disabled webhook gets no new rows and its rows are not claimed;
/// - deleting a webhook deletes its rows and its log;
/// - a notice (a topic of a competition) is enqueued once, ever.
#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// Register a webhook; [`StoreError::Exists`] when its id is taken.
    async fn add_webhook(&self, hook: &Webhook) -> Result<(), StoreError>;
    async fn webhook(&self, id: &str) -> Result<Option<Webhook>, StoreError>;
    /// The webhooks of a competition, by creation time and id.
    async fn webhooks(&self, competition: &str) -> Result<Vec<Webhook>, StoreError>;
    /// Set a webhook's failure count and whether (and why) it is disabled;
    /// false when there is no such webhook.
    async fn set_webhook_state(
        &self,
        id: &str,
        failures: u32,
        disabled: Option<&str>,
    ) -> Result<bool, StoreError>;
    /// Delete a webhook with its outbox rows and its log; false when there
    /// was none.
    async fn delete_webhook(&self, id: &str) -> Result<bool, StoreError>;

    /// Claim up to `limit` due notifications (`next_at <= now`) of active
    /// webhooks, oldest first (by `next_at`, competition, seq, webhook), and
    /// push their `next_at` to `lease_until`, so that another claim skips
    /// them while they are being delivered; a worker that dies meanwhile
    /// leaves them to be claimed again after the lease.
    async fn claim_outbox(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, StoreError>;
    /// A notification delivered (or given up): its row is deleted. False
    /// when there was none.
    async fn finish_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError>;
    /// A failed attempt: the row's attempt count and next time. False when
    /// there was none.
    async fn retry_outbox(
        &self,
        key: &OutboxKey,
        attempts: u32,
        next_at: i64,
    ) -> Result<bool, StoreError>;
    /// The rows of a competition still to deliver, by seq, webhook and
    /// topic.
    async fn outbox(&self, competition: &str) -> Result<Vec<OutboxItem>, StoreError>;
    /// A row derived from another (`key.topic` not empty), due at once,
    /// if its webhook is active and the row is not already there: true
    /// when it was written. Writing it twice writes one row.
    async fn enqueue_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError>;
    /// A notice that no event makes (`topic` not empty, at most
    /// [`MAX_TOPIC`] bytes), made at version `seq` of `competition`: the
    /// first call for this competition and topic records it and writes a
    /// row for each active webhook of the competition, in one transaction,
    /// and answers true; every later call (another worker's, after a
    /// restart, after delivery) writes nothing and answers false.
    async fn enqueue_notice(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
    ) -> Result<bool, StoreError>;

    /// Record an attempt, keeping only the newest `keep` of its webhook.
    async fn log_delivery(&self, delivery: &Delivery, keep: u32) -> Result<(), StoreError>;
    /// A webhook's newest attempts first, at most `limit`.
    async fn deliveries(&self, webhook: &str, limit: u32) -> Result<Vec<Delivery>, StoreError>;
}

/// Rows as the SQL backends read them.
pub mod rows {
    use super::{Delivery, OutboxItem, OutboxKey, Webhook, WebhookKind};
    use crate::StoreError;

    /// id, competition, kind, url, secret, label, created_by, created_at,
    /// disabled_reason, failures.
    pub type WebhookRow = (
        String,
        String,
        String,
        String,
        String,
        String,
        String,
        String,
        Option<String>,
        i64,
    );

    /// The columns of [`WebhookRow`], for SELECTs.
    pub const WEBHOOK_COLUMNS: &str = "id, competition, kind, url, secret, label, created_by, \
         created_at, disabled_reason, failures";

    pub fn webhook_from_row(
        (id, competition, kind, url, secret, label, created_by, created_at, disabled, failures): WebhookRow,
    ) -> Result<Webhook, StoreError> {
        let kind = WebhookKind::parse(&kind).ok_or_else(|| {
            StoreError::Backend(format!("unknown kind {kind:?} of webhook {id:?}"))
        })?;
        Ok(Webhook {
            id,
            competition,
            kind,
            url,
            secret,
            label,
            created_by,
            created_at,
            disabled,
            failures: u32::try_from(failures).unwrap_or(u32::MAX),
        })
    }

    /// competition, seq, webhook, topic, attempts, next_at.
    pub type OutboxRow = (String, i64, String, String, i64, i64);

    /// The columns of [`OutboxRow`], for SELECTs and RETURNING.
    pub const OUTBOX_COLUMNS: &str = "competition, seq, webhook, topic, attempts, next_at";

    pub fn outbox_from_row(
        (competition, seq, webhook, topic, attempts, next_at): OutboxRow,
    ) -> Result<OutboxItem, StoreError> {
        Ok(OutboxItem {
            key: OutboxKey {
                competition,
                seq: u64::try_from(seq).map_err(|_| {
                    StoreError::Backend(format!("corrupt outbox: negative sequence {seq}"))
                })?,
                webhook,
                topic,
            },
            attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
            next_at,
        })
    }

    /// webhook, competition, seq, attempt, at, status, ok, detail, topic.
    pub type DeliveryRow = (
        String,
        String,
        i64,
        i64,
        String,
        Option<i64>,
        bool,
        String,
        String,
    );

    pub fn delivery_from_row(
        (webhook, competition, seq, attempt, at, status, ok, detail, topic): DeliveryRow,
    ) -> Delivery {
        Delivery {
            webhook,
            competition,
            seq: u64::try_from(seq).unwrap_or(0),
            attempt: u32::try_from(attempt).unwrap_or(u32::MAX),
            at,
            status: status.and_then(|s| u16::try_from(s).ok()),
            ok,
            detail,
            topic,
        }
    }
}
