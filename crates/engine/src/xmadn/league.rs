//! The XMadn league ("League (L)"): a number of double round-robins among
//! three players, each preceded by a round of die-roll for the schedule
//! positions, then the table with its restarting tiebreak cascade
//! ([`super::table`]) and an optional playoff.

use crate::RuleError;
use crate::draw::{self, Dice, RollRound, Seed};
use crate::explain::Explanation;
use crate::model::Links;
use crate::model::{GameId, PlayerId, Time};
use crate::report::{self, Confirmer, Pending};

use super::rules::{LeagueRules, Playoff, Series};
use super::{Colours, Home, Score};

const CLAUSE_DRR: &str = "XMadn League: Double-round robins";
const CLAUSE_RESULTS: &str = "XMadn League: Game results";
const CLAUSE_TABLE: &str = "XMadn League: Table";
const CLAUSE_PLAYOFF: &str = "XMadn League: Playoff";

/// Where a game belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Game `number` (1 to 6) of double round-robin `drr`.
    RoundRobin { drr: u32, number: u8 },
    /// Game `number` (from 1) of a playoff round.
    Playoff { round: PlayoffStage, number: u32 },
}

/// A playoff round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayoffStage {
    /// The Qualifying Game or Series between 2nd and 3rd.
    Qualifying,
    /// The Final Game or Series.
    Final,
}

impl PlayoffStage {
    pub fn name(self) -> &'static str {
        match self {
            PlayoffStage::Qualifying => "qualifying",
            PlayoffStage::Final => "final",
        }
    }
}

/// A game's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameStatus {
    Scheduled,
    Played {
        score: Score,
        /// The pawns each player brought home per allied colour, in the
        /// game's player order, when the result was entered so.
        home: Option<[Home; 2]>,
        at: Time,
    },
    /// Cancelled by mutual consent once the significant outcomes were
    /// determined: it counts for nothing (XM-R6).
    Cancelled {
        note: String,
        at: Time,
    },
}

/// One game: its two players in schedule order ("player #1 vs player #2")
/// and its state. A score's pawns are in the same order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueGame {
    pub id: GameId,
    pub stage: Stage,
    pub players: [PlayerId; 2],
    pub status: GameStatus,
}

impl LeagueGame {
    /// The score, if played.
    pub fn score(&self) -> Option<&Score> {
        match &self.status {
            GameStatus::Played { score, .. } => Some(score),
            _ => None,
        }
    }

    /// The winner, if played.
    pub fn winner(&self) -> Option<PlayerId> {
        self.score().map(|s| self.players[s.winner_index()])
    }

    pub fn is_resolved(&self) -> bool {
        !matches!(self.status, GameStatus::Scheduled)
    }

    pub fn has(&self, p: PlayerId) -> bool {
        self.players.contains(&p)
    }

    /// The pawns of `p` in this game, if played and his.
    pub fn pawns_of(&self, p: PlayerId) -> Option<u8> {
        let i = self.players.iter().position(|&x| x == p)?;
        self.score().map(|s| s.pawns[i])
    }
}

/// A round of die-roll as recorded: the seed it revealed, the commitment it
/// was checked against, and the faces; or the faces of real dice rolled at
/// the table, entered by a moderator (ARB-R64), which have neither seed nor
/// commitment (both all zeros).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollRecord {
    pub seed: Seed,
    /// The hash published before the roll.
    pub committed: [u8; 32],
    /// Who entered the faces of dice rolled at the table (ARB-R64); `None`
    /// for a committed draw.
    pub entered_by: Option<String>,
    /// The players in the order they rolled.
    pub players: Vec<PlayerId>,
    pub rounds: Vec<RollRound<PlayerId>>,
    pub purpose: RollPurpose,
    pub at: Time,
}

/// What a roll decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollPurpose {
    /// The positions #1, #2, #3 of double round-robin `drr`.
    Positions { drr: u32, positions: [PlayerId; 3] },
    /// Tiebreak step 6 among the tied players (XM-R3).
    Tiebreak,
}

/// One double round-robin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drr {
    /// Positions rolled, six games scheduled.
    Scheduled {
        positions: [PlayerId; 3],
        games: [GameId; 6],
    },
    /// Cancelled before it began, by mutual consent, once the significant
    /// outcomes were determined (XM-R6).
    Cancelled { note: String },
}

/// A playoff round in progress or decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayoffRound {
    pub stage: PlayoffStage,
    /// The higher seed, who chose colours.
    pub higher: PlayerId,
    pub lower: PlayerId,
    pub series: Series,
    /// The higher seed starts 1-0 (XM-R7).
    pub head_start: bool,
    /// Colours of the higher and lower seed, kept for the whole round.
    pub colours: [Colours; 2],
    pub games: Vec<GameId>,
    /// Wins of the higher and lower seed, the head start included.
    pub wins: [u32; 2],
}

impl PlayoffRound {
    pub fn winner(&self) -> Option<PlayerId> {
        let need = self.series.wins_needed();
        if self.wins[0] >= need {
            Some(self.higher)
        } else if self.wins[1] >= need {
            Some(self.lower)
        } else {
            None
        }
    }
}

/// Everything that happens to a league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Created {
        name: String,
        rules: LeagueRules,
        players: Vec<String>,
        seed_hash: [u8; 32],
    },
    /// "Prior to each DRR, the players' positions (#1, #2, #3) on the
    /// schedule shall be determined by round of die-roll".
    PositionsRolled {
        drr: u32,
        seed: Seed,
        next_seed_hash: [u8; 32],
        rounds: Vec<RollRound<PlayerId>>,
        positions: [PlayerId; 3],
        at: Time,
    },
    /// The positions of double round-robin `drr` by a round of die-roll
    /// with real dice at the table, its faces entered by moderator `by`
    /// (ARB-R64).
    PositionsEntered {
        drr: u32,
        rounds: Vec<RollRound<PlayerId>>,
        positions: [PlayerId; 3],
        by: String,
        at: Time,
    },
    /// Step 6 among `players` by real dice at the table, the faces entered
    /// by moderator `by` (XM-R3, ARB-R64).
    TiebreakEntered {
        players: Vec<PlayerId>,
        rounds: Vec<RollRound<PlayerId>>,
        by: String,
        at: Time,
    },
    ResultRecorded {
        game: GameId,
        score: Score,
        /// Per allied colour, in the game's player order, when entered so
        /// (ARB-R65).
        home: Option<[Home; 2]>,
        at: Time,
    },
    ResultCorrected {
        game: GameId,
        score: Score,
        /// Per allied colour, in the game's player order (ARB-R65).
        home: Option<[Home; 2]>,
        reason: String,
        at: Time,
    },
    GameCancelled {
        game: GameId,
        note: String,
        at: Time,
    },
    DrrCancelled {
        drr: u32,
        note: String,
        at: Time,
    },
    /// The double round-robins already played, carried over from the
    /// league's records (issue 18 §1, ARB-R80).
    DrrsCarriedOver(Box<super::carry::LeagueCarryOver>),
    /// Step 6, "round of die-roll", among `players` (XM-R3).
    TiebreakRolled {
        players: Vec<PlayerId>,
        seed: Seed,
        next_seed_hash: [u8; 32],
        rounds: Vec<RollRound<PlayerId>>,
        at: Time,
    },
    PlayoffStarted {
        stage: PlayoffStage,
        higher: PlayerId,
        lower: PlayerId,
        series: Series,
        head_start: bool,
        colours: Colours,
        at: Time,
    },
    PlayoffGamePlayed {
        stage: PlayoffStage,
        /// Pawns in the order higher seed, lower seed.
        score: Score,
        /// Per allied colour, higher seed first (ARB-R65).
        home: Option<[Home; 2]>,
        at: Time,
    },
    /// One of the game's two players reports its result (ARB-R45,
    /// ARB-R81): a round-robin game, or the next game of the running
    /// playoff round (`game` is then the id that game will have). The score
    /// is in the game's player order (a playoff game: higher seed first). It
    /// waits for the other player or a moderator; a later report replaces
    /// it.
    ResultReported {
        game: GameId,
        score: Score,
        by: PlayerId,
        at: Time,
    },
    /// The pending report is confirmed (ARB-R45); the `ResultRecorded` or
    /// `PlayoffGamePlayed` that follows it in the same append records it.
    ResultConfirmed {
        game: GameId,
        by: Confirmer,
        at: Time,
    },
    /// The pending report is disputed and dropped with the reason
    /// (ARB-R45): the players report again or a moderator records.
    ReportDisputed {
        game: GameId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    /// The account `account` plays as `player` (ARB-R50), linked by a
    /// moderator.
    AccountLinked {
        player: PlayerId,
        account: String,
    },
    /// A moderator ends the link of `account` to `player` (ARB-R50).
    AccountUnlinked {
        player: PlayerId,
        account: String,
    },
    /// The competition's times are shown, and days given without a time
    /// read, in `zone` (ARB-R82).
    TimeZoneSet {
        zone: crate::zone::TimeZone,
    },
    /// Undo: event `seq` no longer counts (folds skip it).
    Reverted {
        seq: u64,
        summary: String,
    },
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "league-created",
            Event::PositionsRolled { .. } => "league-positions-rolled",
            Event::PositionsEntered { .. } => "league-positions-entered",
            Event::TiebreakEntered { .. } => "league-tiebreak-entered",
            Event::ResultRecorded { .. } => "league-result-recorded",
            Event::ResultCorrected { .. } => "league-result-corrected",
            Event::GameCancelled { .. } => "league-game-cancelled",
            Event::DrrCancelled { .. } => "league-drr-cancelled",
            Event::DrrsCarriedOver(_) => "league-carried-over",
            Event::TiebreakRolled { .. } => "league-tiebreak-rolled",
            Event::PlayoffStarted { .. } => "league-playoff-started",
            Event::PlayoffGamePlayed { .. } => "league-playoff-game-played",
            Event::ResultReported { .. } => "league-result-reported",
            Event::ResultConfirmed { .. } => "league-result-confirmed",
            Event::ReportDisputed { .. } => "league-report-disputed",
            Event::AccountLinked { .. } => "league-account-linked",
            Event::AccountUnlinked { .. } => "league-account-unlinked",
            Event::TimeZoneSet { .. } => "league-time-zone-set",
            Event::Reverted { .. } => "reverted",
        }
    }
}

/// Which result a [`Command::ByColour`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// [`Command::RecordResult`].
    Result { game: Option<GameId> },
    /// [`Command::CorrectResult`].
    Correction { game: GameId, reason: String },
    /// [`Command::RecordPlayoffGame`].
    Playoff,
}

/// What a moderator asks of a league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Create {
        name: String,
        rules: LeagueRules,
        players: Vec<String>,
        seed_hash: [u8; 32],
    },
    /// Roll the positions of the next double round-robin with the revealed
    /// `seed` (it must be the committed one) and commit the next seed.
    RollPositions {
        seed: Seed,
        next_seed_hash: [u8; 32],
        at: Time,
    },
    /// The faces of the round of die-roll the league needs now (the
    /// positions of the next DRR, or step 6), rolled with real dice at the
    /// table and entered by moderator `by` (ARB-R64). `rounds`: the first
    /// round gives one face to each player who rolls; each next round one
    /// to each player still tied, the highest tie first.
    EnterRoll {
        rounds: Vec<RollRound<PlayerId>>,
        by: String,
        at: Time,
    },
    /// A result given as the pawns each of `players` brought home per
    /// allied colour (vanguard, rearguard; ARB-R65): the counted pawns are
    /// derived by the rule set ("the pawns of the respective players' best
    /// one allied colour (2T) or both allied colours (2T+)"), then it is the
    /// command `entry` names, and its event keeps the figures.
    ByColour {
        entry: Entry,
        players: [PlayerId; 2],
        home: [Home; 2],
        seconds: u32,
        at: Time,
    },
    /// The result of the game between `players` (pawns in that order). With
    /// `game`, that game; otherwise their next scheduled game that may be
    /// played now.
    RecordResult {
        game: Option<GameId>,
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        at: Time,
    },
    CorrectResult {
        game: GameId,
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        reason: String,
        at: Time,
    },
    /// Cancel a remaining game by mutual consent of its players.
    CancelGame {
        game: GameId,
        note: String,
        at: Time,
    },
    /// Cancel a double round-robin not begun, by mutual consent.
    CancelDrr { drr: u32, note: String, at: Time },
    /// Carry the double round-robins already played over from the
    /// league's records, before the first is rolled here (ARB-R80).
    CarryOver {
        drrs: Vec<super::carry::CarriedDrr>,
        source: String,
        by: String,
        at: Time,
    },
    /// Roll step 6 for the first tie of the final table that needs it.
    RollTiebreak {
        seed: Seed,
        next_seed_hash: [u8; 32],
        at: Time,
    },
    /// Start the next playoff round; the higher seed chooses `colours`.
    StartPlayoff { colours: Colours, at: Time },
    RecordPlayoffGame {
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        at: Time,
    },
    /// Player `by` reports the result of his game against the other of
    /// `players` (pawns in that order), as [`Command::RecordResult`] takes
    /// it, or of the running playoff round's next game (ARB-R45, ARB-R81).
    /// The other player's report of the same score confirms it.
    ReportResult {
        game: Option<GameId>,
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        by: PlayerId,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// confirms the report of `game`: the result is recorded (ARB-R45).
    ConfirmResult {
        game: GameId,
        by: Confirmer,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// disputes the report of `game`, which is dropped (ARB-R45).
    DisputeReport {
        game: GameId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    /// A moderator links `account` to `player` (ARB-R50).
    LinkAccount { player: PlayerId, account: String },
    /// A moderator ends the link of `player`'s account (ARB-R50).
    UnlinkAccount { player: PlayerId },
    /// A moderator sets the competition's time zone, an IANA name (ARB-R82).
    SetTimeZone { zone: String },
}

fn epoch() -> Time {
    chrono::DateTime::<chrono::Utc>::UNIX_EPOCH
}

impl Command {
    pub fn at(&self) -> Option<Time> {
        match self {
            Command::Create { .. }
            | Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. } => None,
            Command::RollPositions { at, .. }
            | Command::EnterRoll { at, .. }
            | Command::ByColour { at, .. }
            | Command::RecordResult { at, .. }
            | Command::CorrectResult { at, .. }
            | Command::CancelGame { at, .. }
            | Command::CancelDrr { at, .. }
            | Command::CarryOver { at, .. }
            | Command::RollTiebreak { at, .. }
            | Command::StartPlayoff { at, .. }
            | Command::RecordPlayoffGame { at, .. }
            | Command::ReportResult { at, .. }
            | Command::ConfirmResult { at, .. }
            | Command::DisputeReport { at, .. } => Some(*at),
        }
    }

    /// The command with its time left out (and the seeds, which the service
    /// draws): what identifies a request for idempotency.
    pub fn without_time(&self) -> Command {
        let mut c = self.clone();
        match &mut c {
            Command::Create { seed_hash, .. } => *seed_hash = [0; 32],
            Command::RollPositions {
                at,
                seed,
                next_seed_hash,
            }
            | Command::RollTiebreak {
                at,
                seed,
                next_seed_hash,
            } => {
                *at = epoch();
                *seed = [0; 32];
                *next_seed_hash = [0; 32];
            }
            Command::RecordResult { at, .. }
            | Command::EnterRoll { at, .. }
            | Command::ByColour { at, .. }
            | Command::CorrectResult { at, .. }
            | Command::CancelGame { at, .. }
            | Command::CancelDrr { at, .. }
            | Command::CarryOver { at, .. }
            | Command::StartPlayoff { at, .. }
            | Command::RecordPlayoffGame { at, .. }
            | Command::ReportResult { at, .. }
            | Command::ConfirmResult { at, .. }
            | Command::DisputeReport { at, .. } => *at = epoch(),
            Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. } => {}
        }
        c
    }
}

/// The league's state: a fold of its events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct League {
    pub created: bool,
    pub name: String,
    pub rules: LeagueRules,
    pub players: Vec<String>,
    /// Which account plays as which player (ARB-R50).
    pub links: Links,
    /// The time zone (ARB-R82): UTC until one is set.
    pub zone: crate::zone::TimeZone,
    /// The commitment of the next roll's seed.
    pub seed_hash: [u8; 32],
    pub drrs: Vec<Drr>,
    pub games: Vec<LeagueGame>,
    pub rolls: Vec<RollRecord>,
    pub playoff: Vec<PlayoffRound>,
    /// The double round-robins carried over from the league's records
    /// (ARB-R80): games 1 to 6 × their number.
    pub carried: Option<Box<super::carry::LeagueCarryOver>>,
    /// The results reported by a player and not yet confirmed, by game
    /// (ARB-R45, ARB-R81); the score in the game's player order.
    pub reports: std::collections::BTreeMap<GameId, Pending<Score>>,
}

/// The three players' ids.
pub const PLAYERS: [PlayerId; 3] = [PlayerId(1), PlayerId(2), PlayerId(3)];

/// The six games of a double round-robin from the positions, exactly as
/// the document schedules them.
pub fn schedule(positions: [PlayerId; 3]) -> [[PlayerId; 2]; 6] {
    let [p1, p2, p3] = positions;
    [
        [p1, p2], // Game 1: player #1 vs player #2
        [p3, p1], // Game 2: player #3 vs player #1
        [p2, p3], // Game 3: player #2 vs player #3
        [p2, p1], // Game 4: player #2 vs player #1
        [p1, p3], // Game 5: player #1 vs player #3
        [p3, p2], // Game 6: player #3 vs player #2
    ]
}

/// Where the league stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Double round-robin `drr` needs its positions rolled.
    AwaitingPositions { drr: u32 },
    /// Double round-robin `drr` is being played.
    RoundRobin { drr: u32 },
    /// All double round-robins are concluded; the table needs a step-6 die
    /// roll among these players.
    AwaitingTiebreak { players: Vec<PlayerId> },
    /// The next playoff round can start.
    AwaitingPlayoff { stage: PlayoffStage },
    /// A playoff round is being played.
    Playoff { stage: PlayoffStage },
    /// The league is over.
    Finished { champion: PlayerId },
}

fn rule(clause: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(clause, message)
}

impl League {
    pub fn fold<'a>(events: impl IntoIterator<Item = &'a Event>) -> League {
        let mut l = League::default();
        for e in events {
            l.apply(e);
        }
        l
    }

    /// A player's name; an id that is not one of the three players (a
    /// damaged command) shows as the id, without panicking.
    /// `p` if he is one of the players, or the refusal naming the field.
    fn known_player(&self, p: PlayerId) -> Result<(), RuleError> {
        if PLAYERS.contains(&p) {
            Ok(())
        } else {
            Err(RuleError::new("ARB-R50", format!("there is no player {p}")).field("player"))
        }
    }

    pub fn name_of(&self, p: PlayerId) -> String {
        p.0.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
            .cloned()
            .unwrap_or_else(|| p.to_string())
    }

    /// A player by name (the one normalization of every format, ARB-R62),
    /// or by unique prefix of the normalized name.
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        if let Some(i) = crate::model::find_name(self.players.iter().map(String::as_str), name) {
            return PLAYERS.get(i).copied();
        }
        let lower = crate::model::name_key(name);
        let hits: Vec<usize> = (0..self.players.len().min(3))
            .filter(|&i| {
                !lower.is_empty() && crate::model::name_key(&self.players[i]).starts_with(&lower)
            })
            .collect();
        match hits.as_slice() {
            [i] => Some(PLAYERS[*i]),
            _ => None,
        }
    }

    pub fn game(&self, id: GameId) -> Option<&LeagueGame> {
        if id.0 == 0 {
            return None;
        }
        self.games.get(id.index())
    }

    /// The round-robin games of double round-robin `drr`.
    pub fn drr_games(&self, drr: u32) -> Vec<&LeagueGame> {
        match self.drrs.get(drr.wrapping_sub(1) as usize) {
            Some(Drr::Scheduled { games, .. }) => {
                games.iter().filter_map(|g| self.game(*g)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Every round-robin game (not the playoff).
    pub fn round_robin_games(&self) -> impl Iterator<Item = &LeagueGame> {
        self.games
            .iter()
            .filter(|g| matches!(g.stage, Stage::RoundRobin { .. }))
    }

    /// Whether every double round-robin is concluded (rolled and every game
    /// played or cancelled, or cancelled whole).
    pub fn round_robins_concluded(&self) -> bool {
        self.drrs.len() as u32 == self.rules.double_round_robins
            && self.round_robin_games().all(LeagueGame::is_resolved)
    }

    /// Double round-robins not yet begun (no positions rolled, not cancelled).
    pub fn drrs_to_come(&self) -> u32 {
        self.rules
            .double_round_robins
            .saturating_sub(self.drrs.len() as u32)
    }

    /// Where the league stands now.
    pub fn phase(&self) -> Phase {
        let current = self.drrs.len() as u32;
        if current == 0
            || (self.drr_games(current).iter().all(|g| g.is_resolved())
                && current < self.rules.double_round_robins)
        {
            return Phase::AwaitingPositions { drr: current + 1 };
        }
        if !self.round_robins_concluded() {
            return Phase::RoundRobin { drr: current };
        }
        let table = super::table::Table::of(self);
        if let Some(tie) = table.pending_roll() {
            return Phase::AwaitingTiebreak { players: tie };
        }
        let order = &table.ranking.order;
        let stages: &[PlayoffStage] = match self.rules.playoff {
            Playoff::None => &[],
            Playoff::TopTwo { .. } => &[PlayoffStage::Final],
            Playoff::AllThree { .. } => &[PlayoffStage::Qualifying, PlayoffStage::Final],
        };
        for (i, stage) in stages.iter().enumerate() {
            match self.playoff.get(i) {
                None => return Phase::AwaitingPlayoff { stage: *stage },
                Some(r) if r.winner().is_none() => return Phase::Playoff { stage: *stage },
                Some(_) => {}
            }
        }
        let champion = match self.playoff.last() {
            Some(r) => r.winner().unwrap_or(r.higher),
            None => order.first().copied().unwrap_or(PlayerId(1)),
        };
        Phase::Finished { champion }
    }

    /// The champion, once the league is over.
    pub fn champion(&self) -> Option<PlayerId> {
        match self.phase() {
            Phase::Finished { champion } => Some(champion),
            _ => None,
        }
    }

    /// The games that may be played now: in the running double
    /// round-robin, the first unplayed game of the top half (Games 1 to 3
    /// in order), or else every unplayed game of the bottom half ("The
    /// order of the at-boards of the bottom half (Games 4 to 6) shall
    /// remain flexible").
    pub fn playable(&self) -> Vec<&LeagueGame> {
        let Phase::RoundRobin { drr } = self.phase() else {
            return Vec::new();
        };
        let games = self.drr_games(drr);
        if let Some(first) = games[..3].iter().find(|g| !g.is_resolved()) {
            return vec![*first];
        }
        games[3..]
            .iter()
            .filter(|g| !g.is_resolved())
            .copied()
            .collect()
    }

    /// The explanation of double round-robin `drr`'s positions.
    pub fn explain_positions(&self, drr: u32) -> Option<Explanation> {
        // A double round-robin carried over from the records (ARB-R80).
        if let Some(c) = &self.carried
            && let Some(d) = c.drrs.get((drr as usize).wrapping_sub(1))
        {
            return Some(Explanation::new(
                CLAUSE_DRR,
                &["XM-R1", super::carry::ARB_CARRY],
                format!(
                    "DRR {drr}: #1 {}, #2 {}, #3 {} as the league's records give them, {}",
                    self.name_of(d.positions[0]),
                    self.name_of(d.positions[1]),
                    self.name_of(d.positions[2]),
                    c.citation()
                ),
            ));
        }
        let roll = self
            .rolls
            .iter()
            .find(|r| matches!(r.purpose, RollPurpose::Positions { drr: d, .. } if d == drr))?;
        let RollPurpose::Positions { positions, .. } = roll.purpose else {
            return None;
        };
        let faces = describe_rounds(self, &roll.rounds);
        let (rulings, source): (&[&str], String) = match &roll.entered_by {
            Some(by) => (
                &["XM-R1", "ARB-R64"],
                format!("; {}", entered_words(by, roll.at)),
            ),
            None => (&["XM-R1"], String::new()),
        };
        Some(Explanation::new(
            CLAUSE_DRR,
            rulings,
            format!(
                "DRR {drr}: #1 {}, #2 {}, #3 {} by round of die-roll, the highest yield #1 ({faces}){source}",
                self.name_of(positions[0]),
                self.name_of(positions[1]),
                self.name_of(positions[2]),
            ),
        ))
    }

    /// Check every recorded roll: a committed draw's seed against the
    /// commitment published before it, and its faces against the faces the
    /// seed gives; the faces of dice rolled at the table (ARB-R64) against
    /// the procedure: 1 to the die's faces, one per player still tied,
    /// exactly the tied players, and the positions they give.
    pub fn verify_rolls(&self) -> Vec<RollCheck> {
        self.rolls
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if let Some(by) = &r.entered_by {
                    let faces_ok = match &r.purpose {
                        RollPurpose::Positions { positions, .. } => {
                            self.entered_order(&r.players, &r.rounds).is_ok_and(
                                |(rounds, order)| rounds == r.rounds && order == positions.to_vec(),
                            )
                        }
                        RollPurpose::Tiebreak => self
                            .entered_separation(&r.players, &r.rounds)
                            .is_ok_and(|rounds| rounds == r.rounds),
                    };
                    return RollCheck {
                        number: i + 1,
                        purpose: r.purpose.clone(),
                        seed: r.seed,
                        committed: r.committed,
                        entered_by: Some(by.clone()),
                        at: r.at,
                        // Nothing was committed, so nothing can fail to match.
                        commitment_ok: true,
                        faces_ok,
                    };
                }
                let mut dice = self.dice(&r.seed);
                let recomputed = match r.purpose {
                    RollPurpose::Positions { .. } => draw::roll_order(&mut dice, &r.players).0,
                    RollPurpose::Tiebreak => draw::roll_until_separated(&mut dice, &r.players),
                };
                RollCheck {
                    number: i + 1,
                    purpose: r.purpose.clone(),
                    seed: r.seed,
                    committed: r.committed,
                    entered_by: None,
                    at: r.at,
                    commitment_ok: draw::verify(&r.seed, &r.committed),
                    faces_ok: recomputed == r.rounds,
                }
            })
            .collect()
    }

    // ----- apply -----

    /// Fold one event. Never refuses, never panics: an event that does not
    /// fit is ignored (see [`League::check`]).
    pub fn apply(&mut self, event: &Event) {
        let _ = self.try_apply(event);
    }

    /// [`League::apply`], saying when the event does not fit.
    pub fn try_apply(&mut self, event: &Event) -> Result<(), RuleError> {
        self.check(event)?;
        self.apply_checked(event);
        Ok(())
    }

    /// Whether `event` fits this state (what a damaged log fails).
    pub fn check(&self, event: &Event) -> Result<(), RuleError> {
        let bad = |m: &str| Err(rule("event log", m.to_string()));
        if !self.created && !matches!(event, Event::Created { .. } | Event::Reverted { .. }) {
            return bad("an event before the league was created");
        }
        match event {
            Event::Created { .. } if self.created => bad("the league is created twice"),
            Event::AccountLinked { player, account }
            | Event::AccountUnlinked { player, account }
                if !(PLAYERS.contains(player)) || crate::model::account_name(account).is_err() =>
            {
                bad("a link of an unknown player or account")
            }

            Event::Created { players, .. } if players.len() != 3 => {
                bad("a league has three players")
            }
            Event::PositionsRolled { drr, positions, .. }
            | Event::PositionsEntered { drr, positions, .. } => {
                let mut p = positions.to_vec();
                p.sort_unstable();
                if *drr != self.drrs.len() as u32 + 1
                    || *drr > self.rules.double_round_robins
                    || p != PLAYERS
                {
                    bad("positions rolled for an unexpected double round-robin")
                } else {
                    Ok(())
                }
            }
            Event::ResultRecorded { game, .. }
            | Event::ResultCorrected { game, .. }
            | Event::GameCancelled { game, .. } => match self.game(*game) {
                Some(g) if matches!(g.stage, Stage::RoundRobin { .. }) => Ok(()),
                _ => bad("an event for an unknown game"),
            },
            Event::DrrsCarriedOver(c) => self.replay_carried(c).map(drop),
            Event::DrrCancelled { drr, .. } => {
                if *drr == self.drrs.len() as u32 + 1 && *drr <= self.rules.double_round_robins {
                    Ok(())
                } else {
                    bad("an unexpected double round-robin cancelled")
                }
            }
            Event::TiebreakRolled { players, .. } | Event::TiebreakEntered { players, .. } => {
                if players.len() >= 2 && players.iter().all(|p| PLAYERS.contains(p)) {
                    Ok(())
                } else {
                    bad("a tiebreak roll among unknown players")
                }
            }
            Event::PlayoffStarted { higher, lower, .. } => {
                if PLAYERS.contains(higher) && PLAYERS.contains(lower) && higher != lower {
                    Ok(())
                } else {
                    bad("a playoff round between unknown players")
                }
            }
            Event::PlayoffGamePlayed { stage, .. } => match self.playoff.last() {
                Some(r) if r.stage == *stage && r.winner().is_none() => Ok(()),
                _ => bad("a playoff game outside a running playoff round"),
            },
            Event::ResultReported { game, by, .. } => match self.reportable_players(*game) {
                Some(players) if players.contains(by) => Ok(()),
                _ => bad("a report of a game that takes none, or by a player not in it"),
            },
            Event::ResultConfirmed { game, .. } | Event::ReportDisputed { game, .. } => {
                if self.reports.contains_key(game) {
                    Ok(())
                } else {
                    bad("a confirmation or dispute without a pending report")
                }
            }
            _ => Ok(()),
        }
    }

    fn apply_checked(&mut self, event: &Event) {
        match event {
            Event::AccountLinked { player, account } => self.links.link(account, *player),
            Event::AccountUnlinked { player, .. } => self.links.unlink(*player),
            Event::TimeZoneSet { zone } => self.zone = *zone,
            Event::Created {
                name,
                rules,
                players,
                seed_hash,
            } => {
                self.created = true;
                self.name = name.clone();
                self.rules = rules.clone();
                self.players = players.clone();
                self.seed_hash = *seed_hash;
            }
            Event::PositionsRolled {
                drr,
                seed,
                next_seed_hash,
                rounds,
                positions,
                at,
            } => {
                self.schedule_drr(*drr, *positions);
                self.rolls.push(RollRecord {
                    seed: *seed,
                    committed: self.seed_hash,
                    entered_by: None,
                    players: PLAYERS.to_vec(),
                    rounds: rounds.clone(),
                    purpose: RollPurpose::Positions {
                        drr: *drr,
                        positions: *positions,
                    },
                    at: *at,
                });
                self.seed_hash = *next_seed_hash;
            }
            Event::PositionsEntered {
                drr,
                rounds,
                positions,
                by,
                at,
            } => {
                // No seed is revealed: the committed one waits for the next
                // committed roll (ARB-R64).
                self.schedule_drr(*drr, *positions);
                self.rolls.push(RollRecord {
                    seed: [0; 32],
                    committed: [0; 32],
                    entered_by: Some(by.clone()),
                    players: PLAYERS.to_vec(),
                    rounds: rounds.clone(),
                    purpose: RollPurpose::Positions {
                        drr: *drr,
                        positions: *positions,
                    },
                    at: *at,
                });
            }
            Event::TiebreakEntered {
                players,
                rounds,
                by,
                at,
            } => {
                self.rolls.push(RollRecord {
                    seed: [0; 32],
                    committed: [0; 32],
                    entered_by: Some(by.clone()),
                    players: players.clone(),
                    rounds: rounds.clone(),
                    purpose: RollPurpose::Tiebreak,
                    at: *at,
                });
            }
            Event::ResultReported {
                game,
                score,
                by,
                at,
            } => {
                self.reports.insert(
                    *game,
                    Pending {
                        result: *score,
                        by: *by,
                        at: *at,
                    },
                );
            }
            Event::ResultConfirmed { game, .. } | Event::ReportDisputed { game, .. } => {
                self.reports.remove(game);
            }
            Event::ResultRecorded {
                game,
                score,
                home,
                at,
            }
            | Event::ResultCorrected {
                game,
                score,
                home,
                at,
                ..
            } => {
                // A result by any path settles the game's report (ARB-R45).
                self.reports.remove(game);
                if let Some(g) = self.games.get_mut(game.index()) {
                    g.status = GameStatus::Played {
                        score: *score,
                        home: *home,
                        at: *at,
                    };
                }
            }
            Event::GameCancelled { game, note, at } => {
                self.reports.remove(game);
                if let Some(g) = self.games.get_mut(game.index()) {
                    g.status = GameStatus::Cancelled {
                        note: note.clone(),
                        at: *at,
                    };
                }
            }
            Event::DrrCancelled { note, .. } => {
                self.drrs.push(Drr::Cancelled { note: note.clone() });
            }
            Event::DrrsCarriedOver(c) => self.apply_carried(c),
            Event::TiebreakRolled {
                players,
                seed,
                next_seed_hash,
                rounds,
                at,
            } => {
                self.rolls.push(RollRecord {
                    seed: *seed,
                    committed: self.seed_hash,
                    entered_by: None,
                    players: players.clone(),
                    rounds: rounds.clone(),
                    purpose: RollPurpose::Tiebreak,
                    at: *at,
                });
                self.seed_hash = *next_seed_hash;
            }
            Event::PlayoffStarted {
                stage,
                higher,
                lower,
                series,
                head_start,
                colours,
                ..
            } => {
                let lower_colours = colours.opposite(&self.rules.board_colours);
                self.playoff.push(PlayoffRound {
                    stage: *stage,
                    higher: *higher,
                    lower: *lower,
                    series: *series,
                    head_start: *head_start,
                    colours: [colours.clone(), lower_colours],
                    games: Vec::new(),
                    wins: [u32::from(*head_start), 0],
                });
            }
            Event::PlayoffGamePlayed {
                stage,
                score,
                home,
                at,
            } => {
                let id = GameId(self.games.len() as u32 + 1);
                self.reports.remove(&id);
                if let Some(r) = self.playoff.last_mut() {
                    r.games.push(id);
                    r.wins[score.winner_index()] += 1;
                    self.games.push(LeagueGame {
                        id,
                        stage: Stage::Playoff {
                            round: *stage,
                            number: r.games.len() as u32,
                        },
                        players: [r.higher, r.lower],
                        status: GameStatus::Played {
                            score: *score,
                            home: *home,
                            at: *at,
                        },
                    });
                }
            }
            Event::Reverted { .. } => {}
        }
    }

    /// The six games of double round-robin `drr` from its positions.
    pub(crate) fn schedule_drr(&mut self, drr: u32, positions: [PlayerId; 3]) {
        let first = self.games.len() as u32 + 1;
        let mut ids = [GameId(0); 6];
        for (k, pair) in schedule(positions).iter().enumerate() {
            let id = GameId(first + k as u32);
            ids[k] = id;
            self.games.push(LeagueGame {
                id,
                stage: Stage::RoundRobin {
                    drr,
                    number: k as u8 + 1,
                },
                players: *pair,
                status: GameStatus::Scheduled,
            });
        }
        self.drrs.push(Drr::Scheduled {
            positions,
            games: ids,
        });
    }

    // ----- decide -----

    /// Decide a command: the events it causes, or the rule it breaks. The
    /// state is not changed.
    pub fn decide(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        if !self.created && !matches!(command, Command::Create { .. }) {
            return Err(rule(CLAUSE_DRR, "the league has not been created"));
        }
        if let Command::RecordResult { players, .. }
        | Command::CorrectResult { players, .. }
        | Command::RecordPlayoffGame { players, .. } = &command
            && let Some(p) = players.iter().find(|p| !PLAYERS.contains(p))
        {
            return Err(rule(
                CLAUSE_DRR,
                format!("{p} is not one of the league's three players"),
            )
            .field("players"));
        }
        match command {
            Command::ReportResult {
                game,
                players,
                pawns,
                seconds,
                by,
                at,
            } => {
                self.known_player(by).map_err(|e| e.field("by"))?;
                let (id, score) = self.reportable(game, players, pawns, seconds, at)?;
                let in_game = self
                    .reportable_players(id)
                    .ok_or_else(|| unknown_game(id))?;
                let name_of = |p: PlayerId| self.name_of(p);
                let what = self.report_ref(id);
                report::check_reporter(CLAUSE_RESULTS, in_game, by, &what, &name_of)?;
                if let Some(r) = self.reports.get(&id)
                    && r.result == score
                {
                    if r.by != by {
                        // The other player reports what was reported: he
                        // confirms it (ARB-R45).
                        return self.confirmed(id, r, Confirmer::Player(by), at);
                    }
                    let other = if in_game[0] == by {
                        in_game[1]
                    } else {
                        in_game[0]
                    };
                    return Err(report::already_reported(
                        CLAUSE_RESULTS,
                        &self.name_of(by),
                        &what,
                        &self.name_of(other),
                    ));
                }
                Ok(vec![Event::ResultReported {
                    game: id,
                    score,
                    by,
                    at,
                }])
            }
            Command::ConfirmResult { game, by, at } => {
                let r = self.pending_report(game)?;
                self.check_confirmer(game, r, &by, at, "confirms")?;
                self.confirmed(game, r, by, at)
            }
            Command::DisputeReport {
                game,
                by,
                reason,
                at,
            } => {
                let r = self.pending_report(game)?;
                self.check_confirmer(game, r, &by, at, "disputes")?;
                let reason = report::dispute_reason(CLAUSE_RESULTS, &reason)?;
                Ok(vec![Event::ReportDisputed {
                    game,
                    by,
                    reason,
                    at,
                }])
            }
            Command::LinkAccount { player, account } => {
                self.known_player(player)?;
                let account = self.links.decide_link(
                    player,
                    &account,
                    CLAUSE_DRR,
                    |_| true,
                    |p| self.name_of(p),
                )?;
                Ok(vec![Event::AccountLinked { player, account }])
            }
            Command::SetTimeZone { zone } => {
                let zone = crate::zone::TimeZone::set(self.zone, &zone)?;
                Ok(vec![Event::TimeZoneSet { zone }])
            }
            Command::UnlinkAccount { player } => {
                self.known_player(player)?;
                let account = self
                    .links
                    .decide_unlink(player, CLAUSE_DRR, |p| self.name_of(p))?;
                Ok(vec![Event::AccountUnlinked { player, account }])
            }
            Command::Create {
                name,
                rules,
                players,
                seed_hash,
            } => {
                if self.created {
                    return Err(rule(CLAUSE_DRR, "the league already exists"));
                }
                rules.check()?;
                super::check_players(&players)?;
                let players = super::player_names(&players)?;
                let name = name.trim().to_string();
                if name.is_empty() || name.len() > 100 {
                    return Err(
                        rule("ARB-R22", "a league's name is 1 to 100 characters").field("name")
                    );
                }
                Ok(vec![Event::Created {
                    name,
                    rules,
                    players,
                    seed_hash,
                }])
            }
            Command::RollPositions {
                seed,
                next_seed_hash,
                at,
            } => {
                let Phase::AwaitingPositions { drr } = self.phase() else {
                    return Err(self.not_now("roll the positions of a double round-robin"));
                };
                self.check_seed(&seed)?;
                let mut dice = self.dice(&seed);
                let (rounds, order) = draw::roll_order(&mut dice, &PLAYERS);
                let positions = [order[0], order[1], order[2]];
                Ok(vec![Event::PositionsRolled {
                    drr,
                    seed,
                    next_seed_hash,
                    rounds,
                    positions,
                    at,
                }])
            }
            Command::RecordResult {
                game,
                players,
                pawns,
                seconds,
                at,
            } => {
                let g = self.find_game_to_play(game, players)?;
                let score = self.score_for(g, players, pawns, seconds)?;
                Ok(vec![Event::ResultRecorded {
                    game: g.id,
                    score,
                    home: None,
                    at,
                }])
            }
            Command::CorrectResult {
                game,
                players,
                pawns,
                seconds,
                reason,
                at,
            } => {
                let g = self.game(game).ok_or_else(|| unknown_game(game))?;
                if !matches!(g.stage, Stage::RoundRobin { .. }) {
                    return Err(rule(
                        CLAUSE_PLAYOFF,
                        "playoff games are corrected with `undo`, game by game",
                    ));
                }
                if !matches!(g.status, GameStatus::Played { .. }) {
                    return Err(rule(
                        CLAUSE_RESULTS,
                        format!("{} has no result to correct", self.game_ref(game)),
                    ));
                }
                if !self.playoff.is_empty() {
                    return Err(rule(
                        CLAUSE_PLAYOFF,
                        "the playoff has started: the table it was seeded from is final",
                    ));
                }
                if reason.trim().is_empty() {
                    return Err(rule(CLAUSE_RESULTS, "a correction needs a reason").field("reason"));
                }
                let score = self.score_for(g, players, pawns, seconds)?;
                Ok(vec![Event::ResultCorrected {
                    game,
                    score,
                    home: None,
                    reason: reason.trim().to_string(),
                    at,
                }])
            }
            Command::CarryOver {
                drrs,
                source,
                by,
                at,
            } => self.decide_carry_over(drrs, source, by, at),
            Command::CancelGame { game, note, at } => {
                let g = self.game(game).ok_or_else(|| unknown_game(game))?;
                if !matches!(g.stage, Stage::RoundRobin { .. }) {
                    return Err(rule(
                        "XMadn League: Double-round robins; XM-R6",
                        "only remaining round-robin games may be cancelled",
                    ));
                }
                match &g.status {
                    GameStatus::Played { .. } => {
                        return Err(rule(
                            "XMadn League: Double-round robins; XM-R6",
                            format!(
                                "{} has been played: only remaining games may be cancelled",
                                self.game_ref(game)
                            ),
                        ));
                    }
                    GameStatus::Cancelled { .. } => {
                        return Err(rule(
                            "XMadn League: Double-round robins; XM-R6",
                            format!("{} is already cancelled", self.game_ref(game)),
                        ));
                    }
                    GameStatus::Scheduled => {}
                }
                self.check_determined()?;
                Ok(vec![Event::GameCancelled {
                    game,
                    note: consent_note(&note),
                    at,
                }])
            }
            Command::CancelDrr { drr, note, at } => {
                match self.phase() {
                    Phase::AwaitingPositions { drr: next } if next == drr => {}
                    _ => {
                        return Err(rule(
                            "XMadn League: Double-round robins; XM-R6",
                            format!(
                                "only the next double round-robin, before its positions are rolled, can be cancelled whole; DRR {drr} is not"
                            ),
                        )
                        .field("drr"));
                    }
                }
                self.check_determined()?;
                Ok(vec![Event::DrrCancelled {
                    drr,
                    note: consent_note(&note),
                    at,
                }])
            }
            Command::ByColour {
                entry,
                players,
                home,
                seconds,
                at,
            } => {
                let rule_set = self.rules.rule_set;
                let names = players.map(|p| self.name_of(p));
                let pawns = rule_set.counted_pair(&home, [&names[0], &names[1]])?;
                let inner = match entry {
                    Entry::Result { game } => Command::RecordResult {
                        game,
                        players,
                        pawns,
                        seconds,
                        at,
                    },
                    Entry::Correction { game, reason } => Command::CorrectResult {
                        game,
                        players,
                        pawns,
                        seconds,
                        reason,
                        at,
                    },
                    Entry::Playoff => Command::RecordPlayoffGame {
                        players,
                        pawns,
                        seconds,
                        at,
                    },
                };
                let mut events = self
                    .decide(inner)
                    .map_err(|e| rule_set.home_refusal(e, &home))?;
                for e in &mut events {
                    if let Event::ResultRecorded { score, home: h, .. }
                    | Event::ResultCorrected { score, home: h, .. }
                    | Event::PlayoffGamePlayed { score, home: h, .. } = e
                    {
                        // The event's pawns are in the game's order; the
                        // winner's and the loser's differ, so the order shows.
                        *h = Some(if score.pawns == pawns {
                            home
                        } else {
                            [home[1], home[0]]
                        });
                    }
                }
                Ok(events)
            }
            Command::EnterRoll { rounds, by, at } => {
                let by = entered_by(&by)?;
                if rounds.len() > MAX_ENTERED_ROUNDS {
                    return Err(rule(
                        "XM-R1",
                        format!(
                            "at most {MAX_ENTERED_ROUNDS} rounds of die-roll can be entered at once, not {}",
                            rounds.len()
                        ),
                    )
                    .field("faces"));
                }
                match self.phase() {
                    Phase::AwaitingPositions { drr } => {
                        let (rounds, order) = self
                            .entered_order(&PLAYERS, &rounds)
                            .map_err(|m| rule("XM-R1", m).field("faces"))?;
                        Ok(vec![Event::PositionsEntered {
                            drr,
                            rounds,
                            positions: [order[0], order[1], order[2]],
                            by,
                            at,
                        }])
                    }
                    Phase::AwaitingTiebreak { players } => {
                        let rounds = self
                            .entered_separation(&players, &rounds)
                            .map_err(|m| rule("XM-R3", m).field("faces"))?;
                        Ok(vec![Event::TiebreakEntered {
                            players,
                            rounds,
                            by,
                            at,
                        }])
                    }
                    _ => Err(self.not_now("enter the faces of a round of die-roll")),
                }
            }
            Command::RollTiebreak {
                seed,
                next_seed_hash,
                at,
            } => {
                let Phase::AwaitingTiebreak { players } = self.phase() else {
                    return Err(self.not_now("roll step 6 of the tiebreak"));
                };
                self.check_seed(&seed)?;
                let mut dice = self.dice(&seed);
                let rounds = draw::roll_until_separated(&mut dice, &players);
                Ok(vec![Event::TiebreakRolled {
                    players,
                    seed,
                    next_seed_hash,
                    rounds,
                    at,
                }])
            }
            Command::StartPlayoff { colours, at } => {
                let Phase::AwaitingPlayoff { stage } = self.phase() else {
                    return Err(self.not_now("start a playoff round"));
                };
                colours.check(&self.rules.board_colours, "colours")?;
                let table = super::table::Table::of(self);
                let order = &table.ranking.order;
                let (higher, lower, series) = match (self.rules.playoff, stage) {
                    (Playoff::TopTwo { final_round }, _) => (order[0], order[1], final_round),
                    (Playoff::AllThree { qualifying, .. }, PlayoffStage::Qualifying) => {
                        (order[1], order[2], qualifying)
                    }
                    (Playoff::AllThree { final_round, .. }, PlayoffStage::Final) => {
                        let qualified = self
                            .playoff
                            .first()
                            .and_then(PlayoffRound::winner)
                            .unwrap_or(order[1]);
                        (order[0], qualified, final_round)
                    }
                    (Playoff::None, _) => return Err(self.not_now("start a playoff round")),
                };
                let head_start = self.head_start_for(higher, lower, series);
                Ok(vec![Event::PlayoffStarted {
                    stage,
                    higher,
                    lower,
                    series,
                    head_start,
                    colours,
                    at,
                }])
            }
            Command::RecordPlayoffGame {
                players,
                pawns,
                seconds,
                at,
            } => {
                let Phase::Playoff { stage } = self.phase() else {
                    return Err(self.not_now("record a playoff game"));
                };
                let Some(round) = self.playoff.last() else {
                    return Err(self.not_now("record a playoff game"));
                };
                let order = [round.higher, round.lower];
                Score { pawns, seconds }.check(self.rules.rule_set)?;
                let pawns = match players {
                    p if p == order => pawns,
                    [a, b] if [b, a] == order => [pawns[1], pawns[0]],
                    _ => {
                        return Err(rule(
                            CLAUSE_PLAYOFF,
                            format!(
                                "the {} is {} v {}; {} v {} are not paired in it",
                                stage.name(),
                                self.name_of(round.higher),
                                self.name_of(round.lower),
                                self.name_of(players[0]),
                                self.name_of(players[1]),
                            ),
                        )
                        .field("players"));
                    }
                };
                let score = Score { pawns, seconds };
                score.check(self.rules.rule_set)?;
                Ok(vec![Event::PlayoffGamePlayed {
                    stage,
                    score,
                    home: None,
                    at,
                }])
            }
        }
    }

    /// Entered faces of rounds of die-roll that order `players` (XM-R1,
    /// ARB-R64), checked as [`draw::roll_order`] rolls them: the first
    /// round one face to each of `players`, then each tie, the highest
    /// first, re-rolled among exactly its players until every place is
    /// decided. The rounds in that procedure's order (each in the order of
    /// the players who rolled) and the order, or what is wrong, naming the
    /// round and the player.
    pub fn entered_order(
        &self,
        players: &[PlayerId],
        rounds: &[RollRound<PlayerId>],
    ) -> Result<(Vec<RollRound<PlayerId>>, Vec<PlayerId>), String> {
        let mut out = Vec::new();
        let mut order = Vec::new();
        self.order_into(players, rounds, &mut out, &mut order)?;
        if out.len() < rounds.len() {
            return Err(format!(
                "round {} of the faces is one too many: the places are decided after {} round{}",
                out.len() + 1,
                out.len(),
                if out.len() == 1 { "" } else { "s" }
            ));
        }
        Ok((out, order))
    }

    fn order_into(
        &self,
        group: &[PlayerId],
        rounds: &[RollRound<PlayerId>],
        out: &mut Vec<RollRound<PlayerId>>,
        order: &mut Vec<PlayerId>,
    ) -> Result<(), String> {
        if group.len() < 2 {
            order.extend_from_slice(group);
            return Ok(());
        }
        let round = self.entered_round(group, rounds, out.len())?;
        out.push(round.clone());
        let mut faces: Vec<u8> = round.iter().map(|r| r.1).collect();
        faces.sort_unstable_by(|a, b| b.cmp(a));
        faces.dedup();
        for face in faces {
            let tied: Vec<PlayerId> = round.iter().filter(|r| r.1 == face).map(|r| r.0).collect();
            self.order_into(&tied, rounds, out, order)?;
        }
        Ok(())
    }

    /// Entered faces of step 6 among `players` (XM-R3, ARB-R64), checked as
    /// [`draw::roll_until_separated`] rolls them: rounds among exactly
    /// `players` until one separates anyone.
    pub fn entered_separation(
        &self,
        players: &[PlayerId],
        rounds: &[RollRound<PlayerId>],
    ) -> Result<Vec<RollRound<PlayerId>>, String> {
        let mut out = Vec::new();
        loop {
            let round = self.entered_round(players, rounds, out.len())?;
            let separated = round.iter().any(|r| r.1 != round[0].1);
            out.push(round);
            if separated {
                break;
            }
        }
        if out.len() < rounds.len() {
            return Err(format!(
                "round {} of the faces is one too many: round {} already separates {}",
                out.len() + 1,
                out.len(),
                self.names(players)
            ));
        }
        Ok(out)
    }

    /// Entered round number `k` (from 0) among exactly `group`, one face
    /// from 1 to the die's faces each, in `group`'s order.
    fn entered_round(
        &self,
        group: &[PlayerId],
        rounds: &[RollRound<PlayerId>],
        k: usize,
    ) -> Result<RollRound<PlayerId>, String> {
        let n = k + 1;
        let Some(given) = rounds.get(k) else {
            return Err(format!(
                "{} are tied after round {k}: give round {n} with one face for each of them (and only them)",
                self.names(group)
            ));
        };
        let faces = self.rules.die_faces;
        for (p, f) in given {
            if !group.contains(p) {
                return Err(format!(
                    "round {n} gives a face to {}, who does not roll in it: round {n} is among {}",
                    self.name_of(*p),
                    self.names(group)
                ));
            }
            if !(1..=faces).contains(f) {
                return Err(format!(
                    "round {n}: {}'s face {f} is not 1 to {faces}",
                    self.name_of(*p)
                ));
            }
        }
        group
            .iter()
            .map(|p| {
                let mine: Vec<u8> = given.iter().filter(|g| g.0 == *p).map(|g| g.1).collect();
                match mine.as_slice() {
                    [f] => Ok((*p, *f)),
                    [] => Err(format!(
                        "round {n} has no face for {}: round {n} is among {}",
                        self.name_of(*p),
                        self.names(group)
                    )),
                    _ => Err(format!(
                        "round {n} gives {} more than one face",
                        self.name_of(*p)
                    )),
                }
            })
            .collect()
    }

    /// "Ames, Baker and Clark".
    fn names(&self, set: &[PlayerId]) -> String {
        let names: Vec<String> = set.iter().map(|p| self.name_of(*p)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }

    /// XM-R7: the higher seed starts a first-to-x series 1-0 when the
    /// organizer allows it and his overall win-loss record is strictly
    /// better.
    pub fn head_start_for(&self, higher: PlayerId, lower: PlayerId, series: Series) -> bool {
        if !self.rules.head_start || series == Series::Game {
            return false;
        }
        let table = super::table::Table::of(self);
        let rec = |p: PlayerId| table.row(p).map_or(0, |r| r.record());
        rec(higher) > rec(lower)
    }

    /// The die of a roll with `seed`: the league's die, thrown from stream 0
    /// of the seed, alike when the roll is made and when it is verified.
    fn dice(&self, seed: &Seed) -> Dice {
        Dice::new(seed, 0, self.rules.die_faces)
    }

    fn check_seed(&self, seed: &Seed) -> Result<(), RuleError> {
        if draw::verify(seed, &self.seed_hash) {
            Ok(())
        } else {
            Err(rule(
                "XM-R1",
                "this die roll's seed is not the one committed before it: no roll without a committed seed",
            )
            .field("seed"))
        }
    }

    fn check_determined(&self) -> Result<(), RuleError> {
        let d = super::analysis::determination(self);
        if d.determined {
            Ok(())
        } else {
            Err(rule(
                "XMadn League: Double-round robins; XM-R6",
                format!(
                    "remaining games may be cancelled only once the significant outcomes are determined: {}",
                    d.summary(self)
                ),
            ))
        }
    }

    fn not_now(&self, what: &str) -> RuleError {
        let now = match self.phase() {
            Phase::AwaitingPositions { drr } => {
                format!("the positions of DRR {drr} are to be rolled first (`league roll`)")
            }
            Phase::RoundRobin { drr } => format!("DRR {drr} is being played"),
            Phase::AwaitingTiebreak { players } => format!(
                "the table needs a round of die-roll (step 6) among {} first (`league roll`)",
                players
                    .iter()
                    .map(|p| self.name_of(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Phase::AwaitingPlayoff { stage } => {
                format!(
                    "the {} is to be started (`league playoff start`)",
                    stage.name()
                )
            }
            Phase::Playoff { stage } => format!("the {} is being played", stage.name()),
            Phase::Finished { champion } => {
                format!("the league is over; {} is champion", self.name_of(champion))
            }
        };
        let clause = match self.phase() {
            Phase::AwaitingPositions { .. } | Phase::RoundRobin { .. } => CLAUSE_DRR,
            Phase::AwaitingTiebreak { .. } => CLAUSE_TABLE,
            _ => CLAUSE_PLAYOFF,
        };
        rule(clause, format!("cannot {what} now: {now}"))
    }

    /// The game to record a result for: `game` if given (it must be
    /// between `players` and playable), else the playable game between them.
    fn find_game_to_play(
        &self,
        game: Option<GameId>,
        players: [PlayerId; 2],
    ) -> Result<&LeagueGame, RuleError> {
        if players[0] == players[1] {
            return Err(rule(CLAUSE_DRR, "a game has two different players").field("players"));
        }
        let names = format!(
            "{} v {}",
            self.name_of(players[0]),
            self.name_of(players[1])
        );
        if let Some(id) = game {
            let g = self.game(id).ok_or_else(|| unknown_game(id))?;
            if !(g.has(players[0]) && g.has(players[1])) {
                return Err(rule(
                    CLAUSE_DRR,
                    format!(
                        "{} is {} v {}, not {names}",
                        self.game_ref(id),
                        self.name_of(g.players[0]),
                        self.name_of(g.players[1])
                    ),
                )
                .field("players"));
            }
            match &g.status {
                GameStatus::Cancelled { .. } => {
                    return Err(rule(
                        "XMadn League: Double-round robins; XM-R6",
                        format!(
                            "{} was cancelled by mutual consent; it takes no result",
                            self.game_ref(id)
                        ),
                    ));
                }
                GameStatus::Played { .. } => {
                    return Err(rule(
                        CLAUSE_RESULTS,
                        format!(
                            "{} already has a result; use `league correct`",
                            self.game_ref(id)
                        ),
                    ));
                }
                GameStatus::Scheduled => {}
            }
            if !self.playable().iter().any(|p| p.id == id) {
                return Err(rule(
                    CLAUSE_DRR,
                    format!(
                        "{} cannot be played yet: Games 1 to 3 are played in order, then Games 4 to 6 in any order",
                        self.game_ref(id)
                    ),
                ));
            }
            return Ok(g);
        }
        if let Some(g) = self
            .playable()
            .into_iter()
            .find(|g| g.has(players[0]) && g.has(players[1]))
        {
            return Ok(g);
        }
        // Explain why not.
        let in_drr = |g: &&LeagueGame| g.has(players[0]) && g.has(players[1]) && !g.is_resolved();
        match self.phase() {
            Phase::RoundRobin { drr } => {
                let pending: Vec<&LeagueGame> = self
                    .drr_games(drr)
                    .into_iter()
                    .filter(|g| in_drr(g))
                    .collect();
                let next: Vec<String> = self
                    .playable()
                    .iter()
                    .map(|g| self.describe_game(g))
                    .collect();
                if pending.is_empty() {
                    let cancelled = self.drr_games(drr).iter().any(|g| {
                        g.has(players[0])
                            && g.has(players[1])
                            && matches!(g.status, GameStatus::Cancelled { .. })
                    });
                    if cancelled {
                        return Err(rule(
                            "XMadn League: Double-round robins; XM-R6",
                            format!(
                                "the remaining game {names} of DRR {drr} was cancelled by mutual consent; it takes no result"
                            ),
                        ));
                    }
                    Err(rule(
                        CLAUSE_DRR,
                        format!("{names} are not paired in a remaining game of DRR {drr}; the next game is {}", next.join(" or ")),
                    )
                    .field("players"))
                } else {
                    Err(rule(
                        CLAUSE_DRR,
                        format!(
                            "{names} is not the next game: Games 1 to 3 are played in order; now {}",
                            next.join(" or ")
                        ),
                    )
                    .field("players"))
                }
            }
            _ => Err(self.not_now(&format!("record {names}"))),
        }
    }

    /// A game as users see it, by the document's numbering with the
    /// league-wide id as its alias (ARB-R63): "DRR 2 Game 4 (G10)",
    /// "final game 2 (G14)".
    pub fn game_ref(&self, id: GameId) -> String {
        match self.game(id) {
            Some(g) => format!("{} ({id})", stage_words(g.stage)),
            None => id.to_string(),
        }
    }

    /// The players of `game` if it takes a report now (ARB-R45, ARB-R81): a
    /// round-robin game still to be played, or the next game of the
    /// running playoff round (the id it will have), higher seed first.
    pub fn reportable_players(&self, game: GameId) -> Option<[PlayerId; 2]> {
        if let Some(g) = self.game(game) {
            return (matches!(g.stage, Stage::RoundRobin { .. })
                && matches!(g.status, GameStatus::Scheduled))
            .then_some(g.players);
        }
        let r = self.playoff.last().filter(|r| r.winner().is_none())?;
        (game.0 as usize == self.games.len() + 1).then_some([r.higher, r.lower])
    }

    /// A reported game in words: `DRR 2 Game 4 (G10)` or `final game 2
    /// (G19)`.
    pub fn report_ref(&self, game: GameId) -> String {
        if self.game(game).is_some() {
            return self.game_ref(game);
        }
        match self.playoff.last() {
            Some(r) => format!("{} game {} ({game})", r.stage.name(), r.games.len() + 1),
            None => game.to_string(),
        }
    }

    /// The game a report is about and its score in the game's order, as
    /// recording it now would decide (ARB-R45: a report is checked as a
    /// result is).
    fn reportable(
        &self,
        game: Option<GameId>,
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        at: Time,
    ) -> Result<(GameId, Score), RuleError> {
        let next = GameId(self.games.len() as u32 + 1);
        let playoff =
            matches!(self.phase(), Phase::Playoff { .. }) && game.is_none_or(|g| g == next);
        let events = if playoff {
            self.decide(Command::RecordPlayoffGame {
                players,
                pawns,
                seconds,
                at,
            })?
        } else {
            self.decide(Command::RecordResult {
                game,
                players,
                pawns,
                seconds,
                at,
            })?
        };
        match events.first() {
            Some(Event::ResultRecorded { game, score, .. }) => Ok((*game, *score)),
            Some(Event::PlayoffGamePlayed { score, .. }) => Ok((next, *score)),
            _ => Err(rule(CLAUSE_RESULTS, "this game takes no report now")),
        }
    }

    fn pending_report(&self, game: GameId) -> Result<&Pending<Score>, RuleError> {
        self.reports
            .get(&game)
            .ok_or_else(|| report::nothing_reported(CLAUSE_RESULTS, &self.report_ref(game)))
    }

    fn check_confirmer(
        &self,
        game: GameId,
        r: &Pending<Score>,
        by: &Confirmer,
        at: Time,
        verb: &str,
    ) -> Result<(), RuleError> {
        let players = self
            .reportable_players(game)
            .ok_or_else(|| unknown_game(game))?;
        report::check_confirmer(
            CLAUSE_RESULTS,
            players,
            (r.by, r.at),
            by,
            at,
            &self.links,
            &self.report_ref(game),
            &|p| self.name_of(p),
            verb,
        )
    }

    /// A confirmed report: `ResultConfirmed`, then exactly what recording
    /// the reported score when it was reported decides.
    fn confirmed(
        &self,
        game: GameId,
        r: &Pending<Score>,
        by: Confirmer,
        at: Time,
    ) -> Result<Vec<Event>, RuleError> {
        let players = self
            .reportable_players(game)
            .ok_or_else(|| unknown_game(game))?;
        let command = if self.game(game).is_some() {
            Command::RecordResult {
                game: Some(game),
                players,
                pawns: r.result.pawns,
                seconds: r.result.seconds,
                at: r.at,
            }
        } else {
            Command::RecordPlayoffGame {
                players,
                pawns: r.result.pawns,
                seconds: r.result.seconds,
                at: r.at,
            }
        };
        let recorded = self.decide(command)?;
        let mut events = Vec::with_capacity(recorded.len() + 1);
        events.push(Event::ResultConfirmed { game, by, at });
        events.extend(recorded);
        Ok(events)
    }

    /// A round-robin game named by the document's numbering or by its
    /// league-wide id (ARB-R63): `DRR 2 Game 4`, `D2G4`, `2.4`, `Game 4`
    /// (of the running or last scheduled DRR), or the alias `G10` / `10`.
    /// Case, spaces, `-` and `_` do not matter. `None` if the league has no
    /// such game (or the text is longer than any game's name).
    pub fn parse_game(&self, text: &str) -> Option<GameId> {
        if text.len() > 40 {
            return None;
        }
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        let num = |s: &str| -> Option<u32> {
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let by_number = |drr: u32, number: u32| -> Option<GameId> {
            match self.drrs.get(drr.checked_sub(1)? as usize)? {
                Drr::Scheduled { games, .. } => games.get(number.checked_sub(1)? as usize).copied(),
                Drr::Cancelled { .. } => None,
            }
        };
        let split = |rest: &str, seps: &[&str]| -> Option<(u32, u32)> {
            seps.iter().find_map(|sep| {
                let (d, n) = rest.split_once(sep)?;
                Some((num(d)?, num(n)?))
            })
        };
        let found = if let Some(rest) = t.strip_prefix("drr").or_else(|| t.strip_prefix('d')) {
            let (d, n) = split(rest, &["game", "g", "."])?;
            by_number(d, n)
        } else if let Some(rest) = t.strip_prefix("game") {
            let last = self
                .drrs
                .iter()
                .rposition(|d| matches!(d, Drr::Scheduled { .. }))?;
            by_number(last as u32 + 1, num(rest)?)
        } else if let Some((d, n)) = split(&t, &["."]) {
            by_number(d, n)
        } else {
            let n = num(t.strip_prefix('g').unwrap_or(&t))?;
            Some(GameId(n)).filter(|g| self.game(*g).is_some())
        };
        found.filter(|g| self.game(*g).is_some())
    }

    /// "Game 4 (DRR 1): Baker v Ames".
    pub fn describe_game(&self, g: &LeagueGame) -> String {
        let players = format!(
            "{} v {}",
            self.name_of(g.players[0]),
            self.name_of(g.players[1])
        );
        match g.stage {
            Stage::RoundRobin { drr, number } => format!("Game {number} (DRR {drr}): {players}"),
            Stage::Playoff { round, number } => {
                format!("{} game {number}: {players}", round.name())
            }
        }
    }

    fn score_for(
        &self,
        g: &LeagueGame,
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
    ) -> Result<Score, RuleError> {
        // Checked as typed, so a refusal quotes the moderator's own figures.
        Score { pawns, seconds }.check(self.rules.rule_set)?;
        let pawns = if players == g.players {
            pawns
        } else if [players[1], players[0]] == g.players {
            [pawns[1], pawns[0]]
        } else {
            return Err(rule(
                CLAUSE_DRR,
                format!(
                    "{} is {} v {}",
                    self.game_ref(g.id),
                    self.name_of(g.players[0]),
                    self.name_of(g.players[1])
                ),
            )
            .field("players"));
        };
        let score = Score { pawns, seconds };
        score.check(self.rules.rule_set)?;
        Ok(score)
    }
}

/// Where a game is, by the document's numbering: "DRR 2 Game 4" (Game 1 to
/// 6 of each double round-robin), "final game 2" (ARB-R63).
pub fn stage_words(stage: Stage) -> String {
    match stage {
        Stage::RoundRobin { drr, number } => format!("DRR {drr} Game {number}"),
        Stage::Playoff { round, number } => format!("{} game {number}", round.name()),
    }
}

/// "cancelled by mutual consent" and the moderator's note.
pub(crate) fn consent_note(note: &str) -> String {
    let note = note.trim();
    if note.is_empty() {
        "by mutual consent of both players".to_string()
    } else {
        note.to_string()
    }
}

fn unknown_game(id: GameId) -> RuleError {
    rule(CLAUSE_RESULTS, format!("there is no game {id}")).field("game")
}

/// "dice rolled at the table, faces entered by alice at 2026-03-01 19:00
/// UTC" (ARB-R64): how every explanation tells entered faces from a
/// committed draw.
pub fn entered_words(by: &str, at: Time) -> String {
    format!(
        "dice rolled at the table, faces entered by {by} at {} (not a committed draw)",
        at.format("%Y-%m-%d %H:%M UTC")
    )
}

/// The most rounds of die-roll one entry of faces may hold (ARB-R64).
pub const MAX_ENTERED_ROUNDS: usize = 32;

/// Who entered the faces of dice rolled at the table: the moderator's
/// name as the record keeps it (1 to 64 characters, none invisible).
fn entered_by(by: &str) -> Result<String, RuleError> {
    let by = by.trim();
    if by.is_empty()
        || by.chars().count() > crate::model::MAX_ACCOUNT
        || by.chars().any(crate::model::invisible)
    {
        return Err(rule(
            "ARB-R64",
            "the faces of dice rolled at the table are entered by a named moderator (1 to 64 characters)",
        )
        .field("by"));
    }
    Ok(by.to_string())
}

/// One checked roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollCheck {
    /// 1-based number of the roll in the league.
    pub number: usize,
    pub purpose: RollPurpose,
    pub seed: Seed,
    pub committed: [u8; 32],
    /// Who entered the faces of dice rolled at the table (ARB-R64); `None`
    /// for a committed draw.
    pub entered_by: Option<String>,
    /// When the roll was recorded.
    pub at: Time,
    /// The seed's SHA-256 is the commitment published before the roll
    /// (always true for entered faces, which have no commitment).
    pub commitment_ok: bool,
    /// The faces are the ones the seed gives.
    pub faces_ok: bool,
}

/// "Ames 5, Baker 3, Clark 3; then Baker 6, Clark 2".
pub fn describe_rounds(league: &League, rounds: &[RollRound<PlayerId>]) -> String {
    rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let faces = r
                .iter()
                .map(|(p, f)| format!("{} {f}", league.name_of(*p)))
                .collect::<Vec<_>>()
                .join(", ");
            if i == 0 {
                faces
            } else {
                format!("then {faces}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl crate::zone::Zoned for League {
    fn zone(&self) -> crate::zone::TimeZone {
        self.zone
    }
}

impl crate::model::Linked for League {
    fn links(&self) -> &Links {
        &self.links
    }
}
