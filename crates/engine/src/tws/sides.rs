//! ASSIGNMENT OF SIDES (tws-ladder.txt) with rulings TWS-R6..R9 and ARB-R1.

use super::{Ladder, SideCounts, SideReason};
use crate::draw::{self, DrawKey, Seed};
use crate::model::GameId;
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
    /// `quick`, the rules in force at the assignment counting quick
    /// rounds: then every recorded game counts, those recorded before the
    /// setting was turned on included, ARB-R60).
    pub fn side_history(&self, player: PlayerId, quick: bool) -> SideCounts {
        player
            .0
            .checked_sub(1)
            .and_then(|i| self.side_table.get(i as usize))
            .map(|h| h[usize::from(quick)])
            .unwrap_or_default()
    }
}

/// A side draw of a game recomputed from its round's revealed seed
/// (`arbiter draw verify`, ARB-R8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawRecheck {
    pub game: GameId,
    /// The player the draw gave a side to (the higher rung, or the ladder
    /// player against an eliminator).
    pub player: PlayerId,
    /// The side recorded for `player`.
    pub recorded: Side,
    /// The key of the stream the event recorded.
    pub recorded_key: DrawKey,
    /// The key the rules give this game: its pair (or ladder player) for a
    /// draw keyed by players; its position in the round for a round drawn
    /// by positions, before issue 14 (item 8).
    pub key: DrawKey,
    /// The side the seed gives on `key`'s stream.
    pub recomputed: Side,
    /// Whether `player` plays `recorded` in the game.
    pub plays_recorded: bool,
}

impl DrawRecheck {
    /// The draw verifies: the recorded key is the game's, the seed gives
    /// the recorded side on it, and the player plays that side.
    pub fn matches(&self) -> bool {
        self.recorded_key.stream() == self.key.stream()
            && self.recorded == self.recomputed
            && self.plays_recorded
    }
}

fn drawn_side(seed: &Seed, key: DrawKey) -> Side {
    if draw::side_coin(seed, key) {
        Side::Ussr
    } else {
        Side::Us
    }
}

impl Ladder {
    /// Every side draw of round `round`, recomputed (ARB-R8); `None` if the
    /// round was not announced. A draw keyed by players must carry its
    /// game's key (the pair, or the ladder player against an eliminator); a
    /// draw of a round keyed by positions (announced before issue 14, item
    /// 8) must carry its game's position in the round, as it did then.
    pub fn recheck_draws(&self, round: u32) -> Option<Vec<DrawRecheck>> {
        let r = self.rounds.iter().find(|r| r.number == round)?;
        let mut out = Vec::new();
        // The round's games are in the order they got their positions: the
        // announced games, the games carried into it, the games added.
        for (i, g) in r.games.iter().enumerate() {
            // A game carried into the round (ARB-R21) was drawn in its own.
            let Some(g) = self.game(*g).filter(|g| g.round == Some(r.number)) else {
                continue;
            };
            let (player, recorded, stream, own) = match g.sides {
                SideReason::Drawn {
                    higher,
                    side,
                    draw_index,
                } => (
                    higher,
                    side,
                    draw_index,
                    DrawKey::pair(g.ussr.player.0, g.us.player.0),
                ),
                SideReason::EliminatorDrawn {
                    player,
                    side,
                    draw_index,
                } => (player, side, draw_index, DrawKey::Player(player.0)),
                _ => continue,
            };
            let recorded_key = DrawKey::of_stream(stream);
            let key = match recorded_key {
                DrawKey::Position(_) => DrawKey::Position(u32::try_from(i + 1).unwrap_or(u32::MAX)),
                DrawKey::Pair(..) | DrawKey::Player(_) => own,
            };
            out.push(DrawRecheck {
                game: g.id,
                player,
                recorded,
                recorded_key,
                key,
                recomputed: drawn_side(&r.seed, key),
                plays_recorded: g.side_of(player) == Some(recorded),
            });
        }
        Some(out)
    }
}

/// Decide the sides of a normal ladder game between `a` and `b`, where `a`
/// is the higher-rung player (TWS-R9: nearer rung 1). `champion` is the
/// current ladder champion if he plays in this game. Returns (side of `a`,
/// reason). `key` identifies the draw under `seed` if one is needed
/// (ARB-R8: the pair, never its position in the round; issue 14, item 8).
pub(crate) fn assign(
    a: Seat,
    b: Seat,
    champion: Option<PlayerId>,
    seed: &Seed,
    key: DrawKey,
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
                    game: champ.history.last_game,
                },
            );
        }
    }
    // Rule 2.
    match (a.history.last, b.history.last) {
        // TWS-R7: neither has a ladder game: a recorded, reproducible draw.
        (None, None) => {
            let side = drawn_side(seed, key);
            (
                side,
                SideReason::Drawn {
                    higher: a.player,
                    side,
                    draw_index: key.stream(),
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
                game: b.history.last_game,
            },
        ),
        (Some(last_a), None) => (
            last_a.other(),
            SideReason::NewcomerFlexible {
                newcomer: b.player,
                other: a.player,
                last: last_a,
                game: a.history.last_game,
            },
        ),
        // "if both players can switch sides relative to their last game,
        // they do so."
        (Some(last_a), Some(last_b)) if last_a != last_b => {
            let side_a = last_a.other();
            let games = a.history.last_game.zip(b.history.last_game);
            // (the player now USSR's game, the player now US's)
            let games = if side_a == Side::Ussr {
                games
            } else {
                games.map(|(ga, gb)| (gb, ga))
            };
            (side_a, SideReason::BothSwitch { games })
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
                        game: a.history.last_game,
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
pub(crate) fn assign_vs_eliminator(player: Seat, seed: &Seed, key: DrawKey) -> (Side, SideReason) {
    match player.history.last {
        Some(last) => (
            last.other(),
            SideReason::EliminatorSwitch {
                player: player.player,
                last,
                game: player.history.last_game,
            },
        ),
        None => {
            let side = drawn_side(seed, key);
            (
                side,
                SideReason::EliminatorDrawn {
                    player: player.player,
                    side,
                    draw_index: key.stream(),
                },
            )
        }
    }
}
