//! Reproducible draws. A draw's seed is committed (its SHA-256 published in
//! an event) before the draw and revealed in the event that uses it; the
//! outcome is stored in the event too, so a replay never depends on the
//! random algorithm, and anyone can recompute it from the revealed seed.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A 32-byte draw seed.
pub type Seed = [u8; 32];

/// The commitment published before a draw: SHA-256 of the seed.
pub fn commitment(seed: &Seed) -> [u8; 32] {
    Sha256::digest(seed).into()
}

/// Whether `seed` is the one committed by `hash`.
pub fn verify(seed: &Seed, hash: &[u8; 32]) -> bool {
    &commitment(seed) == hash
}

/// A coin flip for draw number `index` under `seed`: ChaCha20 seeded with
/// the seed, stream `index`, first 32-bit word, lowest bit. `true` means the
/// first-named party wins the flip.
pub fn coin(seed: &Seed, index: u64) -> bool {
    let mut rng = ChaCha20Rng::from_seed(*seed);
    rng.set_stream(index);
    rng.next_u32() & 1 == 1
}

/// What a side draw's stream is keyed by (ARB-R8). The stream is what a
/// `SideReason` records as its `draw_index`; its value tells the keying:
/// positions are below 2^32, player keys are at or above it (player ids
/// start at 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawKey {
    /// Rounds announced before issue 14 (item 8): the game's position in
    /// its round, 1 for the first game announced. A moderator could reorder
    /// the pairs of an exception to move a pair to another position, so
    /// new draws are no longer keyed this way; old ones verify by it.
    Position(u32),
    /// A game between two ladder players, by their ids (either order).
    Pair(u32, u32),
    /// A ladder player against a volunteer eliminator, by the ladder
    /// player's id alone: the moderator may name any volunteer (ARB-R15),
    /// so the volunteer's id is no part of the key.
    Player(u32),
}

impl DrawKey {
    /// The key of a game between players `a` and `b`, in either order.
    pub fn pair(a: u32, b: u32) -> Self {
        Self::Pair(a.min(b), a.max(b))
    }

    /// The stream the draw uses: a position as is; a pair as
    /// `(smaller id << 32) | larger id`; a player as `id << 32` (a pair's
    /// larger id is at least 2, so the two never meet).
    pub fn stream(self) -> u64 {
        match self {
            Self::Position(k) => u64::from(k),
            Self::Pair(a, b) => (u64::from(a.min(b)) << 32) | u64::from(a.max(b)),
            Self::Player(p) => u64::from(p) << 32,
        }
    }

    /// The key a recorded stream was made from.
    pub fn of_stream(stream: u64) -> Self {
        // Both halves fit in 32 bits by construction.
        let (high, low) = ((stream >> 32) as u32, stream as u32);
        match (high, low) {
            (0, k) => Self::Position(k),
            (p, 0) => Self::Player(p),
            (a, b) => Self::Pair(a, b),
        }
    }
}

/// The side draw for `key` under `seed` (ARB-R8): [`coin`] on the key's
/// stream.
pub fn side_coin(seed: &Seed, key: DrawKey) -> bool {
    coin(seed, key.stream())
}

/// A die: faces `1..=faces` drawn from ChaCha20 seeded with a revealed seed,
/// on stream `stream`. Each face takes the next 32-bit word; words at or
/// above the largest multiple of `faces` are skipped so every face is
/// equally likely. Anyone with the seed gets the same faces.
#[derive(Debug)]
pub struct Dice {
    rng: ChaCha20Rng,
    faces: u8,
}

impl Dice {
    /// `faces` is at least 2 (a one-faced die decides nothing).
    pub fn new(seed: &Seed, stream: u64, faces: u8) -> Self {
        let mut rng = ChaCha20Rng::from_seed(*seed);
        rng.set_stream(stream);
        Self {
            rng,
            faces: faces.max(2),
        }
    }

    /// The next face, `1..=faces`.
    pub fn roll(&mut self) -> u8 {
        let n = u32::from(self.faces);
        let limit = u32::MAX - u32::MAX % n;
        loop {
            let w = self.rng.next_u32();
            if w < limit {
                // w % n < n <= 255
                return (w % n) as u8 + 1;
            }
        }
    }
}

/// One round of die rolls: each player's face, in the order the players
/// rolled.
pub type RollRound<P> = Vec<(P, u8)>;

/// Rounds of die rolls that order `players` highest yield first, ties
/// broken by further rounds among the tied players only (XM-R1). Rounds are
/// rolled depth first: after the first round, the highest tied group rolls
/// again (and so on inside it) before the next tied group. Returns the
/// rounds and the order.
pub fn roll_order<P: Copy + Eq>(dice: &mut Dice, players: &[P]) -> (Vec<RollRound<P>>, Vec<P>) {
    let mut rounds = Vec::new();
    let mut order = Vec::with_capacity(players.len());
    roll_into(dice, players, &mut rounds, &mut order);
    (rounds, order)
}

fn roll_into<P: Copy + Eq>(
    dice: &mut Dice,
    players: &[P],
    rounds: &mut Vec<RollRound<P>>,
    order: &mut Vec<P>,
) {
    if players.len() < 2 {
        order.extend_from_slice(players);
        return;
    }
    let round: RollRound<P> = players.iter().map(|&p| (p, dice.roll())).collect();
    rounds.push(round.clone());
    let mut faces: Vec<u8> = round.iter().map(|r| r.1).collect();
    faces.sort_unstable_by(|a, b| b.cmp(a));
    faces.dedup();
    for face in faces {
        let tied: Vec<P> = round.iter().filter(|r| r.1 == face).map(|r| r.0).collect();
        roll_into(dice, &tied, rounds, order);
    }
}

/// Rounds of die rolls among `players` until the faces are not all equal
/// (at least one player is separated): a tiebreak step that is a "round of
/// die-roll" (XM-R3), after which the cascade goes on with the players still
/// tied. Returns the rounds; the last one separates.
pub fn roll_until_separated<P: Copy>(dice: &mut Dice, players: &[P]) -> Vec<RollRound<P>> {
    let mut rounds = Vec::new();
    loop {
        let round: RollRound<P> = players.iter().map(|&p| (p, dice.roll())).collect();
        let separated = round.iter().any(|r| r.1 != round[0].1);
        rounds.push(round);
        if separated || players.len() < 2 {
            return rounds;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_verifies_only_its_seed() {
        let seed = [7u8; 32];
        let hash = commitment(&seed);
        assert!(verify(&seed, &hash));
        assert!(!verify(&[8u8; 32], &hash));
    }

    #[test]
    fn dice_are_uniform_enough_and_reproducible() {
        let seed = [3u8; 32];
        let mut d = Dice::new(&seed, 0, 6);
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            counts[usize::from(d.roll() - 1)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
        let a: Vec<u8> = (0..20).map(|_| Dice::new(&seed, 1, 6).roll()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn roll_order_rerolls_only_the_tied_players() {
        for s in 0..200u8 {
            let seed = [s; 32];
            let (rounds, order) = roll_order(&mut Dice::new(&seed, 0, 6), &[1, 2, 3]);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![1, 2, 3]);
            assert_eq!(rounds[0].len(), 3);
            for r in &rounds[1..] {
                assert!(r.len() < 3 || rounds[0].iter().all(|x| x.1 == rounds[0][0].1));
            }
        }
    }

    #[test]
    fn draw_keys_round_trip_and_never_meet_positions() {
        for key in [
            DrawKey::Position(1),
            DrawKey::Position(u32::MAX),
            DrawKey::pair(1, 2),
            DrawKey::pair(7, 3),
            DrawKey::pair(u32::MAX - 1, u32::MAX),
            DrawKey::Player(1),
            DrawKey::Player(u32::MAX),
        ] {
            assert_eq!(DrawKey::of_stream(key.stream()), key, "{key:?}");
        }
        assert_eq!(DrawKey::pair(3, 7), DrawKey::pair(7, 3));
        assert_eq!(DrawKey::pair(3, 7).stream(), (3 << 32) | 7);
        assert!(DrawKey::pair(1, 2).stream() > u64::from(u32::MAX));
        assert!(DrawKey::Player(1).stream() > u64::from(u32::MAX));
        assert_ne!(DrawKey::Player(1).stream(), DrawKey::pair(1, 2).stream());
    }

    #[test]
    fn coin_is_reproducible_and_varies_by_index() {
        let seed = [42u8; 32];
        let a: Vec<bool> = (0..64).map(|i| coin(&seed, i)).collect();
        let b: Vec<bool> = (0..64).map(|i| coin(&seed, i)).collect();
        assert_eq!(a, b);
        let heads = a.iter().filter(|x| **x).count();
        assert!(heads > 10 && heads < 54, "64 flips gave {heads} heads");
    }
}
