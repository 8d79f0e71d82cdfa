//! The demo round robins (issue 16) as `arbiter serve --demo` installs them
//! (`arbiter_server::demo::install_all`): the organizer `jordan` owns them
//! and runs the chess round robin from its desk, the ladder's other
//! moderator records through it too, and nobody else can; the story is
//! told relative to the day it is built for and never after it; and the
//! seed formats' demo competitions are byte for byte the same with or
//! without the round robins beside them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::Time;
use arbiter_engine::roundrobin::RoundRobin;
use arbiter_server::demo::{DEMO_PASSWORD, install_all};
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_service::transfer::{self, ExportOptions};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;
use common::{
    Answer, form_body, get_with_cookie, grants_in, hidden, login_session, post_form, version, view,
};

/// `serve --demo` on an in-memory database, told as of `today`.
async fn served(today: Time) -> (Router, AppState, arbiter_demo::roundrobin::RoundRobins) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (_, round_robins, _) = install_all(&state.service, today).await.unwrap();
    (arbiter_server::app(state.clone()), state, round_robins)
}

/// The hidden fields of the first form of `html` for `action` that holds
/// `with` among them.
fn form_of(html: &str, action: &str, with: (&str, &str)) -> Vec<(String, String)> {
    html.split("<form ")
        .skip(1)
        .filter_map(|f| f.split("</form>").next())
        .map(|f| {
            f.match_indices("<input type=\"hidden\"")
                .map(|(i, _)| {
                    let el = &f[i..i + f[i..].find('>').unwrap()];
                    let attr = |name: &str| {
                        let key = format!(" {name}=\"");
                        let at = el.find(&key).unwrap() + key.len();
                        el[at..at + el[at..].find('"').unwrap()].to_string()
                    };
                    (attr("name"), attr("value"))
                })
                .collect::<Vec<_>>()
        })
        .find(|hidden| {
            let has = |k: &str, v: &str| hidden.iter().any(|(a, b)| a == k && b == v);
            has("action", action) && has(with.0, with.1)
        })
        .unwrap_or_else(|| panic!("no form {action} with {with:?} in {html}"))
}

/// A desk's form sent with `filled` beside its hidden fields.
fn body(hidden: &[(String, String)], filled: &[(&str, &str)]) -> String {
    let mut all: Vec<(&str, &str)> = hidden
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    all.extend_from_slice(filled);
    form_body(&all)
}

/// The score the public page shows for `label` of competition `id`, if any.
async fn score(app: &Router, id: &str, label: &str) -> Option<String> {
    let v = view(app, id).await;
    v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
        .find(|g| g["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {v}"))["score"]
        .as_str()
        .map(str::to_string)
}

#[tokio::test]
async fn the_organizer_owns_the_round_robins_and_the_ladders_moderators_moderate_them() {
    let (app, state, rr) = served(arbiter_demo::reference_today()).await;
    assert_eq!(
        [rr.euro.0.as_str(), rr.chess.0.as_str()],
        ["euro-2024-group-e-demo", "chess-round-robin-demo"]
    );
    for id in [&rr.euro.0, &rr.chess.0] {
        let grants = grants_in(&state, id).await;
        for want in ["jordan:owner:", "jordan:moderator:", "sam:moderator:"] {
            assert!(grants.contains(&want.to_string()), "{id}: {grants:?}");
        }
        assert_eq!(grants.len(), 3, "{id}: nobody else: {grants:?}");
    }
    // The list names them beside the seed formats' four.
    let list = get_with_cookie(&app, "/", "").await.text();
    for name in [
        "UEFA EURO 2024 Group E (demo)",
        "Riverside Chess Club Round Robin (demo)",
        "Twilight Struggle Ladder (demo)",
    ] {
        assert!(list.contains(name), "{name}");
    }
    // The EURO group is complete in UEFA's order (ARB-R67, the block).
    let euro = view(&app, &rr.euro.0).await;
    assert_eq!(euro["finished"], true);
    let order: Vec<&str> = euro["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["Romania", "Belgium", "Slovakia", "Ukraine"]);
}

#[tokio::test]
async fn the_organizer_runs_the_chess_round_robin_from_its_desk_and_nobody_else_can() {
    let (app, _, rr) = served(arbiter_demo::reference_today()).await;
    let id = rr.chess.0.as_str();
    let jordan = login_session(&app, "jordan", DEMO_PASSWORD).await;
    let desk = get_with_cookie(&app, &format!("/c/{id}/manage"), &jordan).await;
    assert_eq!(desk.status, StatusCode::OK, "{}", desk.text());
    let html = desk.text();
    assert!(
        html.contains("<h1>Desk of Riverside Chess Club Round Robin (demo)</h1>"),
        "{html}"
    );
    // The running round's two games left have their forms.
    for game in ["G34", "G35"] {
        assert!(html.contains(&format!("id=\"rec-{game}\"")), "{game}");
    }
    assert_eq!(score(&app, id, "G34").await, None);
    let form = form_of(&html, "record-result", ("game", "G34"));
    let before = version(&app, id).await;

    // Nobody but a moderator records. Not logged in: the desk and its
    // form send him to the login, storing nothing.
    let anonymous = get_with_cookie(&app, &format!("/c/{id}/manage"), "").await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert!(anonymous.location().starts_with("/login?next="));
    let a = post_form(
        &app,
        &format!("/c/{id}/act"),
        "",
        body(&form, &[("score", "1-0")]),
    )
    .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert!(a.location().starts_with("/login"), "{}", a.location());
    assert_eq!(version(&app, id).await, before, "nothing stored");
    // Ana, a ladder player with an account and no role here, with her own
    // session's CSRF token: refused for her role (ARB-R45: results are a
    // moderator's), nothing stored.
    let ana = login_session(&app, "ana", DEMO_PASSWORD).await;
    let ana_csrf = hidden(
        &get_with_cookie(&app, "/account", &ana).await.text(),
        "_csrf",
    );
    let jordan_csrf = &form.iter().find(|(k, _)| k == "_csrf").unwrap().1;
    let a = post_form(
        &app,
        &format!("/c/{id}/act"),
        &ana,
        body(&form, &[("score", "1-0")]).replace(jordan_csrf.as_str(), &ana_csrf),
    )
    .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert!(a.text().contains("may not"), "{}", a.text());
    assert_eq!(version(&app, id).await, before, "nothing stored");

    // The organizer records G34 through the form, as a browser sends it.
    let done = post_form(
        &app,
        &format!("/c/{id}/act"),
        &jordan,
        body(&form, &[("score", "1-0")]),
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text());
    assert!(
        done.location()
            .starts_with(&format!("/c/{id}/manage?done=record-result")),
        "{}",
        done.location()
    );
    assert_eq!(version(&app, id).await, before + 1);
    assert_eq!(score(&app, id, "G34").await.as_deref(), Some("1-0"));

    // Sam, the ladder's other moderator, records G35 from his desk.
    let sam = login_session(&app, "sam", DEMO_PASSWORD).await;
    let html = get_with_cookie(&app, &format!("/c/{id}/manage"), &sam)
        .await
        .text();
    let form = form_of(&html, "record-result", ("game", "G35"));
    let done: Answer = post_form(
        &app,
        &format!("/c/{id}/act"),
        &sam,
        body(&form, &[("score", "½-½")]),
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text());
    assert_eq!(score(&app, id, "G35").await.as_deref(), Some("½-½"));
    let page = get_with_cookie(&app, &format!("/c/{id}"), "").await.text();
    assert!(page.contains("35 of 45 games played"), "{page}");
}

/// Every event of both round robins lies at or before `today`; the chess
/// round robin's seventh round is running (due after `today`, the sixth
/// before it) with two games and two rounds left; the EURO group is
/// complete.
async fn told_as_of(today: Time) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::roundrobin::build_on(&store, today)
        .await
        .unwrap();
    let svc = Service::new(store);
    for id in [&built.euro.0, &built.chess.0] {
        for h in svc.history_of::<RoundRobin>(id, None).await.unwrap() {
            let at: Time = h.recorded_at.parse().unwrap();
            assert!(
                at <= today,
                "{id}: event {} at {at} lies after {today}",
                h.seq
            );
        }
    }
    let euro = &built.euro.1;
    assert!(euro.is_finished(), "the EURO group is complete");
    let chess = &built.chess.1;
    assert!(!chess.is_finished());
    let open = |round: usize| {
        chess.rounds[round - 1]
            .games
            .iter()
            .filter(|g| chess.game(**g).is_some_and(|g| g.score.is_none()))
            .count()
    };
    assert_eq!(
        (1..=9).map(open).collect::<Vec<_>>(),
        [0, 0, 0, 0, 0, 0, 2, 5, 5],
        "games left per round"
    );
    let due = |round: usize| chess.rounds[round - 1].deadline.unwrap();
    assert!(due(6) < today && today < due(7), "round 7 runs on {today}");
    for r in 2..=9 {
        assert_eq!(due(r) - due(r - 1), chrono::Duration::days(7), "round {r}");
    }
}

#[tokio::test]
async fn the_round_robins_are_told_relative_to_the_day_and_never_after_it() {
    told_as_of(arbiter_demo::reference_today()).await;
    told_as_of("2031-02-28T23:59:59Z".parse().unwrap()).await;
    told_as_of("2027-01-01T00:00:00Z".parse().unwrap()).await;
    told_as_of(chrono::Utc::now()).await;
}

/// The export of each of the seed formats' demo competitions.
async fn seed_exports(store: &SqliteStore) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for id in [
        "tws-demo",
        "xmadn-league-demo",
        "xmadn-challengers-demo",
        "sunjang-demo",
    ] {
        let export = transfer::export(
            store,
            &ExportOptions {
                competition: Some(id.to_string()),
                accounts: false,
                secrets: true,
            },
        )
        .await
        .unwrap();
        let mut bytes = Vec::new();
        transfer::write(&export, &mut bytes).unwrap();
        assert!(bytes.len() > 1000, "{id}");
        out.push(bytes);
    }
    out
}

#[tokio::test]
async fn the_seed_formats_demo_is_the_same_with_the_round_robins_beside_it() {
    let day: Time = "2026-06-01T09:00:00Z".parse().unwrap();
    let alone = SqliteStore::open_in_memory().await.unwrap();
    arbiter_demo::build_on(&alone, "tws-demo", day)
        .await
        .unwrap();
    let beside = SqliteStore::open_in_memory().await.unwrap();
    arbiter_demo::build_on(&beside, "tws-demo", day)
        .await
        .unwrap();
    arbiter_demo::roundrobin::build_on(&beside, day)
        .await
        .unwrap();
    assert_eq!(seed_exports(&beside).await, seed_exports(&alone).await);
    // And the round robins themselves tell the same story every time.
    let again = SqliteStore::open_in_memory().await.unwrap();
    arbiter_demo::roundrobin::build_on(&again, day)
        .await
        .unwrap();
    let export = |store: SqliteStore, id: &'static str| async move {
        let e = transfer::export(
            &store,
            &ExportOptions {
                competition: Some(id.to_string()),
                accounts: false,
                secrets: true,
            },
        )
        .await
        .unwrap();
        let mut bytes = Vec::new();
        transfer::write(&e, &mut bytes).unwrap();
        bytes
    };
    for id in ["euro-2024-group-e-demo", "chess-round-robin-demo"] {
        assert_eq!(
            export(again.clone(), id).await,
            export(beside.clone(), id).await,
            "{id}"
        );
    }
}
