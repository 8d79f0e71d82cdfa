//! The ladder of `tests/roles.rs` and `tests/write_api.rs`, built over
//! HTTP: `olga` (organizer) creates it and owns it; `mona` and `pete` are
//! made moderators with `add-moderator`; `pete` also plays. Round 1 is
//! announced with set pairings: game X is Alice Adams (`alice`) v. Bob Brown
//! (`bob`), game Y is Carol Clark (`carol`) v. Dan Dunn (no account), game M
//! is Pete Moder (`pete`) v. Eve Evans (no account). Alice has reported X
//! and Pete has reported M (both awaiting confirmation); Zed Zane (`zed`)
//! has applied to join. `otto` has an account and no role.

use std::collections::HashMap;

use arbiter_server::auth::AuthConfig;
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use super::{Answer, As, accounts_with_tokens, etag, now, send};

pub const LADDER: &str = "test-ladder";

/// (username, name shown, organizer)
pub const ACCOUNTS: &[(&str, &str, bool)] = &[
    ("olga", "Olga Owens", true),
    ("mona", "Mona Mills", false),
    ("pete", "Pete Moder", false),
    ("alice", "Alice Adams", false),
    ("bob", "Bob Brown", false),
    ("carol", "Carol Clark", false),
    ("otto", "Otto Outis", false),
    ("zed", "Zed Zane", false),
];

pub struct World {
    pub app: Router,
    /// The server's state, for tests that reach the store directly.
    pub state: AppState,
    pub tokens: HashMap<&'static str, String>,
    /// Game ids (`G1`) of games X, Y and M.
    pub x: String,
    pub y: String,
    pub m: String,
}

impl World {
    pub async fn new() -> World {
        World::with_auth(AuthConfig::default()).await
    }

    pub async fn with_auth(config: AuthConfig) -> World {
        let store = SqliteStore::open_in_memory().await.unwrap();
        let state = AppState::new(Service::new(store))
            .with_clock(Clock::Fixed(now()))
            .with_auth(config);
        let tokens = accounts_with_tokens(&state, ACCOUNTS).await;
        let app = arbiter_server::app(state.clone());
        let mut world = World {
            app,
            state,
            tokens,
            x: String::new(),
            y: String::new(),
            m: String::new(),
        };
        let olga = world.tokens["olga"].clone();
        let created = send(
            &world.app,
            Method::POST,
            "/api/competitions",
            As::Token(&olga),
            &[],
            Some(&json!({"format": "tws-ladder", "id": LADDER, "name": "Test Ladder"})),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let setup = [
            json!({"action": "add-moderator", "username": "mona"}),
            json!({"action": "add-moderator", "username": "pete"}),
            json!({"action": "add-player", "name": "Alice Adams", "account": "alice"}),
            json!({"action": "add-player", "name": "Bob Brown", "account": "bob"}),
            json!({"action": "add-player", "name": "Carol Clark", "account": "carol"}),
            json!({"action": "add-player", "name": "Dan Dunn"}),
            json!({"action": "add-player", "name": "Pete Moder", "account": "pete"}),
            json!({"action": "add-player", "name": "Eve Evans"}),
            json!({"action": "announce-round", "reason": "pairings set for the tests",
            "pairs": [
                {"a": "Alice Adams", "b": "Bob Brown"},
                {"a": "Carol Clark", "b": "Dan Dunn"},
                {"a": "Pete Moder", "b": "Eve Evans"},
            ]}),
        ];
        for body in &setup {
            world.act_ok(As::Token(&olga), body).await;
        }
        let zed = world.tokens["zed"].clone();
        world
            .act_ok(As::Token(&zed), &json!({"action": "join"}))
            .await;
        let round = send(
            &world.app,
            Method::GET,
            &format!("/api/competitions/{LADDER}/rounds/1"),
            As::Nobody,
            &[],
            None,
        )
        .await
        .json();
        let game_of = |name: &str| -> String {
            round["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["ussr"] == name || g["us"] == name)
                .unwrap_or_else(|| panic!("{name} has no game: {round}"))["id"]
                .as_str()
                .unwrap()
                .to_string()
        };
        world.x = game_of("Alice Adams");
        world.y = game_of("Carol Clark");
        world.m = game_of("Pete Moder");
        let alice = world.tokens["alice"].clone();
        let pete = world.tokens["pete"].clone();
        let x = world.x.clone();
        let m = world.m.clone();
        world
            .act_ok(
                As::Token(&alice),
                &json!({"action": "report-result", "game": x, "result": result("Alice Adams")}),
            )
            .await;
        world
            .act_ok(
                As::Token(&pete),
                &json!({"action": "report-result", "game": m, "result": result("Pete Moder")}),
            )
            .await;
        world
    }

    pub fn token(&self, username: &str) -> &str {
        &self.tokens[username]
    }

    /// The ladder's version, from its `ETag`.
    pub async fn version(&self) -> String {
        etag(&self.app, LADDER).await
    }

    /// An action with the current version as `If-Match`.
    pub async fn act(&self, who: As<'_>, body: &Value) -> Answer {
        let version = self.version().await;
        send(
            &self.app,
            Method::POST,
            &format!("/api/competitions/{LADDER}/actions"),
            who,
            &[("if-match", version)],
            Some(body),
        )
        .await
    }

    pub async fn act_ok(&self, who: As<'_>, body: &Value) -> Value {
        let a = self.act(who, body).await;
        assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
        a.json()
    }
}

/// A plausible result won by `winner` (final scoring on turn 10).
pub fn result(winner: &str) -> Value {
    json!({"winner": winner, "ended_by": "final-scoring", "turn": 10})
}
