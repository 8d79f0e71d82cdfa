//! The page forms: every POST page route refuses a form without the right
//! CSRF token (none, a wrong one, another session's) with 403 and stores
//! nothing; a form that needs a session sent without one goes to the login
//! page and stores nothing; no GET page changes anything; every page
//! escapes user text (competition, player and account names that are
//! HTML); snapshots of the ladder desk as its owner and as a player.
//!
//! The world: `olga` (organizer) owns a ladder, an XMadn league, an XMadn
//! Challengers event and two Sunjang leagues, all created over the API.
//! Their names and the players' names are HTML ([`EVIL_SCRIPT`],
//! [`EVIL_IMG`]); so are the display names of `pat` and `sam`, who play in
//! them under those names (Player grants).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock, auth};
use arbiter_service::{SeedSource, Service};
use arbiter_store::{AccountStore, EventStore, Role};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{Answer, As, enc, form_body, get_with_cookie, now, oneshot, post_form, send};
use serde_json::{Value, json};

const PASSWORD: &str = "a-long-password";
const EVIL_SCRIPT: &str = "<script>alert(1)</script>";
const EVIL_IMG: &str = "\"><img src=x onerror=alert(1)>";

const LADDER: &str = "evil-ladder";
const LEAGUE: &str = "evil-league";
const CHALLENGERS: &str = "evil-challengers";
const SUNJANG: &str = "evil-sunjang";
/// A Sunjang league with no season yet (its plan can be previewed).
const SUNJANG2: &str = "evil-sunjang-two";
const ALL: [&str; 5] = [LADDER, LEAGUE, CHALLENGERS, SUNJANG, SUNJANG2];

/// A browser: the cookies it sends (`name=value; …`, or nothing).
#[derive(Debug, Clone, Default)]
struct Browser {
    cookie: String,
    /// The CSRF token its forms carry (the session's, or the pre-login
    /// cookie's).
    csrf: String,
}

struct World {
    app: Router,
    state: AppState,
    olga_token: String,
}

impl World {
    async fn send(&self, request: Request<Body>) -> Answer {
        oneshot(&self.app, request).await
    }

    async fn get(&self, uri: &str, b: &Browser) -> Answer {
        get_with_cookie(&self.app, uri, &b.cookie).await
    }

    async fn post(&self, uri: &str, b: &Browser, fields: &[(&str, String)]) -> Answer {
        let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        post_form(&self.app, uri, &b.cookie, form_body(&fields)).await
    }

    async fn api(&self, method: Method, uri: &str, token: &str, body: Option<&Value>) -> Answer {
        let who = if token.is_empty() {
            As::Nobody
        } else {
            As::Token(token)
        };
        send(&self.app, method, uri, who, &[], body).await
    }

    async fn version(&self, id: &str) -> u64 {
        common::version(&self.app, id).await
    }

    /// An action over the API, as `token`, that must work.
    async fn ok(&self, id: &str, token: &str, body: Value) -> Value {
        let v = self.version(id).await;
        let a = send(
            &self.app,
            Method::POST,
            &format!("/api/competitions/{id}/actions"),
            As::Token(token),
            &[("if-match", format!("\"v{v}\""))],
            Some(&body),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
        a.json()
    }

    async fn create(&self, body: Value) {
        let a = self
            .api(
                Method::POST,
                "/api/competitions",
                &self.olga_token,
                Some(&body),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{body}: {}", a.text());
    }

    async fn grant(&self, id: &str, user: &str, role: Role, player: Option<&str>) {
        common::grant(&self.state, id, user, role, player).await;
    }

    /// A fresh session of `username` (no password check: the login form
    /// is tested on its own) and its CSRF token.
    async fn session(&self, username: &str) -> Browser {
        let set = auth::start_session(&self.state, username).await.unwrap();
        let kv = set.to_str().unwrap().split(';').next().unwrap().to_string();
        let me = self
            .send(
                Request::builder()
                    .uri("/api/me")
                    .header(header::COOKIE, &kv)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.text());
        Browser {
            cookie: kv,
            csrf: me.json()["csrf_token"].as_str().unwrap().to_string(),
        }
    }

    /// A logged-out browser that has shown the login page: its pre-login
    /// CSRF cookie.
    async fn pre_login(&self) -> Browser {
        let pre = common::pre_login_csrf(&self.app).await;
        Browser {
            cookie: format!("{}={pre}", auth::PRE_CSRF_COOKIE),
            csrf: pre,
        }
    }

    /// Whether a browser's session is still logged in.
    async fn logged_in(&self, b: &Browser) -> bool {
        self.send(
            Request::builder()
                .uri("/api/me")
                .header(header::COOKIE, &b.cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .status
            == StatusCode::OK
    }

    /// Everything a form could store: every competition's version and
    /// grants, every account and its API tokens.
    async fn stored(&self) -> String {
        let store = self.state.service.store();
        let mut out = Vec::new();
        for id in store.competitions().await.unwrap() {
            let grants = common::grants_in(&self.state, &id).await;
            out.push(format!(
                "{id} v{} [{}]",
                store.version(&id).await.unwrap(),
                grants.join(", ")
            ));
        }
        for account in store.accounts().await.unwrap() {
            let tokens = store.tokens_of(&account.username).await.unwrap().len();
            out.push(format!(
                "account {} ({}) {tokens} token(s)",
                account.username, account.display_name
            ));
        }
        out.join("\n")
    }
}

/// The world of the module comment.
async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let service = Service::new(store).with_seeds(SeedSource::Deterministic("forms".into()));
    let state = AppState::new(service).with_clock(Clock::Fixed(now()));
    let store = state.service.store();
    auth::create_account(store, now(), "olga", "Olga Owens", None, PASSWORD, true)
        .await
        .unwrap();
    auth::create_account(store, now(), "pat", EVIL_SCRIPT, None, PASSWORD, false)
        .await
        .unwrap();
    auth::create_account(store, now(), "sam", EVIL_IMG, None, PASSWORD, false)
        .await
        .unwrap();
    let olga_token = auth::create_token(&state, "olga", "setup").await.unwrap();
    let pat_token = auth::create_token(&state, "pat", "setup").await.unwrap();
    let w = World {
        app: arbiter_server::app(state.clone()),
        state,
        olga_token,
    };
    let olga = w.olga_token.clone();

    // The ladder: a round with the two hostile names paired, pat's report.
    w.create(json!({"format": "tws-ladder", "id": LADDER, "name": EVIL_SCRIPT}))
        .await;
    for (name, account) in [
        (EVIL_SCRIPT, Some("pat")),
        (EVIL_IMG, Some("sam")),
        ("Dan Dunn", None),
        ("Eve Evans", None),
    ] {
        let mut add = json!({"action": "add-player", "name": name});
        if let Some(a) = account {
            add["account"] = json!(a);
        }
        w.ok(LADDER, &olga, add).await;
    }
    w.ok(
        LADDER,
        &olga,
        json!({"action": "announce-round", "reason": "set for the tests",
            "pairs": [{"a": EVIL_SCRIPT, "b": EVIL_IMG}, {"a": "Dan Dunn", "b": "Eve Evans"}]}),
    )
    .await;
    let round = w
        .api(
            Method::GET,
            &format!("/api/competitions/{LADDER}/rounds/1"),
            "",
            None,
        )
        .await
        .json();
    let game = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["ussr"] == EVIL_SCRIPT || g["us"] == EVIL_SCRIPT)
        .unwrap_or_else(|| panic!("{round}"))["id"]
        .clone();
    w.ok(
        LADDER,
        &pat_token,
        json!({"action": "report-result", "game": game,
            "result": {"winner": EVIL_SCRIPT, "ended_by": "vp", "vp": 20, "turn": 6, "note": EVIL_IMG}}),
    )
    .await;

    // The XMadn league (rolled) and Challengers event.
    let three = [EVIL_SCRIPT, EVIL_IMG, "Cid Cole"];
    w.create(
        json!({"format": "xmadn-league", "id": LEAGUE, "name": EVIL_SCRIPT, "players": three}),
    )
    .await;
    w.ok(LEAGUE, &olga, json!({"action": "roll"})).await;
    w.create(
        json!({"format": "xmadn-challengers", "id": CHALLENGERS, "name": EVIL_IMG, "players": three}),
    )
    .await;
    for id in [LEAGUE, CHALLENGERS] {
        w.grant(id, "pat", Role::Player, Some(EVIL_SCRIPT)).await;
        w.grant(id, "sam", Role::Player, Some(EVIL_IMG)).await;
    }

    // The Sunjang leagues: the first with its season planned.
    for id in [SUNJANG, SUNJANG2] {
        w.create(json!({"format": "sunjang-league", "id": id, "name": EVIL_IMG}))
            .await;
        for (name, rank, rating, account) in [
            (EVIL_SCRIPT, "3d", 2300, Some("pat")),
            (EVIL_IMG, "1d", 2100, Some("sam")),
            ("Jun Ito", "1k", 1950, None),
            ("Kai Kim", "4k", 1700, None),
            ("Lee Lin", "8k", 1300, None),
            ("Min Moon", "12k", 1000, None),
            ("Pat Park", "15k", 800, None),
        ] {
            let mut add =
                json!({"action": "add-player", "name": name, "rank": rank, "rating": rating});
            if let Some(a) = account {
                add["account"] = json!(a);
            }
            w.ok(id, &olga, add).await;
        }
    }
    w.ok(SUNJANG, &olga, json!({"action": "plan-season"})).await;
    w
}

/// A representative action form of each competition's desk, valid for
/// its owner at the competition's current version (the CSRF token is
/// added by the caller).
async fn act_form(w: &World, id: &str) -> Vec<(&'static str, String)> {
    let version = w.version(id).await;
    let mut f: Vec<(&'static str, String)> = vec![
        ("_key", format!("key-{id}-{version}")),
        ("_version", version.to_string()),
    ];
    let fields: Vec<(&str, String)> = match id {
        LADDER => vec![
            ("action", "add-player".into()),
            ("name", "Nina Newman".into()),
        ],
        LEAGUE => {
            // The league's next playable game.
            let view = w
                .api(Method::GET, &format!("/api/competitions/{id}"), "", None)
                .await
                .json();
            let game = view["view"]["drrs"][0]["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["playable"] == true)
                .unwrap_or_else(|| panic!("no playable game: {view}"))
                .clone();
            vec![
                ("action", "record-result".into()),
                ("game", game["label"].as_str().unwrap().into()),
                ("a", game["players"][0].as_str().unwrap().into()),
                ("b", game["players"][1].as_str().unwrap().into()),
                ("pawns", "4-2".into()),
                ("time", "23:05".into()),
            ]
        }
        CHALLENGERS => vec![
            ("action", "record-qualifier".into()),
            ("first", "Cid Cole".into()),
            ("second", EVIL_SCRIPT.into()),
            ("third", EVIL_IMG.into()),
            ("chosen", "red/blue".into()),
        ],
        _ => vec![
            ("action", "add-player".into()),
            ("name", "Nina Newman".into()),
            ("rank", "2k".into()),
            ("rating", "1800".into()),
        ],
    };
    f.extend(fields);
    f
}

fn with_csrf(
    mut fields: Vec<(&'static str, String)>,
    csrf: Option<&str>,
) -> Vec<(&'static str, String)> {
    if let Some(t) = csrf {
        fields.push(("_csrf", t.to_string()));
    }
    fields
}

// ----- CSRF -----

#[tokio::test]
async fn a_form_without_its_sessions_csrf_token_is_refused_and_stores_nothing() {
    let w = world().await;
    let olga = w.session("olga").await;
    let other = w.session("pat").await;
    let pre = w.pre_login().await;
    assert_ne!(olga.csrf, other.csrf);
    let wrong = "A".repeat(olga.csrf.len());
    // (what, the token sent)
    let bad: [(&str, Option<&str>); 4] = [
        ("no CSRF token", None),
        ("a wrong CSRF token", Some(&wrong)),
        ("another session's CSRF token", Some(&other.csrf)),
        ("a pre-login CSRF token", Some(&pre.csrf)),
    ];
    // (route, its form without the token)
    let olga_token_id = auth::digest(&w.olga_token)[..16].to_string();
    let mut routes: Vec<(String, Vec<(&'static str, String)>)> = vec![
        (
            "/account/tokens".into(),
            vec![("label", "from a form".into())],
        ),
        (format!("/account/tokens/{olga_token_id}/revoke"), vec![]),
    ];
    for (format, extra) in [
        ("tws-ladder", ""),
        ("xmadn-league", "A\nB\nC"),
        ("xmadn-challengers", "A\nB\nC"),
        ("sunjang-league", ""),
    ] {
        let mut f = vec![
            ("format", format.to_string()),
            ("id", format!("new-{format}")),
            ("name", "New".to_string()),
            ("_key", format!("key-new-{format}")),
        ];
        if !extra.is_empty() {
            f.push(("players", extra.to_string()));
        }
        routes.push(("/new".into(), f));
    }
    for id in [LADDER, LEAGUE, CHALLENGERS, SUNJANG] {
        routes.push((format!("/c/{id}/act"), act_form(&w, id).await));
    }
    let mut failures = Vec::new();
    for (uri, fields) in &routes {
        for (what, token) in bad {
            let before = w.stored().await;
            let a = w.post(uri, &olga, &with_csrf(fields.clone(), token)).await;
            if a.status != StatusCode::FORBIDDEN {
                failures.push(format!(
                    "BUG: {uri} {fields:?} with {what}: {} (wanted 403) {}",
                    a.status,
                    a.text()
                ));
            }
            if w.stored().await != before {
                failures.push(format!(
                    "BUG: {uri} {fields:?} with {what} stored something"
                ));
            }
        }
        // With the session's own token the same form goes through: the 403s
        // above were the token's.
        let before = w.stored().await;
        let a = w
            .post(uri, &olga, &with_csrf(fields.clone(), Some(&olga.csrf)))
            .await;
        assert!(
            a.status == StatusCode::SEE_OTHER || a.status == StatusCode::OK,
            "{uri} {fields:?} with the right token: {} {}",
            a.status,
            a.text()
        );
        assert_ne!(w.stored().await, before, "{uri} {fields:?} stored nothing");
    }
    // Logging out: refused without the session's token, the session kept.
    let logout_session = w.session("olga").await;
    for (what, token) in bad {
        let a = w
            .post("/logout", &logout_session, &with_csrf(vec![], token))
            .await;
        if a.status != StatusCode::FORBIDDEN {
            failures.push(format!(
                "BUG: /logout with {what}: {} (wanted 403)",
                a.status
            ));
        }
        if !w.logged_in(&logout_session).await {
            failures.push(format!("BUG: /logout with {what} ended the session"));
        }
    }
    let a = w
        .post(
            "/logout",
            &logout_session,
            &with_csrf(vec![], Some(&logout_session.csrf)),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert!(!w.logged_in(&logout_session).await, "logged out");
    assert!(w.logged_in(&olga).await, "her other session is kept");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn the_login_and_register_forms_need_their_pre_login_csrf_cookie() {
    let w = world().await;
    let pre = w.pre_login().await;
    let another = w.pre_login().await;
    let session = w.session("pat").await;
    assert_ne!(pre.csrf, another.csrf);
    let wrong = "B".repeat(pre.csrf.len());
    let login = vec![
        ("username", "olga".to_string()),
        ("password", PASSWORD.to_string()),
        ("next", "/account".to_string()),
    ];
    let register = vec![
        ("username", "newbie".to_string()),
        ("name", "New Bie".to_string()),
        ("password", PASSWORD.to_string()),
    ];
    let no_cookie = Browser::default();
    // (what, the browser, the token sent)
    let bad: [(&str, &Browser, Option<&str>); 5] = [
        ("no CSRF token", &pre, None),
        ("a wrong CSRF token", &pre, Some(&wrong)),
        (
            "another browser's pre-login token",
            &pre,
            Some(&another.csrf),
        ),
        ("a session's CSRF token", &pre, Some(&session.csrf)),
        ("a token but no cookie", &no_cookie, Some(&pre.csrf)),
    ];
    let mut failures = Vec::new();
    for (what, browser, token) in bad {
        let before = w.stored().await;
        let a = w
            .post("/login", browser, &with_csrf(login.clone(), token))
            .await;
        if a.status != StatusCode::FORBIDDEN {
            failures.push(format!(
                "BUG: /login with {what}: {} (wanted 403)",
                a.status
            ));
        }
        if a.sets_cookie(auth::SESSION_COOKIE).is_some() {
            failures.push(format!("BUG: /login with {what} started a session"));
        }
        let a = w
            .post("/register", browser, &with_csrf(register.clone(), token))
            .await;
        if a.status != StatusCode::FORBIDDEN {
            failures.push(format!(
                "BUG: /register with {what}: {} (wanted 403)",
                a.status
            ));
        }
        if a.sets_cookie(auth::SESSION_COOKIE).is_some() {
            failures.push(format!("BUG: /register with {what} started a session"));
        }
        if w.stored().await != before {
            failures.push(format!(
                "BUG: /login or /register with {what} stored something"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // With the cookie's own token both go through.
    let a = w
        .post("/login", &pre, &with_csrf(login, Some(&pre.csrf)))
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(a.location(), "/account");
    assert!(a.sets_cookie(auth::SESSION_COOKIE).is_some());
    let a = w
        .post(
            "/register",
            &another,
            &with_csrf(register, Some(&another.csrf)),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert!(
        w.state
            .service
            .store()
            .account("newbie")
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn a_form_that_needs_a_session_sent_without_one_goes_to_the_login_page() {
    let w = world().await;
    // A logged-out browser with a valid pre-login token (so that the CSRF
    // check is not what refuses), and one with no cookie at all.
    let pre = w.pre_login().await;
    let none = Browser::default();
    let olga_token_id = auth::digest(&w.olga_token)[..16].to_string();
    let mut routes: Vec<(String, Vec<(&'static str, String)>)> = vec![
        ("/account/tokens".into(), vec![("label", "x".into())]),
        (format!("/account/tokens/{olga_token_id}/revoke"), vec![]),
        (
            "/new".into(),
            vec![
                ("format", "tws-ladder".into()),
                ("id", "new-ladder".into()),
                ("name", "New".into()),
            ],
        ),
    ];
    for id in [LADDER, LEAGUE, CHALLENGERS, SUNJANG] {
        routes.push((format!("/c/{id}/act"), act_form(&w, id).await));
    }
    let mut failures = Vec::new();
    for (uri, fields) in &routes {
        for (who, browser) in [("a pre-login cookie", &pre), ("no cookie", &none)] {
            let before = w.stored().await;
            let a = w
                .post(uri, browser, &with_csrf(fields.clone(), Some(&pre.csrf)))
                .await;
            // Every form sends a browser without a session to log in.
            let to_login =
                a.status == StatusCode::SEE_OTHER && a.location().starts_with("/login?next=");
            if !to_login {
                failures.push(format!(
                    "{uri} with {who}: {} {:?} (wanted 303 to /login)",
                    a.status,
                    a.location()
                ));
            }
            if w.stored().await != before {
                failures.push(format!("BUG: {uri} with {who} stored something"));
            }
        }
    }
    // Logging out without a session has nothing to end: home, nothing
    // stored.
    let before = w.stored().await;
    let a = w.post("/logout", &none, &[]).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    assert_eq!(a.location(), "/");
    assert_eq!(w.stored().await, before);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn a_desk_form_refuses_a_player_as_the_api_does() {
    // The same forms, with a player's own session and token: the role
    // check refuses them (403) and nothing is stored.
    let w = world().await;
    let player = w.session("pat").await;
    let mut failures = Vec::new();
    for id in [LADDER, LEAGUE, CHALLENGERS, SUNJANG] {
        let fields = with_csrf(act_form(&w, id).await, Some(&player.csrf));
        let before = w.stored().await;
        let a = w.post(&format!("/c/{id}/act"), &player, &fields).await;
        if a.status != StatusCode::FORBIDDEN || !a.text().contains("<h1>Not allowed</h1>") {
            failures.push(format!(
                "BUG: a player's {fields:?} on {id}: {} (wanted 403)",
                a.status
            ));
        }
        if w.stored().await != before {
            failures.push(format!(
                "BUG: a player's {fields:?} on {id} stored something"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- GET changes nothing -----

/// Every page route of the world.
fn pages() -> Vec<String> {
    let mut out: Vec<String> = [
        "/",
        "/login",
        "/login?next=%2Fc%2Fevil-ladder%2Fmanage",
        "/register",
        "/account",
        "/new",
        "/new?format=tws-ladder",
        "/new?format=xmadn-league",
        "/new?format=xmadn-challengers",
        "/new?format=sunjang-league",
        // Hostile text in the address: echoed only escaped.
        "/login?next=%2F%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "/new?format=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    for id in ALL {
        for page in [
            "",
            "/manage",
            "/manage?done=add-player",
            "/manage?done=request-skip-booked",
            "/manage?done=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
            "/history",
        ] {
            out.push(format!("/c/{id}{page}"));
        }
    }
    for page in [
        "/rounds/1".to_string(),
        "/stats".to_string(),
        format!("/players/{}", enc(EVIL_SCRIPT)),
        format!("/players/{}", enc(EVIL_IMG)),
    ] {
        out.push(format!("/c/{LADDER}{page}"));
    }
    out.push(format!("/c/{SUNJANG}/seasons/1"));
    out
}

#[tokio::test]
async fn no_get_changes_anything() {
    let w = world().await;
    let owner = w.session("olga").await;
    let player = w.session("pat").await;
    let before = w.stored().await;
    let versions: Vec<u64> = {
        let mut v = Vec::new();
        for id in ALL {
            v.push(w.version(id).await);
        }
        v
    };
    for (who, browser) in [
        ("the owner", &owner),
        ("a player", &player),
        ("nobody", &Browser::default()),
    ] {
        for uri in pages() {
            let a = w.get(&uri, browser).await;
            // `/new` is for organizers: 403 for a player; no such format:
            // 400.
            let organizers_only = uri.starts_with("/new") && who == "a player";
            let no_format = uri.starts_with("/new?format=%3C") && who == "the owner";
            assert!(
                a.status == StatusCode::OK
                    || a.status == StatusCode::SEE_OTHER
                    || (organizers_only && a.status == StatusCode::FORBIDDEN)
                    || (no_format && a.status == StatusCode::BAD_REQUEST),
                "GET {uri} as {who}: {}",
                a.status
            );
            assert!(
                a.sets_cookie(auth::SESSION_COOKIE).is_none(),
                "GET {uri} as {who} started a session"
            );
        }
    }
    let mut after = Vec::new();
    for id in ALL {
        after.push(w.version(id).await);
    }
    assert_eq!(after, versions, "BUG: a GET changed a competition");
    assert_eq!(w.stored().await, before, "BUG: a GET stored something");
    assert!(w.logged_in(&owner).await && w.logged_in(&player).await);
    // The owner's forms still carry the same token: no GET rotated it.
    let again = w.get(&format!("/c/{LADDER}/manage"), &owner).await.text();
    assert!(again.contains(&owner.csrf));
}

// ----- escaping -----

/// The hostile text shown escaped (askama writes `<` as `&#60;`).
fn shows_escaped(html: &str) -> bool {
    ["&#60;script&#62;", "&lt;script&gt;", "&#60;img", "&lt;img"]
        .iter()
        .any(|e| html.contains(e))
}

/// Both hostile names shown escaped.
fn shows_both_escaped(html: &str) -> bool {
    (html.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
        || html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        && (html.contains("&#60;img src=x onerror=alert(1)&#62;")
            || html.contains("&lt;img src=x onerror=alert(1)&gt;"))
}

/// The hostile text, raw, anywhere in `html`.
fn raw_hostile(html: &str) -> Option<&'static str> {
    [
        EVIL_SCRIPT,
        EVIL_IMG,
        "<script>alert",
        "<img src=x",
        "onerror=alert(1)>",
    ]
    .into_iter()
    .find(|s| html.contains(s))
}

#[tokio::test]
async fn every_page_escapes_user_text() {
    let w = world().await;
    let owner = w.session("olga").await;
    let player = w.session("pat").await;
    let mut failures = Vec::new();
    let mut shown = 0;
    for (who, browser) in [
        ("the owner", &owner),
        ("a player", &player),
        ("nobody", &Browser::default()),
    ] {
        for uri in pages() {
            let a = w.get(&uri, browser).await;
            let html = a.text();
            if let Some(raw) = raw_hostile(&html) {
                failures.push(format!("BUG: GET {uri} as {who} shows {raw:?} unescaped"));
            }
            if shows_escaped(&html) {
                shown += 1;
            }
        }
    }
    // The desks show the hostile names, escaped.
    for id in ALL {
        for (who, browser) in [("the owner", &owner), ("a player", &player)] {
            let html = w.get(&format!("/c/{id}/manage"), browser).await.text();
            assert!(
                shows_both_escaped(&html),
                "{id}'s desk as {who} does not show the hostile names: {html}"
            );
        }
    }
    let account = w.get("/account", &player).await.text();
    assert!(
        shows_escaped(&account),
        "the account page shows its hostile name: {account}"
    );
    // Pages made by forms: a problem naming a hostile player, a close
    // preview of the ladder's round, a Sunjang season's preview.
    let forms: Vec<(&str, Vec<(&'static str, String)>)> = vec![
        (
            LADDER,
            vec![
                ("action", "approve".into()),
                ("player", format!("{EVIL_IMG} {EVIL_SCRIPT}")),
            ],
        ),
        (
            LADDER,
            vec![
                ("action", "close-round".into()),
                ("preview", "true".into()),
                ("early_reason", EVIL_SCRIPT.into()),
            ],
        ),
        (
            SUNJANG,
            vec![
                ("action", "withdraw-player".into()),
                ("player", EVIL_SCRIPT.into()),
                ("reason", String::new()),
            ],
        ),
        (
            SUNJANG2,
            vec![("action", "plan-season".into()), ("preview", "true".into())],
        ),
        (
            LEAGUE,
            vec![
                ("action", "record-result".into()),
                ("a", EVIL_SCRIPT.into()),
                ("b", format!("{EVIL_IMG}!")),
                ("pawns", "4-2".into()),
                ("time", "23:05".into()),
            ],
        ),
    ];
    for (id, fields) in forms {
        let v = w.version(id).await;
        let mut fields = with_csrf(fields, Some(&owner.csrf));
        fields.push(("_version", v.to_string()));
        let a = w.post(&format!("/c/{id}/act"), &owner, &fields).await;
        let html = a.text();
        assert!(
            !a.status.is_server_error(),
            "{id} {fields:?}: {} {html}",
            a.status
        );
        if let Some(raw) = raw_hostile(&html) {
            failures.push(format!(
                "BUG: POST /c/{id}/act {fields:?} shows {raw:?} unescaped"
            ));
        }
        if shows_escaped(&html) {
            shown += 1;
        }
    }
    assert!(
        shown > 20,
        "the hostile text is shown (escaped) on {shown} pages"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- snapshots -----

/// Replace the value of every hidden input `name` by a placeholder.
fn redact(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find(&marker) {
        let start = at + marker.len();
        out.push_str(&rest[..start]);
        let end = rest[start..].find('"').unwrap() + start;
        out.push_str(&format!("[{name}]"));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn the_ladder_desk_as_its_owner_and_as_a_player() {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let service = Service::new(store).with_seeds(SeedSource::Deterministic("test".into()));
    let state = AppState::new(service).with_clock(Clock::Fixed(now()));
    let s = state.service.store();
    auth::create_account(s, now(), "olga", "Olga Owens", None, PASSWORD, true)
        .await
        .unwrap();
    auth::create_account(s, now(), "alice", "Alice Adams", None, PASSWORD, false)
        .await
        .unwrap();
    let w = World {
        app: arbiter_server::app(state.clone()),
        olga_token: auth::create_token(&state, "olga", "setup").await.unwrap(),
        state,
    };
    let olga = w.olga_token.clone();
    w.create(json!({"format": "tws-ladder", "id": "snap", "name": "Snapshot Ladder"}))
        .await;
    for (name, account) in [
        ("Alice Adams", Some("alice")),
        ("Bob Brown", None),
        ("Carol Clark", None),
        ("Dan Dunn", None),
        ("Eve Evans", None),
    ] {
        let mut add = json!({"action": "add-player", "name": name});
        if let Some(a) = account {
            add["account"] = json!(a);
        }
        w.ok("snap", &olga, add).await;
    }
    // The seeded draw pairs the round (and gives the bye).
    w.ok(
        "snap",
        &olga,
        json!({"action": "announce-round", "deadline": "2026-03-16"}),
    )
    .await;
    let alice_token = auth::create_token(&w.state, "alice", "setup")
        .await
        .unwrap();
    let round = w
        .api(Method::GET, "/api/competitions/snap/rounds/1", "", None)
        .await
        .json();
    if let Some(game) = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["ussr"] == "Alice Adams" || g["us"] == "Alice Adams")
    {
        w.ok(
            "snap",
            &alice_token,
            json!({"action": "report-result", "game": game["id"],
                "result": {"winner": "Alice Adams", "ended_by": "final-scoring", "turn": 10}}),
        )
        .await;
    }
    for (name, user) in [("owner", "olga"), ("player", "alice")] {
        let b = w.session(user).await;
        let a = w.get("/c/snap/manage", &b).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        let html = a.text();
        assert!(
            html.contains(&b.csrf),
            "the forms carry the session's token"
        );
        let html = common::stable(&redact(&redact(&html, "_csrf"), "_key"));
        assert!(!html.contains(&b.csrf), "redacted");
        insta::assert_snapshot!(format!("ladder_desk_{name}"), html);
    }
}

/// Issue 14 item 2: the account page lists each token (label, id,
/// created, last used, expiry) with a button that revokes it; the revoked
/// token answers 401, and a token made with an expiry shows it.
#[tokio::test]
async fn the_account_page_lists_tokens_and_revokes_one() {
    let w = world().await;
    let olga = w.session("olga").await;
    // The setup token has been used: its use shows.
    assert_eq!(
        w.api(Method::GET, "/api/me", &w.olga_token, None)
            .await
            .status,
        StatusCode::OK
    );
    let made = w
        .post(
            "/account/tokens",
            &olga,
            &[
                ("_csrf", olga.csrf.clone()),
                ("label", "nightly".into()),
                ("expires_in_days", "7".into()),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.text());
    let page = w.get("/account", &olga).await.text();
    let id = auth::digest(&w.olga_token)[..16].to_string();
    assert!(page.contains(&format!("<code>{id}</code>")), "{page}");
    assert!(
        page.contains("<td>2026-03-02 12:00</td>"),
        "last used: {page}"
    );
    assert!(
        page.contains("<td>2026-03-09 12:00</td>"),
        "the expiry: {page}"
    );
    assert!(
        page.contains(&format!("action=\"/account/tokens/{id}/revoke\"")),
        "{page}"
    );
    // A bad expiry names its field and makes nothing.
    let before = w.stored().await;
    let bad = w
        .post(
            "/account/tokens",
            &olga,
            &[
                ("_csrf", olga.csrf.clone()),
                ("label", "x".into()),
                ("expires_in_days", "soon".into()),
            ],
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text());
    assert!(bad.text().contains("expires_in_days"), "{}", bad.text());
    assert_eq!(w.stored().await, before);

    let revoked = w
        .post(
            &format!("/account/tokens/{id}/revoke"),
            &olga,
            &[("_csrf", olga.csrf.clone())],
        )
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text());
    assert!(
        revoked.text().contains("The token “setup” is revoked"),
        "{}",
        revoked.text()
    );
    assert_eq!(
        w.api(Method::GET, "/api/me", &w.olga_token, None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    // Someone else's token is not found among one's own.
    let pat = w.session("pat").await;
    let nightly = w
        .state
        .service
        .store()
        .tokens_of("olga")
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.label == "nightly")
        .unwrap();
    let other = w
        .post(
            &format!("/account/tokens/{}/revoke", nightly.id()),
            &pat,
            &[("_csrf", pat.csrf.clone())],
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND, "{}", other.text());
    assert_eq!(
        w.state
            .service
            .store()
            .tokens_of("olga")
            .await
            .unwrap()
            .len(),
        1
    );
}
