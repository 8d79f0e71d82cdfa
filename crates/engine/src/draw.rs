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
    fn coin_is_reproducible_and_varies_by_index() {
        let seed = [42u8; 32];
        let a: Vec<bool> = (0..64).map(|i| coin(&seed, i)).collect();
        let b: Vec<bool> = (0..64).map(|i| coin(&seed, i)).collect();
        assert_eq!(a, b);
        let heads = a.iter().filter(|x| **x).count();
        assert!(heads > 10 && heads < 54, "64 flips gave {heads} heads");
    }
}
