//! The deterministic simulation of a TWS ladder run through the service.
//!
//! From a `u64` seed (ChaCha8), simulated organizers and players send
//! requests to several [`Service`](arbiter_service::Service) instances
//! (processes) over one [`MemoryStore`](crate::MemoryStore) wrapped in a
//! [`FaultyStore`](crate::FaultyStore) (the harness of [`crate::harness`]),
//! whose fault model is:
//! - a crash before commit (a failed call: the append, or a read before it);
//! - a crash after commit (the append lands, the client is told it failed),
//!   after which the client retries with the same idempotency key;
//! - a store gone for good from some call on (persistent faults);
//! - conflicts: two or three requests run concurrently on one task, with
//!   the store yielding between calls in an order the seed decides, and a
//!   service whose cache is behind another's writes;
//! - duplicated requests (the same key again, later or concurrently),
//!   reordered requests (a batch delivered shuffled), a key reused for
//!   another request, and requests pinned to a version that is gone.
//!
//! After every delivery the log is read back and checked; after every step
//! everything is: sequences without gaps, every acknowledged command's
//! events in the log (no acknowledged command lost), each idempotency key's
//! events stored once, refused commands stored nothing (the log grows by
//! exactly what was acknowledged plus what landed before a crash), every
//! service's cached state equal to the fold of the log, a fresh service's
//! too, the engine's own invariants of the ladder, and for each request
//! decided on a known state the service's answer equal to the engine's
//! `decide` on the fold (same events, or the same refusal).
//!
//! Nothing depends on the wall clock or on hash order: times are derived
//! from the step, the runtime is current-thread with a paused clock (the
//! service's back-off sleeps in virtual time), and maps are `BTreeMap`s.

use std::collections::{BTreeMap, BTreeSet};

use arbiter_engine::model::{EndTag, GameId, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{
    self, Command, Confirmer, Event, Ladder, LadderRules, Membership, PairingPlan, ResultInput,
};
use arbiter_service::ServiceError;
use arbiter_store::Seq;

use crate::harness::{self, Done, Draws, MODERATORS, Oracle, Sim, Svc, with_counts};
use crate::seeds::Named;

pub use crate::harness::{Config, Failure, current_step};

/// The competition the simulation runs.
pub const COMPETITION: &str = "sim-ladder";

/// What runs did, summed over seeds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub seeds: u64,
    pub steps: u64,
    /// Requests delivered to a service (retries and duplicates included).
    pub deliveries: u64,
    /// Answered with new events.
    pub acknowledged: u64,
    /// Answered with the first outcome of their key.
    pub replayed: u64,
    /// Refused by the rules or by a check of the service (nothing stored).
    pub refused: u64,
    /// Refused because another writer got in first (pinned version).
    pub conflicts: u64,
    /// Refused because the key was used for another request.
    pub keys_reused: u64,
    /// Faults injected.
    pub faults: u64,
    /// Faults the service got over without failing the request (a read
    /// tried again), its answer checked as if there had been none.
    pub faults_absorbed: u64,
    /// Appends that landed before a crash that the client saw.
    pub landed_after_commit: u64,
    /// Requests retried with their key after a failure.
    pub retries: u64,
    /// Groups of requests run concurrently.
    pub concurrent_groups: u64,
    /// Stored events at the end of the runs.
    pub events: u64,
    /// Rounds announced by the end of the runs.
    pub rounds: u64,
    /// Games decided after their deadline (agreed or adjudicated) by the
    /// end of the runs.
    pub late_results: u64,
    /// FNV-1a of every run's final log (sequence, key, payload), summed:
    /// two runs of the same seeds must agree on it.
    pub log_hash: u64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.seeds += o.seeds;
        self.steps += o.steps;
        self.deliveries += o.deliveries;
        self.acknowledged += o.acknowledged;
        self.replayed += o.replayed;
        self.refused += o.refused;
        self.conflicts += o.conflicts;
        self.keys_reused += o.keys_reused;
        self.faults += o.faults;
        self.faults_absorbed += o.faults_absorbed;
        self.landed_after_commit += o.landed_after_commit;
        self.retries += o.retries;
        self.concurrent_groups += o.concurrent_groups;
        self.events += o.events;
        self.rounds += o.rounds;
        self.late_results += o.late_results;
        self.log_hash = self.log_hash.wrapping_add(o.log_hash);
    }
}

/// Run the simulation of `seed` on a fresh current-thread runtime.
pub fn run_seed(seed: u64, config: Config) -> Result<Stats, Failure> {
    let runtime = harness::runtime(Tws::NAMED, seed)?;
    runtime.block_on(World::new(seed, config, |_| Tws { next_name: 1 }).run())
}

type Request = harness::Request<What>;
type World = harness::World<Tws>;

#[derive(Debug, Clone)]
enum What {
    Create,
    Exec(Command),
    Announce,
    Undo,
}

/// What the ladder's simulation adds to the harness.
struct Tws {
    next_name: u32,
}

impl Sim for Tws {
    type Format = Ladder;
    type What = What;
    type Stats = Stats;
    const COMPETITION: &'static str = COMPETITION;
    const NOUN: &'static str = "ladder";
    const NAMED: Named = Named {
        name: "simulation",
        test: "simulation",
    };
    const CREATE: What = What::Create;
    const SKIPS_DAYS: bool = true;

    async fn deliver(
        &self,
        svc: &Svc,
        request: &Request,
        at: Time,
    ) -> Result<Done<Self>, ServiceError> {
        let ctx = request.context(at);
        match &request.what {
            What::Create => {
                let mods: Vec<String> = MODERATORS.iter().map(|m| (*m).to_owned()).collect();
                svc.create_ladder(
                    COMPETITION,
                    "Simulated ladder",
                    LadderRules::default(),
                    &mods,
                    &ctx,
                )
                .await
            }
            What::Exec(command) => svc.execute(COMPETITION, command.clone(), &ctx).await,
            What::Announce => svc
                .announce_round(
                    COMPETITION,
                    None,
                    PairingPlan::Default { eliminator: None },
                    false,
                    &ctx,
                )
                .await
                .map(|(_, executed)| executed),
            What::Undo => svc.undo(COMPETITION, &ctx).await.map(|(e, _)| e),
        }
    }

    fn oracle(
        &self,
        truth: &Ladder,
        what: &What,
        _: &Result<Done<Self>, ServiceError>,
        _: Time,
    ) -> Option<Oracle<Self>> {
        match what {
            What::Exec(command) => Some(truth.decide(command.clone())),
            _ => None,
        }
    }

    fn is_undo(what: &What) -> bool {
        matches!(what, What::Undo)
    }

    fn checked_late(&self, _: &What) -> bool {
        false
    }

    fn fold(decoded: &[(Seq, Event)]) -> Ladder {
        tws::fold(decoded.iter().map(|(s, e)| (*s, e)))
    }

    fn check(truth: &Ladder) -> Result<(), String> {
        check_ladder(truth)
    }

    fn diff(got: &Ladder, want: &Ladder) -> String {
        ladder_diff(got, want)
    }

    fn created(truth: &Ladder) -> bool {
        truth.created
    }

    /// A command is the same as the key's when their fingerprints are
    /// (what the service compares); the other requests name no command.
    fn same_request(what: &What, first: Option<&What>) -> bool {
        match (what, first) {
            (What::Exec(a), Some(What::Exec(b))) => {
                arbiter_service::fingerprint(a) == arbiter_service::fingerprint(b)
            }
            (What::Undo, Some(What::Undo)) | (What::Announce, Some(What::Announce)) => true,
            _ => false,
        }
    }

    fn intention_commands(world: &mut World) -> Vec<Request> {
        world.intention_commands()
    }

    fn stats(world: &World) -> Stats {
        with_counts!(
            Stats {
                rounds: world.truth.rounds.len() as u64,
                late_results: world
                    .truth
                    .games
                    .iter()
                    .filter(|g| matches!(g.status, GameStatus::Agreed | GameStatus::Adjudicated))
                    .count() as u64,
            },
            &world.counts,
            &world.log
        )
    }
}

fn result_input(outcome: Outcome) -> ResultInput {
    match outcome {
        Outcome::Win(side) => ResultInput {
            outcome,
            ended_by: EndTag::Vp,
            vp: Some(if side == Side::Ussr { -20 } else { 20 }),
            turn: Some(6),
            note: None,
        },
        Outcome::Tie => ResultInput {
            outcome,
            ended_by: EndTag::FinalScoring,
            vp: None,
            turn: None,
            note: None,
        },
    }
}

/// The first field where two ladders differ, for a readable failure.
fn ladder_diff(got: &Ladder, want: &Ladder) -> String {
    macro_rules! field {
        ($f:ident) => {
            if got.$f != want.$f {
                return format!(
                    "{} differs: {:?} instead of {:?}",
                    stringify!($f),
                    got.$f,
                    want.$f
                );
            }
        };
    }
    field!(name);
    field!(created);
    field!(order);
    field!(inactive);
    field!(champion);
    field!(streak);
    field!(moderators);
    field!(players);
    field!(games);
    field!(rounds);
    field!(skip_requests);
    field!(carried);
    field!(seed_hash);
    field!(rules);
    "a private field differs (names, entries or side histories)".to_owned()
}

/// The ladder's own invariants.
fn check_ladder(l: &Ladder) -> Result<(), String> {
    let status = |p: PlayerId| l.player(p).map(|r| r.status);
    let mut on_ladder = BTreeSet::new();
    for p in &l.order {
        if !on_ladder.insert(p.0) {
            return Err(format!("player {} is twice on the ladder", p.0));
        }
        if status(*p) != Some(Membership::Member) {
            return Err(format!(
                "player {} is on the ladder as {:?}",
                p.0,
                status(*p)
            ));
        }
    }
    let mut inactive = BTreeSet::new();
    for p in &l.inactive {
        if !inactive.insert(p.0) {
            return Err(format!("player {} is twice on the inactive list", p.0));
        }
        if status(*p) != Some(Membership::Inactive) {
            return Err(format!(
                "player {} is on the inactive list as {:?}",
                p.0,
                status(*p)
            ));
        }
    }
    for (i, rec) in l.players.iter().enumerate() {
        let id = i as u32 + 1;
        if rec.player.id.0 != id {
            return Err(format!("player {} is at index {i}", rec.player.id.0));
        }
        if rec.status == Membership::Member && !on_ladder.contains(&id) {
            return Err(format!(
                "member {id} is not on the ladder: not a permutation"
            ));
        }
        if rec.status == Membership::Inactive && !inactive.contains(&id) {
            return Err(format!("inactive player {id} is not on the inactive list"));
        }
    }
    for (i, g) in l.games.iter().enumerate() {
        if g.id.0 as usize != i + 1 {
            return Err(format!("game {} is at index {i}", g.id.0));
        }
        if g.ussr.player == g.us.player {
            return Err(format!(
                "game {} pairs player {} with himself",
                g.id.0, g.us.player.0
            ));
        }
        for p in g.participants() {
            if l.player(p.player).is_none() {
                return Err(format!(
                    "game {} names unknown player {}",
                    g.id.0, p.player.0
                ));
            }
        }
        let decided = matches!(
            g.status,
            GameStatus::Played
                | GameStatus::Agreed
                | GameStatus::Adjudicated
                | GameStatus::Forfeited
        );
        if decided != g.result.is_some() && g.status != GameStatus::Cancelled {
            return Err(format!(
                "game {} is {:?} with result {:?}",
                g.id.0, g.status, g.result
            ));
        }
        if g.report.is_some() && g.status != GameStatus::Scheduled {
            return Err(format!(
                "game {} is {:?} with a pending report",
                g.id.0, g.status
            ));
        }
    }
    for (i, r) in l.rounds.iter().enumerate() {
        if r.number as usize != i + 1 {
            return Err(format!("round {} is at index {i}", r.number));
        }
        if r.closed.is_none() && i + 1 != l.rounds.len() {
            return Err(format!("round {} is open but not the last", r.number));
        }
        let mut playing: BTreeMap<u32, &tws::Game> = BTreeMap::new();
        for id in &r.games {
            let Some(g) = l.game(*id) else {
                return Err(format!("round {} lists unknown game {}", r.number, id.0));
            };
            // A game carried over from a round closed early is listed in
            // the rounds it was carried into (ARB-R21), once or again.
            if g.round.is_none_or(|own| own > r.number) {
                return Err(format!(
                    "round {} lists game {} of round {:?}",
                    r.number, id.0, g.round
                ));
            }
            // Nobody plays two games that count for him on the ladder in
            // one round (a volunteer eliminator may serve in several: they
            // count as quick-round games for him).
            for p in g.participants() {
                if p.counts != arbiter_engine::model::Counts::Ladder {
                    continue;
                }
                if let Some(other) = playing.insert(p.player.0, g) {
                    return Err(format!(
                        "player {} plays two ladder games in round {}: {other:?} and {g:?}",
                        p.player.0, r.number
                    ));
                }
            }
        }
        if let Some(closed) = &r.closed {
            let mut seen = BTreeSet::new();
            if !closed.order.iter().all(|p| seen.insert(p.0)) {
                return Err(format!("the close of round {} repeats a player", r.number));
            }
        }
    }
    Ok(())
}

impl World {
    fn name_of(&self, p: PlayerId) -> String {
        self.truth.name_of(p)
    }

    /// What a client wants next, from the ladder as it is: one request, or
    /// two that belong together (a report and its confirmation, an
    /// application and its approval) which a shuffle may reorder.
    fn intention_commands(&mut self) -> Vec<Request> {
        let now = self.now;
        let l = &self.truth;
        let members = l.order.clone();
        let scheduled: Vec<GameId> = l
            .games
            .iter()
            .filter(|g| g.status == GameStatus::Scheduled)
            .map(|g| g.id)
            .collect();
        let applicants: Vec<PlayerId> = l
            .players
            .iter()
            .filter(|p| p.status == Membership::Applicant)
            .map(|p| p.player.id)
            .collect();
        let inactive: Vec<PlayerId> = l.inactive.clone();
        let round_open = l.open_round().is_some();
        let open_unfinished = l
            .open_round()
            .is_some_and(|r| r.games.iter().any(|g| scheduled.contains(g)));
        let players = l.players.len() as u32;

        let moderator = |m: String, command: Command| Request {
            key: None,
            actor: m,
            what: What::Exec(command),
            expected: None,
        };
        let mut weights: Vec<(u32, u32)> = vec![
            (0, if members.len() < 10 { 8 } else { 1 }),
            (1, 3),
            (2, if applicants.is_empty() { 0 } else { 5 }),
            (
                3,
                if members.len() >= 2 && !open_unfinished {
                    10
                } else {
                    1
                },
            ),
            (4, if scheduled.is_empty() { 0 } else { 16 }),
            (5, if scheduled.is_empty() { 0 } else { 5 }),
            (6, if scheduled.is_empty() { 0 } else { 1 }),
            (7, if scheduled.is_empty() { 0 } else { 1 }),
            (8, if members.is_empty() { 0 } else { 3 }),
            (9, if open_unfinished { 1 } else { 0 }),
            (10, if members.len() > 4 { 1 } else { 0 }),
            (11, if inactive.is_empty() { 0 } else { 2 }),
            (12, if members.is_empty() { 0 } else { 1 }),
            (13, 1),
            (14, 2),
            (15, if members.len() >= 2 { 1 } else { 0 }),
            (16, if scheduled.is_empty() { 0 } else { 2 }),
        ];
        weights.retain(|(_, w)| *w > 0);
        let total: u32 = weights.iter().map(|(_, w)| w).sum();
        let mut roll = self.below(u64::from(total)) as u32;
        let mut choice = 0;
        for (c, w) in &weights {
            if roll < *w {
                choice = *c;
                break;
            }
            roll -= w;
        }
        match choice {
            // A moderator adds a player (now and then a name taken).
            0 => {
                let n = if self.chance(5) && self.sim.next_name > 1 {
                    1 + self.below(u64::from(self.sim.next_name - 1)) as u32
                } else {
                    self.sim.next_name += 1;
                    self.sim.next_name - 1
                };
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Join {
                        name: format!("Player {n}"),
                        surname: None,
                    },
                )]
            }
            // A player applies, and a moderator approves him.
            1 => {
                let n = self.sim.next_name;
                self.sim.next_name += 1;
                let name = format!("Player {n}");
                let m = self.moderator();
                vec![
                    Request {
                        key: None,
                        actor: name.clone(),
                        what: What::Exec(Command::Apply {
                            name,
                            surname: None,
                        }),
                        expected: None,
                    },
                    moderator(
                        m,
                        Command::Approve {
                            player: PlayerId(players + 1),
                        },
                    ),
                ]
            }
            // A moderator approves (or declines) an applicant.
            2 => {
                let p = self.pick(&applicants).unwrap_or(PlayerId(1));
                let m = self.moderator();
                let command = if self.chance(80) {
                    Command::Approve { player: p }
                } else {
                    Command::Decline {
                        player: p,
                        reason: "no reply".into(),
                    }
                };
                vec![moderator(m, command)]
            }
            // A moderator announces the next round (closing the last).
            3 => {
                let m = self.moderator();
                vec![Request {
                    key: None,
                    actor: m,
                    what: What::Announce,
                    expected: None,
                }]
            }
            // A player reports his game; the other player or a moderator
            // confirms (or rejects) it.
            4 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let Some(game) = self.truth.game(g).cloned() else {
                    return Vec::new();
                };
                let outcome = match self.below(5) {
                    0 => Outcome::Tie,
                    1 | 2 => Outcome::Win(Side::Ussr),
                    _ => Outcome::Win(Side::Us),
                };
                let [a, b] = game.participants();
                let (by, other) = if self.chance(50) { (a, b) } else { (b, a) };
                let confirmer = if self.chance(60) {
                    Confirmer::Player(other.player)
                } else {
                    Confirmer::Moderator(self.moderator())
                };
                let confirmer_name = match &confirmer {
                    Confirmer::Player(p) => self.name_of(*p),
                    Confirmer::Moderator(m) => m.clone(),
                };
                let second = if self.chance(85) {
                    Command::ConfirmResult {
                        game: g,
                        by: confirmer,
                        at: now,
                    }
                } else {
                    Command::RejectReport {
                        game: g,
                        by: confirmer,
                        reason: "not what happened".into(),
                        at: now,
                    }
                };
                let confirm = Request {
                    key: None,
                    actor: confirmer_name,
                    what: What::Exec(second),
                    expected: None,
                };
                if game.report.is_some() && self.chance(70) {
                    return vec![confirm];
                }
                vec![
                    Request {
                        key: None,
                        actor: self.name_of(by.player),
                        what: What::Exec(Command::ReportResult {
                            game: g,
                            result: result_input(outcome),
                            by: by.player,
                            at: now,
                        }),
                        expected: None,
                    },
                    confirm,
                ]
            }
            // A moderator records a result.
            5 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let outcome = match self.below(5) {
                    0 => Outcome::Tie,
                    1 | 2 => Outcome::Win(Side::Ussr),
                    _ => Outcome::Win(Side::Us),
                };
                // After the deadline, the players' agreement (now and then
                // forgotten, to be refused).
                let late = self
                    .truth
                    .game(g)
                    .and_then(|game| game.deadline)
                    .is_some_and(|d| d < now);
                let agreed = late != self.chance(10);
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::RecordResult {
                        game: g,
                        result: result_input(outcome),
                        agreed,
                        at: now,
                    },
                )]
            }
            // A moderator adjudicates an overdue game (refused before its
            // deadline).
            16 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let outcome = if self.chance(50) {
                    Outcome::Win(Side::Us)
                } else {
                    Outcome::Tie
                };
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Adjudicate {
                        game: g,
                        outcome,
                        vp: None,
                        turn: Some(7),
                        record: arbiter_engine::model::Adjudication {
                            final_state: "turn 7, US ahead on VP".into(),
                            ussr_statement: None,
                            us_statement: Some("I was winning".into()),
                            third_party: None,
                            decision: "the US was ahead".into(),
                        },
                        at: now,
                    },
                )]
            }
            // A forfeit.
            6 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let absent = self
                    .truth
                    .game(g)
                    .map_or(PlayerId(1), |game| game.us.player);
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Forfeit {
                        game: g,
                        absent,
                        note: None,
                        at: now,
                    },
                )]
            }
            // A cancellation.
            7 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::CancelGame {
                        game: g,
                        reason: "both agreed".into(),
                        at: now,
                    },
                )]
            }
            // A player asks to skip the next round (or takes it back).
            8 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                let command = if self.chance(80) {
                    Command::RequestSkip {
                        player: p,
                        round: None,
                    }
                } else {
                    Command::CancelSkip {
                        player: p,
                        round: None,
                    }
                };
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(command),
                    expected: None,
                }]
            }
            // The round closed early, its unfinished games carried over.
            9 => {
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::CloseRoundEarly {
                        at: now,
                        reason: "to keep the ladder moving".into(),
                    },
                )]
            }
            // A member withdraws.
            10 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(Command::Withdraw {
                        player: p,
                        reason: "moving house".into(),
                    }),
                    expected: None,
                }]
            }
            // An inactive player comes back.
            11 => {
                let p = self.pick(&inactive).unwrap_or(PlayerId(1));
                let m = self.moderator();
                vec![moderator(m, Command::Reenter { player: p })]
            }
            // A member volunteers as eliminator (or stands down).
            12 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                let command = if self.chance(70) {
                    Command::VolunteerEliminator { player: p }
                } else {
                    Command::StandDownEliminator { player: p }
                };
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(command),
                    expected: None,
                }]
            }
            // A moderator undoes the last event.
            13 => {
                let m = self.moderator();
                vec![Request {
                    key: None,
                    actor: m,
                    what: What::Undo,
                    expected: None,
                }]
            }
            // Nonsense: games, players and reports that do not exist.
            14 => {
                let m = self.moderator();
                let games = self.truth.games.len() as u32;
                let command = match self.below(4) {
                    0 => Command::RecordResult {
                        game: GameId(games + 1 + self.below(3) as u32),
                        result: result_input(Outcome::Tie),
                        agreed: false,
                        at: now,
                    },
                    1 => Command::ConfirmResult {
                        game: GameId(1 + self.below(u64::from(games) + 1) as u32),
                        by: Confirmer::Moderator(m.clone()),
                        at: now,
                    },
                    2 => Command::Approve {
                        player: PlayerId(players + 5),
                    },
                    _ => Command::CloseRound { at: now },
                };
                vec![moderator(m, command)]
            }
            // A quick-round game between two members.
            _ => {
                let a = self.pick(&members).unwrap_or(PlayerId(1));
                let b = self.pick(&members).unwrap_or(PlayerId(2));
                let m = self.moderator();
                if round_open && self.chance(50) {
                    vec![moderator(
                        m,
                        Command::AddRoundGame {
                            player: a,
                            opponent: b,
                            reason: "joined late".into(),
                            at: now,
                        },
                    )]
                } else {
                    vec![moderator(
                        m,
                        Command::ScheduleQuickGame {
                            ussr: a,
                            us: b,
                            at: now,
                        },
                    )]
                }
            }
        }
    }
}
