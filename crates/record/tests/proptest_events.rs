//! Random events round-trip through format v1 exactly.

#![allow(clippy::unwrap_used)]

mod common;

use arbiter_engine::model::{
    Adjudication, Counts, EndTag, GameId, GameResult, GameStatus, Outcome, Participant, PlayerId,
    Side,
};
use arbiter_engine::tws::{
    Bid, Confirmer, Event, LadderRules, Move, MoveReason, PairingMethod, PairingReason,
    ResultInput, Retirement, RoundAnnounced, RoundClosed, ScheduledGame, SideReason, Skip,
};
use arbiter_record::{decode, encode};
use common::{text, time};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

/// Ids mostly among the first 20.
fn player() -> impl Strategy<Value = PlayerId> {
    common::player(20)
}

fn game_id() -> impl Strategy<Value = GameId> {
    common::game_id(20)
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Ussr), Just(Side::Us)]
}

fn bid() -> impl Strategy<Value = Bid> {
    (any::<u32>(), side()).prop_map(|(influence, side)| Bid { influence, side })
}

fn rules() -> impl Strategy<Value = LadderRules> {
    (
        any::<u32>(),
        bid(),
        side(),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
        text(),
        text(),
        text(),
    )
        .prop_map(
            |(d, bid, tie, skips, missed, quick, platform, game, quick_round)| LadderRules {
                deadline_months: d,
                bid,
                tie_advances: tie,
                consecutive_skips_for_loss: skips,
                missed_rounds_for_inactive: missed,
                sides_count_quick_rounds: quick,
                platform,
                game_name_prefix: game,
                quick_round_prefix: quick_round,
            },
        )
}

fn counts() -> impl Strategy<Value = Counts> {
    prop_oneof![Just(Counts::Ladder), Just(Counts::QuickRound)]
}

fn participant() -> impl Strategy<Value = Participant> {
    (player(), side(), counts()).prop_map(|(player, side, counts)| Participant {
        player,
        side,
        counts,
    })
}

fn side_reason() -> impl Strategy<Value = SideReason> {
    prop_oneof![
        (player(), side(), option::of(game_id())).prop_map(|(champion, last, game)| {
            SideReason::ChampionSwitch {
                champion,
                last,
                game,
            }
        }),
        option::of((game_id(), game_id())).prop_map(|games| SideReason::BothSwitch { games }),
        (player(), player(), side(), option::of(game_id())).prop_map(
            |(newcomer, other, last, game)| {
                SideReason::NewcomerFlexible {
                    newcomer,
                    other,
                    last,
                    game,
                }
            }
        ),
        (player(), any::<[u32; 4]>()).prop_map(|(player, [ussr, us, other_ussr, other_us])| {
            SideReason::MostUnbalanced {
                player,
                ussr,
                us,
                other_ussr,
                other_us,
            }
        }),
        (player(), any::<u32>(), any::<u32>())
            .prop_map(|(player, ussr, us)| SideReason::HigherRungLeastPlayed { player, ussr, us }),
        (player(), side(), option::of(game_id()))
            .prop_map(|(player, last, game)| SideReason::HigherRungSwitch { player, last, game }),
        (player(), side(), any::<u64>()).prop_map(|(higher, side, draw_index)| SideReason::Drawn {
            higher,
            side,
            draw_index
        }),
        (player(), side(), option::of(game_id()))
            .prop_map(|(player, last, game)| SideReason::EliminatorSwitch { player, last, game }),
        (player(), side(), any::<u64>()).prop_map(|(player, side, draw_index)| {
            SideReason::EliminatorDrawn {
                player,
                side,
                draw_index,
            }
        }),
        Just(SideReason::Chosen),
    ]
}

fn pairing_reason() -> impl Strategy<Value = PairingReason> {
    prop_oneof![
        any::<(u32, u32)>().prop_map(|rungs| PairingReason::Adjacent { rungs }),
        any::<u32>().prop_map(|rung| PairingReason::Eliminator { rung }),
        text().prop_map(|reason| PairingReason::Override { reason }),
        text().prop_map(|reason| PairingReason::Late { reason }),
        Just(PairingReason::QuickRound),
    ]
}

fn scheduled_game() -> impl Strategy<Value = ScheduledGame> {
    (
        game_id(),
        participant(),
        participant(),
        option::of(any::<u32>()),
        side_reason(),
        pairing_reason(),
    )
        .prop_map(|(id, ussr, us, moderator, sides, pairing)| ScheduledGame {
            id,
            ussr,
            us,
            moderator,
            sides,
            pairing,
        })
}

fn end_tag() -> impl Strategy<Value = EndTag> {
    prop_oneof![
        proptest::sample::select(
            EndTag::KNOWN
                .iter()
                .map(|(_, t)| t.clone())
                .collect::<Vec<_>>()
        ),
        text().prop_map(EndTag::Other),
    ]
}

fn status() -> impl Strategy<Value = GameStatus> {
    proptest::sample::select(vec![
        GameStatus::Scheduled,
        GameStatus::Played,
        GameStatus::Agreed,
        GameStatus::Adjudicated,
        GameStatus::Forfeited,
        GameStatus::Cancelled,
    ])
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![side().prop_map(Outcome::Win), Just(Outcome::Tie)]
}

fn adjudication() -> impl Strategy<Value = Adjudication> {
    (
        text(),
        option::of(text()),
        option::of(text()),
        option::of(text()),
        text(),
    )
        .prop_map(
            |(final_state, ussr_statement, us_statement, third_party, decision)| Adjudication {
                final_state,
                ussr_statement,
                us_statement,
                third_party,
                decision,
            },
        )
}

fn game_result() -> impl Strategy<Value = GameResult> {
    (
        outcome(),
        end_tag(),
        option::of(any::<i32>()),
        option::of(any::<u8>()),
        option::of(text()),
        status(),
        option::of(adjudication()),
        time(),
    )
        .prop_map(
            |(outcome, ended_by, vp, turn, note, status, adjudication, at)| GameResult {
                outcome,
                ended_by,
                vp,
                turn,
                note,
                status,
                adjudication,
                at,
            },
        )
}

fn result_input() -> impl Strategy<Value = ResultInput> {
    (
        outcome(),
        end_tag(),
        option::of(any::<i32>()),
        option::of(any::<u8>()),
        option::of(text()),
    )
        .prop_map(|(outcome, ended_by, vp, turn, note)| ResultInput {
            outcome,
            ended_by,
            vp,
            turn,
            note,
        })
}

fn confirmer() -> impl Strategy<Value = Confirmer> {
    prop_oneof![
        player().prop_map(Confirmer::Player),
        text().prop_map(Confirmer::Moderator),
    ]
}

fn move_reason() -> impl Strategy<Value = MoveReason> {
    prop_oneof![
        (game_id(), any::<bool>()).prop_map(|(game, tie)| MoveReason::Won { game, tie }),
        (game_id(), any::<bool>()).prop_map(|(game, tie)| MoveReason::Lost { game, tie }),
        Just(MoveReason::Skipped),
        Just(MoveReason::SkippedTop),
        any::<u32>().prop_map(|consecutive| MoveReason::SkipLoss { consecutive }),
        Just(MoveReason::Bye),
        game_id().prop_map(|game| MoveReason::NoResult { game }),
        Just(MoveReason::Entered),
        game_id().prop_map(|game| MoveReason::CarriedOver { game }),
    ]
}

fn round_closed() -> impl Strategy<Value = RoundClosed> {
    (
        any::<u32>(),
        time(),
        vec(player(), 0..40),
        vec(
            (player(), any::<u32>(), any::<u32>(), move_reason()).prop_map(
                |(player, from, to, reason)| Move {
                    player,
                    from,
                    to,
                    reason,
                },
            ),
            0..40,
        ),
        vec(
            (player(), any::<u32>(), any::<u32>()).prop_map(|(player, rung, missed)| Retirement {
                player,
                rung,
                missed,
            }),
            0..5,
        ),
        option::of(player()),
        any::<u32>(),
        (vec(game_id(), 0..4), option::of(text())),
    )
        .prop_map(
            |(round, at, order, moves, inactive, champion, streak, (carried, early))| RoundClosed {
                round,
                at,
                order,
                moves,
                inactive,
                champion,
                streak,
                carried,
                early,
            },
        )
}

fn round_announced() -> impl Strategy<Value = RoundAnnounced> {
    (
        (any::<u32>(), time(), time(), bid()),
        prop_oneof![
            Just(PairingMethod::Adjacent),
            text().prop_map(|reason| PairingMethod::Override { reason }),
        ],
        vec(scheduled_game(), 0..8),
        vec(
            (player(), any::<u32>(), any::<u32>(), any::<bool>()).prop_map(
                |(player, rung, consecutive, as_loss)| Skip {
                    player,
                    rung,
                    consecutive,
                    as_loss,
                },
            ),
            0..5,
        ),
        vec((player(), any::<u32>()), 0..3),
        any::<[u8; 32]>(),
        any::<[u8; 32]>(),
    )
        .prop_map(
            |((round, at, deadline, bid), pairing, games, skips, byes, seed, next_seed_hash)| {
                RoundAnnounced {
                    round,
                    at,
                    deadline,
                    bid,
                    pairing,
                    games,
                    skips,
                    byes,
                    seed,
                    next_seed_hash,
                }
            },
        )
}

/// Boxed: the unboxed value tree of this union is large enough to overflow
/// a test thread's stack in debug builds.
fn event() -> BoxedStrategy<Event> {
    prop_oneof![
        (game_id(), game_result())
            .prop_map(|(game, result)| Event::ResultRecorded { game, result }),
        (game_id(), game_result(), text()).prop_map(|(game, result, reason)| {
            Event::ResultCorrected {
                game,
                result,
                reason,
            }
        }),
        round_closed().prop_map(|c| Event::RoundClosed(Box::new(c))),
        round_announced().prop_map(|a| Event::RoundAnnounced(Box::new(a))),
        (text(), rules(), any::<[u8; 32]>()).prop_map(|(name, rules, seed_hash)| Event::Created {
            name,
            rules,
            seed_hash
        }),
        (any::<u32>(), rules(), text()).prop_map(|(from_round, rules, reason)| {
            Event::RulesChanged {
                from_round,
                rules,
                reason,
            }
        }),
        (player(), text(), text()).prop_map(|(player, name, surname)| Event::PlayerApplied {
            player,
            name,
            surname
        }),
        (any::<u32>(), time(), scheduled_game()).prop_map(|(round, at, game)| Event::GameAdded {
            round,
            at,
            game
        }),
        (game_id(), time(), text()).prop_map(|(game, at, reason)| Event::GameCancelled {
            game,
            at,
            reason
        }),
        (any::<u64>(), text()).prop_map(|(seq, summary)| Event::Reverted { seq, summary }),
        (game_id(), result_input(), player(), time()).prop_map(|(game, result, by, at)| {
            Event::ResultReported {
                game,
                result,
                by,
                at,
            }
        }),
        (game_id(), confirmer(), time()).prop_map(|(game, by, at)| Event::ResultConfirmed {
            game,
            by,
            at
        }),
        (game_id(), confirmer(), text(), time()).prop_map(|(game, by, reason, at)| {
            Event::ReportRejected {
                game,
                by,
                reason,
                at,
            }
        }),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn events_round_trip(e in event()) {
        let json = encode(&e);
        prop_assert_eq!(decode(&json), Ok(e), "{}", json);
    }

    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        let _ = decode(&s);
    }

    /// Corrupting one character of a valid record gives a result or an
    /// error, never a panic.
    #[test]
    fn corrupted_records_never_panic(
        e in event(),
        at in any::<proptest::sample::Index>(),
        c in proptest::sample::select(vec!['0', '9', '-', '"', ',', ':', '[', ']', '{', '}', 'x', 'e', '.', ' ']),
        replace in any::<bool>(),
    ) {
        let json = encode(&e);
        let mut chars: Vec<char> = json.chars().collect();
        let i = at.index(chars.len());
        if replace {
            chars[i] = c;
        } else {
            chars.insert(i, c);
        }
        let corrupted: String = chars.into_iter().collect();
        let _ = decode(&corrupted);
    }
}
