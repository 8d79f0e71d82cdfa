//! Explanations of the ladder's decisions: the rule clause, the rulings and
//! the figures, in words.

use super::{
    Confirmer, Game, Ladder, Move, MoveReason, PairingMethod, PairingReason, Retirement, Round,
    SideReason,
};
use crate::draw::DrawKey;
use crate::explain::Explanation;
use crate::model::{Counts, GameId, PlayerId, Side};

const SIDES: &str = "TWS Assignment of Sides";
const STANDINGS: &str = "TWS Change of Ladder Standings";
const SKIPPING: &str = "TWS Skipping Rounds";
const PAIRINGS: &str = "TWS Pairings";

/// A recorded side draw in words (ARB-R8): `keyed` for a draw keyed by its
/// players; "draw k" for a round drawn by positions, before issue 14
/// (item 8).
fn draw_name(stream: u64, keyed: &str) -> String {
    match DrawKey::of_stream(stream) {
        DrawKey::Position(k) => format!("draw {k}"),
        DrawKey::Pair(..) | DrawKey::Player(_) => keyed.to_string(),
    }
}

/// `"; last game counted: …"` as `" (last game counted: …)"`.
fn paren(words: &str) -> String {
    match words.strip_prefix("; ") {
        Some(w) => format!(" ({w})"),
        None => String::new(),
    }
}

impl Ladder {
    /// The game a side assignment counted as `player`'s last, in words
    /// ("last game counted: quick game G31 in round 3"), or nothing for a
    /// reason recorded before issue 15, which did not name it.
    fn last_counted(&self, player: PlayerId, game: Option<GameId>) -> String {
        let Some(g) = game.and_then(|g| self.game(g)) else {
            // No game recorded since the ladder was carried over: the last
            // side is the carried one (issue 18 §1, ARB-R74).
            return match (
                self.carried_of(player).and_then(|m| m.last),
                self.carried_words(),
            ) {
                (Some(side), Some(words)) if game.is_none() => {
                    format!("; his last side, {side}, comes from {words}")
                }
                _ => String::new(),
            };
        };
        // A quick-round game is placed by the round running when it was
        // scheduled, or the last one closed before it.
        let placed = match g.round {
            Some(r) => format!("in round {r}"),
            None => match self
                .rounds
                .iter()
                .rev()
                .find(|r| r.announced_at < g.scheduled_at)
            {
                Some(r) if r.closed.as_ref().is_some_and(|c| c.at <= g.scheduled_at) => {
                    format!("after round {}", r.number)
                }
                Some(r) => format!("in round {}", r.number),
                None => "before round 1".to_string(),
            },
        };
        let kind = match (
            g.participants().iter().find(|p| p.player == player),
            g.round,
        ) {
            (Some(p), _) if p.counts == Counts::Ladder => "ladder game",
            (_, Some(_)) => "quick game (as eliminator)",
            _ => "quick game",
        };
        format!("; last game counted: {kind} {} {placed}", g.id)
    }

    /// `e` with ARB-R74 among its rulings when its words cite the records
    /// the ladder was carried over from.
    fn citing_carried(&self, mut e: Explanation) -> Explanation {
        if self.carried_words().is_some_and(|w| e.text.contains(&w)) {
            e.rulings.push("ARB-R74");
        }
        e
    }

    /// The share of the carried records in the side counts of `game`'s
    /// players (ARB-R74): "; of these, Ana Morales's 7 USSR / 4 US and ...
    /// come from the records carried over on ...", or nothing.
    fn carried_counts(&self, game: &Game) -> String {
        let Some(words) = self.carried_words() else {
            return String::new();
        };
        let shares: Vec<String> = game
            .participants()
            .iter()
            .filter(|p| p.counts == Counts::Ladder)
            .filter_map(|p| {
                let m = self.carried_of(p.player)?;
                (m.games() > 0)
                    .then(|| format!("{}'s {} USSR / {} US", self.name_of(p.player), m.ussr, m.us))
            })
            .collect();
        if shares.is_empty() {
            String::new()
        } else {
            format!("; of these, {} come from {words}", shares.join(" and "))
        }
    }

    /// Why the players of `game` have their sides.
    pub fn explain_sides(&self, game: &Game) -> Explanation {
        self.citing_carried(self.explain_sides_uncited(game))
    }

    fn explain_sides_uncited(&self, game: &Game) -> Explanation {
        let n = |p| self.name_of(p);
        let ussr = n(game.ussr.player);
        let us = n(game.us.player);
        // TWS-R6, and its configurable reading: which games the history
        // counted, by the rules of the game's round (issue 15).
        let quick = self.rules_for_game(game.id).sides_count_quick_rounds;
        let counted = if quick {
            "game (ladder and quick rounds count, TWS-R6)"
        } else {
            "ladder game"
        };
        match &game.sides {
            SideReason::ChampionSwitch {
                champion,
                last,
                game: was,
            } => Explanation::new(
                SIDES,
                &["TWS-R6"],
                format!(
                    "{} is the Ladder Champion and must switch sides relative to the previous game ({last}{}), so plays the {}; the opponent plays the opposite side (rule 1)",
                    n(*champion),
                    self.last_counted(*champion, *was),
                    last.other()
                ),
            ),
            SideReason::BothSwitch { games } => {
                let (gu, gs) = games.map_or((None, None), |(a, b)| (Some(a), Some(b)));
                Explanation::new(
                    SIDES,
                    &["TWS-R6"],
                    format!(
                        "both players can switch sides relative to their last {counted}, so they do: {ussr} played the US last{} and now plays the USSR, {us} played the USSR last{} and now plays the US (rule 2)",
                        paren(&self.last_counted(game.ussr.player, gu)),
                        paren(&self.last_counted(game.us.player, gs))
                    ),
                )
            }
            SideReason::NewcomerFlexible {
                newcomer,
                other,
                last,
                game: was,
            } => Explanation::new(
                SIDES,
                &["TWS-R7"],
                format!(
                    "{} has no {counted} yet and can take either side; {} switches relative to the last {counted} ({last}{}) and plays the {}",
                    n(*newcomer),
                    n(*other),
                    self.last_counted(*other, *was),
                    last.other()
                ),
            ),
            SideReason::MostUnbalanced {
                player,
                ussr: pu,
                us: pa,
                other_ussr,
                other_us,
            } => {
                let least = if pu < pa { Side::Ussr } else { Side::Us };
                Explanation::new(
                    SIDES,
                    &["TWS-R6"],
                    format!(
                        "both played the same side last, so only one can switch; {} has the more unbalanced history ({pu} USSR / {pa} US, imbalance {}) against the opponent's ({other_ussr} USSR / {other_us} US, imbalance {}), so gets the side played least often, the {least} (rule 2){}",
                        n(*player),
                        pu.abs_diff(*pa),
                        other_ussr.abs_diff(*other_us),
                        self.carried_counts(game)
                    ),
                )
            }
            SideReason::HigherRungLeastPlayed {
                player,
                ussr: pu,
                us: pa,
            } => {
                let least = if pu < pa { Side::Ussr } else { Side::Us };
                Explanation::new(
                    SIDES,
                    &["TWS-R9"],
                    format!(
                        "only one can switch and both histories are equally unbalanced (imbalance {}); {} has the higher rung and gets the side played least often ({pu} USSR / {pa} US), the {least} (rule 2){}",
                        pu.abs_diff(*pa),
                        n(*player),
                        self.carried_counts(game)
                    ),
                )
            }
            SideReason::HigherRungSwitch {
                player,
                last,
                game: was,
            } => Explanation::new(
                SIDES,
                &["TWS-R8", "TWS-R9"],
                format!(
                    "only one can switch and both histories are perfectly balanced; {} has the higher rung and switches relative to the last {counted} ({last}{}), playing the {}",
                    n(*player),
                    self.last_counted(*player, *was),
                    last.other()
                ),
            ),
            SideReason::Drawn {
                higher,
                side,
                draw_index,
            } => Explanation::new(
                SIDES,
                &["TWS-R7"],
                format!(
                    "neither player has a ladder game yet; a recorded draw (seed of round {}, {}) gave {} (the higher rung) the {side}",
                    game.round.unwrap_or(0),
                    draw_name(*draw_index, "the pair's draw"),
                    n(*higher)
                ),
            ),
            SideReason::EliminatorSwitch {
                player,
                last,
                game: was,
            } => Explanation::new(
                SIDES,
                &["TWS-R6", "ARB-R1"],
                format!(
                    "against a volunteer eliminator (whose history does not count), {} switches relative to the last {counted} ({last}{}) and plays the {}",
                    n(*player),
                    self.last_counted(*player, *was),
                    last.other()
                ),
            ),
            SideReason::EliminatorDrawn {
                player,
                side,
                draw_index,
            } => Explanation::new(
                SIDES,
                &["TWS-R7", "ARB-R1"],
                format!(
                    "{} has no ladder game yet and plays a volunteer eliminator; a recorded draw (seed of round {}, {}) gave the {side}",
                    n(*player),
                    game.round.unwrap_or(0),
                    draw_name(*draw_index, "his own draw, whichever volunteer he meets")
                ),
            ),
            SideReason::Chosen => Explanation::new(
                "TWS Quick Rounds",
                &[],
                format!("sides of a quick-round game as arranged: {ussr} USSR, {us} US"),
            ),
        }
    }

    /// Why the round's deadline is what it is (TWS Conduct of Games).
    pub fn explain_deadline(&self, r: &Round) -> Explanation {
        let months = self.rules_for(r.number).deadline_months;
        let limit = super::rules::deadline_limit(r.announced_at, months);
        let day = |t: crate::model::Time| t.format("%Y-%m-%d").to_string();
        let text = if r.deadline >= limit {
            format!(
                "{}, the limit of {months} months from the announcement on {}",
                day(r.deadline),
                day(r.announced_at)
            )
        } else {
            format!(
                "{}, set by the moderator within the limit of {months} months from the announcement ({})",
                day(r.deadline),
                day(limit)
            )
        };
        Explanation::new("TWS Conduct of Games", &[], text)
    }

    /// Which automatic bid applies to a round and why (TWS Play Balance).
    pub fn explain_bid(&self, r: &Round) -> Explanation {
        let version = self.rules.iter().rev().find(|v| v.from_round <= r.number);
        let text = match version {
            Some(v) if v.from_round > 1 => format!(
                "{}: the bid of the rules in force from round {} ({}), announced before the round began",
                r.bid, v.from_round, v.reason
            ),
            _ => format!("{}: the ladder's automatic bid since round 1", r.bid),
        };
        Explanation::new("TWS Play Balance", &["ARB-R17"], text)
    }

    /// Who moderates a game and why.
    pub fn explain_moderator(&self, game: &Game) -> Explanation {
        match self.moderator_name(game.moderator) {
            Some(m) => Explanation::new(
                "TWS Conduct of Games",
                &["ARB-R2"],
                format!(
                    "{m} moderates: the moderators take the games in turn, and no participant in a game may moderate his own game"
                ),
            ),
            None => Explanation::new(
                "TWS Quick Rounds",
                &["ARB-R2"],
                "no moderator was free of this game when it was scheduled",
            ),
        }
    }

    /// Who confirmed or rejected a report, in words: the player's name or
    /// "moderator Name".
    pub fn confirmer_name(&self, by: &Confirmer) -> String {
        match by {
            Confirmer::Player(p) => self.name_of(*p),
            Confirmer::Moderator(name) => format!("moderator {name}"),
        }
    }

    /// Where a game's reported result stands, if one is pending: who
    /// reported it and who may confirm it (ARB-R45).
    pub fn explain_report(&self, game: &Game) -> Option<Explanation> {
        let report = game.report.as_ref()?;
        let other = if game.ussr.player == report.by {
            game.us.player
        } else {
            game.ussr.player
        };
        let late = game.deadline.is_some_and(|d| report.at > d);
        let who = if late {
            format!(
                "{} (reported after the deadline, it is an agreed outcome once he confirms it; otherwise the moderator adjudicates)",
                self.name_of(other)
            )
        } else {
            format!(
                "{} or a moderator who does not play in the game",
                self.name_of(other)
            )
        };
        Some(Explanation::new(
            "TWS Conduct of Games",
            if late {
                &["ARB-R45", "ARB-R5"]
            } else {
                &["ARB-R45"]
            },
            format!(
                "reported by {} ({}, {}), awaiting confirmation by {who}; nobody confirms his own game's report",
                self.name_of(report.by),
                report.result.outcome.describe(),
                report.result.ended_by.describe()
            ),
        ))
    }

    /// Why the players of `game` were paired.
    pub fn explain_pairing(&self, game: &Game) -> Explanation {
        match &game.pairing {
            PairingReason::Adjacent { rungs: (a, b) } => Explanation::new(
                PAIRINGS,
                &["TWS-R10"],
                format!(
                    "adjacent in the standings among the players active in the round: rung {a} plays rung {b}"
                ),
            ),
            PairingReason::Eliminator { rung } => Explanation::new(
                PAIRINGS,
                &["TWS-R10"],
                format!(
                    "the odd last player (rung {rung}) plays a volunteer eliminator; the game counts as a ladder game for that player and as a quick-round game for the eliminator"
                ),
            ),
            PairingReason::Override { reason } => Explanation::new(
                PAIRINGS,
                &["TWS-R10"],
                format!("an exception made by the moderator: {reason}"),
            ),
            PairingReason::Late { reason } => Explanation::new(
                PAIRINGS,
                &["TWS-R5"],
                format!("paired after the round started: {reason}"),
            ),
            PairingReason::QuickRound => Explanation::new(
                "TWS Quick Rounds",
                &[],
                "a quick-round game: recorded for statistics, no effect on the ladder",
            ),
        }
    }

    /// Why a player moved where he did when a round closed.
    pub fn explain_move(&self, m: &Move) -> Explanation {
        self.citing_carried(self.explain_move_uncited(m))
    }

    fn explain_move_uncited(&self, m: &Move) -> Explanation {
        let who = self.name_of(m.player);
        let (from, to) = (m.from, m.to);
        let game_name = |g| {
            self.game(g)
                .map_or_else(|| g.to_string(), |g| format!("\"{}\"", self.game_name(g)))
        };
        match m.reason {
            MoveReason::Won { game, tie } | MoveReason::Lost { game, tie } => {
                let won = matches!(m.reason, MoveReason::Won { .. });
                let verb = match (won, tie) {
                    (true, false) => "won",
                    (true, true) => "advances on the tie as the US in",
                    (false, false) => "lost",
                    (false, true) => "tied as the USSR (the US advances on ties) in",
                };
                let rule = if won {
                    "all winners move toward the top keeping their relative order"
                } else {
                    "all losers drop toward the bottom keeping their relative order"
                };
                Explanation::new(
                    STANDINGS,
                    if tie {
                        &["TWS-R1", "TWS-R11"]
                    } else {
                        &["TWS-R1"]
                    },
                    format!(
                        "{who} {verb} {} and {}: {rule}",
                        game_name(game),
                        if from == to {
                            format!("stays on rung {to}")
                        } else {
                            format!("moves from rung {from} to rung {to}")
                        }
                    ),
                )
            }
            // TWS-R3: a skipper below another skipper may land one rung
            // lower than his prior rung (rungs 1 and 2 skip: 2 and 3).
            MoveReason::Skipped if from != to => Explanation::new(
                SKIPPING,
                &["TWS-R3"],
                format!(
                    "{who} skipped the round from prior rung {from}; skippers are reinserted in order of their prior rungs and keep their relative order, so the reinsertion is at rung {to}"
                ),
            ),
            MoveReason::Skipped => Explanation::new(
                SKIPPING,
                &["TWS-R3"],
                format!(
                    "{who} skipped the round and is reinserted at the prior rung {to}, dropping all equal and lower rungs down one"
                ),
            ),
            MoveReason::SkippedTop => Explanation::new(
                SKIPPING,
                &["TWS-R3"],
                format!(
                    "{who} skipped the round from rung 1: reinserted at rung {to}, and the streak at the top is broken"
                ),
            ),
            MoveReason::SkipLoss { consecutive } => Explanation::new(
                SKIPPING,
                &["TWS-R2"],
                format!(
                    "{who} skipped a {} consecutive round, which counts as a loss: sorted among the losers, rung {from} to rung {to}{}",
                    ordinal(consecutive),
                    self.carried_run(
                        m.player,
                        consecutive,
                        |c| c.moves.contains(m),
                        ("skip", "skips")
                    )
                ),
            ),
            MoveReason::Bye => {
                // A bye is the odd last player's without an eliminator, or
                // one the moderator gave in a pairing exception.
                let why = match self.bye_exception(m) {
                    Some(reason) => format!("given by the moderator's exception: {reason}"),
                    None => "odd last player, no eliminator".to_string(),
                };
                Explanation::new(
                    PAIRINGS,
                    &["TWS-R10"],
                    format!("{who} had a bye ({why}) and {}", kept(from, to)),
                )
            }
            MoveReason::NoResult { game } => Explanation::new(
                STANDINGS,
                &["ARB-R3"],
                format!(
                    "{} was cancelled; {who} {}",
                    game_name(game),
                    kept(from, to)
                ),
            ),
            MoveReason::Entered => Explanation::new(
                STANDINGS,
                &["TWS-R4", "TWS-R5"],
                format!(
                    "{who} joined during the round without a game and enters at the bottom in order of entry, rung {to}"
                ),
            ),
            MoveReason::CarriedOver { game } => Explanation::new(
                PAIRINGS,
                &["ARB-R21"],
                format!(
                    "{} was still being played when the moderator closed the round early to start the next one; {who} {} and the game counts in the next round",
                    game_name(game),
                    if from == to {
                        format!("keeps rung number {to}")
                    } else {
                        format!(
                            "keeps the place among those who did not play (prior rung {from}, now rung {to})"
                        )
                    }
                ),
            ),
        }
    }

    /// When a run of `run` skips or missed rounds ending in the round whose
    /// close `is_it` finds is longer than the rounds since the ladder was
    /// carried over, its start comes from the carried records (ARB-R74):
    /// "; the first 2 missed rounds come from the records carried over on
    /// ..." ("the first skip comes from ..."), or nothing.
    fn carried_run(
        &self,
        player: PlayerId,
        run: u32,
        is_it: impl Fn(&super::RoundClosed) -> bool,
        (one, many): (&str, &str),
    ) -> String {
        let (Some(c), Some(words)) = (self.carried_over.as_ref(), self.carried_words()) else {
            return String::new();
        };
        let Some(round) = self
            .rounds
            .iter()
            .find(|r| r.closed.as_deref().is_some_and(&is_it))
        else {
            return String::new();
        };
        let since = (round.number + 1).saturating_sub(c.records.next_round);
        let carried = run.saturating_sub(since);
        if carried == 0 || self.carried_of(player).is_none() {
            return String::new();
        }
        if carried == 1 {
            format!("; the first {one} comes from {words}")
        } else {
            format!("; the first {carried} {many} come from {words}")
        }
    }

    /// The reason of the pairing exception that gave `m`'s player his bye,
    /// if his round was paired by an exception.
    fn bye_exception(&self, m: &Move) -> Option<String> {
        self.rounds
            .iter()
            .rev()
            .filter(|r| r.byes.iter().any(|(p, _)| *p == m.player))
            .find(|r| r.closed.as_ref().is_some_and(|c| c.moves.contains(m)))
            .and_then(|r| match &r.pairing {
                PairingMethod::Override { reason } => Some(reason.clone()),
                PairingMethod::Adjacent => None,
            })
    }

    /// Why a player went to the inactive list.
    pub fn explain_retirement(&self, r: &Retirement) -> Explanation {
        self.citing_carried(self.explain_retirement_uncited(r))
    }

    fn explain_retirement_uncited(&self, r: &Retirement) -> Explanation {
        Explanation::new(
            SKIPPING,
            &["TWS-R4"],
            format!(
                "{} has missed {} consecutive rounds and occupied the bottom rung ({}): moved to the list of inactive players; re-entry is at the bottom{}",
                self.name_of(r.player),
                r.missed,
                r.rung,
                self.carried_run(
                    r.player,
                    r.missed,
                    |c| c.inactive.contains(r),
                    ("missed round", "missed rounds")
                )
            ),
        )
    }
}

/// What happened to a player who kept his rung number like a skipper:
/// "keeps rung number 4"; from rung 1, the TWS-R3 exception; or, when a
/// keeper above pushed him down (keepers keep their relative order), both
/// rungs.
fn kept(from: u32, to: u32) -> String {
    if from == to {
        format!("keeps rung number {to} like a skipper")
    } else if from == 1 {
        format!(
            "is reinserted at rung {to}, as a skipper on rung 1 would be, and the streak at the top is broken (TWS-R3)"
        )
    } else {
        format!(
            "keeps the order of prior rungs like a skipper: prior rung {from}, reinserted at rung {to} after the keepers above (TWS-R3)"
        )
    }
}

fn ordinal(n: u32) -> String {
    crate::explain::ordinal(n as usize)
}
