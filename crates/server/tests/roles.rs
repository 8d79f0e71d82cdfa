//! Who may do what: every write of the API (each `LadderAction`, creating a
//! competition, making an API token, making, listing, revoking and reading
//! calendar feeds) sent as each role on a ladder built over
//! HTTP, against a matrix of expectations. A role that may not is refused
//! with 401 (nobody logged in) or 403 (anyone else) and nothing is stored
//! (the competition's `ETag` is unchanged); a role that may is not refused
//! with 401/403 (the rules may still refuse it: 400/422 is fine).
//!
//! The ladder: `olga` (organizer) creates it and owns it; `mona` and `pete`
//! are made moderators with `add-moderator`; `pete` also plays. Round 1 is
//! announced with set pairings: game X is Alice Adams (`alice`) v. Bob Brown
//! (`bob`), game Y is Carol Clark (`carol`) v. Dan Dunn (no account), game M
//! is Pete Moder (`pete`) v. Eve Evans (no account). Alice has reported X
//! and Pete has reported M (both awaiting confirmation); Zed Zane (`zed`)
//! has applied to join. `otto` has an account and no role.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::auth;
use axum::Router;
use axum::http::{Method, StatusCode, header};
use common::ladder::{LADDER, World, result};
use common::{Answer, As, PASSWORD, send};
use serde_json::{Value, json};

// ----- the world -----

/// The roles of the matrix, in its column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// No account at all.
    Public,
    /// An account with no role in the ladder.
    Outsider,
    /// Alice Adams, of game X (she reported it).
    PlayerA,
    /// Bob Brown, her opponent in game X.
    PlayerB,
    /// Carol Clark, of game Y.
    PlayerC,
    /// Pete Moder: a moderator who plays game M (he reported it).
    PlayingMod,
    /// Mona Mills: a moderator added by the owner.
    Moderator,
    Owner,
}

const ROLES: [Role; 8] = [
    Role::Public,
    Role::Outsider,
    Role::PlayerA,
    Role::PlayerB,
    Role::PlayerC,
    Role::PlayingMod,
    Role::Moderator,
    Role::Owner,
];

impl Role {
    fn username(self) -> Option<&'static str> {
        match self {
            Role::Public => None,
            Role::Outsider => Some("otto"),
            Role::PlayerA => Some("alice"),
            Role::PlayerB => Some("bob"),
            Role::PlayerC => Some("carol"),
            Role::PlayingMod => Some("pete"),
            Role::Moderator => Some("mona"),
            Role::Owner => Some("olga"),
        }
    }
}

impl World {
    fn who(&self, role: Role) -> As<'_> {
        match role.username() {
            None => As::Nobody,
            Some(u) => As::Token(self.token(u)),
        }
    }

    /// Send `act` as `who`.
    async fn attempt(&self, act: Act, role: Role, who: As<'_>) -> Answer {
        match act {
            Act::CreateCompetition => {
                let id = format!("other-{}", role.username().unwrap_or("public"));
                send(
                    &self.app,
                    Method::POST,
                    "/api/competitions",
                    who,
                    &[],
                    Some(&json!({"format": "tws-ladder", "id": id, "name": "Another"})),
                )
                .await
            }
            Act::CreateToken => {
                send(
                    &self.app,
                    Method::POST,
                    "/api/tokens",
                    who,
                    &[],
                    Some(&json!({"label": "matrix"})),
                )
                .await
            }
            // Revoke a token or feed made for the purpose (the role's own
            // token must serve the rest of the row): its id, or none when
            // the caller may not make one.
            Act::RevokeToken => self.made_and_revoked(who, "/api/tokens").await,
            Act::RevokeFeed => self.made_and_revoked(who, "/api/calendars").await,
            Act::CreateFeed => {
                send(
                    &self.app,
                    Method::POST,
                    "/api/calendars",
                    who,
                    &[],
                    Some(&json!({"label": "matrix"})),
                )
                .await
            }
            Act::ListFeeds => send(&self.app, Method::GET, "/api/calendars", who, &[], None).await,
            Act::CreateLadderFeed => {
                send(
                    &self.app,
                    Method::POST,
                    &format!("/api/competitions/{LADDER}/calendars"),
                    who,
                    &[],
                    Some(&json!({"label": "matrix"})),
                )
                .await
            }
            Act::ListLadderFeeds => {
                send(
                    &self.app,
                    Method::GET,
                    &format!("/api/competitions/{LADDER}/calendars"),
                    who,
                    &[],
                    None,
                )
                .await
            }
            Act::Search => {
                // `GET /search` (issue 17 §1): public, changes nothing.
                send(&self.app, Method::GET, "/search?q=alice", who, &[], None).await
            }
            Act::ApiDocs => {
                // `GET /docs/api` (issue 17 §3): public, changes nothing.
                let a = send(&self.app, Method::GET, "/docs/api", who, &[], None).await;
                assert_eq!(a.status, StatusCode::OK, "/docs/api: {}", a.text());
                a
            }
            Act::PlayerPage => {
                // A player's page (issue 17 §1): public, changes nothing.
                let path = format!("/c/{LADDER}/players/Alice%20Adams");
                let a = send(&self.app, Method::GET, &path, who, &[], None).await;
                assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
                a
            }
            Act::PlayersIndex => {
                // The players index and its filter: public, changes nothing.
                let path = format!("/c/{LADDER}/players?q=alice");
                let a = send(&self.app, Method::GET, &path, who, &[], None).await;
                assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
                assert!(
                    a.text()
                        .contains(&format!("href=\"/c/{LADDER}/players/Alice%20Adams\"")),
                    "{path}: {}",
                    a.text()
                );
                a
            }
            Act::RevokeLadderFeed | Act::FetchLadderFeed => {
                // A feed of the ladder made by its owner for the purpose.
                let made = self.ladder_feed().await;
                let id = made["id"].as_str().unwrap().to_string();
                if act == Act::FetchLadderFeed {
                    let url = made["url"].as_str().unwrap();
                    let path = &url[url.find("/calendar/").unwrap()..];
                    return send(&self.app, Method::GET, path, who, &[], None).await;
                }
                send(
                    &self.app,
                    Method::DELETE,
                    &format!("/api/competitions/{LADDER}/calendars/{id}"),
                    who,
                    &[],
                    None,
                )
                .await
            }
            Act::Exports => {
                // The CSV downloads and the forum post (issue 17 §2): public
                // reads, like the pages they come from.
                let mut last = None;
                for path in ["standings.csv", "results.csv", "forum.txt?markup=markdown"] {
                    let a = send(
                        &self.app,
                        Method::GET,
                        &format!("/c/{LADDER}/{path}"),
                        who,
                        &[],
                        None,
                    )
                    .await;
                    assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
                    last = Some(a);
                }
                last.unwrap()
            }
            Act::WebhooksPage | Act::RulesPage | Act::RegisterWebhook | Act::DisableWebhook => {
                self.webhooks(act, who).await
            }
            Act::TimeZonePage | Act::SetTimeZone => self.time_zone(act, who).await,
            Act::ApiTimeZone => {
                // `GET /api/competitions/{id}/time-zone`: a public read.
                let path = format!("/api/competitions/{LADDER}/time-zone");
                let a = send(&self.app, Method::GET, &path, who, &[], None).await;
                assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
                a
            }
            Act::ApiSetTimeZone => {
                // `PUT /api/competitions/{id}/time-zone`: a refused one
                // leaves the zone as it was.
                let before = self.state.service.time_zone(LADDER).await.unwrap();
                let a = send(
                    &self.app,
                    Method::PUT,
                    &format!("/api/competitions/{LADDER}/time-zone"),
                    who,
                    &[],
                    Some(&json!({"time_zone": "Asia/Tokyo"})),
                )
                .await;
                let refused =
                    a.status == StatusCode::UNAUTHORIZED || a.status == StatusCode::FORBIDDEN;
                if refused && self.state.service.time_zone(LADDER).await.unwrap() != before {
                    return Answer {
                        status: StatusCode::INTERNAL_SERVER_ERROR,
                        body: b"refused, but the time zone changed".to_vec(),
                        ..a
                    };
                }
                a
            }
            Act::ImportResults => {
                // Game Y (Carol Clark v. Dan Dunn) from a results file
                // (issue 18 §2), at the ladder's version.
                let version = self.version().await;
                let csv = format!("game,result,by\n{},Carol Clark,vp\n", self.y);
                common::send_raw(
                    &self.app,
                    Method::POST,
                    &format!("/api/competitions/{LADDER}/results/import"),
                    who,
                    &[("if-match", version), ("content-type", "text/csv".into())],
                    csv.into_bytes(),
                )
                .await
            }
            _ => self.act(who, &act.body(self)).await,
        }
    }

    /// Make one of `who`'s own tokens or feeds at `collection`, then
    /// revoke it by its id (`0000000000000000` when none was made).
    async fn made_and_revoked(&self, who: As<'_>, collection: &str) -> Answer {
        let made = send(
            &self.app,
            Method::POST,
            collection,
            who,
            &[],
            Some(&json!({"label": "to revoke"})),
        )
        .await;
        let id = made.json()["id"]
            .as_str()
            .unwrap_or("0000000000000000")
            .to_string();
        send(
            &self.app,
            Method::DELETE,
            &format!("{collection}/{id}"),
            who,
            &[],
            None,
        )
        .await
    }

    /// The webhooks page and its forms (issue 18 §3): the page, a
    /// registration, and the disabling of a webhook the owner registered
    /// for the purpose. A visitor without an account is sent to log in
    /// (303 to `/login`), which the matrix reads as 401. A refused form
    /// must leave the webhooks as they were (a 500 here says otherwise).
    async fn webhooks(&self, act: Act, who: As<'_>) -> Answer {
        use arbiter_store::WebhookStore;
        let store = self.state.service.store();
        let csrf = match who {
            As::Cookie(_, csrf) => csrf.to_string(),
            _ => String::new(),
        };
        let hooks = || async { store.webhooks(LADDER).await.unwrap() };
        let (path, body) = match act {
            Act::WebhooksPage | Act::RulesPage => {
                let page = if act == Act::RulesPage {
                    "rules"
                } else {
                    "webhooks"
                };
                let a = send(
                    &self.app,
                    Method::GET,
                    &format!("/c/{LADDER}/{page}"),
                    who,
                    &[],
                    None,
                )
                .await;
                return login_as_401(a);
            }
            Act::RegisterWebhook => (
                format!("/c/{LADDER}/webhooks"),
                common::form_body(&[
                    ("kind", "generic"),
                    ("url", "https://example.org/hook"),
                    ("label", "matrix"),
                    ("_csrf", &csrf),
                ]),
            ),
            _ => {
                let id: String = auth::random_token().unwrap().chars().take(16).collect();
                store
                    .add_webhook(&arbiter_store::Webhook {
                        id: id.clone(),
                        competition: LADDER.to_string(),
                        kind: arbiter_store::WebhookKind::Discord,
                        url: "https://example.org/discord".to_string(),
                        secret: String::new(),
                        label: "to disable".to_string(),
                        created_by: "olga".to_string(),
                        created_at: "2026-03-02T12:00:00Z".to_string(),
                        disabled: None,
                        failures: 0,
                    })
                    .await
                    .unwrap();
                (
                    format!("/c/{LADDER}/webhooks/{id}/disable"),
                    common::form_body(&[("_csrf", &csrf)]),
                )
            }
        };
        let before = hooks().await;
        let a = common::send_raw(
            &self.app,
            Method::POST,
            &path,
            who,
            &[("content-type", "application/x-www-form-urlencoded".into())],
            body.into_bytes(),
        )
        .await;
        let refused = a.status == StatusCode::UNAUTHORIZED || a.status == StatusCode::FORBIDDEN;
        if refused && hooks().await != before {
            return Answer {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: b"refused, but the webhooks changed".to_vec(),
                ..a
            };
        }
        a
    }

    /// The time zone page and its form (issue 17 §3, ARB-R82): a visitor
    /// without an account is sent to log in (303 to `/login`), read as
    /// 401. A refused form must leave the zone as it was.
    async fn time_zone(&self, act: Act, who: As<'_>) -> Answer {
        let path = format!("/c/{LADDER}/time-zone");
        if act == Act::TimeZonePage {
            return login_as_401(send(&self.app, Method::GET, &path, who, &[], None).await);
        }
        let csrf = match who {
            As::Cookie(_, csrf) => csrf.to_string(),
            _ => String::new(),
        };
        let zone = || async { self.state.service.time_zone(LADDER).await.unwrap() };
        let before = zone().await;
        let a = common::send_raw(
            &self.app,
            Method::POST,
            &path,
            who,
            &[("content-type", "application/x-www-form-urlencoded".into())],
            common::form_body(&[("time_zone", "Europe/Berlin"), ("_csrf", &csrf)]).into_bytes(),
        )
        .await;
        let refused = a.status == StatusCode::UNAUTHORIZED || a.status == StatusCode::FORBIDDEN;
        if refused && zone().await != before {
            return Answer {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: b"refused, but the time zone changed".to_vec(),
                ..a
            };
        }
        a
    }

    /// A calendar feed of the ladder, made by its owner: `{url, id, label}`.
    async fn ladder_feed(&self) -> Value {
        let made = send(
            &self.app,
            Method::POST,
            &format!("/api/competitions/{LADDER}/calendars"),
            As::Token(self.token("olga")),
            &[],
            Some(&json!({"label": "the owner's"})),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        made.json()
    }
}

// ----- the matrix -----

/// Every write, with the game or player it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    CreateCompetition,
    CreateToken,
    /// `DELETE /api/tokens/{id}` of a token of one's own (issue 14 item 2).
    RevokeToken,
    /// Calendar feeds (issue 18 §4): one's own (`/api/calendars`) ...
    CreateFeed,
    ListFeeds,
    RevokeFeed,
    /// ... the ladder's (`/api/competitions/{id}/calendars`) ...
    CreateLadderFeed,
    ListLadderFeeds,
    RevokeLadderFeed,
    /// ... and `GET /calendar/{token}.ics` of a feed its owner made: the
    /// token is the key, whoever holds it.
    FetchLadderFeed,
    /// `GET /search?q=…` (issue 17 §1): a read anyone may make; listed so
    /// that every route added by issue 17 is in the matrix.
    Search,
    /// `GET /docs/api` (issue 17 §3): the API's reference, a read anyone
    /// may make.
    ApiDocs,
    /// `GET /c/{id}/rules` (issue 17 §2): the ladder's rules as named
    /// settings, its owner's (the desk's change-rules saves them).
    RulesPage,
    /// `POST /api/competitions/{id}/results/import` of game Y's result
    /// (issue 18 §2): the moderators who play no game here, and the owner.
    ImportResults,
    /// `GET /c/{id}/webhooks`, `POST /c/{id}/webhooks` (a generic webhook)
    /// and `POST /c/{id}/webhooks/{hook}/disable` (issue 18 §3): the owner
    /// and moderators.
    WebhooksPage,
    RegisterWebhook,
    DisableWebhook,
    /// `GET /c/{id}/time-zone` and `POST /c/{id}/time-zone` (issue 17 §3,
    /// ARB-R82): the owner and moderators.
    TimeZonePage,
    SetTimeZone,
    /// `GET /api/competitions/{id}/time-zone` (public) and `PUT` (the
    /// owner and moderators), ARB-R82.
    ApiTimeZone,
    ApiSetTimeZone,
    /// `GET /c/{id}/standings.csv`, `results.csv` and `forum.txt` (issue
    /// 17 §2): public reads.
    Exports,
    /// `GET /c/{id}/players/{player}` (issue 17 §1; the ladder's by name,
    /// every format's through `WebFormat::player_page`): a public read.
    PlayerPage,
    /// `GET /c/{id}/players` (every format's players, each linked to his
    /// page, through `WebFormat::player_index`), with its `?q=` filter: a
    /// public read.
    PlayersIndex,
    Join,
    AddPlayer,
    Approve,
    Decline,
    /// Withdraw Alice Adams.
    WithdrawA,
    /// Link Dan Dunn (no account) to `otto`; unlink Carol Clark (ARB-R50).
    LinkDan,
    UnlinkCarol,
    AddModerator,
    RemoveModerator,
    ChangeRules,
    AnnounceRound,
    AnnouncePreview,
    CloseRound,
    ClosePreview,
    /// The same action on game X (Alice v. Bob) and on game M (Pete's own).
    RecordX,
    RecordM,
    ReportX,
    ReportY,
    ReportM,
    ConfirmX,
    ConfirmM,
    RejectX,
    RejectM,
    ForfeitX,
    ForfeitM,
    AdjudicateX,
    AdjudicateM,
    CorrectX,
    CorrectM,
    CancelX,
    CancelM,
    /// Request or cancel a skip for Alice Adams by name.
    SkipA,
    CancelSkipA,
    /// Request or cancel a skip for oneself (no player named).
    SkipSelf,
    CancelSkipSelf,
}

impl Act {
    fn body(self, w: &World) -> Value {
        let (x, m) = (w.x.as_str(), w.m.as_str());
        let rules = arbiter_record::preset("tws-ladder").unwrap();
        let adjudicate = |g: &str, winner: &str| {
            json!({"action": "adjudicate", "game": g, "winner": winner, "turn": 7,
                "final_state": "turn 7, USSR to move", "decision": "the moderator's decision"})
        };
        match self {
            Act::CreateCompetition
            | Act::CreateToken
            | Act::RevokeToken
            | Act::CreateFeed
            | Act::ListFeeds
            | Act::RevokeFeed
            | Act::CreateLadderFeed
            | Act::ListLadderFeeds
            | Act::RevokeLadderFeed
            | Act::FetchLadderFeed
            | Act::ImportResults
            | Act::WebhooksPage
            | Act::TimeZonePage
            | Act::SetTimeZone
            | Act::ApiTimeZone
            | Act::ApiSetTimeZone
            | Act::RegisterWebhook
            | Act::DisableWebhook
            | Act::Exports
            | Act::PlayerPage
            | Act::PlayersIndex
            | Act::ApiDocs
            | Act::RulesPage
            | Act::Search => unreachable!("not a ladder action"),
            Act::Join => json!({"action": "join"}),
            Act::AddPlayer => json!({"action": "add-player", "name": "Nina Newman"}),
            Act::Approve => json!({"action": "approve", "player": "Zed Zane"}),
            Act::Decline => json!({"action": "decline", "player": "Zed Zane", "reason": "full"}),
            Act::LinkDan => {
                json!({"action": "link-account", "player": "Dan Dunn", "account": "otto"})
            }
            Act::UnlinkCarol => json!({"action": "unlink-account", "player": "Carol Clark"}),
            Act::WithdrawA => {
                json!({"action": "withdraw", "player": "Alice Adams", "reason": "no time"})
            }
            Act::AddModerator => json!({"action": "add-moderator", "username": "otto"}),
            Act::RemoveModerator => json!({"action": "remove-moderator", "username": "mona"}),
            Act::ChangeRules => {
                json!({"action": "change-rules", "rules": rules, "reason": "the same rules"})
            }
            Act::AnnounceRound => json!({"action": "announce-round"}),
            Act::AnnouncePreview => json!({"action": "announce-round", "preview": true}),
            Act::CloseRound => json!({"action": "close-round"}),
            Act::ClosePreview => json!({"action": "close-round", "preview": true}),
            Act::RecordX => {
                json!({"action": "record-result", "game": x, "result": result("Bob Brown")})
            }
            Act::RecordM => {
                json!({"action": "record-result", "game": m, "result": result("Pete Moder")})
            }
            Act::ReportX => {
                json!({"action": "report-result", "game": x, "result": result("Bob Brown")})
            }
            Act::ReportY => {
                json!({"action": "report-result", "game": w.y, "result": result("Carol Clark")})
            }
            Act::ReportM => {
                json!({"action": "report-result", "game": m, "result": result("Eve Evans")})
            }
            Act::ConfirmX => json!({"action": "confirm-result", "game": x}),
            Act::ConfirmM => json!({"action": "confirm-result", "game": m}),
            Act::RejectX => json!({"action": "reject-report", "game": x, "reason": "not so"}),
            Act::RejectM => json!({"action": "reject-report", "game": m, "reason": "not so"}),
            Act::ForfeitX => json!({"action": "forfeit", "game": x, "absent": "Alice Adams"}),
            Act::ForfeitM => json!({"action": "forfeit", "game": m, "absent": "Eve Evans"}),
            Act::AdjudicateX => adjudicate(x, "Bob Brown"),
            Act::AdjudicateM => adjudicate(m, "Pete Moder"),
            Act::CorrectX => {
                json!({"action": "correct-result", "game": x, "result": result("Bob Brown"), "reason": "typo"})
            }
            Act::CorrectM => {
                json!({"action": "correct-result", "game": m, "result": result("Pete Moder"), "reason": "typo"})
            }
            Act::CancelX => json!({"action": "cancel-game", "game": x, "reason": "no show"}),
            Act::CancelM => json!({"action": "cancel-game", "game": m, "reason": "no show"}),
            Act::SkipA => json!({"action": "request-skip", "player": "Alice Adams"}),
            Act::CancelSkipA => json!({"action": "cancel-skip", "player": "Alice Adams"}),
            Act::SkipSelf => json!({"action": "request-skip"}),
            Act::CancelSkipSelf => json!({"action": "cancel-skip"}),
        }
    }
}

/// What a role may expect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum E {
    /// Allowed: not refused with 401/403 (the rules may still refuse it).
    Y,
    /// Not this role's to do: 401 without an account, 403 with one; nothing
    /// stored.
    N,
    /// Allowed by the role, refused by the rules (400/422); nothing stored.
    R,
}
use E::{N, R, Y};

/// Columns: Public, Outsider, PlayerA, PlayerB, PlayerC, PlayingMod,
/// Moderator, Owner (see [`ROLES`]).
#[rustfmt::skip]
const MATRIX: &[(Act, [E; 8])] = &[
    //                         Pub Out  A  B  C  PM Mod Own
    (Act::CreateCompetition,  [N, N,   N, N, N, N, N,  Y]), // organizers only
    (Act::CreateToken,        [N, Y,   Y, Y, Y, Y, Y,  Y]),
    (Act::RevokeToken,        [N, Y,   Y, Y, Y, Y, Y,  Y]), // one's own tokens
    (Act::CreateFeed,         [N, Y,   Y, Y, Y, Y, Y,  Y]), // one's own calendar
    (Act::ListFeeds,          [N, Y,   Y, Y, Y, Y, Y,  Y]),
    (Act::RevokeFeed,         [N, Y,   Y, Y, Y, Y, Y,  Y]),
    (Act::CreateLadderFeed,   [N, N,   N, N, N, Y, Y,  Y]), // the owner and moderators
    (Act::ListLadderFeeds,    [N, N,   N, N, N, Y, Y,  Y]),
    (Act::RevokeLadderFeed,   [N, N,   N, N, N, Y, Y,  Y]),
    (Act::FetchLadderFeed,    [Y, Y,   Y, Y, Y, Y, Y,  Y]), // whoever holds the URL
    (Act::Search,             [Y, Y,   Y, Y, Y, Y, Y,  Y]), // a public read
    (Act::ApiDocs,            [Y, Y,   Y, Y, Y, Y, Y,  Y]), // a public read
    (Act::RulesPage,          [N, N,   N, N, N, N, N,  Y]), // the owner, as change-rules
    (Act::ImportResults,      [N, N,   N, N, N, N, Y,  Y]), // a file may hold any game: not a playing moderator
    (Act::Exports,            [Y, Y,   Y, Y, Y, Y, Y,  Y]), // public reads
    (Act::PlayerPage,         [Y, Y,   Y, Y, Y, Y, Y,  Y]), // a public read
    (Act::PlayersIndex,       [Y, Y,   Y, Y, Y, Y, Y,  Y]), // a public read
    (Act::WebhooksPage,       [N, N,   N, N, N, Y, Y,  Y]), // the owner and moderators
    (Act::RegisterWebhook,    [N, N,   N, N, N, Y, Y,  Y]),
    (Act::DisableWebhook,     [N, N,   N, N, N, Y, Y,  Y]),
    (Act::TimeZonePage,       [N, N,   N, N, N, Y, Y,  Y]), // the owner and moderators (ARB-R82)
    (Act::SetTimeZone,        [N, N,   N, N, N, Y, Y,  Y]),
    (Act::ApiTimeZone,        [Y, Y,   Y, Y, Y, Y, Y,  Y]), // a public read
    (Act::ApiSetTimeZone,     [N, N,   N, N, N, Y, Y,  Y]),
    (Act::Join,               [N, Y,   Y, Y, Y, Y, Y,  Y]),
    (Act::AddPlayer,          [N, N,   N, N, N, Y, Y,  Y]),
    (Act::Approve,            [N, N,   N, N, N, Y, Y,  Y]),
    (Act::Decline,            [N, N,   N, N, N, Y, Y,  Y]),
    (Act::WithdrawA,          [N, N,   Y, N, N, Y, Y,  Y]), // a player withdraws only himself
    (Act::LinkDan,            [N, N,   N, N, N, Y, Y,  Y]), // ARB-R50: moderators link
    (Act::UnlinkCarol,        [N, N,   N, N, N, Y, Y,  Y]),
    (Act::AddModerator,       [N, N,   N, N, N, N, N,  Y]), // the owner alone
    (Act::RemoveModerator,    [N, N,   N, N, N, N, N,  Y]),
    (Act::ChangeRules,        [N, N,   N, N, N, N, N,  Y]),
    (Act::AnnounceRound,      [N, N,   N, N, N, Y, Y,  Y]),
    (Act::AnnouncePreview,    [N, N,   N, N, N, Y, Y,  Y]),
    (Act::CloseRound,         [N, N,   N, N, N, Y, Y,  Y]),
    (Act::ClosePreview,       [N, N,   N, N, N, Y, Y,  Y]),
    (Act::RecordX,            [N, N,   N, N, N, Y, Y,  Y]),
    (Act::RecordM,            [N, N,   N, N, N, N, Y,  Y]), // nobody moderates his own game
    (Act::ReportX,            [N, N,   Y, Y, N, N, N,  N]), // the game's players only
    (Act::ReportY,            [N, N,   N, N, Y, N, N,  N]),
    (Act::ReportM,            [N, N,   N, N, N, Y, N,  N]),
    (Act::ConfirmX,           [N, N,   R, Y, N, Y, Y,  Y]), // Alice reported X
    (Act::ConfirmM,           [N, N,   N, N, N, R, Y,  Y]), // Pete reported M
    (Act::RejectX,            [N, N,   R, Y, N, Y, Y,  Y]),
    (Act::RejectM,            [N, N,   N, N, N, R, Y,  Y]),
    (Act::ForfeitX,           [N, N,   N, N, N, Y, Y,  Y]),
    (Act::ForfeitM,           [N, N,   N, N, N, N, Y,  Y]),
    (Act::AdjudicateX,        [N, N,   N, N, N, Y, Y,  Y]),
    (Act::AdjudicateM,        [N, N,   N, N, N, N, Y,  Y]),
    (Act::CorrectX,           [N, N,   N, N, N, Y, Y,  Y]),
    (Act::CorrectM,           [N, N,   N, N, N, N, Y,  Y]),
    (Act::CancelX,            [N, N,   N, N, N, Y, Y,  Y]),
    (Act::CancelM,            [N, N,   N, N, N, N, Y,  Y]),
    (Act::SkipA,              [N, N,   Y, N, N, Y, Y,  Y]), // nobody skips someone else
    (Act::CancelSkipA,        [N, N,   Y, N, N, Y, Y,  Y]),
    // Without a player named, a moderator who does not play has nobody to
    // skip: 403 "you do not play in this competition".
    (Act::SkipSelf,           [N, N,   Y, Y, Y, Y, N,  N]),
    (Act::CancelSkipSelf,     [N, N,   Y, Y, Y, Y, N,  N]),
];

/// Check one cell; `Err` says what went wrong. `changed` tells whether
/// something was stored (the world must then be built again).
async fn check_cell(
    w: &World,
    act: Act,
    role: Role,
    expect: E,
    who: As<'_>,
) -> (bool, Result<(), String>) {
    let before = w.version().await;
    let answer = w.attempt(act, role, who).await;
    let after = w.version().await;
    let changed = before != after;
    let status = answer.status;
    let what = format!(
        "{act:?} as {role:?} (expected {expect:?}): {status} {}",
        answer.text()
    );
    let refused_for_role = status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN;
    let outcome = match expect {
        Y if refused_for_role => Err(format!("refused a role that may: {what}")),
        Y => Ok(()),
        N => {
            let want = if role == Role::Public {
                StatusCode::UNAUTHORIZED
            } else {
                StatusCode::FORBIDDEN
            };
            if status != want {
                Err(format!("wanted {want}: {what}"))
            } else if changed {
                Err(format!(
                    "refused but stored something ({before} -> {after}): {what}"
                ))
            } else if act == Act::CreateCompetition {
                let id = format!("other-{}", role.username().unwrap_or("public"));
                let got = send(
                    &w.app,
                    Method::GET,
                    &format!("/api/competitions/{id}"),
                    As::Nobody,
                    &[],
                    None,
                )
                .await;
                if got.status == StatusCode::NOT_FOUND {
                    Ok(())
                } else {
                    Err(format!("refused but {id} exists: {what}"))
                }
            } else {
                Ok(())
            }
        }
        R => {
            if !(status == StatusCode::BAD_REQUEST || status == StatusCode::UNPROCESSABLE_ENTITY) {
                Err(format!("wanted 400/422: {what}"))
            } else if changed {
                Err(format!(
                    "refused but stored something ({before} -> {after}): {what}"
                ))
            } else {
                Ok(())
            }
        }
    };
    (changed, outcome)
}

/// One row of the matrix, on worlds of its own.
async fn check_row(act: Act, row: [E; 8]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut world = World::new().await;
    for (role, expect) in ROLES.into_iter().zip(row) {
        let (changed, outcome) = check_cell(&world, act, role, expect, world.who(role)).await;
        if let Err(e) = outcome {
            failures.push(e);
        }
        if changed {
            world = World::new().await;
        }
    }
    failures
}

#[test]
fn every_write_is_refused_to_the_roles_that_may_not_and_only_to_them() {
    // Every action is listed: the matrix has a row for each.
    assert_eq!(MATRIX.len(), 59);
    // Rows run in parallel, each on a runtime of its own.
    let failures: Vec<String> = std::thread::scope(|s| {
        let rows: Vec<_> = MATRIX
            .iter()
            .map(|&(act, row)| {
                s.spawn(move || {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap()
                        .block_on(check_row(act, row))
                })
            })
            .collect();
        rows.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n{}",
        failures.len(),
        MATRIX.len() * ROLES.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_matrix_covers_every_ladder_action() {
    let doc =
        serde_json::to_value(<arbiter_server::api::ApiDoc as utoipa::OpenApi>::openapi()).unwrap();
    let mut documented: Vec<String> = doc["components"]["schemas"]["LadderAction"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| {
            v["properties"]["action"]["enum"]
                .as_array()
                .unwrap()
                .clone()
        })
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    documented.sort();
    let world = World::new().await;
    let mut covered: Vec<String> = MATRIX
        .iter()
        .filter(|(act, _)| {
            !matches!(
                act,
                Act::CreateCompetition
                    | Act::CreateToken
                    | Act::RevokeToken
                    | Act::CreateFeed
                    | Act::ListFeeds
                    | Act::RevokeFeed
                    | Act::CreateLadderFeed
                    | Act::ListLadderFeeds
                    | Act::RevokeLadderFeed
                    | Act::FetchLadderFeed
                    | Act::Search
                    | Act::ApiDocs
                    | Act::RulesPage
                    | Act::ImportResults
                    | Act::WebhooksPage
                    | Act::TimeZonePage
                    | Act::SetTimeZone
                    | Act::ApiTimeZone
                    | Act::ApiSetTimeZone
                    | Act::RegisterWebhook
                    | Act::DisableWebhook
                    | Act::Exports
                    | Act::PlayerPage
                    | Act::PlayersIndex
            )
        })
        .map(|(act, _)| act.body(&world)["action"].as_str().unwrap().to_string())
        .collect();
    covered.sort();
    covered.dedup();
    assert_eq!(
        covered, documented,
        "a LadderAction has no row in the matrix"
    );
}

/// A page's redirect to `/login` read as the 401 the matrix expects of a
/// visitor without an account; any other answer as it is.
fn login_as_401(a: Answer) -> Answer {
    if a.status == StatusCode::SEE_OTHER
        && a.headers[header::LOCATION]
            .to_str()
            .unwrap()
            .starts_with("/login")
    {
        Answer {
            status: StatusCode::UNAUTHORIZED,
            ..a
        }
    } else {
        a
    }
}

/// Log in with the password: the session id from the cookie set and the
/// CSRF token from the body.
async fn login(app: &Router, username: &str) -> (String, String) {
    let a = send(
        app,
        Method::POST,
        "/api/session",
        As::Nobody,
        &[],
        Some(&json!({"username": username, "password": PASSWORD})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let cookie = a.headers[header::SET_COOKIE].to_str().unwrap();
    let id = cookie
        .strip_prefix(&format!("{}=", auth::SESSION_COOKIE))
        .and_then(|c| c.split(';').next())
        .unwrap()
        .to_string();
    let csrf = a.json()["csrf_token"].as_str().unwrap().to_string();
    (id, csrf)
}

#[tokio::test]
async fn the_matrix_holds_with_a_session_cookie_too() {
    let world = World::new().await;
    let cells = [
        (Act::RecordX, Role::PlayerA, N),
        (Act::ReportX, Role::PlayerC, N),
        (Act::AddModerator, Role::Moderator, N),
        (Act::RecordM, Role::PlayingMod, N),
        (Act::ConfirmX, Role::PlayerA, R),
        (Act::CreateCompetition, Role::Moderator, N),
        (Act::AnnouncePreview, Role::Moderator, Y),
        (Act::ConfirmX, Role::PlayerB, Y),
        (Act::CreateFeed, Role::PlayerA, Y),
        (Act::CreateLadderFeed, Role::PlayerA, N),
        (Act::RevokeLadderFeed, Role::Moderator, Y),
        (Act::RegisterWebhook, Role::PlayerA, N),
        (Act::RegisterWebhook, Role::Moderator, Y),
        (Act::DisableWebhook, Role::Owner, Y),
        (Act::SetTimeZone, Role::PlayerA, N),
        (Act::SetTimeZone, Role::Moderator, Y),
        (Act::ApiSetTimeZone, Role::PlayerA, N),
        (Act::ApiSetTimeZone, Role::Owner, Y),
    ];
    let mut failures = Vec::new();
    for (act, role, expect) in cells {
        let (id, csrf) = login(&world.app, role.username().unwrap()).await;
        let (_, outcome) = check_cell(&world, act, role, expect, As::Cookie(&id, &csrf)).await;
        if let Err(e) = outcome {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Bob's confirmation (as a player of X, by cookie) recorded Alice's result.
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
    let x = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == world.x.as_str())
        .unwrap();
    assert_eq!(x["result"]["winner"], "Alice Adams", "{x}");
}

#[tokio::test]
async fn an_opponent_confirms_and_a_moderator_confirms_another_game_but_not_his_own() {
    let world = World::new().await;
    let (pete, bob) = (world.token("pete"), world.token("bob"));
    // Pete confirms his own report of M: refused by the rules, nothing stored.
    let before = world.version().await;
    let own = world
        .act(
            As::Token(pete),
            &json!({"action": "confirm-result", "game": world.m}),
        )
        .await;
    assert_eq!(
        own.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        own.text()
    );
    assert_eq!(world.version().await, before);
    // Nor does he record, adjudicate, forfeit, correct or cancel M.
    for act in [
        Act::RecordM,
        Act::AdjudicateM,
        Act::ForfeitM,
        Act::CorrectM,
        Act::CancelM,
    ] {
        let a = world.act(As::Token(pete), &act.body(&world)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{act:?}: {}", a.text());
        assert!(a.text().contains("own game"), "{act:?}: {}", a.text());
        assert_eq!(world.version().await, before);
    }
    // Bob confirms Alice's report of X.
    let done = world
        .act_ok(
            As::Token(bob),
            &json!({"action": "confirm-result", "game": world.x}),
        )
        .await;
    assert_eq!(done["stored"], true, "{done}");
    // Pete, a moderator not in Y, records Y.
    let done = world
        .act_ok(
            As::Token(pete),
            &json!({"action": "record-result", "game": world.y, "result": result("Dan Dunn")}),
        )
        .await;
    assert_eq!(done["action"], "record-result");
    // Mona confirms Pete's report of M.
    let done = world
        .act_ok(
            As::Token(world.token("mona")),
            &json!({"action": "confirm-result", "game": world.m}),
        )
        .await;
    assert_eq!(done["stored"], true, "{done}");
}

/// A moderator who is also a player under his own name, without an account
/// link (added by name only), must not moderate his game either: the engine
/// takes "a moderator is the player of his name" (ARB-R2). `authorize`
/// matches the account's name against the game's players as well as its
/// Player grant.
#[tokio::test]
async fn a_moderator_playing_under_his_name_without_a_link_still_cannot_record_his_game() {
    let world = World::new().await;
    let olga = world.token("olga");
    // Mona Mills is added as a player by name, not linked to her account.
    world
        .act_ok(
            As::Token(olga),
            &json!({"action": "add-player", "name": "Mona Mills"}),
        )
        .await;
    world
        .act_ok(
            As::Token(olga),
            &json!({"action": "add-player", "name": "Fay Fox"}),
        )
        .await;
    // Decide game Y, close round 1 early and pair Mona in round 2.
    world
        .act_ok(
            As::Token(olga),
            &json!({"action": "record-result", "game": world.y, "result": result("Dan Dunn")}),
        )
        .await;
    world
        .act_ok(
            As::Token(olga),
            &json!({"action": "close-round", "early_reason": "the tests need round 2"}),
        )
        .await;
    world
        .act_ok(
            As::Token(olga),
            &json!({"action": "announce-round", "reason": "pairings set for the tests",
                "pairs": [{"a": "Mona Mills", "b": "Fay Fox"}, {"a": "Carol Clark", "b": "Dan Dunn"}]}),
        )
        .await;
    let round = send(
        &world.app,
        Method::GET,
        &format!("/api/competitions/{LADDER}/rounds/2"),
        As::Nobody,
        &[],
        None,
    )
    .await
    .json();
    let game = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["ussr"] == "Mona Mills" || g["us"] == "Mona Mills")
        .unwrap_or_else(|| panic!("{round}"))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = world.version().await;
    let a = world
        .act(
            As::Token(world.token("mona")),
            &json!({"action": "record-result", "game": game, "result": result("Mona Mills")}),
        )
        .await;
    assert_eq!(
        a.status,
        StatusCode::FORBIDDEN,
        "a moderator recorded the result of her own game (she plays it under her name, unlinked): {}",
        a.text()
    );
    assert_eq!(world.version().await, before);
}
