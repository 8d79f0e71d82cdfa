//! The desks and actions of the XMadn league, the XMadn Challengers event
//! and the Sunjang league, in process on the demo's database: created over
//! the API and from `/new`, run by an organizer (owner and moderator) and a
//! second moderator; a moderator who plays does not record his own game;
//! players and outsiders are refused with nothing stored; a Sunjang season
//! previewed (nothing stored) then planned and closed; every desk renders
//! with one h1 and labelled inputs; the forms work with a session cookie;
//! an action's message is its events' summaries in sentences; the owner
//! adds and removes moderators (grants only, nothing in the event log).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock, auth};
use arbiter_service::Service;
use arbiter_store::{AccountStore, Role};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode, header};
use common::{Answer, As, form_body, get_with_cookie, hidden, login_session, post_form, send};
use serde_json::{Value, json};

const PASSWORD: &str = "a-long-password";

struct World {
    app: Router,
    state: AppState,
    org: String,
    mona: String,
    pat: String,
    otto: String,
}

async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(built.now));
    let now = built.now;
    let store = state.service.store();
    auth::create_account(store, now, "org", "Org", None, PASSWORD, true)
        .await
        .unwrap();
    for (user, name) in [("mona", "Mona"), ("pat", "Pat"), ("otto", "Otto")] {
        auth::create_account(store, now, user, name, None, PASSWORD, false)
            .await
            .unwrap();
    }
    let token = |u: &'static str| {
        let state = state.clone();
        async move { auth::create_token(&state, u, "test").await.unwrap() }
    };
    World {
        app: arbiter_server::app(state.clone()),
        org: token("org").await,
        mona: token("mona").await,
        pat: token("pat").await,
        otto: token("otto").await,
        state,
    }
}

impl World {
    async fn send(
        &self,
        method: Method,
        uri: &str,
        token: &str,
        headers: &[(&str, String)],
        body: Option<Value>,
    ) -> Answer {
        let who = if token.is_empty() {
            As::Nobody
        } else {
            As::Token(token)
        };
        send(&self.app, method, uri, who, headers, body.as_ref()).await
    }

    async fn version(&self, id: &str) -> u64 {
        common::version(&self.app, id).await
    }

    async fn view(&self, id: &str) -> Value {
        self.send(
            Method::GET,
            &format!("/api/competitions/{id}"),
            "",
            &[],
            None,
        )
        .await
        .json()["view"]
            .clone()
    }

    /// An action at the current version.
    async fn act(&self, id: &str, token: &str, body: Value) -> Answer {
        let v = self.version(id).await;
        self.send(
            Method::POST,
            &format!("/api/competitions/{id}/actions"),
            token,
            &[("if-match", format!("\"v{v}\""))],
            Some(body),
        )
        .await
    }

    /// An action that must work.
    async fn ok(&self, id: &str, token: &str, body: Value) -> Value {
        let a = self.act(id, token, body.clone()).await;
        assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
        let done = a.json();
        assert_eq!(
            a.headers[header::ETAG],
            format!("\"v{}\"", done["version"]).as_str()
        );
        done
    }

    /// An action that must be refused with 403, storing nothing.
    async fn forbidden(&self, id: &str, token: &str, body: Value) -> String {
        let before = self.version(id).await;
        let a = self.act(id, token, body.clone()).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{body}: {}", a.text());
        assert_eq!(self.version(id).await, before, "nothing stored for {body}");
        a.json()["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    async fn create(&self, token: &str, body: Value) -> Answer {
        self.send(Method::POST, "/api/competitions", token, &[], Some(body))
            .await
    }

    /// An XMadn league `xl` and a Challengers event `xc` of Ann, Ben and
    /// Cat, and a Sunjang league `sj`, created by the organizer.
    async fn create_xl_xc_sj(&self) {
        for body in [
            json!({"format": "xmadn-league", "id": "xl", "name": "XL", "players": ["Ann", "Ben", "Cat"]}),
            json!({"format": "xmadn-challengers", "id": "xc", "name": "XC", "players": ["Ann", "Ben", "Cat"]}),
            json!({"format": "sunjang-league", "id": "sj", "name": "SJ"}),
        ] {
            let a = self.create(&self.org, body).await;
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        }
    }

    async fn grant(&self, id: &str, user: &str, role: Role, player: Option<&str>) {
        common::grant(&self.state, id, user, role, player).await;
    }

    /// A session cookie for `user`, logged in through the login form.
    async fn session(&self, user: &str) -> String {
        login_session(&self.app, user, PASSWORD).await
    }

    async fn form(&self, uri: &str, cookie: &str, body: String) -> Answer {
        post_form(&self.app, uri, cookie, body).await
    }

    async fn page(&self, uri: &str, cookie: &str) -> Answer {
        get_with_cookie(&self.app, uri, cookie).await
    }
}

/// A desk page: 200, one h1, every visible input, select and textarea
/// with an id that a label names.
fn check_desk(a: &Answer, what: &str) -> String {
    let html = a.text();
    assert_eq!(a.status, StatusCode::OK, "{what}: {html}");
    assert_eq!(html.matches("<h1").count(), 1, "{what}: one h1");
    assert!(
        !html.contains("<script>") && !html.contains("style=\""),
        "{what}: no inline script or style"
    );
    for tag in ["<input", "<select", "<textarea"] {
        for (i, _) in html.match_indices(tag) {
            let end = html[i..].find('>').unwrap() + i;
            let el = &html[i..end];
            if el.contains("type=\"hidden\"") {
                continue;
            }
            let id = el
                .split("id=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or_else(|| panic!("{what}: {el} has no id"));
            assert!(
                html.contains(&format!("<label for=\"{id}\"")),
                "{what}: {el} has no label"
            );
        }
    }
    html
}

/// The first playable game of a league view: (label, players).
fn playable(view: &Value) -> Option<(String, [String; 2])> {
    view["drrs"]
        .as_array()?
        .iter()
        .flat_map(|d| d["games"].as_array().cloned().unwrap_or_default())
        .find_map(|g| {
            (g["playable"] == true).then(|| {
                (
                    g["label"].as_str().unwrap().to_string(),
                    [
                        g["players"][0].as_str().unwrap().to_string(),
                        g["players"][1].as_str().unwrap().to_string(),
                    ],
                )
            })
        })
}

#[tokio::test]
async fn an_xmadn_league_over_the_api() {
    let w = world().await;
    let created = w
        .create(
            &w.org,
            json!({"format": "xmadn-league", "id": "xl", "name": "XL", "players": ["Org", "Bea", "Cid"]}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    // Two players are not a league.
    let bad = w
        .create(
            &w.org,
            json!({"format": "xmadn-league", "id": "xl2", "name": "XL", "players": ["A", "B"]}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["error"]["field"], "players");
    // Only an organizer creates.
    let refused = w
        .create(
            &w.mona,
            json!({"format": "sunjang-league", "id": "nope", "name": "N"}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    w.grant("xl", "org", Role::Player, Some("Org")).await;
    w.grant("xl", "mona", Role::Moderator, None).await;
    w.grant("xl", "pat", Role::Player, Some("Bea")).await;

    // A player and an outsider may not roll; a missing field is named.
    w.forbidden("xl", &w.pat, json!({"action": "roll"})).await;
    w.forbidden("xl", &w.otto, json!({"action": "roll"})).await;
    let bad = w
        .act("xl", &w.org, json!({"action": "record-result", "a": "Bea"}))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.text().contains("missing field"), "{}", bad.text());
    // If-Match is required.
    let a = w
        .send(
            Method::POST,
            "/api/competitions/xl/actions",
            &w.org,
            &[],
            Some(json!({"action": "roll"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::PRECONDITION_REQUIRED);

    let done = w.ok("xl", &w.org, json!({"action": "roll"})).await;
    assert_eq!(done["action"], "roll");
    assert_eq!(done["stored"], true);
    let msg = done["message"].as_str().unwrap();
    assert!(
        msg.starts_with("DRR 1 positions rolled: #1 ")
            && msg.ends_with(").")
            && msg.contains("Bea"),
        "the roll's summary as a sentence: {msg}"
    );

    let mut own_refused = 0;
    for _ in 0..3 {
        let (label, players) = playable(&w.view("xl").await).expect("a playable game");
        let result = json!({"action": "record-result", "game": label, "a": players[0], "b": players[1], "pawns": "4-2", "time": "23:05"});
        let done = if players.contains(&"Org".to_string()) {
            let why = w.forbidden("xl", &w.org, result.clone()).await;
            assert!(why.contains("own game"), "{why}");
            own_refused += 1;
            w.ok("xl", &w.mona, result).await
        } else {
            w.forbidden("xl", &w.pat, result.clone()).await;
            w.ok("xl", &w.org, result).await
        };
        let msg = done["message"].as_str().unwrap();
        assert!(
            msg.contains(&label) && msg.ends_with(": 4-2 in 23:05."),
            "the result's summary: {msg}"
        );
    }
    assert!(
        own_refused > 0,
        "Org plays in at least one of the first three games"
    );
    // A correction by a moderator not in the game.
    let view = w.view("xl").await;
    let played = view["drrs"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["status"] == "played")
        .unwrap()
        .clone();
    let p0 = played["players"][0].as_str().unwrap();
    let p1 = played["players"][1].as_str().unwrap();
    let correct = json!({"action": "correct-result", "game": played["label"], "a": p0, "b": p1, "pawns": "4-3", "time": "20:00", "reason": "miscounted"});
    let by = if p0 == "Org" || p1 == "Org" {
        &w.mona
    } else {
        &w.org
    };
    let done = w.ok("xl", by, correct).await;
    let msg = done["message"].as_str().unwrap();
    assert!(
        msg.contains(" corrected to 4-3 in 20:00 (miscounted)."),
        "{msg}"
    );
}

#[tokio::test]
async fn an_xmadn_challengers_event_over_the_api() {
    let w = world().await;
    let created = w
        .create(
            &w.org,
            json!({"format": "xmadn-challengers", "id": "xc", "name": "XC", "players": ["Ann", "Ben", "Cat"], "first_to": 4}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    assert_eq!(w.view("xc").await["first_to"], 4);
    w.grant("xc", "pat", Role::Player, Some("Ann")).await;
    let q = json!({"action": "record-qualifier", "finishing": ["Ann", "Ben", "Cat"], "chosen": "red/blue"});
    w.forbidden("xc", &w.pat, q.clone()).await;
    let done = w.ok("xc", &w.org, q).await;
    assert_eq!(
        done["message"],
        "Game 0: 1st Ann, 2nd Ben, 3rd Cat; Ann chose red/blue."
    );
    let next = w.view("xc").await["next"].clone();
    let g = json!({"action": "record-game", "a": next["players"][0], "b": next["players"][1], "pawns": "4-1", "time": "19:30"});
    w.forbidden("xc", &w.otto, g.clone()).await;
    let done = w.ok("xc", &w.org, g).await;
    assert_eq!(done["action"], "record-game");
    assert_eq!(
        done["message"],
        format!(
            "Game 1: {} 4-1 {} in 19:30.",
            next["players"][0].as_str().unwrap(),
            next["players"][1].as_str().unwrap()
        )
    );
    // Game 2 by the pawns brought home per allied colour (ARB-R65): the
    // counted pawns follow (2T: the best colour), both kept in the view.
    let next = w.view("xc").await["next"].clone();
    let g = json!({"action": "record-game", "a": next["players"][0], "b": next["players"][1], "home": "4/2,1/3", "time": "18:00"});
    w.ok("xc", &w.org, g).await;
    let game = w.view("xc").await["games"][1].clone();
    assert_eq!(game["winner"], next["players"][0], "{game}");
    let first = game["players"][0] == next["players"][0];
    assert_eq!(game["score"], if first { "4-3" } else { "3-4" }, "{game}");
    assert_eq!(
        game["brought_home"][if first { 0 } else { 1 }],
        json!({"vanguard": 4, "rearguard": 2}),
        "{game}"
    );
    // Neither pawns nor home: 400 naming the field; a bad home names it.
    let next = w.view("xc").await["next"].clone();
    let a = w
        .act(
            "xc",
            &w.org,
            json!({"action": "record-game", "a": next["players"][0], "b": next["players"][1], "time": "18:00"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "pawns", "{}", a.text());
    let a = w
        .act(
            "xc",
            &w.org,
            json!({"action": "record-game", "a": next["players"][0], "b": next["players"][1], "home": "9/9/9", "time": "18:00"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "home", "{}", a.text());
}

const SUNJANG_PLAYERS: [(&str, &str, i32); 7] = [
    ("Hana", "3d", 2300),
    ("Ito", "1d", 2100),
    ("Jun", "1k", 1950),
    ("Kai", "4k", 1700),
    ("Lee", "8k", 1300),
    ("Min", "12k", 1000),
    ("Pat", "15k", 800),
];

#[tokio::test]
async fn a_sunjang_league_over_the_api() {
    let w = world().await;
    let created = w
        .create(
            &w.org,
            json!({"format": "sunjang-league", "id": "sj", "name": "SJ"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    assert_eq!(created.headers[header::ETAG], "\"v1\"");
    w.grant("sj", "mona", Role::Moderator, None).await;
    for (name, rank, rating) in SUNJANG_PLAYERS {
        let mut add = json!({"action": "add-player", "name": name, "rank": rank, "rating": rating});
        if name == "Pat" {
            add["account"] = json!("pat");
        }
        let done = w.ok("sj", &w.org, add).await;
        // Pat's account is linked in the same append (ARB-R50).
        let linked = if name == "Pat" {
            " Pat (P7) linked to the account pat."
        } else {
            ""
        };
        assert_eq!(
            done["message"],
            format!("{name} registered ({rank}).{linked}")
        );
    }
    let bad = w
        .act(
            "sj",
            &w.org,
            json!({"action": "add-player", "name": "Q", "rank": "99x", "rating": 1}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["error"]["field"], "rank");
    // Pat plays (his account was linked) and may not plan.
    w.forbidden(
        "sj",
        &w.pat,
        json!({"action": "plan-season", "preview": true}),
    )
    .await;
    w.forbidden("sj", &w.otto, json!({"action": "plan-season"}))
        .await;

    // The preview: no If-Match needed, nothing stored.
    let before = w.version("sj").await;
    let a = w
        .send(
            Method::POST,
            "/api/competitions/sj/actions",
            &w.org,
            &[],
            Some(json!({"action": "plan-season", "preview": true})),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let preview = a.json();
    assert_eq!(preview["stored"], false);
    assert_eq!(preview["version"], before);
    let season = &preview["season"];
    assert_eq!(season["number"], 1);
    assert!(!season["divisions"].as_array().unwrap().is_empty());
    assert_eq!(
        season["placements"].as_array().unwrap().len(),
        SUNJANG_PLAYERS.len()
    );
    assert!(
        !season["placements"][0]["explanation"]["text"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    assert_eq!(w.version("sj").await, before, "a preview stores nothing");
    assert!(w.view("sj").await["seasons"].as_array().unwrap().is_empty());
    // Without preview, a plan needs If-Match.
    let a = w
        .send(
            Method::POST,
            "/api/competitions/sj/actions",
            &w.org,
            &[],
            Some(json!({"action": "plan-season"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::PRECONDITION_REQUIRED);

    let planned = w.ok("sj", &w.org, json!({"action": "plan-season"})).await;
    assert_eq!(planned["stored"], true);
    let msg = planned["message"].as_str().unwrap();
    assert!(
        msg.starts_with("Season 1 planned: ") && msg.ends_with(" divisions, 7 players."),
        "{msg}"
    );
    assert_eq!(
        planned["season"]["placements"], season["placements"],
        "the plan stored is the one previewed"
    );

    // Every game: Pat may not record (not even his own); the others are recorded.
    let view = w.view("sj").await;
    let games: Vec<(String, String)> = view["seasons"][0]["divisions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["groups"].as_array().unwrap().clone())
        .flat_map(|g| g["pairings"].as_array().unwrap().clone())
        .map(|p| {
            (
                p["black"].as_str().unwrap().to_string(),
                p["white"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(!games.is_empty());
    let mut own = false;
    for (black, white) in &games {
        let r =
            json!({"action": "record-result", "black": black, "white": white, "outcome": "black"});
        if black == "Pat" || white == "Pat" {
            // A moderator who plays: Mona plays as Pat for this check.
            own = true;
        }
        w.forbidden("sj", &w.pat, r.clone()).await;
        let done = w.ok("sj", &w.org, r).await;
        let msg = done["message"].as_str().unwrap();
        assert!(
            msg.contains(&format!(": {black} (black) v {white}: ")) && msg.ends_with('.'),
            "{msg}"
        );
    }
    assert!(own, "Pat has games");
    // Correct one, and a moderator who plays may not.
    let (black, white) = &games[0];
    if black == "Pat" {
        // A player is one account's (ARB-R50): Pat's link ends first.
        w.ok(
            "sj",
            &w.org,
            json!({"action": "unlink-account", "player": "Pat"}),
        )
        .await;
    }
    w.grant("sj", "mona", Role::Player, Some(black)).await;
    let fix = json!({"action": "correct-result", "black": black, "white": white, "outcome": "jigo", "reason": "misread"});
    let why = w.forbidden("sj", &w.mona, fix.clone()).await;
    assert!(why.contains("own game"), "{why}");
    w.ok("sj", &w.org, fix).await;

    w.forbidden("sj", &w.pat, json!({"action": "close-season"}))
        .await;
    let closed = w.ok("sj", &w.org, json!({"action": "close-season"})).await;
    assert_eq!(closed["action"], "close-season");
    assert_eq!(closed["message"], "Season 1 closed.");
    assert_eq!(w.view("sj").await["seasons"][0]["status"], "closed");
    // The next season's preview works on the closed one.
    let next = w
        .ok(
            "sj",
            &w.org,
            json!({"action": "plan-season", "preview": true}),
        )
        .await;
    assert_eq!(next["season"]["number"], 2);
    // A ladder action on a Sunjang league is refused, naming the body.
    let a = w
        .act("sj", &w.org, json!({"action": "announce-round"}))
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.json()["error"]["field"], "body");
}

#[tokio::test]
async fn the_desks_render_and_their_forms_work() {
    let w = world().await;
    w.create_xl_xc_sj().await;
    let org = w.session("org").await;
    let otto = w.session("otto").await;

    // /new offers every format, each with its preset.
    for (format, h1) in [
        ("tws-ladder", "New ladder"),
        ("xmadn-league", "New XMadn league"),
        ("xmadn-challengers", "New XMadn Challengers event"),
        ("sunjang-league", "New Sunjang league"),
    ] {
        let html = check_desk(
            &w.page(&format!("/new?format={format}"), &org).await,
            format,
        );
        assert!(html.contains(&format!("<h1>{h1}</h1>")), "{format}");
        assert!(
            html.contains("value=\"sunjang-league\""),
            "{format}: the format choice"
        );
        assert!(
            html.contains(
                arbiter_record::preset(format)
                    .unwrap()
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap()
                    .trim()
                    .split('"')
                    .next()
                    .unwrap()
            )
        );
    }

    // Each desk: 200 for a moderator, one h1, labelled inputs; the
    // navigation links to it.
    for id in ["xl", "xc", "sj"] {
        let html = check_desk(&w.page(&format!("/c/{id}/manage"), &org).await, id);
        assert!(
            html.contains(&format!(
                "href=\"/c/{id}/manage\" aria-current=\"page\">Desk"
            )),
            "{id}"
        );
        let public = w.page(&format!("/c/{id}"), "").await.text();
        assert!(
            public.contains(&format!("href=\"/c/{id}/manage\">Desk")),
            "{id}: Desk in the navigation"
        );
        // An outsider sees the desk without forms; logged out, the login.
        let html = check_desk(&w.page(&format!("/c/{id}/manage"), &otto).await, id);
        assert!(
            !html.contains("name=\"action\""),
            "{id}: no form for an outsider"
        );
        let a = w.page(&format!("/c/{id}/manage"), "").await;
        assert_eq!(a.status, StatusCode::SEE_OTHER);
    }

    // Create a Sunjang league from /new.
    let page = w.page("/new?format=sunjang-league", &org).await.text();
    let csrf = hidden(&page, "_csrf");
    let a = w
        .form(
            "/new",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_key", &hidden(&page, "_key")),
                ("format", "sunjang-league"),
                ("id", "sj-web"),
                ("name", "SJ web"),
                ("rules", arbiter_record::preset("sunjang-league").unwrap()),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(a.headers[header::LOCATION], "/c/sj-web/manage");

    // Register players through the desk's form.
    for (name, rank, rating) in SUNJANG_PLAYERS {
        let desk = w.page("/c/sj-web/manage", &org).await.text();
        let rating = rating.to_string();
        let a = w
            .form(
                "/c/sj-web/act",
                &org,
                form_body(&[
                    ("_csrf", &csrf),
                    ("_key", &format!("{}-{name}", hidden(&desk, "_key"))),
                    ("_version", &hidden(&desk, "_version")),
                    ("action", "add-player"),
                    ("name", name),
                    ("rank", rank),
                    ("rating", &rating),
                ]),
            )
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    }
    // A form without the CSRF token stores nothing.
    let before = w.version("sj-web").await;
    let a = w
        .form(
            "/c/sj-web/act",
            &org,
            form_body(&[("action", "plan-season"), ("_version", &before.to_string())]),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    // An outsider's form is refused.
    let otto_desk = w.page("/account", &otto).await.text();
    let a = w
        .form(
            "/c/sj-web/act",
            &otto,
            form_body(&[
                ("_csrf", &hidden(&otto_desk, "_csrf")),
                ("action", "plan-season"),
                ("_version", &before.to_string()),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert_eq!(w.version("sj-web").await, before);

    // Preview the season: a page with the plan and a button; nothing stored.
    let desk = check_desk(
        &w.page("/c/sj-web/manage", &org).await,
        "sunjang desk with players",
    );
    assert!(desk.contains("Preview season 1"));
    let a = w
        .form(
            "/c/sj-web/act",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_key", &hidden(&desk, "_key")),
                ("_version", &before.to_string()),
                ("action", "plan-season"),
                ("preview", "true"),
            ]),
        )
        .await;
    let preview = check_desk(&a, "the season's preview");
    assert!(preview.contains("Preview: nothing is stored yet"));
    assert!(preview.contains("The pyramid") && preview.contains("Placements"));
    assert_eq!(w.version("sj-web").await, before);
    // The button stores it.
    let a = w
        .form(
            "/c/sj-web/act",
            &org,
            form_body(&[
                ("_csrf", &hidden(&preview, "_csrf")),
                ("_key", &hidden(&preview, "_key")),
                ("_version", &hidden(&preview, "_version")),
                ("action", "plan-season"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(
        a.headers[header::LOCATION],
        "/c/sj-web/manage?done=plan-season#done"
    );
    assert_eq!(w.version("sj-web").await, before + 1);
    let desk = check_desk(
        &w.page("/c/sj-web/manage?done=plan-season", &org).await,
        "sunjang desk in play",
    );
    assert!(desk.contains("The season was planned."));
    assert!(desk.contains("Close the season"));

    // A result through the form.
    let at = desk.find("name=\"black\" value=\"").unwrap();
    let black = desk[at + 20..].split('"').next().unwrap().to_string();
    let at = desk.find("name=\"white\" value=\"").unwrap();
    let white = desk[at + 20..].split('"').next().unwrap().to_string();
    let a = w
        .form(
            "/c/sj-web/act",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_key", &hidden(&desk, "_key")),
                ("_version", &hidden(&desk, "_version")),
                ("action", "record-result"),
                ("black", &black),
                ("white", &white),
                ("outcome", "white"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(w.version("sj-web").await, before + 2);

    // The league's roll through its desk form.
    let desk = w.page("/c/xl/manage", &org).await.text();
    assert!(desk.contains("Roll the positions of DRR 1"));
    let a = w
        .form(
            "/c/xl/act",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_key", &hidden(&desk, "_key")),
                ("_version", &hidden(&desk, "_version")),
                ("action", "roll"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let desk = check_desk(
        &w.page("/c/xl/manage?done=roll", &org).await,
        "league desk after the roll",
    );
    assert!(desk.contains("The dice were rolled."));
    assert!(desk.contains("Record the result of"));
    // A stale version is refused and nothing is stored.
    let v = w.version("xl").await;
    let (label, players) = playable(&w.view("xl").await).unwrap();
    let a = w
        .form(
            "/c/xl/act",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_version", &(v - 1).to_string()),
                ("action", "record-result"),
                ("game", &label),
                ("a", &players[0]),
                ("b", &players[1]),
                ("pawns", "4-0"),
                ("time", "10:00"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert_eq!(w.version("xl").await, v);

    // Challengers: Game 0 through the form.
    let desk = w.page("/c/xc/manage", &org).await.text();
    let a = w
        .form(
            "/c/xc/act",
            &org,
            form_body(&[
                ("_csrf", &csrf),
                ("_key", &hidden(&desk, "_key")),
                ("_version", &hidden(&desk, "_version")),
                ("action", "record-qualifier"),
                ("first", "Ben"),
                ("second", "Ann"),
                ("third", "Cat"),
                ("chosen", "green/yellow"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let desk = check_desk(
        &w.page("/c/xc/manage?done=record-qualifier", &org).await,
        "challengers after Game 0",
    );
    assert!(desk.contains("Game 0 was recorded."));
    assert!(desk.contains("Record game 1"));
}

#[tokio::test]
async fn a_moderator_does_not_record_a_game_he_plays_under_his_own_name() {
    let w = world().await;
    // Org plays under his account's name, though no player is linked to it.
    let created = w
        .create(
            &w.org,
            json!({"format": "xmadn-challengers", "id": "xo", "name": "XO", "players": ["Org", "Ben", "Cat"]}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    w.grant("xo", "mona", Role::Moderator, None).await;
    let q = json!({"action": "record-qualifier", "finishing": ["Ben", "Org", "Cat"], "chosen": "red/blue"});
    let why = w.forbidden("xo", &w.org, q.clone()).await;
    assert!(why.contains("own game"), "{why}");
    w.ok("xo", &w.mona, q).await;
    // His desk says so instead of offering the form.
    let org = w.session("org").await;
    let desk = check_desk(
        &w.page("/c/xo/manage", &org).await,
        "challengers desk of a playing moderator",
    );
    let next = w.view("xo").await["next"].clone();
    let plays = next["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "Org");
    assert_eq!(
        desk.contains("another moderator records it"),
        plays,
        "{desk}"
    );
}

/// The owner makes Mona a moderator of each format over the API (a grant:
/// the version stays); she then records results but may not add a
/// moderator herself; removed, she moderates no more.
#[tokio::test]
async fn owners_add_and_remove_moderators_in_every_format() {
    let w = world().await;
    w.create_xl_xc_sj().await;
    let first_moderated = [
        ("xl", json!({"action": "roll"})),
        (
            "xc",
            json!({"action": "record-qualifier", "finishing": ["Ann", "Ben", "Cat"], "chosen": "red/blue"}),
        ),
        (
            "sj",
            json!({"action": "add-player", "name": "Hana", "rank": "3d", "rating": 2300}),
        ),
    ];
    for (id, action) in &first_moderated {
        // Not yet a moderator.
        w.forbidden(id, &w.mona, action.clone()).await;
        // An unknown account is refused, naming the field.
        let a = w
            .act(
                id,
                &w.org,
                json!({"action": "add-moderator", "username": "nobody"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{id}: {}", a.text());
        assert_eq!(a.json()["error"]["field"], "username", "{id}");
        // A stale version is refused.
        let v = w.version(id).await;
        let a = w
            .send(
                Method::POST,
                &format!("/api/competitions/{id}/actions"),
                &w.org,
                &[("if-match", format!("\"v{}\"", v + 1))],
                Some(json!({"action": "add-moderator", "username": "mona"})),
            )
            .await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{id}: {}", a.text());
        // The owner adds her: a grant, nothing in the event log.
        let done = w
            .ok(
                id,
                &w.org,
                json!({"action": "add-moderator", "username": " Mona "}),
            )
            .await;
        assert_eq!(done["action"], "add-moderator");
        assert_eq!(done["stored"], true);
        assert_eq!(done["version"], v, "{id}: the version is unchanged");
        assert_eq!(done["message"], "Mona (mona) is a moderator here.");
        assert_eq!(w.version(id).await, v, "{id}: nothing appended");
        let grants = w.state.service.store().grants_in(id).await.unwrap();
        assert!(
            grants
                .iter()
                .any(|g| g.username == "mona" && g.role == Role::Moderator),
            "{id}: {grants:?}"
        );
        // Now she moderates; but she may not add a moderator herself.
        w.ok(id, &w.mona, action.clone()).await;
        let why = w
            .forbidden(
                id,
                &w.mona,
                json!({"action": "add-moderator", "username": "otto"}),
            )
            .await;
        assert!(why.contains("only the competition's owner"), "{id}: {why}");
        w.forbidden(
            id,
            &w.mona,
            json!({"action": "remove-moderator", "username": "mona"}),
        )
        .await;
    }

    // She records a result in each format.
    let (label, players) = playable(&w.view("xl").await).expect("a playable game");
    let done = w
        .ok(
            "xl",
            &w.mona,
            json!({"action": "record-result", "game": label, "a": players[0], "b": players[1], "pawns": "4-2", "time": "23:05"}),
        )
        .await;
    assert!(
        done["message"]
            .as_str()
            .unwrap()
            .ends_with(": 4-2 in 23:05.")
    );
    let next = w.view("xc").await["next"].clone();
    w.ok(
        "xc",
        &w.mona,
        json!({"action": "record-game", "a": next["players"][0], "b": next["players"][1], "pawns": "4-1", "time": "19:30"}),
    )
    .await;
    for (name, rank, rating) in &SUNJANG_PLAYERS[1..] {
        w.ok(
            "sj",
            &w.mona,
            json!({"action": "add-player", "name": name, "rank": rank, "rating": rating}),
        )
        .await;
    }
    w.ok("sj", &w.mona, json!({"action": "plan-season"})).await;
    let view = w.view("sj").await;
    let p = &view["seasons"][0]["divisions"][0]["groups"][0]["pairings"][0];
    w.ok(
        "sj",
        &w.mona,
        json!({"action": "record-result", "black": p["black"], "white": p["white"], "outcome": "white"}),
    )
    .await;

    // The owner removes her: she no longer moderates; removing her again
    // changes nothing.
    for (id, action) in [
        ("xl", json!({"action": "cancel-drr", "drr": 2, "note": "n"})),
        (
            "xc",
            json!({"action": "record-game", "a": "Ann", "b": "Ben", "pawns": "4-0", "time": "1:00"}),
        ),
        ("sj", json!({"action": "close-season"})),
    ] {
        let v = w.version(id).await;
        let done = w
            .ok(
                id,
                &w.org,
                json!({"action": "remove-moderator", "username": "mona"}),
            )
            .await;
        assert_eq!(done["stored"], true);
        assert_eq!(done["version"], v);
        assert_eq!(
            done["message"],
            "Mona (mona) is no longer a moderator here."
        );
        w.forbidden(id, &w.mona, action).await;
        let again = w
            .ok(
                id,
                &w.org,
                json!({"action": "remove-moderator", "username": "mona"}),
            )
            .await;
        assert_eq!(again["stored"], false);
        assert_eq!(w.version(id).await, v);
    }
}

#[tokio::test]
async fn the_owner_section_of_each_desk_adds_and_removes_moderators() {
    let w = world().await;
    w.create_xl_xc_sj().await;
    let org = w.session("org").await;
    let mona = w.session("mona").await;
    for id in ["xl", "xc", "sj"] {
        let desk = check_desk(&w.page(&format!("/c/{id}/manage"), &org).await, id);
        assert!(desk.contains("<h2 id=\"owner\">Owner</h2>"), "{id}");
        assert!(
            desk.contains("Moderator accounts: org."),
            "{id}: the creator moderates"
        );
        let form = |action: &'static str, desk: &str| {
            form_body(&[
                ("_csrf", &hidden(desk, "_csrf")),
                ("_key", &format!("{}-{action}", hidden(desk, "_key"))),
                ("_version", &hidden(desk, "_version")),
                ("action", action),
                ("username", "mona"),
            ])
        };
        let before = w.version(id).await;
        let a = w
            .form(&format!("/c/{id}/act"), &org, form("add-moderator", &desk))
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{id}: {}", a.text());
        assert_eq!(
            a.headers[header::LOCATION],
            format!("/c/{id}/manage?done=add-moderator#done").as_str()
        );
        assert_eq!(w.version(id).await, before, "{id}: nothing appended");
        let desk = check_desk(
            &w.page(&format!("/c/{id}/manage?done=add-moderator"), &org)
                .await,
            id,
        );
        assert!(desk.contains("The moderator was added."), "{id}");
        assert!(desk.contains("Moderator accounts: mona, org."), "{id}");

        // Mona's desk: a moderator's, without the owner's section; her
        // form to add a moderator is refused.
        let hers = check_desk(&w.page(&format!("/c/{id}/manage"), &mona).await, id);
        assert!(hers.contains("name=\"action\""), "{id}: she moderates");
        assert!(!hers.contains("id=\"owner\""), "{id}: no owner section");
        let a = w
            .form(
                &format!("/c/{id}/act"),
                &mona,
                form_body(&[
                    ("_csrf", &hidden(&hers, "_csrf")),
                    ("_version", &hidden(&hers, "_version")),
                    ("action", "add-moderator"),
                    ("username", "otto"),
                ]),
            )
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{id}: {}", a.text());

        // Removed through the form; once more, nothing changed.
        let a = w
            .form(
                &format!("/c/{id}/act"),
                &org,
                form("remove-moderator", &desk),
            )
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{id}: {}", a.text());
        let desk = check_desk(
            &w.page(&format!("/c/{id}/manage?done=remove-moderator"), &org)
                .await,
            id,
        );
        assert!(desk.contains("The moderator was removed."), "{id}");
        assert!(desk.contains("Moderator accounts: org."), "{id}");
        let a = w
            .form(
                &format!("/c/{id}/act"),
                &org,
                form("remove-moderator", &desk),
            )
            .await;
        assert_eq!(
            a.headers[header::LOCATION],
            format!("/c/{id}/manage?done=remove-moderator-none#done").as_str()
        );
    }
}

// --- Every state of a Sunjang final round has its form on the desk --------

/// The finalists' names sorted: the walk's outcomes name players, not
/// colours.
const FINALISTS_POOL: [(&str, &str, i32); 5] = [
    ("Ahn", "3d", 2300),
    ("Baek", "2d", 2200),
    ("Chen", "1d", 2100),
    ("Dae", "1k", 2000),
    ("Eun", "2k", 1900),
];

/// A Sunjang league `id` of five players, season 1 played (the stronger
/// always wins: Ahn, Baek, Chen, Dae, Eun) and closed, over the API.
async fn closed_league(w: &World, id: &str) {
    let a = w
        .create(
            &w.org,
            json!({"format": "sunjang-league", "id": id, "name": "Final walk"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    for (name, rank, rating) in FINALISTS_POOL {
        w.ok(
            id,
            &w.org,
            json!({"action": "add-player", "name": name, "rank": rank, "rating": rating}),
        )
        .await;
    }
    w.ok(id, &w.org, json!({"action": "plan-season"})).await;
    let view = w.view(id).await;
    let order: Vec<&str> = FINALISTS_POOL.iter().map(|p| p.0).collect();
    let pairings = view["seasons"][0]["divisions"][0]["groups"][0]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(pairings.len(), 10);
    for p in pairings {
        let (b, wh) = (p["black"].as_str().unwrap(), p["white"].as_str().unwrap());
        let pos = |n: &str| order.iter().position(|x| *x == n).unwrap();
        let outcome = if pos(b) < pos(wh) { "black" } else { "white" };
        w.ok(
            id,
            &w.org,
            json!({"action": "record-result", "black": b, "white": wh, "outcome": outcome}),
        )
        .await;
    }
    w.ok(id, &w.org, json!({"action": "close-season"})).await;
}

/// The black and white of the first final-round game form of a desk.
fn final_form(desk: &str) -> (String, String) {
    let at = desk
        .find("value=\"record-final-game\"")
        .unwrap_or_else(|| panic!("no final-round game form:\n{desk}"));
    let rest = &desk[at..];
    (hidden(rest, "black"), hidden(rest, "white"))
}

/// Walk a closed league's final round through the organizer's desk: at
/// each step GET the desk, assert the form for the engine's state is there
/// (and no other), POST it with the outcome `pick(black, white)` gives, and
/// repeat until the final is decided; then the desk offers the next
/// season's preview, which works. Returns the states seen.
async fn walk(
    w: &World,
    id: &str,
    cookie: &str,
    mut pick: impl FnMut(&str, &str) -> &'static str,
) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..12 {
        let desk = check_desk(
            &w.page(&format!("/c/{id}/manage"), cookie).await,
            "sunjang desk, final round",
        );
        let view = w.view(id).await;
        let f = &view["seasons"][0]["final_round"];
        let state = f["state"].as_str().unwrap_or("none").to_string();
        seen.push(state.clone());
        let csrf = hidden(&desk, "_csrf");
        let base = |action: &str| {
            vec![
                ("_csrf".to_string(), csrf.clone()),
                (
                    "_key".to_string(),
                    format!("{}-{}", hidden(&desk, "_key"), seen.len()),
                ),
                ("_version".to_string(), hidden(&desk, "_version")),
                ("action".to_string(), action.to_string()),
            ]
        };
        let post = |fields: Vec<(String, String)>| async move {
            let refs: Vec<(&str, &str)> = fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            w.form(&format!("/c/{id}/act"), cookie, form_body(&refs))
                .await
        };
        match state.as_str() {
            "none" => {
                assert!(desk.contains("value=\"qualify-final\""), "{desk}");
                assert!(!desk.contains("value=\"record-final-game\""));
                let a = post(base("qualify-final")).await;
                assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
            }
            "playing" | "playoff" => {
                assert!(!desk.contains("value=\"qualify-final\""));
                // The next season waits for the final (the engine refuses
                // it), so the desk does not offer its preview.
                assert!(!desk.contains("Preview season 2"), "{desk}");
                if state == "playoff" {
                    assert!(desk.contains("Deciding game (SJ-R8)"), "{desk}");
                    assert!(desk.contains("one deciding game"), "{desk}");
                }
                let (black, white) = final_form(&desk);
                let mut fields = base("record-final-game");
                fields.push(("black".into(), black.clone()));
                fields.push(("white".into(), white.clone()));
                fields.push(("outcome".into(), pick(&black, &white).into()));
                let a = post(fields).await;
                assert_eq!(a.status, StatusCode::SEE_OTHER, "{state}: {}", a.text());
            }
            "champion" | "void" => {
                assert!(!desk.contains("value=\"record-final-game\""), "{desk}");
                assert!(!desk.contains("No final round to run now"), "{desk}");
                assert!(desk.contains("Preview season 2"), "{desk}");
                let mut fields = base("plan-season");
                fields.push(("preview".into(), "true".into()));
                let a = post(fields).await;
                let page = check_desk(&a, "the next season's preview");
                assert!(page.contains("Preview: nothing is stored yet"), "{page}");
                return seen;
            }
            other => panic!("unknown final state {other}"),
        }
    }
    panic!("the final round never ended: {seen:?}")
}

/// The winner of `black` v `white` by a fixed order of names: the outcome
/// word.
fn first_of(order: &'static [&'static str]) -> impl FnMut(&str, &str) -> &'static str {
    move |b, w| {
        let pos = |n: &str| order.iter().position(|x| *x == n).unwrap_or(99);
        if pos(b) < pos(w) { "black" } else { "white" }
    }
}

#[tokio::test]
async fn every_final_round_state_has_its_form_on_the_desk() {
    let w = world().await;
    let org = w.session("org").await;

    // Two wins: Ahn beats both, champion (SJ-R8).
    closed_league(&w, "fw1").await;
    let seen = walk(&w, "fw1", &org, first_of(&["Ahn", "Baek", "Chen"])).await;
    assert_eq!(seen.first().map(String::as_str), Some("none"));
    assert_eq!(seen.last().map(String::as_str), Some("champion"));
    assert!(seen.contains(&"playing".to_string()));

    // A three-way tie in wins (each won one): the two advantaged leaders
    // play one deciding game (SJ-R8); a jigo there is replayed (ARB-R41),
    // then a win decides. Before the fix, the desk said "No final round to
    // run now" here and offered no form.
    closed_league(&w, "fw2").await;
    let mut calls = 0;
    let seen = walk(&w, "fw2", &org, move |b, wh| {
        calls += 1;
        let cycle = [("Ahn", "Baek"), ("Baek", "Chen"), ("Chen", "Ahn")];
        match calls {
            1..=3 => {
                let (winner, _) = cycle
                    .iter()
                    .find(|(x, y)| (*x == b && *y == wh) || (*x == wh && *y == b))
                    .unwrap();
                if *winner == b { "black" } else { "white" }
            }
            4 => "jigo",
            _ => "black",
        }
    })
    .await;
    let view = w.view("fw2").await;
    assert_eq!(
        view["seasons"][0]["final_round"]["advantaged"],
        json!(["Ahn", "Baek"]),
        "{view}"
    );
    assert_eq!(
        seen,
        [
            "none", "playing", "playing", "playing", "playoff", "playoff", "champion"
        ],
    );

    // A two-way tie after three jigo (Ahn and Baek, advantaged, 2 each;
    // Chen 1½), whose deciding game both forfeit: neither is willing to
    // play, the title is void (ARB-R41).
    closed_league(&w, "fw3").await;
    let mut calls = 0;
    let seen = walk(&w, "fw3", &org, move |_, _| {
        calls += 1;
        if calls <= 3 { "jigo" } else { "both-forfeit" }
    })
    .await;
    assert_eq!(
        seen,
        ["none", "playing", "playing", "playing", "playoff", "void"]
    );

    // A finalist withdraws before the games: drawn again by the same rules,
    // and the final is played.
    closed_league(&w, "fw4").await;
    let desk = w.page("/c/fw4/manage", &org).await.text();
    let a = w
        .form(
            "/c/fw4/act",
            &org,
            form_body(&[
                ("_csrf", &hidden(&desk, "_csrf")),
                ("_key", &hidden(&desk, "_key")),
                ("_version", &hidden(&desk, "_version")),
                ("action", "qualify-final"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    let desk = check_desk(&w.page("/c/fw4/manage", &org).await, "final drawn");
    assert!(desk.contains("value=\"withdraw-from-final\""), "{desk}");
}

/// Why each finalist qualified is shown with the games still to play
/// (SJ-R7; ARB-R40): in the API's season view, on the public page and on
/// the desk, from the draw until the final is decided.
#[tokio::test]
async fn the_final_rounds_qualification_is_shown_with_the_games_to_play() {
    let w = world().await;
    let org = w.session("org").await;
    closed_league(&w, "fq").await;
    w.ok("fq", &w.org, json!({"action": "qualify-final"})).await;
    let view = w.view("fq").await;
    let f = &view["seasons"][0]["final_round"];
    let reasons: Vec<&str> = f["qualification"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    // One group in A: its top two qualify as two leaders would (ARB-R40),
    // and the third place is drawn.
    assert!(
        reasons
            .iter()
            .any(|t| t.starts_with("Ahn") && t.contains("the single group of division A")),
        "{f}"
    );
    assert!(
        reasons.iter().any(|t| t.contains("takes the third place")),
        "{f}"
    );
    assert!(
        f["qualification"][0]["rulings"]
            .as_array()
            .unwrap()
            .contains(&json!("ARB-R40")),
        "{f}"
    );
    assert_eq!(f["to_play"].as_array().map(Vec::len), Some(3), "{f}");
    let public = w.page("/c/fq", "").await.text();
    assert!(public.contains("How the finalists qualified"), "{public}");
    assert!(public.contains("Games to play"), "{public}");
    assert!(
        public.contains("the single group of division A"),
        "{public}"
    );
    let desk = w.page("/c/fq/manage", &org).await.text();
    assert!(desk.contains("Why these finalists"), "{desk}");
    assert!(desk.contains("takes the third place"), "{desk}");
    // A game played: two left to play, one shown as played.
    let first = f["to_play"][0].as_str().unwrap().to_string();
    let (black, white) = first.split_once(" (black) v ").unwrap();
    w.ok(
        "fq",
        &w.org,
        json!({"action": "record-final-game", "black": black, "white": white, "outcome": "black"}),
    )
    .await;
    let f = w.view("fq").await["seasons"][0]["final_round"].clone();
    assert_eq!(f["to_play"].as_array().map(Vec::len), Some(2), "{f}");
    assert_eq!(f["games"].as_array().map(Vec::len), Some(1), "{f}");
    assert!(!f["qualification"].as_array().unwrap().is_empty(), "{f}");
}

/// A stored organizer layout (ARB-R55) is shown on the public season page:
/// how many placements he moved, his reason, and each move.
#[tokio::test]
async fn the_public_page_shows_the_organizers_moves() {
    let w = world().await;
    let a = w
        .create(
            &w.org,
            json!({"format": "sunjang-league", "id": "lay", "name": "Layout"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED);
    // 13 players: A1 6, A2 7; one moved from A2 makes 7 and 6 (footnote 3).
    for i in 1..=13 {
        w.ok(
            "lay",
            &w.org,
            json!({"action": "add-player", "name": format!("Player {i:02}"), "rank": "1d", "rating": 2300 - i * 10}),
        )
        .await;
    }
    let v = w.view("lay").await;
    assert!(v["seasons"].as_array().unwrap().is_empty());
    w.ok(
        "lay",
        &w.org,
        json!({"action": "plan-season", "moves": ["Player 02:A1"], "reason": "he asked to play his club mates"}),
    )
    .await;
    let v = w.view("lay").await;
    let layout = &v["seasons"][0]["layout"];
    assert_eq!(layout["reason"], "he asked to play his club mates", "{v}");
    let page = w.page("/c/lay", "").await.text();
    assert!(
        page.contains(
            "The organizer moved 1 placement of the automatic plan: he asked to play his club mates"
        ),
        "{page}"
    );
    assert!(page.contains("Player 02: A2 → A1"), "{page}");
}

/// The preview's move form (ARB-R55): a move is previewed with every rule
/// of section A it breaks listed, and no store button; nothing is stored.
#[tokio::test]
async fn the_preview_moves_a_player_and_lists_every_violation() {
    let w = world().await;
    let org = w.session("org").await;
    let a = w
        .create(
            &w.org,
            json!({"format": "sunjang-league", "id": "mv", "name": "Moves"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED);
    for (name, rank, rating) in FINALISTS_POOL {
        w.ok(
            "mv",
            &w.org,
            json!({"action": "add-player", "name": name, "rank": rank, "rating": rating}),
        )
        .await;
    }
    let before = w.version("mv").await;
    let desk = w.page("/c/mv/manage", &org).await.text();
    let a = w
        .form(
            "/c/mv/act",
            &org,
            form_body(&[
                ("_csrf", &hidden(&desk, "_csrf")),
                ("_version", &hidden(&desk, "_version")),
                ("action", "plan-season"),
                ("preview", "true"),
                ("move_player", "Eun"),
                ("move_group", "A2"),
                ("moves", ""),
                ("reason", "a second group"),
            ]),
        )
        .await;
    let page = check_desk(&a, "a preview with a move");
    assert!(page.contains("Rules this layout breaks"), "{page}");
    assert!(
        page.contains("footnote 1: division A would have 2 groups"),
        "{page}"
    );
    assert!(
        page.contains("A.i.3: group A2 would have 1 player; at least 5"),
        "{page}"
    );
    assert!(
        page.contains("Eun:A2"),
        "the move is kept for the next one: {page}"
    );
    assert!(!page.contains("Plan the season</button>"), "{page}");
    assert_eq!(w.version("mv").await, before);
}
