//! What every game played on by a bot shares — the simulator's games, the
//! forecaster's and the search bot's playouts: how long a game may run before
//! it is called stuck, and the seed each determinized playout is dealt from.

/// The longest a game may run before it is called stuck (a bot bug).
pub const ACTION_LIMIT: usize = 60_000;

/// The determinization seed of playout `i` (SplitMix64 of the two).
pub fn playout_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0x632b_e59b_d9b4_e019);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
