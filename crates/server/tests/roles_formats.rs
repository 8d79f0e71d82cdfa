//! Who may do what in the other formats: every action of an XMadn league
//! (`LeagueAction`), an XMadn Challengers event (`ChallengersAction`), a
//! Sunjang league (`SunjangAction`) and a round-robin league
//! (`RoundRobinAction`, issue 16) sent through the API as each role,
//! against a matrix of expectations, like `roles.rs` for the ladder. A role
//! that may not is refused with 401 (nobody logged in) or 403 (anyone else)
//! and nothing is stored (the competition's `ETag` is unchanged); a role
//! that may is not refused with 401/403 (the rules may still refuse it).
//!
//! The world: `olga` (organizer) creates the three competitions and owns
//! them; `mona` moderates them; `pete` moderates them and plays in them as
//! Pete Moder (a Player grant); `alice` plays as Alice Adams (a Player
//! grant); `otto` has an account and no role. The league and the
//! Challengers event are Alice Adams, Pete Moder and Eve Evans; the league's
//! first double round-robin is rolled. The Sunjang league has seven players
//! (Alice Adams and Pete Moder among them) and its first season planned.
//! The round-robin league is the same three under the chess preset, started
//! (the Berger tables, a bye each round).
//!
//! A player acts only on his own game's report (ARB-R45, ARB-R81): he
//! reports it, and confirms or disputes his opponent's; a moderator who
//! plays is refused the moderators' actions about his own game, and acts
//! on its report only as its player; every other action is a moderator's
//! or the owner's.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;

use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store::{AccountStore, Role as GrantRole};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode};
use common::{Answer, As, accounts_with_tokens, etag, grant, grants_in, now, send};
use serde_json::{Value, json};

const XL: &str = "matrix-league";
const XC: &str = "matrix-challengers";
const SJ: &str = "matrix-sunjang";
const RR: &str = "matrix-round-robin";

/// (username, name shown, organizer)
const ACCOUNTS: &[(&str, &str, bool)] = &[
    ("olga", "Olga Owens", true),
    ("mona", "Mona Mills", false),
    ("pete", "Pete Moder", false),
    ("alice", "Alice Adams", false),
    ("otto", "Otto Outis", false),
];

const THREE: [&str; 3] = ["Alice Adams", "Pete Moder", "Eve Evans"];

const SUNJANG_PLAYERS: [(&str, &str, i32); 7] = [
    ("Alice Adams", "3d", 2300),
    ("Pete Moder", "1d", 2100),
    ("Eve Evans", "1k", 1950),
    ("Kai Kim", "4k", 1700),
    ("Lee Lin", "8k", 1300),
    ("Min Moon", "12k", 1000),
    ("Pat Park", "15k", 800),
];

// ----- the world -----

/// The roles of the matrix, in its column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// No credentials at all.
    Public,
    /// An account with no role in the competition.
    Outsider,
    /// Alice Adams: a Player grant with her player name.
    Player,
    /// Pete Moder: a moderator who plays (the actions marked M are about
    /// his game).
    PlayingMod,
    /// Mona Mills: a moderator who does not play.
    Moderator,
    Owner,
}

const ROLES: [Role; 6] = [
    Role::Public,
    Role::Outsider,
    Role::Player,
    Role::PlayingMod,
    Role::Moderator,
    Role::Owner,
];

impl Role {
    fn username(self) -> Option<&'static str> {
        match self {
            Role::Public => None,
            Role::Outsider => Some("otto"),
            Role::Player => Some("alice"),
            Role::PlayingMod => Some("pete"),
            Role::Moderator => Some("mona"),
            Role::Owner => Some("olga"),
        }
    }
}

struct World {
    app: Router,
    state: AppState,
    tokens: HashMap<&'static str, String>,
    /// League games (labels): Pete Moder v. Eve Evans, Alice Adams v. Eve
    /// Evans.
    pete_game: String,
    alice_game: String,
    /// The same games of the round-robin league.
    pete_rr_game: String,
    alice_rr_game: String,
}

impl World {
    async fn new() -> World {
        let store = SqliteStore::open_in_memory().await.unwrap();
        let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(now()));
        let tokens = accounts_with_tokens(&state, ACCOUNTS).await;
        let mut world = World {
            app: arbiter_server::app(state.clone()),
            state: state.clone(),
            tokens,
            pete_game: String::new(),
            alice_game: String::new(),
            pete_rr_game: String::new(),
            alice_rr_game: String::new(),
        };
        let olga = world.tokens["olga"].clone();
        for body in [
            json!({"format": "xmadn-league", "id": XL, "name": "Matrix League", "players": THREE}),
            json!({"format": "xmadn-challengers", "id": XC, "name": "Matrix Challengers", "players": THREE}),
            json!({"format": "sunjang-league", "id": SJ, "name": "Matrix Sunjang"}),
            json!({"format": "round-robin", "id": RR, "name": "Matrix Round Robin",
                "preset": "chess", "players": THREE}),
        ] {
            let created = send(
                &world.app,
                Method::POST,
                "/api/competitions",
                As::Token(&olga),
                &[],
                Some(&body),
            )
            .await;
            assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        }
        world.act_ok(XL, &olga, &json!({"action": "roll"})).await;
        world.act_ok(RR, &olga, &json!({"action": "start"})).await;
        for (name, rank, rating) in SUNJANG_PLAYERS {
            world
                .act_ok(
                    SJ,
                    &olga,
                    &json!({"action": "add-player", "name": name, "rank": rank, "rating": rating}),
                )
                .await;
        }
        // The players' links are the competitions' own events (ARB-R50),
        // made once the Sunjang league has its players.
        for id in [XL, XC, SJ, RR] {
            for (username, role, player) in [
                ("mona", GrantRole::Moderator, None),
                ("pete", GrantRole::Moderator, None),
                ("pete", GrantRole::Player, Some("Pete Moder")),
                ("alice", GrantRole::Player, Some("Alice Adams")),
            ] {
                grant(&state, id, username, role, player).await;
            }
        }
        world
            .act_ok(SJ, &olga, &json!({"action": "plan-season"}))
            .await;
        let view = world.view(XL).await;
        let game = |who: &str| -> String {
            view["drrs"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|d| d["games"].as_array().cloned().unwrap_or_default())
                .find(|g| {
                    let p = &g["players"];
                    (p[0] == who && p[1] == "Eve Evans") || (p[1] == who && p[0] == "Eve Evans")
                })
                .unwrap_or_else(|| panic!("no game of {who} v. Eve Evans: {view}"))["label"]
                .as_str()
                .unwrap()
                .to_string()
        };
        world.pete_game = game("Pete Moder");
        world.alice_game = game("Alice Adams");
        let view = world.view(RR).await;
        let rr_game = |who: &str| -> String {
            view["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
                .find(|g| {
                    let (h, a) = (&g["home"], &g["away"]);
                    (h == who && a == "Eve Evans") || (a == who && h == "Eve Evans")
                })
                .unwrap_or_else(|| panic!("no game of {who} v. Eve Evans: {view}"))["label"]
                .as_str()
                .unwrap()
                .to_string()
        };
        world.pete_rr_game = rr_game("Pete Moder");
        world.alice_rr_game = rr_game("Alice Adams");
        world
    }

    fn token(&self, role: Role) -> Option<&str> {
        role.username().map(|u| self.tokens[u].as_str())
    }

    async fn view(&self, id: &str) -> Value {
        common::view(&self.app, id).await
    }

    /// A competition's version, from its `ETag`.
    async fn version(&self, id: &str) -> String {
        etag(&self.app, id).await
    }

    /// What a refused action must leave as it was: the version (`ETag`)
    /// and the grants (moderators are grants, outside the event log).
    async fn fingerprint(&self, id: &str) -> String {
        let grants = grants_in(&self.state, id).await;
        format!("{} [{}]", self.version(id).await, grants.join(", "))
    }

    /// An action with the current version as `If-Match`.
    async fn act(&self, id: &str, token: Option<&str>, body: &Value) -> Answer {
        let version = self.version(id).await;
        send(
            &self.app,
            Method::POST,
            &format!("/api/competitions/{id}/actions"),
            As::token(token),
            &[("if-match", version)],
            Some(body),
        )
        .await
    }

    async fn act_ok(&self, id: &str, token: &str, body: &Value) -> Value {
        let a = self.act(id, Some(token), body).await;
        assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
        a.json()
    }
}

// ----- the matrix -----

/// Every action, on its competition; `M` names Pete Moder's game (he plays
/// it), `A` Alice Adams's (Pete does not play it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    // XMadn league
    LRoll,
    /// Faces of dice rolled at the table (ARB-R64).
    LEnterRoll,
    LRecordM,
    LRecordA,
    LCorrectM,
    LCorrectA,
    LCancelGameM,
    LCancelGameA,
    LCancelDrr,
    LStartPlayoff,
    LPlayoffGameM,
    LPlayoffGameA,
    LAddModerator,
    LRemoveModerator,
    /// Link Eve Evans to `otto`; unlink Alice Adams (ARB-R50).
    LLink,
    LUnlink,
    /// A player's report of his game, its confirmation and its dispute
    /// (ARB-R45, ARB-R81).
    LReportM,
    LReportA,
    LConfirmM,
    LConfirmA,
    LDisputeM,
    LDisputeA,
    // XMadn Challengers
    CQualifier,
    CGameM,
    CGameA,
    CAddModerator,
    CRemoveModerator,
    /// Link Eve Evans to `otto`; unlink Alice Adams (ARB-R50).
    CLink,
    CUnlink,
    /// Reports of the game at the board (none before Game 0).
    CReportM,
    CReportA,
    CConfirm,
    CDispute,
    // Sunjang league
    SAddPlayer,
    SUpdatePlayer,
    SWithdrawPlayer,
    SReturnPlayer,
    SChangeRestrictions,
    SSetRestriction,
    SRemoveRestriction,
    SPlanSeason,
    SPlanPreview,
    SRecordM,
    SRecordA,
    SCorrectM,
    SCorrectA,
    SGiveWay,
    SLiveMatchM,
    SLiveMatchA,
    SCloseSeason,
    SQualifyFinal,
    SFinalGameM,
    SFinalGameA,
    SWithdrawFromFinal,
    SAddModerator,
    SRemoveModerator,
    /// Link Eve Evans to `otto`; unlink Alice Adams (ARB-R50).
    SLink,
    SUnlink,
    SReportM,
    SReportA,
    SConfirmM,
    SConfirmA,
    SDisputeM,
    SDisputeA,
    // Round-robin league (issue 16; ARB-R67, ARB-R68)
    RAddPlayer,
    RStart,
    RRecordM,
    RRecordA,
    RCorrectM,
    RCorrectA,
    RWithdraw,
    RSetDeadline,
    RDrawLots,
    REnterLots,
    RAddModerator,
    RRemoveModerator,
    /// Link Eve Evans to `otto`; unlink Alice Adams (ARB-R50).
    RLink,
    RUnlink,
}

impl Act {
    fn competition(self) -> &'static str {
        let name = format!("{self:?}");
        match name.as_bytes()[0] {
            b'L' => XL,
            b'C' => XC,
            b'R' => RR,
            _ => SJ,
        }
    }

    fn body(self, w: &World) -> Value {
        let (pm, al) = (w.pete_game.as_str(), w.alice_game.as_str());
        let score = |action: &str, a: &str| json!({"action": action, "a": a, "b": "Eve Evans", "pawns": "4-2", "time": "23:05"});
        let go = |action: &str, black: &str| json!({"action": action, "black": black, "white": "Eve Evans", "outcome": "black"});
        match self {
            Act::LAddModerator | Act::CAddModerator | Act::SAddModerator => {
                json!({"action": "add-moderator", "username": "otto"})
            }
            Act::LRemoveModerator | Act::CRemoveModerator | Act::SRemoveModerator => {
                json!({"action": "remove-moderator", "username": "mona"})
            }
            Act::LLink | Act::CLink | Act::SLink => {
                json!({"action": "link-account", "player": "Eve Evans", "account": "otto"})
            }
            Act::LUnlink | Act::CUnlink | Act::SUnlink => {
                json!({"action": "unlink-account", "player": "Alice Adams"})
            }
            Act::LRoll => json!({"action": "roll"}),
            Act::LEnterRoll => {
                json!({"action": "enter-roll", "faces": ["Alice Adams=5,Pete Moder=2,Eve Evans=6"]})
            }
            Act::LRecordM => {
                let mut b = score("record-result", "Pete Moder");
                b["game"] = json!(pm);
                b
            }
            Act::LRecordA => {
                let mut b = score("record-result", "Alice Adams");
                b["game"] = json!(al);
                b
            }
            Act::LCorrectM => {
                let mut b = score("correct-result", "Pete Moder");
                b["game"] = json!(pm);
                b["reason"] = json!("miscounted");
                b
            }
            Act::LCorrectA => {
                let mut b = score("correct-result", "Alice Adams");
                b["game"] = json!(al);
                b["reason"] = json!("miscounted");
                b
            }
            Act::LReportM => {
                let mut b = score("report-result", "Pete Moder");
                b["game"] = json!(pm);
                b
            }
            Act::LReportA => {
                let mut b = score("report-result", "Alice Adams");
                b["game"] = json!(al);
                b
            }
            Act::LConfirmM => json!({"action": "confirm-result", "game": pm}),
            Act::LConfirmA => json!({"action": "confirm-result", "game": al}),
            Act::LDisputeM => json!({"action": "dispute-report", "game": pm, "reason": "4-3"}),
            Act::LDisputeA => json!({"action": "dispute-report", "game": al, "reason": "4-3"}),
            Act::CReportM => score("report-game", "Pete Moder"),
            Act::CReportA => score("report-game", "Alice Adams"),
            Act::CConfirm => json!({"action": "confirm-game"}),
            Act::CDispute => json!({"action": "dispute-report", "reason": "not played"}),
            Act::SReportM => go("report-result", "Pete Moder"),
            Act::SReportA => go("report-result", "Alice Adams"),
            Act::SConfirmM => {
                json!({"action": "confirm-result", "black": "Pete Moder", "white": "Eve Evans"})
            }
            Act::SConfirmA => {
                json!({"action": "confirm-result", "black": "Alice Adams", "white": "Eve Evans"})
            }
            Act::SDisputeM => json!({"action": "dispute-report", "black": "Pete Moder",
                "white": "Eve Evans", "reason": "white won"}),
            Act::SDisputeA => json!({"action": "dispute-report", "black": "Alice Adams",
                "white": "Eve Evans", "reason": "white won"}),
            Act::LCancelGameM => json!({"action": "cancel-game", "game": pm, "note": "agreed"}),
            Act::LCancelGameA => json!({"action": "cancel-game", "game": al, "note": "agreed"}),
            Act::LCancelDrr => json!({"action": "cancel-drr", "drr": 2, "note": "agreed"}),
            Act::LStartPlayoff => json!({"action": "start-playoff", "colours": "red/blue"}),
            Act::LPlayoffGameM => score("record-playoff-game", "Pete Moder"),
            Act::LPlayoffGameA => score("record-playoff-game", "Alice Adams"),
            Act::CQualifier => json!({"action": "record-qualifier",
                "finishing": ["Pete Moder", "Alice Adams", "Eve Evans"], "chosen": "red/blue"}),
            Act::CGameM => score("record-game", "Pete Moder"),
            Act::CGameA => score("record-game", "Alice Adams"),
            Act::SAddPlayer => {
                json!({"action": "add-player", "name": "Nina Newman", "rank": "2k", "rating": 1800})
            }
            Act::SUpdatePlayer => {
                json!({"action": "update-player", "player": "Eve Evans", "rank": "1d", "rating": 2050})
            }
            Act::SWithdrawPlayer => {
                json!({"action": "withdraw-player", "player": "Eve Evans", "reason": "no time"})
            }
            Act::SReturnPlayer => json!({"action": "return-player", "player": "Eve Evans"}),
            Act::SChangeRestrictions => json!({"action": "change-restrictions",
                "rules": arbiter_record::preset("sunjang-league").unwrap(), "reason": "the same"}),
            Act::SSetRestriction => json!({"action": "set-restriction",
                "ranks": "1d-9d", "divisions": "A", "reason": "the same row (ARB-R56)"}),
            Act::SRemoveRestriction => json!({"action": "remove-restriction",
                "ranks": "1d-9d", "reason": "dan players anywhere (ARB-R56)"}),
            Act::SPlanSeason => json!({"action": "plan-season"}),
            Act::SPlanPreview => json!({"action": "plan-season", "preview": true}),
            Act::SRecordM => go("record-result", "Pete Moder"),
            Act::SRecordA => go("record-result", "Alice Adams"),
            Act::SCorrectM => {
                let mut b = go("correct-result", "Pete Moder");
                b["reason"] = json!("typo");
                b
            }
            Act::SCorrectA => {
                let mut b = go("correct-result", "Alice Adams");
                b["reason"] = json!("typo");
                b
            }
            Act::SGiveWay => json!({"action": "give-way", "player": "Eve Evans"}),
            Act::SLiveMatchM => {
                json!({"action": "record-live-match", "winner": "Pete Moder", "loser": "Eve Evans"})
            }
            Act::SLiveMatchA => {
                json!({"action": "record-live-match", "winner": "Alice Adams", "loser": "Eve Evans"})
            }
            Act::SCloseSeason => json!({"action": "close-season"}),
            Act::SQualifyFinal => json!({"action": "qualify-final"}),
            Act::SFinalGameM => go("record-final-game", "Pete Moder"),
            Act::SFinalGameA => go("record-final-game", "Alice Adams"),
            Act::SWithdrawFromFinal => {
                json!({"action": "withdraw-from-final", "player": "Eve Evans"})
            }
            Act::RAddPlayer => json!({"action": "add-player", "name": "Nina Newman"}),
            Act::RStart => json!({"action": "start"}),
            Act::RRecordM => {
                json!({"action": "record-result", "game": w.pete_rr_game, "score": "1-0"})
            }
            Act::RRecordA => {
                json!({"action": "record-result", "game": w.alice_rr_game, "score": "1-0"})
            }
            Act::RCorrectM => json!({"action": "correct-result", "game": w.pete_rr_game,
                "score": "0-1", "reason": "reported the wrong way round"}),
            Act::RCorrectA => json!({"action": "correct-result", "game": w.alice_rr_game,
                "score": "0-1", "reason": "reported the wrong way round"}),
            Act::RWithdraw => json!({"action": "withdraw", "player": "Eve Evans"}),
            Act::RSetDeadline => {
                json!({"action": "set-deadline", "round": 1, "deadline": "2026-04-01"})
            }
            Act::RDrawLots => {
                json!({"action": "draw-lots", "players": ["Alice Adams", "Eve Evans"]})
            }
            Act::REnterLots => json!({"action": "enter-lots",
                "order": ["Eve Evans", "Alice Adams"], "how": "a coin tossed by the arbiter"}),
            Act::RAddModerator => json!({"action": "add-moderator", "username": "otto"}),
            Act::RRemoveModerator => json!({"action": "remove-moderator", "username": "mona"}),
            Act::RLink => {
                json!({"action": "link-account", "player": "Eve Evans", "username": "otto"})
            }
            Act::RUnlink => json!({"action": "unlink-account", "username": "alice"}),
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
}
use E::{N, Y};

/// Columns: Public, Outsider, Player, PlayingMod, Moderator, Owner (see
/// [`ROLES`]).
#[rustfmt::skip]
const MATRIX: &[(Act, [E; 6])] = &[
    //                          Pub Out Pl  PM Mod Own
    (Act::LRoll,               [N,  N,  N,  Y, Y,  Y]),
    (Act::LEnterRoll,          [N,  N,  N,  Y, Y,  Y]),
    (Act::LRecordM,            [N,  N,  N,  N, Y,  Y]), // nobody moderates his own game
    (Act::LRecordA,            [N,  N,  N,  Y, Y,  Y]),
    (Act::LCorrectM,           [N,  N,  N,  N, Y,  Y]),
    (Act::LCorrectA,           [N,  N,  N,  Y, Y,  Y]),
    (Act::LCancelGameM,        [N,  N,  N,  N, Y,  Y]),
    (Act::LCancelGameA,        [N,  N,  N,  Y, Y,  Y]),
    (Act::LCancelDrr,          [N,  N,  N,  Y, Y,  Y]),
    (Act::LStartPlayoff,       [N,  N,  N,  Y, Y,  Y]),
    (Act::LPlayoffGameM,       [N,  N,  N,  N, Y,  Y]),
    (Act::LPlayoffGameA,       [N,  N,  N,  Y, Y,  Y]),
    (Act::LAddModerator,       [N,  N,  N,  N, N,  Y]), // the owner alone
    (Act::LRemoveModerator,    [N,  N,  N,  N, N,  Y]),
    (Act::LLink,               [N,  N,  N,  Y, Y,  Y]), // ARB-R50: moderators link
    (Act::LUnlink,             [N,  N,  N,  Y, Y,  Y]),
    (Act::LReportM,            [N,  N,  N,  Y, N,  N]), // ARB-R45: the game's players report
    (Act::LReportA,            [N,  N,  Y,  N, N,  N]),
    (Act::LConfirmM,           [N,  N,  N,  Y, Y,  Y]), // Pete as its player (ARB-R81)
    (Act::LConfirmA,           [N,  N,  Y,  Y, Y,  Y]),
    (Act::LDisputeM,           [N,  N,  N,  Y, Y,  Y]),
    (Act::LDisputeA,           [N,  N,  Y,  Y, Y,  Y]),
    (Act::CQualifier,          [N,  N,  N,  N, Y,  Y]), // Pete plays Game 0
    (Act::CGameM,              [N,  N,  N,  N, Y,  Y]),
    (Act::CGameA,              [N,  N,  N,  Y, Y,  Y]),
    (Act::CAddModerator,       [N,  N,  N,  N, N,  Y]),
    (Act::CRemoveModerator,    [N,  N,  N,  N, N,  Y]),
    (Act::CLink,               [N,  N,  N,  Y, Y,  Y]), // ARB-R50: moderators link
    (Act::CUnlink,             [N,  N,  N,  Y, Y,  Y]),
    (Act::CReportM,            [N,  N,  N,  Y, N,  N]),
    (Act::CReportA,            [N,  N,  Y,  N, N,  N]),
    (Act::CConfirm,            [N,  N,  N,  Y, Y,  Y]), // no board yet: moderators only
    (Act::CDispute,            [N,  N,  N,  Y, Y,  Y]),
    (Act::SAddPlayer,          [N,  N,  N,  Y, Y,  Y]),
    (Act::SUpdatePlayer,       [N,  N,  N,  Y, Y,  Y]),
    (Act::SWithdrawPlayer,     [N,  N,  N,  Y, Y,  Y]),
    (Act::SReturnPlayer,       [N,  N,  N,  Y, Y,  Y]),
    (Act::SChangeRestrictions, [N,  N,  N,  N, N,  Y]), // the owner alone
    (Act::SSetRestriction,     [N,  N,  N,  N, N,  Y]), // ARB-R56: the owner alone
    (Act::SRemoveRestriction,  [N,  N,  N,  N, N,  Y]),
    (Act::SPlanSeason,         [N,  N,  N,  Y, Y,  Y]),
    (Act::SPlanPreview,        [N,  N,  N,  Y, Y,  Y]),
    (Act::SRecordM,            [N,  N,  N,  N, Y,  Y]),
    (Act::SRecordA,            [N,  N,  N,  Y, Y,  Y]),
    (Act::SCorrectM,           [N,  N,  N,  N, Y,  Y]),
    (Act::SCorrectA,           [N,  N,  N,  Y, Y,  Y]),
    (Act::SGiveWay,            [N,  N,  N,  Y, Y,  Y]),
    (Act::SLiveMatchM,         [N,  N,  N,  N, Y,  Y]),
    (Act::SLiveMatchA,         [N,  N,  N,  Y, Y,  Y]),
    (Act::SCloseSeason,        [N,  N,  N,  Y, Y,  Y]),
    (Act::SQualifyFinal,       [N,  N,  N,  Y, Y,  Y]),
    (Act::SFinalGameM,         [N,  N,  N,  N, Y,  Y]),
    (Act::SFinalGameA,         [N,  N,  N,  Y, Y,  Y]),
    (Act::SWithdrawFromFinal,  [N,  N,  N,  Y, Y,  Y]),
    (Act::SAddModerator,       [N,  N,  N,  N, N,  Y]),
    (Act::SRemoveModerator,    [N,  N,  N,  N, N,  Y]),
    (Act::SLink,               [N,  N,  N,  Y, Y,  Y]), // ARB-R50: moderators link
    (Act::SUnlink,             [N,  N,  N,  Y, Y,  Y]),
    (Act::SReportM,            [N,  N,  N,  Y, N,  N]),
    (Act::SReportA,            [N,  N,  Y,  N, N,  N]),
    (Act::SConfirmM,           [N,  N,  N,  Y, Y,  Y]),
    (Act::SConfirmA,           [N,  N,  Y,  Y, Y,  Y]),
    (Act::SDisputeM,           [N,  N,  N,  Y, Y,  Y]),
    (Act::SDisputeA,           [N,  N,  Y,  Y, Y,  Y]),
    (Act::RAddPlayer,          [N,  N,  N,  Y, Y,  Y]), // refused by the rules once started (ARB-R68)
    (Act::RStart,              [N,  N,  N,  Y, Y,  Y]),
    (Act::RRecordM,            [N,  N,  N,  N, Y,  Y]), // ARB-R45: not his own game
    (Act::RRecordA,            [N,  N,  N,  Y, Y,  Y]),
    (Act::RCorrectM,           [N,  N,  N,  N, Y,  Y]),
    (Act::RCorrectA,           [N,  N,  N,  Y, Y,  Y]),
    (Act::RWithdraw,           [N,  N,  N,  Y, Y,  Y]), // ARB-R68
    (Act::RSetDeadline,        [N,  N,  N,  Y, Y,  Y]),
    (Act::RDrawLots,           [N,  N,  N,  Y, Y,  Y]),
    (Act::REnterLots,          [N,  N,  N,  Y, Y,  Y]),
    (Act::RAddModerator,       [N,  N,  N,  N, N,  Y]), // the owner alone
    (Act::RRemoveModerator,    [N,  N,  N,  N, N,  Y]),
    (Act::RLink,               [N,  N,  N,  Y, Y,  Y]), // ARB-R50: moderators link
    (Act::RUnlink,             [N,  N,  N,  Y, Y,  Y]),
];

/// Check one cell; `Err` says what went wrong. `changed` tells whether
/// something was stored (the world must then be built again).
async fn check_cell(w: &World, act: Act, role: Role, expect: E) -> (bool, Result<(), String>) {
    let id = act.competition();
    let before = w.fingerprint(id).await;
    let answer = w.act(id, w.token(role), &act.body(w)).await;
    let after = w.fingerprint(id).await;
    let changed = before != after;
    let status = answer.status;
    let what = format!(
        "{act:?} as {role:?} (expected {expect:?}): {status} {}",
        answer.text()
    );
    let refused_for_role = status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN;
    let outcome = match expect {
        Y if refused_for_role => Err(format!("refused a role that may: {what}")),
        Y if status.is_server_error() => Err(format!("a server error: {what}")),
        Y => Ok(()),
        N => {
            let want = if role == Role::Public {
                StatusCode::UNAUTHORIZED
            } else {
                StatusCode::FORBIDDEN
            };
            if status != want {
                Err(format!("BUG: wanted {want}: {what}"))
            } else if changed {
                Err(format!(
                    "BUG: refused but stored something ({before} -> {after}): {what}"
                ))
            } else {
                Ok(())
            }
        }
    };
    (changed, outcome)
}

/// One row of the matrix, on worlds of its own.
async fn check_row(act: Act, row: [E; 6]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut world = World::new().await;
    for (role, expect) in ROLES.into_iter().zip(row) {
        let (changed, outcome) = check_cell(&world, act, role, expect).await;
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
fn every_format_action_is_refused_to_the_roles_that_may_not_and_only_to_them() {
    // Rows run on a few threads, each with a runtime of its own.
    let rows: Vec<(Act, [E; 6])> = MATRIX.to_vec();
    let chunks: Vec<Vec<(Act, [E; 6])>> = rows
        .chunks(MATRIX.len().div_ceil(4))
        .map(<[_]>::to_vec)
        .collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    chunk
                        .into_iter()
                        .flat_map(|(act, row)| rt.block_on(check_row(act, row)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n{}",
        failures.len(),
        MATRIX.len() * ROLES.len(),
        failures.join("\n")
    );
}

/// The action names a schema of the OpenAPI document lists in its `oneOf`.
fn documented(doc: &Value, schema: &str) -> Vec<String> {
    let mut names: Vec<String> = doc["components"]["schemas"][schema]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("no oneOf in {schema}"))
        .iter()
        .flat_map(|v| {
            v["properties"]["action"]["enum"]
                .as_array()
                .unwrap()
                .clone()
        })
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn the_matrix_covers_every_action_of_every_other_format() {
    let doc =
        serde_json::to_value(<arbiter_server::api::ApiDoc as utoipa::OpenApi>::openapi()).unwrap();
    // The document the server serves says the same.
    let world = World::new().await;
    let served = send(
        &world.app,
        Method::GET,
        "/api/openapi.json",
        As::Nobody,
        &[],
        None,
    )
    .await
    .json();
    for (schema, id) in [
        ("LeagueAction", XL),
        ("ChallengersAction", XC),
        ("SunjangAction", SJ),
        ("RoundRobinAction", RR),
    ] {
        let want = documented(&doc, schema);
        assert_eq!(documented(&served, schema), want, "{schema}");
        assert_eq!(
            covered(&world, id),
            want,
            "a {schema} has no row in the matrix"
        );
    }
}

/// The actions of the matrix's rows on competition `id`, sorted.
fn covered(world: &World, id: &str) -> Vec<String> {
    let mut covered: Vec<String> = MATRIX
        .iter()
        .filter(|(act, _)| act.competition() == id)
        .map(|(act, _)| act.body(world)["action"].as_str().unwrap().to_string())
        .collect();
    covered.sort();
    covered.dedup();
    covered
}

#[tokio::test]
async fn the_owner_and_a_moderator_really_do_what_the_matrix_allows() {
    // Y only says "not refused for the role"; here the main actions are
    // carried out for real, in order, by the moderator who does not play.
    let w = World::new().await;
    let mona = w.tokens["mona"].clone();
    let pete = w.tokens["pete"].clone();
    // Games 1 to 3 in order: Pete records those he does not play, Mona
    // those he plays (he is refused them, with nothing stored).
    let (mut by_pete, mut by_mona) = (0, 0);
    for _ in 0..3 {
        let view = w.view(XL).await;
        let game = view["drrs"][0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["playable"] == true)
            .unwrap_or_else(|| panic!("no playable game: {view}"))
            .clone();
        let (a, b) = (&game["players"][0], &game["players"][1]);
        let body = json!({"action": "record-result", "game": game["label"], "a": a, "b": b,
            "pawns": "4-2", "time": "23:05"});
        if a == "Pete Moder" || b == "Pete Moder" {
            let before = w.fingerprint(XL).await;
            let refused = w.act(XL, Some(&pete), &body).await;
            assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
            assert!(refused.text().contains("own game"), "{}", refused.text());
            assert_eq!(w.fingerprint(XL).await, before);
            let done = w.act_ok(XL, &mona, &body).await;
            assert_eq!(done["stored"], true, "{done}");
            by_mona += 1;
        } else {
            let done = w.act_ok(XL, &pete, &body).await;
            assert_eq!(done["stored"], true, "{done}");
            by_pete += 1;
        }
    }
    assert_eq!((by_pete, by_mona), (1, 2), "Pete plays two of games 1 to 3");
    let done = w.act_ok(XC, &mona, &Act::CQualifier.body(&w)).await;
    assert_eq!(done["stored"], true, "{done}");
    // Season 1 is planned and unfinished: the rules refuse the preview of
    // season 2, after the role was allowed, and nothing is stored.
    let before = w.version(SJ).await;
    let a = w.act(SJ, Some(&mona), &Act::SPlanPreview.body(&w)).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert_eq!(
        w.version(SJ).await,
        before,
        "a refused preview stores nothing"
    );
    let done = w.act_ok(SJ, &mona, &Act::SUpdatePlayer.body(&w)).await;
    assert_eq!(done["stored"], true, "{done}");
    // Nor does Pete correct his own game.
    let before = w.version(XL).await;
    let a = w.act(XL, Some(&pete), &Act::LCorrectM.body(&w)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert!(a.text().contains("own game"), "{}", a.text());
    assert_eq!(w.version(XL).await, before);
    // The owner changes the restrictions; the moderator may not.
    let owner = w.tokens["olga"].clone();
    let a = w
        .act(SJ, Some(&mona), &Act::SChangeRestrictions.body(&w))
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    let done = w
        .act_ok(SJ, &owner, &Act::SChangeRestrictions.body(&w))
        .await;
    assert_eq!(done["action"], "change-restrictions", "{done}");
    // The owner adds and removes a moderator (grants only): Otto then
    // rolls the league, and no longer once removed.
    let otto = w.tokens["otto"].clone();
    let add = json!({"action": "add-moderator", "username": "otto"});
    let done = w.act_ok(XL, &owner, &add).await;
    assert_eq!(done["stored"], true, "{done}");
    let a = w.act(XL, Some(&otto), &json!({"action": "roll"})).await;
    assert_ne!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    let remove = json!({"action": "remove-moderator", "username": "otto"});
    w.act_ok(XL, &owner, &remove).await;
    let before = w.fingerprint(XL).await;
    let a = w.act(XL, Some(&otto), &json!({"action": "roll"})).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert_eq!(w.fingerprint(XL).await, before);
}

/// The round-robin league's actions carried out for real (issue 16): the
/// moderator who plays is refused his own game and records another, the
/// moderator who does not play records his, a correction and a lot by
/// hand are stored, and the owner alone grants a moderator.
#[tokio::test]
async fn the_round_robin_actions_really_do_what_the_matrix_allows() {
    let w = World::new().await;
    let (mona, pete, olga) = (
        w.tokens["mona"].clone(),
        w.tokens["pete"].clone(),
        w.tokens["olga"].clone(),
    );
    let before = w.fingerprint(RR).await;
    let a = w.act(RR, Some(&pete), &Act::RRecordM.body(&w)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    assert!(a.text().contains("own game"), "{}", a.text());
    assert_eq!(w.fingerprint(RR).await, before, "a refusal stores nothing");
    for (token, act) in [
        (&mona, Act::RRecordM),
        (&pete, Act::RRecordA),
        (&mona, Act::RCorrectA),
        (&pete, Act::REnterLots),
    ] {
        let done = w.act_ok(RR, token, &act.body(&w)).await;
        assert_eq!(done["stored"], true, "{act:?}: {done}");
    }
    let view = w.view(RR).await;
    let score = |label: &str| -> Value {
        view["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
            .find(|g| g["label"] == label)
            .unwrap()["score"]
            .clone()
    };
    assert_eq!(score(&w.pete_rr_game), "1-0", "{view}");
    assert_eq!(score(&w.alice_rr_game), "0-1", "corrected: {view}");
    assert_eq!(
        view["lots"][0]["order"],
        json!(["Eve Evans", "Alice Adams"])
    );
    // Mona may not grant a moderator; the owner may, and Otto then records.
    let a = w.act(RR, Some(&mona), &Act::RAddModerator.body(&w)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
    w.act_ok(RR, &olga, &Act::RAddModerator.body(&w)).await;
    assert!(
        grants_in(&w.state, RR)
            .await
            .contains(&"otto:moderator:".to_string())
    );
}

#[tokio::test]
async fn a_role_counts_only_in_its_own_competition() {
    // Mona moderates the league but no longer the Challengers event and the
    // Sunjang league: she is refused there like an outsider.
    let w = World::new().await;
    let store = w.state.service.store();
    for id in [XC, SJ] {
        assert!(
            store
                .revoke(id, "mona", GrantRole::Moderator)
                .await
                .unwrap()
        );
    }
    let mona = w.tokens["mona"].clone();
    for act in [Act::CGameA, Act::SAddPlayer, Act::SPlanPreview] {
        let id = act.competition();
        let before = w.fingerprint(id).await;
        let a = w.act(id, Some(&mona), &act.body(&w)).await;
        assert_eq!(
            a.status,
            StatusCode::FORBIDDEN,
            "BUG: {act:?} by a moderator of another competition: {}",
            a.text()
        );
        assert_eq!(w.fingerprint(id).await, before, "{act:?}");
    }
    let a = w.act(XL, Some(&mona), &Act::LCancelDrr.body(&w)).await;
    assert_ne!(a.status, StatusCode::FORBIDDEN, "{}", a.text());
}

/// Issue 14 item 1 (ARB-R50): whatever name an account shows — a player's
/// name in another case or spacing, or an id of any form — with no link
/// and no grant it may do nothing in an XMadn league, a Challengers event
/// or a Sunjang league: every action of the matrix is refused (403) and
/// nothing is stored.
#[test]
fn no_display_name_gives_a_right_in_the_other_formats() {
    use proptest::prelude::*;
    let names = prop_oneof![
        (0u32..12, prop::sample::select(vec!["P", "p", "G", "#", ""]))
            .prop_map(|(n, prefix)| format!("{prefix}{n}")),
        (
            prop::sample::select(vec!["Alice Adams", "Pete Moder", "Eve Evans", "Mona Mills"]),
            any::<bool>()
        )
            .prop_map(|(n, upper)| {
                let n = if upper {
                    n.to_uppercase()
                } else {
                    n.to_lowercase()
                };
                format!(" {} ", n.replace(' ', "  "))
            }),
    ];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(12));
    runner
        .run(&names, |name| {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let w = World::new().await;
                let token = accounts_with_tokens(&w.state, &[("mallory", name.as_str(), false)])
                    .await["mallory"]
                    .clone();
                for (act, _) in MATRIX {
                    let id = act.competition();
                    let before = w.fingerprint(id).await;
                    let a = w.act(id, Some(&token), &act.body(&w)).await;
                    prop_assert_eq!(
                        a.status,
                        StatusCode::FORBIDDEN,
                        "{:?} as {:?}: {}",
                        act,
                        name,
                        a.text()
                    );
                    prop_assert_eq!(w.fingerprint(id).await, before);
                }
                Ok(())
            })
        })
        .unwrap();
}

/// Calendar feeds of every other format (issue 18 §4): made, listed and
/// revoked by the competition's owner and moderators only; read by whoever
/// holds the URL. `E` as in the matrix, per role in [`ROLES`]' order.
#[tokio::test]
async fn calendar_feeds_of_every_format_are_for_their_owner_and_moderators() {
    const MANAGE: [E; 6] = [N, N, N, Y, Y, Y];
    let w = World::new().await;
    let mut failures = Vec::new();
    for id in [XL, XC, SJ, RR] {
        let feeds = format!("/api/competitions/{id}/calendars");
        for (role, expect) in ROLES.into_iter().zip(MANAGE) {
            let who = As::token(w.token(role));
            // A feed its owner made, to revoke and to read.
            let made = send(
                &w.app,
                Method::POST,
                &feeds,
                As::token(w.token(Role::Owner)),
                &[],
                Some(&json!({"label": "the owner's"})),
            )
            .await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
            let feed_id = made.json()["id"].as_str().unwrap().to_string();
            let url = made.json()["url"].as_str().unwrap().to_string();
            let path = &url[url.find("/calendar/").unwrap()..];
            let answers = [
                (
                    "create",
                    send(
                        &w.app,
                        Method::POST,
                        &feeds,
                        who,
                        &[],
                        Some(&json!({"label": "matrix"})),
                    )
                    .await,
                ),
                (
                    "list",
                    send(&w.app, Method::GET, &feeds, who, &[], None).await,
                ),
                (
                    "revoke",
                    send(
                        &w.app,
                        Method::DELETE,
                        &format!("{feeds}/{feed_id}"),
                        who,
                        &[],
                        None,
                    )
                    .await,
                ),
            ];
            for (what, a) in answers {
                let want = match (expect, role) {
                    (Y, _) => a.status.is_success(),
                    (N, Role::Public) => a.status == StatusCode::UNAUTHORIZED,
                    (N, _) => a.status == StatusCode::FORBIDDEN,
                };
                if !want {
                    failures.push(format!(
                        "{what} a feed of {id} as {role:?} (expected {expect:?}): {} {}",
                        a.status,
                        a.text()
                    ));
                }
            }
            // Whoever holds a live URL reads it, with no account at all.
            let read = send(&w.app, Method::GET, path, As::Nobody, &[], None).await;
            let live = expect == N;
            let ok = if live {
                read.status == StatusCode::OK
            } else {
                read.status == StatusCode::NOT_FOUND
            };
            if !ok {
                failures.push(format!(
                    "reading {id}'s feed after {role:?}'s revoke: {}",
                    read.status
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A player's page in every other format (`GET /c/{id}/players/{n}`, issue
/// 17 §1): a public read that every role makes alike (player 1, Alice
/// Adams, for the XMadn league and Challengers and the round robin; the
/// Sunjang league's player 1), changing nothing (the `ETag` is the same).
#[tokio::test]
async fn every_role_reads_a_player_page_of_every_format_and_nothing_changes() {
    let w = World::new().await;
    for id in [XL, XC, SJ, RR] {
        let before = etag(&w.app, id).await;
        for role in ROLES {
            let a = send(
                &w.app,
                Method::GET,
                &format!("/c/{id}/players/1"),
                As::token(w.token(role)),
                &[],
                None,
            )
            .await;
            assert_eq!(a.status, StatusCode::OK, "{id} as {role:?}: {}", a.text());
            let gone = send(
                &w.app,
                Method::GET,
                &format!("/c/{id}/players/99"),
                As::token(w.token(role)),
                &[],
                None,
            )
            .await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND, "{id} as {role:?}");
        }
        assert_eq!(etag(&w.app, id).await, before, "{id}");
    }
}
