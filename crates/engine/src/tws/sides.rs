//! ASSIGNMENT OF SIDES (tws-ladder.txt) with rulings TWS-R6..R9 and ARB-R1.

use super::{Ladder, SideCounts, SideReason};
use crate::draw::{self, Seed};
use crate::model::{PlayerId, Side};

/// One player of a pairing as the side rules see him.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seat {
    pub player: PlayerId,
    pub rung: u32,
    pub history: SideCounts,
}

impl Ladder {
    /// The play history used for sides (TWS-R6: ladder games only, unless
    /// the rules count quick rounds).
    pub fn side_history(&self, player: PlayerId) -> SideCounts {
        player
            .0
            .checked_sub(1)
            .and_then(|i| self.side_table.get(i as usize))
            .copied()
            .unwrap_or_default()
    }
}

/// Decide the sides of a normal ladder game between `a` and `b`, where `a`
/// is the higher-rung player (TWS-R9: nearer rung 1). `champion` is the
/// current ladder champion if he plays in this game. Returns (side of `a`,
/// reason). `draw_index` identifies the draw under `seed` if one is needed.
pub(crate) fn assign(
    a: Seat,
    b: Seat,
    champion: Option<PlayerId>,
    seed: &Seed,
    draw_index: u64,
) -> (Side, SideReason) {
    // Rule 1: "The current Ladder Champion must always switch sides relative
    // to his previous game, and his opponent must play the opposite side."
    for (champ, is_a) in [(a, true), (b, false)] {
        if champion == Some(champ.player)
            && let Some(last) = champ.history.last
        {
            let champ_side = last.other();
            let side_a = if is_a { champ_side } else { champ_side.other() };
            return (
                side_a,
                SideReason::ChampionSwitch {
                    champion: champ.player,
                    last,
                },
            );
        }
    }
    // Rule 2.
    match (a.history.last, b.history.last) {
        // TWS-R7: neither has a ladder game: a recorded, reproducible draw.
        (None, None) => {
            let side = if draw::coin(seed, draw_index) {
                Side::Ussr
            } else {
                Side::Us
            };
            (
                side,
                SideReason::Drawn {
                    higher: a.player,
                    side,
                    draw_index,
                },
            )
        }
        // TWS-R7: a player with no ladder game can take either side, so the
        // other switches.
        (None, Some(last_b)) => (
            last_b,
            SideReason::NewcomerFlexible {
                newcomer: a.player,
                other: b.player,
                last: last_b,
            },
        ),
        (Some(last_a), None) => (
            last_a.other(),
            SideReason::NewcomerFlexible {
                newcomer: b.player,
                other: a.player,
                last: last_a,
            },
        ),
        // "if both players can switch sides relative to their last game,
        // they do so."
        (Some(last_a), Some(last_b)) if last_a != last_b => {
            (last_a.other(), SideReason::BothSwitch)
        }
        // "If only one player can switch sides, the Moderator reviews the
        // play history of both players to determine which has the most
        // unbalanced history of side-play, and assigns that player the side
        // that he has played least often".
        (Some(last_a), Some(_)) => {
            let (ia, ib) = (a.history.imbalance(), b.history.imbalance());
            if ia != ib {
                let (more, other, more_is_a) = if ia > ib { (a, b, true) } else { (b, a, false) };
                // imbalance > 0, so a least-played side exists.
                let least = more.history.least_played().unwrap_or(Side::Ussr);
                let side_a = if more_is_a { least } else { least.other() };
                return (
                    side_a,
                    SideReason::MostUnbalanced {
                        player: more.player,
                        ussr: more.history.ussr,
                        us: more.history.us,
                        other_ussr: other.history.ussr,
                        other_us: other.history.us,
                    },
                );
            }
            // "If both players have equivalently unbalanced history, then the
            // higher rung player is assigned the side he has played least
            // often."
            match a.history.least_played() {
                Some(least) => (
                    least,
                    SideReason::HigherRungLeastPlayed {
                        player: a.player,
                        ussr: a.history.ussr,
                        us: a.history.us,
                    },
                ),
                // TWS-R8: both perfectly balanced: the higher-rung player
                // switches relative to his last game.
                None => (
                    last_a.other(),
                    SideReason::HigherRungSwitch {
                        player: a.player,
                        last: last_a,
                    },
                ),
            }
        }
    }
}

/// ARB-R1: the sides of a game against an eliminator. The eliminator's
/// history does not count (TWS-R6), and a volunteer can take either side
/// (as TWS-R7), so the ladder player switches relative to his last ladder
/// game; with no ladder game yet, a recorded draw decides. Returns the side
/// of the ladder player.
pub(crate) fn assign_vs_eliminator(
    player: Seat,
    seed: &Seed,
    draw_index: u64,
) -> (Side, SideReason) {
    match player.history.last {
        Some(last) => (
            last.other(),
            SideReason::EliminatorSwitch {
                player: player.player,
                last,
            },
        ),
        None => {
            let side = if draw::coin(seed, draw_index) {
                Side::Ussr
            } else {
                Side::Us
            };
            (
                side,
                SideReason::EliminatorDrawn {
                    player: player.player,
                    side,
                    draw_index,
                },
            )
        }
    }
}
