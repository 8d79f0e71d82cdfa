//! The Sunjang part of the demo: about 60 players over three seasons,
//! with withdrawals, new players, rank changes (promotions by rank), final
//! rounds, and the third season running. Results follow the ratings with
//! upsets, jigo and a forfeit from a fixed generator, so the story is the
//! same every time.

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::sunjang::final_round::FinalState;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{Command, League};
use arbiter_engine::sunjang::{PlayerInfo, Rank};
use arbiter_service::{Context, Service, ServiceError};
use arbiter_store::EventStore;
use chrono::Duration;

use crate::{Dice, Result};

const GIVEN: [&str; 20] = [
    "Min-jun", "Seo-yeon", "Ji-ho", "Ha-eun", "Do-yun", "Soo-ah", "Hyun-woo", "Ji-woo", "Eun-woo",
    "Yu-na", "Takeshi", "Aiko", "Wei", "Mei", "Lukas", "Sofia", "Mateo", "Elena", "Noah", "Ines",
];
const FAMILY: [&str; 4] = ["Kim", "Lee", "Park", "Choi"];

fn ctx(t: Time) -> Context {
    Context::new("demo", t)
}

/// A rank from a rating (OGS-like: 1500 is about 5k, 100 points a rank).
fn rank_of(rating: i32) -> Rank {
    let k = 5 - (rating - 1500).div_euclid(100);
    if k >= 1 {
        Rank::Kyu(k.min(30) as u8)
    } else {
        Rank::Dan((1 - k).min(9) as u8)
    }
}

fn player(name: String, rating: i32, rng: &mut Dice) -> PlayerInfo {
    let corr = rng.below(3) > 0;
    let corr_rating = rating + rng.below(120) as i32 - 60;
    PlayerInfo {
        name,
        rank: rank_of(rating),
        provisional: rng.below(12) == 0,
        rating,
        corr_rank: corr.then(|| rank_of(corr_rating)),
        corr_rating: corr.then_some(corr_rating),
    }
}

async fn exec<S: EventStore>(svc: &Service<S>, id: &str, t: Time, c: Command) -> Result<()> {
    svc.execute_as::<League>(id, c, &ctx(t)).await?;
    Ok(())
}

/// Play every game of the running season (all but `leave` of them).
async fn play<S: EventStore>(
    svc: &Service<S>,
    id: &str,
    t: &mut Time,
    rng: &mut Dice,
    leave: usize,
) -> Result<()> {
    let (l, _) = svc.load_as::<League>(id, None).await?;
    let Some(s) = l.current() else { return Ok(()) };
    let games: Vec<(PlayerId, PlayerId)> = s
        .divisions
        .iter()
        .flatten()
        .flat_map(|g| &g.games)
        .filter(|g| g.outcome.is_none())
        .map(|g| (g.pairing.black, g.pairing.white))
        .collect();
    let keep = games.len().saturating_sub(leave);
    for (black, white) in games.into_iter().take(keep) {
        *t += Duration::hours(7);
        let rb = l.info(black).map_or(1500, |i| i.rating);
        let rw = l.info(white).map_or(1500, |i| i.rating);
        // The stronger player wins two games in three, more with a wide gap.
        let edge = ((rb - rw).clamp(-400, 400) / 8) as i64;
        let roll = rng.below(100) as i64;
        let outcome = match roll {
            0 => Outcome::WhiteForfeits,
            1..=3 => Outcome::Jigo,
            r if r < 50 + edge => Outcome::BlackWins,
            _ => Outcome::WhiteWins,
        };
        exec(
            svc,
            id,
            *t,
            Command::RecordResult {
                black,
                white,
                outcome,
                at: *t,
            },
        )
        .await?;
    }
    Ok(())
}

/// Close the season and play its final round to a champion.
async fn close_and_final<S: EventStore>(
    svc: &Service<S>,
    id: &str,
    t: &mut Time,
    rng: &mut Dice,
) -> Result<()> {
    *t += Duration::days(2);
    exec(svc, id, *t, Command::CloseSeason { at: *t }).await?;
    *t += Duration::days(1);
    exec(svc, id, *t, Command::QualifyFinal { at: *t }).await?;
    for _ in 0..6 {
        let (l, _) = svc.load_as::<League>(id, None).await?;
        let s = l
            .current()
            .ok_or_else(|| ServiceError::Input("the demo season vanished".into()))?;
        let (black, white) = match l.final_state(s) {
            Some(FinalState::Playing { next }) => match next.first() {
                Some(&pair) => pair,
                None => break,
            },
            // The deciding game of two players left tied (SJ-R8).
            Some(FinalState::Playoff { players, .. }) => (players[0], players[1]),
            _ => break,
        };
        *t += Duration::days(3);
        let outcome = if rng.below(2) == 0 {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        };
        exec(
            svc,
            id,
            *t,
            Command::RecordFinalGame {
                black,
                white,
                outcome,
                at: *t,
            },
        )
        .await?;
    }
    Ok(())
}

/// Build the demo Sunjang league: three seasons.
pub async fn build<S: EventStore>(svc: &Service<S>, id: &str, t0: Time) -> Result<(League, u64)> {
    let text = arbiter_record::preset("sunjang-league")
        .ok_or_else(|| ServiceError::Input("the sunjang-league preset is missing".into()))?;
    let (rules, restrictions) = arbiter_record::parse_sunjang_rules(text)
        .map_err(|e| ServiceError::Input(format!("preset: {e}")))?;
    svc.create_sunjang(
        id,
        "Sunjang Baduk League (demo)",
        rules,
        restrictions,
        &ctx(t0),
    )
    .await?;
    let mut rng = Dice(0x5a17_a11e_2013);
    let mut t = t0;
    // 60 players from about 3d to 20k.
    for i in 0..60usize {
        let name = format!("{} {}", FAMILY[i % 4], GIVEN[i / 4 % 20]);
        let name = if i >= 80 { format!("{name} {i}") } else { name };
        let rating = 1900 - (i as i32) * 25 + rng.below(60) as i32 - 30;
        let info = player(name, rating, &mut rng);
        t += Duration::minutes(5);
        exec(svc, id, t, Command::Register { info }).await?;
    }
    // Season 1: from the registrations.
    t += Duration::days(1);
    exec(svc, id, t, Command::PlanSeason { at: t }).await?;
    play(svc, id, &mut t, &mut rng, 0).await?;
    close_and_final(svc, id, &mut t, &mut rng).await?;

    // Between seasons: three withdraw, four join, two improve their rank.
    let (l, _) = svc.load_as::<League>(id, None).await?;
    for k in [7u32, 23, 41] {
        t += Duration::hours(1);
        exec(
            svc,
            id,
            t,
            Command::Withdraw {
                player: PlayerId(k),
                reason: "no time this season".into(),
            },
        )
        .await?;
    }
    for (k, rating) in [
        ("Park Joon", 2050),
        ("Lee Sora", 1720),
        ("Kim Dae", 1380),
        ("Choi Hana", 1180),
    ] {
        t += Duration::hours(1);
        let info = player(k.to_string(), rating, &mut rng);
        exec(svc, id, t, Command::Register { info }).await?;
    }
    for k in [50u32, 33] {
        if let Some(mut info) = l.info(PlayerId(k)).cloned() {
            info.rating += 420;
            info.rank = rank_of(info.rating);
            info.provisional = false;
            t += Duration::hours(1);
            exec(
                svc,
                id,
                t,
                Command::Update {
                    player: PlayerId(k),
                    info,
                },
            )
            .await?;
        }
    }
    // Season 2.
    t += Duration::days(10);
    exec(svc, id, t, Command::PlanSeason { at: t }).await?;
    play(svc, id, &mut t, &mut rng, 0).await?;
    close_and_final(svc, id, &mut t, &mut rng).await?;

    // Season 3: running, a dozen games left.
    t += Duration::hours(3);
    exec(
        svc,
        id,
        t,
        Command::Withdraw {
            player: PlayerId(12),
            reason: "moved away".into(),
        },
    )
    .await?;
    t += Duration::days(10);
    exec(svc, id, t, Command::PlanSeason { at: t }).await?;
    play(svc, id, &mut t, &mut rng, 12).await?;
    svc.load_as::<League>(id, None).await
}
