//! An XMadn league carried over from its records (issue 18 §1; ruling
//! ARB-R80): the double round-robins already played, each with its
//! positions and the results of its six games, as one event. The games are
//! games: the table, the ratings, the analysis and the playoffs read them as
//! if they had been recorded here one by one.
//!
//! The records are checked by the rules of the events they stand for: the
//! decider replays them on a copy of the league, the positions as a
//! double round-robin's and each game as [`Command::RecordResult`] or
//! [`Command::CancelGame`] would be decided (a score the rule set allows,
//! XM-R9; a cancellation only once the significant outcomes are determined,
//! XM-R6), and a refusal names the double round-robin and the game.

use crate::RuleError;
use crate::model::{GameId, PlayerId, Time};

use super::Score;
use super::league::{Command, Drr, Event, GameStatus, League, PLAYERS};

/// Ruling: an XMadn league carried over from its records.
pub const ARB_CARRY: &str = "ARB-R80";

const CLAUSE: &str = "XMadn League: Double-round robins";

/// A game of a carried double round-robin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CarriedGame {
    /// Not played yet (only in the last double round-robin carried).
    ToPlay,
    /// Played: the counted pawns in the schedule's player order and the
    /// time (XM-R9).
    Played { score: Score, at: Time },
    /// Cancelled by mutual consent (XM-R6).
    Cancelled { note: String, at: Time },
}

/// A double round-robin as the records give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedDrr {
    /// Players #1, #2, #3.
    pub positions: [PlayerId; 3],
    /// Games 1 to 6 in the document's schedule.
    pub games: [CarriedGame; 6],
}

/// A carry-over as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueCarryOver {
    pub drrs: Vec<CarriedDrr>,
    pub source: String,
    /// The moderator who entered the records.
    pub by: String,
    pub at: Time,
}

impl LeagueCarryOver {
    /// "carried over on 2026-03-01 (source: …; entered by …)".
    pub fn citation(&self) -> String {
        format!(
            "carried over on {} (source: {}; entered by {})",
            self.at.format("%Y-%m-%d"),
            self.source,
            self.by
        )
    }
}

fn refuse(e: RuleError, field: String) -> RuleError {
    RuleError {
        field: Some(field),
        message: format!("{} ({ARB_CARRY})", e.message),
        ..e
    }
}

impl League {
    /// ARB-R80: the records replayed on a copy of a league that has played
    /// nothing yet; the state they leave.
    pub(crate) fn replay_carried(&self, c: &LeagueCarryOver) -> Result<League, RuleError> {
        if self.carried.is_some() {
            return Err(RuleError::new(
                ARB_CARRY,
                "this league was already carried over from its records; undo that first to carry it over again",
            ));
        }
        if !self.drrs.is_empty() || !self.rolls.is_empty() || !self.playoff.is_empty() {
            return Err(RuleError::new(
                ARB_CARRY,
                format!(
                    "a league is carried over before its first double round-robin; this one has {} (carry it over into a new competition)",
                    self.drrs.len()
                ),
            ));
        }
        if c.drrs.is_empty() {
            return Err(RuleError::new(
                ARB_CARRY,
                "the records have no double round-robin: nothing to carry over",
            )
            .field("drrs"));
        }
        if c.drrs.len() > self.rules.double_round_robins as usize {
            return Err(RuleError::new(
                CLAUSE,
                format!(
                    "the records have {} double round-robins; the league plays {}",
                    c.drrs.len(),
                    self.rules.double_round_robins
                ),
            )
            .field("drrs"));
        }
        let mut copy = self.clone();
        let last = c.drrs.len() - 1;
        for (i, drr) in c.drrs.iter().enumerate() {
            let mut p = drr.positions.to_vec();
            p.sort_unstable();
            if p != PLAYERS {
                return Err(RuleError::new(
                    CLAUSE,
                    format!(
                        "the positions of DRR {} must name each of the three players once",
                        i + 1
                    ),
                )
                .field(format!("drrs[{i}].positions")));
            }
            copy.schedule_drr(i as u32 + 1, drr.positions);
            let Some(Drr::Scheduled { games, .. }) = copy.drrs.last().cloned() else {
                continue;
            };
            // The games played first, then the cancellations: a result
            // only adds to what is determined (XM-R6), so a cancellation
            // the league allowed once allows it after every result.
            let mut order: Vec<usize> = (0..6).collect();
            order.sort_by_key(|&k| matches!(drr.games[k], CarriedGame::Cancelled { .. }));
            for k in order {
                let (g, id) = (&drr.games[k], games[k]);
                let field = format!("drrs[{i}].games[{k}]");
                let players = copy
                    .game(id)
                    .map_or([PLAYERS[0], PLAYERS[1]], |x| x.players);
                let command = match g {
                    CarriedGame::ToPlay if i == last => continue,
                    CarriedGame::ToPlay => {
                        return Err(RuleError::new(
                            CLAUSE,
                            format!(
                                "game {} of DRR {} has no result, but DRR {} follows it: a double round-robin is played out (or its games cancelled) before the next",
                                k + 1,
                                i + 1,
                                i + 2
                            ),
                        )
                        .field(field));
                    }
                    CarriedGame::Played { score, at } => Command::RecordResult {
                        game: Some(id),
                        players,
                        pawns: score.pawns,
                        seconds: score.seconds,
                        at: *at,
                    },
                    CarriedGame::Cancelled { note, at } => Command::CancelGame {
                        game: id,
                        note: note.clone(),
                        at: *at,
                    },
                };
                let events = copy.decide(command).map_err(|e| refuse(e, field.clone()))?;
                for e in &events {
                    copy.try_apply(e).map_err(|e| refuse(e, field.clone()))?;
                }
            }
        }
        copy.carried = Some(Box::new(c.clone()));
        Ok(copy)
    }

    /// Apply a checked carry-over: its double round-robins scheduled and
    /// their games' results set, as [`Self::replay_carried`] left them.
    pub(crate) fn apply_carried(&mut self, c: &LeagueCarryOver) {
        for (i, drr) in c.drrs.iter().enumerate() {
            self.schedule_drr(i as u32 + 1, drr.positions);
            let first = self.games.len() - 6;
            for (k, g) in drr.games.iter().enumerate() {
                let Some(game) = self.games.get_mut(first + k) else {
                    continue;
                };
                game.status = match g {
                    CarriedGame::ToPlay => GameStatus::Scheduled,
                    CarriedGame::Played { score, at } => GameStatus::Played {
                        score: *score,
                        home: None,
                        at: *at,
                    },
                    CarriedGame::Cancelled { note, at } => GameStatus::Cancelled {
                        note: super::league::consent_note(note),
                        at: *at,
                    },
                };
            }
        }
        self.carried = Some(Box::new(c.clone()));
    }

    /// Whether game `id` came in with the carried records.
    pub fn is_carried(&self, id: GameId) -> bool {
        self.carried
            .as_ref()
            .is_some_and(|c| (id.0 as usize) <= c.drrs.len() * 6 && id.0 >= 1)
    }

    /// The carry-over command's event, checked (ARB-R80).
    pub(crate) fn decide_carry_over(
        &self,
        drrs: Vec<CarriedDrr>,
        source: String,
        by: String,
        at: Time,
    ) -> Result<Vec<Event>, RuleError> {
        let source = source.trim().to_string();
        if source.is_empty() || source.chars().count() > 500 || source.chars().any(char::is_control)
        {
            return Err(RuleError::new(
                ARB_CARRY,
                "the source of the records is 1 to 500 characters on one line",
            )
            .field("source"));
        }
        let by = crate::model::person_name(&by, 64).map_err(|why| {
            RuleError::new("ARB-R22", format!("the moderator's name {why}")).field("by")
        })?;
        let c = LeagueCarryOver {
            drrs,
            source,
            by,
            at,
        };
        let after = self.replay_carried(&c)?;
        // What is stored is the records; what they leave is what the games
        // recorded one by one would have left.
        let mut applied = self.clone();
        applied.apply_carried(&c);
        if applied != after {
            return Err(RuleError::new(
                ARB_CARRY,
                "the records do not replay to one state (a game's result was normalized); enter them as recorded",
            ));
        }
        Ok(vec![Event::DrrsCarriedOver(Box::new(c))])
    }
}
