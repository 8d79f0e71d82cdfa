//! ARB-R45 through the command path: a player reports the result of his own
//! game; the other player or a moderator who does not play in it confirms
//! it (then the result is recorded), or rejects it (then the report is
//! cleared). Nobody confirms his own game's report.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::{EndTag, GameId, GameStatus, Outcome, PlayerId, Time};
use arbiter_engine::tws::{Command, Confirmer, Event, Ladder, ResultInput};
use arbiter_service::forum::{Markup, announcement};
use arbiter_service::views::{RoundView, round_view};
use arbiter_service::{Service, ServiceError};
use arbiter_store::{EventStore, StoreError};
use common::{COMP, announce, assert_consistent, both, create_with_members, ctx, day, keyed};

const G1: GameId = GameId(1);
const G2: GameId = GameId(2);
const P1: PlayerId = PlayerId(1);
const P2: PlayerId = PlayerId(2);
const P3: PlayerId = PlayerId(3);
/// A member named like the second moderator (ARB-R2: he is that player).
const MOD_TWO: PlayerId = PlayerId(4);

/// Round 1 running: game 1 is Player 1 v. Player 2, game 2 is Player 3 v.
/// Mod Two (a member who is also a moderator).
async fn running<S: EventStore>(svc: &Service<S>) {
    create_with_members(svc, 3).await;
    svc.execute(
        COMP,
        Command::Join {
            name: "Mod Two".into(),
            surname: None,
        },
        &ctx(day(0)),
    )
    .await
    .unwrap();
    announce(svc, day(0)).await;
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    for (g, a, b) in [(G1, P1, P2), (G2, P3, MOD_TWO)] {
        let game = ladder.game(g).unwrap();
        assert!(game.has_player(a) && game.has_player(b), "{game:?}");
    }
}

/// `winner` wins `game` on 20 VP, as a player reports it.
fn won_by(ladder: &Ladder, game: GameId, winner: PlayerId) -> ResultInput {
    let side = ladder.game(game).unwrap().side_of(winner).unwrap();
    ResultInput {
        outcome: Outcome::Win(side),
        ended_by: EndTag::Concession,
        vp: None,
        turn: Some(7),
        note: None,
    }
}

fn report(game: GameId, result: ResultInput, by: PlayerId, at: Time) -> Command {
    Command::ReportResult {
        game,
        result,
        by,
        at,
    }
}

fn confirm(game: GameId, by: Confirmer, at: Time) -> Command {
    Command::ConfirmResult { game, by, at }
}

fn refusal(err: ServiceError) -> String {
    match err {
        ServiceError::Rule(e) => e.message,
        other => panic!("not a refusal by the rules: {other}"),
    }
}

async fn round_1<S: EventStore>(svc: &Service<S>) -> RoundView {
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    round_view(&ladder, COMP, &ladder.rounds[0], day(2))
}

async fn kinds<S: EventStore>(svc: &Service<S>, from: u64) -> Vec<String> {
    common::stored_events(svc.store(), COMP)
        .await
        .into_iter()
        .filter(|(seq, _)| *seq >= from)
        .map(|(_, e)| e.kind().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_report_confirmed_by_the_opponent_records_the_result() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        let result = won_by(&ladder, G1, P1);
        svc.execute(COMP, report(G1, result.clone(), P1, day(1)), &ctx(day(1)))
            .await
            .unwrap();

        // The round view shows it: reported by Player 1, awaiting Player 2.
        let view = round_1(&svc).await;
        let g = &view.games[0];
        assert_eq!(g.status, "scheduled");
        let r = g.report.as_ref().expect("a pending report");
        assert_eq!(r.by, "Player 1");
        assert_eq!(r.awaiting, "Player 2");
        assert_eq!(r.winner.as_deref(), Some("Player 1"));
        assert!(!r.late);
        assert!(
            r.summary()
                .starts_with("reported by Player 1: Player 1 won"),
            "{}",
            r.summary()
        );
        assert!(r.explanation.rulings.iter().any(|x| x == "ARB-R45"));
        assert!(view.games[1].report.is_none());
        // The JSON carries it; a game without a report has no `report` key.
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["games"][0]["report"]["by"], "Player 1");
        assert!(json["games"][1].get("report").is_none());
        // So does the forum post, in the result column.
        for markup in [Markup::BbCode, Markup::Markdown] {
            let post = announcement(markup, &view);
            assert!(
                post.contains(
                    "reported by Player 1: Player 1 won (concession), awaiting confirmation"
                ),
                "{post}"
            );
        }

        let done = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P2), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap();
        assert!(
            matches!(
                done.events.as_slice(),
                [
                    Event::ResultConfirmed { game: G1, by: Confirmer::Player(P2), .. },
                    Event::ResultRecorded { game: G1, result: recorded },
                ] if recorded.status == GameStatus::Played && recorded.at == day(1)
                    && recorded.outcome == result.outcome
            ),
            "{:?}",
            done.events
        );
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        let game = ladder.game(G1).unwrap();
        assert_eq!(game.status, GameStatus::Played);
        assert!(game.report.is_none());
        assert!(round_1(&svc).await.games[0].report.is_none());
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_reporter_cannot_confirm_his_own_report() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, v) = svc.load(COMP, None).await.unwrap();
        svc.execute(
            COMP,
            report(G1, won_by(&ladder, G1, P1), P1, day(1)),
            &ctx(day(1)),
        )
        .await
        .unwrap();
        let err = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P1), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap_err();
        let m = refusal(err);
        assert!(m.contains("nobody confirms his own game's report"), "{m}");
        // Nor does a player of another game.
        let err = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P3), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap_err();
        assert!(refusal(err).contains("Player 3 does not play in"));
        // Nothing was stored by the refusals.
        assert_eq!(svc.store().version(COMP).await.unwrap(), v + 1);
        assert!(
            svc.load(COMP, None)
                .await
                .unwrap()
                .0
                .game(G1)
                .unwrap()
                .report
                .is_some()
        );
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_moderator_who_plays_in_the_game_cannot_confirm_it() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        svc.execute(
            COMP,
            report(G2, won_by(&ladder, G2, P3), P3, day(1)),
            &ctx(day(1)),
        )
        .await
        .unwrap();
        let err = svc
            .execute(
                COMP,
                confirm(G2, Confirmer::Moderator("Mod Two".into()), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap_err();
        let m = refusal(err);
        assert!(
            m.contains("No participant in a game may moderate his own game"),
            "{m}"
        );
        let err = svc
            .execute(
                COMP,
                confirm(G2, Confirmer::Moderator("Mod Nine".into()), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap_err();
        assert!(refusal(err).contains("is not a moderator"));
        // Mod One does not play in it (names compare without case, ARB-R22).
        let done = svc
            .execute(
                COMP,
                confirm(G2, Confirmer::Moderator("mod one".into()), day(2)),
                &ctx(day(2)),
            )
            .await
            .unwrap();
        assert_eq!(
            kinds(&svc, done.first).await,
            ["result-confirmed", "result-recorded"]
        );
        // Recorded under the moderator's name as the ladder has it.
        assert!(
            matches!(&done.events[0], Event::ResultConfirmed { by: Confirmer::Moderator(m), .. } if m == "Mod One"),
            "{:?}",
            done.events
        );
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_opponent_reporting_the_same_result_confirms_it() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        let result = won_by(&ladder, G1, P2);
        svc.execute(COMP, report(G1, result.clone(), P1, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        // A different result from the other player replaces the report.
        let other = won_by(&ladder, G1, P1);
        svc.execute(COMP, report(G1, other, P2, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        let view = round_1(&svc).await;
        assert_eq!(view.games[0].report.as_ref().unwrap().by, "Player 2");
        // Player 1 now reports what Player 2 reported (with a note of his
        // own): that confirms it.
        let same = ResultInput {
            note: Some("fair enough".into()),
            ..won_by(&ladder, G1, P1)
        };
        let done = svc
            .execute(COMP, report(G1, same, P1, day(2)), &ctx(day(2)))
            .await
            .unwrap();
        assert_eq!(
            kinds(&svc, done.first).await,
            ["result-confirmed", "result-recorded"]
        );
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        let game = ladder.game(G1).unwrap();
        assert_eq!(game.status, GameStatus::Played);
        let recorded = game.result.as_ref().unwrap();
        assert_eq!(recorded.outcome, Outcome::Win(game.side_of(P1).unwrap()));
        assert_eq!(recorded.note, None, "the confirmed report's note is kept");
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rejection_clears_the_report() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        svc.execute(
            COMP,
            report(G1, won_by(&ladder, G1, P1), P1, day(1)),
            &ctx(day(1)),
        )
        .await
        .unwrap();
        let done = svc
            .execute(
                COMP,
                Command::RejectReport {
                    game: G1,
                    by: Confirmer::Player(P2),
                    reason: "I won on turn 7".into(),
                    at: day(2),
                },
                &ctx(day(2)),
            )
            .await
            .unwrap();
        assert_eq!(kinds(&svc, done.first).await, ["report-rejected"]);
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        let game = ladder.game(G1).unwrap();
        assert!(game.report.is_none());
        assert_eq!(game.status, GameStatus::Scheduled);
        assert!(round_1(&svc).await.games[0].report.is_none());
        // Nothing left to confirm.
        let err = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P2), day(3)),
                &ctx(day(3)),
            )
            .await
            .unwrap_err();
        assert!(refusal(err).contains("is reported"));
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_confirmation_with_a_key_is_stored_once() {
    for db in both().await {
        let svc = common::service(db.store.clone());
        running(&svc).await;
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        svc.execute(
            COMP,
            report(G1, won_by(&ladder, G1, P1), P1, day(1)),
            &ctx(day(1)),
        )
        .await
        .unwrap();
        let first = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P2), day(2)),
                &keyed(day(2), "confirm-g1"),
            )
            .await
            .unwrap();
        assert!(!first.replayed);
        assert_eq!(first.last, first.first + 1);
        let v = svc.store().version(COMP).await.unwrap();
        // The same confirmation retried later: replayed, nothing stored.
        let again = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P2), day(3)),
                &keyed(day(3), "confirm-g1"),
            )
            .await
            .unwrap();
        assert!(again.replayed);
        assert_eq!((again.first, again.last), (first.first, first.last));
        assert_eq!(svc.store().version(COMP).await.unwrap(), v);
        // The key for another confirmer is another request.
        let err = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Moderator("Mod One".into()), day(3)),
                &keyed(day(3), "confirm-g1"),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&err, ServiceError::Store(StoreError::KeyReused { key }) if key == "confirm-g1"),
            "{err}"
        );
        // Without the key, the game is decided: a second confirmation is refused.
        let err = svc
            .execute(
                COMP,
                confirm(G1, Confirmer::Player(P2), day(3)),
                &ctx(day(3)),
            )
            .await
            .unwrap_err();
        assert!(refusal(err).contains("already has a result"));
        assert_eq!(svc.store().version(COMP).await.unwrap(), v);
        assert_consistent(&svc, COMP).await;
    }
}
