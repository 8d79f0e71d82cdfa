//! The conformance suite every [`EventStore`] backend must pass.
//!
//! A backend's integration test calls [`run_all`] with a closure that makes a
//! fresh, empty store; every check gets its own store. The checks are public
//! so a backend can also run one of them alone while debugging.
//! The suite of [`AccountStore`](crate::AccountStore) is [`accounts`], run
//! the same way with [`accounts::run_all`], and that of
//! [`WebhookStore`](crate::WebhookStore) is [`webhooks::run_all`].
//!
//! The checks panic with a message naming what went wrong: this is test code.
//! [`concurrent_appenders`], [`concurrent_retries_of_one_command`] and
//! [`concurrent_requests_with_one_key`] spawn tokio tasks, so call [`run_all`] from a multi-threaded tokio runtime
//! (`#[tokio::test(flavor = "multi_thread")]`).
//!
//! Payloads used here never contain NUL characters: payloads are JSON text,
//! which escapes them, and PostgreSQL's `TEXT` cannot hold them.

#![allow(clippy::unwrap_used, clippy::panic)]

pub mod webhooks;

use std::collections::HashSet;
use std::sync::Arc;

use crate::{
    Appended, CompetitionDump, EventStore, Idempotency, KeyRecord, KeyUse, NewEvent, Seq,
    StoreError, StoredEvent,
};

/// Run every check, each on a fresh empty store made by `make`.
pub async fn run_all<S, F, Fut>(make: F)
where
    S: EventStore + 'static,
    F: Fn() -> Fut,
    Fut: Future<Output = S>,
{
    // The name is printed before each check so that a failure's captured
    // output says which check was running.
    macro_rules! check {
        ($name:ident) => {
            eprintln!("conformance: {}", stringify!($name));
            $name(make().await).await;
        };
    }
    check!(append_assigns_sequences);
    check!(read_returns_what_was_appended);
    check!(read_ranges);
    check!(version_tracks_appends);
    check!(competitions_sorted_with_events_only);
    check!(conflict_expected_too_low);
    check!(conflict_expected_too_high);
    check!(conflict_does_not_consume_key);
    check!(idempotent_replay);
    check!(key_reused_for_another_request);
    check!(key_reused_on_other_competition);
    check!(empty_append);
    check!(competitions_are_isolated);
    check!(payloads_round_trip);
    check!(large_payload_round_trips);
    check!(many_events_in_one_append);
    check!(secrets);
    check!(concurrent_appenders);
    check!(concurrent_retries_of_one_command);
    check!(concurrent_requests_with_one_key);
    check!(keys_and_secrets_listed);
    check!(import_round_trips);
    check!(import_refuses_what_exists);
    check!(import_refuses_inconsistent_dumps);
    check!(import_many_events);
    check!(import_races_an_append);
}

// ---------------------------------------------------------------- helpers

/// A distinguishable event: `kind`/`payload`/`actor` carry `tag`.
fn event(tag: &str) -> NewEvent {
    NewEvent {
        kind: format!("kind-{tag}"),
        payload: format!(r#"{{"v":1,"tag":"{tag}"}}"#),
        actor: format!("actor-{tag}"),
        recorded_at: "2024-05-01T12:00:00Z".to_owned(),
    }
}

/// The fingerprint of the request every keyed append here makes, unless it
/// says otherwise.
const FP: &str = "fingerprint-of-the-request";

/// Another request's fingerprint.
const FP_OTHER: &str = "fingerprint-of-another-request";

/// The key `key` for the request [`FP`].
fn keyed(key: &str) -> Option<Idempotency<'_>> {
    with(key, FP)
}

/// The key `key` for the request `fingerprint`.
fn with<'a>(key: &'a str, fingerprint: &'a str) -> Option<Idempotency<'a>> {
    Some(Idempotency { key, fingerprint })
}

fn events(prefix: &str, n: usize) -> Vec<NewEvent> {
    (0..n).map(|i| event(&format!("{prefix}{i}"))).collect()
}

/// What `read` must return for `events` appended at `first`.
fn stored(
    competition: &str,
    first: Seq,
    events: &[NewEvent],
    key: Option<&str>,
) -> Vec<StoredEvent> {
    events
        .iter()
        .zip(first..)
        .map(|(e, seq)| StoredEvent {
            competition: competition.to_owned(),
            seq,
            kind: e.kind.clone(),
            payload: e.payload.clone(),
            actor: e.actor.clone(),
            recorded_at: e.recorded_at.clone(),
            idempotency_key: key.map(str::to_owned),
        })
        .collect()
}

fn ok<T>(what: &str, result: Result<T, StoreError>) -> T {
    match result {
        Ok(value) => value,
        Err(error) => panic!("{what}: unexpected error: {error} ({error:?})"),
    }
}

fn appended(first: Seq, last: Seq, replayed: bool) -> Appended {
    Appended {
        first,
        last,
        replayed,
    }
}

async fn append_ok<S: EventStore + ?Sized>(
    store: &S,
    competition: &str,
    expected: Seq,
    events: &[NewEvent],
    key: Option<Idempotency<'_>>,
) -> Appended {
    ok(
        &format!(
            "append of {} event(s) to {competition:?} at expected version {expected} with {key:?}",
            events.len()
        ),
        store.append(competition, expected, events, key).await,
    )
}

async fn read_all<S: EventStore + ?Sized>(store: &S, competition: &str) -> Vec<StoredEvent> {
    ok(
        &format!("read of {competition:?}"),
        store.read(competition, 1, None).await,
    )
}

async fn version<S: EventStore + ?Sized>(store: &S, competition: &str) -> Seq {
    ok(
        &format!("version of {competition:?}"),
        store.version(competition).await,
    )
}

async fn lookup<S: EventStore + ?Sized>(store: &S, competition: &str, key: &str) -> Option<KeyUse> {
    ok(
        &format!("idempotent lookup of {key:?} in {competition:?}"),
        store.idempotent(competition, key).await,
    )
}

fn key_use(first: Seq, last: Seq, fingerprint: &str) -> KeyUse {
    KeyUse {
        appended: appended(first, last, true),
        fingerprint: fingerprint.to_owned(),
    }
}

fn assert_key_reused(what: &str, result: Result<Appended, StoreError>, key: &str) {
    match result {
        Err(StoreError::KeyReused { key: k }) => {
            assert_eq!(k, key, "{what}: KeyReused must name the key")
        }
        other => panic!("{what}: expected KeyReused {{ key: {key:?} }}, got {other:?}"),
    }
}

fn seqs(events: &[StoredEvent]) -> Vec<Seq> {
    events.iter().map(|e| e.seq).collect()
}

fn assert_conflict(
    what: &str,
    result: Result<Appended, StoreError>,
    competition: &str,
    expected: Seq,
    actual: Seq,
) {
    match result {
        Err(StoreError::Conflict {
            competition: c,
            expected: e,
            actual: a,
        }) => assert_eq!(
            (c.as_str(), e, a),
            (competition, expected, actual),
            "{what}: Conflict must name the competition, the expected and the actual version"
        ),
        other => panic!(
            "{what}: expected Conflict {{ competition: {competition:?}, expected: {expected}, actual: {actual} }}, got {other:?}"
        ),
    }
}

// ----------------------------------------------------------------- checks

/// Appending to an empty competition at version 0 gives sequences 1..=n, and
/// the next append continues without a gap.
pub async fn append_assigns_sequences<S: EventStore>(store: S) {
    let c = "seq";
    let got = append_ok(&store, c, 0, &events("a", 3), keyed("k-seq-1")).await;
    assert_eq!(got, appended(1, 3, false), "first append of 3 events");
    assert_eq!(version(&store, c).await, 3, "version after 3 events");

    let got = append_ok(&store, c, 3, &events("b", 2), None).await;
    assert_eq!(got, appended(4, 5, false), "second append of 2 events");

    let got = append_ok(&store, c, 5, &events("c", 1), keyed("k-seq-2")).await;
    assert_eq!(got, appended(6, 6, false), "third append of 1 event");

    assert_eq!(
        seqs(&read_all(&store, c).await),
        (1..=6).collect::<Vec<_>>(),
        "sequences must be 1, 2, 3 … without gaps"
    );
}

/// `read` returns every field exactly as appended, the competition, the
/// sequence and the idempotency key of the command (on every one of its
/// events; `None` for a command without a key).
pub async fn read_returns_what_was_appended<S: EventStore>(store: S) {
    let c = "roundtrip";
    let first = vec![
        NewEvent {
            kind: "competition_created".to_owned(),
            payload: r#"{"v":1,"name":"Spring ladder","rules":"tws-ladder"}"#.to_owned(),
            actor: "moderator:alice".to_owned(),
            recorded_at: "2024-03-01T09:30:00Z".to_owned(),
        },
        NewEvent {
            kind: "player_joined".to_owned(),
            payload: r#"{"v":1,"player":"bob"}"#.to_owned(),
            actor: "player:bob".to_owned(),
            recorded_at: "2024-03-01T09:31:07.250Z".to_owned(),
        },
    ];
    let second = vec![NewEvent {
        kind: "result_recorded".to_owned(),
        payload: r#"{"v":2,"white":"bob","black":"carol","score":[2,0]}"#.to_owned(),
        actor: "system".to_owned(),
        recorded_at: "2024-03-02T18:00:00Z".to_owned(),
    }];
    append_ok(&store, c, 0, &first, keyed("cmd-create-1")).await;
    append_ok(&store, c, 2, &second, None).await;

    let mut want = stored(c, 1, &first, Some("cmd-create-1"));
    want.extend(stored(c, 3, &second, None));
    assert_eq!(
        read_all(&store, c).await,
        want,
        "read must return the events exactly as appended"
    );
}

/// `read(c, from, to)` returns `from..=to`; `read(c, 1, Some(k))` is the
/// competition as of version `k`.
pub async fn read_ranges<S: EventStore>(store: S) {
    let c = "ranges";
    let all = events("r", 10);
    append_ok(&store, c, 0, &all[..4], keyed("k-ranges-1")).await;
    append_ok(&store, c, 4, &all[4..], None).await;
    let mut want = stored(c, 1, &all[..4], Some("k-ranges-1"));
    want.extend(stored(c, 5, &all[4..], None));

    let cases: &[(Seq, Option<Seq>, std::ops::Range<usize>)] = &[
        (1, None, 0..10),
        (0, None, 0..10), // there is no event 0: from 0 is from the start
        (4, None, 3..10),
        (10, None, 9..10),
        (11, None, 10..10),
        (Seq::MAX, None, 10..10),
        (1, Some(5), 0..5), // as of version 5
        (1, Some(1), 0..1),
        (1, Some(0), 0..0), // as of version 0: nothing
        (0, Some(0), 0..0),
        (3, Some(3), 2..3),
        (3, Some(7), 2..7),
        (6, Some(5), 5..5), // to < from: nothing
        (1, Some(10), 0..10),
        (1, Some(1000), 0..10),
        (1, Some(Seq::MAX), 0..10),
        (12, Some(20), 10..10),
    ];
    for (from, to, range) in cases {
        let got = ok(
            &format!("read({c:?}, {from}, {to:?})"),
            store.read(c, *from, *to).await,
        );
        assert_eq!(got, want[range.clone()], "read({c:?}, {from}, {to:?})");
    }

    for (from, to) in [(1, None), (0, Some(5)), (3, Some(Seq::MAX))] {
        let got = ok(
            "read of an unknown competition",
            store.read("unknown", from, to).await,
        );
        assert!(
            got.is_empty(),
            "read(\"unknown\", {from}, {to:?}) must be empty, got {got:?}"
        );
    }
}

/// `version` is 0 for an unknown competition and the last sequence otherwise.
pub async fn version_tracks_appends<S: EventStore>(store: S) {
    let c = "versions";
    assert_eq!(
        version(&store, c).await,
        0,
        "version of an empty competition"
    );
    let mut v = 0;
    for n in [1, 4, 1, 7] {
        append_ok(&store, c, v, &events(&format!("v{v}-"), n), None).await;
        v += n as Seq;
        assert_eq!(version(&store, c).await, v, "version after appends");
    }
    assert_eq!(
        version(&store, "other").await,
        0,
        "version of another competition"
    );
}

/// `competitions` lists every competition with at least one event, sorted,
/// each once; a competition with only secrets or only empty appends is not
/// listed.
pub async fn competitions_sorted_with_events_only<S: EventStore>(store: S) {
    assert!(
        ok("competitions of an empty store", store.competitions().await).is_empty(),
        "an empty store has no competitions"
    );
    let names = ["b", "a", "c-2", "B", "ärger", "a-1", "c-10"];
    for (i, name) in names.iter().enumerate() {
        append_ok(&store, name, 0, &events(&format!("c{i}-"), 2), None).await;
        append_ok(&store, name, 2, &events(&format!("d{i}-"), 1), None).await;
    }
    ok(
        "put_secret",
        store.put_secret("secret-only", "seed", "abc").await,
    );
    append_ok(&store, "empty-only", 0, &[], None).await;

    let mut want: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
    want.sort(); // byte order of UTF-8, which is code point order
    assert_eq!(
        ok("competitions", store.competitions().await),
        want,
        "competitions must be sorted by id, each once, and only those with events"
    );
}

/// An append whose expected version is behind the actual one writes nothing
/// and reports the actual version.
pub async fn conflict_expected_too_low<S: EventStore>(store: S) {
    let c = "conflict-low";
    append_ok(&store, c, 0, &events("a", 3), None).await;
    let before = read_all(&store, c).await;

    for expected in [0, 1, 2] {
        let result = store
            .append(c, expected, &events("late", 2), keyed("k-late"))
            .await;
        assert_conflict(
            &format!("append at expected {expected} to version 3"),
            result,
            c,
            expected,
            3,
        );
    }
    assert_eq!(version(&store, c).await, 3, "a conflict must write nothing");
    assert_eq!(
        read_all(&store, c).await,
        before,
        "a conflict must write nothing"
    );
}

/// An append whose expected version is ahead of the actual one writes nothing
/// and reports the actual version, also on an empty competition.
pub async fn conflict_expected_too_high<S: EventStore>(store: S) {
    let c = "conflict-high";
    assert_conflict(
        "append at expected 1 to an empty competition",
        store.append(c, 1, &events("x", 1), None).await,
        c,
        1,
        0,
    );
    assert_eq!(version(&store, c).await, 0, "a conflict must write nothing");
    assert!(
        ok("competitions", store.competitions().await).is_empty(),
        "a conflicting first append must not create the competition"
    );

    append_ok(&store, c, 0, &events("a", 3), None).await;
    let before = read_all(&store, c).await;
    for expected in [4, 5, Seq::MAX] {
        assert_conflict(
            &format!("append at expected {expected} to version 3"),
            store
                .append(c, expected, &events("ahead", 1), keyed("k-ahead"))
                .await,
            c,
            expected,
            3,
        );
    }
    assert_eq!(
        read_all(&store, c).await,
        before,
        "a conflict must write nothing"
    );
}

/// A conflicting append does not record its idempotency key: the command,
/// retried at the right version with the same key, is appended.
pub async fn conflict_does_not_consume_key<S: EventStore>(store: S) {
    let c = "conflict-key";
    append_ok(&store, c, 0, &events("a", 2), None).await;
    assert_conflict(
        "append at a stale version",
        store.append(c, 1, &events("b", 1), keyed("k-retry")).await,
        c,
        1,
        2,
    );
    let got = append_ok(&store, c, 2, &events("b", 1), keyed("k-retry")).await;
    assert_eq!(
        got,
        appended(3, 3, false),
        "the retried command must be appended, not replayed"
    );
    let all = read_all(&store, c).await;
    assert_eq!(
        all[2].idempotency_key.as_deref(),
        Some("k-retry"),
        "the retried command's event carries its key"
    );
}

/// The same key for the same request (fingerprint) twice returns the
/// original range with `replayed = true` and writes nothing, whatever the
/// expected version and the events, even after later appends.
pub async fn idempotent_replay<S: EventStore>(store: S) {
    let c = "idem";
    let original = events("orig", 2);
    let got = append_ok(&store, c, 0, &original, keyed("k-idem")).await;
    assert_eq!(got, appended(1, 2, false), "the original append");

    let got = append_ok(&store, c, 0, &original, keyed("k-idem")).await;
    assert_eq!(
        got,
        appended(1, 2, true),
        "the same command again must be replayed"
    );
    assert_eq!(version(&store, c).await, 2, "a replay must write nothing");

    // The key can be looked up, in its competition only, with the
    // fingerprint of its request.
    assert_eq!(
        lookup(&store, c, "k-idem").await,
        Some(key_use(1, 2, FP)),
        "the key's events and fingerprint by lookup"
    );
    assert!(
        lookup(&store, c, "k-idem").await.unwrap().matches(FP)
            && !lookup(&store, c, "k-idem").await.unwrap().matches(FP_OTHER),
        "KeyUse::matches compares fingerprints"
    );
    assert_eq!(
        lookup(&store, "elsewhere", "k-idem").await,
        None,
        "a key belongs to its competition"
    );
    assert_eq!(lookup(&store, c, "k-never").await, None, "an unused key");

    // Later appends by other commands.
    append_ok(&store, c, 2, &events("other", 1), None).await;
    append_ok(&store, c, 3, &events("another", 2), keyed("k-other")).await;
    assert_eq!(version(&store, c).await, 5);

    // A late retry, with its stale expected version, or any other one, and
    // even with different events (a command decided again on a later state):
    // the key and the fingerprint identify the request.
    for expected in [0, 2, 5, 9] {
        let got = append_ok(&store, c, expected, &original, keyed("k-idem")).await;
        assert_eq!(
            got,
            appended(1, 2, true),
            "a retry at expected {expected} after later appends must be replayed"
        );
    }
    let got = append_ok(&store, c, 5, &events("different", 3), keyed("k-idem")).await;
    assert_eq!(
        got,
        appended(1, 2, true),
        "a retry with other events is still the same request"
    );
    let got = append_ok(&store, c, 0, &events("x", 1), keyed("k-other")).await;
    assert_eq!(got, appended(4, 5, true), "the other key replays its range");
    assert_eq!(
        lookup(&store, c, "k-other").await,
        Some(key_use(4, 5, FP)),
        "the other key by lookup"
    );

    assert_eq!(version(&store, c).await, 5, "replays must write nothing");
    let mut want = stored(c, 1, &original, Some("k-idem"));
    want.extend(stored(c, 3, &events("other", 1), None));
    want.extend(stored(c, 4, &events("another", 2), Some("k-other")));
    assert_eq!(
        read_all(&store, c).await,
        want,
        "replays must write nothing"
    );
}

/// The same key for a different request (another fingerprint) in the same
/// competition is refused with `KeyReused` and writes nothing: before the
/// version is checked, with or without events, after later appends, and
/// without touching what the key recorded (the original request still
/// replays).
pub async fn key_reused_for_another_request<S: EventStore>(store: S) {
    let c = "reused";
    let original = events("orig", 2);
    let got = append_ok(&store, c, 0, &original, with("k", FP)).await;
    assert_eq!(got, appended(1, 2, false), "the original append");
    let before = read_all(&store, c).await;

    // At the current version, at a stale one, at one ahead; with the same
    // events, other events, no events.
    for (expected, evs) in [
        (2, events("other", 1)),
        (2, original.clone()),
        (0, events("other", 3)),
        (9, events("other", 1)),
        (2, Vec::new()),
        (0, Vec::new()),
    ] {
        assert_key_reused(
            &format!(
                "the key of a request used for another one ({} event(s) at expected {expected})",
                evs.len()
            ),
            store.append(c, expected, &evs, with("k", FP_OTHER)).await,
            "k",
        );
    }
    assert_eq!(version(&store, c).await, 2, "KeyReused must write nothing");
    assert_eq!(
        read_all(&store, c).await,
        before,
        "KeyReused must write nothing"
    );
    assert_eq!(
        lookup(&store, c, "k").await,
        Some(key_use(1, 2, FP)),
        "a refused request must not change what the key recorded"
    );

    // Later appends, keyed and not.
    append_ok(&store, c, 2, &events("later", 1), None).await;
    append_ok(&store, c, 3, &events("keyed", 2), with("k2", FP_OTHER)).await;
    assert_eq!(version(&store, c).await, 5);
    let before = read_all(&store, c).await;
    for expected in [0, 2, 5] {
        assert_key_reused(
            &format!("a different request after later appends, at expected {expected}"),
            store
                .append(c, expected, &events("late", 1), with("k", FP_OTHER))
                .await,
            "k",
        );
        assert_key_reused(
            &format!("the other key for the first request, at expected {expected}"),
            store
                .append(c, expected, &events("late", 1), with("k2", FP))
                .await,
            "k2",
        );
        let got = append_ok(&store, c, expected, &original, with("k", FP)).await;
        assert_eq!(
            got,
            appended(1, 2, true),
            "the original request still replays"
        );
        let got = append_ok(&store, c, expected, &[], with("k2", FP_OTHER)).await;
        assert_eq!(
            got,
            appended(4, 5, true),
            "the other key's request still replays"
        );
    }
    assert_eq!(
        read_all(&store, c).await,
        before,
        "refusals and replays must write nothing"
    );
    assert_eq!(lookup(&store, c, "k").await, Some(key_use(1, 2, FP)));
    assert_eq!(lookup(&store, c, "k2").await, Some(key_use(4, 5, FP_OTHER)));
}

/// A key used for one competition is refused on another, which stays as it
/// was.
pub async fn key_reused_on_other_competition<S: EventStore>(store: S) {
    append_ok(&store, "home", 0, &events("a", 1), keyed("k-shared")).await;
    match store
        .append("away", 0, &events("b", 2), keyed("k-shared"))
        .await
    {
        Err(StoreError::KeyReused { key }) => {
            assert_eq!(key, "k-shared", "KeyReused must name the key")
        }
        other => panic!("a key used on another competition must give KeyReused, got {other:?}"),
    }
    // Checked before the version: a wrong version still gives KeyReused.
    match store
        .append("away", 7, &events("b", 2), keyed("k-shared"))
        .await
    {
        Err(StoreError::KeyReused { key }) => assert_eq!(key, "k-shared"),
        other => panic!(
            "a key used on another competition must give KeyReused whatever the version, got {other:?}"
        ),
    }
    assert_eq!(
        version(&store, "away").await,
        0,
        "KeyReused must write nothing"
    );
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec!["home".to_owned()],
        "KeyReused must write nothing"
    );
    assert_eq!(version(&store, "home").await, 1);
}

/// An empty append writes nothing and returns the empty range
/// `version + 1 ..= version`, `replayed = false`. It still checks the
/// expected version and a key already used, and does not record its key.
pub async fn empty_append<S: EventStore>(store: S) {
    let c = "empty";
    let got = append_ok(&store, c, 0, &[], None).await;
    assert_eq!(
        got,
        appended(1, 0, false),
        "empty append to an empty competition"
    );
    assert_eq!(version(&store, c).await, 0);
    assert!(read_all(&store, c).await.is_empty());

    append_ok(&store, c, 0, &events("a", 2), keyed("k-full")).await;
    let got = append_ok(&store, c, 2, &[], keyed("k-empty")).await;
    assert_eq!(got, appended(3, 2, false), "empty append at version 2");
    assert_eq!(
        version(&store, c).await,
        2,
        "an empty append writes nothing"
    );

    assert_conflict(
        "empty append at a stale version",
        store.append(c, 1, &[], None).await,
        c,
        1,
        2,
    );

    let got = append_ok(&store, c, 2, &[], keyed("k-full")).await;
    assert_eq!(
        got,
        appended(1, 2, true),
        "an empty append with a used key is a replay"
    );

    // The key of an empty append was not recorded.
    let got = append_ok(&store, c, 2, &events("b", 1), keyed("k-empty")).await;
    assert_eq!(
        got,
        appended(3, 3, false),
        "the key of an empty append is not recorded"
    );
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec![c.to_owned()]
    );
}

/// Competitions are separate logs: appends to one neither number nor show in
/// another.
pub async fn competitions_are_isolated<S: EventStore>(store: S) {
    let (a, b) = ("alpha", "beta");
    let mut want_a = Vec::new();
    let mut want_b = Vec::new();
    for round in 0..5u64 {
        let ea = events(&format!("a{round}-"), 2);
        let eb = events(&format!("b{round}-"), 1);
        let got = append_ok(&store, a, round * 2, &ea, None).await;
        assert_eq!(got, appended(round * 2 + 1, round * 2 + 2, false));
        let got = append_ok(&store, b, round, &eb, keyed(&format!("kb{round}"))).await;
        assert_eq!(got, appended(round + 1, round + 1, false));
        want_a.extend(stored(a, round * 2 + 1, &ea, None));
        want_b.extend(stored(b, round + 1, &eb, Some(&format!("kb{round}"))));
    }
    assert_eq!(version(&store, a).await, 10);
    assert_eq!(version(&store, b).await, 5);
    assert_eq!(
        read_all(&store, a).await,
        want_a,
        "alpha holds only its events"
    );
    assert_eq!(
        read_all(&store, b).await,
        want_b,
        "beta holds only its events"
    );
    // A competition whose name is a prefix of another's is a different one.
    assert_eq!(version(&store, "alph").await, 0);
    assert_eq!(version(&store, "alpha ").await, 0);
}

/// Text of every kind round-trips byte for byte: unicode, quotes,
/// backslashes, newlines, SQL-looking text, empty strings.
pub async fn payloads_round_trip<S: EventStore>(store: S) {
    let c = "texts ‘quoted’ \"and\" 'such'";
    let texts = [
        "",
        " ",
        "plain",
        "Grüße, Jürgen! Ça va? ñandú",
        "日本語のテキスト, 한국어, 中文",
        "emoji 🎲♟️🏆 and a flag 🇩🇪 and a family 👨‍👩‍👧",
        "combining: e\u{301} vs \u{e9}",
        "right-to-left: שלום مرحبا",
        r#"{"v":1,"quote":"he said \"hi\"","apostrophe":"it's","backtick":"`x`"}"#,
        "back\\slash \\n not a newline \\\\ \\u0000",
        "line 1\nline 2\r\nline 3\rline 4\n",
        "\ttabs\tand  spaces  ",
        "'); DROP TABLE events; --",
        "\" OR 1=1 --",
        "$1 ?1 :name @p %s {}",
        "\u{7f}\u{1}\u{1f} control characters",
        "\u{feff}byte order mark",
        "max code point \u{10ffff}",
    ];
    let evs: Vec<NewEvent> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| NewEvent {
            kind: format!("kind {t}"),
            payload: (*t).to_owned(),
            actor: format!("{t}{i}"),
            recorded_at: (*t).to_owned(),
        })
        .collect();
    let key = "key with \"quotes\", 'apostrophes', ünïcödé 🎲 and\nnewline";
    append_ok(&store, c, 0, &evs, keyed(key)).await;
    assert_eq!(
        read_all(&store, c).await,
        stored(c, 1, &evs, Some(key)),
        "texts must round-trip exactly"
    );
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec![c.to_owned()]
    );
    let got = append_ok(&store, c, 0, &evs, keyed(key)).await;
    assert!(got.replayed, "a unicode key must be found again");
}

/// A 1 MB payload round-trips.
pub async fn large_payload_round_trips<S: EventStore>(store: S) {
    let c = "large";
    let chunk = "{\"ünïcödé\":\"🎲\",\"q\":\"\\\"\"}\n";
    let mut payload = String::with_capacity(1 << 20);
    while payload.len() + chunk.len() <= 1 << 20 {
        payload.push_str(chunk);
    }
    let big = NewEvent {
        kind: "large".to_owned(),
        payload,
        actor: "system".to_owned(),
        recorded_at: "2024-01-01T00:00:00Z".to_owned(),
    };
    let evs = vec![event("before"), big, event("after")];
    append_ok(&store, c, 0, &evs, None).await;
    let got = read_all(&store, c).await;
    assert_eq!(got.len(), 3, "three events");
    assert!(
        got == stored(c, 1, &evs, None),
        "a 1 MB payload must round-trip exactly (lengths {} vs {})",
        got[1].payload.len(),
        evs[1].payload.len()
    );
}

/// One append of thousands of events (an import) is one all-or-nothing
/// command like any other: numbered, keyed, replayed, refused as a whole.
pub async fn many_events_in_one_append<S: EventStore>(store: S) {
    let c = "import";
    append_ok(&store, c, 0, &events("head", 3), None).await;
    let batch = events("imp", 2500);
    let got = append_ok(&store, c, 3, &batch, keyed("k-import")).await;
    assert_eq!(got, appended(4, 2503, false), "an append of 2500 events");
    let got = append_ok(&store, c, 3, &batch, keyed("k-import")).await;
    assert_eq!(got, appended(4, 2503, true), "its retry is a replay");
    assert_key_reused(
        "a big append with the key of another request",
        store
            .append(c, 2503, &events("reused", 2500), with("k-import", FP_OTHER))
            .await,
        "k-import",
    );
    assert_conflict(
        "a stale append of 2500 events",
        store.append(c, 3, &events("stale", 2500), None).await,
        c,
        3,
        2503,
    );
    match store
        .append("elsewhere", 0, &events("x", 1000), keyed("k-import"))
        .await
    {
        Err(StoreError::KeyReused { .. }) => {}
        other => {
            panic!("a big append with a key used elsewhere must give KeyReused, got {other:?}")
        }
    }
    assert_eq!(
        version(&store, "elsewhere").await,
        0,
        "KeyReused writes nothing"
    );

    let mut want = stored(c, 1, &events("head", 3), None);
    want.extend(stored(c, 4, &batch, Some("k-import")));
    assert_eq!(
        read_all(&store, c).await,
        want,
        "2503 events, gapless, each with its key, nothing from refused appends"
    );
    let got = append_ok(&store, c, 2503, &events("tail", 1), None).await;
    assert_eq!(
        got,
        appended(2504, 2504, false),
        "appends go on after a big one"
    );
}

/// Secrets are kept per (competition, name), replaced by a later put, and
/// never appear in the event log.
pub async fn secrets<S: EventStore>(store: S) {
    let c = "draws";
    assert_eq!(
        ok("secret", store.secret(c, "seed").await),
        None,
        "no secret yet"
    );

    append_ok(&store, c, 0, &events("a", 2), None).await;
    let first = "seed-value-0123456789abcdef";
    ok("put_secret", store.put_secret(c, "seed", first).await);
    assert_eq!(
        ok("secret", store.secret(c, "seed").await).as_deref(),
        Some(first)
    );

    let second = "seed-value-fedcba9876543210 ünïcödé \"quoted\"\n";
    ok("put_secret", store.put_secret(c, "seed", second).await);
    assert_eq!(
        ok("secret", store.secret(c, "seed").await).as_deref(),
        Some(second),
        "a later put replaces the secret"
    );

    ok(
        "put_secret",
        store.put_secret(c, "round-2", "other-secret").await,
    );
    ok(
        "put_secret",
        store
            .put_secret("elsewhere", "seed", "elsewhere-secret")
            .await,
    );
    assert_eq!(
        ok("secret", store.secret(c, "seed").await).as_deref(),
        Some(second),
        "secrets are per name"
    );
    assert_eq!(
        ok("secret", store.secret(c, "round-2").await).as_deref(),
        Some("other-secret")
    );
    assert_eq!(
        ok("secret", store.secret("elsewhere", "seed").await).as_deref(),
        Some("elsewhere-secret"),
        "secrets are per competition"
    );
    assert_eq!(ok("secret", store.secret(c, "unknown").await), None);
    assert_eq!(ok("secret", store.secret("nowhere", "seed").await), None);

    // Never in the log.
    assert_eq!(version(&store, c).await, 2, "a secret is not an event");
    let log = read_all(&store, c).await;
    assert_eq!(log, stored(c, 1, &events("a", 2), None));
    for e in &log {
        for secret in [first, second, "other-secret"] {
            assert!(
                !e.payload.contains(secret) && !e.kind.contains(secret),
                "a secret must never appear in read()"
            );
        }
    }
    assert!(read_all(&store, "elsewhere").await.is_empty());
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec![c.to_owned()],
        "a competition with only secrets has no events"
    );
}

/// Writers racing on one competition, each retrying on conflict, lose no
/// update: 8 tasks × 50 appends give exactly 400 events, 1..=400, each
/// command once, each task's commands in its order; readers meanwhile only
/// ever see a gapless prefix.
pub async fn concurrent_appenders<S: EventStore + 'static>(store: S) {
    const TASKS: usize = 8;
    const APPENDS: usize = 50;
    let c = "race";
    let store = Arc::new(store);

    let mut writers = Vec::new();
    for task in 0..TASKS {
        let store = Arc::clone(&store);
        writers.push(tokio::spawn(async move {
            let mut conflicts = 0usize;
            for i in 0..APPENDS {
                let ev = [event(&format!("t{task}-{i}"))];
                let key = format!("race-t{task}-{i}");
                loop {
                    let expected = version(&*store, c).await;
                    match store.append(c, expected, &ev, keyed(&key)).await {
                        Ok(got) => {
                            assert!(!got.replayed, "a new command must not be replayed");
                            assert_eq!(
                                (got.first, got.last),
                                (expected + 1, expected + 1),
                                "append at expected {expected}"
                            );
                            break;
                        }
                        Err(StoreError::Conflict { actual, .. }) => {
                            assert!(
                                actual > expected,
                                "the actual version ({actual}) must be past the expected one ({expected}) after a race"
                            );
                            conflicts += 1;
                            tokio::task::yield_now().await;
                        }
                        Err(e) => panic!("concurrent append failed: {e} ({e:?})"),
                    }
                }
            }
            conflicts
        }));
    }

    let reader = {
        let store = Arc::clone(&store);
        tokio::spawn(async move {
            let mut seen = 0;
            while seen < (TASKS * APPENDS) as Seq {
                let log = read_all(&*store, c).await;
                let n = log.len() as Seq;
                assert_eq!(
                    seqs(&log),
                    (1..=n).collect::<Vec<_>>(),
                    "a reader must see a gapless prefix"
                );
                assert!(n >= seen, "a reader must never see the log shrink");
                seen = n;
                tokio::task::yield_now().await;
            }
        })
    };

    let mut conflicts = 0;
    for w in writers {
        conflicts += w.await.unwrap();
    }
    reader.await.unwrap();
    eprintln!("conformance: concurrent_appenders retried {conflicts} conflict(s)");

    let log = read_all(&*store, c).await;
    assert_eq!(
        seqs(&log),
        (1..=(TASKS * APPENDS) as Seq).collect::<Vec<_>>(),
        "exactly 400 events, 1..=400"
    );
    assert_eq!(version(&*store, c).await, (TASKS * APPENDS) as Seq);
    let keys: HashSet<_> = log.iter().map(|e| e.idempotency_key.clone()).collect();
    assert_eq!(keys.len(), TASKS * APPENDS, "each command appended once");
    for task in 0..TASKS {
        let order: Vec<String> = log
            .iter()
            .filter(|e| e.kind.starts_with(&format!("kind-t{task}-")))
            .map(|e| e.kind.clone())
            .collect();
        let want: Vec<String> = (0..APPENDS).map(|i| format!("kind-t{task}-{i}")).collect();
        assert_eq!(order, want, "task {task}'s commands in its order");
    }
}

/// The same command sent 8 times at once (a client retrying eagerly) is
/// appended exactly once; every other attempt is a replay of that append.
pub async fn concurrent_retries_of_one_command<S: EventStore + 'static>(store: S) {
    let c = "retries";
    let store = Arc::new(store);
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            store
                .append(c, 0, &events("once", 2), keyed("k-once"))
                .await
        }));
    }
    let mut fresh = 0;
    for t in tasks {
        let got = ok("a concurrent retry", t.await.unwrap());
        assert_eq!(
            (got.first, got.last),
            (1, 2),
            "every attempt reports the one append"
        );
        if !got.replayed {
            fresh += 1;
        }
    }
    assert_eq!(fresh, 1, "exactly one attempt appends; the others replay");
    assert_eq!(version(&*store, c).await, 2);
    assert_eq!(
        read_all(&*store, c).await,
        stored(c, 1, &events("once", 2), Some("k-once"))
    );
}

/// Different requests sent at once with the same key (two clients sharing
/// one by mistake, each retrying eagerly): exactly one is appended, the
/// attempts of that request replay it, and those of the other are refused
/// with `KeyReused`: the fingerprint is recorded with the events, in the
/// same transaction.
pub async fn concurrent_requests_with_one_key<S: EventStore + 'static>(store: S) {
    let c = "shared-key";
    let store = Arc::new(store);
    let mut tasks = Vec::new();
    for i in 0..8 {
        let store = Arc::clone(&store);
        let fingerprint = if i % 2 == 0 { FP } else { FP_OTHER };
        tasks.push(tokio::spawn(async move {
            let evs = events(fingerprint, 2);
            let got = store
                .append(c, 0, &evs, with("k-shared", fingerprint))
                .await;
            (fingerprint, got)
        }));
    }
    let mut fresh = Vec::new();
    let mut outcomes = Vec::new();
    for t in tasks {
        let (fingerprint, got) = t.await.unwrap();
        if let Ok(done) = &got
            && !done.replayed
        {
            fresh.push(fingerprint);
        }
        outcomes.push((fingerprint, got));
    }
    assert_eq!(fresh.len(), 1, "exactly one attempt appends: {outcomes:?}");
    let winner = fresh[0];
    for (fingerprint, got) in outcomes {
        if fingerprint == winner {
            let got = ok("an attempt of the appended request", got);
            assert_eq!((got.first, got.last), (1, 2), "it reports the one append");
        } else {
            assert_key_reused("an attempt of the other request", got, "k-shared");
        }
    }
    assert_eq!(version(&*store, c).await, 2);
    assert_eq!(
        read_all(&*store, c).await,
        stored(c, 1, &events(winner, 2), Some("k-shared"))
    );
    assert_eq!(
        lookup(&*store, c, "k-shared").await,
        Some(key_use(1, 2, winner))
    );
}

// ------------------------------------------------------ export and import

fn key_record(key: &str, first: Seq, last: Seq, fingerprint: &str) -> KeyRecord {
    KeyRecord {
        key: key.to_owned(),
        first,
        last,
        fingerprint: fingerprint.to_owned(),
    }
}

fn secrets_of(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

/// Everything a store keeps of `competition`, as an export would read it.
async fn dump_of<S: EventStore + ?Sized>(store: &S, competition: &str) -> CompetitionDump {
    CompetitionDump {
        id: competition.to_owned(),
        events: read_all(store, competition).await,
        keys: ok(
            &format!("keys of {competition:?}"),
            store.keys(competition).await,
        ),
        secrets: ok(
            &format!("secrets of {competition:?}"),
            store.secrets(competition).await,
        ),
    }
}

/// A consistent dump of `n` events (n ≥ 4): events 2..=3 under key
/// `{id}-k2`, event `n` under `{id}-kn` with an unknown fingerprint, the
/// others keyless; two secrets.
fn sample_dump(id: &str, n: usize) -> CompetitionDump {
    let k2 = format!("{id}-k2");
    let kn = format!("{id}-kn");
    let n_seq = n as Seq;
    let events = stored(id, 1, &events(&format!("{id}-"), n), None)
        .into_iter()
        .map(|mut e| {
            e.idempotency_key = match e.seq {
                2 | 3 => Some(k2.clone()),
                s if s == n_seq => Some(kn.clone()),
                _ => None,
            };
            e
        })
        .collect();
    let mut keys = vec![key_record(&k2, 2, 3, FP), key_record(&kn, n_seq, n_seq, "")];
    keys.sort_by(|a, b| a.key.cmp(&b.key));
    CompetitionDump {
        id: id.to_owned(),
        events,
        keys,
        secrets: secrets_of(&[("round-1", "s1 ünïcödé"), ("seed", "s0")]),
    }
}

/// `keys` lists a competition's idempotency keys sorted by key, with their
/// ranges and fingerprints, and `secrets` its secrets sorted by name; other
/// competitions' are not listed, an unknown competition has none.
pub async fn keys_and_secrets_listed<S: EventStore>(store: S) {
    let c = "listed";
    assert!(ok("keys", store.keys(c).await).is_empty(), "no keys yet");
    assert!(ok("secrets", store.secrets(c).await).is_empty());
    append_ok(&store, c, 0, &events("a", 2), keyed("zeta")).await;
    append_ok(&store, c, 2, &events("b", 1), None).await;
    append_ok(&store, c, 3, &events("c", 3), with("Alpha", FP_OTHER)).await;
    append_ok(&store, c, 6, &events("d", 1), keyed("beta")).await;
    append_ok(&store, "other", 0, &events("o", 1), keyed("gamma")).await;
    // A replay and a refused append record nothing.
    append_ok(&store, c, 0, &events("a", 2), keyed("zeta")).await;
    let _ = store.append(c, 0, &events("x", 1), keyed("delta")).await;
    for (name, value) in [("seed", "s"), ("Round", "r"), ("b-seed", "b")] {
        ok("put_secret", store.put_secret(c, name, value).await);
    }
    ok("put_secret", store.put_secret("other", "x", "y").await);
    ok("put_secret", store.put_secret(c, "seed", "s2").await);

    assert_eq!(
        ok("keys", store.keys(c).await),
        vec![
            key_record("Alpha", 4, 6, FP_OTHER),
            key_record("beta", 7, 7, FP),
            key_record("zeta", 1, 2, FP),
        ],
        "sorted by key (byte order), each with its range and fingerprint"
    );
    assert_eq!(
        ok("keys", store.keys("other").await),
        vec![key_record("gamma", 1, 1, FP)]
    );
    assert!(ok("keys", store.keys("nowhere").await).is_empty());
    assert_eq!(
        ok("secrets", store.secrets(c).await),
        secrets_of(&[("Round", "r"), ("b-seed", "b"), ("seed", "s2")]),
        "sorted by name (byte order), the latest value"
    );
    assert!(ok("secrets", store.secrets("nowhere").await).is_empty());
}

/// Imported competitions read back exactly as given (events with their
/// keys, keys, secrets), and behave as if appended there: versions, the
/// list of competitions, replays of their keys, refusal of their keys
/// elsewhere, appends continuing at n + 1.
pub async fn import_round_trips<S: EventStore>(store: S) {
    ok("empty import", store.import(&[]).await);
    assert!(ok("competitions", store.competitions().await).is_empty());

    append_ok(&store, "already", 0, &events("x", 1), None).await;
    let a = sample_dump("a", 5);
    let b = sample_dump("b", 4);
    ok("import", store.import(&[b.clone(), a.clone()]).await);

    for dump in [&a, &b] {
        assert_eq!(
            &dump_of(&store, &dump.id).await,
            dump,
            "competition {:?} reads back as imported",
            dump.id
        );
        assert_eq!(version(&store, &dump.id).await, dump.events.len() as Seq);
    }
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec!["a".to_owned(), "already".to_owned(), "b".to_owned()]
    );
    assert_eq!(
        ok("secret", store.secret("a", "seed").await).as_deref(),
        Some("s0")
    );
    assert_eq!(lookup(&store, "a", "a-k2").await, Some(key_use(2, 3, FP)));
    assert_eq!(lookup(&store, "a", "a-kn").await, Some(key_use(5, 5, "")));
    // Replays of imported keys, the same request or (unknown fingerprint) any.
    let got = append_ok(&store, "a", 0, &events("r", 2), keyed("a-k2")).await;
    assert_eq!(got, appended(2, 3, true), "an imported key replays");
    let got = append_ok(&store, "a", 0, &events("r", 1), with("a-kn", FP_OTHER)).await;
    assert_eq!(got, appended(5, 5, true), "an unknown fingerprint replays");
    assert_key_reused(
        "an imported key for another request",
        store
            .append("a", 5, &events("r", 1), with("a-k2", FP_OTHER))
            .await,
        "a-k2",
    );
    assert_key_reused(
        "an imported key in another competition",
        store.append("b", 4, &events("r", 1), keyed("a-k2")).await,
        "a-k2",
    );
    assert_conflict(
        "an append at the imported version - 1",
        store.append("a", 4, &events("r", 1), None).await,
        "a",
        4,
        5,
    );
    let got = append_ok(&store, "a", 5, &events("next", 1), keyed("new")).await;
    assert_eq!(got, appended(6, 6, false), "appends go on after an import");
    // An imported dump of an imported competition is the same dump.
    let mut a_after = a.clone();
    a_after
        .events
        .extend(stored("a", 6, &events("next", 1), Some("new")));
    a_after.keys.push(key_record("new", 6, 6, FP));
    a_after.keys.sort_by(|x, y| x.key.cmp(&y.key));
    assert_eq!(dump_of(&store, "a").await, a_after);
}

/// An import of a competition that has events, or of a key used anywhere,
/// is refused with [`StoreError::Exists`], and nothing of it is written,
/// not even its other competitions. Secrets of a competition without events
/// are replaced.
pub async fn import_refuses_what_exists<S: EventStore>(store: S) {
    append_ok(&store, "taken", 0, &events("t", 3), keyed("used-key")).await;
    ok(
        "put_secret",
        store.put_secret("orphan", "seed", "old").await,
    );
    let before = dump_of(&store, "taken").await;

    let fresh = sample_dump("fresh", 4);
    let mut clash = sample_dump("taken", 4);
    clash.keys.clear();
    for e in &mut clash.events {
        e.idempotency_key = None;
    }
    match store.import(&[fresh.clone(), clash]).await {
        Err(StoreError::Exists(what)) => assert!(
            what.contains("taken"),
            "Exists must name the competition: {what}"
        ),
        other => panic!("an import of an existing competition: expected Exists, got {other:?}"),
    }

    let mut key_clash = sample_dump("fresh", 4);
    key_clash.keys[0].key = "used-key".to_owned();
    let first = key_clash.keys[0].first;
    let last = key_clash.keys[0].last;
    for e in &mut key_clash.events {
        if (first..=last).contains(&e.seq) {
            e.idempotency_key = Some("used-key".to_owned());
        }
    }
    ok(
        "check_import",
        crate::check_import(std::slice::from_ref(&key_clash)),
    );
    match store.import(&[key_clash]).await {
        Err(StoreError::Exists(what)) => assert!(
            what.contains("used-key"),
            "Exists must name the key: {what}"
        ),
        other => panic!("an import of a used key: expected Exists, got {other:?}"),
    }

    for c in ["fresh", "orphan"] {
        assert_eq!(version(&store, c).await, 0, "nothing of {c:?} was written");
        assert!(ok("keys", store.keys(c).await).is_empty());
    }
    assert!(ok("secrets", store.secrets("fresh").await).is_empty());
    assert_eq!(lookup(&store, "fresh", "fresh-k2").await, None);
    assert_eq!(
        dump_of(&store, "taken").await,
        before,
        "the existing one is unchanged"
    );
    assert_eq!(
        ok("competitions", store.competitions().await),
        vec!["taken".to_owned()]
    );

    // A competition with secrets but no events is not "existing".
    let orphan = sample_dump("orphan", 4);
    ok(
        "import over an orphan secret",
        store.import(std::slice::from_ref(&orphan)).await,
    );
    assert_eq!(
        dump_of(&store, "orphan").await,
        orphan,
        "its secret replaced"
    );
    // The whole import again: refused, nothing changed.
    assert!(
        matches!(
            store.import(std::slice::from_ref(&orphan)).await,
            Err(StoreError::Exists(_))
        ),
        "a second import of the same competition is refused"
    );
    assert_eq!(dump_of(&store, "orphan").await, orphan);
}

/// Inconsistent dumps are refused with [`StoreError::Invalid`] naming what is
/// wrong, and nothing is written.
pub async fn import_refuses_inconsistent_dumps<S: EventStore>(store: S) {
    let good = sample_dump("good", 5);
    let mut cases: Vec<(&str, Vec<CompetitionDump>, &str)> = Vec::new();
    let mut d = sample_dump("c", 5);
    d.events.swap(0, 1);
    cases.push(("events out of order", vec![good.clone(), d], "\"c\""));
    let mut d = sample_dump("c", 5);
    d.events.remove(0);
    cases.push(("events not starting at 1", vec![d], "\"c\""));
    let mut d = sample_dump("c", 5);
    d.events[3].seq = 9;
    cases.push(("a gap", vec![d], "9"));
    let mut d = sample_dump("c", 5);
    d.events[1].competition = "elsewhere".to_owned();
    cases.push(("an event of another competition", vec![d], "elsewhere"));
    let mut d = sample_dump("c", 5);
    d.keys.push(key_record("outside", 5, 6, FP));
    cases.push(("a key past the events", vec![d], "outside"));
    let mut d = sample_dump("c", 5);
    d.keys.push(key_record("empty-range", 4, 3, FP));
    cases.push(("a key with an empty range", vec![d], "empty-range"));
    let mut d = sample_dump("c", 5);
    d.keys.push(key_record("zero", 0, 1, FP));
    cases.push(("a key from 0", vec![d], "zero"));
    let mut d = sample_dump("c", 5);
    d.events[0].idempotency_key = Some("unlisted".to_owned());
    cases.push(("an event with an unlisted key", vec![d], "unlisted"));
    let mut d = sample_dump("c", 5);
    d.events[2].idempotency_key = None;
    cases.push(("a key's event without it", vec![d], "c-k2"));
    let mut d = sample_dump("c", 5);
    d.keys[0].key = "good-k2".to_owned();
    cases.push((
        "a key twice in one import",
        vec![good.clone(), d],
        "good-k2",
    ));
    cases.push((
        "a competition twice",
        vec![good.clone(), good.clone()],
        "good",
    ));
    let mut d = sample_dump("c", 5);
    d.events.clear();
    d.keys.clear();
    cases.push(("no events", vec![d], "\"c\""));
    let mut d = sample_dump("c", 5);
    d.secrets.push(("seed".to_owned(), "again".to_owned()));
    cases.push(("a secret twice", vec![d], "seed"));

    for (what, dumps, named) in cases {
        match store.import(&dumps).await {
            Err(StoreError::Invalid(message)) => assert!(
                message.contains(named),
                "{what}: the refusal must name {named}: {message}"
            ),
            other => panic!("{what}: expected Invalid, got {other:?}"),
        }
        assert!(
            ok("competitions", store.competitions().await).is_empty(),
            "{what}: nothing written"
        );
        for c in ["good", "c"] {
            assert!(ok("keys", store.keys(c).await).is_empty(), "{what}");
            assert!(ok("secrets", store.secrets(c).await).is_empty(), "{what}");
        }
    }
}

/// 10,000 events and 2,000 keys of one competition, and 50 small ones, in
/// one import.
pub async fn import_many_events<S: EventStore>(store: S) {
    const N: usize = 10_000;
    let c = "big";
    let mut events = stored(c, 1, &events("big", N), None);
    let mut keys = Vec::new();
    for (i, chunk) in events.chunks_mut(5).enumerate() {
        let key = format!("key-{i:05}");
        for e in chunk.iter_mut() {
            e.idempotency_key = Some(key.clone());
        }
        keys.push(key_record(
            &key,
            chunk[0].seq,
            chunk[chunk.len() - 1].seq,
            FP,
        ));
    }
    let big = CompetitionDump {
        id: c.to_owned(),
        events,
        keys,
        secrets: secrets_of(&[("seed", "s")]),
    };
    let mut dumps = vec![big.clone()];
    dumps.extend((0..50).map(|i| sample_dump(&format!("small-{i:02}"), 4 + i % 3)));
    ok("import of 10,000 events", store.import(&dumps).await);
    assert_eq!(version(&store, c).await, N as Seq);
    assert_eq!(dump_of(&store, c).await, big);
    assert_eq!(ok("competitions", store.competitions().await).len(), 51);
    assert_eq!(
        lookup(&store, c, "key-01234").await,
        Some(key_use(6171, 6175, FP))
    );
}

/// An import and an append to the same new competition, racing: exactly one
/// wins, and the loser is told (the append a conflict at the imported
/// version, the import that the competition exists); the log is the
/// winner's, whole.
pub async fn import_races_an_append<S: EventStore + 'static>(store: S) {
    let store = Arc::new(store);
    for round in 0..10 {
        let c = format!("race-{round}");
        let dump = sample_dump(&c, 600);
        let importer = {
            let store = Arc::clone(&store);
            let dump = dump.clone();
            tokio::spawn(async move { store.import(std::slice::from_ref(&dump)).await })
        };
        let appender = {
            let store = Arc::clone(&store);
            let c = c.clone();
            tokio::spawn(async move { store.append(&c, 0, &events("app", 3), None).await })
        };
        let imported = importer.await.unwrap();
        let appended_ = appender.await.unwrap();
        match (imported, appended_) {
            (Ok(()), Err(StoreError::Conflict { actual, .. })) => {
                assert_eq!(
                    actual, 600,
                    "round {round}: the conflict names the imported version"
                );
                assert_eq!(dump_of(&*store, &c).await, dump, "round {round}");
            }
            (Err(StoreError::Exists(what)), Ok(got)) => {
                assert!(what.contains(&c), "round {round}: {what}");
                assert_eq!(got, appended(1, 3, false), "round {round}");
                assert_eq!(
                    read_all(&*store, &c).await,
                    stored(&c, 1, &events("app", 3), None),
                    "round {round}: nothing of the import"
                );
                assert!(ok("secrets", store.secrets(&c).await).is_empty());
            }
            other => panic!("round {round}: exactly one must win, got {other:?}"),
        }
    }
}

/// The conformance suite every [`AccountStore`](crate::AccountStore) backend
/// must pass: call [`accounts::run_all`] with a closure that makes a fresh,
/// empty store. The checks need no particular runtime.
pub mod accounts {
    use super::ok;
    use crate::{
        Account, AccountStore, ApiToken, CalendarFeed, FeedOwner, Grant, Role, Session, StoreError,
    };

    /// Run every check, each on a fresh empty store made by `make`.
    pub async fn run_all<S, F, Fut>(make: F)
    where
        S: AccountStore + 'static,
        F: Fn() -> Fut,
        Fut: Future<Output = S>,
    {
        // The name is printed before each check so that a failure's captured
        // output says which check was running.
        macro_rules! check {
            ($name:ident) => {
                eprintln!("conformance::accounts: {}", stringify!($name));
                $name(make().await).await;
            };
        }
        check!(create_and_look_up);
        check!(duplicate_username_refused);
        check!(accounts_sorted);
        check!(set_password);
        check!(grant_replaces_player);
        check!(revoke);
        check!(grants_sorted);
        check!(sessions_until_expiry);
        check!(delete_session);
        check!(delete_sessions_of);
        check!(purge_sessions);
        check!(tokens);
        check!(token_expiry_and_last_use);
        check!(delete_tokens_of);
        check!(delete_account);
        check!(calendar_feeds);
        check!(delete_account_revokes_its_feeds);
        check!(import_accounts_round_trips);
        check!(import_accounts_refuses_taken_usernames);
        check!(import_accounts_refuses_inconsistent_sets);
    }

    // ------------------------------------------------------------ helpers

    /// A distinguishable account: its fields carry `username`.
    fn account(username: &str) -> Account {
        Account {
            username: username.to_owned(),
            display_name: format!("Display {username}"),
            email: Some(format!("{username}@example.org")),
            password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt-{username}$hash"),
            organizer: false,
            created_at: "2024-05-01T12:00:00Z".to_owned(),
        }
    }

    async fn create<S: AccountStore + ?Sized>(store: &S, account: &Account) {
        ok(
            &format!("create_account {:?}", account.username),
            store.create_account(account).await,
        );
    }

    async fn lookup<S: AccountStore + ?Sized>(store: &S, username: &str) -> Option<Account> {
        ok(
            &format!("account {username:?}"),
            store.account(username).await,
        )
    }

    async fn all<S: AccountStore + ?Sized>(store: &S) -> Vec<Account> {
        ok("accounts", store.accounts().await)
    }

    fn grant(competition: &str, username: &str, role: Role, player: Option<&str>) -> Grant {
        Grant {
            competition: competition.to_owned(),
            username: username.to_owned(),
            role,
            player: player.map(str::to_owned),
        }
    }

    async fn give<S: AccountStore + ?Sized>(store: &S, grant: &Grant) {
        ok(&format!("grant {grant:?}"), store.grant(grant).await);
    }

    async fn grants_in<S: AccountStore + ?Sized>(store: &S, competition: &str) -> Vec<Grant> {
        ok(
            &format!("grants_in {competition:?}"),
            store.grants_in(competition).await,
        )
    }

    async fn grants_of<S: AccountStore + ?Sized>(store: &S, username: &str) -> Vec<Grant> {
        ok(
            &format!("grants_of {username:?}"),
            store.grants_of(username).await,
        )
    }

    /// A session of `username`, made at 1000, expiring at `expires_at`.
    fn session(id_hash: &str, username: &str, expires_at: i64) -> Session {
        Session {
            id_hash: id_hash.to_owned(),
            username: username.to_owned(),
            csrf: format!("csrf-{id_hash}"),
            created_at: 1000,
            expires_at,
        }
    }

    async fn put_session<S: AccountStore + ?Sized>(store: &S, session: &Session) {
        ok(
            &format!("put_session {:?}", session.id_hash),
            store.put_session(session).await,
        );
    }

    async fn get_session<S: AccountStore + ?Sized>(
        store: &S,
        id_hash: &str,
        now: i64,
    ) -> Option<Session> {
        ok(
            &format!("session {id_hash:?} at {now}"),
            store.session(id_hash, now).await,
        )
    }

    fn token(hash: &str, username: &str, label: &str, created_at: &str) -> ApiToken {
        ApiToken {
            hash: hash.to_owned(),
            username: username.to_owned(),
            label: label.to_owned(),
            created_at: created_at.to_owned(),
            expires_at: None,
            last_used: None,
        }
    }

    async fn put_token<S: AccountStore + ?Sized>(store: &S, token: &ApiToken) {
        ok(
            &format!("put_token {:?}", token.hash),
            store.put_token(token).await,
        );
    }

    async fn tokens_of<S: AccountStore + ?Sized>(store: &S, username: &str) -> Vec<ApiToken> {
        ok(
            &format!("tokens_of {username:?}"),
            store.tokens_of(username).await,
        )
    }

    // ------------------------------------------------------------- checks

    /// An account reads back as created, every field included; unknown
    /// usernames have none.
    pub async fn create_and_look_up<S: AccountStore>(store: S) {
        assert_eq!(lookup(&store, "alice").await, None, "no account yet");
        assert!(all(&store).await.is_empty(), "a fresh store has no account");

        let alice = Account {
            organizer: true,
            display_name: "Alice Ünïcödé \"A\"".to_owned(),
            ..account("alice")
        };
        create(&store, &alice).await;
        let bob = Account {
            email: None,
            ..account("bob")
        };
        create(&store, &bob).await;

        assert_eq!(lookup(&store, "alice").await, Some(alice.clone()));
        assert_eq!(
            lookup(&store, "bob").await,
            Some(bob.clone()),
            "no email and not an organizer round-trip"
        );
        assert_eq!(lookup(&store, "carol").await, None);
        assert_eq!(
            lookup(&store, "alic").await,
            None,
            "a prefix is not a username"
        );
        assert_eq!(all(&store).await, vec![alice, bob]);
    }

    /// A taken username is refused with [`StoreError::AccountExists`], and
    /// nothing of the refused account is written.
    pub async fn duplicate_username_refused<S: AccountStore>(store: S) {
        let first = account("alice");
        create(&store, &first).await;
        let second = Account {
            display_name: "Another Alice".to_owned(),
            email: Some("other@example.org".to_owned()),
            password_hash: "$argon2id$other".to_owned(),
            organizer: true,
            created_at: "2025-01-01T00:00:00Z".to_owned(),
            ..account("alice")
        };
        match store.create_account(&second).await {
            Err(StoreError::AccountExists(username)) => {
                assert_eq!(username, "alice", "the error names the username");
            }
            other => panic!("a taken username must give AccountExists, got {other:?}"),
        }
        assert_eq!(
            lookup(&store, "alice").await,
            Some(first.clone()),
            "the first account is unchanged"
        );
        assert_eq!(all(&store).await, vec![first.clone()], "nothing was added");

        // The same account again is refused too.
        assert!(
            matches!(
                store.create_account(&first).await,
                Err(StoreError::AccountExists(ref u)) if u == "alice"
            ),
            "creating the same account twice is refused"
        );
        // Other usernames are still free.
        create(&store, &account("alice2")).await;
        assert_eq!(all(&store).await.len(), 2);
    }

    /// [`AccountStore::accounts`] lists every account sorted by username,
    /// whatever the order of creation.
    pub async fn accounts_sorted<S: AccountStore>(store: S) {
        let names = ["mallory", "alice", "zoe", "bob", "alice-2", "al", "émile"];
        for name in names {
            create(&store, &account(name)).await;
        }
        let mut sorted: Vec<&str> = names.to_vec();
        sorted.sort_unstable();
        let expected: Vec<Account> = sorted.into_iter().map(account).collect();
        assert_eq!(all(&store).await, expected, "sorted by username");
    }

    /// A password hash is replaced (true) for an existing account only; the
    /// other fields are kept, and an unknown account is not created (false).
    pub async fn set_password<S: AccountStore>(store: S) {
        let alice = account("alice");
        let bob = account("bob");
        create(&store, &alice).await;
        create(&store, &bob).await;

        let changed = ok(
            "set_password alice",
            store.set_password("alice", "$argon2id$new").await,
        );
        assert!(changed, "set_password of an existing account is true");
        assert_eq!(
            lookup(&store, "alice").await,
            Some(Account {
                password_hash: "$argon2id$new".to_owned(),
                ..alice
            }),
            "only the hash changed"
        );
        assert_eq!(
            lookup(&store, "bob").await,
            Some(bob),
            "other accounts are untouched"
        );

        let changed = ok(
            "set_password carol",
            store.set_password("carol", "$argon2id$x").await,
        );
        assert!(!changed, "set_password of an unknown account is false");
        assert_eq!(lookup(&store, "carol").await, None, "and creates nothing");
        assert_eq!(all(&store).await.len(), 2);
    }

    /// A grant with the (competition, username, role) of an existing one
    /// replaces its `player`; other roles and competitions are separate
    /// grants.
    pub async fn grant_replaces_player<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        assert!(grants_in(&store, "c").await.is_empty(), "no grant yet");
        assert!(grants_of(&store, "alice").await.is_empty(), "no grant yet");

        give(&store, &grant("c", "alice", Role::Player, Some("Alice A"))).await;
        assert_eq!(
            grants_in(&store, "c").await,
            vec![grant("c", "alice", Role::Player, Some("Alice A"))]
        );

        give(&store, &grant("c", "alice", Role::Player, Some("Alice B"))).await;
        assert_eq!(
            grants_in(&store, "c").await,
            vec![grant("c", "alice", Role::Player, Some("Alice B"))],
            "a second grant of the same role replaces the player"
        );

        give(&store, &grant("c", "alice", Role::Player, None)).await;
        assert_eq!(
            grants_in(&store, "c").await,
            vec![grant("c", "alice", Role::Player, None)],
            "the player can be replaced by none"
        );

        give(&store, &grant("c", "alice", Role::Moderator, None)).await;
        give(&store, &grant("d", "alice", Role::Player, Some("A. in d"))).await;
        // The same grant twice is one grant.
        give(&store, &grant("c", "alice", Role::Moderator, None)).await;
        assert_eq!(
            grants_of(&store, "alice").await,
            vec![
                grant("c", "alice", Role::Moderator, None),
                grant("c", "alice", Role::Player, None),
                grant("d", "alice", Role::Player, Some("A. in d")),
            ],
            "other roles and competitions are other grants"
        );
    }

    /// A revoke removes exactly one grant (true), and is false when there
    /// was none.
    pub async fn revoke<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        give(&store, &grant("c", "alice", Role::Owner, None)).await;
        give(&store, &grant("c", "alice", Role::Player, Some("Alice"))).await;
        give(&store, &grant("c", "bob", Role::Owner, None)).await;
        give(&store, &grant("d", "alice", Role::Owner, None)).await;

        let revoke = |competition: &'static str, username: &'static str, role: Role| {
            let store = &store;
            async move {
                ok(
                    &format!("revoke {competition:?} {username:?} {role:?}"),
                    store.revoke(competition, username, role).await,
                )
            }
        };
        assert!(revoke("c", "alice", Role::Owner).await, "an existing grant");
        assert!(
            !revoke("c", "alice", Role::Owner).await,
            "a grant revoked already"
        );
        assert!(
            !revoke("c", "alice", Role::Moderator).await,
            "a role never granted"
        );
        assert!(
            !revoke("e", "alice", Role::Owner).await,
            "another competition"
        );
        assert!(
            !revoke("c", "carol", Role::Owner).await,
            "an unknown account"
        );

        assert_eq!(
            grants_in(&store, "c").await,
            vec![
                grant("c", "alice", Role::Player, Some("Alice")),
                grant("c", "bob", Role::Owner, None),
            ],
            "only the revoked grant is gone"
        );
        assert_eq!(
            grants_in(&store, "d").await,
            vec![grant("d", "alice", Role::Owner, None)],
            "the same role elsewhere is kept"
        );

        assert!(revoke("c", "alice", Role::Player).await);
        assert!(revoke("c", "bob", Role::Owner).await);
        assert!(grants_in(&store, "c").await.is_empty());
        assert_eq!(grants_of(&store, "alice").await.len(), 1);
    }

    /// [`AccountStore::grants_in`] is sorted by (username, role) and
    /// [`AccountStore::grants_of`] by (competition, role), roles in the
    /// order of [`Role`] (owner, moderator, player: not alphabetical).
    pub async fn grants_sorted<S: AccountStore>(store: S) {
        for name in ["alice", "bob", "carol"] {
            create(&store, &account(name)).await;
        }
        // Given in a scrambled order.
        let given = [
            grant("c", "carol", Role::Player, Some("Carol")),
            grant("c", "alice", Role::Player, Some("Alice")),
            grant("b", "alice", Role::Moderator, None),
            grant("c", "bob", Role::Moderator, None),
            grant("c", "alice", Role::Owner, None),
            grant("a", "alice", Role::Player, Some("Alice in a")),
            grant("c", "alice", Role::Moderator, None),
            grant("c", "bob", Role::Owner, None),
            grant("b", "alice", Role::Owner, None),
            grant("a2", "alice", Role::Moderator, None),
        ];
        for g in &given {
            give(&store, g).await;
        }

        assert_eq!(
            grants_in(&store, "c").await,
            vec![
                grant("c", "alice", Role::Owner, None),
                grant("c", "alice", Role::Moderator, None),
                grant("c", "alice", Role::Player, Some("Alice")),
                grant("c", "bob", Role::Owner, None),
                grant("c", "bob", Role::Moderator, None),
                grant("c", "carol", Role::Player, Some("Carol")),
            ],
            "grants_in: by username, then role"
        );
        assert_eq!(
            grants_of(&store, "alice").await,
            vec![
                grant("a", "alice", Role::Player, Some("Alice in a")),
                grant("a2", "alice", Role::Moderator, None),
                grant("b", "alice", Role::Owner, None),
                grant("b", "alice", Role::Moderator, None),
                grant("c", "alice", Role::Owner, None),
                grant("c", "alice", Role::Moderator, None),
                grant("c", "alice", Role::Player, Some("Alice")),
            ],
            "grants_of: by competition, then role"
        );
        assert_eq!(
            grants_of(&store, "bob").await,
            vec![
                grant("c", "bob", Role::Owner, None),
                grant("c", "bob", Role::Moderator, None),
            ]
        );
        assert!(grants_in(&store, "nowhere").await.is_empty());
        assert!(grants_of(&store, "nobody").await.is_empty());
        assert!(
            grants_in(&store, "a").await.len() == 1 && grants_in(&store, "b").await.len() == 2,
            "grants_in is per competition"
        );
    }

    /// A session is returned, every field included, while `now` is before
    /// its expiry, and not from its expiry on.
    pub async fn sessions_until_expiry<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        assert_eq!(get_session(&store, "s1", 0).await, None, "no session yet");

        let s1 = session("s1", "alice", 2000);
        put_session(&store, &s1).await;
        let s2 = Session {
            created_at: 1500,
            ..session("s2", "alice", 5000)
        };
        put_session(&store, &s2).await;

        for now in [0, 1000, 1999] {
            assert_eq!(
                get_session(&store, "s1", now).await,
                Some(s1.clone()),
                "before its expiry (now = {now})"
            );
        }
        for now in [2000, 2001, 10_000] {
            assert_eq!(
                get_session(&store, "s1", now).await,
                None,
                "from its expiry on (now = {now})"
            );
        }
        assert_eq!(
            get_session(&store, "s2", 2000).await,
            Some(s2.clone()),
            "sessions expire separately"
        );
        assert_eq!(get_session(&store, "unknown", 0).await, None);

        // An expired session is not returned, but is still there until
        // deleted or purged.
        assert!(ok("delete_session s1", store.delete_session("s1").await));
    }

    /// Deleting a session (logout) removes that one only; false when there
    /// is none.
    pub async fn delete_session<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        let s1 = session("s1", "alice", 2000);
        let s2 = session("s2", "alice", 2000);
        put_session(&store, &s1).await;
        put_session(&store, &s2).await;

        assert!(
            ok("delete_session s1", store.delete_session("s1").await),
            "an existing session"
        );
        assert_eq!(get_session(&store, "s1", 1000).await, None, "it is gone");
        assert_eq!(
            get_session(&store, "s2", 1000).await,
            Some(s2),
            "the other one is kept"
        );
        assert!(
            !ok("delete_session s1", store.delete_session("s1").await),
            "a session deleted already"
        );
        assert!(
            !ok(
                "delete_session unknown",
                store.delete_session("unknown").await
            ),
            "an unknown session"
        );
    }

    /// Deleting the sessions of an account (password change) removes all of
    /// them, expired ones included, and says how many; others' are kept.
    pub async fn delete_sessions_of<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        put_session(&store, &session("a1", "alice", 2000)).await;
        put_session(&store, &session("a2", "alice", 3000)).await;
        put_session(&store, &session("a3", "alice", 500)).await;
        let b1 = session("b1", "bob", 2000);
        put_session(&store, &b1).await;

        assert_eq!(
            ok(
                "delete_sessions_of alice",
                store.delete_sessions_of("alice").await
            ),
            3,
            "every session of the account"
        );
        for id in ["a1", "a2", "a3"] {
            assert_eq!(get_session(&store, id, 0).await, None, "{id} is gone");
        }
        assert_eq!(
            get_session(&store, "b1", 1000).await,
            Some(b1),
            "another account's session is kept"
        );
        assert_eq!(
            ok(
                "delete_sessions_of alice",
                store.delete_sessions_of("alice").await
            ),
            0,
            "none left"
        );
        assert_eq!(
            ok(
                "delete_sessions_of carol",
                store.delete_sessions_of("carol").await
            ),
            0,
            "an unknown account has none"
        );
    }

    /// Purging at `now` deletes exactly the sessions expired at `now` (those
    /// [`AccountStore::session`] no longer returns) and says how many.
    pub async fn purge_sessions<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        assert_eq!(ok("purge_sessions", store.purge_sessions(0).await), 0);

        put_session(&store, &session("s100", "alice", 100)).await;
        put_session(&store, &session("s200", "bob", 200)).await;
        let s201 = session("s201", "alice", 201);
        let s300 = session("s300", "bob", 300);
        put_session(&store, &s201).await;
        put_session(&store, &s300).await;

        assert_eq!(
            ok("purge_sessions 99", store.purge_sessions(99).await),
            0,
            "none expired yet"
        );
        assert_eq!(
            ok("purge_sessions 200", store.purge_sessions(200).await),
            2,
            "a session expiring at `now` is expired"
        );
        assert_eq!(
            ok("purge_sessions 200", store.purge_sessions(200).await),
            0,
            "purged already"
        );
        // Gone for good: not returned even at an earlier `now`.
        assert_eq!(get_session(&store, "s100", 0).await, None);
        assert_eq!(get_session(&store, "s200", 0).await, None);
        assert!(!ok(
            "delete_session s100",
            store.delete_session("s100").await
        ));
        assert_eq!(get_session(&store, "s201", 200).await, Some(s201));
        assert_eq!(get_session(&store, "s300", 200).await, Some(s300));
        assert_eq!(
            ok("purge_sessions 1000", store.purge_sessions(1000).await),
            2
        );
        assert_eq!(get_session(&store, "s300", 0).await, None);
    }

    /// API tokens read back by hash, are listed per account sorted by
    /// creation then label, and are deleted (true) once (then false).
    pub async fn tokens<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        assert_eq!(ok("token", store.token("h1").await), None, "no token yet");
        assert!(tokens_of(&store, "alice").await.is_empty());

        // Given in a scrambled order.
        let late = token("h1", "alice", "a-label", "2024-06-01T00:00:00Z");
        let early_b = token("h2", "alice", "b-label", "2024-05-01T00:00:00Z");
        let early_a = token("h3", "alice", "a-label", "2024-05-01T00:00:00Z");
        let middle = token("h4", "alice", "0-label", "2024-05-15T00:00:00Z");
        let bobs = token("h5", "bob", "bob's ünïcödé token", "2024-01-01T00:00:00Z");
        for t in [&late, &early_b, &bobs, &early_a, &middle] {
            put_token(&store, t).await;
        }

        assert_eq!(ok("token h1", store.token("h1").await), Some(late.clone()));
        assert_eq!(ok("token h5", store.token("h5").await), Some(bobs.clone()));
        assert_eq!(ok("token unknown", store.token("unknown").await), None);
        assert_eq!(
            tokens_of(&store, "alice").await,
            vec![
                early_a.clone(),
                early_b.clone(),
                middle.clone(),
                late.clone()
            ],
            "sorted by creation, then label"
        );
        assert_eq!(tokens_of(&store, "bob").await, vec![bobs.clone()]);
        assert!(tokens_of(&store, "carol").await.is_empty());

        assert!(
            ok("delete_token h2", store.delete_token("h2").await),
            "an existing token"
        );
        assert_eq!(ok("token h2", store.token("h2").await), None, "it is gone");
        assert!(
            !ok("delete_token h2", store.delete_token("h2").await),
            "a token deleted already"
        );
        assert!(
            !ok("delete_token unknown", store.delete_token("unknown").await),
            "an unknown token"
        );
        assert_eq!(
            tokens_of(&store, "alice").await,
            vec![early_a, middle, late],
            "only the deleted token is gone"
        );
        assert_eq!(tokens_of(&store, "bob").await, vec![bobs]);
    }

    /// A token's expiry and last use are kept (issue 14 item 2);
    /// [`AccountStore::touch_token`] changes only the last use of its token.
    pub async fn token_expiry_and_last_use<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        let expiring = ApiToken {
            expires_at: Some("2025-01-01T00:00:00Z".to_owned()),
            ..token("h1", "alice", "ci", "2024-06-01T00:00:00Z")
        };
        let other = token("h2", "alice", "laptop", "2024-06-02T00:00:00Z");
        put_token(&store, &expiring).await;
        put_token(&store, &other).await;
        assert_eq!(
            ok("token h1", store.token("h1").await),
            Some(expiring.clone()),
            "the expiry reads back"
        );
        assert!(ok(
            "touch_token h1",
            store.touch_token("h1", "2024-07-01T12:00:00Z").await
        ));
        let used = ApiToken {
            last_used: Some("2024-07-01T12:00:00Z".to_owned()),
            ..expiring.clone()
        };
        assert_eq!(ok("token h1", store.token("h1").await), Some(used.clone()));
        assert!(ok(
            "touch_token h1 again",
            store.touch_token("h1", "2024-07-02T12:00:00Z").await
        ));
        let used_again = ApiToken {
            last_used: Some("2024-07-02T12:00:00Z".to_owned()),
            ..expiring
        };
        assert_eq!(
            tokens_of(&store, "alice").await,
            vec![used_again, other],
            "the last use is replaced, the other token untouched"
        );
        assert!(
            !ok(
                "touch_token unknown",
                store.touch_token("unknown", "2024-07-01T12:00:00Z").await
            ),
            "an unknown token"
        );
        assert_eq!(ok("token unknown", store.token("unknown").await), None);
    }

    /// [`AccountStore::delete_tokens_of`] deletes every token of one
    /// account and says how many.
    pub async fn delete_tokens_of<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        let bobs = token("h3", "bob", "b", "2024-01-01T00:00:00Z");
        for t in [
            &token("h1", "alice", "a", "2024-01-01T00:00:00Z"),
            &token("h2", "alice", "b", "2024-01-02T00:00:00Z"),
            &bobs,
        ] {
            put_token(&store, t).await;
        }
        assert_eq!(
            ok(
                "delete_tokens_of alice",
                store.delete_tokens_of("alice").await
            ),
            2
        );
        assert!(tokens_of(&store, "alice").await.is_empty());
        assert_eq!(ok("token h1", store.token("h1").await), None);
        assert_eq!(tokens_of(&store, "bob").await, vec![bobs], "bob keeps his");
        assert_eq!(
            ok(
                "delete_tokens_of alice",
                store.delete_tokens_of("alice").await
            ),
            0,
            "none left"
        );
    }

    /// [`AccountStore::delete_account`] removes the account with its
    /// tokens, sessions and grants, and nothing of anyone else's.
    pub async fn delete_account<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        create(&store, &account("bob")).await;
        put_token(&store, &token("h1", "alice", "a", "2024-01-01T00:00:00Z")).await;
        let bobs_token = token("h2", "bob", "b", "2024-01-01T00:00:00Z");
        put_token(&store, &bobs_token).await;
        put_session(&store, &session("s1", "alice", 5000)).await;
        let bobs_session = session("s2", "bob", 5000);
        put_session(&store, &bobs_session).await;
        let grant = |username: &str| Grant {
            competition: "c1".to_owned(),
            username: username.to_owned(),
            role: Role::Moderator,
            player: None,
        };
        give(&store, &grant("alice")).await;
        give(&store, &grant("bob")).await;

        assert!(ok(
            "delete_account alice",
            store.delete_account("alice").await
        ));
        assert_eq!(lookup(&store, "alice").await, None, "the account is gone");
        assert_eq!(ok("token h1", store.token("h1").await), None, "its token");
        assert!(tokens_of(&store, "alice").await.is_empty());
        assert_eq!(get_session(&store, "s1", 0).await, None, "its session");
        assert!(grants_of(&store, "alice").await.is_empty(), "its grants");
        assert_eq!(grants_in(&store, "c1").await, vec![grant("bob")]);
        assert!(lookup(&store, "bob").await.is_some(), "bob is untouched");
        assert_eq!(tokens_of(&store, "bob").await, vec![bobs_token]);
        assert_eq!(get_session(&store, "s2", 0).await, Some(bobs_session));
        assert!(
            !ok(
                "delete_account alice again",
                store.delete_account("alice").await
            ),
            "no such account any more"
        );
        // The name is free again, and the new account inherits nothing.
        create(&store, &account("alice")).await;
        assert!(grants_of(&store, "alice").await.is_empty());
        assert!(tokens_of(&store, "alice").await.is_empty());
    }

    fn feed(hash: &str, owner: FeedOwner, label: &str, created_at: &str) -> CalendarFeed {
        CalendarFeed {
            hash: hash.to_owned(),
            owner,
            label: label.to_owned(),
            created_by: "maker".to_owned(),
            created_at: created_at.to_owned(),
        }
    }

    /// Calendar feeds (issue 18 §4): kept by hash, listed per owner in
    /// order of creation, label and hash, revoked one by one; an account's
    /// and a competition's of the same name are apart.
    pub async fn calendar_feeds<S: AccountStore>(store: S) {
        let alice = FeedOwner::Account("alice".to_owned());
        let league = FeedOwner::Competition("alice".to_owned());
        let late = feed("f1", alice.clone(), "phone", "2024-02-01T00:00:00Z");
        let early = feed("f2", alice.clone(), "zz", "2024-01-01T00:00:00Z");
        let same_time = feed("f3", alice.clone(), "aa", "2024-02-01T00:00:00Z");
        let club = feed("f4", league.clone(), "club", "2024-01-01T00:00:00Z");
        for f in [&late, &early, &same_time, &club] {
            ok(&format!("put_feed {}", f.hash), store.put_feed(f).await);
        }
        assert_eq!(ok("feed f1", store.feed("f1").await), Some(late.clone()));
        assert_eq!(ok("feed f4", store.feed("f4").await), Some(club.clone()));
        assert_eq!(ok("feed nope", store.feed("nope").await), None);
        assert_eq!(
            ok("feeds_of alice", store.feeds_of(&alice).await),
            vec![early.clone(), same_time.clone(), late.clone()]
        );
        assert_eq!(
            ok("feeds_of the league", store.feeds_of(&league).await),
            vec![club.clone()]
        );
        assert!(
            ok(
                "feeds_of bob",
                store.feeds_of(&FeedOwner::Account("bob".to_owned())).await
            )
            .is_empty()
        );
        // Put again: replaced, not doubled.
        let relabelled = CalendarFeed {
            label: "tablet".to_owned(),
            ..late.clone()
        };
        ok("put_feed f1 again", store.put_feed(&relabelled).await);
        assert_eq!(ok("feed f1", store.feed("f1").await), Some(relabelled));
        assert!(ok("delete_feed f1", store.delete_feed("f1").await));
        assert!(!ok("delete_feed f1 again", store.delete_feed("f1").await));
        assert_eq!(ok("feed f1 revoked", store.feed("f1").await), None);
        assert_eq!(
            ok("feeds_of alice", store.feeds_of(&alice).await),
            vec![early, same_time]
        );
        assert_eq!(ok("feed f4", store.feed("f4").await), Some(club));
    }

    /// Removing an account revokes its feeds, not a competition's feeds it
    /// made.
    pub async fn delete_account_revokes_its_feeds<S: AccountStore>(store: S) {
        create(&store, &account("alice")).await;
        let own = feed(
            "f1",
            FeedOwner::Account("alice".to_owned()),
            "phone",
            "2024-01-01T00:00:00Z",
        );
        let club = CalendarFeed {
            created_by: "alice".to_owned(),
            ..feed(
                "f2",
                FeedOwner::Competition("c1".to_owned()),
                "club",
                "2024-01-01T00:00:00Z",
            )
        };
        let bobs = feed(
            "f3",
            FeedOwner::Account("bob".to_owned()),
            "phone",
            "2024-01-01T00:00:00Z",
        );
        for f in [&own, &club, &bobs] {
            ok(&format!("put_feed {}", f.hash), store.put_feed(f).await);
        }
        assert!(ok(
            "delete_account alice",
            store.delete_account("alice").await
        ));
        assert_eq!(ok("feed f1", store.feed("f1").await), None, "her own feed");
        assert_eq!(ok("feed f2", store.feed("f2").await), Some(club));
        assert_eq!(ok("feed f3", store.feed("f3").await), Some(bobs));
    }

    /// Imported accounts, grants and tokens read back as given.
    pub async fn import_accounts_round_trips<S: AccountStore>(store: S) {
        ok("empty import", store.import_accounts(&[], &[], &[]).await);
        create(&store, &account("existing")).await;
        let alice = Account {
            organizer: true,
            ..account("alice")
        };
        let bob = Account {
            email: None,
            ..account("bob")
        };
        let grants = vec![
            grant("c1", "alice", Role::Owner, None),
            grant("c1", "bob", Role::Player, Some("Bob B.")),
            grant("c2", "bob", Role::Moderator, None),
        ];
        let tokens = vec![
            token("h1", "alice", "ci", "2024-05-01T00:00:00Z"),
            token("h2", "alice", "laptop", "2024-05-02T00:00:00Z"),
        ];
        ok(
            "import_accounts",
            store
                .import_accounts(&[bob.clone(), alice.clone()], &grants, &tokens)
                .await,
        );
        assert_eq!(
            all(&store).await,
            vec![alice.clone(), bob.clone(), account("existing")]
        );
        assert_eq!(
            grants_in(&store, "c1").await,
            vec![grants[0].clone(), grants[1].clone()]
        );
        assert_eq!(
            grants_of(&store, "bob").await,
            vec![grants[1].clone(), grants[2].clone()]
        );
        assert_eq!(tokens_of(&store, "alice").await, tokens);
        assert_eq!(
            ok("token", store.token("h2").await),
            Some(tokens[1].clone())
        );
    }

    /// An import with a taken username is refused with
    /// [`StoreError::AccountExists`] naming it, a token hash already kept
    /// with [`StoreError::Exists`]; nothing of either import is written.
    pub async fn import_accounts_refuses_taken_usernames<S: AccountStore>(store: S) {
        create(&store, &account("bob")).await;
        put_token(
            &store,
            &token("kept", "bob", "bob's", "2024-01-01T00:00:00Z"),
        )
        .await;
        let new_alice = account("alice");
        let other_bob = Account {
            display_name: "Another Bob".to_owned(),
            ..account("bob")
        };
        let grants = [grant("c1", "alice", Role::Owner, None)];
        let tokens = [token("h1", "alice", "ci", "2024-05-01T00:00:00Z")];
        match store
            .import_accounts(&[new_alice.clone(), other_bob], &grants, &tokens)
            .await
        {
            Err(StoreError::AccountExists(name)) => assert_eq!(name, "bob"),
            other => panic!("a taken username: expected AccountExists, got {other:?}"),
        }
        let clash = [token("kept", "alice", "ci", "2024-05-01T00:00:00Z")];
        match store
            .import_accounts(std::slice::from_ref(&new_alice), &grants, &clash)
            .await
        {
            Err(StoreError::Exists(what)) => assert!(what.contains("alice"), "{what}"),
            other => panic!("a kept token hash: expected Exists, got {other:?}"),
        }
        assert_eq!(all(&store).await, vec![account("bob")], "nothing written");
        assert!(grants_in(&store, "c1").await.is_empty());
        assert_eq!(ok("token", store.token("h1").await), None);
        assert_eq!(
            ok("token", store.token("kept").await).map(|t| t.username),
            Some("bob".to_owned())
        );
    }

    /// Inconsistent sets are refused with [`StoreError::Invalid`], nothing
    /// written.
    pub async fn import_accounts_refuses_inconsistent_sets<S: AccountStore>(store: S) {
        let a = account("alice");
        let g = grant("c1", "alice", Role::Owner, None);
        let t = token("h1", "alice", "ci", "2024-05-01T00:00:00Z");
        type Case<'a> = (&'a str, Vec<Account>, Vec<Grant>, Vec<ApiToken>, &'a str);
        let cases: Vec<Case> = vec![
            (
                "a username twice",
                vec![a.clone(), a.clone()],
                vec![],
                vec![],
                "alice",
            ),
            (
                "a grant of an account not imported",
                vec![a.clone()],
                vec![grant("c1", "zed", Role::Player, Some("Zed"))],
                vec![],
                "zed",
            ),
            (
                "a grant twice",
                vec![a.clone()],
                vec![g.clone(), g.clone()],
                vec![],
                "alice",
            ),
            (
                "a token of an account not imported",
                vec![a.clone()],
                vec![],
                vec![token("h9", "zed", "ci", "2024-05-01T00:00:00Z")],
                "zed",
            ),
            (
                "a token twice",
                vec![a.clone()],
                vec![],
                vec![t.clone(), t.clone()],
                "h1",
            ),
        ];
        for (what, accounts, grants, tokens, named) in cases {
            match store.import_accounts(&accounts, &grants, &tokens).await {
                Err(StoreError::Invalid(message)) => {
                    assert!(
                        message.contains(named),
                        "{what}: must name {named}: {message}"
                    )
                }
                other => panic!("{what}: expected Invalid, got {other:?}"),
            }
            assert!(all(&store).await.is_empty(), "{what}: nothing written");
            assert!(grants_in(&store, "c1").await.is_empty(), "{what}");
            assert_eq!(ok("token", store.token("h1").await), None, "{what}");
        }
    }
}
