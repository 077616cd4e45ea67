//! The game's one source of randomness.
//!
//! A small PCG-32 generator of our own rather than `rand`'s: its state is two
//! numbers that serialize with the game, and its output (and our shuffle) can
//! never change under a dependency upgrade, so old saves and replays stay valid.

use serde::{Deserialize, Serialize};

/// Seeded, serializable PCG-XSH-RR 64/32 generator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    state: u64,
    inc: u64,
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

impl GameRng {
    pub fn from_seed(seed: u64) -> Self {
        let mut rng = GameRng { state: 0, inc: (seed.rotate_left(17) << 1) | 1 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform in `0..n` (Lemire's method, unbiased). `n` must be non-zero.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "GameRng::below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u64::from(self.next_u32()) * u64::from(n);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seed_differs() {
        let a: Vec<u32> = {
            let mut r = GameRng::from_seed(7);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let b: Vec<u32> = {
            let mut r = GameRng::from_seed(7);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let c: Vec<u32> = {
            let mut r = GameRng::from_seed(8);
            (0..8).map(|_| r.next_u32()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut r = GameRng::from_seed(1);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[r.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = GameRng::from_seed(3);
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..20).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..20).collect::<Vec<_>>());
    }
}
