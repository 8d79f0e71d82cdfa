//! Carrying a running ladder over from earlier records (issue 18 §1;
//! rulings ARB-R72..ARB-R76): the ladder in order, each member's side
//! history, record, skip streak and missed rounds, the champion's streak,
//! the inactive list and the round to continue from, as one event.
//!
//! The records are checked by the rules of the events they stand for
//! ([`CarriedLadder::check`]): the ladder is a permutation of its members,
//! every figure is one the rounds could have left, and each refusal names
//! the record (its index) and the field.

use std::collections::HashMap;

use super::stats::Record;
use super::{Ladder, LadderRules};
use crate::model::{Side, Time};

const CLAUSE: &str = "TWS Change of Ladder Standings";
const SKIPPING: &str = "TWS Skipping Rounds";
const SIDES: &str = "TWS Assignment of Sides";

/// One member's carried records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedMember {
    pub name: String,
    /// The surname used in game names; `None` in a command: the last word
    /// of the name (as for a player who joins). The event always has it.
    pub surname: Option<String>,
    /// Ladder games played as the USSR and as the US (TWS-R6).
    pub ussr: u32,
    pub us: u32,
    /// The side of his last ladder game; `None` with no game.
    pub last: Option<Side>,
    /// His record in ladder games.
    pub record: Record,
    /// Consecutive rounds skipped up to now (TWS-R2).
    pub skip_streak: u32,
    /// Consecutive rounds missed up to now (TWS-R4).
    pub missed: u32,
}

impl CarriedMember {
    pub fn games(&self) -> u32 {
        self.ussr.saturating_add(self.us)
    }
}

/// The state of a ladder as earlier records give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedLadder {
    /// The ladder, rung 1 first.
    pub members: Vec<CarriedMember>,
    /// The list of inactive players, in order of removal.
    pub inactive: Vec<CarriedMember>,
    /// The round the ladder continues from: the next round announced.
    pub next_round: u32,
    /// The streak of consecutive rounds at the top of the member on rung 1
    /// (0 only before round 1).
    pub champion_streak: u32,
}

/// A carry-over as recorded: the records, where they come from, who
/// entered them and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarryOver {
    pub records: CarriedLadder,
    /// Where the records come from ("the forum's ladder table of
    /// 2026-02-28").
    pub source: String,
    /// The moderator who entered them.
    pub by: String,
    pub at: Time,
}

/// A refused carry-over: the record at fault (an index into the members
/// followed by the inactive players; `None` for the ladder as a whole),
/// the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarryError {
    pub index: Option<usize>,
    pub field: &'static str,
    pub clause: &'static str,
    pub message: String,
}

impl CarryError {
    fn at(index: Option<usize>, field: &'static str, clause: &'static str, m: String) -> Self {
        CarryError {
            index,
            field,
            clause,
            message: m,
        }
    }

    /// As a [`crate::RuleError`] whose field names the record:
    /// `members[3].last_side`, `inactive[0].missed_rounds`, `round`.
    pub fn into_rule_error(self, members: usize) -> crate::RuleError {
        let field = match self.index {
            Some(i) if i < members => format!("members[{i}].{}", self.field),
            Some(i) => format!("inactive[{}].{}", i - members, self.field),
            None => self.field.to_string(),
        };
        crate::RuleError::new(self.clause, self.message).field(field)
    }
}

impl CarriedLadder {
    /// Every record, members first.
    pub fn all(&self) -> impl Iterator<Item = &CarriedMember> {
        self.members.iter().chain(&self.inactive)
    }

    /// Check the records by the rules of the events they stand for
    /// (ARB-R73). Names are checked by the decider (`person_name`).
    pub fn check(&self, rules: &LadderRules) -> Result<(), CarryError> {
        let rounds = self.next_round.checked_sub(1).ok_or_else(|| {
            CarryError::at(
                None,
                "round",
                CLAUSE,
                "the round to continue from must be at least 1".into(),
            )
        })?;
        if self.members.is_empty() {
            return Err(CarryError::at(
                None,
                "rung",
                CLAUSE,
                "the ladder has no member: nothing to carry over".into(),
            ));
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        let n = self.members.len();
        for (i, m) in self.all().enumerate() {
            let who = if i < n {
                format!("{} (rung {})", m.name.trim(), i + 1)
            } else {
                format!("{} (inactive)", m.name.trim())
            };
            let err = |field, clause, m: String| Err(CarryError::at(Some(i), field, clause, m));
            if let Some(first) = seen.insert(crate::model::name_key(&m.name), i) {
                let place = |k: usize| {
                    if k < n {
                        format!("rung {}", k + 1)
                    } else {
                        "the inactive list".to_string()
                    }
                };
                return err(
                    "name",
                    CLAUSE,
                    format!(
                        "{} is named twice: on {} and on {}; the ladder is a permutation of its members, each named once",
                        m.name.trim(),
                        place(first),
                        place(i)
                    ),
                );
            }
            // TWS-R6: the side history counts ladder games; the last side
            // is one of them.
            match (m.last, m.games()) {
                (Some(s), 0) => {
                    return err(
                        "last_side",
                        SIDES,
                        format!("{who}: last side {s} but no ladder game played"),
                    );
                }
                (None, g) if g > 0 => {
                    return err(
                        "last_side",
                        SIDES,
                        format!(
                            "{who}: {g} ladder games played but no last side; the side rules read it"
                        ),
                    );
                }
                (Some(Side::Ussr), _) if m.ussr == 0 => {
                    return err(
                        "last_side",
                        SIDES,
                        format!("{who}: last side USSR but 0 USSR games"),
                    );
                }
                (Some(Side::Us), _) if m.us == 0 => {
                    return err(
                        "last_side",
                        SIDES,
                        format!("{who}: last side US but 0 US games"),
                    );
                }
                _ => {}
            }
            // Every ladder game has a side and a result.
            let decided = m
                .record
                .wins
                .saturating_add(m.record.losses)
                .saturating_add(m.record.ties);
            if decided != m.games() {
                return err(
                    "wins",
                    CLAUSE,
                    format!(
                        "{who}: the record ({} wins, {} losses, {} ties: {decided} games) and the side history ({} USSR + {} US: {} games) must count the same ladder games",
                        m.record.wins,
                        m.record.losses,
                        m.record.ties,
                        m.ussr,
                        m.us,
                        m.games()
                    ),
                );
            }
            // At most one ladder game a round, and none in a round skipped
            // or missed (ARB-R73).
            if m.games().saturating_add(m.missed) > rounds {
                return err(
                    if m.missed > 0 {
                        "missed_rounds"
                    } else {
                        "ussr_games"
                    },
                    CLAUSE,
                    format!(
                        "{who}: {} ladder games and {} missed rounds, more than the {rounds} rounds before round {}; a member plays at most one ladder game a round",
                        m.games(),
                        m.missed,
                        self.next_round
                    ),
                );
            }
            if i < n {
                // ARB-R13: a member misses a round only by skipping it, and
                // anything else ends both runs: the two are one figure.
                if m.missed != m.skip_streak {
                    return err(
                        "missed_rounds",
                        SKIPPING,
                        format!(
                            "{who}: {} missed rounds but a skip streak of {}; a member on the ladder misses a round only by skipping it, so the two runs are equal (ARB-R13)",
                            m.missed, m.skip_streak
                        ),
                    );
                }
            } else {
                if m.skip_streak != 0 {
                    return err(
                        "skip_streak",
                        SKIPPING,
                        format!(
                            "{who}: a player on the inactive list has no skip streak (it ends when he is removed from the ladder)"
                        ),
                    );
                }
                if m.missed < rules.missed_rounds_for_inactive {
                    return err(
                        "missed_rounds",
                        SKIPPING,
                        format!(
                            "{who}: {} missed rounds; a player goes to the inactive list only after missing at least {} consecutive rounds (TWS-R4)",
                            m.missed, rules.missed_rounds_for_inactive
                        ),
                    );
                }
            }
        }
        // TWS-R4: the bottom member would have been removed.
        if let Some(bottom) = self.members.last()
            && bottom.missed >= rules.missed_rounds_for_inactive
        {
            return Err(CarryError::at(
                Some(n - 1),
                "missed_rounds",
                SKIPPING,
                format!(
                    "{} is on the bottom rung ({n}) with {} missed rounds: at least {} consecutive missed rounds on the bottom rung moves him to the inactive list (TWS-R4); put him on the inactive list",
                    bottom.name.trim(),
                    bottom.missed,
                    rules.missed_rounds_for_inactive
                ),
            ));
        }
        // The champion's streak: rounds at the top, each one played.
        if self.champion_streak > rounds {
            return Err(CarryError::at(
                Some(0),
                "champion_streak",
                CLAUSE,
                format!(
                    "a streak of {} rounds at the top, but only {rounds} rounds came before round {}",
                    self.champion_streak, self.next_round
                ),
            ));
        }
        if rounds > 0 && !self.members.is_empty() && self.champion_streak == 0 {
            return Err(CarryError::at(
                Some(0),
                "champion_streak",
                CLAUSE,
                format!(
                    "{} rounds were played, so the member on rung 1 is the Ladder Champion with a streak of at least 1 (TWS Significance of Ladder Standings)",
                    rounds
                ),
            ));
        }
        Ok(())
    }
}

impl Ladder {
    /// The carried records of `player` (ids are given in the order of the
    /// records, members first), if he came in with them.
    pub fn carried_of(&self, player: crate::model::PlayerId) -> Option<&CarriedMember> {
        let c = self.carried_over.as_ref()?;
        let i = player.index();
        let n = c.records.members.len();
        if i < n {
            c.records.members.get(i)
        } else {
            c.records.inactive.get(i - n)
        }
    }

    /// "the records carried over on 2026-03-01 (source: forum table)".
    pub fn carried_words(&self) -> Option<String> {
        let c = self.carried_over.as_ref()?;
        Some(format!(
            "the records carried over on {} (source: {}; entered by {})",
            c.at.format("%Y-%m-%d"),
            c.source,
            c.by
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::model::PlayerId;
    use crate::tws::{Command, Event, Membership};

    fn at() -> Time {
        "2026-03-01T09:00:00Z".parse().unwrap()
    }

    fn created() -> Ladder {
        let mut l = Ladder::default();
        for e in l
            .decide(Command::Create {
                name: "TWS".into(),
                rules: LadderRules::default(),
                seed_hash: [0; 32],
            })
            .unwrap()
        {
            l.apply(&e);
        }
        l
    }

    fn m(name: &str, ussr: u32, us: u32, last: Option<Side>, w: u32, missed: u32) -> CarriedMember {
        CarriedMember {
            name: name.into(),
            surname: None,
            ussr,
            us,
            last,
            record: Record {
                wins: w,
                losses: ussr + us - w,
                ties: 0,
            },
            skip_streak: missed,
            missed,
        }
    }

    fn records() -> CarriedLadder {
        let mut gone = m("Astrid Berg", 2, 1, Some(Side::Ussr), 1, 4);
        gone.skip_streak = 0;
        CarriedLadder {
            members: vec![
                m("Ana Morales", 5, 4, Some(Side::Us), 7, 0),
                m("Pieter van Dijk", 4, 4, Some(Side::Ussr), 5, 1),
                m("Kenji Watanabe", 3, 5, Some(Side::Us), 3, 0),
            ],
            inactive: vec![gone],
            next_round: 12,
            champion_streak: 2,
        }
    }

    fn carry(l: &Ladder, records: CarriedLadder) -> Result<Vec<Event>, crate::RuleError> {
        l.decide(Command::CarryOver {
            records,
            source: "forum table".into(),
            by: "Jordan Reyes".into(),
            at: at(),
        })
    }

    /// The field a refusal names.
    fn refused(records: CarriedLadder) -> String {
        let e = carry(&created(), records).unwrap_err();
        e.field.unwrap_or_default()
    }

    #[test]
    fn the_state_is_what_the_records_stand_for() {
        let mut l = created();
        for e in carry(&l, records()).unwrap() {
            l.try_apply(&e).unwrap();
        }
        let ids: Vec<PlayerId> = (1..=3).map(PlayerId).collect();
        assert_eq!(l.order, ids);
        assert_eq!(l.inactive, vec![PlayerId(4)]);
        assert_eq!(l.player(PlayerId(4)).unwrap().status, Membership::Inactive);
        assert_eq!(l.player(PlayerId(4)).unwrap().missed_streak, 4);
        assert_eq!(l.champion, Some(PlayerId(1)));
        assert_eq!(l.streak, 2);
        assert_eq!(l.next_round_number(), 12);
        let h = l.side_history(PlayerId(2), false);
        assert_eq!(
            (h.ussr, h.us, h.last, h.last_game),
            (4, 4, Some(Side::Ussr), None)
        );
        assert_eq!(l.side_history(PlayerId(2), true), h);
        assert_eq!(l.player(PlayerId(2)).unwrap().skip_streak, 1);
        assert_eq!(l.surname_of(PlayerId(2)), "van Dijk");
        let stats = l.statistics();
        assert_eq!(stats.players[0].ladder.wins, 7);
        assert_eq!(stats.players[0].ladder.losses, 2);
        assert_eq!(
            (stats.players[2].ladder_ussr, stats.players[2].ladder_us),
            (3, 5)
        );
        // Once only, and never into a ladder already running.
        assert!(carry(&l, records()).is_err());
    }

    #[test]
    fn not_into_a_ladder_with_players() {
        let mut l = created();
        for e in l
            .decide(Command::Join {
                name: "Ben Carter".into(),
                surname: None,
            })
            .unwrap()
        {
            l.apply(&e);
        }
        let e = carry(&l, records()).unwrap_err();
        assert_eq!(e.clause, "ARB-R72");
    }

    #[test]
    fn each_refusal_names_its_record_and_field() {
        let mut r = records();
        r.members[2].name = "ana  morales".into();
        assert_eq!(refused(r), "members[2].name");

        let mut r = records();
        r.members[1].name = "G7".into();
        assert_eq!(refused(r), "members[1].name");

        let mut r = records();
        r.members[0].last = Some(Side::Ussr);
        r.members[0].ussr = 0;
        r.members[0].record.wins = 0;
        assert_eq!(refused(r), "members[0].last_side");

        let mut r = records();
        r.members[1].last = None;
        assert_eq!(refused(r), "members[1].last_side");

        let mut r = records();
        r.members[2].record.ties = 1;
        assert_eq!(refused(r), "members[2].wins");

        let mut r = records();
        r.members[2] = m("Kenji Watanabe", 6, 6, Some(Side::Us), 6, 0);
        assert_eq!(refused(r), "members[2].ussr_games");

        let mut r = records();
        r.members[1].missed = 2;
        assert_eq!(refused(r), "members[1].missed_rounds");

        let mut r = records();
        r.members[2] = m("Kenji Watanabe", 3, 5, Some(Side::Us), 3, 3);
        assert_eq!(refused(r), "members[2].missed_rounds");

        let mut r = records();
        r.inactive[0].missed = 2;
        assert_eq!(refused(r), "inactive[0].missed_rounds");

        let mut r = records();
        r.inactive[0].skip_streak = 1;
        assert_eq!(refused(r), "inactive[0].skip_streak");

        let mut r = records();
        r.champion_streak = 12;
        assert_eq!(refused(r), "members[0].champion_streak");

        let mut r = records();
        r.champion_streak = 0;
        assert_eq!(refused(r), "members[0].champion_streak");

        let mut r = records();
        r.next_round = 0;
        assert_eq!(refused(r), "round");

        let mut r = records();
        r.members.clear();
        assert_eq!(refused(r), "rung");
    }
}
