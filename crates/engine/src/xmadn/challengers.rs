//! XMadn "Challengers (C)": three players, winner stays, first to x wins.
//!
//! > Such events are scheduled for "first-to-x wins" distances (counted
//! > games only). The minimum distance shall be "first-to-4", thus making
//! > sure that each player will have at least two at-boards.
//! >
//! > The at-board for Game 1 is determined by uncounted "Game 0", a
//! > triple-threat qualifying game with only one colour per player (3TQ),
//! > lining up in star formation (see right board) on the 6-colour board.
//! > 1st and 2nd place qualify for Game 1 and 1st place also chooses
//! > colours.
//! >
//! > The winner will stay at the board and keep their allied colours for
//! > the following counted game while the loser will have to sit out one
//! > single counted game before returning to the board.
//!
//! Rulings: XM-R8 (three players; the returning player takes the colours
//! the loser left), XM-R9 (counted pawns: 4 for the 2T winner, 8 for the
//! 2T+ winner), ARB-R25 (the opponent of a colour chooser gets the two board
//! colours left, in board order).
//!
//! - [`Challengers`] is the state, a fold of [`Event`]s: the qualifier
//!   (Game 0), the counted games, and what follows from them (who is at the
//!   board with which colours, who sits out, each player's record, the
//!   champion).
//! - [`Challengers::decide`] turns a [`Command`] into events or refuses it
//!   with the rule it breaks; [`Challengers::apply`] folds an event.
//! - The board of each game is derived from the previous game (or Game 0),
//!   never stored as prose: [`Challengers::explain_game`] renders why.

use crate::model::Links;
use std::cmp::Reverse;

use super::{ChallengersRules, Colours, Home, Score, check_players, format_time};
use crate::model::{PlayerId, Time};
use crate::report::{self, Confirmer, Pending};
use crate::{Explanation, RuleError};

/// The clause of the rule document every Challengers decision cites.
const CLAUSE: &str = "XMadn Challengers";

/// The longest event name accepted.
const MAX_NAME: usize = 200;

/// Game 0 (3TQ), uncounted: it decides who plays Game 1 and who chooses
/// colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Qualifier {
    /// 1st, 2nd and 3rd place.
    pub finishing: [PlayerId; 3],
    /// Each player's one colour on the 6-colour board, in player-id order.
    pub colours: Option<[String; 3]>,
    /// The game's time, if reported.
    pub seconds: Option<u32>,
    /// The allied colours 1st place chose for Game 1.
    pub chosen: Colours,
    pub at: Time,
}

impl Qualifier {
    /// 1, 2 or 3: the player's place in Game 0.
    pub fn place_of(&self, player: PlayerId) -> Option<u32> {
        self.finishing
            .iter()
            .position(|p| *p == player)
            .map(|i| i as u32 + 1)
    }
}

/// Who is at the board for a counted game, with which allied colours, and
/// who sits out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The two players at the board: the one who stays (for Game 1, 1st
    /// place of Game 0) first, the one who returns (2nd place) second.
    pub players: [PlayerId; 2],
    /// Their allied colours, in the order of `players`.
    pub colours: [Colours; 2],
    /// The third player, who sits out this game.
    pub out: PlayerId,
}

impl Board {
    /// Whether `player` is one of the two at the board.
    pub fn has(&self, player: PlayerId) -> bool {
        self.players.contains(&player)
    }

    /// The allied colours of a player at the board.
    pub fn colours_of(&self, player: PlayerId) -> Option<&Colours> {
        colours_of(&self.players, &self.colours, player)
    }
}

/// The colours of `player` of the two `players` who have `colours` (in
/// their order).
fn colours_of<'a>(
    players: &[PlayerId; 2],
    colours: &'a [Colours; 2],
    player: PlayerId,
) -> Option<&'a Colours> {
    players
        .iter()
        .position(|p| *p == player)
        .map(|i| &colours[i])
}

/// A counted game as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// 1, 2, 3 …
    pub number: u32,
    /// The two players, in the order of the recorded event (the board's
    /// order when recorded by [`Challengers::decide`]).
    pub players: [PlayerId; 2],
    /// Their allied colours, in the order of `players`.
    pub colours: [Colours; 2],
    /// The player who sat this game out.
    pub out: PlayerId,
    /// Counted pawns in the order of `players`, and the game's time.
    pub score: Score,
    /// The pawns each brought home per allied colour, in the order of
    /// `players`, when the result was entered so (ARB-R65).
    pub home: Option<[Home; 2]>,
    pub at: Time,
}

impl Game {
    pub fn winner(&self) -> PlayerId {
        self.players[self.score.winner_index()]
    }

    pub fn loser(&self) -> PlayerId {
        self.players[1 - self.score.winner_index()]
    }

    /// The allied colours a player had in this game.
    pub fn colours_of(&self, player: PlayerId) -> Option<&Colours> {
        colours_of(&self.players, &self.colours, player)
    }

    /// The winner's and the loser's counted pawns.
    pub fn pawns_winner_first(&self) -> [u8; 2] {
        let w = self.score.winner_index();
        [self.score.pawns[w], self.score.pawns[1 - w]]
    }
}

/// One player's record in the counted games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    /// Counted games played ("at-boards").
    pub at_boards: u32,
    /// Counted games sat out.
    pub sat_out: u32,
    /// Counted pawns brought home (XM-R9).
    pub pawns_for: u32,
    /// Counted pawns the opponents brought home against him.
    pub pawns_against: u32,
}

/// A line of the standings (see [`Challengers::standings`] for the order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// 1, 2, 3: the position in the order.
    pub place: u32,
    pub player: PlayerId,
    pub wins: u32,
    pub losses: u32,
    pub at_boards: u32,
    pub sat_out: u32,
    pub pawns_for: u32,
    pub pawns_against: u32,
    /// The place in Game 0, once it is recorded.
    pub qualifier_place: Option<u32>,
    /// Whether he reached first-to-x wins.
    pub champion: bool,
}

/// The next counted game: who plays it with which colours, who sits out,
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextGame {
    pub number: u32,
    /// As in [`Board::players`]: the one who stays first.
    pub players: [PlayerId; 2],
    pub colours: [Colours; 2],
    pub out: PlayerId,
    pub explanation: Explanation,
}

/// What happened, as stored in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Created {
        name: String,
        rules: ChallengersRules,
        players: Vec<String>,
    },
    /// Game 0 (3TQ).
    QualifierPlayed {
        /// 1st, 2nd and 3rd place.
        finishing: [PlayerId; 3],
        /// Each player's one colour on the 6-colour board, in player-id
        /// order.
        colours: Option<[String; 3]>,
        seconds: Option<u32>,
        /// The allied colours 1st place chooses for Game 1.
        chosen: Colours,
        at: Time,
    },
    /// A counted game.
    GamePlayed {
        number: u32,
        players: [PlayerId; 2],
        /// Pawns in the order of `players`.
        score: Score,
        /// The pawns brought home per allied colour, in the order of
        /// `players`, when the result was entered so (ARB-R65).
        home: Option<[Home; 2]>,
        at: Time,
    },
    /// One of the two players at the board reports counted game `number`
    /// (ARB-R45, ARB-R81), pawns in the board's order. It waits for the
    /// other player or a moderator; a later report replaces it.
    ResultReported {
        number: u32,
        score: Score,
        by: PlayerId,
        at: Time,
    },
    /// The pending report is confirmed (ARB-R45); the `GamePlayed` that
    /// follows it in the same append records it.
    ResultConfirmed {
        number: u32,
        by: Confirmer,
        at: Time,
    },
    /// The pending report is disputed and dropped with the reason
    /// (ARB-R45): the players report again or a moderator records.
    ReportDisputed {
        number: u32,
        by: Confirmer,
        reason: String,
        at: Time,
    },
    /// The account `account` plays as `player` (ARB-R50), linked by a
    /// moderator.
    AccountLinked { player: PlayerId, account: String },
    /// A moderator ends the link of `account` to `player` (ARB-R50).
    AccountUnlinked { player: PlayerId, account: String },
    /// The competition's times are shown, and days given without a time
    /// read, in `zone` (ARB-R82).
    TimeZoneSet { zone: crate::zone::TimeZone },
    /// Undo: the event `seq` no longer counts. [`Challengers::apply`]
    /// ignores it; a fold of a stored log skips the reverted events.
    Reverted { seq: u64, summary: String },
}

impl Event {
    /// A short machine name of the event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "challengers-created",
            Event::QualifierPlayed { .. } => "challengers-qualifier-played",
            Event::GamePlayed { .. } => "challengers-game-played",
            Event::ResultReported { .. } => "challengers-result-reported",
            Event::ResultConfirmed { .. } => "challengers-result-confirmed",
            Event::ReportDisputed { .. } => "challengers-report-disputed",
            Event::AccountLinked { .. } => "challengers-account-linked",
            Event::AccountUnlinked { .. } => "challengers-account-unlinked",
            Event::TimeZoneSet { .. } => "challengers-time-zone-set",
            Event::Reverted { .. } => "reverted",
        }
    }
}

/// What a moderator asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Create {
        name: String,
        rules: ChallengersRules,
        players: Vec<String>,
    },
    /// Record Game 0 (3TQ).
    RecordQualifier {
        finishing: [PlayerId; 3],
        colours: Option<[String; 3]>,
        seconds: Option<u32>,
        chosen: Colours,
        at: Time,
    },
    /// Record a counted game between the two players at the board, in
    /// either order; `pawns` in the order of `players`.
    RecordGame {
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        at: Time,
    },
    /// A counted game given as the pawns each of `players` brought home
    /// per allied colour (vanguard, rearguard; ARB-R65): the counted pawns
    /// are derived by the rule set, as in a league, and the event keeps
    /// the figures.
    RecordGameByColour {
        players: [PlayerId; 2],
        home: [Home; 2],
        seconds: u32,
        at: Time,
    },
    /// Player `by`, at the board, reports the next counted game against
    /// the other of `players` (pawns in that order), as
    /// [`Command::RecordGame`] takes it (ARB-R45, ARB-R81). The other
    /// player's report of the same score confirms it.
    ReportGame {
        players: [PlayerId; 2],
        pawns: [u8; 2],
        seconds: u32,
        by: PlayerId,
        at: Time,
    },
    /// The other player at the board, or a moderator who does not play in
    /// the game, confirms the pending report: the game is recorded.
    ConfirmGame { by: Confirmer, at: Time },
    /// The other player at the board, or a moderator who does not play in
    /// the game, disputes the pending report, which is dropped.
    DisputeReport {
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

impl Command {
    /// The time the command says it happens at, if it carries one.
    pub fn at(&self) -> Option<Time> {
        match self {
            Command::RecordQualifier { at, .. }
            | Command::RecordGame { at, .. }
            | Command::RecordGameByColour { at, .. }
            | Command::ReportGame { at, .. }
            | Command::ConfirmGame { at, .. }
            | Command::DisputeReport { at, .. } => Some(*at),
            Command::Create { .. }
            | Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. } => None,
        }
    }

    /// The command with its time (`at`) set to the Unix epoch: what it asks
    /// for, apart from when it was asked (idempotency fingerprints).
    pub fn without_time(&self) -> Command {
        let mut command = self.clone();
        match &mut command {
            Command::RecordQualifier { at, .. }
            | Command::RecordGame { at, .. }
            | Command::RecordGameByColour { at, .. }
            | Command::ReportGame { at, .. }
            | Command::ConfirmGame { at, .. }
            | Command::DisputeReport { at, .. } => {
                *at = Time::UNIX_EPOCH;
            }
            Command::Create { .. }
            | Command::LinkAccount { .. }
            | Command::UnlinkAccount { .. }
            | Command::SetTimeZone { .. } => {}
        }
        command
    }
}

/// The state of a Challengers event: a fold of its events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challengers {
    pub name: String,
    pub rules: ChallengersRules,
    /// The three players; player `i + 1` is `players[i]`.
    pub players: Vec<String>,
    pub created: bool,
    /// Which account plays as which player (ARB-R50).
    pub links: Links,
    /// The time zone (ARB-R82): UTC until one is set.
    pub zone: crate::zone::TimeZone,
    qualifier: Option<Qualifier>,
    games: Vec<Game>,
    /// The board of the next counted game; `None` before Game 0 and after
    /// the end.
    board: Option<Board>,
    /// Records by player index.
    records: Vec<Record>,
    champion: Option<PlayerId>,
    /// The report of the next counted game (its number), waiting for
    /// confirmation (ARB-R45, ARB-R81); pawns in the board's order.
    report: Option<(u32, Pending<Score>)>,
}

/// A colour as the rules spell it when it matches one without regard to
/// case, otherwise as given (trimmed), for the check to refuse.
fn canonical_colour(colour: &str, palette: &[String]) -> String {
    let c = colour.trim();
    palette
        .iter()
        .find(|p| p.eq_ignore_ascii_case(c))
        .cloned()
        .unwrap_or_else(|| c.to_string())
}

fn canonical_colours(colours: &Colours, palette: &[String]) -> Colours {
    Colours {
        vanguard: canonical_colour(&colours.vanguard, palette),
        rearguard: canonical_colour(&colours.rearguard, palette),
    }
}

/// "1st", "2nd", "3rd".
fn ordinal(n: u32) -> &'static str {
    match n {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        _ => "?",
    }
}

impl Challengers {
    // ---- reads -----------------------------------------------------------

    /// Fold events into the state. Reverted events are the caller's to skip
    /// (as the service does); [`Event::Reverted`] itself changes nothing.
    pub fn fold<'a>(events: impl IntoIterator<Item = &'a Event>) -> Challengers {
        let mut state = Challengers::default();
        for e in events {
            state.apply(e);
        }
        state
    }

    /// Game 0, once recorded.
    pub fn qualifier(&self) -> Option<&Qualifier> {
        self.qualifier.as_ref()
    }

    /// The counted games recorded, Game 1 first.
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// A counted game by number.
    pub fn game(&self, number: u32) -> Option<&Game> {
        number
            .checked_sub(1)
            .and_then(|i| self.games.get(i as usize))
    }

    /// The board of the next counted game (`None` before Game 0 and after
    /// the end).
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// A player's record in the counted games.
    pub fn record(&self, player: PlayerId) -> Option<&Record> {
        self.index(player).and_then(|i| self.records.get(i))
    }

    /// The first player to reach first-to-x wins.
    pub fn champion(&self) -> Option<PlayerId> {
        self.champion
    }

    /// Whether a player reached first-to-x wins: nothing more is played.
    pub fn is_over(&self) -> bool {
        self.champion.is_some()
    }

    /// The player ids, 1 to 3.
    pub fn player_ids(&self) -> impl Iterator<Item = PlayerId> + use<> {
        (1..=self.players.len() as u32).map(PlayerId)
    }

    /// Find a player by exact name, without regard to case or spacing
    /// (ARB-R22).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        crate::model::find_name(self.players.iter().map(String::as_str), name)
            .map(|i| PlayerId(i as u32 + 1))
    }

    /// The player's name, or his id if unknown.
    /// `p` if he is one of the players, or the refusal naming the field.
    fn known_player(&self, p: PlayerId) -> Result<(), RuleError> {
        if p.0 >= 1 && p.0 as usize <= self.players.len() {
            Ok(())
        } else {
            Err(RuleError::new("ARB-R50", format!("there is no player {p}")).field("player"))
        }
    }

    pub fn name_of(&self, player: PlayerId) -> String {
        self.index(player)
            .and_then(|i| self.players.get(i))
            .cloned()
            .unwrap_or_else(|| player.to_string())
    }

    /// The number of the next counted game (1 after Game 0).
    fn next_number(&self) -> u32 {
        self.games.len() as u32 + 1
    }

    /// The next counted game and why it is played so: `None` before Game 0
    /// and after the end.
    pub fn next_game(&self) -> Option<NextGame> {
        let board = self.board.as_ref()?;
        let number = self.next_number();
        Some(NextGame {
            number,
            players: board.players,
            colours: board.colours.clone(),
            out: board.out,
            explanation: self.explain_board(number, board)?,
        })
    }

    /// Why game `number` was (or is to be) played between those players
    /// with those colours, and for a recorded game its result: for the games
    /// recorded and the next one.
    pub fn explain_game(&self, number: u32) -> Option<Explanation> {
        let recorded = number as usize <= self.games.len();
        if !recorded {
            return self
                .next_game()
                .filter(|n| n.number == number)
                .map(|n| n.explanation);
        }
        let game = self.game(number)?;
        let board = Board {
            players: game.players,
            colours: game.colours.clone(),
            out: game.out,
        };
        let mut e = self.explain_board(number, &board)?;
        let (w, l) = (game.winner(), game.loser());
        let [wp, lp] = game.pawns_winner_first();
        e.text.push_str(&format!(
            ". {} beat {} {wp}-{lp} in {}",
            self.name_of(w),
            self.name_of(l),
            format_time(game.score.seconds)
        ));
        if self.champion == Some(w) && number as usize == self.games.len() {
            e.text.push_str(&format!(
                " and is the first to {} wins: the event is over",
                self.rules.first_to
            ));
        }
        Some(e)
    }

    /// Why the champion is the champion.
    pub fn explain_champion(&self) -> Option<Explanation> {
        let c = self.champion?;
        let last = self.games.last()?;
        let r = self.record(c)?;
        Some(Explanation::new(
            CLAUSE,
            &[],
            format!(
                "{} won first-to-{}: {} wins, the last in Game {} ({}-{} in counted games, {} at-boards)",
                self.name_of(c),
                self.rules.first_to,
                r.wins,
                last.number,
                r.wins,
                r.losses,
                r.at_boards
            ),
        ))
    }

    /// The board of game `number` in words. Game 1 follows from Game 0
    /// (ARB-R25 for the second player's colours); game n > 1 from game n-1
    /// (XM-R8 for the returning player's colours).
    fn explain_board(&self, number: u32, board: &Board) -> Option<Explanation> {
        let name = |p: PlayerId| self.name_of(p);
        let [a, b] = board.players;
        let [ca, cb] = &board.colours;
        if number == 1 {
            let q = self.qualifier.as_ref()?;
            let place = |p| ordinal(q.place_of(p).unwrap_or(0));
            return Some(Explanation::new(
                CLAUSE,
                &["ARB-R25"],
                format!(
                    "Game 1: {} ({} in Game 0, chose {ca}) v {} ({} in Game 0), who takes {cb}, the colours left (ARB-R25); {} ({} in Game 0) sits out",
                    name(a),
                    place(a),
                    name(b),
                    place(b),
                    name(board.out),
                    place(board.out),
                ),
            ));
        }
        let prev = self.game(number - 1)?;
        let (w, l) = (prev.winner(), prev.loser());
        let (stays, returns) = if a == w { (a, b) } else { (b, a) };
        let stays_colours = board.colours_of(stays)?;
        let returns_colours = board.colours_of(returns)?;
        Some(Explanation::new(
            CLAUSE,
            &["XM-R8"],
            format!(
                "Game {number}: {} stays at the board with {stays_colours} after winning Game {}; {} returns and takes {returns_colours}, the colours {} left (XM-R8); {} sits out",
                name(stays),
                prev.number,
                name(returns),
                name(l),
                name(board.out),
            ),
        ))
    }

    /// Each player's record, ordered: most wins first, then fewest losses,
    /// then the better place in Game 0, then order of entry. (The champion,
    /// the only player with first-to-x wins, is always first.)
    pub fn standings(&self) -> Vec<Standing> {
        let place_in_q = |p: PlayerId| self.qualifier.as_ref().and_then(|q| q.place_of(p));
        let mut rows: Vec<Standing> = self
            .player_ids()
            .map(|p| {
                let r = self.record(p).copied().unwrap_or_default();
                Standing {
                    place: 0,
                    player: p,
                    wins: r.wins,
                    losses: r.losses,
                    at_boards: r.at_boards,
                    sat_out: r.sat_out,
                    pawns_for: r.pawns_for,
                    pawns_against: r.pawns_against,
                    qualifier_place: place_in_q(p),
                    champion: self.champion == Some(p),
                }
            })
            .collect();
        rows.sort_by_key(|s| {
            (
                Reverse(s.wins),
                s.losses,
                s.qualifier_place.unwrap_or(u32::MAX),
                s.player,
            )
        });
        for (i, s) in rows.iter_mut().enumerate() {
            s.place = i as u32 + 1;
        }
        rows
    }

    fn index(&self, player: PlayerId) -> Option<usize> {
        let i = player.0.checked_sub(1)? as usize;
        (i < self.players.len()).then_some(i)
    }

    // ---- decide ----------------------------------------------------------

    /// Check a command against the rules: the events it causes, or the rule
    /// it breaks. Never changes the state.
    pub fn decide(&self, command: Command) -> Result<Vec<Event>, RuleError> {
        if !self.created && !matches!(command, Command::Create { .. }) {
            return Err(RuleError::new(
                "Arbiter",
                "this competition does not exist yet: create it first",
            ));
        }
        let event = match command {
            Command::ReportGame {
                players,
                pawns,
                seconds,
                by,
                at,
            } => {
                self.known_player(by).map_err(|e| e.field("by"))?;
                let recorded = self.decide(Command::RecordGame {
                    players,
                    pawns,
                    seconds,
                    at,
                })?;
                let Some(Event::GamePlayed {
                    number,
                    players: board,
                    score,
                    ..
                }) = recorded.into_iter().next()
                else {
                    return Err(RuleError::new(CLAUSE, "no counted game takes a report now"));
                };
                let what = format!("Game {number}");
                let name_of = |p: PlayerId| self.name_of(p);
                report::check_reporter(CLAUSE, board, by, &what, &name_of)?;
                if let Some((n, r)) = &self.report
                    && *n == number
                    && r.result == score
                {
                    if r.by != by {
                        // The other player reports what was reported: he
                        // confirms it (ARB-R45).
                        return self.confirmed(Confirmer::Player(by), at);
                    }
                    let other = if board[0] == by { board[1] } else { board[0] };
                    return Err(report::already_reported(
                        CLAUSE,
                        &self.name_of(by),
                        &what,
                        &self.name_of(other),
                    ));
                }
                Event::ResultReported {
                    number,
                    score,
                    by,
                    at,
                }
            }
            Command::ConfirmGame { by, at } => {
                self.check_confirmer(&by, at, "confirms")?;
                return self.confirmed(by, at);
            }
            Command::DisputeReport { by, reason, at } => {
                let number = self.check_confirmer(&by, at, "disputes")?;
                Event::ReportDisputed {
                    number,
                    by,
                    reason: report::dispute_reason(CLAUSE, &reason)?,
                    at,
                }
            }
            Command::LinkAccount { player, account } => {
                self.known_player(player)?;
                let account = self.links.decide_link(
                    player,
                    &account,
                    "ARB-R50",
                    |_| true,
                    |p| self.name_of(p),
                )?;
                Event::AccountLinked { player, account }
            }
            Command::SetTimeZone { zone } => Event::TimeZoneSet {
                zone: crate::zone::TimeZone::set(self.zone, &zone)?,
            },
            Command::UnlinkAccount { player } => {
                self.known_player(player)?;
                let account = self
                    .links
                    .decide_unlink(player, "ARB-R50", |p| self.name_of(p))?;
                Event::AccountUnlinked { player, account }
            }
            Command::Create {
                name,
                rules,
                players,
            } => {
                if self.created {
                    return Err(RuleError::new("Arbiter", "this competition already exists"));
                }
                Event::Created {
                    name: name.trim().to_string(),
                    rules,
                    // ARB-R62: the spelling kept, NFC and single-spaced.
                    players: players.iter().map(|p| crate::model::spelled(p)).collect(),
                }
            }
            Command::RecordQualifier {
                finishing,
                colours,
                seconds,
                chosen,
                at,
            } => Event::QualifierPlayed {
                finishing,
                colours: colours
                    .map(|cs| cs.map(|c| canonical_colour(&c, &self.rules.star_colours))),
                seconds,
                chosen: canonical_colours(&chosen, &self.rules.board_colours),
                at,
            },
            Command::RecordGame {
                players,
                pawns,
                seconds,
                at,
            } => {
                let board = self.check_game_players(players)?;
                // The engine records the game in the board's order.
                let pawns = if players == board.players {
                    pawns
                } else {
                    [pawns[1], pawns[0]]
                };
                Event::GamePlayed {
                    number: self.next_number(),
                    players: board.players,
                    score: Score { pawns, seconds },
                    home: None,
                    at,
                }
            }
            Command::RecordGameByColour {
                players,
                home,
                seconds,
                at,
            } => {
                let rule_set = self.rules.rule_set;
                let names = players.map(|p| self.name_of(p));
                let pawns = rule_set.counted_pair(&home, [&names[0], &names[1]])?;
                let mut events = self
                    .decide(Command::RecordGame {
                        players,
                        pawns,
                        seconds,
                        at,
                    })
                    .map_err(|e| rule_set.home_refusal(e, &home))?;
                for e in &mut events {
                    if let Event::GamePlayed {
                        players: board,
                        home: h,
                        ..
                    } = e
                    {
                        *h = Some(if *board == players {
                            home
                        } else {
                            [home[1], home[0]]
                        });
                    }
                }
                return Ok(events);
            }
        };
        self.check(&event)?;
        Ok(vec![event])
    }

    /// The pending report of the next counted game: its number and the
    /// report (ARB-R45, ARB-R81).
    pub fn pending_report(&self) -> Option<(u32, &Pending<Score>)> {
        self.report
            .as_ref()
            .filter(|(n, _)| *n == self.next_number() && self.champion.is_none())
            .map(|(n, r)| (*n, r))
    }

    /// The game's number, if `by` may confirm or dispute its report.
    fn check_confirmer(&self, by: &Confirmer, at: Time, verb: &str) -> Result<u32, RuleError> {
        let number = self.next_number();
        let (Some((n, r)), Some(board)) = (self.pending_report(), &self.board) else {
            return Err(report::nothing_reported(CLAUSE, &format!("Game {number}")));
        };
        report::check_confirmer(
            CLAUSE,
            board.players,
            (r.by, r.at),
            by,
            at,
            &self.links,
            &format!("Game {n}"),
            &|p| self.name_of(p),
            verb,
        )?;
        Ok(n)
    }

    /// A confirmed report: `ResultConfirmed`, then exactly what recording
    /// the reported score when it was reported decides.
    fn confirmed(&self, by: Confirmer, at: Time) -> Result<Vec<Event>, RuleError> {
        let (Some((number, r)), Some(board)) = (self.pending_report(), &self.board) else {
            return Err(report::nothing_reported(
                CLAUSE,
                &format!("Game {}", self.next_number()),
            ));
        };
        let recorded = self.decide(Command::RecordGame {
            players: board.players,
            pawns: r.result.pawns,
            seconds: r.result.seconds,
            at: r.at,
        })?;
        let mut events = vec![Event::ResultConfirmed { number, by, at }];
        events.extend(recorded);
        Ok(events)
    }

    /// The board, if the two players named can play the next counted game.
    fn check_game_players(&self, players: [PlayerId; 2]) -> Result<&Board, RuleError> {
        if let Some(c) = self.champion {
            return Err(RuleError::new(
                CLAUSE,
                format!(
                    "{} already won first-to-{}: the event is over and no more games are played",
                    self.name_of(c),
                    self.rules.first_to
                ),
            ));
        }
        let Some(board) = &self.board else {
            return Err(RuleError::new(
                CLAUSE,
                "\"The at-board for Game 1 is determined by uncounted Game 0\": record Game 0 (3TQ) first",
            ));
        };
        for p in players {
            if self.index(p).is_none() {
                return Err(RuleError::new(
                    CLAUSE,
                    format!(
                        "there is no player {p}; the players are {}",
                        self.players.join(", ")
                    ),
                )
                .field("players"));
            }
        }
        if players[0] == players[1] {
            return Err(RuleError::new(
                CLAUSE,
                format!(
                    "a counted game has two different players, not {} twice",
                    self.name_of(players[0])
                ),
            )
            .field("players"));
        }
        let number = self.next_number();
        if let Some(&p) = players.iter().find(|p| !board.has(**p)) {
            let (why, clause) = match self.games.last() {
                Some(prev) => (
                    format!(
                        "the loser of Game {} sits out one counted game",
                        prev.number
                    ),
                    format!("{CLAUSE}; XM-R8"),
                ),
                None => (
                    "only 1st and 2nd place of Game 0 qualify for Game 1".to_string(),
                    CLAUSE.to_string(),
                ),
            };
            return Err(RuleError::new(
                clause,
                format!(
                    "{} sits out Game {number} ({why}): Game {number} is {} v {}",
                    self.name_of(p),
                    self.name_of(board.players[0]),
                    self.name_of(board.players[1]),
                ),
            )
            .field("players"));
        }
        Ok(board)
    }

    fn check_created(
        name: &str,
        rules: &ChallengersRules,
        players: &[String],
    ) -> Result<(), RuleError> {
        if name.trim().is_empty() || name.chars().count() > MAX_NAME {
            return Err(RuleError::new(
                "Arbiter",
                format!("the event's name must be 1 to {MAX_NAME} characters"),
            )
            .field("name"));
        }
        rules.check()?;
        check_players(players)
    }

    fn check_qualifier(
        &self,
        finishing: &[PlayerId; 3],
        colours: Option<&[String; 3]>,
        seconds: Option<u32>,
        chosen: &Colours,
    ) -> Result<(), RuleError> {
        if let Some(q) = &self.qualifier {
            return Err(RuleError::new(
                CLAUSE,
                format!(
                    "Game 0 was already recorded: {} 1st, {} 2nd, {} 3rd",
                    self.name_of(q.finishing[0]),
                    self.name_of(q.finishing[1]),
                    self.name_of(q.finishing[2]),
                ),
            ));
        }
        if !self.games.is_empty() {
            return Err(RuleError::new(
                CLAUSE,
                "Game 0 comes before the counted games",
            ));
        }
        let valid = finishing.iter().all(|p| self.index(*p).is_some());
        let distinct = finishing[0] != finishing[1]
            && finishing[0] != finishing[2]
            && finishing[1] != finishing[2];
        if !valid || !distinct || self.players.len() != 3 {
            let named: Vec<String> = finishing.iter().map(|p| self.name_of(*p)).collect();
            return Err(RuleError::new(
                format!("{CLAUSE}; XM-R8"),
                format!(
                    "Game 0 is a three-player game: its finishing order names each of {} once, not {}",
                    self.players.join(", "),
                    named.join(", ")
                ),
            )
            .field("finishing"));
        }
        if let Some(cs) = colours {
            let star = &self.rules.star_colours;
            let in_star = cs.iter().all(|c| star.contains(c));
            let distinct = cs[0] != cs[1] && cs[0] != cs[2] && cs[1] != cs[2];
            if !in_star || !distinct {
                return Err(RuleError::new(
                    CLAUSE,
                    format!(
                        "Game 0 is played \"with only one colour per player (3TQ)\" on the 6-colour board: three different colours of {}, not {}",
                        star.join(", "),
                        cs.join(", ")
                    ),
                )
                .field("colours"));
            }
        }
        if seconds == Some(0) {
            return Err(
                RuleError::new(CLAUSE, "a game's time must be more than 0:00").field("time"),
            );
        }
        chosen.check(&self.rules.board_colours, "chosen")
    }

    fn check_score(&self, score: &Score) -> Result<(), RuleError> {
        score.check(self.rules.rule_set).map_err(|e| {
            // The shared check cites the league's clauses; here it is the
            // Challengers' counted game.
            let clause = if e.field.as_deref() == Some("pawns") {
                format!("{CLAUSE}; XM-R9")
            } else {
                CLAUSE.to_string()
            };
            RuleError { clause, ..e }
        })
    }

    // ---- apply -----------------------------------------------------------

    /// Whether `event` can follow this state. Events from `decide` always
    /// pass; a log read from storage is checked with this before it is
    /// trusted, and [`Challengers::apply`] ignores an event that fails.
    pub fn check(&self, event: &Event) -> Result<(), RuleError> {
        if !self.created && !matches!(event, Event::Created { .. } | Event::Reverted { .. }) {
            return Err(RuleError::new(
                "Arbiter",
                format!("{} before the competition was created", event.kind()),
            ));
        }
        match event {
            Event::Created {
                name,
                rules,
                players,
            } => {
                if self.created {
                    return Err(RuleError::new("Arbiter", "this competition already exists"));
                }
                Self::check_created(name, rules, players)
            }
            Event::QualifierPlayed {
                finishing,
                colours,
                seconds,
                chosen,
                ..
            } => self.check_qualifier(finishing, colours.as_ref(), *seconds, chosen),
            Event::GamePlayed {
                number,
                players,
                score,
                home,
                ..
            } => {
                self.check_game_players(*players)?;
                let next = self.next_number();
                if *number != next {
                    return Err(RuleError::new(
                        "Arbiter",
                        format!("game {number} recorded where Game {next} was expected"),
                    ));
                }
                if let Some(home) = home {
                    for ((p, h), &pawns) in players.iter().zip(home).zip(&score.pawns) {
                        h.check(&self.name_of(*p))?;
                        if self.rules.rule_set.counted(*h) != pawns {
                            return Err(RuleError::new(
                                "Arbiter",
                                format!(
                                    "game {number}: {} brought home {h}, which counts {}, not {pawns} (ARB-R65)",
                                    self.name_of(*p),
                                    self.rules.rule_set.counted(*h)
                                ),
                            )
                            .field("home"));
                        }
                    }
                }
                self.check_score(score)
            }
            Event::ResultReported { number, by, .. } => {
                let board =
                    self.check_game_players(self.board.as_ref().map_or([*by; 2], |b| b.players))?;
                if *number != self.next_number() || !board.has(*by) {
                    return Err(RuleError::new(
                        "Arbiter",
                        format!("a report of game {number} by a player not at its board"),
                    ));
                }
                Ok(())
            }
            Event::ResultConfirmed { number, .. } | Event::ReportDisputed { number, .. } => {
                match self.pending_report() {
                    Some((n, _)) if n == *number => Ok(()),
                    _ => Err(RuleError::new(
                        "Arbiter",
                        format!("a confirmation or dispute of game {number} without its report"),
                    )),
                }
            }
            Event::AccountLinked { player, account }
            | Event::AccountUnlinked { player, account } => {
                self.known_player(*player)?;
                crate::model::account_name(account)
                    .map(|_| ())
                    .map_err(|why| RuleError::new("Arbiter", why))
            }
            Event::Reverted { .. } | Event::TimeZoneSet { .. } => Ok(()),
        }
    }

    /// Fold one event into the state. Never refuses and never panics: an
    /// event that does not fit the state (see [`Challengers::check`]) is
    /// ignored.
    pub fn apply(&mut self, event: &Event) {
        let _ = self.try_apply(event);
    }

    /// [`Challengers::apply`], saying when the event does not fit the state
    /// (and was ignored): what a fold of a stored log uses to report damage.
    pub fn try_apply(&mut self, event: &Event) -> Result<(), RuleError> {
        self.check(event)?;
        self.apply_checked(event);
        Ok(())
    }

    fn apply_checked(&mut self, event: &Event) {
        match event {
            Event::AccountLinked { player, account } => self.links.link(account, *player),
            Event::AccountUnlinked { player, .. } => self.links.unlink(*player),
            Event::TimeZoneSet { zone } => self.zone = *zone,
            Event::ResultReported {
                number,
                score,
                by,
                at,
            } => {
                self.report = Some((
                    *number,
                    Pending {
                        result: *score,
                        by: *by,
                        at: *at,
                    },
                ));
            }
            Event::ResultConfirmed { .. } | Event::ReportDisputed { .. } => self.report = None,
            Event::Created {
                name,
                rules,
                players,
            } => {
                self.name.clone_from(name);
                self.rules = rules.clone();
                self.players.clone_from(players);
                self.created = true;
                self.records = vec![Record::default(); players.len()];
            }
            Event::QualifierPlayed {
                finishing,
                colours,
                seconds,
                chosen,
                at,
            } => {
                let [first, second, third] = *finishing;
                self.board = Some(Board {
                    players: [first, second],
                    colours: [chosen.clone(), chosen.opposite(&self.rules.board_colours)],
                    out: third,
                });
                self.qualifier = Some(Qualifier {
                    finishing: *finishing,
                    colours: colours.clone(),
                    seconds: *seconds,
                    chosen: chosen.clone(),
                    at: *at,
                });
            }
            Event::GamePlayed {
                number,
                players,
                score,
                home,
                at,
            } => {
                // A game recorded by any path settles its report (ARB-R45).
                self.report = None;
                // `check` made sure both players are at the board.
                let Some(board) = self.board.take() else {
                    return;
                };
                let (Some(c0), Some(c1)) =
                    (board.colours_of(players[0]), board.colours_of(players[1]))
                else {
                    self.board = Some(board);
                    return;
                };
                let game = Game {
                    number: *number,
                    players: *players,
                    colours: [c0.clone(), c1.clone()],
                    out: board.out,
                    score: *score,
                    home: *home,
                    at: *at,
                };
                let (w, l) = (game.winner(), game.loser());
                let [wp, lp] = game.pawns_winner_first();
                let (wi, li, oi) = (self.index(w), self.index(l), self.index(board.out));
                if let Some(r) = wi.and_then(|i| self.records.get_mut(i)) {
                    r.wins += 1;
                    r.at_boards += 1;
                    r.pawns_for += u32::from(wp);
                    r.pawns_against += u32::from(lp);
                }
                if let Some(r) = li.and_then(|i| self.records.get_mut(i)) {
                    r.losses += 1;
                    r.at_boards += 1;
                    r.pawns_for += u32::from(lp);
                    r.pawns_against += u32::from(wp);
                }
                if let Some(r) = oi.and_then(|i| self.records.get_mut(i)) {
                    r.sat_out += 1;
                }
                let winner_wins = self.record(w).map_or(0, |r| r.wins);
                if winner_wins >= self.rules.first_to {
                    self.champion = Some(w);
                } else {
                    // The winner stays with his colours; the player who sat
                    // out returns with the colours the loser left (XM-R8);
                    // the loser sits out the next counted game.
                    let wi = game.score.winner_index();
                    self.board = Some(Board {
                        players: [w, board.out],
                        colours: [game.colours[wi].clone(), game.colours[1 - wi].clone()],
                        out: l,
                    });
                }
                self.games.push(game);
            }
            Event::Reverted { .. } => {}
        }
    }
}

impl crate::zone::Zoned for Challengers {
    fn zone(&self) -> crate::zone::TimeZone {
        self.zone
    }
}

impl crate::model::Linked for Challengers {
    fn links(&self) -> &Links {
        &self.links
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::xmadn::RuleSet;

    const A: PlayerId = PlayerId(1);
    const B: PlayerId = PlayerId(2);
    const C: PlayerId = PlayerId(3);

    fn t() -> Time {
        Time::UNIX_EPOCH
    }

    fn colours(v: &str, r: &str) -> Colours {
        Colours {
            vanguard: v.into(),
            rearguard: r.into(),
        }
    }

    fn run(state: &mut Challengers, command: Command) -> Result<(), RuleError> {
        for e in state.decide(command)? {
            state.try_apply(&e).expect("decided events fit");
        }
        Ok(())
    }

    fn created(first_to: u32, rule_set: RuleSet) -> Challengers {
        let mut s = Challengers::default();
        run(
            &mut s,
            Command::Create {
                name: "C1".into(),
                rules: ChallengersRules {
                    rule_set,
                    first_to,
                    ..ChallengersRules::default()
                },
                players: vec!["Ames".into(), " Baker ".into(), "Clark".into()],
            },
        )
        .unwrap();
        s
    }

    fn qualified(first_to: u32) -> Challengers {
        let mut s = created(first_to, RuleSet::Championship);
        run(
            &mut s,
            Command::RecordQualifier {
                finishing: [A, B, C],
                colours: None,
                seconds: Some(190),
                chosen: colours("Red", "blue"),
                at: t(),
            },
        )
        .unwrap();
        s
    }

    #[test]
    fn a_game_given_as_pawns_brought_home_counts_the_best_colour_in_2t() {
        // ARB-R65 in a Challengers event as in a league: Baker brought home
        // 4 and 1, Ames 2 and 3; in 2T the best one allied colour counts,
        // 4 to 3, and the record keeps both, in the board's order.
        let mut s = qualified(4);
        let home = |vanguard, rearguard| Home {
            vanguard,
            rearguard,
        };
        run(
            &mut s,
            Command::RecordGameByColour {
                players: [B, A],
                home: [home(4, 1), home(2, 3)],
                seconds: 600,
                at: t(),
            },
        )
        .unwrap();
        let g = &s.games()[0];
        let (b, a) = if g.players == [A, B] { (1, 0) } else { (0, 1) };
        assert_eq!((g.score.pawns[b], g.score.pawns[a]), (4, 3));
        let h = g.home.expect("kept");
        assert_eq!((h[b], h[a]), (home(4, 1), home(2, 3)));
        assert_eq!(g.winner(), B);
        // Both counting 4 is no result: refused naming `home`, where the
        // counted pawns came from.
        let e = s
            .decide(Command::RecordGameByColour {
                players: [B, C],
                home: [home(4, 0), home(1, 4)],
                seconds: 600,
                at: t(),
            })
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("home"), "{e}");
        assert!(
            e.message
                .contains("counted from the pawns brought home, 4/0 v 1/4"),
            "{e}"
        );
    }

    fn game(s: &mut Challengers, w: PlayerId, l: PlayerId, lp: u8) -> Result<(), RuleError> {
        let win = s.rules.rule_set.winning_pawns();
        run(
            s,
            Command::RecordGame {
                players: [w, l],
                pawns: [win, lp],
                seconds: 600,
                at: t(),
            },
        )
    }

    #[test]
    fn create_checks_names_and_distance() {
        let s = created(5, RuleSet::Championship);
        assert_eq!(s.players, vec!["Ames", "Baker", "Clark"]);
        assert_eq!(s.find("baker"), Some(B));
        assert_eq!(s.find("Bake"), None);
        assert_eq!(s.name_of(PlayerId(9)), "P9");
        let mut fresh = Challengers::default();
        let e = run(
            &mut fresh,
            Command::Create {
                name: "x".into(),
                rules: ChallengersRules {
                    first_to: 3,
                    ..ChallengersRules::default()
                },
                players: vec!["A".into(), "B".into(), "C".into()],
            },
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("first_to"));
        let e = fresh
            .decide(Command::Create {
                name: "x".into(),
                rules: ChallengersRules::default(),
                players: vec!["A".into(), "B".into()],
            })
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("players"));
        assert!(
            s.decide(Command::Create {
                name: "x".into(),
                rules: ChallengersRules::default(),
                players: vec!["A".into(), "B".into(), "C".into()],
            })
            .is_err()
        );
    }

    #[test]
    fn game_one_follows_game_zero() {
        let s = qualified(5);
        let next = s.next_game().unwrap();
        assert_eq!(next.number, 1);
        assert_eq!(next.players, [A, B]);
        assert_eq!(
            next.colours,
            [colours("red", "blue"), colours("green", "yellow")]
        );
        assert_eq!(next.out, C);
        assert!(
            next.explanation.text.starts_with(
                "Game 1: Ames (1st in Game 0, chose red/blue) v Baker (2nd in Game 0)"
            ),
            "{}",
            next.explanation.text
        );
        assert_eq!(next.explanation.rulings, vec!["ARB-R25"]);
    }

    #[test]
    fn qualifier_is_checked() {
        let s = created(5, RuleSet::Championship);
        let q = |finishing, colours: Option<[&str; 3]>, chosen| Command::RecordQualifier {
            finishing,
            colours: colours.map(|c| c.map(String::from)),
            seconds: None,
            chosen,
            at: t(),
        };
        let e = s
            .decide(q([A, A, C], None, colours("red", "blue")))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("finishing"));
        let e = s
            .decide(q([A, B, PlayerId(4)], None, colours("red", "blue")))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("finishing"));
        let e = s
            .decide(q(
                [A, B, C],
                Some(["red", "red", "blue"]),
                colours("red", "blue"),
            ))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("colours"));
        let e = s
            .decide(q(
                [A, B, C],
                Some(["red", "pink", "blue"]),
                colours("red", "blue"),
            ))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("colours"));
        assert!(
            s.decide(q(
                [A, B, C],
                Some(["RED", "orange", "blue"]),
                colours("red", "blue")
            ))
            .is_ok()
        );
        let e = s
            .decide(q([A, B, C], None, colours("red", "orange")))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("chosen"));
        let e = s
            .decide(q([A, B, C], None, colours("red", "red")))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("chosen"));
        let mut s = qualified(5);
        let e = run(&mut s, q([C, B, A], None, colours("red", "blue"))).unwrap_err();
        assert!(e.message.contains("already recorded"), "{e}");
    }

    #[test]
    fn games_need_the_qualifier_and_the_board() {
        let mut s = created(4, RuleSet::Championship);
        let e = game(&mut s, A, B, 0).unwrap_err();
        assert!(e.message.contains("Game 0"), "{e}");
        let mut s = qualified(4);
        let e = game(&mut s, A, C, 0).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("players"));
        assert!(e.message.starts_with("Clark sits out Game 1"), "{e}");
        assert!(game(&mut s, A, A, 0).is_err());
        assert!(game(&mut s, A, PlayerId(0), 0).is_err());
        // Either order; pawns follow the players named.
        run(
            &mut s,
            Command::RecordGame {
                players: [B, A],
                pawns: [2, 4],
                seconds: 700,
                at: t(),
            },
        )
        .unwrap();
        let g = &s.games()[0];
        assert_eq!(g.players, [A, B]);
        assert_eq!(g.score.pawns, [4, 2]);
        assert_eq!(g.winner(), A);
        // Ames stays with red/blue; Clark takes green/yellow; Baker sits out.
        let b = s.board().unwrap();
        assert_eq!(b.players, [A, C]);
        assert_eq!(
            b.colours,
            [colours("red", "blue"), colours("green", "yellow")]
        );
        assert_eq!(b.out, B);
        let e = game(&mut s, B, A, 0).unwrap_err();
        assert!(e.message.starts_with("Baker sits out Game 2"), "{e}");
        assert!(e.message.contains("Game 2 is Ames v Clark"), "{e}");
    }

    #[test]
    fn returning_player_takes_the_losers_colours() {
        let mut s = qualified(5);
        game(&mut s, B, A, 1).unwrap(); // Baker (green/yellow) beats Ames (red/blue)
        let b = s.board().unwrap();
        assert_eq!(b.players, [B, C]);
        assert_eq!(
            b.colours,
            [colours("green", "yellow"), colours("red", "blue")]
        );
        assert_eq!(b.out, A);
        let text = s.next_game().unwrap().explanation.text;
        assert_eq!(
            text,
            "Game 2: Baker stays at the board with green/yellow after winning Game 1; Clark returns and takes red/blue, the colours Ames left (XM-R8); Ames sits out"
        );
        game(&mut s, C, B, 3).unwrap(); // Clark (red/blue) beats Baker
        let b = s.board().unwrap();
        assert_eq!(b.players, [C, A]);
        assert_eq!(
            b.colours,
            [colours("red", "blue"), colours("green", "yellow")]
        );
        assert_eq!(b.out, B);
    }

    #[test]
    fn pawns_follow_the_rule_set() {
        let mut s = created(4, RuleSet::Masters);
        run(
            &mut s,
            Command::RecordQualifier {
                finishing: [C, A, B],
                colours: None,
                seconds: None,
                chosen: colours("green", "red"),
                at: t(),
            },
        )
        .unwrap();
        let rec = |pawns, seconds| Command::RecordGame {
            players: [C, A],
            pawns,
            seconds,
            at: t(),
        };
        let e = s.decide(rec([4, 2], 60)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("pawns"));
        assert_eq!(e.clause, "XMadn Challengers; XM-R9");
        assert!(s.decide(rec([8, 8], 60)).is_err());
        let e = s.decide(rec([8, 7], 0)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("time"));
        assert!(s.decide(rec([7, 8], 60)).is_ok());
        // Opposite of green/red on red, blue, green, yellow: blue/yellow.
        assert_eq!(s.board().unwrap().colours[1], colours("blue", "yellow"));
    }

    #[test]
    fn the_event_ends_at_first_to_x() {
        let mut s = qualified(4);
        for _ in 0..4 {
            let opponent = s.board().unwrap().players[1];
            game(&mut s, A, opponent, 2).unwrap();
        }
        assert_eq!(s.champion(), Some(A));
        assert!(s.next_game().is_none());
        assert!(s.board().is_none());
        let e = game(&mut s, A, B, 0).unwrap_err();
        assert!(e.message.starts_with("Ames already won first-to-4"), "{e}");
        let st = s.standings();
        assert_eq!(st[0].player, A);
        assert!(st[0].champion);
        assert_eq!(
            (st[0].wins, st[0].losses, st[0].at_boards, st[0].sat_out),
            (4, 0, 4, 0)
        );
        assert_eq!((st[0].pawns_for, st[0].pawns_against), (16, 8));
        // Baker and Clark: 0-2 each, Baker was 2nd in Game 0.
        assert_eq!(st[1].player, B);
        assert_eq!(st[2].player, C);
        assert_eq!((st[1].at_boards, st[1].sat_out), (2, 2));
        assert_eq!((st[2].at_boards, st[2].sat_out), (2, 2));
        let last = s.explain_game(4).unwrap().text;
        assert!(
            last.ends_with(
                "Ames beat Clark 4-2 in 10:00 and is the first to 4 wins: the event is over"
            ),
            "{last}"
        );
        assert!(
            s.explain_champion()
                .unwrap()
                .text
                .starts_with("Ames won first-to-4")
        );
        assert!(s.explain_game(5).is_none());
    }

    #[test]
    fn check_refuses_events_that_do_not_fit() {
        let s = qualified(5);
        let game = |number, players| Event::GamePlayed {
            home: None,
            number,
            players,
            score: Score {
                pawns: [4, 0],
                seconds: 60,
            },
            at: t(),
        };
        assert!(s.check(&game(1, [A, B])).is_ok());
        assert!(s.check(&game(1, [B, A])).is_ok());
        assert!(s.check(&game(2, [A, B])).is_err());
        assert!(s.check(&game(1, [A, C])).is_err());
        assert!(s.check(&game(1, [PlayerId(0), PlayerId(7)])).is_err());
        let mut t2 = s.clone();
        t2.apply(&game(1, [A, C]));
        assert_eq!(t2, s, "apply ignores an event that does not fit");
        assert!(Challengers::default().check(&game(1, [A, B])).is_err());
        assert!(
            s.check(&Event::Reverted {
                seq: 1,
                summary: String::new()
            })
            .is_ok()
        );
    }

    #[test]
    fn fold_matches_and_commands_drop_time() {
        let mut s = qualified(4);
        let mut log = Vec::new();
        let mut fresh = Challengers::default();
        for c in [
            Command::Create {
                name: "C1".into(),
                rules: ChallengersRules {
                    first_to: 4,
                    ..ChallengersRules::default()
                },
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            },
            Command::RecordQualifier {
                finishing: [A, B, C],
                colours: None,
                seconds: Some(190),
                chosen: colours("red", "blue"),
                at: t(),
            },
        ] {
            let events = fresh.decide(c).unwrap();
            for e in &events {
                fresh.apply(e);
            }
            log.extend(events);
        }
        assert_eq!(fresh, s);
        let c = Command::RecordGame {
            players: [A, B],
            pawns: [4, 1],
            seconds: 61,
            at: Time::from_timestamp(1_000_000, 0).unwrap(),
        };
        assert_eq!(c.at(), Time::from_timestamp(1_000_000, 0));
        assert_eq!(c.without_time().at(), Some(Time::UNIX_EPOCH));
        let events = s.decide(c).unwrap();
        assert_eq!(events[0].kind(), "challengers-game-played");
        for e in &events {
            s.apply(e);
        }
        log.extend(events);
        assert_eq!(Challengers::fold(&log), s);
    }
}
