//! Issue 15 §3 over HTTP: a report's ending must be one of the fixed
//! endings (ARB-R58, 400 naming `ended_by` with a "did you mean"), `other`
//! needs a note, and a result whose winner its VP contradicts is refused
//! naming `winner, vp` (ARB-R59). Nothing is stored by a refusal.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_store::EventStore;
use axum::http::{Method, StatusCode};
use common::ladder::{LADDER, World};
use common::{As, send};
use serde_json::json;

async fn version(w: &World) -> u64 {
    w.state.service.store().version(LADDER).await.unwrap()
}

#[tokio::test]
async fn a_report_names_a_fixed_ending_and_does_not_contradict_itself() {
    let w = World::new().await;
    let round = send(
        &w.app,
        Method::GET,
        &format!("/api/competitions/{LADDER}/rounds/1"),
        As::Nobody,
        &[],
        None,
    )
    .await
    .json();
    let y = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == w.y.as_str())
        .unwrap()
        .clone();
    let us = y["us"].as_str().unwrap().to_string();
    let ussr = y["ussr"].as_str().unwrap().to_string();
    let before = version(&w).await;
    let carol = w.token("carol").to_string();
    let report = |result: serde_json::Value| json!({"action": "report-result", "game": w.y, "result": result});

    let a = w
        .act(
            As::Token(&carol),
            &report(json!({"winner": us, "ended_by": "europ"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let e = a.json();
    assert_eq!(e["error"]["field"], "ended_by", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `europe`?"),
        "{e}"
    );

    let a = w
        .act(
            As::Token(&carol),
            &report(json!({"winner": us, "ended_by": "other"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "note", "{}", a.text());

    // A US win with the marker toward the USSR, and a USSR win at +20.
    for (winner, ending, vp) in [
        (&us, "wargames", -3),
        (&ussr, "concession", 20),
        (&us, "vp", 3),
    ] {
        let a = w
            .act(
                As::Token(&carol),
                &report(json!({"winner": winner, "ended_by": ending, "vp": vp})),
            )
            .await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
        let e = a.json();
        assert_eq!(e["error"]["field"], "winner, vp", "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("contradict"),
            "{e}"
        );
    }
    assert_eq!(version(&w).await, before, "nothing stored");

    // The same ending in words the vocabulary knows, and `other` with a
    // note, are taken.
    w.act_ok(
        As::Token(&carol),
        &report(json!({"winner": us, "ended_by": "Europe control", "vp": 3})),
    )
    .await;
    w.act_ok(
        As::Token(&carol),
        &report(json!({"winner": us, "ended_by": "other", "note": "Dan's account was closed"})),
    )
    .await;
}

/// Issue 15 §3: a skip asked without a round while a round runs books the
/// next round, and the answer says so (ARB-R4); one asked for a named round
/// says nothing of the kind.
#[tokio::test]
async fn a_skip_asked_while_a_round_runs_says_it_booked_the_next() {
    let w = World::new().await;
    let carol = w.token("carol").to_string();
    let done = w
        .act_ok(As::Token(&carol), &json!({"action": "request-skip"}))
        .await;
    let message = done["message"].as_str().unwrap();
    assert!(
        message.contains("Booked for round 2, because round 1 is running")
            && message.contains("ARB-R4"),
        "{done}"
    );
    let olga = w.token("olga").to_string();
    let done = w
        .act_ok(
            As::Token(&olga),
            &json!({"action": "request-skip", "player": "Dan Dunn", "round": 2}),
        )
        .await;
    assert!(
        !done["message"]
            .as_str()
            .unwrap()
            .contains("Booked for round"),
        "{done}"
    );
}
