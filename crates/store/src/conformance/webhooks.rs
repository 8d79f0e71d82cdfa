//! The conformance suite of [`WebhookStore`] (issue 18 §3): registrations,
//! the outbox written in the append's own transaction, claims and the
//! delivery log. Run with [`run_all`], each check on a fresh store.

use super::{event, ok};
use crate::{
    Delivery, EventStore, Idempotency, OutboxItem, OutboxKey, StoreError, Webhook, WebhookKind,
    WebhookStore,
};

/// Run every check, each on a fresh empty store made by `make`.
pub async fn run_all<S, F, Fut>(make: F)
where
    S: EventStore + WebhookStore + 'static,
    F: Fn() -> Fut,
    Fut: Future<Output = S>,
{
    macro_rules! check {
        ($name:ident) => {
            eprintln!("conformance (webhooks): {}", stringify!($name));
            $name(make().await).await;
        };
    }
    check!(registrations);
    check!(outbox_rows_come_with_the_events);
    check!(refused_appends_write_no_outbox_row);
    check!(claim_lease_finish_and_retry);
    check!(delete_takes_rows_and_log);
    check!(delivery_log_keeps_the_newest);
    check!(derived_rows_are_written_once_for_active_webhooks);
    check!(a_notice_is_made_once_ever);
}

fn hook(id: &str, competition: &str, created_at: &str) -> Webhook {
    Webhook {
        id: id.to_owned(),
        competition: competition.to_owned(),
        kind: WebhookKind::Generic,
        url: format!("https://example.org/{id}"),
        secret: format!("secret-{id}"),
        label: format!("label {id}"),
        created_by: "alice".to_owned(),
        created_at: created_at.to_owned(),
        disabled: None,
        failures: 0,
    }
}

fn key(competition: &str, seq: u64, webhook: &str) -> OutboxKey {
    OutboxKey::event(competition, seq, webhook)
}

fn topical(competition: &str, seq: u64, webhook: &str, topic: &str) -> OutboxKey {
    OutboxKey {
        topic: topic.to_owned(),
        ..key(competition, seq, webhook)
    }
}

fn keys(items: &[OutboxItem]) -> Vec<(String, u64, String)> {
    items
        .iter()
        .map(|i| (i.key.competition.clone(), i.key.seq, i.key.webhook.clone()))
        .collect()
}

fn k(c: &str, seq: u64, w: &str) -> (String, u64, String) {
    (c.to_owned(), seq, w.to_owned())
}

pub async fn registrations<S: WebhookStore>(store: S) {
    let late = hook("h1", "c1", "2024-02-01T00:00:00Z");
    let mut early = hook("h2", "c1", "2024-01-01T00:00:00Z");
    early.kind = WebhookKind::Discord;
    early.secret = String::new();
    let other = hook("h3", "c2", "2024-01-01T00:00:00Z");
    for h in [&late, &early, &other] {
        ok("add_webhook", store.add_webhook(h).await);
    }
    assert!(
        matches!(store.add_webhook(&late).await, Err(StoreError::Exists(_))),
        "a webhook id registered twice must be refused with Exists"
    );
    assert_eq!(
        ok("webhook", store.webhook("h2").await),
        Some(early.clone())
    );
    assert_eq!(ok("webhook", store.webhook("nope").await), None);
    assert_eq!(
        ok("webhooks", store.webhooks("c1").await),
        vec![early.clone(), late.clone()],
        "webhooks are listed by creation time"
    );
    assert!(ok(
        "set_webhook_state",
        store
            .set_webhook_state("h1", 5, Some("HTTP 500 five times"))
            .await
    ));
    let got = ok("webhook", store.webhook("h1").await).unwrap();
    assert_eq!(
        (got.failures, got.disabled.as_deref()),
        (5, Some("HTTP 500 five times"))
    );
    assert!(ok(
        "set_webhook_state",
        store.set_webhook_state("h1", 0, None).await
    ));
    assert_eq!(ok("webhook", store.webhook("h1").await), Some(late));
    assert!(!ok(
        "set_webhook_state",
        store.set_webhook_state("nope", 0, None).await
    ));
    assert!(ok("delete_webhook", store.delete_webhook("h2").await));
    assert!(!ok("delete_webhook", store.delete_webhook("h2").await));
    assert_eq!(ok("webhooks", store.webhooks("c2").await), vec![other]);
}

pub async fn outbox_rows_come_with_the_events<S: EventStore + WebhookStore>(store: S) {
    // Without a webhook, an append writes no outbox row.
    ok("append", store.append("c1", 0, &[event("a")], None).await);
    assert_eq!(ok("outbox", store.outbox("c1").await), vec![]);
    ok(
        "add",
        store
            .add_webhook(&hook("hb", "c1", "2024-01-01T00:00:00Z"))
            .await,
    );
    ok(
        "add",
        store
            .add_webhook(&hook("ha", "c1", "2024-01-02T00:00:00Z"))
            .await,
    );
    let mut off = hook("hoff", "c1", "2024-01-03T00:00:00Z");
    off.disabled = Some("switched off".to_owned());
    ok("add", store.add_webhook(&off).await);
    ok(
        "add",
        store
            .add_webhook(&hook("hc2", "c2", "2024-01-01T00:00:00Z"))
            .await,
    );
    ok(
        "append",
        store.append("c1", 1, &[event("b"), event("c")], None).await,
    );
    let rows = ok("outbox", store.outbox("c1").await);
    assert_eq!(
        keys(&rows),
        vec![
            k("c1", 2, "ha"),
            k("c1", 2, "hb"),
            k("c1", 3, "ha"),
            k("c1", 3, "hb")
        ],
        "one row per appended event and active webhook, by seq then webhook; none for the disabled one"
    );
    assert!(
        rows.iter().all(|r| r.attempts == 0 && r.next_at == 0),
        "new rows are due at once"
    );
    assert_eq!(
        ok("outbox", store.outbox("c2").await),
        vec![],
        "other competitions get none"
    );
    assert_eq!(key("c1", 2, "ha").id(), "c1:2:ha");
}

pub async fn refused_appends_write_no_outbox_row<S: EventStore + WebhookStore>(store: S) {
    ok(
        "add",
        store
            .add_webhook(&hook("h", "c1", "2024-01-01T00:00:00Z"))
            .await,
    );
    let idem = Idempotency {
        key: "k1",
        fingerprint: "f1",
    };
    ok(
        "append",
        store.append("c1", 0, &[event("a")], Some(idem)).await,
    );
    assert_eq!(
        keys(&ok("outbox", store.outbox("c1").await)),
        vec![k("c1", 1, "h")]
    );
    // A conflict, a replay and a key reused for another request write nothing.
    assert!(matches!(
        store.append("c1", 0, &[event("b")], None).await,
        Err(StoreError::Conflict { .. })
    ));
    let replay = ok(
        "replay",
        store.append("c1", 1, &[event("a")], Some(idem)).await,
    );
    assert!(replay.replayed);
    let other = Idempotency {
        key: "k1",
        fingerprint: "f2",
    };
    assert!(matches!(
        store.append("c1", 1, &[event("x")], Some(other)).await,
        Err(StoreError::KeyReused { .. })
    ));
    assert!(matches!(
        store.append("c1", 7, &[event("y"), event("z")], None).await,
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(
        keys(&ok("outbox", store.outbox("c1").await)),
        vec![k("c1", 1, "h")],
        "a refused append writes no outbox row"
    );
    assert_eq!(ok("version", store.version("c1").await), 1);
}

pub async fn claim_lease_finish_and_retry<S: EventStore + WebhookStore>(store: S) {
    ok(
        "add",
        store
            .add_webhook(&hook("h", "c1", "2024-01-01T00:00:00Z"))
            .await,
    );
    ok(
        "add",
        store
            .add_webhook(&hook("h2", "c2", "2024-01-01T00:00:00Z"))
            .await,
    );
    let three = [event("a"), event("b"), event("c")];
    ok("append", store.append("c1", 0, &three, None).await);
    ok("append", store.append("c2", 0, &[event("d")], None).await);
    let first = ok("claim", store.claim_outbox(100, 130, 2).await);
    assert_eq!(
        keys(&first),
        vec![k("c1", 1, "h"), k("c1", 2, "h")],
        "oldest first, at most the limit"
    );
    let rest = ok("claim", store.claim_outbox(100, 130, 10).await);
    assert_eq!(
        keys(&rest),
        vec![k("c1", 3, "h"), k("c2", 1, "h2")],
        "claimed rows are leased: a second claim skips them"
    );
    assert_eq!(ok("claim", store.claim_outbox(129, 160, 10).await), vec![]);
    assert!(ok("finish", store.finish_outbox(&key("c1", 1, "h")).await));
    assert!(!ok("finish", store.finish_outbox(&key("c1", 1, "h")).await));
    assert!(ok(
        "retry",
        store.retry_outbox(&key("c1", 2, "h"), 1, 200).await
    ));
    assert!(!ok(
        "retry",
        store.retry_outbox(&key("c1", 9, "h"), 1, 200).await
    ));
    // Disabled: its rows stay but are not claimed.
    assert!(ok(
        "disable",
        store.set_webhook_state("h2", 3, Some("gone")).await
    ));
    let after_lease = ok("claim", store.claim_outbox(130, 160, 10).await);
    assert_eq!(
        keys(&after_lease),
        vec![k("c1", 3, "h")],
        "a lease that ran out makes a row due again; a retried row waits for its time"
    );
    let retried = ok("claim", store.claim_outbox(200, 230, 10).await);
    assert_eq!(keys(&retried), vec![k("c1", 2, "h"), k("c1", 3, "h")]);
    assert_eq!((retried[0].attempts, retried[1].attempts), (1, 0));
    assert!(
        retried.iter().all(|r| r.next_at == 230),
        "a claim returns the lease"
    );
    assert_eq!(
        keys(&ok("outbox", store.outbox("c2").await)),
        vec![k("c2", 1, "h2")],
        "a disabled webhook keeps its rows"
    );
    assert!(ok("enable", store.set_webhook_state("h2", 0, None).await));
    assert_eq!(
        keys(&ok("claim", store.claim_outbox(300, 330, 10).await)),
        vec![k("c1", 2, "h"), k("c1", 3, "h"), k("c2", 1, "h2")]
    );
}

fn delivery(webhook: &str, seq: u64, attempt: u32, ok: bool) -> Delivery {
    Delivery {
        webhook: webhook.to_owned(),
        competition: "c1".to_owned(),
        seq,
        attempt,
        at: format!("2024-01-01T00:00:{seq:02}Z"),
        status: if ok { Some(204) } else { None },
        ok,
        detail: if ok {
            "HTTP 204".to_owned()
        } else {
            "connection refused".to_owned()
        },
        // Kept as given: a row's topic, or none for the event's own.
        topic: if seq.is_multiple_of(2) {
            "standings".to_owned()
        } else {
            String::new()
        },
    }
}

pub async fn delete_takes_rows_and_log<S: EventStore + WebhookStore>(store: S) {
    ok(
        "add",
        store
            .add_webhook(&hook("h", "c1", "2024-01-01T00:00:00Z"))
            .await,
    );
    ok(
        "add",
        store
            .add_webhook(&hook("g", "c1", "2024-01-01T00:00:00Z"))
            .await,
    );
    ok("append", store.append("c1", 0, &[event("a")], None).await);
    ok(
        "log",
        store.log_delivery(&delivery("h", 1, 1, false), 10).await,
    );
    assert!(ok("delete", store.delete_webhook("h").await));
    assert_eq!(
        keys(&ok("outbox", store.outbox("c1").await)),
        vec![k("c1", 1, "g")]
    );
    assert_eq!(ok("deliveries", store.deliveries("h", 10).await), vec![]);
    ok("append", store.append("c1", 1, &[event("b")], None).await);
    assert_eq!(
        keys(&ok("outbox", store.outbox("c1").await)),
        vec![k("c1", 1, "g"), k("c1", 2, "g")],
        "a deleted webhook gets no new rows"
    );
}

pub async fn delivery_log_keeps_the_newest<S: WebhookStore>(store: S) {
    for seq in 1..=5 {
        ok(
            "log",
            store
                .log_delivery(&delivery("h", seq, 1, seq % 2 == 0), 3)
                .await,
        );
    }
    ok(
        "log",
        store.log_delivery(&delivery("other", 1, 1, true), 3).await,
    );
    let got = ok("deliveries", store.deliveries("h", 10).await);
    assert_eq!(
        got.iter().map(|d| d.seq).collect::<Vec<_>>(),
        vec![5, 4, 3],
        "newest first, only the newest `keep`"
    );
    assert_eq!(got[1], delivery("h", 4, 1, true));
    assert_eq!(got[0], delivery("h", 5, 1, false));
    assert_eq!(ok("deliveries", store.deliveries("h", 2).await).len(), 2);
}

pub async fn derived_rows_are_written_once_for_active_webhooks<S: EventStore + WebhookStore>(
    store: S,
) {
    for (id, c) in [("h", "c1"), ("off", "c1")] {
        ok(
            "add",
            store
                .add_webhook(&hook(id, c, "2024-01-01T00:00:00Z"))
                .await,
        );
    }
    ok(
        "disable",
        store.set_webhook_state("off", 5, Some("failing")).await,
    );
    ok("append", store.append("c1", 0, &[event("a")], None).await);
    let derived = topical("c1", 1, "h", "standings");
    assert!(ok("enqueue", store.enqueue_outbox(&derived).await));
    assert!(
        !ok("enqueue", store.enqueue_outbox(&derived).await),
        "a derived row written twice is one row"
    );
    assert!(
        !ok(
            "enqueue",
            store
                .enqueue_outbox(&topical("c1", 1, "off", "standings"))
                .await
        ),
        "a disabled webhook gets no derived row"
    );
    assert!(
        !ok(
            "enqueue",
            store
                .enqueue_outbox(&topical("c1", 1, "nobody", "standings"))
                .await
        ),
        "nor does a webhook that does not exist"
    );
    assert!(
        store.enqueue_outbox(&key("c1", 1, "h")).await.is_err(),
        "a derived row has a topic"
    );
    let rows = ok("outbox", store.outbox("c1").await);
    assert_eq!(
        rows.iter().map(|r| r.key.clone()).collect::<Vec<_>>(),
        vec![key("c1", 1, "h"), derived.clone()],
        "the event's own row, then the derived one"
    );
    assert_eq!(derived.id(), "c1:1:h:standings");
    assert_eq!(key("c1", 1, "h").id(), "c1:1:h");
    // Claimed, retried and finished by its whole key.
    let claimed = ok("claim", store.claim_outbox(10, 40, 10).await);
    assert_eq!(claimed.len(), 2);
    assert!(ok("retry", store.retry_outbox(&derived, 1, 100).await));
    assert!(ok("finish", store.finish_outbox(&key("c1", 1, "h")).await));
    let left = ok("outbox", store.outbox("c1").await);
    assert_eq!(left.len(), 1);
    assert_eq!(
        (left[0].key.clone(), left[0].attempts),
        (derived.clone(), 1)
    );
    assert!(ok("finish", store.finish_outbox(&derived).await));
    assert!(ok("delete", store.delete_webhook("h").await));
}

pub async fn a_notice_is_made_once_ever<S: EventStore + WebhookStore>(store: S) {
    for (id, c) in [("h1", "c1"), ("h2", "c1"), ("off", "c1"), ("h3", "c2")] {
        ok(
            "add",
            store
                .add_webhook(&hook(id, c, "2024-01-01T00:00:00Z"))
                .await,
        );
    }
    ok(
        "disable",
        store.set_webhook_state("off", 5, Some("failing")).await,
    );
    ok("append", store.append("c1", 0, &[event("a")], None).await);
    for id in ["h1", "h2", "off"] {
        store.finish_outbox(&key("c1", 1, id)).await.ok();
    }
    let topic = "deadline:G1:1700000000";
    assert!(ok("notice", store.enqueue_notice("c1", 1, topic).await));
    let rows = ok("outbox", store.outbox("c1").await);
    assert_eq!(
        rows.iter().map(|r| r.key.clone()).collect::<Vec<_>>(),
        vec![topical("c1", 1, "h1", topic), topical("c1", 1, "h2", topic)],
        "a row for each active webhook of the competition"
    );
    assert!(
        ok("outbox", store.outbox("c2").await).is_empty(),
        "none for another competition's"
    );
    assert!(
        !ok("notice", store.enqueue_notice("c1", 1, topic).await),
        "the same notice again makes nothing"
    );
    ok("append", store.append("c1", 1, &[event("b")], None).await);
    assert!(
        !ok("notice", store.enqueue_notice("c1", 2, topic).await),
        "not even at a later version"
    );
    for id in ["h1", "h2"] {
        assert!(ok(
            "finish",
            store.finish_outbox(&topical("c1", 1, id, topic)).await
        ));
        store.finish_outbox(&key("c1", 2, id)).await.ok();
    }
    assert!(
        !ok("notice", store.enqueue_notice("c1", 2, topic).await),
        "nor once delivered"
    );
    assert!(ok("outbox", store.outbox("c1").await).is_empty());
    assert!(
        ok("notice", store.enqueue_notice("c2", 0, topic).await),
        "the same topic is another competition's own notice"
    );
    assert!(ok(
        "notice",
        store
            .enqueue_notice("c1", 2, "deadline:G1:1700003600")
            .await
    ));
    assert!(store.enqueue_notice("c1", 2, "").await.is_err());
    assert!(
        store
            .enqueue_notice("c1", 2, &"x".repeat(crate::MAX_TOPIC + 1))
            .await
            .is_err()
    );
}
