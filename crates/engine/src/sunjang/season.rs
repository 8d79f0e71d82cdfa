//! The Sunjang league as a competition: players, restrictions, seasons
//! planned by [`super::planner`], group play ([`super::group`]), the close
//! of a season (its merged rankings recorded) and the final round
//! ([`super::final_round`]).
//!
//! A season's plan and its close are recorded decisions: a later change of
//! code or settings never rewrites a past season.

use crate::RuleError;
use crate::explain::Explanation;
use crate::model::Links;
use crate::model::Time;
use crate::report::{self, Confirmer, Pending};

use super::carry::{CarriedSeason, SeasonCarryOver};
use super::final_round::{self, FinalGame, FinalInput, FinalQualification, FinalState};
use super::group::{self, GroupGame, GroupTable, Outcome};
use super::layout::{self, Moved, Proposal};
use super::planner::{self, PlanInput, PlanOutcome, PreviousDivision, PreviousSeason};
use super::ranking::{Performance, PlayedGame, RankingData, Tiebreaks};
use super::{Division, GroupId, PlayerId, PlayerInfo, Restrictions, SunjangRules, division_letter};

const CLAUSE_SEASON: &str = "Sunjang Definitions: Season";
const CLAUSE_GROUP: &str = "Sunjang Definitions: Group";
const CLAUSE_FINAL: &str = "Sunjang Final Round";

/// An explanation as recorded in an event: a season's plan keeps the
/// reasons it was decided with (they cite figures of the season before).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub clause: String,
    pub rulings: Vec<String>,
    pub text: String,
}

impl From<Explanation> for Note {
    fn from(e: Explanation) -> Self {
        Self {
            clause: e.clause.to_string(),
            rulings: e.rulings.iter().map(|r| (*r).to_string()).collect(),
            text: e.text,
        }
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}", self.text, self.clause)?;
        for r in &self.rulings {
            write!(f, "; {r}")?;
        }
        f.write_str("]")
    }
}

/// A placement as recorded in a season's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedPlayer {
    pub player: PlayerId,
    pub group: GroupId,
    pub seed: u32,
    /// The reason as decided ("direct promotion B to A, leader of B2,
    /// rule B.1"), with its clause and rulings. Recorded with the plan: it
    /// cites figures of the season before, which the record keeps.
    pub explanation: Note,
}

/// A season's plan as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonPlan {
    pub season: u32,
    /// Divisions (A first), each its groups, each its players in seed order.
    pub divisions: Vec<Vec<Vec<PlayerId>>>,
    pub placements: Vec<PlacedPlayer>,
    /// Division-level decisions (sizes, group counts, E.1 overrides).
    pub notes: Vec<Note>,
    /// Fewer than the minimum of players: the season is cancelled and the
    /// title void (footnote 2).
    pub cancelled: Option<Note>,
    /// The organizer's own layout, when he moved placements of the
    /// automatic plan (ARB-R55): which, and why.
    pub layout: Option<OrganizerLayout>,
    pub at: Time,
}

/// The organizer's changes to a season's automatic plan as recorded
/// (ARB-R55).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrganizerLayout {
    pub reason: String,
    /// Every placement that differs from the automatic plan.
    pub moves: Vec<Moved>,
}

/// A season's close as recorded: each division's merged ranking (SJ-R5)
/// and group leaders, the input of the next plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonClose {
    pub season: u32,
    pub divisions: Vec<PreviousDivision>,
    pub at: Time,
}

/// Everything that happens to a Sunjang league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Created {
        name: String,
        rules: SunjangRules,
        restrictions: Restrictions,
    },
    PlayerRegistered {
        player: PlayerId,
        info: PlayerInfo,
    },
    /// New rank or ratings (between seasons).
    PlayerUpdated {
        player: PlayerId,
        info: PlayerInfo,
    },
    /// The player leaves the tournament: no place in the next season, and
    /// his merits are lost (B.4).
    PlayerWithdrawn {
        player: PlayerId,
        reason: String,
    },
    PlayerReturned {
        player: PlayerId,
    },
    RestrictionsChanged {
        restrictions: Restrictions,
        reason: String,
    },
    SeasonPlanned(Box<SeasonPlan>),
    ResultRecorded {
        season: u32,
        group: GroupId,
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        at: Time,
    },
    ResultCorrected {
        season: u32,
        group: GroupId,
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        reason: String,
        at: Time,
    },
    /// One of the game's two players reports its outcome (ARB-R45,
    /// ARB-R81): a group game of the open season still without a result.
    /// It waits for the other player or a moderator; a later report
    /// replaces it.
    ResultReported {
        season: u32,
        group: GroupId,
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        by: PlayerId,
        at: Time,
    },
    /// The pending report is confirmed (ARB-R45); the `ResultRecorded` that
    /// follows it in the same append records it.
    ResultConfirmed {
        season: u32,
        group: GroupId,
        black: PlayerId,
        white: PlayerId,
        by: Confirmer,
        at: Time,
    },
    /// The pending report is disputed and dropped with the reason
    /// (ARB-R45): the players report again or a moderator records.
    ReportDisputed {
        season: u32,
        group: GroupId,
        black: PlayerId,
        white: PlayerId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    /// "voluntary or implicit forfeiture by the other players" (D.2).
    GaveWay {
        player: PlayerId,
    },
    /// "the winner of a live Sunjang match" (D.2).
    LiveMatchWon {
        winner: PlayerId,
        loser: PlayerId,
    },
    SeasonClosed(Box<SeasonClose>),
    /// The league's last season carried over from its records (issue 18
    /// §1, ARB-R77): its players registered, its figures kept for the next
    /// plan.
    SeasonCarriedOver(Box<SeasonCarryOver>),
    FinalQualified {
        season: u32,
        players: Vec<PlayerId>,
        advantaged: Vec<PlayerId>,
        /// None unless nobody eligible plays: the title is void.
        void: bool,
        at: Time,
    },
    FinalGamePlayed {
        season: u32,
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        at: Time,
    },
    /// A finalist withdraws; the qualification is drawn again.
    FinalWithdrawn {
        season: u32,
        player: PlayerId,
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
    Reverted {
        seq: u64,
        summary: String,
    },
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "sunjang-created",
            Event::PlayerRegistered { .. } => "sunjang-player-registered",
            Event::PlayerUpdated { .. } => "sunjang-player-updated",
            Event::PlayerWithdrawn { .. } => "sunjang-player-withdrawn",
            Event::PlayerReturned { .. } => "sunjang-player-returned",
            Event::RestrictionsChanged { .. } => "sunjang-restrictions-changed",
            Event::SeasonPlanned(_) => "sunjang-season-planned",
            Event::ResultRecorded { .. } => "sunjang-result-recorded",
            Event::ResultCorrected { .. } => "sunjang-result-corrected",
            Event::ResultReported { .. } => "sunjang-result-reported",
            Event::ResultConfirmed { .. } => "sunjang-result-confirmed",
            Event::ReportDisputed { .. } => "sunjang-report-disputed",
            Event::GaveWay { .. } => "sunjang-gave-way",
            Event::LiveMatchWon { .. } => "sunjang-live-match-won",
            Event::SeasonClosed(_) => "sunjang-season-closed",
            Event::SeasonCarriedOver(_) => "sunjang-carried-over",
            Event::FinalQualified { .. } => "sunjang-final-qualified",
            Event::FinalGamePlayed { .. } => "sunjang-final-game-played",
            Event::FinalWithdrawn { .. } => "sunjang-final-withdrawn",
            Event::AccountLinked { .. } => "sunjang-account-linked",
            Event::AccountUnlinked { .. } => "sunjang-account-unlinked",
            Event::TimeZoneSet { .. } => "sunjang-time-zone-set",
            Event::Reverted { .. } => "reverted",
        }
    }
}

/// What an organizer asks of the league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Create {
        name: String,
        rules: SunjangRules,
        restrictions: Restrictions,
    },
    Register {
        info: PlayerInfo,
    },
    Update {
        player: PlayerId,
        info: PlayerInfo,
    },
    Withdraw {
        player: PlayerId,
        reason: String,
    },
    Return {
        player: PlayerId,
    },
    ChangeRestrictions {
        restrictions: Restrictions,
        reason: String,
    },
    /// Plan the next season (or preview it: the same decision, not stored).
    PlanSeason {
        at: Time,
    },
    /// Plan the next season with the organizer's own layout (moves of the
    /// automatic plan's placements, or the whole layout), refused with
    /// every rule of section A it breaks (ARB-R55).
    PlanLayout {
        proposal: Proposal,
        reason: String,
        at: Time,
    },
    RecordResult {
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        at: Time,
    },
    CorrectResult {
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        reason: String,
        at: Time,
    },
    GiveWay {
        player: PlayerId,
    },
    RecordLiveMatch {
        winner: PlayerId,
        loser: PlayerId,
    },
    CloseSeason {
        at: Time,
    },
    /// Carry the league's last season over from its records (issue 18 §1,
    /// ARB-R77), into a league with nobody registered.
    CarryOver {
        records: CarriedSeason,
        source: String,
        by: String,
        at: Time,
    },
    /// Qualify the final round of the last closed season.
    QualifyFinal {
        at: Time,
    },
    RecordFinalGame {
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        at: Time,
    },
    /// Player `by` reports the outcome of his group game `black` v `white`
    /// (ARB-R45, ARB-R81): a game played (a win or jigo); forfeits are the
    /// moderator's. The other player's report of the same outcome
    /// confirms it.
    ReportResult {
        black: PlayerId,
        white: PlayerId,
        outcome: Outcome,
        by: PlayerId,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// confirms the report of `black` v `white`: it is recorded (ARB-R45).
    ConfirmResult {
        black: PlayerId,
        white: PlayerId,
        by: Confirmer,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// disputes the report of `black` v `white`, which is dropped.
    DisputeReport {
        black: PlayerId,
        white: PlayerId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    WithdrawFromFinal {
        player: PlayerId,
        at: Time,
    },
    /// A moderator links `account` to `player` (ARB-R50).
    LinkAccount {
        player: PlayerId,
        account: String,
    },
    /// A registration (`Register`) for `account`: the new player and the
    /// link of the account to him, in one append (ARB-R50).
    Linked {
        account: String,
        command: Box<Command>,
    },
    /// A moderator ends the link of `player`'s account (ARB-R50).
    UnlinkAccount {
        player: PlayerId,
    },
    /// A moderator sets the competition's time zone, an IANA name (ARB-R82).
    SetTimeZone {
        zone: String,
    },
}

fn epoch() -> Time {
    chrono::DateTime::<chrono::Utc>::UNIX_EPOCH
}

impl Command {
    /// The command without its time: what identifies a request.
    pub fn without_time(&self) -> Command {
        let mut c = self.clone();
        match &mut c {
            Command::PlanSeason { at }
            | Command::PlanLayout { at, .. }
            | Command::RecordResult { at, .. }
            | Command::ReportResult { at, .. }
            | Command::ConfirmResult { at, .. }
            | Command::DisputeReport { at, .. }
            | Command::CorrectResult { at, .. }
            | Command::CloseSeason { at }
            | Command::CarryOver { at, .. }
            | Command::QualifyFinal { at }
            | Command::RecordFinalGame { at, .. }
            | Command::WithdrawFromFinal { at, .. } => *at = epoch(),
            _ => {}
        }
        c
    }
}

/// A group in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupState {
    pub id: GroupId,
    pub players: Vec<PlayerId>,
    pub games: Vec<GroupGame>,
}

impl GroupState {
    pub fn complete(&self) -> bool {
        self.games.iter().all(|g| g.outcome.is_some())
    }
}

/// The final round of a season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalRound {
    pub players: Vec<PlayerId>,
    pub advantaged: Vec<PlayerId>,
    pub void: bool,
    pub withdrawn: Vec<PlayerId>,
    pub games: Vec<FinalGame>,
}

/// One season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Season {
    pub plan: SeasonPlan,
    /// Divisions (A first), each its groups in play.
    pub divisions: Vec<Vec<GroupState>>,
    pub close: Option<SeasonClose>,
    pub final_round: Option<FinalRound>,
}

impl Season {
    pub fn number(&self) -> u32 {
        self.plan.season
    }

    pub fn group(&self, id: GroupId) -> Option<&GroupState> {
        self.divisions
            .get(id.division as usize)?
            .get(id.number.wrapping_sub(1) as usize)
    }

    fn group_mut(&mut self, id: GroupId) -> Option<&mut GroupState> {
        self.divisions
            .get_mut(id.division as usize)?
            .get_mut(id.number.wrapping_sub(1) as usize)
    }

    /// `id` named as this season names its groups: by the letter alone
    /// when it is the only group of its division ("Sunjang Definitions:
    /// Group"). A group the season does not have keeps its name.
    pub fn named(&self, id: GroupId) -> GroupId {
        match self.divisions.get(id.division as usize) {
            Some(groups) if !groups.is_empty() => id.named_for(groups.len()),
            _ => id,
        }
    }

    /// The group a person names: `B` or `B1` for the only group of B
    /// ("the division letter plus a number (if necessary)", Sunjang
    /// Definitions: Group), `A1` or `a1` for a group of a division of two
    /// or more. The letter alone of such a division is refused naming its
    /// groups ("division A has groups A1, A2"), as is a group the season
    /// does not have. The answer is named as the season names it.
    pub fn find_group(&self, name: &str) -> Result<GroupId, RuleError> {
        let shown: String = name.trim().chars().take(20).collect();
        let list = |groups: &[GroupState]| {
            groups
                .iter()
                .map(|g| g.id.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(typed) = GroupId::parse(name) else {
            return Err(rule(
                CLAUSE_GROUP,
                format!(
                    "{shown:?} is not a group: the division letter plus a number if the division has more than one group, such as A1, B2, or B for the only group of B"
                ),
            )
            .field("group"));
        };
        let Some(groups) = self.divisions.get(typed.division as usize) else {
            let divisions = match self.divisions.len() {
                0 => "it has no groups".to_string(),
                1 => "its only division is A".to_string(),
                n => format!(
                    "its divisions are A to {}",
                    division_letter(n as Division - 1)
                ),
            };
            return Err(rule(
                CLAUSE_GROUP,
                format!(
                    "there is no group {shown} in season {}: {divisions}",
                    self.number()
                ),
            )
            .field("group"));
        };
        let l = division_letter(typed.division);
        if typed.is_alone() && groups.len() > 1 {
            return Err(rule(
                CLAUSE_GROUP,
                format!(
                    "division {l} has groups {} in season {}: name one of them",
                    list(groups),
                    self.number()
                ),
            )
            .field("group"));
        }
        match self.group(typed) {
            Some(g) => Ok(g.id),
            None => Err(rule(
                CLAUSE_GROUP,
                format!(
                    "there is no group {shown} in season {}: division {l} has {} {}",
                    self.number(),
                    if groups.len() == 1 {
                        "one group,"
                    } else {
                        "groups"
                    },
                    list(groups)
                ),
            )
            .field("group")),
        }
    }

    /// The group of a player this season.
    pub fn group_of(&self, p: PlayerId) -> Option<GroupId> {
        self.divisions
            .iter()
            .flatten()
            .find(|g| g.players.contains(&p))
            .map(|g| g.id)
    }

    /// Games not yet decided.
    pub fn unfinished(&self) -> usize {
        self.divisions
            .iter()
            .flatten()
            .flat_map(|g| &g.games)
            .filter(|g| g.outcome.is_none())
            .count()
    }

    /// Each division's groups in the form the group module reads.
    pub fn division_groups(&self, d: usize) -> Vec<(GroupId, Vec<PlayerId>, Vec<GroupGame>)> {
        self.divisions
            .get(d)
            .map(|gs| {
                gs.iter()
                    .map(|g| (g.id, g.players.clone(), g.games.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn all_groups(&self) -> Vec<(GroupId, Vec<PlayerId>, Vec<GroupGame>)> {
        (0..self.divisions.len())
            .flat_map(|d| self.division_groups(d))
            .collect()
    }
}

/// The league's state: a fold of its events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct League {
    pub created: bool,
    pub name: String,
    pub rules: SunjangRules,
    pub restrictions: Restrictions,
    pub players: Vec<PlayerInfo>,
    pub withdrawn: Vec<bool>,
    /// Which account plays as which player (ARB-R50).
    pub links: Links,
    /// The time zone (ARB-R82): UTC until one is set.
    pub zone: crate::zone::TimeZone,
    pub tiebreaks: Tiebreaks,
    pub seasons: Vec<Season>,
    /// The season before the first one played here, carried over from the
    /// league's records (ARB-R77).
    pub carried: Option<Box<SeasonCarryOver>>,
    /// The outcomes reported by a player and not yet confirmed, by game
    /// (black, white) of the open season (ARB-R45, ARB-R81).
    pub reports: std::collections::BTreeMap<(PlayerId, PlayerId), Pending<Outcome>>,
}

fn rule(clause: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(clause, message)
}

impl League {
    /// `p` if he is one of the players, or the refusal naming the field.
    fn known_player(&self, p: PlayerId) -> Result<(), RuleError> {
        if p.0 >= 1 && p.0 as usize <= self.players.len() {
            Ok(())
        } else {
            Err(RuleError::new("ARB-R50", format!("there is no player {p}")).field("player"))
        }
    }

    pub fn name_of(&self, p: PlayerId) -> String {
        p.0.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
            .map_or_else(|| p.to_string(), |i| i.name.clone())
    }

    pub fn info(&self, p: PlayerId) -> Option<&PlayerInfo> {
        p.0.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
    }

    /// A player by name, under the one normalization of every format
    /// (ARB-R62).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        crate::model::find_name(self.players.iter().map(|p| p.name.as_str()), name)
            .map(|i| PlayerId(i as u32 + 1))
    }

    pub fn current(&self) -> Option<&Season> {
        self.seasons.last()
    }

    /// The number the next season planned gets: after the carried season
    /// (ARB-R77) and every season planned here.
    pub fn next_season_number(&self) -> u32 {
        let before = self.carried.as_ref().map_or(0, |c| c.records.season);
        before
            .saturating_add(self.seasons.len() as u32)
            .saturating_add(1)
    }

    /// The season numbered `n` (a carried season is not one of them).
    pub fn season(&self, n: u32) -> Option<&Season> {
        self.seasons.iter().find(|s| s.number() == n)
    }

    /// The carried season's figures as the criteria read a closed
    /// season's: each player's gamepoints and SODOS, and the results the
    /// records give.
    pub fn carried_figures(&self) -> Option<(Vec<Option<Performance>>, Vec<PlayedGame>)> {
        self.carried.as_ref().map(|c| {
            (
                c.records.performances(),
                c.records.played_games(&self.rules),
            )
        })
    }

    /// The carried season's group tables, by section D on its figures.
    pub fn carried_tables(&self) -> Vec<GroupTable> {
        match (&self.carried, self.carried_figures()) {
            (Some(c), Some((perf, games))) => c.records.group_tables(&self.data(&perf, &games)),
            _ => Vec::new(),
        }
    }

    /// The figures the next plan reads: the last season's, or, before any
    /// season here, the carried season's.
    fn last_figures(&self) -> (Vec<Option<Performance>>, Vec<PlayedGame>) {
        match self.current() {
            Some(s) => (self.performances(s), self.played_games(s)),
            None => self.carried_figures().unwrap_or_default(),
        }
    }

    /// The previous season as the planner reads it.
    fn previous_season(
        &self,
        perf: &[Option<Performance>],
        games: &[PlayedGame],
    ) -> Option<PreviousSeason> {
        match self.current() {
            Some(s) => s.close.as_ref().map(|c| PreviousSeason {
                divisions: c.divisions.clone(),
            }),
            None => self
                .carried
                .as_ref()
                .map(|c| c.records.previous(&self.data(perf, games))),
        }
    }

    /// Players taking part from now on: registered and not withdrawn.
    pub fn entrants(&self) -> Vec<PlayerId> {
        (0..self.players.len())
            .filter(|&i| !self.withdrawn.get(i).copied().unwrap_or(false))
            .map(|i| PlayerId(i as u32 + 1))
            .collect()
    }

    /// The defending champion: the champion of the last season whose final
    /// round was decided.
    pub fn defending_champion(&self) -> Option<PlayerId> {
        self.seasons
            .iter()
            .rev()
            .find_map(|s| match self.final_state(s) {
                Some(FinalState::Champion { player, .. }) => Some(player),
                _ => None,
            })
            .or_else(|| self.carried.as_ref().and_then(|c| c.records.champion))
    }

    /// The state of a season's final round.
    pub fn final_state(&self, s: &Season) -> Option<FinalState> {
        let f = s.final_round.as_ref()?;
        let q = FinalQualification {
            players: f.players.clone(),
            names: f.players.iter().map(|p| self.name_of(*p)).collect(),
            advantaged: f.advantaged.clone(),
            explanations: Vec::new(),
            pending: None,
            void: None,
        };
        if f.void {
            return Some(FinalState::Void {
                explanation: Explanation::new(
                    CLAUSE_FINAL,
                    &["SJ-R7"],
                    "no eligible player is willing to play: the title is declared void for the year",
                ),
            });
        }
        Some(final_round::final_state(&q, &f.games, &self.rules))
    }

    /// Why each finalist of a drawn final round qualified (group leader,
    /// defending champion, drawn as a direct promotion by section B, ...),
    /// who was passed over, and the advantaged positions (SJ-R7; ARB-R40).
    /// The draw stores the finalists, not its reasons: they are the
    /// qualification of the closed season again, which reads only what the
    /// draw read (the closed tables, the champion before this season).
    /// Should that no longer give the stored finalists (a player withdrew
    /// from the tournament after the draw), the answer says so instead of
    /// reasons for another draw. Empty before the draw.
    pub fn final_reasons(&self, s: &Season) -> Vec<Explanation> {
        let Some(f) = s.final_round.as_ref() else {
            return Vec::new();
        };
        match self.qualify(s, &[]) {
            Ok(q) if q.players == f.players => q.explanations,
            _ => vec![Explanation::new(
                CLAUSE_FINAL,
                &[final_round::RULING_QUALIFICATION],
                format!(
                    "{} were drawn for the final round; the league has changed since the draw, so its reasons are not rebuilt",
                    f.players
                        .iter()
                        .map(|p| self.name_of(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )],
        }
    }

    /// The games of a season's final round still to play, as (black,
    /// white): the round robin's next games, or the deciding game of a
    /// tie (SJ-R8). Empty once the final is decided, void, or not drawn.
    pub fn final_games_to_play(&self, s: &Season) -> Vec<(PlayerId, PlayerId)> {
        match self.final_state(s) {
            Some(FinalState::Playing { next }) => next,
            Some(FinalState::Playoff { players, .. }) => vec![(players[0], players[1])],
            _ => Vec::new(),
        }
    }

    /// The performances of a season's players (gamepoints, SODOS).
    pub fn performances(&self, s: &Season) -> Vec<Option<Performance>> {
        group::performances(self.players.len(), &s.all_groups(), &self.rules)
    }

    /// The decided games of a season.
    pub fn played_games(&self, s: &Season) -> Vec<PlayedGame> {
        group::played_games(&s.all_groups(), &self.rules)
    }

    /// The tables of every group of a season.
    pub fn group_tables(&self, s: &Season) -> Vec<GroupTable> {
        let perf = self.performances(s);
        let games = self.played_games(s);
        let data = self.data(&perf, &games);
        s.divisions
            .iter()
            .enumerate()
            .flat_map(|(d, gs)| {
                let start = self.start_points(s, d as Division);
                gs.iter().map(move |g| (g, start)).collect::<Vec<_>>()
            })
            .map(|(g, start)| group::group_table(g.id, &g.players, &g.games, start, &data))
            .collect()
    }

    /// Starting gamepoints of division `d` in a season: 10 for every
    /// division below (footnote 4; SJ-R4).
    pub fn start_points(&self, s: &Season, d: Division) -> super::HalfPoints {
        let below = (s.divisions.len() as u32).saturating_sub(d + 1);
        below * self.rules.start_points_per_division
    }

    /// The ranking inputs for a season's figures.
    pub fn data<'a>(
        &'a self,
        performance: &'a [Option<Performance>],
        games: &'a [PlayedGame],
    ) -> RankingData<'a> {
        RankingData {
            info: &self.players,
            performance,
            games,
            tiebreaks: &self.tiebreaks,
            rules: &self.rules,
        }
    }

    /// The plan the next season would get now (what `PlanSeason` stores),
    /// refused like the plan itself while a season is running.
    pub fn preview_plan(&self) -> Result<PlanOutcome, RuleError> {
        self.check_can_plan()?;
        let (perf, games) = self.last_figures();
        let previous = self.previous_season(&perf, &games);
        let entrants = self.entrants();
        let mut outcome = planner::plan(&PlanInput {
            rules: &self.rules,
            restrictions: &self.restrictions,
            data: self.data(&perf, &games),
            previous: previous.as_ref(),
            entrants: &entrants,
        })?;
        // Placements read from the carried figures say so (ARB-R77).
        if let (Some(c), None, PlanOutcome::Planned(plan)) =
            (&self.carried, self.current(), &mut outcome)
        {
            let from = c.citation();
            for pl in &mut plan.placements {
                if pl.reason.reads_previous_season() {
                    pl.explanation.text =
                        format!("{} (the figures of {from})", pl.explanation.text);
                    pl.explanation.rulings.push(super::carry::ARB_CARRY);
                }
            }
        }
        Ok(outcome)
    }

    /// The plan the next season would get with the organizer's layout
    /// (what `PlanLayout` stores), and every rule of section A the layout
    /// breaks (ARB-R55): a preview that stores nothing. Refused when the
    /// layout is not one (an unknown, withdrawn, twice or never placed
    /// player, a group that cannot exist), when no season can be planned
    /// now, or when the reason is missing or too long.
    pub fn layout_plan(
        &self,
        proposal: &Proposal,
        reason: &str,
        at: Time,
    ) -> Result<(SeasonPlan, Vec<Explanation>), RuleError> {
        let reason = reason.trim();
        let chars = reason.chars().count();
        if chars == 0 || chars > layout::REASON_MAX || reason.chars().any(char::is_control) {
            return Err(rule(
                CLAUSE_SEASON,
                format!(
                    "a layout needs the reason for the moves, 1 to {} characters on one line ({})",
                    layout::REASON_MAX,
                    layout::ARB_LAYOUT
                ),
            )
            .field("reason"));
        }
        let auto = match self.preview_plan() {
            Ok(PlanOutcome::Planned(p)) => Some(p),
            Ok(PlanOutcome::Cancelled { explanation, .. }) => {
                return Err(rule(
                    explanation.clause,
                    format!("{}: there is no season to lay out", explanation.text),
                ));
            }
            // A whole layout may stand in for a plan the planner refuses;
            // moves need the plan they move from.
            Err(e) if matches!(proposal, Proposal::Groups(_)) => {
                self.check_can_plan()?;
                let _ = e;
                None
            }
            Err(e) => return Err(e),
        };
        let (perf, games) = self.last_figures();
        let entrants = self.entrants();
        let checked = layout::check(
            auto.as_ref(),
            proposal,
            &entrants,
            &self.data(&perf, &games),
            &self.rules,
        )?;
        let season = self.next_season_number();
        let placements = checked
            .seats
            .iter()
            .map(|&(p, group, seed)| {
                let planned = auto
                    .as_ref()
                    .and_then(|a| a.placements.iter().find(|pl| pl.player == p));
                let explanation = match (planned, checked.moved.iter().find(|m| m.player == p)) {
                    (Some(pl), None) => pl.explanation.clone().into(),
                    (Some(pl), Some(_)) => Note {
                        clause: "Sunjang A. Divisions & Groups".into(),
                        rulings: vec![layout::ARB_LAYOUT.into()],
                        text: format!(
                            "{}: moved by the organizer from {} to {group}: {reason}. The plan had: {}",
                            self.name_of(p),
                            pl.group,
                            pl.explanation.text
                        ),
                    },
                    (None, _) => Note {
                        clause: "Sunjang A. Divisions & Groups".into(),
                        rulings: vec![layout::ARB_LAYOUT.into()],
                        text: format!(
                            "{}: placed in {group} by the organizer's layout (the planner made no plan): {reason}",
                            self.name_of(p)
                        ),
                    },
                };
                PlacedPlayer {
                    player: p,
                    group,
                    seed,
                    explanation,
                }
            })
            .collect();
        let mut notes: Vec<Note> = auto
            .as_ref()
            .map(|a| a.notes.iter().cloned().map(Into::into).collect())
            .unwrap_or_default();
        for (d, groups) in checked.divisions.iter().enumerate() {
            if !checked.changed[d] {
                continue;
            }
            let sizes: Vec<String> = groups.iter().map(|g| g.len().to_string()).collect();
            let before = auto.as_ref().and_then(|a| a.divisions.get(d)).map_or_else(
                || "a division the plan did not have".to_string(),
                |pd| format!("the plan had {} in {} group(s)", pd.size(), pd.groups.len()),
            );
            notes.push(Note {
                clause: "Sunjang A.i.3".into(),
                rulings: vec![layout::ARB_LAYOUT.into()],
                text: format!(
                    "{}: the organizer's layout, {} players in {} group(s) of {} ({before}), seeded again by rank (A.ii.2)",
                    division_letter(d as Division),
                    groups.iter().map(Vec::len).sum::<usize>(),
                    groups.len(),
                    sizes.join(", ")
                ),
            });
        }
        let plan = SeasonPlan {
            season,
            divisions: checked.divisions,
            placements,
            notes,
            cancelled: None,
            layout: Some(OrganizerLayout {
                reason: reason.to_string(),
                moves: checked.moved,
            }),
            at,
        };
        Ok((plan, checked.violations))
    }

    // ----- decide -----

    pub fn decide(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        if !self.created && !matches!(command, Command::Create { .. }) {
            return Err(rule(CLAUSE_SEASON, "the league has not been created"));
        }
        match command {
            Command::Linked { account, command } => {
                let account = self.links.check_account(
                    &account,
                    CLAUSE_SEASON,
                    |_| true,
                    |p| self.name_of(p),
                )?;
                if !matches!(*command, Command::Register { .. }) {
                    return Err(rule(
                        CLAUSE_SEASON,
                        "only a registration is linked to an account as it is made",
                    ));
                }
                let mut events = self.decide(*command)?;
                let player = events.iter().find_map(|e| match e {
                    Event::PlayerRegistered { player, .. } => Some(*player),
                    _ => None,
                });
                if let Some(player) = player {
                    events.push(Event::AccountLinked { player, account });
                }
                Ok(events)
            }
            Command::LinkAccount { player, account } => {
                self.known_player(player)?;
                let account = self.links.decide_link(
                    player,
                    &account,
                    CLAUSE_SEASON,
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
                    .decide_unlink(player, CLAUSE_SEASON, |p| self.name_of(p))?;
                Ok(vec![Event::AccountUnlinked { player, account }])
            }
            Command::Create {
                name,
                rules,
                restrictions,
            } => {
                if self.created {
                    return Err(rule(CLAUSE_SEASON, "the league already exists"));
                }
                rules.check()?;
                restrictions.check()?;
                let name = name.trim().to_string();
                if name.is_empty() || name.len() > 100 {
                    return Err(
                        rule("ARB-R22", "a league's name is 1 to 100 characters").field("name")
                    );
                }
                Ok(vec![Event::Created {
                    name,
                    rules,
                    restrictions,
                }])
            }
            Command::Register { mut info } => {
                self.check_info(&info, None)?;
                // ARB-R62: the spelling kept, NFC and single-spaced.
                info.name = crate::model::spelled(&info.name);
                Ok(vec![Event::PlayerRegistered {
                    player: PlayerId(self.players.len() as u32 + 1),
                    info,
                }])
            }
            Command::Update { player, mut info } => {
                self.known(player)?;
                self.check_info(&info, Some(player))?;
                info.name = crate::model::spelled(&info.name);
                Ok(vec![Event::PlayerUpdated { player, info }])
            }
            Command::Withdraw { player, reason } => {
                self.known(player)?;
                if self.is_withdrawn(player) {
                    return Err(rule(
                        "Sunjang B.4",
                        format!("{} has already withdrawn", self.name_of(player)),
                    ));
                }
                Ok(vec![Event::PlayerWithdrawn {
                    player,
                    reason: reason.trim().to_string(),
                }])
            }
            Command::Return { player } => {
                self.known(player)?;
                if !self.is_withdrawn(player) {
                    return Err(rule(
                        "Sunjang B.4",
                        format!("{} has not withdrawn", self.name_of(player)),
                    ));
                }
                Ok(vec![Event::PlayerReturned { player }])
            }
            Command::ChangeRestrictions {
                restrictions,
                reason,
            } => {
                restrictions.check()?;
                Ok(vec![Event::RestrictionsChanged {
                    restrictions,
                    reason: reason.trim().to_string(),
                }])
            }
            Command::PlanSeason { at } => {
                let season = self.next_season_number();
                let plan = match self.preview_plan()? {
                    PlanOutcome::Cancelled { explanation, .. } => SeasonPlan {
                        season,
                        divisions: Vec::new(),
                        placements: Vec::new(),
                        notes: Vec::new(),
                        cancelled: Some(explanation.into()),
                        layout: None,
                        at,
                    },
                    PlanOutcome::Planned(p) => SeasonPlan {
                        season,
                        divisions: p.divisions.iter().map(|d| d.groups.clone()).collect(),
                        placements: p
                            .placements
                            .into_iter()
                            .map(|pl| PlacedPlayer {
                                player: pl.player,
                                group: pl.group,
                                seed: pl.seed,
                                explanation: pl.explanation.into(),
                            })
                            .collect(),
                        notes: p.notes.into_iter().map(Into::into).collect(),
                        cancelled: None,
                        layout: None,
                        at,
                    },
                };
                Ok(vec![Event::SeasonPlanned(Box::new(plan))])
            }
            Command::PlanLayout {
                proposal,
                reason,
                at,
            } => {
                let (plan, violations) = self.layout_plan(&proposal, &reason, at)?;
                if let Some(first) = violations.first() {
                    let all: Vec<&str> = violations.iter().map(|v| v.text.as_str()).collect();
                    return Err(rule(
                        first.clause,
                        format!(
                            "the layout breaks {} rule(s) of section A, nothing is stored: {} ({})",
                            violations.len(),
                            all.join("; "),
                            layout::ARB_LAYOUT
                        ),
                    )
                    .field("layout"));
                }
                if plan.layout.as_ref().is_none_or(|l| l.moves.is_empty()) {
                    return Err(rule(
                        CLAUSE_SEASON,
                        format!(
                            "the layout moves nobody: it is the automatic plan, planned without a layout ({})",
                            layout::ARB_LAYOUT
                        ),
                    )
                    .field("layout"));
                }
                Ok(vec![Event::SeasonPlanned(Box::new(plan))])
            }
            Command::ReportResult {
                black,
                white,
                outcome,
                by,
                at,
            } => {
                self.known(by).map_err(|e| e.field("by"))?;
                let (s, group) = self.find_game(black, white, false)?;
                let what = self.report_ref(black, white);
                let name_of = |p: PlayerId| self.name_of(p);
                report::check_reporter(CLAUSE_GROUP, [black, white], by, &what, &name_of)?;
                if !matches!(
                    outcome,
                    Outcome::BlackWins | Outcome::WhiteWins | Outcome::Jigo
                ) {
                    return Err(rule(
                        CLAUSE_GROUP,
                        format!(
                            "a player reports a game played (black wins, white wins or jigo); \"{}\" is decided by a moderator (ARB-R81)",
                            outcome.describe()
                        ),
                    )
                    .field("outcome"));
                }
                if let Some(r) = self.reports.get(&(black, white))
                    && r.result == outcome
                {
                    if r.by != by {
                        // The other player reports what was reported: he
                        // confirms it (ARB-R45).
                        return self.confirmed(black, white, r, Confirmer::Player(by), at);
                    }
                    let other = if by == black { white } else { black };
                    return Err(report::already_reported(
                        CLAUSE_GROUP,
                        &self.name_of(by),
                        &what,
                        &self.name_of(other),
                    ));
                }
                Ok(vec![Event::ResultReported {
                    season: s.number(),
                    group,
                    black,
                    white,
                    outcome,
                    by,
                    at,
                }])
            }
            Command::ConfirmResult {
                black,
                white,
                by,
                at,
            } => {
                let r = self.pending_report(black, white)?;
                self.check_confirmer(black, white, r, &by, at, "confirms")?;
                self.confirmed(black, white, r, by, at)
            }
            Command::DisputeReport {
                black,
                white,
                by,
                reason,
                at,
            } => {
                let r = self.pending_report(black, white)?;
                self.check_confirmer(black, white, r, &by, at, "disputes")?;
                let reason = report::dispute_reason(CLAUSE_GROUP, &reason)?;
                let (s, group) = self.find_game(black, white, false)?;
                Ok(vec![Event::ReportDisputed {
                    season: s.number(),
                    group,
                    black,
                    white,
                    by,
                    reason,
                    at,
                }])
            }
            Command::RecordResult {
                black,
                white,
                outcome,
                at,
            } => {
                let (s, group) = self.find_game(black, white, false)?;
                Ok(vec![Event::ResultRecorded {
                    season: s.number(),
                    group,
                    black,
                    white,
                    outcome,
                    at,
                }])
            }
            Command::CorrectResult {
                black,
                white,
                outcome,
                reason,
                at,
            } => {
                if reason.trim().is_empty() {
                    return Err(rule(CLAUSE_GROUP, "a correction needs a reason").field("reason"));
                }
                let (s, group) = self.find_game(black, white, true)?;
                Ok(vec![Event::ResultCorrected {
                    season: s.number(),
                    group,
                    black,
                    white,
                    outcome,
                    reason: reason.trim().to_string(),
                    at,
                }])
            }
            Command::GiveWay { player } => {
                self.known(player)?;
                Ok(vec![Event::GaveWay { player }])
            }
            Command::RecordLiveMatch { winner, loser } => {
                self.known(winner)?;
                self.known(loser)?;
                if winner == loser {
                    return Err(rule(
                        "Sunjang D.2",
                        "a live Sunjang match has two different players",
                    ));
                }
                Ok(vec![Event::LiveMatchWon { winner, loser }])
            }
            Command::CarryOver {
                records,
                source,
                by,
                at,
            } => self.decide_carry_over(records, source, by, at),
            Command::CloseSeason { at } => {
                if let Some(s) = self.current()
                    && s.close.is_some()
                {
                    return Err(rule(
                        CLAUSE_SEASON,
                        format!("season {} is already closed", s.number()),
                    ));
                }
                let s = self.open_season()?;
                let left = s.unfinished();
                if left > 0 {
                    return Err(rule(
                        CLAUSE_SEASON,
                        format!(
                            "season {} has {left} unfinished game(s); a season closes when every group game is decided",
                            s.number()
                        ),
                    ));
                }
                let perf = self.performances(s);
                let games = self.played_games(s);
                let data = self.data(&perf, &games);
                let divisions = (0..s.divisions.len())
                    .map(|d| {
                        let r =
                            group::division_ranking(d as Division, &s.division_groups(d), &data);
                        PreviousDivision {
                            ranking: r.order,
                            group_leaders: r.group_leaders,
                            groups: s.divisions[d]
                                .iter()
                                .map(|g| g.players.len() as u32)
                                .collect(),
                        }
                    })
                    .collect();
                Ok(vec![Event::SeasonClosed(Box::new(SeasonClose {
                    season: s.number(),
                    divisions,
                    at,
                }))])
            }
            Command::QualifyFinal { at } => {
                let s = self.closed_season()?;
                if s.final_round.is_some() {
                    return Err(rule(
                        CLAUSE_FINAL,
                        format!("season {}'s final round is already drawn", s.number()),
                    ));
                }
                let q = self.qualify(s, &[])?;
                if let Some(p) = &q.pending {
                    return Err(rule(
                        CLAUSE_FINAL,
                        format!(
                            "{} (`sunjang tiebreak give-way` or `sunjang tiebreak live`)",
                            p.text
                        ),
                    ));
                }
                Ok(vec![Event::FinalQualified {
                    season: s.number(),
                    players: q.players,
                    advantaged: q.advantaged,
                    void: q.void.is_some(),
                    at,
                }])
            }
            Command::RecordFinalGame {
                black,
                white,
                outcome,
                at,
            } => {
                let s = self.closed_season()?;
                let next = match self.final_state(s) {
                    Some(FinalState::Playing { next }) => next,
                    // The deciding game between two players left tied (SJ-R8).
                    Some(FinalState::Playoff { players, .. }) => vec![(players[0], players[1])],
                    Some(FinalState::Champion { player, .. }) => {
                        return Err(rule(
                            CLAUSE_FINAL,
                            format!(
                                "the final round is over: {} is champion",
                                self.name_of(player)
                            ),
                        ));
                    }
                    _ => {
                        return Err(rule(
                            CLAUSE_FINAL,
                            "no final-round game is to be played now",
                        ));
                    }
                };
                if !next
                    .iter()
                    .any(|(a, b)| (*a == black && *b == white) || (*a == white && *b == black))
                {
                    return Err(rule(
                        CLAUSE_FINAL,
                        format!(
                            "{} v {} is not a game of the final round still to play",
                            self.name_of(black),
                            self.name_of(white)
                        ),
                    )
                    .field("players"));
                }
                Ok(vec![Event::FinalGamePlayed {
                    season: s.number(),
                    black,
                    white,
                    outcome,
                    at,
                }])
            }
            Command::WithdrawFromFinal { player, at } => {
                let s = self.closed_season()?;
                let Some(f) = &s.final_round else {
                    return Err(rule(CLAUSE_FINAL, "the final round is not drawn yet"));
                };
                if !f.players.contains(&player) {
                    return Err(rule(
                        CLAUSE_FINAL,
                        format!("{} is not in the final round", self.name_of(player)),
                    ));
                }
                if !f.games.is_empty() {
                    return Err(rule(
                        CLAUSE_FINAL,
                        "the final round has begun: a player who stops now loses his games",
                    ));
                }
                Ok(vec![Event::FinalWithdrawn {
                    season: s.number(),
                    player,
                    at,
                }])
            }
        }
    }

    /// ARB-R77, ARB-R78: the last season carried over from the league's
    /// records, into a league with nobody registered and no season.
    fn decide_carry_over(
        &self,
        mut records: CarriedSeason,
        source: String,
        by: String,
        at: Time,
    ) -> Result<Vec<Event>, RuleError> {
        use super::carry::ARB_CARRY;
        if self.carried.is_some() {
            return Err(rule(
                ARB_CARRY,
                "this league was already carried over from its records; undo that first to carry it over again",
            ));
        }
        if !self.players.is_empty() || !self.seasons.is_empty() {
            return Err(rule(
                ARB_CARRY,
                format!(
                    "a league is carried over before anyone is registered and any season planned; this one has {} players and {} seasons (carry it over into a new competition)",
                    self.players.len(),
                    self.seasons.len()
                ),
            ));
        }
        let source = source.trim().to_string();
        if source.is_empty()
            || source.chars().count() > layout::REASON_MAX
            || source.chars().any(char::is_control)
        {
            return Err(rule(
                ARB_CARRY,
                format!(
                    "the source of the records is 1 to {} characters on one line",
                    layout::REASON_MAX
                ),
            )
            .field("source"));
        }
        let by = crate::model::person_name(&by, 64)
            .map_err(|why| rule("ARB-R22", format!("the moderator's name {why}")).field("by"))?;
        // Each player by the one name check, no name twice (ARB-R22, ARB-R62).
        let mut seen = League {
            created: true,
            rules: self.rules.clone(),
            ..League::default()
        };
        for (i, p) in records.players.iter_mut().enumerate() {
            p.info.name = p.info.name.split_whitespace().collect::<Vec<_>>().join(" ");
            seen.check_info(&p.info, None)
                .map_err(|e| e.field(format!("players[{i}].name")))?;
            seen.players.push(p.info.clone());
        }
        records
            .check(&self.rules)
            .map_err(super::carry::CarryError::into_rule_error)?;
        let (perf, games) = (records.performances(), records.played_games(&self.rules));
        records
            .check_places(&seen.data(&perf, &games))
            .map_err(super::carry::CarryError::into_rule_error)?;
        Ok(vec![Event::SeasonCarriedOver(Box::new(SeasonCarryOver {
            records,
            source,
            by,
            at,
        }))])
    }

    /// The qualification of a closed season's final round, without the
    /// players who withdrew from it.
    pub fn qualify(
        &self,
        s: &Season,
        withdrawn: &[PlayerId],
    ) -> Result<FinalQualification, RuleError> {
        let close = s
            .close
            .as_ref()
            .ok_or_else(|| rule(CLAUSE_FINAL, "the season is not closed"))?;
        let perf = self.performances(s);
        let games = self.played_games(s);
        let data = self.data(&perf, &games);
        let division = group::division_ranking(0, &s.division_groups(0), &data);
        let champion = self
            .seasons
            .iter()
            .take_while(|x| x.number() < s.number())
            .filter_map(|x| match self.final_state(x) {
                Some(FinalState::Champion { player, .. }) => Some(player),
                _ => None,
            })
            .last()
            .or_else(|| self.carried.as_ref().and_then(|c| c.records.champion));
        let mut unavailable: Vec<PlayerId> = withdrawn.to_vec();
        unavailable.extend(
            (0..self.players.len())
                .filter(|&i| self.withdrawn.get(i).copied().unwrap_or(false))
                .map(|i| PlayerId(i as u32 + 1)),
        );
        Ok(final_round::qualify(&FinalInput {
            division: &division,
            performance: &perf,
            champion,
            demotions: self.demotions_from_a(close),
            unavailable: &unavailable,
            info: &self.players,
            rules: &self.rules,
        }))
    }

    /// How many players division A demotes this season: the places below
    /// that line cannot defend the title (footnote 8).
    /// The planner's own count ([`planner::demotion_count`]: B.2 with the
    /// extra demotion of SJ-R6 for a group of 10, B.5), so that the final
    /// and the next plan agree on who is below the line.
    fn demotions_from_a(&self, close: &SeasonClose) -> usize {
        close.divisions.first().map_or(0, |a| {
            let promoted = planner::direct_promotions(a.groups.len(), a.ranking.len(), &self.rules);
            planner::division_demotions(a, close.divisions.get(1), promoted, &self.rules).count
        })
    }

    /// A season is planned only when the last one is closed (or cancelled).
    fn check_can_plan(&self) -> Result<(), RuleError> {
        if let Some(s) = self.current()
            && s.plan.cancelled.is_none()
            && s.close.is_none()
        {
            let left = s.unfinished();
            return Err(rule(
                CLAUSE_SEASON,
                if left > 0 {
                    format!(
                        "season {} has {left} unfinished game(s): finish and close it before planning the next",
                        s.number()
                    )
                } else {
                    format!(
                        "season {} is not closed: close it (`sunjang season close`) before planning the next",
                        s.number()
                    )
                },
            ));
        }
        // A final round drawn is finished first: its games belong to the
        // season it crowns, and its champion defends the title next.
        if let Some(s) = self.current()
            && matches!(
                self.final_state(s),
                Some(FinalState::Playing { .. } | FinalState::Playoff { .. })
            )
        {
            return Err(rule(
                CLAUSE_FINAL,
                format!(
                    "season {}'s final round is not decided: finish it (or withdraw its players) before planning the next season",
                    s.number()
                ),
            ));
        }
        Ok(())
    }

    fn known(&self, p: PlayerId) -> Result<(), RuleError> {
        if self.info(p).is_some() {
            Ok(())
        } else {
            Err(rule(CLAUSE_SEASON, format!("there is no player {p}")).field("player"))
        }
    }

    fn is_withdrawn(&self, p: PlayerId) -> bool {
        p.0.checked_sub(1)
            .and_then(|i| self.withdrawn.get(i as usize))
            .copied()
            .unwrap_or(false)
    }

    fn check_info(&self, info: &PlayerInfo, me: Option<PlayerId>) -> Result<(), RuleError> {
        let n = info.name.trim();
        // The one name check of every format (ARB-R22, ARB-R50).
        if let Err(why) = crate::model::person_name(&info.name, 64) {
            return Err(
                rule("ARB-R22", format!("player name {:?} {why}", info.name)).field("name"),
            );
        }
        if let Some(other) = self.find(n)
            && Some(other) != me
        {
            let existing = self.name_of(other);
            let why = if existing == n {
                format!("{n:?} is already registered")
            } else {
                format!("{n:?} is already registered: it is the same name as {existing:?}")
            };
            return Err(rule("ARB-R62", why).field("name"));
        }
        if !(-1000..=5000).contains(&info.rating)
            || info
                .corr_rating
                .is_some_and(|r| !(-1000..=5000).contains(&r))
        {
            return Err(rule(
                "Sunjang D.2 Secondary Criteria",
                "ratings are from -1000 to 5000",
            )
            .field("rating"));
        }
        Ok(())
    }

    /// A group game in words: `Ana (black) v Ben (white)`.
    pub fn report_ref(&self, black: PlayerId, white: PlayerId) -> String {
        format!(
            "{} (black) v {} (white)",
            self.name_of(black),
            self.name_of(white)
        )
    }

    fn pending_report(
        &self,
        black: PlayerId,
        white: PlayerId,
    ) -> Result<&Pending<Outcome>, RuleError> {
        self.reports.get(&(black, white)).ok_or_else(|| {
            report::nothing_reported(CLAUSE_GROUP, &self.report_ref(black, white)).field("players")
        })
    }

    fn check_confirmer(
        &self,
        black: PlayerId,
        white: PlayerId,
        r: &Pending<Outcome>,
        by: &Confirmer,
        at: Time,
        verb: &str,
    ) -> Result<(), RuleError> {
        report::check_confirmer(
            CLAUSE_GROUP,
            [black, white],
            (r.by, r.at),
            by,
            at,
            &self.links,
            &self.report_ref(black, white),
            &|p| self.name_of(p),
            verb,
        )
    }

    /// A confirmed report: `ResultConfirmed`, then exactly what recording
    /// the reported outcome when it was reported decides.
    fn confirmed(
        &self,
        black: PlayerId,
        white: PlayerId,
        r: &Pending<Outcome>,
        by: Confirmer,
        at: Time,
    ) -> Result<Vec<Event>, RuleError> {
        let recorded = self.decide(Command::RecordResult {
            black,
            white,
            outcome: r.result,
            at: r.at,
        })?;
        let (season, group) = match recorded.first() {
            Some(Event::ResultRecorded { season, group, .. }) => (*season, *group),
            _ => return Err(rule(CLAUSE_GROUP, "this game takes no result now")),
        };
        let mut events = Vec::with_capacity(recorded.len() + 1);
        events.push(Event::ResultConfirmed {
            season,
            group,
            black,
            white,
            by,
            at,
        });
        events.extend(recorded);
        Ok(events)
    }

    fn open_season(&self) -> Result<&Season, RuleError> {
        match self.current() {
            Some(s) if s.close.is_none() && s.plan.cancelled.is_none() => Ok(s),
            Some(s) if s.plan.cancelled.is_some() => Err(rule(
                CLAUSE_SEASON,
                format!("season {} was cancelled", s.number()),
            )),
            Some(s) => Err(rule(
                CLAUSE_SEASON,
                format!(
                    "season {} is closed: its results can no longer change; plan the next season",
                    s.number()
                ),
            )),
            None => Err(rule(
                CLAUSE_SEASON,
                "no season has been planned yet (`sunjang season plan`)",
            )),
        }
    }

    fn closed_season(&self) -> Result<&Season, RuleError> {
        match self.current() {
            Some(s) if s.close.is_some() => Ok(s),
            Some(s) => Err(rule(
                CLAUSE_FINAL,
                format!("season {} is not closed yet", s.number()),
            )),
            None => Err(rule(CLAUSE_FINAL, "no season has been played")),
        }
    }

    /// The season and group of the game `black` v `white` in the open
    /// season; `decided`: whether it must already have a result.
    fn find_game(
        &self,
        black: PlayerId,
        white: PlayerId,
        decided: bool,
    ) -> Result<(&Season, GroupId), RuleError> {
        self.known(black)?;
        self.known(white)?;
        let s = self.open_season()?;
        let (gb, gw) = (s.group_of(black), s.group_of(white));
        let (Some(gb), Some(gw)) = (gb, gw) else {
            let who = if gb.is_none() { black } else { white };
            return Err(rule(
                CLAUSE_GROUP,
                format!(
                    "{} plays in no group of season {}",
                    self.name_of(who),
                    s.number()
                ),
            )
            .field("players"));
        };
        if gb != gw {
            return Err(rule(
                CLAUSE_GROUP,
                format!(
                    "{} ({gb}) and {} ({gw}) are in different groups: \"Each group comprises a set of players from the same division, who must face one another in a round-robin\"",
                    self.name_of(black),
                    self.name_of(white)
                ),
            )
            .field("players"));
        }
        let g = s
            .group(gb)
            .and_then(|g| {
                g.games
                    .iter()
                    .find(|x| x.pairing.black == black && x.pairing.white == white)
            })
            .ok_or_else(|| {
                rule(
                    CLAUSE_GROUP,
                    format!(
                        "in {gb} {} has white against {}: name black first",
                        self.name_of(black),
                        self.name_of(white)
                    ),
                )
                .field("players")
            })?;
        match (decided, g.outcome.is_some()) {
            (false, true) => Err(rule(
                CLAUSE_GROUP,
                "this game has a result; correct it with `sunjang result BLACK WHITE --outcome ... --correct REASON`",
            )),
            (true, false) => Err(rule(CLAUSE_GROUP, "this game has no result to correct")),
            _ => Ok((s, gb)),
        }
    }

    // ----- apply -----

    pub fn apply(&mut self, event: &Event) {
        let _ = self.try_apply(event);
    }

    pub fn try_apply(&mut self, event: &Event) -> Result<(), RuleError> {
        self.check(event)?;
        self.apply_checked(event);
        Ok(())
    }

    /// Whether `event` fits this state (a damaged log fails).
    pub fn check(&self, event: &Event) -> Result<(), RuleError> {
        let bad = |m: &str| Err(rule("event log", m.to_string()));
        if !self.created && !matches!(event, Event::Created { .. } | Event::Reverted { .. }) {
            return bad("an event before the league was created");
        }
        match event {
            Event::Created { .. } if self.created => bad("the league is created twice"),
            Event::AccountLinked { player, account }
            | Event::AccountUnlinked { player, account }
                if !(player.0 >= 1 && player.0 as usize <= self.players.len())
                    || crate::model::account_name(account).is_err() =>
            {
                bad("a link of an unknown player or account")
            }

            Event::PlayerRegistered { player, .. }
                if player.0 as usize != self.players.len() + 1 =>
            {
                bad("player ids are not consecutive")
            }
            Event::PlayerUpdated { player, .. }
            | Event::PlayerWithdrawn { player, .. }
            | Event::PlayerReturned { player }
            | Event::GaveWay { player }
                if self.info(*player).is_none() =>
            {
                bad("an event for an unknown player")
            }
            Event::SeasonPlanned(p) => {
                let n = self.players.len() as u32;
                let ok = p.season == self.next_season_number()
                    && p.divisions
                        .iter()
                        .flatten()
                        .flatten()
                        .all(|x| (1..=n).contains(&x.0));
                if ok {
                    Ok(())
                } else {
                    bad("a season plan that does not fit")
                }
            }
            Event::ResultReported {
                season,
                group,
                black,
                white,
                by,
                ..
            } => {
                let open = self.current().is_some_and(|s| {
                    s.number() == *season
                        && s.close.is_none()
                        && s.group(*group).is_some_and(|g| {
                            g.games.iter().any(|x| {
                                x.pairing.black == *black
                                    && x.pairing.white == *white
                                    && x.outcome.is_none()
                            })
                        })
                });
                if open && (by == black || by == white) {
                    Ok(())
                } else {
                    bad("a report of a game that takes none, or by a player not in it")
                }
            }
            Event::ResultConfirmed { black, white, .. }
            | Event::ReportDisputed { black, white, .. } => {
                if self.reports.contains_key(&(*black, *white)) {
                    Ok(())
                } else {
                    bad("a confirmation or dispute without a pending report")
                }
            }
            Event::ResultRecorded {
                season,
                group,
                black,
                white,
                ..
            }
            | Event::ResultCorrected {
                season,
                group,
                black,
                white,
                ..
            } => {
                let ok = self.current().is_some_and(|s| {
                    s.number() == *season
                        && s.group(*group).is_some_and(|g| {
                            g.games
                                .iter()
                                .any(|x| x.pairing.black == *black && x.pairing.white == *white)
                        })
                });
                if ok {
                    Ok(())
                } else {
                    bad("a result for an unknown game")
                }
            }
            Event::SeasonCarriedOver(c) => {
                if self.carried.is_some() || !self.players.is_empty() || !self.seasons.is_empty() {
                    return bad("a carry-over into a league that has players or seasons");
                }
                c.records
                    .check(&self.rules)
                    .map_err(|e| rule("event log", e.into_rule_error().to_string()))
            }
            Event::SeasonClosed(c) => {
                if self
                    .current()
                    .is_some_and(|s| s.number() == c.season && s.close.is_none())
                {
                    Ok(())
                } else {
                    bad("an unexpected season close")
                }
            }
            Event::FinalQualified { season, .. }
            | Event::FinalGamePlayed { season, .. }
            | Event::FinalWithdrawn { season, .. } => {
                if self
                    .current()
                    .is_some_and(|s| s.number() == *season && s.close.is_some())
                {
                    Ok(())
                } else {
                    bad("a final-round event outside a closed season")
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
                restrictions,
            } => {
                self.created = true;
                self.name = name.clone();
                self.rules = rules.clone();
                self.restrictions = restrictions.clone();
            }
            Event::PlayerRegistered { info, .. } => {
                self.players.push(info.clone());
                self.withdrawn.push(false);
            }
            Event::PlayerUpdated { player, info } => {
                if let Some(slot) = self.players.get_mut(player.index()) {
                    *slot = info.clone();
                }
            }
            Event::PlayerWithdrawn { player, .. } => {
                if let Some(w) = self.withdrawn.get_mut(player.index()) {
                    *w = true;
                }
            }
            Event::PlayerReturned { player } => {
                if let Some(w) = self.withdrawn.get_mut(player.index()) {
                    *w = false;
                }
            }
            Event::RestrictionsChanged { restrictions, .. } => {
                self.restrictions = restrictions.clone();
            }
            Event::SeasonCarriedOver(c) => {
                for p in &c.records.players {
                    self.players.push(p.info.clone());
                    self.withdrawn.push(p.withdrawn);
                }
                self.carried = Some(c.clone());
            }
            Event::SeasonPlanned(plan) => {
                self.reports.clear();
                let divisions = plan
                    .divisions
                    .iter()
                    .enumerate()
                    .map(|(d, groups)| {
                        groups
                            .iter()
                            .enumerate()
                            .map(|(k, players)| GroupState {
                                id: GroupId::of(d as Division, k as u32 + 1, groups.len()),
                                players: players.clone(),
                                games: group::round_robin(players)
                                    .into_iter()
                                    .map(|pairing| GroupGame {
                                        pairing,
                                        outcome: None,
                                    })
                                    .collect(),
                            })
                            .collect()
                    })
                    .collect();
                // Tiebreak records belong to the season they were made in
                // and the plan that follows it (ARB-R44).
                self.tiebreaks = Tiebreaks::default();
                self.seasons.push(Season {
                    plan: named(plan),
                    divisions,
                    close: None,
                    final_round: None,
                });
            }
            Event::ResultReported {
                black,
                white,
                outcome,
                by,
                at,
                ..
            } => {
                self.reports.insert(
                    (*black, *white),
                    Pending {
                        result: *outcome,
                        by: *by,
                        at: *at,
                    },
                );
            }
            Event::ResultConfirmed { black, white, .. }
            | Event::ReportDisputed { black, white, .. } => {
                self.reports.remove(&(*black, *white));
            }
            Event::ResultRecorded {
                group,
                black,
                white,
                outcome,
                ..
            }
            | Event::ResultCorrected {
                group,
                black,
                white,
                outcome,
                ..
            } => {
                // A result by any path settles the game's report (ARB-R45).
                self.reports.remove(&(*black, *white));
                if let Some(g) = self.seasons.last_mut().and_then(|s| s.group_mut(*group))
                    && let Some(x) = g
                        .games
                        .iter_mut()
                        .find(|x| x.pairing.black == *black && x.pairing.white == *white)
                {
                    x.outcome = Some(*outcome);
                }
            }
            Event::GaveWay { player } => {
                if !self.tiebreaks.gave_way.contains(player) {
                    self.tiebreaks.gave_way.push(*player);
                }
            }
            Event::LiveMatchWon { winner, loser } => {
                self.tiebreaks.live_matches.push((*winner, *loser));
            }
            Event::SeasonClosed(c) => {
                // Reports die with the season (ARB-R45).
                self.reports.clear();
                if let Some(s) = self.seasons.last_mut() {
                    s.close = Some((**c).clone());
                }
            }
            Event::FinalQualified {
                players,
                advantaged,
                void,
                ..
            } => {
                if let Some(s) = self.seasons.last_mut() {
                    let withdrawn = s
                        .final_round
                        .as_ref()
                        .map(|f| f.withdrawn.clone())
                        .unwrap_or_default();
                    s.final_round = Some(FinalRound {
                        players: players.clone(),
                        advantaged: advantaged.clone(),
                        void: *void,
                        withdrawn,
                        games: Vec::new(),
                    });
                }
            }
            Event::FinalGamePlayed {
                black,
                white,
                outcome,
                ..
            } => {
                if let Some(f) = self.seasons.last_mut().and_then(|s| s.final_round.as_mut()) {
                    f.games.push(FinalGame {
                        black: *black,
                        white: *white,
                        outcome: Some(*outcome),
                    });
                }
            }
            Event::FinalWithdrawn { player, .. } => {
                let requalified = {
                    let Some(s) = self.seasons.last() else { return };
                    let mut out: Vec<PlayerId> = s
                        .final_round
                        .as_ref()
                        .map(|f| f.withdrawn.clone())
                        .unwrap_or_default();
                    out.push(*player);
                    self.qualify(s, &out).ok().map(|q| (q, out))
                };
                if let (Some((q, out)), Some(s)) = (requalified, self.seasons.last_mut()) {
                    s.final_round = Some(FinalRound {
                        players: q.players,
                        advantaged: q.advantaged,
                        void: q.void.is_some(),
                        withdrawn: out,
                        games: Vec::new(),
                    });
                }
            }
            Event::Reverted { .. } => {}
        }
    }

    /// `id` named as season `season` names its groups (an event of an
    /// older log may say "B1" for the only group of B): see
    /// [`Season::named`].
    pub fn group_named(&self, season: u32, id: GroupId) -> GroupId {
        self.seasons
            .iter()
            .find(|s| s.number() == season)
            .map_or(id, |s| s.named(id))
    }

    /// "A: 14 players in 2 groups (7, 7)".
    pub fn describe_division(&self, s: &Season, d: usize) -> String {
        let groups = &s.divisions[d];
        let sizes: Vec<String> = groups.iter().map(|g| g.players.len().to_string()).collect();
        format!(
            "{}: {} players in {} group(s) ({})",
            division_letter(d as Division),
            groups.iter().map(|g| g.players.len()).sum::<usize>(),
            groups.len(),
            sizes.join(", ")
        )
    }
}

/// The plan with its groups named for their divisions ("Sunjang
/// Definitions: Group": the only group of a division by its letter alone):
/// a plan stored before groups were so named says "B1" for the only group
/// of B, and reads "B" like a new one. Where the automatic plan had a moved
/// player is kept as recorded (the record does not say how many groups the
/// automatic plan's division had).
fn named(plan: &SeasonPlan) -> SeasonPlan {
    let mut plan = plan.clone();
    let counts: Vec<usize> = plan.divisions.iter().map(Vec::len).collect();
    let name = |g: GroupId| match counts.get(g.division as usize) {
        Some(&n) if n > 0 => g.named_for(n),
        _ => g,
    };
    for p in &mut plan.placements {
        p.group = name(p.group);
    }
    for m in plan.layout.iter_mut().flat_map(|l| &mut l.moves) {
        m.placed = name(m.placed);
    }
    plan
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
