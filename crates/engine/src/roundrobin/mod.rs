//! The general round-robin league (issue 16, §2): 2 to 64 players or
//! teams, each pair meeting once per cycle on the FIDE Berger tables (or a
//! schedule the organizer gives), results with scores or as win, draw and
//! loss, forfeits, withdrawals, and a table ranked by points and an
//! ordered list of tiebreak criteria from one catalogue ([`rules`],
//! [`table`]).
//!
//! There is no rule document for this format: its rules are the settings of
//! [`RoundRobinRules`], and each preset names the published regulation it
//! reproduces. Rulings ARB-R67 (points, forfeits and the criteria) and
//! ARB-R68 (withdrawals and late entries) fix what the regulations leave
//! open.

pub mod clinch;
pub mod ratings;
pub mod rules;
pub mod table;

use crate::RuleError;
use crate::berger;
use crate::draw::{self, Dice, Seed};
use crate::model::{Linked, Links, PlayerId, Time, person_name, same_name};

pub use rules::{HeadToHead, Points, RoundRobinRules, Tiebreak, Withdrawal};

const CLAUSE: &str = "Round robin";
const LINK_CLAUSE: &str = "ARB-R50";

/// The longest name of a player or team, and of the league.
pub const MAX_NAME: usize = 64;
/// The most goals (or game points of a match) one side can score.
pub const MOST_SCORED: u32 = 999;
/// The longest game, in minutes.
pub const MOST_MINUTES: u32 = 100_000;
/// The longest reason or description text.
pub const MAX_TEXT: usize = 500;

/// A game's number, from 0 in schedule order (shown from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub u32);

impl GameId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", u64::from(self.0) + 1)
    }
}

/// The two sides of a game: home and away in football, white and black in
/// chess (the first named has white or plays at home).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    Home,
    Away,
}

/// A game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// What each side scored; more wins, equal is a draw.
    Goals { home: u32, away: u32 },
    /// A win with no score (chess, Go).
    Won(Seat),
    /// A draw with no score.
    Drawn,
    /// A forfeit: the side that wins it, or `None` when neither side
    /// played (both lose by forfeit).
    Forfeit { winner: Option<Seat> },
}

impl Score {
    /// Whether the game was played over the board (a forfeit was not).
    pub fn is_played(self) -> bool {
        !matches!(self, Score::Forfeit { .. })
    }

    /// The same result seen with home and away exchanged.
    pub fn swapped(self) -> Score {
        let other = |s: Seat| match s {
            Seat::Home => Seat::Away,
            Seat::Away => Seat::Home,
        };
        match self {
            Score::Goals { home, away } => Score::Goals {
                home: away,
                away: home,
            },
            Score::Won(s) => Score::Won(other(s)),
            Score::Drawn => Score::Drawn,
            Score::Forfeit { winner } => Score::Forfeit {
                winner: winner.map(other),
            },
        }
    }

    /// As results tables write it: "2-1", "1-0", "½-½", "+:-".
    pub fn show(self) -> String {
        match self {
            Score::Goals { home, away } => format!("{home}-{away}"),
            Score::Won(Seat::Home) => "1-0".into(),
            Score::Won(Seat::Away) => "0-1".into(),
            Score::Drawn => "½-½".into(),
            Score::Forfeit {
                winner: Some(Seat::Home),
            } => "+:-".into(),
            Score::Forfeit {
                winner: Some(Seat::Away),
            } => "-:+".into(),
            Score::Forfeit { winner: None } => "-:-".into(),
        }
    }

    /// Read a result as results tables write it. Scores ("2-1") when
    /// `scores`, else outcomes ("1-0", "0-1", "½-½" or "1/2-1/2", "draw");
    /// forfeits "+:-", "-:+", "-:-" (or "+-", "-+", "--") either way.
    pub fn parse(text: &str, scores: bool) -> Result<Score, String> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.replace(['–', '—', ':'], "-");
        match t.as_str() {
            "+-" | "+--" => {
                return Ok(Score::Forfeit {
                    winner: Some(Seat::Home),
                });
            }
            "-+" | "--+" => {
                return Ok(Score::Forfeit {
                    winner: Some(Seat::Away),
                });
            }
            "---" => return Ok(Score::Forfeit { winner: None }),
            _ => {}
        }
        if !scores {
            return match t.to_ascii_lowercase().as_str() {
                "1-0" => Ok(Score::Won(Seat::Home)),
                "0-1" => Ok(Score::Won(Seat::Away)),
                "½-½" | "1/2-1/2" | "0.5-0.5" | "=" | "draw" | "jigo" => Ok(Score::Drawn),
                _ => Err(format!(
                    "\"{text}\" is not a result: write 1-0, 0-1, ½-½ (or 1/2-1/2), or a forfeit +:-, -:+, -:-"
                )),
            };
        }
        let (h, a) = t
            .split_once('-')
            .ok_or_else(|| format!("\"{text}\" is not a score: write it as 2-1"))?;
        let num = |s: &str| -> Result<u32, String> {
            match s.parse::<u32>() {
                Ok(n) if n <= MOST_SCORED => Ok(n),
                Ok(_) => Err(format!("a side scores at most {MOST_SCORED}, not {s}")),
                Err(_) => Err(format!("\"{text}\" is not a score: write it as 2-1")),
            }
        };
        Ok(Score::Goals {
            home: num(h)?,
            away: num(a)?,
        })
    }
}

/// A game of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub id: GameId,
    /// From 1.
    pub round: u32,
    pub home: PlayerId,
    pub away: PlayerId,
    pub score: Option<Score>,
    /// How long it took (quickness of victory), when entered.
    pub minutes: Option<u32>,
    pub at: Option<Time>,
}

impl Game {
    pub fn has(&self, p: PlayerId) -> bool {
        self.home == p || self.away == p
    }

    pub fn opponent(&self, p: PlayerId) -> PlayerId {
        if self.home == p { self.away } else { self.home }
    }
}

/// A round of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub games: Vec<GameId>,
    /// The players who sit this round out (odd numbers of players).
    pub byes: Vec<PlayerId>,
    pub deadline: Option<Time>,
}

/// A player or team and, once recorded, its withdrawal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub withdrawal: Option<Withdrew>,
}

/// A withdrawal as decided (ARB-R68).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Withdrew {
    /// Games he played over the board, and games he was scheduled for.
    pub played: u32,
    pub scheduled: u32,
    /// Whether his games are annulled.
    pub annulled: bool,
    pub at: Time,
}

/// A recorded drawing of lots: the players, best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lot {
    pub order: Vec<PlayerId>,
    /// The seed it was drawn from (committed when the league started), or
    /// `None` when the organizer entered the order of a lot drawn by hand.
    pub seed: Option<Seed>,
    pub how: String,
    pub at: Time,
}

/// One round of a schedule as stored: its pairs, home or white first.
pub type Pairs = Vec<(PlayerId, PlayerId)>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Created {
        name: String,
        rules: RoundRobinRules,
        players: Vec<String>,
    },
    PlayerAdded {
        name: String,
    },
    /// The schedule fixed: play begins. `given`: the organizer's schedule,
    /// not the Berger tables. `lot_commitment`: SHA-256 of the seed any
    /// drawing of lots will use.
    Started {
        rounds: Vec<Pairs>,
        given: bool,
        lot_commitment: Option<[u8; 32]>,
        at: Time,
    },
    DeadlineSet {
        round: u32,
        deadline: Option<Time>,
    },
    ResultRecorded {
        game: GameId,
        score: Score,
        minutes: Option<u32>,
        at: Time,
    },
    ResultCorrected {
        game: GameId,
        score: Option<Score>,
        minutes: Option<u32>,
        reason: String,
        at: Time,
    },
    Withdrawn {
        player: PlayerId,
        played: u32,
        scheduled: u32,
        annulled: bool,
        at: Time,
    },
    LotsDrawn {
        order: Vec<PlayerId>,
        seed: Option<Seed>,
        how: String,
        at: Time,
    },
    AccountLinked {
        player: PlayerId,
        account: String,
    },
    AccountUnlinked {
        player: PlayerId,
        account: String,
    },
    /// The competition's times are shown, and days given without a time
    /// read, in `zone` (ARB-R82).
    TimeZoneSet {
        zone: crate::zone::TimeZone,
    },
    Reverted {
        seq: u64,
        summary: String,
    },
}

impl Event {
    /// The stored kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "round-robin-created",
            Event::PlayerAdded { .. } => "round-robin-player-added",
            Event::Started { .. } => "round-robin-started",
            Event::DeadlineSet { .. } => "round-robin-deadline-set",
            Event::ResultRecorded { .. } => "round-robin-result",
            Event::ResultCorrected { .. } => "round-robin-result-corrected",
            Event::Withdrawn { .. } => "round-robin-withdrawn",
            Event::LotsDrawn { .. } => "round-robin-lots",
            Event::AccountLinked { .. } => "round-robin-account-linked",
            Event::AccountUnlinked { .. } => "round-robin-account-unlinked",
            Event::TimeZoneSet { .. } => "round-robin-time-zone-set",
            Event::Reverted { .. } => "reverted",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Create {
        name: String,
        rules: RoundRobinRules,
        players: Vec<String>,
    },
    /// A late entry: refused once play has started (ARB-R68).
    AddPlayer {
        name: String,
    },
    /// Fix the schedule and begin: the Berger tables over the players in
    /// the order they entered (`schedule: None`), or the organizer's
    /// rounds. `seed`: the seed of any later drawing of lots, committed now.
    Start {
        schedule: Option<Vec<Pairs>>,
        seed: Option<Seed>,
        at: Time,
    },
    SetDeadline {
        round: u32,
        deadline: Option<Time>,
    },
    /// Record the result of a game not yet decided.
    Record {
        game: GameId,
        score: Score,
        minutes: Option<u32>,
        at: Time,
    },
    /// Change or clear (`score: None`) a recorded result.
    Correct {
        game: GameId,
        score: Option<Score>,
        minutes: Option<u32>,
        reason: String,
        at: Time,
    },
    Withdraw {
        player: PlayerId,
        at: Time,
    },
    /// Draw lots among `players` from the seed committed at the start.
    DrawLots {
        players: Vec<PlayerId>,
        seed: Seed,
        at: Time,
    },
    /// Enter the order of a lot drawn by hand, best first.
    EnterLots {
        order: Vec<PlayerId>,
        how: String,
        at: Time,
    },
    LinkAccount {
        player: PlayerId,
        account: String,
    },
    UnlinkAccount {
        player: PlayerId,
    },
    /// A moderator sets the competition's time zone, an IANA name (ARB-R82).
    SetTimeZone {
        zone: String,
    },
}

impl Command {
    /// The command with its time set to the Unix epoch (idempotency).
    pub fn without_time(&self) -> Command {
        let mut c = self.clone();
        match &mut c {
            Command::Start { at, .. }
            | Command::Record { at, .. }
            | Command::Correct { at, .. }
            | Command::Withdraw { at, .. }
            | Command::DrawLots { at, .. }
            | Command::EnterLots { at, .. } => *at = Time::UNIX_EPOCH,
            Command::Create { .. }
            | Command::AddPlayer { .. }
            | Command::SetDeadline { .. }
            | Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. } => {}
        }
        c
    }
}

/// The state of a round-robin league: a fold of its events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundRobin {
    pub name: String,
    pub rules: RoundRobinRules,
    pub created: bool,
    /// Player `i` is `entrants[i]`.
    pub entrants: Vec<Entrant>,
    pub links: Links,
    /// The time zone (ARB-R82): UTC until one is set.
    pub zone: crate::zone::TimeZone,
    pub rounds: Vec<Round>,
    pub games: Vec<Game>,
    pub started: Option<Time>,
    pub given_schedule: bool,
    lot_commitment: Option<[u8; 32]>,
    pub lots: Vec<Lot>,
}

impl crate::zone::Zoned for RoundRobin {
    fn zone(&self) -> crate::zone::TimeZone {
        self.zone
    }
}

impl Linked for RoundRobin {
    fn links(&self) -> &Links {
        &self.links
    }
}

/// Where a player is in the per-player vectors, or past their end for an
/// id that names no player (0 included): for lookups with `get`.
fn slot(p: PlayerId) -> usize {
    (p.0 as usize).wrapping_sub(1)
}

/// The stream of a drawing of lots among these players: the same set
/// draws from the same stream whatever order they are named in.
fn lot_stream(players: &[PlayerId]) -> u64 {
    let mut ids: Vec<u32> = players.iter().map(|p| p.0).collect();
    ids.sort_unstable();
    let bytes: Vec<u8> = ids.iter().flat_map(|i| i.to_be_bytes()).collect();
    let hash = sha_of(&bytes);
    u64::from_be_bytes([
        hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7],
    ])
}

fn sha_of(bytes: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).into()
}

/// The order a lot drawn from `seed` gives `players`: each rolls a
/// hundred-faced die, the tied roll again among themselves (XM-R1's way).
pub fn lot_order(seed: &Seed, players: &[PlayerId]) -> Vec<PlayerId> {
    let mut sorted = players.to_vec();
    sorted.sort_unstable();
    let mut dice = Dice::new(seed, lot_stream(players), 100);
    draw::roll_order(&mut dice, &sorted).1
}

impl RoundRobin {
    pub fn fold<'a>(events: impl IntoIterator<Item = &'a Event>) -> RoundRobin {
        let mut s = RoundRobin::default();
        for e in events {
            s.apply(e);
        }
        s
    }

    /// The commitment (SHA-256) of the seed any drawing of lots uses, made
    /// at the start.
    pub fn lot_commitment(&self) -> Option<[u8; 32]> {
        self.lot_commitment
    }

    pub fn name_of(&self, p: PlayerId) -> String {
        self.entrants
            .get(slot(p))
            .map_or_else(|| format!("player {}", p.0), |e| e.name.clone())
    }

    /// The player with this name (ARB-R62's comparison).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        crate::model::find_name(self.entrants.iter().map(|e| e.name.as_str()), name)
            .map(|i| PlayerId(i as u32 + 1))
    }

    pub fn game(&self, id: GameId) -> Option<&Game> {
        self.games.get(id.index())
    }

    /// The players who play (not withdrawn before the start, not annulled).
    pub fn in_table(&self) -> Vec<PlayerId> {
        (0..self.entrants.len())
            .map(|i| PlayerId(i as u32 + 1))
            .filter(|&p| {
                let e = &self.entrants[p.index()];
                // Withdrawn before the start (no games), or annulled: out.
                e.withdrawal.is_none_or(|w| w.scheduled > 0 && !w.annulled)
            })
            .collect()
    }

    /// The players not withdrawn: those a schedule made now would seat.
    fn playing(&self) -> Vec<PlayerId> {
        (0..self.entrants.len())
            .map(|i| PlayerId(i as u32 + 1))
            .filter(|p| self.entrants[p.index()].withdrawal.is_none())
            .collect()
    }

    /// Whether `p`'s games count: he did not withdraw with his games
    /// annulled.
    pub fn counts(&self, p: PlayerId) -> bool {
        self.entrants
            .get(slot(p))
            .is_some_and(|e| !e.withdrawal.is_some_and(|w| w.annulled))
    }

    /// The result a game counts with: its recorded score, or a forfeit
    /// against a player who withdrew keeping his results; `None` while
    /// undecided or when annulled.
    pub fn counted_score(&self, g: &Game) -> Option<Score> {
        if !self.counts(g.home) || !self.counts(g.away) {
            return None;
        }
        if let Some(s) = g.score {
            return Some(s);
        }
        let gone = |p: PlayerId| self.entrants[p.index()].withdrawal.is_some();
        match (gone(g.home), gone(g.away)) {
            (false, false) => None,
            (true, false) => Some(Score::Forfeit {
                winner: Some(Seat::Away),
            }),
            (false, true) => Some(Score::Forfeit {
                winner: Some(Seat::Home),
            }),
            (true, true) => Some(Score::Forfeit { winner: None }),
        }
    }

    /// Games of `p` in schedule order.
    pub fn games_of(&self, p: PlayerId) -> impl Iterator<Item = &Game> {
        self.games.iter().filter(move |g| g.has(p))
    }

    /// Whether every game that counts is decided.
    pub fn is_finished(&self) -> bool {
        self.started.is_some()
            && self
                .games
                .iter()
                .filter(|g| self.counts(g.home) && self.counts(g.away))
                .all(|g| self.counted_score(g).is_some())
    }

    /// The next game between `first` and `second` with no result, or the
    /// game `round` names. Where the two meet with each at home (a double
    /// round robin), the order of the names is home first: only a game with
    /// `first` at home is found, so a result entered twice is refused
    /// rather than taken for the return game. Where they meet one way only,
    /// either order finds it.
    pub fn find_game(
        &self,
        first: PlayerId,
        second: PlayerId,
        round: Option<u32>,
    ) -> Option<GameId> {
        let between = |g: &&Game| g.has(first) && g.has(second) && first != second;
        let in_round = |g: &&Game| round.is_none_or(|r| g.round == r);
        let candidates: Vec<&Game> = self.games.iter().filter(between).filter(in_round).collect();
        if round.is_some() {
            return candidates.first().map(|g| g.id);
        }
        let both_ways = candidates.iter().any(|g| g.home == first)
            && candidates.iter().any(|g| g.home == second);
        candidates
            .into_iter()
            .filter(|g| g.score.is_none())
            .find(|g| !both_ways || g.home == first)
            .map(|g| g.id)
    }

    // ---- the decider -----------------------------------------------------

    fn refuse(message: impl Into<String>) -> RuleError {
        RuleError::new(CLAUSE, message)
    }

    fn check_player(&self, p: PlayerId, field: &str) -> Result<(), RuleError> {
        if p.0 >= 1 && p.index() < self.entrants.len() {
            Ok(())
        } else {
            Err(Self::refuse(format!("there is no player {}", p.0)).field(field))
        }
    }

    fn check_name(&self, raw: &str, others: &[String], field: &str) -> Result<String, RuleError> {
        let name = person_name(raw, MAX_NAME).map_err(|m| Self::refuse(m).field(field))?;
        if let Some(o) = others.iter().find(|o| same_name(o, &name)) {
            return Err(Self::refuse(format!(
                "{name} is already entered (as \"{o}\"): two players cannot share a name (ARB-R62)"
            ))
            .field(field));
        }
        Ok(name)
    }

    fn check_score(&self, score: Score, minutes: Option<u32>) -> Result<(), RuleError> {
        match score {
            Score::Goals { home, away } => {
                if !self.rules.scores {
                    return Err(Self::refuse(
                        "these rules record a win, a draw or a loss, not a score: write 1-0, 0-1 or ½-½ (ARB-R67)",
                    )
                    .field("score"));
                }
                if home > MOST_SCORED || away > MOST_SCORED {
                    return Err(
                        Self::refuse(format!("a side scores at most {MOST_SCORED}")).field("score")
                    );
                }
            }
            Score::Won(_) | Score::Drawn => {
                if self.rules.scores {
                    return Err(Self::refuse(
                        "these rules record scores: write the score, as 2-1 (ARB-R67)",
                    )
                    .field("score"));
                }
            }
            Score::Forfeit { .. } => {}
        }
        if let Some(m) = minutes
            && m > MOST_MINUTES
        {
            return Err(
                Self::refuse(format!("a game lasts at most {MOST_MINUTES} minutes"))
                    .field("minutes"),
            );
        }
        Ok(())
    }

    fn check_game(&self, game: GameId) -> Result<&Game, RuleError> {
        if self.started.is_none() {
            return Err(Self::refuse(
                "the league has not started: no game is scheduled yet",
            ));
        }
        let g = self.game(game).ok_or_else(|| {
            Self::refuse(format!(
                "there is no game {game}: the schedule has {} games",
                self.games.len()
            ))
            .field("game")
        })?;
        for p in [g.home, g.away] {
            if self.entrants[p.index()].withdrawal.is_some() {
                return Err(Self::refuse(format!(
                    "{} withdrew: game {} between {} and {} is decided by the withdrawal (ARB-R68)",
                    self.name_of(p),
                    game,
                    self.name_of(g.home),
                    self.name_of(g.away)
                ))
                .field("game"));
            }
        }
        Ok(g)
    }

    /// Check a command against the rules: the events it causes, or the
    /// rule it breaks.
    pub fn decide(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        if !self.created && !matches!(command, Command::Create { .. }) {
            return Err(Self::refuse("there is no round-robin league yet"));
        }
        match command {
            Command::Create {
                name,
                rules,
                players,
            } => {
                if self.created {
                    return Err(Self::refuse("the league already exists"));
                }
                let name =
                    person_name(&name, MAX_NAME).map_err(|m| Self::refuse(m).field("name"))?;
                rules.validate()?;
                if players.len() > *berger::PLAYERS.end() {
                    return Err(Self::refuse(format!(
                        "a round robin has at most {} players, not {}",
                        berger::PLAYERS.end(),
                        players.len()
                    ))
                    .field("players"));
                }
                let mut names: Vec<String> = Vec::with_capacity(players.len());
                for (i, raw) in players.iter().enumerate() {
                    let n = self.check_name(raw, &names, &format!("players[{i}]"))?;
                    names.push(n);
                }
                Ok(vec![Event::Created {
                    name,
                    rules,
                    players: names,
                }])
            }
            Command::AddPlayer { name } => {
                if let Some(at) = self.started {
                    return Err(Self::refuse(format!(
                        "play started on {}: late entries are refused, since the schedule is fixed (ARB-R68)",
                        at.format("%Y-%m-%d")
                    ))
                    .field("name"));
                }
                if self.entrants.len() >= *berger::PLAYERS.end() {
                    return Err(Self::refuse(format!(
                        "a round robin has at most {} players",
                        berger::PLAYERS.end()
                    ))
                    .field("name"));
                }
                let names: Vec<String> = self.entrants.iter().map(|e| e.name.clone()).collect();
                let name = self.check_name(&name, &names, "name")?;
                Ok(vec![Event::PlayerAdded { name }])
            }
            Command::Start { schedule, seed, at } => {
                if self.started.is_some() {
                    return Err(Self::refuse("the league has already started"));
                }
                let playing = self.playing();
                let (rounds, given) = match schedule {
                    None => {
                        let table = berger::schedule(playing.len(), self.rules.cycles)
                            .map_err(|e| e.field("players"))?;
                        let rounds = table
                            .iter()
                            .map(|r| {
                                r.games
                                    .iter()
                                    .map(|g| (playing[g.white - 1], playing[g.black - 1]))
                                    .collect()
                            })
                            .collect();
                        (rounds, false)
                    }
                    Some(rounds) => {
                        self.check_schedule(&rounds, &playing)?;
                        (rounds, true)
                    }
                };
                Ok(vec![Event::Started {
                    rounds,
                    given,
                    lot_commitment: seed.map(|s| draw::commitment(&s)),
                    at,
                }])
            }
            Command::SetDeadline { round, deadline } => {
                if round == 0 || round as usize > self.rounds.len() {
                    return Err(Self::refuse(format!(
                        "there is no round {round}: the schedule has {} rounds",
                        self.rounds.len()
                    ))
                    .field("round"));
                }
                Ok(vec![Event::DeadlineSet { round, deadline }])
            }
            Command::Record {
                game,
                score,
                minutes,
                at,
            } => {
                let g = self.check_game(game)?;
                if let Some(s) = g.score {
                    return Err(Self::refuse(format!(
                        "game {game}, {} against {}, is already recorded as {}: correct it instead",
                        self.name_of(g.home),
                        self.name_of(g.away),
                        s.show()
                    ))
                    .field("game"));
                }
                self.check_score(score, minutes)?;
                Ok(vec![Event::ResultRecorded {
                    game,
                    score,
                    minutes,
                    at,
                }])
            }
            Command::Correct {
                game,
                score,
                minutes,
                reason,
                at,
            } => {
                let g = self.check_game(game)?;
                if g.score.is_none() && score.is_none() {
                    return Err(
                        Self::refuse(format!("game {game} has no result to clear")).field("game")
                    );
                }
                if let Some(s) = score {
                    self.check_score(s, minutes)?;
                }
                if g.score == score && g.minutes == minutes {
                    return Err(Self::refuse(format!(
                        "game {game} is already recorded so: nothing to correct"
                    ))
                    .field("score"));
                }
                let reason = reason.trim().to_string();
                if reason.chars().count() > MAX_TEXT {
                    return Err(
                        Self::refuse(format!("a reason is at most {MAX_TEXT} characters"))
                            .field("reason"),
                    );
                }
                Ok(vec![Event::ResultCorrected {
                    game,
                    score,
                    minutes,
                    reason,
                    at,
                }])
            }
            Command::Withdraw { player, at } => {
                self.check_player(player, "player")?;
                if self.entrants[player.index()].withdrawal.is_some() {
                    return Err(Self::refuse(format!(
                        "{} has already withdrawn",
                        self.name_of(player)
                    ))
                    .field("player"));
                }
                let (played, scheduled) = self.games_of(player).fold((0, 0), |(p, s), g| {
                    (p + u32::from(g.score.is_some_and(Score::is_played)), s + 1)
                });
                let annulled = self.started.is_some()
                    && self.rules.withdrawal == Withdrawal::AnnulUnderHalf
                    && 2 * played < scheduled;
                Ok(vec![Event::Withdrawn {
                    player,
                    played,
                    scheduled,
                    annulled,
                    at,
                }])
            }
            Command::DrawLots { players, seed, at } => {
                self.check_lot_players(&players, "players")?;
                match self.lot_commitment {
                    None => {
                        return Err(Self::refuse(
                            "no seed was committed when the league started: enter the order of a lot drawn by hand",
                        ));
                    }
                    Some(c) if !draw::verify(&seed, &c) => {
                        return Err(Self::refuse(
                            "this seed is not the one committed when the league started",
                        )
                        .field("seed"));
                    }
                    Some(_) => {}
                }
                let order = lot_order(&seed, &players);
                Ok(vec![Event::LotsDrawn {
                    order,
                    seed: Some(seed),
                    how: "drawn from the seed committed at the start".into(),
                    at,
                }])
            }
            Command::EnterLots { order, how, at } => {
                self.check_lot_players(&order, "order")?;
                let how = how.trim().to_string();
                if how.is_empty() || how.chars().count() > MAX_TEXT {
                    return Err(Self::refuse(format!(
                        "say how the lot was drawn, in at most {MAX_TEXT} characters"
                    ))
                    .field("how"));
                }
                Ok(vec![Event::LotsDrawn {
                    order,
                    seed: None,
                    how,
                    at,
                }])
            }
            Command::LinkAccount { player, account } => {
                self.check_player(player, "player")?;
                let account = self.links.decide_link(
                    player,
                    &account,
                    LINK_CLAUSE,
                    |p| self.entrants.get(slot(p)).is_some(),
                    |p| self.name_of(p),
                )?;
                Ok(vec![Event::AccountLinked { player, account }])
            }
            Command::SetTimeZone { zone } => {
                let zone = crate::zone::TimeZone::set(self.zone, &zone)?;
                Ok(vec![Event::TimeZoneSet { zone }])
            }
            Command::UnlinkAccount { player } => {
                self.check_player(player, "player")?;
                let account = self
                    .links
                    .decide_unlink(player, LINK_CLAUSE, |p| self.name_of(p))?;
                Ok(vec![Event::AccountUnlinked { player, account }])
            }
        }
    }

    fn check_lot_players(&self, players: &[PlayerId], field: &str) -> Result<(), RuleError> {
        if players.len() < 2 {
            return Err(Self::refuse("a lot is drawn among two players or more").field(field));
        }
        for (i, p) in players.iter().enumerate() {
            self.check_player(*p, &format!("{field}[{i}]"))?;
            if players[..i].contains(p) {
                return Err(Self::refuse(format!(
                    "{} is named twice in the lot",
                    self.name_of(*p)
                ))
                .field(format!("{field}[{i}]")));
            }
        }
        Ok(())
    }

    /// An organizer's schedule: known players, nobody twice in a round,
    /// every pair meeting `cycles` times.
    fn check_schedule(&self, rounds: &[Pairs], playing: &[PlayerId]) -> Result<(), RuleError> {
        if playing.len() < *berger::PLAYERS.start() {
            return Err(Self::refuse("a round robin has at least two players").field("players"));
        }
        let n = playing.len();
        let mut met = vec![0u32; n * n];
        let seat = |p: PlayerId| playing.iter().position(|&q| q == p);
        if rounds.len() > 64 * berger::MOST_CYCLES as usize {
            return Err(Self::refuse("too many rounds").field("schedule"));
        }
        for (r, pairs) in rounds.iter().enumerate() {
            let mut busy = Vec::new();
            for (k, &(a, b)) in pairs.iter().enumerate() {
                let field = format!("schedule[{r}][{k}]");
                let (Some(i), Some(j)) = (seat(a), seat(b)) else {
                    return Err(Self::refuse(format!(
                        "round {}: {} and {} are not both playing",
                        r + 1,
                        self.name_of(a),
                        self.name_of(b)
                    ))
                    .field(field));
                };
                if a == b || busy.contains(&a) || busy.contains(&b) {
                    let twice = if busy.contains(&a) || a == b { a } else { b };
                    return Err(Self::refuse(format!(
                        "round {}: {} plays twice",
                        r + 1,
                        self.name_of(twice)
                    ))
                    .field(field));
                }
                busy.extend([a, b]);
                let (lo, hi) = (i.min(j), i.max(j));
                met[lo * n + hi] += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let m = met[i * n + j];
                if m != self.rules.cycles {
                    return Err(Self::refuse(format!(
                        "{} and {} meet {m} times in the schedule, not {} (a {}-fold round robin)",
                        self.name_of(playing[i]),
                        self.name_of(playing[j]),
                        self.rules.cycles,
                        self.rules.cycles
                    ))
                    .field("schedule"));
                }
            }
        }
        Ok(())
    }

    // ---- the fold --------------------------------------------------------

    /// Fold one event. Never panics: an event that does not fit is ignored.
    pub fn apply(&mut self, event: &Event) {
        let _ = self.try_apply(event);
    }

    /// [`RoundRobin::apply`], saying when the event does not fit.
    pub fn try_apply(&mut self, event: &Event) -> Result<(), RuleError> {
        self.check(event)?;
        self.apply_checked(event);
        Ok(())
    }

    fn check(&self, event: &Event) -> Result<(), RuleError> {
        let bad = |what: &str| Err(Self::refuse(format!("the record does not fit: {what}")));
        if !self.created && !matches!(event, Event::Created { .. } | Event::Reverted { .. }) {
            return bad("an event before the league was created");
        }
        let known = |p: &PlayerId| p.0 >= 1 && p.index() < self.entrants.len();
        match event {
            Event::Created { .. } if self.created => bad("created twice"),
            Event::Started { .. } if self.started.is_some() => bad("started twice"),
            Event::Started { rounds, .. }
                if rounds.iter().flatten().any(|(a, b)| !known(a) || !known(b)) =>
            {
                bad("a game of an unknown player")
            }
            Event::ResultRecorded { game, .. } | Event::ResultCorrected { game, .. }
                if self.game(*game).is_none() =>
            {
                bad("a result of an unknown game")
            }
            Event::DeadlineSet { round, .. }
                if *round == 0 || *round as usize > self.rounds.len() =>
            {
                bad("a deadline of an unknown round")
            }
            Event::Withdrawn { player, .. }
            | Event::AccountLinked { player, .. }
            | Event::AccountUnlinked { player, .. }
                if !known(player) =>
            {
                bad("an unknown player")
            }
            Event::LotsDrawn { order, .. } if !order.iter().all(known) => bad("an unknown player"),
            _ => Ok(()),
        }
    }

    fn apply_checked(&mut self, event: &Event) {
        match event {
            Event::Created {
                name,
                rules,
                players,
            } => {
                self.name.clone_from(name);
                self.rules = rules.clone();
                self.created = true;
                self.entrants = players
                    .iter()
                    .map(|n| Entrant {
                        name: n.clone(),
                        withdrawal: None,
                    })
                    .collect();
            }
            Event::PlayerAdded { name } => self.entrants.push(Entrant {
                name: name.clone(),
                withdrawal: None,
            }),
            Event::Started {
                rounds,
                given,
                lot_commitment,
                at,
            } => {
                self.started = Some(*at);
                self.given_schedule = *given;
                self.lot_commitment = *lot_commitment;
                let playing = self.playing();
                for (r, pairs) in rounds.iter().enumerate() {
                    let number = r as u32 + 1;
                    let mut ids = Vec::with_capacity(pairs.len());
                    for &(home, away) in pairs {
                        let id = GameId(self.games.len() as u32);
                        ids.push(id);
                        self.games.push(Game {
                            id,
                            round: number,
                            home,
                            away,
                            score: None,
                            minutes: None,
                            at: None,
                        });
                    }
                    let byes = playing
                        .iter()
                        .copied()
                        .filter(|p| !pairs.iter().any(|(a, b)| a == p || b == p))
                        .collect();
                    self.rounds.push(Round {
                        number,
                        games: ids,
                        byes,
                        deadline: None,
                    });
                }
            }
            Event::DeadlineSet { round, deadline } => {
                if let Some(r) = self.rounds.get_mut(*round as usize - 1) {
                    r.deadline = *deadline;
                }
            }
            Event::ResultRecorded {
                game,
                score,
                minutes,
                at,
            } => {
                if let Some(g) = self.games.get_mut(game.index()) {
                    g.score = Some(*score);
                    g.minutes = *minutes;
                    g.at = Some(*at);
                }
            }
            Event::ResultCorrected {
                game,
                score,
                minutes,
                at,
                ..
            } => {
                if let Some(g) = self.games.get_mut(game.index()) {
                    g.score = *score;
                    g.minutes = *minutes;
                    g.at = score.map(|_| *at);
                }
            }
            Event::Withdrawn {
                player,
                played,
                scheduled,
                annulled,
                at,
            } => {
                self.entrants[player.index()].withdrawal = Some(Withdrew {
                    played: *played,
                    scheduled: *scheduled,
                    annulled: *annulled,
                    at: *at,
                });
            }
            Event::LotsDrawn {
                order,
                seed,
                how,
                at,
            } => self.lots.push(Lot {
                order: order.clone(),
                seed: *seed,
                how: how.clone(),
                at: *at,
            }),
            Event::AccountLinked { player, account } => self.links.link(account, *player),
            Event::AccountUnlinked { player, .. } => self.links.unlink(*player),
            Event::TimeZoneSet { zone } => self.zone = *zone,
            Event::Reverted { .. } => {}
        }
    }
}
