//! Players report their own results in the XMadn league, Challengers and
//! the Sunjang league (issue 17 §1; ARB-R45, ARB-R81), as a player would
//! through the pages: he logs in, finds his next game on his page, reports
//! it with the form there; his opponent logs in, sees "1 report to
//! confirm" in the header, confirms it on his own page, and the result is
//! in the table. Only the account linked to a player sees his forms; a
//! form without its CSRF token, or with hostile values, is refused naming
//! the field, and nothing is stored; a moderator's desk lists the reports
//! waiting; a disputed report records nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;

use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store::Role;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode};
use common::{As, PASSWORD, accounts_with_tokens, get_with_cookie, login_session, post_form, send};
use serde_json::{Value, json};

const XL: &str = "rep-league";
const XC: &str = "rep-challengers";
const SJ: &str = "rep-sunjang";

const PLAYERS: [(&str, &str, &str, i32); 7] = [
    ("ames", "Ames Archer", "3d", 2300),
    ("baker", "Bea Baker", "1d", 2100),
    ("clark", "Cy Clark", "1k", 1950),
    ("dora", "Dora Dunn", "4k", 1700),
    ("egon", "Egon Ek", "8k", 1300),
    ("fay", "Fay Fox", "12k", 1000),
    ("gil", "Gil Gray", "15k", 800),
];

struct World {
    app: Router,
    state: AppState,
    olga: String,
    /// A player's name → his account.
    account: HashMap<String, &'static str>,
}

/// An action through the API with the current version as `If-Match`.
async fn api(app: &Router, id: &str, token: &str, body: &Value) -> common::Answer {
    let version = common::etag(app, id).await;
    send(
        app,
        Method::POST,
        &format!("/api/competitions/{id}/actions"),
        As::Token(token),
        &[("if-match", version)],
        Some(body),
    )
    .await
}

async fn act(w: &World, id: &str, body: Value) -> Value {
    let a = api(&w.app, id, &w.olga, &body).await;
    assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
    a.json()
}

async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(common::now()));
    let mut accounts: Vec<(&'static str, &str, bool)> =
        vec![("olga", "Olga Owens", true), ("mona", "Mona Mills", false)];
    accounts.extend(PLAYERS.iter().map(|(u, n, _, _)| (*u, *n, false)));
    let tokens = accounts_with_tokens(&state, &accounts).await;
    let w = World {
        app: arbiter_server::app(state.clone()),
        state: state.clone(),
        olga: tokens["olga"].clone(),
        account: PLAYERS
            .iter()
            .map(|(u, n, _, _)| (n.to_string(), *u))
            .collect(),
    };
    let three: Vec<&str> = PLAYERS[..3].iter().map(|p| p.1).collect();
    for body in [
        json!({"format": "xmadn-league", "id": XL, "name": "Report League", "players": three}),
        json!({"format": "xmadn-challengers", "id": XC, "name": "Report Challengers", "players": three}),
        json!({"format": "sunjang-league", "id": SJ, "name": "Report Sunjang"}),
    ] {
        let created = send(
            &w.app,
            Method::POST,
            "/api/competitions",
            As::Token(&w.olga),
            &[],
            Some(&body),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    }
    act(&w, XL, json!({"action": "roll"})).await;
    act(
        &w,
        XC,
        json!({"action": "record-qualifier", "finishing": three, "chosen": "red/blue"}),
    )
    .await;
    for (_, name, rank, rating) in PLAYERS {
        act(
            &w,
            SJ,
            json!({"action": "add-player", "name": name, "rank": rank, "rating": rating}),
        )
        .await;
    }
    act(&w, SJ, json!({"action": "plan-season"})).await;
    // Each player's account is linked by the competition's own events
    // (ARB-R50); Mona moderates them all.
    for (id, n) in [(XL, 3), (XC, 3), (SJ, 7)] {
        for (user, name, _, _) in &PLAYERS[..n] {
            common::grant(&state, id, user, Role::Player, Some(name)).await;
        }
        common::grant(&state, id, "mona", Role::Moderator, None).await;
    }
    w
}

async fn page(app: &Router, uri: &str, cookie: &str) -> String {
    let a = get_with_cookie(app, uri, cookie).await;
    assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
    a.text()
}

fn unescape(s: &str) -> String {
    s.replace("&#39;", "'")
        .replace("&#34;", "\"")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#38;", "&")
}

/// The hidden fields of the first form of `html` whose action is
/// `action`, as a browser sends them.
fn form_fields(html: &str, action: &str) -> Vec<(String, String)> {
    let marker = format!("name=\"action\" value=\"{action}\"");
    let at = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {action} form in {html}"));
    let start = html[..at].rfind("<form").unwrap();
    let end = at + html[at..].find("</form>").unwrap();
    let form = &html[start..end];
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(i) = rest.find("<input type=\"hidden\" name=\"") {
        rest = &rest[i + 27..];
        let name = &rest[..rest.find('"').unwrap()];
        let v = rest.find("value=\"").unwrap() + 7;
        let value = &rest[v..v + rest[v..].find('"').unwrap()];
        out.push((name.to_string(), unescape(value)));
    }
    out
}

fn body(fields: &[(String, String)], more: &[(&str, &str)]) -> String {
    let mut all: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    all.extend_from_slice(more);
    common::form_body(&all)
}

/// Post a form of a page; it must go back to `back` (a redirect).
async fn send_form(w: &World, id: &str, cookie: &str, form: String, back: &str) {
    let a = post_form(&w.app, &format!("/c/{id}/act"), cookie, form).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert!(a.location().starts_with(back), "{}", a.location());
}

/// The two players of the first game a report form is offered for, read
/// from a player's page: (reporter number, opponent number).
fn report_of(w: &World, players: &[String], a: &str, b: &str) -> (usize, usize) {
    let n = |name: &str| players.iter().position(|p| p == name).unwrap() + 1;
    let _ = w;
    (n(a), n(b))
}

/// The whole path on one competition: `reporter` (player number) reports
/// with `fill` on his page; `opponent` confirms on his.
async fn report_and_confirm(
    w: &World,
    id: &str,
    names: &[String],
    (reporter, opponent): (usize, usize),
    action: &str,
    fill: &[(&str, &str)],
    from_account: bool,
) {
    let me = &names[reporter - 1];
    let them = &names[opponent - 1];
    let cookie = login_session(&w.app, w.account[me], PASSWORD).await;
    let mine = format!("/c/{id}/players/{reporter}");
    let html = page(&w.app, &mine, &cookie).await;
    assert!(html.contains("Report your results"), "{html}");
    assert!(html.contains(&format!("against {}", them)), "{html}");
    // Not his opponent's forms: the opponent's page shows none to him.
    let theirs = format!("/c/{id}/players/{opponent}");
    let other = page(&w.app, &theirs, &cookie).await;
    assert!(!other.contains("Report your results"), "{other}");

    // A hostile value is refused naming the field; nothing is stored.
    let before = common::etag(&w.app, id).await;
    let fields = form_fields(&html, action);
    let field = fill[0].0;
    let hostile = "<script>alert(1)</script>".repeat(200);
    let mut bad: Vec<(&str, &str)> = fill.to_vec();
    bad[0] = (field, hostile.as_str());
    let a = post_form(
        &w.app,
        &format!("/c/{id}/act"),
        &cookie,
        body(&fields, &bad),
    )
    .await;
    assert!(a.status.is_client_error(), "{}: {}", a.status, a.text());
    assert!(a.text().contains(field), "{}", a.text());
    assert!(!a.text().contains("<script>alert"), "escaped");
    // Without its CSRF token: refused.
    let no_csrf: Vec<(String, String)> = fields
        .iter()
        .filter(|(k, _)| k != "_csrf")
        .cloned()
        .collect();
    let a = post_form(
        &w.app,
        &format!("/c/{id}/act"),
        &cookie,
        body(&no_csrf, fill),
    )
    .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert_eq!(common::etag(&w.app, id).await, before, "nothing stored");

    send_form(w, id, &cookie, body(&fields, fill), &mine).await;
    let html = page(&w.app, &mine, &cookie).await;
    assert!(html.contains("It waits for your opponent"), "{html}");
    // His desk (he moderates nothing) sends him to his page.
    let desk = page(&w.app, &format!("/c/{id}/manage"), &cookie).await;
    assert!(desk.contains(&format!("href=\"{mine}#reports\"")), "{desk}");

    // The moderator's desk lists it.
    let mona = login_session(&w.app, "mona", PASSWORD).await;
    let desk = page(&w.app, &format!("/c/{id}/manage"), &mona).await;
    assert!(desk.contains("Report waiting:"), "{desk}");

    // The opponent: the header counts it, his page has the forms.
    let cookie = login_session(&w.app, w.account[them.as_str()], PASSWORD).await;
    let home = page(&w.app, "/account", &cookie).await;
    assert!(home.contains("1 report to confirm"), "{home}");
    let html = page(&w.app, &theirs, &cookie).await;
    assert!(html.contains("Confirm the report"), "{html}");
    // He confirms on his page, or in place on his account page.
    let html = if from_account { home } else { html };
    let confirm = form_fields(&html, action.replace("report", "confirm").as_str());
    send_form(w, id, &cookie, body(&confirm, &[]), &theirs).await;
    let home = page(&w.app, "/account", &cookie).await;
    assert!(!home.contains("1 report to confirm"), "{home}");
    // The same confirmation sent again (Back, then send): what the first
    // sending did, never an error (issue 17 §2), from either page.
    let again = post_form(
        &w.app,
        &format!("/c/{id}/act"),
        &cookie,
        body(&confirm, &[]),
    )
    .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.text());
    assert!(
        again.location().contains("already="),
        "{}",
        again.location()
    );
    let notice = page(&w.app, again.location(), &cookie).await;
    assert!(notice.contains("already"), "{notice}");
}

#[tokio::test]
async fn a_league_player_reports_his_game_and_his_opponent_confirms_it() {
    let w = world().await;
    let v = common::view(&w.app, XL).await;
    let names: Vec<String> = serde_json::from_value(v["players"].clone()).unwrap();
    let game = &v["drrs"][0]["games"][0];
    let (a, b) = (
        game["players"][0].as_str().unwrap(),
        game["players"][1].as_str().unwrap(),
    );
    let pair = report_of(&w, &names, a, b);
    report_and_confirm(
        &w,
        XL,
        &names,
        pair,
        "report-result",
        &[("pawns", "4-2"), ("time", "23:05")],
        false,
    )
    .await;
    let v = common::view(&w.app, XL).await;
    let game = &v["drrs"][0]["games"][0];
    assert_eq!(game["status"], "played", "{game}");
    let row = v["table"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == a)
        .unwrap();
    assert_eq!(row["wins"], 1, "{row}");
    // The public table shows it too.
    let html = page(&w.app, &format!("/c/{XL}"), "").await;
    assert!(html.contains("4-2"), "{html}");
}

#[tokio::test]
async fn a_challengers_player_reports_the_game_at_the_board_and_it_is_confirmed() {
    let w = world().await;
    let v = common::view(&w.app, XC).await;
    let names: Vec<String> = serde_json::from_value(v["players"].clone()).unwrap();
    let next = &v["next"];
    let pair = report_of(
        &w,
        &names,
        next["players"][1].as_str().unwrap(),
        next["players"][0].as_str().unwrap(),
    );
    report_and_confirm(
        &w,
        XC,
        &names,
        pair,
        "report-game",
        &[("pawns", "4-1"), ("time", "19:30")],
        true,
    )
    .await;
    let v = common::view(&w.app, XC).await;
    assert_eq!(v["games"].as_array().unwrap().len(), 1, "{v}");
    let winner = &names[pair.0 - 1];
    let row = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == winner.as_str())
        .unwrap();
    assert_eq!(row["wins"], 1, "{row}");
}

#[tokio::test]
async fn a_sunjang_player_reports_his_group_game_and_his_opponent_confirms_it() {
    let w = world().await;
    let v = common::view(&w.app, SJ).await;
    let names: Vec<String> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    let group = &v["seasons"][0]["divisions"][0]["groups"][0];
    let pairing = &group["pairings"][0];
    let (black, white) = (
        pairing["black"].as_str().unwrap(),
        pairing["white"].as_str().unwrap(),
    );
    let pair = report_of(&w, &names, black, white);
    report_and_confirm(
        &w,
        SJ,
        &names,
        pair,
        "report-result",
        &[("outcome", "black")],
        true,
    )
    .await;
    let v = common::view(&w.app, SJ).await;
    let group = &v["seasons"][0]["divisions"][0]["groups"][0];
    let row = group["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == black)
        .unwrap();
    assert_eq!(row["wins"], 1, "{row}");
}

#[tokio::test]
async fn a_disputed_report_records_nothing_and_the_reporter_cannot_confirm_it() {
    let w = world().await;
    let v = common::view(&w.app, XL).await;
    let game = &v["drrs"][0]["games"][0];
    let (a, b) = (
        game["players"][0].as_str().unwrap().to_string(),
        game["players"][1].as_str().unwrap().to_string(),
    );
    let label = game["alias"].as_str().unwrap_or("G1").to_string();
    let ta = arbiter_server::auth::create_token(&w.state, w.account[&a], "t")
        .await
        .unwrap();
    let tb = arbiter_server::auth::create_token(&w.state, w.account[&b], "t")
        .await
        .unwrap();
    let post = |t: String, body: Value| {
        let app = w.app.clone();
        async move { api(&app, XL, &t, &body).await }
    };
    let report = json!({"action": "report-result", "game": label, "a": a, "b": b,
        "pawns": "4-2", "time": "23:05"});
    assert_eq!(post(ta.clone(), report).await.status, StatusCode::OK);
    // The reporter confirms his own report: refused by the rules.
    let own = post(
        ta.clone(),
        json!({"action": "confirm-result", "game": label}),
    )
    .await;
    assert_eq!(
        own.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        own.text()
    );
    assert!(
        own.text().contains("nobody confirms his own"),
        "{}",
        own.text()
    );
    // A dispute without its reason names the field.
    let bare = post(
        tb.clone(),
        json!({"action": "dispute-report", "game": label, "reason": " "}),
    )
    .await;
    assert_eq!(bare.status, StatusCode::BAD_REQUEST, "{}", bare.text());
    assert_eq!(bare.json()["error"]["field"], "reason", "{}", bare.text());
    let disputed = post(
        tb,
        json!({"action": "dispute-report", "game": label, "reason": "I won 4-3"}),
    )
    .await;
    assert_eq!(disputed.status, StatusCode::OK, "{}", disputed.text());
    let v = common::view(&w.app, XL).await;
    assert_eq!(v["drrs"][0]["games"][0]["status"], "scheduled");
    let history = page(&w.app, &format!("/c/{XL}/history"), "").await;
    assert!(history.contains("report disputed by"), "{history}");
}

/// `arbiter serve --demo`: an account is linked to each player of the demo
/// XMadn league and Challengers event and to the two players of a Sunjang
/// group game still to play; in each, one of them finds a game to report
/// on his page.
#[tokio::test]
async fn the_demo_players_of_every_format_find_a_game_to_report() {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (built, _, made) = arbiter_server::demo::install_all(&state.service, today)
        .await
        .unwrap();
    let app = arbiter_server::app(state);
    let (open_league, _) = state_players(&app, arbiter_server::demo::OPEN_LEAGUE_ID).await;
    let (open_ch, _) = state_players(&app, arbiter_server::demo::OPEN_CHALLENGERS_ID).await;
    for (role, id, players) in [
        (
            "XMadn league player",
            arbiter_server::demo::OPEN_LEAGUE_ID.to_string(),
            open_league,
        ),
        (
            "Challengers player",
            arbiter_server::demo::OPEN_CHALLENGERS_ID.to_string(),
            open_ch,
        ),
        (
            "Sunjang player",
            built.sunjang.0.clone(),
            built
                .sunjang
                .1
                .players
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<String>>(),
        ),
    ] {
        let mut forms = 0;
        for a in made.iter().filter(|a| a.role == role) {
            let n = players.iter().position(|p| *p == a.name).unwrap() + 1;
            let cookie =
                login_session(&app, &a.username, arbiter_server::demo::DEMO_PASSWORD).await;
            let html = page(&app, &format!("/c/{id}/players/{n}"), &cookie).await;
            assert!(html.contains("Report your results"), "{role} {}", a.name);
            forms += html.matches("<summary>Report ").count();
        }
        assert!(forms > 0, "no demo {role} has a game to report");
    }
}

/// The players of an XMadn competition as its API view lists them.
async fn state_players(app: &Router, id: &str) -> (Vec<String>, Value) {
    let v = common::view(app, id).await;
    (serde_json::from_value(v["players"].clone()).unwrap(), v)
}
