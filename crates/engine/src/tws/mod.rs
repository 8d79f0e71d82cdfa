//! The Twilight Struggle ladder (tws-ladder.txt and rulings TWS-R1..R11).
//!
//! - [`Ladder`] is the state: the order, the champion and his streak,
//!   members, applicants, the inactive list, eliminators, rounds and games.
//! - [`Command`]s are decided by [`Ladder::decide`] into [`Event`]s, which
//!   [`Ladder::apply`] folds into the state.
//! - Every decision is stored with a structured reason ([`SideReason`],
//!   [`PairingReason`], [`MoveReason`]) rendered by the `explain` functions.

pub mod carry;
mod decide;
pub mod explain;
pub mod possible;
pub mod ratings;
mod resort;
pub mod rules;
mod sides;
pub mod stats;

use std::collections::{BTreeMap, HashMap};

pub use carry::{CarriedLadder, CarriedMember, CarryError, CarryOver};
pub use rules::{Bid, LadderRules};
pub use sides::DrawRecheck;

use crate::draw::Seed;
use crate::model::{
    Adjudication, Counts, EndTag, GameId, GameResult, GameStatus, Links, Outcome, Participant,
    Player, PlayerId, Side, Time,
};

/// A ladder member's standing in the competition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Membership {
    /// Asked to join; waits for a moderator (TWS Joining the Ladder).
    Applicant,
    /// On the ladder.
    Member,
    /// On the list of inactive players (TWS Skipping Rounds; TWS-R4).
    Inactive,
    /// Not a member: an outside volunteer eliminator (TWS Pairings).
    Guest,
    /// The application was declined.
    Declined,
    /// Left the ladder.
    Withdrawn,
}

impl Membership {
    pub fn name(self) -> &'static str {
        match self {
            Membership::Applicant => "applicant",
            Membership::Member => "member",
            Membership::Inactive => "inactive",
            Membership::Guest => "guest",
            Membership::Declined => "declined",
            Membership::Withdrawn => "withdrawn",
        }
    }
}

/// How often a player has played each side, and the side of his last game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideCounts {
    pub ussr: u32,
    pub us: u32,
    pub last: Option<Side>,
    /// The game `last` was played in, when known.
    pub last_game: Option<GameId>,
}

impl SideCounts {
    pub fn record(&mut self, side: Side) {
        match side {
            Side::Ussr => self.ussr += 1,
            Side::Us => self.us += 1,
        }
        self.last = Some(side);
        self.last_game = None;
    }

    /// [`SideCounts::record`] a side played in `game`.
    pub fn record_game(&mut self, side: Side, game: GameId) {
        self.record(side);
        self.last_game = Some(game);
    }

    pub fn games(&self) -> u32 {
        self.ussr + self.us
    }

    /// |USSR games - US games|.
    pub fn imbalance(&self) -> u32 {
        self.ussr.abs_diff(self.us)
    }

    /// The side played least often, if one was.
    pub fn least_played(&self) -> Option<Side> {
        match self.ussr.cmp(&self.us) {
            std::cmp::Ordering::Less => Some(Side::Ussr),
            std::cmp::Ordering::Greater => Some(Side::Us),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Everything the ladder knows about one registered person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    pub player: Player,
    pub status: Membership,
    /// Order of entry among members (re-entry gets a new one).
    pub entry: u64,
    /// The round that was running when he last entered the ladder (TWS-R5).
    pub joined_during: Option<u32>,
    /// Consecutive rounds skipped (TWS-R2).
    pub skip_streak: u32,
    /// Consecutive rounds missed (TWS-R4).
    pub missed_streak: u32,
    /// Sides of all his games, quick rounds included.
    pub all_sides: SideCounts,
    /// Whether he volunteers as an eliminator.
    pub eliminator: bool,
    /// Whether he was ever approved onto the ladder.
    pub entered: bool,
}

/// A moderator of the ladder. `active` is false once removed; indexes stay
/// stable so games keep naming their moderator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moderator {
    pub name: String,
    pub active: bool,
}

/// Why two players were paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingReason {
    /// Adjacent among the players active in the round (TWS Pairings; TWS-R10).
    Adjacent { rungs: (u32, u32) },
    /// The odd last player against a volunteer eliminator (TWS-R10).
    Eliminator { rung: u32 },
    /// The moderator's exception, with his reason (TWS Pairings).
    Override { reason: String },
    /// A player who joined during the round, paired late (TWS-R5).
    Late { reason: String },
    /// A quick-round game (TWS Quick Rounds).
    QuickRound,
}

/// Why each player has his side (TWS Assignment of Sides).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideReason {
    /// Rule 1: the champion switches relative to his previous game.
    /// `game` is that game (absent in logs written before issue 15).
    ChampionSwitch {
        champion: PlayerId,
        last: Side,
        game: Option<GameId>,
    },
    /// Rule 2: both players can switch, so both do. `games` are the last
    /// games counted of the player now USSR and of the player now US
    /// (absent in logs written before issue 15).
    BothSwitch { games: Option<(GameId, GameId)> },
    /// TWS-R7: one player has no ladder game yet and takes either side; the
    /// other switches relative to his last game.
    NewcomerFlexible {
        newcomer: PlayerId,
        other: PlayerId,
        last: Side,
        game: Option<GameId>,
    },
    /// Rule 2: only one can switch; the more unbalanced player gets the side
    /// he played least often.
    MostUnbalanced {
        player: PlayerId,
        ussr: u32,
        us: u32,
        other_ussr: u32,
        other_us: u32,
    },
    /// Rule 2: equally unbalanced; the higher-rung player gets the side he
    /// played least often (TWS-R9).
    HigherRungLeastPlayed {
        player: PlayerId,
        ussr: u32,
        us: u32,
    },
    /// TWS-R8: equally unbalanced and both perfectly balanced; the
    /// higher-rung player switches relative to his last game.
    HigherRungSwitch {
        player: PlayerId,
        last: Side,
        game: Option<GameId>,
    },
    /// TWS-R7: neither has a ladder game; a recorded draw decided. `higher`
    /// (the higher-rung player) got `side`.
    Drawn {
        higher: PlayerId,
        side: Side,
        draw_index: u64,
    },
    /// ARB-R1: against an eliminator, the ladder player switches relative to
    /// his last ladder game (the eliminator's history does not count).
    EliminatorSwitch {
        player: PlayerId,
        last: Side,
        game: Option<GameId>,
    },
    /// ARB-R1 with TWS-R7: the ladder player has no ladder game yet; drawn.
    EliminatorDrawn {
        player: PlayerId,
        side: Side,
        draw_index: u64,
    },
    /// Quick rounds and other games whose sides the moderator set.
    Chosen,
}

/// A game as scheduled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledGame {
    pub id: GameId,
    pub ussr: Participant,
    pub us: Participant,
    /// Index into [`Ladder::moderators`].
    pub moderator: Option<u32>,
    pub sides: SideReason,
    pub pairing: PairingReason,
}

/// A game of the ladder: a round game or a quick-round game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub id: GameId,
    /// The ladder round, or `None` for a quick-round game.
    pub round: Option<u32>,
    pub ussr: Participant,
    pub us: Participant,
    pub bid: Bid,
    pub moderator: Option<u32>,
    pub deadline: Option<Time>,
    pub scheduled_at: Time,
    pub status: GameStatus,
    pub result: Option<GameResult>,
    pub sides: SideReason,
    pub pairing: PairingReason,
    /// How many times the result was corrected.
    pub corrections: u32,
    pub cancel_reason: Option<String>,
    /// The round whose re-sort the game counts in: its own round, or the
    /// next one when it was carried over (ARB-R21).
    pub counts_in: Option<u32>,
    /// A player's report of the result, awaiting the other player's or a
    /// moderator's confirmation (ARB-R45); cleared when the game is decided
    /// or cancelled, or the report is rejected.
    pub report: Option<Report>,
}

/// A result reported by one of the game's players, not yet confirmed
/// (ARB-R45).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub result: ResultInput,
    pub by: PlayerId,
    pub at: Time,
}

/// Who confirms or rejects a reported result (ARB-R45): the game's other
/// player, or a moderator of the ladder who does not play in the game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Confirmer {
    Player(PlayerId),
    Moderator(String),
}

impl Game {
    pub fn participants(&self) -> [Participant; 2] {
        [self.ussr, self.us]
    }

    pub fn has_player(&self, p: PlayerId) -> bool {
        self.ussr.player == p || self.us.player == p
    }

    pub fn side_of(&self, p: PlayerId) -> Option<Side> {
        if self.ussr.player == p {
            Some(Side::Ussr)
        } else if self.us.player == p {
            Some(Side::Us)
        } else {
            None
        }
    }

    pub fn participant(&self, side: Side) -> Participant {
        match side {
            Side::Ussr => self.ussr,
            Side::Us => self.us,
        }
    }

    /// The side that advances on the ladder (TWS-R11: a tie advances
    /// `tie_advances`), if the game has a result.
    pub fn advancing_side(&self, tie_advances: Side) -> Option<Side> {
        match self.result.as_ref()?.outcome {
            Outcome::Win(s) => Some(s),
            Outcome::Tie => Some(tie_advances),
        }
    }
}

/// A skip in an announced round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skip {
    pub player: PlayerId,
    /// His rung at the announcement.
    pub rung: u32,
    /// Which consecutive skip this is (1 = the first).
    pub consecutive: u32,
    /// Counted as a loss (TWS-R2).
    pub as_loss: bool,
}

/// How the round was paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingMethod {
    Adjacent,
    Override { reason: String },
}

/// The announcement of a round: every decision taken then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundAnnounced {
    pub round: u32,
    pub at: Time,
    pub deadline: Time,
    pub bid: Bid,
    pub pairing: PairingMethod,
    pub games: Vec<ScheduledGame>,
    pub skips: Vec<Skip>,
    /// Players with a bye, with their rung (TWS-R10).
    pub byes: Vec<(PlayerId, u32)>,
    /// The revealed seed of the round's draws.
    pub seed: Seed,
    /// The commitment for the next round's draws.
    pub next_seed_hash: [u8; 32],
}

/// Why a player moved where he did when a round closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveReason {
    /// Won (or advanced on a tie as the US, TWS-R11) his ladder game.
    Won { game: GameId, tie: bool },
    /// Lost his ladder game.
    Lost { game: GameId, tie: bool },
    /// Skipped: kept his rung number (TWS Skipping Rounds; TWS-R3).
    Skipped,
    /// Skipped from rung 1: reinserted at rung 2, streak broken (TWS-R3).
    SkippedTop,
    /// A consecutive skip counted as a loss (TWS-R2).
    SkipLoss { consecutive: u32 },
    /// Had a bye: kept his rung number like a skipper (TWS-R10).
    Bye,
    /// His game was cancelled: kept his rung number (ARB-R3).
    NoResult { game: GameId },
    /// Joined during the round and did not play: appended at the bottom in
    /// order of entry (TWS-R4, TWS-R5).
    Entered,
    /// His game was still being played when the moderator closed the round
    /// early to start the next one: he keeps his rung number, and the game
    /// counts in the next round (TWS Pairings; ARB-R21).
    CarriedOver { game: GameId },
}

/// One player's move at the close of a round. Rungs count from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub player: PlayerId,
    pub from: u32,
    pub to: u32,
    pub reason: MoveReason,
}

/// A player moved to the inactive list at the close of a round (TWS-R4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retirement {
    pub player: PlayerId,
    /// The bottom rung he occupied when removed.
    pub rung: u32,
    pub missed: u32,
}

/// The close of a round: the re-sort and everything it decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundClosed {
    pub round: u32,
    pub at: Time,
    /// The ladder after the round, rung 1 first.
    pub order: Vec<PlayerId>,
    /// Every member's move, in the order of the new ladder.
    pub moves: Vec<Move>,
    pub inactive: Vec<Retirement>,
    pub champion: Option<PlayerId>,
    /// The champion's streak of consecutive rounds at the top.
    pub streak: u32,
    /// Games still being played, carried over to count in the next round
    /// (a round closed early, ARB-R21); empty for a normal close.
    pub carried: Vec<GameId>,
    /// The moderator's reason for closing early, if he did.
    pub early: Option<String>,
}

/// A change of the rules, effective from a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesVersion {
    pub from_round: u32,
    pub rules: LadderRules,
    pub reason: String,
}

/// Everything that happens to a ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Created {
        name: String,
        rules: LadderRules,
        seed_hash: [u8; 32],
    },
    RulesChanged {
        from_round: u32,
        rules: LadderRules,
        reason: String,
    },
    ModeratorAdded {
        name: String,
    },
    ModeratorRemoved {
        name: String,
    },
    PlayerApplied {
        player: PlayerId,
        name: String,
        surname: String,
    },
    PlayerApproved {
        player: PlayerId,
    },
    PlayerDeclined {
        player: PlayerId,
        reason: String,
    },
    GuestRegistered {
        player: PlayerId,
        name: String,
        surname: String,
    },
    PlayerReentered {
        player: PlayerId,
    },
    PlayerWithdrawn {
        player: PlayerId,
        reason: String,
    },
    EliminatorVolunteered {
        player: PlayerId,
    },
    EliminatorStoodDown {
        player: PlayerId,
    },
    SkipRequested {
        player: PlayerId,
        round: u32,
    },
    SkipCancelled {
        player: PlayerId,
        round: u32,
    },
    RoundAnnounced(Box<RoundAnnounced>),
    GameAdded {
        round: u32,
        at: Time,
        game: ScheduledGame,
    },
    QuickGameScheduled {
        at: Time,
        game: ScheduledGame,
    },
    ResultRecorded {
        game: GameId,
        result: GameResult,
    },
    ResultCorrected {
        game: GameId,
        result: GameResult,
        reason: String,
    },
    GameCancelled {
        game: GameId,
        at: Time,
        reason: String,
    },
    /// One of the game's players reports its result (ARB-R45); it waits for
    /// the other player or a moderator to confirm it. A later report
    /// replaces it.
    ResultReported {
        game: GameId,
        result: ResultInput,
        by: PlayerId,
        at: Time,
    },
    /// The pending report is confirmed (ARB-R45); the `ResultRecorded` that
    /// follows it in the same append records the result.
    ResultConfirmed {
        game: GameId,
        by: Confirmer,
        at: Time,
    },
    /// The pending report is disputed and cleared (ARB-R45): the players
    /// report again or the moderator decides.
    ReportRejected {
        game: GameId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    RoundClosed(Box<RoundClosed>),
    /// The account `account` plays as `player` (ARB-R50): recorded with an
    /// application made from that account (it takes effect with the
    /// moderator's approval), or by a moderator's explicit link.
    AccountLinked {
        player: PlayerId,
        account: String,
    },
    /// A moderator ends the link of `account` to `player` (ARB-R50).
    AccountUnlinked {
        player: PlayerId,
        account: String,
    },
    /// A running ladder carried over from earlier records (issue 18 §1,
    /// ARB-R72): its members get the ids 1, 2, ... in the order of the
    /// records, members first, then the inactive list.
    CarriedOver(Box<CarryOver>),
    /// The ladder's times are shown, and days given without a time read,
    /// in `zone` (ARB-R82).
    TimeZoneSet {
        zone: crate::zone::TimeZone,
    },
    /// Undo: the event `seq` no longer counts. Folds skip reverted events
    /// (see [`fold`]).
    Reverted {
        seq: u64,
        summary: String,
    },
}

impl Event {
    /// A short machine name of the event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "created",
            Event::RulesChanged { .. } => "rules-changed",
            Event::ModeratorAdded { .. } => "moderator-added",
            Event::ModeratorRemoved { .. } => "moderator-removed",
            Event::PlayerApplied { .. } => "player-applied",
            Event::PlayerApproved { .. } => "player-approved",
            Event::PlayerDeclined { .. } => "player-declined",
            Event::GuestRegistered { .. } => "guest-registered",
            Event::PlayerReentered { .. } => "player-reentered",
            Event::PlayerWithdrawn { .. } => "player-withdrawn",
            Event::AccountLinked { .. } => "account-linked",
            Event::AccountUnlinked { .. } => "account-unlinked",
            Event::TimeZoneSet { .. } => "time-zone-set",
            Event::EliminatorVolunteered { .. } => "eliminator-volunteered",
            Event::EliminatorStoodDown { .. } => "eliminator-stood-down",
            Event::SkipRequested { .. } => "skip-requested",
            Event::SkipCancelled { .. } => "skip-cancelled",
            Event::RoundAnnounced(_) => "round-announced",
            Event::GameAdded { .. } => "game-added",
            Event::QuickGameScheduled { .. } => "quick-game-scheduled",
            Event::ResultRecorded { .. } => "result-recorded",
            Event::ResultCorrected { .. } => "result-corrected",
            Event::GameCancelled { .. } => "game-cancelled",
            Event::ResultReported { .. } => "result-reported",
            Event::ResultConfirmed { .. } => "result-confirmed",
            Event::ReportRejected { .. } => "report-rejected",
            Event::RoundClosed(_) => "round-closed",
            Event::CarriedOver(_) => "carried-over",
            Event::Reverted { .. } => "reverted",
        }
    }
}

/// How a pairing is made when a round is announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingPlan {
    /// Adjacent among the active players (TWS-R10); the odd last player
    /// meets `eliminator` (or the first volunteer) or has a bye.
    Default { eliminator: Option<PlayerId> },
    /// The moderator's exception (TWS Pairings): the complete list of pairs
    /// and byes, with the reason recorded. A pair may name a volunteer
    /// eliminator as the second player.
    Override {
        pairs: Vec<(PlayerId, PlayerId)>,
        byes: Vec<PlayerId>,
        reason: String,
    },
}

/// A result as reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultInput {
    pub outcome: Outcome,
    pub ended_by: EndTag,
    pub vp: Option<i32>,
    pub turn: Option<u8>,
    pub note: Option<String>,
}

impl ResultInput {
    /// The result as recorded, with its status and adjudication record.
    pub fn into_result(
        self,
        status: GameStatus,
        adjudication: Option<Adjudication>,
        at: Time,
    ) -> GameResult {
        GameResult {
            outcome: self.outcome,
            ended_by: self.ended_by,
            vp: self.vp,
            turn: self.turn,
            note: self.note,
            status,
            adjudication,
            at,
        }
    }
}

/// What a moderator or player asks the ladder to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Create {
        name: String,
        rules: LadderRules,
        seed_hash: [u8; 32],
    },
    /// Change the rules from round `from_round` (default: the next round to
    /// be announced). TWS Play Balance: a change "must be announced prior to
    /// the commencement of a round in order to apply to that round".
    ChangeRules {
        rules: LadderRules,
        from_round: Option<u32>,
        reason: String,
    },
    AddModerator {
        name: String,
    },
    RemoveModerator {
        name: String,
    },
    /// Ask to join (TWS Joining the Ladder). `surname` defaults to the last
    /// word of `name`.
    Apply {
        name: String,
        surname: Option<String>,
    },
    /// A moderator approves an application: the player enters at the bottom.
    Approve {
        player: PlayerId,
    },
    Decline {
        player: PlayerId,
        reason: String,
    },
    /// Apply and approve at once (a moderator adding a player).
    Join {
        name: String,
        surname: Option<String>,
    },
    /// Register an outsider who volunteers as eliminator.
    RegisterGuest {
        name: String,
        surname: Option<String>,
    },
    /// An inactive player re-enters at the bottom (TWS Skipping Rounds).
    Reenter {
        player: PlayerId,
    },
    Withdraw {
        player: PlayerId,
        reason: String,
    },
    VolunteerEliminator {
        player: PlayerId,
    },
    StandDownEliminator {
        player: PlayerId,
    },
    /// Skip a round (default: the next round to be announced).
    RequestSkip {
        player: PlayerId,
        round: Option<u32>,
    },
    CancelSkip {
        player: PlayerId,
        round: Option<u32>,
    },
    AnnounceRound {
        at: Time,
        /// A deadline earlier than the limit, if the moderator sets one.
        deadline: Option<Time>,
        plan: PairingPlan,
        seed: Seed,
        next_seed_hash: [u8; 32],
    },
    /// Pair a player in the running round after its start (TWS-R5), usually
    /// a new member against an eliminator.
    AddRoundGame {
        player: PlayerId,
        opponent: PlayerId,
        reason: String,
        at: Time,
    },
    ScheduleQuickGame {
        ussr: PlayerId,
        us: PlayerId,
        at: Time,
    },
    /// A result. `agreed` marks an outcome the players agreed on after the
    /// deadline (TWS Conduct of Games).
    RecordResult {
        game: GameId,
        result: ResultInput,
        agreed: bool,
        at: Time,
    },
    /// A player did not play: the other wins by forfeit.
    Forfeit {
        game: GameId,
        absent: PlayerId,
        note: Option<String>,
        at: Time,
    },
    /// The moderator's decision on an overdue game, with its record.
    Adjudicate {
        game: GameId,
        outcome: Outcome,
        vp: Option<i32>,
        turn: Option<u8>,
        record: Adjudication,
        at: Time,
    },
    CorrectResult {
        game: GameId,
        result: ResultInput,
        reason: String,
        at: Time,
    },
    CancelGame {
        game: GameId,
        reason: String,
        at: Time,
    },
    /// One of the game's two players reports its result (ARB-R45). The
    /// other player's report of the same result confirms it.
    ReportResult {
        game: GameId,
        result: ResultInput,
        by: PlayerId,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// confirms the pending report: the result is recorded (ARB-R45).
    ConfirmResult {
        game: GameId,
        by: Confirmer,
        at: Time,
    },
    /// The other player, or a moderator who does not play in the game,
    /// disputes the pending report, which is cleared (ARB-R45).
    RejectReport {
        game: GameId,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    CloseRound {
        at: Time,
    },
    /// Close the round before its last games are decided, to start the next
    /// one (TWS Pairings: "to initiate a round prior to the completion of a
    /// previous round"): the unfinished games are carried over and count in
    /// the next round (ARB-R21).
    CloseRoundEarly {
        at: Time,
        reason: String,
    },
    /// Carry a running ladder over from earlier records (issue 18 §1,
    /// ARB-R72): only before any player is registered and any round
    /// announced. `by` is the moderator who entered them.
    CarryOver {
        records: CarriedLadder,
        source: String,
        by: String,
        at: Time,
    },
    /// Undo event `seq` (which must be the last event still in force).
    Revert {
        seq: u64,
        summary: String,
    },
    /// A moderator links `account` to `player` (ARB-R50).
    LinkAccount {
        player: PlayerId,
        account: String,
    },
    /// A moderator ends the link of `player`'s account (ARB-R50).
    UnlinkAccount {
        player: PlayerId,
    },
    /// A moderator sets the ladder's time zone, an IANA name (ARB-R82).
    SetTimeZone {
        zone: String,
    },
    /// `command` (an application, a moderator's `Join` or a guest's
    /// registration) for `account`: the new player's events and the link
    /// of the account to him, in one append (ARB-R50). An applicant has no
    /// rights from the link until a moderator approves him.
    Linked {
        account: String,
        command: Box<Command>,
    },
}

impl Command {
    /// The command with every time in it (`at`) set to the Unix epoch: what
    /// the command asks for, apart from when it was asked. A retry of a
    /// request at a later time is the same request (idempotency keys compare
    /// requests this way). Deadlines and other times the command is about
    /// are kept.
    /// The time the command says it happens at, if it carries one.
    pub fn at(&self) -> Option<Time> {
        match self {
            Command::AnnounceRound { at, .. }
            | Command::AddRoundGame { at, .. }
            | Command::ScheduleQuickGame { at, .. }
            | Command::RecordResult { at, .. }
            | Command::Forfeit { at, .. }
            | Command::Adjudicate { at, .. }
            | Command::CorrectResult { at, .. }
            | Command::CancelGame { at, .. }
            | Command::ReportResult { at, .. }
            | Command::ConfirmResult { at, .. }
            | Command::RejectReport { at, .. }
            | Command::CloseRound { at }
            | Command::CloseRoundEarly { at, .. }
            | Command::CarryOver { at, .. } => Some(*at),
            Command::Linked { command, .. } => command.at(),
            _ => None,
        }
    }

    pub fn without_time(&self) -> Command {
        let mut command = self.clone();
        match &mut command {
            Command::AnnounceRound { at, .. }
            | Command::AddRoundGame { at, .. }
            | Command::ScheduleQuickGame { at, .. }
            | Command::RecordResult { at, .. }
            | Command::Forfeit { at, .. }
            | Command::Adjudicate { at, .. }
            | Command::CorrectResult { at, .. }
            | Command::CancelGame { at, .. }
            | Command::ReportResult { at, .. }
            | Command::ConfirmResult { at, .. }
            | Command::RejectReport { at, .. }
            | Command::CloseRound { at }
            | Command::CloseRoundEarly { at, .. }
            | Command::CarryOver { at, .. } => *at = Time::UNIX_EPOCH,
            // Listed, not `_`, so that a new variant with a time is not
            // forgotten here.
            Command::Create { .. }
            | Command::ChangeRules { .. }
            | Command::AddModerator { .. }
            | Command::RemoveModerator { .. }
            | Command::Apply { .. }
            | Command::Approve { .. }
            | Command::Decline { .. }
            | Command::Join { .. }
            | Command::RegisterGuest { .. }
            | Command::Reenter { .. }
            | Command::Withdraw { .. }
            | Command::VolunteerEliminator { .. }
            | Command::StandDownEliminator { .. }
            | Command::RequestSkip { .. }
            | Command::CancelSkip { .. }
            | Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. }
            | Command::Revert { .. } => {}
            Command::Linked { command: inner, .. } => **inner = inner.without_time(),
        }
        command
    }
}

/// A round as the state knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub announced_at: Time,
    pub deadline: Time,
    pub bid: Bid,
    pub pairing: PairingMethod,
    pub games: Vec<GameId>,
    pub skips: Vec<Skip>,
    pub byes: Vec<(PlayerId, u32)>,
    pub seed: Seed,
    /// The ladder when the round was announced.
    pub order_at_start: Vec<PlayerId>,
    pub closed: Option<Box<RoundClosed>>,
}

/// The state of a ladder: a fold of its events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ladder {
    pub name: String,
    pub created: bool,
    /// Rules versions in order; the first is from round 1.
    pub rules: Vec<RulesVersion>,
    pub moderators: Vec<Moderator>,
    pub players: Vec<PlayerRecord>,
    by_name: HashMap<String, PlayerId>,
    /// The ladder, rung 1 first.
    pub order: Vec<PlayerId>,
    /// The list of inactive players, in order of removal.
    pub inactive: Vec<PlayerId>,
    pub champion: Option<PlayerId>,
    pub streak: u32,
    /// Which account plays as which player (ARB-R50).
    pub links: Links,
    /// The ladder's time zone (ARB-R82): UTC until one is set.
    pub zone: crate::zone::TimeZone,
    pub rounds: Vec<Round>,
    pub games: Vec<Game>,
    /// Skips requested for rounds not yet announced.
    pub skip_requests: BTreeMap<u32, Vec<PlayerId>>,
    /// Games of a round closed early that count in the next round (ARB-R21).
    pub carried: Vec<GameId>,
    /// The commitment of the next round's draw seed.
    pub seed_hash: [u8; 32],
    /// The records the ladder was carried over from, if it was (issue 18
    /// §1): explanations that use their figures cite them.
    pub carried_over: Option<Box<CarryOver>>,
    next_entry: u64,
    /// Each player's side histories for assigning sides, dense by player
    /// index: `[ladder games only, ladder and quick-round games]` (TWS-R6
    /// and its configurable reading). Both are kept so that the setting in
    /// force at an assignment decides which recorded games count, whatever
    /// it was when each game was recorded (issue 15). Announcing a round
    /// reads every member's, and a compact table keeps that read in cache.
    /// Read it with [`Ladder::side_history`].
    side_table: Vec<[SideCounts; 2]>,
}

/// Fold events into a ladder, skipping reverted ones (undo).
/// `events` are (sequence, event) pairs in order.
pub fn fold<'a>(events: impl IntoIterator<Item = (u64, &'a Event)> + Clone) -> Ladder {
    let reverted: std::collections::HashSet<u64> = events
        .clone()
        .into_iter()
        .filter_map(|(_, e)| match e {
            Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        })
        .collect();
    let mut ladder = Ladder::default();
    for (seq, e) in events {
        if !reverted.contains(&seq) {
            ladder.apply(e);
        }
    }
    ladder
}

/// Words separated by single spaces ("  Ben   Carter " is "Ben Carter").
pub(crate) fn single_spaced(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How names are compared: the one normalization of every format
/// (ARB-R22, ARB-R62).
fn name_key(name: &str) -> String {
    crate::model::name_key(name)
}

impl crate::zone::Zoned for Ladder {
    fn zone(&self) -> crate::zone::TimeZone {
        self.zone
    }
}

impl crate::model::Linked for Ladder {
    fn links(&self) -> &Links {
        &self.links
    }

    fn account_player(&self, account: &str) -> Option<PlayerId> {
        Ladder::account_player(self, account)
    }
}

impl Ladder {
    /// The player `account` acts as, if it may (ARB-R50): linked to him by
    /// an event, and a member, an inactive member or a guest — an
    /// applicant waits for a moderator's approval, and a declined or
    /// withdrawn player acts no more.
    pub fn account_player(&self, account: &str) -> Option<PlayerId> {
        self.links.player_of(account).filter(|p| {
            self.player(*p).is_some_and(|r| {
                matches!(
                    r.status,
                    Membership::Member | Membership::Inactive | Membership::Guest
                )
            })
        })
    }

    pub fn player(&self, id: PlayerId) -> Option<&PlayerRecord> {
        id.0.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
    }

    /// The player's display name, or his id if unknown.
    pub fn name_of(&self, id: PlayerId) -> String {
        self.player(id)
            .map_or_else(|| id.to_string(), |p| p.player.name.clone())
    }

    pub fn surname_of(&self, id: PlayerId) -> String {
        self.player(id)
            .map_or_else(|| id.to_string(), |p| p.player.surname.clone())
    }

    /// Find a player by exact name (case-insensitive).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        self.by_name.get(&name_key(name)).copied()
    }

    pub fn game(&self, id: GameId) -> Option<&Game> {
        id.0.checked_sub(1).and_then(|i| self.games.get(i as usize))
    }

    /// The rules in force for round `round`.
    pub fn rules_for(&self, round: u32) -> &LadderRules {
        self.rules
            .iter()
            .rev()
            .find(|v| v.from_round <= round)
            .or(self.rules.first())
            .map_or_else(|| default_rules(), |v| &v.rules)
    }

    /// The rules for the next round to be announced.
    pub fn current_rules(&self) -> &LadderRules {
        self.rules_for(self.next_round_number())
    }

    pub fn last_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// The announced round that is not closed yet.
    pub fn open_round(&self) -> Option<&Round> {
        self.rounds.last().filter(|r| r.closed.is_none())
    }

    pub fn next_round_number(&self) -> u32 {
        // A ladder carried over continues from its records' round (ARB-R72).
        let first = self
            .carried_over
            .as_ref()
            .map_or(1, |c| c.records.next_round);
        self.rounds.last().map_or(first, |r| r.number + 1)
    }

    /// Rung of `player` (1-based), if on the ladder. O(n).
    pub fn rung_of(&self, player: PlayerId) -> Option<u32> {
        self.order
            .iter()
            .position(|p| *p == player)
            .map(|i| i as u32 + 1)
    }

    /// The name of a game: "Ladder Round N USSRSurname v. USSurname" (TWS
    /// Conduct of Games).
    pub fn game_name(&self, game: &Game) -> String {
        let ussr = self.surname_of(game.ussr.player);
        let us = self.surname_of(game.us.player);
        match game.round {
            Some(n) => {
                let prefix = &self.rules_for(n).game_name_prefix;
                format!("{prefix} {n} {ussr} v. {us}")
            }
            None => {
                let prefix = &self.current_rules().quick_round_prefix;
                format!("{prefix} {ussr} v. {us}")
            }
        }
    }

    pub fn moderator_name(&self, index: Option<u32>) -> Option<&str> {
        index
            .and_then(|i| self.moderators.get(i as usize))
            .map(|m| m.name.as_str())
    }

    /// Ladder games a player took part in (as counting for him), newest last.
    pub fn games_of(&self, player: PlayerId) -> impl Iterator<Item = &Game> {
        self.games.iter().filter(move |g| g.has_player(player))
    }

    /// The members who joined during the open round and are not yet paired.
    pub fn unpaired_members(&self) -> Vec<PlayerId> {
        let Some(round) = self.open_round() else {
            return Vec::new();
        };
        let mut busy = vec![false; self.players.len()];
        for g in &round.games {
            if let Some(game) = self.game(*g) {
                for p in game.participants() {
                    busy[p.player.index()] = true;
                }
            }
        }
        for s in &round.skips {
            busy[s.player.index()] = true;
        }
        for (b, _) in &round.byes {
            busy[b.index()] = true;
        }
        self.order
            .iter()
            .copied()
            .filter(|p| !busy[p.index()])
            .collect()
    }

    /// Fold one event into the state. Events come from [`Ladder::decide`]
    /// (or the log) and are trusted: apply never refuses.
    pub fn apply(&mut self, event: &Event) {
        // A log written by `decide` always passes; a damaged or forged one
        // must not make a fold panic (see `check`).
        let _ = self.try_apply(event);
    }

    /// [`Ladder::apply`], saying when the event does not fit the state (and
    /// was ignored): what a fold of a stored log uses to report damage.
    pub fn try_apply(&mut self, event: &Event) -> Result<(), crate::RuleError> {
        self.check(event)?;
        self.apply_checked(event);
        Ok(())
    }

    fn apply_checked(&mut self, event: &Event) {
        match event {
            Event::Created {
                name,
                rules,
                seed_hash,
            } => {
                self.name = name.clone();
                self.created = true;
                self.rules = vec![RulesVersion {
                    from_round: 1,
                    rules: rules.clone(),
                    reason: "created".into(),
                }];
                self.seed_hash = *seed_hash;
            }
            Event::RulesChanged {
                from_round,
                rules,
                reason,
            } => {
                self.rules.retain(|v| v.from_round < *from_round);
                self.rules.push(RulesVersion {
                    from_round: *from_round,
                    rules: rules.clone(),
                    reason: reason.clone(),
                });
            }
            Event::ModeratorAdded { name } => {
                if let Some(m) = self
                    .moderators
                    .iter_mut()
                    .find(|m| name_key(&m.name) == name_key(name))
                {
                    m.active = true;
                } else {
                    self.moderators.push(Moderator {
                        name: name.clone(),
                        active: true,
                    });
                }
            }
            Event::ModeratorRemoved { name } => {
                for m in &mut self.moderators {
                    if name_key(&m.name) == name_key(name) {
                        m.active = false;
                    }
                }
            }
            Event::PlayerApplied {
                player,
                name,
                surname,
            } => self.register(*player, name, surname, Membership::Applicant),
            Event::GuestRegistered {
                player,
                name,
                surname,
            } => self.register(*player, name, surname, Membership::Guest),
            Event::PlayerApproved { player } | Event::PlayerReentered { player } => {
                self.enter(*player);
            }
            Event::PlayerDeclined { player, .. } => {
                if let Some(p) = self.player_mut(*player) {
                    p.status = Membership::Declined;
                }
            }
            Event::PlayerWithdrawn { player, .. } => {
                if self.champion == Some(*player) {
                    self.champion = None;
                    self.streak = 0;
                }
                self.order.retain(|p| p != player);
                self.inactive.retain(|p| p != player);
                for list in self.skip_requests.values_mut() {
                    list.retain(|p| p != player);
                }
                if let Some(p) = self.player_mut(*player) {
                    p.status = Membership::Withdrawn;
                    p.eliminator = false;
                }
            }
            Event::AccountLinked { player, account } => self.links.link(account, *player),
            Event::AccountUnlinked { player, .. } => self.links.unlink(*player),
            Event::TimeZoneSet { zone } => self.zone = *zone,
            Event::EliminatorVolunteered { player } => {
                if let Some(p) = self.player_mut(*player) {
                    p.eliminator = true;
                }
            }
            Event::EliminatorStoodDown { player } => {
                if let Some(p) = self.player_mut(*player) {
                    p.eliminator = false;
                }
            }
            Event::SkipRequested { player, round } => {
                let list = self.skip_requests.entry(*round).or_default();
                if !list.contains(player) {
                    list.push(*player);
                }
            }
            Event::SkipCancelled { player, round } => {
                if let Some(list) = self.skip_requests.get_mut(round) {
                    list.retain(|p| p != player);
                }
            }
            Event::RoundAnnounced(a) => self.apply_announced(a),
            Event::GameAdded { round, at, game } => {
                let (bid, deadline) = self
                    .rounds
                    .iter()
                    .find(|r| r.number == *round)
                    .map_or((self.rules_for(*round).bid, None), |r| {
                        (r.bid, Some(r.deadline))
                    });
                self.push_game(game, Some(*round), bid, deadline, *at);
                if let Some(r) = self.rounds.iter_mut().find(|r| r.number == *round) {
                    r.games.push(game.id);
                }
            }
            Event::QuickGameScheduled { at, game } => {
                let bid = self.current_rules().bid;
                self.push_game(game, None, bid, None, *at);
            }
            Event::ResultRecorded { game, result } => {
                if let Some(g) = self.game_mut(*game) {
                    g.status = result.status;
                    g.result = Some(result.clone());
                    g.report = None;
                    let parts = g.participants();
                    for p in parts {
                        let counts = p.counts;
                        if let Some(rec) = self.player_mut(p.player) {
                            rec.all_sides.record_game(p.side, *game);
                            if let Some([ladder, all]) = self.side_table.get_mut(p.player.index()) {
                                if counts == Counts::Ladder {
                                    ladder.record_game(p.side, *game);
                                }
                                all.record_game(p.side, *game);
                            }
                        }
                    }
                }
            }
            Event::ResultCorrected { game, result, .. } => {
                if let Some(g) = self.game_mut(*game) {
                    g.status = result.status;
                    g.result = Some(result.clone());
                    g.corrections += 1;
                    g.report = None;
                }
            }
            Event::GameCancelled { game, reason, .. } => {
                if let Some(g) = self.game_mut(*game) {
                    g.status = GameStatus::Cancelled;
                    g.cancel_reason = Some(reason.clone());
                    g.report = None;
                }
            }
            Event::ResultReported {
                game,
                result,
                by,
                at,
            } => {
                if let Some(g) = self.game_mut(*game) {
                    g.report = Some(Report {
                        result: result.clone(),
                        by: *by,
                        at: *at,
                    });
                }
            }
            Event::ResultConfirmed { game, .. } | Event::ReportRejected { game, .. } => {
                if let Some(g) = self.game_mut(*game) {
                    g.report = None;
                }
            }
            Event::RoundClosed(c) => self.apply_closed(c),
            Event::CarriedOver(c) => self.apply_carried(c),
            Event::Reverted { .. } => {}
        }
    }

    /// Whether `event` can follow this state: every player, game and round
    /// it names exists (new players get the next id). Events from `decide`
    /// always pass; a log read from storage or an import is checked with
    /// this before it is trusted, and [`Ladder::apply`] ignores an event
    /// that fails, so no input makes a fold panic.
    pub fn check(&self, event: &Event) -> Result<(), crate::RuleError> {
        let bad = |what: String| Err(crate::RuleError::new("Arbiter", what));
        let player_ok = |p: &PlayerId| self.player(*p).is_some();
        let next_player = PlayerId(self.players.len() as u32 + 1);
        let next_game = self.games.len() as u32 + 1;
        let game_ok = |g: &GameId| self.game(*g).is_some();
        let scheduled_ok = |g: &ScheduledGame, id: u32| {
            g.id.0 == id && player_ok(&g.ussr.player) && player_ok(&g.us.player)
        };
        if !self.created && !matches!(event, Event::Created { .. }) {
            return bad(format!(
                "{} before the competition was created",
                event.kind()
            ));
        }
        let ok = match event {
            Event::Created { .. } => !self.created,
            Event::PlayerApplied { player, .. } | Event::GuestRegistered { player, .. } => {
                // A new id, or an applicant who withdrew or was declined
                // applying again (ARB-R16).
                *player == next_player
                    || self.player(*player).is_some_and(|p| {
                        !p.entered
                            && matches!(p.status, Membership::Withdrawn | Membership::Declined)
                    })
            }
            Event::PlayerApproved { player }
            | Event::PlayerDeclined { player, .. }
            | Event::PlayerReentered { player }
            | Event::PlayerWithdrawn { player, .. }
            | Event::EliminatorVolunteered { player }
            | Event::EliminatorStoodDown { player }
            | Event::SkipRequested { player, .. }
            | Event::SkipCancelled { player, .. } => player_ok(player),
            Event::AccountLinked { player, account } => {
                player_ok(player) && crate::model::account_name(account).is_ok()
            }
            Event::AccountUnlinked { player, .. } => player_ok(player),
            Event::TimeZoneSet { .. } => true,
            Event::RoundAnnounced(a) => {
                a.round == self.next_round_number()
                    && a.games
                        .iter()
                        .enumerate()
                        .all(|(i, g)| scheduled_ok(g, next_game + i as u32))
                    && a.skips.iter().all(|s| player_ok(&s.player))
                    && a.byes.iter().all(|(p, _)| player_ok(p))
            }
            Event::GameAdded { round, game, .. } => {
                self.open_round().is_some_and(|r| r.number == *round)
                    && scheduled_ok(game, next_game)
            }
            Event::QuickGameScheduled { game, .. } => scheduled_ok(game, next_game),
            Event::ResultRecorded { game, .. }
            | Event::ResultCorrected { game, .. }
            | Event::GameCancelled { game, .. } => game_ok(game),
            // A report names one of the game's players; a confirmation or
            // rejection follows a pending report.
            Event::ResultReported { game, by, .. } => {
                self.game(*game).is_some_and(|g| g.has_player(*by))
            }
            Event::ResultConfirmed { game, by, .. } | Event::ReportRejected { game, by, .. } => {
                self.game(*game).is_some_and(|g| g.report.is_some())
                    && match by {
                        Confirmer::Player(p) => player_ok(p),
                        Confirmer::Moderator(_) => true,
                    }
            }
            Event::RoundClosed(c) => {
                self.open_round().is_some_and(|r| r.number == c.round)
                    && c.order.iter().all(player_ok)
                    && c.moves.iter().all(|m| player_ok(&m.player))
                    && c.inactive.iter().all(|r| player_ok(&r.player))
                    && c.champion.as_ref().is_none_or(player_ok)
                    && c.carried.iter().all(game_ok)
            }
            // ARB-R72: into a ladder with nobody registered and no round.
            Event::CarriedOver(c) => {
                self.players.is_empty()
                    && self.rounds.is_empty()
                    && self.carried_over.is_none()
                    && c.records.next_round >= 1
            }
            Event::RulesChanged { .. }
            | Event::ModeratorAdded { .. }
            | Event::ModeratorRemoved { .. }
            | Event::Reverted { .. } => true,
        };
        if ok {
            Ok(())
        } else {
            bad(format!(
                "event {} names a player, game or round this competition does not have",
                event.kind()
            ))
        }
    }

    fn rules_for_game(&self, game: GameId) -> &LadderRules {
        match self.game(game).and_then(|g| g.round) {
            Some(n) => self.rules_for(n),
            None => self.current_rules(),
        }
    }

    fn register(&mut self, player: PlayerId, name: &str, surname: &str, status: Membership) {
        // ARB-R16: a former applicant applies again under his own id.
        if let Some(p) = self.player_mut(player) {
            let old = name_key(&p.player.name);
            p.player.name = name.to_string();
            p.player.surname = surname.to_string();
            p.status = status;
            self.by_name.remove(&old);
            self.by_name.insert(name_key(name), player);
            return;
        }
        // Ids are dense; the decider hands out players.len() + 1.
        if player.index() != self.players.len() {
            return;
        }
        self.by_name.insert(name_key(name), player);
        self.players.push(PlayerRecord {
            player: Player {
                id: player,
                name: name.to_string(),
                surname: surname.to_string(),
            },
            status,
            entry: 0,
            joined_during: None,
            skip_streak: 0,
            missed_streak: 0,
            all_sides: SideCounts::default(),
            eliminator: false,
            entered: false,
        });
        self.side_table.push([SideCounts::default(); 2]);
    }

    /// Enter at the bottom, in order of entry (TWS Change of Ladder
    /// Standings; TWS-R5 during a round).
    fn enter(&mut self, player: PlayerId) {
        let during = self.open_round().map(|r| r.number);
        let entry = self.next_entry;
        let Some(p) = self.player_mut(player) else {
            return;
        };
        let was = p.status;
        if was == Membership::Member {
            return;
        }
        p.status = Membership::Member;
        p.entered = true;
        p.entry = entry;
        p.joined_during = during;
        p.skip_streak = 0;
        p.missed_streak = 0;
        self.next_entry += 1;
        if was == Membership::Inactive {
            self.inactive.retain(|q| *q != player);
        }
        self.order.push(player);
    }

    fn player_mut(&mut self, id: PlayerId) -> Option<&mut PlayerRecord> {
        id.0.checked_sub(1)
            .and_then(|i| self.players.get_mut(i as usize))
    }

    fn game_mut(&mut self, id: GameId) -> Option<&mut Game> {
        id.0.checked_sub(1)
            .and_then(|i| self.games.get_mut(i as usize))
    }

    fn push_game(
        &mut self,
        g: &ScheduledGame,
        round: Option<u32>,
        bid: Bid,
        deadline: Option<Time>,
        at: Time,
    ) {
        self.games.push(Game {
            id: g.id,
            round,
            ussr: g.ussr,
            us: g.us,
            bid,
            moderator: g.moderator,
            deadline,
            scheduled_at: at,
            status: GameStatus::Scheduled,
            result: None,
            sides: g.sides.clone(),
            pairing: g.pairing.clone(),
            corrections: 0,
            cancel_reason: None,
            counts_in: round,
            report: None,
        });
    }

    fn apply_announced(&mut self, a: &RoundAnnounced) {
        self.games.reserve(a.games.len());
        for g in &a.games {
            self.push_game(g, Some(a.round), a.bid, Some(a.deadline), a.at);
        }
        self.skip_requests.remove(&a.round);
        self.seed_hash = a.next_seed_hash;
        let mut carried = std::mem::take(&mut self.carried);
        // A carried game called off before the announcement stays in its
        // own round; its players were paired again (ARB-R21).
        carried.retain(|g| {
            self.game(*g)
                .is_some_and(|g| g.status != GameStatus::Cancelled)
        });
        for g in &carried {
            if let Some(game) = self.game_mut(*g) {
                game.counts_in = Some(a.round);
            }
        }
        self.rounds.push(Round {
            number: a.round,
            announced_at: a.at,
            deadline: a.deadline,
            bid: a.bid,
            pairing: a.pairing.clone(),
            games: a.games.iter().map(|g| g.id).chain(carried).collect(),
            skips: a.skips.clone(),
            byes: a.byes.clone(),
            seed: a.seed,
            order_at_start: self.order.clone(),
            closed: None,
        });
    }

    /// The state the carried records stand for (ARB-R72): each member
    /// registered and entered in ladder order with his side history (both
    /// tables: TWS-R6 and its configurable reading count the carried
    /// games alike), skip streak and missed rounds; the inactive players
    /// registered on the inactive list; rung 1 the champion with his
    /// streak; the next round the records' round.
    fn apply_carried(&mut self, c: &CarryOver) {
        let records = &c.records;
        let n = records.members.len();
        for (i, m) in records.all().enumerate() {
            let id = PlayerId(i as u32 + 1);
            let surname = m.surname.clone().unwrap_or_default();
            self.register(id, &m.name, &surname, Membership::Applicant);
            let counts = SideCounts {
                ussr: m.ussr,
                us: m.us,
                last: m.last,
                last_game: None,
            };
            if i < n {
                self.enter(id);
            } else {
                let entry = self.next_entry;
                self.next_entry += 1;
                if let Some(p) = self.player_mut(id) {
                    p.status = Membership::Inactive;
                    p.entered = true;
                    p.entry = entry;
                }
                self.inactive.push(id);
            }
            if let Some(p) = self.player_mut(id) {
                p.skip_streak = m.skip_streak;
                p.missed_streak = m.missed;
                p.all_sides = counts;
            }
            if let Some(t) = self.side_table.get_mut(id.index()) {
                *t = [counts; 2];
            }
        }
        if records.champion_streak > 0 {
            self.champion = self.order.first().copied();
            self.streak = records.champion_streak;
        }
        self.carried_over = Some(Box::new(c.clone()));
    }

    fn apply_closed(&mut self, c: &RoundClosed) {
        for m in &c.moves {
            let Some(p) = self.player_mut(m.player) else {
                continue;
            };
            match m.reason {
                MoveReason::Skipped | MoveReason::SkippedTop | MoveReason::SkipLoss { .. } => {
                    p.skip_streak += 1;
                    p.missed_streak += 1;
                }
                MoveReason::Won { .. } | MoveReason::Lost { .. } | MoveReason::Entered => {
                    p.skip_streak = 0;
                    p.missed_streak = 0;
                }
                // TWS-R10: a bye is not a missed round (nor a skip); ARB-R13:
                // it breaks both runs alike, so the skips or missed rounds
                // on either side of it are not consecutive.
                MoveReason::Bye | MoveReason::NoResult { .. } | MoveReason::CarriedOver { .. } => {
                    p.skip_streak = 0;
                    p.missed_streak = 0;
                }
            }
            p.joined_during = None;
        }
        for r in &c.inactive {
            if let Some(p) = self.player_mut(r.player) {
                p.status = Membership::Inactive;
                p.skip_streak = 0;
                p.missed_streak = r.missed;
            }
            self.inactive.push(r.player);
        }
        self.order.clone_from(&c.order);
        self.champion = c.champion;
        self.streak = c.streak;
        self.carried.clone_from(&c.carried);
        // Reports die with the round; a carried game keeps its own
        // (ARB-R21, ARB-R45).
        if let Some(k) = self.rounds.iter().position(|r| r.number == c.round) {
            for i in 0..self.rounds[k].games.len() {
                let g = self.rounds[k].games[i];
                if let Some(game) = self.game_mut(g)
                    && game.report.is_some()
                    && !c.carried.contains(&g)
                {
                    game.report = None;
                }
            }
        }
        if let Some(r) = self.rounds.iter_mut().find(|r| r.number == c.round) {
            r.closed = Some(Box::new(c.clone()));
        }
    }
}

fn default_rules() -> &'static LadderRules {
    static DEFAULT: std::sync::OnceLock<LadderRules> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(LadderRules::default)
}
