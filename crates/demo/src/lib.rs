//! The demo competitions: a realistic TWS ladder of about 30 players over
//! four rounds (skips, joins during a round, an eliminator, quick rounds, an
//! agreed result and an adjudication), an XMadn league with its playoff and a
//! Challengers event, and a Sunjang league of three seasons. The same story
//! every time (results from a fixed generator, draws from a fixed seed base),
//! for `arbiter demo`, `arbiter serve --demo` and tests.
//!
//! The story is placed relative to the day it is built for ([`build_on`]):
//! the ladder's running round was announced [`ROUND_AGE_DAYS`] days before
//! it, so its deadline (three months from the announcement, TWS Conduct of
//! Games) lies weeks ahead and every action the README suggests works on any
//! date. No event of the demo lies after that day. [`build`] tells it on
//! [`reference_today`], a fixed day, for tests whose output is compared.

pub mod roundrobin;
pub mod sunjang;
pub mod xmadn;

use arbiter_engine::model::{Adjudication, EndTag, GameId, Outcome, Side, Time};
use arbiter_engine::tws::{Command, Ladder, LadderRules, PairingPlan, ResultInput};
use arbiter_service::{Context, SeedSource, Service, ServiceError};
use arbiter_store::EventStore;
use chrono::{Duration, SubsecRound, TimeZone, Utc};

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// What [`build`] made: each competition's id, state and version.
#[derive(Debug, Clone)]
pub struct Built {
    pub ladder: (String, Ladder, u64),
    /// The day the demo was built for: a time during the ladder's fourth
    /// round, [`ROUND_AGE_DAYS`] days after it was announced, to show it at
    /// (deadlines, overdue games). Every event of the demo is at or before it.
    pub now: Time,
    /// The adjudicated game of round 2.
    pub adjudicated: Option<GameId>,
    pub league: (String, arbiter_engine::xmadn::league::League, u64),
    pub challengers: (String, arbiter_engine::xmadn::challengers::Challengers, u64),
    pub sunjang: (String, arbiter_engine::sunjang::season::League, u64),
}

const PLAYERS: [&str; 28] = [
    "Ana Morales",
    "Ben Carter",
    "Chloé Dubois",
    "Dmitri Volkov",
    "Emma Lindgren",
    "Farid Haddad",
    "Grace O'Neill",
    "Hiro Tanaka",
    "Isabel Ruiz",
    "Jonas Becker",
    "Kai Nakamura",
    "Lena Fischer",
    "Marco Rossi",
    "Nadia Petrova",
    "Oscar Nilsson",
    "Priya Raman",
    "Quentin Leroy",
    "Rosa Alvarez",
    "Stefan Kowalski",
    "Tessa de Vries",
    "Umar Siddiqui",
    "Vera Novak",
    "Will Harper",
    "Xiu Chen",
    "Yusuf Demir",
    "Zoe Adler",
    "Aaron Brooks",
    "Bianca Costa",
];

/// A small deterministic generator so the demo tells the same story each time.
#[derive(Debug, Clone)]
pub(crate) struct Dice(pub(crate) u64);

impl Dice {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn result(&mut self) -> ResultInput {
        let roll = self.below(100);
        let (outcome, ended_by) = if roll < 5 {
            (Outcome::Tie, EndTag::FinalScoring)
        } else {
            let side = if roll < 52 { Side::Ussr } else { Side::Us };
            let end = match self.below(20) {
                0..=7 => EndTag::Vp,
                8..=12 => EndTag::FinalScoring,
                13..=14 => EndTag::EuropeControl,
                15..=16 => EndTag::Defcon,
                17 => EndTag::Wargames,
                _ => EndTag::Concession,
            };
            (Outcome::Win(side), end)
        };
        let vp = match (&outcome, &ended_by) {
            (Outcome::Tie, _) => Some(0),
            (Outcome::Win(Side::Us), EndTag::Vp) => Some(20),
            (Outcome::Win(Side::Ussr), EndTag::Vp) => Some(-20),
            _ => None,
        };
        let turn = match ended_by {
            EndTag::FinalScoring => Some(10),
            _ => Some(3 + self.below(7) as u8),
        };
        ResultInput {
            outcome,
            ended_by,
            vp,
            turn,
            note: None,
        }
    }
}

/// How long before "today" the ladder's running round (round 4) was
/// announced.
pub const ROUND_AGE_DAYS: i64 = 30;

/// How long before "today" the story starts: the days from the ladder's
/// creation to round 4's announcement (4 + 60 + 95 + 5 + 75, the gaps in
/// [`build_on`]) and [`ROUND_AGE_DAYS`].
const STORY_DAYS: i64 = 239 + ROUND_AGE_DAYS;

/// The fixed day [`build`] tells the story on (2025-09-28 09:00 UTC), so that
/// its output can be compared byte for byte.
pub fn reference_today() -> Time {
    Utc.with_ymd_and_hms(2025, 1, 2, 9, 0, 0)
        .single()
        .map_or_else(Utc::now, |t0| t0 + Duration::days(STORY_DAYS))
}

fn day(base: Time, d: i64) -> Time {
    base + Duration::days(d)
}

struct Demo<'a, S> {
    svc: &'a Service<S>,
    id: String,
    actor: String,
}

impl<S: EventStore> Demo<'_, S> {
    fn ctx(&self, at: Time) -> Context {
        Context::new(self.actor.clone(), at)
    }

    async fn exec(&self, at: Time, cmd: Command) -> Result<()> {
        self.svc.execute(&self.id, cmd, &self.ctx(at)).await?;
        Ok(())
    }

    async fn ladder(&self) -> Result<Ladder> {
        Ok(self.svc.load(&self.id, None).await?.0)
    }

    async fn player(&self, name: &str) -> Result<arbiter_engine::model::PlayerId> {
        self.ladder()
            .await?
            .find(name)
            .ok_or_else(|| ServiceError::Input(format!("the demo ladder has no player {name:?}")))
    }

    async fn announce(&self, at: Time) -> Result<()> {
        self.svc
            .announce_round(
                &self.id,
                None,
                PairingPlan::Default { eliminator: None },
                false,
                &self.ctx(at),
            )
            .await?;
        Ok(())
    }

    /// Results for the open round's unresolved games, except `leave`: the
    /// i-th game's on day `first + 3i mod span` after `start`.
    async fn play(
        &self,
        dice: &mut Dice,
        start: Time,
        (first, span): (i64, i64),
        leave: &[GameId],
    ) -> Result<()> {
        let ladder = self.ladder().await?;
        let Some(round) = ladder.open_round() else {
            return Ok(());
        };
        for (i, g) in round.games.iter().enumerate() {
            let done = ladder.game(*g).is_some_and(|g| g.status.is_resolved());
            if done || leave.contains(g) {
                continue;
            }
            let at = day(start, first + (i as i64 * 3) % span);
            self.exec(
                at,
                Command::RecordResult {
                    game: *g,
                    result: dice.result(),
                    agreed: false,
                    at,
                },
            )
            .await?;
        }
        Ok(())
    }
}

/// `wanted`, or `wanted-2`, `wanted-3` … when `existing` holds it.
pub(crate) fn fresh(existing: &[String], wanted: &str) -> String {
    let mut id = wanted.to_string();
    let mut n = 2;
    while existing.contains(&id) {
        id = format!("{wanted}-{n}");
        n += 1;
    }
    id
}

/// [`build_on`] the fixed [`reference_today`]: the same output every time,
/// for tests and snapshots.
pub async fn build<S: EventStore + Clone>(store: &S, wanted: &str) -> Result<Built> {
    build_on(store, wanted, reference_today()).await
}

/// Build the demo competitions in `store` as of `today`: the ladder `wanted`
/// (or `wanted-2`, … when taken) and the XMadn league, Challengers event and
/// Sunjang league beside it, each under a fresh id. The binaries pass the
/// real day, so the running round is weeks from its deadline whenever the
/// demo is built.
pub async fn build_on<S: EventStore + Clone>(
    store: &S,
    wanted: &str,
    today: Time,
) -> Result<Built> {
    // The demo tells the same story every time: its draws come from a fixed
    // base (never do this for a real competition: the draws are predictable).
    let demo_svc =
        Service::new(store.clone()).with_seeds(SeedSource::Deterministic("arbiter demo".into()));
    let svc = &demo_svc;
    let existing = svc.competitions().await?;
    let fresh = |wanted: &str| fresh(&existing, wanted);
    let id = fresh(wanted);
    let league_id = fresh("xmadn-league-demo");
    let challengers_id = fresh("xmadn-challengers-demo");
    let sunjang_id = fresh("sunjang-demo");
    // The draws depend on the competition id; a second demo in the same
    // database tells a different story.
    let demo = Demo {
        svc,
        id: id.clone(),
        actor: "demo".into(),
    };
    let mut dice = Dice(0x2008_0305_1833);
    // Whole seconds: the story's times read as a person would write them.
    let today = today.trunc_subsecs(0);
    let t0 = today - Duration::days(STORY_DAYS);

    svc.create_ladder(
        &id,
        "Twilight Struggle Ladder (demo)",
        LadderRules::default(),
        &["Jordan Reyes".to_string(), "Sam Whitfield".to_string()],
        &demo.ctx(t0),
    )
    .await?;
    for (i, name) in PLAYERS.iter().take(24).enumerate() {
        demo.exec(
            day(t0, i as i64 / 8),
            Command::Join {
                name: (*name).into(),
                surname: None,
            },
        )
        .await?;
    }
    demo.exec(
        day(t0, 2),
        Command::RegisterGuest {
            name: "Mika Lindqvist".into(),
            surname: None,
        },
    )
    .await?;
    let mika = demo.player("Mika Lindqvist").await?;
    demo.exec(day(t0, 2), Command::VolunteerEliminator { player: mika })
        .await?;

    // Round 1: 24 players, adjacent pairings, sides drawn for newcomers.
    let r1 = day(t0, 4);
    demo.announce(r1).await?;
    demo.play(&mut dice, r1, (10, 60), &[]).await?;
    // Early finishers play quick rounds.
    let a = demo.player("Hiro Tanaka").await?;
    let b = demo.player("Lena Fischer").await?;
    demo.exec(
        day(r1, 30),
        Command::ScheduleQuickGame {
            ussr: a,
            us: b,
            at: day(r1, 30),
        },
    )
    .await?;
    // Applications arrive and are approved.
    for name in &PLAYERS[24..27] {
        demo.exec(
            day(r1, 40),
            Command::Apply {
                name: (*name).into(),
                surname: None,
            },
        )
        .await?;
    }
    for name in &PLAYERS[24..27] {
        let p = demo.player(name).await?;
        demo.exec(day(r1, 41), Command::Approve { player: p })
            .await?;
    }
    let ben = demo.player("Ben Carter").await?;
    let vera = demo.player("Vera Novak").await?;
    demo.exec(
        day(r1, 50),
        Command::RequestSkip {
            player: ben,
            round: None,
        },
    )
    .await?;
    demo.exec(
        day(r1, 50),
        Command::RequestSkip {
            player: vera,
            round: None,
        },
    )
    .await?;

    // Round 2: closes round 1 first; two skip; one member joins mid-round
    // and meets the eliminator; one game is agreed late, one adjudicated.
    let r2 = day(r1, 60);
    demo.announce(r2).await?;
    let ladder = demo.ladder().await?;
    let round2 = ladder
        .open_round()
        .map(|r| r.games.clone())
        .unwrap_or_default();
    let late_a = round2.first().copied();
    let late_b = round2.get(1).copied();
    let quick_a = ladder.game(GameId(1)).map(|g| g.ussr.player);
    demo.play(
        &mut dice,
        r2,
        (10, 60),
        &[late_a.unwrap_or(GameId(0)), late_b.unwrap_or(GameId(0))],
    )
    .await?;
    demo.exec(
        day(r2, 20),
        Command::Apply {
            name: PLAYERS[27].into(),
            surname: None,
        },
    )
    .await?;
    let bianca = demo.player(PLAYERS[27]).await?;
    demo.exec(day(r2, 21), Command::Approve { player: bianca })
        .await?;
    demo.exec(
        day(r2, 22),
        Command::AddRoundGame {
            player: bianca,
            opponent: mika,
            reason: "joined during round 2; plays the volunteer eliminator".into(),
            at: day(r2, 22),
        },
    )
    .await?;
    let ladder = demo.ladder().await?;
    if let Some(last) = ladder.open_round().and_then(|r| r.games.last().copied()) {
        demo.exec(
            day(r2, 70),
            Command::RecordResult {
                game: last,
                result: dice.result(),
                agreed: false,
                at: day(r2, 70),
            },
        )
        .await?;
    }
    let after = day(r2, 95);
    if let Some(gid) = late_a {
        demo.exec(
            after,
            Command::RecordResult {
                game: gid,
                result: ResultInput {
                    outcome: Outcome::Win(Side::Us),
                    ended_by: EndTag::Concession,
                    vp: Some(11),
                    turn: Some(8),
                    note: Some("agreed after the deadline".into()),
                },
                agreed: true,
                at: after,
            },
        )
        .await?;
    }
    if let Some(gid) = late_b {
        demo.exec(
            day(after, 3),
            Command::Adjudicate {
                game: gid,
                outcome: Outcome::Win(Side::Ussr),
                vp: Some(-9),
                turn: Some(7),
                record: Adjudication {
                    final_state: "Turn 7 action round 4, VP -9 (USSR), DEFCON 3; USSR controls Europe's battlegrounds except West Germany; the US holds 5 cards including Wargames".into(),
                    ussr_statement: Some("I played every move within two days; the US player stopped answering in March.".into()),
                    us_statement: Some("Work travel; I expected to catch up with Scoring cards still to come.".into()),
                    third_party: Some("Assistant moderator Sam Whitfield: USSR is clearly better, about 75% to win from here".into()),
                    decision: "USSR win: a clear positional and VP lead, and the delays were on the US side".into(),
                },
                at: day(after, 3),
            },
        )
        .await?;
    }
    if let (Some(qa), true) = (quick_a, true) {
        let c = demo.player("Oscar Nilsson").await?;
        demo.exec(
            day(r2, 40),
            Command::ScheduleQuickGame {
                ussr: c,
                us: qa,
                at: day(r2, 40),
            },
        )
        .await?;
    }
    // Settle the quick-round games.
    let ladder = demo.ladder().await?;
    for gm in ladder
        .games
        .iter()
        .filter(|g| g.round.is_none() && !g.status.is_resolved())
    {
        demo.exec(
            day(r2, 45),
            Command::RecordResult {
                game: gm.id,
                result: dice.result(),
                agreed: false,
                at: day(r2, 45),
            },
        )
        .await?;
    }

    // Round 3: round 2 is closed first; its champion then skips (reinserted
    // at rung 2, streak broken) and Vera skips again (a loss, TWS-R2).
    demo.exec(day(after, 4), Command::CloseRound { at: day(after, 4) })
        .await?;
    let champion = demo.ladder().await?.order.first().copied();
    if let Some(c) = champion {
        demo.exec(
            day(after, 4),
            Command::RequestSkip {
                player: c,
                round: Some(3),
            },
        )
        .await?;
    }
    demo.exec(
        day(after, 4),
        Command::RequestSkip {
            player: vera,
            round: Some(3),
        },
    )
    .await?;
    let r3 = day(after, 5);
    demo.announce(r3).await?;
    demo.play(&mut dice, r3, (10, 60), &[]).await?;

    // Round 4: running, some games decided.
    let r4 = day(r3, 75);
    demo.announce(r4).await?;
    let ladder = demo.ladder().await?;
    let open: Vec<GameId> = ladder
        .open_round()
        .map(|r| r.games.clone())
        .unwrap_or_default();
    let keep_open: Vec<GameId> = open.iter().copied().skip(open.len() / 2).collect();
    // Its results so far came in during the weeks since it was announced.
    demo.play(&mut dice, r4, (2, ROUND_AGE_DAYS - 3), &keep_open)
        .await?;

    let now = day(r4, ROUND_AGE_DAYS);
    debug_assert_eq!(now, today);
    let (ladder, version) = svc.load(&id, None).await?;
    let league = xmadn::league(svc, &league_id, t0).await?;
    let challengers = xmadn::challengers(svc, &challengers_id, t0).await?;
    let sunjang = sunjang::build(svc, &sunjang_id, t0).await?;
    Ok(Built {
        ladder: (id, ladder, version),
        now,
        adjudicated: late_b,
        league: (league_id, league.0, league.1),
        challengers: (challengers_id, challengers.0, challengers.1),
        sunjang: (sunjang_id, sunjang.0, sunjang.1),
    })
}
